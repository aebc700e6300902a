//===- Sampler.cpp - Generative model of legal GEMM configurations --------===//
//
// ISAAC SC17 §4.1. Legality is checkGemmLegality()'s alone; this file only
// decides which proposals to make.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/Sampler.h"
#include "isaac/Model/ConvSuites.h"

#include <algorithm>
#include <cassert>
#include <cmath>

using namespace isaac;

uint64_t isaac::uniformIndex(std::mt19937_64 &rng, uint64_t n) {
  assert(n >= 1 && "empty range");
  // Accept x below the largest multiple of n that fits in 2^64.
  const uint64_t limit = ~uint64_t(0) - (~uint64_t(0) % n + 1) % n;
  uint64_t x;
  do {
    x = rng();
  } while (x > limit);
  return x % n;
}

double isaac::uniformUnit(std::mt19937_64 &rng) {
  return double(rng() >> 11) * 0x1.0p-53;
}

int64_t isaac::logUniformIn(std::mt19937_64 &rng, int64_t lo, int64_t hi) {
  double l = std::log(double(lo)), h = std::log(double(hi) + 1.0);
  int64_t v = static_cast<int64_t>(
      std::floor(std::exp(l + uniformUnit(rng) * (h - l))));
  return v < lo ? lo : (v > hi ? hi : v);
}

/// A channel count, drawn as deep networks' are: 2/5 a multiple of 64 in
/// [64, 1024] (the deep layers; U divides such a C, so that the wgmma
/// kernels' input loads by im2col TMA, docs/abi.md "Tensor maps"), 1/5 a
/// multiple of 8 in [8, 1024] (the input's vectorized fetch needs vec | C),
/// 2/5 any integer in [1, 1024] (odd and small counts: images' 1 or 3
/// channels, detection heads); each log-uniform.
static int64_t convChannels(std::mt19937_64 &rng) {
  double u = uniformUnit(rng);
  if (u < 0.4)
    return 64 * logUniformIn(rng, 1, 16);
  if (u < 0.6)
    return 8 * logUniformIn(rng, 1, 128);
  return logUniformIn(rng, 1, 1024);
}

bool isaac::drawConvInput(std::mt19937_64 &rng, ConvShape &x) {
  x = ConvShape();
  x.n = logUniformIn(rng, 1, 64);
  x.h = logUniformIn(rng, 7, 224);
  x.w = uniformUnit(rng) < 0.75 ? x.h : logUniformIn(rng, 7, 224);
  x.c = convChannels(rng);
  x.k = convChannels(rng);
  static const int64_t kOther[6][2] = {{1, 3}, {3, 1}, {1, 7},
                                       {7, 1}, {2, 2}, {4, 4}};
  double f = uniformUnit(rng);
  if (f < 0.25) {
    x.r = x.s = 1;
  } else if (f < 0.70) {
    x.r = x.s = 3;
  } else if (f < 0.80) {
    x.r = x.s = 5;
  } else if (f < 0.88) {
    x.r = x.s = 7;
  } else {
    const int64_t *o = kOther[uniformIndex(rng, 6)];
    x.r = o[0];
    x.s = o[1];
  }
  int64_t stride = uniformUnit(rng) < 0.25 ? 2 : 1;
  if (x.r == 1 && x.s == 1)
    stride = 2;
  x.strideH = x.strideW = stride;
  bool dilated = uniformUnit(rng) < 0.1;
  x.dilationH = dilated && x.r > 1 ? 2 : 1;
  x.dilationW = dilated && x.s > 1 ? 2 : 1;
  if (uniformUnit(rng) < 0.6) {
    samePadding(x.h, x.r, x.strideH, x.dilationH, x.padTop, x.p);
    samePadding(x.w, x.s, x.strideW, x.dilationW, x.padLeft, x.q);
  } else {
    x.p = ConvShape::outputSize(x.h, 0, 0, x.r, x.strideH, x.dilationH);
    x.q = ConvShape::outputSize(x.w, 0, 0, x.s, x.strideW, x.dilationW);
  }
  return x.p >= 1 && x.q >= 1;
}

bool ParamBox::contains(const GemmConfig &c) const {
  if (c.family != family)
    return false;
  for (size_t i = 0; i < params.size(); ++i)
    if (!std::binary_search(values[i].begin(), values[i].end(),
                            c.get(params[i])))
      return false;
  return true;
}

const ParamBox &isaac::gemmParamValues(GemmFamily family) {
  static const auto boxes = [] {
    std::array<ParamBox, kNumGemmFamilies> out;
    for (int f = 0; f < kNumGemmFamilies; ++f) {
      ParamBox &box = out[f];
      box.family = static_cast<GemmFamily>(f);
      box.params = gemmFamilyParams(box.family);
      for (GemmParam p : box.params)
        box.values.push_back(familyParamValues(box.family, p));
    }
    return out;
  }();
  return boxes[static_cast<int>(family)];
}

ParamBox isaac::gemmParamBoxUpTo(int maxValue, GemmFamily family) {
  ParamBox box = gemmParamValues(family);
  for (std::vector<int> &v : box.values)
    v.erase(
        std::remove_if(v.begin(), v.end(), [&](int x) { return x > maxValue; }),
        v.end());
  return box;
}

double isaac::boxSize(const ParamBox &box) {
  double n = 1;
  for (const std::vector<int> &v : box.values)
    n *= double(v.size());
  return n;
}

