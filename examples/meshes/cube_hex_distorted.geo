// Unit cube [0,1]^3, structured but NON-AFFINE hexahedra, 4 x 4 x 4: the node spacing along each family
// of parallel cube edges is graded in opposite directions on opposite edges (progression r and 1/r), so
// the transfinite interpolation gives trapezoidal faces and non-parallelepiped cells (the Jacobian varies
// inside each cell); interior faces are bilinear (non-planar). For testing curvilinear hex geometry
// (metric terms, free-stream preservation) on a simple domain. 3D: mesh with gmsh -3.
// hoflow: gmsh -3
// Boundary groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0),
// top (z = 1); volume group: domain. Refine uniformly with -dm_refine K (each level halves h).
N = 4;   // cells per edge
r = 1.3; // grading ratio between consecutive cells along an edge: per cell, the bilinear (non-affine)
         // coefficients reach 0.2 of the cell diameter and det J varies by up to a factor 3.4 (r = 1.6: 0.42, 35)
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {1, 1, 0};
Point(4) = {0, 1, 0};
Point(5) = {0, 0, 1};
Point(6) = {1, 0, 1};
Point(7) = {1, 1, 1};
Point(8) = {0, 1, 1};
// x-parallel edges: (y,z) = (0,0), (1,1) run +x; (1,0), (0,1) run -x
Line(1) = {1, 2};
Line(2) = {3, 4};
Line(3) = {6, 5};
Line(4) = {7, 8};
// y-parallel edges: (x,z) = (0,0), (1,1) run +y; (1,0), (0,1) run -y
Line(5) = {1, 4};
Line(6) = {3, 2};
Line(7) = {8, 5};
Line(8) = {6, 7};
// z-parallel edges: (x,y) = (0,0), (1,1) run +z; (1,0), (0,1) run -z
Line(9) = {1, 5};
Line(10) = {6, 2};
Line(11) = {8, 4};
Line(12) = {3, 7};
Transfinite Curve {1:12} = N + 1 Using Progression r;
Curve Loop(1) = {1, -6, 2, -5};   // bottom z = 0
Curve Loop(2) = {-3, 8, 4, 7};    // top z = 1
Curve Loop(3) = {1, -10, 3, -9};  // front y = 0
Curve Loop(4) = {-2, 12, 4, 11};  // back y = 1
Curve Loop(5) = {5, -11, 7, -9};  // left x = 0
Curve Loop(6) = {-6, 12, -8, 10}; // right x = 1
For s In {1:6}
  Plane Surface(s) = {s};
EndFor
Surface Loop(1) = {1:6};
Volume(1) = {1};
Transfinite Surface {1:6};
Recombine Surface {1:6};
Transfinite Volume {1};
Physical Surface("left") = {5};
Physical Surface("right") = {6};
Physical Surface("front") = {3};
Physical Surface("back") = {4};
Physical Surface("bottom") = {1};
Physical Surface("top") = {2};
Physical Volume("domain") = {1};
