//===- MLPSearch.cpp - The search ranked by the MLP, exact and fast -------===//
//
// makeMLPCost (MLP.h): the exhaustive search of ISAAC §6 ranked by the
// trained ensemble. Its result is defined by the straightforward algorithm
// (the one isaac-model-test's `mlp-topk-diff` re-runs as the reference):
//
//   1. S = the legal configurations inside the model's support, in the
//      order of legalConfigs();
//   2. y0 = MLPModel::predict of the first member on every configuration
//      of S;
//   3. T = the `prescreen` indices of S with the largest y0, as
//      std::nth_element(order, order + prescreen, ..., y0[a] > y0[b])
//      picks them;
//   4. the ensemble's mean predicts T; searchBest keeps the `k` fastest of
//      T (configurations that split K uselessly skipped, ties in the order
//      of S).
//
// A simt model whose support has more stages than 2 (its extra feature,
// read through log2_stage; MLPModel::stagesSupport) also ranks, right after
// each configuration of T (or of S, below), its variants at the other
// supported stages that are legal, in increasing stages, by the
// ensemble's mean. S itself holds stages = 2: the pipeline depth is ranked
// on the configurations the pre-screen keeps, which costs a few thousand
// predictions, not another pass over S per depth.
//
// (A one-member model, or a space of at most `prescreen` configurations,
// skips 3: the ensemble ranks all of S.) Step 2 is the cost: ~10^6
// forward passes of a 19-64-128-64-1 network per GEMM. This file computes
// the same numbers faster, without changing any of them:
//
//  - S is enumerated once per (model, dtype, chip), with the support's
//    values only, as legal KG-less "bases" times the supported KGs;
//  - the configurations are scored in blocks of 32 (SIMD lanes) grouped
//    by (ML, NL, U, KG), which fixes the five derived features, so that
//    neighbouring configurations switch off the same hidden neurons: an
//    input that is zero in every lane of a block is skipped.
//    Each configuration still goes through exactly the floating-point
//    operations of MLPModel::predict, in the same order (the bias, then
//    one fused multiply-add per input, ascending), only without the
//    products by zero, which leave a sum unchanged (up to the sign of a
//    zero, which neither ReLU nor any comparison sees);
//  - the first layer's sums over the inputs that precede KG do not depend
//    on KG: where nothing is pruned, they are computed once per block of a
//    base group and continued for each of its KGs (the same chain of
//    operations; for one wide hidden layer it halves the work);
//  - only the prescreen+1 best first-member scores matter: a block whose
//    32 scores are proven below the (prescreen+1)-th best found so far is
//    not finished. The proof computes the last hidden layer's rows of
//    positive output weight (and the few most negative ones) exactly; the
//    other rows can only lower the output (ReLU outputs are >= 0), which
//    bounds the float sum of the reference up to its rounding (TiledNet);
//  - a network of one hidden layer (the shipped f64 model) is instead
//    pre-screened: its pre-activations split into a sum over the base and
//    inner configuration's inputs and one over the KG group's (alpha +
//    beta), so a configuration costs an addition, a max and a fused
//    multiply-add per hidden neuron. Those scores are not predict's floats
//    (another order), but within a proven bound eps of them (rounding
//    only: Context::screen); every configuration screened below the
//    (prescreen+1)-th best screened score minus 2 eps is provably below the
//    (prescreen+1)-th best exact score, and the others (about 2%) are
//    scored exactly, so steps 3-4 see the same numbers;
//  - the blocks are split over threads; each configuration's score is
//    written to its own slot, so the result does not depend on them;
//  - step 3 finds the prescreen-th and the next largest score by a radix
//    histogram; when they differ the set std::nth_element returns is
//    determined (the `prescreen` largest), else (a tie across the cut, or
//    a NaN) std::nth_element itself runs on the scores in the order of S.
//
// `isaac-model-test mlp-topk-diff` compares the result with the reference
// algorithm (test/Model/search.test), `mlp-kernel-check` the scores bit
// for bit; test/Model/topk-golden-*.test pin the top 10 of ~6,000 inputs
// recorded with the search before this file existed. Bounds on the
// network over groups of configurations, from the features they can take,
// do not help: for the shipped 19-64-128-64-1 members, interval and
// symbolic bounds are looser than the spread of the scores even over three
// configurations (docs/model-format.md, "The search"); hence the bound on
// exactly computed activations above. Nor does a reduced-precision screen
// of the deep members (int8 or fp16 products): its proven error bound is
// ~300 times its actual error, larger than the whole spread of the scores
// (same section). The split sum works for one hidden layer because it
// stays in float: its bound is ~1e-1, its actual error ~1e-5.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/Features.h"
#include "isaac/Model/MLP.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace isaac;

namespace {

/// Configurations per block: two AVX-512 vectors, so that each weight
/// loaded serves two fused multiply-adds (one vector per weight ran at
/// half the rate), while neighbouring configurations still share most of
/// their zero activations.
constexpr int kLanes = 32;
constexpr int kNumParams = 9;
constexpr int kC = kNumConfigFeatures; ///< inputs per config

#if defined(__GNUC__) || defined(__clang__)
#define ISAAC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ISAAC_ALWAYS_INLINE inline
#endif

typedef float v4f __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));
template <typename V> ISAAC_ALWAYS_INLINE void loadV(V &v, const float *p) {
  std::memcpy(&v, p, sizeof v);
}
template <typename V> ISAAC_ALWAYS_INLINE void storeV(float *p, const V &v) {
  std::memcpy(p, &v, sizeof v);
}

/// nz[r] = whether row r of y (rows x kLanes) has a bit set in some lane.
/// After a ReLU the other rows are +0 in every lane, and a product by them
/// changes no sum: the next layer skips them. Called on each tile of rows
/// as it is stored, while it is in the first-level cache.
using NzFn = void (*)(const float *y, int rows, uint8_t *nz);

//===----------------------------------------------------------------------===//
// Dense layers over a block of kLanes configurations with zero inputs
// skipped.
//
// x[i * kLanes + b] is input i of configuration b. `act` lists the inputs
// (ascending) that are non-zero in some lane. The weights of a tile of R
// output rows are stored input-major, wt[i * R + r], so one cache line
// serves them. The accumulation is that of MLP.cpp's denseRows: bias, then
// `a += s * x` per input, which the compiler contracts into a fused
// multiply-add on the same targets as there (AVX2/AVX-512: fused; baseline
// x86-64: not).
//===----------------------------------------------------------------------===//

struct TiledLayer {
  int in = 0, out = 0;
  /// Rows of each tile, in order (a full-width tile size, then smaller
  /// ones for the rest); tile t's weights start at w + in * (its first row).
  std::vector<int> tiles;
  std::vector<float> w;
  std::vector<float> b; ///< out
  bool relu = true;
};

