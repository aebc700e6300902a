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
  size_t bytesC = (p.offset + p.spanC()) * size;
  size_t perCopy = bytesA + bytesB + bytesC;
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  size_t wanted = 2 * l2Bytes / perCopy + 1;
  size_t affordable = std::max<size_t>(1, freeBytes / 2 / perCopy);
  count = static_cast<int>(
      std::min<size_t>({wanted, affordable, size_t(kMaxCopies)}));
  offsetBytes = p.offset * size;
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
    fillUniform(c[i].data(), p.dtype, bytesC / size, s + 2, stream);
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

double medianMilliseconds(const std::function<void(int)> &op, int reps,
                          int warmup, cudaStream_t stream) {
  for (int i = 0; i < warmup; ++i)
    op(i);
  std::vector<cudaEvent_t> starts(reps), stops(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&starts[i]));
    CUDA_CHECK(cudaEventCreate(&stops[i]));
  }
  for (int i = 0; i < reps; ++i) {
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
