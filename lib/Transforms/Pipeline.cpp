//===- Pipeline.cpp - --isaac-pipeline ------------------------------------===//
//
// The whole-program pipeline (docs/architecture.md): a module of functions
// on tensors or memrefs in, the LLVM dialect out, with every kernel as PTX.
//
//   tensors   isaac-fuse-epilogues, isaac-select-config
//   buffers   one-shot-bufferize (identity layouts at function boundaries),
//             results -> out-params, host constants -> device buffers,
//             deallocation
//   kernels   isaac-lower-to-gpu (isaac's GEMMs), isaac-offload (the rest,
//             through upstream linalg -> loops -> gpu.launch), outlining,
//             device memory, NVVM -> PTX
//   host      runtime calls (isaac's launches, upstream's mgpu* ABI), the
//             host check, LLVM dialect
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::isaac;

/// The CUDA toolkit whose libdevice gpu-module-to-binary links (only math
/// functions isaac-legalize-math does not approximate need it): the
/// `cuda-path` option, else $CUDA_HOME, else /usr/local/cuda. Empty when
/// none of them has libdevice; isaac-lower-launch then refuses kernels that
/// call it.
static std::string findCudaToolkit(StringRef option) {
  SmallVector<std::string> candidates;
  if (!option.empty())
    candidates.push_back(option.str());
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back(home);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &dir : candidates) {
    SmallString<256> libdevice(dir);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return dir;
  }
  return "";
}

void mlir::isaac::buildIsaacPipeline(OpPassManager &pm,
                                     const IsaacPipelineOptions &opts) {
  // Tensors: 1x1 stride-1 convolutions become GEMMs, form isaac.gemm ops
  // with their epilogues, choose configurations (once; every later pass
  // reads isaac.config).
  pm.addPass(createIsaacConvToGemm());
  pm.addPass(createIsaacFuseEpilogues());
  IsaacSelectConfigOptions select;
  select.chip = opts.chip;
  select.topk = opts.topk;
  select.modelDir = opts.modelDir;
  select.cache = opts.cache;
  select.tf32 = opts.tf32;
  // GEMMs isaac does not take are reported (and refused under strict) once,
  // by isaac-offload, with the reason.
  select.remarkSkipped = false;
  pm.addPass(createIsaacSelectConfig(select));

  // Buffers: identity layouts at function boundaries, so every operand is a
  // plain row-major device buffer (docs/abi.md); results become out-params
  // the caller allocates.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Folds view chains (expand_shape of collapse_shape of an allocation, as
  // 1x1 convolutions leave them) so that a returned buffer is its
  // allocation, which buffer-results-to-out-params then replaces by the
  // out-parameter instead of copying into it.
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createIsaacStageHostConstants());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createCanonicalizerPass());

  // Kernels: isaac's GEMMs, then everything else on the generic GPU path.
  IsaacLowerToGPUOptions lower;
  lower.chip = opts.chip;
  lower.features = opts.features;
  lower.remarkSkipped = false;
  pm.addPass(createIsaacLowerToGPU(lower));
  IsaacOffloadOptions offload;
  offload.strict = opts.strict;
  pm.addPass(createIsaacOffload(offload));
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createIsaacDeviceMemory());
  IsaacAttachTargetOptions attach;
  attach.chip = opts.chip;
  attach.features = opts.features;
  pm.addPass(createIsaacAttachTarget(attach));

  // Device side: math without libdevice where possible, scf -> cf, then
  // NVVM/LLVM, then PTX.
  OpPassManager &dev = pm.nest<gpu::GPUModuleOp>();
  dev.addPass(math::createMathExtendToSupportedTypes());
  dev.addPass(createIsaacLegalizeMath());
  dev.addPass(createLowerAffinePass());
  dev.addPass(createSCFToControlFlowPass());
  // The mma kernels' nvgpu.mma.sync (MmaKernelBuilder.cpp), before
  // gpu-to-nvvm lowers the rest.
  dev.addPass(createConvertNVGPUToNVVMPass());
  dev.addPass(createConvertGpuOpsToNVVMOps());
  dev.addPass(createConvertNVVMToLLVMPass());
  dev.addPass(createReconcileUnrealizedCastsPass());
  dev.addPass(createIsaacTensorMapParams());
  dev.addPass(createCanonicalizerPass());
  dev.addPass(createCSEPass());
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  toBinary.toolkitPath = findCudaToolkit(opts.cudaPath);
  pm.addPass(createGpuModuleToBinaryPass(toBinary));

  // Host side: isaac's launches become runtime calls (PTX embedded); the
  // host may now only launch kernels and manage buffers; then the upstream
  // GPU host lowering (mgpu* calls, which isaac's runtime implements) and
  // the LLVM dialect.
  IsaacLowerLaunchOptions launch;
  launch.ptxDir = opts.ptxDir;
  pm.addPass(createIsaacLowerLaunch(launch));
  pm.addPass(createIsaacCheckHost());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addNestedPass<func::FuncOp>(createIsaacElideLaunchWaits());
  // Folds the static strides and offsets of the operand descriptors, which
  // convert-to-llvm would otherwise leave behind as arith.constant.
  pm.addPass(createCanonicalizerPass());
  // Reshapes of operand buffers (a convolution's residual input viewed as a
  // matrix, isaac-lower-to-gpu) become descriptor arithmetic.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::isaac::registerIsaacPipeline() {
  PassPipelineRegistration<IsaacPipelineOptions>(
      "isaac-pipeline",
      "Compile a program of linalg ops on tensors or memrefs for NVIDIA "
      "GPUs: isaac kernels for its GEMMs (fused epilogues included), the "
      "upstream GPU path for everything else, PTX and runtime calls",
      buildIsaacPipeline);
}
