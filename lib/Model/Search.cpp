//===- Search.cpp - Exhaustive search of the legal space ------------------===//

#include "isaac/Model/Search.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <map>
#include <mutex>
#include <tuple>

using namespace isaac;

SpaceRanker::~SpaceRanker() = default;

void isaac::forEachLegalConfig(
    DType dtype, const ChipLimits &chip,
    const std::vector<std::vector<int>> &allowed,
    const std::function<void(const GemmConfig &)> &visit) {
  // The values each loop takes: those of the parameter in the simt space
  // (familyParamValues) that `allowed` admits. The structural breaks below
  // test the values themselves, so skipping some does not change which
  // others are reached.
  auto admits = [&](size_t p, int x) {
    return allowed.size() <= p || allowed[p].empty() ||
           std::binary_search(allowed[p].begin(), allowed[p].end(), x);
  };
  auto all = [&](size_t p) {
    return familyParamValues(GemmFamily::Simt, kLegacyParams[p]);
  };
  auto values = [&](size_t p) {
    std::vector<int> v;
    for (int x : all(p))
      if (admits(p, x))
        v.push_back(x);
    return v;
  };
  // The simt space has one value of every parameter beyond the legacy
  // vector: the configurations below hold it by default. (The extra
  // feature, stages, is ranked by the MLP search on the configurations it
  // keeps: MLPSearch.cpp.)
#ifndef NDEBUG
  for (GemmParam p : gemmFamilyParams(GemmFamily::Simt))
    assert((std::find(std::begin(kLegacyParams), std::end(kLegacyParams), p) !=
                std::end(kLegacyParams) ||
            gemmParamExtraFeature(GemmFamily::Simt, p) ||
            familyParamValues(GemmFamily::Simt, p) ==
                std::vector<int>{gemmParamInfo(p).defaultValue}) &&
           "a simt parameter beyond the legacy vector needs a loop here");
#endif
  const std::vector<int> mls = values(0), nls = values(1), mss = all(2),
                         nss = all(3), us = values(4), kss = all(5),
                         kls = all(6), kgs = values(7), vecs = values(8);
  // Nested in the order of the cheapest structural pruning; the full rule
  // set (isLegal) has the last word on every candidate. ms, ns, ks and kl
  // run over their whole ranges because their breaks prune the loops.
  GemmConfig c;
  for (int ml : mls)
    for (int ms : mss) {
      if (ms > ml)
        break;
      if (!admits(2, ms))
        continue;
      for (int nl : nls)
        for (int ns : nss) {
          if (ns > nl)
            break;
          if (!admits(3, ns))
            continue;
          int t0 = (ml / ms) * (nl / ns);
          if (t0 > chip.maxThreadsPerBlock)
            continue;
          for (int kl : kls) {
            if (t0 * kl > chip.maxThreadsPerBlock)
              break;
            if ((t0 * kl) % 32 != 0 || !admits(6, kl))
              continue;
            for (int u : us)
              for (int ks : kss) {
                if (kl * ks > u)
                  break;
                if (!admits(5, ks))
                  continue;
                for (int vec : vecs) {
                  // KG enters only the power-of-two and range rules, which
                  // every value of kgs meets: one check for all of them.
                  c = GemmConfig::fromValues(
                      {ml, nl, ms, ns, u, ks, kl, 1, vec});
                  if (!isLegal(c, dtype, chip))
                    continue;
                  for (int kg : kgs) {
                    c.kg = kg;
                    visit(c);
                  }
                }
              }
          }
        }
    }
}

