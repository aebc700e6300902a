//===- ConvToGemm.cpp - 1x1 convolutions as GEMMs, 1-D ones as 2-D -------===//
//
// A 1x1 convolution at stride 1 reads no halo and no neighbouring pixel: in
// NHWC it is exactly the GEMM (N*H*W x C) * (C x K) on the same bytes. This
// pass rewrites such convolutions as linalg.matmul on collapsed views, so
// that the GEMM path (trained models, kernels, fused epilogues) compiles
// them. The dilation of a 1x1 filter is irrelevant.
//
// On tensors the GEMM's result is expanded back to N x H x W x K; the
// elementwise ops that follow (bias, activation, residual) would then read
// the expanded view, which isaac-fuse-epilogues does not look through. So
// each such op whose operands are addressed by pixel and channel (the
// identity, a per-channel (k) map, a scalar) is rewritten onto the 2-D
// view as well — its 4-D operands collapsed, the expansion moved after it —
// and the GEMM's epilogue can absorb it.
//
// An NCHW convolution (linalg.conv_2d_nchw_fchw) is rewritten as an NHWC
// one between transposes first (ConvNchw.cpp).
//
// A 1-D convolution (linalg.conv_1d_nwc_wcf) is the 2-D one of height 1 on
// the same bytes: it is rewritten onto 4-D views first, and the conv path
// (or, pointwise, the GEMM path) takes it. Its result is collapsed back,
// after the elementwise ops that follow it, which move onto the 4-D view
// (sinkCollapse) so that isaac-fuse-epilogues fuses them.
//
//===----------------------------------------------------------------------===//

#include "ConvNchw.h"
#include "ElementwiseRebuild.h"

#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACCONVTOGEMM
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

namespace {

/// (N, H, W) -> rows, the channels kept: the reassociation that collapses
/// an NHWC tensor (and an HWCF filter, R = S = 1) into a matrix.
SmallVector<ReassociationIndices> rowsThenLast() { return {{0, 1, 2}, {3}}; }
/// K x (R, S, C) for an FHWC filter.
SmallVector<ReassociationIndices> firstThenRest() { return {{0}, {1, 2, 3}}; }

/// Whether `conv` is a 1x1, stride-1 convolution of static shapes whose
/// operands (memrefs with the identity layout, or tensors) collapse into
/// the GEMM's matrices.
bool isPointwise(linalg::LinalgOp conv, bool fhwc) {
  if (!conv.hasPureTensorSemantics() && !conv.hasPureBufferSemantics())
    return false;
  for (Value v :
       {conv.getDpsInputOperand(0)->get(), conv.getDpsInputOperand(1)->get(),
        conv.getDpsInitOperand(0)->get()}) {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getRank() != 4)
      return false;
    if (auto m = dyn_cast<MemRefType>(t); m && !m.getLayout().isIdentity())
      return false;
  }
  ArrayRef<int64_t> f =
      cast<ShapedType>(conv.getDpsInputOperand(1)->get().getType()).getShape();
  if (fhwc ? (f[1] != 1 || f[2] != 1) : (f[0] != 1 || f[1] != 1))
    return false;
  DenseIntElementsAttr strides =
      fhwc ? cast<linalg::Conv2DNhwcFhwcOp>(conv).getStrides()
           : cast<linalg::Conv2DNhwcHwcfOp>(conv).getStrides();
  return llvm::all_of(strides.getValues<int64_t>(),
                      [](int64_t s) { return s == 1; });
}

Value collapse(OpBuilder &b, Location loc, Value v,
               ArrayRef<ReassociationIndices> reassociation) {
  if (isa<MemRefType>(v.getType()))
    return memref::CollapseShapeOp::create(b, loc, v, reassociation);
  return tensor::CollapseShapeOp::create(b, loc, v, reassociation);
}

/// The map on the 2-D view (m = pixel, n = channel) of a map from the
/// N x H x W x K space that addresses by pixel and channel: the identity,
/// (k) or (); null otherwise.
AffineMap flatMap(AffineMap map, MLIRContext *ctx) {
  if (map.getNumDims() != 4 || map.getNumSymbols() != 0)
    return {};
  if (map.isIdentity())
    return AffineMap::getMultiDimIdentityMap(2, ctx);
  if (map.getNumResults() == 0)
    return AffineMap::get(2, 0, {}, ctx);
  if (map.getNumResults() == 1 && map.getResult(0) == getAffineDimExpr(3, ctx))
    return AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
  return {};
}

