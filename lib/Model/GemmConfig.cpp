//===- GemmConfig.cpp - The tuning vector: names, text, mangling ----------===//
//
// Everything here iterates the table of isaac/Model/GemmParams.def; no
// parameter is named by hand.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/GemmConfig.h"

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

bool isaac::gemmParamOptional(GemmParam p) {
  if (!gemmParamInfo(p).usedBy(GemmFamily::Simt))
    return false;
  for (GemmParam legacy : kLegacyParams)
    if (legacy == p)
      return false;
  return true;
}

bool GemmConfig::isWritten(GemmParam p) const {
  const GemmParamInfo &info = gemmParamInfo(p);
  if (!info.usedBy(family))
    return false;
  // simt kernels predate the optional parameters: written only when they
  // differ from their defaults, so that every simt configuration of before
  // keeps its attribute text and kernel name.
  if (family == GemmFamily::Simt && gemmParamOptional(p))
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

std::optional<GemmConfig> GemmConfig::parseMangled(std::string_view name,
                                                   std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<GemmConfig> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  GemmConfig c;
  std::vector<std::string_view> parts;
  for (size_t b = 0;;) {
    size_t e = name.find('_', b);
    parts.push_back(name.substr(b, e == std::string_view::npos ? e : e - b));
    if (e == std::string_view::npos)
      break;
    b = e + 1;
  }
  size_t first = 0;
  if (std::optional<GemmFamily> f = parseGemmFamily(parts[0])) {
    if (*f == GemmFamily::Simt)
      return fail("the simt family is not written in kernel names");
    c.family = *f;
    first = 1;
  }
  std::array<bool, kNumGemmParams> seen{};
  for (size_t i = first; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    size_t digits = part.find_first_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos)
      return fail("'" + std::string(part) +
                  "' is not a parameter prefix followed by a value");
    std::string_view prefix = part.substr(0, digits);
    const GemmParamInfo *info = nullptr;
    for (const GemmParamInfo &p : kGemmParams)
      if (prefix == p.mangle && p.usedBy(c.family))
        info = &p;
    if (!info)
      return fail("'" + std::string(prefix) + "' is not a parameter of the " +
                  gemmFamilyName(c.family) + " family");
    std::string_view digitsPart = part.substr(digits);
    if (digitsPart.size() > 9 ||
        digitsPart.find_first_not_of("0123456789") != std::string_view::npos)
      return fail("'" + std::string(part) + "': the value of " + info->name +
                  " must be a decimal integer below 10^9");
    if (seen[static_cast<int>(info->param)])
      return fail(std::string(info->name) + " is given twice");
    seen[static_cast<int>(info->param)] = true;
    c.set(info->param, std::atoi(std::string(digitsPart).c_str()));
  }
  // One name per configuration: the canonical form only (every parameter
  // the family writes, in table order, no leading zeros).
  std::string canonical = c.mangle();
  if (canonical != name)
    return fail("'" + std::string(name) + "' is not the canonical name '" +
                canonical + "' of the configuration it spells");
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
    {"f32", DType::F32, DType::F32, false},
    {"f64", DType::F64, DType::F64, false},
    {"f16", DType::F16, DType::F16, false},
    {"bf16", DType::BF16, DType::BF16, false},
    {"f16f32", DType::F16, DType::F32, false},
    {"bf16f32", DType::BF16, DType::F32, false},
    {"tf32", DType::F32, DType::F32, true},
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
