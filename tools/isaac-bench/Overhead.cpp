//===- Overhead.cpp - What a fused epilogue costs -------------------------===//
//
// --epilogue-overhead: for each problem, the same configuration timed as a
// plain GEMM kernel and as a kernel with a fused epilogue (the plain name
// plus _ep<ID>), on the same A, B and C, both checked first. The ratio of the
// two times is the epilogue's cost inside the GEMM (for a bias + relu, the
// extra reads of the bias and a few instructions per element). Split-K
// kernels (kg > 1) accumulate with atomics unless --deterministic: plain
// ones into C (pre-scaled by beta), fused ones into a zeroed array whose
// tiles the last block to arrive finishes; with --deterministic both reduce
// through the workspace.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "CudaCheck.h"
#include "Modes.h"
#include "Report.h"
#include "Timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace bench {
namespace {

constexpr double kCheckAlpha = 1.5;
constexpr double kCheckBetas[] = {0.0, 0.5};
/// Each kernel is timed this many times, alternating with the other, and
/// keeps its best median: drifts of the clock affect both alike.
constexpr int kRounds = 2;

struct OverheadRow {
  std::string label;
  Problem problem;
  std::string plain, epilogue, inputs;
  std::string splitK; // the plain kernel's split-K mode, empty for kg = 1
  double plainMs = NAN, fusedMs = NAN;
  double plainError = NAN, fusedError = NAN;
  std::string status;

  double ratio() const { return fusedMs / plainMs; }
};

void printRow(const OverheadRow &row) {
  std::printf(
      "%-12s %-18s %-3s %-8s %9s %9s %11s %-6s %s%s%s\n", row.label.c_str(),
      sizes(row.problem).c_str(), row.problem.layout().c_str(),
      (row.problem.types.token() + "->" + dtypeName(row.problem.outDtype))
          .c_str(),
      format("%.2f", row.plainMs * 1e3).c_str(),
      format("%.2f", row.fusedMs * 1e3).c_str(),
      format("%.4f", row.ratio()).c_str(), row.status.c_str(),
      row.plain.empty() ? "-" : row.plain.c_str(),
      row.epilogue.empty() ? "" : " +_ep", row.epilogue.c_str());
  std::fflush(stdout);
}

std::string csvHeader() {
  return "shape,M,N,K,batch,layout,dtype,out_dtype,plain_kernel,epilogue,"
         "inputs,splitk_plain,plain_us,fused_us,fused_over_plain,"
         "plain_max_rel_error,fused_max_error_of_tolerance,status";
}

std::string csvLine(const OverheadRow &row) {
  const auto &num = csvNumber;
  const Problem &p = row.problem;
  std::ostringstream out;
  out << row.label << "," << p.M << "," << p.N << "," << p.K << "," << p.batch
      << "," << p.layout() << "," << p.types.token() << ","
      << dtypeName(p.outDtype) << "," << row.plain << "," << row.epilogue << ","
      << row.inputs << "," << row.splitK << ","
      << num("%.3f", row.plainMs * 1e3) << "," << num("%.3f", row.fusedMs * 1e3)
      << "," << num("%.5f", row.ratio()) << "," << num("%.3e", row.plainError)
      << "," << num("%.3e", row.fusedError) << "," << row.status;
  return out.str();
}

/// The last line: the geomean in the fused_over_plain column (the 15th).
std::string csvGeomeanLine(double geomean, int measured) {
  return "geomean" + std::string(14, ',') +
         (measured ? csvNumber("%.5f", geomean) : std::string()) + ",,," +
         std::to_string(measured) + " problems";
}

/// Both betas of the usual check; false (with the failures printed) if any
/// fails. `maxError` receives the worst error.
bool check(const KernelFile &kernel, const Problem &p, const Options &o,
           uint64_t &seed, CheckBuffers &buffers, double &maxError,
           cudaStream_t stream) {
  int flags = o.deterministic ? ISAAC_DETERMINISTIC : 0;
  bool passed = true;
  maxError = 0;
  for (double beta : kCheckBetas) {
    setActivity("checking " + std::string(kernel.info.name) + " on " +
                p.describe());
    CheckOutcome outcome =
        checkKernel(kernel, p, kCheckAlpha, beta, flags, seed++,
                    baseTolerance(o, p), buffers, stream);
    maxError = std::max(maxError, outcome.maxError);
    if (!outcome.passed) {
      passed = false;
      std::printf("  FAIL %s on %s, alpha=%g beta=%g%s%s: %s\n",
                  kernel.info.name, p.describe().c_str(), kCheckAlpha, beta,
                  outcome.inputs.empty() ? "" : ", ", outcome.inputs.c_str(),
                  outcome.failure.c_str());
    }
  }
  return passed;
}

double timeKernel(const KernelFile &kernel, const Problem &p,
                  const RotatingBuffers &timing, const RotatingInputs &inputs,
                  const Options &o, cudaStream_t stream) {
  int flags = o.deterministic ? ISAAC_DETERMINISTIC : 0;
  setActivity("timing " + std::string(kernel.info.name) + " on " +
              p.describe());
  return medianMilliseconds(
      [&](int r) {
        int32_t status =
            launchKernel(kernel, p, timing.C(r), timing.A(r), timing.B(r), 1.0,
                         0.0, flags, inputs.inputs(r), stream);
        if (status != ISAAC_SUCCESS)
          fatal(__FILE__, __LINE__,
                std::string("launching ") + kernel.info.name + " returned " +
                    isaacStatusName(status) + ": " + isaacGetLastError());
      },
      o.reps, o.warmup, stream);
}

} // namespace

