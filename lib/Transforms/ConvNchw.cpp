//===- ConvNchw.cpp - NCHW convolutions as NHWC ones between transposes ---===//
//
// isaac's convolution kernels read an NHWC input: the implicit GEMM's rows
// are output pixels and its reduction runs along channels, which are
// contiguous there. In NCHW (what PyTorch and torch-mlir produce,
// linalg.conv_2d_nchw_fchw) the channels of a pixel lie H*W apart, so the
// same kernels would fetch every element on its own. Following IREE's
// NCHW-to-NHWC conversion, this rewrites such a convolution as
//
//   transpose(input, NCHW -> NHWC), transpose(filter, FCHW -> FHWC)
//   linalg.conv_2d_nhwc_fhwc
//   transpose(result, NHWC -> NCHW)
//
// and on tensors moves the elementwise ops that follow the convolution
// (bias, activation, residual add) before the result's transpose, onto the
// NHWC result, where isaac-fuse-epilogues folds them into the kernel. A
// transpose of a transpose folds (linalg's canonicalization), so between
// two layers of a network the result's transpose and the next input's
// cancel: only the program's own NCHW inputs and outputs are transposed
// (on the generic GPU path), once. A tensor.pad of the input becomes the
// pad of the transposed input, which isaac-fuse-epilogues folds into the
// kernel's predication as for NHWC. The filters' transpose reads weights
// only.
//
//===----------------------------------------------------------------------===//

#include "ConvNchw.h"
#include "ElementwiseRebuild.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::isaac;

namespace {

/// NCHW -> NHWC (and FCHW -> FHWC): result dimension i is source dimension
/// kToNhwc[i].
constexpr int64_t kToNhwc[] = {0, 2, 3, 1};
/// NHWC -> NCHW.
constexpr int64_t kToNchw[] = {0, 3, 1, 2};

SmallVector<int64_t> permuted(ArrayRef<int64_t> v, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> r;
  for (int64_t i : perm)
    r.push_back(v[i]);
  return r;
}

/// Whether `v` is a static 4-D tensor, or memref with the identity layout.
bool isPlain4D(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape() || t.getRank() != 4)
    return false;
  if (auto m = dyn_cast<MemRefType>(t))
    return m.getLayout().isIdentity();
  return isa<RankedTensorType>(t);
}

/// A new buffer (memref.alloc: device memory in isaac's pipeline, freed by
/// its deallocation passes) or empty tensor of `like`'s element type.
Value makeEmpty(OpBuilder &b, Location loc, Type like,
                ArrayRef<int64_t> shape) {
  Type elem = cast<ShapedType>(like).getElementType();
  if (isa<MemRefType>(like))
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, elem));
  return tensor::EmptyOp::create(b, loc, shape, elem);
}

/// `v` transposed by `perm` into a new buffer or tensor; on tensors the
/// transposed value, on memrefs the buffer.
Value transposed(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto t = cast<ShapedType>(v.getType());
  Value init = makeEmpty(b, loc, t, permuted(t.getShape(), perm));
  auto op = linalg::TransposeOp::create(b, loc, v, init, perm);
  return isa<MemRefType>(t) ? init : op->getResult(0);
}

/// The NHWC form of a convolution's NCHW input; a constant tensor.pad is
/// rebuilt after the transpose, so that the padded input stays a pad that
/// isaac-fuse-epilogues can fold.
Value nhwcInput(OpBuilder &b, Location loc, Value in) {
  auto pad = in.getDefiningOp<tensor::PadOp>();
  Value padValue = pad ? pad.getConstantPaddingValue() : Value();
  if (!pad || !padValue || !pad.getSource().getType().hasStaticShape() ||
      !pad.getLow().empty() || !pad.getHigh().empty())
    return transposed(b, loc, in, kToNhwc);
  Value src = transposed(b, loc, pad.getSource(), kToNhwc);
  SmallVector<OpFoldResult> low, high;
  for (int64_t i : kToNhwc) {
    low.push_back(b.getIndexAttr(pad.getStaticLow()[i]));
    high.push_back(b.getIndexAttr(pad.getStaticHigh()[i]));
  }
  auto type =
      RankedTensorType::get(permuted(pad.getResultType().getShape(), kToNhwc),
                            pad.getResultType().getElementType());
  return tensor::PadOp::create(b, loc, type, src, low, high, padValue);
}

} // namespace

