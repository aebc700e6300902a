//===- Blas.h - cuBLAS and cuBLASLt on row-major problems -------*- C++ -*-===//
//
// cuBLAS is column-major; a row-major C = op(A)*op(B) is the column-major
// C^T = op(B)^T * op(A)^T, so every call swaps A with B and M with N and keeps
// each operand's transpose flag (docs/abi.md, "Storage convention").
//
// f32 and f64 GEMMs run pure fp32/fp64 arithmetic: cuBLAS in
// CUBLAS_DEFAULT_MATH (no TF32, no emulation) and cuBLASLt with
// CUBLAS_COMPUTE_32F / CUBLAS_COMPUTE_64F. On H100, fp64 may still use the
// FP64 tensor cores (DMMA), which are exact IEEE fp64 arithmetic. f16 and
// bf16 operands (C 16-bit or f32) run cublasGemmEx with CUBLAS_COMPUTE_32F
// and the default tensor-op algorithm, tf32 GEMMs with
// CUBLAS_COMPUTE_32F_FAST_TF32; cuBLASLt gets the same compute type, f32
// alpha and beta.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_BLAS_H
#define ISAAC_BENCH_BLAS_H

#include "DeviceBuffer.h"
#include "Problem.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <memory>
#include <vector>

namespace bench {

/// cuBLASLt descriptors of one problem and its heuristic's candidates.
struct LtPlan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t first = nullptr, second = nullptr, out = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> candidates;
  bool isF64 = false;
  ~LtPlan();
};

class Blas {
public:
  explicit Blas(cudaStream_t stream);
  ~Blas();
  Blas(const Blas &) = delete;
  Blas &operator=(const Blas &) = delete;

  /// cublas{S,D}gemm (or its strided-batched form) with the library's
  /// default algorithm choice; cublasGemmEx (strided batched) with
  /// CUBLAS_GEMM_DEFAULT_TENSOR_OP for the other types.
  void gemm(const Problem &p, const void *A, const void *B, void *C,
            double alpha, double beta);

  /// Asks cuBLASLt's heuristic for up to `count` algorithms for `p` with
  /// base pointers aligned to `alignment` bytes and a 64 MiB workspace.
  std::unique_ptr<LtPlan> planLt(const Problem &p, unsigned alignment,
                                 int count);

  /// Runs candidate `index` of `plan`; returns the status instead of
  /// failing, because a candidate the heuristic offered may still refuse.
  cublasStatus_t runLt(const LtPlan &plan, size_t index, const void *A,
                       const void *B, void *C, double alpha, double beta);

private:
  cudaStream_t stream;
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t ltHandle = nullptr;
  DeviceBuffer ltWorkspace;
};

} // namespace bench

#endif // ISAAC_BENCH_BLAS_H
