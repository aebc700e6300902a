//===- GemmConfig.cpp - The tuning vector: names, text, mangling ----------===//
//
// Everything here iterates the table of isaac/Model/GemmParams.def; no
// parameter is named by hand.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/GemmConfig.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

using namespace isaac;

static const char *const kFamilyTokens[kNumGemmFamilies] = {
#define GEMM_FAMILY(Name, Token, Doc) Token,
#include "isaac/Model/GemmParams.def"
};

const char *isaac::gemmFamilyName(GemmFamily f) {
  return kFamilyTokens[static_cast<int>(f)];
}

std::optional<GemmFamily> isaac::parseGemmFamily(std::string_view token) {
  for (int i = 0; i < kNumGemmFamilies; ++i)
    if (token == kFamilyTokens[i])
      return static_cast<GemmFamily>(i);
  return std::nullopt;
}

std::optional<GemmParam> isaac::gemmParamByName(std::string_view name) {
  for (const GemmParamInfo &p : kGemmParams)
    if (name == p.name)
      return p.param;
  return std::nullopt;
}

const std::vector<GemmParam> &isaac::gemmFamilyParams(GemmFamily f) {
  static const auto lists = [] {
    std::array<std::vector<GemmParam>, kNumGemmFamilies> out;
    for (int i = 0; i < kNumGemmFamilies; ++i)
      for (const GemmParamInfo &p : kGemmParams)
        if (p.usedBy(static_cast<GemmFamily>(i)))
          out[i].push_back(p.param);
    return out;
  }();
  return lists[static_cast<int>(f)];
}

bool GemmConfig::operator==(const GemmConfig &o) const {
  if (family != o.family)
    return false;
  for (const GemmParamInfo &p : kGemmParams)
    if (get(p.param) != o.get(p.param))
      return false;
  return true;
}

const std::array<GemmParam, 9> &isaac::featureParams(GemmFamily family) {
  static const auto table = [] {
    std::array<std::array<GemmParam, 9>, kNumGemmFamilies> out{};
#define GEMM_FEATURE_VECTOR(F, P0, P1, P2, P3, P4, P5, P6, P7, P8)             \
  out[static_cast<int>(GemmFamily::F)] = {GemmParam::P0, GemmParam::P1,        \
                                          GemmParam::P2, GemmParam::P3,        \
                                          GemmParam::P4, GemmParam::P5,        \
                                          GemmParam::P6, GemmParam::P7,        \
                                          GemmParam::P8};
#include "isaac/Model/GemmParams.def"
    return out;
  }();
  return table[static_cast<int>(family)];
}

bool isaac::gemmParamOptional(GemmFamily f, GemmParam p) {
  const std::array<GemmParam, 9> &featured = featureParams(f);
  return gemmParamInfo(p).usedBy(f) &&
         std::find(featured.begin(), featured.end(), p) == featured.end();
}

bool isaac::gemmParamExtraFeature(GemmFamily f, GemmParam p) {
#define GEMM_EXTRA_FEATURE(F, P)                                               \
  if (f == GemmFamily::F && p == GemmParam::P)                                 \
    return true;
#include "isaac/Model/GemmParams.def"
  return false;
}

bool isaac::gemmParamOptional(GemmParam p) {
  for (int f = 0; f < kNumGemmFamilies; ++f)
    if (gemmParamOptional(static_cast<GemmFamily>(f), p))
      return true;
  return false;
}

bool GemmConfig::isWritten(GemmParam p) const {
  const GemmParamInfo &info = gemmParamInfo(p);
  if (!info.usedBy(family))
    return false;
  // Optional parameters are younger than the family's kernels: written only
  // when they differ from their defaults, so that every configuration of
  // before keeps its attribute text and kernel name.
  if (gemmParamOptional(family, p))
    return get(p) != info.defaultValue;
  return true;
}

std::string GemmConfig::str() const {
  std::ostringstream os;
  const char *sep = "";
  if (family != GemmFamily::Simt) {
    os << "family = " << gemmFamilyName(family);
    sep = ", ";
  }
  for (const GemmParamInfo &p : kGemmParams) {
    if (!isWritten(p.param))
      continue;
    os << sep << p.name << " = " << get(p.param);
    sep = ", ";
  }
  return os.str();
}

