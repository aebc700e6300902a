//===- Collect.cpp - Timing samples for the tuning dataset ----------------===//
//
// isaac-bench --collect: for every (kernel, input) pair of a samples file,
// the median GPU time of the launch sequence isaacGemmLaunch performs, as
// one CSV row in the dataset format of docs/tuning.md. Rows are appended
// and flushed as they come, and pairs already present are skipped, so an
// interrupted collection resumes where it stopped. A failing launch is
// recorded as a row with its status, never fatal.
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "DeviceKernels.h"
#include "Modes.h"
#include "Timing.h"

#include "isaac/Runtime/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace bench {
namespace {

struct Input {
  int64_t m, n, k;
};
using Key = std::tuple<std::string, int64_t, int64_t, int64_t>;

/// Reads `KERNEL M N K` lines, grouped by kernel.
bool readSamples(const std::string &path,
                 std::map<std::string, std::vector<Input>> &out,
                 std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read samples file " + path;
    return false;
  }
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream is(line);
    std::string name;
    Input x;
    if (!(is >> name >> x.m >> x.n >> x.k) || x.m < 1 || x.n < 1 || x.k < 1) {
      error = path + ":" + std::to_string(lineNo) +
              ": expected 'KERNEL M N K' with M, N, K >= 1";
      return false;
    }
    out[name].push_back(x);
  }
  return true;
}

/// The (kernel, m, n, k) of every row already in the CSV `path`.
std::set<Key> readDone(const std::string &path, bool &hasHeader) {
  std::set<Key> done;
  std::ifstream in(path);
  std::string line;
  hasHeader = false;
  while (std::getline(in, line)) {
    if (line.rfind("dtype,", 0) == 0) {
      hasHeader = true;
      continue;
    }
    if (line.empty() || line[0] == '#')
      continue;
    // dtype,layout,m,n,k,ml,nl,ms,ns,u,ks,kl,kg,vec,...
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
      f.push_back(cell);
    if (f.size() < 14)
      continue;
    isaac::GemmConfig c;
    int *fields[] = {&c.ml, &c.nl, &c.ms, &c.ns, &c.u,
                     &c.ks, &c.kl, &c.kg, &c.vec};
    for (int i = 0; i < 9; ++i)
      *fields[i] = std::atoi(f[5 + i].c_str());
    std::string name = "isaac_gemm_" + f[0] + "_" + f[1] + "_" + c.mangle();
    done.insert({name, std::stoll(f[2]), std::stoll(f[3]), std::stoll(f[4])});
  }
  return done;
}

} // namespace

