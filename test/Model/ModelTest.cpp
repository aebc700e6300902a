//===- ModelTest.cpp - Checks and probes of the MLIR-free model library ---===//
//
//   isaac-model-test legality          unit checks of the legality rules
//   isaac-model-test schema            the tuning-space table as lib/Model
//                                      reads it (GemmParams.def), in the
//                                      words of scripts/isaac_schema.py
//   isaac-model-test schema-check      unit checks of what derives from it:
//                                      attribute text, kernel names and
//                                      their parsers, boxes, legality
//   isaac-model-test kernel-names S N  N kernel names of every family and
//                                      element-type token, drawn with seed
//                                      S, each with its attribute text
//   isaac-model-test random-configs S N DTYPE [CHIP [FAMILY]]
//                                      N legal configurations drawn with
//                                      seed S uniformly from the legal space
//                                      of DTYPE (f32 f64 f16 bf16) on CHIP
//                                      (sm_90) of FAMILY (simt, mma; the
//                                      type's own: simt for f32 and f64)
//   isaac-model-test search M N K DTYPE
//                                      best configuration and search rate
//   isaac-model-test synthetic SEED ROWS PER_SHAPE DTYPE [CHIP [FAMILY]]
//                                      a synthetic dataset (analytic model x
//                                      log-normal noise) in the CSV format
//                                      of docs/tuning.md, for tests of the
//                                      trainer: NOT measurements
//   isaac-model-test mlp-info MODEL    load a model file, print its header
//   isaac-model-test mlp-check MODEL VECTORS
//                                      features and predictions of the C++
//                                      model against train.py's vectors
//   isaac-model-test mlp-fuzz MODEL N  N damaged copies of a model (cut,
//                                      bytes changed or deleted; half of
//                                      them re-signed so that the parser
//                                      proper sees them) must load or fail
//                                      with a message, never crash
//   isaac-model-test mlp-search MODEL M N K [LAYOUT [BATCH]]
//                                      exhaustive search ranked by the MLP,
//                                      and its rate
//   isaac-model-test mlp-prescreen MODEL SHAPES|random:N [PRESCREEN]
//                                      top 10 with and without the
//                                      ensemble pre-screen, per shape
//   isaac-model-test mlp-topk MODEL SHAPES [K]
//                                      the K (10) best configurations of
//                                      isaac-select-config's search, per
//                                      input `M N K LAYOUT BATCH` of SHAPES
//                                      (test/Model/topk-golden.test)
//   isaac-model-test mlp-topk-diff MODEL SHAPES|random:N [K [PRESCREEN]]
//                                      that search against the reference
//                                      algorithm (referenceSearch)
//   isaac-model-test mlp-kernel-check MODEL SHAPES|random:N
//                                      the search's scores against
//                                      MLPModel::predict, bit for bit
//   isaac-model-test mlp-space-dump MODEL SHAPES|random:N OUT SAMPLE TOP SEED
//                                      the first member's TOP best and
//                                      SAMPLE random configurations per
//                                      input, as float32 rows (features,
//                                      score, rank), for train_screen.py
//
//===----------------------------------------------------------------------===//

#include "ConvModelTest.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/Features.h"
#include "isaac/Model/Legality.h"
#include "isaac/Model/MLP.h"
#include "isaac/Model/Mma.h"
#include "isaac/Model/Sampler.h"
#include "isaac/Model/Search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
                          ": expected rule '" + rule + "', got '" + got + "'");
}

/// The shared-memory swizzle of the mma family (MmaSwizzle, Mma.h): every
/// tile's offsets are a permutation of the tile that keeps each 16-byte
/// chunk whole and in its 128-byte line, and for f64 every half-warp
/// phase of the fragment loads (LDS.64 of A(m g, k q) and B(k q, n g),
/// g = lane/4, q = lane%4, at every m8/n8 tile and k-step of the tile, in
/// both stored orientations) reads 16 words of 8 bytes from 32 distinct
/// banks.
static void runMmaSwizzleChecks() {
  for (DType t : {DType::F16, DType::F32, DType::F64}) {
    int esz = dtypeBytes(t), perChunk = 16 / esz;
    for (int cols = perChunk * 2; cols <= 256; cols *= 2) {
      int rows = 64;
      MmaSwizzle sw = getMmaSwizzle(cols, t);
      std::vector<char> seen(size_t(rows) * cols, 0);
      bool perm = true;
      for (int r = 0; r < rows; ++r)
        for (int col = 0; col < cols; ++col) {
          int off = mmaSwizzledOffset(sw, cols, t, r, col);
          int lin = r * cols + col;
          perm &= off >= 0 && off < rows * cols && !seen[size_t(off)] &&
                  off % perChunk == col % perChunk &&
                  off * esz / 128 == lin * esz / 128;
          if (off >= 0 && off < rows * cols)
            seen[size_t(off)] = 1;
        }
      expect(perm, std::string("the ") + dtypeName(t) + " swizzle of " +
                       std::to_string(cols) +
                       "-element rows permutes chunks inside lines");
    }
  }
  // f64 fragment loads: rows are m or n (contiguous K: cols = U, 4..64) or
  // k (cols = ML or NL, 8..256).
  int worst = 0;
  for (bool contigIsK : {true, false})
    for (int cols = contigIsK ? 4 : 8; cols <= (contigIsK ? 64 : 256);
         cols *= 2) {
      int rows = contigIsK ? 256 : 64;
      MmaSwizzle sw = getMmaSwizzle(cols, DType::F64);
      int mnExtent = contigIsK ? rows : cols, kExtent = contigIsK ? cols : rows;
      for (int mn0 = 0; mn0 < mnExtent; mn0 += 8)
        for (int k0 = 0; k0 < kExtent; k0 += 4)
          for (int half = 0; half < 2; ++half) {
            std::map<int, std::set<int>> bankWords;
            for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
              int mn = mn0 + lane / 4, k = k0 + lane % 4;
              int off = contigIsK
                            ? mmaSwizzledOffset(sw, cols, DType::F64, mn, k)
                            : mmaSwizzledOffset(sw, cols, DType::F64, k, mn);
              for (int w = 0; w < 2; ++w) {
                int word = off * 2 + w; // 4-byte words
                bankWords[word % 32].insert(word);
              }
            }
            for (auto &[bank, words] : bankWords)
              worst = std::max(worst, int(words.size()));
          }
    }
  expect(worst == 1, "f64 fragment loads are free of bank conflicts (worst " +
                         std::to_string(worst) + "-way)");
}

