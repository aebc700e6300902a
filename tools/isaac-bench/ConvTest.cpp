//===- ConvTest.cpp - The convolution problems of isaac-bench -------------===//
//
// isaac-bench-conv-test: checks, without a GPU, what isaac-bench --conv
// runs and how its reference addresses the tensors:
//  - Table 5 against the ISAAC paper's N, P, Q, K, C, R, S, NPQ and CRS
//    columns (typed here from the paper, independently of ConvShapes.cpp);
//  - ResNet-50's distinct convolutions against a list typed from the
//    network's definition;
//  - the output-size formula, --conv-shape's parsing and its errors;
//  - the sweep's coverage of the edge cases the brief of the mode names;
//  - ConvGeometry (the index arithmetic of the GPU reference): every
//    storage maps each tensor one-to-one onto its packed allocation, and a
//    CPU convolution through it equals a direct loop written from the ABI
//    (docs/abi.md) and cuDNN's formats, exactly, on integer data.
// Prints one line per case and `conv test: N cases, N unexpected`; exits 1
// on any unexpected result.
//
//===----------------------------------------------------------------------===//

#include "ConvShapes.h"

#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace bench;

namespace {

int cases = 0, unexpected = 0;

void expect(bool ok, const std::string &what) {
  ++cases;
  if (!ok)
    ++unexpected;
  std::printf("%s %s\n", ok ? "ok" : "UNEXPECTED", what.c_str());
}

std::string shapeText(const isaac::ConvShape &x) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "N=%lld H=%lld W=%lld C=%lld K=%lld R=%lld S=%lld P=%lld "
                "Q=%lld stride=%lldx%lld pad=%lldx%lld after=%lldx%lld "
                "dilation=%lldx%lld",
                (long long)x.n, (long long)x.h, (long long)x.w, (long long)x.c,
                (long long)x.k, (long long)x.r, (long long)x.s, (long long)x.p,
                (long long)x.q, (long long)x.strideH, (long long)x.strideW,
                (long long)x.padTop, (long long)x.padLeft,
                (long long)x.padBottom(), (long long)x.padRight(),
                (long long)x.dilationH, (long long)x.dilationW);
  return line;
}

void testTable5() {
  // Table 5 of the paper: N P Q K C R S NPQ CRS.
  struct Row {
    const char *name;
    int64_t n, p, q, k, c, r, s, npq, crs;
  };
  const Row paper[] = {
      {"Conv1", 16, 79, 341, 32, 1, 5, 20, 431024, 100},
      {"Conv2", 16, 38, 166, 32, 32, 5, 10, 100928, 1600},
      {"Conv3", 16, 24, 240, 32, 16, 3, 3, 92160, 144},
      {"Conv4", 16, 12, 120, 64, 32, 3, 3, 23040, 288},
      {"Conv5", 8, 54, 54, 64, 64, 3, 3, 23328, 576},
      {"Conv6", 8, 27, 27, 128, 128, 3, 3, 5832, 1152},
      {"Conv7", 16, 14, 14, 48, 512, 5, 5, 3136, 12800},
      {"Conv8", 16, 7, 7, 128, 832, 5, 5, 784, 20800},
      {"Conv9", 8, 112, 112, 128, 64, 3, 3, 100352, 576},
      {"Conv10", 8, 56, 56, 256, 128, 3, 3, 25088, 1152},
      {"Conv11", 16, 128, 39, 174, 64, 5, 5, 79872, 1600},
      {"Conv12", 16, 256, 19, 87, 128, 5, 5, 77824, 3200},
      {"Conv13", 16, 7, 7, 512, 512, 3, 3, 784, 4608},
      {"Conv14", 16, 7, 7, 2048, 1024, 1, 1, 784, 1024},
  };
  std::vector<ConvSpec> specs = table5ConvShapes();
  expect(specs.size() == 14,
         "table5: 14 rows, got " + std::to_string(specs.size()));
  std::vector<ConvSpec> named;
  expect(namedConvShapes("table5", named) && named.size() == specs.size(),
         "table5: --conv-shapes table5 names the same suite");
  for (size_t i = 0; i < specs.size() && i < 14; ++i) {
    const Row &w = paper[i];
    const isaac::ConvShape &x = specs[i].shape;
    bool same = specs[i].label == w.name && x.n == w.n && x.p == w.p &&
                x.q == w.q && x.k == w.k && x.c == w.c && x.r == w.r &&
                x.s == w.s && x.n * x.p * x.q == w.npq &&
                x.c * x.r * x.s == w.crs && x.validate().empty();
    expect(same, "table5 " + specs[i].label + ": " + shapeText(x));
  }
}

