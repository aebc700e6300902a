//===- ConvShape.cpp - A 2-D convolution and its implicit GEMM ------------===//

#include "isaac/Model/ConvShape.h"

#include <sstream>

using namespace isaac;

namespace {
struct LayoutToken {
  ConvLayout layout;
  const char *token;
};
constexpr LayoutToken kLayouts[] = {
    {ConvLayout::NhwcHwcf, "nhwc_hwcf"},
    {ConvLayout::NhwcFhwc, "nhwc_fhwc"},
    {ConvLayout::NchwFchw, "nchw_fchw"},
};
constexpr int64_t kMax32 = (int64_t(1) << 31) - 1;
} // namespace

const char *isaac::convLayoutName(ConvLayout l) {
  for (const LayoutToken &t : kLayouts)
    if (t.layout == l)
      return t.token;
  return "?";
}

std::optional<ConvLayout> isaac::parseConvLayout(std::string_view token) {
  for (const LayoutToken &t : kLayouts)
    if (token == t.token)
      return t.layout;
  return std::nullopt;
}

ConvShape::Im2colBox ConvShape::im2colBox() const {
  Im2colBox box;
  box.lowerW = -padLeft;
  box.lowerH = -padTop;
  box.upperW = box.lowerW + (q - 1) * strideW - (w - 1);
  box.upperH = box.lowerH + (p - 1) * strideH - (h - 1);
  return box;
}

bool ConvShape::im2colMappable(int64_t u) const {
  if (u < 1 || c % u != 0 || strideW > 8 || strideH > 8)
    return false;
  auto inCorner = [](int64_t v) { return v >= -128 && v <= 127; };
  Im2colBox box = im2colBox();
  return inCorner(box.lowerW) && inCorner(box.lowerH) && inCorner(box.upperW) &&
         inCorner(box.upperH) && dilationW * (s - 1) <= 127 &&
         dilationH * (r - 1) <= 127;
}

int64_t ConvShape::outputSize(int64_t in, int64_t padLo, int64_t padHi,
                              int64_t filter, int64_t stride,
                              int64_t dilation) {
  int64_t extent = in + padLo + padHi - dilation * (filter - 1);
  if (stride < 1 || extent < 1)
    return 0;
  return (extent - 1) / stride + 1;
}

GemmShape ConvShape::gemmShape() const {
  GemmShape g;
  g.m = n * p * q;
  g.n = k;
  g.k = c * r * s;
  g.batch = 1;
  g.dtype = types.ab;
  g.cType = types.c;
  g.tf32 = types.tf32;
  g.layout.transA = layout == ConvLayout::NchwFchw;
  g.layout.transB = layout != ConvLayout::NhwcHwcf;
  return g;
}

std::string ConvShape::validate() const {
  std::ostringstream os;
  auto positive = [&](const char *name, int64_t v) {
    if (v < 1 && os.tellp() == 0)
      os << name << " = " << v << " must be at least 1";
  };
  positive("N", n);
  positive("H", h);
  positive("W", w);
  positive("C", c);
  positive("K", k);
  positive("R", r);
  positive("S", s);
  positive("the vertical stride", strideH);
  positive("the horizontal stride", strideW);
  positive("the vertical dilation", dilationH);
  positive("the horizontal dilation", dilationW);
  positive("P", p);
  positive("Q", q);
  if (os.tellp() != 0)
    return os.str();
  if (padTop < 0 || padLeft < 0) {
    os << "padding " << padTop << "x" << padLeft
       << " (top x left) must not be negative";
    return os.str();
  }
  for (int64_t v : {n, h, w, c, k, r, s, p, q, strideH, strideW, dilationH,
                    dilationW, padTop, padLeft})
    if (v > kMax32) {
      os << "a size, stride, dilation or padding exceeds 2^31 - 1 (" << str()
         << ")";
      return os.str();
    }
  // A window entirely in the padding computes a zero that no frontend
  // means: it shows a P or Q inconsistent with the input (or a padding
  // larger than the filter's dilated extent).
  int64_t extentH = (r - 1) * dilationH + 1, extentW = (s - 1) * dilationW + 1;
  if (padTop >= extentH || padBottom() >= extentH) {
    os << "output rows whose window lies entirely in the padding: P = " << p
       << " with H = " << h << ", R = " << r << ", stride " << strideH
       << ", dilation " << dilationH << " and top padding " << padTop
       << " pads " << padBottom() << " rows below the input (at most "
       << extentH - 1 << " are read by some window)";
    return os.str();
  }
  if (padLeft >= extentW || padRight() >= extentW) {
    os << "output columns whose window lies entirely in the padding: Q = " << q
       << " with W = " << w << ", S = " << s << ", stride " << strideW
       << ", dilation " << dilationW << " and left padding " << padLeft
       << " pads " << padRight() << " columns right of the input (at most "
       << extentW - 1 << " are read by some window)";
    return os.str();
  }
  GemmShape g = gemmShape();
  if (g.m > kMax32 || g.k > kMax32) {
    os << "the implicit GEMM is " << g.m << " x " << g.n << " x " << g.k
       << " (N*P*Q x K x C*R*S); each must be at most 2^31 - 1";
    return os.str();
  }
  if (!types.isValid()) {
    os << "filters of " << dtypeName(types.ab) << " into an output of "
       << dtypeName(types.c) << " have no kernel";
    return os.str();
  }
  return "";
}

