//===- Features.cpp - Feature vector of the learned cost model ------------===//
//
// The definition is in include/isaac/Model/Features.h; the trainer's copy is
// `features()` in tools/isaac-tune/train.py. Change both, and the version of
// the model format (docs/model-format.md), together.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/Features.h"

#include <array>
#include <cmath>
#include <iterator>
#include <string>

using namespace isaac;

std::array<int, 9> isaac::featureValues(const GemmConfig &c) {
  const std::array<GemmParam, 9> &params = featureParams(c.family);
  std::array<int, 9> v;
  for (int i = 0; i < 9; ++i)
    v[i] = c.get(params[i]);
  return v;
}

namespace {
/// Pointers into a fixed array of names, as featureNames() returns them.
template <size_t N> struct NameList {
  std::array<std::string, N> names;
  std::array<const char *, N> pointers;
  NameList() = default;
  // A copy points at its own strings (short ones live inside the object).
  NameList(const NameList &other) : names(other.names) { point(); }
  NameList &operator=(const NameList &) = delete;
  void point() {
    for (size_t i = 0; i < N; ++i)
      pointers[i] = names[i].c_str();
  }
};

/// The names of features kNumShapeFeatures.. (GEMM) or
/// kNumConvShapeFeatures.. (conv): the family's parameters, then the
/// derived ones.
std::array<std::string, kNumConfigFeatures> configNames(GemmFamily family) {
  std::array<std::string, kNumConfigFeatures> out;
  for (int i = 0; i < 9; ++i)
    out[i] =
        std::string("log2_") + gemmParamInfo(featureParams(family)[i]).name;
  const char *derived[5] = {"log2_bm", "log2_bn", "log2_kt", "log2_waves",
                            "log2_stage"};
  for (int i = 0; i < 5; ++i)
    out[9 + i] = derived[i];
  return out;
}

/// Per family, the names of a model's features: `shape` (the op's own),
/// then configNames(family).
template <size_t S>
std::array<NameList<S + kNumConfigFeatures>, kNumGemmFamilies>
familyNameLists(const char *const (&shape)[S]) {
  std::array<NameList<S + kNumConfigFeatures>, kNumGemmFamilies> out;
  for (int f = 0; f < kNumGemmFamilies; ++f) {
    for (size_t i = 0; i < S; ++i)
      out[f].names[i] = shape[i];
    std::array<std::string, kNumConfigFeatures> config =
        configNames(static_cast<GemmFamily>(f));
    for (int i = 0; i < kNumConfigFeatures; ++i)
      out[f].names[S + i] = config[i];
    out[f].point();
  }
  return out;
}
} // namespace

const char *const *isaac::featureNames(GemmFamily family) {
  // Features 5..13 are the family's tuning vector (simt's is the legacy
  // one the f32/f64 models read).
  static_assert(std::size(kLegacyParams) == 9, "features 5..13");
  static const char *const shape[kNumShapeFeatures] = {
      "log2_m", "log2_n", "log2_k", "trans_a", "trans_b"};
  static const auto lists = familyNameLists(shape);
  return lists[static_cast<int>(family)].pointers.data();
}

const char *const *isaac::convFeatureNames(GemmFamily family) {
  static const char *const shape[kNumConvShapeFeatures] = {
      "log2_n",        "log2_p",          "log2_q",          "log2_k",
      "log2_c",        "log2_r",          "log2_s",          "log2_stride_h",
      "log2_stride_w", "log2_dilation_h", "log2_dilation_w", "fhwc",
      "log2_c_align"};
  static const auto lists = familyNameLists(shape);
  return lists[static_cast<int>(family)].pointers.data();
}

static inline float flog2(int64_t x) {
  return static_cast<float>(std::log2(static_cast<double>(x)));
}

/// Feature 18, log2_stage: log2 (U * (ML + NL)), for simt times stages / 2
/// (its extra feature; Features.h). The product is exact in double, and at
/// stages = 2 it is the same number as without the factor.
static inline float stageFeature(const GemmConfig &c) {
  double elems = double(c.u) * (double(c.ml) + double(c.nl));
  if (gemmParamExtraFeature(c.family, GemmParam::stages))
    elems = elems * c.stages / 2;
  return static_cast<float>(std::log2(elems));
}

static int64_t wavesOf(int64_t batch, int64_t bm, int64_t bn, int64_t kg,
                       int numSMs) {
  return ceilDiv(batch * bm * bn * kg, numSMs > 0 ? numSMs : 1);
}

void isaac::computeFeatures(const GemmShape &s, const GemmConfig &c, int numSMs,
                            float *out) {
  out[0] = flog2(s.m);
  out[1] = flog2(s.n);
  out[2] = flog2(s.k);
  out[3] = s.layout.transA ? 1.0f : 0.0f;
  out[4] = s.layout.transB ? 1.0f : 0.0f;
  const std::array<int, 9> params = featureValues(c);
  for (int i = 0; i < 9; ++i)
    out[5 + i] = flog2(params[i]);
  int64_t bm = ceilDiv(s.m, c.ml), bn = ceilDiv(s.n, c.nl);
  out[14] = flog2(bm);
  out[15] = flog2(bn);
  out[16] = flog2(ceilDiv(s.k, int64_t(c.kg) * c.u));
  out[17] = flog2(wavesOf(s.batch, bm, bn, c.kg, numSMs));
  out[18] = stageFeature(c);
}

