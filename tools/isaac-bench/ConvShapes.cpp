//===- ConvShapes.cpp - Convolution problems of isaac-bench ---------------===//

#include "ConvShapes.h"

#include <algorithm>
#include <optional>
#include <sstream>

namespace bench {
std::vector<ConvSpec> convSweepShapes() {
  struct Tuple {
    int64_t n, h, w, c, k;
  };
  // C and K of 1, 3, odd values and multiples of the vector widths (the
  // input's fast path needs vec | C), odd and even spatial sizes, N of 1 to
  // 3. Eight tuples, taken three at a time, so that each combination below
  // meets a different trio.
  static const Tuple kTuples[] = {
      {1, 7, 7, 3, 16},  {2, 13, 13, 8, 31},  {1, 13, 7, 1, 1},
      {3, 9, 14, 17, 3}, {2, 16, 16, 64, 64}, {1, 7, 13, 32, 7},
      {2, 11, 8, 6, 33}, {1, 13, 13, 4, 128},
  };
  constexpr int kTupleCount = sizeof(kTuples) / sizeof(kTuples[0]);
  constexpr int kPerCombination = 3;
  static const int64_t kFilters[][2] = {{1, 1}, {3, 3}, {5, 5},
                                        {1, 3}, {3, 1}, {2, 2}};
  enum Pad { Zero, One, Same };

  std::vector<ConvSpec> specs;
  auto seen = [&](const isaac::ConvShape &x) {
    return std::any_of(specs.begin(), specs.end(), [&](const ConvSpec &s) {
      const isaac::ConvShape &y = s.shape;
      return x.str() == y.str();
    });
  };
  // The tuple's convolution with that filter, stride, dilation and
  // padding, or nothing where it has no output, is invalid or is already
  // in the sweep.
  auto shapeOf = [&](const Tuple &u, const int64_t *filter, int64_t stride,
                     int64_t dilation,
                     Pad pad) -> std::optional<isaac::ConvShape> {
    isaac::ConvShape x = isaac::symmetricConv(
        u.n, u.h, u.w, u.c, u.k, filter[0], filter[1], stride, stride,
        pad == One ? 1 : 0, pad == One ? 1 : 0, dilation, dilation);
    if (pad == Same) {
      isaac::samePadding(x.h, x.r, stride, dilation, x.padTop, x.p);
      isaac::samePadding(x.w, x.s, stride, dilation, x.padLeft, x.q);
    }
    if (x.p < 1 || x.q < 1 || !x.validate().empty() || seen(x))
      return std::nullopt;
    return x;
  };
  int combination = 0;
  for (const auto &filter : kFilters)
    for (int64_t stride : {1, 2})
      for (int64_t dilation : {1, 2})
        for (Pad pad : {Zero, One, Same}) {
          int taken = 0;
          for (int t = 0; t < kTupleCount && taken < kPerCombination; ++t) {
            const Tuple &u =
                kTuples[(combination * kPerCombination + t) % kTupleCount];
            std::optional<isaac::ConvShape> x =
                shapeOf(u, filter, stride, dilation, pad);
            if (!x)
              continue;
            const char *padName = pad == Zero  ? "p0"
                                  : pad == One ? "p1"
                                               : "same";
            specs.push_back({"sweep-" + std::to_string(filter[0]) + "x" +
                                 std::to_string(filter[1]) + "s" +
                                 std::to_string(stride) + "d" +
                                 std::to_string(dilation) + padName,
                             *x});
            ++taken;
          }
          ++combination;
        }
  // The wgmma kernels' im2col TMA path (docs/abi.md, "Tensor maps"): C a
  // multiple of U (up to 64), every filter, stride, dilation and padding
  // above, odd output sizes whose rows wrap inside a block, N of 1 to 3 (a
  // block's last rows past the last image).
  static const Tuple kIm2colTuples[] = {{1, 17, 19, 128, 24},
                                        {2, 14, 13, 64, 40},
                                        {3, 11, 12, 128, 16},
                                        {1, 21, 18, 64, 33}};
  int im2col = 0;
  for (const auto &filter : kFilters)
    for (int64_t stride : {1, 2})
      for (int64_t dilation : {1, 2})
        for (Pad pad : {Zero, One, Same})
          if (std::optional<isaac::ConvShape> x = shapeOf(
                  kIm2colTuples[im2col++ % 4], filter, stride, dilation, pad))
            specs.push_back({"sweep-im2col", *x});
  // Larger layers: several tiles along every implicit-GEMM dimension, deep
  // reductions (split-K), a stride that does not divide the input.
  specs.push_back({"sweep-large",
                   isaac::symmetricConv(2, 56, 56, 64, 64, 3, 3, 1, 1, 1, 1)});
  specs.push_back({"sweep-large", isaac::symmetricConv(1, 28, 28, 256, 129, 1,
                                                       1, 2, 2, 0, 0)});
  specs.push_back({"sweep-large",
                   isaac::symmetricConv(4, 14, 14, 512, 48, 5, 5, 1, 1, 2, 2)});
  specs.push_back({"sweep-large",
                   isaac::symmetricConv(1, 7, 7, 832, 128, 5, 5, 1, 1, 2, 2)});
  specs.push_back({"sweep-large", isaac::symmetricConv(3, 30, 31, 17, 100, 3, 3,
                                                       2, 2, 1, 1, 2, 2)});
  return specs;
}

double ConvProblem::flops() const {
  return 2.0 * static_cast<double>(shape.n * shape.p * shape.q) *
         static_cast<double>(shape.k) *
         static_cast<double>(shape.c * shape.r * shape.s);
}

double ConvProblem::bytes() const {
  return static_cast<double>(inputCount() + filterCount()) *
             static_cast<double>(dtypeSize(dtype())) +
         static_cast<double>(outputCount()) *
             static_cast<double>(dtypeSize(outDtype()));
}

Problem ConvProblem::gemm() const {
  isaac::GemmShape g = shape.gemmShape();
  Shape s;
  s.M = g.m;
  s.N = g.n;
  s.K = g.k;
  s.transA = g.layout.transA;
  s.transB = g.layout.transB;
  Problem p = makeProblem(s, shape.types, 1, 0, 0, offset != 0);
  p.offset = offset;
  return p;
}

std::string ConvProblem::describe() const {
  std::string text = shape.str();
  if (offset)
    text += " misaligned by " + std::to_string(offset);
  return text;
}

std::string ConvProblem::brief() const {
  auto pair = [](int64_t a, int64_t b) {
    return a == b ? std::to_string(a)
                  : std::to_string(a) + "x" + std::to_string(b);
  };
  std::ostringstream os;
  os << "N" << shape.n << " " << shape.h << "x" << shape.w << " C" << shape.c
     << " K" << shape.k << " " << shape.r << "x" << shape.s << " s"
     << pair(shape.strideH, shape.strideW) << " p"
     << pair(shape.padTop, shape.padLeft) << " d"
     << pair(shape.dilationH, shape.dilationW);
  return os.str();
}

ConvGeometry convGeometry(const isaac::ConvShape &x, ConvStorage storage) {
  ConvGeometry g;
  g.n = x.n;
  g.h = x.h;
  g.w = x.w;
  g.c = x.c;
  g.k = x.k;
  g.r = x.r;
  g.s = x.s;
  g.p = x.p;
  g.q = x.q;
  g.strideH = x.strideH;
  g.strideW = x.strideW;
  g.dilationH = x.dilationH;
  g.dilationW = x.dilationW;
  g.padTop = x.padTop;
  g.padLeft = x.padLeft;
  auto set = [](int64_t *strides, int64_t a, int64_t b, int64_t c, int64_t d) {
    strides[0] = a;
    strides[1] = b;
    strides[2] = c;
    strides[3] = d;
  };
  if (storage == ConvStorage::CudnnNchw ||
      (storage == ConvStorage::Isaac &&
       x.layout == isaac::ConvLayout::NchwFchw)) {
    set(g.in, x.c * x.h * x.w, x.w, 1, x.h * x.w);
    set(g.filter, x.c * x.r * x.s, x.s, 1, x.r * x.s);
    set(g.out, x.k * x.p * x.q, x.q, 1, x.p * x.q);
    return g;
  }
  set(g.in, x.h * x.w * x.c, x.w * x.c, x.c, 1);
  set(g.out, x.p * x.q * x.k, x.q * x.k, x.k, 1);
  bool hwcf =
      storage == ConvStorage::Isaac && x.layout == isaac::ConvLayout::NhwcHwcf;
  if (hwcf) // F[r][s][c][k]
    set(g.filter, 1, x.s * x.c * x.k, x.c * x.k, x.k);
  else // F[k][r][s][c]
    set(g.filter, x.r * x.s * x.c, x.s * x.c, x.c, 1);
  return g;
}

ConvProblem makeConvProblem(const ConvSpec &spec, isaac::GemmTypes types,
                            isaac::ConvLayout layout, bool misalign) {
  ConvProblem p;
  p.label = spec.label;
  p.shape = spec.shape;
  p.shape.types = types;
  p.shape.layout = layout;
  p.offset = misalign ? 1 : 0;
  return p;
}

} // namespace bench
