/*===- example-util.h - Helpers shared by the examples' drivers -*- C -*-===*\
|*                                                                          *|
|* Included by examples/e2e/main.c and examples/dl/main.c (one translation  *|
|* unit each): error checks of the CUDA runtime and of the isaac runtime,   *|
|* host allocation, a deterministic random stream.                          *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef ISAAC_EXAMPLES_EXAMPLE_UTIL_H
#define ISAAC_EXAMPLES_EXAMPLE_UTIL_H

#include "isaac/Runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,       \
              #call, cudaGetErrorName(err_), cudaGetErrorString(err_));        \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

/* Compiled host code ignores the runtime's return values; failures are
   kept in its per-thread last status. */
static void checkIsaac(const char *what) {
  int32_t status = isaacGetLastStatus();
  if (status != ISAAC_SUCCESS) {
    fprintf(stderr, "%s: isaac runtime failed: %s: %s\n", what,
            isaacStatusName(status), isaacGetLastError());
    exit(2);
  }
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

/* SplitMix64: a fixed seed, so every run checks the same values. */
static uint64_t rngState = 0x15aac2017u;

static uint64_t splitmix64(void) {
  uint64_t z = (rngState += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

#endif /* ISAAC_EXAMPLES_EXAMPLE_UTIL_H */
