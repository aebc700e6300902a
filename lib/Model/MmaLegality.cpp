//===- MmaLegality.cpp - Legality rules of the mma family -----------------===//
//
// The rules of configurations of the mma family (warp-level mma.sync
// kernels). Until the mma generator exists no such configuration can be
// compiled, so every one is refused, by the `family` rule. Its shared
// memory (mmaSharedMemoryBytes) is what the generator allocates.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

using namespace isaac;

void isaac::checkMmaRules(const GemmConfig &, DType, const ChipLimits &,
                          Report &r) {
  r.fail("family",
         [] { return std::string("the mma family is not compiled yet"); });
}

int isaac::mmaSharedMemoryBytes(const GemmConfig &c, DType dtype) {
  // `stages` buffers of an ML×U tile of A and a U×NL tile of B.
  return c.stages * c.u * (c.ml + c.nl) * dtypeBytes(dtype);
}
