//===- Collect.cpp - Timing samples for the tuning dataset ----------------===//
//
// isaac-bench --collect: for every (kernel, input) pair of a samples file,
// the median GPU time of the launch sequence isaacGemmLaunch performs, as
// one CSV row in the dataset format of docs/tuning.md. Rows are appended
// and flushed as they come, and pairs already present are skipped, so an
// interrupted collection resumes where it stopped. A failing launch is
// recorded as a row with its status, never fatal. The configuration's
// columns follow include/isaac/Model/GemmParams.def (datasetColumns()).
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "DeviceKernels.h"
#include "Modes.h"
#include "Timing.h"

#include "isaac/Model/GemmConfig.h"
#include "isaac/Runtime/KernelConfig.h"
#include "isaac/Runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
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

/// The columns of a new dataset (docs/tuning.md, "Dataset format"): the
/// input, the legacy tuning vector (the columns of the first datasets, which
/// the features read), the family and every other parameter of
/// GemmParams.def, the measurement.
std::vector<std::string> datasetColumns() {
  std::vector<std::string> cols = {"dtype", "layout", "m", "n", "k"};
  for (isaac::GemmParam p : isaac::kLegacyParams)
    cols.push_back(isaac::gemmParamInfo(p).name);
  cols.push_back("family");
  for (const isaac::GemmParamInfo &p : isaac::kGemmParams)
    if (std::find(std::begin(isaac::kLegacyParams),
                  std::end(isaac::kLegacyParams),
                  p.param) == std::end(isaac::kLegacyParams))
      cols.push_back(p.name);
  for (const char *c : {"time_us", "tflops", "status"})
    cols.push_back(c);
  return cols;
}

/// The kernel a dataset row describes: its columns named by `header`; a
/// parameter without a column holds its default, no family column means
/// simt. Empty if the row does not name a kernel.
std::string rowKernel(const std::vector<std::string> &header,
                      const std::vector<std::string> &f) {
  std::map<std::string, std::string> cell;
  for (size_t i = 0; i < header.size() && i < f.size(); ++i)
    cell[header[i]] = f[i];
  isaac::GemmKernelName k;
  std::optional<isaac::GemmTypes> types =
      isaac::GemmTypes::parseToken(cell["dtype"]);
  const std::string &layout = cell["layout"];
  if (!types || layout.size() != 2)
    return {};
  k.types = *types;
  k.layout.transA = layout[0] == 't';
  k.layout.transB = layout[1] == 't';
  if (cell.count("family") && !cell["family"].empty()) {
    std::optional<isaac::GemmFamily> family =
        isaac::parseGemmFamily(cell["family"]);
    if (!family)
      return {};
    k.config.family = *family;
  }
  for (const isaac::GemmParamInfo &p : isaac::kGemmParams)
    if (cell.count(p.name) && !cell[p.name].empty())
      k.config.set(p.param, std::atoi(cell[p.name].c_str()));
  return k.str();
}

/// The (kernel, m, n, k) of every row already in the CSV `path`, and its
/// header's columns (empty: no header yet).
/// A leading dimension of `v` elements rounded up to a multiple of
/// `align`.
int32_t padLd(int64_t v, int align) {
  return int32_t((v + align - 1) / align * align);
}

std::set<Key> readDone(const std::string &path,
                       std::vector<std::string> &header) {
  std::set<Key> done;
  std::ifstream in(path);
  std::string line;
  header.clear();
  while (std::getline(in, line)) {
    if (line.rfind("dtype,", 0) == 0) {
      header = splitCommas(line);
      continue;
    }
    if (line.empty() || line[0] == '#' || header.empty())
      continue;
    std::vector<std::string> f = splitCommas(line);
    std::map<std::string, std::string> cell;
    for (size_t i = 0; i < header.size() && i < f.size(); ++i)
      cell[header[i]] = f[i];
    std::string name = rowKernel(header, f);
    if (name.empty() || !cell.count("k"))
      continue;
    done.insert({name, std::stoll(cell["m"]), std::stoll(cell["n"]),
                 std::stoll(cell["k"])});
  }
  return done;
}

