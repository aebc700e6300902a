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
  os << what << " " << t << " is not supported (f32, f64)";
  return s;
}

/// The shape of a GEMM whose operands passed checkOperands.
static FailureOr<GemmMatch> finish(Value a, Value b, Value c, bool batched,
                                   ::isaac::GemmLayout layout,
                                   ::isaac::DType dtype, std::string &reason) {
  GemmMatch match{a, b, c, {}};
  auto cT = cast<ShapedType>(c.getType());
  auto aT = cast<ShapedType>(a.getType());
  unsigned bo = batched ? 1 : 0;
  match.shape.m = cT.getDimSize(bo);
  match.shape.n = cT.getDimSize(bo + 1);
  match.shape.k = aT.getDimSize(bo + (layout.transA ? 0 : 1));
  match.shape.batch = batched ? cT.getDimSize(0) : 1;
  match.shape.dtype = dtype;
  match.shape.cType = dtype; // checkOperands: C has the operands' type
  match.shape.layout = layout;
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
  Type accTy = op.getAccumulatorType();
  std::optional<::isaac::DType> dtype = getGemmDType(accTy);
  if (!dtype) {
    reason = unsupportedType(accTy, "accumulation type");
    return failure();
  }
  ::isaac::GemmLayout layout{op.getTransposeA(), op.getTransposeB()};
  return finish(op.getA(), op.getB(), op.getInit(), op.isBatched(), layout,
                *dtype, reason);
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
  Type elemTy = cast<ShapedType>(c.getType()).getElementType();
  std::optional<::isaac::DType> dtype = getGemmDType(elemTy);
  if (!dtype) {
    reason = unsupportedType(elemTy, "element type");
    return failure();
  }
  if (cast<ShapedType>(a.getType()).getElementType() != elemTy ||
      cast<ShapedType>(b.getType()).getElementType() != elemTy) {
    reason = "mixed element types are not supported";
    return failure();
  }

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
  return finish(a, b, c, batched, layout, *dtype, reason);
}