int runEpilogueOverhead(const Options &o,
                        const std::vector<KernelFile> &kernels,
                        const DeviceInfo &device, cudaStream_t stream) {
  CheckBuffers checkBuffers;
  RotatingBuffers timing;
  RotatingInputs inputs, noInputs;
  uint64_t seed = o.seed;
  int failed = 0;
  // --csv: created before the first measurement and written row by row.
  CsvFile csv;
  std::string csvError;
  if (!o.csvPath.empty() && !csv.open(o.csvPath, csvHeader(), csvError))
    fatal(__FILE__, __LINE__, csvError);
  auto record = [&](const OverheadRow &row) {
    printRow(row);
    csv.appendOrWarn(csvLine(row));
  };
  std::printf("fused epilogue overhead: the same configuration as a plain "
              "kernel and fused; split-K kernels run %s; epilogue inputs: "
              "%s\n",
              o.deterministic ? "through the workspace (--deterministic)"
                              : "with atomics",
              patternName(o.epilogueInputs[0]));
  std::printf("%-12s %-18s %-3s %-8s %9s %9s %11s %-6s %s\n", "shape", "MxNxK",
              "lay", "dt->out", "plain-us", "fused-us", "fused/plain", "status",
              "kernel");
  double logSum = 0;
  int measured = 0;
  for (const Shape &shape : o.shapes) {
    for (const isaac::GemmTypes &types : o.types) {
      if (std::none_of(kernels.begin(), kernels.end(),
                       [&](auto &k) { return k.types() == types; }))
        continue;
      Problem p = makeProblem(shape, types, o.batch, 0, 0, o.misalign);
      OverheadRow base;
      base.label = shape.label.empty() ? "custom" : shape.label;
      base.problem = p;
      std::vector<const KernelFile *> plain;
      for (const KernelFile *k : problemCandidates(o, kernels, p))
        if (!k->epilogue)
          plain.push_back(k);
      if (plain.empty()) {
        base.status = "SKIP";
        record(base);
        continue;
      }
      for (const KernelFile *P : plain) {
        std::string prefix = std::string(P->info.name) + "_ep";
        std::vector<const KernelFile *> fused;
        for (const KernelFile &k : kernels)
          if (k.epilogue && std::string(k.info.name).rfind(prefix, 0) == 0)
            fused.push_back(&k);
        OverheadRow row = base;
        row.plain = P->info.name;
        if (P->info.kg > 1)
          row.splitK = o.deterministic ? "deterministic" : "atomic";
        if (fused.empty()) {
          row.status = "SKIP";
          record(row);
          continue;
        }
        bool plainPassed =
            check(*P, p, o, seed, checkBuffers, row.plainError, stream);
        for (const KernelFile *F : fused) {
          OverheadRow fusedRow = row;
          Problem q = p;
          q.outDtype = F->info.outDtype;
          fusedRow.problem = q;
          fusedRow.epilogue = F->info.epilogue;
          bool passed = check(*F, q, o, seed, checkBuffers, fusedRow.fusedError,
                              stream) &&
                        plainPassed;
          fusedRow.status = passed ? "PASS" : "FAIL";
          if (!passed) {
            ++failed;
            record(fusedRow);
            continue;
          }
          // One set of buffers for both; C large enough for either type.
          Problem shared = q.outElementSize() > p.outElementSize() ? q : p;
          timing.prepare(shared, device.l2Bytes, seed++, stream);
          inputs.prepare(*F->epilogue, o.epilogueInputs, q, timing.copies(),
                         seed++, stream);
          fusedRow.inputs = inputs.describe();
          for (int round = 0; round < kRounds; ++round) {
            double plainMs = timeKernel(*P, p, timing, noInputs, o, stream);
            double fusedMs = timeKernel(*F, q, timing, inputs, o, stream);
            fusedRow.plainMs =
                round ? std::min(fusedRow.plainMs, plainMs) : plainMs;
            fusedRow.fusedMs =
                round ? std::min(fusedRow.fusedMs, fusedMs) : fusedMs;
          }
          logSum += std::log(fusedRow.ratio());
          ++measured;
          record(fusedRow);
        }
      }
    }
  }
  setActivity("");
  double geomean = measured ? std::exp(logSum / measured) : NAN;
  std::printf("geomean fused/plain: %s over %d problems; %d failed checks\n",
              format("%.4f", geomean).c_str(), measured, failed);
  csv.appendOrWarn(csvGeomeanLine(geomean, measured));
  return failed ? 1 : 0;
}

} // namespace bench
