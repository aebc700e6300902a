//===- Sweep.cpp - Correctness sweep over sizes, layouts and modes --------===//
//
// Checks each kernel on every combination of sizes around tile boundaries
// (1, 2, 7, 31..33, 127..129) with at most one large dimension, plus a fixed
// list of problems with several large dimensions. Runs rotate through odd
// leading dimensions, misaligned base pointers and batches, and each problem
// runs with beta = 0 and beta != 0 and, for split-K kernels, in both the
// atomic and the deterministic mode (a fused kernel in atomic mode adds its
// slices into a zeroed array and the last block of each tile applies the
// epilogue; in deterministic mode its reducer does). A fused kernel's
// epilogue inputs get a layout drawn per check among those the kernel was
// compiled for (checkFusedKernel).
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "CudaCheck.h"
#include "Modes.h"
#include "SweepTally.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace bench {
namespace {

const std::vector<int64_t> kDefaultSizes = {1,   2,   7,   31,   32,  33,
                                            127, 128, 129, 1000, 2049};
/// Sizes from here on count as large.
constexpr int64_t kLarge = 1000;
/// Problems with two or three large dimensions (the combinations would be
/// too slow to run all of).
const std::array<std::array<int64_t, 3>, 20> kMixedLarge = {{
    {1000, 1000, 1000}, {2049, 2049, 2049}, {2049, 2049, 33},
    {2049, 33, 2049},   {33, 2049, 2049},   {1000, 2049, 129},
    {2049, 1000, 7},    {1000, 1000, 1},    {1, 1000, 2049},
    {2049, 2049, 1},    {2049, 1, 2049},    {1, 2049, 2049},
    {1000, 1000, 2049}, {2049, 1000, 1000}, {1000, 2049, 1000},
    {127, 1000, 2049},  {2049, 129, 1000},  {1000, 31, 2049},
    {2049, 2049, 128},  {1000, 2049, 2},
}};
/// Batched runs are limited to small problems to keep the sweep fast.
constexpr int64_t kMaxBatchedWork = int64_t(1) << 22;

std::string modeName(const isaacKernelInfo &info, int flags) {
  if (info.kg == 1)
    return "";
  return flags & ISAAC_DETERMINISTIC ? " deterministic" : " atomic";
}

} // namespace

int runSweep(const Options &o, const std::vector<KernelFile> &kernels,
             cudaStream_t stream) {
  const std::vector<int64_t> &sizes =
      o.sweepSizes.empty() ? kDefaultSizes : o.sweepSizes;
  std::vector<std::array<int64_t, 3>> problems;
  for (int64_t m : sizes)
    for (int64_t n : sizes)
      for (int64_t k : sizes)
        if ((m >= kLarge) + (n >= kLarge) + (k >= kLarge) <= 1)
          problems.push_back({m, n, k});
  if (o.sweepSizes.empty())
    problems.insert(problems.end(), kMixedLarge.begin(), kMixedLarge.end());

  CheckBuffers buffers;
  uint64_t seed = o.seed;
  SweepTally tally("sweep");
  int index = 0, selected = 0;
  for (const KernelFile &kernel : kernels)
    selected += selectsTypes(o, kernel.types());
  for (const KernelFile &kernel : kernels) {
    const isaacKernelInfo &info = kernel.info;
    if (!selectsTypes(o, kernel.types()))
      continue;
    tally.beginKernel(++index, selected, info.name, problems.size());
    for (size_t c = 0; c < problems.size(); ++c) {
      Shape shape;
      shape.M = problems[c][0];
      shape.N = problems[c][1];
      shape.K = problems[c][2];
      shape.transA = info.transA;
      shape.transB = info.transB;
      // Variations rotate with the problem index so that each appears
      // across all sizes without multiplying the number of runs.
      static const int64_t ldPads[] = {0, 1, 3};
      int64_t ldPad = ldPads[c % 3];
      bool misalign = o.misalign || c % 4 == 3;
      int64_t batch = o.batch;
      if (batch == 1 && c % 5 == 2 &&
          shape.M * shape.N * shape.K <= kMaxBatchedWork)
        batch = 3;
      int64_t stridePad = c % 2;
      Problem p =
          makeProblem(shape, kernel.types(), batch, ldPad, stridePad, misalign);
      std::vector<int> modes = {0};
      if (info.kg > 1)
        modes = {ISAAC_DETERMINISTIC, 0};
      for (double beta : {0.0, 0.5}) {
        // tf32: arbitrary f32 inputs with beta != 0, inputs exact in TF32
        // (only the accumulation errs: a tight bound) with beta = 0.
        Problem q = p;
        q.tf32FullInputs = p.types.tf32 && beta != 0;
        for (int flags : modes) {
          setActivity("sweeping " + std::string(info.name) + " on " +
                      q.describe() + " beta=" + std::to_string(beta) +
                      modeName(info, flags));
          CheckOutcome outcome =
              checkKernel(kernel, q, 1.5, beta, flags, seed++,
                          baseTolerance(o, q), buffers, stream);
          std::string where = q.describe() +
                              (beta != 0 ? " beta=0.5" : " beta=0") +
                              modeName(info, flags);
          if (!outcome.inputs.empty())
            where += ", " + outcome.inputs;
          tally.record(outcome, where, o.verbose);
        }
      }
    }
    tally.endKernel();
  }
  setActivity("");
  return tally.finish();
}

} // namespace bench