linalg::FillOp mlir::isaac::findInitFill(linalg::LinalgOp conv) {
  Value out = conv.getDpsInitOperand(0)->get();
  if (conv.hasPureTensorSemantics()) {
    auto fill = out.getDefiningOp<linalg::FillOp>();
    if (fill && fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
      return fill;
    return {};
  }
  auto fill = dyn_cast_or_null<linalg::FillOp>(conv->getPrevNode());
  if (fill && fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == out)
    return fill;
  return {};
}

namespace {

/// Rewrites `conv` as described in the file comment; on tensors returns
/// the transpose of the NHWC result that replaced it.
linalg::TransposeOp rewrite(linalg::Conv2DNchwFchwOp conv) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  bool tensors = conv.hasPureTensorSemantics();
  Value out = conv.getDpsInitOperand(0)->get();
  auto outType = cast<ShapedType>(out.getType());
  SmallVector<int64_t> nhwcShape = permuted(outType.getShape(), kToNhwc);

  // The init: a fill of an empty tensor (on memrefs, a fill of the output
  // just before the convolution) is made again in NHWC, so that
  // isaac-fuse-epilogues still sees it (beta = 0); any other init is read
  // through a transpose.
  linalg::FillOp fill = findInitFill(conv);

  Value in = nhwcInput(b, loc, conv.getDpsInputOperand(0)->get());
  Value filter = transposed(b, loc, conv.getDpsInputOperand(1)->get(), kToNhwc);
  Value init;
  if (fill) {
    init = makeEmpty(b, loc, outType, nhwcShape);
    auto f = linalg::FillOp::create(b, loc, ValueRange{fill.value()},
                                    ValueRange{init});
    if (tensors)
      init = f.getResult(0);
  } else {
    init = transposed(b, loc, out, kToNhwc);
  }

  SmallVector<Type> results;
  if (tensors)
    results.push_back(init.getType());
  auto nhwc = linalg::Conv2DNhwcFhwcOp::create(
      b, loc, results, ValueRange{in, filter}, ValueRange{init},
      conv.getStrides(), conv.getDilations());
  for (NamedAttribute attr : conv->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("linalg."))
      nhwc->setAttr(attr.getName(), attr.getValue());

  linalg::TransposeOp back;
  if (tensors) {
    // Into the original init's empty tensor when there is one, so that the
    // result keeps its buffer.
    Value dest = fill ? fill.getDpsInits()[0]
                      : makeEmpty(b, loc, outType, outType.getShape());
    back =
        linalg::TransposeOp::create(b, loc, nhwc.getResult(0), dest, kToNchw);
    conv->getResult(0).replaceAllUsesWith(back->getResult(0));
  } else {
    linalg::TransposeOp::create(b, loc, init, out, kToNchw);
  }
  conv->erase();
  if (fill && fill->use_empty())
    fill->erase();
  return back;
}

/// If the single user of `t` (an NHWC -> NCHW transpose) is an elementwise
/// linalg op on tensors of the NCHW iteration space, rebuilds it on the
/// NHWC space before the transpose and returns the transpose of its
/// result that replaces it; else null. Operands read through the identity
/// are read transposed (a transpose that the canonicalization usually
/// folds away: the convolution's own result, a residual that is another
/// layer's result), linalg.broadcast results as their input, constant
/// fills as the constant; other maps (a per-channel bias (c), a scalar) are
/// only renumbered.
linalg::TransposeOp sinkTranspose(linalg::TransposeOp t) {
  if (!t->hasOneUse())
    return {};
  auto user = dyn_cast<linalg::LinalgOp>(*t->user_begin());
  if (!isElementwiseOnTensors(user, 4))
    return {};
  MLIRContext *ctx = user.getContext();
  // NCHW loop d_i is NHWC loop kToNchw[i]: map o (n, c, h, w) becomes
  // o . (n, h, w, c) -> (n, c, h, w).
  AffineMap toNchw = AffineMap::getPermutationMap(kToNchw, ctx);
  for (OpOperand &operand : user->getOpOperands())
    if (!isa<RankedTensorType>(operand.get().getType()) ||
        user.getMatchingIndexingMap(&operand).getNumSymbols() != 0)
      return {};

  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(user);
  Location loc = user.getLoc();
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  // Inputs that are a constant fill (linalg.max's zeros for a relu) are
  // read as the constant: block argument number -> the value.
  SmallVector<std::pair<unsigned, Value>> constants;
  auto moved = [&](OpOperand &operand) -> Value {
    Value v = operand.get();
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (auto fill = v.getDefiningOp<linalg::FillOp>();
        fill && user.isDpsInput(&operand) &&
        fill.value().getDefiningOp<arith::ConstantOp>()) {
      constants.push_back({operand.getOperandNumber(), fill.value()});
      return Value();
    }
    if (!map.isIdentity()) {
      maps.push_back(map.compose(toNchw));
      return v;
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
    if (v == t->getResult(0))
      return t.getInput();
    if (auto e = v.getDefiningOp<tensor::EmptyOp>())
      return makeEmpty(rewriter, loc, v.getType(),
                       permuted(e.getType().getShape(), kToNhwc));
    if (auto bc = v.getDefiningOp<linalg::BroadcastOp>()) {
      // The broadcast's input, read through the projection onto the
      // dimensions it keeps.
      SmallVector<AffineExpr> kept;
      for (int64_t d = 0; d < 4; ++d)
        if (!llvm::is_contained(bc.getDimensions(), d))
          kept.push_back(getAffineDimExpr(d, ctx));
      maps.back() = AffineMap::get(4, 0, kept, ctx).compose(toNchw);
      return bc.getInput();
    }
    return transposed(rewriter, loc, v, kToNhwc);
  };
  for (OpOperand *operand : user.getDpsInputOperands())
    if (Value v = moved(*operand))
      ins.push_back(v);
  Value init = moved(*user.getDpsInitOperand(0));
  if (!maps.back().isIdentity())
    return {}; // not reached: the init's map is the identity (checked)

  auto resultType = cast<RankedTensorType>(user->getResult(0).getType());
  Value result = rebuildElementwise(
      rewriter, user, ins, init, maps,
      [&](Value nhwc) {
        Value dest =
            makeEmpty(rewriter, loc, resultType, resultType.getShape());
        return linalg::TransposeOp::create(rewriter, loc, nhwc, dest, kToNchw)
            ->getResult(0);
      },
      constants);
  if (!result)
    return {};
  if (t->use_empty())
    rewriter.eraseOp(t);
  return result.getDefiningOp<linalg::TransposeOp>();
}

} // namespace

LogicalResult mlir::isaac::rewriteNchwConvolutions(Operation *root) {
  SmallVector<linalg::Conv2DNchwFchwOp> convs;
  root->walk([&](linalg::Conv2DNchwFchwOp op) {
    if ((op.hasPureTensorSemantics() || op.hasPureBufferSemantics()) &&
        isPlain4D(op.getDpsInputOperand(0)->get()) &&
        isPlain4D(op.getDpsInputOperand(1)->get()) &&
        isPlain4D(op.getDpsInitOperand(0)->get()))
      convs.push_back(op);
  });
  if (convs.empty())
    return success();
  for (linalg::Conv2DNchwFchwOp conv : convs) {
    linalg::TransposeOp back = rewrite(conv);
    while (back)
      back = sinkTranspose(back);
  }
  // Cancel the transposes between layers: transpose(transpose(x)) -> x,
  // transpose(broadcast(v)) -> broadcast(v), transpose(fill) -> fill; then
  // share the transposes of one value (a block's input read by its first
  // layer and by its residual add).
  RewritePatternSet patterns(root->getContext());
  linalg::TransposeOp::getCanonicalizationPatterns(patterns,
                                                   root->getContext());
  linalg::BroadcastOp::getCanonicalizationPatterns(patterns,
                                                   root->getContext());
  linalg::FillOp::getCanonicalizationPatterns(patterns, root->getContext());
  // (Not converging within the driver's bound leaves a transpose more,
  // still correct.)
  (void)applyPatternsGreedily(root, std::move(patterns));
  IRRewriter rewriter(root->getContext());
  DominanceInfo dominance(root);
  eliminateCommonSubExpressions(rewriter, dominance, root);
  return success();
}
