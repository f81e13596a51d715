// Two unit cubes side by side: hexahedra in the first, tetrahedra in the second; Gmsh joins them with pyramids
// (tests/suite_fr_dense.py: -disc fr refuses pyramids at the mesh). Mesh with gmsh -3.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Box(2) = {1, 0, 0, 1, 1, 1};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
Transfinite Curve{:} = 3;
Transfinite Surface{Surface In BoundingBox{-0.1,-0.1,-0.1,1.1,1.1,1.1}};
Recombine Surface{Surface In BoundingBox{-0.1,-0.1,-0.1,1.1,1.1,1.1}};
Transfinite Volume{1};
Recombine Volume{1};
Physical Surface("all") = {Surface{:}};
Physical Volume("domain") = {1, 2};
