//===- Check.cpp - Check one isaac launch against the fp64 reference ------===//

#include "Check.h"
#include "CudaCheck.h"
#include "DeviceKernels.h"
#include "EpilogueCheck.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace bench {

namespace {

/// Element `index` of an array of an isaacDtype on the device.
double readElement(const void *base, int dtype, int64_t index,
                   cudaStream_t stream) {
  size_t size = dtypeSize(dtype);
  unsigned char bytes[8] = {};
  CUDA_CHECK(cudaMemcpyAsync(bytes,
                             static_cast<const char *>(base) + index * size,
                             size, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return loadElement(bytes, dtype, 0);
}

/// Explains the element `e` of the C allocation that had the largest error
/// (relative, or a fraction of the tolerance when `fraction`).
std::string describeWorst(const Problem &p, int64_t e, double error,
                          bool fraction, const CheckBuffers &buffers,
                          cudaStream_t stream) {
  std::ostringstream os;
  os.precision(17);
  double got = readElement(buffers.C.data(), p.outDtype, e, stream);
  double before = readElement(buffers.C0.data(), p.outDtype, e, stream);
  int64_t r = e - p.offset;
  int64_t b = r >= 0 ? r / p.sC : -1, w = r - b * p.sC;
  int64_t m = w / p.ldc, n = w % p.ldc;
  if (r >= 0 && b < p.batch && m < p.M && n < p.N) {
    double want = 0;
    CUDA_CHECK(cudaMemcpyAsync(
        &want, buffers.ref.as<double>() + (b * p.M + m) * p.N + n,
        sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    os << "worst element C";
    if (p.batch > 1)
      os << "[batch " << b << "]";
    os << "(" << m << ", " << n << ") = " << got << ", expected " << want
       << (fraction ? " (error " : " (relative error ") << error
       << (fraction ? " of the tolerance)" : ")");
  } else {
    os << "element " << r << " of C (relative to the base pointer) lies "
       << "outside the product (padding, batch gap or guard) and was "
          "overwritten: "
       << got << ", was " << before;
  }
  return os.str();
}

} // namespace

int operandBits(const Problem &p) {
  if (p.types.tf32 && !p.tf32FullInputs)
    return kTf32Bits;
  return inputBits(p.dtype);
}

int32_t launchKernel(const KernelFile &kernel, const Problem &p, void *C,
                     const void *A, const void *B, double alpha, double beta,
                     int flags, const isaacEpilogueInput *inputs,
                     cudaStream_t stream) {
  const isaacKernelInfo &info = kernel.info;
  if (kernel.epilogue)
    return isaacGemmLaunchEpilogue(
        kernel.ptx.c_str(), info.name, info.dtype, info.ml, info.nl,
        info.threads, info.kg, C, A, B, static_cast<int32_t>(p.M),
        static_cast<int32_t>(p.N), static_cast<int32_t>(p.K),
        static_cast<int32_t>(p.lda), static_cast<int32_t>(p.ldb),
        static_cast<int32_t>(p.ldc), p.sA, p.sB, p.sC,
        static_cast<int32_t>(p.batch), alpha, beta, stream, flags,
        kernel.epilogue->program.numInputs(), inputs);
  return isaacGemmLaunch(
      kernel.ptx.c_str(), info.name, info.dtype, info.ml, info.nl, info.threads,
      info.kg, C, A, B, static_cast<int32_t>(p.M), static_cast<int32_t>(p.N),
      static_cast<int32_t>(p.K), static_cast<int32_t>(p.lda),
      static_cast<int32_t>(p.ldb), static_cast<int32_t>(p.ldc), p.sA, p.sB,
      p.sC, static_cast<int32_t>(p.batch), alpha, beta, stream, flags);
}

CheckOutcome checkKernel(const KernelFile &kernel, const Problem &p,
                         double alpha, double beta, int flags, uint64_t seed,
                         double tolerance, CheckBuffers &buffers,
                         cudaStream_t stream) {
  if (kernel.epilogue)
    return checkFusedKernel(kernel, p, alpha, beta, flags, seed, tolerance,
                            buffers, stream);
  size_t size = p.elementSize(), outSize = p.outElementSize();
  int64_t countA = p.offset + p.spanA(), countB = p.offset + p.spanB();
  int64_t countC = p.offset + p.spanC() + kGuardElements;
  int64_t outputs = p.batch * p.M * p.N;
  if (countC >= (int64_t(1) << 32))
    fatal(__FILE__, __LINE__,
          "C of " + p.describe() + " is too large for the checker");
  buffers.A.reserve(countA * size);
  buffers.B.reserve(countB * size);
  buffers.C.reserve(countC * outSize);
  buffers.C0.reserve(countC * outSize);
  buffers.ref.reserve(outputs * sizeof(double));
  buffers.bound.reserve(outputs * sizeof(double));
  buffers.result.reserve(sizeof(CompareResult));

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
  auto base = [&](const DeviceBuffer &buffer, size_t elementSize) {
    return static_cast<char *>(buffer.data()) + p.offset * elementSize;
  };
  referenceGemm(p, base(buffers.A, size), base(buffers.B, size),
                base(buffers.C0, outSize), buffers.ref.as<double>(),
                buffers.bound.as<double>(), alpha, beta, stream);

  CheckOutcome outcome;
  ErrorModel model = checkErrorModel(p, tolerance);
  outcome.errorIsFraction = model.fraction;
  int32_t status =
      launchKernel(kernel, p, base(buffers.C, outSize), base(buffers.A, size),
                   base(buffers.B, size), alpha, beta, flags, nullptr, stream);
  if (status != ISAAC_SUCCESS) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    outcome.maxError = INFINITY;
    outcome.failure = std::string("isaacGemmLaunch returned ") +
                      isaacStatusName(status) + ": " + isaacGetLastError();
    return outcome;
  }
  CompareResult *result = buffers.result.as<CompareResult>();
  CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(CompareResult), stream));
  compareWithReference(p, buffers.C.data(), buffers.C0.data(),
                       buffers.ref.as<double>(), buffers.bound.as<double>(),
                       countC, model, result, stream);
  CompareResult host;
  CUDA_CHECK(cudaMemcpyAsync(&host, result, sizeof(host),
                             cudaMemcpyDeviceToHost, stream));
  // A faulting isaac kernel surfaces here.
  CUDA_CHECK(cudaStreamSynchronize(stream));

  uint32_t errorBits = static_cast<uint32_t>(host.worst >> 32);
  float error;
  std::memcpy(&error, &errorBits, sizeof(error));
  outcome.maxError = error;
  outcome.badElements = host.bad;
  outcome.passed = host.bad == 0;
  if (!outcome.passed) {
    std::ostringstream os;
    os << host.bad << " wrong elements (the product has " << outputs << "); "
       << describeWorst(p, static_cast<int64_t>(host.worst & 0xffffffffu),
                        error, model.fraction, buffers, stream);
    outcome.failure = os.str();
  }
  return outcome;
}

} // namespace bench
