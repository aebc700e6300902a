/*===- isaac/Runtime/Runtime.h - Launch isaac GEMM kernels ------*- C -*-===*\
|*                                                                            *|
|* C interface of libisaac_runtime: loads the PTX that isaac generates and    *|
|* launches its GEMM kernels following docs/abi.md. The library reaches the   *|
|* CUDA driver through dlopen("libcuda.so.1") at run time, so programs that   *|
|* link it build without CUDA and fail with a status (not a crash) on         *|
|* machines without a driver.                                                 *|
|*                                                                            *|
|* Functions that can fail return 0 (ISAAC_SUCCESS) or an isaacStatus; the  *|
|* library never aborts and prints nothing unless ISAAC_RUNTIME_VERBOSE=1 is  *|
|* set in the environment. isaacGetLastError() explains the last failure.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ISAAC_RUNTIME_RUNTIME_H
#define ISAAC_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define ISAAC_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define ISAAC_RUNTIME_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum isaacStatus {
  ISAAC_SUCCESS = 0,
  /* An argument is invalid; nothing was launched. */
  ISAAC_ERROR_INVALID_VALUE = 1,
  /* libcuda.so.1 could not be loaded or lacks a required entry point. */
  ISAAC_ERROR_DRIVER_NOT_FOUND = 2,
  /* A CUDA driver call failed; the message names it and its CUresult. */
  ISAAC_ERROR_CUDA = 3,
  /* The PTX failed to load; the message carries the JIT error log. */
  ISAAC_ERROR_JIT = 4,
  /* The module has no kernel of the requested name. */
  ISAAC_ERROR_KERNEL_NOT_FOUND = 5,
  /* A malformed `// isaac.kernel` line or kernel name. */
  ISAAC_ERROR_PARSE = 6,
  /* Valid arguments the kernel ABI cannot launch (grid limits). */
  ISAAC_ERROR_UNSUPPORTED = 7,
  /* A host or device allocation failed. */
  ISAAC_ERROR_OUT_OF_MEMORY = 8
} isaacStatus;

/* Element types. A GEMM's operands A and B are f32, f64, f16 or bf16; its
   accumulation, alpha and beta are f64 for f64 operands and f32 for all
   others; C is of the operands' type, or f32 for 16-bit operands (the
   kernel name's types token, docs/abi.md); the output and the inputs of a
   fused epilogue may be any of the four (2-byte elements for f16, bf16). */
typedef enum isaacDtype {
  ISAAC_F32 = 0,
  ISAAC_F64 = 1,
  ISAAC_F16 = 2,
  ISAAC_BF16 = 3
} isaacDtype;

/* Flags of isaacGemmLaunch. */
enum {
  /* Split-K kernels (kg > 1) reduce through a workspace in a fixed order
     instead of atomics, so results are bitwise reproducible. */
  ISAAC_DETERMINISTIC = 1
};

/* Message describing the last failure on the calling thread ("" if none).
   Successful calls leave it unchanged. Valid until the next failing call on
   the same thread. */
ISAAC_RUNTIME_EXPORT const char *isaacGetLastError(void);

/* Status of the last failing call on the calling thread (ISAAC_SUCCESS if
   none). Compiled host code ignores isaacGemmLaunch's return value; its
   caller learns of failures here. Successful calls leave it unchanged. */
ISAAC_RUNTIME_EXPORT int32_t isaacGetLastStatus(void);

/* Resets the calling thread's last status to ISAAC_SUCCESS and its message
   to "". */
ISAAC_RUNTIME_EXPORT void isaacClearLastError(void);

/* Name of a status, e.g. "ISAAC_ERROR_CUDA". */
ISAAC_RUNTIME_EXPORT const char *isaacStatusName(int32_t status);

/* Loads the driver, runs cuInit and makes a context current on the calling
   thread: the current one if any, else the primary context of device 0.
   Every other entry point that needs the GPU does this itself. The driver
   library is libcuda.so.1 unless ISAAC_CUDA_LIBRARY names another file. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacInit(void);

/*===--------------------------------------------------------------------===*
 * Kernel descriptions
 *===--------------------------------------------------------------------===*/