GemmConfig isaac::configFromIndices(const std::vector<int> &idx,
                                    const ParamBox &box) {
  assert(idx.size() == box.size() && box.values.size() == box.size() &&
         "one index per parameter");
  GemmConfig c;
  c.family = box.family;
  for (size_t i = 0; i < box.size(); ++i)
    c.set(box.params[i], box[i][idx[i]]);
  return c;
}

[[maybe_unused]] static bool boxOk(const ParamBox &box) {
  if (box.params != gemmFamilyParams(box.family) ||
      box.values.size() != box.params.size())
    return false;
  for (const std::vector<int> &v : box.values)
    if (v.empty())
      return false;
  return true;
}

/// A proposal drawn uniformly from the box, as value indices.
/// A parameter with one value takes it without a draw.
static void drawUniform(std::mt19937_64 &rng, const ParamBox &v,
                        std::vector<int> &idx) {
  idx.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    idx[i] =
        v[i].size() == 1 ? 0 : static_cast<int>(uniformIndex(rng, v[i].size()));
}

//===----------------------------------------------------------------------===//
// Uniform sampler
//===----------------------------------------------------------------------===//

UniformConfigSampler::UniformConfigSampler(DType dtype, ChipLimits chip,
                                           uint64_t seed, ParamBox box)
    : dtype_(dtype), chip_(std::move(chip)), box_(std::move(box)), rng_(seed) {
  assert(boxOk(box_) && "one non-empty value list per parameter");
}

/// Counts one proposal, remembers it, and returns it if it is legal.
static std::optional<GemmConfig> judge(const GemmConfig &c, DType dtype,
                                       const ChipLimits &chip, GemmConfig &last,
                                       SamplerStats &stats) {
  last = c;
  ++stats.proposals;
  if (!isLegal(c, dtype, chip))
    return std::nullopt;
  ++stats.accepted;
  return c;
}

std::optional<GemmConfig> UniformConfigSampler::propose() {
  std::vector<int> idx;
  drawUniform(rng_, box_, idx);
  return judge(configFromIndices(idx, box_), dtype_, chip_, last_, stats_);
}

GemmConfig UniformConfigSampler::sample() {
  for (;;)
    if (std::optional<GemmConfig> c = propose())
      return *c;
}

//===----------------------------------------------------------------------===//
// Categorical sampler
//===----------------------------------------------------------------------===//

CategoricalConfigSampler::CategoricalConfigSampler(DType dtype, ChipLimits chip,
                                                   uint64_t seed, double alpha,
                                                   uint64_t warmupAccepted,
                                                   ParamBox box)
    : dtype_(dtype), chip_(std::move(chip)), alpha_(alpha),
      box_(std::move(box)), rng_(seed) {
  assert((alpha > 0 || (alpha == 0 && warmupAccepted > 0)) &&
         "every categorical needs some mass");
  assert(boxOk(box_) && "one non-empty value list per parameter");
  const ParamBox &values = box_;
  weights_.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    weights_[i].assign(values[i].size(), alpha_);

  // Warm-up: the proportion of accepted values under uniform sampling.
  std::vector<int> idx;
  while (warmup_.accepted < warmupAccepted) {
    drawUniform(rng_, box_, idx);
    ++warmup_.proposals;
    if (!isLegal(configFromIndices(idx, box_), dtype_, chip_))
      continue;
    ++warmup_.accepted;
    for (size_t i = 0; i < idx.size(); ++i)
      weights_[i][idx[i]] += 1.0;
  }

  cumulative_.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    double sum = 0;
    for (double w : weights_[i]) {
      sum += w;
      cumulative_[i].push_back(sum);
    }
  }
}

std::vector<double>
CategoricalConfigSampler::probabilities(size_t param) const {
  const std::vector<double> &w = weights_.at(param);
  double total = cumulative_.at(param).back();
  std::vector<double> p;
  for (double x : w)
    p.push_back(x / total);
  return p;
}

std::optional<GemmConfig> CategoricalConfigSampler::propose() {
  std::vector<int> idx(cumulative_.size());
  for (size_t i = 0; i < cumulative_.size(); ++i) {
    const std::vector<double> &cum = cumulative_[i];
    if (cum.size() == 1) { // one value: no draw (see drawUniform)
      idx[i] = 0;
      continue;
    }
    double x = uniformUnit(rng_) * cum.back();
    // First value whose cumulative weight exceeds x; zero-weight values
    // (alpha == 0, never seen) are never chosen.
    auto it = std::upper_bound(cum.begin(), cum.end(), x);
    size_t j = static_cast<size_t>(it - cum.begin());
    // x rounded up to the total: take the last value with positive weight.
    while (j >= cum.size() || weights_[i][j] <= 0)
      --j;
    idx[i] = static_cast<int>(j);
  }
  return judge(configFromIndices(idx, box_), dtype_, chip_, last_, stats_);
}

double
CategoricalConfigSampler::massOf(const std::vector<GemmConfig> &legal) const {
  std::vector<std::vector<double>> p;
  for (size_t i = 0; i < box_.size(); ++i)
    p.push_back(probabilities(i));
  double sum = 0;
  for (const GemmConfig &c : legal) {
    if (c.family != box_.family)
      continue;
    double q = 1;
    for (size_t i = 0; i < box_.size() && q > 0; ++i) {
      auto it =
          std::find(box_[i].begin(), box_[i].end(), c.get(box_.params[i]));
      q *= it == box_[i].end() ? 0.0 : p[i][it - box_[i].begin()];
    }
    sum += q;
  }
  return sum;
}

GemmConfig CategoricalConfigSampler::sample() {
  for (;;)
    if (std::optional<GemmConfig> c = propose())
      return *c;
}
