//===- FakeCudaDriver.cpp - A libcuda stand-in for CPU-only tests ---------===//
//
// Implements the driver entry points the runtime resolves, with the CUDA
// driver's C ABI. Modules "contain" the kernels named by `.entry NAME` in
// their PTX text, as real ones do, and launches are recorded with their
// parameter bytes decoded by the parameters' types. Every call is also
// written to a log, so that tests can check which driver calls a runtime
// function made, in which order and on which stream. Nothing is executed and
// device memory is never touched: allocations return addresses that no one
// dereferences.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
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
  std::vector<int> paramSizes;
};

struct Event {
  unsigned flags;
};

struct State {
  std::mutex mutex;
  std::vector<FakeLaunch> launches;
  std::vector<Module *> modules;
  int moduleLoads = 0, allocations = 0, frees = 0, streamSyncs = 0;
  size_t lastAllocationBytes = 0;
  uint64_t lastAllocation = 0, nextAddress = 0x7f0000000000ull;
  std::vector<std::string> calls;
  std::string callText;
  std::string failName;
  CUresult failResult = 0;
  /// Whether failName is set, read without the mutex in quiet mode.
  std::atomic<bool> failArmed{false};
  /// Quiet: calls are counted but neither logged nor recorded, so that a
  /// benchmark of the runtime measures the runtime, not this log.
  std::atomic<bool> quiet{false};
};

State &state() {
  static State s;
  return s;
}

bool isQuiet() { return state().quiet.load(std::memory_order_relaxed); }

/// Whether a call must be logged: always, but in quiet mode only while a
/// failure is injected (whose log line the test may read).
bool mustLog() {
  return !isQuiet() || state().failArmed.load(std::memory_order_acquire);
}

/// The calls of one entry point, counted in every mode.
struct CallCounter {
  const char *name;
  std::atomic<long> count{0};
  CallCounter *next;
};

/// The counters of the entry points called so far, a list that is only
/// ever prepended to, so that readers need no lock.
std::atomic<CallCounter *> &counters() {
  static std::atomic<CallCounter *> head{nullptr};
  return head;
}

CallCounter *registerCounter(CallCounter *counter) {
  counter->next = counters().load();
  while (!counters().compare_exchange_weak(counter->next, counter))
    ;
  return counter;
}

/// Counts a call of the enclosing entry point (named by __func__); a
/// relaxed increment, so that it costs next to nothing.
#define COUNT_CALL()                                                           \
  static CallCounter *callCounter_ =                                           \
      registerCounter(new CallCounter{__func__, {0}, nullptr});                \
  callCounter_->count.fetch_add(1, std::memory_order_relaxed)

thread_local void *current = nullptr;

std::string hex(const void *pointer) {
  char buffer[32];
  std::snprintf(
      buffer, sizeof(buffer), "%#llx",
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(pointer)));
  return buffer;
}

std::string hex(unsigned long long value) {
  return hex(reinterpret_cast<const void *>(static_cast<uintptr_t>(value)));
}

/// Logs a call, its arguments formatted and `suffix` appended, and returns
/// the failure injected for it, if any (0 else).
CUresult logCall(const char *name, const std::string &suffix,
                 const char *format, va_list args) {
  if (!mustLog())
    return 0;
  State &s = state();
  char buffer[512];
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  std::lock_guard<std::mutex> lock(s.mutex);
  CUresult result = 0;
  if (s.failName == name) {
    result = s.failResult;
    s.failName.clear();
    s.failArmed.store(false, std::memory_order_release);
  }
  std::string line = std::string(name) + "(" + buffer + ")" + suffix;
  if (result)
    line += " -> " + std::to_string(result);
  s.calls.push_back(line);
  return result;
}

