#!/bin/sh
# Install the Debian/Ubuntu packages hoflow needs, only those that are missing.
# PETSc (with hypre, HDF5, MUMPS, OpenMPI) comes from the distribution's petsc-dev.
set -e
PACKAGES="make gcc petsc-dev openmpi-bin libopenmpi-dev libmuparser-dev gmsh pkg-config python3 python3-numpy python3-scipy python3-matplotlib"
# output: h5py reads hoflow's HDF5 in the tests; ParaView's pvbatch renders fields, under Xvfb
# (software OpenGL from Mesa) on machines without a display
PACKAGES="$PACKAGES python3-h5py hdf5-tools paraview python3-paraview xvfb xauth libgl1-mesa-dri"
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "hoflow: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
