//===- ConvModelTest.cpp - The conv models' tools of isaac-model-test -----===//
//
//   isaac-model-test conv-synthetic SEED ROWS PER_SHAPE TYPES [CHIP]
//       a SYNTHETIC conv dataset (docs/tuning.md, "Convolution datasets"):
//       random convolutions of the sampler's distribution (drawConvInput),
//       PER_SHAPE random configurations each that are legal for it, timed
//       by the analytic model on the implicit GEMM times log-normal noise
//       (sigma 0.1); 1% of the rows, and those the analytic model cannot
//       run, are failed rows. For tests and trying train.py without a GPU.
//   isaac-model-test mlp-check CONV_MODEL VECTORS
//       train.py --vectors of a conv model: C++ features and predictions
//       against train.py's (runConvMLPCheck).
//   isaac-model-test conv-shapes FILE
//       each convolution of a --conv-shape file as its 15-field text and
//       its label (the comment after it), for scripts.
//   isaac-model-test conv-random-configs SEED N TYPES LAYOUT SHAPE [CHIP
//                                        [FAMILY]]
//       N distinct configurations drawn uniformly from the legal space of
//       the convolution SHAPE (--conv-shape text) of TYPES and LAYOUT (in
//       the family searchBestConv searches, or FAMILY: wgmma), as
//       #isaac.gemm<...> lines (the held-out evaluation's random
//       candidates).
//   isaac-model-test conv-mlp-topk-diff MODEL SHAPES|random:N [K [PRESCREEN]]
//       ConvMLPSearch (one thread and every core) against the
//       straightforward algorithm (referenceConvSearch): the same top K,
//       the same costs, the same count of ranked configurations.
//
//===----------------------------------------------------------------------===//

#include "ConvModelTest.h"

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/ConvSuites.h"
#include "isaac/Model/Features.h"
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
#include <sstream>
#include <string>
#include <vector>

using namespace isaac;

namespace {

int passed = 0, failed = 0;

void expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

double flopsOf(const ConvShape &x) {
  return 2.0 * double(x.n * x.p * x.q) * double(x.k) * double(x.c * x.r * x.s);
}

/// A random convolution of the sampler's distribution within its bounds
/// (isaac-tune sample --op conv's filters, but not the legality for a
/// kernel: the caller picks configurations for it).
ConvShape randomConv(std::mt19937_64 &rng, const GemmTypes &types,
                     ConvLayout layout) {
  for (;;) {
    ConvShape x;
    if (!drawConvInput(rng, x))
      continue;
    x.types = types;
    x.layout = layout;
    double flops = flopsOf(x);
    if (x.validate().empty() && flops >= 1e6 && flops <= 1e11)
      return x;
  }
}

int runConvSynthetic(unsigned seed, long rows, long perShape,
                     const std::string &typesToken,
                     const std::string &chipName) {
  std::optional<ChipLimits> chip = getChipLimits(chipName);
  std::optional<GemmTypes> types = GemmTypes::parseToken(typesToken);
  if (!chip || !types || types->tf32 || rows < 1 || perShape < 1) {
    std::fprintf(stderr, "conv-synthetic: bad chip, types or counts\n");
    return 2;
  }
  GemmFamily family = searchFamily(types->ab, false, *chip);
  const std::vector<GemmConfig> &space = legalConfigs(types->ab, *chip, family);
  std::mt19937_64 rng(seed);
  auto unit = [&] { return double(rng() >> 11) * 0x1.0p-53; };
  auto gauss = [&] { // Box-Muller, deterministic across libraries
    double u1 = unit(), u2 = unit();
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2 * M_PI * u2);
  };
  std::printf("# synthetic dataset: analytic model x log-normal noise, NOT "
              "GPU measurements\n");
  std::printf("# generator: isaac-model-test conv-synthetic %u %ld %ld %s "
              "%s\n",
              seed, rows, perShape, typesToken.c_str(), chipName.c_str());
  std::printf("kernel,dtype,layout,n,h,w,c,k,r,s,p,q,stride_h,stride_w,"
              "dilation_h,dilation_w,pad_top,pad_left,family");
  for (const GemmParamInfo &p : kGemmParams)
    std::printf(",%s", p.name);
  std::printf(",time_us,tflops,status\n");
  long written = 0;
  int layoutIndex = 0;
  while (written < rows) {
    ConvLayout layout =
        layoutIndex++ % 2 ? ConvLayout::NhwcFhwc : ConvLayout::NhwcHwcf;
    ConvShape x = randomConv(rng, *types, layout);
    GemmShape g = x.gemmShape();
    for (long j = 0; j < perShape && written < rows; ++j) {
      const GemmConfig *c;
      do {
        c = &space[rng() % space.size()];
      } while (!isConvLegal(*c, x, *chip) ||
               (c->kg > 1 && c->kg > (g.k + c->u - 1) / c->u));
      double sec = analyticCost(g, *c, *chip) * std::exp(0.1 * gauss());
      bool fail = !std::isfinite(sec) || unit() < 0.01;
      ConvKernelName name;
      name.types = *types;
      name.layout = layout;
      name.config = *c;
      std::printf(
          "%s,%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
          "%lld,%lld,%lld,%lld,%lld,%lld,%s",
          name.str().c_str(), types->token().c_str(), convLayoutName(layout),
          (long long)x.n, (long long)x.h, (long long)x.w, (long long)x.c,
          (long long)x.k, (long long)x.r, (long long)x.s, (long long)x.p,
          (long long)x.q, (long long)x.strideH, (long long)x.strideW,
          (long long)x.dilationH, (long long)x.dilationW, (long long)x.padTop,
          (long long)x.padLeft, gemmFamilyName(c->family));
      for (const GemmParamInfo &p : kGemmParams)
        std::printf(",%d", c->get(p.param));
      std::printf(",%.4f,%.6g,%s\n", fail ? 0.0 : sec * 1e6,
                  fail ? 0.0 : flopsOf(x) / sec / 1e12,
                  fail ? (std::isfinite(sec) ? "jit-error" : "launch-error")
                       : "ok");
      ++written;
    }
  }
  return 0;
}

