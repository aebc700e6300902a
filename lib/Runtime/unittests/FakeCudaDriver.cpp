//===- FakeCudaDriver.cpp - A libcuda stand-in for CPU-only tests ---------===//
//
// Implements the driver entry points the runtime resolves, with the CUDA
// driver's C ABI. Modules "contain" the kernels named by `.entry NAME` in
// their PTX text, as real ones do, and launches are recorded with their
// parameter bytes decoded by the ABI's parameter types.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

using CUresult = int;

struct Module {
  std::string ptx;
};

struct Function {
  std::string name;
  int maxThreads;
};

struct State {
  std::mutex mutex;
  std::vector<FakeLaunch> launches;
  std::vector<Module *> modules;
  int moduleLoads = 0, allocations = 0, frees = 0, streamSyncs = 0;
  size_t lastAllocationBytes = 0;
  uint64_t lastAllocation = 0, nextAddress = 0x7f0000000000ull;
};

State &state() {
  static State s;
  return s;
}

thread_local void *current = nullptr;
void *const kPrimaryContext = reinterpret_cast<void *>(0xc0de0000);

/// Sizes of the parameters of kernel `name` per docs/abi.md.
std::vector<int> paramSizes(const std::string &name) {
  bool f64 = name.find("f64") != std::string::npos;
  int t = f64 ? 8 : 4;
  if (name.rfind("isaac_gemm_", 0) == 0)
    return {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, t, t};
  if (name.rfind("isaac_scale_", 0) == 0)
    return {8, 4, 4, 4, 8, t};
  if (name.rfind("isaac_splitk_reduce_", 0) == 0)
    return {8, 8, 4, 4, 4, 8, 4, t};
  return {};
}

} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT CUresult cuInit(unsigned) { return 0; }

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return 101;
  *device = 0;
  return 0;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = kPrimaryContext;
  return 0;
}

EXPORT CUresult cuCtxGetCurrent(void **ctx) {
  *ctx = current;
  return 0;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx) {
  current = ctx;
  return 0;
}

EXPORT CUresult cuCtxGetId(void *ctx, unsigned long long *id) {
  *id = reinterpret_cast<uintptr_t>(ctx) + 1;
  return 0;
}

EXPORT CUresult cuStreamGetId(void *stream, unsigned long long *id) {
  *id = reinterpret_cast<uintptr_t>(stream) + 7;
  return 0;
}

EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **values) {
  const char *ptx = static_cast<const char *>(image);
  if (std::strstr(ptx, FAKE_JIT_FAILURE_MARKER)) {
    for (unsigned i = 0; i + 1 < numOptions; ++i) {
      if (options[i] == 5 && options[i + 1] == 6) { // error log, its size
        size_t size = reinterpret_cast<uintptr_t>(values[i + 1]);
        const char *log = "ptxas fatal   : fake syntax error on line 3\n";
        std::strncpy(static_cast<char *>(values[i]), log, size);
        values[i + 1] = reinterpret_cast<void *>(std::strlen(log) + 1);
      }
    }
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.moduleLoads;
  auto *m = new Module{ptx};
  s.modules.push_back(m);
  *module = m;
  return 0;
}

EXPORT CUresult cuModuleGetFunction(void **function, void *module,
                                    const char *name) {
  const Module *m = static_cast<const Module *>(module);
  std::string entry = std::string(".entry ") + name + "(";
  if (m->ptx.find(entry) == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  int maxThreads =
      m->ptx.find(FAKE_MAX_THREADS_MARKER) != std::string::npos ? 32 : 1024;
  *function = new Function{name, maxThreads};
  return 0;
}

EXPORT CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  if (attribute != 0)
    return 1;
  *value = static_cast<Function *>(function)->maxThreads;
  return 0;
}

EXPORT CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem, void *stream,
                               void **params, void **extra) {
  if (stream == FAKE_FAILING_STREAM || extra)
    return 1; // CUDA_ERROR_INVALID_VALUE
  const Function *f = static_cast<const Function *>(function);
  FakeLaunch launch = {};
  std::strncpy(launch.name, f->name.c_str(), sizeof(launch.name) - 1);
  launch.grid[0] = gx;
  launch.grid[1] = gy;
  launch.grid[2] = gz;
  launch.block[0] = bx;
  launch.block[1] = by;
  launch.block[2] = bz;
  launch.sharedMemBytes = smem;
  launch.stream = stream;
  std::vector<int> sizes = paramSizes(f->name);
  launch.numParams = static_cast<int>(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    launch.paramSizes[i] = sizes[i];
    std::memcpy(launch.params[i], params[i], sizes[i]);
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.launches.push_back(launch);
  return 0;
}

EXPORT CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.allocations;
  s.lastAllocationBytes = bytes;
  s.lastAllocation = s.nextAddress;
  s.nextAddress += (bytes + 0xfffff) & ~size_t(0xfffff);
  *pointer = s.lastAllocation;
  return 0;
}

EXPORT CUresult cuMemFree_v2(unsigned long long) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.frees;
  return 0;
}

EXPORT CUresult cuStreamSynchronize(void *) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.streamSyncs;
  return 0;
}

EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 218:
    *name = "CUDA_ERROR_INVALID_PTX";
    return 0;
  }
  return 1;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 1:
    *text = "invalid argument";
    return 0;
  case 218:
    *text = "a PTX JIT compilation failed";
    return 0;
  }
  return 1;
}

// Inspection.

EXPORT int fakeCudaLaunchCount() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return static_cast<int>(state().launches.size());
}

EXPORT const FakeLaunch *fakeCudaLaunch(int index) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return &state().launches.at(index);
}

EXPORT void fakeCudaReset() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().launches.clear();
}

EXPORT int fakeCudaModuleLoads() { return state().moduleLoads; }
EXPORT int fakeCudaAllocations() { return state().allocations; }
EXPORT int fakeCudaFrees() { return state().frees; }
EXPORT size_t fakeCudaLastAllocationBytes() {
  return state().lastAllocationBytes;
}
EXPORT uint64_t fakeCudaLastAllocation() { return state().lastAllocation; }
EXPORT int fakeCudaStreamSyncs() { return state().streamSyncs; }
EXPORT void *fakeCudaCurrentContext() { return current; }
