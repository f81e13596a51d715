// Unit cube [0,1]^3, structured tetrahedra: 2 x 2 x 2 boxes of 6 tetrahedra each (transfinite, not
// recombined: 48 tetrahedra); 3D: mesh with gmsh -3. For convergence studies on tetrahedra (the
// incompressible Beltrami flow): refine uniformly with -dm_refine K (each level halves h).
// hoflow: gmsh -3
// Boundary groups: left (x = 0), right (x = 1), front (y = 0), back (y = 1), bottom (z = 0),
// top (z = 1); volume group: domain.
SetFactory("OpenCASCADE");
N = 2; // boxes per edge
Box(1) = {0, 0, 0, 1, 1, 1};
Transfinite Curve {:} = N + 1;
Transfinite Surface {:};
Transfinite Volume {1};
e = 1e-6;
Physical Surface("left") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("right") = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("front") = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
Physical Surface("back") = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("bottom") = Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e};
Physical Surface("top") = Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e};
Physical Volume("domain") = {1};
