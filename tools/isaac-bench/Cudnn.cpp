//===- Cudnn.cpp - cuDNN's forward convolution, loaded at run time --------===//

#include "Cudnn.h"
#include "CudaCheck.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <type_traits>

namespace bench {

namespace {

/// cuDNN 9's sub-libraries, which libcudnn.so.9 opens by name on first use.
const char *const kSublibraries[] = {
    "libcudnn_graph.so.9",
    "libcudnn_ops.so.9",
    "libcudnn_cnn.so.9",
    "libcudnn_heuristic.so.9",
    "libcudnn_engines_precompiled.so.9",
    "libcudnn_engines_runtime_compiled.so.9",
    "libcudnn_adv.so.9",
};

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

} // namespace

bool CudnnLibrary::load(const std::string &path, std::string &error) {
  std::string file = path;
  if (file.empty())
    if (const char *env = std::getenv("ISAAC_CUDNN_LIBRARY"))
      file = env;
  if (file.empty())
    file = "libcudnn.so.9";
  // A library in a directory of its own (a wheel's nvidia/cudnn/lib): its
  // sub-libraries first, with RTLD_GLOBAL, so that libcudnn.so.9's later
  // dlopen of each by name finds the one already loaded. Absent ones are
  // not an error: cuDNN reports what it misses when it needs it.
  std::string dir = directoryOf(file);
  if (!dir.empty())
    for (const char *sub : kSublibraries)
      dlopen((dir + "/" + sub).c_str(), RTLD_NOW | RTLD_GLOBAL);
  void *lib = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *why = dlerror();
    error = "cannot open " + file + ": " + (why ? why : "unknown error") +
            " (give the library with --cudnn-lib PATH or "
            "ISAAC_CUDNN_LIBRARY=PATH)";
    return false;
  }
  cudnn::Api api = {};
  std::string missing;
  auto resolve = [&](auto &fn, const char *name) {
    void *symbol = dlsym(lib, name);
    if (!symbol)
      missing += std::string(missing.empty() ? "" : ", ") + name;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(symbol);
  };
#define RESOLVE(name) resolve(api.name, #name)
  RESOLVE(cudnnGetVersion);
  RESOLVE(cudnnGetErrorString);
  RESOLVE(cudnnCreate);
  RESOLVE(cudnnDestroy);
  RESOLVE(cudnnSetStream);
  RESOLVE(cudnnCreateTensorDescriptor);
  RESOLVE(cudnnSetTensor4dDescriptor);
  RESOLVE(cudnnDestroyTensorDescriptor);
  RESOLVE(cudnnCreateFilterDescriptor);
  RESOLVE(cudnnSetFilter4dDescriptor);
  RESOLVE(cudnnDestroyFilterDescriptor);
  RESOLVE(cudnnCreateConvolutionDescriptor);
  RESOLVE(cudnnSetConvolution2dDescriptor);
  RESOLVE(cudnnSetConvolutionMathType);
  RESOLVE(cudnnDestroyConvolutionDescriptor);
  RESOLVE(cudnnGetConvolution2dForwardOutputDim);
  RESOLVE(cudnnFindConvolutionForwardAlgorithmEx);
  RESOLVE(cudnnConvolutionForward);
#undef RESOLVE
  if (!missing.empty()) {
    error = file + " lacks " + missing + " (isaac-bench needs cuDNN 9)";
    dlclose(lib);
    return false;
  }
  size_t version = api.cudnnGetVersion();
  if (version / 10000 != 9) {
    error = file + " is cuDNN " + std::to_string(version) +
            "; isaac-bench declares cuDNN 9's API (CudnnApi.h)";
    dlclose(lib);
    return false;
  }
  handle = lib;
  functions = api;
  opened = file;
  versionNumber = version;
  return true;
}

const char *cudnnAlgoName(int algo) {
  static const char *const names[] = {
      "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM",
      "GEMM",          "DIRECT",
      "FFT",           "FFT_TILING",
      "WINOGRAD",      "WINOGRAD_NONFUSED",
  };
  return algo >= 0 && algo < cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT
             ? names[algo]
             : "?";
}

#define CUDNN_CHECK(call) check((call), #call, __FILE__, __LINE__)

