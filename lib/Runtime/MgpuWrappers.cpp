//===- MgpuWrappers.cpp - Upstream MLIR's mgpu* ABI on isaac's driver -----===//
//
// Programs that --isaac-pipeline compiles mix isaac GEMM kernels with the
// kernels of every other op, which go through upstream MLIR's GPU path and
// call these mgpu* functions (include/isaac/Runtime/MgpuWrappers.h). Both
// halves must run in one CUDA context and in program order, so these use the
// context of isaac's launches (getCurrentContext) and map every stream to
// the legacy default stream, the one compiled code launches isaac GEMMs on.
//
// The functions return void or a pointer, so a failure is recorded in the
// thread's status (isaacGetLastStatus) instead: compiled code never checks,
// and the program's driver learns of it there. Modules are loaded by global
// constructors that may run before this library's own static initializers
// (priority 123 < 65535, with static linking), so nothing here relies on
// namespace-scope objects with dynamic initialization.
//
//===----------------------------------------------------------------------===//

#include "isaac/Runtime/MgpuWrappers.h"

#include "CudaDriver.h"
#include "Error.h"
#include "ModuleCache.h"

#include <cinttypes>
#include <climits>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace isaac::runtime {
namespace {

/// The dynamic shared memory a kernel may use without raising its limit.
constexpr int32_t kDefaultDynamicSmem = 48 * 1024;
/// The largest thread block cluster every sm_90 GPU accepts.
constexpr intptr_t kMaxPortableClusterSize = 8;

/// Why the first module load or kernel lookup failed, for the launches that
/// later get a NULL kernel: they may run on another thread than the global
/// constructor that loaded the module, whose status they cannot see.
struct LoadFailure {
  std::mutex mutex;
  isaacStatus status = ISAAC_SUCCESS;
  std::string message;
};

LoadFailure &loadFailure() {
  static auto *failure = new LoadFailure;
  return *failure;
}

void rememberLoadFailure(isaacStatus status) {
  LoadFailure &f = loadFailure();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (f.status == ISAAC_SUCCESS) {
    f.status = status;
    f.message = isaacGetLastError();
  }
}

/// Records that `what` got a NULL module or kernel: the status of the load
/// failure that caused it (ISAAC_ERROR_INVALID_VALUE if none was seen) and a
/// message that repeats it.
isaacStatus nullHandle(const char *what) {
  LoadFailure &f = loadFailure();
  std::lock_guard<std::mutex> lock(f.mutex);
  if (f.status == ISAAC_SUCCESS)
    return setError(ISAAC_ERROR_INVALID_VALUE, "%s is NULL", what);
  return setError(f.status,
                  "%s is NULL: a module failed to load or lacks a kernel "
                  "(first failure: %s)",
                  what, f.message.c_str());
}

/// Makes the runtime's context current on the calling thread (as every
/// isaac entry point does) and returns the driver and the context's id.
isaacStatus enter(const Driver *&d, uint64_t *contextId = nullptr) {
  CUcontext ctx = nullptr;
  uint64_t id = 0;
  if (isaacStatus status = getCurrentContext(&ctx, &id))
    return status;
  if (contextId)
    *contextId = id;
  return getDriver(d);
}

/// Makes the memory pool that cuMemAllocAsync draws from on `device` keep
/// the memory freed into it, if it would otherwise return it all. With
/// CUDA's default release threshold of 0 the pool gives its memory back to
/// the driver when the stream synchronizes, and the next allocations map
/// it again: on an H200, a loop of two 64 KiB cudaMallocAsync, two small
/// kernels, two cudaFreeAsync and a stream synchronize took 112 us an
/// iteration with the default threshold and 21 us with the maximum (15 us
/// with no allocation). Compiled functions allocate their temporaries and
/// synchronize at their end in the same way. A threshold the application
/// set (non-zero) is kept: it bounds what the pool holds. A failure here
/// costs speed only and is not reported; the allocations report their own.
void keepPoolMemory(const Driver &d, CUdevice device) {
  if (!d.cuDeviceGetMemPool || !d.cuMemPoolGetAttribute ||
      !d.cuMemPoolSetAttribute)
    return;
  CUmemoryPool pool = nullptr;
  if (d.cuDeviceGetMemPool(&pool, device) != CUDA_SUCCESS || !pool)
    return;
  uint64_t threshold = 0;
  if (d.cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                              &threshold) != CUDA_SUCCESS ||
      threshold != 0)
    return;
  threshold = UINT64_MAX;
  (void)d.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                &threshold);
}

