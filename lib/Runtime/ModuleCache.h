//===- ModuleCache.h - Loaded modules, kernels and workspaces ---*- C++ -*-===//
//
// JIT-compiling PTX takes tens of milliseconds, far longer than a GEMM, and
// compiled code calls isaacGemmLaunch with the same PTX on every call. So
// modules are cached per context by PTX contents, kernels per module by name,
// and split-K workspaces per (context, stream). Cached modules and kernels
// are never unloaded, so pointers to them stay valid: GemmLaunch.cpp's
// launch sites keep theirs to skip these lookups.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_RUNTIME_MODULECACHE_H
#define ISAAC_LIB_RUNTIME_MODULECACHE_H

#include "CudaDriver.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

struct isaacFunction_st {
  isaac::runtime::CUfunction function = nullptr;
  struct isaacModule_st *module = nullptr;
  std::string name;
  /// Largest block the compiled kernel can run (limited by its registers).
  int maxThreadsPerBlock = 0;
  /// The dynamic shared memory its limit was raised to
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), 0 if never.
  int dynamicSmemLimit = 0;
  /// Blocks of the kernel the GPU holds at once (SMs times the blocks an
  /// SM holds, at the launch's block and shared memory); 0 until a
  /// persistent launch (pt) asked.
  int64_t residentBlocks = 0;
};

struct isaacModule_st {
  isaac::runtime::CUmodule module = nullptr;
  isaac::runtime::CUcontext context = nullptr;
  uint64_t contextId = 0;
  std::string ptx;
  std::unordered_map<std::string, std::unique_ptr<isaacFunction_st>> functions;
};

namespace isaac::runtime {

/// A PTX text the runtime has seen is recognized by its address and its
/// first kPtxIdentityBytes bytes, which hold the header naming the kernel,
/// its configuration, epilogue and chip (docs/abi.md): compiled code passes
/// the same string constant on every call, and comparing all of a 100 KB
/// text per launch would cost more than the launch. Rewriting a PTX buffer
/// in place after it was launched is not supported.
constexpr size_t kPtxIdentityBytes = 4096;

/// Whether `ptx` starts like `stored` (see kPtxIdentityBytes).
inline bool samePtxPrefix(const std::string &stored, const char *ptx) {
  return std::strncmp(stored.c_str(), ptx, kPtxIdentityBytes) == 0;
}

/// Guards every cache; the lookups below require it to be held.
std::mutex &cacheMutex();

/// Loads `image` (PTX text, a cubin or a fatbin) into the current context,
/// collecting the JIT's logs; a failure's message names `what` (e.g. "PTX of
/// 1234 bytes") and the error log. `optLevel` in [0, 4] sets the JIT's
/// optimization level, anything else leaves its default (4).
isaacStatus compileModule(const Driver &d, const void *image,
                          const std::string &what, int optLevel,
                          CUmodule &module);

/// Returns the module of `ptx` in the current context, JIT-compiling it on
/// first use. Takes the cache mutex itself.
/// Loads (JIT-compiles) `ptx`, or, when `image` is given, loads that
/// precompiled image of it; either way the module is cached under the PTX.
isaacStatus loadModule(const char *ptx, isaacModule_st *&module,
                       const void *image = nullptr, size_t imageSize = 0);

/// Returns the kernel `name` of `module`. Requires the cache mutex.
isaacStatus getFunction(isaacModule_st &module, const char *name,
                        isaacFunction_st *&function);

/// Returns at least `bytes` of device memory reserved for split-K launches on
/// `stream` in the context `ctxId`. The memory stays valid while the cache
/// mutex is held, so callers enqueue the kernels that use it before
/// unlocking. Requires the cache mutex.
///
/// With `zeroed`, a separate buffer of the stream that is zero when it is
/// handed out the first time (cleared on `stream` after each allocation)
/// and that every user leaves zero again: the partial sums and tile
/// counters of fused split-K kernels in atomic mode.
isaacStatus getWorkspace(uint64_t ctxId, CUstream stream, size_t bytes,
                         CUdeviceptr &workspace, bool zeroed = false);

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_MODULECACHE_H
