//===- GemmKernelBuilder.cpp - ISAAC's parameterized GEMM kernel ----------===//
//
// Emits one gpu.func per (configuration, dtype, layout) implementing
// C = alpha*op(A)*op(B) + beta*C with ISAAC's tiling (SC17 §3.2, Fig. 3):
//
//   block  : an ML x NL tile of C;  grid z = batch * KG (KG: K split over grid)
//   thread : an MS x NS tile of C in registers, for one of KL groups that
//            each reduce U/KL of every staged K-tile, with KS independent
//            accumulator sets (K split inside the thread)
//   stage  : ML x U of A and U x NL of B copied to shared memory (k-major,
//            transposed on the way where the global layout is k-contiguous,
//            rows padded by 16 bytes). stages = 2: double-buffered, the
//            next tile's global loads (into registers) issued before the
//            current tile's FMAs. stages > 2 (GEMM kernels): a cp.async
//            pipeline, stages - 1 tiles in flight straight into shared
//            memory (vec-wide copies, or one element a copy where the
//            tile is transposed or predicated; zero-filled outside the
//            operand), so no registers hold the next tiles.
//
// Bounds are handled by predication, not padding. A block whose whole tile
// is in bounds and whose operands allow aligned vector loads runs the fast
// path: unpredicated `vec`-wide loads for every full K-tile. Everything else
// (edge blocks, the partial last K-tile, misaligned operands) takes the
// predicated path: `@p ld.global` through inline PTX, out-of-range elements
// read as zero, and predicated stores. The kernel is generic over M, N, K,
// leading dimensions, batch strides, alpha and beta (runtime arguments).
//
// The same body computes convolutions as implicit GEMMs (buildConvKernel):
// the fetch of an operand tile goes through an OperandAccess, the seam
// between the two. A GEMM operand addresses (row, k) as row*ld + k (or its
// transpose); a convolution's input maps (npq, crs) to input pixel
// (n, p*sh - padT + r*dh, q*sw - padL + s*dw) and channel c, zero outside
// the input (the halo predicate, folded into the loads). Tiles, staging,
// reductions, split-K and the epilogue are shared.
//
// The body is written in the LLVM dialect (pointers, loads, inline PTX),
// arith (index math) and scf (loops, uniform branches) so that the exact
// memory instructions are under the generator's control.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/KernelBuilders.h"

#include "ConvInputTaps.h"
#include "EpilogueCodegen.h"
#include "KernelArgs.h"
#include "KernelEmitter.h"
#include "MmaKernelBuilder.h"

#include "isaac/Model/Legality.h"
#include "isaac/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::isaac;
using ::isaac::DType;
using ::isaac::GemmConfig;

std::string GemmKernelSpec::kernelName() const {
  ::isaac::GemmKernelName name;
  name.types.ab = dtype;
  name.types.c = epilogue ? dtype : cType;
  name.types.tf32 = tf32;
  name.layout = layout;
  name.config = config;
  if (epilogue)
    name.epilogue = epilogue->id();
  return name.str();
}

std::string ConvKernelSpec::kernelName() const {
  ::isaac::ConvKernelName name;
  name.types = types;
  name.layout = layout;
  name.config = config;
  if (epilogue)
    name.epilogue = epilogue->id();
  return name.str();
}

bool GemmKernelSpec::takesTileCounters() const {
  return ::isaac::abi::takesTileCounters(
      epilogue.has_value(), cType == DType::F16 || cType == DType::BF16);
}

GemmKernelSpec ConvKernelSpec::gemmSpec() const {
  ::isaac::ConvShape shape;
  shape.layout = layout;
  shape.types = types;
  GemmKernelSpec g;
  g.config = config;
  g.dtype = types.ab;
  g.cType = types.c;
  g.tf32 = types.tf32;
  g.layout = shape.gemmShape().layout;
  g.epilogue = epilogue;
  g.chip = chip;
  g.vectorRedF32 = vectorRedF32;
  return g;
}

namespace {

/// How one operand's tile is fetched from global memory into shared memory.
/// The smem tile is always k-major: X_s[k][r] (r = m for A, n for B).
struct FetchPlan {
  bool contigIsK; ///< global layout is contiguous along k: store transposes
  int rows;       ///< ML or NL
  int cdim;       ///< tile extent along the global contiguous dimension
  int chunksPerRow;
  int chunks;   ///< vec-wide chunks in the tile
  int rounds;   ///< chunks per thread (the last round may wrap, see below)
  int smemBase; ///< offset of this operand's tile inside a stage
  int smemStride;

  /// > 0: the cp.async pipeline's plan for an operand contiguous along K
  /// (see transposingCopies); 0: vec-wide chunks, row-major over the tile.
  int kGroup = 0;

  FetchPlan(const GemmConfig &c, int rows, bool contigIsK, int smemBase,
            int smemStride)
      : contigIsK(contigIsK), rows(rows), cdim(contigIsK ? c.u : rows),
        chunksPerRow(cdim / c.vec), chunks(rows * c.u / c.vec),
        rounds((chunks + c.threads() - 1) / c.threads()), smemBase(smemBase),
        smemStride(smemStride) {}

  /// The copies of a tile contiguous along K into the k-major shared tile:
  /// one element a copy (the transpose happens in the addresses). A warp
  /// copies runs of `kGroup` consecutive k (32 bytes, one sector) of
  /// consecutive rows, so that each of its copy instructions reads whole
  /// sectors of global memory (4-byte copies of vec-wide chunks would take
  /// every sector a chunk touches once per element), and its shared-memory
  /// writes (k * stride + row, stride a multiple of 16 bytes) of one
  /// instruction fall in distinct banks.
  static FetchPlan transposingCopies(const GemmConfig &c, int rows,
                                     int smemBase, int smemStride, int esz) {
    FetchPlan p(c, rows, /*contigIsK=*/true, smemBase, smemStride);
    p.kGroup = std::min(c.u, 32 / esz);
    p.chunksPerRow = c.u;
    p.chunks = rows * c.u;
    p.rounds = (p.chunks + c.threads() - 1) / c.threads();
    return p;
  }

