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

constexpr CUresult CUDA_SUCCESS = 0;

// CUjit_option values (an int-sized enum in cuda.h).
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_LOG_VERBOSE = 12;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;

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
  // Optional.
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuCtxGetId)(CUcontext ctx, unsigned long long *id);
  CUresult (*cuStreamGetId)(CUstream stream, unsigned long long *id);
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
/// primary context of device 0) and returns it with a process-unique id.
isaacStatus getCurrentContext(CUcontext *ctx, uint64_t *ctxId);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_CUDADRIVER_H
