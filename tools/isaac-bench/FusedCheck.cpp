//===- FusedCheck.cpp - Check a fused-epilogue kernel against the reference
//===//
//
// The GEMM part is computed in fp64 on the GPU as for plain kernels (with
// beta = 0: C may be f16 or bf16, which the reference kernel does not read);
// everything else happens on the host, because the epilogue's meaning is
// EpilogueProgram::evaluate, a CPU function: C, its copy from before the
// launch, the reference, the bound and the inputs are copied back and every
// element of the C allocation is checked on all CPU threads.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "CudaCheck.h"
#include "DeviceKernels.h"
#include "EpilogueCheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bench {
namespace {

/// splitmix64: the layouts drawn for a check depend only on its seed.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % n); }

private:
  uint64_t state;
};

/// The worst element of one thread's share.
struct Worst {
  double error = -1;
  int64_t element = -1;
  unsigned long long bad = 0;
};

template <typename T>
void copyToHost(std::vector<T> &host, const void *device, size_t count,
                cudaStream_t stream) {
  host.resize(count);
  CUDA_CHECK(cudaMemcpyAsync(host.data(), device, count * sizeof(T),
                             cudaMemcpyDeviceToHost, stream));
}

} // namespace

CheckOutcome checkFusedKernel(const KernelFile &kernel, const Problem &problem,
                              double alpha, double beta, int flags,
                              uint64_t seed, double tolerance,
                              CheckBuffers &buffers, cudaStream_t stream) {
  const isaac::EpilogueProgram &program = kernel.epilogue->program;
  Problem p = problem;
  p.outDtype = kernel.info.outDtype;
  size_t size = p.elementSize(), outSize = p.outElementSize();
  int64_t countA = p.offset + p.spanA(), countB = p.offset + p.spanB();
  int64_t countC = p.offset + p.spanC() + kGuardElements;
  int64_t outputs = p.batch * p.M * p.N;
  if (countC >= (int64_t(1) << 32))
    fatal(__FILE__, __LINE__,
          "C of " + p.describe() + " is too large for the checker");

  // The inputs' layouts, drawn from the seed.
  Random random(seed);
  int numInputs = program.numInputs();
  std::vector<InputLayout> layouts;
  static const int64_t kLdPads[] = {0, 1, 3, 7};
  for (int i = 0; i < numInputs; ++i) {
    auto pattern = static_cast<InputPattern>(random.below(kNumInputPatterns));
    int64_t ldPad = kLdPads[random.below(4)];
    bool batchStride = random.below(2) == 1;
    int64_t batchPad = random.below(2);
    layouts.push_back(
        makeInputLayout(pattern, p, ldPad, batchStride, batchPad, p.offset));
  }

  buffers.A.reserve(countA * size);
  buffers.B.reserve(countB * size);
  buffers.C.reserve(countC * outSize);
  buffers.C0.reserve(countC * outSize);
  buffers.ref.reserve(outputs * sizeof(double));
  buffers.bound.reserve(outputs * sizeof(double));
  if (buffers.inputs.size() < static_cast<size_t>(numInputs))
    buffers.inputs.resize(numInputs);
  fillUniform(buffers.A.data(), p.dtype, countA, seed * 3 + 0, stream);
  fillUniform(buffers.B.data(), p.dtype, countB, seed * 3 + 1, stream);
  if (beta == 0)
    fillNaN(buffers.C.data(), p.outDtype, countC, stream);
  else
    fillUniform(buffers.C.data(), p.outDtype, countC, seed * 3 + 2, stream);
  CUDA_CHECK(cudaMemcpyAsync(buffers.C0.data(), buffers.C.data(),
                             countC * outSize, cudaMemcpyDeviceToDevice,
                             stream));
  std::vector<isaacEpilogueInput> args(numInputs);
  for (int i = 0; i < numInputs; ++i) {
    int type = static_cast<int>(program.inputTypes[i]);
    size_t inSize = dtypeSize(type);
    buffers.inputs[i].reserve(layouts[i].count * inSize);
    fillUniform(buffers.inputs[i].data(), type, layouts[i].count,
                seed * 1000003u + 7 * (i + 1), stream);
    args[i] = {static_cast<char *>(buffers.inputs[i].data()) +
                   layouts[i].offset * inSize,
               layouts[i].sBatch, layouts[i].sRow, layouts[i].sCol};
  }
  auto base = [&](const DeviceBuffer &buffer, size_t elementSize) {
    return static_cast<char *>(buffer.data()) + p.offset * elementSize;
  };
  // alpha*acc and |alpha|*sum|a||b| only; beta*C_old is added on the host,
  // where C_old of any output type is at hand.
  referenceGemm(p, base(buffers.A, size), base(buffers.B, size), nullptr,
                buffers.ref.as<double>(), buffers.bound.as<double>(), alpha,
                0.0, stream);

  CheckOutcome outcome;
  outcome.errorIsFraction = true;
  {
    std::ostringstream os;
    for (int i = 0; i < numInputs; ++i)
      os << (i ? ", " : "") << "in" << i << " "
         << isaac::dtypeName(program.inputTypes[i]) << " "
         << layouts[i].describe();
    outcome.inputs = os.str();
  }
  int32_t status = launchKernel(kernel, p, base(buffers.C, outSize),
                                base(buffers.A, size), base(buffers.B, size),
                                alpha, beta, flags, args.data(), stream);
  if (status != ISAAC_SUCCESS) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    outcome.maxError = INFINITY;
    outcome.failure = std::string("isaacGemmLaunchEpilogue returned ") +
                      isaacStatusName(status) + ": " + isaacGetLastError();
    return outcome;
  }

  std::vector<char> c, c0;
  std::vector<double> ref, bound;
  std::vector<std::vector<char>> inputs(numInputs);
  copyToHost(c, buffers.C.data(), countC * outSize, stream);
  copyToHost(c0, buffers.C0.data(), countC * outSize, stream);
  copyToHost(ref, buffers.ref.data(), outputs, stream);
  copyToHost(bound, buffers.bound.data(), outputs, stream);
  for (int i = 0; i < numInputs; ++i)
    copyToHost(inputs[i], buffers.inputs[i].data(),
               layouts[i].count *
                   dtypeSize(static_cast<int>(program.inputTypes[i])),
               stream);
  // A faulting isaac kernel surfaces here.
  CUDA_CHECK(cudaStreamSynchronize(stream));

  EpilogueReference reference(program);
  double gemmTolerance = checkTolerance(tolerance, p);
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
    double c0Value = beta != 0 ? loadElement(c0.data(), p.outDtype, e) : 0.0;
    x = ref[index] + beta * c0Value;
    xError = gemmTolerance * (bound[index] + std::fabs(beta * c0Value));
    // As the runtime does, a single matrix has no batch stride.
    int64_t batchIndex = p.batch > 1 ? b : 0;
    for (int i = 0; i < numInputs; ++i)
      in[i] =
          loadElement(inputs[i].data(), static_cast<int>(program.inputTypes[i]),
                      layouts[i].index(batchIndex, m, n));
  };

  int workers = workerCount(countC);
  std::vector<Worst> worst(workers);
  parallelFor(countC, workers, [&](int64_t begin, int64_t end, int w) {
    Worst &mine = worst[w];
    double in[isaac::kMaxEpilogueInputs];
    for (int64_t e = begin; e < end; ++e) {
      int64_t b = 0, m = 0, n = 0;
      int64_t index = productIndex(e, b, m, n);
      double error;
      bool passed;
      if (index < 0) {
        passed = sameElementBits(c.data(), c0.data(), p.outDtype, e);
        error = passed ? 0 : INFINITY;
      } else {
        double x, xError;
        elementReference(e, index, b, m, n, in, x, xError);
        EpilogueReference::Verdict v = reference.check(
            loadElement(c.data(), p.outDtype, e), x, xError, in);
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
  outcome.maxError = std::max(0.0, all.error);
  outcome.badElements = all.bad;
  outcome.passed = all.bad == 0;
  if (outcome.passed)
    return outcome;

  // Explain the worst element.
  std::ostringstream os;
  os.precision(9);
  os << all.bad << " wrong elements (the product has " << outputs << "); ";
  int64_t e = all.element, b = 0, m = 0, n = 0;
  int64_t index = productIndex(e, b, m, n);
  double got = loadElement(c.data(), p.outDtype, e);
  if (index < 0) {
    os << "element " << e - p.offset
       << " of C (relative to the base pointer) lies outside the product "
          "(padding, batch gap or guard) and was overwritten: "
       << got << ", was " << loadElement(c0.data(), p.outDtype, e);
  } else {
    double in[isaac::kMaxEpilogueInputs];
    double x, xError;
    elementReference(e, index, b, m, n, in, x, xError);
    EpilogueReference::Verdict v = reference.check(got, x, xError, in);
    os << "worst element C";
    if (p.batch > 1)
      os << "[batch " << b << "]";
    os << "(" << m << ", " << n << ") = " << got << ", expected " << v.expected
       << " in [" << v.low << ", " << v.high << "] (error " << v.error
       << " of the tolerance; x = " << x << " +- " << xError;
    for (int i = 0; i < numInputs; ++i)
      os << ", in" << i << " = " << in[i];
    os << ")";
  }
  outcome.failure = os.str();
  return outcome;
}

} // namespace bench