  /// A kernel's plan for one operand: vec-wide chunks, or transposingCopies
  /// where the cp.async pipeline (`cpAsync`) copies an operand contiguous
  /// along K.
  static FetchPlan forKernel(const GemmConfig &c, int rows, bool contigIsK,
                             int smemBase, int smemStride, bool cpAsync,
                             int esz) {
    return cpAsync && contigIsK
               ? transposingCopies(c, rows, smemBase, smemStride, esz)
               : FetchPlan(c, rows, contigIsK, smemBase, smemStride);
  }
};

/// Per-thread, loop-invariant coordinates of the chunks a thread fetches.
struct ThreadChunks {
  SmallVector<Value> s, c; ///< strided / contiguous coordinates (elements)
};

/// The seam between GEMM and convolution: how the fetch of one operand's
/// tile reads global memory. fetchTile computes the global coordinates of
/// each vec-wide chunk a thread fetches (`row` along M or N, `k` along the
/// reduction); the access turns them into loads.
class OperandAccess {
public:
  virtual ~OperandAccess() = default;
  /// The condition (i1, once per block) under which the operand allows the
  /// fast path's unpredicated vec-wide loads.
  virtual Value fastOk() = 0;
  /// Once per block, before the main loop, with the global row of each
  /// round's chunk (plans contiguous along K): the loop-invariant part of
  /// the addresses.
  virtual void prepare(ArrayRef<Value> rows) {}
  /// Called before the loads of each tile (fetchTile), in the block that
  /// holds them: what an access derives from a k may be reused until the
  /// next call.
  virtual void beginTile() {}
  /// Appends the `vec` elements of round `round`'s chunk at (row, k): on
  /// the fast path (`predicated` false: the row and the whole chunk lie
  /// in the operand) or one predicated load per element, zero outside
  /// [0, rowLimit) x [0, kEnd).
  virtual void load(int round, Value row, Value k, Value rowLimit, Value kEnd,
                    bool predicated, SmallVectorImpl<Value> &vals) = 0;
};

/// A GEMM operand: element (row, k) at base[row*ld + k] when the plan is
/// contiguous along K, base[k*ld + row] otherwise.
class MatrixAccess : public OperandAccess {
public:
  /// `base` the (batch-offset) operand, `alignBase` the argument whose
  /// alignment the fast path needs, with `ld` and the batch stride
  /// `stride`.
  MatrixAccess(KernelEmitter &e, const GemmConfig &c, const FetchPlan &p,
               Value base, Value alignBase, Value ld, Value stride)
      : e(e), c(c), p(p), base(base), alignBase(alignBase), ld(ld),
        stride(stride) {}

  Value fastOk() override {
    Value ptr = LLVM::PtrToIntOp::create(e.b, e.loc, e.i64, alignBase);
    return e.land(
        e.land(e.isMultiple(ptr, c.vec * e.esz()), e.isMultiple(ld, c.vec)),
        e.isMultiple(stride, c.vec));
  }

  /// Address of element (row, k).
  Value elementPtr(Value row, Value k) {
    Value off = p.contigIsK
                    ? e.add(e.mul(e.ext64(row), e.ext64(ld)), e.ext64(k))
                    : e.add(e.mul(e.ext64(k), e.ext64(ld)), e.ext64(row));
    return e.gep(base, off);
  }
  /// An address inside the operand (what a copy that reads nothing
  /// points at).
  Value basePtr() const { return base; }

  void load(int, Value row, Value k, Value rowLimit, Value kEnd,
            bool predicated, SmallVectorImpl<Value> &vals) override {
    Value ptr = elementPtr(row, k);
    if (!predicated) {
      llvm::append_range(vals, e.loadVector(ptr, c.vec));
      return;
    }
    // One predicate per element: the chunk may straddle the edge along its
    // contiguous dimension.
    for (int j = 0; j < c.vec; ++j) {
      Value rowJ = p.contigIsK ? row : e.add(row, e.ci32(j));
      Value kJ = p.contigIsK ? e.add(k, e.ci32(j)) : k;
      Value pred = e.land(e.slt(rowJ, rowLimit), e.slt(kJ, kEnd));
      Value pj = j == 0 ? ptr : e.gep(ptr, e.ci64(j));
      vals.push_back(e.predicatedLoad(pj, pred));
    }
  }

private:
  KernelEmitter &e;
  const GemmConfig &c;
  const FetchPlan &p;
  Value base, alignBase, ld, stride;
};

/// A convolution's NHWC input as the implicit GEMM's A (ConvInputTaps);
/// round `round`'s chunk is slot `round` of the taps. The fast path needs
/// C % vec == 0 (a chunk is vec channels of one filter tap, one halo
/// predicate) and an aligned input.
class ConvInputAccess : public OperandAccess {
public:
  ConvInputAccess(KernelEmitter &e, const GemmConfig &c,
                  const ConvKernelArgs &a)
      : e(e), c(c), input(a.I), taps(e, a) {}

  Value fastOk() override { return taps.vectorOk(c.vec, e.esz()); }

  void prepare(ArrayRef<Value> rows) override { taps.prepare(rows); }

  void beginTile() override { tapOf.clear(); }

  void load(int round, Value row, Value k, Value rowLimit, Value kEnd,
            bool predicated, SmallVectorImpl<Value> &vals) override {
    if (!predicated) {
      auto [off, inside] = taps.at(round, tap(k, 0));
      // The halo: a chunk outside the input reads zeros. The load itself
      // is redirected to the (aligned) input base, so that it stays
      // unpredicated and in bounds.
      Value ptr =
          LLVM::SelectOp::create(e.b, e.loc, inside, e.gep(input, off), input);
      for (Value v : e.loadVector(ptr, c.vec))
        vals.push_back(
            LLVM::SelectOp::create(e.b, e.loc, inside, v, e.cf(0.0)));
      return;
    }
    // Each element its own tap: C need not be a multiple of vec here.
    Value rowOk = e.slt(row, rowLimit);
    for (int j = 0; j < c.vec; ++j) {
      Value kJ = j == 0 ? k : e.add(k, e.ci32(j));
      auto [off, inside] = taps.at(round, tap(k, j));
      Value pred = e.land(e.land(rowOk, e.slt(kJ, kEnd)), inside);
      vals.push_back(e.predicatedLoad(e.gep(input, off), pred));
    }
  }

private:
  /// The tap of reduction index k + j, shared by the rounds of one tile
  /// that fetch at the same k (fetchTile passes them one k value).
  const ConvInputTaps::Tap &tap(Value k, int j) {
    auto [it, inserted] = tapOf.try_emplace({k, j});
    if (inserted)
      it->second = taps.decompose(j == 0 ? k : e.add(k, e.ci32(j)));
    return it->second;
  }

  KernelEmitter &e;
  const GemmConfig &c;
  Value input;
  ConvInputTaps taps;
  llvm::DenseMap<std::pair<Value, int>, ConvInputTaps::Tap> tapOf;
};

/// Everything the tile-level emitters need, computed once per block.
struct BlockState {
  Value tid;
  Value M, N, K, lda, ldb, ldc;
  Value aBase, bBase, cBase; ///< batch-offset global pointers
  Value m0, n0;              ///< first row / column of the block's C tile
  Value full;                ///< the block's whole ML x NL tile lies in C
  Value kEnd;                ///< end of this block's K slice
  Value smem;                ///< shared buffer base (!llvm.ptr<3>)
};

class GemmBuilder {
public:
  /// `conv`: build the convolution kernel of that spec (whose gemmSpec()
  /// is `spec`) instead of the GEMM kernel.
  GemmBuilder(OpBuilder &b, Location loc, const GemmKernelSpec &spec,
              const ConvKernelSpec *conv = nullptr)
      : e(b, loc, spec.dtype), spec(spec), conv(conv), c(spec.config),
        smem(::isaac::getSharedLayout(c, spec.dtype)),
        planA(FetchPlan::forKernel(c, c.ml, /*contigIsK=*/!spec.layout.transA,
                                   0, smem.strideA, cpAsync(c, conv), e.esz())),
        planB(FetchPlan::forKernel(c, c.nl, /*contigIsK=*/spec.layout.transB,
                                   smem.offsetB, smem.strideB, cpAsync(c, conv),
                                   e.esz())),
        outTy(getScalarType(b.getContext(), spec.outType())) {
    if (spec.epilogue)
      epilogue.emplace(*spec.epilogue);
  }

