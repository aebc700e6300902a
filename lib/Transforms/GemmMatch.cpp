//===- GemmMatch.cpp - Recognizing the GEMMs isaac can compile ------------===//

#include "GemmMatch.h"

#include "isaac/Dialect/IsaacDialect.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::isaac;

/// The map (d_batch?, d0, d1) -> results `dims` (positions of the loop
/// dimensions), with `batchDims` leading batch dimensions.
static AffineMap makeMap(MLIRContext *ctx, unsigned numDims,
                         ArrayRef<unsigned> dims) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(numDims, 0, exprs, ctx);
}

/// Checks the operand types shared by both forms: equal ranks, static
/// shapes, unit innermost strides for memrefs, 32-bit sizes.
static LogicalResult checkOperands(ArrayRef<Value> operands, unsigned rank,
                                   std::string &reason) {
  for (Value v : operands) {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasRank() || t.getRank() != rank) {
      reason = "operands with broadcast (lower-rank) indexing maps are not "
               "supported";
      return failure();
    }
    if (!t.hasStaticShape()) {
      reason = "dynamic shapes are not supported (kernel configurations are "
               "chosen per static shape)";
      return failure();
    }
    auto memref = dyn_cast<MemRefType>(t);
    if (!memref)
      continue;
    auto [strides, offset] = memref.getStridesAndOffset();
    (void)offset;
    if (strides.back() != 1) {
      reason = "operands must be contiguous along their innermost dimension "
               "(unit innermost stride)";
      return failure();
    }
    // The kernel ABI passes leading dimensions as 32-bit values.
    if (!ShapedType::isDynamic(strides[rank - 2]) &&
        strides[rank - 2] > (int64_t(1) << 31) - 1) {
      reason = "leading dimension exceeds 2^31 - 1";
      return failure();
    }
  }
  return success();
}

static std::string unsupportedType(Type t, const char *what) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << what << " " << t << " is not supported (f32, f64, f16, bf16)";
  return s;
}

/// The element types of a GEMM with operands `ab` and output `c`, if isaac
/// compiles that combination: A, B and C of one type (f32, f64, f16,
/// bf16), or 16-bit A and B with an f32 C. Otherwise `reason` says why.
static std::optional<::isaac::GemmTypes> matchTypes(Type ab, Type c,
                                                    std::string &reason) {
  std::optional<::isaac::DType> abType = getGemmDType(ab);
  if (!abType) {
    reason = unsupportedType(ab, "element type");
    return std::nullopt;
  }
  std::optional<::isaac::DType> cType = getGemmDType(c);
  ::isaac::GemmTypes types;
  types.ab = *abType;
  types.c = cType.value_or(*abType);
  if (!cType || !types.isValid()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "an output of " << c << " with " << ab << " operands is not "
       << "supported (C of the operands' type";
    if (*abType == ::isaac::DType::F16 || *abType == ::isaac::DType::BF16)
      os << ", or f32";
    os << ")";
    reason = s;
    return std::nullopt;
  }
  return types;
}

