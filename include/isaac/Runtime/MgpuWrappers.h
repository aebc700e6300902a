/*===- isaac/Runtime/MgpuWrappers.h - Upstream MLIR's mgpu* ABI -*- C -*-===*\
|*                                                                            *|
|* The C functions that MLIR 22 emits for the upstream GPU path:             *|
|* `gpu-to-llvm` lowers gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset,       *|
|* gpu.wait, gpu.launch_func and the async tokens of `gpu-async-region` to    *|
|* calls of these, and `mlir-translate --mlir-to-llvmir` turns each          *|
|* gpu.binary into a global constructor that loads it (mgpuModuleLoadJIT for *|
|* PTX, mgpuModuleLoad for cubins and fatbins) and a destructor that unloads  *|
|* it. The signatures are those of the `declare` lines MLIR 22 emits          *|
|* (docs/abi.md, "Upstream GPU path"); upstream implements them in           *|
|* libmlir_cuda_runtime, which Debian does not ship, so libisaac_runtime      *|
|* implements them on its dlopen'ed driver, in the context isaac's GEMM       *|
|* launches use.                                                              *|
|*                                                                            *|
|* Semantics that differ from upstream's:                                     *|
|*  - Every stream is the legacy default stream of the context:              *|
|*    mgpuStreamCreate returns CU_STREAM_LEGACY ((void *)1), so kernels,     *|
|*    copies, allocations and isaac GEMMs (which compiled code launches on    *|
|*    NULL, the same stream) execute in program order.                        *|
|*  - No function aborts or prints (unless ISAAC_RUNTIME_VERBOSE=1): a        *|
|*    failure sets the calling thread's status and message, read with        *|
|*    isaacGetLastStatus / isaacGetLastError (Runtime.h), and the function    *|
|*    returns NULL or does nothing.                                           *|
|*                                                                            *|
|* Pointers are device pointers (or host pointers for mgpuMemcpy). CUDA       *|
|* handles are passed as void *: CUmodule, CUfunction, CUstream, CUevent.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ISAAC_RUNTIME_MGPUWRAPPERS_H
#define ISAAC_RUNTIME_MGPUWRAPPERS_H

#include "isaac/Runtime/Runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===--------------------------------------------------------------------===*
 * Modules (called from the global constructors and destructors that
 * mlir-translate emits for each gpu.binary, before main and after it)
 *===--------------------------------------------------------------------===*/

/* Loads a cubin or fatbin of `gpuBlobSize` bytes into the current context
   (isaacInit's: the current one, else the default device's primary
   context), initializing the driver if needed. Returns the CUmodule, or NULL
   with the failure recorded (no driver or GPU, a bad image): kernels of a
   NULL module are refused later, at launch. */
ISAAC_RUNTIME_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize);

/* As mgpuModuleLoad for NUL-terminated PTX, JIT-compiled with optimization
   level `optLevel` (0..4; other values leave the JIT's default). A JIT
   failure's message carries the JIT's error log. */
ISAAC_RUNTIME_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);

/* Unloads a module of mgpuModuleLoad[JIT]; NULL does nothing. */
ISAAC_RUNTIME_EXPORT void mgpuModuleUnload(void *module);

/* The CUfunction `name` of `module`, or NULL with the failure recorded (a
   NULL module: the message repeats why its load failed). */
ISAAC_RUNTIME_EXPORT void *mgpuModuleGetFunction(void *module,
                                                 const char *name);

/*===--------------------------------------------------------------------===*
 * Launches
 *===--------------------------------------------------------------------===*/

/* Launches `function` with the grid and block given as MLIR index values
   (each must be in [1, 2^32)), `smem` bytes of dynamic shared memory (above
   48 KiB the function's limit is raised first), `params` an array of
   pointers to each argument (the driver reads as many bytes as the kernel
   declares; paramsCount is not needed), `extra` as cuLaunchKernel's. A NULL
   `function` (its module failed to load) records an error and launches
   nothing. */
