//===- KernelInfo.cpp - Parse kernel names and isaac.kernel lines ---------===//
//
// The runtime cannot see the compiler's attributes, so everything it needs to
// launch a kernel (dtype, layout, tile sizes, block size) comes from the entry
// name and from the `// isaac.kernel` comment line of the PTX file (plus, for
// a fused epilogue, the `// isaac.epilogue` line that gives the types of its
// output and inputs). All are parsed strictly: a kernel launched with a wrong
// block size, grid or parameter list would silently compute garbage. Names
// are parsed by lib/Model's GemmKernelName (compiled into the runtime), the
// code that makes them, so both follow include/isaac/Model/GemmParams.def.
//
//===----------------------------------------------------------------------===//

#include "KernelInfo.h"
#include "Error.h"

#include "isaac/Model/ConvShape.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace isaac::runtime {

/// Numbers on the header line above this are certainly not a real kernel;
/// bounding them keeps the arithmetic on them free of overflow.
constexpr int64_t kMaxParameter = 1 << 20;
/// Static shared memory is at most 48 KiB; dynamic shared memory at most
/// what any chip of the chip table allows (227 KiB).
constexpr int64_t kMaxStaticSmem = 48 * 1024;
constexpr int64_t kMaxDynamicSmem = 227 * 1024;
constexpr int64_t kMaxThreadsPerBlock = 1024;

static_assert(ISAAC_F32 == static_cast<int>(DType::F32) &&
                  ISAAC_F64 == static_cast<int>(DType::F64) &&
                  ISAAC_F16 == static_cast<int>(DType::F16) &&
                  ISAAC_BF16 == static_cast<int>(DType::BF16),
              "isaacDtype is isaac::DType");
static_assert(ISAAC_CONV_NHWC_HWCF == static_cast<int>(ConvLayout::NhwcHwcf) &&
                  ISAAC_CONV_NHWC_FHWC ==
                      static_cast<int>(ConvLayout::NhwcFhwc),
              "isaacConvLayout is isaac::ConvLayout");
static_assert(ISAAC_FAMILY_SIMT == static_cast<int>(GemmFamily::Simt) &&
                  ISAAC_FAMILY_MMA == static_cast<int>(GemmFamily::Mma) &&
                  ISAAC_FAMILY_WGMMA == static_cast<int>(GemmFamily::Wgmma),
              "isaacFamily is isaac::GemmFamily");

const char *dtypeName(int32_t dtype) {
  switch (dtype) {
  case ISAAC_F32:
    return "f32";
  case ISAAC_F64:
    return "f64";
  case ISAAC_F16:
    return "f16";
  case ISAAC_BF16:
    return "bf16";
  }
  return "?";
}

size_t dtypeSize(int32_t dtype) {
  switch (dtype) {
  case ISAAC_F32:
    return 4;
  case ISAAC_F64:
    return 8;
  case ISAAC_F16:
  case ISAAC_BF16:
    return 2;
  }
  return 0;
}

const char *layoutName(const isaacKernelInfo &info) {
  if (isConv(info))
    return info.convLayout == ISAAC_CONV_NHWC_HWCF ||
                   info.convLayout == ISAAC_CONV_NHWC_FHWC
               ? convLayoutName(static_cast<ConvLayout>(info.convLayout))
               : "?";
  static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
  return names[info.transA != 0][info.transB != 0];
}

