/* The prism: reference operations (hoflow/ref.h RefShapeOps). */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

const RefShapeOps RefShapeOps_Prism = {NULL, NULL, NULL, NULL};