/// If the single user of `expanded` (the 4-D view of a 2-D GEMM result or
/// of an op already moved onto the 2-D view) is an elementwise linalg op on
/// tensors whose every operand is addressed by pixel and channel, rebuilds
/// it on the 2-D view, its 4-D operands collapsed, and returns the
/// expansion of its result that replaces it; else null.
tensor::ExpandShapeOp sinkExpansion(tensor::ExpandShapeOp expanded) {
  if (!expanded->hasOneUse())
    return {};
  auto user = dyn_cast<linalg::LinalgOp>(*expanded->user_begin());
  if (!isElementwiseOnTensors(user, 4))
    return {};
  MLIRContext *ctx = user.getContext();
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : user->getOpOperands()) {
    AffineMap map = flatMap(user.getMatchingIndexingMap(&operand), ctx);
    if (!map || !isa<RankedTensorType>(operand.get().getType()))
      return {};
    maps.push_back(map);
  }
  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(user);
  Location loc = user.getLoc();
  auto operand2d = [&](OpOperand &operand, AffineMap &map) -> Value {
    if (operand.get() == expanded.getResult())
      return expanded.getSrc();
    if (!user.getMatchingIndexingMap(&operand).isIdentity())
      return operand.get();
    // A per-channel vector broadcast to the 4-D shape is read from the
    // vector itself.
    if (auto bc = operand.get().getDefiningOp<linalg::BroadcastOp>();
        bc && bc.getDimensions() == ArrayRef<int64_t>{0, 1, 2}) {
      map = AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
      return bc.getInput();
    }
    // (An empty init too is collapsed, not made again in 2-D: the result's
    // expansion then folds back onto its buffer, which a function can
    // return without a copy.)
    return tensor::CollapseShapeOp::create(rewriter, loc, operand.get(),
                                           rowsThenLast());
  };
  SmallVector<Value> ins;
  for (OpOperand *operand : user.getDpsInputOperands())
    ins.push_back(operand2d(*operand, maps[operand->getOperandNumber()]));
  AffineMap initMap = maps.back();
  Value init = operand2d(*user.getDpsInitOperand(0), initMap);
  if (initMap != maps.back())
    return {}; // not reached: a broadcast init is not read as a vector
  Type resultType = user->getResult(0).getType();
  Value result =
      rebuildElementwise(rewriter, user, ins, init, maps, [&](Value flat) {
        return tensor::ExpandShapeOp::create(rewriter, loc, resultType, flat,
                                             rowsThenLast())
            .getResult();
      });
  if (!result)
    return {};
  if (expanded->use_empty())
    rewriter.eraseOp(expanded);
  return result.getDefiningOp<tensor::ExpandShapeOp>();
}

void rewrite(linalg::LinalgOp conv, bool fhwc) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  MLIRContext *ctx = conv.getContext();
  Value in = conv.getDpsInputOperand(0)->get();
  Value filter = conv.getDpsInputOperand(1)->get();
  Value out = conv.getDpsInitOperand(0)->get();
  bool tensors = conv.hasPureTensorSemantics();

  // The init: on tensors, a fill of an empty tensor is made again in 2-D
  // (so that the GEMM sees its fill); on memrefs, a fill of the output just
  // before the convolution moves onto the collapsed view.
  linalg::FillOp fill = findInitFill(conv);
  Value a = collapse(b, loc, in, rowsThenLast());
  Value bMat =
      collapse(b, loc, filter, fhwc ? firstThenRest() : rowsThenLast());
  Value c;
  if (tensors && fill) {
    // The 2-D view of the empty tensor, so that the result's expansion
    // folds back onto its buffer (returned without a copy).
    Value empty = collapse(b, loc, fill.getDpsInits()[0], rowsThenLast());
    c = linalg::FillOp::create(b, loc, fill.value(), empty).getResult(0);
  } else {
    c = collapse(b, loc, out, rowsThenLast());
    if (fill) {
      linalg::FillOp::create(b, loc, ValueRange{fill.value()}, ValueRange{c});
      fill->erase();
    }
  }

  SmallVector<NamedAttribute> attrs;
  if (fhwc) {
    // B is stored N x K (the filters' K x C): read through the maps.
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    attrs.push_back(b.getNamedAttr(
        "indexing_maps",
        b.getAffineMapArrayAttr({AffineMap::get(3, 0, {m, k}, ctx),
                                 AffineMap::get(3, 0, {n, k}, ctx),
                                 AffineMap::get(3, 0, {m, n}, ctx)})));
  }
  SmallVector<Type> results;
  if (tensors)
    results.push_back(c.getType());
  auto matmul = linalg::MatmulOp::create(b, loc, results, ValueRange{a, bMat},
                                         ValueRange{c}, attrs);
  tensor::ExpandShapeOp expanded;
  if (tensors) {
    expanded =
        tensor::ExpandShapeOp::create(b, loc, conv->getResult(0).getType(),
                                      matmul.getResult(0), rowsThenLast());
    conv->getResult(0).replaceAllUsesWith(expanded.getResult());
  }
  conv->erase();
  if (tensors && fill && fill->use_empty())
    fill->erase();
  while (expanded)
    expanded = sinkExpansion(expanded);
}

