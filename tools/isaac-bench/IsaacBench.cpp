//===- IsaacBench.cpp - Check and benchmark isaac GEMM kernels ------------===//
//
// Loads the PTX kernels of a ptx-dir, launches them through libisaac_runtime
// and compares them with an fp64 reference, cuBLAS and cuBLASLt. See
// README.md and --help.
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"
#include "KernelDir.h"
#include "Modes.h"
#include "Options.h"

#include "isaac/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace bench;

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);

  // The kernels first: a malformed fused kernel is refused before the GPU
  // is touched, and --list and --check-epilogue need no GPU at all.
  std::vector<KernelFile> kernels;
  std::string error;
  if (!loadKernelDir(options.ptxDir, options.kernel, kernels, error)) {
    std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
    return 2;
  }
  // Convolution kernels run in --conv mode only, GEMM kernels in the
  // others: a directory may hold both.
  size_t convKernels = static_cast<size_t>(
      std::count_if(kernels.begin(), kernels.end(),
                    [](const KernelFile &k) { return k.isConv(); }));
  // With a candidate list, --conv also keeps GEMM kernels: the compiler
  // turns 1x1 stride-1 convolutions into GEMMs (isaac-conv-to-gemm), whose
  // kernels the list may name for them.
  bool gemmsForConv =
      options.conv && !options.candidates.empty() && !options.convSweep;
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [&](const KernelFile &k) {
                                 if (gemmsForConv && !k.isConv())
                                   return false;
                                 return k.isConv() != options.conv;
                               }),
                kernels.end());
  if (!options.conv && convKernels)
    std::fprintf(stderr,
                 "isaac-bench: note: %zu convolution kernels in %s are left "
                 "to --conv\n",
                 convKernels, options.ptxDir.c_str());
  if (options.list)
    return options.conv ? runConvList(options, kernels)
                        : runList(options, kernels);
  if (!options.epilogueValues.empty())
    return runEpilogueValues(options, kernels);
  if (kernels.empty()) {
    std::fprintf(stderr, "isaac-bench: no usable %skernels%s%s in %s\n",
                 options.conv ? "convolution " : "",
                 options.kernel.empty() ? "" : " named ",
                 options.kernel.c_str(), options.ptxDir.c_str());
    return 2;
  }

  CUDA_CHECK(cudaSetDevice(options.device));
  // Creates the device's primary context and makes it current. The runtime
  // library's driver calls use the current context, so they share it (and
  // the cudaMalloc'd pointers) with the CUDA runtime API used here.
  CUDA_CHECK(cudaFree(nullptr));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, options.device));
  if (isaacInit() != ISAAC_SUCCESS)
    fatal(__FILE__, __LINE__,
          std::string("isaacInit failed: ") + isaacGetLastError());

  std::string chip =
      "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  std::printf("GPU %d: %s (%s, %d SMs, L2 %.1f MiB)\n", options.device,
              prop.name, chip.c_str(), prop.multiProcessorCount,
              prop.l2CacheSize / 1048576.0);
  if (!options.sweep && options.collectSamples.empty() && !options.conv)
    std::printf("roofline: min(peak, bandwidth * intensity) with peak %.1f "
                "TFLOPS f32, %.1f TFLOPS f64, %.1f TFLOPS f16/bf16, %.1f "
                "TFLOPS tf32, bandwidth %.0f GB/s; cuBLAS and cuBLASLt run "
                "f32 and f64 exactly (no TF32), f16/bf16 with f32 "
                "accumulation and tf32 in CUBLAS_COMPUTE_32F_FAST_TF32; "
                "times are medians of %d runs with %d warm-up runs\n",
                options.peakTflops[0], options.peakTflops[1],
                options.peakTflops[2], options.peakTflops[3],
                options.bandwidthGBs, options.reps, options.warmup);

  // sm_90a (arch-specific features: wgmma) is compiled for exactly the
  // chips of compute capability 9.0, which the device reports as sm_90.
  auto runsOn = [&](std::string k) {
    if (k.size() > 1 && k.back() == 'a')
      k.pop_back();
    return k == chip;
  };
  for (const KernelFile &kernel : kernels)
    if (kernel.info.chip[0] && !runsOn(kernel.info.chip))
      std::fprintf(stderr,
                   "isaac-bench: warning: %s was compiled for %s, the GPU is "
                   "%s\n",
                   kernel.info.name, kernel.info.chip, chip.c_str());
  // A kernel assembled ahead of time by ptxas (DIR/<kernel>.cubin) is
  // loaded from that image: the runtime then finds it by its PTX and skips
  // the driver's JIT, which otherwise compiles kernels one at a time.
  size_t images = 0;
  for (const KernelFile &kernel : kernels) {
    std::string cubinPath =
        kernel.path.substr(0, kernel.path.size() - 4) + ".cubin";
    std::ifstream in(cubinPath, std::ios::binary);
    if (!in)
      continue;
    std::string image((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
    isaacModule module;
    if (isaacModuleLoadImage(kernel.ptx.c_str(), image.data(), image.size(),
                             &module) != ISAAC_SUCCESS) {
      std::fprintf(stderr, "isaac-bench: %s: %s\n", cubinPath.c_str(),
                   isaacGetLastError());
      isaacClearLastError();
      continue;
    }
    ++images;
  }
  std::printf("%zu kernels from %s (%zu from ptxas images)\n", kernels.size(),
              options.ptxDir.c_str(), images);

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  DeviceInfo device;
  device.name = prop.name;
  device.chip = chip;
  device.l2Bytes = static_cast<size_t>(prop.l2CacheSize);
  int status = options.conv ? runConv(options, kernels, device, stream)
               : !options.collectSamples.empty()
                   ? runCollect(options, kernels, stream)
               : options.sweep ? runSweep(options, kernels, stream)
               : options.epilogueOverhead
                   ? runEpilogueOverhead(options, kernels, device, stream)
                   : runBench(options, kernels, device, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return status;
}
