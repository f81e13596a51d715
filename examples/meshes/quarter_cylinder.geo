// Hollow quarter cylinder 1 <= sqrt(x^2 + y^2) <= 2, x, y >= 0, 0 <= z <= 1: the quarter annulus of
// annulus.geo with structured (polar) quadrilaterals, n x n (n = 4 by default; -setnumber n 8, 16 halve h),
// extruded by n/2 layers of hexahedra; -setnumber prisms 1: unstructured triangles (size 1.6/n) extruded into
// prisms instead (read them with -dm_coord_space 0). Straight-sided; curve it with the projection onto the cylinders:
//   -curve_inner cylinder -curve_inner_radius 1 -curve_outer cylinder -curve_outer_radius 2
// (axis 0,0,1 through the origin, the defaults of -curve_<group>_axis and _center).
// hoflow: gmsh -3
// Boundary groups: inner (r = 1), outer (r = 2), front (y = 0), left (x = 0), bottom (z = 0), top (z = 1);
// volume group: domain.
DefineConstant[ n = {4, Name "n"}, prisms = {0, Name "prisms"} ];
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {2, 0, 0};
Point(4) = {0, 2, 0};
Point(5) = {0, 1, 0};
Line(1) = {2, 3};
Circle(2) = {3, 1, 4};
Line(3) = {4, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
If (prisms)
  Mesh.MeshSizeMax = 1.6 / n;
Else
  Transfinite Curve{1, 2, 3, 4} = n + 1;
  Transfinite Surface{1};
  Recombine Surface{1};
EndIf
ext[] = Extrude {0, 0, 1} { Surface{1}; Layers{n / 2}; Recombine; };
Physical Surface("bottom") = {1};
Physical Surface("top") = {ext[0]};
Physical Surface("front") = {ext[2]};
Physical Surface("outer") = {ext[3]};
Physical Surface("left") = {ext[4]};
Physical Surface("inner") = {ext[5]};
Physical Volume("domain") = {ext[1]};
