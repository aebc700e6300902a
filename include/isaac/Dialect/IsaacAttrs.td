//===- IsaacAttrs.td - isaac attributes --------------------*- tablegen -*-===//

#ifndef ISAAC_ATTRS
#define ISAAC_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "isaac/Dialect/IsaacDialect.td"

def Isaac_GemmConfigAttr : AttrDef<Isaac_Dialect, "GemmConfig"> {
  let mnemonic = "gemm";
  let summary = "ISAAC GEMM kernel configuration";
  let description = [{
    A GEMM kernel configuration: its family and one value per tuning
    parameter of isaac/Model/GemmParams.def, the table every consumer of
    the tuning space derives from (docs/architecture.md, "The tuning-space
    schema"). The `simt` family (the default, not written) is ISAAC's
    parameterization (SC17 §3.2, Fig. 3):

    - `ml`, `nl`: the ML×NL tile of C computed by one block;
    - `ms`, `ns`: the MS×NS tile of C held in registers by one thread;
    - `u`: K-depth of each tile staged in shared memory (ML×U of A, U×NL of B);
    - `ks`, `kl`, `kg`: split of the reduction inside a thread (independent
      accumulators), across KL thread groups of a block (summed through
      shared memory) and across the grid (summed with global atomics);
    - `vec`: width, in elements, of the vectorized global loads;
    - `stages`: tiles in flight in the shared-memory pipeline (optional,
      default 2, written only when it differs).

    `family = mma` as the first key selects the warp-level `mma.sync`
    family, whose parameters are `ml`, `nl`, `wm`, `wn` (the warp's tile of
    C), `u`, `kl`, `kg`, `vec` and `stages`. A key the family does not use
    is an error. Threads per block of a simt kernel are
    `(ml/ms)·(nl/ns)·kl`. The attribute checks the rules that need neither
    element type nor chip; the dialect checks the rest where the attribute
    is attached to an operation.

    ```mlir
    isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8,
                               ks = 1, kl = 1, kg = 1, vec = 4>
    isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64,
                               wn = 32, u = 32, kl = 1, kg = 1, vec = 8,
                               stages = 4>
    ```
  }];
  // The family and the value of every parameter of GemmParams.def in
  // table order (a parameter the family does not use holds its default),
  // so that adding a parameter changes no code here.
  let parameters = (ins "::isaac::GemmFamily":$family,
                        ArrayRefParameter<"int64_t",
                          "parameter values, GemmParams.def order">:$values);
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
