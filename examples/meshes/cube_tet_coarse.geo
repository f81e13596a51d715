// Unit cube [0,1]^3, unstructured tetrahedra (coarse: 101 tets; the solver study's coarsest tetrahedral mesh); 3D: mesh with gmsh -3.
// hoflow: gmsh -3
// Boundary groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0),
// top (z = 1); volume group: domain. Refine uniformly with -dm_refine K (each level halves h).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
e = 1e-6;
Physical Surface("left") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("right") = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("front") = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
Physical Surface("back") = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("bottom") = Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};
Physical Surface("top") = Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};
Physical Volume("domain") = {1};
Mesh.MeshSizeMin = 0.5;
Mesh.MeshSizeMax = 0.5;
