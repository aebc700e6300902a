//===- Options.cpp - Command line of isaac-bench --------------------------===//

#include "Options.h"
#include "Check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace bench {
namespace {

const char kUsage[] = R"(usage: isaac-bench --ptx-dir DIR [options]

Checks isaac GEMM kernels (PTX files with a '// isaac.kernel' line, as
written by --isaac-pipeline="chip=sm_90 ptx-dir=DIR") against an fp64
reference and times them against cuBLAS and cuBLASLt.

Problems:
  --shapes LIST            named suites, comma-separated: table4 (the ISAAC
                           paper's Table 4, the default), linpack4096
                           (4096^3, nt)
  --shape M,N,K,LAYOUT[,lda,ldb,ldc]
                           a row-major problem; LAYOUT is nn, nt, tn or tt
                           (A then B, t = stored transposed); repeatable
  --shapes-file FILE       one --shape argument per line ('#' comments)
  --dtype LIST             GEMM types to run, comma-separated: f32, f64,
                           f16, bf16 (A, B, C of that type; f32
                           accumulation), f16f32, bf16f32 (16-bit A and B,
                           f32 C), tf32 (f32 A, B, C; TF32 multiplies),
                           both (f32,f64) or all (default: all; a type
                           without kernels in DIR is skipped)
  --batch B                batched GEMM with B matrices (default 1)
  --misalign               offset the A, B and C base pointers by one element

Kernels (a kernel with a ptxas-made DIR/<kernel>.cubin is loaded from that
image instead of being JIT-compiled by the driver):
  --kernel NAME            use only this kernel
  --best                   report the fastest passing kernel of the dtype and
                           layout for each problem (default)
  --candidates FILE        consider, for each problem, only the kernels listed
                           for its M N K ('M N K KERNEL' lines; e.g. a
                           model's top-k); problems without an entry are
                           skipped
  --topk N                 with --candidates: only the first N kernels listed
                           for each problem (a model's top-N, best first)
  --cache-out FILE         append the fastest passing kernel of each problem
                           as a tuning-cache line (docs/tuning.md) that
                           isaac-select-config="cache=FILE" reads back
  --all                    report every matching kernel
  --deterministic          split-K kernels (kg > 1) reduce through a workspace
                           instead of atomics

Measurement:
  --check-only             check correctness, do not time
  --reps N                 timed runs per measurement; the median is reported
                           (default 20)
  --warmup N               untimed runs first (default 5)
  --warm-l2                time every run on the same operands, which stay
                           in L2 where they fit (the regime of --collect and
                           the datasets), not on copies rotated past twice
                           the L2 size (the default: a cold cache)
  --seed N                 seed of the random inputs (default 1)
  --tol-f32 X, --tol-f64 X base tolerance of the relative error (default
                           1e-5, 1e-13; --tol-f32 serves every type that
                           accumulates in f32; README.md, "Tolerances")
  --peak-tflops F32[,F64[,F16[,TF32]]]
                           peaks for the roofline (default 67,67,989,494:
                           H100 SXM, dense: f32 without tensor cores, f64
                           on the FP64 tensor cores (DMMA, which cuBLAS and
                           isaac's mma family use; 34 on the FMA pipes),
                           f16/bf16 and tf32 on tensor cores)
  --bw-gbs X               memory bandwidth for the roofline (default 3000)
  --device N               CUDA device (default 0)

Output:
  --csv FILE               write the table as CSV, row by row (an
                           interrupted run keeps the rows it finished)
  --png FILE               write a bar chart of TFLOPS per problem

Correctness sweep:
  --sweep                  check every kernel in DIR on many sizes, leading
                           dimensions, alignments, both beta cases and both
                           split-K modes; prints 'sweep: N passed, N failed'
  --sweep-sizes LIST       comma-separated sizes for M, N and K (default
                           1,2,7,31,32,33,127,128,129,1000,2049)

Fused epilogues (kernels named ..._ep<ID>, see docs/abi.md): every mode
checks them against their '// isaac.epilogue' program; each check draws a
layout per input (full, full-t, row, col, scalar; batch stride or none):
  --epilogue-inputs LIST   layouts of the inputs when timing, one per input
                           (the last repeats): full, full-t, row, col or
                           scalar (default col: a per-column bias)
  --epilogue-overhead      time each problem's kernel (the first of its
                           --candidates, or every matching plain kernel) as a
                           plain kernel and as each fused kernel of the same
                           configuration (its name plus _ep<ID>); prints the
                           ratio fused/plain per problem and the geomean
                           (--csv writes the rows)

Convolutions (kernels named isaac_conv_*, see docs/abi.md):
  --conv                   check and time the convolution kernels of DIR
                           instead of its GEMM kernels, launched with
                           isaacConvLaunch, against an fp64 reference and
                           cuDNN (NHWC and NCHW, best of
                           cudnnFindConvolutionForwardAlgorithmEx)
  --conv-shapes LIST       named suites, comma-separated: table5 (the ISAAC
                           paper's Table 5, the default), resnet50 (the
                           distinct convolutions of ResNet-50, batch 32)
  --conv-shape N,H,W,C,K,R,S[,strideH,strideW[,padTop,padLeft[,dilationH,dilationW[,P,Q]]]]
                           a convolution (NHWC input); strides and
                           dilations default to 1, padding to 0 ('same':
                           the output keeps ceil(H/stride) rows); P and Q
                           follow from the padding, the same after the
                           input as before it, unless given; repeatable
  --conv-shapes-file FILE  one --conv-shape argument per line ('#' comments)
  --conv-layout LIST       nhwc_hwcf, nhwc_fhwc (default: every layout DIR
                           has kernels of)
  --conv-sweep             check every convolution kernel on the sweep's
                           edge cases (strides, dilation, padding, odd
                           sizes, C and K of 1 and 3, misaligned bases, both
                           betas and both split-K modes); prints
                           'conv sweep: N passed, N failed'
  --cudnn-lib PATH         the cuDNN 9 library (default: ISAAC_CUDNN_LIBRARY,
                           else libcudnn.so.9 from the loader's search path);
                           without it the timing says 'cuDNN not found'
  With --conv, --dtype, --kernel, --all, --check-only, --deterministic,
  --misalign, --csv, --png, --reps, --warmup, --seed and the tolerances
  apply as for GEMMs; --candidates (with --topk) lists kernels under the
  implicit GEMM's 'M N K' (N*P*Q, K, C*R*S); --list prints the convolution
  kernels and problems.

Without a GPU:
  --list                   print the kernels of DIR and their epilogues; a
                           fused kernel whose header or program is malformed
                           is an error (exit 2), as in every mode
  --check-epilogue FILE    check epilogue values computed elsewhere with the
                           tolerance of the checks: 'kernel NAME' lines, each
                           followed by rows of the raw bits (unsigned
                           decimal) of x, in0.. and the output, in their types

Dataset collection (isaac-tune's samples, docs/tuning.md):
  --collect SAMPLES        time each kernel on the inputs listed for it in
                           SAMPLES ('KERNEL M N K' lines; with --conv,
                           'KERNEL N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q'
                           lines of isaac-tune sample --op conv, and the
                           conv dataset's columns; --list prints the plan
                           without a GPU)
  --out CSV                rows are appended; samples already in CSV are
                           skipped (resumable)
  --time-limit S           stop cleanly after S seconds
  --ld-align N             (GEMM) leading dimensions rounded up to a
                           multiple of N elements (default 1: minimal), so
                           that the kernels' vectorized copies apply; a new
                           CSV records N in a '#' line
  --cold-l2                read a buffer of twice the L2 size before each
                           timed run, so that the operands come from memory
                           (the regime of the tables' rotating copies);
                           without it a pair is timed on operands left in
                           L2 where they fit (warm, the shipped datasets')

  -v, --verbose            print every check and measurement
  -h, --help               this text

The exit status is 1 if any check fails, 2 on a usage or CUDA error or a
malformed fused kernel.
)";

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "isaac-bench: %s\n(see isaac-bench --help)\n",
               message.c_str());
  std::exit(2);
}

int64_t parseInteger(const std::string &flag, const std::string &text,
                     int64_t min, int64_t max) {
  try {
    size_t used = 0;
    long long value = std::stoll(text, &used);
    if (used == text.size() && value >= min && value <= max)
      return value;
  } catch (...) {
  }
  usageError(flag + " expects an integer in [" + std::to_string(min) + ", " +
             std::to_string(max) + "], got '" + text + "'");
}

double parsePositive(const std::string &flag, const std::string &text) {
  try {
    size_t used = 0;
    double value = std::stod(text, &used);
    if (used == text.size() && value > 0)
      return value;
  } catch (...) {
  }
  usageError(flag + " expects a positive number, got '" + text + "'");
}

} // namespace

Options parseOptions(int argc, char **argv) {
  Options o;
  bool suitesGiven = false; // --shapes given
  std::vector<Shape> suites;
  bool gemmShapesGiven = false; // --shape(s), --shapes-file
  bool convGiven = false;       // --conv-shape(s), --conv-shapes-file
  std::vector<ConvSpec> convSuites;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usageError(arg + " expects a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--ptx-dir") {
      o.ptxDir = value();
    } else if (arg == "--shapes") {
      // Suites, in the order given, before the --shape problems.
      for (const std::string &name : splitCommas(value())) {
        std::vector<Shape> suite;
        if (!namedShapes(name, suite))
          usageError("--shapes knows table4 and linpack4096, got '" + name +
                     "'");
        suites.insert(suites.end(), suite.begin(), suite.end());
      }
      suitesGiven = true;
      gemmShapesGiven = true;
    } else if (arg == "--shape") {
      Shape shape;
      std::string error;
      if (!parseShape(value(), shape, error))
        usageError(error);
      o.shapes.push_back(shape);
      gemmShapesGiven = true;
    } else if (arg == "--shapes-file") {
      std::string error;
      if (!readShapesFile(value(), o.shapes, error))
        usageError(error);
      gemmShapesGiven = true;
    } else if (arg == "--dtype") {
      std::string list = value();
      o.dtypeGiven = true;
      o.types.clear();
      auto add = [&](const isaac::GemmTypes &t) {
        if (std::find(o.types.begin(), o.types.end(), t) == o.types.end())
          o.types.push_back(t);
      };
      for (const std::string &token : splitCommas(list)) {
        if (token.empty())
          continue;
        if (token == "both") {
          add(*isaac::GemmTypes::parseToken("f32"));
          add(*isaac::GemmTypes::parseToken("f64"));
        } else if (token == "all") {
          for (const isaac::GemmTypes &t : allGemmTypes())
            add(t);
        } else if (std::optional<isaac::GemmTypes> t =
                       isaac::GemmTypes::parseToken(token)) {
          add(*t);
        } else {
          usageError("--dtype expects a comma-separated list of f32, f64, "
                     "f16, bf16, f16f32, bf16f32, tf32, both or all, got '" +
                     list + "'");
        }
      }
      if (o.types.empty())
        usageError("--dtype expects at least one type");
    } else if (arg == "--batch") {
      o.batch = parseInteger(arg, value(), 1, 65535);
    } else if (arg == "--misalign") {
      o.misalign = true;
    } else if (arg == "--kernel") {
      o.kernel = value();
    } else if (arg == "--best") {
      o.allKernels = false;
    } else if (arg == "--all") {
      o.allKernels = true;
    } else if (arg == "--deterministic") {
      o.deterministic = true;
    } else if (arg == "--check-only") {
      o.checkOnly = true;
    } else if (arg == "--reps") {
      o.reps = static_cast<int>(parseInteger(arg, value(), 1, 100000));
    } else if (arg == "--warm-l2") {
      o.warmL2 = true;
    } else if (arg == "--cold-l2") {
      o.coldL2 = true;
    } else if (arg == "--warmup") {
      o.warmup = static_cast<int>(parseInteger(arg, value(), 0, 100000));
    } else if (arg == "--seed") {
      o.seed = static_cast<uint64_t>(parseInteger(arg, value(), 0, INT64_MAX));
    } else if (arg == "--tol-f32") {
      o.tolerance[0] = parsePositive(arg, value());
    } else if (arg == "--tol-f64") {
      o.tolerance[1] = parsePositive(arg, value());
    } else if (arg == "--peak-tflops") {
      std::vector<std::string> parts = splitCommas(value());
      if (parts.empty() || parts.size() > 4)
        usageError("--peak-tflops expects F32[,F64[,F16[,TF32]]]");
      for (size_t i = 0; i < parts.size(); ++i)
        o.peakTflops[i] = parsePositive(arg, parts[i]);
    } else if (arg == "--bw-gbs") {
      o.bandwidthGBs = parsePositive(arg, value());
    } else if (arg == "--device") {
      o.device = static_cast<int>(parseInteger(arg, value(), 0, 1024));
    } else if (arg == "--csv") {
      o.csvPath = value();
    } else if (arg == "--png") {
      o.pngPath = value();
    } else if (arg == "--sweep") {
      o.sweep = true;
    } else if (arg == "--sweep-sizes") {
      for (const std::string &part : splitCommas(value()))
        o.sweepSizes.push_back(parseInteger(arg, part, 1, 1 << 20));
      if (o.sweepSizes.empty())
        usageError("--sweep-sizes expects a list of sizes");
    } else if (arg == "--candidates") {
      std::string path = value();
      std::ifstream in(path);
      if (!in)
        usageError("cannot read candidates file '" + path + "'");
      std::string line;
      while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
          continue;
        std::istringstream is(line);
        long long m, n, k;
        std::string name;
        if (!(is >> m >> n >> k >> name))
          usageError("candidates file '" + path +
                     "': expected 'M N K KERNEL' lines, got '" + line + "'");
        o.candidates[std::to_string(m) + "," + std::to_string(n) + "," +
                     std::to_string(k)]
            .push_back(name);
      }
    } else if (arg == "--topk") {
      o.topk = static_cast<int>(parseInteger(arg, value(), 1, 1 << 20));
    } else if (arg == "--cache-out") {
      o.cacheOut = value();
    } else if (arg == "--collect") {
      o.collectSamples = value();
    } else if (arg == "--out") {
      o.collectOut = value();
    } else if (arg == "--ld-align") {
      o.ldAlign = static_cast<int>(parseInteger(arg, value(), 1, 1024));
    } else if (arg == "--time-limit") {
      o.timeLimitSeconds = parsePositive(arg, value());
    } else if (arg == "--list") {
      o.list = true;
    } else if (arg == "--check-epilogue") {
      o.epilogueValues = value();
    } else if (arg == "--epilogue-inputs") {
      std::string error;
      if (!parsePatternList(value(), o.epilogueInputs, error))
        usageError("--epilogue-inputs: " + error);
    } else if (arg == "--epilogue-overhead") {
      o.epilogueOverhead = true;
    } else if (arg == "--conv") {
      o.conv = true;
    } else if (arg == "--conv-shapes") {
      for (const std::string &name : splitCommas(value())) {
        std::vector<ConvSpec> suite;
        if (!namedConvShapes(name, suite))
          usageError("--conv-shapes knows table5 and resnet50, got '" + name +
                     "'");
        convSuites.insert(convSuites.end(), suite.begin(), suite.end());
      }
      convGiven = true;
    } else if (arg == "--conv-shape") {
      ConvSpec spec;
      std::string error;
      if (!parseConvShape(value(), spec, error))
        usageError(error);
      o.convSpecs.push_back(spec);
      convGiven = true;
    } else if (arg == "--conv-shapes-file") {
      std::string error;
      if (!readConvShapesFile(value(), o.convSpecs, error))
        usageError(error);
      convGiven = true;
    } else if (arg == "--conv-layout") {
      for (const std::string &token : splitCommas(value())) {
        std::optional<isaac::ConvLayout> layout = isaac::parseConvLayout(token);
        if (!layout || *layout == isaac::ConvLayout::NchwFchw)
          usageError("--conv-layout expects a comma-separated list of "
                     "nhwc_hwcf and nhwc_fhwc, got '" +
                     token + "'");
        if (std::find(o.convLayouts.begin(), o.convLayouts.end(), *layout) ==
            o.convLayouts.end())
          o.convLayouts.push_back(*layout);
      }
    } else if (arg == "--conv-sweep") {
      o.convSweep = true;
    } else if (arg == "--cudnn-lib") {
      o.cudnnLibrary = value();
    } else if (arg == "-v" || arg == "--verbose") {
      o.verbose = true;
    } else {
      usageError("unknown argument '" + arg + "'");
    }
  }
  if (o.ptxDir.empty())
    usageError("--ptx-dir DIR is required");
  if (o.topk && o.candidates.empty())
    usageError("--topk N needs --candidates FILE");
  if (!o.collectSamples.empty() && o.collectOut.empty())
    usageError("--collect SAMPLES needs --out CSV");
  if (o.coldL2 && o.collectSamples.empty())
    usageError("--cold-l2 goes with --collect (the other modes time cold "
               "by default; --warm-l2 makes them warm)");
  if (o.epilogueOverhead &&
      (o.checkOnly || o.sweep || !o.collectSamples.empty()))
    usageError("--epilogue-overhead times kernels: it does not combine with "
               "--check-only, --sweep or --collect");
  if (o.conv) {
    // Convolutions are another kind of problem: the GEMM-only modes and
    // problems do not combine with them.
    if (gemmShapesGiven)
      usageError("--conv takes --conv-shape(s), not --shape(s)");
    if (o.sweep)
      usageError("--conv takes --conv-sweep, not --sweep");
    if (o.epilogueOverhead || !o.epilogueValues.empty() ||
        !o.cacheOut.empty() || o.batch != 1)
      usageError("--conv does not combine with --epilogue-overhead, "
                 "--check-epilogue, --cache-out or --batch");
    if (!o.collectSamples.empty() &&
        (convGiven || o.convSweep || !o.candidates.empty() || o.checkOnly))
      usageError("--conv --collect times the pairs of its samples file; it "
                 "does not combine with --conv-shape(s), --conv-sweep, "
                 "--candidates or --check-only");
    if (o.convSweep && convGiven)
      usageError("--conv-sweep runs its own problems; it does not combine "
                 "with --conv-shape(s)");
  } else if (convGiven || o.convSweep || !o.convLayouts.empty() ||
             !o.cudnnLibrary.empty()) {
    usageError("--conv-shape(s), --conv-sweep, --conv-layout and --cudnn-lib "
               "need --conv");
  }
  o.convSpecs.insert(o.convSpecs.begin(), convSuites.begin(), convSuites.end());
  if (o.conv && !o.convSweep && o.convSpecs.empty())
    o.convSpecs = table5ConvShapes();
  if (o.conv && o.convSweep)
    o.convSpecs = convSweepShapes();
  if (!suitesGiven && o.shapes.empty())
    suites = table4Shapes();
  o.shapes.insert(o.shapes.begin(), suites.begin(), suites.end());
  if (o.tolerance[0] == 0)
    o.tolerance[0] = kDefaultToleranceF32;
  if (o.tolerance[1] == 0)
    o.tolerance[1] = kDefaultToleranceF64;
  return o;
}

bool selectsTypes(const Options &o, const isaac::GemmTypes &types) {
  return std::find(o.types.begin(), o.types.end(), types) != o.types.end();
}

bool selectsConvLayout(const Options &o, isaac::ConvLayout layout) {
  return o.convLayouts.empty() ||
         std::find(o.convLayouts.begin(), o.convLayouts.end(), layout) !=
             o.convLayouts.end();
}

double baseTolerance(const Options &o, const Problem &p) {
  return o.tolerance[p.computeDtype() == 1 ? 1 : 0];
}

double peakTflops(const Options &o, const Problem &p) {
  if (p.types.tf32)
    return o.peakTflops[3];
  if (p.dtype == 2 || p.dtype == 3)
    return o.peakTflops[2];
  return o.peakTflops[p.dtype == 1 ? 1 : 0];
}

} // namespace bench