CudnnConv::CudnnConv(const CudnnLibrary &library, cudaStream_t stream)
    : api(library.api()) {
  CUDNN_CHECK(api.cudnnCreate(&handle));
  CUDNN_CHECK(api.cudnnSetStream(
      handle, reinterpret_cast<cudnn::cudnnStream_t>(stream)));
  CUDNN_CHECK(api.cudnnCreateTensorDescriptor(&input));
  CUDNN_CHECK(api.cudnnCreateTensorDescriptor(&output));
  CUDNN_CHECK(api.cudnnCreateFilterDescriptor(&filter));
  CUDNN_CHECK(api.cudnnCreateConvolutionDescriptor(&conv));
}

CudnnConv::~CudnnConv() {
  // Only reached on normal paths: fatal errors exit without unwinding.
  CUDNN_CHECK(api.cudnnDestroyConvolutionDescriptor(conv));
  CUDNN_CHECK(api.cudnnDestroyFilterDescriptor(filter));
  CUDNN_CHECK(api.cudnnDestroyTensorDescriptor(output));
  CUDNN_CHECK(api.cudnnDestroyTensorDescriptor(input));
  CUDNN_CHECK(api.cudnnDestroy(handle));
}

std::string CudnnConv::statusName(cudnn::cudnnStatus_t status) const {
  const char *name = api.cudnnGetErrorString(status);
  return std::string(name ? name : "unknown") + " (" + std::to_string(status) +
         ")";
}

void CudnnConv::check(cudnn::cudnnStatus_t status, const char *call,
                      const char *file, int line) const {
  if (status == cudnn::CUDNN_STATUS_SUCCESS)
    return;
  fatal(file, line, std::string(call) + " failed: " + statusName(status));
}

bool CudnnConv::describe(const ConvProblem &p, bool nchw, std::string &why) {
  const isaac::ConvShape &x = p.shape;
  if (x.types.ab != x.types.c) {
    why = "cuDNN takes the input and the output in one type, not " +
          x.types.token();
    return false;
  }
  for (int64_t v : {x.n, x.h, x.w, x.c, x.k, x.r, x.s, x.padTop, x.padLeft})
    if (v > INT_MAX) {
      why = "a size exceeds cuDNN's int";
      return false;
    }
  cudnn::cudnnDataType_t data, compute = cudnn::CUDNN_DATA_FLOAT;
  cudnn::cudnnMathType_t math = cudnn::CUDNN_TENSOR_OP_MATH;
  switch (x.types.ab) {
  case isaac::DType::F32:
    data = cudnn::CUDNN_DATA_FLOAT;
    math = x.types.tf32 ? cudnn::CUDNN_TENSOR_OP_MATH : cudnn::CUDNN_FMA_MATH;
    break;
  case isaac::DType::F64:
    data = compute = cudnn::CUDNN_DATA_DOUBLE;
    math = cudnn::CUDNN_DEFAULT_MATH;
    break;
  case isaac::DType::F16:
    data = cudnn::CUDNN_DATA_HALF;
    break;
  default:
    data = cudnn::CUDNN_DATA_BFLOAT16;
    break;
  }
  isDouble = data == cudnn::CUDNN_DATA_DOUBLE;
  plainF32 = data == cudnn::CUDNN_DATA_FLOAT && !x.types.tf32;
  cudnn::cudnnTensorFormat_t format =
      nchw ? cudnn::CUDNN_TENSOR_NCHW : cudnn::CUDNN_TENSOR_NHWC;
  auto i32 = [](int64_t v) { return static_cast<int>(v); };
  CUDNN_CHECK(api.cudnnSetTensor4dDescriptor(input, format, data, i32(x.n),
                                             i32(x.c), i32(x.h), i32(x.w)));
  CUDNN_CHECK(api.cudnnSetFilter4dDescriptor(filter, data, format, i32(x.k),
                                             i32(x.c), i32(x.r), i32(x.s)));
  CUDNN_CHECK(api.cudnnSetConvolution2dDescriptor(
      conv, i32(x.padTop), i32(x.padLeft), i32(x.strideH), i32(x.strideW),
      i32(x.dilationH), i32(x.dilationW), cudnn::CUDNN_CROSS_CORRELATION,
      compute));
  CUDNN_CHECK(api.cudnnSetConvolutionMathType(conv, math));
  int outN = 0, outK = 0, outP = 0, outQ = 0;
  CUDNN_CHECK(api.cudnnGetConvolution2dForwardOutputDim(
      conv, input, filter, &outN, &outK, &outP, &outQ));
  if (outN != x.n || outK != x.k || outP != x.p || outQ != x.q) {
    why = "cuDNN's symmetric padding of " + std::to_string(x.padTop) + "x" +
          std::to_string(x.padLeft) + " gives an output of " +
          std::to_string(outP) + "x" + std::to_string(outQ) + ", not " +
          std::to_string(x.p) + "x" + std::to_string(x.q);
    return false;
  }
  CUDNN_CHECK(api.cudnnSetTensor4dDescriptor(output, format, data, outN, outK,
                                             outP, outQ));
  return true;
}

