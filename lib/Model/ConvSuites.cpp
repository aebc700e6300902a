//===- ConvSuites.cpp - Named convolutions and their text form ------------===//

#include "isaac/Model/ConvSuites.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace isaac;

ConvShape isaac::symmetricConv(int64_t n, int64_t h, int64_t w, int64_t c,
                               int64_t k, int64_t r, int64_t s, int64_t strideH,
                               int64_t strideW, int64_t padTop, int64_t padLeft,
                               int64_t dilationH, int64_t dilationW) {
  ConvShape x;
  x.n = n;
  x.h = h;
  x.w = w;
  x.c = c;
  x.k = k;
  x.r = r;
  x.s = s;
  x.strideH = strideH;
  x.strideW = strideW;
  x.padTop = padTop;
  x.padLeft = padLeft;
  x.dilationH = dilationH;
  x.dilationW = dilationW;
  x.p = ConvShape::outputSize(h, padTop, padTop, r, strideH, dilationH);
  x.q = ConvShape::outputSize(w, padLeft, padLeft, s, strideW, dilationW);
  return x;
}

void isaac::samePadding(int64_t in, int64_t filter, int64_t stride,
                        int64_t dilation, int64_t &padLo, int64_t &out) {
  out = (in + stride - 1) / stride;
  int64_t total = std::max<int64_t>(
      (out - 1) * stride + dilation * (filter - 1) + 1 - in, 0);
  padLo = total / 2;
}

static ConvSpec spec(const char *label, const ConvShape &shape) {
  return ConvSpec{label, shape};
}

std::vector<ConvSpec> isaac::table5ConvShapes() {
  // Each row: the paper's N, P, Q, K, C, R, S (checked by
  // isaac-bench-conv-test); H, W, strides and padding from the DeepBench
  // layer, written (w, h, c, n, k, s, r, pad_w, pad_h, wstride, hstride)
  // there.
  return {
      // DeepSpeech: (700, 161, 1, 16, 32, 20, 5, 0, 0, 2, 2) and
      // (341, 79, 32, 16, 32, 10, 5, 0, 0, 2, 2).
      spec("Conv1", symmetricConv(16, 161, 700, 1, 32, 5, 20, 2, 2, 0, 0)),
      spec("Conv2", symmetricConv(16, 79, 341, 32, 32, 5, 10, 2, 2, 0, 0)),
      // OCR: (240, 24, 16, 16, 32, 3, 3, 1, 1, 1, 1) and
      // (120, 12, 32, 16, 64, 3, 3, 1, 1, 1, 1).
      spec("Conv3", symmetricConv(16, 24, 240, 16, 32, 3, 3, 1, 1, 1, 1)),
      spec("Conv4", symmetricConv(16, 12, 120, 32, 64, 3, 3, 1, 1, 1, 1)),
      // Face recognition: (54, 54, 64, 8, 64, 3, 3, 1, 1, 1, 1),
      // (27, 27, 128, 8, 128, ...), (14, 14, 512, 16, 48, 5, 5, 2, 2, 1, 1),
      // (7, 7, 832, 16, 128, 5, 5, 2, 2, 1, 1).
      spec("Conv5", symmetricConv(8, 54, 54, 64, 64, 3, 3, 1, 1, 1, 1)),
      spec("Conv6", symmetricConv(8, 27, 27, 128, 128, 3, 3, 1, 1, 1, 1)),
      spec("Conv7", symmetricConv(16, 14, 14, 512, 48, 5, 5, 1, 1, 2, 2)),
      spec("Conv8", symmetricConv(16, 7, 7, 832, 128, 5, 5, 1, 1, 2, 2)),
      // Vision: (112, 112, 64, 8, 128, 3, 3, 1, 1, 1, 1) and
      // (56, 56, 128, 8, 256, 3, 3, 1, 1, 1, 1).
      spec("Conv9", symmetricConv(8, 112, 112, 64, 128, 3, 3, 1, 1, 1, 1)),
      spec("Conv10", symmetricConv(8, 56, 56, 128, 256, 3, 3, 1, 1, 1, 1)),
      // Speaker ID: the paper's P, Q, K (128, 39, 174 and 256, 19, 87) are
      // K, P, Q of DeepBench's (350, 80, 64, 16, 128, 5, 5, 1, 1, 2, 2) and
      // (175, 40, 128, 16, 256, 5, 5, 1, 1, 2, 2); the paper's values, at
      // stride 1 with "same" padding.
      spec("Conv11", symmetricConv(16, 128, 39, 64, 174, 5, 5, 1, 1, 2, 2)),
      spec("Conv12", symmetricConv(16, 256, 19, 128, 87, 5, 5, 1, 1, 2, 2)),
      // ResNet: (7, 7, 512, 16, 512, 3, 3, 1, 1, 1, 1) and
      // (14, 14, 1024, 16, 2048, 1, 1, 0, 0, 2, 2).
      spec("Conv13", symmetricConv(16, 7, 7, 512, 512, 3, 3, 1, 1, 1, 1)),
      spec("Conv14", symmetricConv(16, 14, 14, 1024, 2048, 1, 1, 2, 2, 0, 0)),
  };
}

