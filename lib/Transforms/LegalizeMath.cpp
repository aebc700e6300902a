//===- LegalizeMath.cpp - Math ops in kernels without libdevice -----------===//
//
// NVPTX has no instructions for tanh, erf, exp, ...; convert-gpu-to-nvvm
// turns math ops into calls of CUDA's libdevice, which only links where a
// CUDA toolkit is installed at compile time. Fused epilogues (gelu, sigmoid,
// silu) and the generic GPU path are mostly f32 and lower, where MLIR's
// polynomial approximations are accurate to a few ulp: this pass uses those
// so that the PTX is the same on every machine. The approximations (and
// user code) use abs, fma, floor, sqrt, ...: NVPTX has instructions for
// those, but convert-gpu-to-nvvm would still call libdevice's __nv_fabsf,
// __nv_fmaf, ..., so they become sign-bit arithmetic, LLVM intrinsics or
// one PTX instruction here.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

/// Element type of `v` when it is f32 or f64 (scalar or vector), else null.
static FloatType f32OrF64(Value v) {
  auto t = dyn_cast<FloatType>(getElementTypeOrSelf(v.getType()));
  return t && (t.isF32() || t.isF64()) ? t : FloatType();
}

/// math.fma / math.trunc -> the LLVM intrinsics, which convert-gpu-to-nvvm
/// keeps and NVPTX turns into fma.rn / cvt.rzi.
template <typename MathOp, typename IntrinsicOp>
struct MathToIntrinsic : public OpRewritePattern<MathOp> {
  using OpRewritePattern<MathOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    if (!f32OrF64(op->getResult(0)))
      return failure();
    rewriter.replaceOpWithNewOp<IntrinsicOp>(op, op->getResult(0).getType(),
                                             op->getOperands());
    return success();
  }
};

/// absf and copysign on the sign bit (exact; and.b32 / or.b32 in PTX).
/// convert-gpu-to-nvvm marks their intrinsics illegal in favour of
/// libdevice.
struct SignBitOps : public RewritePattern {
  SignBitOps(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<math::AbsFOp, math::CopySignOp>(op) ||
        op->getResult(0).getType() != getElementTypeOrSelf(op->getResult(0)))
      return failure();
    FloatType ft = f32OrF64(op->getResult(0));
    if (!ft)
      return failure();
    Location loc = op->getLoc();
    unsigned bits = ft.getWidth();
    Type it = rewriter.getIntegerType(bits);
    APInt signBit = APInt::getSignMask(bits);
    Value sign = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(it, signBit));
    Value magnitude = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(it, ~signBit));
    auto asInt = [&](Value v) {
      return arith::BitcastOp::create(rewriter, loc, it, v).getResult();
    };
    Value result = arith::AndIOp::create(rewriter, loc,
                                         asInt(op->getOperand(0)), magnitude);
    if (isa<math::CopySignOp>(op))
      result = arith::OrIOp::create(
          rewriter, loc, result,
          arith::AndIOp::create(rewriter, loc, asInt(op->getOperand(1)), sign));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, ft, result);
    return success();
  }
};

/// floor, ceil, roundeven and sqrt of a scalar f32/f64 -> one PTX
/// instruction each (cvt.rmi, cvt.rpi, cvt.rni, sqrt.rn); their intrinsics
/// are illegal in convert-gpu-to-nvvm, which would call libdevice.
template <typename MathOp> struct MathToPtx : public OpRewritePattern<MathOp> {
  MathToPtx(MLIRContext *ctx, StringRef instruction)
      : OpRewritePattern<MathOp>(ctx), instruction(instruction) {}
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    FloatType ft = f32OrF64(op->getResult(0));
    // PTX only in kernel code (the pass also serves host code, e.g.
    // isaac-bench's CPU reference of epilogues).
    if (!ft || ft != type || !op->template getParentOfType<gpu::GPUModuleOp>())
      return failure();
    std::string suffix = ft.isF32() ? "f32" : "f64";
    std::string asmStr = instruction.str() + "." + suffix +
                         (instruction.starts_with("cvt") ? "." + suffix : "") +
                         " $0, $1;";
    std::string reg = ft.isF32() ? "f" : "d";
    rewriter.replaceOpWithNewOp<LLVM::InlineAsmOp>(
        op, type, op->getOperands(), asmStr, "=" + reg + "," + reg,
        /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
    return success();
  }
  StringRef instruction;
};

struct LegalizeMathPass
    : public mlir::isaac::impl::IsaacLegalizeMathBase<LegalizeMathPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<RsqrtToDivSqrt, Exp2ToExp, PowfByConstantInteger>(ctx);
    patterns.add<MathToIntrinsic<math::FmaOp, LLVM::FMAOp>,
                 MathToIntrinsic<math::TruncOp, LLVM::FTruncOp>, SignBitOps>(
        ctx);
    patterns.add<MathToPtx<math::FloorOp>>(ctx, "cvt.rmi");
    patterns.add<MathToPtx<math::CeilOp>>(ctx, "cvt.rpi");
    patterns.add<MathToPtx<math::RoundEvenOp>>(ctx, "cvt.rni");
    patterns.add<MathToPtx<math::SqrtOp>>(ctx, "sqrt.rn");
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