namespace {

bool isDtype(int32_t dtype) { return dtypeSize(dtype) != 0; }

/// Whether `text` starts with an epilogue ID: exactly 16 lower-case hex
/// digits (upper case would make two spellings of one kernel name).
bool isEpilogueId(const char *text) {
  for (int i = 0; i < ISAAC_EPILOGUE_ID_LENGTH; ++i)
    if (!((text[i] >= '0' && text[i] <= '9') ||
          (text[i] >= 'a' && text[i] <= 'f')))
      return false;
  return true;
}

/// The epilogue ID that ends `name` (`..._ep<ID>`), or null.
const char *nameEpilogue(const char *name) {
  size_t length = std::strlen(name);
  constexpr size_t kSuffix = 3 + ISAAC_EPILOGUE_ID_LENGTH;
  if (length < kSuffix)
    return nullptr;
  const char *suffix = name + length - kSuffix;
  if (std::strncmp(suffix, "_ep", 3) != 0 || !isEpilogueId(suffix + 3))
    return nullptr;
  return suffix + 3;
}

/// The epilogue fields of isaacKernelInfo: an ID that matches the name's
/// suffix, and valid types (the runtime sizes pointers by them).
isaacStatus checkEpilogue(const isaacKernelInfo &info, const char *name,
                          isaacStatus status) {
  size_t idLength = strnlen(info.epilogue, sizeof(info.epilogue));
  if (idLength == sizeof(info.epilogue))
    return setError(status, "kernel %s: epilogue is not NUL-terminated", name);
  if (info.name[0]) {
    const char *fromName = nameEpilogue(info.name);
    if (fromName ? std::strcmp(fromName, info.epilogue) != 0 : idLength != 0)
      return setError(status,
                      "kernel %s: epilogue='%s' disagrees with the name's "
                      "_ep<ID> suffix ('%s')",
                      name, info.epilogue, fromName ? fromName : "none");
  }
  if (idLength == 0) {
    if (info.outDtype != info.cDtype || info.numInputs != 0)
      return setError(status,
                      "kernel %s has no fused epilogue, so outDtype=%d must "
                      "equal cDtype=%d and numInputs=%d must be 0",
                      name, info.outDtype, info.cDtype, info.numInputs);
    return ISAAC_SUCCESS;
  }
  if (idLength != ISAAC_EPILOGUE_ID_LENGTH || !isEpilogueId(info.epilogue))
    return setError(status,
                    "kernel %s: epilogue '%s' is not %d lower-case hex digits",
                    name, info.epilogue, ISAAC_EPILOGUE_ID_LENGTH);
  if (!isDtype(info.outDtype))
    return setError(status,
                    "kernel %s: outDtype=%d is not 0 (f32), 1 (f64), 2 (f16) "
                    "or 3 (bf16)",
                    name, info.outDtype);
  if (info.numInputs < -1 || info.numInputs > ISAAC_MAX_EPILOGUE_INPUTS)
    return setError(status, "kernel %s: numInputs=%d is out of range [-1, %d]",
                    name, info.numInputs, ISAAC_MAX_EPILOGUE_INPUTS);
  for (int32_t i = 0; i < info.numInputs; ++i)
    if (!isDtype(info.inputDtypes[i]))
      return setError(status,
                      "kernel %s: inputDtypes[%d]=%d is not 0 (f32), 1 (f64), "
                      "2 (f16) or 3 (bf16)",
                      name, i, info.inputDtypes[i]);
  for (int32_t i = 0; i < ISAAC_MAX_EPILOGUE_INPUTS; ++i)
    if (info.inputBroadcast[i] < 0 ||
        info.inputBroadcast[i] > (ISAAC_BROADCAST_ROWS | ISAAC_BROADCAST_COLS))
      return setError(status,
                      "kernel %s: inputBroadcast[%d]=%d is not a set of "
                      "ISAAC_BROADCAST_ROWS and ISAAC_BROADCAST_COLS",
                      name, i, info.inputBroadcast[i]);
  return ISAAC_SUCCESS;
}

/// The element types of the name's token (docs/abi.md): f32 and f64 (A, B,
/// C of that type), f16 and bf16 operands with C of their type or f32, f32
/// operands in TF32; the accumulation f64 for f64, else f32.
isaacStatus checkTypes(const isaacKernelInfo &info, const char *name,
                       isaacStatus status) {
  if (!isDtype(info.dtype))
    return setError(status,
                    "kernel %s: dtype=%d is not 0 (f32), 1 (f64), 2 (f16) or "
                    "3 (bf16)",
                    name, info.dtype);
  bool narrow = info.dtype == ISAAC_F16 || info.dtype == ISAAC_BF16;
  if (info.cDtype != info.dtype && !(narrow && info.cDtype == ISAAC_F32))
    return setError(status,
                    "kernel %s: cDtype=%d does not go with dtype=%d: C is of "
                    "the operands' type, or f32 for f16 and bf16 operands",
                    name, info.cDtype, info.dtype);
  if (info.tf32 != 0 && (info.tf32 != 1 || info.dtype != ISAAC_F32))
    return setError(status,
                    "kernel %s: tf32=%d: only f32 operands (dtype 0) can be "
                    "multiplied in TF32 (tf32 = 1)",
                    name, info.tf32);
  int32_t compute = info.dtype == ISAAC_F64 ? ISAAC_F64 : ISAAC_F32;
  if (info.computeDtype != compute)
    return setError(status,
                    "kernel %s: computeDtype=%d, but %s operands accumulate "
                    "in %s",
                    name, info.computeDtype, dtypeName(info.dtype),
                    dtypeName(compute));
  return ISAAC_SUCCESS;
}

/// What a kernel computes: a GEMM, or a convolution of a known layout whose
/// implicit GEMM's operand layout (transA, transB) is the layout's.
isaacStatus checkOp(const isaacKernelInfo &info, const char *name,
                    isaacStatus status) {
  if (info.op == ISAAC_OP_GEMM) {
    if (info.convLayout != 0)
      return setError(status,
                      "kernel %s: convLayout=%d, but a GEMM kernel has none "
                      "(it must be 0)",
                      name, info.convLayout);
    return ISAAC_SUCCESS;
  }
  if (info.op != ISAAC_OP_CONV)
    return setError(status, "kernel %s: op=%d is neither 0 (gemm) nor 1 (conv)",
                    name, info.op);
  if (info.convLayout != ISAAC_CONV_NHWC_HWCF &&
      info.convLayout != ISAAC_CONV_NHWC_FHWC)
    return setError(status,
                    "kernel %s: convLayout=%d is neither 0 (nhwc_hwcf) nor 1 "
                    "(nhwc_fhwc)",
                    name, info.convLayout);
  ConvShape shape;
  shape.layout = static_cast<ConvLayout>(info.convLayout);
  GemmLayout gemm = shape.gemmShape().layout;
  if ((info.transA != 0) != gemm.transA || (info.transB != 0) != gemm.transB)
    return setError(status,
                    "kernel %s: transA=%d and transB=%d disagree with the "
                    "%s layout, whose implicit GEMM is %s",
                    name, info.transA, info.transB, layoutName(info),
                    gemm.str().c_str());
  return ISAAC_SUCCESS;
}

} // namespace

