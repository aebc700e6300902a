//===- CudaCheck.h - Fail loudly on CUDA, cuBLAS and isaac errors -*- C++
//-*-===//
//
// isaac-bench cannot recover from a failed CUDA call (a faulting kernel
// poisons the context), so every call is checked and the first failure ends
// the program with its file:line, the error string, and what the bench was
// doing at the time (which kernel, which shape).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CUDACHECK_H
#define ISAAC_BENCH_CUDACHECK_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

namespace bench {

/// Describes the work in progress for failure messages, e.g. "checking
/// kernel X on 512x512x512".
void setActivity(std::string activity);

[[noreturn]] void fatal(const char *file, int line, const std::string &what);

void checkCuda(cudaError_t error, const char *call, const char *file, int line);
void checkCublas(cublasStatus_t status, const char *call, const char *file,
                 int line);

} // namespace bench

#define CUDA_CHECK(call) ::bench::checkCuda((call), #call, __FILE__, __LINE__)
#define CUBLAS_CHECK(call)                                                     \
  ::bench::checkCublas((call), #call, __FILE__, __LINE__)
/// Checks a kernel launch with <<<>>>, which reports errors only here.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

#endif // ISAAC_BENCH_CUDACHECK_H
