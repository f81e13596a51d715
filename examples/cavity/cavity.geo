// Lid-driven cavity: the unit square as 8 x 8 structured quadrilaterals. Boundary groups: lid (the
// top side, moving), walls (the other three sides). Refine with -dm_refine K (each level halves h)
// or change n. gmsh -2 cavity.geo -format msh22 -o cavity.msh
n = 8;
Point(1) = {0, 0, 0, 1};
Point(2) = {1, 0, 0, 1};
Point(3) = {1, 1, 0, 1};
Point(4) = {0, 1, 0, 1};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 2, 3, 4} = n + 1;
Transfinite Surface{1};
Recombine Surface{1};
Physical Curve("lid") = {3};
Physical Curve("walls") = {1, 2, 4};
Physical Surface("fluid") = {1};
