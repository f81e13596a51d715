// hoflow: gmsh -2 -order 3
// Laminar flow past a NACA0012 airfoil (seed 004 §3.1.3: Ma 0.5, alpha 0, Re_c 5000): chord 1 from the
// leading edge (0, 0) to the closed, sharp trailing edge (1, 0), y = ±0.6 (0.2969 sqrt(x) - 0.1260 x
// - 0.3516 x^2 + 0.2843 x^3 - 0.1036 x^4). A structured C-mesh of n x m quadrilaterals (the seed's
// 170 x 30; the test's coarser one: gmsh -setnumber n 86 -setnumber m 16 -setnumber h1 0.005): n cells
// along the C (nw on each
// side of the wake cut, na on each side of the airfoil: 25 + 60 + 60 + 25 for n = 170) and m
// across it. Four transfinite blocks: above and below the airfoil, above and below the wake cut (y = 0 from
// the trailing edge to the outflow), the two sides of the cut sharing its nodes (conforming).
//  - Wall nodes at x = (1 - cos th) / (1 - cos thmax), th uniform in [0, thmax] (thmax = 0.95 pi):
//    cosine clustering at the leading edge (first cell about 0.0045 long), milder at the trailing edge
//    (last cell 0.0039); each wall cell is its own spline through 5 points of the exact NACA curve, so
//    the cells' vertices and their -order 3 nodes lie on the curve (the vertices exactly, the others to
//    the spline's interpolation error: 2.4e-9 at most for the defaults).
//  - Far field at distance R = 20 chords (-setnumber R): the block's outer nodes are the wall nodes
//    moved R along their wall normals (grid lines normal to the wall), the outflow at x = 1 + R.
//  - Across the C: the first cell h1 = 0.0025 chords thick (-setnumber h1) at the wall, growing
//    geometrically (ratio 1.296 for the defaults) to R; the wake cut starts with the trailing edge's
//    cell and grows to the outflow, where the first cell across the cut is 0.05 thick.
// Boundary groups: wall (the airfoil), farfield (the rest of the boundary); surface: domain.
// Curved: the makefile meshes it with -order 3 (Q3 quadrilaterals, read by hoflow as curved cells).
If (!Exists(n)) n = 170; EndIf  // cells along the C (even)
If (!Exists(m)) m = 30; EndIf   // cells across it
If (!Exists(R)) R = 20; EndIf   // far-field distance in chords
If (!Exists(h1)) h1 = 0.0025; EndIf // wall-normal size of the first cell
nw = Round(n * 25 / 170);       // wake cells on each side of the cut
na = (n - 2 * nw) / 2;          // airfoil cells on each side
ns = 3;                         // spline points inside each wall cell
thmax = 0.95 * Pi;
cth = 1 - Cos(thmax);

// the NACA curve at the parameter th (upper side): x, y and the outward unit normal (nx, ny)
Macro NacaPoint
  xw = (1 - Cos(th)) / cth;
  sx = Sqrt(xw);
  yw = 0.6 * (0.2969 * sx - 0.1260 * xw - 0.3516 * xw^2 + 0.2843 * xw^3 - 0.1036 * xw^4);
  // d/dth: dx = sin th / cth; dy = dy/dx dx, with sin th / sqrt(x) = sqrt(2 cth) cos(th / 2) (finite at th = 0)
  dxt = Sin(th) / cth;
  dyt = 0.6 * (0.14845 * Sqrt(2 * cth) * Cos(th / 2) / cth + (-0.1260 - 0.7032 * xw + 0.8529 * xw^2 - 0.4144 * xw^3) * dxt);
  nn = Sqrt(dxt^2 + dyt^2);
  nx = -dyt / nn;
  ny = dxt / nn;
  If (xw > 1 - 1e-12) xw = 1; yw = 0; EndIf  // the closed trailing edge, exactly
Return

// ratio q of m geometric cells of total length L whose first is h: h (q^m - 1) / (q - 1) = L
Macro Ratio
  q = 1.5;
  For it In {1:200}
    q = (1 + L * (q - 1) / h)^(1 / mm);
  EndFor
Return

// wall points (upper side s = 1, lower s = -1; the leading and trailing edges and the outer point
// ahead of the leading edge, (-R, 0), shared) and outer points
pLE = newp; Point(pLE) = {0, 0, 0};
th = thmax; Call NacaPoint;
nxTE = nx; nyTE = ny;
pTE = newp; Point(pTE) = {1, 0, 0};
pU[] = {}; oU[] = {}; pL[] = {}; oL[] = {};
For i In {0:na}
  th = thmax * i / na; Call NacaPoint;
  For si In {0:1}
    s = 1 - 2 * si;
    If (i == 0)
      pw = pLE;
    EndIf
    If (i == na)
      pw = pTE;
    EndIf
    If (i > 0 && i < na)
      pw = newp; Point(pw) = {xw, s * yw, 0};
    EndIf
    If (i > 0 || s == 1)
      po = newp; Point(po) = {xw + R * nx, s * (yw + R * ny), 0};
    EndIf
    If (s == 1)
      pU[] += {pw}; oU[] += {po};
    EndIf
    If (s == -1)
      pL[] += {pw}; oL[] += {po};
    EndIf
  EndFor
