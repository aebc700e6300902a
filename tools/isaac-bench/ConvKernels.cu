//===- ConvKernels.cu - fp64 reference convolution and comparison ---------===//

#include "ConvKernels.h"
#include "CudaCheck.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>
#include <cmath>

namespace bench {
namespace {

constexpr int kTile = 16;
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;
/// gridDim.y's limit; more row tiles loop inside the kernel.
constexpr int64_t kMaxRowBlocks = 65535;

__device__ double toDouble(float v) { return v; }
__device__ double toDouble(double v) { return v; }
__device__ double toDouble(__half v) { return __half2float(v); }
__device__ double toDouble(__nv_bfloat16 v) { return __bfloat162float(v); }

__device__ bool sameBits(float x, float y) {
  return __float_as_uint(x) == __float_as_uint(y);
}
__device__ bool sameBits(double x, double y) {
  return __double_as_longlong(x) == __double_as_longlong(y);
}
__device__ bool sameBits(__half x, __half y) {
  return __half_as_ushort(x) == __half_as_ushort(y);
}
__device__ bool sameBits(__nv_bfloat16 x, __nv_bfloat16 y) {
  return __bfloat16_as_ushort(x) == __bfloat16_as_ushort(y);
}

/// The implicit GEMM in shared-memory tiles: rows m = (n, p, q), columns
/// the output channels, a reduction over j = (r, s, c). Each thread loads
/// one element of the input tile (its row's pixel at tap j, zero in the
/// padding) and one of the filter tile, and accumulates one output element
/// and its bound.
template <typename T, typename TO>
__global__ void referenceConvKernel(const T *I, const T *F, const TO *O0,
                                    double *ref, double *bound, ConvGeometry g,
                                    double alpha, double beta) {
  __shared__ double as[kTile][kTile + 1]; // as[m][j]
  __shared__ double bs[kTile][kTile + 1]; // bs[j][k]
  int tx = threadIdx.x, ty = threadIdx.y;
  int64_t rows = g.n * g.p * g.q, depth = g.c * g.r * g.s;
  int64_t k0 = static_cast<int64_t>(blockIdx.x) * kTile;
  int64_t rowTiles = (rows + kTile - 1) / kTile;
  // Uniform across the block: every thread takes the same tiles.
  for (int64_t tile = blockIdx.y; tile < rowTiles; tile += gridDim.y) {
    int64_t m = tile * kTile + ty;
    int64_t n = 0, p = 0, q = 0;
    bool row = m < rows;
    if (row)
      decodeRow(g, m, n, p, q);
    double acc = 0, accAbs = 0;
    for (int64_t j0 = 0; j0 < depth; j0 += kTile) {
      int64_t r, s, c;
      double a = 0;
      int64_t j = j0 + tx;
      if (row && j < depth) {
        decodeReduction(g, j, r, s, c);
        int64_t offset = inputOffset(g, n, p, q, r, s, c);
        if (offset >= 0)
          a = toDouble(I[offset]);
      }
      as[ty][tx] = a;
      double b = 0;
      int64_t jb = j0 + ty, kb = k0 + tx;
      if (jb < depth && kb < g.k) {
        decodeReduction(g, jb, r, s, c);
        b = toDouble(F[filterOffset(g, kb, r, s, c)]);
      }
      bs[ty][tx] = b;
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < kTile; ++kk) {
        double x = as[ty][kk], y = bs[kk][tx];
        acc = fma(x, y, acc);
        accAbs = fma(fabs(x), fabs(y), accAbs);
      }
      __syncthreads();
    }
    int64_t k = k0 + tx;
    if (row && k < g.k) {
      int64_t offset = outputOffset(g, n, p, q, k);
      // With beta == 0 the output holds NaN, which must not be read.
      double o0 = beta != 0 ? toDouble(O0[offset]) : 0.0;
      ref[offset] = alpha * acc + beta * o0;
      bound[offset] = fabs(alpha) * accAbs + fabs(beta * o0);
    }
  }
}

struct CompareParams {
  int64_t offset, outputs, count;
  ErrorModel model;
};

template <typename T>
__global__ void compareConvKernel(const T *O, const T *O0, const double *ref,
                                  const double *bound, CompareParams p,
                                  ConvCompareResult *result) {
  unsigned long long worst = 0, bad = 0, first = ~0ull;
  const double limit = errorLimit(p.model);
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
       e < p.count; e += stride) {
    int64_t r = e - p.offset;
    double error;
    if (r >= 0 && r < p.outputs)
      error = elementError(toDouble(O[e]), ref[r], bound[r], p.model);
    else
      error = sameBits(O[e], O0[e]) ? 0.0 : INFINITY;
    if (!(error <= limit)) {
      ++bad;
      first = static_cast<unsigned long long>(e) < first
                  ? static_cast<unsigned long long>(e)
                  : first;
    }
    unsigned long long key = (static_cast<unsigned long long>(
                                  __float_as_uint(__double2float_ru(error)))
                              << 32) |
                             static_cast<uint32_t>(e);
    worst = key > worst ? key : worst;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    unsigned long long other = __shfl_down_sync(0xffffffffu, worst, offset);
    worst = other > worst ? other : worst;
    bad += __shfl_down_sync(0xffffffffu, bad, offset);
    unsigned long long otherFirst =
        __shfl_down_sync(0xffffffffu, first, offset);
    first = otherFirst < first ? otherFirst : first;
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&result->worst, worst);
    if (bad) {
      atomicAdd(&result->bad, bad);
      atomicMin(&result->firstBad, first);
    }
  }
}