/// The mma family's rules (lib/Model/MmaLegality.cpp) and its space.
static void runMmaLegality() {
  runMmaSwizzleChecks();
  // Which family the search ranks: f64 on DMMA where it is faster.
  auto family = [](DType t, bool tf32, const char *chip) {
    return searchFamily(t, tf32, *getChipLimits(chip));
  };
  expect(family(DType::F64, false, "sm_80") == GemmFamily::Mma &&
             family(DType::F64, false, "sm_90") == GemmFamily::Mma &&
             family(DType::F64, false, "sm_90a") == GemmFamily::Mma &&
             family(DType::F64, false, "sm_86") == GemmFamily::Simt &&
             family(DType::F64, false, "sm_89") == GemmFamily::Simt &&
             family(DType::F64, false, "sm_100") == GemmFamily::Simt,
         "f64 is searched on mma where DMMA beats the FP64 pipes");
  expect(family(DType::F32, false, "sm_90") == GemmFamily::Simt &&
             family(DType::F32, true, "sm_90") == GemmFamily::Mma &&
             family(DType::F16, false, "sm_86") == GemmFamily::Mma &&
             family(DType::BF16, false, "sm_90") == GemmFamily::Mma,
         "f32 is simt unless TF32; 16-bit is mma");
  GemmConfig base; // 128x128 block, 64x64 warps: 4 warps, 4 stages
  base.family = GemmFamily::Mma;
  base.ml = base.nl = 128;
  base.wm = base.wn = 64;
  base.u = 32;
  base.vec = 8;
  base.stages = 4;
  expectRule(base, DType::F16, "");
  expectRule(base, DType::BF16, "");
  expectRule(base, DType::F32, "vector-width"); // TF32: 4 x 8 = 32 bytes
  GemmConfig tf32 = base;
  tf32.vec = 4;
  expectRule(tf32, DType::F32, "");
  // f64 (m16n8k8 on sm_90): 8-byte elements, two registers per accumulator.
  GemmConfig f64 = base;
  f64.wm = 32;
  f64.wn = 64;
  f64.u = 8;
  f64.vec = 2;
  expectRule(f64, DType::F64, "");
  expectRule(tf32, DType::F64, "vector-width"); // 4 x 8 = 32 bytes
  GemmConfig c = f64;
  c.u = 4;
  c.kl = 2;
  expectRule(c, DType::F64, "k-depth"); // 4 * 2
  c = f64;
  c.wm = 64; // 64 * 64 f64 accumulators: 256 registers
  expectRule(c, DType::F64, "registers");
  c = f64;
  c.ml = c.nl = 256;
  c.u = 32;
  c.stages = 4; // 4 * 128 KiB
  expectRule(c, DType::F64, "shared-memory");
  c = f64;
  c.kl = 2;
  c.u = 8;
  c.stages = 2;
  expect(getMmaSharedLayout(c, DType::F64).reduceBytes == 128 * 128 * 8,
         "f64 KL partials are f64");
  expect(estimateMmaRegisters(f64, DType::F64) ==
             32 * 64 / 16 + (32 / 8 + 64 / 8) * 2 + 4 * 2 +
                 5 * (mmaCopiesPerThreadA(f64) + mmaCopiesPerThreadB(f64)) + 60,
         "f64 accumulators and fragments take two registers each");
  expect(mmaInstruction(DType::F64, "sm_90a")->m == 16 &&
             mmaInstruction(DType::F64, "sm_90a")->k == 8 &&
             mmaInstruction(DType::F64, "sm_80")->m == 8 &&
             mmaInstruction(DType::F64, "sm_80")->k == 4,
         "f64: m16n8k8 where the chip table has it, else m8n8k4");
  c = f64;
  c.ml = 16;
  c.wm = 8; // an m8 warp tile: m8n8k4 on sm_80, not m16n8k8 on sm_90
  expectRule(c, DType::F64, "warp-tile");
  expect(checkGemmLegality(c, DType::F64, *getChipLimits("sm_80")).empty(),
         "f64 wm = 8 is legal on sm_80 (m8n8k4)");
  // The top-1 of f64 LINPACK 2048^3 before the calibration: ptxas gave it
  // 255 registers and 292 bytes of spills (docs/tuning.md).
  c = f64;
  c.u = 32;
  c.stages = 3;
  expectRule(c, DType::F64, "registers");
  c = base;
  c.wm = 8;
  expectRule(c, DType::F16, "warp-tile");
  c = base;
  c.ml = 32;
  expectRule(c, DType::F16, "warp-tile");
  c = base;
  c.u = 16;
  c.kl = 2;
  expectRule(c, DType::F16, "k-depth");
  c = base;
  c.wm = c.wn = 16;
  c.kl = 2; // 2 * 64 warps
  expectRule(c, DType::F16, "threads-per-block");
  c = base;
  c.vec = 1;
  expectRule(c, DType::F16, "vector-width");
  c = base;
  c.u = 64;
  c.ml = c.nl = 256;
  c.stages = 4; // 4 * 64 KiB
  expectRule(c, DType::F16, "shared-memory");
  c = base;
  c.wm = c.wn = 128; // 512 accumulators
  expectRule(c, DType::F16, "registers");
  // The simt family does not take 16-bit operands.
  expectRule(GemmConfig(), DType::F16, "simt-type");

  MmaSharedLayout s = getMmaSharedLayout(base, DType::F16);
  expect(s.stageBytes == (128 + 128) * 32 * 2 && s.bytes == 4 * s.stageBytes,
         "mma stages hold the A and B tiles");
  expect(gemmSharedMemoryBytes(base, DType::F16) == s.bytes &&
             usesDynamicSharedMemory(base),
         "mma kernels report their dynamic shared memory");
  c = base;
  c.kl = 4;
  c.stages = 2;
  c.u = 64;
  c.ml = c.nl = 64;
  c.wm = c.wn = 32; // partials 3 * 64 * 64 * 4 > 2 stages of 16 KiB
  expect(getMmaSharedLayout(c, DType::F16).bytes == 3 * 64 * 64 * 4,
         "the KL partials may need more than the stages");

  // The space the search ranks for 16-bit operands: every candidate of the
  // family's box checked on its own gives it (f16; bf16 has the same rules
  // and space).
  ChipLimits chip = *getChipLimits("sm_90");
  expect(legalConfigs(DType::F16, chip, GemmFamily::Mma).size() ==
             legalConfigs(DType::BF16, chip, GemmFamily::Mma).size(),
         "f16 and bf16 have one mma space");
  for (DType t : {DType::F16, DType::F64}) {
    auto values = [](GemmParam p) {
      return familyParamValues(GemmFamily::Mma, p);
    };
    size_t brute = 0;
    GemmConfig x;
    x.family = GemmFamily::Mma;
    for (int ml : values(GemmParam::ml))
      for (int wm : values(GemmParam::wm))
        for (int nl : values(GemmParam::nl))
          for (int wn : values(GemmParam::wn))
            for (int kl : values(GemmParam::kl))
              for (int u : values(GemmParam::u))
                for (int vec : values(GemmParam::vec))
                  for (int st : values(GemmParam::stages))
                    for (int kg : values(GemmParam::kg)) {
                      x.ml = ml, x.wm = wm, x.nl = nl, x.wn = wn, x.kl = kl;
                      x.u = u, x.vec = vec, x.stages = st, x.kg = kg;
                      brute += isLegal(x, t, chip);
                    }
    const std::vector<GemmConfig> &fast =
        legalConfigs(t, chip, GemmFamily::Mma);
    bool allLegal = true, allMma = true;
    for (const GemmConfig &y : fast) {
      allLegal &= isLegal(y, t, chip);
      allMma &= y.family == GemmFamily::Mma;
    }
    expect(allLegal && allMma && fast.size() == brute && brute > 10000,
           std::string("legalConfigs(") + dtypeName(t) +
               ", sm_90) is the legal mma space (" +
               std::to_string(fast.size()) + " vs " + std::to_string(brute) +
               ")");
  }
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

  // The enumeration decides legality once per configuration without its
  // KG (forEachLegalConfig); every candidate of its loops checked on its
  // own gives the same space, for both element types (the chips differ
  // only in their SM count, which legality does not read).
  for (const char *name : {"sm_90"})
    for (DType t : {DType::F32, DType::F64}) {
      ChipLimits cl = *getChipLimits(name);
      const auto &r = gemmParamRanges();
      auto pow2s = [](const ParamRange &p) {
        std::vector<int> v;
        for (int x = p.lo; x <= p.hi; x *= 2)
          v.push_back(x);
        return v;
      };
      std::vector<GemmConfig> brute;
      for (int ml : pow2s(r[0]))
        for (int ms : pow2s(r[2]))
          for (int nl : pow2s(r[1]))
            for (int ns : pow2s(r[3]))
              for (int kl : pow2s(r[6]))
                for (int u : pow2s(r[4]))
                  for (int ks : pow2s(r[5]))
                    for (int vec : pow2s(r[8]))
                      for (int kg : pow2s(r[7])) {
                        GemmConfig x = GemmConfig::fromValues(
                            {ml, nl, ms, ns, u, ks, kl, kg, vec});
                        if (isLegal(x, t, cl))
                          brute.push_back(x);
                      }
      const std::vector<GemmConfig> &fast = legalConfigs(t, cl);
      expect(brute.size() == fast.size() &&
                 std::equal(brute.begin(), brute.end(), fast.begin()),
             std::string("legalConfigs(") + dtypeName(t) + ", " + name +
                 ") equals the brute-force enumeration (" +
                 std::to_string(fast.size()) + " vs " +
                 std::to_string(brute.size()) + ")");
    }
  // isLegal is checkGemmLegality without the messages.
  {
    std::mt19937_64 rng(3);
    const auto &r = gemmParamRanges();
    auto pick = [&](const ParamRange &p) {
      int v = p.lo;
      for (int e = int(rng() % 12); e > 0 && v < 2 * p.hi; --e)
        v *= 2;
      return rng() % 16 == 0 ? v + 1 : v; // now and then not a power of 2
    };
    size_t bad = 0, legal = 0;
    for (int i = 0; i < 200000; ++i) {
      GemmConfig x = GemmConfig::fromValues(
          {pick(r[0]), pick(r[1]), pick(r[2]), pick(r[3]), pick(r[4]),
           pick(r[5]), pick(r[6]), pick(r[7]), pick(r[8])});
      DType t = i % 2 ? DType::F64 : DType::F32;
      bool want = checkGemmLegality(x, t, chip).empty();
      legal += want;
      bad += isLegal(x, t, chip) != want;
    }
    expect(bad == 0 && legal > 0,
           "isLegal agrees with checkGemmLegality on random configurations (" +
               std::to_string(bad) + " differ, " + std::to_string(legal) +
               " legal)");
  }

  // Every row, the B tile and the second stage start 16-byte aligned: the
  // generator's shared-memory vector accesses rely on it (tiny ML or NL
  // with small U once misaligned them).
  for (DType t : {DType::F32, DType::F64}) {
    int quantum = 16 / dtypeBytes(t);
    bool aligned = true;
    for (const GemmConfig &x : legalConfigs(t, chip)) {
      SharedLayout l = getSharedLayout(x, t);
      aligned &= l.strideA % quantum == 0 && l.strideB % quantum == 0 &&
                 l.offsetB % quantum == 0 && l.stageElems % quantum == 0;
    }
    expect(aligned,
           std::string("16-byte aligned shared tiles (") + dtypeName(t) + ")");
  }

  runMmaLegality();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

static DType parseDType(const char *s) {
  if (std::strcmp(s, "f16") == 0)
    return DType::F16;
  if (std::strcmp(s, "bf16") == 0)
    return DType::BF16;
  return std::strcmp(s, "f64") == 0 ? DType::F64 : DType::F32;
}

static int runRandom(unsigned seed, int n, DType t, const char *chip,
                     const char *familyName) {
  std::optional<ChipLimits> limits = getChipLimits(chip);
  if (!limits) {
    std::fprintf(stderr, "unknown chip %s\n", chip);
    return 1;
  }
  // Without a family, the type's own: mma for 16-bit operands, simt for
  // f32 (exact) and f64 (whose mma space, f64 on DMMA, is asked for).
  std::optional<GemmFamily> family;
  if (familyName) {
    family = parseGemmFamily(familyName);
    if (!family) {
      std::fprintf(stderr, "unknown family %s\n", familyName);
      return 1;
    }
  }
  const auto &space =
      family ? legalConfigs(t, *limits, *family) : legalConfigs(t, *limits);
  if (space.empty()) {
    std::fprintf(stderr, "no legal %s configuration for %s on %s\n",
                 familyName ? familyName : "", dtypeName(t), chip);
    return 1;
  }
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
  s.cType = s.dtype;
  legalConfigs(t, chip); // enumerate once, outside the timed search
  size_t evaluated = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto best = searchBest(
      s, chip,
      [&](const GemmShape &sh, const GemmConfig &c) {
        return analyticCost(sh, c, chip);
      },
      5, &evaluated);
  double sec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  for (const Ranked &r : best)
    std::printf("%.3f us  #isaac.gemm<%s>\n", r.cost * 1e6,
                r.config.str().c_str());
  std::printf("searched %zu configurations in %.3f s (%.2f M/s)\n", evaluated,
              sec, evaluated / sec / 1e6);
  return 0;
}

//===----------------------------------------------------------------------===//
// Learned model (lib/Model/MLP.cpp, tools/isaac-tune/train.py)
//===----------------------------------------------------------------------===//

/// Integer log-uniform in [1, hi] (as the sampler draws inputs).
static int64_t logUniformInt(std::mt19937_64 &rng, int64_t hi) {
  double u = double(rng() >> 11) * 0x1.0p-53;
  int64_t v = int64_t(std::floor(std::exp(u * std::log(double(hi) + 1.0))));
  return std::min<int64_t>(std::max<int64_t>(v, 1), hi);
}

/// An input as isaac-tune sample draws them without --skewed: M, N ≤ 8192
/// and K ≤ 65536 log-uniform, 10^6 to 2*10^11 FLOP.
static void randomTrainingShape(std::mt19937_64 &rng, GemmShape &s) {
  double flops;
  do {
    s.m = logUniformInt(rng, 8192);
    s.n = logUniformInt(rng, 8192);
    s.k = logUniformInt(rng, 65536);
    flops = 2.0 * s.m * s.n * s.k;
  } while (flops < 1e6 || flops > 2e11);
}

/// Synthetic rows: random legal configurations on random inputs (PER_SHAPE
/// configurations per input), timed by the analytic model times log-normal
/// noise (sigma 0.1); configurations the model finds unrunnable and 1% at
/// random are failed rows.
static int runSynthetic(unsigned seed, long rows, long perShape, DType t,
                        const std::string &chipName,
                        GemmFamily family = GemmFamily::Simt) {
  std::optional<ChipLimits> chip = getChipLimits(chipName);
  if (!chip || rows < 1 || perShape < 1) {
    std::fprintf(stderr, "synthetic: bad chip or counts\n");
    return 2;
  }
  const auto &space = legalConfigs(t, *chip, family);
  if (space.empty()) {
    std::fprintf(stderr, "synthetic: no legal %s %s configurations on %s\n",
                 gemmFamilyName(family), dtypeName(t), chipName.c_str());
    return 2;
  }
  // simt rows in the legacy columns (the first datasets'); the other
  // families' with every column isaac-bench --collect writes.
  const bool legacy = family == GemmFamily::Simt;
  std::mt19937_64 rng(seed);
  auto unit = [&] { return double(rng() >> 11) * 0x1.0p-53; };
  auto gauss = [&] { // Box-Muller, deterministic across libraries
    double u1 = unit(), u2 = unit();
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2 * M_PI * u2);
  };
  const char *layouts[4] = {"nn", "nt", "tn", "tt"};
  std::printf("# synthetic dataset: analytic model x log-normal noise, NOT "
              "GPU measurements\n");
  std::printf("# generator: isaac-model-test synthetic %u %ld %ld %s %s%s%s\n",
              seed, rows, perShape, dtypeName(t), chipName.c_str(),
              legacy ? "" : " ", legacy ? "" : gemmFamilyName(family));
  std::printf("dtype,layout,m,n,k,ml,nl,ms,ns,u,ks,kl,kg,vec,%stime_us,"
              "tflops,status\n",
              legacy ? "" : "family,wm,wn,stages,");
  long written = 0;
  while (written < rows) {
    GemmShape s;
    s.dtype = t;
    s.cType = s.dtype;
    randomTrainingShape(rng, s);
    double flops = 2.0 * s.m * s.n * s.k;
    int lay = int(rng() % 4);
    s.layout.transA = lay & 2;
    s.layout.transB = lay & 1;
    for (long j = 0; j < perShape && written < rows; ++j) {
      const GemmConfig *c;
      do {
        c = &space[rng() % space.size()];
      } while (c->kg > 1 && c->kg > (s.k + c->u - 1) / c->u);
      double sec = analyticCost(s, *c, *chip) * std::exp(0.1 * gauss());
      bool fail = !std::isfinite(sec) || unit() < 0.01;
      double us = fail ? 0 : sec * 1e6;
      double tf = fail ? 0 : flops / sec / 1e12;
      std::printf("%s,%s,%lld,%lld,%lld,%d,%d,%d,%d,%d,%d,%d,%d,%d,",
                  dtypeName(t), layouts[lay], (long long)s.m, (long long)s.n,
                  (long long)s.k, c->ml, c->nl, c->ms, c->ns, c->u, c->ks,
                  c->kl, c->kg, c->vec);
      if (!legacy)
        std::printf("%s,%d,%d,%d,", gemmFamilyName(c->family), c->wm, c->wn,
                    c->stages);
      std::printf("%.4f,%.6g,%s\n", us, tf,
                  fail ? (std::isfinite(sec) ? "jit-error" : "launch-error")
                       : "ok");
      ++written;
    }
  }
  return 0;
}

