//===- ConvTest.cpp - isaac-conv-test: ConvShape, conv legality, names ----===//
//
// Command-line checks of the MLIR-free convolution model (lit:
// test/Model/conv-*.test):
//
//   isaac-conv-test shape KEY=VALUE...
//       the shape, its implicit GEMM and the padding after; or why it is
//       not valid (exit 1).
//   isaac-conv-test legality CONFIG KEY=VALUE...
//       every rule CONFIG (#isaac.gemm text) breaks for the shape on the
//       chip (chip=, default sm_90), or `legal`.
//   isaac-conv-test search TOPK KEY=VALUE...
//       the TOPK best configurations of the analytic model, each checked
//       legal for the convolution.
//   isaac-conv-test name NAME
//       the parts of a conv kernel name, or what was expected.
//   isaac-conv-test names
//       kernel-name round trips over every 64th configuration of the legal
//       simt space of f32 and f64 (and its last), every layout; exit 1 on
//       the first mismatch.
//
// Shape keys: n h w c k r s (sizes), p q (default: the output size with
// the padding before repeated after), stride=HxW, dilation=HxW, pad=TxL
// (top, left), layout=nhwc_hwcf|nhwc_fhwc|nchw_fchw, types=f32|f64|...,
// chip=sm_90.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/AnalyticModel.h"
#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/ConvShape.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace isaac;

namespace {

struct Args {
  ConvShape shape;
  std::string chip = "sm_90";
};

bool parsePair(const std::string &v, int64_t &a, int64_t &b) {
  size_t x = v.find('x');
  if (x == std::string::npos)
    return false;
  char *end = nullptr;
  a = std::strtoll(v.c_str(), &end, 10);
  if (end != v.c_str() + x)
    return false;
  b = std::strtoll(v.c_str() + x + 1, &end, 10);
  return *end == '\0' && x + 1 < v.size();
}

/// Parses KEY=VALUE arguments into `out`; false (with a message) on an
/// unknown key or a malformed value.
bool parseArgs(int argc, char **argv, Args &out) {
  ConvShape &s = out.shape;
  bool haveP = false, haveQ = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    size_t eq = a.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "error: expected KEY=VALUE, got '%s'\n", a.c_str());
      return false;
    }
    std::string key = a.substr(0, eq), v = a.substr(eq + 1);
    auto num = [&](int64_t &dst) {
      char *end = nullptr;
      dst = std::strtoll(v.c_str(), &end, 10);
      return !v.empty() && *end == '\0';
    };
    bool ok = true;
    if (key == "n")
      ok = num(s.n);
    else if (key == "h")
      ok = num(s.h);
    else if (key == "w")
      ok = num(s.w);
    else if (key == "c")
      ok = num(s.c);
    else if (key == "k")
      ok = num(s.k);
    else if (key == "r")
      ok = num(s.r);
    else if (key == "s")
      ok = num(s.s);
    else if (key == "p")
      ok = haveP = num(s.p);
    else if (key == "q")
      ok = haveQ = num(s.q);
    else if (key == "stride")
      ok = parsePair(v, s.strideH, s.strideW);
    else if (key == "dilation")
      ok = parsePair(v, s.dilationH, s.dilationW);
    else if (key == "pad")
      ok = parsePair(v, s.padTop, s.padLeft);
    else if (key == "layout") {
      std::optional<ConvLayout> l = parseConvLayout(v);
      ok = l.has_value();
      if (l)
        s.layout = *l;
    } else if (key == "types") {
      std::optional<GemmTypes> t = GemmTypes::parseToken(v);
      ok = t.has_value();
      if (t)
        s.types = *t;
    } else if (key == "chip")
      out.chip = v;
    else {
      std::fprintf(stderr, "error: unknown key '%s'\n", key.c_str());
      return false;
    }
    if (!ok) {
      std::fprintf(stderr, "error: bad value in '%s'\n", a.c_str());
      return false;
    }
  }
  if (!haveP)
    s.p = ConvShape::outputSize(s.h, s.padTop, s.padTop, s.r, s.strideH,
                                s.dilationH);
  if (!haveQ)
    s.q = ConvShape::outputSize(s.w, s.padLeft, s.padLeft, s.s, s.strideW,
                                s.dilationW);
  return true;
}

int runShape(int argc, char **argv) {
  Args a;
  if (!parseArgs(argc, argv, a))
    return 2;
  std::string why = a.shape.validate();
  if (!why.empty()) {
    std::printf("invalid: %s\n", why.c_str());
    return 1;
  }
  GemmShape g = a.shape.gemmShape();
  std::printf("shape: %s\n", a.shape.str().c_str());
  std::printf("gemm: M=%lld N=%lld K=%lld batch=%lld %s %s\n", (long long)g.m,
              (long long)g.n, (long long)g.k, (long long)g.batch,
              GemmTypes{g.dtype, g.cType, g.tf32}.token().c_str(),
              g.layout.str().c_str());
  std::printf("pad-after: %lldx%lld\n", (long long)a.shape.padBottom(),
              (long long)a.shape.padRight());
  return 0;
}