isaacStatus checkKernelInfo(const isaacKernelInfo &info, isaacStatus status) {
  const char *name = info.name[0] ? info.name : "<unnamed kernel>";
  if (isaacStatus result = checkTypes(info, name, status))
    return result;
  if (isaacStatus result = checkOp(info, name, status))
    return result;
  if (info.family < 0 || info.family >= kNumGemmFamilies)
    return setError(status,
                    "kernel %s: family %d is not a kernel family (0 to %d: "
                    "the GEMM_FAMILY rows of GemmParams.def)",
                    name, info.family, kNumGemmFamilies - 1);
  const GemmConfig c = configOf(info);
  for (const GemmParamInfo &p : kGemmParams) {
    int32_t value = c.get(p.param);
    if (!p.usedBy(c.family)) {
      if (value != p.defaultValue)
        return setError(status,
                        "kernel %s: %s=%d, but the %s family has no %s (it "
                        "must hold its default %d)",
                        name, p.name, value, gemmFamilyName(c.family), p.name,
                        p.defaultValue);
      continue;
    }
    if (value < p.lo || value > p.hi)
      return setError(status, "kernel %s: %s=%d is out of range [%d, %d]", name,
                      p.name, value, p.lo, p.hi);
  }
  // The divisors of the thread count (GemmConfig::threads()).
  const bool warpTiles = c.family != GemmFamily::Simt;
  const GemmParam rowTile = warpTiles ? GemmParam::wm : GemmParam::ms;
  const GemmParam colTile = warpTiles ? GemmParam::wn : GemmParam::ns;
  if (c.ml % c.get(rowTile) || c.nl % c.get(colTile))
    return setError(status,
                    "kernel %s: %s=%d must divide ml=%d and %s=%d must "
                    "divide nl=%d",
                    name, gemmParamInfo(rowTile).name, c.get(rowTile), c.ml,
                    gemmParamInfo(colTile).name, c.get(colTile), c.nl);
  int64_t threads = c.threads();
  if (threads > kMaxThreadsPerBlock)
    return setError(status,
                    "kernel %s: %lld threads exceed the %lld threads of a "
                    "block",
                    name, static_cast<long long>(threads),
                    static_cast<long long>(kMaxThreadsPerBlock));
  if (info.threads != threads)
    return setError(status,
                    "kernel %s: threads=%d but the configuration has "
                    "%lld",
                    name, info.threads, static_cast<long long>(threads));
  // The persistent launch (docs/abi.md) has no split-K slices or
  // convolution geometry to place in its grid.
  if (c.pt && info.op != ISAAC_OP_GEMM)
    return setError(status,
                    "kernel %s: pt=1 (persistent tiles) is for GEMM kernels, "
                    "not convolutions",
                    name);
  if (c.pt && c.kg != 1)
    return setError(status,
                    "kernel %s: pt=1 (persistent tiles) needs kg=1, not kg=%d",
                    name, c.kg);
  if (info.dynsmem != 0 && info.dynsmem != 1)
    return setError(status, "kernel %s: dynsmem=%d is neither 0 nor 1", name,
                    info.dynsmem);
  const int64_t maxSmem = info.dynsmem ? kMaxDynamicSmem : kMaxStaticSmem;
  if (info.smem < 0 || info.smem > maxSmem)
    return setError(status, "kernel %s: smem=%d is out of range [0, %lld]",
                    name, info.smem, static_cast<long long>(maxSmem));
  if (info.tf32 != 0 && info.tf32 != 1)
    return setError(status, "kernel %s: tf32=%d is neither 0 nor 1", name,
                    info.tf32);
  return checkEpilogue(info, name, status);
}

