#!/bin/sh
# Run a CUDA kernel source of cuda/ on the CPU against its host twin (no GPU needed): the <<<...>>> launches
# rewritten to EmuLaunch (tests/emu/cuda_runtime.h), compiled with g++ beside the host kernel object.
# Usage: tests/emu/run.sh sem   (cuda/sem.cu, harness tests/emu/sem_emu.cpp; make first)
#        tests/emu/run.sh sem_flow (cuda/sem_flow.cu against src/kernels/sem_flow.c, which uses sem.c's passes)
#        tests/emu/run.sh sem_stokes   (cuda/sem_stokes.cu, harness tests/emu/sem_stokes_emu.cpp)
#        tests/emu/run.sh halo   (cuda/halo.cu, the batched halo exchange's pack and unpack, harness tests/emu/halo_emu.cpp)
set -e
cd "$(dirname "$0")/../.."
k=${1:-sem}
out=build/emu
mkdir -p $out
sed -E 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/EmuLaunch(\3, \1, \4);/' cuda/$k.cu > $out/$k.cu.emu
objs=build/kernels/$k.o
[ $k = sem_flow ] && objs="$objs build/kernels/sem.o"
[ $k = sem_stokes ] && objs="$objs build/kernels/sem.o" # SEMTensorApply
g++ -std=c++20 -O1 -pthread -Wno-unknown-pragmas -Itests/emu -Isrc/include -I$out -o $out/${k}_emu tests/emu/${k}_emu.cpp $objs
$out/${k}_emu