std::string GemmConfig::mangle() const {
  std::ostringstream os;
  const char *sep = "";
  if (family != GemmFamily::Simt) {
    os << gemmFamilyName(family);
    sep = "_";
  }
  for (const GemmParamInfo &p : kGemmParams) {
    if (!isWritten(p.param))
      continue;
    os << sep << p.mangle << get(p.param);
    sep = "_";
  }
  return os.str();
}

static std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos)
    return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

/// A decimal integer of at most 9 digits, optionally negative (the
/// attribute reports negative values as written, so this parser does too).
static bool parseInt(std::string_view s, int &out) {
  bool negative = !s.empty() && s[0] == '-';
  std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  int v = 0;
  for (char ch : digits)
    v = v * 10 + (ch - '0');
  out = negative ? -v : v;
  return true;
}

std::optional<GemmConfig> GemmConfig::parseText(std::string_view text,
                                                std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<GemmConfig> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  text = trim(text);
  constexpr std::string_view kOpen = "#isaac.gemm<";
  if (text.substr(0, kOpen.size()) == kOpen) {
    if (text.back() != '>')
      return fail("expected '>' at the end of '#isaac.gemm<...'");
    text = text.substr(kOpen.size(), text.size() - kOpen.size() - 1);
  }
  GemmConfig c;
  std::array<bool, kNumGemmParams> seen{};
  bool first = true;
  for (size_t b = 0; b <= text.size();) {
    size_t e = text.find(',', b);
    if (e == std::string_view::npos)
      e = text.size();
    std::string_view part = trim(text.substr(b, e - b));
    b = e + 1;
    size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return fail("malformed parameter '" + std::string(part) +
                  "' (expected key = value)");
    std::string_view key = trim(part.substr(0, eq));
    std::string_view value = trim(part.substr(eq + 1));
    bool isFirst = first;
    first = false;
    if (key == "family") {
      std::optional<GemmFamily> f = parseGemmFamily(value);
      if (!isFirst || !f)
        return fail(!f ? "unknown family '" + std::string(value) + "'"
                       : std::string("'family' must come first"));
      c.family = *f;
      continue;
    }
    std::optional<GemmParam> p = gemmParamByName(key);
    if (!p)
      return fail("unknown parameter '" + std::string(key) + "'");
    const GemmParamInfo &info = gemmParamInfo(*p);
    if (!info.usedBy(c.family))
      return fail("'" + std::string(key) + "' is not a parameter of the " +
                  gemmFamilyName(c.family) + " family");
    if (seen[static_cast<int>(*p)])
      return fail("parameter '" + std::string(key) + "' given twice");
    int v = 0;
    if (!parseInt(value, v))
      return fail("parameter '" + std::string(key) +
                  "' must be an integer, got '" + std::string(value) + "'");
    seen[static_cast<int>(*p)] = true;
    c.set(*p, v);
  }
  for (GemmParam p : gemmFamilyParams(c.family))
    if (!seen[static_cast<int>(p)] && !gemmParamOptional(p))
      return fail(std::string("missing parameter '") + gemmParamInfo(p).name +
                  "'");
  return c;
}

std::optional<GemmConfig> GemmConfig::parseMangled(std::string_view name,
                                                   std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<GemmConfig> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  std::vector<std::string_view> parts;
  for (size_t b = 0;;) {
    size_t e = name.find('_', b);
    parts.push_back(name.substr(b, e == std::string_view::npos ? e : e - b));
    if (e == std::string_view::npos)
      break;
    b = e + 1;
  }
  GemmConfig c;
  size_t i = 0;
  if (std::optional<GemmFamily> f = parseGemmFamily(parts[0]);
      f && *f != GemmFamily::Simt) {
    c.family = *f;
    i = 1;
  }
  // The family's parameters in table order, each `<Mangle><value>`; one a
  // name leaves out (isWritten) holds its default.
  std::string after = c.family == GemmFamily::Simt
                          ? std::string("the layout")
                          : std::string(gemmFamilyName(c.family));
  for (GemmParam p : gemmFamilyParams(c.family)) {
    const GemmParamInfo &info = gemmParamInfo(p);
    std::string_view part = i < parts.size() ? parts[i] : std::string_view();
    std::string_view prefix(info.mangle);
    int value = 0;
    bool matches = part.substr(0, prefix.size()) == prefix &&
                   part.size() > prefix.size() && part[prefix.size()] != '-' &&
                   parseInt(part.substr(prefix.size()), value);
    if (matches) {
      c.set(p, value);
      // A value the name leaves out (an optional parameter at its
      // default) is not its to give: one name per configuration.
      matches = c.isWritten(p);
    }
    if (!matches) {
      c.set(p, info.defaultValue);
      if (!c.isWritten(p))
        continue;
      return fail(std::string("_") + info.mangle + "<N> after " + after);
    }
    after = info.name;
    ++i;
  }
  if (i < parts.size())
    return fail("the end of the configuration after " + after);
  // One name per configuration: no leading zeros either.
  if (c.mangle() != name)
    return fail("the canonical spelling '" + c.mangle() + "'");
  return c;
}