namespace {

/// Parses a decimal in [0, kMaxParameter] without sign or spaces at `text`,
/// advancing it past the digits.
bool parseNumber(const char *&text, int32_t &value) {
  int64_t result = 0;
  const char *start = text;
  while (*text >= '0' && *text <= '9') {
    result = result * 10 + (*text - '0');
    if (result > kMaxParameter)
      return false;
    ++text;
  }
  if (text == start)
    return false;
  value = static_cast<int32_t>(result);
  return true;
}

/// Parses a whole epilogue type name: f32, f64, f16 or bf16.
bool parseStorageType(const std::string &text, int32_t &dtype) {
  for (int32_t t : {ISAAC_F32, ISAAC_F64, ISAAC_F16, ISAAC_BF16})
    if (text == dtypeName(t)) {
      dtype = t;
      return true;
    }
  return false;
}

/// Fills `out` from the parts of a kernel name (GemmKernelName, the parser
/// of lib/Model the compiler's names come from).
void fillFromName(const GemmKernelName &k, isaacKernelInfo &out) {
  out.dtype = static_cast<int32_t>(k.types.ab);
  out.outDtype = static_cast<int32_t>(k.types.c);
  out.cDtype = out.outDtype;
  out.computeDtype = static_cast<int32_t>(k.types.accumulator());
  out.tf32 = k.types.tf32;
  out.transA = k.layout.transA;
  out.transB = k.layout.transB;
  setConfig(out, k.config);
  std::memcpy(out.epilogue, k.epilogue.c_str(), k.epilogue.size() + 1);
}

/// The same for a convolution kernel's name: the implicit GEMM's operand
/// layout is the convolution layout's.
void fillFromName(const ConvKernelName &k, isaacKernelInfo &out) {
  out.op = ISAAC_OP_CONV;
  out.convLayout = static_cast<int32_t>(k.layout);
  out.dtype = static_cast<int32_t>(k.types.ab);
  out.outDtype = static_cast<int32_t>(k.types.c);
  out.cDtype = out.outDtype;
  out.computeDtype = static_cast<int32_t>(k.types.accumulator());
  out.tf32 = k.types.tf32;
  ConvShape shape;
  shape.layout = k.layout;
  GemmLayout gemm = shape.gemmShape().layout;
  out.transA = gemm.transA;
  out.transB = gemm.transB;
  setConfig(out, k.config);
  std::memcpy(out.epilogue, k.epilogue.c_str(), k.epilogue.size() + 1);
}

isaacStatus parseKernelName(const char *name, isaacKernelInfo &out) {
  if (!name)
    return setError(ISAAC_ERROR_INVALID_VALUE, "kernel name is NULL");
  size_t length = std::strlen(name);
  if (length >= ISAAC_KERNEL_NAME_MAX)
    return setError(ISAAC_ERROR_PARSE,
                    "kernel name '%.40s...' is %zu characters long; the "
                    "limit is %d",
                    name, length, ISAAC_KERNEL_NAME_MAX - 1);
  isaacKernelInfo info = {};
  std::string why;
  GemmConfig config;
  if (std::strncmp(name, "isaac_conv_", 11) == 0) {
    std::optional<ConvKernelName> parsed = ConvKernelName::parse(name, &why);
    if (!parsed)
      return setError(ISAAC_ERROR_PARSE,
                      "kernel name '%s' does not follow isaac_conv_<types>_"
                      "<nhwc_hwcf|nhwc_fhwc>_<family>_<config>[_ep<ID>] "
                      "(docs/abi.md): "
                      "expected %s",
                      name, why.c_str());
    fillFromName(*parsed, info);
    config = parsed->config;
  } else {
    std::optional<GemmKernelName> parsed = GemmKernelName::parse(name, &why);
    if (!parsed)
      return setError(ISAAC_ERROR_PARSE,
                      "kernel name '%s' does not follow isaac_gemm_<types>_"
                      "<nn|nt|tn|tt>_<config>[_ep<ID>] (docs/abi.md): "
                      "expected %s",
                      name, why.c_str());
    fillFromName(*parsed, info);
    config = parsed->config;
  }
  std::memcpy(info.name, name, length + 1);
  // The block size the configuration implies, where it is defined: no
  // parameter below its range (those threads() divides by start at 1;
  // checkKernelInfo refuses the rest).
  bool defined = true;
  for (const GemmParamInfo &p : kGemmParams)
    defined &= config.get(p.param) >= p.lo;
  int64_t threads = defined ? config.threads() : 0;
  info.threads = threads > 0 && threads <= kMaxThreadsPerBlock
                     ? static_cast<int32_t>(threads)
                     : 0;
  // Only the PTX header knows the epilogue's output and input types.
  info.numInputs = hasEpilogue(info) ? -1 : 0;
  if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_PARSE))
    return status;
  out = info;
  return ISAAC_SUCCESS;
}

