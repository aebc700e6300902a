//===- Error.h - Thread-local error messages of the runtime -----*- C++ -*-===//
//
// Every failing entry point records why in a per-thread message, because the
// C interface can only return a status and callers on different threads must
// not see each other's messages.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_RUNTIME_ERROR_H
#define ISAAC_LIB_RUNTIME_ERROR_H

#include "isaac/Runtime/Runtime.h"

#include <exception>
#include <new>
#include <string>

namespace isaac::runtime {

/// Sets the calling thread's message to the printf-style text and returns
/// `status`, so that failures read `return setError(...)`.
isaacStatus setError(isaacStatus status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Sets the message verbatim.
isaacStatus setErrorMessage(isaacStatus status, std::string message);

/// Prefixes the current message with `context` (e.g. the entry point name),
/// keeping the status.
isaacStatus addErrorContext(isaacStatus status, const char *context);

/// Runs `body` (returning isaacStatus) so that no C++ exception escapes
/// through the C interface: a failed host allocation becomes a status.
template <typename Body>
isaacStatus guardExceptions(const char *entryPoint, Body &&body) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return setError(ISAAC_ERROR_OUT_OF_MEMORY, "%s: out of host memory",
                    entryPoint);
  } catch (const std::exception &e) {
    return setError(ISAAC_ERROR_INVALID_VALUE, "%s: internal error: %s",
                    entryPoint, e.what());
  }
#else
  (void)entryPoint;
  return body();
#endif
}

/// The switch environment variable `name`: `byDefault` when it is unset or
/// empty, false when it is "0", true otherwise. Callers read it once (into a
/// static): getenv is not required to be thread-safe against setenv.
bool envFlag(const char *name, bool byDefault);

/// Whether ISAAC_RUNTIME_VERBOSE asks the runtime to print its failures and
/// JIT logs to stderr.
bool isVerbose();

} // namespace isaac::runtime

#endif // ISAAC_LIB_RUNTIME_ERROR_H
