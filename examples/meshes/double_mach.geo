// Double Mach reflection (seed 002 §5.2): [0, 4] x [0, 1], unstructured triangles of size lc
// (-setnumber lc 0.025 ...; the default 0.05 gives about 3800 triangles). The reflecting wall starts at
// x = 1/6: groups inflow_bottom (0 <= x <= 1/6, y = 0), wall (1/6 <= x <= 4, y = 0), right, top, left.
DefineConstant[ lc = {0.05, Name "lc"} ];
Point(1) = {0, 0, 0, lc};
Point(2) = {1/6, 0, 0, lc};
Point(3) = {4, 0, 0, lc};
Point(4) = {4, 1, 0, lc};
Point(5) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 5};
Line(5) = {5, 1};
Curve Loop(1) = {1, 2, 3, 4, 5};
Plane Surface(1) = {1};
Physical Curve("inflow_bottom") = {1};
Physical Curve("wall") = {2};
Physical Curve("right") = {3};
Physical Curve("top") = {4};
Physical Curve("left") = {5};
Physical Surface("domain") = {1};
Mesh.Algorithm = 6;