template <typename V, int R>
ISAAC_ALWAYS_INLINE void
tileRows(const float *wt, const float *bias, const float *init, const float *x,
         const uint16_t *act, int nAct, float *y, bool relu) {
  constexpr int L = sizeof(V) / sizeof(float);
  constexpr int NV = kLanes / L;
  V a[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      if (init)
        loadV(a[r][v], init + r * kLanes + v * L);
      else
        a[r][v] = V{} + bias[r];
    }
  for (int t = 0; t < nAct; ++t) {
    const int i = act[t];
    V xv[NV];
    for (int v = 0; v < NV; ++v)
      loadV(xv[v], x + i * kLanes + v * L);
    const float *wi = wt + i * R;
    for (int r = 0; r < R; ++r) {
      float s = wi[r];
      for (int v = 0; v < NV; ++v)
        a[r][v] += s * xv[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      if (relu)
        a[r][v] = a[r][v] > 0 ? a[r][v] : V{};
      storeV(y + r * kLanes + v * L, a[r][v]);
    }
}

/// Tile sizes a kernel of `big`-row tiles uses: `big`, then 4, then 1.
/// With `init`, the accumulators of row r start from init[r * kLanes ..]
/// (a partial sum over earlier inputs) instead of the bias.
/// With `nz`, scan(tile, rows, nz + first row) marks the non-zero rows.
template <typename V, int Big>
ISAAC_ALWAYS_INLINE void
layerImpl(const TiledLayer &L, const float *x, const uint16_t *act, int nAct,
          float *y, const float *init, bool relu, uint8_t *nz, NzFn scan) {
  int o = 0;
  for (int rows : L.tiles) {
    const float *wt = L.w.data() + size_t(o) * L.in;
    float *yo = y + size_t(o) * kLanes;
    const float *io = init ? init + size_t(o) * kLanes : nullptr;
    if (rows == Big)
      tileRows<V, Big>(wt, L.b.data() + o, io, x, act, nAct, yo, relu);
    else if (rows == 4)
      tileRows<V, 4>(wt, L.b.data() + o, io, x, act, nAct, yo, relu);
    else
      tileRows<V, 1>(wt, L.b.data() + o, io, x, act, nAct, yo, relu);
    if (nz)
      scan(yo, rows, nz + o);
    o += rows;
  }
}

using LayerFn = void (*)(const TiledLayer &, const float *, const uint16_t *,
                         int, float *, const float *init, bool relu,
                         uint8_t *nz);
/// Writes the indices of the rows of y (rows x kLanes) with a bit set in
/// some lane to act, in the order `order` lists them (null: ascending);
/// returns how many (NzFn's test, for the features).
using ActiveFn = int (*)(const float *y, int rows, const uint16_t *order,
                         uint16_t *act);
/// max over the kLanes lanes of sum_i w[i] * y[i][lane] (rows x kLanes,
/// y >= 0), in double, plus 1e-9 sum_i |w[i]| y[i][lane] for the rounding
/// of the double sums.
using BoundFn = double (*)(const float *y, const double *w, int rows);

int activeGeneric(const float *y, int rows, const uint16_t *order,
                  uint16_t *act) {
  int n = 0;
  for (int i = 0; i < rows; ++i) {
    int row = order ? order[i] : i;
    uint64_t words[kLanes / 2], any = 0;
    std::memcpy(words, y + size_t(row) * kLanes, sizeof words);
    for (uint64_t w : words)
      any |= w;
    act[n] = uint16_t(row);
    n += any != 0;
  }
  return n;
}

void nzGeneric(const float *y, int rows, uint8_t *nz) {
  for (int r = 0; r < rows; ++r) {
    uint64_t words[kLanes / 2], any = 0;
    std::memcpy(words, y + size_t(r) * kLanes, sizeof words);
    for (uint64_t w : words)
      any |= w;
    nz[r] = any != 0;
  }
}

double boundGeneric(const float *y, const double *w, int rows) {
  double acc[kLanes] = {}, mag[kLanes] = {};
  for (int i = 0; i < rows; ++i)
    for (int b = 0; b < kLanes; ++b) {
      double t = w[i] * double(y[size_t(i) * kLanes + size_t(b)]);
      acc[b] += t;
      mag[b] += std::fabs(t);
    }
  double m = -std::numeric_limits<double>::infinity();
  for (int b = 0; b < kLanes; ++b)
    m = std::max(m, acc[b] + 1e-9 * mag[b]);
  return m;
}

// Row tiles that keep the accumulators (R x kLanes floats) and one input
// row in registers: 24 + 2 of 32 zmm, 8 + 4 of 16 ymm, 8 + 8 of 16 xmm.
constexpr int kRowsBaseline = 1, kRowsAvx2 = 2, kRowsAvx512 = 12;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx512f"))) int
activeAvx512(const float *y, int rows, const uint16_t *order, uint16_t *act) {
  static_assert(kLanes == 32, "two 16-lane vectors per row");
  int n = 0;
  for (int i = 0; i < rows; ++i) {
    int r = order ? order[i] : i;
    const float *row = y + size_t(r) * kLanes;
    __m512i v =
        _mm512_or_si512(_mm512_loadu_si512(row), _mm512_loadu_si512(row + 16));
    act[n] = uint16_t(r); // branch-free: the pattern is data
    n += _mm512_test_epi32_mask(v, v) != 0;
  }
  return n;
}
__attribute__((target("avx512f"))) void nzAvx512(const float *y, int rows,
                                                 uint8_t *nz) {
  for (int r = 0; r < rows; ++r) {
    const float *row = y + size_t(r) * kLanes;
    __m512i v =
        _mm512_or_si512(_mm512_loadu_si512(row), _mm512_loadu_si512(row + 16));
    nz[r] = _mm512_test_epi32_mask(v, v) != 0;
  }
}
__attribute__((target("avx512f"))) double
boundAvx512(const float *y, const double *w, int rows) {
  __m512d acc[4], mag[4];
  for (int q = 0; q < 4; ++q)
    acc[q] = mag[q] = _mm512_setzero_pd();
  for (int i = 0; i < rows; ++i) {
    __m512d wi = _mm512_set1_pd(w[i]), ai = _mm512_set1_pd(std::fabs(w[i]));
    const float *row = y + size_t(i) * kLanes;
    for (int q = 0; q < 4; ++q) {
      __m512d h =
          _mm512_maskz_cvtps_pd(__mmask8(0xFF), _mm256_loadu_ps(row + 8 * q));
      acc[q] = _mm512_fmadd_pd(wi, h, acc[q]);
      mag[q] = _mm512_fmadd_pd(ai, h, mag[q]);
    }
  }
  double a[kLanes], m[kLanes];
  for (int q = 0; q < 4; ++q) {
    _mm512_storeu_pd(a + 8 * q, acc[q]);
    _mm512_storeu_pd(m + 8 * q, mag[q]);
  }
  double best = -std::numeric_limits<double>::infinity();
  for (int b = 0; b < kLanes; ++b)
    best = std::max(best, a[b] + 1e-9 * m[b]);
  return best;
}
__attribute__((target("avx2"))) int
activeAvx2(const float *y, int rows, const uint16_t *order, uint16_t *act) {
  int n = 0;
  for (int i = 0; i < rows; ++i) {
    int r = order ? order[i] : i;
    const __m256i *row =
        reinterpret_cast<const __m256i *>(y + size_t(r) * kLanes);
    __m256i v = _mm256_or_si256(
        _mm256_or_si256(_mm256_loadu_si256(row), _mm256_loadu_si256(row + 1)),
        _mm256_or_si256(_mm256_loadu_si256(row + 2),
                        _mm256_loadu_si256(row + 3)));
    act[n] = uint16_t(r);
    n += !_mm256_testz_si256(v, v);
  }
  return n;
}
__attribute__((target("avx2"))) void nzAvx2(const float *y, int rows,
                                            uint8_t *nz) {
  for (int r = 0; r < rows; ++r) {
    const __m256i *row =
        reinterpret_cast<const __m256i *>(y + size_t(r) * kLanes);
    __m256i v = _mm256_or_si256(
        _mm256_or_si256(_mm256_loadu_si256(row), _mm256_loadu_si256(row + 1)),
        _mm256_or_si256(_mm256_loadu_si256(row + 2),
                        _mm256_loadu_si256(row + 3)));
    nz[r] = !_mm256_testz_si256(v, v);
  }
}
#endif

void layerBaseline(const TiledLayer &L, const float *x, const uint16_t *act,
                   int nAct, float *y, const float *init, bool relu,
                   uint8_t *nz) {
  layerImpl<v4f, kRowsBaseline>(L, x, act, nAct, y, init, relu, nz, nzGeneric);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ISAAC_SEARCH_MULTIVERSION 1
__attribute__((target("avx2,fma"))) void
layerAvx2(const TiledLayer &L, const float *x, const uint16_t *act, int nAct,
          float *y, const float *init, bool relu, uint8_t *nz) {
  layerImpl<v8f, kRowsAvx2>(L, x, act, nAct, y, init, relu, nz, nzAvx2);
}
__attribute__((target("avx512f,avx512vl,avx2,fma"))) void
layerAvx512(const TiledLayer &L, const float *x, const uint16_t *act, int nAct,
            float *y, const float *init, bool relu, uint8_t *nz) {
  layerImpl<v16f, kRowsAvx512>(L, x, act, nAct, y, init, relu, nz, nzAvx512);
}
#endif

//===----------------------------------------------------------------------===//
// The screen of a network of one hidden layer (MLPRanker::Context::screen)
//
// Its hidden layer's pre-activation is a sum over the inputs, which splits
// into the inputs of the base and inner configuration (ML, NL, MS, NS, U,
// KS, KL, VEC: alpha, one per configuration and row) and those of the KG
// group (KG and the five derived features: beta, one per group and row).
// Summed in that order, each configuration costs one addition, one max and
// one fused multiply-add per hidden neuron instead of predict's nine
// operations; the result is not predict's float (other order), but within
// a proven distance of it (MLPRanker::Context::screen).
//===----------------------------------------------------------------------===//

constexpr int kAlphaInputs = 8; ///< config inputs 0..6 and 8 (VEC)

/// alpha[j * kLanes + lane] = bias[j] + sum_f w[j * kAlphaInputs + f] *
/// x[f * kLanes + lane], for j < rows.
template <typename V>
ISAAC_ALWAYS_INLINE void alphaImpl(const float *w, const float *bias, int rows,
                                   const float *x, float *alpha) {
  constexpr int L = sizeof(V) / sizeof(float);
  constexpr int NV = kLanes / L;
  V xv[kAlphaInputs][NV];
  for (int f = 0; f < kAlphaInputs; ++f)
    for (int v = 0; v < NV; ++v)
      loadV(xv[f][v], x + f * kLanes + v * L);
  for (int j = 0; j < rows; ++j) {
    V a[NV];
    for (int v = 0; v < NV; ++v)
      a[v] = V{} + bias[j];
    for (int f = 0; f < kAlphaInputs; ++f) {
      float s = w[j * kAlphaInputs + f];
      for (int v = 0; v < NV; ++v)
        a[v] += s * xv[f][v];
    }
    for (int v = 0; v < NV; ++v)
      storeV(alpha + size_t(j) * kLanes + v * L, a[v]);
  }
}

/// out[k * kLanes + lane] = b + sum_j w[j] * max(alpha[j * kLanes + lane] +
/// beta[k * rows + j], 0) for k < groups (beta holds a multiple of C
/// groups; the padding is -infinity, which adds nothing).
template <typename V, int C>
ISAAC_ALWAYS_INLINE void screenImpl(const float *alpha, const float *beta,
                                    const float *w, float b, int rows,
                                    int groups, float *out) {
  constexpr int L = sizeof(V) / sizeof(float);
  constexpr int NV = kLanes / L;
  for (int k0 = 0; k0 < groups; k0 += C) {
    V acc[C][NV];
    for (int k = 0; k < C; ++k)
      for (int v = 0; v < NV; ++v)
        acc[k][v] = V{} + b;
    const float *bk = beta + size_t(k0) * rows;
    for (int j = 0; j < rows; ++j) {
      V a[NV];
      for (int v = 0; v < NV; ++v)
        loadV(a[v], alpha + size_t(j) * kLanes + v * L);
      const float s = w[j];
      for (int k = 0; k < C; ++k) {
        const float bj = bk[size_t(k) * rows + j];
        for (int v = 0; v < NV; ++v) {
          V t = a[v] + bj;
          t = t > 0 ? t : V{};
          acc[k][v] += s * t;
        }
      }
    }
    for (int k = 0; k < C && k0 + k < groups; ++k)
      for (int v = 0; v < NV; ++v)
        storeV(out + size_t(k0 + k) * kLanes + v * L, acc[k][v]);
  }
}

using AlphaFn = void (*)(const float *, const float *, int, const float *,
                         float *);
using ScreenFn = void (*)(const float *, const float *, const float *, float,
                          int, int, float *);
/// KG groups per pass of screenImpl: C x kLanes accumulators in registers.
constexpr int kScreenGroupsBaseline = 2, kScreenGroupsAvx2 = 2,
              kScreenGroupsAvx512 = 4;

void alphaBaseline(const float *w, const float *b, int rows, const float *x,
                   float *alpha) {
  alphaImpl<v4f>(w, b, rows, x, alpha);
}
void screenBaseline(const float *alpha, const float *beta, const float *w,
                    float b, int rows, int groups, float *out) {
  screenImpl<v4f, kScreenGroupsBaseline>(alpha, beta, w, b, rows, groups, out);
}
#ifdef ISAAC_SEARCH_MULTIVERSION
__attribute__((target("avx2,fma"))) void alphaAvx2(const float *w,
                                                   const float *b, int rows,
                                                   const float *x,
                                                   float *alpha) {
  alphaImpl<v8f>(w, b, rows, x, alpha);
}
__attribute__((target("avx2,fma"))) void
screenAvx2(const float *alpha, const float *beta, const float *w, float b,
           int rows, int groups, float *out) {
  screenImpl<v8f, kScreenGroupsAvx2>(alpha, beta, w, b, rows, groups, out);
}
__attribute__((target("avx512f,avx512vl,avx2,fma"))) void
alphaAvx512(const float *w, const float *b, int rows, const float *x,
            float *alpha) {
  alphaImpl<v16f>(w, b, rows, x, alpha);
}
__attribute__((target("avx512f,avx512vl,avx2,fma"))) void
screenAvx512(const float *alpha, const float *beta, const float *w, float b,
             int rows, int groups, float *out) {
  screenImpl<v16f, kScreenGroupsAvx512>(alpha, beta, w, b, rows, groups, out);
}
#endif

struct Kernel {
  LayerFn fn;
  int rows;
  ActiveFn active;
  BoundFn bound;
  AlphaFn alpha;
  ScreenFn screen;
  int screenGroups; ///< screen's C: beta is padded to a multiple of it
};

/// The widest kernel the CPU runs, capped like MLP.cpp's by
/// ISAAC_MLP_ISA=baseline|avx2|avx512: the same choice, hence the same
/// arithmetic (fused or not) as MLPModel::predict.
Kernel pickKernel() {
  const char *cap = std::getenv("ISAAC_MLP_ISA");
  std::string want = cap ? cap : "";
#ifdef ISAAC_SEARCH_MULTIVERSION
  __builtin_cpu_init();
  bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                __builtin_cpu_supports("avx512vl");
  if (avx512 && (want.empty() || want == "avx512"))
    return {layerAvx512, kRowsAvx512,  activeAvx512,       boundAvx512,
            alphaAvx512, screenAvx512, kScreenGroupsAvx512};
  if (avx2 && want != "baseline")
    return {layerAvx2, kRowsAvx2,  activeAvx2,       boundGeneric,
            alphaAvx2, screenAvx2, kScreenGroupsAvx2};
#endif
  return {layerBaseline, kRowsBaseline,  activeGeneric,        boundGeneric,
          alphaBaseline, screenBaseline, kScreenGroupsBaseline};
}

const Kernel &kernel() {
  static const Kernel k = pickKernel();
  return k;
}

/// `out x in` row-major weights as a TiledLayer of `big`-row tiles (then
/// 4-row and 1-row ones for the rest).
TiledLayer tile(const float *w, const float *b, int in, int out, int big,
                bool relu) {
  TiledLayer t;
  t.in = in;
  t.out = out;
  t.relu = relu;
  t.b.assign(b, b + out);
  t.w.reserve(size_t(in) * out);
  for (int o = 0; o < out;) {
    int rows = out - o >= big ? big : out - o >= 4 && big > 4 ? 4 : 1;
    for (int i = 0; i < in; ++i)
      for (int r = 0; r < rows; ++r)
        t.w.push_back(w[size_t(o + r) * in + i]);
    t.tiles.push_back(rows);
    o += rows;
  }
  return t;
}

//===----------------------------------------------------------------------===//
// The space S
//===----------------------------------------------------------------------===//

inline int log2Of(int pow2) { return __builtin_ctz(unsigned(pow2)); }

/// A key whose order is the order of legalConfigs(): its loops nest ml, ms,
/// nl, ns, kl, u, ks, vec, kg, each over increasing powers of two.
inline uint64_t legalKey(const GemmConfig &c) {
  uint64_t key = 0;
  for (int v : {c.ml, c.ms, c.nl, c.ns, c.kl, c.u, c.ks, c.vec, c.kg})
    key = (key << 6) | uint64_t(log2Of(v));
  return key;
}

/// S of one (model, dtype, chip): the legal configurations whose every
/// parameter is in the model's support. KG enters no legality rule but
/// the power-of-two and range ones (forEachLegalConfig), so S is the
/// legal "bases" (the other eight parameters) times the supported KGs.
/// Scoring visits S grouped by (ML, NL, U, KG), which fixes the derived
/// features: one group per (base group, KG), the base group's members in
/// the order (MS, NS, KL, KS, VEC). A position is an index in that order.
struct SpaceIndex {
  struct Inner {
    uint8_t ms, ns, ks, kl, vec; ///< log2
  };
  struct BaseGroup {
    uint32_t begin, end; ///< into inner
    GemmConfig rep;      ///< ML, NL and U of the group
  };
  std::vector<int> kgs; ///< supported KG values, increasing
  std::vector<BaseGroup> bases;
  std::vector<Inner> inner;
  /// log2 MS, NS, KS, KL and VEC of inner[i] as floats (the features),
  /// one array each, so that a block copies them 32 at a time.
  std::vector<float> innerCols[5];
  /// Group g = base * kgs.size() + kg index holds positions
  /// [offset[g], offset[g + 1]).
  std::vector<uint32_t> offset;
  size_t n = 0;

  size_t groups() const { return offset.size() - 1; }
  GemmConfig config(size_t g, size_t i) const {
    const BaseGroup &b = bases[g / kgs.size()];
    const Inner &in = inner[b.begin + i];
    GemmConfig c = b.rep;
    c.ms = 1 << in.ms;
    c.ns = 1 << in.ns;
    c.ks = 1 << in.ks;
    c.kl = 1 << in.kl;
    c.vec = 1 << in.vec;
    c.kg = kgs[g % kgs.size()];
    return c;
  }
  /// The group of a position.
  size_t groupOf(size_t pos) const {
    return size_t(std::upper_bound(offset.begin(), offset.end(), pos) -
                  offset.begin()) -
           1;
  }
  GemmConfig configAt(size_t pos) const {
    size_t g = groupOf(pos);
    return config(g, pos - offset[g]);
  }
};

std::shared_ptr<const SpaceIndex>
buildSpace(DType dtype, const ChipLimits &chip,
           std::vector<std::vector<int>> support, unsigned threads) {
  auto space = std::make_shared<SpaceIndex>();
  const ParamRange &kgRange = gemmParamRanges()[7];
  for (int kg = kgRange.lo; kg <= kgRange.hi; kg *= 2)
    if (support.size() < 8 || support[7].empty() ||
        std::binary_search(support[7].begin(), support[7].end(), kg))
      space->kgs.push_back(kg);
  if (space->kgs.empty()) {
    space->offset = {0};
    return space;
  }
  // The bases: the legal configurations of the first supported KG.
  support.resize(gemmParamRanges().size());
  support[7] = {space->kgs.front()};
  struct Visit {
    uint32_t key;
    SpaceIndex::Inner in;
  };
  // The (ML, NL) pairs, each enumerated on its own (in the order of
  // legalConfigs(): a base group's members stay together and in that
  // order), taken by the threads in turn as they finish the previous one.
  auto valuesOf = [&](size_t p) {
    std::vector<int> v;
    const ParamRange &range = gemmParamRanges()[p];
    for (int x = range.lo; x <= range.hi; x *= 2)
      if (support[p].empty() ||
          std::binary_search(support[p].begin(), support[p].end(), x))
        v.push_back(x);
    return v;
  };
  std::vector<std::pair<int, int>> pairs;
  for (int ml : valuesOf(0))
    for (int nl : valuesOf(1))
      pairs.push_back({ml, nl});
  std::vector<std::vector<Visit>> parts(pairs.size());
  std::atomic<size_t> next{0};
  auto enumerate = [&]() {
    std::vector<std::vector<int>> mine = support;
    for (size_t i; (i = next.fetch_add(1)) < pairs.size();) {
      mine[0] = {pairs[i].first};
      mine[1] = {pairs[i].second};
      forEachLegalConfig(dtype, chip, mine, [&](const GemmConfig &c) {
        uint32_t key = uint32_t(log2Of(c.ml) << 16 | log2Of(c.nl) << 8 |
                                log2Of(c.u)); // the base group
        parts[i].push_back({key,
                            {uint8_t(log2Of(c.ms)), uint8_t(log2Of(c.ns)),
                             uint8_t(log2Of(c.ks)), uint8_t(log2Of(c.kl)),
                             uint8_t(log2Of(c.vec))}});
      });
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < std::min<size_t>(threads, pairs.size()); ++t)
    pool.emplace_back(enumerate);
  enumerate();
  for (std::thread &t : pool)
    t.join();
  // Sorted by base group, stably (a counting sort on the log2 values,
  // each below 16): the members of one (all from one thread) keep the
  // order of legalConfigs(), which for fixed ML, NL and U is (MS, NS, KL,
  // KS, VEC).
  auto bucket = [](uint32_t key) {
    return ((key >> 16) * 16 + ((key >> 8) & 0xff)) * 16 + (key & 0xff);
  };
  std::vector<uint32_t> start(16 * 16 * 16 + 1, 0);
  for (const std::vector<Visit> &part : parts)
    for (const Visit &v : part)
      ++start[bucket(v.key) + 1];
  for (size_t b = 1; b < start.size(); ++b)
    start[b] += start[b - 1];
  std::vector<Visit> visits(start.back());
  space->inner.reserve(visits.size());
  for (const std::vector<Visit> &part : parts)
    for (const Visit &v : part)
      visits[start[bucket(v.key)]++] = v;
  for (size_t i = 0; i < visits.size(); ++i) {
    if (i == 0 || visits[i].key != visits[i - 1].key) {
      GemmConfig rep;
      rep.ml = 1 << (visits[i].key >> 16);
      rep.nl = 1 << ((visits[i].key >> 8) & 0xff);
      rep.u = 1 << (visits[i].key & 0xff);
      space->bases.push_back({uint32_t(i), uint32_t(i), rep});
    }
    space->bases.back().end = uint32_t(i + 1);
    space->inner.push_back(visits[i].in);
  }
  space->offset.push_back(0);
  for (const SpaceIndex::BaseGroup &b : space->bases)
    for (size_t k = 0; k < space->kgs.size(); ++k)
      space->offset.push_back(space->offset.back() + (b.end - b.begin));
  space->n = space->offset.back();
  for (std::vector<float> &col : space->innerCols)
    col.reserve(space->inner.size());
  for (const SpaceIndex::Inner &in : space->inner) {
    space->innerCols[0].push_back(float(in.ms));
    space->innerCols[1].push_back(float(in.ns));
    space->innerCols[2].push_back(float(in.ks));
    space->innerCols[3].push_back(float(in.kl));
    space->innerCols[4].push_back(float(in.vec));
  }
  return space;
}

/// Order-preserving unsigned key of a float, -0 and +0 equal.
inline uint32_t floatKey(float f) {
  if (f == 0)
    f = 0;
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/// The keys (floatKey) of the k largest numbers of y (NaN skipped), with
/// the k-th largest at [k - 1] and the larger ones before it, in no order;
/// empty if y has at most k - 1 numbers. A histogram of the keys' top 16
/// bits finds the bins that hold them; std::nth_element orders those.
std::vector<uint32_t> largestKeys(const std::vector<float> &y, size_t k) {
  std::vector<uint32_t> hist(65536, 0);
  size_t numbers = 0;
  for (float v : y)
    if (!std::isnan(v)) {
      ++hist[floatKey(v) >> 16];
      ++numbers;
    }
  if (k == 0 || numbers < k)
    return {};
  size_t above = 0, bin = hist.size();
  while (bin > 0 && above + hist[bin - 1] < k)
    above += hist[--bin];
  const uint32_t lo = uint32_t(bin - 1) << 16; // >= k keys above
  std::vector<uint32_t> keys;
  for (float v : y)
    if (!std::isnan(v) && floatKey(v) >= lo)
      keys.push_back(floatKey(v));
  std::nth_element(keys.begin(), keys.begin() + long(k - 1), keys.end(),
                   std::greater<uint32_t>());
  return keys;
}

/// The indices of the P largest of y in increasing order, where they are
/// determined: empty on a tie between the P-th and the (P+1)-th largest,
/// a NaN, or P >= y.size().
std::vector<uint32_t> determinedLargest(const std::vector<float> &y, size_t P) {
  if (P >= y.size() ||
      std::any_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }))
    return {};
  std::vector<uint32_t> keys = largestKeys(y, P + 1);
  const uint32_t next = keys[P];
  const uint32_t kth = *std::min_element(keys.begin(), keys.begin() + long(P));
  std::vector<uint32_t> T;
  if (kth > next)
    for (size_t p = 0; p < y.size(); ++p)
      if (floatKey(y[p]) >= kth)
        T.push_back(uint32_t(p));
  return T;
}

unsigned defaultThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return std::max(1u, std::min(n, 16u));
}

/// One member's network tiled for the kernel. The rows of its last hidden
/// layer are reordered, those with a positive output weight first (each
/// class in ascending order), so that the output is bounded from above by
/// the bias plus the positive rows' terms alone; the output layer's
/// weights follow the reorder, and its inputs are visited in the original
/// order (`outOrder`), so that its sum is the same sequence of operations.
struct TiledNet {
  size_t layers = 0; ///< weight layers, the output one included
  /// Layers 1..layers-1, one tile set each, two (positive rows, the
  /// others) for the last hidden layer. Layer 0 depends on the shape
  /// (MLPRanker::Context::first).
  std::vector<std::vector<TiledLayer>> tiles;
  std::vector<int> rowOf;         ///< reordered row -> original row
  std::vector<uint16_t> outOrder; ///< original row -> reordered row
  /// The first nFirst reordered rows bound the output: every other row has
  /// a non-positive output weight, so (h >= 0 after the ReLU) the float sum
  /// of the reference is at most bBound + sum of wBound[i] * h[i] over the
  /// first rows: the output weights and bias widened by the rounding of a
  /// sum of that length (fused or not).
  int nFirst = 0;
  std::vector<double> wBound;
  double bBound = 0;
  /// Whether no activation can overflow (interval bounds over the whole
  /// feature range): then no score is NaN, and the bound is sound.
  bool bounded = false;
};

/// `out x in` weights as the tiles of a layer whose rows are `rows` (in
/// that order); split at `at` into two tile sets when 0 < at.
std::vector<TiledLayer> tileRowsOf(const float *w, const float *b, int in,
                                   const std::vector<int> &rows, size_t at,
                                   bool relu) {
  auto part = [&](size_t from, size_t to) {
    std::vector<float> pw, pb;
    for (size_t r = from; r < to; ++r) {
      pw.insert(pw.end(), w + size_t(rows[r]) * size_t(in),
                w + size_t(rows[r] + 1) * size_t(in));
      pb.push_back(b[rows[r]]);
    }
    return tile(pw.data(), pb.data(), in, int(to - from), kernel().rows, relu);
  };
  if (at == 0 || at >= rows.size())
    return {part(0, rows.size())};
  return {part(0, at), part(at, rows.size())};
}

} // namespace

namespace isaac {

struct MLPModel::SearchCache {
  std::mutex mutex;
  /// (dtype, chip, vec widths admitted: a bit per log2 vec, 0 for all):
  /// a GEMM's S (mask 0) or a simt convolution's.
  std::map<std::tuple<int, std::string, unsigned>,
           std::shared_ptr<const SpaceIndex>>
      spaces;
  /// The same for the other families' convolutions: S as a list, in the
  /// order of legalConfigs().
  std::map<std::tuple<int, std::string, unsigned>,
           std::shared_ptr<const std::vector<GemmConfig>>>
      lists;
};

std::shared_ptr<MLPModel::SearchCache> MLPModel::newSearchCache() {
  return std::make_shared<SearchCache>();
}

/// The SpaceRanker of makeMLPCost.
class MLPRanker : public SpaceRanker {
public:
  MLPRanker(std::shared_ptr<const MLPModel> model, size_t prescreen,
            unsigned threads)
      : model(std::move(model)), prescreen(prescreen),
        threads(threads ? threads : defaultThreads()) {
    for (const MLPModel::Net &net : this->model->folded_)
      nets.push_back(tileNet(net));
    if (!this->model->screenFolded_.empty())
      nets.push_back(tileNet(this->model->screenFolded_));
  }

  std::vector<Ranked> searchBest(const GemmShape &shape, const ChipLimits &chip,
                                 unsigned k, size_t *evaluated) override;
  /// ConvMLPSearch::search().
  std::vector<Ranked> searchConv(const ConvShape &shape, const ChipLimits &chip,
                                 unsigned k, size_t *evaluated);
  const MLPModel &getModel() const { return *model; }

  /// scoreLegalSpace().
  std::vector<float> scores(const GemmShape &shape, const ChipLimits &chip,
                            size_t member);

  double cost(const GemmShape &shape, const GemmConfig &c) override {
    if (model->op() != ModelOp::Gemm || !model->inSupport(c))
      return std::numeric_limits<double>::infinity();
    float y = 0;
    model->predict(shape, &c, 1, &y);
    return MLPModel::seconds(shape, y);
  }

private:
  class Context;
  class Scorer;
  /// The search of a context made at `tStart` (the steps of makeMLPCost's
  /// definition) on `shape` (a convolution's implicit GEMM).
  std::vector<Ranked> searchIn(Context &ctx, const GemmShape &shape,
                               const ChipLimits &chip, bool conv, unsigned k,
                               size_t *evaluated,
                               std::chrono::steady_clock::time_point tStart);
  /// `firstNegatives`: rows of the last hidden layer to compute with the
  /// positive ones before the bound (the others only for blocks it does
  /// not prune).
  static TiledNet tileNet(const MLPModel::Net &net,
                          const std::vector<int> &firstNegatives = {});
  std::shared_ptr<const SpaceIndex>
  spaceFor(DType dtype, const ChipLimits &chip, unsigned vecMask = 0);
  std::shared_ptr<const std::vector<GemmConfig>>
  listFor(DType dtype, const ChipLimits &chip, unsigned vecMask);

  /// Network `i`: member i, or the screen for i = numMembers().
  const MLPModel::Net &netAt(size_t i) const {
    return i < model->folded_.size() ? model->folded_[i] : model->screenFolded_;
  }

  std::shared_ptr<const MLPModel> model;
  size_t prescreen;
  unsigned threads;
  std::vector<TiledNet> nets; ///< per member, then the screen's
};

/// Scores blocks of one member; its buffers serve one thread.
class MLPRanker::Scorer {
public:
  Scorer(const TiledNet &net, const std::vector<TiledLayer> &first)
      : net(net), first(first), x(size_t(kC) * kLanes) {
    int width = kC;
    for (const std::vector<TiledLayer> &ts : net.tiles) {
      int rows = 0;
      for (const TiledLayer &t : ts)
        rows += t.out;
      width = std::max(width, rows);
    }
    width = std::max(width, firstRows());
    buf[0].resize(size_t(width) * kLanes);
    buf[1].resize(size_t(width) * kLanes);
    act.resize(size_t(width));
    nz.resize(size_t(width));
  }

  /// The block's features: x[i * kLanes + lane].
  float *features() { return x.data(); }
  /// Where to add the split layer's outputs, row by row (reordered rows),
  /// or null.
  double *rowSums = nullptr;
  /// Rows of the first layer (its tile sets together).
  int firstRows() const {
    int rows = 0;
    for (const TiledLayer &t : first)
      rows += t.out;
    return rows;
  }

  /// The first layer's sums over the config inputs [0, upTo) only, without
  /// the ReLU: p[row * kLanes + lane] (rows in the order of the tile sets).
  /// block(..., p, upTo) goes on from there, exactly as block() would have
  /// summed: the same operations in the same order.
  void partialFirst(float *p, int upTo) {
    const Kernel &k = kernel();
    int nAct = k.active(x.data(), upTo, nullptr, act.data());
    size_t o = 0;
    for (const TiledLayer &t : first) {
      k.fn(t, x.data(), act.data(), nAct, p + o * kLanes, nullptr, false,
           nullptr);
      o += size_t(t.out);
    }
  }

  /// Scores the block into y[0..cnt). With `cut` > -infinity, a block all
  /// of whose configurations are proven to score below `cut` is not
  /// finished: y gets -infinity, and the result is false. With `init`, the
  /// first layer starts from partialFirst(init, from) and sums the inputs
  /// [from, kC) only (features below `from` are not read).
  bool block(size_t cnt, float *y, float cut, const float *init = nullptr,
             int from = 0) {
    const Kernel &k = kernel();
    // Features that are +0 in every lane (e.g. log2 KS for KS = 1) are
    // skipped like zero activations.
    int nAct;
    if (from == 0) {
      nAct = k.active(x.data(), kC, nullptr, act.data());
    } else {
      uint16_t order[kC];
      for (int i = from; i < kC; ++i)
        order[i - from] = uint16_t(i);
      nAct = k.active(x.data(), kC - from, order, act.data());
    }
    const float *in = x.data();
    for (size_t l = 0; l < net.layers; ++l) {
      const std::vector<TiledLayer> &ts = l == 0 ? first : net.tiles[l];
      const float *i0 = l == 0 ? init : nullptr;
      float *out = buf[l % 2].data();
      const bool last = l + 1 == net.layers;
      k.fn(ts[0], in, act.data(), nAct, out, i0, ts[0].relu,
           last ? nullptr : nz.data());
      if (last) { // the output
        std::copy(out, out + cnt, y);
        return true;
      }
      if (ts.size() == 2 && cut > -std::numeric_limits<float>::infinity()) {
        // The first rows bound the output (TiledNet::wBound).
        double bound = net.bBound + k.bound(out, net.wBound.data(), net.nFirst);
        if (bound < double(cut)) {
          std::fill(y, y + cnt, -std::numeric_limits<float>::infinity());
          return false;
        }
      }
      if (ts.size() == 2) {
        size_t o = size_t(ts[0].out) * kLanes;
        k.fn(ts[1], in, act.data(), nAct, out + o, i0 ? i0 + o : nullptr,
             ts[1].relu, nz.data() + ts[0].out);
        if (rowSums) // the split layer's row sums, for the choice of rows
          for (size_t row = 0; row < net.rowOf.size(); ++row)
            for (size_t lane = 0; lane < cnt; ++lane)
              rowSums[row] += out[row * kLanes + lane];
        // The output layer visits its inputs in their original order.
        nAct = activeRows(int(net.outOrder.size()), net.outOrder.data());
      } else {
        nAct =
            activeRows(ts[0].out, l + 2 == net.layers && !net.outOrder.empty()
                                      ? net.outOrder.data()
                                      : nullptr);
      }
      in = out;
    }
    return true;
  }

private:
  /// The rows nz marks, in the order `order` lists them (null: ascending),
  /// into act; returns how many.
  int activeRows(int rows, const uint16_t *order) {
    int n = 0;
    for (int i = 0; i < rows; ++i) {
      uint16_t r = order ? order[i] : uint16_t(i);
      act[size_t(n)] = r; // branch-free: the pattern is data
      n += nz[r];
    }
    return n;
  }

  const TiledNet &net;
  const std::vector<TiledLayer> &first;
  std::vector<float> x;
  std::vector<float> buf[2];
  std::vector<uint16_t> act;
  std::vector<uint8_t> nz;
};

/// The search of one shape: S, its features and the members' scores. S
/// is a SpaceIndex (simt: a GEMM's, or a convolution's with the vec widths
/// the conv rules admit) or, for the other families' convolutions, a list
/// of configurations in the order of legalConfigs().
class MLPRanker::Context {
public:
  /// A GEMM: the simt space as a SpaceIndex, another family's as the list
  /// of its legal configurations in the model's support.
  Context(MLPRanker &r, const GemmShape &shape, const ChipLimits &chip)
      : r(r), fb(shape, r.model->numSMs_), firsts(r.nets.size()) {
    if (r.model->family() == GemmFamily::Simt)
      space = r.spaceFor(shape.dtype, chip);
    else
      list = r.listFor(shape.dtype, chip, ~0u);
    shapeF.assign(fb.shapeFeatures(), fb.shapeFeatures() + kNumShapeFeatures);
  }
  /// A convolution: the configurations of the model's family in its
  /// support that the conv rules admit. The conv rules read a
  /// configuration's family and vec only (ConvLegality.h), so they keep
  /// the vec widths `vecMask` has (isaac-model-test conv-mlp-topk-diff
  /// checks S against isConvLegal on every configuration).
  Context(MLPRanker &r, const ConvShape &shape, const ChipLimits &chip,
          unsigned vecMask)
      : r(r), fb(shape.gemmShape(), r.model->numSMs_), firsts(r.nets.size()) {
    if (r.model->family() == GemmFamily::Simt)
      space = r.spaceFor(shape.types.ab, chip, vecMask);
    else
      list = r.listFor(shape.types.ab, chip, vecMask);
    shapeF.resize(kNumConvShapeFeatures);
    computeConvShapeFeatures(shape, shapeF.data());
  }

  size_t size() const { return space ? space->n : list->size(); }
  GemmConfig configAt(size_t pos) const {
    return space ? space->configAt(pos) : (*list)[pos];
  }
  /// A key whose order over positions is the order of legalConfigs().
  uint64_t orderKey(size_t pos) const {
    return space ? legalKey(space->configAt(pos)) : uint64_t(pos);
  }
  /// The positions in the order of legalConfigs().
  std::vector<uint32_t> legalOrder() const {
    std::vector<uint32_t> order;
    if (!space) {
      order.resize(list->size());
      std::iota(order.begin(), order.end(), 0u);
      return order;
    }
    std::vector<std::pair<uint64_t, uint32_t>> keyed;
    keyed.reserve(space->n);
    for (size_t g = 0; g < space->groups(); ++g)
      for (uint32_t p = space->offset[g]; p < space->offset[g + 1]; ++p)
        keyed.push_back({legalKey(space->config(g, p - space->offset[g])), p});
    std::sort(keyed.begin(), keyed.end());
    order.resize(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i)
      order[i] = keyed[i].second;
    return order;
  }

  /// The first layer of member `m` with the shape-only features folded
  /// into its bias, exactly as MLPModel::predict folds them (its rows
  /// reordered when it is the last hidden layer).
  const std::vector<TiledLayer> &first(size_t m) {
    if (!firsts[m].empty())
      return firsts[m];
    const MLPModel::Layer &f = r.netAt(m)[0];
    const TiledNet &net = r.nets[m];
    const float *sf = shapeF.data();
    const int nf = r.model->numFeatures(), ns = r.model->numShapeFeatures();
    std::vector<float> w(size_t(f.out) * kC), b(size_t(f.out));
    for (int o = 0; o < f.out; ++o) {
      const float *row = f.w.data() + size_t(o) * size_t(nf);
      double acc = f.b[size_t(o)];
      for (int i = 0; i < ns; ++i)
        acc += double(row[i]) * sf[i];
      b[size_t(o)] = float(acc);
      std::memcpy(w.data() + size_t(o) * kC, row + ns, kC * sizeof(float));
    }
    std::vector<int> rows(size_t(f.out));
    std::iota(rows.begin(), rows.end(), 0);
    size_t at = 0;
    if (net.layers == 2) { // the first layer is the last hidden one
      rows = net.rowOf;
      at = size_t(net.nFirst);
    }
    return firsts[m] =
               tileRowsOf(w.data(), b.data(), kC, rows, at, net.layers > 1);
  }

  /// Network `m`'s (netAt) scores of every configuration of S, by position.
  /// With `prune` (the pre-screen's first member: only the `prune` best and the
  /// next matter), a block of configurations proven to score below the
  /// (prune+1)-th best found so far is left at -infinity.
  /// Returns how many configurations were left at -infinity.
  size_t scoreAll(size_t m, std::vector<float> &y, size_t prune = 0) {
    if (!space) { // a list: every configuration, on the threads
      y.resize(list->size());
      scoreListThreaded(m, *list, y.data());
      return 0;
    }
    const size_t n = space->n;
    y.resize(n);
    const TiledNet &net = r.nets[m];
    const std::vector<TiledLayer> &layer0 = first(m);
    // Only a deep network's positive part bounds it tightly enough: with
    // one wide hidden layer (the shipped f64 model), dropping half of its
    // neurons' terms prunes nothing and the bound costs.
    bool canPrune =
        prune > 0 && net.bounded && net.nFirst > 0 && net.layers > 2;
    // The derived features of each group, from a member of it.
    const size_t groups = space->groups();
    std::vector<float> derived(groups * 5);
    for (size_t g = 0; g < groups; ++g) {
      float f[kC];
      fb.fillConfigPart(space->config(g, 0), f);
      std::memcpy(&derived[g * 5], f + kNumParams, 5 * sizeof(float));
    }
    if (!canPrune) {
      scoreByBase(m, derived, y);
      return 0;
    }
    const size_t blocks = (n + kLanes - 1) / kLanes;
    // Pruning needs a cut early: every 16th block is scored first, in full;
    // the (prune+1)-th best of those starts each thread's cut, which rises
    // with the scores it finds. A cut never exceeds the (prune+1)-th best
    // score of S, so a pruned configuration is neither among the `prune`
    // best nor the next.
    constexpr size_t kSampleEvery = 16;
    std::vector<float> seed; // the sample's best prune + 1, as a min-heap
    std::atomic<size_t> prunedConfigs{0};
    // The sample's sums of the last hidden layer's rows (in net.rowOf's
    // order), and the network tiled for the pruning phase from them.
    std::mutex sumsMutex;
    std::vector<double> rowSums(net.rowOf.size(), 0.0);
    std::unique_ptr<TiledNet> pruneNet;
    // The best cut any thread has: each one's is the (prune+1)-th best of
    // the scores it has seen, so the largest is still at most that of S.
    std::atomic<float> sharedCut{-std::numeric_limits<float>::infinity()};
    // Thread t of nThreads scores the blocks list[t], list[t + nThreads],
    // ... (interleaved) or its contiguous share of list.
    auto work = [&](const std::vector<uint32_t> &list, size_t t,
                    size_t nThreads, bool interleaved, bool pruning) {
      Scorer sc(pruning ? *pruneNet : net, layer0);
      std::vector<double> sums(net.rowOf.size(), 0.0);
      if (canPrune && !pruning)
        sc.rowSums = sums.data();
      float *x = sc.features();
      size_t g = 0;
      const SpaceIndex::Inner *inner = nullptr;
      float fixed[4] = {}; // log2 ML, NL, U, KG of group g
      auto enter = [&](size_t group) {
        g = group;
        const SpaceIndex::BaseGroup &b = space->bases[g / space->kgs.size()];
        inner = space->inner.data() + b.begin;
        fixed[0] = float(log2Of(b.rep.ml));
        fixed[1] = float(log2Of(b.rep.nl));
        fixed[2] = float(log2Of(b.rep.u));
        fixed[3] = float(log2Of(space->kgs[g % space->kgs.size()]));
      };
      enter(0);
      std::vector<float> heap = seed; // min-heap of the best scores seen
      constexpr float kNone = -std::numeric_limits<float>::infinity();
      size_t i0 = interleaved ? t : list.size() * t / nThreads;
      size_t i1 = interleaved ? list.size() : list.size() * (t + 1) / nThreads;
      for (size_t i = i0; i < i1; i += interleaved ? nThreads : 1) {
        size_t base = size_t(list[i]) * kLanes;
        size_t cnt = std::min<size_t>(kLanes, n - base);
        if (base >= space->offset[g + 1] || base < space->offset[g])
          enter(space->groupOf(base));
        if (cnt == kLanes && base + kLanes <= space->offset[g + 1]) {
          // A whole block inside group g: the same values as below.
          const size_t at =
              size_t(inner - space->inner.data()) + (base - space->offset[g]);
          static constexpr int kCol[5] = {2, 3, 5, 6, 8}; // MS NS KS KL VEC
          for (int q = 0; q < 5; ++q)
            std::memcpy(x + kCol[q] * kLanes, space->innerCols[q].data() + at,
                        kLanes * sizeof(float));
          static constexpr int kFixed[4] = {0, 1, 4, 7}; // ML NL U KG
          for (int q = 0; q < 4; ++q)
            std::fill(x + kFixed[q] * kLanes, x + (kFixed[q] + 1) * kLanes,
                      fixed[q]);
          for (int q = 0; q < 5; ++q)
            std::fill(x + (kNumParams + q) * kLanes,
                      x + (kNumParams + q + 1) * kLanes,
                      derived[g * 5 + size_t(q)]);
        } else {
          // Short blocks repeat their last configuration, as predict's do.
          for (size_t lane = 0; lane < kLanes; ++lane) {
            size_t p = base + std::min(lane, cnt - 1);
            if (p >= space->offset[g + 1] || p < space->offset[g])
              enter(space->groupOf(p));
            const SpaceIndex::Inner &in = inner[p - space->offset[g]];
            // The parameters' log2 (exact in float), as fillConfigPart
            // writes them, then the group's derived features.
            float *f = x + lane;
            f[0 * kLanes] = fixed[0];
            f[1 * kLanes] = fixed[1];
            f[2 * kLanes] = float(in.ms);
            f[3 * kLanes] = float(in.ns);
            f[4 * kLanes] = fixed[2];
            f[5 * kLanes] = float(in.ks);
            f[6 * kLanes] = float(in.kl);
            f[7 * kLanes] = fixed[3];
            f[8 * kLanes] = float(in.vec);
            for (int q = 0; q < 5; ++q)
              f[(kNumParams + q) * kLanes] = derived[g * 5 + size_t(q)];
          }
        }
        float *yb = y.data() + base;
        float cut = kNone;
        if (pruning) {
          float own = heap.size() > prune ? heap.front() : kNone;
          float shared = sharedCut.load(std::memory_order_relaxed);
          if (own > shared)
            sharedCut.compare_exchange_strong(shared, own,
                                              std::memory_order_relaxed);
          cut = std::max(own, sharedCut.load(std::memory_order_relaxed));
        }
        if (!sc.block(cnt, yb, cut)) {
          prunedConfigs += cnt;
          continue;
        }
        if (!pruning)
          continue;
        // Keep the best prune + 1 scores seen: the next cut.
        for (size_t i = 0; i < cnt; ++i) {
          if (heap.size() > prune && !(yb[i] > heap.front()))
            continue; // NaN included: the caller sees it in y
          if (std::isnan(yb[i]))
            continue;
          heap.push_back(yb[i]);
          std::push_heap(heap.begin(), heap.end(), std::greater<float>());
          if (heap.size() > prune + 1) {
            std::pop_heap(heap.begin(), heap.end(), std::greater<float>());
            heap.pop_back();
          }
        }
      }
      if (sc.rowSums) {
        std::lock_guard<std::mutex> lock(sumsMutex);
        for (size_t i = 0; i < sums.size(); ++i)
          rowSums[i] += sums[i];
      }
    };
    auto run = [&](const std::vector<uint32_t> &list, bool interleaved,
                   bool pruning) {
      size_t nThreads = n >= 65536 ? r.threads : 1;
      std::vector<std::thread> pool;
      for (size_t t = 1; t < nThreads; ++t)
        pool.emplace_back(work, std::cref(list), t, nThreads, interleaved,
                          pruning);
      work(list, 0, nThreads, interleaved, pruning);
      for (std::thread &t : pool)
        t.join();
    };
    std::vector<uint32_t> first, rest;
    for (uint32_t blk = 0; blk < blocks; ++blk)
      (!canPrune || blk % kSampleEvery == 0 ? first : rest).push_back(blk);
    run(first, false, false);
    if (!canPrune)
      return 0;
    for (uint32_t blk : first)
      for (size_t p = size_t(blk) * kLanes;
           p < std::min(n, size_t(blk + 1) * kLanes); ++p)
        if (!std::isnan(y[p]))
          seed.push_back(y[p]);
    // The rest in the order of their group's best sampled score (a group
    // without a sampled block first): the cut rises fastest that way.
    std::vector<float> groupBest(groups,
                                 std::numeric_limits<float>::infinity());
    {
      std::vector<bool> sampled(groups, false);
      for (uint32_t blk : first)
        for (size_t p = size_t(blk) * kLanes;
             p < std::min(n, size_t(blk + 1) * kLanes); ++p) {
          size_t g = space->groupOf(p);
          float v =
              std::isnan(y[p]) ? -std::numeric_limits<float>::infinity() : y[p];
          groupBest[g] = sampled[g] ? std::max(groupBest[g], v) : v;
          sampled[g] = true;
        }
    }
    std::vector<float> priority(blocks);
    for (uint32_t blk : rest)
      priority[blk] = groupBest[space->groupOf(size_t(blk) * kLanes)];
    std::stable_sort(rest.begin(), rest.end(), [&](uint32_t a, uint32_t b) {
      return priority[a] > priority[b];
    });
    if (seed.size() > prune + 1) {
      std::nth_element(seed.begin(), seed.begin() + long(prune), seed.end(),
                       std::greater<float>());
      seed.resize(prune + 1);
    }
    std::make_heap(seed.begin(), seed.end(), std::greater<float>());
    // Beside the rows of positive output weight, the bound includes the six
    // rows whose terms are the largest negative ones on the sample: the
    // bound is much tighter (a block is pruned 85-93% of the time instead
    // of 40-67% on Table 4 shapes), while the other rows remain to skip.
    constexpr size_t kFirstNegatives = 6;
    {
      const MLPModel::Layer &out = r.netAt(m).back();
      std::vector<std::pair<double, int>> negatives;
      for (size_t i = 0; i < net.rowOf.size(); ++i) {
        int row = net.rowOf[i];
        double w = out.w[size_t(row)];
        if (!(w > 0))
          negatives.push_back({w * rowSums[i], row}); // most negative first
      }
      std::sort(negatives.begin(), negatives.end());
      std::vector<int> rows;
      for (size_t i = 0; i < negatives.size() && i < kFirstNegatives; ++i)
        rows.push_back(negatives[i].second);
      pruneNet = std::make_unique<TiledNet>(tileNet(r.netAt(m), rows));
    }
    run(rest, true, true);
    return prunedConfigs;
  }

  /// scoreAll without pruning, base group by base group. The first
  /// layer's sums over the inputs before KG (ML, NL, MS, NS, U, KS, KL) do
  /// not depend on KG: they are computed once per block of a base group
  /// (partialFirst) and go on for each of its KG groups from there, the
  /// same operations in the same order for every configuration. Each
  /// base group's blocks start at its first member, so that a block of
  /// each KG group holds the same MS, NS, KS, KL and VEC in each lane.
  void scoreByBase(size_t m, const std::vector<float> &derived,
                   std::vector<float> &y) {
    constexpr int kFirstKGInput = 7; // inputs 0..6 precede log2 KG
    const size_t n = space->n, nKG = space->kgs.size();
    const TiledNet &net = r.nets[m];
    const std::vector<TiledLayer> &layer0 = first(m);
    // Work items: (base group, block of it).
    std::vector<std::pair<uint32_t, uint32_t>> items;
    for (size_t b = 0; b < space->bases.size(); ++b) {
      size_t size = space->bases[b].end - space->bases[b].begin;
      for (size_t j = 0; j * kLanes < size; ++j)
        items.push_back({uint32_t(b), uint32_t(j)});
    }
    std::atomic<size_t> next{0};
    auto work = [&]() {
      Scorer sc(net, layer0);
      std::vector<float> partial(size_t(sc.firstRows()) * kLanes);
      float *x = sc.features();
      for (size_t it; (it = next.fetch_add(1, std::memory_order_relaxed)) <
                      items.size();) {
        const SpaceIndex::BaseGroup &b = space->bases[items[it].first];
        const size_t size = b.end - b.begin;
        const size_t i0 = size_t(items[it].second) * kLanes;
        const size_t cnt = std::min<size_t>(kLanes, size - i0);
        const SpaceIndex::Inner *inner = space->inner.data() + b.begin + i0;
        // Short blocks repeat their last configuration.
        for (size_t lane = 0; lane < kLanes; ++lane) {
          const SpaceIndex::Inner &in = inner[std::min(lane, cnt - 1)];
          float *f = x + lane;
          f[0 * kLanes] = float(log2Of(b.rep.ml));
          f[1 * kLanes] = float(log2Of(b.rep.nl));
          f[2 * kLanes] = float(in.ms);
          f[3 * kLanes] = float(in.ns);
          f[4 * kLanes] = float(log2Of(b.rep.u));
          f[5 * kLanes] = float(in.ks);
          f[6 * kLanes] = float(in.kl);
          f[8 * kLanes] = float(in.vec);
        }
        sc.partialFirst(partial.data(), kFirstKGInput);
        for (size_t t = 0; t < nKG; ++t) {
          const size_t g = size_t(items[it].first) * nKG + t;
          const float kg = float(log2Of(space->kgs[t]));
          for (size_t lane = 0; lane < kLanes; ++lane) {
            float *f = x + lane;
            f[7 * kLanes] = kg;
            for (int q = 0; q < 5; ++q)
              f[(kNumParams + q) * kLanes] = derived[g * 5 + size_t(q)];
          }
          float yb[kLanes];
          sc.block(cnt, yb, -std::numeric_limits<float>::infinity(),
                   partial.data(), kFirstKGInput);
          std::copy(yb, yb + cnt, y.data() + space->offset[g] + i0);
        }
      }
    };
    size_t nThreads = n >= 65536 ? r.threads : 1;
    std::vector<std::thread> pool;
    for (size_t t = 1; t < nThreads; ++t)
      pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
      t.join();
  }

  /// The first member's scores for the pre-screen of the `prune` best, for
  /// a network of one hidden layer whose activations cannot overflow: the
  /// exact scores (predict's, bit for bit) of every configuration that can
  /// be among the `prune` + 1 best, -infinity for the others. Returns how
  /// many are left at -infinity, or SIZE_MAX where the bound below is not
  /// finite (then y is unspecified: scoreAll instead).
  ///
  /// Every configuration is first scored by the split sum (screenImpl):
  /// the hidden layer's pre-activation as alpha + beta, each a float sum
  /// in its own order, then the output's float sum in another order. It
  /// differs from predict's, z_j = fl(b_j + sum_i w_ji x_i) in ascending
  /// i, only by rounding: both are within gamma_n * M_j of the real sum,
  /// M_j = |b_j| + sum_i |w_ji| * (the largest x_i of S), gamma_n =
  /// n u / (1 - n u), u = 2^-24, n the roundings on the way (at most 40
  /// either way, with or without fused multiply-adds). The ReLU moves no
  /// value further; the output sums over h_j <= M_j (1 + gamma_40) also
  /// differ from the real one by at most gamma_(2 rows + 4) of their
  /// terms' magnitudes. So |screened - exact| <= eps with
  ///   eps = sum_j |w_j| 2 gamma_40 M_j
  ///       + gamma_(2 rows + 4) (2 |b| + sum_j |w_j| 2 M_j (1 + gamma_40)),
  /// and with v the (prune+1)-th largest screened score, at least prune + 1
  /// exact scores are >= v - eps, so a configuration screened below
  /// v - 2 eps has an exact score below the (prune+1)-th best: it is
  /// neither among the `prune` best nor the next. The others (a few
  /// thousand) are scored exactly (scoreList).
  size_t screen(std::vector<float> &y, size_t prune) {
    if (!space)
      return SIZE_MAX; // the split sum follows a SpaceIndex's groups
    const MLPModel::Layer &f = r.model->folded_[0][0];
    const int nf = r.model->numFeatures(), ns = r.model->numShapeFeatures();
    const MLPModel::Layer &o = r.model->folded_[0][1];
    const int rows = f.out;
    const size_t n = space->n, nKG = space->kgs.size();
    const Kernel &k = kernel();
    const size_t nKGPad = (nKG + size_t(k.screenGroups) - 1) /
                          size_t(k.screenGroups) * size_t(k.screenGroups);
    // The config inputs of alpha (base and inner) and of beta (the group).
    static constexpr int kA[kAlphaInputs] = {0, 1, 2, 3, 4, 5, 6, 8};
    static constexpr int kB[6] = {7, 9, 10, 11, 12, 13};
    // The bias with the shape folded in, exactly as first() (and predict)
    // folds it, and the weights of alpha (row-major) and beta (input-major).
    const float *sf = shapeF.data();
    std::vector<float> bias(static_cast<size_t>(rows)),
        wA(static_cast<size_t>(rows) * kAlphaInputs),
        wB(6 * static_cast<size_t>(rows));
    for (int j = 0; j < rows; ++j) {
      const float *row = f.w.data() + size_t(j) * size_t(nf);
      double acc = f.b[size_t(j)];
      for (int i = 0; i < ns; ++i)
        acc += double(row[i]) * sf[i];
      bias[size_t(j)] = float(acc);
      for (int q = 0; q < kAlphaInputs; ++q)
        wA[size_t(j) * kAlphaInputs + size_t(q)] = row[ns + kA[q]];
      for (int q = 0; q < 6; ++q)
        wB[size_t(q) * size_t(rows) + size_t(j)] = row[ns + kB[q]];
    }
    // The derived features of each group, and the largest value of each
    // config input over S (all are >= 0: log2 of sizes).
    const size_t groups = space->groups();
    std::vector<float> derived(groups * 5);
    double xmax[kC] = {};
    for (size_t g = 0; g < groups; ++g) {
      float fc[kC];
      fb.fillConfigPart(space->config(g, 0), fc);
      std::memcpy(&derived[g * 5], fc + kNumParams, 5 * sizeof(float));
      for (int i = 0; i < kC; ++i)
        xmax[i] = std::max(xmax[i], double(fc[i]));
    }
    for (const SpaceIndex::Inner &in : space->inner) {
      xmax[2] = std::max(xmax[2], double(in.ms));
      xmax[3] = std::max(xmax[3], double(in.ns));
      xmax[5] = std::max(xmax[5], double(in.ks));
      xmax[6] = std::max(xmax[6], double(in.kl));
      xmax[8] = std::max(xmax[8], double(in.vec));
    }
    const double u = 0x1p-24;
    auto gamma = [&](double m) { return m * u / (1 - m * u); };
    double eps = 0, mag = 2 * std::fabs(double(o.b[0]));
    for (int j = 0; j < rows; ++j) {
      const float *row = f.w.data() + size_t(j) * size_t(nf);
      double m = std::fabs(double(bias[size_t(j)]));
      for (int i = 0; i < kC; ++i)
        m += std::fabs(double(row[ns + i])) * xmax[i];
      const double w = std::fabs(double(o.w[size_t(j)]));
      eps += w * 2 * gamma(40) * m;
      mag += w * 2 * m * (1 + gamma(40));
    }
    // (1e-30: the absolute error of the few thousand operations in the
    // subnormal range, where the relative bound does not hold, is below it.)
    eps = (eps + gamma(2.0 * rows + 4) * mag) * (1 + 1e-6) + 1e-30;
    if (!std::isfinite(eps))
      return SIZE_MAX;

    y.resize(n);
    std::atomic<size_t> next{0};
    auto work = [&]() {
      std::vector<float> alpha(size_t(rows) * kLanes),
          beta(nKGPad * size_t(rows), -std::numeric_limits<float>::infinity()),
          x(kAlphaInputs * kLanes), out(nKGPad * kLanes);
      for (size_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) <
                     space->bases.size();) {
        const SpaceIndex::BaseGroup &base = space->bases[b];
        for (size_t t = 0; t < nKG; ++t) {
          const size_t g = b * nKG + t;
          const float v[6] = {float(log2Of(space->kgs[t])), derived[g * 5],
                              derived[g * 5 + 1],           derived[g * 5 + 2],
                              derived[g * 5 + 3],           derived[g * 5 + 4]};
          float *bt = beta.data() + t * size_t(rows);
          for (int j = 0; j < rows; ++j) {
            float a = 0;
            for (int q = 0; q < 6; ++q)
              a += wB[size_t(q) * size_t(rows) + size_t(j)] * v[q];
            bt[j] = a;
          }
        }
        const size_t size = base.end - base.begin;
        for (size_t i0 = 0; i0 < size; i0 += kLanes) {
          const size_t cnt = std::min<size_t>(kLanes, size - i0);
          for (size_t lane = 0; lane < kLanes; ++lane) {
            const SpaceIndex::Inner &in =
                space->inner[base.begin + i0 + std::min(lane, cnt - 1)];
            const float fv[kAlphaInputs] = {float(log2Of(base.rep.ml)),
                                            float(log2Of(base.rep.nl)),
                                            float(in.ms),
                                            float(in.ns),
                                            float(log2Of(base.rep.u)),
                                            float(in.ks),
                                            float(in.kl),
                                            float(in.vec)};
            for (int q = 0; q < kAlphaInputs; ++q)
              x[size_t(q) * kLanes + lane] = fv[q];
          }
          k.alpha(wA.data(), bias.data(), rows, x.data(), alpha.data());
          k.screen(alpha.data(), beta.data(), o.w.data(), o.b[0], rows,
                   int(nKG), out.data());
          for (size_t t = 0; t < nKG; ++t)
            std::copy(out.data() + t * kLanes, out.data() + t * kLanes + cnt,
                      y.data() + space->offset[b * nKG + t] + i0);
        }
      }
    };
    size_t nThreads = n >= 65536 ? r.threads : 1;
    std::vector<std::thread> pool;
    for (size_t t = 1; t < nThreads; ++t)
      pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
      t.join();

    // ISAAC_SEARCH_SCREEN_CHECK=1: the bound against the distance from the
    // exact scores of every configuration, on stderr (search.test).
    static const bool check = [] {
      const char *v = std::getenv("ISAAC_SEARCH_SCREEN_CHECK");
      return v && *v && std::string(v) != "0";
    }();
    if (check) {
      std::vector<float> exact;
      scoreAll(0, exact);
      double worst = 0;
      for (size_t p = 0; p < n; ++p)
        worst = std::max(worst, std::fabs(double(exact[p]) - double(y[p])));
      std::fprintf(stderr,
                   "isaac-search: screen check: largest distance %g, bound "
                   "%g: %s\n",
                   worst, eps, worst <= eps ? "within" : "EXCEEDED");
    }
    // v, the (prune+1)-th largest screened score; the exact scores of the
    // configurations screened at v - 2 eps or above.
    std::vector<float> sorted(y);
    std::nth_element(sorted.begin(), sorted.begin() + long(prune), sorted.end(),
                     std::greater<float>());
    const double v = sorted[prune];
    if (!std::isfinite(v))
      return SIZE_MAX;
    const double cut = v - 2 * eps * (1 + 1e-9);
    std::vector<uint32_t> keep;
    std::vector<GemmConfig> configs;
    for (size_t p = 0; p < n; ++p)
      if (!(double(y[p]) < cut)) { // NaN kept, which no bounded net has
        keep.push_back(uint32_t(p));
        configs.push_back(space->configAt(p));
      }
    std::vector<float> exact(configs.size());
    scoreList(0, configs, exact.data());
    std::fill(y.begin(), y.end(), -std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < keep.size(); ++i)
      y[keep[i]] = exact[i];
    lastEps = eps;
    return n - keep.size();
  }

  /// The bound of the last screen (ISAAC_SEARCH_TRACE).
  double lastEps = 0;

  /// Member `m`'s scores of `configs`.
  void scoreList(size_t m, const std::vector<GemmConfig> &configs, float *y) {
    Scorer sc(r.nets[m], first(m));
    float *x = sc.features();
    for (size_t base = 0; base < configs.size(); base += kLanes) {
      size_t cnt = std::min<size_t>(kLanes, configs.size() - base);
      for (size_t lane = 0; lane < kLanes; ++lane) {
        float g[kC];
        fb.fillConfigPart(configs[base + std::min(lane, cnt - 1)], g);
        for (int q = 0; q < kC; ++q)
          x[size_t(q) * kLanes + lane] = g[q];
      }
      sc.block(cnt, y + base, -std::numeric_limits<float>::infinity());
    }
  }

  /// scoreList of all of `configs` on the ranker's threads (the members'
  /// first layers are made here first, not concurrently).
  void scoreListThreaded(size_t m, const std::vector<GemmConfig> &configs,
                         float *y) {
    first(m);
    const size_t n = configs.size();
    constexpr size_t kChunk = 4096; // a multiple of kLanes
    const size_t chunks = (n + kChunk - 1) / kChunk;
    std::atomic<size_t> next{0};
    auto work = [&] {
      std::vector<GemmConfig> part;
      for (size_t c; (c = next.fetch_add(1)) < chunks;) {
        size_t b = c * kChunk, e = std::min(n, b + kChunk);
        part.assign(configs.begin() + long(b), configs.begin() + long(e));
        scoreList(m, part, y + b);
      }
    };
    size_t nThreads = n >= 65536 ? std::min<size_t>(r.threads, chunks) : 1;
    std::vector<std::thread> pool;
    for (size_t t = 1; t < nThreads; ++t)
      pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
      t.join();
  }

private:
  MLPRanker &r;
  std::shared_ptr<const SpaceIndex> space;
  std::shared_ptr<const std::vector<GemmConfig>> list;
  FeatureBuilder fb;
  std::vector<float> shapeF; ///< the model's shape features of the input
  std::vector<std::vector<TiledLayer>> firsts;
};

} // namespace isaac

