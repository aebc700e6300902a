//===- Timing.h - GPU time of GEMMs with cold caches ------------*- C++ -*-===//

#ifndef ISAAC_BENCH_TIMING_H
#define ISAAC_BENCH_TIMING_H

#include "DeviceBuffer.h"
#include "EpilogueCheck.h"
#include "Problem.h"

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace bench {

/// Copies of A, B and C for timing. A problem that fits in L2 would be
/// timed from L2 if run repeatedly on the same data; rotating through enough
/// copies that together exceed twice the L2 size measures it from memory, as
/// in an application that does other work between GEMMs.
class RotatingBuffers {
public:
  void prepare(const Problem &p, size_t l2Bytes, uint64_t seed,
               cudaStream_t stream);
  int copies() const { return count; }
  void *A(int i) const { return base(a[i % count]); }
  void *B(int i) const { return base(b[i % count]); }
  void *C(int i) const {
    return static_cast<char *>(c[i % count].data()) + offsetBytesC;
  }
  /// The largest power of two (at most 256) dividing every base pointer.
  unsigned alignment() const;

private:
  void *base(const DeviceBuffer &buffer) const {
    return static_cast<char *>(buffer.data()) + offsetBytes;
  }
  std::vector<DeviceBuffer> a, b, c;
  int count = 0;
  size_t offsetBytes = 0;
  size_t offsetBytesC = 0; // C may be of a fused epilogue's output type
};

/// The inputs of a fused epilogue for timing: as many copies as the
/// RotatingBuffers they go with, each input laid out by its pattern.
class RotatingInputs {
public:
  /// `patterns[i]` for input i (the last one for the rest); full and
  /// transposed inputs get the minimum leading dimension, batched problems
  /// a batch stride.
  void prepare(const KernelEpilogue &epilogue,
               const std::vector<InputPattern> &patterns, const Problem &p,
               int copies, uint64_t seed, cudaStream_t stream);
  /// The inputs of run `i`; null without inputs.
  const isaacEpilogueInput *inputs(int i) const {
    return args.empty() ? nullptr : args[i % count].data();
  }
  /// e.g. "in0 f32 col sBatch=0".
  const std::string &describe() const { return description; }

private:
  std::vector<std::vector<DeviceBuffer>> buffers; // [copy][input]
  std::vector<std::vector<isaacEpilogueInput>> args;
  int count = 0;
  std::string description;
};

/// Median GPU time in milliseconds of `op(rep)` over `reps` runs, after
/// `warmup` untimed runs. Each run is bracketed by CUDA events behind a
/// spinning kernel, so host-side launch overhead is not counted;
/// `beforeEach`, if given, is enqueued before each timed run, outside its
/// events (ColdL2's flush).
double medianMilliseconds(const std::function<void(int)> &op, int reps,
                          int warmup, cudaStream_t stream,
                          const std::function<void()> &beforeEach = {});

/// --collect --cold-l2: a buffer of twice the L2 size that `flush()` reads
/// (readThrough) before each timed run, so that a kernel timed repeatedly
/// on the same operands reads them from memory, as the tables' rotating
/// copies do. Inactive (flush() does nothing) unless constructed cold.
class ColdL2 {
public:
  /// Prepared on `device` when `cold`, else inactive.
  ColdL2(bool cold, int device) {
    if (cold)
      prepare(device);
  }
  void flush(cudaStream_t stream) const;
  bool active() const { return bytes != 0; }
  /// How a dataset's pairs were timed, for its '#' provenance lines.
  static const char *regime(bool cold) {
    return cold ? "cold (isaac-bench --collect --cold-l2: a read of twice "
                  "the L2 size before each timed run)"
                : "warm (operands left in L2 where they fit)";
  }
  /// The time --collect records for one (kernel, input) pair, each run
  /// preceded by this flush when active: one measured run first, and the
  /// median of `reps` only if that run succeeded (`failed()` is false) and
  /// took under kCollectMedianMs, so that slow configurations on large
  /// inputs keep their single time instead of spending a median's worth of
  /// runs. GEMM and conv datasets share the rule, so their rows compare.
  double collectMilliseconds(const std::function<void(int)> &op, int reps,
                             cudaStream_t stream,
                             const std::function<bool()> &failed) const;
  static constexpr double kCollectMedianMs = 5.0;

private:
  void prepare(int device);
  /// medianMilliseconds' beforeEach: the flush, or nothing when inactive.
  std::function<void()> hook(cudaStream_t stream) const {
    if (!active())
      return {};
    return [this, stream] { flush(stream); };
  }

  DeviceBuffer buffer, sink;
  size_t bytes = 0;
};

} // namespace bench

#endif // ISAAC_BENCH_TIMING_H