std::vector<ConvSpec> isaac::resnet50ConvShapes() {
  // torchvision/models/resnet.py, resnet50: conv1 is 7x7, stride 2,
  // padding 3; layer1 to layer4 hold 3, 4, 6 and 3 Bottleneck blocks of
  // width 64, 128, 256 and 512 and stride 1, 2, 2, 2. A block is conv1 (1x1,
  // inplanes -> width), conv2 (3x3, width -> width, the block's stride,
  // padding 1; the stride sits here in torchvision, "ResNet v1.5"), conv3
  // (1x1, width -> 4 width); the first block of each layer also has a
  // downsample (1x1, inplanes -> 4 width, the block's stride). Every
  // convolution of the network is generated in order and the first of each
  // shape kept, named after its torchvision module: rn50.l<layer>.<block>.
  // conv<i> and .ds for layer<layer>.<block>.downsample.0.
  constexpr int64_t n = 32;
  std::vector<ConvSpec> specs;
  auto add = [&](std::string label, int64_t hw, int64_t c, int64_t k,
                 int64_t rs, int64_t stride) {
    ConvShape x =
        symmetricConv(n, hw, hw, c, k, rs, rs, stride, stride, rs / 2, rs / 2);
    for (const ConvSpec &s : specs)
      if (s.shape.str() == x.str())
        return;
    specs.push_back({std::move(label), x});
  };
  add("rn50.conv1", 224, 3, 64, 7, 2);
  // After conv1 (112x112) and the 3x3 stride-2 max pool.
  int64_t inplanes = 64, hw = 56;
  const int64_t blocks[] = {3, 4, 6, 3}, widths[] = {64, 128, 256, 512};
  for (int layer = 0; layer < 4; ++layer) {
    int64_t width = widths[layer], out = 4 * width;
    for (int64_t block = 0; block < blocks[layer]; ++block) {
      int64_t stride = block == 0 && layer > 0 ? 2 : 1;
      int64_t outHw = hw / stride;
      std::string name = "rn50.l" + std::to_string(layer + 1) + "." +
                         std::to_string(block) + ".";
      add(name + "conv1", hw, inplanes, width, 1, 1);
      add(name + "conv2", hw, width, width, 3, stride);
      add(name + "conv3", outHw, width, out, 1, 1);
      if (block == 0)
        add(name + "ds", hw, inplanes, out, 1, stride);
      inplanes = out;
      hw = outHw;
    }
  }
  return specs;
}

bool isaac::namedConvShapes(const std::string &name,
                            std::vector<ConvSpec> &specs) {
  if (name == "table5") {
    specs = table5ConvShapes();
    return true;
  }
  if (name == "resnet50") {
    specs = resnet50ConvShapes();
    return true;
  }
  return false;
}

