//===- DeviceBuffer.h - Grow-only device allocations ------------*- C++ -*-===//
//
// The sweep runs thousands of problems of different sizes; reallocating per
// problem would dominate its run time, so buffers only ever grow.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_DEVICEBUFFER_H
#define ISAAC_BENCH_DEVICEBUFFER_H

#include <cstddef>

namespace bench {

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer();

  /// Makes the buffer at least `bytes` long; the contents are lost when it
  /// grows.
  void reserve(size_t bytes);
  void *data() const { return pointer; }
  template <typename T> T *as() const { return static_cast<T *>(pointer); }
  size_t size() const { return bytes; }

private:
  void *pointer = nullptr;
  size_t bytes = 0;
};

} // namespace bench

#endif // ISAAC_BENCH_DEVICEBUFFER_H
