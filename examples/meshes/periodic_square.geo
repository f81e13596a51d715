// Unit square [0,1]^2, periodic in x and y (Gmsh periodic mesh: the right edge's nodes are the left
// edge's translated by (1,0), the top's the bottom's translated by (0,1)); coarse unstructured triangles
// (66). PETSc 3.18 reads the periodicity from the MSH 4.1 $Periodic section (-dm_plex_gmsh_periodic,
// on by default): the mesh is a torus, every edge has two cells, and the cells touching the right/top
// edges get localized (cell) coordinates; see docs/notes/meshes-petsc318.md.
// Groups: bottom, right, top, left (the periodic edges, kept for diagnostics: they are interior edges
// of the periodic mesh), surface: domain. Refine uniformly with -dm_refine K.
lc = 0.2;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; // bottom, +x
Line(2) = {2, 3}; // right, +y
Line(3) = {4, 3}; // top, +x
Line(4) = {1, 4}; // left, +y
Curve Loop(1) = {1, 2, -3, -4};
Plane Surface(1) = {1};
Periodic Curve {2} = {4} Translate {1, 0, 0};
Periodic Curve {3} = {1} Translate {0, 1, 0};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("domain") = {1};
Mesh.Algorithm = 6;