#define ISAAC_KERNEL_NAME_MAX 128
#define ISAAC_CHIP_NAME_MAX 16
/* A fused epilogue is identified by 16 lower-case hex digits (a hash of its
   program), the `_ep<ID>` suffix of its kernels' names. */
#define ISAAC_EPILOGUE_ID_LENGTH 16
/* A fused epilogue reads at most this many extra tensors. */
#define ISAAC_MAX_EPILOGUE_INPUTS 8

/* One GEMM kernel, as described by its entry name and `// isaac.kernel`
   (and, for a fused epilogue, `// isaac.epilogue`) lines (docs/abi.md). */
typedef struct isaacKernelInfo {
  char name[ISAAC_KERNEL_NAME_MAX];
  int32_t dtype;  /* isaacDtype of A and B (see computeDtype) */
  int32_t transA; /* 1 when A is stored transposed (layout tn, tt) */
  int32_t transB; /* 1 when B is stored transposed (layout nt, tt) */
  /* The tuning parameters (include/isaac/Model/GemmParams.def; a
     parameter the kernel's family does not use holds its default). */
  int32_t ml, nl, ms, ns, u, ks, kl, kg, vec;
  int32_t threads;                /* per block: (ml/ms)*(nl/ns)*kl (simt),
                                     32*(ml/wm)*(nl/wn)*kl (mma),
                                     128*((ml/wm)*(nl/wn)*kl*(pt==2?2:1)
                                     +ws) (wgmma) */
  int32_t smem;                   /* shared memory in bytes; 0 when unknown */
  char chip[ISAAC_CHIP_NAME_MAX]; /* e.g. "sm_90"; "" when unknown */
  /* The fused epilogue's ID, "" for a kernel without one. */
  char epilogue[ISAAC_EPILOGUE_ID_LENGTH + 1];
  /* isaacDtype of C: cDtype, or a fused epilogue's output type. */
  int32_t outDtype;
  /* Number of epilogue inputs: 0 without an epilogue, -1 when unknown (a
     fused kernel described by its name alone). */
  int32_t numInputs;
  /* isaacDtype of each input; entries from numInputs on are 0. */
  int32_t inputDtypes[ISAAC_MAX_EPILOGUE_INPUTS];
  /* The output indices each input was compiled as broadcast along
     (isaacInputBroadcast bits; 0: a full M x N input). A kernel reads a
     per-column input once per column of its tile and never reads its row
     stride, so a launch must pass 0 for the strides of the indices an
     input is broadcast along. Entries from numInputs on are 0. */
  int32_t inputBroadcast[ISAAC_MAX_EPILOGUE_INPUTS];
  /* The kernel family (isaacFamily) and its parameters beyond the nine
     above. */
  int32_t family;
  int32_t wm, wn;  /* mma: the WM x WN tile of C of one warp */
  int32_t stages;  /* tiles in flight in the shared-memory pipeline */
  int32_t tf32;    /* 1: f32 operands multiply in TF32 (types token tf32) */
  int32_t dynsmem; /* 1: smem is dynamic shared memory (docs/abi.md) */
  /* The GEMM's C type as the name's types token spells it (f16f32: f32;
     a fused kernel's token names A and B only, so its cDtype is dtype),
     which is also outDtype unless a fused epilogue stores another type. */
  int32_t cDtype;
  /* isaacDtype of the accumulation, alpha and beta: ISAAC_F64 for f64
     operands, ISAAC_F32 for all others. isaacGemmLaunch's double alpha and
     beta are rounded to it; split-K workspaces hold it. */
  int32_t computeDtype;
  /* What the kernel computes (isaacOp): a GEMM (isaac_gemm_...) or a
     convolution (isaac_conv_..., the GEMM body on the implicit GEMM
     M = N*P*Q, N = K, K = C*R*S; transA and transB are then the layout of
     that GEMM's operands: 0 and 0 for nhwc_hwcf, 0 and 1 for nhwc_fhwc). */
  int32_t op;
  /* isaacConvLayout of a convolution kernel; 0 for a GEMM. */
  int32_t convLayout;
  /* wgmma: blocks along M of one thread-block cluster (1: no cluster); the
     launch's grid x is a multiple of it (docs/abi.md). */
  int32_t cm;
  /* mma, wgmma: 1 when the kg slices of a tile run as one thread-block
     cluster along grid z and sum inside the launch (no workspace, no
     helper kernel, deterministic); 0 otherwise (docs/abi.md). */
  int32_t kc;
  /* wgmma: 1 when the block's last warpgroup is a producer that issues
     the TMA copies (warp-specialized); threads counts it. */
  int32_t ws;
  /* wgmma: 1 or 2 (ping-pong: two warpgroups on alternate tiles) when the
     launch's grid is (blocks, 1, batch), about one wave, and each block
     loops over the output tiles tile = blockIdx.x, blockIdx.x + gridDim.x,
     ... (persistent; docs/abi.md). */
  int32_t pt;
} isaacKernelInfo;