//===----------------------------------------------------------------------===//
// FeatureBuilder: the same numbers through tables.
//===----------------------------------------------------------------------===//

namespace {
/// log2(2^u * (2^ml + 2^nl)) for exponents below 16, built once.
struct StageTable {
  float v[16][16][16];
  StageTable() {
    for (int u = 0; u < 16; ++u)
      for (int ml = 0; ml < 16; ++ml)
        for (int nl = 0; nl < 16; ++nl)
          v[u][ml][nl] = flog2((int64_t(1) << u) *
                               ((int64_t(1) << ml) + (int64_t(1) << nl)));
  }
};
const StageTable &stageTable() {
  static const StageTable t;
  return t;
}

/// Exponent of a power of two below 2^15, else -1.
inline int smallExp(int x) {
  if (x <= 0 || (x & (x - 1)) != 0 || x >= (1 << 15))
    return -1;
  return __builtin_ctz(static_cast<unsigned>(x));
}
} // namespace

FeatureBuilder::FeatureBuilder(const GemmShape &s, int sms)
    : shape(s), numSMs(sms) {
  shapeF[0] = flog2(s.m);
  shapeF[1] = flog2(s.n);
  shapeF[2] = flog2(s.k);
  shapeF[3] = s.layout.transA ? 1.0f : 0.0f;
  shapeF[4] = s.layout.transB ? 1.0f : 0.0f;
  for (int e = 0; e < kMaxExp; ++e) {
    ceilM[e] = ceilDiv(s.m, int64_t(1) << e);
    ceilN[e] = ceilDiv(s.n, int64_t(1) << e);
    log2CeilM[e] = flog2(ceilM[e]);
    log2CeilN[e] = flog2(ceilN[e]);
  }
  for (int e = 0; e < 2 * kMaxExp; ++e)
    log2KTiles[e] = flog2(ceilDiv(s.k, int64_t(1) << e));
  (void)stageTable();
}

void FeatureBuilder::fillConfigPart(const GemmConfig &c, float *out) const {
  const std::array<int, 9> params = featureValues(c);
  int e[9];
  for (int i = 0; i < 9; ++i)
    e[i] = smallExp(params[i]);
  // The tables read ML, NL, U and KG (inputs 0, 1, 4, 7): without them as
  // tabulated powers of two, the direct definition.
  if (e[0] < 0 || e[1] < 0 || e[4] < 0 || e[7] < 0) {
    float all[kNumFeatures];
    computeFeatures(shape, c, numSMs, all);
    for (int i = kNumShapeFeatures; i < kNumFeatures; ++i)
      out[i - kNumShapeFeatures] = all[i];
    return;
  }
  // (float)log2(2^e) is e exactly; the others (an mma configuration's
  // stages = 3, say) as computeFeatures has them.
  for (int i = 0; i < 9; ++i)
    out[i] = e[i] >= 0 ? static_cast<float>(e[i]) : flog2(params[i]);
  out[9] = log2CeilM[e[0]];
  out[10] = log2CeilN[e[1]];
  out[11] = log2KTiles[e[7] + e[4]];
  out[12] = flog2(wavesOf(shape.batch, ceilM[e[0]], ceilN[e[1]], c.kg, numSMs));
  out[13] = c.stages == 2 || !gemmParamExtraFeature(c.family, GemmParam::stages)
                ? stageTable().v[e[4]][e[0]][e[1]]
                : stageFeature(c);
}

void FeatureBuilder::fill(const GemmConfig &c, float *out) const {
  for (int i = 0; i < kNumShapeFeatures; ++i)
    out[i] = shapeF[i];
  fillConfigPart(c, out + kNumShapeFeatures);
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

void isaac::computeConvShapeFeatures(const ConvShape &s, float *out) {
  out[0] = flog2(s.n);
  out[1] = flog2(s.p);
  out[2] = flog2(s.q);
  out[3] = flog2(s.k);
  out[4] = flog2(s.c);
  out[5] = flog2(s.r);
  out[6] = flog2(s.s);
  out[7] = flog2(s.strideH);
  out[8] = flog2(s.strideW);
  out[9] = flog2(s.dilationH);
  out[10] = flog2(s.dilationW);
  out[11] = s.layout == ConvLayout::NhwcFhwc ? 1.0f : 0.0f;
  int64_t align = 1;
  while (align < 64 && s.c % (2 * align) == 0)
    align *= 2;
  out[12] = flog2(align);
}

void isaac::computeConvFeatures(const ConvShape &s, const GemmConfig &c,
                                int numSMs, float *out) {
  computeConvShapeFeatures(s, out);
  float gemm[kNumFeatures];
  computeFeatures(s.gemmShape(), c, numSMs, gemm);
  for (int i = 0; i < kNumConfigFeatures; ++i)
    out[kNumConvShapeFeatures + i] = gemm[kNumShapeFeatures + i];
}
