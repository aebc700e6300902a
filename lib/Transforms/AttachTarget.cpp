//===- AttachTarget.cpp - NVVM targets for outlined kernel modules --------===//

#include "isaac/Transforms/Passes.h"

#include "isaac/Model/Chip.h"
#include "isaac/Model/Legality.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACATTACHTARGET
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;

namespace {
struct AttachTargetPass
    : public mlir::isaac::impl::IsaacAttachTargetBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ::isaac::ChipInfo *chipInfo = ::isaac::findChip(chip);
    if (!chipInfo) {
      module.emitError() << "unknown target chip '" << chip
                         << "'; known chips: " << ::isaac::knownChips();
      return signalPassFailure();
    }
    // As in isaac-lower-to-gpu: the chip table's PTX version unless
    // `features` names one, which must not be older than the chip's.
    std::string targetFeatures =
        features.empty() ? chipInfo->ptxFeature() : std::string(features);
    std::string whyNot = ::isaac::checkPtxFeatures(*chipInfo, targetFeatures);
    if (!whyNot.empty()) {
      module.emitError() << "isaac-attach-target: " << whyNot;
      return signalPassFailure();
    }
    Builder b(&getContext());
    auto target =
        NVVM::NVVMTargetAttr::get(&getContext(), /*optLevel=*/3,
                                  "nvptx64-nvidia-cuda", chip, targetFeatures);
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      ArrayAttr targets = gpuModule.getTargetsAttr();
      if (!targets || targets.empty())
        gpuModule.setTargetsAttr(b.getArrayAttr({target}));
    });
  }
};
} // namespace
