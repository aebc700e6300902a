//===- ConvCollect.cpp - Timing samples for the conv tuning dataset -------===//
//
// isaac-bench --conv --collect: for every (kernel, convolution) pair of a
// samples file written by `isaac-tune sample --op conv` (`KERNEL
// N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q` lines), the median GPU time of the
// launch compiled code makes (isaacConvLaunch), as one CSV row of the conv
// dataset format (docs/tuning.md, "Convolution datasets"). As for GEMMs
// (Collect.cpp): rows are appended and flushed as they come, pairs already
// in the file are skipped (an interrupted collection resumes), a failing
// launch is a row with its status. A new file starts with the provenance:
// the samples file's '#' lines (the sampler's command), the GPU and the
// timing. With --list it prints the plan without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ConvBench.h"
#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "DeviceKernels.h"
#include "Modes.h"
#include "Timing.h"

#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/ConvSuites.h"
#include "isaac/Model/GemmConfig.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace bench {
namespace {

struct ConvSample {
  isaac::ConvShape shape; ///< types and layout those of the kernel
  std::string text;       ///< isaac::convShapeText(shape)
};

/// The columns of a conv dataset: the kernel, the convolution, the
/// configuration (the family and every parameter of GemmParams.def), the
/// measurement.
std::vector<std::string> convDatasetColumns() {
  std::vector<std::string> cols = {
      "kernel",     "dtype",   "layout",   "n",        "h",
      "w",          "c",       "k",        "r",        "s",
      "p",          "q",       "stride_h", "stride_w", "dilation_h",
      "dilation_w", "pad_top", "pad_left", "family"};
  for (const isaac::GemmParamInfo &p : isaac::kGemmParams)
    cols.push_back(p.name);
  for (const char *c : {"time_us", "tflops", "status"})
    cols.push_back(c);
  return cols;
}

/// What a collection will do: the samples by kernel, the rows already in
/// the CSV, the kernels of DIR they need.
struct Plan {
  std::vector<std::string> comments; ///< the samples file's '#' lines
  std::map<std::string, std::vector<ConvSample>> samples;
  size_t total = 0;
  std::vector<std::string> header; ///< the CSV's (empty: a new file)
  std::set<std::string> done;      ///< "KERNEL TEXT" of the rows in it
  std::map<std::string, const KernelFile *> kernels;
  size_t pending = 0;
  size_t missingKernels = 0, missingSamples = 0;
  size_t illegal = 0; ///< pairs the conv rules refuse
};

/// Reads the samples file into `plan`; false with `error` naming the line.
bool readSamples(const std::string &path, Plan &plan, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read samples file " + path;
    return false;
  }
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty())
      continue;
    if (line[0] == '#') {
      plan.comments.push_back(line);
      continue;
    }
    std::istringstream is(line);
    std::string name, text, extra;
    isaac::ConvSpec spec;
    std::string why;
    std::optional<isaac::ConvKernelName> kernel;
    if (!(is >> name >> text) || (is >> extra))
      why = "expected 'KERNEL N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q'";
    else if (!(kernel = isaac::ConvKernelName::parse(name, &why)))
      why = "'" + name + "' is not a convolution kernel name: expected " + why;
    else
      isaac::parseConvShape(text, spec, why); // sets why on failure
    if (!why.empty()) {
      error = path + ":" + std::to_string(lineNo) + ": " + why;
      return false;
    }
    ConvSample s;
    s.shape = spec.shape;
    s.shape.types = kernel->types;
    s.shape.layout = kernel->layout;
    s.text = isaac::convShapeText(s.shape);
    plan.samples[name].push_back(s);
    ++plan.total;
  }
  return true;
}

/// The rows already in the CSV `path` (none if it does not exist); false
/// with `error` if it has another header than a conv dataset's.
bool readDone(const std::string &path, Plan &plan, std::string &error) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> want = convDatasetColumns();
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::vector<std::string> f = splitCommas(line);
    if (plan.header.empty()) {
      if (f != want) {
        error = path +
                " is not a conv dataset of this build (its first "
                "line is '" +
                line + "'); give another --out";
        return false;
      }
      plan.header = f;
      continue;
    }
    if (f.size() != plan.header.size())
      continue; // a row cut short by an interruption: timed again
    std::map<std::string, std::string> cell;
    for (size_t i = 0; i < f.size(); ++i)
      cell[plan.header[i]] = f[i];
    isaac::ConvShape x;
    auto num = [&](const char *col) { return std::atoll(cell[col].c_str()); };
    x.n = num("n");
    x.h = num("h");
    x.w = num("w");
    x.c = num("c");
    x.k = num("k");
    x.r = num("r");
    x.s = num("s");
    x.p = num("p");
    x.q = num("q");
    x.strideH = num("stride_h");
    x.strideW = num("stride_w");
    x.dilationH = num("dilation_h");
    x.dilationW = num("dilation_w");
    x.padTop = num("pad_top");
    x.padLeft = num("pad_left");
    plan.done.insert(cell["kernel"] + " " + isaac::convShapeText(x));
  }
  return true;
}

