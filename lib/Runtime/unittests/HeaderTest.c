/*===- HeaderTest.c - Runtime.h compiles as C and links ------------------===*\
|*                                                                            *|
|* Compiled as strict C99 because the header is a C interface: a C++-only    *|
|* construct slipping into it would break generated host code and C users.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "isaac/Runtime/Runtime.h"

#include <string.h>

int isaacHeaderTestFromC(void);

int isaacHeaderTestFromC(void) {
  isaacKernelInfo info;
  isaacGemmArgs args;
  if (strcmp(isaacStatusName(ISAAC_SUCCESS), "ISAAC_SUCCESS") != 0)
    return 1;
  if (isaacParseKernelName(
          "isaac_gemm_f64_tt_ml32_nl32_ms4_ns4_u8_ks1_kl2_kg3_v2", &info) !=
      ISAAC_SUCCESS)
    return 2;
  if (info.dtype != ISAAC_F64 || !info.transA || !info.transB ||
      info.threads != 128 || info.kg != 3)
    return 3;
  memset(&args, 0, sizeof(args));
  args.M = args.N = args.K = 1;
  args.flags = ISAAC_DETERMINISTIC;
  /* NULL pointers must be refused, not dereferenced. */
  if (isaacValidateGemm(&info, &args) != ISAAC_ERROR_INVALID_VALUE)
    return 4;
  if (isaacGetLastStatus() != ISAAC_ERROR_INVALID_VALUE)
    return 5;
  isaacClearLastError();
  return 0;
}
