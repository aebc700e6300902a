//===- Search.h - Exhaustive search of the legal space ---------*- C++ -*-===//
//
// ISAAC §6: the input is fixed at compile time, so the best configuration
// is found by scoring every legal configuration with a cost model and
// keeping the best k. The legal space depends only on (dtype, chip) and is
// enumerated once; scoring is what runs per shape.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_MODEL_SEARCH_H
#define ISAAC_MODEL_SEARCH_H

#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace isaac {

/// Every legal configuration of `family` for (dtype, chip), in a fixed
/// order: for simt nested loops over ml, ms, nl, ns, kl, u, ks, vec, kg
/// (outermost first); for mma the order of forEachLegalMmaConfig
/// (isaac/Model/Mma.h).
const std::vector<GemmConfig> &legalConfigs(DType dtype, const ChipLimits &chip,
                                            GemmFamily family);
/// The space of the family of `dtype` on every chip: mma for the operands
/// only tensor cores multiply here (f16, bf16), simt for f32 (exact; TF32
/// is opt-in: the mma space of f32) and f64 -- the space the trained
/// models rank. searchBest searches searchFamily()'s space
/// (isaac/Model/Mma.h), which for f64 is mma on chips with fast DMMA.
const std::vector<GemmConfig> &legalConfigs(DType dtype,
                                            const ChipLimits &chip);

/// Calls `visit` for every legal simt configuration of (dtype, chip) whose
/// nine parameters take values of `allowed` (per parameter in the order of
/// GemmConfig::values(), each sorted; an empty list, or `allowed` empty:
/// any value), in the order of legalConfigs(). Legality is decided by
/// isLegal() once per configuration without its KG: KG enters only the
/// power-of-two and range rules, which every KG it tries meets
/// (`isaac-model-test legality` checks the result against isLegal() on
/// every candidate).
void forEachLegalConfig(DType dtype, const ChipLimits &chip,
                        const std::vector<std::vector<int>> &allowed,
                        const std::function<void(const GemmConfig &)> &visit);
/// Calls `visit` for every legal configuration of `family` for (dtype,
/// chip), in the order of legalConfigs().
void forEachLegalConfig(GemmFamily family, DType dtype, const ChipLimits &chip,
                        const std::function<void(const GemmConfig &)> &visit);

/// Predicted run time in seconds (lower is better) of `c` on `shape`.
using CostFn = std::function<double(const GemmShape &, const GemmConfig &)>;

struct Ranked {
  GemmConfig config;
  double cost;
};

/// The most rows M a split-K (KG > 1) launch can have: the split-K helper
/// kernels cover M in blocks of 8 rows along grid y, whose limit is 65535
/// (lib/Runtime/GemmLaunch.cpp refuses larger launches).
constexpr int64_t kMaxSplitKRows = 65535 * 8;

/// Whether searchBest skips `c` on `shape` before asking the cost model:
/// more K slices than K has U-tiles leaves slices empty, never useful; and
/// a split of more rows than the split-K helpers can cover would be refused
/// at launch (such shapes have parallelism enough without splitting K).
inline bool splitsKUselessly(const GemmShape &shape, const GemmConfig &c) {
  int64_t kTiles = (shape.k + c.u - 1) / c.u;
  return c.kg > 1 && (c.kg > kTiles || shape.m > kMaxSplitKRows);
}

/// A cost model that ranks a shape's whole legal space at once, faster
/// than one call per configuration (the trained MLP: makeMLPCost). A
/// CostFn holding a RankerCost hands searchBest to its ranker, which must
/// return exactly what the configuration-by-configuration search would.
class SpaceRanker {
public:
  virtual ~SpaceRanker();
  /// searchBest(shape, chip, cost, k, evaluated) for this cost model.
  virtual std::vector<Ranked> searchBest(const GemmShape &shape,
                                         const ChipLimits &chip, unsigned k,
                                         size_t *evaluated) = 0;
  /// The cost of one configuration (+infinity: not ranked).
  virtual double cost(const GemmShape &shape, const GemmConfig &c) = 0;
};
struct RankerCost {
  std::shared_ptr<SpaceRanker> ranker;
  double operator()(const GemmShape &shape, const GemmConfig &c) const {
    return ranker->cost(shape, c);
  }
};

/// `c`, or the same with kc = 1 where legal and where measured faster: a
/// wgmma configuration split over K into 2 to 8 slices, an mma one with
/// f32 accumulators into 2 to 4. Its slices then sum inside the launch, a
/// thread-block cluster, instead of through the workspace and a second
/// kernel. A measured rule, not a ranked choice (no model reads kc):
/// docs/perf.md, "Split-K inside a cluster", has the numbers. isaac-tune
/// sample writes configurations in this form, so models trained on its
/// datasets rank a KG by the time of the kernel that runs.
/// isaac-select-config applies it to convolutions' rankings too.
GemmConfig withClusterSplitK(const GemmConfig &c, DType dtype,
                             const ChipLimits &chip);

/// `c`, or the same warp-specialized (ws = 1) where legal (`legal`; by
/// default isLegal for shape.dtype) and where measured faster: a wgmma
/// configuration (no cluster along M) whose blocks run the TMA loop on `shape`
/// (at least `stages` K tiles and operands TMA addresses,
/// shape.tmaAligned(); else the runtime keeps them on cp.async, where the
/// producer warpgroup only costs occupancy), and
/// whose producer warpgroup costs no wave: an SM holds as many of its
/// blocks as without it (residentBlocksPerSM), or all of the grid's
/// blocks fit in one wave anyway. A measured rule, as withClusterSplitK
/// (no model reads ws): docs/perf.md, "Warp specialization".
GemmConfig withWarpSpecialization(
    const GemmConfig &c, const GemmShape &shape, const ChipLimits &chip,
    const std::function<bool(const GemmConfig &)> &legal = nullptr);