ISAAC_RUNTIME_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                           intptr_t gridY, intptr_t gridZ,
                                           intptr_t blockX, intptr_t blockY,
                                           intptr_t blockZ, int32_t smem,
                                           void *stream, void **params,
                                           void **extra, size_t paramsCount);

/* As mgpuLaunchKernel, with thread block clusters of clusterX x clusterY x
   clusterZ blocks (gpu.launch_func ... clusters in (...); sm_90 and a CUDA 12
   driver's cuLaunchKernelEx). MLIR 22 passes no parameter count here. */
ISAAC_RUNTIME_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra);

/*===--------------------------------------------------------------------===*
 * Streams and events
 *===--------------------------------------------------------------------===*/

/* Returns CU_STREAM_LEGACY ((void *)1), the context's legacy default stream
   (the stream of isaac's GEMM launches from compiled code), after making
   the context current; it creates nothing. */
ISAAC_RUNTIME_EXPORT void *mgpuStreamCreate(void);

/* Nothing to destroy for mgpuStreamCreate's handle (or NULL); any other
   handle is refused with ISAAC_ERROR_INVALID_VALUE. */
ISAAC_RUNTIME_EXPORT void mgpuStreamDestroy(void *stream);

/* Waits until all work queued on `stream` is done (cuStreamSynchronize). */
ISAAC_RUNTIME_EXPORT void mgpuStreamSynchronize(void *stream);

/* Makes later work on `stream` wait for `event`. */
ISAAC_RUNTIME_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);

/* A new event without timing, or NULL with the failure recorded. */
ISAAC_RUNTIME_EXPORT void *mgpuEventCreate(void);

/* Destroys an event of mgpuEventCreate; NULL does nothing. */
ISAAC_RUNTIME_EXPORT void mgpuEventDestroy(void *event);

/* Waits until the work before the event's last record is done. */
ISAAC_RUNTIME_EXPORT void mgpuEventSynchronize(void *event);

/* Records `event` after the work queued on `stream` so far. */
ISAAC_RUNTIME_EXPORT void mgpuEventRecord(void *event, void *stream);

/*===--------------------------------------------------------------------===*
 * Memory
 *===--------------------------------------------------------------------===*/

/* Allocates `sizeBytes` of device memory ordered on `stream`
   (cuMemAllocAsync where the device has memory pools, else cuMemAlloc).
   0 bytes returns NULL without error (as upstream), which every function
   here accepts as an empty buffer. `isHostShared` (gpu.alloc host_shared,
   managed memory) is refused: NULL and ISAAC_ERROR_UNSUPPORTED. */
ISAAC_RUNTIME_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                        bool isHostShared);

/* Frees memory of mgpuMemAlloc once the work queued on `stream` is done
   (cuMemFreeAsync, or cuStreamSynchronize then cuMemFree); NULL does
   nothing. */
ISAAC_RUNTIME_EXPORT void mgpuMemFree(void *ptr, void *stream);

/* Copies `sizeBytes` between host and/or device memory on `stream`
   (cuMemcpyAsync; unified addressing tells which is which). */
ISAAC_RUNTIME_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                     void *stream);

/* Sets `count` 32-bit (16-bit) elements at `dst`, aligned to 4 (2) bytes, to
   `value` on `stream`. */
ISAAC_RUNTIME_EXPORT void mgpuMemset32(void *dst, unsigned int value,
                                       size_t count, void *stream);
ISAAC_RUNTIME_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                       size_t count, void *stream);

/*===--------------------------------------------------------------------===*
 * Devices
 *===--------------------------------------------------------------------===*/

/* Makes `device`'s primary context current on the calling thread and the
   one that threads without a current context use, for isaac's GEMM
   launches too. (Upstream's records the device for its own later calls.) */
ISAAC_RUNTIME_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ISAAC_RUNTIME_MGPUWRAPPERS_H */
