//===- CudaCheck.cpp - Fail loudly on CUDA and cuBLAS errors --------------===//

#include "CudaCheck.h"

#include <cstdio>
#include <cstdlib>

namespace bench {

static std::string currentActivity;

void setActivity(std::string activity) {
  currentActivity = std::move(activity);
}

void fatal(const char *file, int line, const std::string &what) {
  std::fflush(stdout);
  std::fprintf(stderr, "isaac-bench: %s:%d: %s\n", file, line, what.c_str());
  if (!currentActivity.empty())
    std::fprintf(stderr, "isaac-bench: while %s\n", currentActivity.c_str());
  std::exit(2);
}

void checkCuda(cudaError_t error, const char *call, const char *file,
               int line) {
  if (error == cudaSuccess)
    return;
  fatal(file, line,
        std::string(call) + " failed: " + cudaGetErrorName(error) + ": " +
            cudaGetErrorString(error));
}

void checkCublas(cublasStatus_t status, const char *call, const char *file,
                 int line) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return;
  fatal(file, line,
        std::string(call) + " failed: " + cublasGetStatusName(status) + ": " +
            cublasGetStatusString(status));
}

} // namespace bench
