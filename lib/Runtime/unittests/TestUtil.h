//===- TestUtil.h - Minimal checks for the runtime unit tests ---*- C++ -*-===//
//
// A few macros instead of a test framework, so that the tests build on
// machines with nothing but a C++ compiler. Not thread-safe: check results
// of threads after joining them.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_RUNTIME_UNITTESTS_TESTUTIL_H
#define ISAAC_RUNTIME_UNITTESTS_TESTUTIL_H

#include "isaac/Runtime/Runtime.h"

#include <string>

extern int testChecks;
extern int testFailures;
void testFailed(const char *file, int line, const std::string &what);

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++testChecks;                                                              \
    if (!(cond))                                                               \
      testFailed(__FILE__, __LINE__, #cond);                                   \
  } while (0)

/// Checks the status of `expr` and that the thread's error message contains
/// `substring` (any message when it is empty).
#define CHECK_STATUS(expr, expected, substring)                                \
  do {                                                                         \
    ++testChecks;                                                              \
    int status_ = (expr);                                                      \
    std::string message_ = isaacGetLastError();                                \
    if (status_ != (expected))                                                 \
      testFailed(__FILE__, __LINE__,                                           \
                 std::string(#expr) + " returned " +                           \
                     isaacStatusName(status_) + ", expected " +                \
                     isaacStatusName(expected) + "; message: " + message_);    \
    else if ((expected) != ISAAC_SUCCESS &&                                    \
             message_.find(substring) == std::string::npos)                    \
      testFailed(__FILE__, __LINE__,                                           \
                 std::string(#expr) + ": message '" + message_ + "' lacks '" + \
                     (substring) + "'");                                       \
  } while (0)

/// Tests of the launch protocol against the fake driver at `path`, which
/// has cuTensorMapEncodeTiled (CUDA 12) or not.
void runFakeDriverTests(const char *path, bool hasTensorMaps);

/// Tests of fused-epilogue names, headers and arguments (no driver needed).
void runEpilogueTests();

/// Tests of the f16, bf16, f16f32, bf16f32 and tf32 types in names, headers
/// and argument checks (no driver needed).
void runTypeTests();

/// Tests of convolution names, headers and argument checks (no driver).
void runConvTests();

struct FakeCudaApi;
/// Tests of convolution launches against the fake driver.
void runConvLaunchTests(const FakeCudaApi &fake);

/// Tests of the mgpu* functions against the fake driver, whose API and
/// cuCtxSetCurrent runFakeDriverTests has looked up.
void runMgpuTests(const FakeCudaApi &fake, int (*setCurrent)(void *ctx));

/// Launches of those types against the fake driver.
void runTypeLaunchTests(const FakeCudaApi &fake);

/// Launches of wgmma GEMM kernels (their tensor maps) against the fake
/// driver, which has cuTensorMapEncodeTiled or not.
void runTmaLaunchTests(const FakeCudaApi &fake, bool hasTensorMaps);

/// The mgpu* functions without a usable driver (missing, or the stub whose
/// cuInit fails with `expectedStatus`).
void runMgpuWithoutDriverTests(int expectedStatus);

#endif // ISAAC_RUNTIME_UNITTESTS_TESTUTIL_H