bool isaac::parseConvShape(const std::string &text, ConvSpec &out,
                           std::string &error) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ','))
    parts.push_back(part);
  static const size_t kCounts[] = {7, 9, 11, 13, 15};
  if (std::find(std::begin(kCounts), std::end(kCounts), parts.size()) ==
      std::end(kCounts)) {
    error = "conv shape '" + text +
            "' is not N,H,W,C,K,R,S[,strideH,strideW[,padTop,padLeft[,"
            "dilationH,dilationW[,P,Q]]]]";
    return false;
  }
  auto number = [&](size_t index, int64_t &value, int64_t min) {
    const std::string &s = parts[index];
    try {
      size_t used = 0;
      value = std::stoll(s, &used);
      if (used == s.size() && value >= min && value < (int64_t(1) << 31))
        return true;
    } catch (...) {
    }
    error = "conv shape '" + text + "': '" + s + "' is not a number in [" +
            std::to_string(min) + ", 2^31)";
    return false;
  };
  ConvShape x;
  if (!number(0, x.n, 1) || !number(1, x.h, 1) || !number(2, x.w, 1) ||
      !number(3, x.c, 1) || !number(4, x.k, 1) || !number(5, x.r, 1) ||
      !number(6, x.s, 1))
    return false;
  if (parts.size() >= 9 &&
      (!number(7, x.strideH, 1) || !number(8, x.strideW, 1)))
    return false;
  if (parts.size() >= 13 &&
      (!number(11, x.dilationH, 1) || !number(12, x.dilationW, 1)))
    return false;
  // Padding: a number, or "same" (samePadding), which also fixes the
  // output size along that dimension.
  bool sameH = false, sameW = false;
  if (parts.size() >= 11) {
    sameH = parts[9] == "same";
    sameW = parts[10] == "same";
    if ((!sameH && !number(9, x.padTop, 0)) ||
        (!sameW && !number(10, x.padLeft, 0)))
      return false;
  }
  if (sameH)
    samePadding(x.h, x.r, x.strideH, x.dilationH, x.padTop, x.p);
  else
    x.p = ConvShape::outputSize(x.h, x.padTop, x.padTop, x.r, x.strideH,
                                x.dilationH);
  if (sameW)
    samePadding(x.w, x.s, x.strideW, x.dilationW, x.padLeft, x.q);
  else
    x.q = ConvShape::outputSize(x.w, x.padLeft, x.padLeft, x.s, x.strideW,
                                x.dilationW);
  if (parts.size() == 15 && (!number(13, x.p, 1) || !number(14, x.q, 1)))
    return false;
  if (x.p < 1 || x.q < 1) {
    error = "conv shape '" + text + "': the dilated " + std::to_string(x.r) +
            "x" + std::to_string(x.s) +
            " filter does not fit in the padded input (output size " +
            std::to_string(x.p) + "x" + std::to_string(x.q) + ")";
    return false;
  }
  std::string why = x.validate();
  if (!why.empty()) {
    error = "conv shape '" + text + "': " + why;
    return false;
  }
  out = ConvSpec{"", x};
  return true;
}

bool isaac::readConvShapesFile(const std::string &path,
                               std::vector<ConvSpec> &specs,
                               std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot open conv shapes file '" + path + "'";
    return false;
  }
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    // A comment after the shape names it (the label of its rows).
    std::string label;
    size_t hash = line.find('#');
    if (hash != std::string::npos) {
      label = line.substr(hash + 1);
      line.resize(hash);
    }
    auto trim = [](std::string &s) {
      size_t b = s.find_first_not_of(" \t\r");
      size_t e = s.find_last_not_of(" \t\r");
      s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    trim(line);
    trim(label);
    if (line.empty())
      continue;
    ConvSpec spec;
    if (!parseConvShape(line, spec, error)) {
      error = path + ":" + std::to_string(lineNumber) + ": " + error;
      return false;
    }
    spec.label = label;
    specs.push_back(spec);
  }
  return true;
}

std::string isaac::convShapeText(const ConvShape &x) {
  std::ostringstream os;
  os << x.n << "," << x.h << "," << x.w << "," << x.c << "," << x.k << ","
     << x.r << "," << x.s << "," << x.strideH << "," << x.strideW << ","
     << x.padTop << "," << x.padLeft << "," << x.dilationH << "," << x.dilationW
     << "," << x.p << "," << x.q;
  return os.str();
}
