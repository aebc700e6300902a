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
#include <vector>

namespace isaac {

/// Every legal configuration for (dtype, chip), in a fixed order.
const std::vector<GemmConfig> &legalConfigs(DType dtype,
                                            const ChipLimits &chip);

/// Predicted run time in seconds (lower is better) of `c` on `shape`.
using CostFn = std::function<double(const GemmShape &, const GemmConfig &)>;

struct Ranked {
  GemmConfig config;
  double cost;
};

/// The `k` configurations with the lowest cost, best first. Configurations
/// that cannot help the shape (K split into more slices than K has
/// U-tiles) are skipped. `evaluated`, if given, receives how many
/// configurations were scored.
std::vector<Ranked> searchBest(const GemmShape &shape, const ChipLimits &chip,
                               const CostFn &cost, unsigned k,
                               size_t *evaluated = nullptr);

} // namespace isaac

#endif // ISAAC_MODEL_SEARCH_H
