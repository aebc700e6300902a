//===- Check.h - Check one isaac launch against the fp64 reference -*- C++
//-*-===//

#ifndef ISAAC_BENCH_CHECK_H
#define ISAAC_BENCH_CHECK_H

#include "DeviceBuffer.h"
#include "KernelDir.h"
#include "Precision.h"
#include "Problem.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace bench {

/// Base tolerances on max |c - ref| / (|alpha|*sum|a||b| + |beta*c0|), to
/// which checkTolerance() adds the accumulation's sqrt(K) term
/// (Precision.h): --tol-f32 serves every type that accumulates in f32.
constexpr double kDefaultToleranceF32 = 1e-5;
constexpr double kDefaultToleranceF64 = 1e-13;

/// Elements after the last one of C that must stay untouched.
constexpr int64_t kGuardElements = 64;

/// Significant bits of the A and B values a check of `p` draws: all of
/// the operand type's, or 11 (exact in TF32) for a tf32 problem without
/// tf32FullInputs.
int operandBits(const Problem &p);

struct CheckBuffers {
  DeviceBuffer A, B, C, C0, ref, bound, result;
  std::vector<DeviceBuffer> inputs; // a fused epilogue's, one per input
};

struct CheckOutcome {
  bool passed = false;
  /// f32 and f64 kernels: the largest relative error. Fused kernels and
  /// the other types: the largest error as a fraction of the element's
  /// tolerance (at most 1 passes). Infinity for NaN or a clobbered padding
  /// element.
  double maxError = 0;
  bool errorIsFraction = false; // maxError is a fraction of the tolerance
  unsigned long long badElements = 0;
  std::string failure; // why it failed: launch error or the worst element
  std::string inputs;  // fused kernels: the layouts of the epilogue inputs
};

/// Launches `kernel` as compiled code does: isaacGemmLaunch, or
/// isaacGemmLaunchEpilogue with `inputs` (numInputs of the kernel's
/// epilogue) for a fused kernel. Returns the isaacStatus.
int32_t launchKernel(const KernelFile &kernel, const Problem &p, void *C,
                     const void *A, const void *B, double alpha, double beta,
                     int flags, const isaacEpilogueInput *inputs,
                     cudaStream_t stream);

/// Runs `kernel` once on `p` with fresh random inputs (C poisoned with NaN
/// when beta is 0, random otherwise) and compares every element of the C
/// allocation with the fp64 reference. A fused kernel gets random epilogue
/// inputs, each with a layout drawn from `seed` (checkFusedKernel).
CheckOutcome checkKernel(const KernelFile &kernel, const Problem &p,
                         double alpha, double beta, int flags, uint64_t seed,
                         double tolerance, CheckBuffers &buffers,
                         cudaStream_t stream);

/// The check of a kernel with a fused epilogue: per input, a layout drawn
/// from `seed` (M x N with a random leading dimension, transposed, per row,
/// per column, scalar; batched problems with or without a batch stride),
/// random values of the input's type, and every element of C compared on
/// the host with the epilogue program evaluated at the fp64 GEMM reference
/// (EpilogueReference), padding and guards bitwise.
CheckOutcome checkFusedKernel(const KernelFile &kernel, const Problem &p,
                              double alpha, double beta, int flags,
                              uint64_t seed, double tolerance,
                              CheckBuffers &buffers, cudaStream_t stream);

} // namespace bench

#endif // ISAAC_BENCH_CHECK_H