/// If the single user of `collapsed` (the 3-D view of a 1-D convolution's
/// 4-D result, or of an op already moved onto the 4-D view) is an
/// elementwise linalg op on tensors whose operands are read through the
/// identity, a per-channel map (k) or (), rebuilds it on the 4-D view (its
/// 3-D operands expanded, the maps renumbered) and returns the collapse of
/// its result that replaces it; else null. So the bias and activation
/// after a 1-D convolution reach isaac-fuse-epilogues next to the 2-D
/// convolution that computes it.
tensor::CollapseShapeOp sinkCollapse(tensor::CollapseShapeOp collapsed) {
  if (!collapsed->hasOneUse())
    return {};
  auto user = dyn_cast<linalg::LinalgOp>(*collapsed->user_begin());
  if (!isElementwiseOnTensors(user, 3))
    return {};
  MLIRContext *ctx = user.getContext();
  AffineExpr k = getAffineDimExpr(2, ctx);
  for (OpOperand &operand : user->getOpOperands()) {
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (!isa<RankedTensorType>(operand.get().getType()) ||
        map.getNumSymbols() != 0 ||
        !(map.isIdentity() || map.getNumResults() == 0 ||
          (map.getNumResults() == 1 && map.getResult(0) == k)))
      return {};
  }
  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(user);
  Location loc = user.getLoc();
  SmallVector<ReassociationIndices> toRank4 = {{0, 1}, {2}, {3}};
  // (n, q, k) of the 3-D space is (n, 0, q, k) of the 4-D one.
  AffineMap to3d =
      AffineMap::get(4, 0,
                     {getAffineDimExpr(0, ctx), getAffineDimExpr(2, ctx),
                      getAffineDimExpr(3, ctx)},
                     ctx);
  SmallVector<AffineMap> maps;
  auto operand4d = [&](OpOperand &operand) -> Value {
    Value v = operand.get();
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (!map.isIdentity()) {
      maps.push_back(map.compose(to3d));
      return v;
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
    if (v == collapsed.getResult())
      return collapsed.getSrc();
    auto t = cast<RankedTensorType>(v.getType());
    ArrayRef<int64_t> d = t.getShape();
    return tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({d[0], 1, d[1], d[2]}, t.getElementType()), v,
        toRank4);
  };
  SmallVector<Value> ins;
  for (OpOperand *operand : user.getDpsInputOperands())
    ins.push_back(operand4d(*operand));
  Value init = operand4d(*user.getDpsInitOperand(0));
  Value result =
      rebuildElementwise(rewriter, user, ins, init, maps, [&](Value wide) {
        return tensor::CollapseShapeOp::create(rewriter, loc, wide, toRank4)
            .getResult();
      });
  if (!result)
    return {};
  if (collapsed->use_empty())
    rewriter.eraseOp(collapsed);
  return result.getDefiningOp<tensor::CollapseShapeOp>();
}

/// Whether `conv` (linalg.conv_1d_nwc_wcf) has static shapes and operands
/// (tensors, or memrefs with the identity layout) that expand to 4-D views.
bool isExpandable1D(linalg::Conv1DNwcWcfOp conv) {
  if (!conv.hasPureTensorSemantics() && !conv.hasPureBufferSemantics())
    return false;
  for (Value v :
       {conv.getDpsInputOperand(0)->get(), conv.getDpsInputOperand(1)->get(),
        conv.getDpsInitOperand(0)->get()}) {
    auto t = cast<ShapedType>(v.getType());
    if (!t.hasStaticShape() || t.getRank() != 3)
      return false;
    if (auto m = dyn_cast<MemRefType>(t); m && !m.getLayout().isIdentity())
      return false;
  }
  return true;
}

