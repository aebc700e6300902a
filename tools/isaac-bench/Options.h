//===- Options.h - Command line of isaac-bench ------------------*- C++ -*-===//

#ifndef ISAAC_BENCH_OPTIONS_H
#define ISAAC_BENCH_OPTIONS_H

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
  std::vector<int> dtypes = {0, 1};
  bool dtypeGiven = false;
  std::string kernel;      // only this kernel
  bool allKernels = false; // a row per kernel instead of the best one
  bool checkOnly = false;
  int reps = 20;
  int warmup = 5;
  std::string csvPath;
  std::string pngPath;
  bool deterministic = false;
  bool misalign = false;
  uint64_t seed = 1;
  int64_t batch = 1;
  bool sweep = false;
  std::vector<int64_t> sweepSizes; // empty: the default sizes
  double tolerance[2] = {0, 0};    // f32, f64
  double peakTflops[2] = {67.0, 34.0};
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
  double timeLimitSeconds = 0; // 0: none
  // --list: print the kernels of the directory and exit (no GPU).
  bool list = false;
  // --check-epilogue: check computed epilogue values (no GPU).
  std::string epilogueValues;
  // --epilogue-inputs: layouts of fused epilogues' inputs when timing.
  std::vector<InputPattern> epilogueInputs = {InputPattern::Column};
  // --epilogue-overhead: time each plain kernel against its fused versions.
  bool epilogueOverhead = false;
};

/// Parses argv; prints usage and exits on --help or an error.
Options parseOptions(int argc, char **argv);

} // namespace bench

#endif // ISAAC_BENCH_OPTIONS_H