std::string ConvShape::str() const {
  std::ostringstream os;
  os << types.token() << " " << convLayoutName(layout) << " N=" << n
     << " H=" << h << " W=" << w << " C=" << c << " K=" << k << " R=" << r
     << " S=" << s << " P=" << p << " Q=" << q << " stride=" << strideH << "x"
     << strideW << " dilation=" << dilationH << "x" << dilationW
     << " pad=" << padTop << "x" << padLeft;
  return os.str();
}

//===----------------------------------------------------------------------===//
// Kernel names
//===----------------------------------------------------------------------===//

static constexpr std::string_view kConvPrefix = "isaac_conv_";

/// GemmConfig::mangle() with the family token first for every family
/// (mma's mangle() writes it; simt's predates families and does not).
static std::string mangleWithFamily(const GemmConfig &c) {
  std::string m = c.mangle();
  std::string token = std::string(gemmFamilyName(c.family)) + "_";
  if (m.compare(0, token.size(), token) != 0)
    m = token + m;
  return m;
}

std::string ConvKernelName::str() const {
  std::string name = std::string(kConvPrefix) + types.token() + "_" +
                     convLayoutName(layout) + "_" + mangleWithFamily(config);
  if (!epilogue.empty())
    name += "_ep" + epilogue;
  return name;
}

std::optional<ConvKernelName> ConvKernelName::parse(std::string_view name,
                                                    std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<ConvKernelName> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  if (name.substr(0, kConvPrefix.size()) != kConvPrefix)
    return fail("the prefix isaac_conv_");
  std::string_view rest = name.substr(kConvPrefix.size());
  ConvKernelName out;
  size_t sep = rest.find('_');
  std::optional<GemmTypes> types =
      sep == std::string_view::npos
          ? std::nullopt
          : GemmTypes::parseToken(rest.substr(0, sep));
  if (!types)
    return fail("an element-type token after isaac_conv_");
  out.types = *types;
  rest = rest.substr(sep + 1);
  // The layout token holds one '_' itself: nhwc_hwcf.
  size_t sep2 = rest.find('_');
  sep = sep2 == std::string_view::npos ? sep2 : rest.find('_', sep2 + 1);
  std::optional<ConvLayout> layout = sep == std::string_view::npos
                                         ? std::nullopt
                                         : parseConvLayout(rest.substr(0, sep));
  if (!layout) {
    std::string known;
    for (const LayoutToken &t : kLayouts)
      known += std::string(known.empty() ? "" : ", ") + t.token;
    return fail("a layout (" + known + ") after the element types");
  }
  out.layout = *layout;
  rest = rest.substr(sep + 1);
  sep = rest.find('_');
  std::optional<GemmFamily> family = sep == std::string_view::npos
                                         ? std::nullopt
                                         : parseGemmFamily(rest.substr(0, sep));
  if (!family) {
    // The tokens of GemmParams.def's families, so the message stays true.
    std::string known;
    for (int f = 0; f < kNumGemmFamilies; ++f)
      known += std::string(f ? ", " : "") +
               gemmFamilyName(static_cast<GemmFamily>(f));
    return fail("a family token (" + known + ") after the layout");
  }
  // simt's mangled configuration has no token; the others' start with it.
  std::string_view mangled =
      *family == GemmFamily::Simt ? rest.substr(sep + 1) : rest;
  std::string why;
  if (!splitEpilogueSuffix(mangled, out.epilogue, why))
    return fail(why);
  std::optional<GemmConfig> config = GemmConfig::parseMangled(mangled, &why);
  if (!config)
    return fail(why);
  if (config->family != *family)
    return fail("a configuration of the family the name writes");
  out.config = *config;
  return out;
}
