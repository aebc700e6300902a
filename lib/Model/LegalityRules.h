//===- LegalityRules.h - Legality rules shared inside lib/Model -*- C++ -*-===//
//
// Private to lib/Model. Legality.cpp holds the rules every family shares
// (the power-of-two and range rules of GemmParams.def, `family`) and the
// simt family's; each other family's rules are one function declared here,
// in a file of its own, which Legality.cpp calls for configurations of that
// family.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_MODEL_LEGALITYRULES_H
#define ISAAC_LIB_MODEL_LEGALITYRULES_H

#include "isaac/Model/Legality.h"

#include <functional>
#include <string>
#include <vector>

namespace isaac {

/// Where the rules report a broken rule: with its message into `out`
/// (checkGemmLegality, the verifier's diagnostics), or, with `out` null,
/// only the fact, stopping at the first one and formatting no message
/// (isLegal: the search asks it about every candidate of a space of ~10^6).
class Report {
public:
  explicit Report(std::vector<Violation> *out) : out(out) {}
  /// Records that `rule` is broken; returns whether to go on checking.
  template <typename Message> bool fail(const char *rule, Message &&message) {
    broken = true;
    if (out)
      out->push_back({rule, message()});
    return out != nullptr;
  }
  bool broken = false;

private:
  std::vector<Violation> *out;
};

/// The rule `registers` of every family: `regs` (the family's estimate per
/// thread) within the chip's per-thread limit, and `regs` x `t` (the
/// block's threads) within its per-block file (lib/Model/Legality.cpp).
void checkRegisterRule(int regs, int t, const ChipLimits &chip, Report &r);

/// The rules of the mma family (lib/Model/MmaLegality.cpp) for `c`, whose
/// family is mma and whose parameters already passed the power-of-two and
/// range rules, with operands of type `dtype` on `chip`.
void checkMmaRules(const GemmConfig &c, DType dtype, const ChipLimits &chip,
                   Report &r);

/// Bytes of shared memory of an mma kernel of `c` with operands of type
/// `dtype` (lib/Model/MmaLegality.cpp): what its shared-memory rule checks,
/// what the generator allocates and the kernel header reports.
int mmaSharedMemoryBytes(const GemmConfig &c, DType dtype);

void checkWgmmaRules(const GemmConfig &c, DType dtype, const ChipLimits &chip,
                     Report &r);

/// The resource rules of the warp-tiled families (mma, wgmma; in
/// lib/Model/MmaLegality.cpp), checked once their tile rules hold: threads
/// per block (`tileThreads` per tile of the tilesM x tilesN grid, times
/// kl), the cp.async copy width, shared memory (getMmaSharedLayout against
/// the dynamic limit of `info`, the chip's table row, or the static one of
/// a chip without a row) and `registers` (the family's estimate).
void checkWarpTiledResources(const GemmConfig &c, DType dtype,
                             const ChipLimits &chip, const ChipInfo *info,
                             int tileThreads, int tilesM, int tilesN,
                             int registers, Report &r);

/// The rules of thread-block clusters, shared by the warp-tiled families
/// (lib/Model/MmaLegality.cpp): `cluster-chip` (a cluster, cm > 1 or
/// kc = 1, needs a chip that launches clusters) and `cluster-k` (kc = 1:
/// KG from 2 to 8, the blocks of a portable cluster, and cm = 1). Returns
/// false where the caller should stop.
bool checkClusterRules(const GemmConfig &c, const ChipLimits &chip,
                       const ChipInfo *info, Report &r);

/// Calls `visit` for every legal configuration of a family whose block is
/// a grid of WM x WN tiles of `threadsPerTile` threads each (mma: warps,
/// wgmma: warpgroups), in a fixed order: nested loops over ml, wm, nl, wn,
/// kl, u, vec, stages, kg (outermost first) over the family's values of
/// each. `rowTileOk` and `colTileOk` prune WM and WN by the instruction's
/// shape, `kStep` (the instruction's k) U with KL; isLegal has the last
/// word on every candidate.
void forEachWarpTiledConfig(
    GemmFamily family, DType dtype, const ChipLimits &chip, int threadsPerTile,
    const std::function<bool(int)> &rowTileOk,
    const std::function<bool(int)> &colTileOk, int kStep,
    const std::function<void(const GemmConfig &)> &visit);

} // namespace isaac

#endif // ISAAC_LIB_MODEL_LEGALITYRULES_H