void isaac::forEachLegalConfig(
    GemmFamily family, DType dtype, const ChipLimits &chip,
    const std::function<void(const GemmConfig &)> &visit) {
  if (family == GemmFamily::Simt)
    return forEachLegalConfig(dtype, chip, {}, visit);
  // The mma space, pruned by its structural rules (the box below holds
  // ~3 * 10^7 points).
  if (family == GemmFamily::Mma)
    return forEachLegalMmaConfig(dtype, chip, visit);
  if (family == GemmFamily::Wgmma)
    return forEachLegalWgmmaConfig(dtype, chip, visit);
  // Every point of the family's box, the last parameter of the table
  // fastest, each judged by isLegal.
  const std::vector<GemmParam> &params = gemmFamilyParams(family);
  std::vector<std::vector<int>> values;
  for (GemmParam p : params) {
    values.push_back(familyParamValues(family, p));
    if (values.back().empty())
      return;
  }
  std::vector<size_t> idx(params.size(), 0);
  GemmConfig c;
  c.family = family;
  for (;;) {
    for (size_t i = 0; i < params.size(); ++i)
      c.set(params[i], values[i][idx[i]]);
    if (isLegal(c, dtype, chip))
      visit(c);
    size_t i = params.size();
    while (i > 0 && ++idx[i - 1] == values[i - 1].size())
      idx[--i] = 0;
    if (i == 0)
      return;
  }
}

const std::vector<GemmConfig> &
isaac::legalConfigs(DType dtype, const ChipLimits &chip, GemmFamily family) {
  static std::mutex mutex;
  // Never destroyed: freeing a few 10^5 configurations per list at exit
  // would cost the compiling process milliseconds for nothing.
  static auto &cache = *new std::map<std::tuple<int, int, std::string>,
                                     std::vector<GemmConfig>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_tuple(static_cast<int>(family), static_cast<int>(dtype),
                             chip.chip);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  // Chunks, then one vector of the exact size: a growing vector would copy
  // (and fault in) several times the final size (a few 10^5 configurations
  // of 60 bytes), once per compiling process.
  constexpr size_t kChunk = 16384;
  std::vector<std::vector<GemmConfig>> chunks;
  forEachLegalConfig(family, dtype, chip, [&](const GemmConfig &c) {
    if (chunks.empty() || chunks.back().size() == kChunk) {
      chunks.emplace_back();
      chunks.back().reserve(kChunk);
    }
    chunks.back().push_back(c);
  });
  std::vector<GemmConfig> out;
  out.reserve(
      chunks.empty() ? 0 : (chunks.size() - 1) * kChunk + chunks.back().size());
  for (std::vector<GemmConfig> &chunk : chunks) {
    out.insert(out.end(), chunk.begin(), chunk.end());
    std::vector<GemmConfig>().swap(chunk);
  }
  return cache.emplace(key, std::move(out)).first->second;
}

const std::vector<GemmConfig> &isaac::legalConfigs(DType dtype,
                                                   const ChipLimits &chip) {
  // f32 is exact IEEE f32 (simt) by default; TF32 (mma on f32) is the
  // three-argument form's, for GEMMs that opted in, and so is f64's mma
  // space (searchFamily picks it on chips with fast DMMA).
  bool sixteenBit = dtype == DType::F16 || dtype == DType::BF16;
  return legalConfigs(dtype, chip,
                      sixteenBit ? GemmFamily::Mma : GemmFamily::Simt);
}

void TopK::offer(const GemmConfig &c, double t) {
  if (!wouldKeep(t))
    return;
  Ranked r{c, t};
  auto pos = std::upper_bound(
      best.begin(), best.end(), r,
      [](const Ranked &a, const Ranked &b) { return a.cost < b.cost; });
  best.insert(pos, r);
  if (best.size() > k)
    best.pop_back();
}

/// The largest KG whose slices withClusterSplitK moves into a cluster, by
/// what was measured on an H100 (docs/perf.md, "Split-K inside a
/// cluster"): wgmma up to 8 (12 of 12 Table 4 top-1s faster); mma with
/// f32 accumulators up to 4 (7 of 8 faster; at 8 half were slower: few
/// warps a block, so few blocks share the reads); f64 (DMMA) none (its
/// split adds into C with atomics, no reducer to save: 6 of 10 slower).
static int maxClusterSplitK(GemmFamily family, DType dtype) {
  if (family == GemmFamily::Wgmma)
    return 8;
  if (family == GemmFamily::Mma && dtype != DType::F64)
    return 4;
  return 1;
}

GemmConfig isaac::withClusterSplitK(const GemmConfig &c, DType dtype,
                                    const ChipLimits &chip) {
  if (c.kg < 2 || c.kg > maxClusterSplitK(c.family, dtype) || c.kc)
    return c;
  GemmConfig inCluster = c;
  inCluster.kc = 1;
  return isLegal(inCluster, dtype, chip) ? inCluster : c;
}

