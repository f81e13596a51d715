/* The shape table (hoflow/shape.h) and the registry of per-shape reference operations
 * (hoflow/ref.h RefShapeOps): adding a shape is a row here, one file ref/<shape>.c and its
 * kernels. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

/* clang-format off */
const RefShapeInfo RefShapeTable[REF_NUM_SHAPES] = {
  [REF_TRIANGLE] = {"triangle", 2, 3, 3, 0,
                    {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}},
                    {REF_SEGMENT, REF_SEGMENT, REF_SEGMENT}, {2, 2, 2},
                    {{0, 1}, {1, 2}, {2, 0}}, 2.0},
  [REF_QUADRILATERAL] = {"quadrilateral", 2, 4, 4, 1,
                         {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}},
                         {REF_SEGMENT, REF_SEGMENT, REF_SEGMENT, REF_SEGMENT}, {2, 2, 2, 2},
                         {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 4.0},
  [REF_TETRAHEDRON] = {"tetrahedron", 3, 4, 4, 0,
                       {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
                       {REF_TRIANGLE, REF_TRIANGLE, REF_TRIANGLE, REF_TRIANGLE}, {3, 3, 3, 3},
                       {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}}, 4.0 / 3.0},
  [REF_PRISM] = {"prism", 3, 6, 5, 0,
                 {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}},
                 {REF_TRIANGLE, REF_QUADRILATERAL, REF_QUADRILATERAL, REF_QUADRILATERAL, REF_TRIANGLE}, {3, 4, 4, 4, 3},
                 {{0, 1, 2}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}, {3, 4, 5}}, 4.0},
  [REF_HEXAHEDRON] = {"hexahedron", 3, 8, 6, 1,
                      {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
                      {REF_QUADRILATERAL, REF_QUADRILATERAL, REF_QUADRILATERAL, REF_QUADRILATERAL, REF_QUADRILATERAL, REF_QUADRILATERAL}, {4, 4, 4, 4, 4, 4},
                      {{0, 1, 2, 3}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}}, 8.0},
  [REF_SEGMENT] = {"segment", 1, 2, 2, 1, {{-1, 0, 0}, {1, 0, 0}}, {REF_NUM_SHAPES, REF_NUM_SHAPES}, {1, 1}, {{0}, {1}}, 2.0},
};
/* clang-format on */

/* For PetscOptionsEnum-style lists and messages: names in RefShape order. */
const char *const RefShapes[] = {"triangle", "quadrilateral", "tetrahedron", "prism", "hexahedron", "segment", "RefShape", "REF_", NULL};

int RefShapeNumNodes(RefShape shape, int N)
{
  switch (shape) {
  case REF_TRIANGLE:
    return (N + 1) * (N + 2) / 2;
  case REF_QUADRILATERAL:
    return (N + 1) * (N + 1);
  case REF_TETRAHEDRON:
    return (N + 1) * (N + 2) * (N + 3) / 6;
  case REF_PRISM:
    return (N + 1) * (N + 1) * (N + 2) / 2;
  case REF_HEXAHEDRON:
    return (N + 1) * (N + 1) * (N + 1);
  case REF_SEGMENT:
    return N + 1;
  default:
    return 0;
  }
}

PETSC_EXTERN const RefShapeOps RefShapeOps_Segment, RefShapeOps_Triangle, RefShapeOps_Quadrilateral, RefShapeOps_Tetrahedron, RefShapeOps_Prism, RefShapeOps_Hexahedron;

PetscErrorCode RefShapeGetOps(RefShape shape, const RefShapeOps **ops)
{
  PetscFunctionBeginUser;
  *ops = NULL;
  switch (shape) {
  case REF_SEGMENT:
    *ops = &RefShapeOps_Segment;
    break;
  case REF_TRIANGLE:
    *ops = &RefShapeOps_Triangle;
    break;
  case REF_QUADRILATERAL:
    *ops = &RefShapeOps_Quadrilateral;
    break;
  case REF_TETRAHEDRON:
    *ops = &RefShapeOps_Tetrahedron;
    break;
  case REF_PRISM:
    *ops = &RefShapeOps_Prism;
    break;
  case REF_HEXAHEDRON:
    *ops = &RefShapeOps_Hexahedron;
    break;
  default:
    break;
  }
  PetscCheck(*ops && (*ops)->nodes, PETSC_COMM_SELF, PETSC_ERR_SUP, "Reference shape %s is not implemented", shape >= 0 && shape < REF_NUM_SHAPES ? RefShapeTable[shape].name : "(unknown)");
  PetscFunctionReturn(PETSC_SUCCESS);
}