/// The configuration cells of `info` for the columns `header`, or an error
/// naming a value the file has no column for (a file begun with the legacy
/// columns takes simt kernels at the other parameters' defaults only).
bool configCells(const std::vector<std::string> &header,
                 const isaacKernelInfo &info,
                 std::map<std::string, std::string> &cells,
                 std::string &error) {
  isaac::GemmConfig c = isaac::configOf(info);
  auto has = [&](const std::string &col) {
    return std::find(header.begin(), header.end(), col) != header.end();
  };
  if (has("family"))
    cells["family"] = isaac::gemmFamilyName(c.family);
  else if (c.family != isaac::GemmFamily::Simt)
    error = std::string("a ") + isaac::gemmFamilyName(c.family) + " kernel";
  for (const isaac::GemmParamInfo &p : isaac::kGemmParams) {
    if (has(p.name))
      cells[p.name] = std::to_string(c.get(p.param));
    else if (c.get(p.param) != p.defaultValue && error.empty())
      error = std::string(p.name) + " = " + std::to_string(c.get(p.param));
  }
  if (!error.empty())
    error += ", but the file has no column for it";
  return error.empty();
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
  std::vector<std::string> header;
  std::set<Key> done = readDone(o.collectOut, header);
  std::FILE *out = std::fopen(o.collectOut.c_str(), "a");
  if (!out) {
    std::fprintf(stderr, "isaac-bench: cannot append to %s\n",
                 o.collectOut.c_str());
    return 2;
  }
  if (header.empty()) {
    std::fprintf(out, "# L2: %s\n", ColdL2::regime(o.coldL2));
    if (o.ldAlign > 1)
      std::fprintf(out,
                   "# leading dimensions: the minimal ones rounded up to a "
                   "multiple of %d elements (isaac-bench --ld-align %d)\n",
                   o.ldAlign, o.ldAlign);
    header = datasetColumns();
    for (size_t i = 0; i < header.size(); ++i)
      std::fprintf(out, "%s%s", i ? "," : "", header[i].c_str());
    std::fprintf(out, "\n");
  }

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
      // Room for either layout with its leading dimension rounded up.
      auto up = [&](int64_t v) { return size_t(padLd(v, o.ldAlign)); };
      maxA = std::max(
          maxA, std::max(size_t(x.m) * up(x.k), size_t(x.k) * up(x.m)) * esz);
      maxB = std::max(
          maxB, std::max(size_t(x.k) * up(x.n), size_t(x.n) * up(x.k)) * esz);
      maxC = std::max(maxC, size_t(x.m) * up(x.n) * esz);
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
  const ColdL2 cold(o.coldL2, o.device);

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
    std::map<std::string, std::string> cells;
    auto row = [&](const Input &x, double us, const std::string &status) {
      char buf[64];
      cells["m"] = std::to_string(x.m);
      cells["n"] = std::to_string(x.n);
      cells["k"] = std::to_string(x.k);
      std::snprintf(buf, sizeof buf, "%.3f", us);
      cells["time_us"] = buf;
      std::snprintf(buf, sizeof buf, "%.6g",
                    us > 0 ? 2.0 * x.m * x.n * x.k / (us * 1e6) : 0.0);
      cells["tflops"] = buf;
      cells["status"] = status;
      for (size_t i = 0; i < header.size(); ++i)
        std::fprintf(out, "%s%s", i ? "," : "", cells[header[i]].c_str());
      std::fprintf(out, "\n");
    };
    if (!kf) {
      std::fprintf(stderr,
                   "collect: no kernel %s in %s; its samples are "
                   "skipped\n",
                   name.c_str(), o.ptxDir.c_str());
      continue;
    }
    std::string why;
    std::optional<isaac::GemmKernelName> parsed =
        isaac::GemmKernelName::parse(kf->info.name, &why);
    if (!parsed || !configCells(header, kf->info, cells, why)) {
      std::fprintf(stderr, "collect: kernel %s: %s; its samples are skipped\n",
                   name.c_str(), why.c_str());
      continue;
    }
    cells["dtype"] = parsed->types.token();
    cells["layout"] = parsed->layout.str();
    for (const Input &x : inputs) {
      if (done.count({name, x.m, x.n, x.k}))
        continue;
      const isaacKernelInfo &i = kf->info;
      int32_t lda = padLd(i.transA ? x.m : x.k, o.ldAlign),
              ldb = padLd(i.transB ? x.k : x.n, o.ldAlign),
              ldc = padLd(x.n, o.ldAlign);
      int32_t status = ISAAC_SUCCESS;
      auto launch = [&](int) {
        int32_t s = isaacGemmLaunch(
            kf->ptx.c_str(), i.name, i.dtype, i.ml, i.nl, i.threads, i.kg,
            C.data(), A.data(), B.data(), int32_t(x.m), int32_t(x.n),
            int32_t(x.k), lda, ldb, ldc, 0, 0, 0, 1, 1.0, 0.0, stream, 0);
        if (s != ISAAC_SUCCESS && status == ISAAC_SUCCESS)
          status = s;
      };
      double ms = cold.collectMilliseconds(
          launch, o.reps, stream, [&] { return status != ISAAC_SUCCESS; });
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
