//===- ConvLaunch.cpp - Check and describe convolution launches -----------===//
//
// A convolution's arguments are checked by lib/Model's ConvShape (the rules
// the compiler applies to the ops it takes), then described as the implicit
// GEMM whose launch protocol GemmLaunch.cpp implements: the grid covers
// N*P*Q x K, split-K slices C*R*S, and the helpers see an N*P*Q x K matrix
// with leading dimension K.
//
//===----------------------------------------------------------------------===//

#include "ConvLaunch.h"
#include "Error.h"
#include "KernelInfo.h"

#include "isaac/Model/ConvShape.h"

namespace isaac::runtime {

namespace {

/// Whether two shapes have equal fields, all of which ConvShape::validate
/// may read.
bool sameShape(const ConvShape &a, const ConvShape &b) {
  // A field added to ConvShape must be compared here too.
  static_assert(sizeof(ConvShape) == 15 * sizeof(int64_t) + 16,
                "compare every field of ConvShape");
  return a.n == b.n && a.h == b.h && a.w == b.w && a.c == b.c && a.k == b.k &&
         a.r == b.r && a.s == b.s && a.p == b.p && a.q == b.q &&
         a.strideH == b.strideH && a.strideW == b.strideW &&
         a.dilationH == b.dilationH && a.dilationW == b.dilationW &&
         a.padTop == b.padTop && a.padLeft == b.padLeft &&
         a.layout == b.layout && a.types == b.types;
}

} // namespace

ConvShape ConvGeometry::shape() const {
  ConvShape out;
  out.n = n, out.h = h, out.w = w, out.c = c;
  out.k = k, out.r = r, out.s = s, out.p = p, out.q = q;
  out.strideH = strideH, out.strideW = strideW;
  out.dilationH = dilationH, out.dilationW = dilationW;
  out.padTop = padTop, out.padLeft = padLeft;
  return out;
}

isaacStatus validateConv(const isaacKernelInfo &info, const isaacConvArgs &conv,
                         isaacGemmArgs &gemm, ConvGeometry &geometry,
                         bool infoChecked, ValidConvShape *lastValid) {
  if (!isConv(info))
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "kernel %s is a GEMM kernel, not a convolution kernel",
                    info.name);
  if (!infoChecked)
    if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_INVALID_VALUE))
      return status;
  ConvShape shape;
  shape.n = conv.N;
  shape.h = conv.H;
  shape.w = conv.W;
  shape.c = conv.C;
  shape.k = conv.K;
  shape.r = conv.R;
  shape.s = conv.S;
  shape.p = conv.P;
  shape.q = conv.Q;
  shape.strideH = conv.strideH;
  shape.strideW = conv.strideW;
  shape.dilationH = conv.dilationH;
  shape.dilationW = conv.dilationW;
  shape.padTop = conv.padTop;
  shape.padLeft = conv.padLeft;
  shape.layout = static_cast<ConvLayout>(info.convLayout);
  shape.types.ab = static_cast<DType>(info.dtype);
  shape.types.c = static_cast<DType>(info.cDtype);
  shape.types.tf32 = info.tf32 != 0;
  if (!lastValid || !lastValid->known || !sameShape(lastValid->shape, shape)) {
    std::string why = shape.validate();
    if (!why.empty())
      return setError(ISAAC_ERROR_INVALID_VALUE, "invalid convolution: %s",
                      why.c_str());
    if (lastValid) {
      lastValid->known = true;
      lastValid->shape = shape;
    }
  }

  // The implicit GEMM (ConvShape::gemmShape): its sizes fit 32 bits, which
  // validate() checked. Its A is the input and is never addressed through a
  // leading dimension; it is described as a packed M x K matrix.
  GemmShape g = shape.gemmShape();
  gemm = {};
  gemm.C = conv.O;
  gemm.A = conv.I;
  gemm.B = conv.F;
  gemm.M = static_cast<int32_t>(g.m);
  gemm.N = static_cast<int32_t>(g.n);
  gemm.K = static_cast<int32_t>(g.k);
  gemm.lda = static_cast<int32_t>(g.layout.transA ? g.m : g.k);
  gemm.ldb = static_cast<int32_t>(g.layout.transB ? g.k : g.n);
  gemm.ldc = static_cast<int32_t>(g.n);
  gemm.batch = 1;
  gemm.alpha = conv.alpha;
  gemm.beta = conv.beta;
  gemm.stream = conv.stream;
  gemm.flags = conv.flags;
  gemm.numInputs = conv.numInputs;
  gemm.inputs = conv.inputs;
  if (isaacStatus status = validateGemm(info, gemm, /*infoChecked=*/true))
    return status;

  geometry.n = static_cast<uint32_t>(conv.N);
  geometry.h = static_cast<uint32_t>(conv.H);
  geometry.w = static_cast<uint32_t>(conv.W);
  geometry.c = static_cast<uint32_t>(conv.C);
  geometry.k = static_cast<uint32_t>(conv.K);
  geometry.p = static_cast<uint32_t>(conv.P);
  geometry.q = static_cast<uint32_t>(conv.Q);
  geometry.r = static_cast<uint32_t>(conv.R);
  geometry.s = static_cast<uint32_t>(conv.S);
  geometry.strideH = static_cast<uint32_t>(conv.strideH);
  geometry.strideW = static_cast<uint32_t>(conv.strideW);
  geometry.dilationH = static_cast<uint32_t>(conv.dilationH);
  geometry.dilationW = static_cast<uint32_t>(conv.dilationW);
  geometry.padTop = static_cast<uint32_t>(conv.padTop);
  geometry.padLeft = static_cast<uint32_t>(conv.padLeft);
  return ISAAC_SUCCESS;
}

} // namespace isaac::runtime
