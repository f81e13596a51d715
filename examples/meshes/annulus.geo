// Quarter annulus 1 <= r <= 2, 0 <= theta <= pi/2 (first quadrant), coarse unstructured triangles
// (46), for curved-boundary tests: mesh straight-sided with the makefile's gmsh -2, or with
// curved (isoparametric) elements, the high-order nodes placed on the circles, with
//   gmsh -2 -order 2 -format msh41 annulus.geo -o annulus_p2.msh     (or -order 3)
// and read with -dm_plex_gmsh_highorder (PETSc 3.18: the coordinates become a degree-2/3 PetscFE field).
// Quadrilaterals instead of triangles (25, all quads): add -setnumber quads 1 to the gmsh command;
// structured (polar) quadrilaterals, n x n: -setnumber structured n (n = 4, 8, 16: each halves h).
// Boundary groups: inner (r = 1), outer (r = 2), bottom (y = 0 cut), left (x = 0 cut); surface: domain.
// -dm_refine K refines the straight-sided mesh only (new vertices stay on the chords); on a curved mesh
// PETSc 3.18 returns NaN coordinates (docs/notes/meshes-petsc318.md). For h-convergence studies remesh
// instead: gmsh -clscale 0.5 (0.25, ...) halves h.
lc = 0.4;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {2, 0, 0, lc};
Point(4) = {0, 2, 0, lc};
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
DefineConstant[ quads = {0, Name "quads"}, structured = {0, Name "structured"} ];
Mesh.Algorithm = 6; // (gmsh 4.8.4 crashes on this geometry with Mesh.Algorithm = 8 and Recombine)
If (quads)
  Recombine Surface{1};
EndIf
If (structured)
  Transfinite Curve{1, 2, 3, 4} = structured + 1;
  Transfinite Surface{1};
  Recombine Surface{1};
EndIf