  void buildBody(gpu::GPUFuncOp func, StringRef smemSymbol);

private:
  /// Whether the kernel's main loop is the cp.async pipeline (stages > 2)
  /// rather than the register prefetch. Convolutions keep the prefetch
  /// (rule conv-stages; their input goes through taps, not a
  /// MatrixAccess).
  static bool cpAsync(const GemmConfig &c, const ConvKernelSpec *conv) {
    return c.stages > 2 && !conv;
  }

  KernelEmitter e;
  const GemmKernelSpec &spec;
  const ConvKernelSpec *conv;
  const GemmConfig &c;
  ::isaac::SharedLayout smem;
  FetchPlan planA, planB;
  BlockState st;
  ThreadChunks chunksA, chunksB;
  std::unique_ptr<OperandAccess> accessA, accessB;
  /// The GEMM kernels' accesses (null in a convolution), which the cp.async
  /// pipeline of stages > 2 copies through.
  MatrixAccess *matrixA = nullptr, *matrixB = nullptr;
  Type outTy; ///< element type of C
  std::optional<EpilogueCodegen> epilogue;

  ThreadChunks computeChunks(const FetchPlan &p);
  /// Global coordinates (row along M or N, k) of round `r`'s chunk.
  /// Rounds with one chunk column (computeChunks gives them one value) get
  /// one k (kept in `kOfColumn`), so that what is derived from it can be
  /// shared.
  std::pair<Value, Value> chunkCoords(const FetchPlan &p,
                                      const ThreadChunks &tc, int r,
                                      Value rowBase, Value kBase,
                                      llvm::DenseMap<Value, Value> &kOfColumn);
  SmallVector<Value> fetchTile(const FetchPlan &p, const ThreadChunks &tc,
                               OperandAccess &access, Value rowBase,
                               Value rowLimit, Value kBase, bool predicated);
  SmallVector<Value> fetchBoth(Value kBase, bool predicated);
  void copyTileAsync(const FetchPlan &p, const ThreadChunks &tc,
                     MatrixAccess &access, Value rowBase, Value rowLimit,
                     Value kBase, Value stageBase, bool predicated);
  /// stages = 2: the main loop that prefetches the next tile into
  /// registers; returns the accumulators.
  SmallVector<Value> prefetchMainLoop(Value kStart, Value nTiles, Value nFull,
                                      Value klId, Value tm, Value tn);
  /// stages > 2: the main loop of the cp.async pipeline; returns the
  /// accumulators.
  SmallVector<Value> asyncMainLoop(Value kStart, Value nTiles, Value nFull,
                                   Value klId, Value tm, Value tn);
  void storeTile(const FetchPlan &p, const ThreadChunks &tc,
                 ArrayRef<Value> vals, Value stageBase);
  void storeBoth(ArrayRef<Value> vals, Value stageBase);
  SmallVector<Value> computeTile(Value stageBase, ValueRange acc, Value klId,
                                 Value tm, Value tn);
  void emitEpilogue(ArrayRef<Value> acc, Value tm, Value tn, Value g,
                    Value batch, Value wBase, Value sBase, Value alpha,
                    Value beta);
  /// Stores the thread's tile of C = epilogue(x + beta*C_old), x(i, j, ok)
  /// giving element (i, j)'s alpha*acc where it is used (ok: whether it is
  /// in C; null on the fast path, where all are).
  void storeOutput(function_ref<Value(int, int, Value)> x, Value rowBase,
                   Value colBase, Value beta);
  void emitSplitKFixup(Value tm, Value tn, Value batch, Value isGroup0,
                       Value tBase, Value sBase, Value beta);
  Value partialSumPtr(Value tBase, Value batch, Value row, Value col);
  /// Calls fn(i, j, row, col, inBounds) for each element of the thread's
  /// MS x NS tile of C, whose first row and column are given.
  void forEachElement(Value rowBase, Value colBase,
                      function_ref<void(int, int, Value, Value, Value)> fn);
  Value cPtr(Value row, Value col) {
    return e.gep(st.cBase,
                 e.add(e.mul(e.ext64(row), e.ext64(st.ldc)), e.ext64(col)),
                 outTy);
  }
};

ThreadChunks GemmBuilder::computeChunks(const FetchPlan &p) {
  ThreadChunks tc;
  int threads = c.threads();
  if (p.kGroup) {
    // Element i: k = (i / kGroup / rows) * kGroup + i % kGroup, row =
    // (i / kGroup) % rows. Threads past the last element copy nothing
    // (copyTileAsync), so nothing wraps.
    for (int r = 0; r < p.rounds; ++r) {
      Value i = e.add(st.tid, e.ci32(r * threads));
      Value group = e.divu(i, e.ci32(p.kGroup));
      tc.s.push_back(e.remu(group, e.ci32(p.rows)));
      tc.c.push_back(
          e.add(e.mul(e.divu(group, e.ci32(p.rows)), e.ci32(p.kGroup)),
                e.remu(i, e.ci32(p.kGroup))));
    }
    return tc;
  }
  for (int r = 0; r < p.rounds; ++r) {
    // Threads past the last chunk in the final round re-fetch a chunk of
    // round 0 (i mod chunks): they store the same value to the same shared
    // address as its owner, which keeps every thread on one code path.
    Value i = e.add(st.tid, e.ci32(r * threads));
    if ((r + 1) * threads > p.chunks)
      i = e.remu(i, e.ci32(p.chunks));
    tc.s.push_back(e.divu(i, e.ci32(p.chunksPerRow)));
    // i mod chunksPerRow is round 0's where r * threads is a multiple of
    // chunksPerRow (chunks is one too, so the wrap keeps it): one value.
    if (r > 0 && (r * threads) % p.chunksPerRow == 0)
      tc.c.push_back(tc.c[0]);
    else
      tc.c.push_back(e.mul(e.remu(i, e.ci32(p.chunksPerRow)), e.ci32(c.vec)));
  }
  return tc;
}

std::pair<Value, Value>
GemmBuilder::chunkCoords(const FetchPlan &p, const ThreadChunks &tc, int r,
                         Value rowBase, Value kBase,
                         llvm::DenseMap<Value, Value> &kOfColumn) {
  // (The operations in the order the kernels have always built them.)
  if (!p.contigIsK) {
    Value k = e.add(kBase, tc.s[r]);
    return {e.add(rowBase, tc.c[r]), k};
  }
  Value row = e.add(rowBase, tc.s[r]);
  Value &k = kOfColumn[tc.c[r]];
  if (!k)
    k = e.add(kBase, tc.c[r]);
  return {row, k};
}

SmallVector<Value> GemmBuilder::fetchTile(const FetchPlan &p,
                                          const ThreadChunks &tc,
                                          OperandAccess &access, Value rowBase,
                                          Value rowLimit, Value kBase,
                                          bool predicated) {
  SmallVector<Value> vals;
  access.beginTile();
  llvm::DenseMap<Value, Value> kOfColumn;
  for (int r = 0; r < p.rounds; ++r) {
    auto [row, k] = chunkCoords(p, tc, r, rowBase, kBase, kOfColumn);
    access.load(r, row, k, rowLimit, st.kEnd, predicated, vals);
  }
  return vals;
}

SmallVector<Value> GemmBuilder::fetchBoth(Value kBase, bool predicated) {
  SmallVector<Value> vals =
      fetchTile(planA, chunksA, *accessA, st.m0, st.M, kBase, predicated);
  llvm::append_range(vals, fetchTile(planB, chunksB, *accessB, st.n0, st.N,
                                     kBase, predicated));
  return vals;
}

void GemmBuilder::copyTileAsync(const FetchPlan &p, const ThreadChunks &tc,
                                MatrixAccess &access, Value rowBase,
                                Value rowLimit, Value kBase, Value stageBase,
                                bool predicated) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int esz = e.esz();
  Value base = e.add(stageBase, e.ci32(p.smemBase));
  // One cp.async of `bytes`; with `ok` (predicated), a copy outside the
  // operand reads nothing from its base (its own address may lie outside
  // the allocation) and zero-fills its bytes.
  auto copy = [&](Value idx, Value src, int bytes, Value ok) {
    Value srcSize;
    if (ok) {
      src = arith::SelectOp::create(b, loc, ok, src, access.basePtr());
      srcSize = arith::SelectOp::create(b, loc, ok, e.ci32(bytes), e.ci32(0));
    }
    e.cpAsync(e.gep(st.smem, idx), src, bytes, srcSize);
  };
  llvm::DenseMap<Value, Value> kOfColumn;
  int threads = c.threads();
  for (int r = 0; r < p.rounds; ++r) {
    // Threads past the last chunk (computeChunks wraps them onto round 0's
    // chunks) copy nothing: two asynchronous copies into one address race.
    Value active;
    if ((r + 1) * threads > p.chunks)
      active = e.slt(e.add(st.tid, e.ci32(r * threads)), e.ci32(p.chunks));
    ifThen(b, loc, active, [&] {
      auto [row, k] = chunkCoords(p, tc, r, rowBase, kBase, kOfColumn);
      Value ptr = access.elementPtr(row, k);
      if (!p.contigIsK) {
        // Contiguous along the tile's rows in both memories: one vec-wide
        // copy (4, 8 or 16 bytes) on the fast path, else one per element.
        Value idx =
            e.add(base, e.add(e.mul(tc.s[r], e.ci32(p.smemStride)), tc.c[r]));
        if (!predicated) {
          copy(idx, ptr, c.vec * esz, Value());
          return;
        }
        Value kOk = e.slt(k, st.kEnd);
        for (int j = 0; j < c.vec; ++j)
          copy(e.add(idx, e.ci32(j)), j == 0 ? ptr : e.gep(ptr, e.ci64(j)), esz,
               e.land(e.slt(e.add(row, e.ci32(j)), rowLimit), kOk));
        return;
      }
      // Contiguous along K (a transposingCopies plan): one element, into
      // its place in the k-major tile.
      Value idx =
          e.add(base, e.add(e.mul(tc.c[r], e.ci32(p.smemStride)), tc.s[r]));
      Value ok = predicated ? e.land(e.slt(row, rowLimit), e.slt(k, st.kEnd))
                            : Value();
      copy(idx, ptr, esz, ok);
    });
  }
}

