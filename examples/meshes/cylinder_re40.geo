// Flow past a circular cylinder (seed 004 §3.1.2: Ma 0.2, Re 40): diameter 1 at the origin, domain
// [-15, 30] x [-15, 15]. A ring of structured quadrilaterals around the wall (0.5 <= r <= 1.5, 40 x 8
// cells, graded towards the wall) and unstructured triangles outside: a mixed mesh. Boundary groups:
// wall (the circle; curve it with -curve_wall circle -curve_wall_radius 0.5), farfield (the box).
// Refine with gmsh -clscale (a curved wall is not refined by -dm_refine).
If (!Exists(nt)) nt = 11; EndIf  // points per quarter of the circle (gmsh -setnumber nt 16)
If (!Exists(nr)) nr = 9; EndIf   // points across the ring
If (!Exists(L)) L = 1; EndIf     // the box scaled by L about the cylinder (domain-size studies: gmsh -setnumber L 2)
lr = 0.24;  // triangles at the ring
lf = 3.0;   // far field
Point(1) = {0, 0, 0};
For k In {0:3}
  a = Pi / 4 + k * Pi / 2;
  Point(10 + k) = {0.5 * Cos(a), 0.5 * Sin(a), 0, lr};
  Point(20 + k) = {1.5 * Cos(a), 1.5 * Sin(a), 0, lr};
EndFor
For k In {0:3}
  Circle(10 + k) = {10 + k, 1, 10 + (k + 1) % 4};  // wall arcs
  Circle(20 + k) = {20 + k, 1, 20 + (k + 1) % 4};  // ring's outer arcs
  Line(30 + k) = {10 + k, 20 + k};                 // radial lines, from the wall out
EndFor
For k In {0:3}
  Curve Loop(40 + k) = {-(10 + k), 30 + k, 20 + k, -(30 + (k + 1) % 4)};
  Plane Surface(40 + k) = {40 + k};
  Transfinite Curve {10 + k, 20 + k} = nt;
  Transfinite Curve {30 + k} = nr Using Progression 1.25;
  Transfinite Surface {40 + k};
  Recombine Surface {40 + k};
EndFor
Point(2) = {-15 * L, -15 * L, 0, lf * L};
Point(3) = {30 * L, -15 * L, 0, lf * L};
Point(4) = {30 * L, 15 * L, 0, lf * L};
Point(5) = {-15 * L, 15 * L, 0, lf * L};
Line(1) = {2, 3};
Line(2) = {3, 4};
Line(3) = {4, 5};
Line(4) = {5, 2};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {20, 21, 22, 23};
Plane Surface(1) = {1, 2};
// the wake: smaller triangles behind the cylinder, up to x = 8
Field[1] = Box;
Field[1].VIn = 0.35;
Field[1].VOut = lf;
Field[1].XMin = 0;
Field[1].XMax = 8;
Field[1].YMin = -1.8;
Field[1].YMax = 1.8;
Field[1].Thickness = 6;
Background Field = 1;
Mesh.MeshSizeExtendFromBoundary = 1;
Physical Curve("wall") = {10, 11, 12, 13};
Physical Curve("farfield") = {1, 2, 3, 4};
Physical Surface("domain") = {40, 41, 42, 43, 1};
Mesh.Algorithm = 6;