int runLegality(const char *config, int argc, char **argv) {
  Args a;
  if (!parseArgs(argc, argv, a))
    return 2;
  std::string why;
  std::optional<GemmConfig> c = GemmConfig::parseText(config, &why);
  std::optional<ChipLimits> chip = getChipLimits(a.chip);
  if (!c || !chip) {
    std::fprintf(stderr, "error: %s\n",
                 c ? ("unknown chip " + a.chip).c_str() : why.c_str());
    return 2;
  }
  std::vector<Violation> v = checkConvLegality(*c, a.shape, *chip);
  if (v.empty() != isConvLegal(*c, a.shape, *chip)) {
    std::printf("MISMATCH: checkConvLegality and isConvLegal disagree\n");
    return 1;
  }
  if (v.empty())
    std::printf("legal\n");
  for (const Violation &x : v)
    std::printf("%s: %s\n", x.rule.c_str(), x.message.c_str());
  return 0;
}

int runSearch(unsigned topk, int argc, char **argv) {
  Args a;
  if (!parseArgs(argc, argv, a))
    return 2;
  std::optional<ChipLimits> chip = getChipLimits(a.chip);
  if (!chip)
    return 2;
  std::string why = a.shape.validate();
  if (!why.empty()) {
    std::printf("invalid: %s\n", why.c_str());
    return 1;
  }
  CostFn cost = [&](const GemmShape &s, const GemmConfig &c) {
    return analyticCost(s, c, *chip);
  };
  std::vector<Ranked> best = searchBestConv(a.shape, *chip, cost, topk);
  std::printf("found %zu\n", best.size());
  for (const Ranked &r : best) {
    if (!isConvLegal(r.config, a.shape, *chip)) {
      std::printf("ILLEGAL: %s\n", r.config.str().c_str());
      return 1;
    }
    ConvKernelName name{a.shape.types, a.shape.layout, r.config};
    std::printf("%s\n", name.str().c_str());
  }
  return 0;
}

int runName(const char *name) {
  std::string why;
  std::optional<ConvKernelName> n = ConvKernelName::parse(name, &why);
  if (!n) {
    std::printf("error: expected %s\n", why.c_str());
    return 1;
  }
  std::printf("types=%s layout=%s family=%s config=%s\n",
              n->types.token().c_str(), convLayoutName(n->layout),
              gemmFamilyName(n->config.family), n->config.str().c_str());
  return n->str() == name ? 0 : 1;
}

int runNames() {
  std::optional<ChipLimits> chip = getChipLimits("sm_90");
  size_t count = 0;
  for (DType t : {DType::F32, DType::F64}) {
    const std::vector<GemmConfig> &space =
        legalConfigs(t, *chip, GemmFamily::Simt);
    for (size_t i = 0; i < space.size(); ++i) {
      // The whole space takes 20 s; names are built field by field, so a
      // sample covers every parameter's values.
      if (i % 64 != 0 && i + 1 != space.size())
        continue;
      const GemmConfig &c = space[i];
      for (ConvLayout l :
           {ConvLayout::NhwcHwcf, ConvLayout::NhwcFhwc, ConvLayout::NchwFchw}) {
        ConvKernelName name;
        name.types.ab = name.types.c = t;
        name.layout = l;
        name.config = c;
        std::string text = name.str(), why;
        std::optional<ConvKernelName> back = ConvKernelName::parse(text, &why);
        if (!back || back->str() != text || !(back->config == c) ||
            back->layout != l || !(back->types == name.types)) {
          std::printf("MISMATCH: %s (%s)\n", text.c_str(), why.c_str());
          return 1;
        }
        ++count;
      }
    }
  }
  std::printf("ok: %zu conv kernel names round-trip\n", count);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "shape") == 0)
    return runShape(argc - 2, argv + 2);
  if (argc >= 3 && std::strcmp(argv[1], "legality") == 0)
    return runLegality(argv[2], argc - 3, argv + 3);
  if (argc >= 3 && std::strcmp(argv[1], "search") == 0)
    return runSearch(unsigned(std::atoi(argv[2])), argc - 3, argv + 3);
  if (argc == 3 && std::strcmp(argv[1], "name") == 0)
    return runName(argv[2]);
  if (argc == 2 && std::strcmp(argv[1], "names") == 0)
    return runNames();
  std::fprintf(stderr,
               "usage: isaac-conv-test shape KEY=VALUE... | legality CONFIG "
               "KEY=VALUE... | search TOPK KEY=VALUE... | name NAME | names\n");
  return 2;
}
