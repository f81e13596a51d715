/* Small differences between the PETSc versions hoflow builds against (Debian's 3.18, CUDA 3.22). */
#pragma once

#include <petscsys.h>

#ifndef PETSC_SUCCESS
#  define PETSC_SUCCESS 0
#endif