SmallVector<Value> GemmBuilder::prefetchMainLoop(Value kStart, Value nTiles,
                                                 Value nFull, Value klId,
                                                 Value tm, Value tn) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int nPrefetch = (planA.rounds + planB.rounds) * c.vec;
  SmallVector<Type> prefetchTypes(nPrefetch, e.elemTy);

  // Fetches tile `t` (fast or predicated) into registers; zeros past the
  // last tile.
  auto emitFetch = [&](Value t) -> ValueRange {
    Value kBase = e.add(kStart, e.mul(t, e.ci32(c.u)));
    auto fastIf = scf::IfOp::create(b, loc, prefetchTypes, e.slt(t, nFull),
                                    /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(fastIf.thenBlock());
      scf::YieldOp::create(b, loc, fetchBoth(kBase, /*predicated=*/false));
      b.setInsertionPointToStart(fastIf.elseBlock());
      auto tailIf = scf::IfOp::create(b, loc, prefetchTypes, e.slt(t, nTiles),
                                      /*withElse=*/true);
      scf::YieldOp::create(b, loc, tailIf.getResults());
      b.setInsertionPointToStart(tailIf.thenBlock());
      scf::YieldOp::create(b, loc, fetchBoth(kBase, /*predicated=*/true));
      b.setInsertionPointToStart(tailIf.elseBlock());
      SmallVector<Value> zeros(nPrefetch, e.cf(0.0));
      scf::YieldOp::create(b, loc, zeros);
    }
    return fastIf.getResults();
  };

  // Prologue: stage tile 0 into buffer 0.
  {
    ValueRange first = emitFetch(e.ci32(0));
    auto ifOp = scf::IfOp::create(b, loc, e.slt(e.ci32(0), nTiles),
                                  /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storeBoth(SmallVector<Value>(first), e.ci32(0));
  }
  e.barrier();

  // Main loop over K tiles, accumulators carried in registers.
  int nAcc = c.ks * c.ms * c.ns;
  SmallVector<Value> accInit(nAcc, e.cf(0.0));
  auto loop = scf::ForOp::create(b, loc, e.ci32(0), nTiles, e.ci32(1), accInit);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value next = e.add(t, e.ci32(1));
    // Issue the next tile's global loads before this tile's FMAs.
    ValueRange prefetched = emitFetch(next);
    Value parity = e.remu(t, e.ci32(2));
    Value cur = e.mul(parity, e.ci32(smem.stageElems));
    Value other = e.mul(e.sub(e.ci32(1), parity), e.ci32(smem.stageElems));
    SmallVector<Value> acc =
        computeTile(cur, loop.getRegionIterArgs(), klId, tm, tn);
    auto ifOp = scf::IfOp::create(b, loc, e.slt(next, nTiles),
                                  /*withElse=*/false);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      storeBoth(SmallVector<Value>(prefetched), other);
    }
    // One barrier per tile: the buffer written above was last read in the
    // previous iteration, which ended with this same barrier.
    e.barrier();
    scf::YieldOp::create(b, loc, acc);
  }
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> GemmBuilder::asyncMainLoop(Value kStart, Value nTiles,
                                              Value nFull, Value klId, Value tm,
                                              Value tn) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // Tile t + ahead is copied into the stage tile t - 1 used, whose reads
  // ended before this iteration's barrier.
  int ahead = c.stages - 1;
  auto issue = [&](Value t, Value stageBase) {
    Value kBase = e.add(kStart, e.mul(t, e.ci32(c.u)));
    auto fastIf = scf::IfOp::create(b, loc, e.slt(t, nFull), /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    for (bool predicated : {false, true}) {
      b.setInsertionPointToStart(predicated ? fastIf.elseBlock()
                                            : fastIf.thenBlock());
      copyTileAsync(planA, chunksA, *matrixA, st.m0, st.M, kBase, stageBase,
                    predicated);
      copyTileAsync(planB, chunksB, *matrixB, st.n0, st.N, kBase, stageBase,
                    predicated);
    }
  };
  CpAsyncLoopHooks hooks;
  hooks.issue = issue;
  int nAcc = c.ks * c.ms * c.ns;
  auto init = [&] { return SmallVector<Value>(nAcc, e.cf(0.0)); };
  hooks.init = init;
  auto compute = [&](Value rd, ValueRange acc) {
    return computeTile(rd, acc, klId, tm, tn);
  };
  hooks.compute = compute;
  return emitCpAsyncMainLoop(e, c.stages, ahead, smem.stageElems, nTiles,
                             hooks);
}