void testResnet50() {
  // (input size, C, K, R = S, stride) of every distinct convolution of
  // ResNet-50 (torchvision), batch 32, in the order of the network.
  struct Layer {
    const char *name;
    int64_t hw, c, k, rs, stride, out;
  };
  const Layer expected[] = {
      {"rn50.conv1", 224, 3, 64, 7, 2, 112},
      {"rn50.l1.0.conv1", 56, 64, 64, 1, 1, 56},
      {"rn50.l1.0.conv2", 56, 64, 64, 3, 1, 56},
      {"rn50.l1.0.conv3", 56, 64, 256, 1, 1, 56},
      {"rn50.l1.1.conv1", 56, 256, 64, 1, 1, 56},
      {"rn50.l2.0.conv1", 56, 256, 128, 1, 1, 56},
      {"rn50.l2.0.conv2", 56, 128, 128, 3, 2, 28},
      {"rn50.l2.0.conv3", 28, 128, 512, 1, 1, 28},
      {"rn50.l2.0.ds", 56, 256, 512, 1, 2, 28},
      {"rn50.l2.1.conv1", 28, 512, 128, 1, 1, 28},
      {"rn50.l2.1.conv2", 28, 128, 128, 3, 1, 28},
      {"rn50.l3.0.conv1", 28, 512, 256, 1, 1, 28},
      {"rn50.l3.0.conv2", 28, 256, 256, 3, 2, 14},
      {"rn50.l3.0.conv3", 14, 256, 1024, 1, 1, 14},
      {"rn50.l3.0.ds", 28, 512, 1024, 1, 2, 14},
      {"rn50.l3.1.conv1", 14, 1024, 256, 1, 1, 14},
      {"rn50.l3.1.conv2", 14, 256, 256, 3, 1, 14},
      {"rn50.l4.0.conv1", 14, 1024, 512, 1, 1, 14},
      {"rn50.l4.0.conv2", 14, 512, 512, 3, 2, 7},
      {"rn50.l4.0.conv3", 7, 512, 2048, 1, 1, 7},
      {"rn50.l4.0.ds", 14, 1024, 2048, 1, 2, 7},
      {"rn50.l4.1.conv1", 7, 2048, 512, 1, 1, 7},
      {"rn50.l4.1.conv2", 7, 512, 512, 3, 1, 7},
  };
  std::vector<ConvSpec> specs = resnet50ConvShapes();
  expect(specs.size() == 23, "resnet50: 23 distinct convolutions, got " +
                                 std::to_string(specs.size()));
  for (size_t i = 0; i < specs.size() && i < 23; ++i) {
    const Layer &l = expected[i];
    const isaac::ConvShape &x = specs[i].shape;
    bool same = specs[i].label == l.name && x.n == 32 && x.h == l.hw &&
                x.w == l.hw && x.c == l.c && x.k == l.k && x.r == l.rs &&
                x.s == l.rs && x.strideH == l.stride && x.strideW == l.stride &&
                x.padTop == l.rs / 2 && x.padLeft == l.rs / 2 && x.p == l.out &&
                x.q == l.out && x.dilationH == 1 && x.validate().empty();
    expect(same, "resnet50 " + specs[i].label + ": " + shapeText(x));
  }
}

