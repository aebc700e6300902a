//===- ModuleCache.cpp - Loaded modules, kernels and workspaces -----------===//

#include "ModuleCache.h"
#include "Error.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace isaac::runtime {

namespace {

/// Split-K workspace memory of one stream. Streams get separate workspaces
/// because kernels on different streams may run at the same time.
struct Workspace {
  CUdeviceptr pointer = 0;
  size_t bytes = 0;
};

struct ContextCache {
  std::vector<std::unique_ptr<isaacModule_st>> modules;
  std::unordered_multimap<uint64_t, isaacModule_st *> byHash;
  /// Compiled code passes the same string constant on every call; looking
  /// it up by address first avoids hashing the whole PTX per launch. Hits
  /// are confirmed against the stored header (samePtxPrefix).
  std::unordered_map<const char *, isaacModule_st *> byAddress;
  std::unordered_map<uint64_t, Workspace> workspaces;
  /// Zero at rest (getWorkspace's `zeroed`).
  std::unordered_map<uint64_t, Workspace> zeroedWorkspaces;
};

/// Keyed by the driver's context id (see getCurrentContext).
std::unordered_map<uint64_t, ContextCache> &contextCaches() {
  // Leaked on purpose: modules must outlive other libraries' static
  // destructors that may still launch kernels.
  static auto *caches = new std::unordered_map<uint64_t, ContextCache>;
  return *caches;
}

/// A fast 64-bit hash over 8-byte words; PTX is not adversarial, and
/// collisions only cost a comparison.
uint64_t hashText(const char *text, size_t length) {
  uint64_t hash = 0x9e3779b97f4a7c15ull ^ length;
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    std::memcpy(&word, text + i, 8);
    hash = (hash ^ word) * 0xff51afd7ed558ccdull;
    hash ^= hash >> 29;
  }
  for (; i < length; ++i)
    hash = (hash ^ static_cast<unsigned char>(text[i])) * 0x100000001b3ull;
  return hash;
}

std::string trimmedLog(const std::vector<char> &log, size_t size) {
  size = std::min(size, log.size());
  std::string text(log.data(), strnlen(log.data(), size));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

} // namespace

