//===- IsaacOps.td - isaac operations ----------------------*- tablegen -*-===//

#ifndef ISAAC_OPS
#define ISAAC_OPS

include "isaac/Dialect/IsaacDialect.td"
include "isaac/Dialect/IsaacAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Isaac_GemmOp : Isaac_Op<"gemm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface,
    IsolatedFromAbove,
    SingleBlock]> {
  let summary = "A (batched) GEMM with a fused epilogue";
  let description = [{
    `C[b, m, n] = epilogue(Σ_k op(A)[b, m, k]·op(B)[b, k, n], inputs...)`,
    written into `init` (destination style: on tensors it returns the
    result, on memrefs it writes `init`). `init` is only written, never
    read: an accumulation into an existing C is an input read through the
    identity map whose epilogue adds it.

    Operands are rank-2 (rank 3 with a leading batch dimension): A is M×K
    (K×M with `transpose_a`), B is K×N (N×K with `transpose_b`), `init`
    M×N. A and B share one element type, which is also the accumulation
    type, except for 16-bit operands (f16, bf16), which accumulate in f32;
    `init` may have another type (the epilogue converts). Each of the `inputs` (bias
    vectors, residual tensors, scalars) is read per output element through
    its map in `input_maps`, a projected permutation of the output's
    iteration space (`(m, n)` or `(b, m, n)`): `affine_map<(m, n) -> (n)>`
    is a per-column bias.

    The region computes one output element from the accumulated value (its
    first argument, of the accumulation type) and one element of each
    input, with arith and math operations (the list is
    include/isaac/Model/EpilogueOps.def), and yields it with `isaac.yield`.
    `isaac-fuse-epilogues` forms these ops from a `linalg.matmul` /
    `linalg.batch_matmul`, the `linalg.fill` of its init and the
    elementwise operations on its result; `isaac-lower-to-gpu` compiles
    them into one kernel (docs/abi.md, "Fused epilogues").

    ```mlir
    %r = isaac.gemm ins(%x, %w : tensor<16x512xf32>, tensor<512x256xf32>)
           inputs(%bias : tensor<256xf32>)
           outs(%init : tensor<16x256xf32>)
           attributes {input_maps = [affine_map<(m, n) -> (n)>]} {
    ^bb0(%acc: f32, %b: f32):
      %s = arith.addf %acc, %b : f32
      %zero = arith.constant 0.0 : f32
      %relu = arith.maximumf %s, %zero : f32
      isaac.yield %relu : f32
    } -> tensor<16x256xf32>
    ```
  }];
  let arguments = (ins AnyShaped:$a, AnyShaped:$b, Variadic<AnyShaped>:$inputs,
                       AnyShaped:$init, UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b, AffineMapArrayAttr:$input_maps);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)`
    (`inputs` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $init `:` type($init) `)`
    attr-dict-with-keyword $epilogue (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    MutableOperandRange getDpsInitsMutable() {
      return MutableOperandRange(getInitMutable());
    }
    /// Rank of the iteration space (2, or 3 when batched).
    int64_t getIterationRank() {
      return ::llvm::cast<ShapedType>(getInit().getType()).getRank();
    }
    bool isBatched() { return getIterationRank() == 3; }
    /// The accumulation element type: that of A and B, except f32 for
    /// 16-bit operands (f16, bf16), which tensor cores multiply into f32.
    Type getAccumulatorType() {
      Type ab = ::llvm::cast<ShapedType>(getA().getType()).getElementType();
      if (ab.isF16() || ab.isBF16())
        return Float32Type::get(getContext());
      return ab;
    }
    /// The region's terminator.
    YieldOp getYield();
  }];
}


def Isaac_ConvOp : Isaac_Op<"conv", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface,
    IsolatedFromAbove,
    SingleBlock]> {
  let summary = "A 2-D convolution with a fused epilogue";
  let description = [{
    `O[n, p, q, k] = epilogue(conv(input, filter)[n, p, q, k], inputs...)`,
    written into `init` (destination style, as `isaac.gemm`: on tensors it
    returns the result, on memrefs it writes `init`, which is never read).
    The convolution is that of `linalg.conv_2d_nhwc_hwcf` (`layout =
    "nhwc_hwcf"`) or `linalg.conv_2d_nhwc_fhwc` (`"nhwc_fhwc"`) with the
    given `strides` and `dilations` (vertical, horizontal) and `padding`
    (zero rows above and columns left of the input, default none; the
    padding after follows from P and Q, as for `isaac.launch_conv`): input
    N×H×W×C, filters R×S×C×K or K×R×S×C, `init` N×P×Q×K. Input and
    filters share one element type, which is also the accumulation type,
    except for 16-bit operands (f16, bf16), which accumulate in f32.

    The epilogue is `isaac.gemm`'s on the implicit GEMM whose rows are the
    output pixels (n, p, q) and whose columns are the output channels k:
    each of `inputs` is read per output element through its map in
    `input_maps`, which must be one the kernel addresses in that view: the
    identity (a residual N×P×Q×K tensor), `(n, p, q, k) -> (k)` (a
    per-channel bias or scale) or `(n, p, q, k) -> ()` (a scalar).
    `isaac-fuse-epilogues` forms these ops from a convolution, the
    zero-valued `tensor.pad` of its input (into `padding`: no padded copy),
    the fill of its init and the elementwise operations on its result;
    `isaac-lower-to-gpu` compiles them into one conv kernel (docs/abi.md,
    "Convolution kernel").

    ```mlir
    %r = isaac.conv ins(%x, %w : tensor<1x18x18x16xf32>, tensor<3x3x16x32xf32>)
           inputs(%bias : tensor<32xf32>)
           outs(%init : tensor<1x16x16x32xf32>)
           attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>,
                       dilations = array<i64: 1, 1>,
                       input_maps = [affine_map<(n, p, q, k) -> (k)>]} {
    ^bb0(%acc: f32, %b: f32):
      %s = arith.addf %acc, %b : f32
      %zero = arith.constant 0.0 : f32
      %relu = arith.maximumf %s, %zero : f32
      isaac.yield %relu : f32
    } -> tensor<1x16x16x32xf32>
    ```
  }];
  let arguments = (ins AnyShaped:$input, AnyShaped:$filter,
                       Variadic<AnyShaped>:$inputs, AnyShaped:$init,
                       StrAttr:$layout, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       AffineMapArrayAttr:$input_maps,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    (`inputs` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $init `:` type($init) `)`
    attr-dict-with-keyword $epilogue (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    MutableOperandRange getDpsInitsMutable() {
      return MutableOperandRange(getInitMutable());
    }
    /// The accumulation element type (as isaac.gemm's).
    Type getAccumulatorType() {
      Type ab = ::llvm::cast<ShapedType>(getInput().getType()).getElementType();
      if (ab.isF16() || ab.isBF16())
        return Float32Type::get(getContext());
      return ab;
    }
    /// The region's terminator.
    YieldOp getYield();
    /// `padding`, or (0, 0) without it.
    SmallVector<int64_t> getPaddingOrZero() {
      if (std::optional<ArrayRef<int64_t>> p = getPadding())
        return SmallVector<int64_t>(*p);
      return {0, 0};
    }
    /// The convolution (ConvShape of the operand shapes and attributes; its
    /// output type is the operands', the epilogue's being its own), or
    /// failure with `why` set.
    FailureOr<::isaac::ConvShape> getConvShape(std::string &why);
    /// Whether an epilogue input read through `map` (from the N x P x Q x K
    /// output space) is addressable in the implicit GEMM's (row, channel)
    /// view: the identity, `(k)` or `()`.
    static bool isEpilogueInputMap(AffineMap map);
  }];
}

def Isaac_YieldOp : Isaac_Op<"yield",
    [Pure, Terminator, ParentOneOf<["GemmOp", "ConvOp"]>]> {
  let summary = "Yields the output element of an isaac.gemm or isaac.conv "
                "epilogue";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

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

    With `epilogue` (the canonical text of an epilogue program,
    include/isaac/Model/Epilogue.h) the kernel applies that epilogue to
    each output element, reading one element of each of `inputs` through
    its map in `input_maps`; C may then have another element type, and the
    call is to `isaacGemmLaunchEpilogue`.
  }];
  let arguments = (ins SymbolRefAttr:$kernel, AnyMemRef:$a, AnyMemRef:$b,
                       AnyMemRef:$c, Variadic<AnyMemRef>:$inputs,
                       Isaac_GemmConfigAttr:$config,
                       BoolAttr:$trans_a, BoolAttr:$trans_b,
                       F64Attr:$alpha, F64Attr:$beta,
                       OptionalAttr<StrAttr>:$epilogue,
                       OptionalAttr<AffineMapArrayAttr>:$input_maps);
  let assemblyFormat = [{
    $kernel `(` $a `,` $b `,` $c `)` (`inputs` `(` $inputs^ `:` type($inputs) `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

def Isaac_LaunchConvOp : Isaac_Op<"launch_conv",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Host-side launch of a generated convolution kernel";
  let description = [{
    Produced by `isaac-lower-to-gpu` in place of a configured
    `linalg.conv_2d_nhwc_hwcf` / `linalg.conv_2d_nhwc_fhwc`: computes
    `output = alpha·conv(input, filter) + beta·output` on packed device
    memrefs with the generated kernel `kernel` (an `isaac_conv_...`
    `gpu.func`, later the `gpu.binary` of that name), the simt GEMM kernel
    on the implicit GEMM N·P·Q × K × C·R·S (docs/abi.md, "Convolution
    kernel"). `isaac-lower-launch` turns it into a call to the runtime's
    `isaacConvLaunch`.

    `layout` is `nhwc_hwcf` or `nhwc_fhwc`; `strides` and `dilations` are
    (vertical, horizontal); `padding` is the zero rows above and columns
    left of the input (the padding after follows from the output's size).

    With `epilogue` (an isaac.conv's, as text: include/isaac/Model/Epilogue.h)
    the kernel applies it to each output element of the implicit GEMM
    (rows N·P·Q, columns K), reading one element of each of `inputs`
    through its map in `input_maps`, a projected permutation of that
    `(m, n)` space (a residual collapsed to (N·P·Q)×K, a per-channel bias,
    a scalar); the output may then have another element type, and the call
    is to `isaacConvLaunchEpilogue`.

    ```mlir
    isaac.launch_conv @k::@k(%in, %f, %out) {config = #isaac.gemm<...>,
        layout = "nhwc_hwcf", strides = array<i64: 1, 1>,
        dilations = array<i64: 1, 1>, padding = array<i64: 0, 0>,
        alpha = 1.0, beta = 0.0}
      : memref<1x34x34x16xf32>, memref<3x3x16x32xf32>, memref<1x32x32x32xf32>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel, AnyMemRef:$input,
                       AnyMemRef:$filter, AnyMemRef:$output,
                       Variadic<AnyMemRef>:$inputs,
                       Isaac_GemmConfigAttr:$config, StrAttr:$layout,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       F64Attr:$alpha, F64Attr:$beta,
                       OptionalAttr<StrAttr>:$epilogue,
                       OptionalAttr<AffineMapArrayAttr>:$input_maps);
  let assemblyFormat = [{
    $kernel `(` $input `,` $filter `,` $output `)`
    (`inputs` `(` $inputs^ `:` type($inputs) `)`)?
    attr-dict `:` type($input) `,` type($filter) `,` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The convolution this launch computes (ConvShape of its operand
    /// shapes and attributes), or failure with `why` set.
    FailureOr<::isaac::ConvShape> getConvShape(std::string &why);
  }];
}

#endif // ISAAC_OPS
