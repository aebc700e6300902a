//===- ConvBench.cpp - Check and time convolution kernels against cuDNN ---===//
//
// isaac-bench --conv. Each problem of --conv-shapes/--conv-shape runs, for
// every types token and layout DIR has convolution kernels of, every
// matching kernel through isaacConvLaunch: checked with alpha = 1.5 and
// beta = 0 and 0.5 against the fp64 reference, then timed. cuDNN's best
// algorithm in its NHWC and NCHW formats is timed on the same buffers, the
// same way, in the same run. --conv-sweep runs the correctness sweep
// instead; --list prints the kernels and problems without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ConvBench.h"
#include "ConvKernels.h"
#include "CudaCheck.h"
#include "Cudnn.h"
#include "DeviceKernels.h"
#include "EpilogueCheck.h"
#include "KernelResult.h"
#include "Modes.h"
#include "Report.h"
#include "SweepTally.h"
#include "Timing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

namespace bench {
namespace {

/// The problem of each check, as for GEMMs: alpha != 1 and both beta == 0
/// (O not read) and beta != 0.
constexpr double kCheckAlpha = 1.5;
constexpr double kCheckBetas[] = {0.0, 0.5};
/// cuDNN algorithms timed per problem and format, fastest first by
/// cudnnFindConvolutionForwardAlgorithmEx's own measurement.
constexpr int kCudnnCandidates = 3;
/// cuDNN's workspace: algorithms that need more are left out by its Find.
constexpr size_t kCudnnWorkspaceBytes = size_t(1) << 30;
/// Copies beyond this add nothing but allocation time (as Timing.cpp).
constexpr int kMaxCopies = 64;
const char *const kFormatNames[2] = {"NHWC", "NCHW"};

/// Copies of the input, the filters and the output for timing, rotated so
/// that a problem that fits in L2 is still timed from memory (the GEMM
/// timing's RotatingBuffers, for three tensors of a convolution). cuDNN's
/// formats hold the same number of elements, so the same buffers serve
/// them.
class ConvTimingBuffers {
public:
  void prepare(const ConvProblem &p, size_t l2Bytes, uint64_t seed,
               cudaStream_t stream) {
    size_t size = dtypeSize(p.dtype()), outSize = dtypeSize(p.outDtype());
    size_t bytesI = (p.offset + p.inputCount()) * size;
    size_t bytesF = (p.offset + p.filterCount()) * size;
    size_t bytesO = (p.offset + p.outputCount()) * outSize;
    size_t perCopy = bytesI + bytesF + bytesO;
    size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    size_t wanted = 2 * l2Bytes / perCopy + 1;
    size_t affordable = std::max<size_t>(1, freeBytes / 4 / perCopy);
    count = static_cast<int>(
        std::min<size_t>({wanted, affordable, size_t(kMaxCopies)}));
    offsetBytes = p.offset * size;
    offsetBytesOut = p.offset * outSize;
    if (in.size() < static_cast<size_t>(count)) {
      in.resize(count);
      filter.resize(count);
      out.resize(count);
    }
    for (int i = 0; i < count; ++i) {
      in[i].reserve(bytesI);
      filter[i].reserve(bytesF);
      out[i].reserve(bytesO);
      uint64_t s = seed * 1000003u + i * 3u;
      fillUniform(in[i].data(), p.dtype(), bytesI / size, s, stream);
      fillUniform(filter[i].data(), p.dtype(), bytesF / size, s + 1, stream);
      fillUniform(out[i].data(), p.outDtype(), bytesO / outSize, s + 2, stream);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  void *I(int i) const { return at(in[i % count], offsetBytes); }
  void *F(int i) const { return at(filter[i % count], offsetBytes); }
  void *O(int i) const { return at(out[i % count], offsetBytesOut); }

private:
  static void *at(const DeviceBuffer &buffer, size_t offset) {
    return static_cast<char *>(buffer.data()) + offset;
  }
  std::vector<DeviceBuffer> in, filter, out;
  int count = 0;
  size_t offsetBytes = 0, offsetBytesOut = 0;
};

/// Element `index` of an array of an isaacDtype on the device.
double readElement(const void *base, int dtype, int64_t index,
                   cudaStream_t stream) {
  size_t size = dtypeSize(dtype);
  unsigned char bytes[8] = {};
  CUDA_CHECK(cudaMemcpyAsync(bytes,
                             static_cast<const char *>(base) + index * size,
                             size, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return loadElement(bytes, dtype, 0);
}

/// Explains element `e` of the O allocation: its (n, p, q, k), value and
/// expected value, or that it lies outside the output.
std::string describeElement(const ConvProblem &p, const ConvGeometry &g,
                            int64_t e, const ConvCheckBuffers &buffers,
                            cudaStream_t stream) {
  std::ostringstream os;
  os.precision(17);
  double got = readElement(buffers.O.data(), p.outDtype(), e, stream);
  int64_t r = e - p.offset;
  if (r < 0 || r >= p.outputCount()) {
    double before = readElement(buffers.O0.data(), p.outDtype(), e, stream);
    os << "element " << r << " of O (relative to the base pointer) lies "
       << "outside the output (misalignment gap or guard) and was "
          "overwritten: "
       << got << ", was " << before;
    return os.str();
  }
  double want = 0;
  CUDA_CHECK(cudaMemcpyAsync(&want, buffers.ref.as<double>() + r,
                             sizeof(double), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  int64_t n, pp, q, k;
  decodeOutput(g, r, n, pp, q, k);
  os << "O(n=" << n << ", p=" << pp << ", q=" << q << ", k=" << k
     << ") = " << got << ", expected " << want;
  return os.str();
}

std::string modeName(const isaacKernelInfo &info, int flags) {
  if (info.kg == 1)
    return "";
  return flags & ISAAC_DETERMINISTIC ? " deterministic" : " atomic";
}

/// The layouts --conv-layout selects that `kernels` has kernels of, in the
/// order of isaac::ConvLayout.
std::vector<isaac::ConvLayout>
layoutsToRun(const Options &o, const std::vector<KernelFile> &kernels) {
  std::vector<isaac::ConvLayout> layouts;
  for (isaac::ConvLayout l :
       {isaac::ConvLayout::NhwcHwcf, isaac::ConvLayout::NhwcFhwc}) {
    bool any = std::any_of(kernels.begin(), kernels.end(), [&](auto &k) {
      return k.convLayout() == l && selectsTypes(o, k.types());
    });
    if (any && selectsConvLayout(o, l))
      layouts.push_back(l);
  }
  return layouts;
}

/// cuDNN's timing of one problem in both formats, and the check of its
/// best algorithm in each.
struct CudnnResult {
  int algo[2] = {-1, -1};
  double ms[2] = {NAN, NAN};
  double error = NAN;
};

CudnnResult timeCudnn(CudnnConv &conv, const ConvProblem &p, const Options &o,
                      const ConvTimingBuffers &timing, DeviceBuffer &workspace,
                      uint64_t &seed, ConvCheckBuffers &checkBuffers,
                      cudaStream_t stream) {
  CudnnResult result;
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  workspace.reserve(std::min(kCudnnWorkspaceBytes, freeBytes / 4));
  size_t workspaceBytes = workspace.size();
  for (int format = 0; format < 2; ++format) {
    bool nchw = format == 1;
    std::string what = std::string("cuDNN ") + kFormatNames[format];
    setActivity("timing " + what + " on " + p.describe());
    std::string why;
    if (!conv.describe(p, nchw, why)) {
      std::printf("  note: %s skipped: %s\n", what.c_str(), why.c_str());
      continue;
    }
    std::vector<cudnn::cudnnConvolutionFwdAlgoPerf_t> algos =
        conv.find(timing.I(0), timing.F(0), timing.O(0), workspace.data(),
                  workspaceBytes, why);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (algos.empty()) {
      std::printf("  note: %s: %s\n", what.c_str(), why.c_str());
      continue;
    }
    const cudnn::cudnnConvolutionFwdAlgoPerf_t *best = nullptr;
    for (size_t i = 0;
         i < algos.size() && i < static_cast<size_t>(kCudnnCandidates); ++i) {
      const cudnn::cudnnConvolutionFwdAlgoPerf_t &algo = algos[i];
      // An algorithm that Find ran may still refuse; that is not an error.
      cudnn::cudnnStatus_t status =
          conv.run(algo, timing.I(0), timing.F(0), timing.O(0), 1.0, 0.0,
                   workspace.data(), workspaceBytes);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      if (status != cudnn::CUDNN_STATUS_SUCCESS) {
        if (o.verbose)
          std::printf("  %s algo %d (%s): %s\n", what.c_str(), algo.algo,
                      cudnnAlgoName(algo.algo),
                      conv.statusName(status).c_str());
        continue;
      }
      double ms = medianMilliseconds(
          [&](int r) {
            cudnn::cudnnStatus_t s =
                conv.run(algo, timing.I(r), timing.F(r), timing.O(r), 1.0, 0.0,
                         workspace.data(), workspaceBytes);
            if (s != cudnn::CUDNN_STATUS_SUCCESS)
              fatal(__FILE__, __LINE__,
                    "cudnnConvolutionForward failed: " + conv.statusName(s));
          },
          o.reps, o.warmup, stream);
      if (o.verbose)
        std::printf("  %s algo %d (%s, math type %d, %zu bytes of "
                    "workspace): %.2f us (Find: %.2f us)\n",
                    what.c_str(), algo.algo, cudnnAlgoName(algo.algo),
                    algo.mathType, algo.memory, ms * 1e3, algo.time * 1e3);
      if (!(ms >= result.ms[format])) {
        result.ms[format] = ms;
        result.algo[format] = algo.algo;
        best = &algo;
      }
    }
    if (!best)
      continue;
    // The algorithm timed must compute this convolution: its output is
    // compared with the reference, in its own format, with a bound wide
    // enough for FFT and Winograd (kCudnnBoundRel) and far below the
    // error of a wrong descriptor.
    setActivity("checking " + what + " algo " + std::to_string(best->algo) +
                " on " + p.describe());
    Problem gemm = p.gemm();
    ErrorModel model = checkErrorModel(gemm, baseTolerance(o, gemm));
    model.boundRel = std::max(model.boundRel, kCudnnBoundRel);
    const cudnn::cudnnConvolutionFwdAlgoPerf_t algo = *best;
    CheckOutcome outcome = checkConv(
        p, nchw ? ConvStorage::CudnnNchw : ConvStorage::CudnnNhwc,
        [&](void *O, const void *I, const void *F) -> std::string {
          cudnn::cudnnStatus_t s = conv.run(algo, I, F, O, kCheckAlpha, 0.5,
                                            workspace.data(), workspaceBytes);
          return s == cudnn::CUDNN_STATUS_SUCCESS
                     ? std::string()
                     : "cudnnConvolutionForward returned " + conv.statusName(s);
        },
        kCheckAlpha, 0.5, seed++, model, checkBuffers, stream);
    result.error = std::isnan(result.error)
                       ? outcome.maxError
                       : std::max(result.error, outcome.maxError);
    if (!outcome.passed)
      std::printf("  WARNING: %s algo %d (%s) disagrees with the reference "
                  "beyond %g of the bound: %s\n",
                  what.c_str(), algo.algo, cudnnAlgoName(algo.algo),
                  kCudnnBoundRel, outcome.failure.c_str());
  }
  setActivity("");
  return result;
}

/// Checks `kernel` on `p` with both betas and, unless --check-only, times
/// it on `timing`.
KernelResult checkAndTime(const KernelFile &kernel, const ConvProblem &p,
                          const Options &o, uint64_t &seed,
                          ConvCheckBuffers &checkBuffers,
                          const ConvTimingBuffers &timing,
                          cudaStream_t stream) {
  int flags = o.deterministic ? ISAAC_DETERMINISTIC : 0;
  KernelResult result = {&kernel, true, 0.0, NAN, false};
  Problem gemm = p.gemm();
  for (double beta : kCheckBetas) {
    setActivity("checking " + std::string(kernel.info.name) + " on " +
                p.describe() + " beta=" + std::to_string(beta));
    CheckOutcome outcome =
        checkConvKernel(kernel, p, kCheckAlpha, beta, flags, seed++,
                        baseTolerance(o, gemm), checkBuffers, stream);
    result.maxError = std::max(result.maxError, outcome.maxError);
    result.errorIsFraction = outcome.errorIsFraction;
    if (!outcome.passed) {
      result.passed = false;
      std::printf("  FAIL %s on %s, alpha=%g beta=%g%s: %s\n", kernel.info.name,
                  p.describe().c_str(), kCheckAlpha, beta,
                  modeName(kernel.info, flags).c_str(),
                  outcome.failure.c_str());
    } else if (o.verbose) {
      std::printf("  pass %s on %s, beta=%g: max %s %.3e\n", kernel.info.name,
                  p.describe().c_str(), beta,
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
        int32_t status = launchConvKernel(kernel, p, timing.O(r), timing.I(r),
                                          timing.F(r), 1.0, 0.0, flags, stream);
        if (status != ISAAC_SUCCESS)
          fatal(__FILE__, __LINE__,
                std::string("isaacConvLaunch returned ") +
                    isaacStatusName(status) + ": " + isaacGetLastError());
      },
      o.reps, o.warmup, stream);
  if (o.verbose)
    std::printf("  time %s: %.2f us\n", kernel.info.name, result.ms * 1e3);
  return result;
}

double rooflineTflops(const Options &o, const ConvProblem &p) {
  double memoryBound = p.flops() / (p.bytes() / (o.bandwidthGBs * 1e9));
  return std::min(peakTflops(o, p.gemm()) * 1e12, memoryBound) / 1e12;
}

/// The types --dtype asks for that `kernels` has convolution kernels of.
std::vector<isaac::GemmTypes>
typesToRun(const Options &o, const std::vector<KernelFile> &kernels) {
  std::vector<isaac::GemmTypes> types;
  for (const isaac::GemmTypes &t : o.types) {
    bool any = std::any_of(kernels.begin(), kernels.end(),
                           [&](auto &k) { return k.types() == t; });
    if (any)
      types.push_back(t);
    else if (o.dtypeGiven)
      std::printf("note: no %s convolution kernels in %s; %s problems "
                  "skipped\n",
                  t.token().c_str(), o.ptxDir.c_str(), t.token().c_str());
  }
  return types;
}

int runConvSweep(const Options &o, const std::vector<KernelFile> &kernels,
                 cudaStream_t stream) {
  ConvCheckBuffers buffers;
  uint64_t seed = o.seed;
  SweepTally tally("conv sweep");
  int index = 0, selected = 0;
  auto runs = [&](const KernelFile &k) {
    return selectsTypes(o, k.types()) && selectsConvLayout(o, k.convLayout());
  };
  for (const KernelFile &kernel : kernels)
    selected += runs(kernel);
  for (const KernelFile &kernel : kernels) {
    const isaacKernelInfo &info = kernel.info;
    if (!runs(kernel))
      continue;
    tally.beginKernel(++index, selected, info.name, o.convSpecs.size());
    for (size_t c = 0; c < o.convSpecs.size(); ++c) {
      // Every 4th problem has misaligned base pointers (all with
      // --misalign): the input's predicated path even where vec divides C.
      ConvProblem p =
          makeConvProblem(o.convSpecs[c], kernel.types(), kernel.convLayout(),
                          o.misalign || c % 4 == 3);
      Problem gemm = p.gemm();
      std::vector<int> modes = {0};
      if (info.kg > 1)
        modes = {ISAAC_DETERMINISTIC, 0};
      for (double beta : kCheckBetas) {
        for (int flags : modes) {
          std::string where = p.label + " " + p.describe() +
                              (beta != 0 ? " beta=0.5" : " beta=0") +
                              modeName(info, flags);
          setActivity("sweeping " + std::string(info.name) + " on " + where);
          CheckOutcome outcome =
              checkConvKernel(kernel, p, kCheckAlpha, beta, flags, seed++,
                              baseTolerance(o, gemm), buffers, stream);
          tally.record(outcome, where, o.verbose);
        }
      }
    }
    tally.endKernel();
  }
  setActivity("");
  return tally.finish();
}

} // namespace

std::vector<const KernelFile *>
convCandidates(const Options &o, const std::vector<KernelFile> &kernels,
               const ConvProblem &p) {
  auto computes = [&](const KernelFile &k) {
    if (!k.isConv())
      return isPointwise(p) && k.types() == p.shape.types && !k.info.transA &&
             (k.info.transB != 0) ==
                 (p.shape.layout == isaac::ConvLayout::NhwcFhwc);
    return k.types() == p.shape.types && k.convLayout() == p.shape.layout;
  };
  std::vector<const KernelFile *> candidates;
  if (o.candidates.empty()) {
    for (const KernelFile &k : kernels)
      if (computes(k))
        candidates.push_back(&k);
    return candidates;
  }
  Problem g = p.gemm();
  auto it = o.candidates.find(std::to_string(g.M) + "," + std::to_string(g.N) +
                              "," + std::to_string(g.K));
  if (it == o.candidates.end())
    return candidates;
  // In the list's order (a model's ranking); lists of other types or
  // layouts under the same key count only their own kernels.
  for (const std::string &name : it->second) {
    auto k = std::find_if(kernels.begin(), kernels.end(),
                          [&](auto &f) { return name == f.info.name; });
    if (k == kernels.end() || !computes(*k) ||
        std::find(candidates.begin(), candidates.end(), &*k) !=
            candidates.end())
      continue;
    if (o.topk && static_cast<int>(candidates.size()) == o.topk)
      break;
    candidates.push_back(&*k);
  }
  return candidates;
}

bool isPointwise(const ConvProblem &p) {
  const isaac::ConvShape &x = p.shape;
  return x.r == 1 && x.s == 1 && x.strideH == 1 && x.strideW == 1 &&
         x.padTop == 0 && x.padLeft == 0 && x.p == x.h && x.q == x.w;
}

int32_t launchConvKernel(const KernelFile &kernel, const ConvProblem &p,
                         void *O, const void *I, const void *F, double alpha,
                         double beta, int flags, cudaStream_t stream) {
  const isaacKernelInfo &info = kernel.info;
  const isaac::ConvShape &x = p.shape;
  auto i32 = [](int64_t v) { return static_cast<int32_t>(v); };
  if (!kernel.isConv()) {
    // A pointwise convolution as the GEMM isaac-conv-to-gemm makes of it:
    // (N*H*W x C) times the filters, C x K (hwcf) or K x C (fhwc).
    bool fhwc = x.layout == isaac::ConvLayout::NhwcFhwc;
    return isaacGemmLaunch(kernel.ptx.c_str(), info.name, info.dtype, info.ml,
                           info.nl, info.threads, info.kg, O, I, F,
                           i32(x.n * x.h * x.w), i32(x.k), i32(x.c), i32(x.c),
                           fhwc ? i32(x.c) : i32(x.k), i32(x.k), 0, 0, 0, 1,
                           alpha, beta, stream, flags);
  }
  return isaacConvLaunch(
      kernel.ptx.c_str(), info.name, info.dtype, info.ml, info.nl, info.threads,
      info.kg, O, I, F, i32(x.n), i32(x.h), i32(x.w), i32(x.c), i32(x.k),
      i32(x.r), i32(x.s), i32(x.p), i32(x.q), i32(x.strideH), i32(x.strideW),
      i32(x.dilationH), i32(x.dilationW), i32(x.padTop), i32(x.padLeft), alpha,
      beta, stream, flags);
}

CheckOutcome checkConv(const ConvProblem &p, ConvStorage storage,
                       const ConvLauncher &launch, double alpha, double beta,
                       uint64_t seed, const ErrorModel &model,
                       ConvCheckBuffers &buffers, cudaStream_t stream) {
  size_t size = dtypeSize(p.dtype()), outSize = dtypeSize(p.outDtype());
  int64_t countI = p.offset + p.inputCount();
  int64_t countF = p.offset + p.filterCount();
  int64_t outputs = p.outputCount();
  int64_t countO = p.offset + outputs + kGuardElements;
  if (countO >= (int64_t(1) << 32))
    fatal(__FILE__, __LINE__,
          "the output of " + p.describe() + " is too large for the checker");
  buffers.I.reserve(countI * size);
  buffers.F.reserve(countF * size);
  buffers.O.reserve(countO * outSize);
  buffers.O0.reserve(countO * outSize);
  buffers.ref.reserve(outputs * sizeof(double));
  buffers.bound.reserve(outputs * sizeof(double));
  buffers.result.reserve(sizeof(ConvCompareResult));

  int bits = operandBits(p.gemm());
  fillUniform(buffers.I.data(), p.dtype(), countI, seed * 3 + 0, stream, bits);
  fillUniform(buffers.F.data(), p.dtype(), countF, seed * 3 + 1, stream, bits);
  if (beta == 0)
    fillNaN(buffers.O.data(), p.outDtype(), countO, stream);
  else
    fillUniform(buffers.O.data(), p.outDtype(), countO, seed * 3 + 2, stream);
  CUDA_CHECK(cudaMemcpyAsync(buffers.O0.data(), buffers.O.data(),
                             countO * outSize, cudaMemcpyDeviceToDevice,
                             stream));
  auto base = [&](const DeviceBuffer &buffer, size_t elementSize) {
    return static_cast<char *>(buffer.data()) + p.offset * elementSize;
  };
  ConvGeometry g = convGeometry(p.shape, storage);
  referenceConv(g, p.dtype(), p.outDtype(), base(buffers.I, size),
                base(buffers.F, size), base(buffers.O0, outSize),
                buffers.ref.as<double>(), buffers.bound.as<double>(), alpha,
                beta, stream);

  CheckOutcome outcome;
  outcome.errorIsFraction = model.fraction;
  std::string why = launch(base(buffers.O, outSize), base(buffers.I, size),
                           base(buffers.F, size));
  if (!why.empty()) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    outcome.maxError = INFINITY;
    outcome.failure = why;
    return outcome;
  }
  ConvCompareResult *result = buffers.result.as<ConvCompareResult>();
  resetConvCompare(result, stream);
  compareConvOutput(p.outDtype(), buffers.O.data(), buffers.O0.data(),
                    buffers.ref.as<double>(), buffers.bound.as<double>(),
                    p.offset, outputs, countO, model, result, stream);
  ConvCompareResult host;
  CUDA_CHECK(cudaMemcpyAsync(&host, result, sizeof(host),
                             cudaMemcpyDeviceToHost, stream));
  // A faulting kernel surfaces here.
  CUDA_CHECK(cudaStreamSynchronize(stream));

  uint32_t errorBits = static_cast<uint32_t>(host.worst >> 32);
  float error;
  std::memcpy(&error, &errorBits, sizeof(error));
  outcome.maxError = error;
  outcome.badElements = host.bad;
  outcome.passed = host.bad == 0;
  if (!outcome.passed) {
    std::ostringstream os;
    int64_t worst = static_cast<int64_t>(host.worst & 0xffffffffu);
    os << host.bad << " wrong elements (the output has " << outputs
       << "); first "
       << describeElement(p, g, static_cast<int64_t>(host.firstBad), buffers,
                          stream);
    if (worst != static_cast<int64_t>(host.firstBad))
      os << "; worst " << describeElement(p, g, worst, buffers, stream);
    os << (model.fraction ? " (error " : " (relative error ") << error
       << (model.fraction ? " of the tolerance)" : ")");
    outcome.failure = os.str();
  }
  return outcome;
}

CheckOutcome checkConvKernel(const KernelFile &kernel, const ConvProblem &p,
                             double alpha, double beta, int flags,
                             uint64_t seed, double tolerance,
                             ConvCheckBuffers &buffers, cudaStream_t stream) {
  ErrorModel model = checkErrorModel(p.gemm(), tolerance);
  return checkConv(
      p, ConvStorage::Isaac,
      [&](void *O, const void *I, const void *F) -> std::string {
        int32_t status =
            launchConvKernel(kernel, p, O, I, F, alpha, beta, flags, stream);
        if (status == ISAAC_SUCCESS)
          return "";
        return std::string("isaacConvLaunch returned ") +
               isaacStatusName(status) + ": " + isaacGetLastError();
      },
      alpha, beta, seed, model, buffers, stream);
}

int runConv(const Options &o, const std::vector<KernelFile> &kernels,
            const DeviceInfo &device, cudaStream_t stream) {
  if (o.convSweep)
    return runConvSweep(o, kernels, stream);
  if (!o.collectSamples.empty())
    return runConvCollect(o, kernels, device, stream);

  CudnnLibrary cudnn;
  // One handle for the whole run: creating one is slow, and the
  // descriptors are set again for each problem.
  std::unique_ptr<CudnnConv> cudnnConv;
  if (!o.checkOnly) {
    std::string why;
    if (cudnn.load(o.cudnnLibrary, why)) {
      std::printf("cuDNN %zu from %s\n", cudnn.version(), cudnn.file().c_str());
      setActivity("creating a cuDNN handle");
      cudnnConv = std::make_unique<CudnnConv>(cudnn, stream);
      setActivity("");
    } else {
      std::printf("cuDNN not found: %s; isaac is timed alone\n", why.c_str());
    }
    std::printf(
        "TFLOPS = 2*N*P*Q*K*C*R*S / time; cuDNN: the fastest of the top %d "
        "of cudnnFindConvolutionForwardAlgorithmEx (cross-correlation, f32 "
        "in CUDNN_FMA_MATH without TF32, f16/bf16 in CUDNN_TENSOR_OP_MATH "
        "with f32 compute, f64 in f64) in its NHWC (filters KRSC) and NCHW "
        "formats; times are medians of %d runs after %d warm-up runs; "
        "roofline min(peak, %.0f GB/s * flops / bytes)\n",
        kCudnnCandidates, o.reps, o.warmup, o.bandwidthGBs);
  }
  std::vector<isaac::GemmTypes> types = typesToRun(o, kernels);
  std::vector<isaac::ConvLayout> layouts = layoutsToRun(o, kernels);

  ConvCheckBuffers checkBuffers;
  ConvTimingBuffers timing;
  DeviceBuffer workspace;
  std::vector<ConvRow> rows;
  uint64_t seed = o.seed;
  int failedRows = 0;
  // --csv: created before the first measurement and written row by row.
  CsvFile csv;
  std::string csvError;
  if (!o.csvPath.empty() && !csv.open(o.csvPath, convCsvHeader(), csvError))
    fatal(__FILE__, __LINE__, csvError);
  auto record = [&](const ConvRow &row) {
    printConvRow(stdout, row);
    rows.push_back(row);
    csv.appendOrWarn(convCsvLine(row));
  };
  printConvHeader(stdout);
  for (const ConvSpec &spec : o.convSpecs) {
    for (const isaac::GemmTypes &t : types) {
      bool timed = false; // buffers prepared and cuDNN timed for (spec, t)
      CudnnResult vendor;
      for (isaac::ConvLayout layout : layouts) {
        ConvRow row;
        row.problem = makeConvProblem(spec, t, layout, o.misalign);
        const ConvProblem &p = row.problem;
        if (row.problem.label.empty())
          row.problem.label = "custom";
        row.rooflineTflops = rooflineTflops(o, p);
        std::string why = p.shape.validate();
        if (!why.empty())
          fatal(__FILE__, __LINE__, p.describe() + ": " + why);
        std::vector<const KernelFile *> candidates =
            convCandidates(o, kernels, p);
        if (candidates.empty()) {
          row.status = "SKIP";
          record(row);
          continue;
        }
        if (!o.checkOnly && !timed) {
          setActivity("preparing the timing buffers of " + p.describe());
          timing.prepare(p, device.l2Bytes, seed++, stream);
          if (cudnnConv)
            vendor = timeCudnn(*cudnnConv, p, o, timing, workspace, seed,
                               checkBuffers, stream);
          timed = true;
        }
        for (int f = 0; f < 2; ++f) {
          row.cudnnAlgo[f] = vendor.algo[f];
          row.cudnnMs[f] = vendor.ms[f];
        }
        row.cudnnError = vendor.error;
        std::vector<KernelResult> results;
        for (const KernelFile *k : candidates)
          results.push_back(
              checkAndTime(*k, p, o, seed, checkBuffers, timing, stream));
        bool allPassed = bench::allPassed(results);
        if (!allPassed)
          ++failedRows;
        if (o.allKernels) {
          forEachKernelRow(row, results, record);
          continue;
        }
        const KernelResult *best = fastestPassing(results);
        row.status = allPassed ? "PASS" : "FAIL";
        if (o.checkOnly || !best) {
          setWorstError(row, results);
          row.kernel = candidates.size() == 1
                           ? std::string(candidates[0]->info.name)
                           : std::to_string(candidates.size()) + " kernels";
        } else {
          setKernelColumns(row, *best);
        }
        record(row);
      }
    }
  }
  setActivity("");
  // Per types token: the geometric mean of isaac over the better cuDNN
  // format, over the rows where both ran and the checks passed.
  for (const isaac::GemmTypes &t : types) {
    double logSum = 0, lowest = INFINITY;
    int count = 0;
    const ConvRow *worst = nullptr;
    for (const ConvRow &row : rows) {
      double ratio = row.tflops(row.isaacMs) / row.bestCudnnTflops();
      if (!(row.problem.shape.types == t) || row.status != "PASS" ||
          !(ratio > 0) || std::isinf(ratio))
        continue;
      logSum += std::log(ratio);
      ++count;
      if (ratio < lowest) {
        lowest = ratio;
        worst = &row;
      }
    }
    if (count)
      std::printf("%s: isaac / best cuDNN, geomean %.3f over %d rows; "
                  "lowest %.3f (%s %s)\n",
                  t.token().c_str(), std::exp(logSum / count), count, lowest,
                  worst->problem.label.c_str(),
                  isaac::convLayoutName(worst->problem.shape.layout));
  }
  std::printf("%zu convolution problems, %d with failed checks\n", rows.size(),
              failedRows);
  std::string error;
  if (!o.pngPath.empty()) {
    if (o.checkOnly)
      std::fprintf(stderr, "isaac-bench: --png needs timings; not written "
                           "with --check-only\n");
    else if (!writeConvChart(
                 o.pngPath, rows,
                 "ISAAC VS CUDNN CONVOLUTIONS, TFLOPS - " + device.name, error))
      std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
  }
  return failedRows ? 1 : 0;
}

int runConvList(const Options &o, const std::vector<KernelFile> &kernels) {
  if (!o.collectSamples.empty())
    return runConvCollectList(o, kernels);
  int listed = 0;
  for (const KernelFile &k : kernels) {
    if (!selectsTypes(o, k.types()) || !selectsConvLayout(o, k.convLayout()))
      continue;
    ++listed;
    std::printf("%s %s %s kg=%d\n", k.info.name, k.types().token().c_str(),
                isaac::convLayoutName(k.convLayout()), k.info.kg);
  }
  std::printf("%d convolution kernels in %s\n", listed, o.ptxDir.c_str());
  std::vector<isaac::GemmTypes> types;
  for (const KernelFile &k : kernels)
    if (selectsTypes(o, k.types()) &&
        std::find(types.begin(), types.end(), k.types()) == types.end())
      types.push_back(k.types());
  for (const ConvSpec &spec : o.convSpecs) {
    ConvProblem p = makeConvProblem(spec, isaac::GemmTypes(),
                                    isaac::ConvLayout::NhwcHwcf, false);
    const isaac::ConvShape &x = p.shape;
    std::printf("%-20s %-36s P=%lld Q=%lld pad-after=%lldx%lld "
                "NPQ=%lld K=%lld CRS=%lld GFLOP=%.4f",
                spec.label.empty() ? "custom" : spec.label.c_str(),
                p.brief().c_str(), (long long)x.p, (long long)x.q,
                (long long)x.padBottom(), (long long)x.padRight(),
                (long long)(x.n * x.p * x.q), (long long)x.k,
                (long long)(x.c * x.r * x.s), p.flops() / 1e9);
    // With --candidates: how many kernels of DIR each problem would run
    // (over the types and layouts selected), so that a list written for
    // other problems shows before a GPU run.
    if (!o.candidates.empty()) {
      size_t count = 0;
      for (const isaac::GemmTypes &t : types)
        for (isaac::ConvLayout l : layoutsToRun(o, kernels))
          count +=
              convCandidates(o, kernels, makeConvProblem(spec, t, l, false))
                  .size();
      std::printf(" candidates=%zu", count);
    }
    std::printf("\n");
  }
  std::printf("%zu convolution problems\n", o.convSpecs.size());
  return 0;
}

} // namespace bench
