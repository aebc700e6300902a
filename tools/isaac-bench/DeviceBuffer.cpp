//===- DeviceBuffer.cpp - Grow-only device allocations --------------------===//

#include "DeviceBuffer.h"
#include "CudaCheck.h"

#include <utility>

namespace bench {

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : pointer(std::exchange(other.pointer, nullptr)),
      bytes(std::exchange(other.bytes, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  std::swap(pointer, other.pointer);
  std::swap(bytes, other.bytes);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  // Only reached on normal paths: fatal errors exit without unwinding.
  if (pointer)
    CUDA_CHECK(cudaFree(pointer));
}

void DeviceBuffer::reserve(size_t size) {
  if (size <= bytes)
    return;
  if (pointer) {
    // Work enqueued earlier may still use the old buffer.
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(pointer));
    pointer = nullptr;
    bytes = 0;
  }
  // Some headroom, so that a series of growing problems reallocates rarely.
  size_t rounded = size + size / 4;
  CUDA_CHECK(cudaMalloc(&pointer, rounded));
  bytes = rounded;
}

} // namespace bench
