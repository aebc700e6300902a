//===- ConvBench.h - Convolution checks, timing and report ------*- C++ -*-===//
//
// isaac-bench --conv: convolution kernels (isaac_conv_*) launched through
// the runtime's host ABI isaacConvLaunch, checked element by element
// against an fp64 reference and timed against cuDNN in the same run.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_CONVBENCH_H
#define ISAAC_BENCH_CONVBENCH_H

#include "Check.h"
#include "ConvShapes.h"
#include "DeviceBuffer.h"
#include "KernelDir.h"
#include "Options.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {

/// The kernels of `kernels` that compute `p`: convolution kernels of its
/// types and layout, restricted to those --candidates lists under the
/// implicit GEMM's M, N, K (N*P*Q, K, C*R*S; the first --topk of them that
/// match) when a list is given.
std::vector<const KernelFile *>
convCandidates(const Options &o, const std::vector<KernelFile> &kernels,
               const ConvProblem &p);

/// Whether `p` is a 1x1, stride-1, unpadded convolution: the GEMM
/// (N*H*W x C)(C x K) that isaac-conv-to-gemm compiles it as, which
/// launchConvKernel runs with a GEMM kernel (nn for hwcf, nt for fhwc).
bool isPointwise(const ConvProblem &p);

/// Launches `kernel` on `p` as compiled code does (isaacConvLaunch, or
/// isaacGemmLaunch for a GEMM kernel on a pointwise convolution); returns
/// the isaacStatus.
int32_t launchConvKernel(const KernelFile &kernel, const ConvProblem &p,
                         void *O, const void *I, const void *F, double alpha,
                         double beta, int flags, cudaStream_t stream);

struct ConvCheckBuffers {
  DeviceBuffer I, F, O, O0, ref, bound, result;
};

/// Runs a convolution, writing O from I and F (base pointers, already
/// offset); returns "" or why it could not run.
using ConvLauncher =
    std::function<std::string(void *O, const void *I, const void *F)>;

/// One check: fresh random I and F (exact in their type, as the GEMM
/// checks draw them) stored as `storage` says, O poisoned with NaN when
/// beta is 0 and random otherwise, `launch` run once, and every element of
/// the O allocation compared on the GPU with the fp64 reference under
/// `model` (the misalignment gap and 64 guard elements after the output
/// must stay bitwise unchanged). A failure names the number of wrong
/// elements, the first one and the worst one as O(n, p, q, k) = got,
/// expected.
CheckOutcome checkConv(const ConvProblem &p, ConvStorage storage,
                       const ConvLauncher &launch, double alpha, double beta,
                       uint64_t seed, const ErrorModel &model,
                       ConvCheckBuffers &buffers, cudaStream_t stream);

/// checkConv of an isaac kernel, with the GEMM checks' error model on the
/// implicit GEMM (reduction length C*R*S; `tolerance` is --tol-f32 or
/// --tol-f64).
CheckOutcome checkConvKernel(const KernelFile &kernel, const ConvProblem &p,
                             double alpha, double beta, int flags,
                             uint64_t seed, double tolerance,
                             ConvCheckBuffers &buffers, cudaStream_t stream);

/// A row of the --conv table: a problem (types and layout included), the
/// kernel chosen and the measurements (NaN where not measured).
struct ConvRow {
  ConvProblem problem;
  std::string kernel; // the fastest passing kernel, or "N kernels"
  std::string status; // PASS, FAIL or SKIP
  double maxError = NAN;
  bool errorIsFraction = false;
  double isaacMs = NAN;
  /// cuDNN's best in its NHWC [0] and NCHW [1] formats: the algorithm
  /// (cudnnConvolutionFwdAlgo_t, -1 if none) and its time.
  int cudnnAlgo[2] = {-1, -1};
  double cudnnMs[2] = {NAN, NAN};
  /// The largest error of cuDNN's best algorithms against the reference
  /// (relative to the bound, or a fraction of the loose allowance of
  /// kCudnnBoundRel for 16-bit outputs); NaN when not run.
  double cudnnError = NAN;
  double rooflineTflops = NAN;

  double tflops(double ms) const {
    return problem.flops() / (ms * 1e-3) / 1e12;
  }
  /// The faster of cuDNN's two formats, in TFLOPS (NaN if neither ran).
  double bestCudnnTflops() const;
};

/// cuDNN's results are checked against the reference with this bound
/// factor instead of the accumulation's: FFT and Winograd algorithms err
/// more than a direct sum, while a wrong descriptor (stride, padding,
/// layout) errs by about 1.
constexpr double kCudnnBoundRel = 1e-2;

void printConvHeader(std::FILE *out);
void printConvRow(std::FILE *out, const ConvRow &row);
/// The convolution table's CSV header and the line of one row (written
/// row by row through Report.h's CsvFile).
std::string convCsvHeader();
std::string convCsvLine(const ConvRow &row);
/// Grouped bars per row: isaac, cuDNN NHWC, cuDNN NCHW, roofline marked.
bool writeConvChart(const std::string &path, const std::vector<ConvRow> &rows,
                    const std::string &title, std::string &error);

} // namespace bench

#endif // ISAAC_BENCH_CONVBENCH_H