isaacStatus compileModule(const Driver &d, const void *image,
                          const std::string &what, int optLevel,
                          CUmodule &module) {
  constexpr size_t kLogSize = 16 * 1024;
  std::vector<char> infoLog(kLogSize, '\0'), errorLog(kLogSize, '\0');
  int options[] = {CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_LOG_VERBOSE,      CU_JIT_OPTIMIZATION_LEVEL};
  // The size options are passed by value in the pointer and overwritten
  // with the number of bytes the JIT wrote.
  void *values[] = {infoLog.data(),
                    reinterpret_cast<void *>(kLogSize),
                    errorLog.data(),
                    reinterpret_cast<void *>(kLogSize),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(0)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  // The optimization level, when given, is the last option.
  unsigned numOptions = sizeof(options) / sizeof(options[0]);
  if (optLevel < 0 || optLevel > 4)
    --numOptions;
  CUresult result =
      d.cuModuleLoadDataEx(&module, image, numOptions, options, values);
  std::string info =
      trimmedLog(infoLog, reinterpret_cast<uintptr_t>(values[1]));
  if (result == CUDA_SUCCESS) {
    if (isVerbose() && !info.empty())
      std::fprintf(stderr, "isaac runtime: JIT info log:\n%s\n", info.c_str());
    return ISAAC_SUCCESS;
  }
  std::string error =
      trimmedLog(errorLog, reinterpret_cast<uintptr_t>(values[3]));
  std::string detail = what + "; JIT error log: " +
                       (error.empty() ? std::string("(empty)") : error);
  if (!info.empty())
    detail += "; JIT info log: " + info;
  isaacStatus status = result == CUDA_ERROR_OUT_OF_MEMORY
                           ? ISAAC_ERROR_OUT_OF_MEMORY
                           : ISAAC_ERROR_JIT;
  return cudaFailure(result, "cuModuleLoadDataEx", detail.c_str(), status);
}

std::mutex &cacheMutex() {
  static auto *mutex = new std::mutex;
  return *mutex;
}

isaacStatus loadModule(const char *ptx, isaacModule_st *&module,
                       const void *image, size_t imageSize) {
  if (!ptx)
    return setError(ISAAC_ERROR_INVALID_VALUE, "PTX text is NULL");
  CUcontext ctx = nullptr;
  uint64_t ctxId = 0;
  if (isaacStatus status = getCurrentContext(&ctx, &ctxId))
    return status;
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;

  std::lock_guard<std::mutex> lock(cacheMutex());
  ContextCache &cache = contextCaches()[ctxId];
  auto byAddress = cache.byAddress.find(ptx);
  if (byAddress != cache.byAddress.end() &&
      samePtxPrefix(byAddress->second->ptx, ptx)) {
    module = byAddress->second;
    return ISAAC_SUCCESS;
  }
  size_t length = std::strlen(ptx);
  uint64_t hash = hashText(ptx, length);
  auto range = cache.byHash.equal_range(hash);
  for (auto it = range.first; it != range.second; ++it) {
    const std::string &cached = it->second->ptx;
    if (cached.size() == length &&
        std::memcmp(cached.data(), ptx, length) == 0) {
      module = it->second;
      cache.byAddress[ptx] = module;
      return ISAAC_SUCCESS;
    }
  }

  // Compiled under the mutex: a second thread asking for the same PTX waits
  // for this compilation instead of duplicating it. A precompiled image of
  // this PTX (ptxas output) skips the JIT.
  CUmodule loaded = nullptr;
  if (image) {
    if (imageSize < 4)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      ("module image of " + std::to_string(imageSize) +
                       " bytes is too small to be a cubin or fatbin")
                          .c_str());
    CUresult result =
        d->cuModuleLoadDataEx(&loaded, image, 0, nullptr, nullptr);
    if (result != CUDA_SUCCESS)
      return cudaFailure(result, "cuModuleLoadDataEx",
                         "precompiled module image", ISAAC_ERROR_JIT);
  } else if (isaacStatus status = compileModule(
                 *d, ptx, "PTX of " + std::to_string(length) + " bytes",
                 /*optLevel=*/-1, loaded)) {
    return status;
  }
  auto entry = std::make_unique<isaacModule_st>();
  entry->module = loaded;
  entry->context = ctx;
  entry->contextId = ctxId;
  entry->ptx.assign(ptx, length);
  module = entry.get();
  cache.modules.push_back(std::move(entry));
  cache.byHash.emplace(hash, module);
  cache.byAddress[ptx] = module;
  return ISAAC_SUCCESS;
}

isaacStatus getFunction(isaacModule_st &module, const char *name,
                        isaacFunction_st *&function) {
  if (!name)
    return setError(ISAAC_ERROR_INVALID_VALUE, "kernel name is NULL");
  auto it = module.functions.find(name);
  if (it != module.functions.end()) {
    function = it->second.get();
    return ISAAC_SUCCESS;
  }
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;
  CUfunction handle = nullptr;
  if (CUresult result = d->cuModuleGetFunction(&handle, module.module, name)) {
    constexpr CUresult kNotFound = 500;
    std::string detail = std::string("looking up kernel '") + name + "'";
    if (result == kNotFound)
      return setError(ISAAC_ERROR_KERNEL_NOT_FOUND,
                      "the module has no kernel named '%s' "
                      "(cuModuleGetFunction: CUDA_ERROR_NOT_FOUND)",
                      name);
    return cudaFailure(result, "cuModuleGetFunction", detail.c_str());
  }
  int maxThreads = 0;
  if (CUresult result = d->cuFuncGetAttribute(
          &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, handle))
    return cudaFailure(result, "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)",
                       name);
  auto entry = std::make_unique<isaacFunction_st>();
  entry->function = handle;
  entry->module = &module;
  entry->name = name;
  entry->maxThreadsPerBlock = maxThreads;
  function = entry.get();
  module.functions.emplace(name, std::move(entry));
  return ISAAC_SUCCESS;
}