static std::unique_ptr<MLPModel> loadModel(const char *path) {
  std::string err;
  std::unique_ptr<MLPModel> m = MLPModel::load(path, err);
  if (!m)
    std::fprintf(stderr, "error: %s\n", err.c_str());
  return m;
}

/// A model and the limits of its chip; null (after a message) when either
/// cannot be had.
static std::shared_ptr<MLPModel>
loadModelForChip(const char *path, std::optional<ChipLimits> &chip) {
  std::shared_ptr<MLPModel> model = loadModel(path);
  if (!model)
    return nullptr;
  chip = getChipLimits(model->chip());
  if (!chip) {
    std::fprintf(stderr, "error: unknown chip %s\n", model->chip().c_str());
    return nullptr;
  }
  return model;
}

static int runMLPInfo(const char *path) {
  auto m = loadModel(path);
  if (!m)
    return 1;
  std::string layers;
  for (int s : m->layerSizes())
    layers += (layers.empty() ? "" : "-") + std::to_string(s);
  std::printf("model %s: %s %s, %d SMs, layers %s, %zu parameters, data %s\n",
              path, dtypeName(m->dtype()), m->chip().c_str(), m->numSMs(),
              layers.c_str(), m->numParams(), m->data().c_str());
  std::printf("ranks: %s (%s configurations, %d features)\n", m->opName(),
              gemmFamilyName(m->family()), m->numFeatures());
  std::printf("members: %zu\n", m->numMembers());
  if (m->screenKeep()) {
    std::string widths;
    for (int s : m->screenSizes())
      widths += (widths.empty() ? "" : "-") + std::to_string(s);
    std::printf("screen: layers %s, keeps %zu\n", widths.c_str(),
                m->screenKeep());
  }
  std::printf("support: %s\n", m->supportString().c_str());
  return 0;
}

static bool parseLayout(const std::string &s, GemmLayout &l) {
  if (s.size() != 2 || (s[0] != 'n' && s[0] != 't') ||
      (s[1] != 'n' && s[1] != 't'))
    return false;
  l.transA = s[0] == 't';
  l.transB = s[1] == 't';
  return true;
}

