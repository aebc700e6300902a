//===- Error.cpp - Thread-local error messages of the runtime -------------===//

#include "Error.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace isaac::runtime {

namespace {

/// The calling thread's message. The runtime is also called after the
/// thread's thread_local objects are destroyed: by the global destructors
/// that unload upstream GPU modules at exit (MgpuWrappers.h) and by other
/// thread_local destructors. So the string lives on the heap behind a
/// trivially destructible pointer, which its owner's destructor resets; a
/// later call allocates a new one, left to the process's end.
thread_local std::string *lastError = nullptr;
thread_local isaacStatus lastStatus = ISAAC_SUCCESS;

struct MessageOwner {
  ~MessageOwner() {
    delete lastError;
    lastError = nullptr;
  }
};
thread_local MessageOwner messageOwner;

std::string &message() {
  if (!lastError) {
    lastError = new std::string;
    // Registers the owner's destructor on the thread's first message; after
    // it ran, odr-using it again does not construct it twice.
    (void)&messageOwner;
  }
  return *lastError;
}

} // namespace

bool envFlag(const char *name, bool byDefault) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return byDefault;
  return std::strcmp(value, "0") != 0;
}

bool isVerbose() {
  static const bool verbose = envFlag("ISAAC_RUNTIME_VERBOSE", false);
  return verbose;
}

isaacStatus setErrorMessage(isaacStatus status, std::string text) {
  message() = std::move(text);
  lastStatus = status;
  if (isVerbose())
    std::fprintf(stderr, "isaac runtime: %s: %s\n", isaacStatusName(status),
                 message().c_str());
  return status;
}

isaacStatus setError(isaacStatus status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string message;
  if (length > 0) {
    std::vector<char> buffer(static_cast<size_t>(length) + 1);
    std::vsnprintf(buffer.data(), buffer.size(), format, args);
    message.assign(buffer.data(), static_cast<size_t>(length));
  }
  va_end(args);
  return setErrorMessage(status, std::move(message));
}

isaacStatus addErrorContext(isaacStatus status, const char *context) {
  // Not routed through setErrorMessage: the failure was already printed.
  message() = std::string(context) + ": " + message();
  return status;
}

} // namespace isaac::runtime

using namespace isaac::runtime;

extern "C" const char *isaacGetLastError(void) { return message().c_str(); }

extern "C" int32_t isaacGetLastStatus(void) { return lastStatus; }

extern "C" void isaacClearLastError(void) {
  message().clear();
  lastStatus = ISAAC_SUCCESS;
}

extern "C" const char *isaacStatusName(int32_t status) {
  switch (status) {
  case ISAAC_SUCCESS:
    return "ISAAC_SUCCESS";
  case ISAAC_ERROR_INVALID_VALUE:
    return "ISAAC_ERROR_INVALID_VALUE";
  case ISAAC_ERROR_DRIVER_NOT_FOUND:
    return "ISAAC_ERROR_DRIVER_NOT_FOUND";
  case ISAAC_ERROR_CUDA:
    return "ISAAC_ERROR_CUDA";
  case ISAAC_ERROR_JIT:
    return "ISAAC_ERROR_JIT";
  case ISAAC_ERROR_KERNEL_NOT_FOUND:
    return "ISAAC_ERROR_KERNEL_NOT_FOUND";
  case ISAAC_ERROR_PARSE:
    return "ISAAC_ERROR_PARSE";
  case ISAAC_ERROR_UNSUPPORTED:
    return "ISAAC_ERROR_UNSUPPORTED";
  case ISAAC_ERROR_OUT_OF_MEMORY:
    return "ISAAC_ERROR_OUT_OF_MEMORY";
  }
  return "ISAAC_ERROR_UNKNOWN_STATUS";
}