TiledNet MLPRanker::tileNet(const MLPModel::Net &net,
                            const std::vector<int> &firstNegatives) {
  TiledNet t;
  t.layers = net.size();
  t.tiles.resize(t.layers);
  std::vector<int> ident;
  for (size_t l = 1; l < t.layers; ++l) {
    const MLPModel::Layer &L = net[l];
    ident.resize(size_t(L.out));
    std::iota(ident.begin(), ident.end(), 0);
    if (l + 2 < t.layers)
      t.tiles[l] = tileRowsOf(L.w.data(), L.b.data(), L.in, ident, 0, true);
  }
  if (t.layers < 2)
    return t;
  // The last hidden layer's reorder: the rows of positive output weight,
  // then `firstNegatives`, then the other rows, each part ascending.
  const MLPModel::Layer &out = net.back();
  std::vector<bool> taken(size_t(out.in), false);
  for (int r = 0; r < out.in; ++r)
    if (out.w[size_t(r)] > 0) {
      t.rowOf.push_back(r);
      taken[size_t(r)] = true;
    }
  for (int r : firstNegatives)
    if (!taken[size_t(r)]) {
      t.rowOf.push_back(r);
      taken[size_t(r)] = true;
    }
  t.nFirst = int(t.rowOf.size());
  for (int r = 0; r < out.in; ++r)
    if (!taken[size_t(r)])
      t.rowOf.push_back(r);
  // A sum of out.in + 1 terms: each operation (two without fused
  // multiply-adds) rounds by at most 2^-24 of the running sum's magnitude.
  const double g = 2.0 * double(out.in + 2) * 0x1p-24;
  t.outOrder.resize(size_t(out.in));
  std::vector<float> wOut(size_t(out.in));
  for (size_t i = 0; i < t.rowOf.size(); ++i) {
    double w = out.w[size_t(t.rowOf[i])];
    t.outOrder[size_t(t.rowOf[i])] = uint16_t(i);
    wOut[i] = float(w);
    if (int(i) < t.nFirst)
      t.wBound.push_back(w + g * std::fabs(w));
  }
  t.bBound = double(out.b[0]) + g * std::fabs(double(out.b[0]));
  t.tiles.back() = {
      tile(wOut.data(), out.b.data(), out.in, 1, kernel().rows, false)};
  size_t last = t.layers - 2;
  if (last > 0)
    t.tiles[last] = tileRowsOf(net[last].w.data(), net[last].b.data(),
                               net[last].in, t.rowOf, size_t(t.nFirst), true);
  // Interval bounds over every input the features can take (each in
  // [0, 64]: log2 of 64-bit sizes, or 0/1).
  std::vector<double> lo(size_t(net.front().in), 0.0),
      hi(size_t(net.front().in), 64.0);
  for (const MLPModel::Layer &L : net) {
    std::vector<double> nlo(size_t(L.out)), nhi(size_t(L.out));
    for (int o = 0; o < L.out; ++o) {
      double a = L.b[size_t(o)], z = a;
      for (int i = 0; i < L.in; ++i) {
        double w = L.w[size_t(o) * size_t(L.in) + size_t(i)];
        a += std::min(w * lo[size_t(i)], w * hi[size_t(i)]);
        z += std::max(w * lo[size_t(i)], w * hi[size_t(i)]);
      }
      nlo[size_t(o)] = std::max(a, 0.0);
      nhi[size_t(o)] = std::max(z, 0.0);
      t.bounded = std::fabs(a) < 1e30 && std::fabs(z) < 1e30;
      if (!t.bounded)
        return t;
    }
    lo.swap(nlo);
    hi.swap(nhi);
  }
  return t;
}