//===----------------------------------------------------------------------===//
// GemmTypes
//===----------------------------------------------------------------------===//

namespace {
struct TypesToken {
  const char *token;
  DType ab, c;
  bool tf32;
};
constexpr TypesToken kTypeTokens[] = {
#define GEMM_TYPES(Token, AB, C, TF32) {#Token, DType::AB, DType::C, TF32},
#include "isaac/Model/GemmParams.def"
};
} // namespace

bool GemmTypes::isValid() const {
  for (const TypesToken &t : kTypeTokens)
    if (t.ab == ab && t.c == c && t.tf32 == tf32)
      return true;
  return false;
}

std::string GemmTypes::token() const {
  for (const TypesToken &t : kTypeTokens)
    if (t.ab == ab && t.c == c && t.tf32 == tf32)
      return t.token;
  return "invalid";
}

std::optional<GemmTypes> GemmTypes::parseToken(std::string_view token) {
  for (const TypesToken &t : kTypeTokens)
    if (token == t.token) {
      GemmTypes out;
      out.ab = t.ab;
      out.c = t.c;
      out.tf32 = t.tf32;
      return out;
    }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Kernel names
//===----------------------------------------------------------------------===//

static constexpr std::string_view kKernelPrefix = "isaac_gemm_";
static constexpr size_t kEpilogueIdLength = 16;

std::string GemmKernelName::str() const {
  std::string name = std::string(kKernelPrefix) + types.token() + "_" +
                     layout.str() + "_" + config.mangle();
  if (!epilogue.empty())
    name += "_ep" + epilogue;
  return name;
}

bool isaac::splitEpilogueSuffix(std::string_view &rest, std::string &id,
                                std::string &error) {
  id.clear();
  size_t ep = rest.rfind("_ep");
  if (ep == std::string_view::npos)
    return true;
  std::string_view hex = rest.substr(ep + 3);
  if (hex.size() != kEpilogueIdLength ||
      hex.find_first_not_of("0123456789abcdef") != std::string_view::npos) {
    error = "exactly 16 lower-case hex digits (the epilogue ID) after _ep";
    return false;
  }
  id = std::string(hex);
  rest = rest.substr(0, ep);
  return true;
}

std::optional<GemmKernelName> GemmKernelName::parse(std::string_view name,
                                                    std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<GemmKernelName> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  if (name.substr(0, kKernelPrefix.size()) != kKernelPrefix)
    return fail("the prefix isaac_gemm_");
  std::string_view rest = name.substr(kKernelPrefix.size());
  GemmKernelName out;
  size_t sep = rest.find('_');
  std::optional<GemmTypes> types = GemmTypes::parseToken(rest.substr(0, sep));
  if (!types || sep == std::string_view::npos) {
    std::string known;
    for (const TypesToken &t : kTypeTokens)
      known += std::string(known.empty() ? "" : ", ") + t.token;
    return fail("an element-type token (" + known + ") after isaac_gemm_");
  }
  out.types = *types;
  rest = rest.substr(sep + 1);
  auto isLayoutChar = [](char ch) { return ch == 'n' || ch == 't'; };
  if (rest.size() < 2 || !isLayoutChar(rest[0]) || !isLayoutChar(rest[1]) ||
      (rest.size() > 2 && rest[2] != '_'))
    return fail("_<layout> (nn, nt, tn or tt) after the element types");
  out.layout.transA = rest[0] == 't';
  out.layout.transB = rest[1] == 't';
  rest = rest.substr(std::min<size_t>(3, rest.size()));
  std::string why;
  if (!splitEpilogueSuffix(rest, out.epilogue, why))
    return fail(why);
  std::optional<GemmConfig> config = GemmConfig::parseMangled(rest, &why);
  if (!config)
    return fail(why);
  out.config = *config;
  return out;
}