/// Whether stream-ordered allocation is available in the context `ctxId`:
/// a driver with cuMemAllocAsync and a device with memory pools. Cached per
/// context.
isaacStatus hasMemoryPools(const Driver &d, uint64_t ctxId, bool &pools) {
  static auto *mutex = new std::mutex;
  static auto *cache = new std::unordered_map<uint64_t, bool>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = cache->find(ctxId);
  if (it != cache->end()) {
    pools = it->second;
    return ISAAC_SUCCESS;
  }
  int supported = 0;
  CUdevice device = 0;
  if (d.cuMemAllocAsync && d.cuMemFreeAsync) {
    if (CUresult result = d.cuCtxGetDevice(&device))
      return cudaFailure(result, "cuCtxGetDevice");
    if (CUresult result = d.cuDeviceGetAttribute(
            &supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device))
      return cudaFailure(result,
                         "cuDeviceGetAttribute(MEMORY_POOLS_SUPPORTED)");
  }
  pools = supported != 0;
  if (pools)
    keepPoolMemory(d, device);
  cache->emplace(ctxId, pools);
  return ISAAC_SUCCESS;
}

CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

/// Runs `body` (returning isaacStatus) with exceptions caught, and prefixes
/// a failure's message with the entry point's name.
template <typename Body> void run(const char *entryPoint, Body &&body) {
  if (isaacStatus status = guardExceptions(entryPoint, body))
    addErrorContext(status, entryPoint);
}

/// Checks a launch's geometry: the driver takes 32-bit dimensions and MLIR
/// passes 64-bit index values.
isaacStatus checkGeometry(const intptr_t (&dims)[6], int32_t smem) {
  for (intptr_t dim : dims)
    if (dim < 1 || static_cast<uintmax_t>(dim) > UINT_MAX)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "grid (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
                      ") and block (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
                      ") must be in [1, 2^32)",
                      dims[0], dims[1], dims[2], dims[3], dims[4], dims[5]);
  if (smem < 0)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "dynamic shared memory of %d bytes", smem);
  return ISAAC_SUCCESS;
}

/// Raises `function`'s dynamic shared memory limit when `smem` exceeds the
/// default one, as upstream does.
isaacStatus allowSharedMemory(const Driver &d, CUfunction function,
                              int32_t smem) {
  if (smem <= kDefaultDynamicSmem)
    return ISAAC_SUCCESS;
  if (CUresult result = d.cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem))
    return cudaFailure(result,
                       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                       (std::to_string(smem) + " bytes").c_str());
  return ISAAC_SUCCESS;
}

std::string geometry(const intptr_t (&dims)[6], int32_t smem) {
  return "grid (" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) +
         ", " + std::to_string(dims[2]) + "), block (" +
         std::to_string(dims[3]) + ", " + std::to_string(dims[4]) + ", " +
         std::to_string(dims[5]) + "), " + std::to_string(smem) +
         " bytes of dynamic shared memory";
}

/// mgpuModuleLoad and mgpuModuleLoadJIT: `data` (an image described by
/// `what`) in the current context, or NULL with the failure recorded and
/// remembered for the launches that will get NULL kernels.
void *loadMgpuModule(const char *entryPoint, void *data,
                     const std::string &what, int optLevel) {
  CUmodule module = nullptr;
  isaacStatus status = guardExceptions(entryPoint, [&] {
    if (!data)
      return setError(ISAAC_ERROR_INVALID_VALUE, "the module data is NULL");
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    return compileModule(*d, data, what, optLevel, module);
  });
  if (status) {
    addErrorContext(status, entryPoint);
    rememberLoadFailure(status);
  }
  return module;
}

} // namespace
} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  // No JIT option: a cubin is not compiled, a fatbin's PTX with the JIT's
  // default level.
  return loadMgpuModule("mgpuModuleLoad", data,
                        "module image of " + std::to_string(gpuBlobSize) +
                            " bytes",
                        /*optLevel=*/-1);
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  std::string what = "PTX";
  if (data)
    what += " of " + std::to_string(std::strlen(static_cast<char *>(data))) +
            " bytes";
  return loadMgpuModule("mgpuModuleLoadJIT", data, what, optLevel);
}