CUresult call(const char *name, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

CUresult call(const char *name, const char *format, ...) {
  va_list args;
  va_start(args, format);
  CUresult result = logCall(name, "", format, args);
  va_end(args);
  return result;
}

/// call(), whose arguments (formatted with hex() and the like) are not even
/// evaluated when the call is not logged: the quiet mode's cost stays near
/// zero.
#define CALL(...) (mustLog() ? call(__VA_ARGS__) : 0)

/// As call(), for launches: the log line also gives the context, the
/// geometry and each parameter's value (its bytes as a little-endian
/// integer in hex), e.g. " ctx=0xc0de0000 grid=4x1x1 block=128x1x1 smem=0
/// params=0x7f0000000000,0x100,0x3f800000".
CUresult launchCall(const char *name, const FakeLaunch &l, const char *format,
                    ...) __attribute__((format(printf, 3, 4)));

CUresult launchCall(const char *name, const FakeLaunch &l, const char *format,
                    ...) {
  char geometry[160];
  std::snprintf(geometry, sizeof(geometry),
                " ctx=%s grid=%ux%ux%u block=%ux%ux%u smem=%u params=",
                hex(l.context).c_str(), l.grid[0], l.grid[1], l.grid[2],
                l.block[0], l.block[1], l.block[2], l.sharedMemBytes);
  std::string suffix = geometry;
  for (int i = 0; i < l.numParams; ++i) {
    unsigned long long value = 0;
    std::memcpy(&value, l.params[i], std::min(l.paramSizes[i], 8));
    suffix += (i ? "," : "") + hex(value);
  }
  va_list args;
  va_start(args, format);
  CUresult result = logCall(name, suffix, format, args);
  va_end(args);
  return result;
}

/// Appends " = <value in hex>" to the last logged call.
template <typename T> void logResult(T value) {
  State &s = state();
  if (isQuiet())
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.calls.empty())
    s.calls.back() += " = " + hex(value);
}

int deviceOf(void *ctx) { return ctx == FAKE_PRIMARY_CONTEXT_0 ? 0 : 1; }

/// Bytes of a PTX parameter type (.u64, .f32, .b8, ...); 0 if none.
int typeBytes(const std::string &token) {
  static const char *const types[] = {".u", ".s", ".b", ".f"};
  for (const char *type : types)
    if (token.compare(0, 2, type) == 0 && token.size() > 2 &&
        token.find_first_not_of("0123456789", 2) == std::string::npos)
      return std::stoi(token.substr(2)) / 8;
  return 0;
}

/// Sizes of the parameters of `.entry name(...)` in `ptx`.
std::vector<int> ptxParamSizes(const std::string &ptx,
                               const std::string &name) {
  std::vector<int> sizes;
  size_t begin = ptx.find(".entry " + name + "(");
  if (begin == std::string::npos)
    return sizes;
  begin = ptx.find('(', begin) + 1;
  size_t end = ptx.find(')', begin);
  std::stringstream list(ptx.substr(begin, end - begin));
  std::string param;
  while (std::getline(list, param, ',')) {
    std::stringstream tokens(param);
    std::string token;
    int bytes = 0;
    bool isParam = false;
    while (tokens >> token) {
      if (token == ".param") {
        isParam = true;
      } else if (token == ".align") {
        tokens >> token;
      } else if (int b = typeBytes(token)) {
        bytes = b;
      } else if (isParam && token.find('[') != std::string::npos) {
        bytes *= std::stoi(token.substr(token.find('[') + 1));
      }
    }
    if (isParam)
      sizes.push_back(bytes);
  }
  return sizes;
}

/// Sizes of the parameters of kernel `name`: per docs/abi.md for isaac
/// kernels without a fused epilogue (test PTX declares one placeholder
/// parameter for them), else as the PTX declares them.
std::vector<int> paramSizes(const std::string &name, const std::string &ptx) {
  if (name.find("_ep") == std::string::npos) {
    bool f64 = name.find("f64") != std::string::npos;
    int t = f64 ? 8 : 4;
    if (name.rfind("isaac_gemm_", 0) == 0) {
      std::vector<int> sizes = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8, 8, t, t};
      // A 16-bit C (types token f16 or bf16) takes the tile counters.
      if (name.rfind("isaac_gemm_f16_", 0) == 0 ||
          name.rfind("isaac_gemm_bf16_", 0) == 0)
        sizes.push_back(8);
      // A wgmma GEMM kernel's tensor maps of A and B and useTma come last.
      if (name.find("_wgmma_") != std::string::npos)
        sizes.insert(sizes.end(),
                     {FAKE_TENSOR_MAP_BYTES, FAKE_TENSOR_MAP_BYTES, 4});
      return sizes;
    }
    if (name.rfind("isaac_scale_", 0) == 0)
      return {8, 4, 4, 4, 8, t};
    if (name.rfind("isaac_splitk_reduce_", 0) == 0)
      return {8, 8, 4, 4, 4, 8, 4, t};
  }
  return ptxParamSizes(ptx, name);
}

