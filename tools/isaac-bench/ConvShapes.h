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
#include "isaac/Model/ConvSuites.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// The named suites and the text form of a convolution live in lib/Model
// (isaac/Model/ConvSuites.h), shared with the conv dataset sampler.
using isaac::ConvSpec;
using isaac::namedConvShapes;
using isaac::parseConvShape;
using isaac::readConvShapesFile;
using isaac::resnet50ConvShapes;
using isaac::table5ConvShapes;

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