extern "C" void mgpuModuleUnload(void *module) {
  if (!module)
    return; // Its load failed, which was recorded then.
  run("mgpuModuleUnload", [&] {
    const Driver *d = nullptr;
    if (isaacStatus status = getDriver(d))
      return status;
    auto m = static_cast<CUmodule>(module);
    CUresult result = d->cuModuleUnload(m);
    // The global destructors that unload modules run after libcuda's own,
    // which already released everything: nothing left to do or report.
    if (result == CUDA_ERROR_DEINITIALIZED)
      return ISAAC_SUCCESS;
    // On a thread without a current context, make the runtime's current.
    if (result == CUDA_ERROR_INVALID_CONTEXT) {
      if (isaacStatus status = enter(d))
        return status;
      result = d->cuModuleUnload(m);
    }
    if (result != CUDA_SUCCESS)
      return cudaFailure(result, "cuModuleUnload");
    return ISAAC_SUCCESS;
  });
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction function = nullptr;
  std::string entryPoint =
      std::string("mgpuModuleGetFunction(") + (name ? name : "NULL") + ")";
  isaacStatus status = guardExceptions(entryPoint.c_str(), [&] {
    if (!module)
      return nullHandle("the module");
    if (!name)
      return setError(ISAAC_ERROR_INVALID_VALUE, "kernel name is NULL");
    const Driver *d = nullptr;
    if (isaacStatus status = getDriver(d))
      return status;
    CUresult result =
        d->cuModuleGetFunction(&function, static_cast<CUmodule>(module), name);
    if (result == CUDA_ERROR_NOT_FOUND)
      return setError(ISAAC_ERROR_KERNEL_NOT_FOUND,
                      "the module has no kernel named '%s'", name);
    if (result != CUDA_SUCCESS)
      return cudaFailure(result, "cuModuleGetFunction");
    return ISAAC_SUCCESS;
  });
  if (status) {
    addErrorContext(status, entryPoint.c_str());
    // A NULL module's failure was remembered when it failed to load.
    if (module)
      rememberLoadFailure(status);
    function = nullptr;
  }
  return function;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t /*paramsCount*/) {
  run("mgpuLaunchKernel", [&] {
    if (!function)
      return nullHandle("the kernel");
    const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
    if (isaacStatus status = checkGeometry(dims, smem))
      return status;
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    auto f = static_cast<CUfunction>(function);
    if (isaacStatus status = allowSharedMemory(*d, f, smem))
      return status;
    if (CUresult result = d->cuLaunchKernel(
            f, static_cast<unsigned>(gridX), static_cast<unsigned>(gridY),
            static_cast<unsigned>(gridZ), static_cast<unsigned>(blockX),
            static_cast<unsigned>(blockY), static_cast<unsigned>(blockZ),
            static_cast<unsigned>(smem), static_cast<CUstream>(stream), params,
            extra))
      return cudaFailure(result, "cuLaunchKernel",
                         geometry(dims, smem).c_str());
    return ISAAC_SUCCESS;
  });
}

