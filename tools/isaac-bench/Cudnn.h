//===- Cudnn.h - cuDNN's forward convolution, loaded at run time -*- C++
//-*-===//
//
// isaac-bench times convolutions against cuDNN 9 in the same run. cuDNN is
// not a build dependency: its library is opened with dlopen (--cudnn-lib
// PATH, else $ISAAC_CUDNN_LIBRARY, else libcudnn.so.9 from the loader's
// search path), so that the bench builds where cuDNN is absent and, without
// it, still checks and times isaac ("cuDNN not found").
//
// A problem is timed in cuDNN's NHWC format (input N x H x W x C, filters
// K x R x S x C, which is isaac's fhwc layout, output N x P x Q x K) and in
// its NCHW format (N x C x H x W, K x C x R x S, N x K x P x Q), in
// cross-correlation mode (no filter flip), with
//   f32: CUDNN_DATA_FLOAT, f32 compute, CUDNN_FMA_MATH (no TF32 tensor
//        cores, the arithmetic of isaac's f32 kernels);
//   tf32: f32 data, f32 compute, CUDNN_TENSOR_OP_MATH;
//   f16, bf16: 16-bit data, f32 compute, CUDNN_TENSOR_OP_MATH;
//   f64: CUDNN_DATA_DOUBLE, f64 compute, CUDNN_DEFAULT_MATH.
// cudnnFindConvolutionForwardAlgorithmEx runs every algorithm on the
// problem's buffers and ranks them; the bench then times the best few
// itself, like isaac's kernels, and keeps the fastest.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CUDNN_H
#define ISAAC_BENCH_CUDNN_H

#include "ConvShapes.h"
#include "CudnnApi.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace bench {

/// The cuDNN library, opened once.
class CudnnLibrary {
public:
  /// Opens `path`, or $ISAAC_CUDNN_LIBRARY when `path` is empty, or
  /// libcudnn.so.9 from the default search path, and resolves the entry
  /// points of CudnnApi.h. cuDNN 9's libcudnn.so.9 loads its sub-libraries
  /// (libcudnn_ops, libcudnn_cnn, libcudnn_engines_*, ...) by name; those
  /// beside the opened file are loaded first, from there, so that a
  /// library outside the search path (a Python wheel's) works without
  /// LD_LIBRARY_PATH. Returns false with the reason in `error`.
  bool load(const std::string &path, std::string &error);
  bool loaded() const { return handle != nullptr; }
  const cudnn::Api &api() const { return functions; }
  /// The file opened, and cudnnGetVersion() (e.g. 91000 for 9.10.0).
  const std::string &file() const { return opened; }
  size_t version() const { return versionNumber; }

private:
  void *handle = nullptr;
  cudnn::Api functions = {};
  std::string opened;
  size_t versionNumber = 0;
};

/// "IMPLICIT_GEMM", "FFT", ... for a cudnnConvolutionFwdAlgo_t.
const char *cudnnAlgoName(int algo);

/// One problem in one of cuDNN's formats: a handle on `stream` and the
/// descriptors of the input, the filters, the convolution and the output.
class CudnnConv {
public:
  CudnnConv(const CudnnLibrary &library, cudaStream_t stream);
  ~CudnnConv();
  CudnnConv(const CudnnConv &) = delete;
  CudnnConv &operator=(const CudnnConv &) = delete;

  /// Describes `p` in the NCHW format (`nchw`) or the NHWC one. False, with
  /// the reason in `why`, when cuDNN cannot express it: an input and output
  /// of different types, or padding after the input that differs from the
  /// padding before it (cuDNN's is symmetric), which shows as an output
  /// size other than the problem's. Failing cuDNN calls end the program.
  bool describe(const ConvProblem &p, bool nchw, std::string &why);

  /// cudnnFindConvolutionForwardAlgorithmEx on the given buffers (packed
  /// in the described format) with `workspace`: the algorithms that ran,
  /// fastest first, leaving out any that use tensor-core math on a plain
  /// f32 problem. Empty, with the reason in `why`, when none runs.
  std::vector<cudnn::cudnnConvolutionFwdAlgoPerf_t>
  find(const void *I, const void *F, void *O, void *workspace,
       size_t workspaceBytes, std::string &why);

  /// O = alpha * conv(I, F) + beta * O with algorithm `algo` (its math
  /// type is set first; CUDNN_FMA_MATH for a plain f32 problem). Returns
  /// the status: an algorithm may still refuse.
  cudnn::cudnnStatus_t run(const cudnn::cudnnConvolutionFwdAlgoPerf_t &algo,
                           const void *I, const void *F, void *O, double alpha,
                           double beta, void *workspace, size_t workspaceBytes);

  /// "CUDNN_STATUS_NOT_SUPPORTED" and the like.
  std::string statusName(cudnn::cudnnStatus_t status) const;

private:
  void check(cudnn::cudnnStatus_t status, const char *call, const char *file,
             int line) const;

  const cudnn::Api &api;
  cudnn::cudnnHandle_t handle = nullptr;
  cudnn::cudnnTensorDescriptor_t input = nullptr, output = nullptr;
  cudnn::cudnnFilterDescriptor_t filter = nullptr;
  cudnn::cudnnConvolutionDescriptor_t conv = nullptr;
  bool isDouble = false;
  bool plainF32 = false;
};

} // namespace bench

#endif // ISAAC_BENCH_CUDNN_H