EndFor

// one spline per wall cell through ns interior points of the curve, one line per outer cell; the
// lists run from the leading edge to the trailing edge
wU[] = {}; fU[] = {}; wL[] = {}; fL[] = {};
For i In {0:na - 1}
  For si In {0:1}
    s = 1 - 2 * si;
    pts[] = {};
    If (s == 1)
      pts[] = {pU[i]};
    EndIf
    If (s == -1)
      pts[] = {pL[i]};
    EndIf
    For k In {1:ns}
      th = thmax * (i + k / (ns + 1)) / na; Call NacaPoint;
      pk = newp; Point(pk) = {xw, s * yw, 0};
      pts[] += {pk};
    EndFor
    If (s == 1)
      pts[] += {pU[i + 1]};
      c = newl; Spline(c) = pts[]; wU[] += {c};
      c = newl; Line(c) = {oU[i], oU[i + 1]}; fU[] += {c};
    EndIf
    If (s == -1)
      pts[] += {pL[i + 1]};
      c = newl; Spline(c) = pts[]; wL[] += {c};
      c = newl; Line(c) = {oL[i], oL[i + 1]}; fL[] += {c};
    EndIf
  EndFor
EndFor
Transfinite Curve {wU[], wL[], fU[], fL[]} = 2;
rwL[] = {}; rfU[] = {};  // reversed: trailing edge to leading edge
For i In {na - 1:0:-1}
  rwL[] += {-wL[i]}; rfU[] += {-fU[i]};
EndFor

// lines across the C, from the wall out: at the leading edge, at the trailing edge (upper, lower)
L = R; h = h1; mm = m; Call Ratio;
qwall = q;
cLE = newl; Line(cLE) = {pLE, oU[0]};
cTU = newl; Line(cTU) = {pTE, oU[na]};
cTL = newl; Line(cTL) = {pTE, oL[na]};
Transfinite Curve {cLE, cTU, cTL} = m + 1 Using Progression qwall;

// the wake: the cut y = 0 from the trailing edge to the outflow x = 1 + R, starting with the trailing
// edge's wall cell; the outflow lines; the far-field lines from the outflow back to the outer points
// above and below the trailing edge, ending with the outer cell there
xo = 1 + R;
th = thmax * (na - 1) / na; Call NacaPoint;
hTE = Sqrt((1 - xw)^2 + yw^2);                                    // the last wall cell
hT = Sqrt((1 + R * nxTE - xw - R * nx)^2 + (R * nyTE - yw - R * ny)^2); // the outer cell above it
pW = newp; Point(pW) = {xo, 0, 0};
yT = R * nyTE;
pWU = newp; Point(pWU) = {xo, yT, 0};
pWL = newp; Point(pWL) = {xo, -yT, 0};
cW = newl; Line(cW) = {pTE, pW};
L = R; h = hTE; mm = nw; Call Ratio;
Transfinite Curve {cW} = nw + 1 Using Progression q;
cOU = newl; Line(cOU) = {pW, pWU};
cOL = newl; Line(cOL) = {pW, pWL};
L = yT; h = 0.05; mm = m; Call Ratio;
Transfinite Curve {cOU, cOL} = m + 1 Using Progression q;
cFU = newl; Line(cFU) = {oU[na], pWU};
cFL = newl; Line(cFL) = {oL[na], pWL};
L = xo - 1 - R * nxTE; h = hT; mm = nw; Call Ratio;
Transfinite Curve {cFU, cFL} = nw + 1 Using Progression q;

// the four blocks; their first corners pick the sides whose lengths weigh the transfinite
// interpolation (gmsh: the first side and the second), the wall or the cut and a line across the C
Curve Loop(1) = {wU[], cTU, rfU[], -cLE};  // counterclockwise, as every loop: cells of positive orientation
Plane Surface(1) = {1};
Transfinite Surface {1} = {pTE, pLE, oU[0], oU[na]};
Curve Loop(2) = {cLE, fL[], -cTL, rwL[]};
Plane Surface(2) = {2};
Transfinite Surface {2} = {pLE, pTE, oL[na], oL[0]};
Curve Loop(3) = {cW, cOU, -cFU, -cTU};
Plane Surface(3) = {3};
Transfinite Surface {3} = {pTE, pW, pWU, oU[na]};
Curve Loop(4) = {cTL, cFL, -cOL, -cW};
Plane Surface(4) = {4};
Transfinite Surface {4} = {pTE, pW, pWL, oL[na]};
Recombine Surface {1, 2, 3, 4};

Physical Curve("wall") = {wU[], wL[]};
Physical Curve("farfield") = {fU[], fL[], cFU, cFL, cOU, cOL};
Physical Surface("domain") = {1, 2, 3, 4};
