// Couette channel [0,4] x [0,2] periodic in x with two element shapes: structured quadrilaterals in
// the lower half, unstructured triangles in the upper half (one residual over mixed shapes).
// Groups: bottom and top (the plates), left and right (periodic), surfaces: domain.
lc = 0.8;
Point(1) = {0, 0, 0, lc};
Point(2) = {4, 0, 0, lc};
Point(3) = {4, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Point(5) = {4, 2, 0, lc};
Point(6) = {0, 2, 0, lc};
Line(1) = {1, 2};  // bottom
Line(2) = {2, 3};  // right, lower
Line(3) = {4, 3};  // the middle line
Line(4) = {1, 4};  // left, lower
Line(5) = {3, 5};  // right, upper
Line(6) = {6, 5};  // top
Line(7) = {4, 6};  // left, upper
Curve Loop(1) = {1, 2, -3, -4};
Plane Surface(1) = {1};
Curve Loop(2) = {3, 5, -6, -7};
Plane Surface(2) = {2};
Transfinite Curve {1, 3} = 6;
Transfinite Curve {2, 4} = 3;
Transfinite Surface {1};
Recombine Surface {1};
Periodic Curve {2} = {4} Translate {4, 0, 0};
Periodic Curve {5} = {7} Translate {4, 0, 0};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2, 5};
Physical Curve("top") = {6};
Physical Curve("left") = {4, 7};
Physical Surface("domain") = {1, 2};
Mesh.Algorithm = 6;
