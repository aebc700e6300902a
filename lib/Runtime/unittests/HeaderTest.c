/*===- HeaderTest.c - The public headers compile as C and link -----------===*\
|*                                                                            *|
|* Compiled as strict C99 because the headers are C interfaces: a C++-only   *|
|* construct slipping into them would break generated host code and C users. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "isaac/Runtime/MgpuWrappers.h"
#include "isaac/Runtime/Runtime.h"

#include <string.h>

int isaacHeaderTestFromC(void);

/* Runs before any driver is loaded: nothing here may need one. */
int isaacHeaderTestFromC(void) {
  isaacKernelInfo info;
  isaacGemmArgs args;
  isaacEpilogueInput inputs[ISAAC_MAX_EPILOGUE_INPUTS];
  void *params[1] = {NULL};
  if (strcmp(isaacStatusName(ISAAC_SUCCESS), "ISAAC_SUCCESS") != 0)
    return 1;
  if (isaacParseKernelName(
          "isaac_gemm_f64_tt_ml32_nl32_ms4_ns4_u8_ks1_kl2_kg3_v2", &info) !=
      ISAAC_SUCCESS)
    return 2;
  if (info.dtype != ISAAC_F64 || !info.transA || !info.transB ||
      info.threads != 128 || info.kg != 3 || info.epilogue[0] != '\0' ||
      info.outDtype != ISAAC_F64 || info.numInputs != 0)
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

  /* A fused epilogue: the name alone does not know its inputs. */
  if (isaacParseKernelName("isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_"
                           "kg1_v4_ep00000000deadbeef",
                           &info) != ISAAC_SUCCESS ||
      strcmp(info.epilogue, "00000000deadbeef") != 0 || info.numInputs != -1 ||
      info.outDtype != ISAAC_F32 ||
      sizeof(info.epilogue) != ISAAC_EPILOGUE_ID_LENGTH + 1)
    return 6;
  memset(inputs, 0, sizeof(inputs));
  inputs[0].sCol = 1; /* a per-column bias */
  if (isaacGemmLaunchEpilogue(
          "", "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4",
          ISAAC_F32, 64, 64, 64, 1, NULL, NULL, NULL, 1, 1, 1, 1, 1, 1, 0, 0, 0,
          1, 1.0, 0.0, NULL, 0, 1, inputs) != ISAAC_ERROR_INVALID_VALUE)
    return 7;
  if (ISAAC_F16 != 2 || ISAAC_BF16 != 3)
    return 8;
  isaacClearLastError();

  /* The mgpu* functions' driver-free paths: empty buffers, the stream of
     mgpuStreamCreate, a kernel whose module failed to load. */
  if (mgpuMemAlloc(0, NULL, false) != NULL)
    return 9;
  mgpuMemFree(NULL, NULL);
  mgpuMemcpy(NULL, NULL, 0, NULL);
  mgpuStreamDestroy((void *)1);
  mgpuEventDestroy(NULL);
  mgpuModuleUnload(NULL);
  if (isaacGetLastStatus() != ISAAC_SUCCESS)
    return 10;
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, (void *)1, params, NULL, 1);
  if (isaacGetLastStatus() != ISAAC_ERROR_INVALID_VALUE)
    return 11;
  isaacClearLastError();
  return 0;
}
