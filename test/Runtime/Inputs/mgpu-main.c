/* Driver of mgpu-program.test: calls the upstream-GPU-path function that
 * mgpu-program.mlir compiles to (its module was loaded by a global
 * constructor, before main), then an isaac GEMM, and prints what the
 * driver was asked (with the fake driver) and the runtime's status.
 *
 *   mgpu-main fake   ISAAC_CUDA_LIBRARY is FakeCudaDriver: print its log
 *   mgpu-main none   no driver: print the statuses; nothing may crash */

#include "isaac/Runtime/MgpuWrappers.h"
#include "isaac/Runtime/Runtime.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

void _mlir_ciface_axpy(MemRef1D *x, MemRef1D *y);

static const char *(*fakeCalls)(void);
static void (*fakeClearCalls)(void);

static void printCalls(const char *when) {
  printf("--- %s\n%s", when, fakeCalls ? fakeCalls() : "");
  if (fakeClearCalls)
    fakeClearCalls();
}

static void printStatus(const char *when) {
  printf("%s: %s: %s\n", when, isaacStatusName(isaacGetLastStatus()),
         isaacGetLastError());
  isaacClearLastError();
}

/* An isaac kernel as the fake sees it: its parameters come from the name. */
static const char gemmPtx[] =
    "// isaac.kernel name=isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4"
    " dtype=f32 layout=nn ml=64 nl=64 ms=8 ns=8 u=8 ks=1 kl=1 kg=1 vec=4 "
    "threads=64 smem=0\n.version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4(\n"
    "\t.param .u64 p0\n)\n{\n\tret;\n}\n";

int main(int argc, char **argv) {
  int fake = argc > 1 && strcmp(argv[1], "fake") == 0;
  if (fake) {
    /* The runtime dlopened the same file: this is the same instance. */
    void *library = dlopen(getenv("ISAAC_CUDA_LIBRARY"), RTLD_NOW);
    if (!library) {
      fprintf(stderr, "cannot load the fake driver: %s\n", dlerror());
      return 2;
    }
    *(void **)&fakeCalls = dlsym(library, "fakeCudaCalls");
    *(void **)&fakeClearCalls = dlsym(library, "fakeCudaClearCalls");
    if (!fakeCalls || !fakeClearCalls)
      return 2;
  }
  printCalls("before main");
  printStatus("before main");

  float x[256], y[256];
  for (int i = 0; i < 256; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  MemRef1D dx = {x, x, 0, {256}, {1}};
  MemRef1D dy = {y, y, 0, {256}, {1}};
  _mlir_ciface_axpy(&dx, &dy);
  printCalls("axpy");
  printStatus("axpy");

  /* Compiled code launches isaac GEMMs on NULL, the legacy default stream,
     in the same context. The pointers are the fake's: never dereferenced. */
  void *c = mgpuMemAlloc(64 * 64 * 4, mgpuStreamCreate(), false);
  isaacGemmLaunch(gemmPtx,
                  "isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4", 0,
                  64, 64, 64, 1, c, c, c, 64, 64, 64, 64, 64, 64, 0, 0, 0, 1,
                  1.0, 0.0, NULL, 0);
  mgpuMemFree(c, (void *)1);
  mgpuStreamSynchronize((void *)1);
  printCalls("gemm");
  printStatus("gemm");
  return 0;
}