/// The bytes (a power of two up to ::isaac::kMaxOperandAlign) that every
/// stride of `v` but the innermost, and its offset, are static multiples of
/// (1 where one is dynamic): a tensor's (bufferized with identity layouts)
/// are its sizes' products.
static int operandAlign(Value v, ::isaac::DType dtype) {
  auto t = cast<ShapedType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (auto m = dyn_cast<MemRefType>(t)) {
    if (failed(m.getStridesAndOffset(strides, offset)))
      return 1;
  } else {
    strides.assign(t.getRank(), 1);
    for (int64_t i = t.getRank() - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * t.getDimSize(i + 1);
  }
  int64_t esz = ::isaac::dtypeBytes(dtype);
  int align = ::isaac::kMaxOperandAlign;
  auto fold = [&](int64_t x) {
    align = ShapedType::isDynamic(x)
                ? 1
                : std::min(align, ::isaac::byteAlignment(x * esz));
  };
  fold(offset);
  for (size_t i = 0; i + 1 < strides.size(); ++i)
    fold(strides[i]);
  return align;
}

/// The shape of a GEMM whose operands passed checkOperands.
static FailureOr<GemmMatch> finish(Value a, Value b, Value c, bool batched,
                                   ::isaac::GemmLayout layout,
                                   ::isaac::DType dtype, ::isaac::DType cType,
                                   std::string &reason) {
  GemmMatch match{a, b, c, {}};
  auto cT = cast<ShapedType>(c.getType());
  auto aT = cast<ShapedType>(a.getType());
  unsigned bo = batched ? 1 : 0;
  match.shape.m = cT.getDimSize(bo);
  match.shape.n = cT.getDimSize(bo + 1);
  match.shape.k = aT.getDimSize(bo + (layout.transA ? 0 : 1));
  match.shape.batch = batched ? cT.getDimSize(0) : 1;
  match.shape.dtype = dtype;
  match.shape.cType = cType;
  match.shape.layout = layout;
  match.shape.operandAlign =
      std::min(operandAlign(a, dtype), operandAlign(b, dtype));
  const int64_t limit = (int64_t(1) << 31) - 1;
  if (match.shape.m > limit || match.shape.n > limit || match.shape.k > limit) {
    reason = "a dimension exceeds 2^31 - 1";
    return failure();
  }
  if (match.shape.m == 0 || match.shape.n == 0 || match.shape.k == 0) {
    reason = "empty GEMM (a zero dimension)";
    return failure();
  }
  return match;
}

static FailureOr<GemmMatch> matchGemmOp(GemmOp op, std::string &reason) {
  unsigned rank = op.getIterationRank();
  if (failed(checkOperands({op.getA(), op.getB(), op.getInit()}, rank, reason)))
    return failure();
  Type abTy = cast<ShapedType>(op.getA().getType()).getElementType();
  std::optional<::isaac::DType> dtype = getGemmDType(abTy);
  if (!dtype) {
    reason = unsupportedType(abTy, "element type");
    return failure();
  }
  // The epilogue converts to C's type; where A, B and C have no kernel
  // name of their own (an f32 GEMM into f16, say) the shape records the
  // accumulator's, which the kernel computes in.
  ::isaac::GemmTypes types;
  types.ab = *dtype;
  types.c = getGemmDType(getElementTypeOrSelf(op.getInit().getType()))
                .value_or(*dtype);
  if (!types.isValid())
    types.c = types.accumulator();
  ::isaac::GemmLayout layout{op.getTransposeA(), op.getTransposeB()};
  return finish(op.getA(), op.getB(), op.getInit(), op.isBatched(), layout,
                *dtype, types.c, reason);
}

FailureOr<GemmMatch> mlir::isaac::matchGemm(Operation *op,
                                            std::string &reason) {
  if (auto gemm = dyn_cast<GemmOp>(op))
    return matchGemmOp(gemm, reason);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isGemmCandidate(op)) {
    reason = "not a linalg.matmul or linalg.batch_matmul";
    return failure();
  }
  if (!linalgOp.hasPureBufferSemantics() &&
      !linalgOp.hasPureTensorSemantics()) {
    reason = "mixes tensor and memref operands";
    return failure();
  }
  bool batched = isa<linalg::BatchMatmulOp>(op);
  unsigned rank = batched ? 3 : 2;
  Value a = linalgOp.getDpsInputOperand(0)->get();
  Value b = linalgOp.getDpsInputOperand(1)->get();
  Value c = linalgOp.getDpsInitOperand(0)->get();
  if (failed(checkOperands({a, b, c}, rank, reason)))
    return failure();
  Type abTy = cast<ShapedType>(a.getType()).getElementType();
  if (cast<ShapedType>(b.getType()).getElementType() != abTy) {
    reason = "A and B of different element types are not supported";
    return failure();
  }
  // linalg.matmul converts its operands to C's type before multiplying;
  // isaac accumulates 16-bit operands in f32 whatever C's type (an f16 or
  // bf16 C is rounded once, at the end).
  std::optional<::isaac::GemmTypes> types =
      matchTypes(abTy, cast<ShapedType>(c.getType()).getElementType(), reason);
  if (!types)
    return failure();

  // Loop dimensions: [batch,] m, n, k.
  MLIRContext *ctx = op->getContext();
  unsigned nd = rank + 1, bo = batched ? 1 : 0;
  unsigned m = bo, n = bo + 1, k = bo + 2;
  auto withBatch = [&](std::initializer_list<unsigned> dims) {
    SmallVector<unsigned> all;
    if (batched)
      all.push_back(0);
    all.append(dims.begin(), dims.end());
    return makeMap(ctx, nd, all);
  };
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  ::isaac::GemmLayout layout;
  if (maps[0] == withBatch({m, k}))
    layout.transA = false;
  else if (maps[0] == withBatch({k, m}))
    layout.transA = true;
  else {
    reason = "indexing map of A is neither (m, k) nor its transpose";
    return failure();
  }
  if (maps[1] == withBatch({k, n}))
    layout.transB = false;
  else if (maps[1] == withBatch({n, k}))
    layout.transB = true;
  else {
    reason = "indexing map of B is neither (k, n) nor its transpose";
    return failure();
  }
  if (maps[2] != withBatch({m, n})) {
    reason = "indexing map of C is not (m, n)";
    return failure();
  }
  return finish(a, b, c, batched, layout, types->ab, types->c, reason);
}
