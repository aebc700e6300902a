/* isaac end-to-end example: calls the GEMMs that build.sh compiled from
 * gemm.mlir (isaac-opt -> mlir-translate -> llc) on device memory and checks
 * every element of every result against an fp64 CPU reference.
 *
 * The compiled functions take MLIR memref descriptors through the
 * `llvm.emit_c_interface` wrappers: `_mlir_ciface_<name>(Desc *A, Desc *B,
 * Desc *C)`, one pointer per memref. Their data pointers are device pointers
 * from cudaMalloc; the compiled host code passes them to isaacGemmLaunch
 * (libisaac_runtime), which launches on the legacy default stream of the
 * context current on this thread (the primary context cudart made current).
 *
 * Exit status: 0 when every GEMM passes, 1 when a result is wrong, 2 when a
 * CUDA or isaac runtime call fails. */

#include "isaac/Runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include "example-util.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- Memref descriptors (MLIR's C interface) --------------------------===*/

/* A memref<d0 x ... x dN-1 x T> is passed as a pointer to
 *   { T *allocated; T *aligned; int64_t offset; int64_t sizes[N];
 *     int64_t strides[N]; }
 * Element (i0, ..., iN-1) lies at aligned[offset + Σ i_j * strides[j]]. */
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2F32;

typedef struct {
  double *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} MemRef3F64;

/* Emitted by the LLVM lowering of gemm.mlir's functions. */
void _mlir_ciface_gemm(MemRef2F32 *A, MemRef2F32 *B, MemRef2F32 *C);
void _mlir_ciface_batched(MemRef3F64 *A, MemRef3F64 *B, MemRef3F64 *C);
void _mlir_ciface_deepk(MemRef2F32 *A, MemRef2F32 *B, MemRef2F32 *C);

/*===--- Random data ------------------------------------------------------===*/

/* Uniform in ±[0.25, 1): never zero, so a kernel that skips an operand, a
   K-slice or the accumulation into C cannot pass by accident. */
static double randomValue(void) {
  uint64_t r = splitmix64();
  double u = (double)(r >> 11) * 0x1.0p-53;
  double v = 0.25 + 0.75 * u;
  return (r & 1) ? -v : v;
}

/*===--- One GEMM ---------------------------------------------------------===*/

typedef enum { F32 = 0, F64 = 1 } Dtype;

typedef struct {
  const char *name; /* the function in gemm.mlir */
  Dtype dtype;
  int transB; /* B stored N×K (layout nt) instead of K×N (nn) */
  int64_t batch, M, N, K;
} Case;

static size_t elemSize(Dtype t) { return t == F32 ? sizeof(float) : sizeof(double); }

