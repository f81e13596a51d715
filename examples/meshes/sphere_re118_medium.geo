// hoflow: gmsh -3
// The medium variant of sphere_re118.geo (the one-GPU steady run at N = 3, options/sphere_re118.yaml): 5 prism layers
// (first 0.015 d, growth 1.4), wall size 0.1, wake box size 0.3.
medium = 1;
Include "sphere_re118.geo";
