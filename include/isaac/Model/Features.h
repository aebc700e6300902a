//===- Features.h - Feature vector of the learned cost model ---*- C++ -*-===//
//
// ISAAC §5.2: the MLP sees log-transformed input and tuning parameters, so
// that the products and ratios of eqs. (2)-(3) become sums its first layer
// can form. This is the one definition of that vector in C++; the trainer
// (tools/isaac-tune/train.py, `features()`) computes the same numbers and
// test/Model/mlp.test checks that both agree. Model files name the features
// they were trained on; a model whose list differs from featureNames() is
// refused. The table is in docs/model-format.md.
//
//   i   name        value
//   0   log2_m      log2 M
//   1   log2_n      log2 N
//   2   log2_k      log2 K
//   3   trans_a     1 if A is stored K x M, else 0
//   4   trans_b     1 if B is stored N x K, else 0
//   5   log2_ml     log2 ML      (5..13: the tuning vector)
//   6   log2_nl     log2 NL
//   7   log2_ms     log2 MS
//   8   log2_ns     log2 NS
//   9   log2_u      log2 U
//   10  log2_ks     log2 KS
//   11  log2_kl     log2 KL
//   12  log2_kg     log2 KG
//   13  log2_vec    log2 VEC
//   14  log2_bm     log2 ceil(M / ML)            block rows of the grid
//   15  log2_bn     log2 ceil(N / NL)            block columns
//   16  log2_kt     log2 ceil(K / (KG * U))      K-tiles each block stages
//   17  log2_waves  log2 ceil(batch * ceil(M/ML) * ceil(N/NL) * KG / SMs)
//   18  log2_stage  log2 (U * (ML + NL))         elements staged per tile
//                   (simt: times stages / 2, below)
//
// Features that are sums of others in log space (threads per block, FMAs
// per thread, ...) are left out: the first layer forms any linear
// combination on its own. The derived features 14-18 are the non-linear
// ones (ceilings, wave quantization, a sum). The dataset has batch = 1, so
// the batch count enters only through the number of waves.
//
// Every value is computed in double and rounded to float.
//
// Features 5..13 are the nine tuning parameters of the configuration's
// family (featureParams, GemmParams.def's GEMM_FEATURE_VECTOR): simt's
// legacy vector above; for the mma family wm, wn and stages in the places
// of ms, ns and ks. GEMM models are trained on simt configurations.
//
// simt's stages has no place among the nine (the legacy vector is frozen)
// and is read through log2_stage instead (GEMM_EXTRA_FEATURE): for simt
// that feature is log2 (U * (ML + NL) * stages / 2), the shared memory of
// the pipeline per two stages. At stages = 2 it is exactly the value above,
// so the models and datasets of the two-stage kernels keep their meaning;
// with ML, NL and U among the features, stages follows from it.
//
// Convolution models (conv-<dtype>.mlp) see a convolution's own sizes and
// the 14 configuration features above (5..18) of its implicit GEMM (M =
// N*P*Q, N = K, K = C*R*S; ConvShape::gemmShape):
//
//   i   name             value
//   0   log2_n           log2 N          (0..12: the convolution only)
//   1   log2_p           log2 P
//   2   log2_q           log2 Q
//   3   log2_k           log2 K
//   4   log2_c           log2 C
//   5   log2_r           log2 R
//   6   log2_s           log2 S
//   7   log2_stride_h    log2 of the vertical stride
//   8   log2_stride_w    log2 of the horizontal stride
//   9   log2_dilation_h  log2 of the vertical dilation
//   10  log2_dilation_w  log2 of the horizontal dilation
//   11  fhwc             1 if the filters are K x R x S x C, 0 for R x S x C x
//   K 12  log2_c_align     log2 of the largest power of two dividing C, at
//                        most 64 (how wide the input's fetch can be)
//   13..21               the family's nine tuning parameters, log2
//   22..26               log2_bm, log2_bn, log2_kt, log2_waves, log2_stage
//                        of the implicit GEMM
//
// The implicit GEMM's sizes are sums of features 0..6 in log space and are
// left out; H and W follow from P, Q, the stride, the filter and the
// padding.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_FEATURES_H
#define ISAAC_MODEL_FEATURES_H

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/GemmConfig.h"

#include <array>
#include <cstdint>

namespace isaac {

constexpr int kNumFeatures = 19;
/// Features 0..kNumShapeFeatures-1 depend on the input only.
constexpr int kNumShapeFeatures = 5;
/// The features of a configuration (5..18), the same for GEMM and conv
/// models.
constexpr int kNumConfigFeatures = kNumFeatures - kNumShapeFeatures;
/// A convolution model's features: its shape features, then the
/// configuration's.
constexpr int kNumConvShapeFeatures = 13;
constexpr int kNumConvFeatures = kNumConvShapeFeatures + kNumConfigFeatures;

/// The values of featureParams(c.family) in `c`.
std::array<int, 9> featureValues(const GemmConfig &c);

/// Names of the GEMM features for configurations of `family`, in order (as
/// written in model files): features 5..13 are featureParams(family).
const char *const *featureNames(GemmFamily family = GemmFamily::Simt);
/// Names of the convolution features for configurations of `family`.
const char *const *convFeatureNames(GemmFamily family);

/// Fills `out[0..kNumConvShapeFeatures)` with the features of the
/// convolution `shape` alone.
void computeConvShapeFeatures(const ConvShape &shape, float *out);
/// Fills `out[0..kNumConvFeatures)` with the features of `c` on `shape`.
void computeConvFeatures(const ConvShape &shape, const GemmConfig &c,
                         int numSMs, float *out);

/// Fills `out[0..kNumFeatures)` with the features of `c` on `shape`, for a
/// chip with `numSMs` multiprocessors.
void computeFeatures(const GemmShape &shape, const GemmConfig &c, int numSMs,
                     float *out);

/// Computes features of many configurations of one shape quickly: the
/// shape-dependent terms are tabulated once, per configuration only table
/// lookups remain. Gives exactly the values of computeFeatures.
class FeatureBuilder {
public:
  FeatureBuilder(const GemmShape &shape, int numSMs);

  /// The shape-only features 0..kNumShapeFeatures-1.
  const float *shapeFeatures() const { return shapeF; }
  /// All kNumFeatures features of `c`.
  void fill(const GemmConfig &c, float *out) const;
  /// Features kNumShapeFeatures..kNumFeatures-1 of `c` (the ones that
  /// depend on the configuration), written to out[0..).
  void fillConfigPart(const GemmConfig &c, float *out) const;

private:
  static constexpr int kMaxExp = 16; // tabulated powers of two: 1..2^15
  GemmShape shape;
  int numSMs;
  float shapeF[kNumShapeFeatures];
  int64_t ceilM[kMaxExp];        // ceil(M / 2^e)
  int64_t ceilN[kMaxExp];        // ceil(N / 2^e)
  float log2CeilM[kMaxExp];      // log2 ceil(M / 2^e)
  float log2CeilN[kMaxExp];      // log2 ceil(N / 2^e)
  float log2KTiles[2 * kMaxExp]; // log2 ceil(K / 2^e), e = log2(KG * U)
};

} // namespace isaac

#endif // ISAAC_MODEL_FEATURES_H