/// Fills in the kernel's name, the context and the parameters.
void decode(FakeLaunch &launch, const Function *f, void **params) {
  std::strncpy(launch.name, f->name.c_str(), sizeof(launch.name) - 1);
  launch.context = current;
  launch.numParams =
      static_cast<int>(std::min<size_t>(f->paramSizes.size(), FAKE_MAX_PARAMS));
  for (int i = 0; i < launch.numParams; ++i) {
    launch.paramSizes[i] = f->paramSizes[i];
    std::memcpy(launch.params[i], params[i],
                std::min<size_t>(f->paramSizes[i], 8));
    if (f->paramSizes[i] == FAKE_TENSOR_MAP_BYTES &&
        launch.numTensorMaps < FAKE_MAX_TENSOR_MAPS) {
      int m = launch.numTensorMaps++;
      std::memcpy(launch.tensorMaps[m], params[i], FAKE_TENSOR_MAP_BYTES);
      launch.tensorMapAligned[m] =
          reinterpret_cast<uintptr_t>(params[i]) % 64 == 0;
    }
  }
}

void record(const FakeLaunch &launch) {
  State &s = state();
  if (isQuiet())
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.launches.push_back(launch);
}

} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT CUresult cuInit(unsigned) {
  COUNT_CALL();
  return 0;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  COUNT_CALL();
  if (CUresult result = CALL("cuDeviceGet", "%d", ordinal))
    return result;
  if (ordinal < 0 || ordinal > 1)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = ordinal;
  return 0;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  COUNT_CALL();
  *ctx = device == 0 ? FAKE_PRIMARY_CONTEXT_0 : FAKE_PRIMARY_CONTEXT_1;
  return 0;
}

EXPORT CUresult cuCtxGetCurrent(void **ctx) {
  COUNT_CALL();
  *ctx = current;
  return 0;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx) {
  COUNT_CALL();
  current = ctx;
  return 0;
}

EXPORT CUresult cuCtxGetId(void *ctx, unsigned long long *id) {
  COUNT_CALL();
  *id = reinterpret_cast<uintptr_t>(ctx) + 1;
  return 0;
}

EXPORT CUresult cuCtxGetDevice(int *device) {
  COUNT_CALL();
  if (!current)
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  *device = deviceOf(current);
  return 0;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  COUNT_CALL();
  if (CUresult result =
          CALL("cuDeviceGetAttribute", "%d, device=%d", attribute, device))
    return result;
  if (attribute == 16) { // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    *value = kFakeMultiprocessors;
    return 0;
  }
  if (attribute != 115) // CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED
    return 1;
  *value = device == 0;
  return 0;
}

EXPORT CUresult cuStreamGetId(void *stream, unsigned long long *id) {
  COUNT_CALL();
  *id = reinterpret_cast<uintptr_t>(stream) + 7;
  return 0;
}

EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **values) {
  COUNT_CALL();
  std::string optLevel = "default";
  for (unsigned i = 0; i < numOptions; ++i)
    if (options[i] == 7) // CU_JIT_OPTIMIZATION_LEVEL
      optLevel = std::to_string(reinterpret_cast<uintptr_t>(values[i]));
  if (CUresult result = CALL("cuModuleLoadDataEx", "options=%u, optLevel=%s",
                             numOptions, optLevel.c_str()))
    return result;
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

EXPORT CUresult cuModuleUnload(void *module) {
  COUNT_CALL();
  if (!current) {
    CALL("cuModuleUnload", "%s, no context", hex(module).c_str());
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  }
  if (CUresult result = CALL("cuModuleUnload", "%s", hex(module).c_str()))
    return result;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (Module *&m : s.modules)
    if (m == module) {
      delete m;
      m = nullptr;
      return 0;
    }
  return 400; // CUDA_ERROR_INVALID_HANDLE
}

EXPORT CUresult cuModuleGetFunction(void **function, void *module,
                                    const char *name) {
  COUNT_CALL();
  if (CUresult result = CALL("cuModuleGetFunction", "%s", name))
    return result;
  const Module *m = static_cast<const Module *>(module);
  std::string entry = std::string(".entry ") + name + "(";
  if (m->ptx.find(entry) == std::string::npos)
    return 500; // CUDA_ERROR_NOT_FOUND
  int maxThreads =
      m->ptx.find(FAKE_MAX_THREADS_MARKER) != std::string::npos ? 32 : 1024;
  *function = new Function{name, maxThreads, paramSizes(name, m->ptx)};
  return 0;
}

EXPORT CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  COUNT_CALL();
  if (attribute != 0)
    return 1;
  *value = static_cast<Function *>(function)->maxThreads;
  return 0;
}

EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks,
                                                            void *function,
                                                            int blockSize,
                                                            size_t smem) {
  COUNT_CALL();
  if (CUresult result = CALL(
          "cuOccupancyMaxActiveBlocksPerMultiprocessor", "%s, %d, %zu",
          static_cast<Function *>(function)->name.c_str(), blockSize, smem))
    return result;
  *blocks = kFakeBlocksPerMultiprocessor;
  return 0;
}

EXPORT CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  COUNT_CALL();
  return CALL("cuFuncSetAttribute", "%s, %d, %d",
              static_cast<Function *>(function)->name.c_str(), attribute,
              value);
}

EXPORT CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem, void *stream,
                               void **params, void **extra) {
  COUNT_CALL();
  const Function *f = static_cast<const Function *>(function);
  if (stream == FAKE_FAILING_STREAM || extra)
    return 1; // CUDA_ERROR_INVALID_VALUE
  if (!mustLog())
    return 0;
  FakeLaunch launch = {};
  launch.grid[0] = gx;
  launch.grid[1] = gy;
  launch.grid[2] = gz;
  launch.block[0] = bx;
  launch.block[1] = by;
  launch.block[2] = bz;
  launch.sharedMemBytes = smem;
  launch.stream = stream;
  decode(launch, f, params);
  if (CUresult result = launchCall("cuLaunchKernel", launch, "%s, stream=%s",
                                   f->name.c_str(), hex(stream).c_str()))
    return result;
  record(launch);
  return 0;
}

/// cuda.h's CUlaunchConfig and CUlaunchAttribute.
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    unsigned dims[3];
    int policy;
  } value;
};

struct LaunchConfig {
  unsigned grid[3], block[3], sharedMemBytes;
  void *stream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

EXPORT CUresult cuLaunchKernelEx(const LaunchConfig *config, void *function,
                                 void **params, void **extra) {
  COUNT_CALL();
  if (extra)
    return 1;
  if (!mustLog())
    return 0;
  const Function *f = static_cast<const Function *>(function);
  std::string attributes;
  FakeLaunch launch = {};
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const LaunchAttribute &a = config->attrs[i];
    if (a.id == 4) { // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
      std::memcpy(launch.cluster, a.value.dims, sizeof(launch.cluster));
      attributes += ", cluster=" + std::to_string(a.value.dims[0]) + "x" +
                    std::to_string(a.value.dims[1]) + "x" +
                    std::to_string(a.value.dims[2]);
    } else if (a.id == 5) { // ..._CLUSTER_SCHEDULING_POLICY_PREFERENCE
      attributes += ", policy=" + std::to_string(a.value.policy);
    } else {
      attributes += ", attribute " + std::to_string(a.id);
    }
  }
  std::memcpy(launch.grid, config->grid, sizeof(launch.grid));
  std::memcpy(launch.block, config->block, sizeof(launch.block));
  launch.sharedMemBytes = config->sharedMemBytes;
  launch.stream = config->stream;
  decode(launch, f, params);
  if (CUresult result = launchCall(
          "cuLaunchKernelEx", launch, "%s, stream=%s%s", f->name.c_str(),
          hex(config->stream).c_str(), attributes.c_str()))
    return result;
  record(launch);
  return 0;
}