/// The ping-pong form of a chosen configuration where measured faster
/// (docs/perf.md, "Persistent tiles and ping-pong"), else nullopt: for a wgmma
/// configuration (kg = 1, no cluster along M) on a shape with TMA operands,
/// two warpgroups of 128 x 128 tiles each on alternate tiles of a
/// persistent block (pt = 2), where `legal` (by default isLegal for
/// shape.dtype) admits it:
///  - a shallow reduction, K <= kMaxShallowPingPongK, on at least 3/2 of
///    the SMs' worth of 128 x 128 tiles: one K tile a tile (U = K rounded
///    up to 16, 32 or 64; 4 stages), whatever the tile of `c`, the
///    producer fetching the next tiles during the stores;
///  - a reduction of two to four K tiles of 64 (K < 320), on as many
///    tiles: 5 stages of 64, whatever the tile of `c`;
///  - a reduction of at most kMaxPingPongK with at least 5 K tiles of 64
///    (5 stages of 64) on at least 3/4 of the SMs' worth of tiles, where
///    `c`'s tile is at most 128 x 128 or the operands' rows start on 128
///    bytes (shape.rowsOnLines()).
std::optional<GemmConfig>
pingPongForm(const GemmConfig &c, const GemmShape &shape,
             const ChipLimits &chip,
             const std::function<bool(const GemmConfig &)> &legal = nullptr);
/// The cluster form of a chosen configuration where measured faster
/// (docs/perf.md, "Rows off sectors"), else nullopt: for a wgmma
/// configuration (kg = 1, no cluster along M, not persistent) on a shape
/// whose operands TMA addresses but whose rows do not all start on 32-byte
/// sectors (shape.tmaAligned() and not shape.rowsOnSectors()), with
/// 320 <= K <= kMaxClusterFormK on at least 3/4 of the SMs' worth of
/// 128 x 128 tiles: 128 x 256 tiles of two computing warpgroups and a
/// producer (ws = 1), 4 stages of 64, in clusters of two blocks along M
/// that share each stage's B tile (cm = 2), where `legal` (by default
/// isLegal for shape.dtype) admits it. The blocks of a pair read 0.75x the
/// L2 sectors of two lone ones, which is what rows off sectors are short
/// of.
std::optional<GemmConfig>
clusterForm(const GemmConfig &c, const GemmShape &shape, const ChipLimits &chip,
            const std::function<bool(const GemmConfig &)> &legal = nullptr);
/// The deepest reduction clusterForm takes: the deepest it was measured on.
constexpr int64_t kMaxClusterFormK = 8192;
/// The deepest reduction pingPongForm takes: deeper, the wgmmas of a tile
/// outweigh its epilogue, which ping-pong overlaps, and two 128 x 128
/// tiles read 1.5x the operands of one 256 x 128 (4096^3-8192^3: 0.77-0.98x).
constexpr int64_t kMaxPingPongK = 3072;
/// The deepest reduction of one K tile a tile that it takes.
constexpr int64_t kMaxShallowPingPongK = 64;
/// The condition of that rule on the configuration and the reduction
/// depth `k` (legality aside): a wgmma configuration without a cluster
/// along M whose blocks have at least `stages` K tiles.
inline bool warpSpecializes(const GemmConfig &c, int64_t k) {
  return c.family == GemmFamily::Wgmma && !c.ws && c.cm == 1 &&
         c.sliceDepth(k) / c.u >= c.stages;
}

/// The measured rules searchBest applies to a ranking `best` of at most `k`
/// (best first): each configuration as withClusterSplitK and then
/// withWarpSpecialization make it, and the cluster form of the first
/// (clusterForm), else its ping-pong form (pingPongForm), put before it
/// where there is one, the last dropped beyond `k`. One home, so that a
/// reference search (isaac-model-test mlp-topk-diff) applies the same.
void applyMeasuredRules(std::vector<Ranked> &best, const GemmShape &shape,
                        const ChipLimits &chip, unsigned k);

/// The `k` configurations with the lowest cost, best first (equal costs in
/// the order of legalConfigs()), in the space of searchFamily(shape.dtype,
/// shape.tf32, chip), with the measured rules applied (applyMeasuredRules).
/// Configurations
/// that cannot help the shape (splitsKUselessly) and configurations the
/// cost model declines (infinite cost) are skipped. `evaluated`, if given,
/// receives how many configurations were ranked.
std::vector<Ranked> searchBest(const GemmShape &shape, const ChipLimits &chip,
                               const CostFn &cost, unsigned k,
                               size_t *evaluated = nullptr);

/// The step of searchBest that keeps the best `k`: offer the candidates in
/// the order of legalConfigs().
class TopK {
public:
  explicit TopK(unsigned k) : k(k) {}
  /// Whether a candidate of cost `t` would be kept now (a NaN cost is, as
  /// the comparisons fall).
  bool wouldKeep(double t) const {
    return k > 0 && !(best.size() == k && t >= best.back().cost);
  }
  void offer(const GemmConfig &c, double t);
  std::vector<Ranked> take() { return std::move(best); }

private:
  unsigned k;
  std::vector<Ranked> best;
};

} // namespace isaac

#endif // ISAAC_MODEL_SEARCH_H
