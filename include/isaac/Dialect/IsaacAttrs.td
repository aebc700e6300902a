//===- IsaacAttrs.td - isaac attributes --------------------*- tablegen -*-===//

#ifndef ISAAC_ATTRS
#define ISAAC_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "isaac/Dialect/IsaacDialect.td"

def Isaac_GemmConfigAttr : AttrDef<Isaac_Dialect, "GemmConfig"> {
  let mnemonic = "gemm";
  let summary = "ISAAC GEMM tuning vector";
  let description = [{
    ISAAC's GEMM parameterization (SC17 §3.2, Fig. 3):

    - `ml`, `nl`: the ML×NL tile of C computed by one block;
    - `ms`, `ns`: the MS×NS tile of C held in registers by one thread;
    - `u`: K-depth of each tile staged in shared memory (ML×U of A, U×NL of B);
    - `ks`, `kl`, `kg`: split of the reduction inside a thread (independent
      accumulators), across KL thread groups of a block (summed through
      shared memory) and across the grid (summed with global atomics);
    - `vec`: width, in elements, of the vectorized global loads.

    Threads per block are `(ml/ms)·(nl/ns)·kl`. The fetch layout (which
    thread loads which vector of a tile) is derived: contiguous dimension
    first, so that a warp's loads coalesce. The attribute checks the rules
    that need neither element type nor chip; the dialect checks the rest
    where the attribute is attached to an operation.

    ```mlir
    isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8,
                               ks = 1, kl = 1, kg = 1, vec = 4>
    ```
  }];
  let parameters = (ins "int64_t":$ml, "int64_t":$nl, "int64_t":$ms,
                        "int64_t":$ns, "int64_t":$u, "int64_t":$ks,
                        "int64_t":$kl, "int64_t":$kg, "int64_t":$vec);
  // Custom so that malformed attributes get diagnostics that name the
  // missing, repeated or unknown keyword.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The MLIR-free tuning vector.
    ::isaac::GemmConfig getConfig() const;
    static GemmConfigAttr get(::mlir::MLIRContext *ctx,
                              const ::isaac::GemmConfig &c);
  }];
}

#endif // ISAAC_ATTRS
