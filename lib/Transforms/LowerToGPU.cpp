//===- LowerToGPU.cpp - Configured GEMMs to generated GPU kernels ---------===//

#include "isaac/Transforms/KernelBuilders.h"
#include "isaac/Transforms/Passes.h"

#include "GemmMatch.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACLOWERTOGPU
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {
struct LowerToGPUPass
    : public mlir::isaac::impl::IsaacLowerToGPUBase<LowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ::isaac::ChipInfo *chipInfo = ::isaac::findChip(chip);
    if (!chipInfo) {
      module.emitError() << "unknown target chip '" << chip
                         << "'; known chips: " << ::isaac::knownChips();
      return signalPassFailure();
    }
    // Empty `features`: the chip table's PTX version. An explicit one wins,
    // unless it is older than the chip, on which LLVM would abort.
    targetFeatures = features.empty() ? chipInfo->ptxFeature() : features;
    std::string whyNot = ::isaac::checkPtxFeatures(*chipInfo, targetFeatures);
    if (!whyNot.empty()) {
      module.emitError() << "isaac-lower-to-gpu: " << whyNot;
      return signalPassFailure();
    }
    SmallVector<Operation *> gemms;
    module.walk([&](Operation *op) {
      if (isGemmCandidate(op))
        gemms.push_back(op);
    });
    bool failed = false;
    for (Operation *op : gemms)
      if (::mlir::failed(lower(module, op)))
        failed = true;
    if (failed)
      signalPassFailure();
  }

  /// A remark for GEMMs left alone, or an error under `strict`.
  LogicalResult skip(Operation *op, const Twine &why) {
    if (strict)
      return op->emitError() << "isaac cannot lower this operation: " << why;
    op->emitRemark() << "isaac: left untouched: " << why;
    return success();
  }

  LogicalResult lower(ModuleOp module, Operation *op) {
    auto configAttr =
        op->getAttrOfType<GemmConfigAttr>(IsaacDialect::getConfigAttrName());
    if (!configAttr)
      return skip(op, "no isaac.config (run isaac-select-config first)");
    std::string reason;
    FailureOr<GemmMatch> match = matchGemm(op, reason);
    if (::mlir::failed(match))
      return skip(op, reason);

    GemmKernelSpec spec;
    spec.config = configAttr.getConfig();
    spec.dtype = match->shape.dtype;
    spec.layout = match->shape.layout;
    // The dialect verified the configuration for the chip named in the IR;
    // the pass may target another one.
    if (::mlir::failed(verifyGemmConfig([&] { return op->emitError(); },
                                        spec.config, spec.dtype, chip)))
      return failure();

    std::string name = spec.kernelName();
    OpBuilder builder(module.getContext());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(name);
    if (!gpuModule) {
      builder.setInsertionPointToEnd(module.getBody());
      auto target = NVVM::NVVMTargetAttr::get(
          module.getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda", chip,
          targetFeatures);
      gpuModule = gpu::GPUModuleOp::create(builder, op->getLoc(), name,
                                           builder.getArrayAttr({target}));
      buildGemmKernel(builder, gpuModule, spec);
      if (spec.config.kg > 1) {
        getOrBuildScaleKernel(builder, gpuModule, spec.dtype);
        getOrBuildSplitKReduceKernel(builder, gpuModule, spec.dtype);
      }
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());

    builder.setInsertionPoint(op);
    auto kernelRef = SymbolRefAttr::get(
        builder.getStringAttr(name),
        {FlatSymbolRefAttr::get(builder.getStringAttr(name))});
    // linalg.matmul on memrefs accumulates: C += op(A) op(B).
    LaunchGemmOp::create(
        builder, op->getLoc(), kernelRef, match->a, match->b, match->c,
        configAttr, builder.getBoolAttr(spec.layout.transA),
        builder.getBoolAttr(spec.layout.transB), builder.getF64FloatAttr(1.0),
        builder.getF64FloatAttr(1.0));
    op->erase();
    return success();
  }

  /// The NVPTX features of the kernels' NVVM target (runOnOperation).
  std::string targetFeatures;
};
} // namespace
