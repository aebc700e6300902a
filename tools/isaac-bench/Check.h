//===- Check.h - Check one isaac launch against the fp64 reference -*- C++
//-*-===//

#ifndef ISAAC_BENCH_CHECK_H
#define ISAAC_BENCH_CHECK_H

#include "DeviceBuffer.h"
#include "KernelDir.h"
#include "Problem.h"

#include <cuda_runtime.h>

#include <string>

namespace bench {

/// Base tolerances on max |c - ref| / (|alpha|*sum|a||b| + |beta*c0|).
/// A sequential length-K sum accumulates rounding errors whose size, relative
/// to sum|a||b|, grows like sqrt(K)*u for random data (Higham's bound is
/// K*u): measured on an H200, kernels that sum K = 60000 terms in one f32
/// accumulator reach 1.9e-5 = 330u. checkTolerance() therefore adds
/// 4*sqrt(K)*u to these bases; wrong indices or missing terms give errors
/// near 1, far above either.
constexpr double kDefaultToleranceF32 = 1e-5;
constexpr double kDefaultToleranceF64 = 1e-13;

/// The tolerance a check of `p` uses: base + 4*sqrt(K)*u(dtype).
double checkTolerance(double base, const Problem &p);

struct CheckBuffers {
  DeviceBuffer A, B, C, C0, ref, bound, result;
};

struct CheckOutcome {
  bool passed = false;
  double maxError = 0; // infinity for NaN or a clobbered padding element
  unsigned long long badElements = 0;
  std::string failure; // why it failed: launch error or the worst element
};

/// Runs `kernel` once on `p` with fresh random inputs (C poisoned with NaN
/// when beta is 0, random otherwise) through isaacGemmLaunch and compares
/// every element of the C allocation with the fp64 reference.
CheckOutcome checkKernel(const KernelFile &kernel, const Problem &p,
                         double alpha, double beta, int flags, uint64_t seed,
                         double tolerance, CheckBuffers &buffers,
                         cudaStream_t stream);

} // namespace bench

#endif // ISAAC_BENCH_CHECK_H