bool makePlan(const Options &o, const std::vector<KernelFile> &kernels,
              Plan &plan, std::string &error) {
  if (!readSamples(o.collectSamples, plan, error) ||
      !readDone(o.collectOut, plan, error))
    return false;
  std::map<std::string, const KernelFile *> byName;
  for (const KernelFile &kf : kernels)
    byName[kf.info.name] = &kf;
  for (auto &[name, samples] : plan.samples) {
    auto it = byName.find(name);
    if (it == byName.end()) {
      ++plan.missingKernels;
      plan.missingSamples += samples.size();
      continue;
    }
    plan.kernels[name] = it->second;
    isaac::GemmConfig config = it->second->config();
    std::optional<isaac::ChipLimits> chip =
        isaac::getChipLimits(it->second->info.chip);
    for (const ConvSample &s : samples) {
      if (plan.done.count(name + " " + s.text))
        continue;
      if (chip && !isaac::isConvLegal(config, s.shape, *chip))
        ++plan.illegal;
      else
        ++plan.pending;
    }
  }
  return true;
}

void printPlan(const Options &o, const Plan &plan) {
  std::printf("conv collect: %zu samples of %zu kernels in %s, %zu already "
              "in %s, %zu to time\n",
              plan.total, plan.samples.size(), o.collectSamples.c_str(),
              plan.done.size(), o.collectOut.c_str(), plan.pending);
  if (plan.missingKernels)
    std::printf("conv collect: %zu kernels (%zu samples) are not in %s; "
                "their samples are skipped\n",
                plan.missingKernels, plan.missingSamples, o.ptxDir.c_str());
  if (plan.illegal)
    std::printf("conv collect: %zu samples are illegal for their kernel "
                "(isConvLegal); they are skipped\n",
                plan.illegal);
}

std::string utcDate() {
  std::time_t now = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return buf;
}

} // namespace

int runConvCollectList(const Options &o,
                       const std::vector<KernelFile> &kernels) {
  Plan plan;
  std::string error;
  if (!makePlan(o, kernels, plan, error)) {
    std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
    return 2;
  }
  printPlan(o, plan);
  std::vector<std::string> cols = convDatasetColumns();
  std::printf("columns:");
  for (size_t i = 0; i < cols.size(); ++i)
    std::printf("%s%s", i ? "," : " ", cols[i].c_str());
  std::printf("\n");
  for (const std::string &c : plan.comments)
    std::printf("provenance: %s\n", c.c_str());
  return 0;
}