void GemmBuilder::storeTile(const FetchPlan &p, const ThreadChunks &tc,
                            ArrayRef<Value> vals, Value stageBase) {
  for (int r = 0; r < p.rounds; ++r) {
    ArrayRef<Value> chunk = vals.slice(r * c.vec, c.vec);
    Value base = e.add(stageBase, e.ci32(p.smemBase));
    if (p.contigIsK) {
      // Transpose in place: element j of the chunk is k = c + j of row s.
      for (int j = 0; j < c.vec; ++j) {
        Value idx = e.add(
            base, e.add(e.mul(e.add(tc.c[r], e.ci32(j)), e.ci32(p.smemStride)),
                        tc.s[r]));
        e.storeVector(e.gep(st.smem, idx), chunk[j]);
      }
    } else {
      Value idx =
          e.add(base, e.add(e.mul(tc.s[r], e.ci32(p.smemStride)), tc.c[r]));
      e.storeVector(e.gep(st.smem, idx), chunk);
    }
  }
}

void GemmBuilder::storeBoth(ArrayRef<Value> vals, Value stageBase) {
  int nA = planA.rounds * c.vec;
  storeTile(planA, chunksA, vals.take_front(nA), stageBase);
  storeTile(planB, chunksB, vals.drop_front(nA), stageBase);
}

SmallVector<Value> GemmBuilder::computeTile(Value stageBase, ValueRange accIn,
                                            Value klId, Value tm, Value tn) {
  SmallVector<Value> acc(accIn.begin(), accIn.end());
  int depth = c.depthPerThread();
  int fwA = ::isaac::fragmentWidthA(c, spec.dtype);
  int fwB = ::isaac::fragmentWidthB(c, spec.dtype);
  Value kFirst = e.mul(klId, e.ci32(depth));
  Value aRow = e.add(stageBase, e.add(e.mul(kFirst, e.ci32(smem.strideA)),
                                      e.mul(tm, e.ci32(c.ms))));
  Value bRow = e.add(
      e.add(stageBase, e.ci32(smem.offsetB)),
      e.add(e.mul(kFirst, e.ci32(smem.strideB)), e.mul(tn, e.ci32(c.ns))));
  // Fully unrolled: MS*NS FMAs per k, `depth` k's; KS accumulator sets
  // interleaved over k so consecutive FMAs into one register are KS apart.
  for (int kk = 0; kk < depth; ++kk) {
    SmallVector<Value> a, bv;
    for (int i = 0; i < c.ms; i += fwA)
      llvm::append_range(
          a,
          e.loadVector(
              e.gep(st.smem, e.add(aRow, e.ci32(kk * smem.strideA + i))), fwA));
    for (int j = 0; j < c.ns; j += fwB)
      llvm::append_range(
          bv,
          e.loadVector(
              e.gep(st.smem, e.add(bRow, e.ci32(kk * smem.strideB + j))), fwB));
    int set = kk % c.ks;
    for (int i = 0; i < c.ms; ++i)
      for (int j = 0; j < c.ns; ++j) {
        Value &x = acc[(set * c.ms + i) * c.ns + j];
        x = e.fma(a[i], bv[j], x);
      }
  }
  return acc;
}

void GemmBuilder::forEachElement(
    Value rowBase, Value colBase,
    function_ref<void(int, int, Value, Value, Value)> fn) {
  for (int i = 0; i < c.ms; ++i) {
    Value row = e.add(rowBase, e.ci32(i));
    Value rowOk = e.slt(row, st.M);
    for (int j = 0; j < c.ns; ++j) {
      Value col = e.add(colBase, e.ci32(j));
      fn(i, j, row, col, e.land(rowOk, e.slt(col, st.N)));
    }
  }
}

Value GemmBuilder::partialSumPtr(Value tBase, Value batch, Value row,
                                 Value col) {
  // T is a dense batch x M x N array of the accumulator type.
  Value plane = e.mul(e.ext64(st.M), e.ext64(st.N));
  Value off = e.add(e.mul(e.ext64(batch), plane),
                    e.add(e.mul(e.ext64(row), e.ext64(st.N)), e.ext64(col)));
  return e.gep(tBase, off);
}

void GemmBuilder::emitEpilogue(ArrayRef<Value> acc, Value tm, Value tn, Value g,
                               Value batch, Value wBase, Value sBase,
                               Value alpha, Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value rowBase = e.add(st.m0, e.mul(tm, e.ci32(c.ms)));
  Value colBase = e.add(st.n0, e.mul(tn, e.ci32(c.ns)));
  SmallVector<Value> scaled;
  for (Value v : acc)
    scaled.push_back(e.fmul(alpha, v));
  if (c.kg == 1) {
    storeOutput([&](int i, int j, Value) { return scaled[i * c.ns + j]; },
                rowBase, colBase, beta);
    return;
  }

  // Deterministic mode: a dense M x N plane per (batch, slice).
  auto storeWorkspace = [&] {
    Value plane = e.mul(e.ext64(st.M), e.ext64(st.N));
    Value slice = e.add(e.mul(e.ext64(batch), e.ci64(c.kg)), e.ext64(g));
    Value wTile = e.gep(wBase, e.mul(slice, plane));
    forEachElement(
        rowBase, colBase, [&](int i, int j, Value row, Value col, Value ok) {
          Value off = e.add(e.mul(e.ext64(row), e.ext64(st.N)), e.ext64(col));
          e.predicatedStore(e.gep(wTile, off), scaled[i * c.ns + j], ok);
        });
  };
  // A fused epilogue is not linear: it cannot be applied per K slice. With
  // tile counters (atomic mode) the slices add into the zeroed array T at
  // W and the tile's last block applies it (emitSplitKFixup); without them
  // (deterministic mode) the slices go to the workspace and the reducer
  // kernel applies it. Without a fused epilogue, a null W means atomic mode
  // and the caller has pre-scaled C by beta.
  bool fused = epilogue.has_value();
  Value useWorkspace = LLVM::ICmpOp::create(
      b, loc, fused ? LLVM::ICmpPredicate::eq : LLVM::ICmpPredicate::ne,
      fused ? sBase : wBase, LLVM::ZeroOp::create(b, loc, e.gptr));
  auto ifOp = scf::IfOp::create(b, loc, useWorkspace, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storeWorkspace();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    forEachElement(rowBase, colBase,
                   [&](int i, int j, Value row, Value col, Value ok) {
                     Value ptr = fused ? partialSumPtr(wBase, batch, row, col)
                                       : cPtr(row, col);
                     e.predicatedReduceAdd(ptr, scaled[i * c.ns + j], ok);
                   });
  }
}

