// A periodic unit square of non-affine (bilinear) quadrilaterals: four transfinite patches meet at the moved
// centre (0.6, 0.4), so every cell is a general quadrilateral (its map is bilinear, not affine), while the
// square's sides stay straight and periodic by (1,0) and (0,1). For the metric terms of -disc fr at every
// solution and face point: a uniform state must stay uniform to round-off (free-stream preservation), and the
// unit-periodic isentropic vortex runs on it. Groups: bottom, right, top, left (interior on the periodic mesh),
// surface: domain. N cells per patch edge (2N a side); refine with -dm_refine K (sub-cells stay bilinear).
N = 4;
Point(1) = {0, 0, 0};
Point(2) = {0.5, 0, 0};
Point(3) = {1, 0, 0};
Point(4) = {1, 0.5, 0};
Point(5) = {1, 1, 0};
Point(6) = {0.5, 1, 0};
Point(7) = {0, 1, 0};
Point(8) = {0, 0.5, 0};
Point(9) = {0.6, 0.4, 0};
Line(1) = {1, 2}; // bottom
Line(2) = {2, 3}; // bottom
Line(3) = {3, 4}; // right
Line(4) = {4, 5}; // right
Line(5) = {7, 6}; // top
Line(6) = {6, 5}; // top
Line(7) = {1, 8}; // left
Line(8) = {8, 7}; // left
Line(9) = {2, 9};
Line(10) = {9, 4};
Line(11) = {9, 6};
Line(12) = {8, 9};
Curve Loop(1) = {1, 9, -12, -7};
Curve Loop(2) = {2, 3, -10, -9};
Curve Loop(3) = {10, 4, -6, -11};
Curve Loop(4) = {12, 11, -5, -8};
Plane Surface(1) = {1};
Plane Surface(2) = {2};
Plane Surface(3) = {3};
Plane Surface(4) = {4};
Transfinite Curve {1:12} = N + 1;
Transfinite Surface {1:4};
Recombine Surface {1:4};
Periodic Curve {3} = {7} Translate {1, 0, 0};
Periodic Curve {4} = {8} Translate {1, 0, 0};
Periodic Curve {5} = {1} Translate {0, 1, 0};
Periodic Curve {6} = {2} Translate {0, 1, 0};
Physical Curve("bottom") = {1, 2};
Physical Curve("right") = {3, 4};
Physical Curve("top") = {5, 6};
Physical Curve("left") = {7, 8};
Physical Surface("domain") = {1:4};