void testOutputSize() {
  struct Case {
    int64_t in, lo, hi, filter, stride, dilation, out;
  };
  const Case cases[] = {
      {161, 0, 0, 5, 2, 1, 79},   // Conv1's P
      {700, 0, 0, 20, 2, 1, 341}, // Conv1's Q
      {341, 0, 0, 10, 2, 1, 166}, // the last window does not reach column 340
      {224, 3, 3, 7, 2, 1, 112},
      {56, 1, 1, 3, 2, 1, 28},
      {7, 1, 1, 3, 1, 1, 7},
      {13, 0, 0, 3, 2, 2, 5},  // dilated extent 5: (13 - 5) / 2 + 1
      {13, 2, 2, 3, 1, 2, 13}, // "same" with dilation 2
      {4, 0, 0, 5, 1, 1, 0},   // the window does not fit
      {5, 0, 0, 3, 1, 3, 0},   // nor dilated
      {1, 0, 0, 1, 3, 1, 1},
  };
  for (const Case &c : cases) {
    int64_t got = isaac::ConvShape::outputSize(c.in, c.lo, c.hi, c.filter,
                                               c.stride, c.dilation);
    char what[160];
    std::snprintf(what, sizeof(what),
                  "output size in=%lld pad=%lld+%lld filter=%lld stride=%lld "
                  "dilation=%lld: %lld (want %lld)",
                  (long long)c.in, (long long)c.lo, (long long)c.hi,
                  (long long)c.filter, (long long)c.stride,
                  (long long)c.dilation, (long long)got, (long long)c.out);
    expect(got == c.out, what);
  }
}

void testParse() {
  struct Good {
    const char *text;
    int64_t p, q, padTop, padLeft, padBottom, padRight;
  };
  const Good good[] = {
      {"16,79,341,32,32,5,10,2,2,0,0,1,1", 38, 166, 0, 0, 0, -1},
      {"2,13,13,3,7,3,3", 11, 11, 0, 0, 0, 0},
      {"2,13,13,3,7,3,3,2,2", 6, 6, 0, 0, 0, 0},
      {"1,7,7,1,1,3,3,1,1,1,1", 7, 7, 1, 1, 1, 1},
      {"1,13,13,5,3,3,3,1,1,2,2,2,2", 13, 13, 2, 2, 2, 2},
      // "same" with an even filter: the odd pixel of padding goes after.
      {"1,8,8,4,4,2,2,1,1,same,same", 8, 8, 0, 0, 1, 1},
      // "same" with stride 2: ceil(13 / 2) rows.
      {"1,13,13,4,4,3,3,2,2,same,same", 7, 7, 1, 1, 1, 1},
      // Explicit P and Q: one more row of padding below than above.
      {"1,8,8,4,4,3,3,1,1,1,1,1,1,9,8", 9, 8, 1, 1, 2, 1},
  };
  for (const Good &g : good) {
    ConvSpec spec;
    std::string error;
    bool ok = parseConvShape(g.text, spec, error);
    const isaac::ConvShape &x = spec.shape;
    expect(ok && x.p == g.p && x.q == g.q && x.padTop == g.padTop &&
               x.padLeft == g.padLeft && x.padBottom() == g.padBottom &&
               x.padRight() == g.padRight,
           std::string("parse '") + g.text +
               "': " + (ok ? shapeText(x) : error));
  }
  struct Bad {
    const char *text, *message;
  };
  const Bad bad[] = {
      {"1,2,3", "is not N,H,W,C,K,R,S[,strideH,strideW[,padTop,padLeft[,"
                "dilationH,dilationW[,P,Q]]]]"},
      {"1,13,13,3,7,3,3,1", "is not N,H,W,C,K,R,S"},
      {"1,13,x,3,7,3,3", "'x' is not a number in [1, 2^31)"},
      {"0,13,13,3,7,3,3", "'0' is not a number in [1, 2^31)"},
      {"1,13,13,3,7,3,3,1,1,-1,0", "'-1' is not a number in [0, 2^31)"},
      {"1,4,4,3,7,5,5", "filter does not fit in the padded input"},
      {"1,7,7,3,7,3,3,1,1,0,0,4,4", "filter does not fit"},
      {"1,7,7,3,7,1,1,1,1,1,1", "window lies entirely in the padding"},
      {"1,8,8,4,4,3,3,1,1,1,1,1,1,11,8", "window lies entirely in the padding"},
  };
  for (const Bad &b : bad) {
    ConvSpec spec;
    std::string error;
    bool ok = parseConvShape(b.text, spec, error);
    expect(!ok && error.find(b.message) != std::string::npos,
           std::string("reject '") + b.text + "': " + error);
  }
}