static double load(const void *p, Dtype t, size_t i) {
  return t == F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void store(void *p, Dtype t, size_t i, double v) {
  if (t == F32)
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
}

static void fillRandom(void *p, Dtype t, size_t count) {
  for (size_t i = 0; i < count; ++i)
    store(p, t, i, randomValue());
}

/* isaac-bench's bound (tools/isaac-bench/Check.cpp): its default base
   tolerance plus 4·sqrt(K) units of roundoff of the element type. */
static double tolerance(Dtype t, int64_t K) {
  double base = t == F32 ? 1e-5 : 1e-13;
  double u = t == F32 ? 5.96e-8 : 1.11e-16;
  return base + 4.0 * sqrt((double)K) * u;
}

/* Calls the compiled function `c->name` on device copies of A, B, C. */
static void runOnDevice(const Case *c, void *dA, void *dB, void *dC) {
  int64_t M = c->M, N = c->N, K = c->K;
  int64_t rowsB = c->transB ? N : K, colsB = c->transB ? K : N;
  isaacClearLastError();
  if (c->dtype == F32 && c->batch == 1) {
    MemRef2F32 A = {dA, dA, 0, {M, K}, {K, 1}};
    MemRef2F32 B = {dB, dB, 0, {rowsB, colsB}, {colsB, 1}};
    MemRef2F32 C = {dC, dC, 0, {M, N}, {N, 1}};
    if (strcmp(c->name, "gemm") == 0)
      _mlir_ciface_gemm(&A, &B, &C);
    else
      _mlir_ciface_deepk(&A, &B, &C);
  } else {
    int64_t b = c->batch;
    MemRef3F64 A = {dA, dA, 0, {b, M, K}, {M * K, K, 1}};
    MemRef3F64 B = {dB, dB, 0, {b, rowsB, colsB}, {rowsB * colsB, colsB, 1}};
    MemRef3F64 C = {dC, dC, 0, {b, M, N}, {M * N, N, 1}};
    _mlir_ciface_batched(&A, &B, &C);
  }
  /* Launch-time failures (PTX JIT, argument checks, launch errors). */
  checkIsaac(c->name);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  checkIsaac(c->name);
}

/* Runs one case and compares every element of C with the fp64 reference
   C0 + op(A)·op(B). Returns 1 when it passes; *maxError gets the largest
   relative error |c − ref| / (Σ|a||b| + |c0|). */
static int runCase(const Case *c, double *maxError) {
  Dtype t = c->dtype;
  int64_t batch = c->batch, M = c->M, N = c->N, K = c->K;
  size_t countA = (size_t)(batch * M * K), countB = (size_t)(batch * K * N),
         countC = (size_t)(batch * M * N), es = elemSize(t);

  void *hA = xmalloc(countA * es), *hB = xmalloc(countB * es),
       *hC0 = xmalloc(countC * es), *hC = xmalloc(countC * es);
  fillRandom(hA, t, countA);
  fillRandom(hB, t, countB);
  fillRandom(hC0, t, countC);

  void *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, countA * es));
  CUDA_CHECK(cudaMalloc(&dB, countB * es));
  CUDA_CHECK(cudaMalloc(&dC, countC * es));
  CUDA_CHECK(cudaMemcpy(dA, hA, countA * es, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, countB * es, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dC, hC0, countC * es, cudaMemcpyHostToDevice));

  runOnDevice(c, dA, dB, dC);

  CUDA_CHECK(cudaMemcpy(hC, dC, countC * es, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));

  /* fp64 copies with both operands k-contiguous: a[b][m][k], bt[b][n][k]. */
  double *a = xmalloc(countA * sizeof(double));
  double *bt = xmalloc(countB * sizeof(double));
  for (size_t i = 0; i < countA; ++i)
    a[i] = load(hA, t, i);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) {
        size_t from = (size_t)(b * K * N) +
                      (size_t)(c->transB ? n * K + k : k * N + n);
        bt[(size_t)((b * N + n) * K + k)] = load(hB, t, from);
      }

  double tol = tolerance(t, K), worst = -1.0; /* any error is larger */
  int64_t bad = 0, worstAt = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t m = 0; m < M; ++m) {
      const double *ar = a + (b * M + m) * K;
      for (int64_t n = 0; n < N; ++n) {
        const double *br = bt + (b * N + n) * K;
        double acc = 0.0, accAbs = 0.0;
        for (int64_t k = 0; k < K; ++k) {
          acc += ar[k] * br[k];
          accAbs += fabs(ar[k] * br[k]);
        }
        size_t i = (size_t)((b * M + m) * N + n);
        double c0 = load(hC0, t, i), got = load(hC, t, i);
        double ref = c0 + acc, bound = accAbs + fabs(c0);
        double error = fabs(got - ref) / (bound + DBL_MIN);
        if (!(error <= DBL_MAX)) /* NaN or infinity */
          error = INFINITY;
        if (!(error <= tol))
          ++bad;
        if (error > worst) {
          worst = error;
          worstAt = (int64_t)i;
        }
      }
    }

  int64_t wb = worstAt / (M * N), wm = worstAt / N % M, wn = worstAt % N;
  printf("%-8s %s %s batch=%" PRId64 " M=%" PRId64 " N=%" PRId64
         " K=%" PRId64 ": max rel error %.3g at [%" PRId64 "][%" PRId64
         "][%" PRId64 "] (got %.9g), tolerance %.3g, %" PRId64
         " of %zu wrong: %s\n",
         c->name, t == F32 ? "f32" : "f64", c->transB ? "nt" : "nn", batch,
         M, N, K, worst, wb, wm, wn, load(hC, t, (size_t)worstAt), tol, bad,
         countC, bad == 0 ? "ok" : "WRONG");

  free(a);
  free(bt);
  free(hA);
  free(hB);
  free(hC0);
  free(hC);
  *maxError = worst;
  return bad == 0;
}

int main(void) {
  static const Case cases[] = {
      {"gemm", F32, /*transB=*/1, 1, 1000, 1000, 777},
      {"batched", F64, /*transB=*/0, 3, 130, 99, 70},
      {"deepk", F32, /*transB=*/0, 1, 50, 40, 20000},
  };

  /* Keep results and error messages (stderr) in order when both are piped. */
  setvbuf(stdout, NULL, _IOLBF, 0);

  int deviceCount = 0;
  CUDA_CHECK(cudaGetDeviceCount(&deviceCount));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaFree(0)); /* make the primary context current */
  struct cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device 0 of %d: %s (sm_%d%d)\n", deviceCount, prop.name, prop.major,
         prop.minor);

  int passed = 1;
  double maxError = 0.0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    double error;
    passed &= runCase(&cases[i], &error);
    if (error > maxError)
      maxError = error;
  }

  printf("%s: %zu isaac GEMMs compiled from gemm.mlir, max relative error "
         "%.3g, on %s (sm_%d%d)\n",
         passed ? "PASS" : "FAIL", sizeof cases / sizeof cases[0], maxError,
         prop.name, prop.major, prop.minor);
  return passed ? 0 : 1;
}
