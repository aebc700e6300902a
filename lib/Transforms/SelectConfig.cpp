//===- SelectConfig.cpp - Attach the best #isaac.gemm to each GEMM --------===//

#include "isaac/Transforms/Passes.h"

#include "GemmMatch.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Search.h"

#include "mlir/IR/Builders.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACSELECTCONFIG
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {
struct SelectConfigPass
    : public mlir::isaac::impl::IsaacSelectConfigBase<SelectConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<::isaac::ChipLimits> limits = ::isaac::getChipLimits(chip);
    if (!limits) {
      module.emitError() << "unknown target chip '" << chip
                         << "'; known chips: " << ::isaac::knownChips();
      return signalPassFailure();
    }
    if (topk == 0) {
      module.emitError() << "isaac-select-config: topk must be at least 1";
      return signalPassFailure();
    }
    ::isaac::CostFn cost = [&](const ::isaac::GemmShape &s,
                               const ::isaac::GemmConfig &c) {
      return ::isaac::analyticCost(s, c, *limits);
    };
    bool failed = false;
    module.walk([&](Operation *op) {
      if (!isGemmCandidate(op) ||
          op->hasAttr(IsaacDialect::getConfigAttrName()))
        return;
      std::string reason;
      FailureOr<GemmMatch> match = matchGemm(op, reason);
      if (::mlir::failed(match)) {
        if (strict) {
          op->emitError() << "isaac cannot configure this operation: "
                          << reason;
          failed = true;
        } else {
          op->emitRemark() << "isaac: left untouched: " << reason;
        }
        return;
      }
      std::vector<::isaac::Ranked> best =
          ::isaac::searchBest(match->shape, *limits, cost, topk);
      if (best.empty()) {
        op->emitError() << "isaac: no legal configuration for this GEMM on "
                        << chip;
        failed = true;
        return;
      }
      MLIRContext *ctx = op->getContext();
      op->setAttr(IsaacDialect::getConfigAttrName(),
                  GemmConfigAttr::get(ctx, best.front().config));
      if (topk > 1) {
        SmallVector<Attribute> cands;
        for (const ::isaac::Ranked &r : best)
          cands.push_back(GemmConfigAttr::get(ctx, r.config));
        op->setAttr(IsaacDialect::getCandidatesAttrName(),
                    ArrayAttr::get(ctx, cands));
      }
      op->emitRemark() << "isaac: no trained model for " << chip
                       << "; configuration chosen by the analytic heuristic";
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
