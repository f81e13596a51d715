// Taylor vortex domain [-0.5, 0.5]^2 (seed 000 §4.1): 42 unstructured triangles; -dm_refine K
// halves h K times. Boundary groups: bottom, right, top, left (inflow: bottom, top, left; outflow: right).
lc = 0.3;
Point(1) = {-0.5, -0.5, 0, lc};
Point(2) = {0.5, -0.5, 0, lc};
Point(3) = {0.5, 0.5, 0, lc};
Point(4) = {-0.5, 0.5, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("domain") = {1};
Mesh.Algorithm = 6;