GemmConfig isaac::withWarpSpecialization(
    const GemmConfig &c, const GemmShape &shape, const ChipLimits &chip,
    const std::function<bool(const GemmConfig &)> &legal) {
  if (!shape.tmaAligned() || !warpSpecializes(c, shape.k))
    return c;
  GemmConfig specialized = c;
  specialized.ws = 1;
  if (!(legal ? legal(specialized) : isLegal(specialized, shape.dtype, chip)))
    return c;
  // Measured (docs/perf.md): the producer pays where the blocks a wave
  // holds stay the same (deep-K splits of one wave, large tiles of one
  // block an SM: 1.01-1.23x), not where it halves them (small tiles of
  // a many-block convolution: 0.66-0.9x).
  int plain = residentBlocksPerSM(c, shape.dtype, chip);
  int withProducer = residentBlocksPerSM(specialized, shape.dtype, chip);
  int64_t blocks =
      ceilDiv(shape.m, c.ml) * ceilDiv(shape.n, c.nl) * shape.batch * c.kg;
  if (withProducer < plain &&
      blocks > int64_t(std::max(chip.numSMs, 1)) * withProducer)
    return c;
  return specialized;
}

static std::vector<Ranked> searchSpace(const GemmShape &shape,
                                       const ChipLimits &chip,
                                       const CostFn &cost, unsigned k,
                                       size_t *evaluated) {
  if (const RankerCost *ranked = cost.target<RankerCost>())
    return ranked->ranker->searchBest(shape, chip, k, evaluated);
  TopK best(k);
  size_t count = 0;
  GemmFamily family = searchFamily(shape.dtype, shape.tf32, chip);
  for (const GemmConfig &c : legalConfigs(shape.dtype, chip, family)) {
    if (splitsKUselessly(shape, c))
      continue;
    double t = cost(shape, c);
    // An infinite cost is the cost model declining to rank `c` (e.g. the
    // MLP outside its training support): not a candidate.
    if (std::isinf(t))
      continue;
    ++count;
    best.offer(c, t);
  }
  if (evaluated)
    *evaluated = count;
  return best.take();
}

/// Whether the measured forms below (pingPongForm, clusterForm) may
/// replace `c` as the first: a wgmma configuration without split-K, cluster
/// or persistent tiles, on operands TMA addresses.
static bool takesMeasuredForm(const GemmConfig &c, const GemmShape &shape) {
  return c.family == GemmFamily::Wgmma && c.kg == 1 && c.cm == 1 && !c.pt &&
         shape.tmaAligned();
}

/// The 128 x 128 tiles `shape` needs, in quarters of the SMs' worth.
static int64_t quarterWaves(const GemmShape &shape, const ChipLimits &chip) {
  constexpr int64_t kTile = 128;
  return 4 * ceilDiv(shape.m, kTile) * ceilDiv(shape.n, kTile) * shape.batch /
         int64_t(std::max(chip.numSMs, 1));
}

/// `p` where `legal` (by default isLegal for shape.dtype) admits it.
static std::optional<GemmConfig>
ifLegal(const GemmConfig &p, const GemmShape &shape, const ChipLimits &chip,
        const std::function<bool(const GemmConfig &)> &legal) {
  if (!(legal ? legal(p) : isLegal(p, shape.dtype, chip)))
    return std::nullopt;
  return p;
}