/// Finds the text after `marker` (e.g. `// isaac.kernel`) at the start of a
/// line, and the line's end. With `headerOnly`, the search ends at the first
/// line that is neither blank nor a `//` comment: the epilogue line belongs
/// to the comment header, and the PTX after it need not be scanned.
bool findCommentLine(const char *text, const char *marker, const char *&begin,
                     const char *&end, bool headerOnly = false) {
  const size_t markerLength = std::strlen(marker);
  for (const char *line = text; *line;) {
    const char *lineEnd = std::strchr(line, '\n');
    if (!lineEnd)
      lineEnd = line + std::strlen(line);
    const char *p = line;
    while (p < lineEnd && (*p == ' ' || *p == '\t' || *p == '\r'))
      ++p;
    if (static_cast<size_t>(lineEnd - p) >= markerLength &&
        std::strncmp(p, marker, markerLength) == 0 &&
        (p + markerLength == lineEnd || p[markerLength] == ' ' ||
         p[markerLength] == '\t' || p[markerLength] == '\r')) {
      begin = p + markerLength;
      end = lineEnd;
      return true;
    }
    if (headerOnly && p < lineEnd && std::strncmp(p, "//", 2) != 0)
      return false;
    line = *lineEnd ? lineEnd + 1 : lineEnd;
  }
  return false;
}

/// The next `key=value` token of a header line at or after `pos` (space
/// separated): false at the end of the line, or where `stopAt` begins a
/// token (`pos` then points at it). A token without `=` or with an empty
/// key is a parse error naming `lineName`.
isaacStatus nextKeyValue(const std::string &line, size_t &pos,
                         const char *lineName, const char *stopAt, bool &found,
                         std::string &key, std::string &value) {
  found = false;
  pos = line.find_first_not_of(" \t\r", pos);
  if (pos == std::string::npos ||
      (stopAt && line.compare(pos, std::strlen(stopAt), stopAt) == 0))
    return ISAAC_SUCCESS;
  size_t tokenEnd = line.find_first_of(" \t\r", pos);
  if (tokenEnd == std::string::npos)
    tokenEnd = line.size();
  std::string token = line.substr(pos, tokenEnd - pos);
  pos = tokenEnd;
  size_t eq = token.find('=');
  if (eq == std::string::npos || eq == 0)
    return setError(ISAAC_ERROR_PARSE, "%s: '%s' is not a key=value pair",
                    lineName, token.c_str());
  key = token.substr(0, eq);
  value = token.substr(eq + 1);
  found = true;
  return ISAAC_SUCCESS;
}

