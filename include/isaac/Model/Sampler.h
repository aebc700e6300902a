//===- Sampler.h - Generative model of legal GEMM configurations -*- C++
//-*-===//
//
// ISAAC SC17 §4.1: the data-generation step needs random *legal*
// configurations. Uniform sampling over the box of parameter values wastes
// almost every proposal, so ISAAC treats each tuning parameter as an
// independent categorical variable whose distribution is the proportion of
// accepted values seen during a short warm-up of uniform sampling, every
// count starting at alpha (a Dirichlet prior; the paper uses alpha = 100).
// Proposals are then drawn from that product of categoricals and rejected
// unless checkGemmLegality() accepts them.
//
// The box is one list of values per parameter of the family
// (isaac/Model/GemmParams.def): for simt every power of two in [lo, hi] of
// ml, nl, ms, ns, u, ks, kl, kg, vec (stages has the one value the simt
// generator makes). kg's useful range depends on K; it is sampled over its
// whole range like the other parameters. A parameter with one value draws no
// random number, so adding one to the table leaves a family's streams as
// they were.
//
// Both samplers are deterministic given their seed: they use std::mt19937_64
// (fully specified by the standard) and the helpers below rather than the
// implementation-defined std::*_distribution classes, so a seed gives the
// same sequence with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_SAMPLER_H
#define ISAAC_MODEL_SAMPLER_H

#include "isaac/Model/ConvShape.h"
#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace isaac {

/// Uniform integer in [0, n) by rejection (no modulo bias); n >= 1.
uint64_t uniformIndex(std::mt19937_64 &rng, uint64_t n);
/// Uniform double in [0, 1) with 53 random bits.
double uniformUnit(std::mt19937_64 &rng);
/// Integer drawn log-uniformly in [lo, hi]:
/// floor(exp(ln lo + U[0, 1) * (ln(hi + 1) - ln lo))). With lo = 1 this is
/// floor(exp(U * ln(hi + 1))) exactly, the inputs of the first datasets.
int64_t logUniformIn(std::mt19937_64 &rng, int64_t lo, int64_t hi);

/// One convolution of the conv tuning dataset's distribution (isaac-tune
/// sample --op conv, docs/sampler.md "Convolutions"; every field but the
/// types and layout); false if no output fits. Batch log-uniform in
/// [1, 64]; H log-uniform in [7, 224], W = H 3/4 of the time; C and K 3/5
/// a multiple of 8 in [8, 1024], else log-uniform in [1, 1024]; filters
/// 1x1 (1/4), 3x3 (0.45), 5x5 (0.1), 7x7 (0.08) or one of 1x3, 3x1, 1x7,
/// 7x1, 2x2, 4x4; stride 2 a quarter of the time and always for 1x1
/// filters (a 1x1 stride-1 convolution is compiled as a GEMM,
/// isaac-conv-to-gemm); dilation 2 a tenth of the time (along the
/// dimensions a filter spans); "same" padding 3/5 of the time, else none.
/// The caller filters (validity, size, legality for a kernel).
bool drawConvInput(std::mt19937_64 &rng, ConvShape &shape);

/// A box of proposals: the values each parameter of one family may take.
/// The default box of a family is familyParamValues() of each of its
/// parameters (GemmParams.def's ranges, less the values the rules that read
/// one parameter alone refuse); for simt, every power of two in [lo, hi] of
/// ml, nl, ms, ns, u, ks, kl, kg, vec, and stages 2 to 8 (its extra
/// feature).
struct ParamBox {
  GemmFamily family = GemmFamily::Simt;
  /// The family's parameters, in table order.
  std::vector<GemmParam> params;
  /// values[i]: the values of params[i], increasing.
  std::vector<std::vector<int>> values;

  size_t size() const { return params.size(); }
  const std::vector<int> &operator[](size_t i) const { return values[i]; }
  /// Whether every parameter of `c` (of this box's family) takes a value
  /// of the box.
  bool contains(const GemmConfig &c) const;
};