void testSweep() {
  std::vector<ConvSpec> specs = convSweepShapes();
  expect(specs.size() >= 100 && specs.size() <= 300,
         "sweep: " + std::to_string(specs.size()) +
             " problems (100 to 300 per kernel)");
  std::set<std::string> unique;
  bool valid = true;
  std::map<std::string, int> seen;
  for (const ConvSpec &spec : specs) {
    const isaac::ConvShape &x = spec.shape;
    unique.insert(x.str());
    if (!x.validate().empty() || x.p < 1 || x.q < 1)
      valid = false;
    auto mark = [&](const char *what, bool holds) {
      if (holds)
        ++seen[what];
    };
    mark("stride 1", x.strideH == 1);
    mark("stride 2", x.strideH == 2 && x.strideW == 2);
    mark("dilation 2", x.dilationH == 2 && x.dilationW == 2);
    mark("dilation 2 with stride 2", x.dilationH == 2 && x.strideH == 2);
    mark("padding 0", x.padTop == 0 && x.padBottom() <= 0);
    mark("padding 1", x.padTop == 1 && x.padLeft == 1);
    mark("padding after > before (same, even filter)",
         x.padBottom() > x.padTop);
    mark("a stride that leaves input rows unread", x.padBottom() < 0);
    mark("R = S = 1", x.r == 1 && x.s == 1);
    mark("R != S", x.r != x.s);
    mark("C = 1", x.c == 1);
    mark("C = 3", x.c == 3);
    mark("odd C > 3", x.c > 3 && x.c % 2 == 1);
    mark("C a multiple of 4", x.c % 4 == 0);
    mark("K = 1", x.k == 1);
    mark("K = 3", x.k == 3);
    mark("odd K > 3", x.k > 3 && x.k % 2 == 1);
    mark("N = 1", x.n == 1);
    mark("N > 1", x.n > 1);
    mark("H = 7", x.h == 7);
    mark("H = 13", x.h == 13);
    mark("H != W", x.h != x.w);
    mark("C*R*S >= 4096 (split-K)", x.c * x.r * x.s >= 4096);
    mark("N*P*Q >= 4096", x.n * x.p * x.q >= 4096);
    // The wgmma kernels' im2col TMA path: C a multiple of U (up to 64),
    // C*R*S of at least 4 K tiles, in every filter shape and stride.
    bool im2col = x.c % 64 == 0 && x.c * x.r * x.s >= 4 * 64;
    mark("im2col: C a multiple of 64, 4+ K tiles", im2col);
    mark("im2col with stride 2 and dilation 2",
         im2col && x.strideH == 2 && x.dilationH == 2);
    mark("im2col with R != S", im2col && x.r != x.s);
    mark("im2col with N > 1 and odd P*Q", im2col && x.n > 1 && x.p * x.q % 2);
  }
  expect(valid, "sweep: every problem validates");
  expect(unique.size() == specs.size(), "sweep: no problem twice");
  for (const char *what : {"stride 1",
                           "stride 2",
                           "dilation 2",
                           "dilation 2 with stride 2",
                           "padding 0",
                           "padding 1",
                           "padding after > before (same, even filter)",
                           "a stride that leaves input rows unread",
                           "R = S = 1",
                           "R != S",
                           "C = 1",
                           "C = 3",
                           "odd C > 3",
                           "C a multiple of 4",
                           "K = 1",
                           "K = 3",
                           "odd K > 3",
                           "N = 1",
                           "N > 1",
                           "H = 7",
                           "H = 13",
                           "H != W",
                           "C*R*S >= 4096 (split-K)",
                           "N*P*Q >= 4096",
                           "im2col: C a multiple of 64, 4+ K tiles",
                           "im2col with stride 2 and dilation 2",
                           "im2col with R != S",
                           "im2col with N > 1 and odd P*Q"})
    expect(seen[what] > 0, std::string("sweep covers ") + what + ": " +
                               std::to_string(seen[what]) + " problems");
}

