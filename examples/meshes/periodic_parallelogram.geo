// A periodic parallelogram (0,0) (1,0) (2,1) (1,1) of structured, sheared quadrilaterals (transfinite +
// recombine): every cell is the same parallelogram (affine, with off-diagonal metric terms dr/dy != 0),
// periodic by (1,0) across the slanted edges and by (1,1) across the bottom and top. Both translations are
// periods of the unit square's lattice, so a unit-periodic exact solution (the isentropic vortex) is this
// domain's too: a test of the metric terms of -disc fr on non-rectangular affine cells.
// Groups: bottom, right, top, left (interior on the periodic mesh), surface: domain. Refine with -dm_refine K.
N = 8; // cells per edge
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {2, 1, 0};
Point(4) = {1, 1, 0};
Line(1) = {1, 2}; // bottom
Line(2) = {2, 3}; // right
Line(3) = {4, 3}; // top
Line(4) = {1, 4}; // left
Curve Loop(1) = {1, 2, -3, -4};
Plane Surface(1) = {1};
Transfinite Curve {1, 2, 3, 4} = N + 1;
Transfinite Surface {1};
Recombine Surface {1};
Periodic Curve {2} = {4} Translate {1, 0, 0};
Periodic Curve {3} = {1} Translate {1, 1, 0};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("domain") = {1};
