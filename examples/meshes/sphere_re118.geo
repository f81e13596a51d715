// hoflow: gmsh -3
// Flow past a sphere (seed 003 §VIII.A: Re 118, Ma 0.2): diameter 1 at the origin, spherical far field of
// radius R. A boundary layer of prisms (the wall's triangles extruded along the normals, nl layers, first
// layer h1, geometric growth) and tetrahedra outside, growing towards the far field, finer in a wake box
// behind the sphere (0 < x < 4). Groups: wall (curve it with -curve_wall sphere -curve_wall_radius 0.5),
// farfield (curve with -curve_farfield sphere -curve_farfield_radius R), fluid.
// The default is the fine mesh (of the seed's size); gmsh -setnumber coarse 1 gives the CPU test mesh, -setnumber
// medium 1 the one-GPU steady run's (sphere_re118_medium.geo).
If (!Exists(coarse)) coarse = 0; EndIf
If (!Exists(medium)) medium = 0; EndIf
If (!Exists(R)) R = 20; EndIf
If (coarse)
  hw = 0.2; nl = 3; h1 = 0.04; grow = 1.6; growth = 0.5; hwake = 0.7; hfar = 8;
ElseIf (medium)
  hw = 0.1; nl = 5; h1 = 0.015; grow = 1.4; growth = 0.3; hwake = 0.3; hfar = 5;
Else
  hw = 0.045; nl = 10; h1 = 0.006; grow = 1.2; growth = 0.15; hwake = 0.15; hfar = 3;
EndIf
r = 0.5;
Point(1) = {0, 0, 0, hw};
Point(2) = {r, 0, 0, hw}; Point(3) = {0, r, 0, hw}; Point(4) = {-r, 0, 0, hw};
Point(5) = {0, -r, 0, hw}; Point(6) = {0, 0, r, hw}; Point(7) = {0, 0, -r, hw};
Circle(1) = {2, 1, 3}; Circle(2) = {3, 1, 4}; Circle(3) = {4, 1, 5}; Circle(4) = {5, 1, 2};
Circle(5) = {2, 1, 6}; Circle(6) = {6, 1, 4}; Circle(7) = {4, 1, 7}; Circle(8) = {7, 1, 2};
Circle(9) = {3, 1, 6}; Circle(10) = {6, 1, 5}; Circle(11) = {5, 1, 7}; Circle(12) = {7, 1, 3};
// octants, oriented with the normal out of the sphere
Curve Loop(1) = {1, 9, -5};   Surface(1) = {1} In Sphere {1};
Curve Loop(2) = {2, -6, -9};  Surface(2) = {2} In Sphere {1};
Curve Loop(3) = {3, -10, 6};  Surface(3) = {3} In Sphere {1};
Curve Loop(4) = {4, 5, 10};   Surface(4) = {4} In Sphere {1};
Curve Loop(5) = {-1, -8, 12}; Surface(5) = {5} In Sphere {1};
Curve Loop(6) = {-2, -12, -7};Surface(6) = {6} In Sphere {1};
Curve Loop(7) = {-3, 7, -11}; Surface(7) = {7} In Sphere {1};
Curve Loop(8) = {-4, 11, 8};  Surface(8) = {8} In Sphere {1};
// the boundary layer: nl layers, heights h1 grow^k, cumulative
t = 0;
For k In {0:nl-1}
  one[k] = 1;
  t += h1 * grow^k;
  hts[k] = t;
EndFor
bl[] = Extrude {Surface{1:8}; Layers{one[], hts[]}; Recombine;};
// the layer's top surfaces: bl[0], bl[6], ... (each extruded surface gives top, volume, 3 sides)
top[] = {};
vol[] = {};
For s In {0:7}
  top[] += bl[5 * s];
  vol[] += bl[5 * s + 1];
EndFor
// far field
Point(1011) = {R, 0, 0, hfar}; Point(1012) = {0, R, 0, hfar}; Point(1013) = {-R, 0, 0, hfar};
Point(1014) = {0, -R, 0, hfar}; Point(1015) = {0, 0, R, hfar}; Point(1016) = {0, 0, -R, hfar};
Circle(1021) = {1011, 1, 1012}; Circle(1022) = {1012, 1, 1013}; Circle(1023) = {1013, 1, 1014}; Circle(1024) = {1014, 1, 1011};
Circle(1025) = {1011, 1, 1015}; Circle(1026) = {1015, 1, 1013}; Circle(1027) = {1013, 1, 1016}; Circle(1028) = {1016, 1, 1011};
Circle(1029) = {1012, 1, 1015}; Circle(1030) = {1015, 1, 1014}; Circle(1031) = {1014, 1, 1016}; Circle(1032) = {1016, 1, 1012};
Curve Loop(1021) = {1021, 1029, -1025};  Surface(1021) = {1021} In Sphere {1};
Curve Loop(1022) = {1022, -1026, -1029}; Surface(1022) = {1022} In Sphere {1};
Curve Loop(1023) = {1023, -1030, 1026};  Surface(1023) = {1023} In Sphere {1};
Curve Loop(1024) = {1024, 1025, 1030};   Surface(1024) = {1024} In Sphere {1};
Curve Loop(1025) = {-1021, -1028, 1032}; Surface(1025) = {1025} In Sphere {1};
Curve Loop(1026) = {-1022, -1032, -1027};Surface(1026) = {1026} In Sphere {1};
Curve Loop(1027) = {-1023, 1027, -1031}; Surface(1027) = {1027} In Sphere {1};
Curve Loop(1028) = {-1024, 1031, 1028};  Surface(1028) = {1028} In Sphere {1};
Surface Loop(1040) = {1021:1028};
Surface Loop(1041) = {top[]};
Volume(1040) = {1040, 1041};
// sizes: growing with the distance from the sphere, finer in the wake box
Field[1] = MathEval;
Field[1].F = Sprintf("%g + %g * (Sqrt(x*x + y*y + z*z) - 0.5)", hw, growth);
Field[2] = Box;
Field[2].VIn = hwake; Field[2].VOut = hfar;
Field[2].XMin = -1; Field[2].XMax = 4; Field[2].YMin = -1; Field[2].YMax = 1; Field[2].ZMin = -1; Field[2].ZMax = 1;
Field[2].Thickness = 3;
Field[3] = Min;
Field[3].FieldsList = {1, 2};
Field[4] = MathEval;
Field[4].F = Sprintf("%g", hfar);
Field[5] = Min;
Field[5].FieldsList = {3, 4};
Background Field = 5;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Physical Surface("wall") = {1:8};
Physical Surface("farfield") = {1021:1028};
Physical Volume("fluid") = {vol[], 1040};