namespace {

CUresult allocate(unsigned long long *pointer, size_t bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.allocations;
  s.lastAllocationBytes = bytes;
  s.lastAllocation = s.nextAddress;
  s.nextAddress += (bytes + 0xfffff) & ~size_t(0xfffff);
  *pointer = s.lastAllocation;
  return 0;
}

void countFree() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.frees;
}

} // namespace

EXPORT CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  COUNT_CALL();
  if (CUresult result = CALL("cuMemAlloc", "%zu", bytes))
    return result;
  allocate(pointer, bytes);
  logResult(*pointer);
  return 0;
}

EXPORT CUresult cuMemFree_v2(unsigned long long pointer) {
  COUNT_CALL();
  if (CUresult result = CALL("cuMemFree", "%s", hex(pointer).c_str()))
    return result;
  countFree();
  return 0;
}

EXPORT CUresult cuMemAllocAsync(unsigned long long *pointer, size_t bytes,
                                void *stream) {
  COUNT_CALL();
  if (CUresult result =
          CALL("cuMemAllocAsync", "%zu, stream=%s", bytes, hex(stream).c_str()))
    return result;
  allocate(pointer, bytes);
  logResult(*pointer);
  return 0;
}

// Memory pools: one per device with pools (device 0), its release
// threshold 0 as CUDA's default pool's.
namespace {
uint64_t poolThreshold = 0;
void *const kPool = reinterpret_cast<void *>(0x9001);
} // namespace

EXPORT CUresult cuDeviceGetMemPool(void **pool, int device) {
  COUNT_CALL();
  if (CUresult result = CALL("cuDeviceGetMemPool", "device=%d", device))
    return result;
  if (device != 0)
    return 801; // CUDA_ERROR_NOT_SUPPORTED
  *pool = kPool;
  return 0;
}

EXPORT CUresult cuMemPoolGetAttribute(void *pool, int attribute, void *value) {
  COUNT_CALL();
  if (CUresult result = CALL("cuMemPoolGetAttribute", "%d", attribute))
    return result;
  if (pool != kPool || attribute != 4) // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
    return 1;
  std::memcpy(value, &poolThreshold, sizeof poolThreshold);
  return 0;
}

EXPORT CUresult cuMemPoolSetAttribute(void *pool, int attribute, void *value) {
  COUNT_CALL();
  uint64_t v = 0;
  std::memcpy(&v, value, sizeof v);
  if (CUresult result = CALL("cuMemPoolSetAttribute", "%d, %#llx", attribute,
                             static_cast<unsigned long long>(v)))
    return result;
  if (pool != kPool || attribute != 4)
    return 1;
  poolThreshold = v;
  return 0;
}

EXPORT uint64_t fakeCudaPoolReleaseThreshold() { return poolThreshold; }

EXPORT CUresult cuMemFreeAsync(unsigned long long pointer, void *stream) {
  COUNT_CALL();
  if (CUresult result = CALL("cuMemFreeAsync", "%s, stream=%s",
                             hex(pointer).c_str(), hex(stream).c_str()))
    return result;
  countFree();
  return 0;
}

EXPORT CUresult cuMemcpyAsync(unsigned long long dst, unsigned long long src,
                              size_t bytes, void *stream) {
  COUNT_CALL();
  return CALL("cuMemcpyAsync", "%s, %s, %zu, stream=%s", hex(dst).c_str(),
              hex(src).c_str(), bytes, hex(stream).c_str());
}

EXPORT CUresult cuMemsetD32Async(unsigned long long dst, unsigned value,
                                 size_t count, void *stream) {
  COUNT_CALL();
  return CALL("cuMemsetD32Async", "%s, %#x, %zu, stream=%s", hex(dst).c_str(),
              value, count, hex(stream).c_str());
}

