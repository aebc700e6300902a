//===- Search.cpp - Exhaustive search of the legal space ------------------===//

#include "isaac/Model/Search.h"

#include "isaac/Model/Mma.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

using namespace isaac;

SpaceRanker::~SpaceRanker() = default;

void isaac::forEachLegalConfig(
    DType dtype, const ChipLimits &chip,
    const std::vector<std::vector<int>> &allowed,
    const std::function<void(const GemmConfig &)> &visit) {
  const auto &r = gemmParamRanges();
  // The values each loop takes: the powers of two of the parameter's range
  // that `allowed` admits. The structural breaks below test the values
  // themselves, so skipping some does not change which others are reached.
  auto values = [&](size_t p) {
    std::vector<int> v;
    for (int x = r[p].lo; x <= r[p].hi; x *= 2)
      if (allowed.size() <= p || allowed[p].empty() ||
          std::binary_search(allowed[p].begin(), allowed[p].end(), x))
        v.push_back(x);
    return v;
  };
  auto all = [&](size_t p) {
    std::vector<int> v;
    for (int x = r[p].lo; x <= r[p].hi; x *= 2)
      v.push_back(x);
    return v;
  };
  const std::vector<int> mls = values(0), nls = values(1), mss = all(2),
                         nss = all(3), us = values(4), kss = all(5),
                         kls = all(6), kgs = values(7), vecs = values(8);
  auto admits = [&](size_t p, int x) {
    return allowed.size() <= p || allowed[p].empty() ||
           std::binary_search(allowed[p].begin(), allowed[p].end(), x);
  };
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
  // Operands tensor cores multiply (f16, bf16) have the mma family's space;
  // f32 and f64 the simt family's.
  auto add = [&](const GemmConfig &c) { out.push_back(c); };
  if (mmaInstruction(dtype))
    forEachLegalMmaConfig(dtype, chip, add);
  else
    forEachLegalConfig(dtype, chip, {}, add);
  return cache.emplace(key, std::move(out)).first->second;
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

std::vector<Ranked> isaac::searchBest(const GemmShape &shape,
                                      const ChipLimits &chip,
                                      const CostFn &cost, unsigned k,
                                      size_t *evaluated) {
  if (const RankerCost *ranked = cost.target<RankerCost>())
    return ranked->ranker->searchBest(shape, chip, k, evaluated);
  TopK best(k);
  size_t count = 0;
  for (const GemmConfig &c : legalConfigs(shape.dtype, chip)) {
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
