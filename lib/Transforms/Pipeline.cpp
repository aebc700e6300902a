//===- Pipeline.cpp - --isaac-pipeline ------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::isaac;

void mlir::isaac::buildIsaacPipeline(OpPassManager &pm,
                                     const IsaacPipelineOptions &opts) {
  IsaacSelectConfigOptions select;
  select.chip = opts.chip;
  select.topk = opts.topk;
  select.strict = opts.strict;
  select.modelDir = opts.modelDir;
  select.cache = opts.cache;
  pm.addPass(createIsaacSelectConfig(select));

  IsaacLowerToGPUOptions lower;
  lower.chip = opts.chip;
  lower.features = opts.features;
  lower.strict = opts.strict;
  pm.addPass(createIsaacLowerToGPU(lower));

  // Device side: scf -> cf, then everything to NVVM/LLVM, then PTX.
  OpPassManager &dev = pm.nest<gpu::GPUModuleOp>();
  dev.addPass(createSCFToControlFlowPass());
  dev.addPass(createConvertGpuOpsToNVVMOps());
  dev.addPass(createConvertNVVMToLLVMPass());
  dev.addPass(createReconcileUnrealizedCastsPass());
  dev.addPass(createCanonicalizerPass());
  dev.addPass(createCSEPass());
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));

  // Host side: runtime calls, then the LLVM dialect.
  IsaacLowerLaunchOptions launch;
  launch.ptxDir = opts.ptxDir;
  pm.addPass(createIsaacLowerLaunch(launch));
  // Folds the static strides and offsets of the operand descriptors, which
  // convert-to-llvm would otherwise leave behind as arith.constant.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::isaac::registerIsaacPipeline() {
  PassPipelineRegistration<IsaacPipelineOptions>(
      "isaac-pipeline",
      "Compile linalg GEMMs to isaac kernels: select configurations, "
      "generate kernels, emit PTX and runtime calls",
      buildIsaacPipeline);
}
