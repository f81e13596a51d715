// Quarter annulus 1 <= r <= 1.384, 0 <= theta <= pi/2: the supersonic vortex of seed 002 §5.1 (its mesh A
// has 180 triangles). Unstructured triangles of size lc (-setnumber lc 0.1 ...; -clscale halves h); the
// circles are curved by the problem's -curve_inner/-curve_outer circle projections, or by gmsh -order 2|3.
// Groups: inner (r = 1), outer (r = 1.384), bottom (y = 0: inflow), left (x = 0: outflow).
DefineConstant[ lc = {0.1, Name "lc"} ];
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1.384, 0, 0, lc};
Point(4) = {0, 1.384, 0, lc};
Point(5) = {0, 1, 0, lc};
Line(1) = {2, 3};
Circle(2) = {3, 1, 4};
Line(3) = {4, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Curve("bottom") = {1};
Physical Curve("outer") = {2};
Physical Curve("left") = {3};
Physical Curve("inner") = {4};
Physical Surface("domain") = {1};
Mesh.Algorithm = 6;
