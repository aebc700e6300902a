//===- EpilogueValues.cpp - The modes that need no GPU --------------------===//
//
// --list prints what the bench loaded from a kernel directory. --check-epilogue
// applies the fused-epilogue tolerance (EpilogueReference) to values computed
// elsewhere: test/Bench runs the epilogue programs of real kernels on the CPU
// (the same MLIR, math approximations included) and checks that the tolerance
// accepts them, and that it refuses them perturbed.
//
//===----------------------------------------------------------------------===//

#include "EpilogueCheck.h"
#include "Modes.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

namespace bench {
namespace {

/// Failures printed in full per kernel.
constexpr int kMaxReportedFailures = 5;

struct KernelValues {
  const KernelFile *kernel = nullptr;
  long long rows = 0, failed = 0;
  double worst = 0;
};

} // namespace

int runList(const Options &o, const std::vector<KernelFile> &kernels) {
  int fused = 0, listed = 0;
  for (const KernelFile &k : kernels) {
    const isaacKernelInfo &info = k.info;
    if (!selectsTypes(o, k.types()))
      continue;
    ++listed;
    std::printf("%s %s %s kg=%d", info.name, k.types().token().c_str(),
                layoutName(info.transA, info.transB), info.kg);
    if (k.epilogue) {
      ++fused;
      const isaac::EpilogueProgram &program = k.epilogue->program;
      std::printf(" epilogue=%s out=%s inputs=%d", info.epilogue,
                  isaac::dtypeName(program.outType), program.numInputs());
      std::printf(" program=%s", k.epilogue->text.c_str());
    }
    std::printf("\n");
  }
  std::printf("%d kernels (%d with a fused epilogue) in %s\n", listed, fused,
              o.ptxDir.c_str());
  return 0;
}

int runEpilogueValues(const Options &o,
                      const std::vector<KernelFile> &kernels) {
  const std::string &path = o.epilogueValues;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "isaac-bench: cannot read epilogue values '%s'\n",
                 path.c_str());
    return 2;
  }
  std::vector<KernelValues> blocks;
  std::unique_ptr<EpilogueReference> reference;
  int reported = 0;
  std::string line;
  int lineNumber = 0;
  auto malformed = [&](const std::string &why) {
    std::fprintf(stderr, "isaac-bench: %s:%d: %s\n", path.c_str(), lineNumber,
                 why.c_str());
    return 2;
  };
  while (std::getline(in, line)) {
    ++lineNumber;
    std::istringstream is(line);
    std::string first;
    if (!(is >> first) || first[0] == '#')
      continue;
    if (first == "kernel") {
      std::string name;
      is >> name;
      auto k = std::find_if(
          kernels.begin(), kernels.end(),
          [&](const KernelFile &f) { return name == f.info.name; });
      if (k == kernels.end() || !k->epilogue)
        return malformed("no fused kernel '" + name + "' in " + o.ptxDir);
      blocks.push_back({&*k});
      reference = std::make_unique<EpilogueReference>(k->epilogue->program);
      reported = 0;
      continue;
    }
    if (blocks.empty())
      return malformed("values before the first 'kernel NAME' line");
    KernelValues &block = blocks.back();
    const isaac::EpilogueProgram &program = block.kernel->epilogue->program;
    // x, the inputs, the output: raw bits in their types, as decimal
    // integers; negative ones are two's complement (what a signed print of
    // the bits writes).
    std::vector<uint64_t> bits;
    is.clear();
    is.str(line);
    std::string token;
    bool numbers = true;
    while (is >> token) {
      errno = 0;
      char *end = nullptr;
      uint64_t value =
          token[0] == '-'
              ? static_cast<uint64_t>(std::strtoll(token.c_str(), &end, 10))
              : std::strtoull(token.c_str(), &end, 10);
      numbers &= !token.empty() && *end == '\0' && errno == 0;
      bits.push_back(value);
    }
    if (!numbers || bits.size() != static_cast<size_t>(program.numInputs()) + 2)
      return malformed("expected " + std::to_string(program.numInputs() + 2) +
                       " integers (the bits of x, the inputs and the "
                       "output)");
    double x = decodeBits(bits[0], static_cast<int>(program.accType));
    double inputs[isaac::kMaxEpilogueInputs];
    for (int i = 0; i < program.numInputs(); ++i)
      inputs[i] =
          decodeBits(bits[1 + i], static_cast<int>(program.inputTypes[i]));
    double c = decodeBits(bits.back(), static_cast<int>(program.outType));
    EpilogueReference::Verdict v = reference->check(c, x, 0.0, inputs);
    ++block.rows;
    if (!(v.error <= block.worst))
      block.worst = v.error;
    if (v.passed)
      continue;
    ++block.failed;
    if (++reported <= kMaxReportedFailures) {
      std::printf("  FAIL %s line %d: x = %.9g", block.kernel->info.name,
                  lineNumber, x);
      for (int i = 0; i < program.numInputs(); ++i)
        std::printf(", in%d = %.9g", i, inputs[i]);
      std::printf(": %.9g, expected %.9g in [%.9g, %.9g] (error %.3g of the "
                  "tolerance)\n",
                  c, v.expected, v.low, v.high, v.error);
    }
  }
  long long rows = 0, failed = 0;
  for (const KernelValues &block : blocks) {
    EpilogueReference r(block.kernel->epilogue->program);
    std::printf("%s: %lld values, %lld failed, worst %.3g of the tolerance "
                "(arithmetic allowance %.3g of the scale)\n",
                block.kernel->info.name, block.rows, block.failed, block.worst,
                r.arithmeticUnit());
    rows += block.rows;
    failed += block.failed;
  }
  std::printf("epilogue values: %lld checked, %lld failed (%zu kernels)\n",
              rows, failed, blocks.size());
  if (rows == 0) {
    std::fprintf(stderr, "isaac-bench: no values in '%s'\n", path.c_str());
    return 2;
  }
  return failed ? 1 : 0;
}

} // namespace bench
