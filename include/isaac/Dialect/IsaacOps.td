//===- IsaacOps.td - isaac operations ----------------------*- tablegen -*-===//

#ifndef ISAAC_OPS
#define ISAAC_OPS

include "isaac/Dialect/IsaacDialect.td"
include "isaac/Dialect/IsaacAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Isaac_LaunchGemmOp : Isaac_Op<"launch_gemm",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Host-side launch of a generated GEMM kernel";
  let description = [{
    Produced by `isaac-lower-to-gpu` in place of a `linalg.matmul` or
    `linalg.batch_matmul`: computes `C = alpha·op(A)·op(B) + beta·C` on
    device memrefs with the generated kernel `kernel` (a `gpu.func` inside a
    `gpu.module`, later the `gpu.binary` of that name). `isaac-lower-launch`
    turns it into a call to the runtime's `isaacGemmLaunch` (docs/abi.md).
    Operands are rank-2 memrefs (rank 3 with a leading batch dimension) of
    f32 or f64 with static shapes; `trans_a`/`trans_b` say that A is stored
    K×M / B is stored N×K.
  }];
  let arguments = (ins SymbolRefAttr:$kernel, AnyMemRef:$a, AnyMemRef:$b,
                       AnyMemRef:$c, Isaac_GemmConfigAttr:$config,
                       BoolAttr:$trans_a, BoolAttr:$trans_b,
                       F64Attr:$alpha, F64Attr:$beta);
  let assemblyFormat = [{
    $kernel `(` $a `,` $b `,` $c `)` attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

#endif // ISAAC_OPS