static int runMLPCheck(const char *modelPath, const char *vecPath) {
  auto model = loadModel(modelPath);
  if (!model)
    return 1;
  if (model->op() == ModelOp::Conv)
    return runConvMLPCheck(*model, vecPath);
  std::ifstream in(vecPath);
  std::string line;
  // Version 2 (simt data of several depths): stages after the nine.
  if (!in || !std::getline(in, line) ||
      (line != "isaac-mlp-vectors 1" && line != "isaac-mlp-vectors 2")) {
    std::fprintf(stderr, "error: %s: not a vectors file\n", vecPath);
    return 1;
  }
  const bool withStages = line == "isaac-mlp-vectors 2";
  struct Vec {
    GemmShape shape;
    GemmConfig c;
    float f[kNumFeatures];
    double y;
  };
  std::vector<Vec> vecs;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream is(line);
    std::string tag, lay;
    Vec v;
    v.shape.dtype = model->dtype();
    v.shape.cType = v.shape.dtype;
    is >> tag >> lay >> v.shape.m >> v.shape.n >> v.shape.k >> v.shape.batch;
    // The configuration: the model's family's feature parameters, in order.
    v.c.family = model->family();
    for (GemmParam p : featureParams(model->family())) {
      int value = 0;
      is >> value;
      v.c.set(p, value);
    }
    if (withStages)
      is >> v.c.stages;
    for (float &f : v.f)
      is >> f;
    is >> v.y;
    if (!is || tag != "v" || !parseLayout(lay, v.shape.layout)) {
      std::fprintf(stderr, "error: %s: malformed line: %s\n", vecPath,
                   line.c_str());
      return 1;
    }
    vecs.push_back(v);
  }
  auto relErr = [](double a, double b) {
    return std::fabs(a - b) / std::max(1.0, std::fabs(b));
  };
  // 1. Features: train.py's numbers, computeFeatures, FeatureBuilder.
  double maxFeat = 0;
  std::vector<float> feats(vecs.size() * kNumFeatures);
  for (size_t i = 0; i < vecs.size(); ++i) {
    float *f = &feats[i * kNumFeatures];
    computeFeatures(vecs[i].shape, vecs[i].c, model->numSMs(), f);
    float g[kNumFeatures];
    FeatureBuilder(vecs[i].shape, model->numSMs()).fill(vecs[i].c, g);
    for (int j = 0; j < kNumFeatures; ++j) {
      double e = relErr(f[j], vecs[i].f[j]);
      maxFeat = std::max(maxFeat, e);
      expect(e <= 1e-6, "vector " + std::to_string(i) + " feature " +
                            featureNames(model->family())[j] + ": C++ " +
                            std::to_string(f[j]) + ", train.py " +
                            std::to_string(vecs[i].f[j]));
      expect(g[j] == f[j], "vector " + std::to_string(i) + " feature " +
                               featureNames(model->family())[j] +
                               ": FeatureBuilder differs from "
                               "computeFeatures");
    }
  }
  // The table path equals the direct one on a sample of the legal space.
  {
    const auto &space = legalConfigs(
        model->dtype(), *getChipLimits(model->chip()), model->family());
    size_t bad = 0;
    for (size_t i = 0; i < vecs.size(); i += 8) {
      FeatureBuilder fb(vecs[i].shape, model->numSMs());
      for (size_t j = i; j < space.size(); j += 997) {
        float a[kNumFeatures], b[kNumFeatures];
        fb.fill(space[j], a);
        computeFeatures(vecs[i].shape, space[j], model->numSMs(), b);
        bad += !std::equal(a, a + kNumFeatures, b);
      }
    }
    expect(bad == 0, "FeatureBuilder differs from computeFeatures on " +
                         std::to_string(bad) + " legal configurations");
  }
  // 2. Predictions from raw features, and batched per shape.
  std::vector<float> y1(vecs.size());
  model->predictFeatures(feats.data(), vecs.size(), y1.data());
  std::vector<float> y2(vecs.size());
  for (size_t i = 0; i < vecs.size();) {
    size_t j = i;
    std::vector<GemmConfig> cs;
    auto same = [&](const GemmShape &a, const GemmShape &b) {
      return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch &&
             a.layout.str() == b.layout.str();
    };
    while (j < vecs.size() && same(vecs[j].shape, vecs[i].shape))
      cs.push_back(vecs[j++].c);
    model->predict(vecs[i].shape, cs.data(), cs.size(), &y2[i]);
    i = j;
  }
  // And a batch longer than one block: every vector's config on one shape.
  std::vector<GemmConfig> all;
  for (const Vec &v : vecs)
    all.push_back(v.c);
  std::vector<float> y3(all.size());
  model->predict(vecs[0].shape, all.data(), all.size(), y3.data());
  double maxPred = 0;
  for (size_t i = 0; i < vecs.size(); ++i) {
    double e1 = relErr(y1[i], vecs[i].y), e2 = relErr(y2[i], vecs[i].y);
    maxPred = std::max({maxPred, e1, e2});
    expect(e1 <= 1e-4, "vector " + std::to_string(i) + ": predicted " +
                           std::to_string(y1[i]) + ", train.py " +
                           std::to_string(vecs[i].y));
    expect(e2 <= 1e-4, "vector " + std::to_string(i) + ": batched " +
                           std::to_string(y2[i]) + ", train.py " +
                           std::to_string(vecs[i].y));
    float one = 0;
    model->predict(vecs[0].shape, &all[i], 1, &one);
    expect(relErr(one, y3[i]) <= 1e-5,
           "vector " + std::to_string(i) + ": batch of " +
               std::to_string(all.size()) + " differs from one at a time");
  }
  std::printf("%zu vectors: max feature error %.2g, max prediction error "
              "%.2g (relative to max(1, |y|))\n",
              vecs.size(), maxFeat, maxPred);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed || vecs.empty() ? 1 : 0;
}

static int runMLPFuzz(const char *path, long iterations) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string good = ss.str();
  std::string err;
  if (!in || !MLPModel::parse(good, path, err)) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  // The body before the `end` line, to re-sign mutations with.
  size_t endPos = good.rfind("\nend ");
  std::mt19937_64 rng(1);
  const std::string alphabet = " \n#0123456789abcdefpx.+-layer";
  long rejected = 0, silent = 0;
  for (long it = 0; it < iterations; ++it) {
    bool resign = it % 2 == 1;
    std::string t = resign ? good.substr(0, endPos + 1) : good;
    int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      size_t pos = rng() % t.size();
      switch (rng() % 3) {
      case 0:
        t.resize(pos);
        break;
      case 1:
        t[pos] = alphabet[rng() % alphabet.size()];
        break;
      default:
        t.erase(pos, 1);
        break;
      }
    }
    if (resign) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "end %08x\n",
                    mlpChecksum(t.data(), t.size()));
      t += buf;
    }
    err.clear();
    std::unique_ptr<MLPModel> m = MLPModel::parse(t, "fuzz", err);
    if (m) {
      // Loaded: it must still run (on as many features as it has).
      std::vector<float> x(size_t(m->numFeatures()), 1.0f);
      float y = 0;
      m->predictFeatures(x.data(), 1, &y);
    } else {
      ++rejected;
      expect(!err.empty(),
             "mutation " + std::to_string(it) + " rejected without a message");
    }
    // Unsigned damage must never go unnoticed (but for trailing blanks).
    auto trim = [](std::string x) {
      while (!x.empty() && (x.back() == '\n' || x.back() == ' '))
        x.pop_back();
      return x;
    };
    if (!resign && m && trim(t) != trim(good))
      ++silent;
  }
  expect(silent == 0, std::to_string(silent) +
                          " unsigned damaged copies loaded without error");
  std::printf("fuzz: %ld damaged copies, %ld rejected with a message\n",
              iterations, rejected);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

static int runMLPSearch(const char *path, int64_t m, int64_t n, int64_t k,
                        const std::string &layout, int64_t batch) {
  std::optional<ChipLimits> chip;
  std::shared_ptr<MLPModel> model = loadModelForChip(path, chip);
  if (!model)
    return 1;
  GemmShape s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.batch = batch;
  s.dtype = model->dtype();
  s.cType = s.dtype;
  if (!parseLayout(layout, s.layout)) {
    std::fprintf(stderr, "error: bad layout %s\n", layout.c_str());
    return 2;
  }
  const auto &space =
      legalConfigs(s.dtype, *chip, model->family()); // enumerate once
  // Raw scoring rate of the whole legal space.
  std::vector<float> y(space.size());
  auto t0 = std::chrono::steady_clock::now();
  model->predict(s, space.data(), space.size(), y.data());
  double scoreSec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  // The search as isaac-select-config runs it.
  size_t evaluated = 0;
  t0 = std::chrono::steady_clock::now();
  auto best = searchBest(s, *chip, makeMLPCost(model, *chip), 5, &evaluated);
  double searchSec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  for (const Ranked &r : best)
    std::printf("%.3f us  %.2f TFLOPS  #isaac.gemm<%s>\n", r.cost * 1e6,
                2.0 * m * n * k * batch / r.cost / 1e12,
                r.config.str().c_str());
  std::string layers;
  for (int sz : model->layerSizes())
    layers += (layers.empty() ? "" : "-") + std::to_string(sz);
  std::printf("model %s x %zu (%zu parameters): scored %zu configurations "
              "in %.3f s (%.2f M/s); the search over them (%zu ranked: "
              "inside the support and the ensemble pre-screen) took %.3f s "
              "(%.2f M configurations/s)\n",
              layers.c_str(), model->numMembers(), model->numParams(),
              space.size(), scoreSec, space.size() / scoreSec / 1e6, evaluated,
              searchSec, space.size() / searchSec / 1e6);
  return 0;
}

