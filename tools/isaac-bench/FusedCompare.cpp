//===- FusedCompare.cpp - Compare a fused kernel's output on the host -----===//
//
// The host half of a fused-epilogue check, without CUDA: what FusedCheck.cpp
// copies back from the GPU is compared here, so that the comparison itself is
// tested without a GPU (isaac-bench-host-test).
//
//===----------------------------------------------------------------------===//

#include "EpilogueCheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bench {
namespace {

/// The worst element of one thread's share.
struct Worst {
  double error = -1;
  int64_t element = -1;
  unsigned long long bad = 0;
};

} // namespace

FusedComparison compareFusedOutput(const isaac::EpilogueProgram &program,
                                   const FusedOutput &output) {
  const Problem &p = *output.p;
  int numInputs = program.numInputs();
  EpilogueReference reference(program);
  // Element e of the C allocation lies in the product, or -1.
  auto productIndex = [&](int64_t e, int64_t &b, int64_t &m, int64_t &n) {
    int64_t r = e - p.offset;
    if (r < 0)
      return int64_t(-1);
    b = r / p.sC;
    int64_t w = r - b * p.sC;
    m = w / p.ldc;
    n = w - m * p.ldc;
    return b < p.batch && m < p.M && n < p.N ? (b * p.M + m) * p.N + n
                                             : int64_t(-1);
  };
  // The reference of a product element: x, its error bound and the inputs.
  auto elementReference = [&](int64_t e, int64_t index, int64_t b, int64_t m,
                              int64_t n, double *in, double &x,
                              double &xError) {
    double c0 = output.beta != 0 ? loadElement(output.c0, p.outDtype, e) : 0.0;
    x = output.ref[index] + output.beta * c0;
    xError = output.gemmTolerance *
             (output.bound[index] + std::fabs(output.beta * c0));
    // As the runtime does, a single matrix has no batch stride.
    int64_t batchIndex = p.batch > 1 ? b : 0;
    for (int i = 0; i < numInputs; ++i)
      in[i] =
          loadElement(output.inputs[i], static_cast<int>(program.inputTypes[i]),
                      output.layouts[i].index(batchIndex, m, n));
  };

  int workers = workerCount(output.countC);
  std::vector<Worst> worst(workers);
  parallelFor(output.countC, workers, [&](int64_t begin, int64_t end, int w) {
    Worst &mine = worst[w];
    double in[isaac::kMaxEpilogueInputs];
    for (int64_t e = begin; e < end; ++e) {
      int64_t b = 0, m = 0, n = 0;
      int64_t index = productIndex(e, b, m, n);
      double error;
      bool passed;
      if (index < 0) {
        passed = sameElementBits(output.c, output.c0, p.outDtype, e);
        error = passed ? 0 : INFINITY;
      } else {
        double x, xError, expected;
        elementReference(e, index, b, m, n, in, x, xError);
        double c = loadElement(output.c, p.outDtype, e);
        // Most elements are within the allowance of epi(x) alone and below
        // the worst error so far: one evaluation instead of three.
        double bound = reference.errorBound(c, x, in, expected);
        if (bound <= 1 && bound <= mine.error)
          continue;
        EpilogueReference::Verdict v =
            reference.check(c, x, xError, in, &expected);
        passed = v.passed;
        error = v.error;
      }
      if (!passed)
        ++mine.bad;
      if (!(error <= mine.error)) {
        mine.error = error;
        mine.element = e;
      }
    }
  });
  Worst all;
  for (const Worst &w : worst) {
    all.bad += w.bad;
    if (w.element >= 0 && !(w.error <= all.error)) {
      all.error = w.error;
      all.element = w.element;
    }
  }
  FusedComparison result;
  result.maxError = std::max(0.0, all.error);
  result.badElements = all.bad;
  if (!all.bad)
    return result;

  // Explain the worst element.
  std::ostringstream os;
  os.precision(9);
  os << all.bad << " wrong elements (the product has " << p.batch * p.M * p.N
     << "); ";
  int64_t e = all.element, b = 0, m = 0, n = 0;
  int64_t index = productIndex(e, b, m, n);
  double got = loadElement(output.c, p.outDtype, e);
  if (index < 0) {
    os << "element " << e - p.offset
       << " of C (relative to the base pointer) lies outside the product "
          "(padding, batch gap or guard) and was overwritten: "
       << got << ", was " << loadElement(output.c0, p.outDtype, e);
  } else {
    double in[isaac::kMaxEpilogueInputs];
    double x, xError;
    elementReference(e, index, b, m, n, in, x, xError);
    EpilogueReference::Verdict v = reference.check(got, x, xError, in);
    os << "worst element C";
    if (p.batch > 1)
      os << "[batch " << b << "]";
    os << "(" << m << ", " << n << ") = " << got << ", expected " << v.expected;
    if (!std::isnan(v.low))
      os << " in [" << v.low << ", " << v.high << "]";
    os << " (error " << v.error << " of the tolerance; x = " << x << " +- "
       << xError;
    for (int i = 0; i < numInputs; ++i)
      os << ", in" << i << " = " << in[i];
    os << ")";
  }
  result.failure = os.str();
  return result;
}

} // namespace bench
