//===- FakeCudaDriver.h - Inspect the fake libcuda --------------*- C++ -*-===//
//
// The fake driver records what the runtime asks of it, so that the launch
// protocol of docs/abi.md (parameter bytes, grids, helper kernels, split-K
// workspace, module cache) can be tested on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H
#define ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H

#include <cstddef>
#include <cstdint>

struct FakeLaunch {
  char name[128];
  unsigned grid[3], block[3], sharedMemBytes;
  void *stream;
  int numParams;
  /// Parameter bytes, as many per parameter as the ABI gives its type.
  unsigned char params[16][8];
  int paramSizes[16];
};

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
};

// Names of the markers that make the fake fail, put into PTX text or
// stream handles by the test.
#define FAKE_JIT_FAILURE_MARKER "FAKE_JIT_FAILURE"
#define FAKE_FAILING_STREAM ((void *)0xbad0)
#define FAKE_MAX_THREADS_MARKER "fake.maxthreads=32"

#endif // ISAAC_RUNTIME_UNITTESTS_FAKECUDADRIVER_H