void GemmBuilder::emitSplitKFixup(Value tm, Value tn, Value batch,
                                  Value isGroup0, Value tBase, Value sBase,
                                  Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value atomicMode =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, sBase,
                           LLVM::ZeroOp::create(b, loc, e.gptr));
  // Uniform over the grid: every thread of every block takes it or not.
  auto modeIf = scf::IfOp::create(b, loc, atomicMode, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(modeIf.thenBlock());
  // The KG-th block to arrive at a tile is its last; the staging buffers
  // are free: the flag lives in their first word.
  Value isLast = e.arriveAtTile(sBase, batch, st.tid, st.smem, c.kg);
  auto lastIf =
      scf::IfOp::create(b, loc, e.land(isLast, isGroup0), /*withElse=*/false);
  b.setInsertionPointToStart(lastIf.thenBlock());
  // Thread 0's acquire and the barrier order the other blocks' sums before
  // these loads; read them from L2 (not a stale L1 line), leave T zero.
  // The sums are loaded a chunk of rows (up to 16 elements) at a time where
  // the epilogue first needs them: all at once would raise the kernel's
  // register count (its occupancy in every mode), one at a time would
  // serialize the L2 round trips.
  Value rowBase = e.add(st.m0, e.mul(tm, e.ci32(c.ms)));
  Value colBase = e.add(st.n0, e.mul(tn, e.ci32(c.ns)));
  int chunkRows = std::max(1, std::min(c.ms, 16 / c.ns));
  SmallVector<Value> cached(c.ms * c.ns);
  auto sum = [&](int i, int j, Value) -> Value {
    // storeOutput visits each of its code paths row by row from (0, 0);
    // values of another path are not visible here.
    if (i == 0 && j == 0)
      std::fill(cached.begin(), cached.end(), Value());
    if (!cached[i * c.ns + j]) {
      int first = i / chunkRows * chunkRows;
      int last = std::min(c.ms, first + chunkRows);
      SmallVector<std::pair<Value, Value>> written;
      for (int r = first; r < last; ++r) {
        Value row = e.add(rowBase, e.ci32(r));
        Value rowOk = e.slt(row, st.M);
        for (int q = 0; q < c.ns; ++q) {
          Value col = e.add(colBase, e.ci32(q));
          Value ok = e.land(rowOk, e.slt(col, st.N));
          Value ptr = partialSumPtr(tBase, batch, row, col);
          cached[r * c.ns + q] = e.predicatedLoad(ptr, ok, ".cg");
          written.push_back({ptr, ok});
        }
      }
      for (auto [ptr, ok] : written)
        e.predicatedStore(ptr, e.cf(0.0), ok);
    }
    return cached[i * c.ns + j];
  };
  storeOutput(sum, rowBase, colBase, beta);
}

void GemmBuilder::storeOutput(function_ref<Value(int, int, Value)> x,
                              Value rowBase, Value colBase, Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;

  // The epilogue's broadcast inputs, loaded once per row or column of the
  // thread's tile, before the branches below.
  if (epilogue && epilogue->numInputs() > 0) {
    SmallVector<Value> rows, cols, rowOk, colOk;
    for (int i = 0; i < c.ms; ++i) {
      rows.push_back(e.add(rowBase, e.ci32(i)));
      rowOk.push_back(e.slt(rows.back(), st.M));
    }
    for (int j = 0; j < c.ns; ++j) {
      cols.push_back(e.add(colBase, e.ci32(j)));
      colOk.push_back(e.slt(cols.back(), st.N));
    }
    epilogue->loadTile(e, rows, cols, rowOk, colOk);
  }
  // The output element (i, j) from alpha*acc, the old C (`old`, of C's
  // type, or null when beta is not applied) and the epilogue.
  auto finish = [&](int i, int j, Value old, Value ok) -> Value {
    Value v = x(i, j, ok);
    if (old)
      v = e.fadd(e.fmul(beta, e.convert(old, e.elemTy)), v);
    if (!epilogue)
      return v;
    return epilogue->applyTile(e, v, i, j, ok);
  };

  // C = epilogue(alpha*acc + beta*C). Fast path for interior tiles with
  // aligned C: vector stores, no predicates. beta == 0 never reads C.
  int outBytes = outTy.getIntOrFloatBitWidth() / 8;
  int sw = 16 / outBytes;
  while (sw > 1 && c.ns % sw != 0)
    sw /= 2;
  Value cAligned =
      e.land(e.isMultiple(LLVM::PtrToIntOp::create(b, loc, e.i64, st.cBase),
                          sw * outBytes),
             e.isMultiple(st.ldc, sw));
  Value betaZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, beta, e.cf(0.0));
  auto fastIf = scf::IfOp::create(b, loc, e.land(st.full, cAligned),
                                  /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fastIf.thenBlock());
    auto betaIf = scf::IfOp::create(b, loc, betaZero, /*withElse=*/true);
    for (int withBeta = 0; withBeta < 2; ++withBeta) {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(withBeta ? betaIf.elseBlock()
                                          : betaIf.thenBlock());
      for (int i = 0; i < c.ms; ++i) {
        Value row = e.add(rowBase, e.ci32(i));
        for (int j = 0; j < c.ns; j += sw) {
          Value ptr = cPtr(row, e.add(colBase, e.ci32(j)));
          SmallVector<Value> old;
          if (withBeta)
            old = e.loadVector(ptr, sw, outTy);
          SmallVector<Value> out;
          for (int x = 0; x < sw; ++x)
            out.push_back(
                finish(i, j + x, withBeta ? old[x] : Value(), Value()));
          // C's type given: GCC cannot see that `out` is not empty and
          // warns when its first element's type is read.
          e.storeVector(ptr, out, outTy);
        }
      }
    }
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fastIf.elseBlock());
    auto betaIf = scf::IfOp::create(b, loc, betaZero, /*withElse=*/true);
    for (int withBeta = 0; withBeta < 2; ++withBeta) {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(withBeta ? betaIf.elseBlock()
                                          : betaIf.thenBlock());
      forEachElement(
          rowBase, colBase, [&](int i, int j, Value row, Value col, Value ok) {
            Value ptr = cPtr(row, col);
            Value old = withBeta ? e.predicatedLoad(ptr, ok, outTy) : Value();
            e.predicatedStore(ptr, finish(i, j, old, ok), ok);
          });
    }
  }
}