extern "C" void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                        intptr_t clusterY, intptr_t clusterZ,
                                        intptr_t gridX, intptr_t gridY,
                                        intptr_t gridZ, intptr_t blockX,
                                        intptr_t blockY, intptr_t blockZ,
                                        int32_t smem, void *stream,
                                        void **params, void **extra) {
  run("mgpuLaunchClusterKernel", [&] {
    if (!function)
      return nullHandle("the kernel");
    const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
    if (isaacStatus status = checkGeometry(dims, smem))
      return status;
    const intptr_t cluster[3] = {clusterX, clusterY, clusterZ};
    for (int i = 0; i < 3; ++i)
      if (cluster[i] < 1 || cluster[i] > dims[i] || dims[i] % cluster[i])
        return setError(ISAAC_ERROR_INVALID_VALUE,
                        "cluster (%" PRIdPTR ", %" PRIdPTR ", %" PRIdPTR
                        ") must divide the grid (%" PRIdPTR ", %" PRIdPTR
                        ", %" PRIdPTR ")",
                        clusterX, clusterY, clusterZ, gridX, gridY, gridZ);
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (!d->cuLaunchKernelEx)
      return setError(ISAAC_ERROR_UNSUPPORTED,
                      "the CUDA driver has no cuLaunchKernelEx (CUDA 12), "
                      "which launches thread block clusters");
    auto f = static_cast<CUfunction>(function);
    if (isaacStatus status = allowSharedMemory(*d, f, smem))
      return status;
    if (clusterX * clusterY * clusterZ > kMaxPortableClusterSize) {
      if (CUresult result = d->cuFuncSetAttribute(
              f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1))
        return cudaFailure(
            result, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");
    }
    CUlaunchAttribute attrs[2] = {};
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[0].value.clusterDim.x = static_cast<unsigned>(clusterX);
    attrs[0].value.clusterDim.y = static_cast<unsigned>(clusterY);
    attrs[0].value.clusterDim.z = static_cast<unsigned>(clusterZ);
    // Upstream's choice: spread a cluster's blocks over the SMs.
    attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
    attrs[1].value.clusterSchedulingPolicyPreference =
        CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
    CUlaunchConfig config = {};
    config.gridDimX = static_cast<unsigned>(gridX);
    config.gridDimY = static_cast<unsigned>(gridY);
    config.gridDimZ = static_cast<unsigned>(gridZ);
    config.blockDimX = static_cast<unsigned>(blockX);
    config.blockDimY = static_cast<unsigned>(blockY);
    config.blockDimZ = static_cast<unsigned>(blockZ);
    config.sharedMemBytes = static_cast<unsigned>(smem);
    config.hStream = static_cast<CUstream>(stream);
    config.attrs = attrs;
    config.numAttrs = 2;
    if (CUresult result = d->cuLaunchKernelEx(&config, f, params, extra))
      return cudaFailure(result, "cuLaunchKernelEx",
                         ("cluster (" + std::to_string(clusterX) + ", " +
                          std::to_string(clusterY) + ", " +
                          std::to_string(clusterZ) + "), " +
                          geometry(dims, smem))
                             .c_str());
    return ISAAC_SUCCESS;
  });
}

extern "C" void *mgpuStreamCreate(void) {
  run("mgpuStreamCreate", [&] {
    const Driver *d = nullptr;
    return enter(d);
  });
  // Not a resource: a failure to reach the driver was recorded, and every
  // later call on this stream reports its own.
  return legacyStream();
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (!stream || stream == legacyStream())
    return;
  run("mgpuStreamDestroy", [&] {
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "stream %p is not one of mgpuStreamCreate's, which "
                    "returns the legacy default stream (%p)",
                    stream, static_cast<void *>(legacyStream()));
  });
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  run("mgpuStreamSynchronize", [&] {
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result = d->cuStreamSynchronize(static_cast<CUstream>(stream)))
      return cudaFailure(result, "cuStreamSynchronize");
    return ISAAC_SUCCESS;
  });
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  run("mgpuStreamWaitEvent", [&] {
    if (!event)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "the event is NULL (its creation failed)");
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result = d->cuStreamWaitEvent(static_cast<CUstream>(stream),
                                               static_cast<CUevent>(event), 0))
      return cudaFailure(result, "cuStreamWaitEvent");
    return ISAAC_SUCCESS;
  });
}

extern "C" void *mgpuEventCreate(void) {
  CUevent event = nullptr;
  run("mgpuEventCreate", [&] {
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result = d->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)) {
      event = nullptr;
      return cudaFailure(result, "cuEventCreate");
    }
    return ISAAC_SUCCESS;
  });
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (!event)
    return; // Its creation failed, which was recorded then.
  run("mgpuEventDestroy", [&] {
    const Driver *d = nullptr;
    if (isaacStatus status = getDriver(d))
      return status;
    if (CUresult result = d->cuEventDestroy(static_cast<CUevent>(event)))
      return cudaFailure(result, "cuEventDestroy");
    return ISAAC_SUCCESS;
  });
}

