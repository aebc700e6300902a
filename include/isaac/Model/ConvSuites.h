//===- ConvSuites.h - Named convolutions and their text form ----*- C++ -*-===//
//
// The convolutions isaac is measured on (Table 5 of the ISAAC paper, the
// layers of ResNet-50) and the text form of one convolution
// (`N,H,W,C,K,R,S[,strideH,strideW[,padTop,padLeft[,dilationH,dilationW
// [,P,Q]]]]`), MLIR-free: isaac-bench runs them (--conv-shapes,
// --conv-shape), and the conv dataset sampler (isaac-tune sample --op conv)
// and the held-out evaluation keep their inputs apart from them.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_CONVSUITES_H
#define ISAAC_MODEL_CONVSUITES_H

#include "isaac/Model/ConvShape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace isaac {

/// A convolution by name: sizes, strides, padding and dilation (the types
/// and layout are set per run).
struct ConvSpec {
  std::string label; ///< e.g. "Conv7", "rn50.l2.0.conv2"; empty for others
  ConvShape shape;
};

/// A shape with symmetric padding: P and Q from the output-size formula
/// with the padding after the input equal to the padding before it.
ConvShape symmetricConv(int64_t n, int64_t h, int64_t w, int64_t c, int64_t k,
                        int64_t r, int64_t s, int64_t strideH, int64_t strideW,
                        int64_t padTop, int64_t padLeft, int64_t dilationH = 1,
                        int64_t dilationW = 1);

/// "Same" padding along one dimension (TensorFlow's and XLA's rule): the
/// output has ceil(in / stride) elements, and the padding their windows
/// need is split with the smaller half before the input.
void samePadding(int64_t in, int64_t filter, int64_t stride, int64_t dilation,
                 int64_t &padLo, int64_t &out);

/// Table 5 of the ISAAC paper (SC17, section 7.4): Conv1 to Conv14 with the
/// N, P, Q, K, C, R, S the paper lists. The paper gives the output size
/// only; H, W, strides and padding are those of the DeepBench layers the
/// rows come from (baidu-research/DeepBench code/kernels/conv_problems.h,
/// training_set), except Conv11 and Conv12, whose P, Q, K in the paper are
/// DeepBench's K, P, Q (the same implicit GEMM size): they keep the paper's
/// values, with stride 1 and "same" padding.
std::vector<ConvSpec> table5ConvShapes();

/// The convolutions of ResNet-50 (torchvision's resnet50, the v1.5
/// bottleneck with the stride on the 3x3 convolution) on 224x224 images at
/// batch 32, one entry per distinct layer shape (23), named after the
/// first torchvision module of that shape.
std::vector<ConvSpec> resnet50ConvShapes();

/// The suite `name` (table5, resnet50); false if unknown.
bool namedConvShapes(const std::string &name, std::vector<ConvSpec> &specs);

/// Parses "N,H,W,C,K,R,S[,strideH,strideW[,padTop,padLeft[,dilationH,
/// dilationW[,P,Q]]]]". Strides and dilations default to 1, padding to 0
/// ("same": samePadding, which also fixes the output size); P and Q follow
/// from the output-size formula with the padding after the input equal to
/// the padding before it, unless given. The shape must pass
/// ConvShape::validate.
bool parseConvShape(const std::string &text, ConvSpec &spec,
                    std::string &error);

/// One parseConvShape argument per line; blank lines and '#' comments
/// (whole lines, or after the shape) are skipped. Errors name the file and
/// line.
bool readConvShapesFile(const std::string &path, std::vector<ConvSpec> &specs,
                        std::string &error);

/// The 15-field text of `shape` (every field written, P and Q included),
/// which parseConvShape reads back to the same sizes: the input of a conv
/// dataset sample and the key that compares two convolutions' sizes
/// (types and layout left out).
std::string convShapeText(const ConvShape &shape);

} // namespace isaac

#endif // ISAAC_MODEL_CONVSUITES_H
