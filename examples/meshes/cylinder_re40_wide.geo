// The cylinder of cylinder_re40.geo in a box twice as large, [-30, 60] x [-30, 30] (far-field studies:
// at Re 40 the drag depends on the box by about 2 %, options/cylinder_re40.yaml's header).
L = 2;
Include "cylinder_re40.geo";
