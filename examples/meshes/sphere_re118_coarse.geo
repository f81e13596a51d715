// hoflow: gmsh -3
// The coarse variant of sphere_re118.geo (CPU tests): 216 wall triangles, 3 prism layers, about 3000 tetrahedra.
coarse = 1;
Include "sphere_re118.geo";