/* isaacKernelInfo.op. */
typedef enum isaacOp { ISAAC_OP_GEMM = 0, ISAAC_OP_CONV = 1 } isaacOp;

/* isaacKernelInfo.convLayout (include/isaac/Model/ConvShape.h): the storage
   of the input, the filters and the output. */
typedef enum isaacConvLayout {
  /* input N x H x W x C, filters R x S x C x K, output N x P x Q x K */
  ISAAC_CONV_NHWC_HWCF = 0,
  /* input N x H x W x C, filters K x R x S x C, output N x P x Q x K */
  ISAAC_CONV_NHWC_FHWC = 1,
} isaacConvLayout;

/* isaacKernelInfo.family: the GEMM_FAMILY rows of GemmParams.def. */
typedef enum isaacFamily {
  ISAAC_FAMILY_SIMT = 0,
  ISAAC_FAMILY_MMA = 1,
  ISAAC_FAMILY_WGMMA = 2,
} isaacFamily;

/* isaacKernelInfo.inputBroadcast: `in0=f32` in the PTX header is a full
   M x N input (0), `f32[n]` a per-column one (the same for every row:
   ROWS), `f32[m]` a per-row one (COLS), `f32[]` one value per batch
   (ROWS | COLS). */
typedef enum isaacInputBroadcast {
  ISAAC_BROADCAST_ROWS = 1,
  ISAAC_BROADCAST_COLS = 2,
} isaacInputBroadcast;

/* Fills `out` from the `// isaac.kernel key=value ...` line of a PTX file
   (and its `// isaac.epilogue` line when the kernel has a fused epilogue)
   and checks that the keys agree with the entry name and with each other. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacParseKernelInfo(const char *ptxText,
                                                      isaacKernelInfo *out);

/* Fills `out` from an entry name `isaac_gemm_<types>_<layout>_<config>`,
   optionally followed by `_ep<ID>`, alone (smem = 0, dynsmem = 0,
   chip = "", outDtype = cDtype; numInputs = 0 without an epilogue, -1 with
   one, since only the PTX header knows the epilogue's inputs). */
ISAAC_RUNTIME_EXPORT isaacStatus isaacParseKernelName(const char *name,
                                                      isaacKernelInfo *out);

/*===--------------------------------------------------------------------===*
 * Modules
 *===--------------------------------------------------------------------===*/

/* A loaded PTX module and a kernel in it. Both are owned by the runtime's
   cache and stay valid until the process exits; loading the same PTX again
   in the same context returns the same module. A module belongs to the
   context that was current when it was loaded. */
typedef struct isaacModule_st *isaacModule;
typedef struct isaacFunction_st *isaacFunction;

/* JIT-compiles NUL-terminated PTX text in the current context (see
   isaacInit). On a JIT failure the error message includes the JIT log. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacModuleLoad(const char *ptx,
                                                 isaacModule *out);

/* Loads `image`, a cubin or fatbin that ptxas made from `ptx`, and caches it
   under the PTX text: later isaacModuleLoad / isaacGemmLaunch calls with the
   same PTX find it and skip the JIT (ahead-of-time compiled kernels, and
   tools that load thousands of kernels, assemble them in parallel with
   ptxas). The caller vouches that the image was compiled from `ptx`. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacModuleLoadImage(const char *ptx,
                                                      const void *image,
                                                      size_t imageSize,
                                                      isaacModule *out);

ISAAC_RUNTIME_EXPORT isaacStatus isaacGetFunction(isaacModule module,
                                                  const char *name,
                                                  isaacFunction *out);

/*===--------------------------------------------------------------------===*
 * GEMM launches
 *===--------------------------------------------------------------------===*/

