//===- Search.cpp - Exhaustive search of the legal space ------------------===//

#include "isaac/Model/Search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

using namespace isaac;

const std::vector<GemmConfig> &isaac::legalConfigs(DType dtype,
                                                   const ChipLimits &chip) {
  static std::mutex mutex;
  static std::map<std::pair<int, std::string>, std::vector<GemmConfig>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(static_cast<int>(dtype), chip.chip);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;

  std::vector<GemmConfig> out;
  const auto &r = gemmParamRanges();
  auto pow2s = [](const ParamRange &p) {
    std::vector<int> v;
    for (int x = p.lo; x <= p.hi; x *= 2)
      v.push_back(x);
    return v;
  };
  // Nested in the order of the cheapest structural pruning; the full rule
  // set (checkGemmLegality) has the last word on every candidate.
  GemmConfig c;
  for (int ml : pow2s(r[0]))
    for (int ms : pow2s(r[2])) {
      if (ms > ml)
        break;
      for (int nl : pow2s(r[1]))
        for (int ns : pow2s(r[3])) {
          if (ns > nl)
            break;
          int t0 = (ml / ms) * (nl / ns);
          if (t0 > chip.maxThreadsPerBlock)
            continue;
          for (int kl : pow2s(r[6])) {
            if (t0 * kl > chip.maxThreadsPerBlock)
              break;
            if ((t0 * kl) % 32 != 0)
              continue;
            for (int u : pow2s(r[4]))
              for (int ks : pow2s(r[5])) {
                if (kl * ks > u)
                  break;
                for (int vec : pow2s(r[8]))
                  for (int kg : pow2s(r[7])) {
                    c = {ml, nl, ms, ns, u, ks, kl, kg, vec};
                    if (isLegal(c, dtype, chip))
                      out.push_back(c);
                  }
              }
          }
        }
    }
  return cache.emplace(key, std::move(out)).first->second;
}

std::vector<Ranked> isaac::searchBest(const GemmShape &shape,
                                      const ChipLimits &chip,
                                      const CostFn &cost, unsigned k,
                                      size_t *evaluated) {
  std::vector<Ranked> best;
  size_t count = 0;
  for (const GemmConfig &c : legalConfigs(shape.dtype, chip)) {
    // More K slices than U-tiles leaves slices empty: never useful.
    int64_t kTiles = (shape.k + c.u - 1) / c.u;
    if (c.kg > 1 && c.kg > kTiles)
      continue;
    double t = cost(shape, c);
    // An infinite cost is the cost model declining to rank `c` (e.g. the
    // MLP outside its training support): not a candidate.
    if (std::isinf(t))
      continue;
    ++count;
    if (best.size() == k && t >= best.back().cost)
      continue;
    Ranked r{c, t};
    auto pos = std::upper_bound(
        best.begin(), best.end(), r,
        [](const Ranked &a, const Ranked &b) { return a.cost < b.cost; });
    best.insert(pos, r);
    if (best.size() > k)
      best.pop_back();
  }
  if (evaluated)
    *evaluated = count;
  return best;
}
