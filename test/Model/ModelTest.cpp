//===- ModelTest.cpp - Checks and probes of the MLIR-free model library ---===//
//
//   isaac-model-test legality          unit checks of the legality rules
//   isaac-model-test random-configs S N DTYPE
//                                      N legal configurations drawn with
//                                      seed S uniformly from the legal space
//   isaac-model-test search M N K DTYPE
//                                      best configuration and search rate
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/Search.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

using namespace isaac;

static int passed = 0, failed = 0;

static void expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

/// Expects `c` to break exactly rule `rule` first (or be legal if empty).
static void expectRule(const GemmConfig &c, DType t, const char *rule) {
  ChipLimits chip = *getChipLimits("sm_90");
  auto v = checkGemmLegality(c, t, chip);
  std::string got = v.empty() ? "" : v.front().rule;
  expect(got == rule, "config <" + c.str() + "> " + dtypeName(t) +
                          ": expected rule '" + rule + "', got '" + got +
                          "'");
}

static int runLegality() {
  GemmConfig base; // 64x64, 8x8, u=8, vec=4: 64 threads
  expectRule(base, DType::F32, "");
  GemmConfig c = base;
  c.ml = 48;
  expectRule(c, DType::F32, "power-of-two");
  c = base;
  c.ml = 512;
  expectRule(c, DType::F32, "range");
  c = base;
  c.ms = 16;
  c.ml = 8;
  expectRule(c, DType::F32, "tile-divisibility");
  c = base;
  c.u = 4;
  c.kl = 8;
  c.vec = 1;
  expectRule(c, DType::F32, "tile-divisibility");
  c = base;
  c.ml = 16; // 2 * 8 = 16 threads
  expectRule(c, DType::F32, "threads-per-block");
  c = base;
  c.ms = 1;
  c.ns = 1; // 4096 threads
  expectRule(c, DType::F32, "threads-per-block");
  c = base;
  expectRule(c, DType::F64, "vector-width");
  c = base;
  c.u = 2;
  expectRule(c, DType::F32, "vector-divisibility");
  c = base;
  c.u = 64;
  c.ml = 128;
  c.nl = 128;
  c.ms = 16;
  c.ns = 16; // 64 threads, 2*64*(132+132)*4 = 135 KB
  expectRule(c, DType::F32, "shared-memory");
  c = base;
  c.ms = 16;
  c.ns = 16;
  c.ml = 128;
  c.nl = 128;
  c.ks = 2; // 512 accumulators
  expectRule(c, DType::F32, "registers");

  // The shared-memory layout the generator uses.
  SharedLayout s = getSharedLayout(base, DType::F32);
  expect(s.strideA == 68 && s.strideB == 68, "f32 rows padded by 16 bytes");
  expect(s.bytes == 2 * 8 * (68 + 68) * 4, "double-buffered stage size");
  expect(fragmentWidthA(base, DType::F32) == 4, "f32 fragments are 16 bytes");
  expect(fragmentWidthA(base, DType::F64) == 2, "f64 fragments are 16 bytes");

  // Every configuration the search enumerates is legal, and the space is
  // not trivially small.
  ChipLimits chip = *getChipLimits("sm_90");
  const auto &space = legalConfigs(DType::F32, chip);
  bool allLegal = true;
  for (const GemmConfig &x : space)
    allLegal &= isLegal(x, DType::F32, chip);
  expect(allLegal, "enumerated configurations are legal");
  expect(space.size() > 10000, "legal f32 space has > 10000 configurations");
  expect(!getChipLimits("sm_42"), "unknown chips are refused");

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

static DType parseDType(const char *s) {
  return std::strcmp(s, "f64") == 0 ? DType::F64 : DType::F32;
}

static int runRandom(unsigned seed, int n, DType t) {
  const auto &space = legalConfigs(t, *getChipLimits("sm_90"));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, space.size() - 1);
  for (int i = 0; i < n; ++i)
    std::printf("#isaac.gemm<%s>\n", space[pick(rng)].str().c_str());
  return 0;
}

static int runSearch(int64_t m, int64_t n, int64_t k, DType t) {
  ChipLimits chip = *getChipLimits("sm_90");
  GemmShape s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.dtype = t;
  legalConfigs(t, chip); // enumerate once, outside the timed search
  size_t evaluated = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto best = searchBest(
      s, chip,
      [&](const GemmShape &sh, const GemmConfig &c) {
        return analyticCost(sh, c, chip);
      },
      5, &evaluated);
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             t0)
                   .count();
  for (const Ranked &r : best)
    std::printf("%.3f us  #isaac.gemm<%s>\n", r.cost * 1e6,
                r.config.str().c_str());
  std::printf("searched %zu configurations in %.3f s (%.2f M/s)\n", evaluated,
              sec, evaluated / sec / 1e6);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "legality") == 0)
    return runLegality();
  if (argc == 5 && std::strcmp(argv[1], "random-configs") == 0)
    return runRandom(std::atoi(argv[2]), std::atoi(argv[3]),
                     parseDType(argv[4]));
  if (argc == 6 && std::strcmp(argv[1], "search") == 0)
    return runSearch(std::atoll(argv[2]), std::atoll(argv[3]),
                     std::atoll(argv[4]), parseDType(argv[5]));
  std::fprintf(stderr, "usage: isaac-model-test legality | random-configs "
                       "SEED N f32|f64 | search M N K f32|f64\n");
  return 2;
}
