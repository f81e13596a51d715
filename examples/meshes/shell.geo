// Spherical shell 1 <= r <= 2 centred at the origin, coarse unstructured tetrahedra (485), for
// curved-boundary tests in 3D; 3D: mesh with gmsh -3. Straight-sided with the makefile's rule, or curved
// (isoparametric, the high-order nodes on the spheres) with
//   gmsh -3 -order 2 -format msh41 shell.geo -o shell_p2.msh     (or -order 3)
// read with -dm_plex_gmsh_highorder (PETSc 3.18: degree-2/3 PetscFE coordinate field).
// hoflow: gmsh -3
// Curved meshes cannot be refined with -dm_refine in PETSc 3.18 (NaN coordinates): use gmsh -clscale.
// Boundary groups: inner (r = 1), outer (r = 2); volume group: domain.
// The octant x, y, z >= 0 of the shell instead (-setnumber octant 1): cut planes named left (x = 0),
// front (y = 0), bottom (z = 0); about as many tetrahedra (448) at half the size (0.35).
SetFactory("OpenCASCADE");
DefineConstant[ octant = {0, Name "octant"} ];
Sphere(1) = {0, 0, 0, 2};
Sphere(2) = {0, 0, 0, 1};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
If (octant)
  Box(4) = {0, 0, 0, 3, 3, 3};
  BooleanIntersection(5) = { Volume{3}; Delete; }{ Volume{4}; Delete; };
  in[] = Surface In BoundingBox{-0.01, -0.01, -0.01, 1.01, 1.01, 1.01};
  x0[] = Surface In BoundingBox{-0.01, -0.01, -0.01, 0.01, 2.01, 2.01};
  y0[] = Surface In BoundingBox{-0.01, -0.01, -0.01, 2.01, 0.01, 2.01};
  z0[] = Surface In BoundingBox{-0.01, -0.01, -0.01, 2.01, 2.01, 0.01};
  out[] = Surface In BoundingBox{-0.01, -0.01, -0.01, 2.01, 2.01, 2.01};
  out[] -= in[];
  out[] -= x0[];
  out[] -= y0[];
  out[] -= z0[];
  Physical Surface("inner") = {in[]};
  Physical Surface("outer") = {out[]};
  Physical Surface("left") = {x0[]};
  Physical Surface("front") = {y0[]};
  Physical Surface("bottom") = {z0[]};
  Physical Volume("domain") = {5};
  Mesh.MeshSizeMin = 0.35;
  Mesh.MeshSizeMax = 0.35;
Else
  in[] = Surface In BoundingBox{-1.01, -1.01, -1.01, 1.01, 1.01, 1.01};
  out[] = Surface In BoundingBox{-2.01, -2.01, -2.01, 2.01, 2.01, 2.01};
  out[] -= in[];
  Physical Surface("inner") = {in[]};
  Physical Surface("outer") = {out[]};
  Physical Volume("domain") = {3};
  Mesh.MeshSizeMin = 0.7;
  Mesh.MeshSizeMax = 0.7;
EndIf