/// How the ensemble pre-screen (makeMLPCost's `prescreen`) changes the
/// search: for each shape (lines `M N K LAYOUT` of a file, `#` comments
/// allowed, or `random:N` log-uniform ones in the training data's FLOP
/// range), the top 10 with and without it, and the time of each search.
/// Inputs of `spec`: a file of lines `M N K LAYOUT [BATCH]` (`#` starts a
/// comment), or `random:N`, N log-uniform ones in the training data's FLOP
/// range (layouts in turn).
static bool readShapes(const std::string &spec, DType dtype,
                       std::vector<GemmShape> &list) {
  if (spec.rfind("random:", 0) == 0) {
    std::mt19937_64 rng(7);
    long count = std::atol(spec.c_str() + 7);
    for (long i = 0; i < count; ++i) {
      GemmShape s;
      s.dtype = dtype;
      s.cType = s.dtype;
      randomTrainingShape(rng, s);
      s.layout.transA = i & 2;
      s.layout.transB = i & 1;
      list.push_back(s);
    }
    return true;
  }
  std::ifstream in(spec);
  if (!in) {
    std::fprintf(stderr, "error: cannot open %s\n", spec.c_str());
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream is(line.substr(0, line.find('#')));
    GemmShape s;
    s.dtype = dtype;
    s.cType = s.dtype;
    std::string lay;
    if (!(is >> s.m)) // blank or comment
      continue;
    if (!(is >> s.n >> s.k >> lay) || !(is >> s.batch || is.eof()) || s.m < 1 ||
        s.n < 1 || s.k < 1 || s.batch < 1 || !parseLayout(lay, s.layout)) {
      std::fprintf(stderr, "error: %s: bad line '%s'\n", spec.c_str(),
                   line.c_str());
      return false;
    }
    list.push_back(s);
  }
  return true;
}

/// loadModelForChip, then the inputs of `shapes` (readShapes) in the
/// model's element type; null when either fails (with a message).
static std::shared_ptr<MLPModel>
loadModelAndShapes(const char *path, const std::string &shapes,
                   std::optional<ChipLimits> &chip,
                   std::vector<GemmShape> &list) {
  std::shared_ptr<MLPModel> model = loadModelForChip(path, chip);
  if (!model || !readShapes(shapes, model->dtype(), list))
    return nullptr;
  return model;
}

static std::string shapeStr(const GemmShape &s) {
  return std::to_string(s.m) + " " + std::to_string(s.n) + " " +
         std::to_string(s.k) + " " + s.layout.str() + " " +
         std::to_string(s.batch);
}

static int runMLPPrescreen(const char *path, const std::string &shapes,
                           size_t prescreen) {
  std::optional<ChipLimits> chip;
  std::vector<GemmShape> list;
  std::shared_ptr<MLPModel> model =
      loadModelAndShapes(path, shapes, chip, list);
  if (!model)
    return 1;
  size_t same1 = 0, same10 = 0;
  double tFull = 0, tPre = 0;
  for (const GemmShape &s : list) {
    auto t0 = std::chrono::steady_clock::now();
    auto full = searchBest(s, *chip, makeMLPCost(model, *chip, 0), 10);
    auto t1 = std::chrono::steady_clock::now();
    auto pre = searchBest(s, *chip, makeMLPCost(model, *chip, prescreen), 10);
    auto t2 = std::chrono::steady_clock::now();
    tFull += std::chrono::duration<double>(t1 - t0).count();
    tPre += std::chrono::duration<double>(t2 - t1).count();
    bool one = !full.empty() && !pre.empty() && full[0].config == pre[0].config;
    bool ten = full.size() == pre.size();
    for (size_t i = 0; ten && i < full.size(); ++i)
      ten = full[i].config == pre[i].config;
    same1 += one;
    same10 += ten;
    if (!one)
      std::printf("top-1 differs: %lldx%lldx%lld: %s (full) vs %s\n",
                  (long long)s.m, (long long)s.n, (long long)s.k,
                  full.empty() ? "-" : full[0].config.str().c_str(),
                  pre.empty() ? "-" : pre[0].config.str().c_str());
  }
  std::printf("%zu shapes, %zu members, prescreen %zu: top-1 identical on "
              "%zu, top-10 identical on %zu; search %.3f s (full) vs %.3f s "
              "per shape\n",
              list.size(), model->numMembers(), prescreen, same1, same10,
              tFull / double(list.size()), tPre / double(list.size()));
  return 0;
}

/// The search of isaac-select-config (searchBest with makeMLPCost), its
/// top `k` per input of `shapes` (readShapes), one line each: the input,
/// then the configurations best first.
static int runMLPTopK(const char *path, const char *shapes, unsigned k) {
  std::optional<ChipLimits> chip;
  std::vector<GemmShape> list;
  std::shared_ptr<MLPModel> model =
      loadModelAndShapes(path, shapes, chip, list);
  if (!model)
    return 1;
  CostFn cost = makeMLPCost(model, *chip);
  for (const GemmShape &s : list) {
    std::vector<Ranked> best = searchBest(s, *chip, cost, k);
    std::printf("%s:", shapeStr(s).c_str());
    for (const Ranked &r : best)
      std::printf(" %s", r.config.mangle().c_str());
    std::printf("\n");
  }
  return 0;
}

/// isaac-select-config's search as it was first written, configuration by
/// configuration (before lib/Model/MLPSearch.cpp): the first member
/// predicts every legal configuration of the support (with a screen: the
/// screen predicts them, the first member predicts those scoring at least
/// the screen's screenKeep()-th largest score and the others are not
/// ranked),
/// std::nth_element keeps its `prescreen` best, the ensemble's mean ranks
/// those, and searchBest's loop keeps the `k` fastest; a simt model whose
/// support has other stages than 2 ranks each ranked configuration's legal
/// variants at those depths right after it. The oracle the search must
/// equal.
static std::vector<Ranked> referenceSearch(const MLPModel &model,
                                           const ChipLimits &chip,
                                           const GemmShape &s, unsigned k,
                                           size_t prescreen) {
  const std::vector<GemmConfig> &space =
      legalConfigs(s.dtype, chip, model.family());
  std::vector<int32_t> slot(space.size(), -1);
  std::vector<GemmConfig> inside;
  for (size_t i = 0; i < space.size(); ++i)
    if (model.inSupport(space[i])) {
      slot[i] = int32_t(inside.size());
      inside.push_back(space[i]);
    }
  size_t n = inside.size();
  std::vector<float> y(n);
  if (model.numMembers() == 1 || prescreen == 0 || n <= prescreen) {
    model.predict(s, inside.data(), n, y.data());
  } else if (model.screenKeep() > prescreen && n > model.screenKeep()) {
    // The screen scores S, the first member its screenKeep() best, the
    // others are not ranked; then the pre-screen below on those.
    // Kept: every configuration scoring at least the keep-th largest
    // screen score (all of them where fewer are numbers), NaN none.
    const size_t keep = model.screenKeep();
    model.predictScreen(s, inside.data(), n, y.data());
    std::vector<float> finite;
    for (float v : y)
      if (!std::isnan(v))
        finite.push_back(v);
    float cut = -std::numeric_limits<float>::infinity();
    if (finite.size() > keep) {
      std::nth_element(finite.begin(), finite.begin() + long(keep - 1),
                       finite.end(), std::greater<float>());
      cut = finite[keep - 1];
    }
    std::vector<uint32_t> order;
    std::vector<GemmConfig> kept;
    for (size_t i = 0; i < n; ++i)
      if (y[i] >= cut) {
        order.push_back(uint32_t(i));
        kept.push_back(inside[i]);
      }
    std::vector<float> ky(kept.size());
    model.predict(s, kept.data(), kept.size(), ky.data(), 0, 1);
    std::fill(y.begin(), y.end(), -std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < kept.size(); ++i)
      y[order[i]] = ky[i];
  } else {
    model.predict(s, inside.data(), n, y.data(), 0, 1);
  }
  if (model.numMembers() > 1 && prescreen > 0 && n > prescreen) {
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i)
      order[i] = uint32_t(i);
    std::nth_element(order.begin(), order.begin() + long(prescreen),
                     order.end(),
                     [&](uint32_t a, uint32_t b) { return y[a] > y[b]; });
    order.resize(prescreen);
    std::vector<GemmConfig> top(prescreen);
    for (size_t i = 0; i < prescreen; ++i)
      top[i] = inside[order[i]];
    std::vector<float> ty(prescreen);
    model.predict(s, top.data(), prescreen, ty.data());
    std::fill(y.begin(), y.end(), -std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < prescreen; ++i)
      y[order[i]] = ty[i];
  }
  std::vector<Ranked> best;
  auto offer = [&](const GemmConfig &c, float yc) {
    int64_t kTiles = (s.k + c.u - 1) / c.u;
    if (c.kg > 1 && c.kg > kTiles)
      return;
    double t = std::isinf(yc) ? std::numeric_limits<double>::infinity()
                              : MLPModel::seconds(s, yc);
    if (std::isinf(t))
      return;
    if (best.size() == k && t >= best.back().cost)
      return;
    Ranked r{c, t};
    auto pos = std::upper_bound(
        best.begin(), best.end(), r,
        [](const Ranked &a, const Ranked &b) { return a.cost < b.cost; });
    best.insert(pos, r);
    if (best.size() > k)
      best.pop_back();
  };
  std::vector<int> depths;
  if (gemmParamExtraFeature(model.family(), GemmParam::stages))
    for (int st : model.stagesSupport())
      if (st != 2)
        depths.push_back(st);
  for (size_t i = 0; i < space.size(); ++i) {
    if (slot[i] < 0)
      continue;
    float yc = y[size_t(slot[i])];
    offer(space[i], yc);
    if (std::isinf(yc) && yc < 0)
      continue; // not ranked (outside the pre-screen): nor its variants
    for (int st : depths) {
      GemmConfig v = space[i];
      v.stages = st;
      if (!isLegal(v, s.dtype, chip))
        continue;
      float yv = 0;
      model.predict(s, &v, 1, &yv);
      offer(v, yv);
    }
  }
  // searchBest's measured rules, on what the ranking returns.
  applyMeasuredRules(best, s, chip, k);
  return best;
}

