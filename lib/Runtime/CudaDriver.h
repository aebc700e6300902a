//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few driver types, constants and entry points the runtime uses, declared
// here instead of including cuda.h so that the runtime builds and links on
// machines without CUDA. The values match cuda.h; they are part of the
// driver's stable ABI.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_RUNTIME_CUDADRIVER_H
#define ISAAC_LIB_RUNTIME_CUDADRIVER_H

#include "isaac/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>

namespace isaac::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

/// The legacy default stream, named explicitly: the same stream as NULL for
/// the (non-_ptsz) entry points the runtime resolves.
inline CUstream legacyStream() {
  return reinterpret_cast<CUstream>(static_cast<uintptr_t>(0x1));
}

// CUjit_option values (an int-sized enum in cuda.h).
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr int CU_JIT_LOG_VERBOSE = 12;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14;

// CUdevice_attribute values.
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
// CUmemPool_attribute (value type cuuint64_t).
constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;

// CUevent_flags values.
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;

// CUlaunchAttributeID and CUclusterSchedulingPolicy values.
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5;
constexpr int CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1;

/// CUlaunchAttribute: an int-sized id padded to 8 bytes, then a 64-byte
/// union of which the runtime uses the cluster dimensions and the
/// scheduling policy.
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union alignas(8) {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
    int clusterSchedulingPolicyPreference;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "cuda.h's CUlaunchAttribute");

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

/// A TMA descriptor (cuda.h's CUtensorMap, CUDA 12): 128 opaque bytes that
/// cuTensorMapEncodeTiled fills and a kernel receives by value. cuda.h
/// documents that the encoder needs the map 64-byte aligned, the alignment
/// of the kernel's `.param .align 64` copy too.
struct alignas(64) CUtensorMap {
  uint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128, "cuda.h's CUtensorMap");

// The values of cuda.h's (CUDA 13.0, /usr/local/cuda/include/cuda.h)
// CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle,
// CUtensorMapL2promotion and CUtensorMapFloatOOBfill that the runtime
// passes; all int-sized enums.
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
constexpr int CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_32B = 1;
constexpr int CU_TENSOR_MAP_SWIZZLE_64B = 2;
constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
/// Out-of-bounds elements read as zero (the alternative fills NaN).
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;

/// Entry points resolved from libcuda. The optional ones are null on drivers
/// that predate them.
struct Driver {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
  CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, int attribute,
                                 CUfunction function);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  // For the mgpu* functions of upstream MLIR's GPU path (MgpuWrappers.cpp).
  CUresult (*cuCtxGetDevice)(CUdevice *device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks,
                                                          CUfunction function,
                                                          int blockSize,
                                                          size_t dynamicSmem);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  // Optional.
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuCtxGetId)(CUcontext ctx, unsigned long long *id);
  CUresult (*cuStreamGetId)(CUstream stream, unsigned long long *id);
  // CUDA 11.2: stream-ordered allocation.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *ptr, size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr ptr, CUstream stream);
  CUresult (*cuDeviceGetMemPool)(CUmemoryPool *pool, CUdevice device);
  CUresult (*cuMemPoolGetAttribute)(CUmemoryPool pool, int attribute,
                                    void *value);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool pool, int attribute,
                                    void *value);
  // CUDA 12.0: launches with attributes (thread block clusters).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config,
                               CUfunction function, void **params,
                               void **extra);
  // CUDA 12.0: TMA descriptors (the wgmma family's tensor maps).
  CUresult (*cuTensorMapEncodeTiled)(
      CUtensorMap *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill);
  // CUDA 12.0: the im2col form (the wgmma family's convolution input).
  CUresult (*cuTensorMapEncodeIm2col)(
      CUtensorMap *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
      uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
      const uint32_t *elementStrides, int interleave, int swizzle,
      int l2Promotion, int oobFill);
};

/// Loads the driver library and runs cuInit on first use. On failure the
/// thread's error is set and later calls try again, so that a message always
/// describes the current state rather than a stale first attempt.
isaacStatus getDriver(const Driver *&driver);

/// Records the failure of driver call `call` (e.g. "cuLaunchKernel") with its
/// CUresult name and description, plus `detail` when not empty.
isaacStatus cudaFailure(CUresult result, const char *call,
                        const char *detail = nullptr,
                        isaacStatus status = ISAAC_ERROR_CUDA);

/// Makes a context current on the calling thread (the current one, else the
/// primary context of the default device, 0 unless setDefaultDevice changed
/// it) and returns it with a process-unique id.
isaacStatus getCurrentContext(CUcontext *ctx, uint64_t *ctxId);

/// Makes `device` the default device and its primary context current on the
/// calling thread.
isaacStatus setDefaultDevice(int device);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_CUDADRIVER_H
