//===- Bench.cpp - Check and time kernels against cuBLAS and cuBLASLt -----===//

#include "Blas.h"
#include "Check.h"
#include "CudaCheck.h"
#include "Modes.h"
#include "Report.h"
#include "Timing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

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
                 int flags, cudaStream_t stream) {
  const isaacKernelInfo &info = kernel.info;
  int32_t status = isaacGemmLaunch(
      kernel.ptx.c_str(), info.name, info.dtype, info.ml, info.nl, info.threads,
      info.kg, C, A, B, static_cast<int32_t>(p.M), static_cast<int32_t>(p.N),
      static_cast<int32_t>(p.K), static_cast<int32_t>(p.lda),
      static_cast<int32_t>(p.ldb), static_cast<int32_t>(p.ldc), p.sA, p.sB,
      p.sC, static_cast<int32_t>(p.batch), alpha, beta, stream, flags);
  if (status != ISAAC_SUCCESS)
    fatal(__FILE__, __LINE__,
          std::string("isaacGemmLaunch returned ") + isaacStatusName(status) +
              ": " + isaacGetLastError());
}

double rooflineTflops(const Options &o, const Problem &p) {
  double memoryBound = p.flops() / (p.bytes() / (o.bandwidthGBs * 1e9));
  return std::min(o.peakTflops[p.dtype] * 1e12, memoryBound) / 1e12;
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

struct KernelResult {
  const KernelFile *kernel;
  bool passed;
  double maxError;
  double ms;
};

KernelResult checkAndTime(const KernelFile &kernel, const Problem &p,
                          const Options &o, uint64_t &seed,
                          CheckBuffers &checkBuffers,
                          const RotatingBuffers &timing, cudaStream_t stream) {
  int flags = o.deterministic ? ISAAC_DETERMINISTIC : 0;
  KernelResult result = {&kernel, true, 0.0, NAN};
  for (double beta : kCheckBetas) {
    setActivity("checking " + std::string(kernel.info.name) + " on " +
                p.describe());
    CheckOutcome outcome =
        checkKernel(kernel, p, kCheckAlpha, beta, flags, seed++,
                    o.tolerance[p.dtype], checkBuffers, stream);
    result.maxError = std::max(result.maxError, outcome.maxError);
    if (!outcome.passed) {
      result.passed = false;
      std::printf("  FAIL %s on %s, alpha=%g beta=%g: %s\n", kernel.info.name,
                  p.describe().c_str(), kCheckAlpha, beta,
                  outcome.failure.c_str());
    } else if (o.verbose) {
      std::printf("  pass %s on %s, beta=%g: max relative error %.3e\n",
                  kernel.info.name, p.describe().c_str(), beta,
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
                    flags, stream);
      },
      o.reps, o.warmup, stream);
  if (o.verbose)
    std::printf("  time %s: %.2f us\n", kernel.info.name, result.ms * 1e3);
  return result;
}

} // namespace