std::optional<GemmConfig>
isaac::pingPongForm(const GemmConfig &c, const GemmShape &shape,
                    const ChipLimits &chip,
                    const std::function<bool(const GemmConfig &)> &legal) {
  constexpr int kTile = 128;
  if (!takesMeasuredForm(c, shape))
    return std::nullopt;
  GemmConfig p = c;
  // The 128 x 128 tiles a problem needs, in quarters of the SMs' worth: a
  // deep reduction from 3/4 of a wave; a shallower one, whose warpgroups
  // overlap one tile's stores with the next tile's fetch, from 3/2 (at
  // 0.76 and 1.09 of a wave it lost: 0.82-0.98x).
  int64_t quarters = quarterWaves(shape, chip);
  // Five stages of 64 where there are two K tiles or more; one K tile a
  // tile, of the reduction rounded up to 16, 32 or 64, below.
  constexpr int kDepth = 64, kStages = 5;
  bool shallow = shape.k <= kMaxShallowPingPongK;
  bool deep = shape.k >= kStages * kDepth;
  if (quarters < (deep ? 3 : 6))
    return std::nullopt;
  // Up to kMaxPingPongK, whatever the first's tile where there are at most
  // four K tiles (1.05-1.48x over the first on eight inputs) or the
  // first's tile is no larger (0.99-1.46x on 35 inputs of five to 48).
  // Over a larger tile, only on operand rows of whole L2 lines: two 128 x
  // 128 tiles read 1.5x the operands of one 256 x 128, and rows off 128
  // bytes read up to 1.4x the sectors (0.91x of such firsts on 54 random
  // inputs with rows off 128 bytes, 1.13x on 31 with rows on them;
  // docs/perf.md, "Deep reductions").
  if (shape.k > kMaxPingPongK ||
      (deep && c.ml * c.nl > kTile * kTile && !shape.rowsOnLines()))
    return std::nullopt;
  p.u = !shallow ? kDepth : shape.k <= 16 ? 16 : shape.k <= 32 ? 32 : 64;
  p.stages = shallow ? 4 : kStages;
  p.ml = p.nl = p.wm = p.wn = kTile;
  p.kl = 1;
  p.kc = 0;
  p.ws = 1;
  p.pt = 2;
  return ifLegal(p, shape, chip, legal);
}

std::optional<GemmConfig>
isaac::clusterForm(const GemmConfig &c, const GemmShape &shape,
                   const ChipLimits &chip,
                   const std::function<bool(const GemmConfig &)> &legal) {
  constexpr int kTile = 128, kDepth = 64, kStages = 4;
  if (!takesMeasuredForm(c, shape) || shape.rowsOnSectors())
    return std::nullopt;
  // The range it was measured on (docs/perf.md, "Rows off sectors"): from
  // 5 K tiles (53 random inputs with rows off 32 bytes, 328 <= K <= 2856:
  // 0.727 -> 0.776 of the vendor over the selection of then; below, on 12
  // with 104 <= K <= 312, 0.95x) to kMaxClusterFormK (12 with 4944 <= K <=
  // 7944: 0.68 -> 0.84), from 3/4 of a wave of 128 x 128 tiles.
  if (quarterWaves(shape, chip) < 3 || shape.k < 5 * kDepth ||
      shape.k > kMaxClusterFormK)
    return std::nullopt;
  GemmConfig p = c;
  p.ml = kTile;
  p.nl = 2 * kTile;
  p.wm = p.wn = kTile;
  p.u = kDepth;
  p.stages = kStages;
  p.kl = 1;
  p.kc = 0;
  p.ws = 1;
  p.cm = 2;
  return ifLegal(p, shape, chip, legal);
}

void isaac::applyMeasuredRules(std::vector<Ranked> &best,
                               const GemmShape &shape, const ChipLimits &chip,
                               unsigned k) {
  for (Ranked &r : best)
    r.config = withWarpSpecialization(
        withClusterSplitK(r.config, shape.dtype, chip), shape, chip);
  // Measured (docs/perf.md, "Rows off sectors", "Persistent tiles and
  // ping-pong"): a rule on the ranking's first, which stays second.
  if (best.empty())
    return;
  std::optional<GemmConfig> p = clusterForm(best[0].config, shape, chip);
  if (!p)
    p = pingPongForm(best[0].config, shape, chip);
  if (p) {
    best.insert(best.begin(), Ranked{*p, best[0].cost});
    if (best.size() > k)
      best.pop_back();
  }
}

std::vector<Ranked> isaac::searchBest(const GemmShape &shape,
                                      const ChipLimits &chip,
                                      const CostFn &cost, unsigned k,
                                      size_t *evaluated) {
  std::vector<Ranked> best = searchSpace(shape, chip, cost, k, evaluated);
  applyMeasuredRules(best, shape, chip, k);
  return best;
}
