//===- wgmma_analytic.cpp - Analytic top-k of a family's space ------------===//
//
// The evaluation of the wgmma models (docs/model-eval.md) compares them at
// equal k with the analytic heuristic *in the wgmma family's space*. No
// built tool ranks that space with the analytic model: isaac-select-config
// with model-dir=none searches searchFamily()'s space, which for f16 and
// bf16 is mma even on sm_90a. analyticCost() itself prices wgmma
// configurations (lib/Model/AnalyticModel.cpp), so this program runs the
// search searchBest() does -- every legal configuration of the family, the
// useless split-K ones (splitsKUselessly) and infinite costs skipped, the k
// cheapest kept with ties in the order of legalConfigs() (TopK) -- over
// the family asked for. Built against the tree's libisaac_model.a by
// scripts/eval/pack-wgmma.sh (not by CMake: it is an evaluation helper,
// not part of the compiler).
//
//   usage: wgmma-analytic CHIP DTYPE FAMILY K SHAPES
//     SHAPES: 'M N K LAYOUT' lines ('#' comments); prints, per shape, a
//     line 'shape INDEX' and then its top K as '#isaac.gemm<...>' lines.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/GemmConfig.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/Search.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace isaac;

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: wgmma-analytic CHIP DTYPE FAMILY K SHAPES\n");
    return 2;
  }
  std::optional<ChipLimits> chip = getChipLimits(argv[1]);
  std::string dt = argv[2];
  DType dtype = dt == "f16"    ? DType::F16
                : dt == "bf16" ? DType::BF16
                : dt == "f32"  ? DType::F32
                               : DType::F64;
  std::optional<GemmFamily> family = parseGemmFamily(argv[3]);
  unsigned k = unsigned(std::atoi(argv[4]));
  if (!chip || !family || k == 0 ||
      (dt != "f16" && dt != "bf16" && dt != "f32" && dt != "f64")) {
    std::fprintf(stderr, "wgmma-analytic: bad chip, dtype, family or K\n");
    return 2;
  }
  const std::vector<GemmConfig> &space = legalConfigs(dtype, *chip, *family);
  if (space.empty()) {
    std::fprintf(stderr, "wgmma-analytic: no legal %s %s configuration on %s\n",
                 argv[3], argv[2], argv[1]);
    return 1;
  }
  std::ifstream in(argv[5]);
  if (!in) {
    std::fprintf(stderr, "wgmma-analytic: cannot read %s\n", argv[5]);
    return 2;
  }
  std::string line, layout;
  int index = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    GemmShape s;
    std::istringstream is(line);
    if (!(is >> s.m >> s.n >> s.k >> layout) || layout.size() != 2) {
      std::fprintf(stderr, "wgmma-analytic: bad shape line '%s'\n",
                   line.c_str());
      return 2;
    }
    s.dtype = s.cType = dtype; // C of the operands' type, as make_eval.py's
    s.layout.transA = layout[0] == 't';
    s.layout.transB = layout[1] == 't';
    TopK top(k);
    for (const GemmConfig &c : space) {
      if (splitsKUselessly(s, c))
        continue;
      double t = analyticCost(s, c, *chip);
      if (std::isfinite(t) && top.wouldKeep(t))
        top.offer(c, t);
    }
    std::printf("shape %d\n", index++);
    for (const Ranked &r : top.take())
      std::printf("#isaac.gemm<%s>\n", r.config.str().c_str());
  }
  return 0;
}
