//===- KernelResult.h - A kernel's check and time on a problem -*- C++ -*-===//
//
// What the GEMM and conv benches (Bench.cpp, ConvBench.cpp) make of a
// problem's candidate kernels: each kernel's check against the fp64
// reference and time, and how they fill the problem's table rows (one per
// kernel with --all; else the fastest that passed, or with --check-only
// the worst error of all). The rows are each bench's own (ResultRow,
// ConvRow); both have the columns set here.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_KERNELRESULT_H
#define ISAAC_BENCH_KERNELRESULT_H

#include "KernelDir.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bench {

struct KernelResult {
  const KernelFile *kernel;
  bool passed;
  double maxError;
  double ms;
  bool errorIsFraction;
};

inline bool allPassed(const std::vector<KernelResult> &results) {
  return std::all_of(results.begin(), results.end(),
                     [](const KernelResult &r) { return r.passed; });
}

/// The fastest kernel that passed its check; null when none did. With
/// --check-only nothing is timed (NaN times compare false): the first that
/// passed.
inline const KernelResult *
fastestPassing(const std::vector<KernelResult> &results) {
  const KernelResult *best = nullptr;
  for (const KernelResult &r : results)
    if (r.passed && (!best || r.ms < best->ms))
      best = &r;
  return best;
}

/// `row`'s isaac columns from one kernel's result.
template <class Row> void setKernelColumns(Row &row, const KernelResult &r) {
  row.kernel = r.kernel->info.name;
  row.isaacMs = r.ms;
  row.maxError = r.maxError;
  row.errorIsFraction = r.errorIsFraction;
}

/// --all: one row per kernel, `base` with that kernel's columns and
/// status, handed to `emit`.
template <class Row, class Emit>
void forEachKernelRow(const Row &base, const std::vector<KernelResult> &results,
                      Emit emit) {
  for (const KernelResult &r : results) {
    Row row = base;
    setKernelColumns(row, r);
    row.status = r.passed ? "PASS" : "FAIL";
    emit(row);
  }
}

/// A row that stands for all the candidates (--check-only, or none
/// passed): the worst error of any.
template <class Row>
void setWorstError(Row &row, const std::vector<KernelResult> &results) {
  for (const KernelResult &r : results) {
    row.maxError = std::isnan(row.maxError)
                       ? r.maxError
                       : std::max(row.maxError, r.maxError);
    row.errorIsFraction = r.errorIsFraction;
  }
}

} // namespace bench

#endif // ISAAC_BENCH_KERNELRESULT_H
