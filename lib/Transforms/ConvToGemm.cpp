//===- ConvToGemm.cpp - 1x1 stride-1 convolutions as GEMMs ----------------===//
//
// A 1x1 convolution at stride 1 reads no halo and no neighbouring pixel: in
// NHWC it is exactly the GEMM (N*H*W x C) * (C x K) on the same bytes. This
// pass rewrites such convolutions as linalg.matmul on collapsed views, so
// that the GEMM path (trained models, kernels, fused epilogues) compiles
// them. The dilation of a 1x1 filter is irrelevant.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

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
  linalg::FillOp fill;
  if (tensors) {
    fill = out.getDefiningOp<linalg::FillOp>();
    if (fill && !fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
      fill = {};
  } else {
    fill = dyn_cast_or_null<linalg::FillOp>(conv->getPrevNode());
    if (fill &&
        (!fill.hasPureBufferSemantics() || fill.getDpsInits()[0] != out))
      fill = {};
  }
  Value a = collapse(b, loc, in, rowsThenLast());
  Value bMat =
      collapse(b, loc, filter, fhwc ? firstThenRest() : rowsThenLast());
  Value c;
  if (tensors && fill) {
    auto outT = cast<RankedTensorType>(out.getType());
    ArrayRef<int64_t> s = outT.getShape();
    Value empty = tensor::EmptyOp::create(
        b, loc, SmallVector<int64_t>{s[0] * s[1] * s[2], s[3]},
        outT.getElementType());
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
  if (tensors) {
    Value expanded =
        tensor::ExpandShapeOp::create(b, loc, conv->getResult(0).getType(),
                                      matmul.getResult(0), rowsThenLast());
    conv->getResult(0).replaceAllUsesWith(expanded);
  }
  conv->erase();
  if (tensors && fill && fill->use_empty())
    fill->erase();
}

struct ConvToGemmPass
    : public mlir::isaac::impl::IsaacConvToGemmBase<ConvToGemmPass> {
  void runOnOperation() override {
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