int runCollect(const Options &o, const std::vector<KernelFile> &kernels,
               cudaStream_t stream) {
  std::map<std::string, std::vector<Input>> samples;
  std::string error;
  if (!readSamples(o.collectSamples, samples, error)) {
    std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
    return 2;
  }
  bool hasHeader = false;
  std::set<Key> done = readDone(o.collectOut, hasHeader);
  std::FILE *out = std::fopen(o.collectOut.c_str(), "a");
  if (!out) {
    std::fprintf(stderr, "isaac-bench: cannot append to %s\n",
                 o.collectOut.c_str());
    return 2;
  }
  if (!hasHeader)
    std::fprintf(out, "dtype,layout,m,n,k,ml,nl,ms,ns,u,ks,kl,kg,vec,"
                      "time_us,tflops,status\n");

  // One set of operands, as large as the largest sample needs, filled once
  // with random values (never zeros). Filled as f32 in [-1, 1]: read as
  // f64, pairs of such words are finite normal doubles too.
  size_t maxA = 0, maxB = 0, maxC = 0;
  std::map<std::string, const KernelFile *> byName;
  for (const KernelFile &kf : kernels)
    byName[kf.info.name] = &kf;
  size_t total = 0, pending = 0;
  for (auto &[name, inputs] : samples) {
    auto it = byName.find(name);
    size_t esz = it != byName.end() && it->second->info.dtype ? 8 : 4;
    for (const Input &x : inputs) {
      ++total;
      if (done.count({name, x.m, x.n, x.k}))
        continue;
      ++pending;
      maxA = std::max(maxA, size_t(x.m * x.k) * esz);
      maxB = std::max(maxB, size_t(x.k * x.n) * esz);
      maxC = std::max(maxC, size_t(x.m * x.n) * esz);
    }
  }
  std::printf("collect: %zu samples, %zu already in %s, %zu to time\n", total,
              total - pending, o.collectOut.c_str(), pending);
  DeviceBuffer A, B, C;
  A.reserve(std::max<size_t>(maxA, 16));
  B.reserve(std::max<size_t>(maxB, 16));
  C.reserve(std::max<size_t>(maxC, 16));
  fillUniform(A.data(), 0, A.size() / 4, o.seed * 3 + 0, stream);
  fillUniform(B.data(), 0, B.size() / 4, o.seed * 3 + 1, stream);
  fillUniform(C.data(), 0, C.size() / 4, o.seed * 3 + 2, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));

  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  size_t timed = 0, failed = 0, kernelIndex = 0;
  for (auto &[name, inputs] : samples) {
    ++kernelIndex;
    if (o.timeLimitSeconds > 0 && elapsed() > o.timeLimitSeconds) {
      std::printf("collect: time limit reached; rerun to resume\n");
      break;
    }
    auto it = byName.find(name);
    const KernelFile *kf = it == byName.end() ? nullptr : it->second;
    auto row = [&](const Input &x, double us, const std::string &status) {
      const isaacKernelInfo *i = kf ? &kf->info : nullptr;
      double tflops = us > 0 ? 2.0 * x.m * x.n * x.k / (us * 1e6) : 0;
      if (i)
        std::fprintf(out,
                     "%s,%c%c,%lld,%lld,%lld,%d,%d,%d,%d,%d,%d,%d,%d,%d,"
                     "%.3f,%.6g,%s\n",
                     i->dtype ? "f64" : "f32", i->transA ? 't' : 'n',
                     i->transB ? 't' : 'n', (long long)x.m, (long long)x.n,
                     (long long)x.k, i->ml, i->nl, i->ms, i->ns, i->u, i->ks,
                     i->kl, i->kg, i->vec, us, tflops, status.c_str());
    };
    if (!kf) {
      std::fprintf(stderr,
                   "collect: no kernel %s in %s; its samples are "
                   "skipped\n",
                   name.c_str(), o.ptxDir.c_str());
      continue;
    }
    for (const Input &x : inputs) {
      if (done.count({name, x.m, x.n, x.k}))
        continue;
      const isaacKernelInfo &i = kf->info;
      int32_t lda = i.transA ? x.m : x.k, ldb = i.transB ? x.k : x.n;
      int32_t status = ISAAC_SUCCESS;
      auto launch = [&](int) {
        int32_t s =
            isaacGemmLaunch(kf->ptx.c_str(), i.name, i.dtype, i.ml, i.nl,
                            i.threads, i.kg, C.data(), A.data(), B.data(),
                            int32_t(x.m), int32_t(x.n), int32_t(x.k), lda, ldb,
                            int32_t(x.n), 0, 0, 0, 1, 1.0, 0.0, stream, 0);
        if (s != ISAAC_SUCCESS && status == ISAAC_SUCCESS)
          status = s;
      };
      // One measured run first: slow configurations on large inputs keep
      // that single time instead of spending a median's worth of runs.
      double ms = medianMilliseconds(launch, 1, 1, stream);
      if (status == ISAAC_SUCCESS && ms < 5.0)
        ms = medianMilliseconds(launch, o.reps, 0, stream);
      if (status != ISAAC_SUCCESS) {
        std::string why = std::string("launch-error: ") + isaacGetLastError();
        for (char &ch : why)
          if (ch == ',' || ch == '\n')
            ch = ';';
        row(x, 0, why);
        ++failed;
        isaacClearLastError();
        continue;
      }
      row(x, ms * 1e3, "ok");
      ++timed;
    }
    std::fflush(out);
    if (kernelIndex % 50 == 0 || kernelIndex == samples.size()) {
      double t = elapsed();
      double rate = timed / std::max(t, 1e-9);
      std::fprintf(stderr,
                   "collect: kernel %zu/%zu, %zu timed, %zu failed, %.0f s, "
                   "%.0f samples/s, ETA %.0f s\n",
                   kernelIndex, samples.size(), timed, failed, t, rate,
                   rate > 0 ? (pending - timed - failed) / rate : 0.0);
    }
  }
  std::fclose(out);
  std::printf("collect: %zu timed, %zu failed in %.1f s -> %s\n", timed, failed,
              elapsed(), o.collectOut.c_str());
  return 0;
}

} // namespace bench