/// The search (makeMLPCost; with 1 and with the default number of threads)
/// against referenceSearch on every input of `shapes`: the same
/// configurations in the same order, and the same costs.
static int runMLPTopKDiff(const char *path, const char *shapes, unsigned k,
                          size_t prescreen) {
  std::optional<ChipLimits> chip;
  std::vector<GemmShape> list;
  std::shared_ptr<MLPModel> model =
      loadModelAndShapes(path, shapes, chip, list);
  if (!model)
    return 1;
  CostFn one = makeMLPCost(model, *chip, prescreen, 1);
  CostFn all = makeMLPCost(model, *chip, prescreen);
  double tRef = 0, tFast = 0;
  size_t same = 0;
  for (const GemmShape &s : list) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<Ranked> ref = referenceSearch(*model, *chip, s, k, prescreen);
    auto t1 = std::chrono::steady_clock::now();
    std::vector<Ranked> fast = searchBest(s, *chip, all, k);
    auto t2 = std::chrono::steady_clock::now();
    std::vector<Ranked> serial = searchBest(s, *chip, one, k);
    tRef += std::chrono::duration<double>(t1 - t0).count();
    tFast += std::chrono::duration<double>(t2 - t1).count();
    bool eq = ref.size() == fast.size() && ref.size() == serial.size();
    for (size_t i = 0; eq && i < ref.size(); ++i)
      eq = ref[i].config == fast[i].config && ref[i].cost == fast[i].cost &&
           ref[i].config == serial[i].config && ref[i].cost == serial[i].cost;
    same += eq;
    if (!eq) {
      std::printf("DIFFERS: %s\n  reference:", shapeStr(s).c_str());
      for (const Ranked &r : ref)
        std::printf(" %s", r.config.mangle().c_str());
      std::printf("\n  search:   ");
      for (const Ranked &r : fast)
        std::printf(" %s", r.config.mangle().c_str());
      std::printf("\n");
    }
  }
  std::printf("%zu inputs, top %u, prescreen %zu: identical on %zu; "
              "%.3f s (reference) vs %.3f s per input\n",
              list.size(), k, prescreen, same, tRef / double(list.size()),
              tFast / double(list.size()));
  return same == list.size() ? 0 : 1;
}

/// The legal configurations of the model's family inside its support, in
/// the order of legalConfigs(): the search's S.
static std::vector<GemmConfig> supportedConfigs(const MLPModel &model,
                                                const ChipLimits &chip) {
  std::vector<GemmConfig> inside;
  for (const GemmConfig &c : legalConfigs(model.dtype(), chip, model.family()))
    if (model.inSupport(c))
      inside.push_back(c);
  return inside;
}

/// scoreLegalSpace (the search's scores, on 1 and on all threads) against
/// MLPModel::predict, member by member, bit for bit, on every legal
/// configuration of the support of each input of `shapes`.
static int runMLPKernelCheck(const char *path, const char *shapes) {
  std::optional<ChipLimits> chip;
  std::vector<GemmShape> list;
  std::shared_ptr<MLPModel> model =
      loadModelAndShapes(path, shapes, chip, list);
  if (!model)
    return 1;
  const std::vector<GemmConfig> inside = supportedConfigs(*model, *chip);
  size_t checked = 0;
  // The search's features (FeatureBuilder's tables) are computeFeatures'
  // bit for bit on every configuration.
  for (const GemmShape &s : list) {
    FeatureBuilder fb(s, model->numSMs());
    size_t bad = 0;
    float a[kNumFeatures], b[kNumFeatures];
    for (const GemmConfig &c : inside) {
      fb.fill(c, a);
      computeFeatures(s, c, model->numSMs(), b);
      bad += std::memcmp(a, b, sizeof a) != 0;
    }
    expect(bad == 0, shapeStr(s) + ": " + std::to_string(bad) +
                         " configurations' features differ from "
                         "computeFeatures");
  }
  // The members, then the screen (index numMembers()) where there is one.
  const size_t nets = model->numMembers() + (model->screenKeep() ? 1 : 0);
  for (const GemmShape &s : list)
    for (size_t m = 0; m < nets; ++m) {
      std::vector<float> ref(inside.size());
      if (m < model->numMembers())
        model->predict(s, inside.data(), inside.size(), ref.data(), m, 1);
      else
        model->predictScreen(s, inside.data(), inside.size(), ref.data());
      for (unsigned threads : {1u, 0u}) {
        std::vector<float> y = scoreLegalSpace(model, s, *chip, m, threads);
        size_t bad = y.size() == ref.size() ? 0 : 1;
        for (size_t i = 0; !bad && i < y.size(); ++i)
          // Equal as numbers: a skipped product by zero may leave -0 where
          // predict has +0, which nothing downstream tells apart.
          bad += !(y[i] == ref[i] || (std::isnan(y[i]) && std::isnan(ref[i])));
        expect(bad == 0,
               shapeStr(s) +
                   (m < model->numMembers() ? " member " + std::to_string(m)
                                            : std::string(" screen")) +
                   ", " + std::to_string(threads) +
                   " threads: " + std::to_string(bad) + " scores differ");
        checked += y.size();
      }
    }
  std::printf("%zu inputs x %zu members%s: %zu scores compared\n", list.size(),
              model->numMembers(), model->screenKeep() ? " and the screen" : "",
              checked);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

/// Rows for distilling a screen network (tools/isaac-tune/train_screen.py):
/// for each input of `shapes`, the first member's TOP best configurations
/// of the support and SAMPLE others drawn uniformly (seed SEED; SAMPLE at
/// least the rest: all of them), each as float32 [the 19 features, the
/// first member's score, its rank among the input's configurations (0 the
/// best)], appended to OUT.
static int runMLPSpaceDump(const char *path, const char *shapes,
                           const char *out, size_t sample, size_t top,
                           uint64_t seed) {
  std::optional<ChipLimits> chip;
  std::vector<GemmShape> list;
  std::shared_ptr<MLPModel> model =
      loadModelAndShapes(path, shapes, chip, list);
  if (!model)
    return 1;
  const std::vector<GemmConfig> inside = supportedConfigs(*model, *chip);
  FILE *f = std::fopen(out, "wb");
  if (!f) {
    std::fprintf(stderr, "error: cannot write %s\n", out);
    return 1;
  }
  std::mt19937_64 rng(seed);
  const int nf = model->numFeatures();
  size_t rows = 0;
  for (const GemmShape &s : list) {
    std::vector<float> y = scoreLegalSpace(model, s, *chip, 0, 0);
    const size_t n = y.size();
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return y[a] > y[b] || (y[a] == y[b] && a < b);
    });
    std::vector<uint32_t> picked;
    const size_t t = std::min(top, n);
    for (size_t r = 0; r < t; ++r)
      picked.push_back(uint32_t(r));
    if (sample >= n - t) {
      for (size_t r = t; r < n; ++r)
        picked.push_back(uint32_t(r));
    } else {
      std::set<uint32_t> drawn;
      while (drawn.size() < sample)
        drawn.insert(uint32_t(t + uniformIndex(rng, n - t)));
      picked.insert(picked.end(), drawn.begin(), drawn.end());
    }
    std::vector<float> row(size_t(nf) + 2);
    for (uint32_t r : picked) {
      computeFeatures(s, inside[order[r]], model->numSMs(), row.data());
      row[size_t(nf)] = y[order[r]];
      row[size_t(nf) + 1] = float(r);
      std::fwrite(row.data(), sizeof(float), row.size(), f);
      ++rows;
    }
  }
  if (std::fclose(f) != 0) {
    std::fprintf(stderr, "error: cannot write %s\n", out);
    return 1;
  }
  std::printf("%zu inputs, %zu configurations each, %zu rows of %d floats\n",
              list.size(), inside.size(), rows, nf + 2);
  return 0;
}

//===----------------------------------------------------------------------===//
// The tuning-space schema
//===----------------------------------------------------------------------===//

static const char *typeName(DType t) { return dtypeName(t); }

