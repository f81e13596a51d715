// hoflow: gmsh -0
// Mesh B of the supersonic vortex study (seed 002 Table 3): mesh A (supersonic_vortex.geo, 188 triangles)
// split 1 times into four (RefineMesh puts the new boundary nodes on the circles): 188 x 4^1 triangles.
Include "supersonic_vortex.geo";
Mesh 2;
RefineMesh;