extern "C" void mgpuEventSynchronize(void *event) {
  run("mgpuEventSynchronize", [&] {
    if (!event)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "the event is NULL (its creation failed)");
    const Driver *d = nullptr;
    if (isaacStatus status = getDriver(d))
      return status;
    if (CUresult result = d->cuEventSynchronize(static_cast<CUevent>(event)))
      return cudaFailure(result, "cuEventSynchronize");
    return ISAAC_SUCCESS;
  });
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  run("mgpuEventRecord", [&] {
    if (!event)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "the event is NULL (its creation failed)");
    // The legacy stream handle means the current context's.
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result = d->cuEventRecord(static_cast<CUevent>(event),
                                           static_cast<CUstream>(stream)))
      return cudaFailure(result, "cuEventRecord");
    return ISAAC_SUCCESS;
  });
}

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  CUdeviceptr pointer = 0;
  run("mgpuMemAlloc", [&] {
    if (isHostShared)
      return setError(ISAAC_ERROR_UNSUPPORTED,
                      "managed memory (gpu.alloc host_shared) of %" PRIu64
                      " bytes is not supported: allocate device memory and "
                      "copy with gpu.memcpy",
                      sizeBytes);
    // Upstream returns NULL for 0 bytes without calling the driver; every
    // function here treats NULL as an empty buffer.
    if (sizeBytes == 0)
      return ISAAC_SUCCESS;
    const Driver *d = nullptr;
    uint64_t ctxId = 0;
    if (isaacStatus status = enter(d, &ctxId))
      return status;
    bool pools = false;
    if (isaacStatus status = hasMemoryPools(*d, ctxId, pools))
      return status;
    CUresult result = pools ? d->cuMemAllocAsync(&pointer, sizeBytes,
                                                 static_cast<CUstream>(stream))
                            : d->cuMemAlloc(&pointer, sizeBytes);
    if (result != CUDA_SUCCESS) {
      pointer = 0;
      return cudaFailure(result, pools ? "cuMemAllocAsync" : "cuMemAlloc",
                         (std::to_string(sizeBytes) + " bytes").c_str(),
                         result == CUDA_ERROR_OUT_OF_MEMORY
                             ? ISAAC_ERROR_OUT_OF_MEMORY
                             : ISAAC_ERROR_CUDA);
    }
    return ISAAC_SUCCESS;
  });
  return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return; // A 0-byte or failed allocation.
  run("mgpuMemFree", [&] {
    const Driver *d = nullptr;
    uint64_t ctxId = 0;
    if (isaacStatus status = enter(d, &ctxId))
      return status;
    bool pools = false;
    if (isaacStatus status = hasMemoryPools(*d, ctxId, pools))
      return status;
    auto s = static_cast<CUstream>(stream);
    if (pools) {
      if (CUresult result = d->cuMemFreeAsync(devicePointer(ptr), s))
        return cudaFailure(result, "cuMemFreeAsync");
      return ISAAC_SUCCESS;
    }
    // cuMemFree is not stream-ordered: the work queued before may still
    // use the memory.
    if (CUresult result = d->cuStreamSynchronize(s))
      return cudaFailure(result, "cuStreamSynchronize", "before cuMemFree");
    if (CUresult result = d->cuMemFree(devicePointer(ptr)))
      return cudaFailure(result, "cuMemFree");
    return ISAAC_SUCCESS;
  });
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes == 0)
    return;
  run("mgpuMemcpy", [&] {
    if (!dst || !src)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "copy of %zu bytes from %p to %p", sizeBytes, src, dst);
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result =
            d->cuMemcpyAsync(devicePointer(dst), devicePointer(src), sizeBytes,
                             static_cast<CUstream>(stream)))
      return cudaFailure(result, "cuMemcpyAsync",
                         (std::to_string(sizeBytes) + " bytes").c_str());
    return ISAAC_SUCCESS;
  });
}

namespace {

/// mgpuMemset32 and mgpuMemset16: `count` elements of type T through the
/// driver's `fn`.
template <typename T, typename Fn>
void memsetAsync(const char *entryPoint, const char *call, void *dst, T value,
                 size_t count, void *stream, Fn Driver::*fn) {
  if (count == 0)
    return;
  run(entryPoint, [&] {
    if (!dst || reinterpret_cast<uintptr_t>(dst) % sizeof(T))
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "destination %p is NULL or not aligned to %zu bytes", dst,
                      sizeof(T));
    const Driver *d = nullptr;
    if (isaacStatus status = enter(d))
      return status;
    if (CUresult result = (d->*fn)(devicePointer(dst), value, count,
                                   static_cast<CUstream>(stream)))
      return cudaFailure(result, call,
                         (std::to_string(count) + " elements").c_str());
    return ISAAC_SUCCESS;
  });
}

} // namespace

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  memsetAsync("mgpuMemset32", "cuMemsetD32Async", dst, value, count, stream,
              &Driver::cuMemsetD32Async);
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  memsetAsync("mgpuMemset16", "cuMemsetD16Async", dst, value, count, stream,
              &Driver::cuMemsetD16Async);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  run("mgpuSetDefaultDevice", [&] { return setDefaultDevice(device); });
}
