//===- Bench.cpp - Check and time kernels against cuBLAS and cuBLASLt -----===//

#include "Blas.h"
#include "Check.h"
#include "CudaCheck.h"
#include "KernelResult.h"
#include "Modes.h"
#include "Report.h"
#include "Timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

namespace bench {
namespace {

/// cuBLASLt candidates timed per problem.
constexpr int kLtCandidates = 8;
/// The problem of each check, as in the spec of the checks: alpha != 1 and
/// both beta == 0 (C not read) and beta != 0.
constexpr double kCheckAlpha = 1.5;
constexpr double kCheckBetas[] = {0.0, 0.5};

void launchIsaac(const KernelFile &kernel, const Problem &p, void *C,
                 const void *A, const void *B, double alpha, double beta,
                 int flags, const isaacEpilogueInput *inputs,
                 cudaStream_t stream) {
  int32_t status =
      launchKernel(kernel, p, C, A, B, alpha, beta, flags, inputs, stream);
  if (status != ISAAC_SUCCESS)
    fatal(__FILE__, __LINE__,
          std::string(kernel.epilogue ? "isaacGemmLaunchEpilogue"
                                      : "isaacGemmLaunch") +
              " returned " + isaacStatusName(status) + ": " +
              isaacGetLastError());
}

double rooflineTflops(const Options &o, const Problem &p) {
  double memoryBound = p.flops() / (p.bytes() / (o.bandwidthGBs * 1e9));
  return std::min(peakTflops(o, p) * 1e12, memoryBound) / 1e12;
}

/// Best (lowest) median time of cuBLASLt's heuristic candidates; NaN when
/// none runs.
double timeCublasLt(Blas &blas, const Problem &p, const RotatingBuffers &bufs,
                    const Options &o, cudaStream_t stream) {
  std::unique_ptr<LtPlan> plan =
      blas.planLt(p, bufs.alignment(), kLtCandidates);
  double best = NAN;
  for (size_t i = 0; i < plan->candidates.size(); ++i) {
    // A candidate may still refuse the problem; that is not an error.
    if (blas.runLt(*plan, i, bufs.A(0), bufs.B(0), bufs.C(0), 1.0, 0.0) !=
        CUBLAS_STATUS_SUCCESS)
      continue;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double ms = medianMilliseconds(
        [&](int r) {
          CUBLAS_CHECK(
              blas.runLt(*plan, i, bufs.A(r), bufs.B(r), bufs.C(r), 1.0, 0.0));
        },
        o.reps, o.warmup, stream);
    if (o.verbose)
      std::printf("  cuBLASLt candidate %zu: %.2f us\n", i, ms * 1e3);
    if (!(ms >= best))
      best = ms;
  }
  return best;
}

/// Checks `kernel` on `p` and, unless --check-only, times it on `timing`
/// (and `inputs`, the epilogue inputs of a fused kernel).
KernelResult checkAndTime(const KernelFile &kernel, const Problem &p,
                          const Options &o, uint64_t &seed,
                          CheckBuffers &checkBuffers,
                          const RotatingBuffers &timing,
                          const RotatingInputs &inputs, cudaStream_t stream) {
  int flags = o.deterministic ? ISAAC_DETERMINISTIC : 0;
  KernelResult result = {&kernel, true, 0.0, NAN, false};
  for (double beta : kCheckBetas) {
    // tf32: beta = 0 on inputs exact in TF32 (a tight bound: only the
    // accumulation errs), beta != 0 on arbitrary f32 inputs (the kernel's
    // rounding to TF32 included).
    Problem q = p;
    q.tf32FullInputs = p.types.tf32 && beta != 0;
    setActivity("checking " + std::string(kernel.info.name) + " on " +
                q.describe());
    CheckOutcome outcome =
        checkKernel(kernel, q, kCheckAlpha, beta, flags, seed++,
                    baseTolerance(o, q), checkBuffers, stream);
    result.maxError = std::max(result.maxError, outcome.maxError);
    result.errorIsFraction = outcome.errorIsFraction;
    if (!outcome.passed) {
      result.passed = false;
      std::printf("  FAIL %s on %s, alpha=%g beta=%g%s%s: %s\n",
                  kernel.info.name, q.describe().c_str(), kCheckAlpha, beta,
                  outcome.inputs.empty() ? "" : ", ", outcome.inputs.c_str(),
                  outcome.failure.c_str());
    } else if (o.verbose) {
      std::printf("  pass %s on %s, beta=%g%s%s: max %s %.3e\n",
                  kernel.info.name, q.describe().c_str(), beta,
                  outcome.inputs.empty() ? "" : ", ", outcome.inputs.c_str(),
                  outcome.errorIsFraction ? "error/tolerance"
                                          : "relative error",
                  outcome.maxError);
    }
  }
  if (!result.passed || o.checkOnly)
    return result;
  setActivity("timing " + std::string(kernel.info.name) + " on " +
              p.describe());
  result.ms = medianMilliseconds(
      [&](int r) {
        launchIsaac(kernel, p, timing.C(r), timing.A(r), timing.B(r), 1.0, 0.0,
                    flags, inputs.inputs(r), stream);
      },
      o.reps, o.warmup, stream);
  if (o.verbose)
    std::printf("  time %s: %.2f us\n", kernel.info.name, result.ms * 1e3);
  return result;
}

} // namespace

std::vector<const KernelFile *>
problemCandidates(const Options &o, const std::vector<KernelFile> &kernels,
                  const Problem &p) {
  // --candidates: this problem's listed kernels (the first --topk).
  std::set<std::string> listed;
  bool restricted = !o.candidates.empty();
  if (restricted) {
    auto it =
        o.candidates.find(std::to_string(p.M) + "," + std::to_string(p.N) +
                          "," + std::to_string(p.K));
    if (it != o.candidates.end()) {
      // Lists for other dtypes or layouts of the same M, N, K share the
      // key: count only this problem's matching kernels.
      int kept = 0;
      for (const std::string &name : it->second) {
        auto k = std::find_if(
            kernels.begin(), kernels.end(),
            [&](const KernelFile &f) { return name == f.info.name; });
        if (k == kernels.end() || !k->matches(p.types, p.transA, p.transB))
          continue;
        if (o.topk && kept == o.topk)
          break;
        listed.insert(name);
        ++kept;
      }
    }
  }
  std::vector<const KernelFile *> candidates;
  for (const KernelFile &k : kernels)
    if (k.matches(p.types, p.transA, p.transB) &&
        (!restricted || listed.count(k.info.name)))
      candidates.push_back(&k);
  return candidates;
}

int runBench(const Options &o, const std::vector<KernelFile> &kernels,
             const DeviceInfo &device, cudaStream_t stream) {
  std::unique_ptr<Blas> blas;
  if (!o.checkOnly)
    blas = std::make_unique<Blas>(stream);
  CheckBuffers checkBuffers;
  RotatingBuffers timing;
  RotatingInputs timingInputs, noInputs;
  std::vector<ResultRow> rows;
  uint64_t seed = o.seed;
  int failedRows = 0;

  // The types asked for that DIR has kernels of; by default (every type)
  // the others pass silently.
  std::vector<isaac::GemmTypes> typesToRun;
  for (const isaac::GemmTypes &types : o.types) {
    bool any = std::any_of(kernels.begin(), kernels.end(),
                           [&](auto &k) { return k.types() == types; });
    if (any)
      typesToRun.push_back(types);
    else if (o.dtypeGiven)
      std::printf("note: no %s kernels in %s; %s problems skipped\n",
                  types.token().c_str(), o.ptxDir.c_str(),
                  types.token().c_str());
  }
  std::FILE *cache = nullptr;
  if (!o.cacheOut.empty()) {
    cache = std::fopen(o.cacheOut.c_str(), "a");
    if (!cache)
      fatal(__FILE__, __LINE__, "cannot append to " + o.cacheOut);
  }
  // The bytes of operand copies the timed runs rotate through: past twice
  // the L2 size (a cold cache), or none with --warm-l2.
  const size_t rotateL2Bytes = o.warmL2 ? 0 : device.l2Bytes;
  // --csv: created before the first measurement (an unwritable path fails
  // at once) and written row by row (CsvFile).
  CsvFile csv;
  std::string csvError;
  if (!o.csvPath.empty() && !csv.open(o.csvPath, gemmCsvHeader(), csvError))
    fatal(__FILE__, __LINE__, csvError);
  auto record = [&](const ResultRow &row) {
    printTableRow(stdout, row);
    rows.push_back(row);
    csv.appendOrWarn(gemmCsvLine(row));
  };
  printTableHeader(stdout);
  for (const Shape &shape : o.shapes) {
    for (const isaac::GemmTypes &types : typesToRun) {
      Problem p = makeProblem(shape, types, o.batch, 0, 0, o.misalign);
      ResultRow row;
      row.label = shape.label.empty() ? "custom" : shape.label;
      row.problem = p;
      row.rooflineTflops = rooflineTflops(o, p);
      std::vector<const KernelFile *> candidates =
          problemCandidates(o, kernels, p);
      if (candidates.empty()) {
        row.status = "SKIP";
        record(row);
        continue;
      }
      int preparedOut = -1; // the output type `timing` holds C for
      if (!o.checkOnly) {
        setActivity("timing cuBLAS and cuBLASLt on " + p.describe());
        timing.prepare(p, rotateL2Bytes, seed++, stream);
        preparedOut = p.outDtype;
        row.cublasMs = medianMilliseconds(
            [&](int r) {
              blas->gemm(p, timing.A(r), timing.B(r), timing.C(r), 1.0, 0.0);
            },
            o.reps, o.warmup, stream);
        row.cublasLtMs = timeCublasLt(*blas, p, timing, o, stream);
      }
      // Kernels with different epilogues compute different functions: the
      // plain kernels and each epilogue get a row of their own.
      std::vector<std::vector<const KernelFile *>> groups;
      for (const KernelFile *k : candidates) {
        auto group = std::find_if(groups.begin(), groups.end(), [&](auto &g) {
          return std::strcmp(g[0]->info.epilogue, k->info.epilogue) == 0;
        });
        if (group == groups.end())
          groups.push_back({k});
        else
          group->push_back(k);
      }
      std::stable_sort(groups.begin(), groups.end(), [](auto &a, auto &b) {
        return std::strcmp(a[0]->info.epilogue, b[0]->info.epilogue) < 0;
      });
      for (const std::vector<const KernelFile *> &group : groups) {
        const KernelFile &first = *group[0];
        Problem q = p;
        q.outDtype = first.info.outDtype;
        ResultRow groupRow = row;
        groupRow.problem = q;
        const RotatingInputs *inputs = &noInputs;
        if (!o.checkOnly) {
          if (preparedOut != q.outDtype) {
            timing.prepare(q, rotateL2Bytes, seed++, stream);
            preparedOut = q.outDtype;
          }
          if (first.epilogue) {
            timingInputs.prepare(*first.epilogue, o.epilogueInputs, q,
                                 timing.copies(), seed++, stream);
            inputs = &timingInputs;
          }
        }
        std::vector<KernelResult> results;
        for (const KernelFile *k : group)
          results.push_back(checkAndTime(*k, q, o, seed, checkBuffers, timing,
                                         *inputs, stream));
        bool allPassed = bench::allPassed(results);
        if (!allPassed)
          ++failedRows;
        if (first.epilogue && !o.checkOnly && o.verbose)
          std::printf("  epilogue %s timed with %s\n", first.info.epilogue,
                      inputs->describe().c_str());

        if (o.allKernels) {
          forEachKernelRow(groupRow, results, [&](const ResultRow &kernelRow) {
            record(kernelRow);
          });
          continue;
        }
        // The fastest passing kernel; with --check-only (nothing timed) the
        // row stands for all candidates and shows the worst error.
        const KernelResult *best = fastestPassing(results);
        groupRow.status = allPassed ? "PASS" : "FAIL";
        if (o.checkOnly || !best) {
          setWorstError(groupRow, results);
          groupRow.kernel = group.size() == 1
                                ? std::string(group[0]->info.name)
                                : std::to_string(group.size()) + " kernels" +
                                      (first.epilogue ? std::string(" _ep") +
                                                            first.info.epilogue
                                                      : std::string());
        } else {
          setKernelColumns(groupRow, *best);
          // The re-benchmarked winner, for isaac-select-config's cache=;
          // the cache holds plain GEMMs.
          if (cache && !first.epilogue) {
            std::fprintf(
                cache, "%s %s %c%c %lld %lld %lld %lld #isaac.gemm<%s>\n",
                device.chip.c_str(), p.types.token().c_str(),
                p.transA ? 't' : 'n', p.transB ? 't' : 'n', (long long)p.M,
                (long long)p.N, (long long)p.K, (long long)o.batch,
                best->kernel->config().str().c_str());
            std::fflush(cache);
          }
        }
        record(groupRow);
      }
    }
  }
  setActivity("");
  if (cache)
    std::fclose(cache);

  std::printf("%zu problems, %d with failed checks\n", rows.size(), failedRows);
  std::string error;
  if (!o.pngPath.empty()) {
    if (o.checkOnly)
      std::fprintf(stderr, "isaac-bench: --png needs timings; not written "
                           "with --check-only\n");
    else if (!writeChart(o.pngPath, rows,
                         "ISAAC VS CUBLAS VS CUBLASLT, TFLOPS - " + device.name,
                         error))
      std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
  }
  return failedRows ? 1 : 0;
}

} // namespace bench