/// A 1-D convolution N x W x C * S x C x K is the 2-D one of height 1:
/// N x 1 x W x C * 1 x S x C x K on the same bytes (views, no copy), which
/// the conv kernels compile.
void rewrite1D(linalg::Conv1DNwcWcfOp conv) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  bool tensors = conv.hasPureTensorSemantics();
  SmallVector<ReassociationIndices> toRank4 = {{0, 1}, {2}, {3}};
  auto expand = [&](Value v, bool leadingOne) -> Value {
    auto t = cast<ShapedType>(v.getType());
    ArrayRef<int64_t> d = t.getShape();
    SmallVector<int64_t> shape =
        leadingOne ? SmallVector<int64_t>{1, d[0], d[1], d[2]}
                   : SmallVector<int64_t>{d[0], 1, d[1], d[2]};
    // The unit dimension joins the first one either way.
    if (auto m = dyn_cast<MemRefType>(t))
      return memref::ExpandShapeOp::create(
          b, loc, MemRefType::get(shape, m.getElementType()), v, toRank4);
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, t.getElementType()), v, toRank4);
  };
  Value in = expand(conv.getDpsInputOperand(0)->get(), false);
  Value filter = expand(conv.getDpsInputOperand(1)->get(), true);
  Value out = conv.getDpsInitOperand(0)->get();
  // On tensors a fill of an empty init is made again in 4-D, so that
  // isaac-fuse-epilogues still sees it (beta = 0).
  Value init;
  auto fill = out.getDefiningOp<linalg::FillOp>();
  if (tensors && fill &&
      fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>()) {
    auto t = cast<RankedTensorType>(out.getType());
    ArrayRef<int64_t> d = t.getShape();
    Value empty = tensor::EmptyOp::create(
        b, loc, SmallVector<int64_t>{d[0], 1, d[1], d[2]}, t.getElementType());
    init = linalg::FillOp::create(b, loc, fill.value(), empty).getResult(0);
  } else {
    init = expand(out, false);
  }
  auto i64Pair = [&](DenseIntElementsAttr a) {
    SmallVector<int64_t> v = {1, *a.getValues<int64_t>().begin()};
    return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()),
                                     ArrayRef<int64_t>(v));
  };
  SmallVector<Type> results;
  if (tensors)
    results.push_back(init.getType());
  auto conv2d = linalg::Conv2DNhwcHwcfOp::create(
      b, loc, results, ValueRange{in, filter}, ValueRange{init},
      i64Pair(conv.getStrides()), i64Pair(conv.getDilations()));
  for (NamedAttribute attr : conv->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("linalg."))
      conv2d->setAttr(attr.getName(), attr.getValue());
  tensor::CollapseShapeOp collapsed;
  if (tensors) {
    collapsed =
        tensor::CollapseShapeOp::create(b, loc, conv2d.getResult(0), toRank4);
    conv->getResult(0).replaceAllUsesWith(collapsed.getResult());
  }
  conv->erase();
  if (fill && fill->use_empty())
    fill->erase();
  while (collapsed)
    collapsed = sinkCollapse(collapsed);
}

struct ConvToGemmPass
    : public mlir::isaac::impl::IsaacConvToGemmBase<ConvToGemmPass> {
  void runOnOperation() override {
    // NCHW convolutions become NHWC ones first (a 1x1 one then becomes a
    // GEMM below).
    if (failed(rewriteNchwConvolutions(getOperation())))
      return signalPassFailure();
    // 1-D convolutions next: a pointwise one then becomes a GEMM below.
    SmallVector<linalg::Conv1DNwcWcfOp> convs1d;
    getOperation().walk([&](linalg::Conv1DNwcWcfOp op) {
      if (isExpandable1D(op))
        convs1d.push_back(op);
    });
    for (linalg::Conv1DNwcWcfOp conv : convs1d)
      rewrite1D(conv);
    SmallVector<std::pair<linalg::LinalgOp, bool>> convs;
    getOperation().walk([&](Operation *op) {
      bool fhwc = isa<linalg::Conv2DNhwcFhwcOp>(op);
      if (fhwc || isa<linalg::Conv2DNhwcHwcfOp>(op))
        if (isPointwise(cast<linalg::LinalgOp>(op), fhwc))
          convs.push_back({cast<linalg::LinalgOp>(op), fhwc});
    });
    for (auto [conv, fhwc] : convs)
      rewrite(conv, fhwc);
  }
};

} // namespace