/// Parses the text after `// isaac.epilogue`:
/// `id=<ID> out=<type> inputs=<n> in0=<type> ... program=<text>` into the
/// epilogue fields of `info`, whose name gave the ID. Everything before
/// `program=` is strict key=value; the program's text (the compiler's form
/// of the epilogue) is not interpreted.
isaacStatus parseEpilogueLine(const std::string &line, isaacKernelInfo &info) {
  std::string id, out, inputs;
  bool seenId = false, seenOut = false, seenInputs = false, seenProgram = false;
  std::string in[ISAAC_MAX_EPILOGUE_INPUTS];
  bool seenIn[ISAAC_MAX_EPILOGUE_INPUTS] = {};
  size_t pos = 0;
  while (true) {
    bool found = false;
    std::string key, value;
    if (isaacStatus status = nextKeyValue(line, pos, "isaac.epilogue line",
                                          "program=", found, key, value))
      return status;
    if (!found) {
      seenProgram = pos != std::string::npos;
      break;
    }
    std::string *slot = nullptr;
    bool *seen = nullptr;
    if (key == "id") {
      slot = &id;
      seen = &seenId;
    } else if (key == "out") {
      slot = &out;
      seen = &seenOut;
    } else if (key == "inputs") {
      slot = &inputs;
      seen = &seenInputs;
    } else if (key.size() > 2 && key.compare(0, 2, "in") == 0 &&
               key.find_first_not_of("0123456789", 2) == std::string::npos) {
      const char *digits = key.c_str() + 2;
      int32_t index = 0;
      if (!parseNumber(digits, index) || *digits ||
          index >= ISAAC_MAX_EPILOGUE_INPUTS)
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: '%s' names no input in0..in%d",
                        key.c_str(), ISAAC_MAX_EPILOGUE_INPUTS - 1);
      slot = &in[index];
      seen = &seenIn[index];
    } else {
      // Skipped, as on the isaac.kernel line, so that the compiler may add
      // keys later.
      continue;
    }
    if (*seen)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: key '%s' appears twice",
                      key.c_str());
    *seen = true;
    *slot = value;
  }
  const struct {
    const char *key;
    bool seen;
  } required[] = {{"id", seenId},
                  {"out", seenOut},
                  {"inputs", seenInputs},
                  {"program", seenProgram}};
  for (const auto &r : required)
    if (!r.seen)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: required key '%s' is missing",
                      r.key);
  if (id != info.epilogue)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: id=%s disagrees with name %s",
                    id.c_str(), info.name);
  if (!parseStorageType(out, info.outDtype))
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: out=%s is not f32, f64, f16 or bf16",
                    out.c_str());
  const char *text = inputs.c_str();
  int32_t count = 0;
  if (!parseNumber(text, count) || *text || count > ISAAC_MAX_EPILOGUE_INPUTS)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.epilogue line: inputs='%s' is not a number in [0, "
                    "%d]",
                    inputs.c_str(), ISAAC_MAX_EPILOGUE_INPUTS);
  for (int32_t i = 0; i < ISAAC_MAX_EPILOGUE_INPUTS; ++i) {
    if (i >= count) {
      if (seenIn[i])
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: in%d given but inputs=%d", i,
                        count);
      info.inputDtypes[i] = 0;
      info.inputBroadcast[i] = 0;
      continue;
    }
    if (!seenIn[i])
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: inputs=%d but in%d is missing",
                      count, i);
    // The type, then the indices the input varies with: f32 (both),
    // f32[n], f32[m], f32[].
    std::string type = in[i];
    info.inputBroadcast[i] = 0;
    if (size_t open = type.find('['); open != std::string::npos) {
      std::string dims = type.substr(open);
      type = type.substr(0, open);
      if (dims == "[]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_ROWS | ISAAC_BROADCAST_COLS;
      else if (dims == "[m]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_COLS;
      else if (dims == "[n]")
        info.inputBroadcast[i] = ISAAC_BROADCAST_ROWS;
      else
        return setError(ISAAC_ERROR_PARSE,
                        "isaac.epilogue line: in%d=%s: the dimensions %s are "
                        "not [], [m] or [n]",
                        i, in[i].c_str(), dims.c_str());
    }
    if (!parseStorageType(type, info.inputDtypes[i]))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.epilogue line: in%d=%s is not f32, f64, f16 or "
                      "bf16",
                      i, in[i].c_str());
  }
  info.numInputs = count;
  return ISAAC_SUCCESS;
}

