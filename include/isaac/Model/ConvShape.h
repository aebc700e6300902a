//===- ConvShape.h - A 2-D convolution and its implicit GEMM ---*- C++ -*-===//
//
// MLIR-free description of a convolution problem, the conv counterpart of
// GemmShape: the recognizer (lib/Transforms/ConvMatch.cpp), the selection,
// the kernel generator and the runtime read it. A convolution is compiled as
// an implicit GEMM (docs/architecture.md, "Convolutions"):
//
//   M = N·P·Q   rows of the output, (n, p, q) with q fastest
//   N = K       output channels
//   K = C·R·S   the reduction, (r, s, c) with c fastest for NHWC
//
// so a configuration is the #isaac.gemm of that GEMM shape, and one
// legality library serves both (conv-only rules: ConvLegality.h).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_CONVSHAPE_H
#define ISAAC_MODEL_CONVSHAPE_H

#include "isaac/Model/GemmConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace isaac {

/// Storage of the input, filters and output (MLIR's linalg names):
///   NhwcHwcf  input N×H×W×C, filters R×S×C×K, output N×P×Q×K;
///   NhwcFhwc  input N×H×W×C, filters K×R×S×C, output N×P×Q×K;
///   NchwFchw  input N×C×H×W, filters K×C×R×S, output N×K×P×Q.
/// A 1-D convolution (linalg.conv_1d_nwc_wcf) is NhwcHwcf with H = R = 1.
enum class ConvLayout { NhwcHwcf, NhwcFhwc, NchwFchw };

/// "nhwc_hwcf", "nhwc_fhwc", "nchw_fchw": the token of kernel names.
const char *convLayoutName(ConvLayout l);
/// The layout written `token`, or nullopt.
std::optional<ConvLayout> parseConvLayout(std::string_view token);

/// A 2-D convolution, stride and dilation per spatial dimension, zero
/// padding before each (top, left); the padding after (bottom, right)
/// follows from P and Q. Output element (n, p, q, k) =
///   sum over (r, s, c) of I[n, p·sh − padTop + r·dh, q·sw − padLeft + s·dw, c]
///                       · F[r, s, c, k],
/// input elements outside H×W reading as zero.
struct ConvShape {
  int64_t n = 1, h = 1, w = 1,
          c = 1;               ///< input: images, height, width, channels
  int64_t k = 1, r = 1, s = 1; ///< filters: count, height, width
  int64_t p = 1, q = 1;        ///< output height and width
  int64_t strideH = 1, strideW = 1;
  int64_t dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0;
  ConvLayout layout = ConvLayout::NhwcHwcf;
  /// Input and filters (`ab`) and output (`c`).
  GemmTypes types;

  /// The zero rows below the input that the last output row's window
  /// reaches: (P−1)·sh + (R−1)·dh + 1 − H − padTop. Negative when the
  /// windows leave input rows unread (a stride that does not divide).
  int64_t padBottom() const {
    return (p - 1) * strideH + (r - 1) * dilationH + 1 - h - padTop;
  }
  /// The same for columns.
  int64_t padRight() const {
    return (q - 1) * strideW + (s - 1) * dilationW + 1 - w - padLeft;
  }

  /// The output size along one dimension of an input of size `in` padded
  /// by `padLo` and `padHi`: floor((in + padLo + padHi − dilation·(filter −
  /// 1) − 1) / stride) + 1, or 0 when the window does not fit.
  static int64_t outputSize(int64_t in, int64_t padLo, int64_t padHi,
                            int64_t filter, int64_t stride, int64_t dilation);

  /// The implicit GEMM: M = N·P·Q, N = K, K = C·R·S, one batch, the
  /// operand types, and the layout the GEMM operands would have: A is
  /// contiguous along the reduction for NHWC (`n`) and along M for NCHW
  /// (`t`); B is K-major for HWCF filters (`n`), N-major for FHWC and FCHW
  /// (`t`). The selection ranks configurations on this shape.
  GemmShape gemmShape() const;

  /// The box the output pixels' first taps traverse, as TMA's im2col mode
  /// takes it: its lower corner (-padLeft, -padTop) and its upper corner,
  /// the last output pixel's position less the input's last (W - 1 +
  /// upperW is the box's last column).
  struct Im2colBox {
    int64_t lowerW, lowerH, upperW, upperH;
  };
  Im2colBox im2colBox() const;

  /// Whether TMA's im2col mode describes this input for K tiles of `u`
  /// channels (the wgmma kernels' TMA loop): C a multiple of U (a tile is
  /// U channels of one tap), strides at most 8, the corners of the box the
  /// output pixels' first taps traverse within [-128, 127] and the taps'
  /// dilated offsets at most 127. A launch's map also needs TMA's
  /// alignment of the input's address and strides.
  bool im2colMappable(int64_t u) const;

  /// Why the shape is not a convolution isaac can describe (the first
  /// broken rule, in words fit for a diagnostic), or the empty string.
  /// Rules: every size, stride and dilation at least 1, pads at least 0;
  /// no window lying entirely in the padding (padTop, padBottom() below
  /// the filter's dilated extent, likewise left and right); sizes and the
  /// implicit GEMM's M, N and K within 2^31 − 1 (32-bit kernel arguments);
  /// operand types with a kernel types token (GemmTypes::isValid).
  std::string validate() const;

  /// One line naming every field: `f32 nhwc_hwcf N=1 H=34 W=34 C=16 K=32
  /// R=3 S=3 P=32 Q=32 stride=1x1 dilation=1x1 pad=0x0`, for remarks,
  /// tools and test output.
  std::string str() const;
};

/// A conv kernel's name: isaac_conv_<types>_<layout>_<family>_<config>,
/// e.g. isaac_conv_f32_nhwc_hwcf_simt_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4.
/// Unlike GEMM names, the family is always written (GEMM names predate the
/// families and keep simt implicit); <config> is GemmConfig::mangle()
/// without its leading family token.
struct ConvKernelName {
  GemmTypes types;
  ConvLayout layout = ConvLayout::NhwcHwcf;
  GemmConfig config;
  std::string epilogue; ///< 16 lower-case hex digits, or empty

  std::string str() const;
  /// The parts of `name`, or nullopt with what was expected in `error`.
  static std::optional<ConvKernelName> parse(std::string_view name,
                                             std::string *error = nullptr);
};

} // namespace isaac

#endif // ISAAC_MODEL_CONVSHAPE_H
