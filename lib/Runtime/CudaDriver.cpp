//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"
#include "Error.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace isaac::runtime {

namespace {

struct DriverState {
  std::mutex mutex;
  Driver driver = {};
  void *library = nullptr;
  std::atomic<bool> ready{false};
  /// Primary contexts retained so far, by device ordinal.
  std::vector<std::pair<CUdevice, CUcontext>> primaries;
  /// The device whose primary context threads without a current context
  /// use (mgpuSetDefaultDevice).
  std::atomic<int> defaultDevice{0};
};

DriverState &state() {
  // Leaked on purpose: kernels may be launched from static destructors of
  // other libraries, and unloading the driver would not be safe anyway.
  static DriverState *instance = new DriverState;
  return *instance;
}

/// Names of the results the runtime is likely to see, for drivers whose
/// cuGetErrorName cannot answer (the CUDA stub library answers nothing).
const char *fallbackErrorName(CUresult result) {
  static const struct {
    CUresult code;
    const char *name;
  } names[] = {
      {0, "CUDA_SUCCESS"},
      {1, "CUDA_ERROR_INVALID_VALUE"},
      {2, "CUDA_ERROR_OUT_OF_MEMORY"},
      {3, "CUDA_ERROR_NOT_INITIALIZED"},
      {4, "CUDA_ERROR_DEINITIALIZED"},
      {34, "CUDA_ERROR_STUB_LIBRARY"},
      {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
      {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
      {100, "CUDA_ERROR_NO_DEVICE"},
      {101, "CUDA_ERROR_INVALID_DEVICE"},
      {200, "CUDA_ERROR_INVALID_IMAGE"},
      {201, "CUDA_ERROR_INVALID_CONTEXT"},
      {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
      {218, "CUDA_ERROR_INVALID_PTX"},
      {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
      {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
      {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
      {400, "CUDA_ERROR_INVALID_HANDLE"},
      {500, "CUDA_ERROR_NOT_FOUND"},
      {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
      {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
      {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
      {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
      {719, "CUDA_ERROR_LAUNCH_FAILED"},
      {801, "CUDA_ERROR_NOT_SUPPORTED"},
      {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
      {999, "CUDA_ERROR_UNKNOWN"},
  };
  for (const auto &entry : names)
    if (entry.code == result)
      return entry.name;
  return "unknown CUresult";
}

template <typename Fn> bool resolve(void *library, const char *symbol, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  return fn != nullptr;
}

/// dlopens the library and resolves the entry points; the caller holds the
/// state's mutex.
isaacStatus loadLibrary(DriverState &s) {
  if (s.library)
    return ISAAC_SUCCESS;
  const char *path = std::getenv("ISAAC_CUDA_LIBRARY");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    return setError(ISAAC_ERROR_DRIVER_NOT_FOUND,
                    "cannot load the CUDA driver library: dlopen(\"%s\") "
                    "failed: %s (is the NVIDIA driver installed?)",
                    path, why ? why : "unknown error");
  }
  Driver d = {};
  // Versioned names (_v2) are the ones cuda.h maps the plain names to.
  const char *missing = nullptr;
  auto need = [&](const char *symbol, auto &fn) {
    if (!resolve(library, symbol, fn) && !missing)
      missing = symbol;
  };
  need("cuInit", d.cuInit);
  need("cuDeviceGet", d.cuDeviceGet);
  need("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain);
  need("cuCtxGetCurrent", d.cuCtxGetCurrent);
  need("cuCtxSetCurrent", d.cuCtxSetCurrent);
  need("cuModuleLoadDataEx", d.cuModuleLoadDataEx);
  need("cuModuleGetFunction", d.cuModuleGetFunction);
  need("cuFuncGetAttribute", d.cuFuncGetAttribute);
  need("cuLaunchKernel", d.cuLaunchKernel);
  need("cuMemAlloc_v2", d.cuMemAlloc);
  need("cuMemFree_v2", d.cuMemFree);
  need("cuStreamSynchronize", d.cuStreamSynchronize);
  need("cuCtxGetDevice", d.cuCtxGetDevice);
  need("cuDeviceGetAttribute", d.cuDeviceGetAttribute);
  need("cuModuleUnload", d.cuModuleUnload);
  need("cuFuncSetAttribute", d.cuFuncSetAttribute);
  need("cuOccupancyMaxActiveBlocksPerMultiprocessor",
       d.cuOccupancyMaxActiveBlocksPerMultiprocessor);
  need("cuMemcpyAsync", d.cuMemcpyAsync);
  need("cuMemsetD32Async", d.cuMemsetD32Async);
  need("cuMemsetD16Async", d.cuMemsetD16Async);
  need("cuEventCreate", d.cuEventCreate);
  need("cuEventDestroy_v2", d.cuEventDestroy);
  need("cuEventRecord", d.cuEventRecord);
  need("cuEventSynchronize", d.cuEventSynchronize);
  need("cuStreamWaitEvent", d.cuStreamWaitEvent);
  if (missing) {
    dlclose(library);
    return setError(ISAAC_ERROR_DRIVER_NOT_FOUND,
                    "the CUDA driver library \"%s\" has no symbol %s (driver "
                    "too old?)",
                    path, missing);
  }
  resolve(library, "cuGetErrorName", d.cuGetErrorName);
  resolve(library, "cuGetErrorString", d.cuGetErrorString);
  resolve(library, "cuCtxGetId", d.cuCtxGetId);
  resolve(library, "cuStreamGetId", d.cuStreamGetId);
  resolve(library, "cuMemAllocAsync", d.cuMemAllocAsync);
  resolve(library, "cuMemFreeAsync", d.cuMemFreeAsync);
  resolve(library, "cuDeviceGetMemPool", d.cuDeviceGetMemPool);
  resolve(library, "cuMemPoolGetAttribute", d.cuMemPoolGetAttribute);
  resolve(library, "cuMemPoolSetAttribute", d.cuMemPoolSetAttribute);
  resolve(library, "cuLaunchKernelEx", d.cuLaunchKernelEx);
  resolve(library, "cuTensorMapEncodeTiled", d.cuTensorMapEncodeTiled);
  resolve(library, "cuTensorMapEncodeIm2col", d.cuTensorMapEncodeIm2col);
  s.driver = d;
  s.library = library;
  return ISAAC_SUCCESS;
}

} // namespace

isaacStatus cudaFailure(CUresult result, const char *call, const char *detail,
                        isaacStatus status) {
  const Driver &d = state().driver;
  const char *name = nullptr;
  const char *text = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (d.cuGetErrorString && d.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  std::string message = std::string(call) + " failed: " +
                        (name ? name : fallbackErrorName(result)) + " (" +
                        std::to_string(result) + ")";
  if (text)
    message += ": " + std::string(text);
  if (result == 34)
    message += " [the CUDA stub library was loaded instead of the NVIDIA "
               "driver's libcuda.so.1]";
  if (detail && *detail)
    message += "; " + std::string(detail);
  return setErrorMessage(status, std::move(message));
}

isaacStatus getDriver(const Driver *&driver) {
  DriverState &s = state();
  if (s.ready.load(std::memory_order_acquire)) {
    driver = &s.driver;
    return ISAAC_SUCCESS;
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.ready.load(std::memory_order_relaxed)) {
    if (isaacStatus status = loadLibrary(s))
      return status;
    if (CUresult result = s.driver.cuInit(0))
      return cudaFailure(result, "cuInit");
    s.ready.store(true, std::memory_order_release);
  }
  driver = &s.driver;
  return ISAAC_SUCCESS;
}

namespace {

/// The primary context of device `ordinal`, retained on first use for the
/// life of the process, as the CUDA runtime does.
isaacStatus getPrimaryContext(const Driver &d, int ordinal, CUcontext &ctx) {
  DriverState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (const auto &entry : s.primaries)
    if (entry.first == ordinal) {
      ctx = entry.second;
      return ISAAC_SUCCESS;
    }
  CUdevice device = 0;
  if (CUresult result = d.cuDeviceGet(&device, ordinal))
    return cudaFailure(
        result, ("cuDeviceGet(" + std::to_string(ordinal) + ")").c_str());
  CUcontext primary = nullptr;
  if (CUresult result = d.cuDevicePrimaryCtxRetain(&primary, device))
    return cudaFailure(result, "cuDevicePrimaryCtxRetain");
  s.primaries.emplace_back(ordinal, primary);
  ctx = primary;
  return ISAAC_SUCCESS;
}

} // namespace

isaacStatus setDefaultDevice(int device) {
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;
  CUcontext primary = nullptr;
  if (isaacStatus status = getPrimaryContext(*d, device, primary))
    return status;
  if (CUresult result = d->cuCtxSetCurrent(primary))
    return cudaFailure(result, "cuCtxSetCurrent");
  state().defaultDevice.store(device, std::memory_order_relaxed);
  return ISAAC_SUCCESS;
}

isaacStatus getCurrentContext(CUcontext *ctx, uint64_t *ctxId) {
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;
  CUcontext current = nullptr;
  if (CUresult result = d->cuCtxGetCurrent(&current))
    return cudaFailure(result, "cuCtxGetCurrent");
  if (!current) {
    int device = state().defaultDevice.load(std::memory_order_relaxed);
    if (isaacStatus status = getPrimaryContext(*d, device, current))
      return status;
    if (CUresult result = d->cuCtxSetCurrent(current))
      return cudaFailure(result, "cuCtxSetCurrent");
  }
  // Context handles can be reused after cuCtxDestroy; the driver's ids are
  // unique for the process, so caches keyed by them never see a stale entry.
  unsigned long long id = reinterpret_cast<uintptr_t>(current);
  if (d->cuCtxGetId) {
    if (CUresult result = d->cuCtxGetId(current, &id))
      return cudaFailure(result, "cuCtxGetId");
  }
  *ctx = current;
  *ctxId = id;
  return ISAAC_SUCCESS;
}

} // namespace isaac::runtime

extern "C" isaacStatus isaacInit(void) {
  using namespace isaac::runtime;
  CUcontext ctx = nullptr;
  uint64_t id = 0;
  if (isaacStatus status = getCurrentContext(&ctx, &id))
    return addErrorContext(status, "isaacInit");
  return ISAAC_SUCCESS;
}
