// Unit cube [0,1]^3, triangular prisms (168): the bottom face is meshed with unstructured triangles
// (42) and extruded along z in 4 layers (Extrude ... Layers, Recombine), so the prisms have
// triangular faces on z = const and quadrilateral faces elsewhere. 3D: mesh with gmsh -3.
// hoflow: gmsh -3
// PETSc 3.18 reads it through DMSetFromOptions only with -dm_coord_space 0 (it has no P1 coordinate space
// for prisms); see docs/notes/meshes-petsc318.md.
// Boundary groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0),
// top (z = 1); volume group: domain. Refine uniformly with -dm_refine K (each level halves h).
lc = 0.3;
NZ = 4; // layers along z
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Mesh.Algorithm = 6;
ex[] = Extrude {0, 0, 1} { Surface{1}; Layers{NZ}; Recombine; };
// ex[0]: top surface, ex[1]: volume, ex[2..5]: sides extruded from lines 1..4
Physical Surface("left") = {ex[5]};
Physical Surface("right") = {ex[3]};
Physical Surface("front") = {ex[2]};
Physical Surface("back") = {ex[4]};
Physical Surface("bottom") = {1};
Physical Surface("top") = {ex[0]};
Physical Volume("domain") = {ex[1]};
