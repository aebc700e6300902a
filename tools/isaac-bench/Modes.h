//===- Modes.h - The benchmark and sweep modes of isaac-bench ---*- C++ -*-===//

#ifndef ISAAC_BENCH_MODES_H
#define ISAAC_BENCH_MODES_H

#include "KernelDir.h"
#include "Options.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace bench {

struct DeviceInfo {
  std::string name;
  std::string chip; // e.g. "sm_90"
  size_t l2Bytes = 0;
};

/// The kernels that may run `p`: those of its dtype and layout, plain and
/// fused, restricted to the ones --candidates lists for its M, N, K (the
/// first --topk of them) when a list is given.
std::vector<const KernelFile *>
problemCandidates(const Options &options,
                  const std::vector<KernelFile> &kernels, const Problem &p);

/// Checks and times the problems of `options`; returns the exit status.
int runBench(const Options &options, const std::vector<KernelFile> &kernels,
             const DeviceInfo &device, cudaStream_t stream);

/// Runs the correctness sweep over every kernel; returns the exit status.
int runSweep(const Options &options, const std::vector<KernelFile> &kernels,
             cudaStream_t stream);

/// Times kernels on the inputs of a samples file for the tuning dataset;
/// returns the exit status.
int runCollect(const Options &options, const std::vector<KernelFile> &kernels,
               cudaStream_t stream);

/// Times, per problem, each plain candidate kernel and every fused kernel
/// of the same configuration (--epilogue-overhead); returns the exit status.
int runEpilogueOverhead(const Options &options,
                        const std::vector<KernelFile> &kernels,
                        const DeviceInfo &device, cudaStream_t stream);

/// Checks and times the convolution kernels of `kernels` against the fp64
/// reference and cuDNN (--conv), or runs the convolution sweep
/// (--conv-sweep); returns the exit status. ConvBench.cpp.
int runConv(const Options &options, const std::vector<KernelFile> &kernels,
            const DeviceInfo &device, cudaStream_t stream);

/// Prints the convolution kernels and problems (--conv --list); no GPU.
int runConvList(const Options &options, const std::vector<KernelFile> &kernels);

/// Times the convolution kernels on the inputs of a samples file for the
/// conv tuning dataset (--conv --collect); returns the exit status.
/// ConvCollect.cpp.
int runConvCollect(const Options &options,
                   const std::vector<KernelFile> &kernels,
                   const DeviceInfo &device, cudaStream_t stream);

/// Prints what --conv --collect would do (--list): samples, rows already
/// in the CSV, missing kernels, the columns and the provenance; no GPU.
int runConvCollectList(const Options &options,
                       const std::vector<KernelFile> &kernels);

/// Prints the kernels of the directory (--list); no GPU.
int runList(const Options &options, const std::vector<KernelFile> &kernels);

/// Checks epilogue values computed elsewhere (--check-epilogue); no GPU.
int runEpilogueValues(const Options &options,
                      const std::vector<KernelFile> &kernels);

} // namespace bench

#endif // ISAAC_BENCH_MODES_H