int runConvCollect(const Options &o, const std::vector<KernelFile> &kernels,
                   const DeviceInfo &device, cudaStream_t stream) {
  Plan plan;
  std::string error;
  if (!makePlan(o, kernels, plan, error)) {
    std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
    return 2;
  }
  printPlan(o, plan);
  std::FILE *out = std::fopen(o.collectOut.c_str(), "a");
  if (!out) {
    std::fprintf(stderr, "isaac-bench: cannot append to %s\n",
                 o.collectOut.c_str());
    return 2;
  }
  int sms = 0, driver = 0, runtime = 0;
  CUDA_CHECK(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, o.device));
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  char gpu[256];
  std::snprintf(gpu, sizeof gpu,
                "%s (%s, %d SMs, %.0f MiB L2), CUDA driver API %d, runtime %d",
                device.name.c_str(), device.chip.c_str(), sms,
                device.l2Bytes / 1048576.0, driver, runtime);
  if (plan.header.empty()) {
    // The provenance of a new file (docs/tuning.md), then the header.
    std::fprintf(out, "# isaac convolution tuning dataset, format: "
                      "docs/tuning.md (Convolution datasets)\n");
    for (const std::string &c : plan.comments)
      std::fprintf(out, "%s\n", c.c_str());
    std::fprintf(out, "# GPU: %s\n# date: %s\n", gpu, utcDate().c_str());
    std::fprintf(out,
                 "# timed by: isaac-bench --conv --collect --reps %d (median "
                 "of %d runs after one; one run when it takes >= 5 ms); "
                 "operands random in [-1, 1], alpha = 1, beta = 0, packed "
                 "tensors; L2: %s\n",
                 o.reps, o.reps, ColdL2::regime(o.coldL2));
    plan.header = convDatasetColumns();
    for (size_t i = 0; i < plan.header.size(); ++i)
      std::fprintf(out, "%s%s", i ? "," : "", plan.header[i].c_str());
    std::fprintf(out, "\n");
  } else {
    std::fprintf(out, "# resumed: %s on %s\n", utcDate().c_str(), gpu);
  }
  std::fflush(out);

  // One input, filter and output buffer, as large as the largest pending
  // sample needs, refilled with random values of the kernel's types when
  // they change (samples come grouped by kernel name, hence by types).
  size_t maxI = 16, maxF = 16, maxO = 16;
  for (const auto &[name, samples] : plan.samples) {
    if (!plan.kernels.count(name))
      continue;
    for (const ConvSample &s : samples) {
      ConvProblem p;
      p.shape = s.shape;
      maxI = std::max(maxI, size_t(p.inputCount()) * dtypeSize(p.dtype()));
      maxF = std::max(maxF, size_t(p.filterCount()) * dtypeSize(p.dtype()));
      maxO = std::max(maxO, size_t(p.outputCount()) * dtypeSize(p.outDtype()));
    }
  }
  DeviceBuffer I, F, O;
  const ColdL2 cold(o.coldL2, o.device);
  I.reserve(maxI);
  F.reserve(maxF);
  O.reserve(maxO);
  isaac::GemmTypes filled;
  bool anyFill = false;

  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  size_t timed = 0, failed = 0, kernelIndex = 0;
  for (const auto &[name, samples] : plan.samples) {
    ++kernelIndex;
    if (o.timeLimitSeconds > 0 && elapsed() > o.timeLimitSeconds) {
      std::printf("conv collect: time limit reached; rerun to resume\n");
      break;
    }
    auto it = plan.kernels.find(name);
    if (it == plan.kernels.end())
      continue;
    const KernelFile &kf = *it->second;
    isaac::GemmConfig config = kf.config();
    std::optional<isaac::ChipLimits> chip = isaac::getChipLimits(kf.info.chip);
    isaac::GemmTypes types = kf.types();
    if (!anyFill || !(types == filled)) {
      int ab = static_cast<int>(types.ab), c = static_cast<int>(types.c);
      fillUniform(I.data(), ab, I.size() / dtypeSize(ab), o.seed * 3 + 0,
                  stream);
      fillUniform(F.data(), ab, F.size() / dtypeSize(ab), o.seed * 3 + 1,
                  stream);
      fillUniform(O.data(), c, O.size() / dtypeSize(c), o.seed * 3 + 2, stream);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      filled = types;
      anyFill = true;
    }
    std::map<std::string, std::string> cells;
    cells["kernel"] = name;
    cells["dtype"] = types.token();
    cells["layout"] = isaac::convLayoutName(kf.convLayout());
    cells["family"] = isaac::gemmFamilyName(config.family);
    for (const isaac::GemmParamInfo &p : isaac::kGemmParams)
      cells[p.name] = std::to_string(config.get(p.param));
    for (const ConvSample &s : samples) {
      if (plan.done.count(name + " " + s.text) ||
          (chip && !isaac::isConvLegal(config, s.shape, *chip)))
        continue;
      const isaac::ConvShape &x = s.shape;
      ConvProblem p;
      p.shape = x;
      setActivity("timing " + name + " on " + p.describe());
      int32_t status = ISAAC_SUCCESS;
      auto launch = [&](int) {
        int32_t r = launchConvKernel(kf, p, O.data(), I.data(), F.data(), 1.0,
                                     0.0, 0, stream);
        if (r != ISAAC_SUCCESS && status == ISAAC_SUCCESS)
          status = r;
      };
      double ms = cold.collectMilliseconds(
          launch, o.reps, stream, [&] { return status != ISAAC_SUCCESS; });
      const std::pair<const char *, int64_t> fields[] = {
          {"n", x.n},
          {"h", x.h},
          {"w", x.w},
          {"c", x.c},
          {"k", x.k},
          {"r", x.r},
          {"s", x.s},
          {"p", x.p},
          {"q", x.q},
          {"stride_h", x.strideH},
          {"stride_w", x.strideW},
          {"dilation_h", x.dilationH},
          {"dilation_w", x.dilationW},
          {"pad_top", x.padTop},
          {"pad_left", x.padLeft}};
      for (const auto &[col, v] : fields)
        cells[col] = std::to_string(v);
      double us = 0;
      if (status != ISAAC_SUCCESS) {
        std::string why = std::string("launch-error: ") + isaacGetLastError();
        for (char &ch : why)
          if (ch == ',' || ch == '\n')
            ch = ';';
        cells["status"] = why;
        isaacClearLastError();
        ++failed;
      } else {
        us = ms * 1e3;
        cells["status"] = "ok";
        ++timed;
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f", us);
      cells["time_us"] = buf;
      std::snprintf(buf, sizeof buf, "%.6g",
                    us > 0 ? p.flops() / (us * 1e6) : 0.0);
      cells["tflops"] = buf;
      for (size_t i = 0; i < plan.header.size(); ++i)
        std::fprintf(out, "%s%s", i ? "," : "", cells[plan.header[i]].c_str());
      std::fprintf(out, "\n");
    }
    std::fflush(out);
    if (kernelIndex % 50 == 0 || kernelIndex == plan.samples.size()) {
      double t = elapsed();
      double rate = timed / std::max(t, 1e-9);
      std::fprintf(stderr,
                   "conv collect: kernel %zu/%zu, %zu timed, %zu failed, "
                   "%.0f s, %.0f samples/s, ETA %.0f s\n",
                   kernelIndex, plan.samples.size(), timed, failed, t, rate,
                   rate > 0 ? (plan.pending - timed - failed) / rate : 0.0);
    }
  }
  setActivity("");
  std::fclose(out);
  std::printf("conv collect: %zu timed, %zu failed in %.1f s -> %s\n", timed,
              failed, elapsed(), o.collectOut.c_str());
  return 0;
}

} // namespace bench
