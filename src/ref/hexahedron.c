/* The hexahedron: reference operations (hoflow/ref.h RefShapeOps). */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

const RefShapeOps RefShapeOps_Hexahedron = {NULL, NULL, NULL, NULL};
