//===- Timing.cpp - GPU time of GEMMs with cold caches --------------------===//

#include "Timing.h"
#include "CudaCheck.h"
#include "DeviceKernels.h"

#include <algorithm>

namespace bench {

/// Copies beyond this add nothing but allocation time.
constexpr int kMaxCopies = 64;
/// Longer than the host needs to enqueue two events and a GEMM (a few
/// microseconds, more for cuBLASLt), so that the GPU never waits for it
/// inside a measurement.
constexpr uint64_t kDelayNanoseconds = 100000;

void RotatingBuffers::prepare(const Problem &p, size_t l2Bytes, uint64_t seed,
                              cudaStream_t stream) {
  size_t size = p.elementSize();
  size_t bytesA = (p.offset + p.spanA()) * size;
  size_t bytesB = (p.offset + p.spanB()) * size;
  // C holds the output type of a fused epilogue.
  size_t bytesC = (p.offset + p.spanC()) * p.outElementSize();
  size_t perCopy = bytesA + bytesB + bytesC;
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  size_t wanted = 2 * l2Bytes / perCopy + 1;
  size_t affordable = std::max<size_t>(1, freeBytes / 2 / perCopy);
  count = static_cast<int>(
      std::min<size_t>({wanted, affordable, size_t(kMaxCopies)}));
  offsetBytes = p.offset * size;
  offsetBytesC = p.offset * p.outElementSize();
  if (a.size() < static_cast<size_t>(count)) {
    a.resize(count);
    b.resize(count);
    c.resize(count);
  }
  for (int i = 0; i < count; ++i) {
    a[i].reserve(bytesA);
    b[i].reserve(bytesB);
    c[i].reserve(bytesC);
    uint64_t s = seed * 1000003u + i * 3u;
    fillUniform(a[i].data(), p.dtype, bytesA / size, s, stream);
    fillUniform(b[i].data(), p.dtype, bytesB / size, s + 1, stream);
    fillUniform(c[i].data(), p.outDtype, bytesC / p.outElementSize(), s + 2,
                stream);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

unsigned RotatingBuffers::alignment() const {
  uintptr_t bits = 256;
  for (int i = 0; i < count; ++i)
    for (const DeviceBuffer *buffer : {&a[i], &b[i], &c[i]})
      bits |= reinterpret_cast<uintptr_t>(base(*buffer));
  return static_cast<unsigned>(bits & (~bits + 1));
}

void RotatingInputs::prepare(const KernelEpilogue &epilogue,
                             const std::vector<InputPattern> &patterns,
                             const Problem &p, int copies, uint64_t seed,
                             cudaStream_t stream) {
  const isaac::EpilogueProgram &program = epilogue.program;
  int numInputs = program.numInputs();
  count = std::max(1, copies);
  args.assign(numInputs ? count : 0, {});
  buffers.resize(count);
  description.clear();
  for (int i = 0; i < numInputs; ++i) {
    InputPattern pattern = fitPattern(
        patterns.empty() ? InputPattern::Column
                         : patterns[std::min<size_t>(i, patterns.size() - 1)],
        program.dimsOf(i));
    InputLayout layout = makeInputLayout(pattern, p, 0, true, 0, p.offset);
    int type = static_cast<int>(program.inputTypes[i]);
    size_t size = dtypeSize(type);
    description += (i ? ", in" : "in") + std::to_string(i) + " " +
                   dtypeName(type) + " " + layout.describe();
    for (int copy = 0; copy < count; ++copy) {
      buffers[copy].resize(numInputs);
      DeviceBuffer &buffer = buffers[copy][i];
      buffer.reserve(layout.count * size);
      fillUniform(buffer.data(), type, layout.count,
                  seed * 1000003u + copy * 17u + i, stream);
      args[copy].push_back(
          {static_cast<char *>(buffer.data()) + layout.offset * size,
           layout.sBatch, layout.sRow, layout.sCol});
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

void ColdL2::prepare(int device) {
  int l2 = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  bytes = (2 * static_cast<size_t>(l2) + 15) / 16 * 16;
  buffer.reserve(bytes);
  sink.reserve(16);
  CUDA_CHECK(cudaMemset(buffer.data(), 0, bytes));
}

void ColdL2::flush(cudaStream_t stream) const {
  if (active())
    readThrough(buffer.data(), bytes, static_cast<int *>(sink.data()), stream);
}

double ColdL2::collectMilliseconds(const std::function<void(int)> &op, int reps,
                                   cudaStream_t stream,
                                   const std::function<bool()> &failed) const {
  std::function<void()> beforeRun = hook(stream);
  double ms = medianMilliseconds(op, 1, 1, stream, beforeRun);
  if (!failed() && ms < kCollectMedianMs)
    ms = medianMilliseconds(op, reps, 0, stream, beforeRun);
  return ms;
}

double medianMilliseconds(const std::function<void(int)> &op, int reps,
                          int warmup, cudaStream_t stream,
                          const std::function<void()> &beforeEach) {
  for (int i = 0; i < warmup; ++i)
    op(i);
  std::vector<cudaEvent_t> starts(reps), stops(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&starts[i]));
    CUDA_CHECK(cudaEventCreate(&stops[i]));
  }
  for (int i = 0; i < reps; ++i) {
    if (beforeEach)
      beforeEach();
    delayStream(kDelayNanoseconds, stream);
    CUDA_CHECK(cudaEventRecord(starts[i], stream));
    op(warmup + i);
    CUDA_CHECK(cudaEventRecord(stops[i], stream));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> times(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventElapsedTime(&times[i], starts[i], stops[i]));
    CUDA_CHECK(cudaEventDestroy(starts[i]));
    CUDA_CHECK(cudaEventDestroy(stops[i]));
  }
  std::sort(times.begin(), times.end());
  return reps % 2 ? times[reps / 2]
                  : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
}

} // namespace bench