isaacStatus getWorkspace(uint64_t ctxId, CUstream stream, size_t bytes,
                         CUdeviceptr &workspace, bool zeroed) {
  const Driver *d = nullptr;
  if (isaacStatus status = getDriver(d))
    return status;
  // Stream handles can be reused after cuStreamDestroy; ids cannot. A
  // driver that cannot name the stream's id falls back to the handle.
  unsigned long long streamId = reinterpret_cast<uintptr_t>(stream);
  if (d->cuStreamGetId) {
    unsigned long long id = 0;
    if (d->cuStreamGetId(stream, &id) == CUDA_SUCCESS)
      streamId = id;
  }
  ContextCache &cache = contextCaches()[ctxId];
  Workspace &ws = (zeroed ? cache.zeroedWorkspaces
                          : cache.workspaces)[streamId];
  if (ws.bytes >= bytes) {
    workspace = ws.pointer;
    return ISAAC_SUCCESS;
  }
  if (ws.pointer) {
    // Kernels enqueued earlier on this stream may still read the old
    // buffer; growth is rare, so waiting for them is cheap overall.
    if (CUresult result = d->cuStreamSynchronize(stream))
      return cudaFailure(result, "cuStreamSynchronize",
                         "before growing the split-K workspace");
    if (CUresult result = d->cuMemFree(ws.pointer))
      return cudaFailure(result, "cuMemFree", "old split-K workspace");
    ws = Workspace();
  }
  // Rounded up so that a series of slightly larger problems does not
  // reallocate every time.
  constexpr size_t kGranule = 2u << 20;
  size_t rounded = (bytes + kGranule - 1) / kGranule * kGranule;
  CUdeviceptr pointer = 0;
  if (CUresult result = d->cuMemAlloc(&pointer, rounded)) {
    std::string detail =
        "split-K workspace of " + std::to_string(rounded) + " bytes";
    constexpr CUresult kOutOfMemory = 2;
    return cudaFailure(result, "cuMemAlloc", detail.c_str(),
                       result == kOutOfMemory ? ISAAC_ERROR_OUT_OF_MEMORY
                                              : ISAAC_ERROR_CUDA);
  }
  // Cleared in stream order, before the kernels that rely on it.
  if (zeroed)
    if (CUresult result =
            d->cuMemsetD32Async(pointer, 0, rounded / 4, stream)) {
      d->cuMemFree(pointer);
      return cudaFailure(result, "cuMemsetD32Async",
                         "clearing the split-K partial sums and counters");
    }
  ws.pointer = pointer;
  ws.bytes = rounded;
  workspace = pointer;
  return ISAAC_SUCCESS;
}

} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" isaacStatus isaacModuleLoad(const char *ptx, isaacModule *out) {
  return guardExceptions("isaacModuleLoad", [&] {
    if (!out)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacModuleLoad: output pointer is NULL");
    isaacModule_st *module = nullptr;
    if (isaacStatus status = loadModule(ptx, module))
      return addErrorContext(status, "isaacModuleLoad");
    *out = module;
    return ISAAC_SUCCESS;
  });
}

extern "C" isaacStatus isaacModuleLoadImage(const char *ptx, const void *image,
                                            size_t imageSize,
                                            isaacModule *out) {
  return guardExceptions("isaacModuleLoadImage", [&] {
    if (!out || !image)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacModuleLoadImage: image or output pointer is NULL");
    isaacModule_st *module = nullptr;
    if (isaacStatus status = loadModule(ptx, module, image, imageSize))
      return addErrorContext(status, "isaacModuleLoadImage");
    *out = module;
    return ISAAC_SUCCESS;
  });
}

extern "C" isaacStatus isaacGetFunction(isaacModule module, const char *name,
                                        isaacFunction *out) {
  return guardExceptions("isaacGetFunction", [&] {
    if (!module || !out)
      return setError(ISAAC_ERROR_INVALID_VALUE,
                      "isaacGetFunction: module or output pointer is NULL");
    std::lock_guard<std::mutex> lock(cacheMutex());
    isaacFunction_st *function = nullptr;
    if (isaacStatus status = getFunction(*module, name, function))
      return addErrorContext(status, "isaacGetFunction");
    *out = function;
    return ISAAC_SUCCESS;
  });
}
