//===- CudnnApi.h - The part of cuDNN 9's C API that isaac-bench uses -----===//
//
// cuDNN's headers are not installed where isaac-bench is built, and its
// library is found at run time (dlopen; Cudnn.cpp), so the few types and
// functions the convolution timing calls are declared here, as cuDNN 9
// declares them (cudnn_graph.h, cudnn_ops.h, cudnn_cnn.h; the values are
// those of the cuDNN 9 API reference). Only enumerators that isaac-bench
// passes or reads are listed; the enums are plain ints on the C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CUDNNAPI_H
#define ISAAC_BENCH_CUDNNAPI_H

#include <cstddef>

namespace bench {
namespace cudnn {

typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
/// cudaStream_t, passed through as the driver's CUstream.
typedef struct CUstream_st *cudnnStream_t;

/// cudnnStatus_t: 0 is success; cudnnGetErrorString names the others.
typedef int cudnnStatus_t;
constexpr cudnnStatus_t CUDNN_STATUS_SUCCESS = 0;

/// cudnnDataType_t.
typedef int cudnnDataType_t;
constexpr cudnnDataType_t CUDNN_DATA_FLOAT = 0;
constexpr cudnnDataType_t CUDNN_DATA_DOUBLE = 1;
constexpr cudnnDataType_t CUDNN_DATA_HALF = 2;
constexpr cudnnDataType_t CUDNN_DATA_BFLOAT16 = 9;

/// cudnnTensorFormat_t. For filters, NCHW means K x C x R x S and NHWC
/// means K x R x S x C.
typedef int cudnnTensorFormat_t;
constexpr cudnnTensorFormat_t CUDNN_TENSOR_NCHW = 0;
constexpr cudnnTensorFormat_t CUDNN_TENSOR_NHWC = 1;

/// cudnnConvolutionMode_t: CUDNN_CROSS_CORRELATION does not flip the
/// filters, as linalg.conv_2d_* and isaac's kernels do.
typedef int cudnnConvolutionMode_t;
constexpr cudnnConvolutionMode_t CUDNN_CONVOLUTION = 0;
constexpr cudnnConvolutionMode_t CUDNN_CROSS_CORRELATION = 1;

/// cudnnMathType_t. CUDNN_FMA_MATH excludes tensor-core math (TF32 for f32
/// data); CUDNN_TENSOR_OP_MATH allows it without converting data types.
typedef int cudnnMathType_t;
constexpr cudnnMathType_t CUDNN_DEFAULT_MATH = 0;
constexpr cudnnMathType_t CUDNN_TENSOR_OP_MATH = 1;
constexpr cudnnMathType_t CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2;
constexpr cudnnMathType_t CUDNN_FMA_MATH = 3;

/// cudnnDeterminism_t.
typedef int cudnnDeterminism_t;

/// cudnnConvolutionFwdAlgo_t: IMPLICIT_GEMM 0, IMPLICIT_PRECOMP_GEMM 1,
/// GEMM 2, DIRECT 3, FFT 4, FFT_TILING 5, WINOGRAD 6, WINOGRAD_NONFUSED 7.
typedef int cudnnConvolutionFwdAlgo_t;
constexpr int CUDNN_CONVOLUTION_FWD_ALGO_COUNT = 8;

/// cudnnConvolutionFwdAlgoPerf_t, returned by value in an array by
/// cudnnFindConvolutionForwardAlgorithmEx: 48 bytes on LP64, with 4 bytes
/// of padding before the size_t.
struct cudnnConvolutionFwdAlgoPerf_t {
  cudnnConvolutionFwdAlgo_t algo;
  cudnnStatus_t status;
  float time;    // milliseconds
  size_t memory; // workspace bytes
  cudnnDeterminism_t determinism;
  cudnnMathType_t mathType;
  int reserved[3];
};
static_assert(sizeof(cudnnConvolutionFwdAlgoPerf_t) == 48,
              "cudnnConvolutionFwdAlgoPerf_t is 48 bytes in cuDNN 9");
static_assert(offsetof(cudnnConvolutionFwdAlgoPerf_t, memory) == 16,
              "memory follows 4 bytes of padding");
static_assert(offsetof(cudnnConvolutionFwdAlgoPerf_t, mathType) == 28,
              "mathType follows determinism");

/// The entry points, by name, as cuDNN 9 declares them.
struct Api {
  size_t (*cudnnGetVersion)(void);
  const char *(*cudnnGetErrorString)(cudnnStatus_t);
  cudnnStatus_t (*cudnnCreate)(cudnnHandle_t *);
  cudnnStatus_t (*cudnnDestroy)(cudnnHandle_t);
  cudnnStatus_t (*cudnnSetStream)(cudnnHandle_t, cudnnStream_t);
  cudnnStatus_t (*cudnnCreateTensorDescriptor)(cudnnTensorDescriptor_t *);
  cudnnStatus_t (*cudnnSetTensor4dDescriptor)(cudnnTensorDescriptor_t,
                                              cudnnTensorFormat_t,
                                              cudnnDataType_t, int n, int c,
                                              int h, int w);
  cudnnStatus_t (*cudnnDestroyTensorDescriptor)(cudnnTensorDescriptor_t);
  cudnnStatus_t (*cudnnCreateFilterDescriptor)(cudnnFilterDescriptor_t *);
  cudnnStatus_t (*cudnnSetFilter4dDescriptor)(cudnnFilterDescriptor_t,
                                              cudnnDataType_t,
                                              cudnnTensorFormat_t, int k, int c,
                                              int h, int w);
  cudnnStatus_t (*cudnnDestroyFilterDescriptor)(cudnnFilterDescriptor_t);
  cudnnStatus_t (*cudnnCreateConvolutionDescriptor)(
      cudnnConvolutionDescriptor_t *);
  cudnnStatus_t (*cudnnSetConvolution2dDescriptor)(cudnnConvolutionDescriptor_t,
                                                   int padH, int padW,
                                                   int strideH, int strideW,
                                                   int dilationH, int dilationW,
                                                   cudnnConvolutionMode_t,
                                                   cudnnDataType_t computeType);
  cudnnStatus_t (*cudnnSetConvolutionMathType)(cudnnConvolutionDescriptor_t,
                                               cudnnMathType_t);
  cudnnStatus_t (*cudnnDestroyConvolutionDescriptor)(
      cudnnConvolutionDescriptor_t);
  cudnnStatus_t (*cudnnGetConvolution2dForwardOutputDim)(
      const cudnnConvolutionDescriptor_t, const cudnnTensorDescriptor_t,
      const cudnnFilterDescriptor_t, int *n, int *c, int *h, int *w);
  cudnnStatus_t (*cudnnFindConvolutionForwardAlgorithmEx)(
      cudnnHandle_t, const cudnnTensorDescriptor_t xDesc, const void *x,
      const cudnnFilterDescriptor_t wDesc, const void *w,
      const cudnnConvolutionDescriptor_t convDesc,
      const cudnnTensorDescriptor_t yDesc, void *y, const int requestedCount,
      int *returnedCount, cudnnConvolutionFwdAlgoPerf_t *results,
      void *workSpace, size_t workSpaceBytes);
  cudnnStatus_t (*cudnnConvolutionForward)(
      cudnnHandle_t, const void *alpha, const cudnnTensorDescriptor_t xDesc,
      const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
      const cudnnConvolutionDescriptor_t convDesc,
      cudnnConvolutionFwdAlgo_t algo, void *workSpace, size_t workSpaceBytes,
      const void *beta, const cudnnTensorDescriptor_t yDesc, void *y);
};

} // namespace cudnn
} // namespace bench

#endif // ISAAC_BENCH_CUDNNAPI_H