EXPORT CUresult cuMemsetD16Async(unsigned long long dst, unsigned short value,
                                 size_t count, void *stream) {
  COUNT_CALL();
  return CALL("cuMemsetD16Async", "%s, %#x, %zu, stream=%s", hex(dst).c_str(),
              value, count, hex(stream).c_str());
}

EXPORT CUresult cuStreamSynchronize(void *stream) {
  COUNT_CALL();
  if (CUresult result =
          CALL("cuStreamSynchronize", "stream=%s", hex(stream).c_str()))
    return result;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.streamSyncs;
  return 0;
}

EXPORT CUresult cuEventCreate(void **event, unsigned flags) {
  COUNT_CALL();
  if (CUresult result = CALL("cuEventCreate", "flags=%u", flags))
    return result;
  *event = new Event{flags};
  logResult(*event);
  return 0;
}

EXPORT CUresult cuEventDestroy_v2(void *event) {
  COUNT_CALL();
  if (CUresult result = CALL("cuEventDestroy", "%s", hex(event).c_str()))
    return result;
  delete static_cast<Event *>(event);
  return 0;
}

EXPORT CUresult cuEventRecord(void *event, void *stream) {
  COUNT_CALL();
  return CALL("cuEventRecord", "%s, stream=%s", hex(event).c_str(),
              hex(stream).c_str());
}

EXPORT CUresult cuEventSynchronize(void *event) {
  COUNT_CALL();
  return CALL("cuEventSynchronize", "%s", hex(event).c_str());
}

EXPORT CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  COUNT_CALL();
  return CALL("cuStreamWaitEvent", "stream=%s, %s, flags=%u",
              hex(stream).c_str(), hex(event).c_str(), flags);
}

#ifndef FAKE_CUDA_NO_TENSOR_MAPS
namespace {

/// Bytes per element of a CUtensorMapDataType up to TFLOAT32_FTZ (12);
/// 0 for the packed types and unknown values.
int tensorMapElementBytes(int dataType) {
  static const int bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return dataType >= 0 && dataType < 13 ? bytes[dataType] : 0;
}

/// Why cuTensorMapEncodeTiled's documented requirements (cuda.h) reject
/// these arguments, for the packed types excepted (never passed); null
/// when they hold.
const char *tensorMapProblem(const void *map, int dataType, unsigned rank,
                             const void *address, const uint64_t *dims,
                             const uint64_t *strides, const unsigned *box,
                             const unsigned *elementStrides, int interleave,
                             int swizzle, int l2, int oob) {
  int esz = tensorMapElementBytes(dataType);
  if (reinterpret_cast<uintptr_t>(map) % 64)
    return "map not 64-byte aligned";
  if (!esz)
    return "data type";
  if (rank < 1 || rank > 5 || (interleave != 0 && rank < 3))
    return "rank";
  if (reinterpret_cast<uintptr_t>(address) % (interleave == 2 ? 32 : 16))
    return "address alignment";
  if (reinterpret_cast<uintptr_t>(address) == FAKE_REFUSED_TENSOR)
    return "FAKE_REFUSED_TENSOR";
  for (unsigned i = 0; i < rank; ++i)
    if (dims[i] == 0 || dims[i] > (uint64_t(1) << 32))
      return "global dim";
  for (unsigned i = 0; i + 1 < rank; ++i)
    if (strides[i] % (interleave == 2 ? 32 : 16) ||
        strides[i] >= (uint64_t(1) << 40))
      return "global stride";
  for (unsigned i = 0; i < rank; ++i)
    if (box[i] == 0 || box[i] > 256 || elementStrides[i] == 0 ||
        elementStrides[i] > 8)
      return "box or element stride";
  if (interleave < 0 || interleave > 2 || swizzle < 0 || swizzle > 6 ||
      l2 < 0 || l2 > 3 || oob < 0 || oob > 1)
    return "enum value";
  if (interleave == 0) {
    unsigned inner = box[0] * esz;
    static const unsigned span[] = {0, 32, 64, 128, 128, 128, 128};
    if (inner % 16 || (swizzle != 0 && inner > span[swizzle]))
      return "inner box bytes";
  } else if (interleave == 2 && swizzle != 1) {
    return "32-byte interleave without 32-byte swizzle";
  }
  return nullptr;
}

std::string dims(const uint64_t *values, unsigned n) {
  std::string text;
  for (unsigned i = 0; i < n; ++i)
    text += (i ? "x" : "") + std::to_string(values[i]);
  return text;
}
std::string dims(const unsigned *values, unsigned n) {
  std::string text;
  for (unsigned i = 0; i < n; ++i)
    text += (i ? "x" : "") + std::to_string(values[i]);
  return text;
}

/// Fills an encoded map with fakeTensorMapWord of its tensor's address, the
/// bytes a launch must pass on unchanged.
void writeFakeMap(void *map, const void *address) {
  uint64_t words[16];
  for (int q = 0; q < 16; ++q)
    words[q] = fakeTensorMapWord(reinterpret_cast<uintptr_t>(address), q);
  std::memcpy(map, words, sizeof words);
}

/// Appends `text` to the last logged call.
void appendToLastCall(const std::string &text) {
  State &s = state();
  if (isQuiet())
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.calls.empty())
    s.calls.back() += text;
}

} // namespace

