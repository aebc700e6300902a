//===- LegalizeMath.cpp - Math ops in kernels without libdevice -----------===//
//
// NVPTX has no instructions for tanh, erf, exp, ...; convert-gpu-to-nvvm
// turns math ops into calls of CUDA's libdevice, which only links where a
// CUDA toolkit is installed at compile time. Fused epilogues (gelu, sigmoid,
// silu) and the generic GPU path are mostly f32 and lower, where MLIR's
// polynomial approximations are accurate to a few ulp: this pass uses those
// so that the PTX is the same on every machine.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACLEGALIZEMATH
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;

namespace {
/// math.rsqrt(x) -> 1 / math.sqrt(x): sqrt lowers to sqrt.rn, no library.
struct RsqrtToDivSqrt : public OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type t = op.getType();
    if (!isa<FloatType>(t))
      return failure();
    Location loc = op.getLoc();
    Value one =
        arith::ConstantOp::create(rewriter, loc, rewriter.getFloatAttr(t, 1.0));
    Value sqrt = math::SqrtOp::create(rewriter, loc, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, sqrt);
    return success();
  }
};

/// math.exp2(x) -> math.exp(x * ln 2) on f32, which is then approximated.
struct Exp2ToExp : public OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    Value ln2 = arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(M_LN2)));
    Value scaled = arith::MulFOp::create(rewriter, loc, op.getOperand(), ln2);
    rewriter.replaceOpWithNewOp<math::ExpOp>(op, scaled);
    return success();
  }
};

/// math.powf(x, c) with c a constant integer, |c| <= 8 -> multiplications
/// (and one division for c < 0): exact for the negative bases exp/log
/// expansions get wrong.
struct PowfByConstantInteger : public OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    auto cst = op.getRhs().getDefiningOp<arith::ConstantOp>();
    auto attr = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
    if (!attr)
      return failure();
    double e = attr.getValueAsDouble();
    if (e != std::floor(e) || std::fabs(e) > 8)
      return failure();
    Location loc = op.getLoc();
    Type t = op.getType();
    int n = static_cast<int>(std::fabs(e));
    Value result =
        arith::ConstantOp::create(rewriter, loc, rewriter.getFloatAttr(t, 1.0));
    Value base = op.getLhs();
    // Square-and-multiply.
    for (int bit = n; bit > 0; bit >>= 1) {
      if (bit & 1)
        result = arith::MulFOp::create(rewriter, loc, result, base);
      if (bit > 1)
        base = arith::MulFOp::create(rewriter, loc, base, base);
    }
    if (e < 0)
      result = arith::DivFOp::create(
          rewriter, loc,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getFloatAttr(t, 1.0)),
          result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LegalizeMathPass
    : public mlir::isaac::impl::IsaacLegalizeMathBase<LegalizeMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<RsqrtToDivSqrt, Exp2ToExp, PowfByConstantInteger>(ctx);
    static const llvm::StringLiteral approximated[] = {
        "math.tanh", "math.erf",   "math.erfc", "math.exp",  "math.expm1",
        "math.log",  "math.log1p", "math.log2", "math.sin",  "math.cos",
        "math.atan", "math.atan2", "math.asin", "math.acos", "math.cbrt"};
    auto isApproximated = [](StringRef name) {
      return llvm::is_contained(approximated, name);
    };
    // f16/bf16 -> f32 around the approximated functions, then the f32
    // approximations themselves.
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