std::shared_ptr<const SpaceIndex>
MLPRanker::spaceFor(DType dtype, const ChipLimits &chip, unsigned vecMask) {
  MLPModel::SearchCache &cache = *model->searchCache_;
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto key = std::make_tuple(int(dtype), chip.chip, vecMask);
  auto it = cache.spaces.find(key);
  if (it != cache.spaces.end())
    return it->second;
  std::vector<std::vector<int>> support = model->support_;
  if (vecMask) {
    // The supported vec widths the mask admits (an empty list would admit
    // every width: an empty S instead).
    support.resize(gemmParamRanges().size());
    constexpr size_t kVec = 8; // vec's place in the legacy vector
    std::vector<int> vecs;
    for (int v : support[kVec].empty()
                     ? familyParamValues(GemmFamily::Simt, GemmParam::vec)
                     : support[kVec])
      if ((vecMask >> log2Of(v)) & 1u)
        vecs.push_back(v);
    if (vecs.empty()) {
      auto empty = std::make_shared<SpaceIndex>();
      empty->offset = {0};
      return cache.spaces[key] = empty;
    }
    support[kVec] = vecs;
  }
  return cache.spaces[key] = buildSpace(dtype, chip, support, threads);
}

std::shared_ptr<const std::vector<GemmConfig>>
MLPRanker::listFor(DType dtype, const ChipLimits &chip, unsigned vecMask) {
  MLPModel::SearchCache &cache = *model->searchCache_;
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto key = std::make_tuple(int(dtype), chip.chip, vecMask);
  auto it = cache.lists.find(key);
  if (it != cache.lists.end())
    return it->second;
  auto list = std::make_shared<std::vector<GemmConfig>>();
  // A conv model's list keeps what the conv kernel rules admit (they read
  // the configuration alone; the shape's rules are the vec mask).
  bool conv = model->op() == ModelOp::Conv;
  const std::vector<GemmConfig> &legal =
      legalConfigs(dtype, chip, model->family());
  // Marked first, then copied into a vector of the exact size (no growth).
  std::vector<uint8_t> take(legal.size());
  size_t count = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    const GemmConfig &c = legal[i];
    take[i] = (vecMask >> log2Of(c.vec)) & 1u && model->inSupport(c) &&
              (!conv || meetsConvKernelRules(c));
    count += take[i];
  }
  // Every legal configuration kept: the list is legalConfigs()'s own
  // (cached for the process, never freed), not a copy of its megabytes.
  if (count == legal.size())
    return cache.lists[key] = std::shared_ptr<const std::vector<GemmConfig>>(
               std::shared_ptr<void>(), &legal);
  list->reserve(count);
  for (size_t i = 0; i < legal.size(); ++i)
    if (take[i])
      list->push_back(legal[i]);
  return cache.lists[key] = list;
}