/// The default box of `family`.
const ParamBox &gemmParamValues(GemmFamily family = GemmFamily::Simt);
/// The default box with every value above `maxValue` removed (the paper's
/// Table 1 box is gemmParamBoxUpTo(16)).
ParamBox gemmParamBoxUpTo(int maxValue, GemmFamily family = GemmFamily::Simt);
/// Number of configurations in a box.
double boxSize(const ParamBox &box);

/// The configuration of box.family whose parameter box.params[i] takes
/// box[i][idx[i]] (the others hold their defaults).
GemmConfig configFromIndices(const std::vector<int> &idx,
                             const ParamBox &box = gemmParamValues());

/// Proposals drawn and proposals that were legal.
struct SamplerStats {
  uint64_t proposals = 0;
  uint64_t accepted = 0;
  double acceptanceRate() const {
    return proposals ? double(accepted) / double(proposals) : 0.0;
  }
};

/// Uniform sampling over the box, with rejection of illegal proposals.
class UniformConfigSampler {
public:
  /// Every list of `box` must be non-empty.
  UniformConfigSampler(DType dtype, ChipLimits chip, uint64_t seed,
                       ParamBox box = gemmParamValues());

  /// One proposal: the configuration if it is legal, nullopt otherwise.
  std::optional<GemmConfig> propose();
  /// Proposes until a legal configuration comes up and returns it.
  GemmConfig sample();

  const SamplerStats &stats() const { return stats_; }
  uint64_t proposals() const { return stats_.proposals; }
  uint64_t accepted() const { return stats_.accepted; }
  /// The last proposal, legal or not.
  const GemmConfig &lastProposal() const { return last_; }
  const ParamBox &box() const { return box_; }

private:
  DType dtype_;
  ChipLimits chip_;
  ParamBox box_;
  std::mt19937_64 rng_;
  SamplerStats stats_;
  GemmConfig last_;
};

/// ISAAC's categorical generative model (§4.1).
class CategoricalConfigSampler {
public:
  /// Runs the warm-up: uniform proposals until `warmupAccepted` legal
  /// configurations were seen; the categorical of parameter i gives value v
  /// the weight alpha + (accepted warm-up configurations with x_i = v).
  /// Requires alpha > 0, or alpha == 0 and warmupAccepted > 0 (then every
  /// probability comes from the warm-up alone), and a box that holds at
  /// least one legal configuration: the warm-up and sample() loop until
  /// they find one (every known chip's default box does).
  CategoricalConfigSampler(DType dtype, ChipLimits chip, uint64_t seed,
                           double alpha = 100.0,
                           uint64_t warmupAccepted = 10000,
                           ParamBox box = gemmParamValues());

  /// One proposal from the categoricals: the configuration if legal.
  std::optional<GemmConfig> propose();
  /// Proposes until a legal configuration comes up and returns it.
  GemmConfig sample();

  /// Statistics of the categorical proposals (warm-up excluded).
  const SamplerStats &stats() const { return stats_; }
  uint64_t proposals() const { return stats_.proposals; }
  uint64_t accepted() const { return stats_.accepted; }
  /// Statistics of the uniform warm-up.
  const SamplerStats &warmupStats() const { return warmup_; }
  /// The last categorical proposal, legal or not.
  const GemmConfig &lastProposal() const { return last_; }

  double alpha() const { return alpha_; }
  const ParamBox &box() const { return box_; }
  /// p(x_i = box()[i][j]) for every j.
  std::vector<double> probabilities(size_t param) const;
  /// Probability that one proposal is a member of `legal` (pass the
  /// enumerated legal space, legalConfigs(), to get the exact acceptance
  /// rate of the model).
  double massOf(const std::vector<GemmConfig> &legal) const;

private:
  DType dtype_;
  ChipLimits chip_;
  double alpha_;
  ParamBox box_;
  std::mt19937_64 rng_;
  /// weights_[i][j]: alpha + warm-up count; cumulative_[i] its prefix sums.
  std::vector<std::vector<double>> weights_;
  std::vector<std::vector<double>> cumulative_;
  SamplerStats stats_;
  SamplerStats warmup_;
  GemmConfig last_;
};

} // namespace isaac

#endif // ISAAC_MODEL_SAMPLER_H
