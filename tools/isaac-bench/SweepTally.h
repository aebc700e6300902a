//===- SweepTally.h - What a correctness sweep counts -----------*- C++ -*-===//
//-*-===//
//
// The bookkeeping shared by the GEMM sweep (--sweep, Sweep.cpp) and the
// conv sweep (--conv --sweep, ConvBench.cpp): each kernel's passed and
// failed problems, its worst error and where, its first failures, a
// summary line per kernel and the closing line that scripts read
// (`<label>: P passed, F failed (K kernels, S s)`).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_SWEEPTALLY_H
#define ISAAC_BENCH_SWEEPTALLY_H

#include "Check.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {

class SweepTally {
public:
  /// `label` starts the closing lines ("sweep", "conv sweep").
  explicit SweepTally(const char *label)
      : label(label), start(std::chrono::steady_clock::now()) {}

  /// The next kernel, the `index`th of `selected`, over `problems` checks.
  void beginKernel(int index, int selected, const char *name, size_t problems) {
    std::printf("[%d/%d] %s: %zu problems\n", index, selected, name, problems);
    std::fflush(stdout);
    kernel = name;
    kernelPassed = kernelFailed = 0;
    worstError = 0;
    worstIsFraction = false;
    worstProblem.clear();
  }

  /// One check of the current kernel; `where` names the problem.
  void record(const CheckOutcome &outcome, const std::string &where,
              bool verbose) {
    if (!(outcome.maxError <= worstError)) {
      worstError = outcome.maxError;
      worstProblem = where;
    }
    worstIsFraction = outcome.errorIsFraction;
    if (outcome.passed) {
      ++kernelPassed;
      if (verbose)
        std::printf("  pass %s: %.3e%s\n", where.c_str(), outcome.maxError,
                    outcome.errorIsFraction ? " of tol" : "");
      return;
    }
    if (++kernelFailed <= kMaxReportedFailures)
      std::printf("  FAIL %s: %s\n", where.c_str(), outcome.failure.c_str());
  }

  /// Closes the current kernel: its summary line, and how many failures
  /// were not printed.
  void endKernel() {
    passed += kernelPassed;
    failed += kernelFailed;
    // A fused kernel's error, and that of types other than f32 and f64, is
    // a fraction of each element's tolerance.
    char line[1024];
    std::snprintf(line, sizeof(line),
                  "%-64s %6lld passed %6lld failed  worst %.2e%s (%s)",
                  kernel.c_str(), kernelPassed, kernelFailed, worstError,
                  worstIsFraction ? " of tol" : "", worstProblem.c_str());
    summaries.push_back(line);
    if (kernelFailed > kMaxReportedFailures)
      std::printf("  ... %lld more failures\n",
                  kernelFailed - kMaxReportedFailures);
  }

  /// Prints the summaries and the closing line; the exit status: 1 when a
  /// check failed or no kernel was checked.
  int finish() const {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("\nper kernel:\n");
    for (const std::string &line : summaries)
      std::printf("  %s\n", line.c_str());
    std::printf("%s: %lld passed, %lld failed (%zu kernels, %.1f s)\n", label,
                passed, failed, summaries.size(), seconds);
    if (summaries.empty()) {
      std::printf("%s: no kernels to check\n", label);
      return 1;
    }
    return failed ? 1 : 0;
  }

private:
  /// Failures printed in full per kernel; the rest are only counted.
  static constexpr long long kMaxReportedFailures = 5;
  const char *label;
  std::chrono::steady_clock::time_point start;
  long long passed = 0, failed = 0;
  std::vector<std::string> summaries;
  std::string kernel;
  long long kernelPassed = 0, kernelFailed = 0;
  double worstError = 0;
  bool worstIsFraction = false;
  std::string worstProblem;
};

} // namespace bench

#endif // ISAAC_BENCH_SWEEPTALLY_H
