// Spherical shell 1 <= r <= 2 centred at the origin, coarse unstructured tetrahedra (485), for
// curved-boundary tests in 3D; 3D: mesh with gmsh -3. Straight-sided with the makefile's rule, or curved
// (isoparametric, the high-order nodes on the spheres) with
//   gmsh -3 -order 2 -format msh41 shell.geo -o shell_p2.msh     (or -order 3)
// read with -dm_plex_gmsh_highorder (PETSc 3.18: degree-2/3 PetscFE coordinate field).
// hoflow: gmsh -3
// Curved meshes cannot be refined with -dm_refine in PETSc 3.18 (NaN coordinates): use gmsh -clscale.
// Boundary groups: inner (r = 1), outer (r = 2); volume group: domain.
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 2};
Sphere(2) = {0, 0, 0, 1};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
in[] = Surface In BoundingBox{-1.01, -1.01, -1.01, 1.01, 1.01, 1.01};
out[] = Surface In BoundingBox{-2.01, -2.01, -2.01, 2.01, 2.01, 2.01};
out[] -= in[];
Physical Surface("inner") = {in[]};
Physical Surface("outer") = {out[]};
Physical Volume("domain") = {3};
Mesh.MeshSizeMin = 0.7;
Mesh.MeshSizeMax = 0.7;
