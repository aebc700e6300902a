//===- DeviceKernels.cu - Data generation and the fp64 reference ----------===//

#include "CudaCheck.h"
// GemmConfig.h (through Problem.h) declares an array of pointers to
// members, which nvcc's front end rewrites with parentheses that gcc's
// -Wparentheses then reports in the host pass.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#include "DeviceKernels.h"
#pragma GCC diagnostic pop
#include "Precision.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>
#include <cmath>

namespace bench {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

int gridFor(int64_t count) {
  int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 1            ? 1
                          : blocks > kMaxBlocks ? kMaxBlocks
                                                : blocks);
}

/// Values with `bits` significant bits (Precision.h), stored as T.
__device__ void storeValue(double v, float &out) {
  out = static_cast<float>(v);
}
__device__ void storeValue(double v, double &out) { out = v; }
__device__ void storeValue(double v, __half &out) { out = __double2half(v); }
__device__ void storeValue(double v, __nv_bfloat16 &out) {
  out = __double2bfloat16(v);
}

__device__ double toDouble(float v) { return v; }
__device__ double toDouble(double v) { return v; }
__device__ double toDouble(__half v) { return __half2float(v); }
__device__ double toDouble(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__global__ void fillUniformKernel(T *data, int64_t count, uint64_t seed,
                                  int bits) {
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride)
    storeValue(exactUniform(elementBits(seed, static_cast<uint64_t>(i)), bits),
               data[i]);
}

/// Writes the bit pattern `value` everywhere.
template <typename Bits>
__global__ void fillBitsKernel(Bits *data, int64_t count, Bits value) {
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride)
    data[i] = value;
}

struct RefParams {
  int64_t M, N, K, lda, ldb, ldc, sA, sB, sC;
  bool transA, transB;
  double alpha, beta;
};

constexpr int kTile = 16;

/// A shared-memory tiled fp64 GEMM. Loads are arranged so that consecutive
/// threads read consecutive addresses for every layout; the bound is
/// accumulated alongside from absolute values.
template <typename T, typename TC>
__global__ void referenceKernel(const T *A, const T *B, const TC *C0,
                                double *ref, double *bound, RefParams p) {
  __shared__ double as[kTile][kTile + 1]; // as[m][k]
  __shared__ double bs[kTile][kTile + 1]; // bs[k][n]
  int tx = threadIdx.x, ty = threadIdx.y;
  int64_t b = blockIdx.z;
  int64_t m0 = static_cast<int64_t>(blockIdx.y) * kTile;
  int64_t n0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const T *a = A + b * p.sA;
  const T *bm = B + b * p.sB;
  double acc = 0, accAbs = 0;
  for (int64_t k0 = 0; k0 < p.K; k0 += kTile) {
    if (!p.transA) {
      int64_t m = m0 + ty, k = k0 + tx;
      as[ty][tx] = m < p.M && k < p.K ? toDouble(a[m * p.lda + k]) : 0.0;
    } else {
      int64_t m = m0 + tx, k = k0 + ty;
      as[tx][ty] = m < p.M && k < p.K ? toDouble(a[k * p.lda + m]) : 0.0;
    }
    if (!p.transB) {
      int64_t k = k0 + ty, n = n0 + tx;
      bs[ty][tx] = k < p.K && n < p.N ? toDouble(bm[k * p.ldb + n]) : 0.0;
    } else {
      int64_t k = k0 + tx, n = n0 + ty;
      bs[tx][ty] = k < p.K && n < p.N ? toDouble(bm[n * p.ldb + k]) : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTile; ++kk) {
      double x = as[ty][kk], y = bs[kk][tx];
      acc = fma(x, y, acc);
      accAbs = fma(fabs(x), fabs(y), accAbs);
    }
    __syncthreads();
  }
  int64_t m = m0 + ty, n = n0 + tx;
  if (m >= p.M || n >= p.N)
    return;
  // With beta == 0 C holds NaN, which BLAS semantics say is never read.
  double c0 = p.beta != 0 ? toDouble(C0[b * p.sC + m * p.ldc + n]) : 0.0;
  int64_t index = (b * p.M + m) * p.N + n;
  ref[index] = p.alpha * acc + p.beta * c0;
  bound[index] = fabs(p.alpha) * accAbs + fabs(p.beta * c0);
}

struct CompareParams {
  int64_t M, N, ldc, sC, batch, offset, count;
  ErrorModel model;
};

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