isaacStatus parseKernelLine(const char *ptx, isaacKernelInfo &out) {
  if (!ptx)
    return setError(ISAAC_ERROR_INVALID_VALUE, "PTX text is NULL");
  const char *begin = nullptr;
  const char *end = nullptr;
  if (!findCommentLine(ptx, "// isaac.kernel", begin, end))
    return setError(ISAAC_ERROR_PARSE,
                    "no '// isaac.kernel key=value ...' line in the PTX text");

  // Every key=value of the line; unknown keys are skipped below so that the
  // compiler may add some later.
  std::map<std::string, std::string> keys;
  const std::string line(begin, end);
  size_t pos = 0;
  while (true) {
    bool found = false;
    std::string key, value;
    if (isaacStatus status = nextKeyValue(line, pos, "isaac.kernel line",
                                          nullptr, found, key, value))
      return status;
    if (!found)
      break;
    if (!keys.emplace(key, value).second)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: key '%s' appears twice", key.c_str());
  }
  auto has = [&](const char *key) { return keys.count(key) != 0; };
  for (const char *required : {"name", "dtype", "layout"})
    if (!has(required))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: required key '%s' is missing",
                      required);

  isaacKernelInfo info = {};
  if (isaacStatus status = parseKernelName(keys["name"].c_str(), info))
    return addErrorContext(status, "isaac.kernel line");

  // Every key must agree with the name: a disagreement means the PTX and
  // its description were produced by different compilers or edited by hand.
  const std::string &dtype = keys["dtype"];
  std::optional<GemmTypes> types = GemmTypes::parseToken(dtype);
  if (!types)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: dtype '%s' is not an element-type "
                    "token (f32, f64, f16, bf16, f16f32, bf16f32, tf32)",
                    dtype.c_str());
  GemmTypes named;
  named.ab = static_cast<DType>(info.dtype);
  named.c = static_cast<DType>(info.cDtype);
  named.tf32 = info.tf32 != 0;
  if (!(*types == named))
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: dtype=%s disagrees with name %s",
                    dtype.c_str(), info.name);
  // op=conv says that the kernel is a convolution (absent: a GEMM, as in
  // the headers of compilers before convolutions).
  const std::string op = has("op") ? keys["op"] : "gemm";
  if (op != "gemm" && op != "conv")
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: op '%s' is neither gemm nor conv",
                    op.c_str());
  if ((op == "conv") != isConv(info))
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: op=%s disagrees with name %s",
                    op.c_str(), info.name);
  const std::string &layout = keys["layout"];
  if (isConv(info)) {
    if (!parseConvLayout(layout))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: layout '%s' is not nhwc_hwcf or "
                      "nhwc_fhwc",
                      layout.c_str());
    if (layout != layoutName(info))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: layout=%s disagrees with name %s",
                      layout.c_str(), info.name);
  } else {
    auto isLayoutChar = [](char ch) { return ch == 'n' || ch == 't'; };
    if (layout.size() != 2 || !isLayoutChar(layout[0]) ||
        !isLayoutChar(layout[1]))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: layout '%s' is not nn, nt, tn or tt",
                      layout.c_str());
    if ((layout[0] == 't') != (info.transA != 0) ||
        (layout[1] == 't') != (info.transB != 0))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: layout=%s disagrees with name %s",
                      layout.c_str(), info.name);
  }

  // The parameters the name writes (GemmConfig::isWritten), then the
  // numbers of the launch: each `key=<decimal>`.
  struct Number {
    const char *key;
    int32_t fromName; ///< -1: not implied by the name
  };
  std::vector<Number> numbers;
  const GemmConfig config = configOf(info);
  for (const GemmParamInfo &p : kGemmParams)
    if (config.isWritten(p.param))
      numbers.push_back({p.name, config.get(p.param)});
  numbers.push_back({"threads", info.threads});
  numbers.push_back({"smem", -1});
  for (const Number &n : numbers) {
    if (!has(n.key))
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: required key '%s' is missing", n.key);
    const std::string &text = keys[n.key];
    const char *digits = text.c_str();
    int32_t value = 0;
    if (!parseNumber(digits, value) || *digits)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: %s='%s' is not a number in [0, "
                      "%lld]",
                      n.key, text.c_str(),
                      static_cast<long long>(kMaxParameter));
    if (n.fromName < 0)
      info.smem = value;
    else if (value != n.fromName)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: %s=%d disagrees with name %s "
                      "(which implies %d)",
                      n.key, value, info.name, n.fromName);
  }
  // dynsmem=1: the kernel's shared memory is dynamic (absent: 0, the
  // headers of compilers before it).
  if (has("dynsmem")) {
    const std::string &text = keys["dynsmem"];
    if (text != "0" && text != "1")
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: dynsmem='%s' is neither 0 nor 1",
                      text.c_str());
    info.dynsmem = text == "1";
  }
  const std::string chip = has("chip") ? keys["chip"] : std::string();
  if (chip.size() >= ISAAC_CHIP_NAME_MAX)
    return setError(ISAAC_ERROR_PARSE,
                    "isaac.kernel line: chip '%s' is longer than %d "
                    "characters",
                    chip.c_str(), ISAAC_CHIP_NAME_MAX - 1);
  std::memcpy(info.chip, chip.c_str(), chip.size() + 1);

  // The epilogue is named three times (name suffix, epilogue= key, the
  // isaac.epilogue line); all must agree, or none may be there.
  bool epilogueKey = has("epilogue");
  const std::string epilogueId = epilogueKey ? keys["epilogue"] : "";
  if (epilogueKey != hasEpilogue(info))
    return epilogueKey
               ? setError(ISAAC_ERROR_PARSE,
                          "isaac.kernel line: epilogue=%s but the name %s "
                          "has no _ep<ID> suffix",
                          epilogueId.c_str(), info.name)
               : setError(ISAAC_ERROR_PARSE,
                          "isaac.kernel line: the name %s has an _ep<ID> "
                          "suffix but there is no epilogue= key",
                          info.name);
  const char *epilogueBegin = nullptr;
  const char *epilogueEnd = nullptr;
  bool epilogueLine =
      findCommentLine(end, "// isaac.epilogue", epilogueBegin, epilogueEnd,
                      /*headerOnly=*/true);
  if (!hasEpilogue(info)) {
    if (epilogueLine)
      return setError(ISAAC_ERROR_PARSE,
                      "an '// isaac.epilogue' line describes kernel %s, "
                      "which has no fused epilogue",
                      info.name);
  } else {
    if (epilogueId != info.epilogue)
      return setError(ISAAC_ERROR_PARSE,
                      "isaac.kernel line: epilogue=%s disagrees with name %s",
                      epilogueId.c_str(), info.name);
    if (!epilogueLine)
      return setError(ISAAC_ERROR_PARSE,
                      "no '// isaac.epilogue id=... out=... inputs=... "
                      "program=...' line in the comment lines after the "
                      "isaac.kernel line of kernel %s, which has a fused "
                      "epilogue",
                      info.name);
    if (isaacStatus status =
            parseEpilogueLine(std::string(epilogueBegin, epilogueEnd), info))
      return status;
  }
  if (isaacStatus status = checkKernelInfo(info, ISAAC_ERROR_PARSE))
    return addErrorContext(status, "isaac.kernel line");
  out = info;
  return ISAAC_SUCCESS;
}

} // namespace
} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" isaacStatus isaacParseKernelName(const char *name,
                                            isaacKernelInfo *out) {
  if (!out)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "isaacParseKernelName: output pointer is NULL");
  return parseKernelName(name, *out);
}

extern "C" isaacStatus isaacParseKernelInfo(const char *ptxText,
                                            isaacKernelInfo *out) {
  if (!out)
    return setError(ISAAC_ERROR_INVALID_VALUE,
                    "isaacParseKernelInfo: output pointer is NULL");
  return parseKernelLine(ptxText, *out);
}
