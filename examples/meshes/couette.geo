// Couette channel [0,4] x [0,2] (seed 004 §3.1.1), periodic in x (the right edge's nodes are the left
// edge's translated by (4,0)), unstructured triangles (about 26). Groups: bottom and top (the plates),
// left and right (the periodic edges, interior edges of the periodic mesh), surface: domain.
// Refine uniformly with -dm_refine K (mesh family A, B, C of the convergence test).
lc = 0.8;
Point(1) = {0, 0, 0, lc};
Point(2) = {4, 0, 0, lc};
Point(3) = {4, 2, 0, lc};
Point(4) = {0, 2, 0, lc};
Line(1) = {1, 2}; // bottom, +x
Line(2) = {2, 3}; // right, +y
Line(3) = {4, 3}; // top, +x
Line(4) = {1, 4}; // left, +y
Curve Loop(1) = {1, 2, -3, -4};
Plane Surface(1) = {1};
Periodic Curve {2} = {4} Translate {4, 0, 0};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("domain") = {1};
Mesh.Algorithm = 6;