/* One extra tensor read by a fused epilogue. Element (b, m, n) of the
   output reads ptr[b*sBatch + m*sRow + n*sCol]; the strides count elements
   of the input's own type and 0 broadcasts along that index: a per-column
   bias is {ptr, 0, 0, 1}, a per-row bias {ptr, 0, 1, 0}, an M x N residual
   {ptr, sBatch, ld, 1}, a scalar {ptr, 0, 0, 0}. sBatch is only read when
   batch > 1. */
typedef struct isaacEpilogueInput {
  const void *ptr; /* device pointer aligned to the input's element size */
  int64_t sBatch, sRow, sCol;
} isaacEpilogueInput;

/* Arguments of one (batched) GEMM C = alpha*op(A)*op(B) + beta*C in the
   row-major storage convention of docs/abi.md. Pointers are device pointers
   aligned to the element size; strides are in elements and only read when
   batch > 1. A kernel with a fused epilogue computes
   C = epi(alpha*op(A)*op(B) + beta*C, inputs...) instead, with C of the
   epilogue's output type. */
typedef struct isaacGemmArgs {
  void *C;
  const void *A;
  const void *B;
  int32_t M, N, K;
  int32_t lda, ldb, ldc;
  int64_t sA, sB, sC;
  int32_t batch;
  double alpha, beta; /* rounded to float unless computeDtype is f64 */
  void *stream;       /* CUstream; NULL is the legacy default stream */
  int32_t flags;      /* ISAAC_DETERMINISTIC or 0 */
  /* The fused epilogue's inputs: numInputs must equal the kernel's
     (isaacKernelInfo.numInputs); 0 and NULL for kernels without one. */
  int32_t numInputs;
  const isaacEpilogueInput *inputs;
} isaacGemmArgs;

/* Checks `args` against `info` without touching the GPU: what the launch
   functions check before they launch anything. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacValidateGemm(const isaacKernelInfo *info,
                                                   const isaacGemmArgs *args);

/* Launches the GEMM kernel `info->name` of `module` asynchronously on
   args->stream, with the split-K helper kernels of the module when
   info->kg > 1. `module` must belong to the current context. A kernel with
   a fused epilogue needs the info of its PTX header (isaacParseKernelInfo),
   which knows its inputs. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacGemmLaunchModule(
    isaacModule module, const isaacKernelInfo *info, const isaacGemmArgs *args);

/* The host ABI that compiled code calls (docs/abi.md, "Host ABI"): loads
   (or finds in the cache) the module of `ptx`, checks that dtype, ml, nl,
   threads and kg agree with `kernelName`, and launches as
   isaacGemmLaunchModule does. Returns 0 or an isaacStatus. A kernel with a
   fused epilogue that reads inputs is refused: it is launched with
   isaacGemmLaunchEpilogue. */
ISAAC_RUNTIME_EXPORT int32_t isaacGemmLaunch(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *C, const void *A,
    const void *B, int32_t M, int32_t N, int32_t K, int32_t lda, int32_t ldb,
    int32_t ldc, int64_t sA, int64_t sB, int64_t sC, int32_t batch,
    double alpha, double beta, void *stream, int32_t flags);

/* The host ABI of GEMMs with a fused epilogue (docs/abi.md): as
   isaacGemmLaunch, for a kernel whose name ends in `_ep<ID>`, plus the
   epilogue's inputs. The PTX header's `// isaac.epilogue` line must agree
   with the name and with numInputs; C is of the epilogue's output type.
   Split-K kernels (kg > 1) always reduce through the workspace and the
   fused reduction kernel, whatever `flags` says. */
ISAAC_RUNTIME_EXPORT int32_t isaacGemmLaunchEpilogue(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *C, const void *A,
    const void *B, int32_t M, int32_t N, int32_t K, int32_t lda, int32_t ldb,
    int32_t ldc, int64_t sA, int64_t sB, int64_t sC, int32_t batch,
    double alpha, double beta, void *stream, int32_t flags, int32_t numInputs,
    const isaacEpilogueInput *inputs);