template <typename T>
__global__ void compareKernel(const T *C, const T *C0, const double *ref,
                              const double *bound, CompareParams p,
                              CompareResult *result) {
  unsigned long long worst = 0, bad = 0;
  const double limit = errorLimit(p.model);
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
       e < p.count; e += stride) {
    int64_t r = e - p.offset, index = -1;
    if (r >= 0) {
      int64_t b = r / p.sC, w = r - b * p.sC;
      int64_t m = w / p.ldc, n = w - m * p.ldc;
      if (b < p.batch && m < p.M && n < p.N)
        index = (b * p.M + m) * p.N + n;
    }
    double error;
    if (index >= 0)
      error = elementError(toDouble(C[e]), ref[index], bound[index], p.model);
    else
      error = sameBits(C[e], C0[e]) ? 0.0 : INFINITY;
    if (!(error <= limit))
      ++bad;
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
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&result->worst, worst);
    if (bad)
      atomicAdd(&result->bad, bad);
  }
}

__global__ void delayKernel(uint64_t nanoseconds) {
  uint64_t start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

// Reads `count` 16-byte words through L2 (plain loads: the lines stay
// there, clean). `sink` is written only if the sum of the words is a value
// no buffer holds in practice, which keeps the loads.
__global__ void readKernel(const int4 *data, int64_t count, int *sink) {
  int acc = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    int4 v = data[i];
    acc += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x5eed1234)
    *sink = acc;
}

} // namespace

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

void fillUniform(void *data, int dtype, int64_t count, uint64_t seed,
                 cudaStream_t stream, int bits) {
  if (bits == 0)
    bits = inputBits(dtype);
  withType(dtype, [&](auto zero) {
    using T = decltype(zero);
    fillUniformKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<T *>(data), count, seed, bits);
  });
  CUDA_CHECK_LAUNCH();
}

void fillNaN(void *data, int dtype, int64_t count, cudaStream_t stream) {
  // Quiet NaNs by their bits: f32, f64, f16, bf16.
  switch (dtype) {
  case 0:
    fillBitsKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<uint32_t *>(data), count, uint32_t(0x7fc00000u));
    break;
  case 1:
    fillBitsKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<uint64_t *>(data), count, uint64_t(0x7ff8000000000000ull));
    break;
  case 2:
    fillBitsKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<uint16_t *>(data), count, uint16_t(0x7e00u));
    break;
  default:
    fillBitsKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<uint16_t *>(data), count, uint16_t(0x7fc0u));
    break;
  }
  CUDA_CHECK_LAUNCH();
}

void referenceGemm(const Problem &p, const void *A, const void *B,
                   const void *C0, double *ref, double *bound, double alpha,
                   double beta, cudaStream_t stream) {
  RefParams params = {p.M,  p.N,  p.K,      p.lda,    p.ldb, p.ldc, p.sA,
                      p.sB, p.sC, p.transA, p.transB, alpha, beta};
  dim3 grid(static_cast<unsigned>((p.N + kTile - 1) / kTile),
            static_cast<unsigned>((p.M + kTile - 1) / kTile),
            static_cast<unsigned>(p.batch));
  dim3 block(kTile, kTile);
  withType(p.dtype, [&](auto a) {
    withType(p.outDtype, [&](auto c) {
      using T = decltype(a);
      using TC = decltype(c);
      referenceKernel<<<grid, block, 0, stream>>>(
          static_cast<const T *>(A), static_cast<const T *>(B),
          static_cast<const TC *>(C0), ref, bound, params);
    });
  });
  CUDA_CHECK_LAUNCH();
}

void compareWithReference(const Problem &p, const void *C, const void *C0,
                          const double *ref, const double *bound, int64_t count,
                          const ErrorModel &model, CompareResult *result,
                          cudaStream_t stream) {
  CompareParams params = {p.M,     p.N,      p.ldc, p.sC,
                          p.batch, p.offset, count, model};
  withType(p.outDtype, [&](auto c) {
    using TC = decltype(c);
    compareKernel<<<gridFor(count), kThreads, 0, stream>>>(
        static_cast<const TC *>(C), static_cast<const TC *>(C0), ref, bound,
        params, result);
  });
  CUDA_CHECK_LAUNCH();
}

void delayStream(uint64_t nanoseconds, cudaStream_t stream) {
  delayKernel<<<1, 1, 0, stream>>>(nanoseconds);
  CUDA_CHECK_LAUNCH();
}

void readThrough(const void *data, size_t bytes, int *sink,
                 cudaStream_t stream) {
  int64_t words = static_cast<int64_t>(bytes / 16);
  readKernel<<<gridFor(words), kThreads, 0, stream>>>(
      static_cast<const int4 *>(data), words, sink);
  CUDA_CHECK_LAUNCH();
}

} // namespace bench
