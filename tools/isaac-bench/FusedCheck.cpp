//===- FusedCheck.cpp - Check a fused-epilogue kernel against the reference
//===//
//
// The GEMM part is computed in fp64 on the GPU as for plain kernels (with
// beta = 0: C may be f16 or bf16, which the reference kernel does not read);
// everything else happens on the host, because the epilogue's meaning is
// EpilogueProgram::evaluate, a CPU function: C, its copy from before the
// launch, the reference, the bound and the inputs are copied back and
// compareFusedOutput checks every element of the C allocation.
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
    // Any layout the kernel reads correctly: a kernel compiled for a
    // per-column input gets a column vector or a scalar.
    auto pattern = static_cast<InputPattern>(random.below(kNumInputPatterns));
    while (!patternFits(pattern, program.dimsOf(i)))
      pattern = static_cast<InputPattern>(random.below(kNumInputPatterns));
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
  int bits = operandBits(p);
  fillUniform(buffers.A.data(), p.dtype, countA, seed * 3 + 0, stream, bits);
  fillUniform(buffers.B.data(), p.dtype, countB, seed * 3 + 1, stream, bits);
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

  FusedOutput output;
  output.p = &p;
  output.beta = beta;
  output.gemmTolerance = checkTolerance(tolerance, p);
  output.countC = countC;
  output.c = c.data();
  output.c0 = c0.data();
  output.ref = ref.data();
  output.bound = bound.data();
  output.layouts = layouts;
  for (int i = 0; i < numInputs; ++i)
    output.inputs.push_back(inputs[i].data());
  FusedComparison result = compareFusedOutput(program, output);
  outcome.maxError = result.maxError;
  outcome.badElements = result.badElements;
  outcome.passed = result.badElements == 0;
  outcome.failure = result.failure;
  return outcome;
}

} // namespace bench