/// The element-type tokens of GemmParams.def.
static const char *const kTypeTokens[] = {
#define GEMM_TYPES(Token, AB, C, TF32) #Token,
#include "isaac/Model/GemmParams.def"
};

/// The table, as scripts/isaac_schema.py's describe() prints it.
static int runSchema() {
  for (int f = 0; f < kNumGemmFamilies; ++f) {
    GemmFamily family = static_cast<GemmFamily>(f);
    std::printf("family %s:", gemmFamilyName(family));
    for (GemmParam p : gemmFamilyParams(family))
      std::printf(" %s", gemmParamInfo(p).name);
    std::printf("\n");
  }
  for (const GemmParamInfo &p : kGemmParams) {
    std::string families;
    for (int f = 0; f < kNumGemmFamilies; ++f)
      if (p.usedBy(static_cast<GemmFamily>(f)))
        families += std::string(families.empty() ? "" : ",") +
                    gemmFamilyName(static_cast<GemmFamily>(f));
    std::printf("param %s mangle=%s range=[%d,%d] default=%d pow2=%d "
                "families=%s optional=%d\n",
                p.name, p.mangle, p.lo, p.hi, p.defaultValue, int(p.pow2),
                families.c_str(), int(gemmParamOptional(p.param)));
  }
  std::printf("legacy");
  for (GemmParam p : kLegacyParams)
    std::printf(" %s", gemmParamInfo(p).name);
  std::printf("\n");
  for (const char *token : kTypeTokens) {
    std::optional<GemmTypes> t = GemmTypes::parseToken(token);
    if (!t) {
      std::printf("types %s: not a token\n", token);
      return 1;
    }
    std::printf("types %s ab=%s c=%s tf32=%d\n", t->token().c_str(),
                typeName(t->ab), typeName(t->c), int(t->tf32));
  }
  return 0;
}

/// A random configuration of `family`'s box (not necessarily legal).
static GemmConfig randomConfig(std::mt19937_64 &rng, GemmFamily family) {
  const ParamBox &box = gemmParamValues(family);
  std::vector<int> idx;
  for (size_t i = 0; i < box.size(); ++i)
    idx.push_back(int(rng() % box[i].size()));
  GemmConfig c = configFromIndices(idx, box);
  // Non-default values of the parameters the simt box holds at one value
  // too (stages): the text and names must carry them.
  for (GemmParam p : gemmFamilyParams(family)) {
    const GemmParamInfo &info = gemmParamInfo(p);
    if (familyParamValues(family, p).size() == 1 && rng() % 2)
      c.set(p, info.lo + int(rng() % unsigned(info.hi - info.lo + 1)));
  }
  return c;
}

static int runSchemaCheck() {
  std::mt19937_64 rng(9);
  // Round trips of every representation, in every family.
  for (int f = 0; f < kNumGemmFamilies; ++f) {
    GemmFamily family = static_cast<GemmFamily>(f);
    int bad = 0;
    for (int i = 0; i < 2000; ++i) {
      GemmConfig c = randomConfig(rng, family);
      std::string why;
      std::optional<GemmConfig> m = GemmConfig::parseMangled(c.mangle(), &why);
      std::optional<GemmConfig> t = GemmConfig::parseText(c.str(), &why);
      std::optional<GemmConfig> w =
          GemmConfig::parseText("#isaac.gemm<" + c.str() + ">", &why);
      GemmKernelName k;
      k.types = *GemmTypes::parseToken(kTypeTokens[i % std::size(kTypeTokens)]);
      k.layout.transA = i & 1;
      k.layout.transB = i & 2;
      k.config = c;
      if (i % 3 == 0)
        k.epilogue = "00c0ffee12345678";
      std::optional<GemmKernelName> kp = GemmKernelName::parse(k.str(), &why);
      bool ok = m && *m == c && t && *t == c && w && *w == c && kp &&
                kp->config == c && kp->types == k.types &&
                kp->layout.str() == k.layout.str() &&
                kp->epilogue == k.epilogue;
      if (!ok && bad++ < 3)
        std::printf("FAIL: round trip of %s (%s): %s\n", k.str().c_str(),
                    c.str().c_str(), why.c_str());
    }
    expect(bad == 0, std::string(gemmFamilyName(family)) +
                         ": mangle/parseMangled, str/parseText and kernel "
                         "names round-trip");
  }

  // The names and texts of before are unchanged: simt at stages = 2.
  GemmConfig base;
  expect(base.mangle() == "ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4",
         "simt mangles as before");
  expect(base.str() == "ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, "
                       "kl = 1, kg = 1, vec = 4",
         "simt prints as before");
  GemmConfig st3 = base;
  st3.stages = 3;
  expect(st3.mangle() == "ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4_st3",
         "simt stages != 2 appends _st<S>");
  GemmConfig mma;
  mma.family = GemmFamily::Mma;
  mma.ml = mma.nl = 128;
  mma.wm = 64;
  mma.u = 32;
  mma.vec = 8;
  mma.stages = 4;
  expect(mma.mangle() == "mma_ml128_nl128_wm64_wn32_u32_kl1_kg1_v8_st4",
         "mma mangles its token and every parameter: " + mma.mangle());
  expect(mma.str() == "family = mma, ml = 128, nl = 128, wm = 64, wn = 32, "
                      "u = 32, kl = 1, kg = 1, vec = 8, stages = 4",
         "mma prints family first: " + mma.str());
  expect(GemmConfig::fromValues(base.values()) == base, "values() inverts");

  // Refused spellings, with what was expected.
  auto refusesName = [](const char *name, const char *want) {
    std::string why;
    bool refused = !GemmKernelName::parse(name, &why);
    expect(refused && why.find(want) != std::string::npos,
           std::string(name) + ": expected '" + want + "', got '" + why + "'");
  };
  refusesName("isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4_st2",
              "the end of the configuration after vec");
  refusesName("isaac_gemm_f32_nn_ml64_nl64_wm8_ns8_u8_ks1_kl1_kg1_v4",
              "_ms<N> after nl");
  refusesName("isaac_gemm_f32_nn_mma_ml64_nl64_wm32_wn32_u8_kl1_kg1_v8",
              "_st<N> after vec");
  refusesName("isaac_gemm_f32_nn_simt_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4",
              "_ml<N> after the layout");
  refusesName("isaac_gemm_i8_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4",
              "an element-type token");
  refusesName("isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4_epABC",
              "16 lower-case hex digits");
  auto refusesText = [](const char *text, const char *want) {
    std::string why;
    bool refused = !GemmConfig::parseText(text, &why);
    expect(refused && why.find(want) != std::string::npos,
           std::string(text) + ": expected '" + want + "', got '" + why + "'");
  };
  refusesText("ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, "
              "kg = 1",
              "missing parameter 'vec'");
  refusesText("family = mma, ml = 64, nl = 64, ms = 8", "not a parameter of "
                                                        "the mma family");
  refusesText("ml = 64, family = mma", "'family' must come first");
  refusesText("ml = 64, ml = 32", "given twice");
  refusesText("ml = x", "must be an integer");
  expect(GemmConfig::parseText("family = simt, ml = 64, nl = 64, ms = 8, "
                               "ns = 8, u = 8, ks = 1, kl = 1, kg = 1, "
                               "vec = 4, stages = 2")
                 .value_or(GemmConfig()) == base,
         "an explicit family = simt and stages = 2 read as the default");

  // Element-type tokens.
  for (const char *token : kTypeTokens) {
    std::optional<GemmTypes> t = GemmTypes::parseToken(token);
    expect(t && t->isValid() && t->token() == token,
           std::string("types token ") + token + " round-trips");
  }
  GemmTypes f16;
  f16.ab = f16.c = DType::F16;
  expect(f16.accumulator() == DType::F32, "f16 accumulates in f32");
  GemmTypes f64;
  f64.ab = f64.c = DType::F64;
  expect(f64.accumulator() == DType::F64, "f64 accumulates in f64");
  GemmTypes bad;
  bad.ab = DType::F32;
  bad.c = DType::F16;
  expect(!bad.isValid() && !GemmTypes::parseToken("f32f16"),
         "f32 operands with an f16 C have no token");

  // The boxes: simt's is the space of before (vec <= 4) times its extra
  // feature's values (stages 2 to 8).
  const ParamBox &simt = gemmParamValues(GemmFamily::Simt);
  expect(boxSize(simt) == 14033250.0 * 7,
         "the simt box has 14033250 x 7 points");
  expect(simt.params == gemmFamilyParams(GemmFamily::Simt),
         "the simt box has one list per simt parameter");
  expect(gemmParamExtraFeature(GemmFamily::Simt, GemmParam::stages) &&
             !gemmParamExtraFeature(GemmFamily::Mma, GemmParam::kc) &&
             gemmParamOptional(GemmFamily::Simt, GemmParam::stages),
         "simt's stages is optional and its extra feature");
  expect(familyParamValues(GemmFamily::Simt, GemmParam::stages) ==
                 std::vector<int>{2, 3, 4, 5, 6, 7, 8} &&
             familyParamValues(GemmFamily::Mma, GemmParam::kc) ==
                 std::vector<int>{0} &&
             familyParamValues(GemmFamily::Simt, GemmParam::vec) ==
                 std::vector<int>{1, 2, 4} &&
             familyParamValues(GemmFamily::Mma, GemmParam::vec) ==
                 std::vector<int>{1, 2, 4, 8} &&
             familyParamValues(GemmFamily::Mma, GemmParam::stages) ==
                 std::vector<int>{2, 3, 4, 5, 6, 7, 8} &&
             familyParamValues(GemmFamily::Simt, GemmParam::wm).empty(),
         "family boxes follow the table and the one-parameter rules");

  // Legality by family.
  ChipLimits chip = *getChipLimits("sm_90");
  // simt stages > 2 is the cp.async pipeline: legal while every stage fits
  // the static shared memory.
  expect(checkGemmLegality(st3, DType::F32, chip).empty(),
         "simt stages = 3 is legal");
  GemmConfig st8 = base;
  st8.ml = st8.nl = 128;
  st8.ns = 16;
  st8.u = 16;
  st8.stages = 8;
  expectRule(st8, DType::F32, "shared-memory");
  expect(getSharedLayout(st3, DType::F32).bytes ==
             3 * getSharedLayout(base, DType::F32).bytes / 2,
         "a simt stage is the same bytes at any depth");
  GemmConfig wm = base;
  wm.wm = 64;
  expectRule(wm, DType::F32, "family");
  GemmConfig vec8 = base;
  vec8.vec = 8;
  vec8.u = 8;
  expectRule(vec8, DType::F32, "vector-width");
  std::vector<Violation> v = checkGemmLegality(mma, DType::F16, chip);
  expect(v.empty(), "an mma configuration is legal for f16 operands");
  expect(checkGemmStructure(mma).empty(),
         "an mma configuration in range passes the structural rules");
  GemmConfig mmaBad = mma;
  mmaBad.wm = 256;
  v = checkGemmStructure(mmaBad);
  expect(!v.empty() && v.front().rule == "range" &&
             v.front().message == "wm = 256 is outside [8, 128]",
         "the mma parameters have the table's ranges");
  expect(mma.threads() == 32 * 2 * 4, "mma threads: 32 per warp tile");
  expect(usesDynamicSharedMemory(mma) && !usesDynamicSharedMemory(base),
         "mma kernels use dynamic shared memory, simt static");
  expect(gemmSharedMemoryBytes(base, DType::F32) ==
             getSharedLayout(base, DType::F32).bytes,
         "simt shared memory is getSharedLayout's");
  expect(!legalConfigs(DType::F16, chip, GemmFamily::Mma).empty() &&
             !legalConfigs(DType::F32, chip, GemmFamily::Mma).empty() &&
             !legalConfigs(DType::F64, chip, GemmFamily::Mma).empty() &&
             legalConfigs(DType::F16, chip, GemmFamily::Simt).empty(),
         "f16, f32 (TF32) and f64 have an mma space; simt no f16 one");

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

/// N kernel names of random configurations of every family and element
/// type, with the attribute text of each (scripts/isaac_schema.py parses
/// the names and must print the same).
static int runKernelNames(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < n; ++i) {
    GemmKernelName k;
    k.config = randomConfig(rng, static_cast<GemmFamily>(i % kNumGemmFamilies));
    k.types =
        *GemmTypes::parseToken(kTypeTokens[rng() % std::size(kTypeTokens)]);
    k.layout.transA = rng() % 2;
    k.layout.transB = rng() % 2;
    if (rng() % 4 == 0)
      k.epilogue = "0123456789abcdef";
    std::printf("%s %s %s <%s>%s\n", k.str().c_str(), k.types.token().c_str(),
                k.layout.str().c_str(), k.config.str().c_str(),
                k.epilogue.empty() ? "" : (" ep=" + k.epilogue).c_str());
  }
  return 0;
}

