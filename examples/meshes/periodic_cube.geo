// Unit cube [0,1]^3, periodic in x, y and z (Gmsh periodic mesh: the right/back/top faces' nodes are the
// left/front/bottom faces' translated by one period), coarse unstructured tetrahedra (414); 3D:
// mesh with gmsh -3.
// hoflow: gmsh -3
// PETSc 3.18 reads the periodicity from the MSH 4.1 $Periodic section (-dm_plex_gmsh_periodic, on by
// default): the mesh is a 3-torus, every face has two cells, and the cells on the periodic boundary get
// localized (cell) coordinates; see docs/notes/meshes-petsc318.md.
// Groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0), top (z = 1) (the
// periodic faces, kept for diagnostics: they are interior faces of the periodic mesh); volume: domain.
// Refine uniformly with -dm_refine K.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
e = 1e-6;
left[] = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
right[] = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
front[] = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
back[] = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
bottom[] = Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};
top[] = Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};
Periodic Surface {right[0]} = {left[0]} Translate {1, 0, 0};
Periodic Surface {back[0]} = {front[0]} Translate {0, 1, 0};
Periodic Surface {top[0]} = {bottom[0]} Translate {0, 0, 1};
Physical Surface("left") = {left[]};
Physical Surface("right") = {right[]};
Physical Surface("front") = {front[]};
Physical Surface("back") = {back[]};
Physical Surface("bottom") = {bottom[]};
Physical Surface("top") = {top[]};
Physical Volume("domain") = {1};
Mesh.MeshSizeMin = 0.25;
Mesh.MeshSizeMax = 0.25;
