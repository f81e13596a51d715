// DFG benchmark 2D-1 (Schaefer & Turek 1996): a cylinder of radius 0.05 centred at (0.2, 0.2) in the
// channel [0, 2.2] x [0, 0.41]. Boundary groups: inlet (x = 0), outlet (x = 2.2), walls (y = 0 and
// y = 0.41), cylinder. hoflow's incompressible operators need straight-sided elements, so the
// cylinder is a polygon of ncyl sides (its nodes on the circle). Triangles of size lc_cyl at the
// cylinder growing to lc far away. gmsh -2 channel_cylinder.geo -format msh41 -o channel_cylinder.msh
ncyl = 40;
lc = 0.05;
lc_cyl = 2 * Pi * 0.05 / ncyl;
Point(1) = {0, 0, 0, lc};
Point(2) = {2.2, 0, 0, lc};
Point(3) = {2.2, 0.41, 0, lc};
Point(4) = {0, 0.41, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Point(5) = {0.2, 0.2, 0, lc_cyl};
Point(6) = {0.25, 0.2, 0, lc_cyl};
Point(7) = {0.2, 0.25, 0, lc_cyl};
Point(8) = {0.15, 0.2, 0, lc_cyl};
Point(9) = {0.2, 0.15, 0, lc_cyl};
Circle(5) = {6, 5, 7};
Circle(6) = {7, 5, 8};
Circle(7) = {8, 5, 9};
Circle(8) = {9, 5, 6};
Transfinite Curve{5, 6, 7, 8} = ncyl / 4 + 1;
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, 8};
Plane Surface(1) = {1, 2};
// refinement in the wake
Field[1] = Distance;
Field[1].CurvesList = {5, 6, 7, 8};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = lc_cyl;
Field[2].SizeMax = lc;
Field[2].DistMin = 0.01;
Field[2].DistMax = 0.3;
Background Field = 2;
Mesh.CharacteristicLengthExtendFromBoundary = 0;
Physical Curve("inlet") = {4};
Physical Curve("outlet") = {2};
Physical Curve("walls") = {1, 3};
Physical Curve("cylinder") = {5, 6, 7, 8};
Physical Surface("fluid") = {1};