std::vector<cudnn::cudnnConvolutionFwdAlgoPerf_t>
CudnnConv::find(const void *I, const void *F, void *O, void *workspace,
                size_t workspaceBytes, std::string &why) {
  cudnn::cudnnConvolutionFwdAlgoPerf_t
      results[cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {};
  int returned = 0;
  cudnn::cudnnStatus_t status = api.cudnnFindConvolutionForwardAlgorithmEx(
      handle, input, I, filter, F, conv, output, O,
      cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, results, workspace,
      workspaceBytes);
  std::vector<cudnn::cudnnConvolutionFwdAlgoPerf_t> algos;
  if (status != cudnn::CUDNN_STATUS_SUCCESS) {
    why = "cudnnFindConvolutionForwardAlgorithmEx: " + statusName(status);
    return algos;
  }
  if (returned < 0 || returned > cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT)
    fatal(__FILE__, __LINE__,
          "cudnnFindConvolutionForwardAlgorithmEx returned " +
              std::to_string(returned) + " results for at most " +
              std::to_string(cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT) +
              "; the library does not match CudnnApi.h");
  for (int i = 0; i < returned; ++i) {
    const cudnn::cudnnConvolutionFwdAlgoPerf_t &r = results[i];
    // A value out of range means that the array's layout is not the one
    // CudnnApi.h declares; better to stop than to time garbage.
    if (r.algo < 0 || r.algo >= cudnn::CUDNN_CONVOLUTION_FWD_ALGO_COUNT ||
        r.mathType < cudnn::CUDNN_DEFAULT_MATH ||
        r.mathType > cudnn::CUDNN_FMA_MATH)
      fatal(__FILE__, __LINE__,
            "cudnnFindConvolutionForwardAlgorithmEx result " +
                std::to_string(i) + " has algo " + std::to_string(r.algo) +
                " and math type " + std::to_string(r.mathType) +
                "; cudnnConvolutionFwdAlgoPerf_t does not match CudnnApi.h");
    if (r.status != cudnn::CUDNN_STATUS_SUCCESS)
      continue;
    if (plainF32 &&
        (r.mathType == cudnn::CUDNN_TENSOR_OP_MATH ||
         r.mathType == cudnn::CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION))
      continue; // TF32: not the arithmetic of an f32 convolution
    algos.push_back(r);
  }
  std::stable_sort(
      algos.begin(), algos.end(),
      [](const auto &a, const auto &b) { return a.time < b.time; });
  if (algos.empty())
    why = "no algorithm ran (" + std::to_string(returned) + " tried)";
  return algos;
}

cudnn::cudnnStatus_t
CudnnConv::run(const cudnn::cudnnConvolutionFwdAlgoPerf_t &algo, const void *I,
               const void *F, void *O, double alpha, double beta,
               void *workspace, size_t workspaceBytes) {
  // Find reports the math type each algorithm ran with; a plain f32
  // problem always runs in CUDNN_FMA_MATH, since CUDNN_DEFAULT_MATH would
  // permit TF32 on sm_80 and later.
  cudnn::cudnnMathType_t math =
      plainF32 ? cudnn::CUDNN_FMA_MATH : algo.mathType;
  CUDNN_CHECK(api.cudnnSetConvolutionMathType(conv, math));
  // Scaling factors are double for double data and float otherwise.
  float alphaF = static_cast<float>(alpha), betaF = static_cast<float>(beta);
  const void *a = isDouble ? static_cast<const void *>(&alpha) : &alphaF;
  const void *b = isDouble ? static_cast<const void *>(&beta) : &betaF;
  return api.cudnnConvolutionForward(handle, a, input, I, filter, F, conv,
                                     algo.algo, workspace, workspaceBytes, b,
                                     output, O);
}

} // namespace bench