/// Checks the arguments as the driver documents and logs them, e.g.
/// "cuTensorMapEncodeTiled(type=6, rank=3, addr=0x20000, dim=30x100x1,
/// stride=64x6400, box=64x128x1, elementStride=1x1x1, interleave=0,
/// swizzle=3, l2=3, oob=0)"; fills the map with fakeTensorMapWord.
/// Built without it (FAKE_CUDA_NO_TENSOR_MAPS), the fake is a driver
/// before CUDA 12.
EXPORT CUresult cuTensorMapEncodeTiled(
    void *map, int dataType, unsigned rank, void *address, const uint64_t *dim,
    const uint64_t *stride, const unsigned *box, const unsigned *elementStride,
    int interleave, int swizzle, int l2, int oob) {
  COUNT_CALL();
  bool ranked = rank >= 1 && rank <= 5;
  unsigned n = ranked ? rank : 0;
  if (CUresult result =
          CALL("cuTensorMapEncodeTiled",
               "type=%d, rank=%u, addr=%s, dim=%s, stride=%s, box=%s, "
               "elementStride=%s, interleave=%d, swizzle=%d, l2=%d, oob=%d",
               dataType, rank, hex(address).c_str(), dims(dim, n).c_str(),
               dims(stride, n ? n - 1 : 0).c_str(), dims(box, n).c_str(),
               dims(elementStride, n).c_str(), interleave, swizzle, l2, oob))
    return result;
  if (const char *problem =
          tensorMapProblem(map, dataType, rank, address, dim, stride, box,
                           elementStride, interleave, swizzle, l2, oob)) {
    appendToLastCall(std::string(" -> 1 (") + problem + ")");
    return 1; // CUDA_ERROR_INVALID_VALUE
  }
  writeFakeMap(map, address);
  return 0;
}