int main(int argc, char **argv) {
  if (int status = runConvModelCommand(argc, argv); status >= 0)
    return status;
  if (argc >= 2 && std::strcmp(argv[1], "legality") == 0)
    return runLegality();
  if (argc == 2 && std::strcmp(argv[1], "schema") == 0)
    return runSchema();
  if (argc == 2 && std::strcmp(argv[1], "schema-check") == 0)
    return runSchemaCheck();
  if (argc == 4 && std::strcmp(argv[1], "kernel-names") == 0)
    return runKernelNames(std::strtoull(argv[2], nullptr, 10),
                          std::atoi(argv[3]));
  if (argc >= 5 && argc <= 7 && std::strcmp(argv[1], "random-configs") == 0)
    return runRandom(std::atoi(argv[2]), std::atoi(argv[3]),
                     parseDType(argv[4]), argc >= 6 ? argv[5] : "sm_90",
                     argc == 7 ? argv[6] : nullptr);
  if (argc == 6 && std::strcmp(argv[1], "search") == 0)
    return runSearch(std::atoll(argv[2]), std::atoll(argv[3]),
                     std::atoll(argv[4]), parseDType(argv[5]));
  if (argc >= 6 && argc <= 8 && std::strcmp(argv[1], "synthetic") == 0) {
    std::optional<GemmFamily> family =
        parseGemmFamily(argc == 8 ? argv[7] : "simt");
    if (!family) {
      std::fprintf(stderr, "synthetic: FAMILY is simt, mma or wgmma\n");
      return 2;
    }
    return runSynthetic(unsigned(std::atoi(argv[2])), std::atol(argv[3]),
                        std::atol(argv[4]), parseDType(argv[5]),
                        argc >= 7 ? argv[6] : "sm_90", *family);
  }
  if (argc == 3 && std::strcmp(argv[1], "mlp-info") == 0)
    return runMLPInfo(argv[2]);
  if (argc == 4 && std::strcmp(argv[1], "mlp-check") == 0)
    return runMLPCheck(argv[2], argv[3]);
  if (argc == 4 && std::strcmp(argv[1], "mlp-fuzz") == 0)
    return runMLPFuzz(argv[2], std::atol(argv[3]));
  if ((argc == 4 || argc == 5) && std::strcmp(argv[1], "mlp-prescreen") == 0)
    return runMLPPrescreen(argv[2], argv[3],
                           argc == 5 ? size_t(std::atoll(argv[4]))
                                     : kEnsemblePrescreen);
  if ((argc == 4 || argc == 5) && std::strcmp(argv[1], "mlp-topk") == 0)
    return runMLPTopK(argv[2], argv[3],
                      argc == 5 ? unsigned(std::atoi(argv[4])) : 10);
  if (argc >= 4 && argc <= 6 && std::strcmp(argv[1], "mlp-topk-diff") == 0)
    return runMLPTopKDiff(
        argv[2], argv[3], argc >= 5 ? unsigned(std::atoi(argv[4])) : 10,
        argc == 6 ? size_t(std::atoll(argv[5])) : kEnsemblePrescreen);
  if (argc == 4 && std::strcmp(argv[1], "mlp-kernel-check") == 0)
    return runMLPKernelCheck(argv[2], argv[3]);
  if (argc == 8 && std::strcmp(argv[1], "mlp-space-dump") == 0)
    return runMLPSpaceDump(
        argv[2], argv[3], argv[4], size_t(std::atoll(argv[5])),
        size_t(std::atoll(argv[6])), std::strtoull(argv[7], nullptr, 10));
  if (argc >= 6 && argc <= 8 && std::strcmp(argv[1], "mlp-search") == 0)
    return runMLPSearch(argv[2], std::atoll(argv[3]), std::atoll(argv[4]),
                        std::atoll(argv[5]), argc >= 7 ? argv[6] : "nn",
                        argc == 8 ? std::atoll(argv[7]) : 1);
  std::fprintf(stderr,
               "usage: isaac-model-test legality | schema | schema-check\n"
               "       | kernel-names SEED N | random-configs SEED N "
               "f32|f64|f16|bf16 [CHIP [simt|mma]] | search M N K f32|f64\n"
               "       | synthetic SEED ROWS PER_SHAPE DTYPE [CHIP [FAMILY]] | "
               "mlp-info MODEL\n"
               "       | mlp-check MODEL VECTORS | mlp-fuzz MODEL N\n"
               "       | mlp-search MODEL M N K "
               "[LAYOUT [BATCH]]\n"
               "       | mlp-prescreen MODEL SHAPES|random:N [PRESCREEN]\n"
               "       | mlp-topk MODEL SHAPES [K]\n"
               "       | mlp-topk-diff MODEL SHAPES|random:N [K [PRESCREEN]]\n"
               "       | mlp-kernel-check MODEL SHAPES|random:N\n"
               "       | mlp-space-dump MODEL SHAPES|random:N OUT SAMPLE TOP "
               "SEED\n"
               "       | conv-synthetic SEED ROWS PER_SHAPE TYPES [CHIP]\n"
               "       | conv-shapes FILE\n"
               "       | conv-random-configs SEED N TYPES LAYOUT SHAPE "
               "[CHIP]\n"
               "       | conv-mlp-topk-diff MODEL CONV_SHAPES|random:N "
               "[K [PRESCREEN]]\n");
  return 2;
}
