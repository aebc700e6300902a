//===- Options.h - Command line of isaac-bench ------------------*- C++ -*-===//

#ifndef ISAAC_BENCH_OPTIONS_H
#define ISAAC_BENCH_OPTIONS_H

#include "ConvShapes.h"
#include "EpilogueCheck.h"
#include "Problem.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bench {

struct Options {
  std::string ptxDir;
  std::vector<Shape> shapes; // empty: Table 4
  /// --dtype: the GEMM types to run (every type by default, where DIR has
  /// kernels of it).
  std::vector<isaac::GemmTypes> types = allGemmTypes();
  bool dtypeGiven = false;
  std::string kernel;      // only this kernel
  bool allKernels = false; // a row per kernel instead of the best one
  bool checkOnly = false;
  int reps = 20;
  int warmup = 5;
  /// --warm-l2: time every run on the same operands (the regime of
  /// --collect and the datasets) instead of copies rotated past twice the
  /// L2 size.
  bool warmL2 = false;
  std::string csvPath;
  std::string pngPath;
  bool deterministic = false;
  bool misalign = false;
  uint64_t seed = 1;
  int64_t batch = 1;
  bool sweep = false;
  std::vector<int64_t> sweepSizes; // empty: the default sizes
  double tolerance[2] = {0, 0};    // f32 accumulation (every type but f64), f64
  /// Roofline peaks (H100 SXM, dense): f32 without tensor cores, f64 on
  /// the FP64 tensor cores (DMMA: the fastest exact f64, used by cuBLAS
  /// and by isaac's mma family; twice the FMA pipes' 34), f16/bf16 and
  /// TF32 tensor cores.
  double peakTflops[4] = {67.0, 67.0, 989.0, 494.0};
  double bandwidthGBs = 3000.0;
  int device = 0;
  bool verbose = false;
  // --candidates: per-problem kernel lists ("M,N,K" -> kernel names, in
  // the file's order, e.g. a model's ranking); --topk keeps the first N.
  std::map<std::string, std::vector<std::string>> candidates;
  int topk = 0;         // 0: all listed
  std::string cacheOut; // --cache-out: tuning-cache lines of the winners
  // --collect: time kernels on the inputs of a samples file (dataset mode).
  std::string collectSamples;
  std::string collectOut;
  int ldAlign = 1; // --ld-align: leading dimensions' multiple (elements)
  double timeLimitSeconds = 0; // 0: none
  /// --cold-l2 (with --collect): flush L2 before each timed run (ColdL2).
  bool coldL2 = false;
  // --list: print the kernels of the directory and exit (no GPU).
  bool list = false;
  // --check-epilogue: check computed epilogue values (no GPU).
  std::string epilogueValues;
  // --epilogue-inputs: layouts of fused epilogues' inputs when timing.
  std::vector<InputPattern> epilogueInputs = {InputPattern::Column};
  // --epilogue-overhead: time each plain kernel against its fused versions.
  bool epilogueOverhead = false;
  // --conv: convolution kernels (isaac_conv_*) instead of GEMMs, on
  // convSpecs (default: Table 5) or, with --conv-sweep, the sweep's
  // problems; the layouts of --conv-layout (default: all DIR has).
  bool conv = false;
  std::vector<ConvSpec> convSpecs;
  bool convSweep = false;
  std::vector<isaac::ConvLayout> convLayouts;
  // --cudnn-lib: the cuDNN library (else $ISAAC_CUDNN_LIBRARY, else
  // libcudnn.so.9 from the default search path).
  std::string cudnnLibrary;
};

/// Parses argv; prints usage and exits on --help or an error.
Options parseOptions(int argc, char **argv);

/// Whether --dtype selects `types`.
bool selectsTypes(const Options &o, const isaac::GemmTypes &types);

/// The base tolerance of checks of `p`: --tol-f64 for f64, --tol-f32 for
/// every type that accumulates in f32.
double baseTolerance(const Options &o, const Problem &p);

/// Whether --conv-layout selects `layout`.
bool selectsConvLayout(const Options &o, isaac::ConvLayout layout);

/// The roofline's peak for `p`, in TFLOPS.
double peakTflops(const Options &o, const Problem &p);

} // namespace bench

#endif // ISAAC_BENCH_OPTIONS_H
