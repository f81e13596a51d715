/* The tetrahedron: reference operations (hoflow/ref.h RefShapeOps). */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

const RefShapeOps RefShapeOps_Tetrahedron = {NULL, NULL, NULL, NULL};