__global__ void resetKernel(ConvCompareResult *result) {
  result->worst = 0;
  result->bad = 0;
  result->firstBad = ~0ull;
}

/// Calls `f(T())` with T the element type of an isaacDtype.
template <typename F> void withType(int dtype, F &&f) {
  switch (dtype) {
  case 0:
    return f(float());
  case 1:
    return f(double());
  case 2:
    return f(__half());
  default:
    return f(__nv_bfloat16());
  }
}

int gridFor(int64_t count) {
  int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 1            ? 1
                          : blocks > kMaxBlocks ? kMaxBlocks
                                                : blocks);
}

} // namespace

void referenceConv(const ConvGeometry &g, int dtype, int outDtype,
                   const void *I, const void *F, const void *O0, double *ref,
                   double *bound, double alpha, double beta,
                   cudaStream_t stream) {
  int64_t rowTiles = (g.n * g.p * g.q + kTile - 1) / kTile;
  dim3 grid(static_cast<unsigned>((g.k + kTile - 1) / kTile),
            static_cast<unsigned>(rowTiles < kMaxRowBlocks ? rowTiles
                                                           : kMaxRowBlocks));
  dim3 block(kTile, kTile);
  withType(dtype, [&](auto a) {
    withType(outDtype, [&](auto o) {
      using T = decltype(a);
      using TO = decltype(o);
      referenceConvKernel<<<grid, block, 0, stream>>>(
          static_cast<const T *>(I), static_cast<const T *>(F),
          static_cast<const TO *>(O0), ref, bound, g, alpha, beta);
    });
  });
  CUDA_CHECK_LAUNCH();
}

void compareConvOutput(int outDtype, const void *O, const void *O0,
                       const double *ref, const double *bound, int64_t offset,
                       int64_t outputs, int64_t count, const ErrorModel &model,
                       ConvCompareResult *result, cudaStream_t stream) {
  CompareParams params = {offset, outputs, count, model};
  withType(outDtype, [&](auto o) {
    using TO = decltype(o);
    compareConvKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<const TO *>(O), static_cast<const TO *>(O0), ref, bound,
        params, result);
  });
  CUDA_CHECK_LAUNCH();
}

void resetConvCompare(ConvCompareResult *result, cudaStream_t stream) {
  resetKernel<<<1, 1, 0, stream>>>(result);
  CUDA_CHECK_LAUNCH();
}

} // namespace bench
