// Unit cube [0,1]^3 with a conforming MIXED mesh of hexahedra, triangular prisms and tetrahedra and
// NO pyramids (27 hexes, 108 prisms, about 210 tets); 3D: mesh with gmsh -3.
// hoflow: gmsh -3
// PETSc 3.18 reads it with -dm_plex_gmsh_hybrid 0 (else the prisms become tensor prisms, whose
// faces cannot be matched with the hexahedra's) and -dm_coord_space 0 (no P1 coordinate space for
// prisms); see docs/notes/meshes-petsc318.md.
//
// Layout (side view, x to the right, z up; every block spans y in [0, 1]):
//
//   z=1 +-----------+-----------+      H  [0,.5]x[0,.5]: hexahedra (transfinite, recombined)
//       |    P2     |     T     |      P1 [.5,1]x[0,.5]: prisms with triangles on z = const
//       | prisms, x |   tets    |      P2 [0,.5]x[.5,1]: prisms with triangles on x = const
//  z=.5 +-----------+-----------+      T  [.5,1]x[.5,1]: unstructured tetrahedra
//       |     H     |    P1     |
//       |   hexes   | prisms, z |   H meets P1 (x = .5) and P2 (z = .5) through quadrilaterals; T meets
//   z=0 +-----------+-----------+   P1 (z = .5) and P2 (x = .5) through triangles; H and T share only
//      x=0        x=.5         x=1  the edge x = z = .5, so no face needs a pyramid.
//
// The structured blocks are transfinite volumes: gmsh makes prisms of a transfinite volume whose two
// opposite faces are triangulated and whose four other faces are recombined.
// Boundary groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0),
// top (z = 1); volume groups: hex, prism_z, prism_x, tet. Refine uniformly with -dm_refine K.
SetFactory("OpenCASCADE");
n = 4; // nodes per edge of the structured blocks (n - 1 cells per half cube edge, 3 along y)
Box(1) = {0, 0, 0, .5, 1, .5};   // H
Box(2) = {.5, 0, 0, .5, 1, .5};  // P1
Box(3) = {0, 0, .5, .5, 1, .5};  // P2
Box(4) = {.5, 0, .5, .5, 1, .5}; // T
BooleanFragments{ Volume{1, 2, 3}; Delete; }{ Volume{4}; Delete; }
e = 1e-6;
// structured blocks: the lower slab (H, P1) and the left slab (H, P2)
Transfinite Curve { Curve In BoundingBox{-e, -e, -e, 1 + e, 1 + e, .5 + e} } = n;
Transfinite Curve { Curve In BoundingBox{-e, -e, -e, .5 + e, 1 + e, 1 + e} } = n;
Transfinite Surface { Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, .5 + e} };
Transfinite Surface { Surface In BoundingBox{-e, -e, -e, .5 + e, 1 + e, 1 + e} };
Transfinite Volume {1, 2, 3};
// recombine (quadrilaterals): all faces of H, the faces of P1 not normal to z, the faces of P2 not
// normal to x; P1's z-faces and P2's x-faces stay triangulated (they meet T or the boundary)
all[] = Surface{:};
For k In {0 : #all[] - 1}
  bb[] = BoundingBox Surface{all[k]};
  rec = 0;
  If (bb[3] < .5 + e && bb[5] < .5 + e)                 // in H
    rec = 1;
  EndIf
  If (bb[5] < .5 + e && bb[2] < bb[5] - e)              // lower slab, not normal to z
    rec = 1;
  EndIf
  If (bb[3] < .5 + e && bb[2] > .5 - e && bb[0] < bb[3] - e) // P2, not normal to x
    rec = 1;
  EndIf
  If (rec)
    Recombine Surface{all[k]};
  EndIf
EndFor
Mesh.MeshSizeMax = 0.18; // unstructured tetrahedra in T
Physical Surface("left") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("right") = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("front") = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
Physical Surface("back") = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("bottom") = Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};
Physical Surface("top") = Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};
Physical Volume("hex") = {1};
Physical Volume("prism_z") = {2};
Physical Volume("prism_x") = {3};
Physical Volume("tet") = {4};