/// As cuTensorMapEncodeTiled, for the im2col form: checks the arguments as
/// cuda.h documents them (rank 3 to 5; corners inside the rank's range,
/// a box of non-zero extent; at most 256 channels and 1024 pixels) and
/// logs them, e.g. "cuTensorMapEncodeIm2col(type=6, rank=4, addr=0x20000,
/// dim=64x11x9x2, stride=128x1408x12672, lower=-1x-1, upper=-1x-1,
/// channels=64, pixels=128, elementStride=1x2x1x1, interleave=0,
/// swizzle=3, l2=3, oob=0)".
EXPORT CUresult cuTensorMapEncodeIm2col(
    void *map, int dataType, unsigned rank, void *address, const uint64_t *dim,
    const uint64_t *stride, const int *lower, const int *upper,
    unsigned channels, unsigned pixels, const unsigned *elementStride,
    int interleave, int swizzle, int l2, int oob) {
  COUNT_CALL();
  bool ranked = rank >= 3 && rank <= 5;
  unsigned n = ranked ? rank : 0, spatial = ranked ? rank - 2 : 0;
  auto corners = [&](const int *values) {
    std::string text;
    for (unsigned i = 0; i < spatial; ++i)
      text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
  };
  if (CUresult result = CALL(
          "cuTensorMapEncodeIm2col",
          "type=%d, rank=%u, addr=%s, dim=%s, stride=%s, lower=%s, upper=%s, "
          "channels=%u, pixels=%u, elementStride=%s, interleave=%d, "
          "swizzle=%d, l2=%d, oob=%d",
          dataType, rank, hex(address).c_str(), dims(dim, n).c_str(),
          dims(stride, n ? n - 1 : 0).c_str(), corners(lower).c_str(),
          corners(upper).c_str(), channels, pixels,
          dims(elementStride, n).c_str(), interleave, swizzle, l2, oob))
    return result;
  // The box of the tiled check: channels x pixels (then ones).
  unsigned box[5] = {channels, pixels > 256 ? 256 : pixels, 1, 1, 1};
  const char *problem =
      !ranked ? "rank"
              : tensorMapProblem(map, dataType, rank, address, dim, stride, box,
                                 elementStride, interleave, swizzle, l2, oob);
  if (!problem &&
      (channels == 0 || channels > 256 || pixels == 0 || pixels > 1024))
    problem = "channels or pixels";
  int limit = rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4;
  for (unsigned i = 0; !problem && i < spatial; ++i) {
    if (lower[i] < -limit || lower[i] >= limit || upper[i] < -limit ||
        upper[i] >= limit)
      problem = "corner range";
    // The box spans dim - 1 + upper - lower + 1 positions.
    else if (int64_t(dim[i + 1]) + upper[i] - lower[i] < 1)
      problem = "empty bounding box";
  }
  if (problem) {
    appendToLastCall(std::string(" -> 1 (") + problem + ")");
    return 1; // CUDA_ERROR_INVALID_VALUE
  }
  writeFakeMap(map, address);
  return 0;
}
#endif

EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  COUNT_CALL();
  switch (error) {
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return 0;
  case 218:
    *name = "CUDA_ERROR_INVALID_PTX";
    return 0;
  }
  return 1;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  COUNT_CALL();
  switch (error) {
  case 1:
    *text = "invalid argument";
    return 0;
  case 2:
    *text = "out of memory";
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

EXPORT const char *fakeCudaCalls() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.callText.clear();
  for (const std::string &line : s.calls)
    s.callText += line + "\n";
  return s.callText.c_str();
}

EXPORT void fakeCudaClearCalls() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().calls.clear();
}

EXPORT void fakeCudaFailNext(const char *name, int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().failName = name;
  state().failResult = result;
  state().failArmed.store(true, std::memory_order_release);
}

EXPORT void fakeCudaSetQuiet(int quiet) {
  state().quiet.store(quiet != 0, std::memory_order_relaxed);
}

EXPORT long fakeCudaDriverCalls() {
  long total = 0;
  for (CallCounter *c = counters().load(); c; c = c->next)
    total += c->count.load(std::memory_order_relaxed);
  return total;
}

EXPORT const char *fakeCudaDriverCallCounts() {
  // Sorted by name, so that two runs' texts compare line by line.
  std::vector<std::pair<std::string, long>> counts;
  for (CallCounter *c = counters().load(); c; c = c->next)
    if (long n = c->count.load(std::memory_order_relaxed))
      counts.emplace_back(c->name, n);
  std::sort(counts.begin(), counts.end());
  static thread_local std::string text;
  text.clear();
  for (const auto &[name, n] : counts)
    text += name + " " + std::to_string(n) + "\n";
  return text.c_str();
}

EXPORT void fakeCudaClearDriverCalls() {
  for (CallCounter *c = counters().load(); c; c = c->next)
    c->count.store(0, std::memory_order_relaxed);
}