/// A direct convolution written from the layouts' definitions, on its own
/// index arithmetic: O[n][p][q][k] (or O[n][k][p][q]) = sum over r, s, c.
std::vector<double> directConv(const isaac::ConvShape &x, ConvStorage storage,
                               const std::vector<double> &in,
                               const std::vector<double> &f) {
  bool nchw = storage == ConvStorage::CudnnNchw;
  bool hwcf =
      storage == ConvStorage::Isaac && x.layout == isaac::ConvLayout::NhwcHwcf;
  std::vector<double> out(x.n * x.p * x.q * x.k);
  for (int64_t n = 0; n < x.n; ++n)
    for (int64_t p = 0; p < x.p; ++p)
      for (int64_t q = 0; q < x.q; ++q)
        for (int64_t k = 0; k < x.k; ++k) {
          double sum = 0;
          for (int64_t r = 0; r < x.r; ++r)
            for (int64_t s = 0; s < x.s; ++s)
              for (int64_t c = 0; c < x.c; ++c) {
                int64_t y = p * x.strideH - x.padTop + r * x.dilationH;
                int64_t xx = q * x.strideW - x.padLeft + s * x.dilationW;
                if (y < 0 || y >= x.h || xx < 0 || xx >= x.w)
                  continue;
                double a = nchw ? in[((n * x.c + c) * x.h + y) * x.w + xx]
                                : in[((n * x.h + y) * x.w + xx) * x.c + c];
                double b = nchw   ? f[((k * x.c + c) * x.r + r) * x.s + s]
                           : hwcf ? f[((r * x.s + s) * x.c + c) * x.k + k]
                                  : f[((k * x.r + r) * x.s + s) * x.c + c];
                sum += a * b;
              }
          int64_t o = nchw ? ((n * x.k + k) * x.p + p) * x.q + q
                           : ((n * x.p + p) * x.q + q) * x.k + k;
          out[o] = sum;
        }
  return out;
}

/// The reference's loops (ConvKernels.cu): rows m, columns k, reduction j,
/// through ConvGeometry.
std::vector<double> geometryConv(const ConvGeometry &g,
                                 const std::vector<double> &in,
                                 const std::vector<double> &f) {
  std::vector<double> out(g.n * g.p * g.q * g.k, -1.0);
  for (int64_t m = 0; m < g.n * g.p * g.q; ++m)
    for (int64_t k = 0; k < g.k; ++k) {
      int64_t n, p, q;
      decodeRow(g, m, n, p, q);
      double sum = 0;
      for (int64_t j = 0; j < g.c * g.r * g.s; ++j) {
        int64_t r, s, c;
        decodeReduction(g, j, r, s, c);
        int64_t offset = inputOffset(g, n, p, q, r, s, c);
        if (offset >= 0)
          sum += in[offset] * f[filterOffset(g, k, r, s, c)];
      }
      out[outputOffset(g, n, p, q, k)] = sum;
    }
  return out;
}

