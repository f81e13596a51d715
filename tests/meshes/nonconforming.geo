// Two unit cubes side by side, meshed separately with different sizes (no Coherence): their
// touching faces at x = 1 do not match (used by tests/run.py errors/nonconforming-mesh).
// gmsh -3 -format msh41 nonconforming.geo -o nonconforming.msh
SetFactory("OpenCASCADE");
Box(1) = {0,0,0,1,1,1};
Box(2) = {1,0,0,1,1,1};
MeshSize{ PointsOf{ Volume{1}; } } = 1.0;
MeshSize{ PointsOf{ Volume{2}; } } = 0.6;
Physical Volume("fluid") = {1,2};
Physical Surface("wall") = {1,3,4,5,6,8,9,10,11,12};
