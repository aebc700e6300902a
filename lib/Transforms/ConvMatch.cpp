//===- ConvMatch.cpp - Recognizing the convolutions isaac compiles --------===//

#include "ConvMatch.h"

#include "isaac/Dialect/IsaacDialect.h"

using namespace mlir;
using namespace mlir::isaac;

/// Whether `t` has static sizes and, for a memref, the packed row-major
/// strides of its shape (any offset).
static bool isPacked(MemRefType t) {
  auto [strides, offset] = t.getStridesAndOffset();
  (void)offset;
  int64_t expected = 1;
  for (int64_t d = t.getRank() - 1; d >= 0; --d) {
    if (strides[d] != expected && t.getDimSize(d) != 1)
      return false;
    expected *= t.getDimSize(d);
  }
  return true;
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

FailureOr<ConvMatch> mlir::isaac::matchConv(Operation *op,
                                            std::string &reason) {
  if (isa<linalg::Conv2DNchwFchwOp>(op)) {
    reason = "an NCHW convolution is compiled as an NHWC one by "
             "isaac-conv-to-gemm, which takes static shapes on tensors or "
             "packed memrefs";
    return failure();
  }
  if (!isConvCandidate(op)) {
    reason = "isaac compiles 2-D convolutions of NHWC inputs only "
             "(linalg.conv_2d_nhwc_hwcf, linalg.conv_2d_nhwc_fhwc; "
             "linalg.conv_2d_nchw_fchw through isaac-conv-to-gemm)";
    return failure();
  }
  ConvMatch m;
  auto isaacConv = dyn_cast<ConvOp>(op);
  if (isaacConv) {
    m.input = isaacConv.getInput();
    m.filter = isaacConv.getFilter();
    m.output = isaacConv.getInit();
  } else {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!linalgOp.hasPureBufferSemantics() &&
        !linalgOp.hasPureTensorSemantics()) {
      reason = "mixes tensor and memref operands";
      return failure();
    }
    m.input = linalgOp.getDpsInputOperand(0)->get();
    m.filter = linalgOp.getDpsInputOperand(1)->get();
    m.output = linalgOp.getDpsInitOperand(0)->get();
  }
  for (Value v : {m.input, m.filter, m.output}) {
    auto t = cast<ShapedType>(v.getType());
    if (!t.hasStaticShape()) {
      reason = "dynamic shapes are not supported (kernel configurations are "
               "chosen per static shape)";
      return failure();
    }
    if (auto memref = dyn_cast<MemRefType>(t); memref && !isPacked(memref)) {
      reason = "operand " + typeString(t) +
               " is not packed (the conv kernels read row-major operands "
               "without gaps)";
      return failure();
    }
  }

  if (isaacConv) {
    // Its verifier checked the shapes, types and attributes.
    FailureOr<::isaac::ConvShape> shape = isaacConv.getConvShape(reason);
    if (failed(shape))
      return failure();
    m.shape = *shape;
    return m;
  }

  // Element types: input and filters of one type; the output of that type
  // or, for 16-bit operands, f32 (GemmTypes: what the kernels compute).
  Type inTy = getElementTypeOrSelf(m.input.getType());
  Type fTy = getElementTypeOrSelf(m.filter.getType());
  Type outTy = getElementTypeOrSelf(m.output.getType());
  if (inTy != fTy) {
    reason = "input and filters of different element types (" +
             typeString(inTy) + ", " + typeString(fTy) + ") are not supported";
    return failure();
  }
  std::optional<::isaac::DType> dtype = getGemmDType(inTy);
  std::optional<::isaac::DType> outDtype = getGemmDType(outTy);
  if (!dtype) {
    reason = "element type " + typeString(inTy) +
             " is not supported (f16, bf16, f32, f64)";
    return failure();
  }
  ::isaac::GemmTypes types;
  types.ab = *dtype;
  types.c = outDtype.value_or(*dtype);
  if (!outDtype || !types.isValid()) {
    reason = "an output of " + typeString(outTy) + " with " + typeString(inTy) +
             " operands is not supported (the operands' type; f32 for f16 "
             "and bf16)";
    return failure();
  }

  ::isaac::ConvShape &s = m.shape;
  s.types = types;
  ArrayRef<int64_t> in = cast<ShapedType>(m.input.getType()).getShape();
  ArrayRef<int64_t> f = cast<ShapedType>(m.filter.getType()).getShape();
  ArrayRef<int64_t> out = cast<ShapedType>(m.output.getType()).getShape();
  s.n = in[0];
  s.h = in[1];
  s.w = in[2];
  s.c = in[3];
  s.p = out[1];
  s.q = out[2];
  s.k = out[3];
  DenseIntElementsAttr strides, dilations;
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op)) {
    s.layout = ::isaac::ConvLayout::NhwcHwcf;
    s.r = f[0];
    s.s = f[1];
    strides = conv.getStrides();
    dilations = conv.getDilations();
  } else {
    auto fhwc = cast<linalg::Conv2DNhwcFhwcOp>(op);
    s.layout = ::isaac::ConvLayout::NhwcFhwc;
    s.r = f[1];
    s.s = f[2];
    strides = fhwc.getStrides();
    dilations = fhwc.getDilations();
  }
  auto sv = strides.getValues<int64_t>();
  auto dv = dilations.getValues<int64_t>();
  s.strideH = sv[0];
  s.strideW = sv[1];
  s.dilationH = dv[0];
  s.dilationW = dv[1];
  // linalg convolutions read no padding: pads stay 0, and the op's
  // verifier ensures the input covers every window (padBottom() <= 0).
  std::string why = s.validate();
  if (!why.empty()) {
    reason = why;
    return failure();
  }
  return m;
}