void GemmBuilder::buildBody(gpu::GPUFuncOp func, StringRef smemSymbol) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  auto args = entry.getArguments();
  namespace arg = ::isaac::abi::gemm;
  Value C, A, B, W, sA, sB, sC, alpha, beta;
  ConvKernelArgs convArgs;
  if (conv) {
    // The implicit GEMM of a single "batch": C the output, A the input, B
    // the filters, no batch strides.
    convArgs = ConvKernelArgs::bind(e, args, conv->layout);
    C = convArgs.O;
    A = convArgs.I;
    B = convArgs.F;
    W = convArgs.ws;
    alpha = convArgs.alpha;
    beta = convArgs.beta;
    st.M = convArgs.gemmM;
    st.N = convArgs.gemmN;
    st.K = convArgs.gemmK;
    st.ldb = convArgs.ldb;
    st.ldc = convArgs.ldc;
  } else {
    C = args[arg::C];
    A = args[arg::A];
    B = args[arg::B];
    W = args[arg::W];
    st.M = args[arg::M];
    st.N = args[arg::N];
    st.K = args[arg::K];
    st.lda = args[arg::lda];
    st.ldb = args[arg::ldb];
    st.ldc = args[arg::ldc];
    sA = args[arg::sA];
    sB = args[arg::sB];
    sC = args[arg::sC];
    alpha = args[arg::alpha];
    beta = args[arg::beta];
  }

  st.smem = LLVM::AddressOfOp::create(b, loc, e.sptr, smemSymbol);
  st.tid = e.sreg(gpu::Dimension::x, /*block=*/false);
  Value bx = e.sreg(gpu::Dimension::x, true);
  Value by = e.sreg(gpu::Dimension::y, true);
  Value bz = e.sreg(gpu::Dimension::z, true);
  Value batch = e.divu(bz, e.ci32(c.kg));
  Value g = e.remu(bz, e.ci32(c.kg));
  st.m0 = e.mul(bx, e.ci32(c.ml));
  st.n0 = e.mul(by, e.ci32(c.nl));
  if (conv) {
    st.aBase = A;
    st.bBase = B;
    st.cBase = C;
    accessA = std::make_unique<ConvInputAccess>(e, c, convArgs);
    accessB =
        std::make_unique<MatrixAccess>(e, c, planB, B, B, st.ldb, e.ci64(0));
  } else {
    st.aBase = e.gep(A, e.mul(e.ext64(batch), sA));
    st.bBase = e.gep(B, e.mul(e.ext64(batch), sB));
    st.cBase = e.gep(C, e.mul(e.ext64(batch), sC), outTy);
    auto a =
        std::make_unique<MatrixAccess>(e, c, planA, st.aBase, A, st.lda, sA);
    auto bAccess =
        std::make_unique<MatrixAccess>(e, c, planB, st.bBase, B, st.ldb, sB);
    matrixA = a.get();
    matrixB = bAccess.get();
    accessA = std::move(a);
    accessB = std::move(bAccess);
  }
  // The tile counters of the kernels that take them (as declared), then a
  // fused epilogue's inputs.
  Value S = spec.takesTileCounters() ? args[tileCountersArg(conv)] : Value();
  if (epilogue)
    epilogue->bind(e, args, /*first=*/tileCountersArg(conv) + 1, batch);

  // K slice of this block: Kc = ceil(ceil(K/KG)/U)*U, so that only the
  // last slice can end in a partial tile.
  Value kStart = e.ci32(0);
  st.kEnd = st.K;
  if (c.kg > 1) {
    Value perG = e.divu(e.add(st.K, e.ci32(c.kg - 1)), e.ci32(c.kg));
    Value kc =
        e.mul(e.divu(e.add(perG, e.ci32(c.u - 1)), e.ci32(c.u)), e.ci32(c.u));
    kStart = e.minsi(e.mul(g, kc), st.K);
    st.kEnd = e.minsi(e.add(kStart, kc), st.K);
  }
  Value kLen = e.sub(st.kEnd, kStart);
  Value nTiles = e.divu(e.add(kLen, e.ci32(c.u - 1)), e.ci32(c.u));

  // Fast path: the block's tile is inside C and both operands allow
  // aligned vec-wide loads (base address, leading dimension, batch stride).
  st.full = e.land(e.sle(e.add(st.m0, e.ci32(c.ml)), st.M),
                   e.sle(e.add(st.n0, e.ci32(c.nl)), st.N));
  Value fast = e.land(st.full, e.land(accessA->fastOk(), accessB->fastOk()));
  Value nFull = arith::SelectOp::create(b, loc, fast, e.divu(kLen, e.ci32(c.u)),
                                        e.ci32(0));

  // Thread coordinates: KL group, then (tm, tn) inside the group.
  int groupThreads = c.threadsM() * c.threadsN();
  Value klId = e.divu(st.tid, e.ci32(groupThreads));
  Value inGroup = e.remu(st.tid, e.ci32(groupThreads));
  Value tm = e.remu(inGroup, e.ci32(c.threadsM()));
  Value tn = e.divu(inGroup, e.ci32(c.threadsM()));
  chunksA = computeChunks(planA);
  chunksB = computeChunks(planB);
  // The rows of the input this thread fetches are the same for every K
  // tile: the conv access computes their part of the addresses here, once.
  if (conv) {
    SmallVector<Value> rows;
    for (Value s : chunksA.s)
      rows.push_back(e.add(st.m0, s));
    accessA->prepare(rows);
  }

  SmallVector<Value> loopAcc =
      cpAsync(c, conv) ? asyncMainLoop(kStart, nTiles, nFull, klId, tm, tn)
                       : prefetchMainLoop(kStart, nTiles, nFull, klId, tm, tn);

  // KS partials: summed in registers.
  SmallVector<Value> acc;
  for (int i = 0; i < c.ms * c.ns; ++i) {
    Value s = loopAcc[i];
    for (int k = 1; k < c.ks; ++k)
      s = e.fadd(s, loopAcc[k * c.ms * c.ns + i]);
    acc.push_back(s);
  }

  // KL partials: groups 1..KL-1 park their tiles in shared memory (the
  // staging buffers are free after the loop's last barrier); group 0 sums
  // them in group order and alone writes C.
  Value isGroup0 = e.eq(klId, e.ci32(0));
  if (c.kl > 1) {
    auto slot = [&](Value group, int i, int j) {
      Value idx = e.add(
          e.mul(e.sub(group, e.ci32(1)), e.ci32(c.ml * c.nl)),
          e.add(e.mul(e.add(e.mul(tm, e.ci32(c.ms)), e.ci32(i)), e.ci32(c.nl)),
                e.add(e.mul(tn, e.ci32(c.ns)), e.ci32(j))));
      return e.gep(st.smem, idx);
    };
    {
      auto ifOp = scf::IfOp::create(b, loc, isGroup0, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (int i = 0; i < c.ms; ++i)
        for (int j = 0; j < c.ns; ++j)
          LLVM::StoreOp::create(b, loc, acc[i * c.ns + j], slot(klId, i, j),
                                e.esz());
    }
    e.barrier();
    SmallVector<Type> accTypes(acc.size(), e.elemTy);
    auto ifOp = scf::IfOp::create(b, loc, accTypes, isGroup0,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> sum(acc);
      for (int grp = 1; grp < c.kl; ++grp)
        for (int i = 0; i < c.ms; ++i)
          for (int j = 0; j < c.ns; ++j) {
            Value v = LLVM::LoadOp::create(b, loc, e.elemTy,
                                           slot(e.ci32(grp), i, j), e.esz());
            sum[i * c.ns + j] = e.fadd(sum[i * c.ns + j], v);
          }
      scf::YieldOp::create(b, loc, sum);
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, acc);
    }
    acc.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }

  auto epilogueIf = scf::IfOp::create(b, loc, isGroup0, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(epilogueIf.thenBlock());
    emitEpilogue(acc, tm, tn, g, batch, W, S, alpha, beta);
  }
  if (epilogue && c.kg > 1)
    emitSplitKFixup(tm, tn, batch, isGroup0, W, S, beta);
  gpu::ReturnOp::create(b, loc);
}

} // namespace

