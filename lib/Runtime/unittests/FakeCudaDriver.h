//===- FakeCudaDriver.h - Inspect the fake libcuda --------------*- C++ -*-===//
//
// The fake driver records what the runtime asks of it, so that the launch
// protocol of docs/abi.md (parameter bytes, grids, helper kernels, split-K
// workspace, module cache) and the mgpu* functions of the upstream GPU path
// (streams, events, memory, modules) can be tested on machines without a
// GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H
#define ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H

#include <cstddef>
#include <cstdint>

#define FAKE_MAX_PARAMS 64
/// Bytes of a tensor-map parameter (CUtensorMap) and the most a launch
/// records.
#define FAKE_TENSOR_MAP_BYTES 128
#define FAKE_MAX_TENSOR_MAPS 2
/// The fake GPU's multiprocessors and the blocks of any kernel each holds
/// (cuDeviceGetAttribute, cuOccupancyMaxActiveBlocksPerMultiprocessor): a
/// persistent launch (pt) has at most their product of blocks.
constexpr int kFakeMultiprocessors = 4;
constexpr int kFakeBlocksPerMultiprocessor = 2;

struct FakeLaunch {
  char name[128];
  unsigned grid[3], block[3], sharedMemBytes;
  /// Thread block cluster of cuLaunchKernelEx; 0 for cuLaunchKernel.
  unsigned cluster[3];
  void *stream;
  /// The context current on the launching thread.
  void *context;
  int numParams;
  /// Parameter bytes, as many per parameter as the kernel declares: isaac
  /// kernels without an epilogue by the ABI's types for their name, others
  /// by the `.param` list of their `.entry` in the PTX.
  unsigned char params[FAKE_MAX_PARAMS][8];
  int paramSizes[FAKE_MAX_PARAMS];
  /// All bytes of its FAKE_TENSOR_MAP_BYTES-byte parameters, in order, and
  /// whether the runtime's copy of each was 64-byte aligned (as
  /// cuTensorMapEncodeTiled requires of the map it writes).
  int numTensorMaps;
  unsigned char tensorMaps[FAKE_MAX_TENSOR_MAPS][FAKE_TENSOR_MAP_BYTES];
  bool tensorMapAligned[FAKE_MAX_TENSOR_MAPS];
};

/// Word `q` of the 16 that the fake's cuTensorMapEncodeTiled writes into a
/// map of the tensor at `address`, so that a test can tell which map a
/// launch passed, and that all of its bytes were passed.
inline uint64_t fakeTensorMapWord(uint64_t address, int q) {
  return address ^ (static_cast<uint64_t>(q) * 0x0101010101010101ull);
}

/// Inspection entry points, looked up with dlsym by the test.
struct FakeCudaApi {
  int (*launchCount)();
  const FakeLaunch *(*launch)(int index);
  void (*reset)();
  int (*moduleLoads)();
  int (*allocations)();
  int (*frees)();
  size_t (*lastAllocationBytes)();
  uint64_t (*lastAllocation)();
  int (*streamSyncs)();
  void *(*currentContext)();
  /// Every driver call since the last clearCalls, one per line, e.g.
  /// "cuMemAllocAsync(256, stream=0x1) = 0x7f0000000000".
  const char *(*calls)();
  void (*clearCalls)();
  /// Makes the next call of the entry point `name` return `result`.
  void (*failNext)(const char *name, int result);
  /// Quiet mode (nonzero): calls are counted but neither logged (calls())
  /// nor recorded (launch()), so that a benchmark measures the runtime.
  void (*setQuiet)(int quiet);
  /// Calls of all driver entry points since the last clearDriverCalls, in
  /// every mode; and per entry point, one "name count" a line, by name.
  long (*driverCalls)();
  const char *(*driverCallCounts)();
  void (*clearDriverCalls)();
  /// The release threshold of device 0's memory pool (0 until set).
  uint64_t (*poolReleaseThreshold)();
};

// Names of the markers that make the fake fail, put into PTX text or
// stream handles by the test.
#define FAKE_JIT_FAILURE_MARKER "FAKE_JIT_FAILURE"
#define FAKE_FAILING_STREAM ((void *)0xbad0)
#define FAKE_MAX_THREADS_MARKER "fake.maxthreads=32"
/// cuTensorMapEncodeTiled refuses a tensor at this address.
#define FAKE_REFUSED_TENSOR 0xbad00000u

// Contexts: the primary contexts of the fake's two devices. Device 0 has
// memory pools (cuMemAllocAsync), device 1 has none; any other context
// belongs to device 1.
#define FAKE_PRIMARY_CONTEXT_0 ((void *)0xc0de0000)
#define FAKE_PRIMARY_CONTEXT_1 ((void *)0xc0de2000)

#endif // ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H
