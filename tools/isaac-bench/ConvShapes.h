//===- ConvShapes.h - Convolution problems of isaac-bench --------*- C++
//-*-===//
//
// What --conv runs: named suites (Table 5 of the ISAAC paper, the
// convolutions of ResNet-50), problems from the command line, and the
// correctness sweep's edge cases, as isaac::ConvShape (the MLIR-free
// description the compiler and the runtime share), plus the concrete
// launch of one (types, layout, misaligned base pointers). No CUDA here:
// isaac-bench-conv-test checks it without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CONVSHAPES_H
#define ISAAC_BENCH_CONVSHAPES_H

#include "ConvGeometry.h"
#include "Problem.h"

#include "isaac/Model/ConvShape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// A convolution the user asks for: sizes, strides, padding and dilation
/// (shape.types and shape.layout are set per run).
struct ConvSpec {
  std::string label; // e.g. "Conv7", "rn50.l2.0.conv2"; empty for user shapes
  isaac::ConvShape shape;
};

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
/// dilationW[,P,Q]]]]". Strides and dilations default to 1, padding to 0;
/// P and Q follow from the output-size formula with the padding after the
/// input equal to the padding before it, unless given. The shape must pass
/// isaac::ConvShape::validate.
bool parseConvShape(const std::string &text, ConvSpec &spec,
                    std::string &error);

/// One --conv-shape argument per line; blank lines and '#' comments are
/// skipped.
bool readConvShapesFile(const std::string &path, std::vector<ConvSpec> &specs,
                        std::string &error);

/// The correctness sweep's problems for every kernel: filters 1x1, 3x3,
/// 5x5, 1x3, 3x1 and 2x2, strides 1 and 2, dilations 1 and 2, padding 0,
/// 1 and "same" (half the dilated extent before, the rest after), each with
/// three of the rotating (N, H, W, C, K) tuples (N 1 to 3, odd and even
/// spatial sizes such as 7 and 13, C and K of 1, 3, odd and power-of-two
/// values), plus a few larger layers. Invalid combinations (a window in
/// the padding only) are left out. Deterministic.
std::vector<ConvSpec> convSweepShapes();

/// One launch of a convolution: the shape with its types and layout, and
/// the misalignment of the input, filter and output base pointers.
struct ConvProblem {
  std::string label;
  isaac::ConvShape shape;
  int64_t offset = 0; // elements between each allocation and its base pointer

  int dtype() const { return static_cast<int>(shape.types.ab); }
  int outDtype() const { return static_cast<int>(shape.types.c); }
  int64_t inputCount() const { return shape.n * shape.h * shape.w * shape.c; }
  int64_t filterCount() const { return shape.k * shape.r * shape.s * shape.c; }
  int64_t outputCount() const { return shape.n * shape.p * shape.q * shape.k; }
  /// 2*N*P*Q*K*C*R*S.
  double flops() const;
  /// Compulsory traffic: read the input and the filters, write the output.
  double bytes() const;
  /// The implicit GEMM (M = N*P*Q, N = K, K = C*R*S) as a GEMM Problem,
  /// whose tolerance rule (Precision.h: the reduction length K = C*R*S)
  /// and roofline peak the checks and the report use.
  Problem gemm() const;
  /// ConvShape::str(), plus the misalignment.
  std::string describe() const;
  /// "N16 161x700 C1 K32 5x20 s2 p0 d1" for tables: the rest of the shape
  /// (P, Q, the padding after) follows; non-square strides, paddings and
  /// dilations are written HxW.
  std::string brief() const;
};

/// How the tensors of a launch are stored: as isaac's kernel of the
/// problem's layout reads them (NHWC input and output, HWCF or FHWC
/// filters), or as cuDNN's NHWC (KRSC filters, which are FHWC) and NCHW
/// (KCRS filters, NKPQ output) formats.
enum class ConvStorage { Isaac, CudnnNhwc, CudnnNchw };

/// The sizes of `shape` and the strides of its packed tensors in `storage`.
ConvGeometry convGeometry(const isaac::ConvShape &shape, ConvStorage storage);

/// `spec` as a problem of `types` and `layout`.
ConvProblem makeConvProblem(const ConvSpec &spec, isaac::GemmTypes types,
                            isaac::ConvLayout layout, bool misalign);

} // namespace bench

#endif // ISAAC_BENCH_CONVSHAPES_H