/*===--------------------------------------------------------------------===*
 * Convolution launches
 *===--------------------------------------------------------------------===*/

/* Arguments of one 2-D convolution (docs/abi.md, "Convolution kernel"):
   O = alpha * conv(I, F) + beta * O with every operand packed in the
   kernel's layout, output element (n, p, q, k) =
     sum over (r, s, c) of I[n][p*strideH - padTop + r*dilationH]
                            [q*strideW - padLeft + s*dilationW][c] * F(r,s,c,k)
   where input elements outside H x W read as zero. P and Q must be the
   output size these imply for some padding after the input (below and
   right) between 0 and the dilated filter's extent minus 1. Pointers are
   device pointers aligned to the element size. */
typedef struct isaacConvArgs {
  void *O;
  const void *I;
  const void *F;
  int32_t N, H, W, C; /* input */
  int32_t K, R, S;    /* filters */
  int32_t P, Q;       /* output height and width */
  int32_t strideH, strideW, dilationH, dilationW, padTop, padLeft;
  double alpha, beta; /* rounded to float unless computeDtype is f64 */
  void *stream;       /* CUstream; NULL is the legacy default stream */
  int32_t flags;      /* ISAAC_DETERMINISTIC or 0 */
  /* The fused epilogue's inputs (kernels with an _ep<ID> suffix), addressed
     in the implicit GEMM's (m, n) = (n*P*Q + p*Q + q, k) space: a residual
     N x P x Q x K tensor is {ptr, 0, K, 1}, a per-channel bias
     {ptr, 0, 0, 1}. sBatch is unused (one batch). */
  int32_t numInputs;
  const isaacEpilogueInput *inputs;
} isaacConvArgs;

/* Checks `args` against the convolution kernel `info` without touching the
   GPU: what the launch functions check before they launch anything. */
ISAAC_RUNTIME_EXPORT isaacStatus isaacValidateConv(const isaacKernelInfo *info,
                                                   const isaacConvArgs *args);

/* Launches the convolution kernel `info->name` of `module` asynchronously
   on args->stream, with the split-K helper kernels of the module when
   info->kg > 1 (the GEMM protocol on the implicit GEMM). */
ISAAC_RUNTIME_EXPORT isaacStatus isaacConvLaunchModule(
    isaacModule module, const isaacKernelInfo *info, const isaacConvArgs *args);

/* The host ABI of convolutions (docs/abi.md, "Host ABI"): loads (or finds
   in the cache) the module of `ptx`, checks that dtype, ml, nl, threads and
   kg agree with `kernelName` (an isaac_conv_... name), and launches as
   isaacConvLaunchModule does. Returns 0 or an isaacStatus. */
ISAAC_RUNTIME_EXPORT int32_t isaacConvLaunch(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *O, const void *I,
    const void *F, int32_t N, int32_t H, int32_t W, int32_t C, int32_t K,
    int32_t R, int32_t S, int32_t P, int32_t Q, int32_t strideH,
    int32_t strideW, int32_t dilationH, int32_t dilationW, int32_t padTop,
    int32_t padLeft, double alpha, double beta, void *stream, int32_t flags);

/* isaacConvLaunch for a kernel with a fused epilogue (an _ep<ID> suffix):
   the same arguments, then its inputs as in isaacConvArgs. */
ISAAC_RUNTIME_EXPORT int32_t isaacConvLaunchEpilogue(
    const char *ptx, const char *kernelName, int32_t dtype, int32_t ml,
    int32_t nl, int32_t threads, int32_t kg, void *O, const void *I,
    const void *F, int32_t N, int32_t H, int32_t W, int32_t C, int32_t K,
    int32_t R, int32_t S, int32_t P, int32_t Q, int32_t strideH,
    int32_t strideW, int32_t dilationH, int32_t dilationW, int32_t padTop,
    int32_t padLeft, double alpha, double beta, void *stream, int32_t flags,
    int32_t numInputs, const isaacEpilogueInput *inputs);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ISAAC_RUNTIME_RUNTIME_H */