int runBench(const Options &o, const std::vector<KernelFile> &kernels,
             const DeviceInfo &device, cudaStream_t stream) {
  std::unique_ptr<Blas> blas;
  if (!o.checkOnly)
    blas = std::make_unique<Blas>(stream);
  CheckBuffers checkBuffers;
  RotatingBuffers timing;
  std::vector<ResultRow> rows;
  uint64_t seed = o.seed;
  int failedRows = 0;

  std::vector<int> dtypes;
  for (int dtype : o.dtypes) {
    bool any = std::any_of(kernels.begin(), kernels.end(),
                           [&](auto &k) { return k.info.dtype == dtype; });
    if (any)
      dtypes.push_back(dtype);
    else
      std::printf("note: no %s kernels in %s; %s problems skipped\n",
                  dtypeName(dtype), o.ptxDir.c_str(), dtypeName(dtype));
  }
  std::FILE *cache = nullptr;
  if (!o.cacheOut.empty()) {
    cache = std::fopen(o.cacheOut.c_str(), "a");
    if (!cache)
      fatal(__FILE__, __LINE__, "cannot append to " + o.cacheOut);
  }
  printTableHeader(stdout);
  for (const Shape &shape : o.shapes) {
    for (int dtype : dtypes) {
      Problem p = makeProblem(shape, dtype, o.batch, 0, 0, o.misalign);
      ResultRow row;
      row.label = shape.label.empty() ? "custom" : shape.label;
      row.problem = p;
      row.rooflineTflops = rooflineTflops(o, p);
      std::vector<const KernelFile *> candidates;
      // --candidates: this problem's listed kernels (the first --topk).
      std::set<std::string> listedNames;
      bool restricted = !o.candidates.empty();
      if (restricted) {
        auto it =
            o.candidates.find(std::to_string(p.M) + "," + std::to_string(p.N) +
                              "," + std::to_string(p.K));
        if (it != o.candidates.end()) {
          // Lists for other dtypes or layouts of the same M, N, K share
          // the key: count only this problem's matching kernels.
          int kept = 0;
          for (const std::string &name : it->second) {
            auto k = std::find_if(
                kernels.begin(), kernels.end(),
                [&](const KernelFile &f) { return name == f.info.name; });
            if (k == kernels.end() || !k->matches(dtype, p.transA, p.transB))
              continue;
            if (o.topk && kept == o.topk)
              break;
            listedNames.insert(name);
            ++kept;
          }
        }
      }
      const std::set<std::string> *listed = restricted ? &listedNames : nullptr;
      for (const KernelFile &k : kernels)
        if (k.matches(dtype, p.transA, p.transB) &&
            (!listed || listed->count(k.info.name)))
          candidates.push_back(&k);
      if (candidates.empty()) {
        row.status = "SKIP";
        printTableRow(stdout, row);
        rows.push_back(row);
        continue;
      }
      if (!o.checkOnly) {
        setActivity("timing cuBLAS and cuBLASLt on " + p.describe());
        timing.prepare(p, device.l2Bytes, seed++, stream);
        row.cublasMs = medianMilliseconds(
            [&](int r) {
              blas->gemm(p, timing.A(r), timing.B(r), timing.C(r), 1.0, 0.0);
            },
            o.reps, o.warmup, stream);
        row.cublasLtMs = timeCublasLt(*blas, p, timing, o, stream);
      }
      std::vector<KernelResult> results;
      for (const KernelFile *k : candidates)
        results.push_back(
            checkAndTime(*k, p, o, seed, checkBuffers, timing, stream));
      bool allPassed = std::all_of(results.begin(), results.end(),
                                   [](auto &r) { return r.passed; });
      if (!allPassed)
        ++failedRows;

      if (o.allKernels) {
        for (const KernelResult &r : results) {
          ResultRow kernelRow = row;
          kernelRow.kernel = r.kernel->info.name;
          kernelRow.isaacMs = r.ms;
          kernelRow.maxError = r.maxError;
          kernelRow.status = r.passed ? "PASS" : "FAIL";
          printTableRow(stdout, kernelRow);
          rows.push_back(kernelRow);
        }
        continue;
      }
      // The fastest passing kernel; with --check-only (nothing timed) the
      // row stands for all candidates and shows the worst error.
      const KernelResult *best = nullptr;
      for (const KernelResult &r : results)
        if (r.passed && (!best || r.ms < best->ms))
          best = &r;
      row.status = allPassed ? "PASS" : "FAIL";
      if (o.checkOnly || !best) {
        for (const KernelResult &r : results)
          row.maxError = std::isnan(row.maxError)
                             ? r.maxError
                             : std::max(row.maxError, r.maxError);
        row.kernel = candidates.size() == 1
                         ? std::string(candidates[0]->info.name)
                         : std::to_string(candidates.size()) + " kernels";
      } else {
        row.kernel = best->kernel->info.name;
        row.isaacMs = best->ms;
        row.maxError = best->maxError;
        if (cache) {
          // The re-benchmarked winner, for isaac-select-config's cache=.
          std::fprintf(
              cache, "%s %s %c%c %lld %lld %lld %lld #isaac.gemm<%s>\n",
              device.chip.c_str(), dtypeName(p.dtype), p.transA ? 't' : 'n',
              p.transB ? 't' : 'n', (long long)p.M, (long long)p.N,
              (long long)p.K, (long long)o.batch,
              best->kernel->config().str().c_str());
          std::fflush(cache);
        }
      }
      printTableRow(stdout, row);
      rows.push_back(row);
    }
  }
  setActivity("");
  if (cache)
    std::fclose(cache);

  std::printf("%zu problems, %d with failed checks\n", rows.size(), failedRows);
  std::string error;
  if (!o.csvPath.empty() && !writeCsv(o.csvPath, rows, error))
    std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
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