void testGeometry() {
  const char *shapes[] = {
      "2,7,9,3,5,3,3,1,1,1,1",       "1,13,13,4,3,3,3,2,2,1,1,2,2",
      "3,8,5,1,1,2,3,1,2,same,same", "1,11,7,6,7,1,1,2,2",
      "2,9,14,5,4,5,3,1,1,2,1,1,2",  "1,8,8,4,4,3,3,1,1,1,1,1,1,9,8",
  };
  std::mt19937_64 random(7);
  for (const char *text : shapes) {
    ConvSpec spec;
    std::string error;
    if (!parseConvShape(text, spec, error)) {
      expect(false, std::string("geometry shape '") + text + "': " + error);
      continue;
    }
    for (ConvStorage storage :
         {ConvStorage::Isaac, ConvStorage::CudnnNhwc, ConvStorage::CudnnNchw})
      for (isaac::ConvLayout layout :
           {isaac::ConvLayout::NhwcHwcf, isaac::ConvLayout::NhwcFhwc}) {
        if (storage != ConvStorage::Isaac &&
            layout == isaac::ConvLayout::NhwcFhwc)
          continue; // cuDNN's formats do not depend on the layout
        isaac::ConvShape x = spec.shape;
        x.layout = layout;
        ConvGeometry g = convGeometry(x, storage);
        std::string name =
            std::string(text) + " " +
            (storage == ConvStorage::Isaac       ? isaac::convLayoutName(layout)
             : storage == ConvStorage::CudnnNhwc ? "cudnn-nhwc"
                                                 : "cudnn-nchw");
        // Each tensor covers its allocation exactly once.
        auto covers = [&](int64_t count, auto offsetOf, int64_t d0, int64_t d1,
                          int64_t d2, int64_t d3) {
          std::vector<int> hits(count, 0);
          bool inside = true;
          for (int64_t a = 0; a < d0; ++a)
            for (int64_t b = 0; b < d1; ++b)
              for (int64_t c = 0; c < d2; ++c)
                for (int64_t d = 0; d < d3; ++d) {
                  int64_t o = offsetOf(a, b, c, d);
                  if (o < 0 || o >= count)
                    inside = false;
                  else
                    ++hits[o];
                }
          for (int h : hits)
            if (h != 1)
              inside = false;
          return inside;
        };
        bool input = covers(
            x.n * x.h * x.w * x.c,
            [&](int64_t n, int64_t y, int64_t xx, int64_t c) {
              return n * g.in[0] + y * g.in[1] + xx * g.in[2] + c * g.in[3];
            },
            x.n, x.h, x.w, x.c);
        bool filter = covers(
            x.k * x.r * x.s * x.c,
            [&](int64_t k, int64_t r, int64_t s, int64_t c) {
              return filterOffset(g, k, r, s, c);
            },
            x.k, x.r, x.s, x.c);
        bool output = covers(
            x.n * x.p * x.q * x.k,
            [&](int64_t n, int64_t p, int64_t q, int64_t k) {
              return outputOffset(g, n, p, q, k);
            },
            x.n, x.p, x.q, x.k);
        bool decodes = true;
        for (int64_t o = 0; o < x.n * x.p * x.q * x.k; ++o) {
          int64_t n, p, q, k;
          decodeOutput(g, o, n, p, q, k);
          if (outputOffset(g, n, p, q, k) != o || n >= x.n || p >= x.p ||
              q >= x.q || k >= x.k)
            decodes = false;
        }
        expect(input && filter && output && decodes,
               "geometry " + name +
                   ": input, filters and output packed, "
                   "decodeOutput inverts outputOffset");
        // Small integers: every sum is exact whatever its order.
        std::uniform_int_distribution<int> value(-8, 8);
        std::vector<double> in(x.n * x.h * x.w * x.c), f(x.k * x.r * x.s * x.c);
        for (double &v : in)
          v = value(random);
        for (double &v : f)
          v = value(random);
        bool same = geometryConv(g, in, f) == directConv(x, storage, in, f);
        expect(same, "geometry " + name +
                         ": the reference's loops equal a "
                         "direct convolution");
      }
  }
}

void testProblem() {
  ConvSpec spec;
  std::string error;
  parseConvShape("16,14,14,512,48,5,5,1,1,2,2", spec, error);
  isaac::GemmTypes f32 = *isaac::GemmTypes::parseToken("f32");
  ConvProblem p = makeConvProblem(spec, f32, isaac::ConvLayout::NhwcFhwc, true);
  Problem g = p.gemm();
  expect(g.M == 16 * 14 * 14 && g.N == 48 && g.K == 512 * 25 && !g.transA &&
             g.transB && g.offset == 1 && g.ldc == 48,
         "problem: the implicit GEMM of Conv7 (fhwc) is " +
             std::to_string(g.M) + "x" + std::to_string(g.N) + "x" +
             std::to_string(g.K) + " " + g.layout());
  expect(p.flops() == 2.0 * 3136 * 48 * 12800,
         "problem: flops 2*NPQ*K*CRS = " + std::to_string(p.flops()));
  expect(p.brief() == "N16 14x14 C512 K48 5x5 s1 p2 d1",
         "problem: brief '" + p.brief() + "'");
  ConvProblem q = makeConvProblem(table5ConvShapes()[0], f32,
                                  isaac::ConvLayout::NhwcHwcf, false);
  expect(q.brief() == "N16 161x700 C1 K32 5x20 s2 p0 d1" && !q.gemm().transB,
         "problem: brief '" + q.brief() + "', hwcf filters are GEMM nn");
}

} // namespace

int main() {
  testTable5();
  testResnet50();
  testOutputSize();
  testParse();
  testSweep();
  testGeometry();
  testProblem();
  std::printf("conv test: %d cases, %d unexpected\n", cases, unexpected);
  return unexpected ? 1 : 0;
}