/// A conv model and the limits of its chip; null after a message.
std::shared_ptr<MLPModel> loadConvModel(const char *path,
                                        std::optional<ChipLimits> &chip) {
  std::string err;
  std::shared_ptr<MLPModel> m = MLPModel::load(path, err);
  if (!m) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return nullptr;
  }
  if (m->op() != ModelOp::Conv) {
    std::fprintf(stderr, "error: %s is not a conv model\n", path);
    return nullptr;
  }
  chip = getChipLimits(m->chip());
  if (!chip) {
    std::fprintf(stderr, "error: unknown chip %s\n", m->chip().c_str());
    return nullptr;
  }
  return m;
}

/// The types of a conv model's convolutions: operands and output of its
/// dtype.
GemmTypes modelTypes(const MLPModel &m) {
  GemmTypes t;
  t.ab = m.dtype();
  t.c = m.dtype();
  return t;
}

/// The inputs of `spec`: `random:N` convolutions of the sampler's
/// distribution (seed 1), or a file of --conv-shape lines, each in both
/// layouts.
bool readConvInputs(const std::string &spec, const GemmTypes &types,
                    std::vector<ConvShape> &out) {
  if (spec.rfind("random:", 0) == 0) {
    long n = std::atol(spec.c_str() + 7);
    std::mt19937_64 rng(1);
    for (long i = 0; i < n; ++i)
      out.push_back(randomConv(
          rng, types, i % 2 ? ConvLayout::NhwcFhwc : ConvLayout::NhwcHwcf));
    return n > 0;
  }
  std::vector<ConvSpec> specs;
  std::string error;
  if (!readConvShapesFile(spec, specs, error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return false;
  }
  for (const ConvSpec &s : specs)
    for (ConvLayout l : {ConvLayout::NhwcHwcf, ConvLayout::NhwcFhwc}) {
      ConvShape x = s.shape;
      x.types = types;
      x.layout = l;
      out.push_back(x);
    }
  return !out.empty();
}

/// The definition of ConvMLPSearch::search: S = the configurations of
/// legalConfigs(dtype, chip, family) that isConvLegal admits and the
/// support holds, in that order; the first member predicts S, the
/// ensemble's mean its `prescreen` best (std::nth_element's set), the k
/// fastest of those are kept (useless K splits skipped, ties in the order
/// of S). `ranked`: how many configurations it ranked.
std::vector<Ranked> referenceConvSearch(const MLPModel &model,
                                        const ChipLimits &chip,
                                        const ConvShape &x, unsigned k,
                                        size_t prescreen, size_t &ranked) {
  std::vector<GemmConfig> inside;
  for (const GemmConfig &c :
       legalConfigs(x.types.ab, chip, searchFamily(x.types.ab, false, chip)))
    if (model.inSupport(c) && isConvLegal(c, x, chip))
      inside.push_back(c);
  size_t n = inside.size();
  std::vector<float> y(n);
  if (model.numMembers() == 1 || prescreen == 0 || n <= prescreen) {
    model.predictConv(x, inside.data(), n, y.data());
  } else {
    model.predictConv(x, inside.data(), n, y.data(), 0, 1);
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i)
      order[i] = uint32_t(i);
    std::nth_element(order.begin(), order.begin() + long(prescreen),
                     order.end(),
                     [&](uint32_t a, uint32_t b) { return y[a] > y[b]; });
    order.resize(prescreen);
    std::sort(order.begin(), order.end());
    std::vector<GemmConfig> top(prescreen);
    for (size_t i = 0; i < prescreen; ++i)
      top[i] = inside[order[i]];
    std::vector<float> ty(prescreen);
    model.predictConv(x, top.data(), prescreen, ty.data());
    std::fill(y.begin(), y.end(), -std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < prescreen; ++i)
      y[order[i]] = ty[i];
  }
  GemmShape g = x.gemmShape();
  ranked = 0;
  std::vector<Ranked> best;
  for (size_t i = 0; i < n; ++i) {
    const GemmConfig &c = inside[i];
    if (splitsKUselessly(g, c))
      continue;
    double t = MLPModel::seconds(g, y[i]);
    if (std::isinf(t))
      continue;
    ++ranked;
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
  return best;
}

int runConvMLPTopKDiff(const char *path, const char *shapes, unsigned k,
                       size_t prescreen) {
  std::optional<ChipLimits> chip;
  std::shared_ptr<MLPModel> model = loadConvModel(path, chip);
  std::vector<ConvShape> list;
  if (!model || !readConvInputs(shapes, modelTypes(*model), list))
    return 1;
  ConvMLPSearch one(model, prescreen, 1), all(model, prescreen);
  double tRef = 0, tFast = 0;
  size_t same = 0, totalRanked = 0;
  for (const ConvShape &x : list) {
    auto t0 = std::chrono::steady_clock::now();
    size_t refRanked = 0;
    std::vector<Ranked> ref =
        referenceConvSearch(*model, *chip, x, k, prescreen, refRanked);
    auto t1 = std::chrono::steady_clock::now();
    size_t fastRanked = 0, serialRanked = 0;
    std::vector<Ranked> fast = all.search(x, *chip, k, &fastRanked);
    auto t2 = std::chrono::steady_clock::now();
    std::vector<Ranked> serial = one.search(x, *chip, k, &serialRanked);
    tRef += std::chrono::duration<double>(t1 - t0).count();
    tFast += std::chrono::duration<double>(t2 - t1).count();
    bool eq = ref.size() == fast.size() && ref.size() == serial.size() &&
              refRanked == fastRanked && refRanked == serialRanked;
    for (size_t i = 0; eq && i < ref.size(); ++i)
      eq = ref[i].config == fast[i].config && ref[i].cost == fast[i].cost &&
           ref[i].config == serial[i].config && ref[i].cost == serial[i].cost;
    // Every configuration returned is legal for the convolution.
    for (const Ranked &r : fast)
      eq = eq && isConvLegal(r.config, x, *chip);
    same += eq;
    totalRanked += refRanked;
    if (!eq) {
      std::printf("DIFFERS: %s (ranked %zu, search %zu)\n  reference:",
                  x.str().c_str(), refRanked, fastRanked);
      for (const Ranked &r : ref)
        std::printf(" %s", r.config.mangle().c_str());
      std::printf("\n  search:   ");
      for (const Ranked &r : fast)
        std::printf(" %s", r.config.mangle().c_str());
      std::printf("\n");
    }
  }
  std::printf("%zu convolutions, top %u, prescreen %zu: identical on %zu; "
              "%.0f configurations ranked per convolution; %.3f s "
              "(reference) vs %.3f s per convolution\n",
              list.size(), k, prescreen, same,
              double(totalRanked) / double(list.size()),
              tRef / double(list.size()), tFast / double(list.size()));
  return same == list.size() ? 0 : 1;
}

/// N distinct configurations drawn uniformly from the convolution's legal
/// space (searchBestConv's: the family of its types, the conv rules, no
/// useless K split), for the held-out evaluation's random candidates.
int runConvRandomConfigs(unsigned seed, long n, const std::string &typesToken,
                         const std::string &layoutToken,
                         const std::string &shapeText,
                         const std::string &chipName,
                         const std::string &familyName) {
  std::optional<ChipLimits> chip = getChipLimits(chipName);
  std::optional<GemmTypes> types = GemmTypes::parseToken(typesToken);
  std::optional<ConvLayout> layout = parseConvLayout(layoutToken);
  ConvSpec spec;
  std::string error;
  if (!chip || !types || !layout || n < 0 ||
      !parseConvShape(shapeText, spec, error)) {
    std::fprintf(stderr,
                 "conv-random-configs: bad chip, types, layout, "
                 "count or shape%s%s\n",
                 error.empty() ? "" : ": ", error.c_str());
    return 2;
  }
  GemmFamily family = searchFamily(types->ab, false, *chip);
  if (!familyName.empty()) {
    std::optional<GemmFamily> f = parseGemmFamily(familyName);
    if (!f) {
      std::fprintf(stderr, "conv-random-configs: bad family '%s'\n",
                   familyName.c_str());
      return 2;
    }
    family = *f;
  }
  ConvShape x = spec.shape;
  x.types = *types;
  x.layout = *layout;
  GemmShape g = x.gemmShape();
  std::vector<GemmConfig> legal;
  for (const GemmConfig &c : legalConfigs(types->ab, *chip, family))
    if (isConvLegal(c, x, *chip) && !splitsKUselessly(g, c))
      legal.push_back(c);
  if (legal.size() < size_t(n)) {
    std::fprintf(stderr, "conv-random-configs: only %zu legal configurations\n",
                 legal.size());
    return 1;
  }
  std::mt19937_64 rng(seed);
  std::vector<bool> taken(legal.size(), false);
  for (long i = 0; i < n;) {
    size_t j = size_t(uniformIndex(rng, legal.size()));
    if (taken[j])
      continue;
    taken[j] = true;
    std::printf("#isaac.gemm<%s>\n", legal[j].str().c_str());
    ++i;
  }
  return 0;
}

/// Each convolution of a --conv-shape file as `TEXT LABEL` (the 15-field
/// text of convShapeText, P and Q resolved): scripts read the files
/// through the C++ parser.
int runConvShapes(const std::string &path) {
  std::vector<ConvSpec> specs;
  std::string error;
  if (!readConvShapesFile(path, specs, error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  for (const ConvSpec &s : specs)
    std::printf("%s %s\n", convShapeText(s.shape).c_str(),
                s.label.empty() ? "-" : s.label.c_str());
  return 0;
}

} // namespace

int runConvMLPCheck(const MLPModel &model, const char *vecPath) {
  std::ifstream in(vecPath);
  std::string line;
  if (!in || !std::getline(in, line) || line != "isaac-mlp-conv-vectors 1") {
    std::fprintf(stderr, "error: %s: not a conv vectors file\n", vecPath);
    return 1;
  }
  struct Vec {
    ConvShape shape;
    GemmConfig c;
    float f[kNumConvFeatures];
    double y;
  };
  const std::array<GemmParam, 9> &params = featureParams(model.family());
  std::vector<Vec> vecs;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream is(line);
    std::string tag, layout;
    Vec v;
    ConvShape &x = v.shape;
    x.types = modelTypes(model);
    is >> tag >> layout >> x.n >> x.h >> x.w >> x.c >> x.k >> x.r >> x.s >>
        x.p >> x.q >> x.strideH >> x.strideW >> x.dilationH >> x.dilationW >>
        x.padTop >> x.padLeft;
    v.c.family = model.family();
    for (GemmParam p : params) {
      int value = 0;
      is >> value;
      v.c.set(p, value);
    }
    for (float &f : v.f)
      is >> f;
    is >> v.y;
    std::optional<ConvLayout> l = parseConvLayout(layout);
    if (!is || tag != "v" || !l) {
      std::fprintf(stderr, "error: %s: malformed line: %s\n", vecPath,
                   line.c_str());
      return 1;
    }
    x.layout = *l;
    vecs.push_back(v);
  }
  auto relErr = [](double a, double b) {
    return std::fabs(a - b) / std::max(1.0, std::fabs(b));
  };
  const char *const *names = convFeatureNames(model.family());
  double maxFeat = 0;
  std::vector<float> feats(vecs.size() * kNumConvFeatures);
  for (size_t i = 0; i < vecs.size(); ++i) {
    float *f = &feats[i * kNumConvFeatures];
    computeConvFeatures(vecs[i].shape, vecs[i].c, model.numSMs(), f);
    for (int j = 0; j < kNumConvFeatures; ++j) {
      double e = relErr(f[j], vecs[i].f[j]);
      maxFeat = std::max(maxFeat, e);
      expect(e <= 1e-6, "vector " + std::to_string(i) + " feature " + names[j] +
                            ": C++ " + std::to_string(f[j]) + ", train.py " +
                            std::to_string(vecs[i].f[j]));
    }
  }
  // Predictions: from raw features; batched per shape (predictConv, the
  // shape's features folded into the first layer); one at a time.
  std::vector<float> y1(vecs.size()), y2(vecs.size());
  model.predictFeatures(feats.data(), vecs.size(), y1.data());
  for (size_t i = 0; i < vecs.size();) {
    size_t j = i;
    std::vector<GemmConfig> cs;
    while (j < vecs.size() && vecs[j].shape.str() == vecs[i].shape.str())
      cs.push_back(vecs[j++].c);
    model.predictConv(vecs[i].shape, cs.data(), cs.size(), &y2[i]);
    i = j;
  }
  double maxPred = 0;
  for (size_t i = 0; i < vecs.size(); ++i) {
    float one = 0;
    model.predictConv(vecs[i].shape, &vecs[i].c, 1, &one);
    double e1 = relErr(y1[i], vecs[i].y), e2 = relErr(y2[i], vecs[i].y);
    maxPred = std::max({maxPred, e1, e2});
    expect(e1 <= 1e-4, "vector " + std::to_string(i) + ": predicted " +
                           std::to_string(y1[i]) + ", train.py " +
                           std::to_string(vecs[i].y));
    expect(e2 <= 1e-4, "vector " + std::to_string(i) + ": batched " +
                           std::to_string(y2[i]) + ", train.py " +
                           std::to_string(vecs[i].y));
    expect(relErr(one, y2[i]) <= 1e-5,
           "vector " + std::to_string(i) + ": one at a time " +
               std::to_string(one) + ", batched " + std::to_string(y2[i]));
  }
  std::printf("%zu conv vectors (%s features): max feature error %.2g, max "
              "prediction error %.2g (relative to max(1, |y|))\n",
              vecs.size(), gemmFamilyName(model.family()), maxFeat, maxPred);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed || vecs.empty() ? 1 : 0;
}

int runConvModelCommand(int argc, char **argv) {
  if ((argc == 6 || argc == 7) && std::strcmp(argv[1], "conv-synthetic") == 0)
    return runConvSynthetic(unsigned(std::atoi(argv[2])), std::atol(argv[3]),
                            std::atol(argv[4]), argv[5],
                            argc == 7 ? argv[6] : "sm_90");
  if (argc == 3 && std::strcmp(argv[1], "conv-shapes") == 0)
    return runConvShapes(argv[2]);
  if (argc >= 7 && argc <= 9 &&
      std::strcmp(argv[1], "conv-random-configs") == 0)
    return runConvRandomConfigs(
        unsigned(std::atoi(argv[2])), std::atol(argv[3]), argv[4], argv[5],
        argv[6], argc >= 8 ? argv[7] : "sm_90", argc == 9 ? argv[8] : "");
  if (argc >= 4 && argc <= 6 && std::strcmp(argv[1], "conv-mlp-topk-diff") == 0)
    return runConvMLPTopKDiff(
        argv[2], argv[3], argc >= 5 ? unsigned(std::atoi(argv[4])) : 10,
        argc == 6 ? size_t(std::atoll(argv[5])) : kEnsemblePrescreen);
  return -1;
}