std::vector<float> MLPRanker::scores(const GemmShape &shape,
                                     const ChipLimits &chip, size_t member) {
  if (model->op() != ModelOp::Gemm)
    return {};
  Context ctx(*this, shape, chip);
  std::vector<float> y;
  ctx.scoreAll(std::min(member, nets.size() - 1), y);
  std::vector<uint32_t> order = ctx.legalOrder();
  std::vector<float> byLegal(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    byLegal[i] = y[order[i]];
  return byLegal;
}

std::vector<Ranked> MLPRanker::searchBest(const GemmShape &shape,
                                          const ChipLimits &chip, unsigned k,
                                          size_t *evaluated) {
  if (evaluated)
    *evaluated = 0;
  if (model->op() != ModelOp::Gemm)
    return {}; // a conv model ranks no GEMM
  const auto tStart = std::chrono::steady_clock::now();
  Context ctx(*this, shape, chip);
  return searchIn(ctx, shape, chip, /*conv=*/false, k, evaluated, tStart);
}

std::vector<Ranked> MLPRanker::searchConv(const ConvShape &shape,
                                          const ChipLimits &chip, unsigned k,
                                          size_t *evaluated) {
  if (evaluated)
    *evaluated = 0;
  if (model->op() != ModelOp::Conv)
    return {};
  const auto tStart = std::chrono::steady_clock::now();
  // The vec widths the conv rules admit on this shape (they read the
  // family and vec of a configuration only).
  unsigned vecMask = 0;
  for (int v : familyParamValues(model->family(), GemmParam::vec)) {
    GemmConfig probe;
    probe.family = model->family();
    probe.vec = v;
    if (meetsConvRules(probe, shape))
      vecMask |= 1u << log2Of(v);
  }
  if (!vecMask)
    return {};
  Context ctx(*this, shape, chip, vecMask);
  return searchIn(ctx, shape.gemmShape(), chip, /*conv=*/true, k, evaluated,
                  tStart);
}

std::vector<Ranked>
MLPRanker::searchIn(Context &ctx, const GemmShape &shape,
                    const ChipLimits &chip, bool conv, unsigned k,
                    size_t *evaluated,
                    std::chrono::steady_clock::time_point tStart) {
  const size_t members = model->folded_.size();
  // The other pipeline depths the model ranks (simt's extra feature).
  std::vector<int> depths;
  if (gemmParamExtraFeature(model->family(), GemmParam::stages))
    for (int st : model->stagesSupport())
      if (st != gemmParamInfo(GemmParam::stages).defaultValue)
        depths.push_back(st);
  // Appends the legal variants of `c` at those depths to `out`.
  auto variantsOf = [&](const GemmConfig &c, std::vector<GemmConfig> &out) {
    for (int st : depths) {
      GemmConfig v = c;
      v.stages = st;
      if (isLegal(v, shape.dtype, chip) && (!conv || meetsConvKernelRules(v)))
        out.push_back(v);
    }
  };
  // The ensemble's mean on `list`, every member through scoreList.
  auto ensembleOn = [&](const std::vector<GemmConfig> &list) {
    std::vector<std::vector<float>> outs(members,
                                         std::vector<float>(list.size()));
    for (size_t m = 0; m < members; ++m)
      ctx.scoreListThreaded(m, list, outs[m].data());
    return outs;
  };
  auto clock = [] { return std::chrono::steady_clock::now(); };
  const auto tSpace = clock();
  auto tScored = tSpace;
  const size_t n = ctx.size();
  // MLPModel::forwardMean's combination of the members' outputs.
  auto mean = [&](const std::vector<std::vector<float>> &outs, float *y,
                  size_t cnt) {
    for (size_t mi = 0; mi < outs.size(); ++mi)
      for (size_t b = 0; b < cnt; ++b)
        y[b] = mi == 0 ? outs[mi][b] : y[b] + outs[mi][b];
    if (outs.size() > 1) {
      const float scale = 1.0f / float(outs.size());
      for (size_t b = 0; b < cnt; ++b)
        y[b] *= scale;
    }
  };

  TopK best(k);
  size_t count = 0, prunedConfigs = 0;
  std::string screenBound; // for the trace
  bool tieAtCut = false;
  // searchBest's step for one configuration of predicted log2 TFLOPS `y`.
  auto offer = [&](const GemmConfig &c, float y) {
    if (splitsKUselessly(shape, c))
      return;
    double t = MLPModel::seconds(shape, y);
    if (std::isinf(t))
      return;
    ++count;
    best.offer(c, t);
  };
  // Positions sorted into the order of legalConfigs().
  auto sortLegal = [&](std::vector<uint32_t> &pos) {
    std::vector<std::pair<uint64_t, uint32_t>> keyed;
    for (uint32_t p : pos)
      keyed.push_back({ctx.orderKey(p), p});
    std::sort(keyed.begin(), keyed.end());
    for (size_t i = 0; i < pos.size(); ++i)
      pos[i] = keyed[i].second;
  };

  if (members > 1 && prescreen > 0 && n > prescreen) {
    // The pre-screen: the first member scores S, the ensemble its
    // `prescreen` best. Only the best P + 1 first-member scores matter:
    // configurations proven to score below them are left at -infinity.
    const size_t P = prescreen;
    std::vector<float> y0;
    const size_t keep = model->screenKeep();
    const bool screened = keep > P && n > keep;
    std::vector<uint32_t> kept; // with the screen: the first member's
    std::vector<float> keptY;   // positions and their scores
    prunedConfigs = SIZE_MAX;
    if (screened) {
      // The screen network scores S; the first member only its `keep`
      // best (the others stay at -infinity, not ranked).
      const size_t screenNet = members;
      std::vector<float> ys;
      prunedConfigs = ctx.scoreAll(screenNet, ys);
      // Every configuration scoring at least the keep-th largest score
      // (ties at the cut all kept: no order decides), NaN none; all of
      // them where at most `keep` are numbers.
      const std::vector<uint32_t> keys = largestKeys(ys, keep);
      const uint32_t cut = keys.empty() ? 0 : keys[keep - 1];
      for (size_t p = 0; p < n; ++p)
        if (!std::isnan(ys[p]) && floatKey(ys[p]) >= cut)
          kept.push_back(uint32_t(p));
      const double screenMs =
          std::chrono::duration<double, std::milli>(clock() - tSpace).count();
      // `kept` is in the order of positions: blocks of the list share their
      // group (ML, NL, U, KG), hence inputs at zero the kernel skips.
      std::vector<GemmConfig> configs(kept.size());
      for (size_t i = 0; i < kept.size(); ++i)
        configs[i] = ctx.configAt(kept[i]);
      keptY.resize(kept.size());
      ctx.scoreListThreaded(0, configs, keptY.data());
      y0.assign(n, -std::numeric_limits<float>::infinity());
      for (size_t i = 0; i < kept.size(); ++i)
        y0[kept[i]] = keptY[i];
      char buf[128];
      std::snprintf(buf, sizeof buf,
                    "; screen network kept %zu of its best %zu, its scores "
                    "%.1f ms",
                    kept.size(), keep, screenMs);
      screenBound = buf;
    } else {
      // One hidden layer: the split-sum screen (Context::screen). Deeper
      // networks: scoreAll's exact scores with the bound on the last
      // hidden layer (their hidden layers leave no such split).
      const TiledNet &net0 = nets[0];
      if (net0.layers == 2 && net0.bounded) {
        prunedConfigs = ctx.screen(y0, P);
        if (prunedConfigs != SIZE_MAX)
          screenBound = "; screened, bound " + std::to_string(ctx.lastEps);
      }
      if (prunedConfigs == SIZE_MAX)
        prunedConfigs = ctx.scoreAll(0, y0, P);
    }
    tScored = clock();
    // The positions of the P best first-member scores. With the screen
    // they are among the kept ones (the others stay at -infinity, not
    // ranked). On a tie across the cut (or a NaN) the set is what
    // std::nth_element makes of the scores in the order of S, as the
    // reference does: on all of them (without the screen, the pruned ones
    // scored exactly first).
    std::vector<uint32_t> T;
    if (screened) {
      T = determinedLargest(keptY, P);
      for (uint32_t &i : T)
        i = kept[i];
    } else {
      T = determinedLargest(y0, P);
    }
    if (T.size() != P) {
      if (!screened)
        ctx.scoreAll(0, y0);
      tieAtCut = true;
      std::vector<uint32_t> legal = ctx.legalOrder();
      std::vector<float> y(n);
      for (size_t i = 0; i < n; ++i)
        y[i] = y0[legal[i]];
      std::vector<uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::nth_element(order.begin(), order.begin() + long(P), order.end(),
                       [&](uint32_t a, uint32_t b) { return y[a] > y[b]; });
      T.clear();
      for (size_t i = 0; i < P; ++i)
        T.push_back(legal[order[i]]);
    }
    sortLegal(T);
    // The ensemble's mean on T (the first member's scores are y0's), then
    // searchBest over T in the order of S.
    std::vector<GemmConfig> configs(P);
    std::vector<std::vector<float>> outs(members, std::vector<float>(P));
    for (size_t i = 0; i < P; ++i) {
      configs[i] = ctx.configAt(T[i]);
      outs[0][i] = y0[T[i]];
    }
    // The other members, on up to `threads` threads (their first layers
    // are tiled here first, not concurrently).
    for (size_t m = 1; m < members; ++m)
      ctx.first(m);
    std::atomic<size_t> nextMember{1};
    auto scoreMembers = [&] {
      for (size_t m; (m = nextMember.fetch_add(1)) < members;)
        ctx.scoreList(m, configs, outs[m].data());
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < std::min<size_t>(threads, members - 1); ++t)
      pool.emplace_back(scoreMembers);
    scoreMembers();
    for (std::thread &t : pool)
      t.join();
    std::vector<float> ty(P);
    mean(outs, ty.data(), P);
    // The other depths of T's configurations (variantsOf), each after its
    // configuration.
    std::vector<GemmConfig> variants;
    std::vector<size_t> firstVariant(P + 1, 0);
    for (size_t i = 0; i < P; ++i) {
      firstVariant[i] = variants.size();
      variantsOf(configs[i], variants);
    }
    firstVariant[P] = variants.size();
    std::vector<float> vy(variants.size());
    if (!variants.empty())
      mean(ensembleOn(variants), vy.data(), variants.size());
    for (size_t i = 0; i < P; ++i) {
      offer(configs[i], ty[i]);
      for (size_t v = firstVariant[i]; v < firstVariant[i + 1]; ++v)
        offer(variants[v], vy[v]);
    }
  } else {
    // The ensemble ranks all of S.
    std::vector<std::vector<float>> outs(members);
    for (size_t m = 0; m < members; ++m)
      ctx.scoreAll(m, outs[m]);
    std::vector<float> y(n);
    mean(outs, y.data(), n);
    outs.clear();
    // The other depths of every configuration (variantsOf): ranked by
    // position, each after its configuration.
    std::vector<GemmConfig> variants;
    std::vector<size_t> firstVariant;
    std::vector<float> vy;
    if (!depths.empty()) {
      firstVariant.assign(n + 1, 0);
      for (size_t p = 0; p < n; ++p) {
        firstVariant[p] = variants.size();
        variantsOf(ctx.configAt(p), variants);
      }
      firstVariant[n] = variants.size();
      vy.resize(variants.size());
      if (!variants.empty())
        mean(ensembleOn(variants), vy.data(), variants.size());
    }
    // searchBest over S in its order. A configuration whose score is below
    // the k-th largest (among those searchBest ranks) by more than 1e-6
    // takes strictly longer (by a factor 2^1e-6 at least) than k others,
    // so it cannot be among the k best: it is counted, not offered. (Only
    // where the scores are ordinary numbers; else every one is offered.)
    std::vector<float> ranked;
    bool nan = false;
    for (size_t p = 0; p < n; ++p) {
      nan |= std::isnan(y[p]);
      if (!splitsKUselessly(shape, ctx.configAt(p)))
        ranked.push_back(y[p]);
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      nan |= std::isnan(vy[v]);
      if (!splitsKUselessly(shape, variants[v]))
        ranked.push_back(vy[v]);
    }
    float cut = -std::numeric_limits<float>::infinity();
    if (!nan && k > 0 && ranked.size() >= k) {
      std::nth_element(ranked.begin(), ranked.begin() + long(k - 1),
                       ranked.end(), std::greater<float>());
      float yk = ranked[k - 1];
      if (std::isfinite(yk) && std::fabs(yk) <= 500)
        cut = yk - 1e-6f;
    }
    // Offers `c` of score `yc`, or counts it below the cut.
    auto offerOrCount = [&](const GemmConfig &c, float yc) {
      if (!(yc < cut))
        offer(c, yc);
      else if (!splitsKUselessly(shape, c) &&
               !std::isinf(MLPModel::seconds(shape, yc)))
        ++count;
    };
    if (variants.empty()) {
      std::vector<uint32_t> offered;
      for (size_t p = 0; p < n; ++p) {
        if (!(y[p] < cut)) {
          offered.push_back(uint32_t(p));
          continue;
        }
        offerOrCount(ctx.configAt(p), y[p]);
      }
      sortLegal(offered);
      for (uint32_t p : offered)
        offer(ctx.configAt(p), y[p]);
    } else {
      for (uint32_t p : ctx.legalOrder()) {
        offerOrCount(ctx.configAt(p), y[p]);
        for (size_t v = firstVariant[p]; v < firstVariant[p + 1]; ++v)
          offerOrCount(variants[v], vy[v]);
      }
    }
  }
  if (evaluated)
    *evaluated = count;
  // ISAAC_SEARCH_TRACE=1: one line per search on stderr (tests check that
  // the pruning and the tie path are taken).
  static const bool trace = [] {
    const char *v = std::getenv("ISAAC_SEARCH_TRACE");
    return v && *v && std::string(v) != "0";
  }();
  if (trace) {
    auto ms = [](auto a, auto b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    const auto tEnd = clock();
    std::fprintf(stderr,
                 "isaac-search: %zu configurations, %zu pruned, tie at the "
                 "cut: %s; %.1f ms: space %.1f, first member %.1f, rest "
                 "%.1f%s\n",
                 n, prunedConfigs, tieAtCut ? "yes" : "no", ms(tStart, tEnd),
                 ms(tStart, tSpace), ms(tSpace, tScored), ms(tScored, tEnd),
                 screenBound.c_str());
  }
  return best.take();
}

CostFn isaac::makeMLPCost(std::shared_ptr<const MLPModel> model,
                          const ChipLimits &chip, size_t prescreen,
                          unsigned threads) {
  (void)chip; // searchBest says which chip to search for
  return RankerCost{
      std::make_shared<MLPRanker>(std::move(model), prescreen, threads)};
}

std::vector<float> isaac::scoreLegalSpace(std::shared_ptr<const MLPModel> model,
                                          const GemmShape &shape,
                                          const ChipLimits &chip, size_t member,
                                          unsigned threads) {
  return MLPRanker(std::move(model), kEnsemblePrescreen, threads)
      .scores(shape, chip, member);
}

ConvMLPSearch::ConvMLPSearch(std::shared_ptr<const MLPModel> model,
                             size_t prescreen, unsigned threads)
    : ranker(
          std::make_shared<MLPRanker>(std::move(model), prescreen, threads)) {}

std::vector<Ranked> ConvMLPSearch::search(const ConvShape &shape,
                                          const ChipLimits &chip, unsigned k,
                                          size_t *evaluated) const {
  return ranker->searchConv(shape, chip, k, evaluated);
}

const MLPModel &ConvMLPSearch::model() const { return ranker->getModel(); }