/// Builds the simt kernel `name` of `spec` (GEMM, or with `conv` that
/// convolution's) and its static shared memory at the end of `module`.
static gpu::GPUFuncOp buildSimtKernel(OpBuilder &builder,
                                      gpu::GPUModuleOp module,
                                      const GemmKernelSpec &spec,
                                      const ConvKernelSpec *conv) {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = module.getLoc();
  std::string name = conv ? conv->kernelName() : spec.kernelName();
  ::isaac::SharedLayout smem =
      ::isaac::getSharedLayout(spec.config, spec.dtype);

  builder.setInsertionPointToEnd(module.getBody());
  Type elemTy = spec.dtype == DType::F32 ? Type(builder.getF32Type())
                                         : Type(builder.getF64Type());
  std::string smemName = name + "_smem";
  LLVM::GlobalOp::create(
      builder, loc, LLVM::LLVMArrayType::get(elemTy, smem.totalElems),
      /*isConstant=*/false, LLVM::Linkage::Internal, smemName, Attribute(),
      /*alignment=*/16, /*addrSpace=*/3);

  KernelEmitter types(builder, loc, spec.dtype);
  gpu::GPUFuncOp func =
      conv ? declareConvKernel(builder, loc, *conv, name, types, elemTy)
           : declareGemmKernel(builder, loc, spec, name, types, elemTy);

  GemmBuilder gen(builder, loc, spec, conv);
  gen.buildBody(func, smemName);
  return func;
}

gpu::GPUFuncOp mlir::isaac::buildGemmKernel(OpBuilder &builder,
                                            gpu::GPUModuleOp module,
                                            const GemmKernelSpec &spec) {
  if (spec.config.family != ::isaac::GemmFamily::Simt)
    return buildMmaGemmKernel(builder, module, spec);
  return buildSimtKernel(builder, module, spec, /*conv=*/nullptr);
}

gpu::GPUFuncOp mlir::isaac::buildConvKernel(OpBuilder &builder,
                                            gpu::GPUModuleOp module,
                                            const ConvKernelSpec &spec) {
  assert(spec.layout != ::isaac::ConvLayout::NchwFchw &&
         "conv kernels read NHWC inputs (ConvLegality.h)");
  GemmKernelSpec gemm = spec.gemmSpec();
  // The tensor-core families (mma, wgmma) share one builder.
  if (spec.config.family != ::isaac::GemmFamily::Simt)
    return buildMmaGemmKernel(builder, module, gemm, &spec);
  return buildSimtKernel(builder, module, gemm, &spec);
}

/// The wgmma family's tensor maps and TMA switch (KernelABI.def's
/// TMA_GEMM_ARG), appended last to its GEMM and convolution kernels'
/// parameters; returns the index of the first, or nothing for the other
/// families.
static std::optional<unsigned>
appendTensorMapArgs(KernelEmitter &types, const ::isaac::GemmConfig &config,
                    Type scalar, SmallVectorImpl<Type> &argTypes) {
  if (config.family != ::isaac::GemmFamily::Wgmma)
    return std::nullopt;
  unsigned first = argTypes.size();
  appendABITypes(types, ::isaac::abi::kTmaGemmArgs, scalar, argTypes);
  return first;
}

/// Names the tensor-map parameters for isaac-tensor-map-params, which
/// gives them their by-value `.param` form.
static void markTensorMapArgs(OpBuilder &builder, gpu::GPUFuncOp func,
                              std::optional<unsigned> firstTma) {
  if (!firstTma)
    return;
  func->setAttr(
      kTensorMapArgsAttrName,
      builder.getDenseI32ArrayAttr(
          {static_cast<int32_t>(*firstTma + ::isaac::abi::tma::tmA),
           static_cast<int32_t>(*firstTma + ::isaac::abi::tma::tmB)}));
}

gpu::GPUFuncOp mlir::isaac::declareConvKernel(OpBuilder &builder, Location loc,
                                              const ConvKernelSpec &spec,
                                              StringRef name,
                                              KernelEmitter &types,
                                              Type scalar) {
  SmallVector<Type> argTypes;
  appendABITypes(types, ::isaac::abi::kConvArgs, scalar, argTypes);
  if (spec.takesTileCounters())
    appendABITypes(types, ::isaac::abi::kFusedGemmArgs, scalar, argTypes);
  if (spec.epilogue)
    EpilogueCodegen(*spec.epilogue).appendParamTypes(types, argTypes);
  std::optional<unsigned> firstTma =
      appendTensorMapArgs(types, spec.config, scalar, argTypes);
  auto func = gpu::GPUFuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({spec.config.threads(), 1, 1}));
  markTensorMapArgs(builder, func, firstTma);
  // The input and the filters are only read.
  for (unsigned i : {::isaac::abi::conv::I, ::isaac::abi::conv::F}) {
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    builder.getUnitAttr());
    func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                    builder.getUnitAttr());
  }
  return func;
}

gpu::GPUFuncOp mlir::isaac::declareGemmKernel(OpBuilder &builder, Location loc,
                                              const GemmKernelSpec &spec,
                                              StringRef name,
                                              KernelEmitter &types,
                                              Type scalar) {
  SmallVector<Type> argTypes;
  appendABITypes(types, ::isaac::abi::kGemmArgs, scalar, argTypes);
  // The split-K tile counters, then a fused epilogue's inputs.
  if (spec.takesTileCounters())
    appendABITypes(types, ::isaac::abi::kFusedGemmArgs, scalar, argTypes);
  if (spec.epilogue)
    EpilogueCodegen(*spec.epilogue).appendParamTypes(types, argTypes);
  std::optional<unsigned> firstTma =
      appendTensorMapArgs(types, spec.config, scalar, argTypes);
  auto func = gpu::GPUFuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({spec.config.threads(), 1, 1}));
  markTensorMapArgs(builder, func, firstTma);
  // A and B are only read: lets the backend use the non-coherent cache.
  for (unsigned i : {::isaac::abi::gemm::A, ::isaac::abi::gemm::B}) {
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    builder.getUnitAttr());
    func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                    builder.getUnitAttr());
  }
  return func;
}
