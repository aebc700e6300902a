//===- KernelEmitter.h - Scalar code helpers for kernel bodies -*- C++ -*-===//
//
// Private to lib/Transforms: thin wrappers over OpBuilder that the GEMM
// generator and the helper kernels use to write index math, loads, stores
// and the predicated inline-PTX memory instructions, and the cp.async
// main loop the simt, mma and wgmma kernels share.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_KERNELEMITTER_H
#define ISAAC_LIB_TRANSFORMS_KERNELEMITTER_H

#include "isaac/Model/GemmConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::isaac {

/// Runs `body` under `cond` (a null `cond`: unconditionally).
inline void ifThen(OpBuilder &b, Location loc, Value cond,
                   function_ref<void()> body) {
  if (!cond) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

/// Thin helpers over OpBuilder for the scalar code of a kernel body.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Location loc, ::isaac::DType dtype)
      : b(b), loc(loc), dtype(dtype),
        elemTy(dtype == ::isaac::DType::F32 ? Type(b.getF32Type())
                                            : Type(b.getF64Type())),
        i1(b.getI1Type()), i32(b.getI32Type()), i64(b.getI64Type()),
        gptr(LLVM::LLVMPointerType::get(b.getContext(), 1)),
        sptr(LLVM::LLVMPointerType::get(b.getContext(), 3)) {}

  OpBuilder &b;
  Location loc;
  ::isaac::DType dtype;
  Type elemTy, i1, i32, i64, gptr, sptr;

  int esz() const { return ::isaac::dtypeBytes(dtype); }

  Value ci32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i32, v));
  }
  Value ci64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i64, v));
  }
  Value cf(double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(elemTy, v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minsi(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value land(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value slt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value sle(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value ext64(Value x) { return arith::ExtSIOp::create(b, loc, i64, x); }
  /// x is a multiple of `m` (m a power of two), as an i1.
  Value isMultiple(Value x, int64_t m) {
    Type t = x.getType();
    Value mask = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, m - 1));
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
    return eq(arith::AndIOp::create(b, loc, x, mask), zero);
  }

  Value fmul(Value x, Value y) { return LLVM::FMulOp::create(b, loc, x, y); }
  Value fadd(Value x, Value y) { return LLVM::FAddOp::create(b, loc, x, y); }
  /// The main loop's multiply-add. Epilogues use fmul + fadd (which the
  /// backend contracts) so that llvm.intr.fma counts the main loop's FMAs.
  Value fma(Value x, Value y, Value z) {
    return LLVM::FMAOp::create(b, loc, x, y, z);
  }

  /// &base[idx] for elements of the kernel's dtype.
  Value gep(Value base, Value idx) { return gep(base, idx, elemTy); }
  /// &base[idx] for elements of type `type`.
  Value gep(Value base, Value idx, Type type) {
    return LLVM::GEPOp::create(b, loc, base.getType(), type, base,
                               ValueRange{idx});
  }

  /// Loads `width` consecutive elements (one vector access, aligned to its
  /// size) and returns them as scalars.
  SmallVector<Value> loadVector(Value ptr, int width) {
    return loadVector(ptr, width, elemTy);
  }
  SmallVector<Value> loadVector(Value ptr, int width, Type type) {
    int size = type.getIntOrFloatBitWidth() / 8;
    if (width == 1)
      return {LLVM::LoadOp::create(b, loc, type, ptr, size)};
    auto vt = VectorType::get({width}, type);
    Value v = LLVM::LoadOp::create(b, loc, vt, ptr, width * size);
    SmallVector<Value> out;
    for (int i = 0; i < width; ++i)
      out.push_back(LLVM::ExtractElementOp::create(b, loc, v, ci32(i)));
    return out;
  }

  /// Stores `elems` (of one type) as one vector access.
  void storeVector(Value ptr, ArrayRef<Value> elems) {
    storeVector(ptr, elems, elems[0].getType());
  }
  /// The same, with the elements' type given.
  void storeVector(Value ptr, ArrayRef<Value> elems, Type type) {
    int width = elems.size();
    int size = type.getIntOrFloatBitWidth() / 8;
    if (width == 1) {
      LLVM::StoreOp::create(b, loc, elems[0], ptr, size);
      return;
    }
    auto vt = VectorType::get({width}, type);
    Value v = LLVM::PoisonOp::create(b, loc, vt);
    for (int i = 0; i < width; ++i)
      v = LLVM::InsertElementOp::create(b, loc, v, elems[i], ci32(i));
    LLVM::StoreOp::create(b, loc, v, ptr, width * size);
  }

  /// Converts a float scalar to `type` (extf / truncf), or returns it.
  Value convert(Value v, Type type) {
    unsigned from = v.getType().getIntOrFloatBitWidth();
    unsigned to = type.getIntOrFloatBitWidth();
    if (v.getType() == type)
      return v;
    if (to > from)
      return arith::ExtFOp::create(b, loc, type, v);
    if (to < from)
      return arith::TruncFOp::create(b, loc, type, v);
    // f16 <-> bf16: through f32, the common superset.
    return arith::TruncFOp::create(
        b, loc, type, arith::ExtFOp::create(b, loc, b.getF32Type(), v));
  }

  StringRef ptxType() const {
    return dtype == ::isaac::DType::F32 ? "f32" : "f64";
  }
  StringRef regConstraint() const {
    return dtype == ::isaac::DType::F32 ? "f" : "d";
  }

  /// `@p ld.global` of one element; reads 0 where `pred` is false (the
  /// output register is tied to a zero input, so the untaken load leaves 0).
  /// `cacheOp` (e.g. ".cg": L2 only) qualifies the load; such a load reads
  /// what other blocks published, so it is marked as having side effects:
  /// LLVM must not move it across the synchronization before it (an asm
  /// without side effects is free to move, as if it read no memory).
  Value predicatedLoad(Value ptr, Value pred, StringRef cacheOp = "") {
    std::string asmStr =
        ("@$2 ld.global" + cacheOp + "." + ptxType() + " $0, [$1];").str();
    std::string cons = ("=" + regConstraint() + ",l,b,0").str();
    return LLVM::InlineAsmOp::create(
               b, loc, elemTy, ValueRange{ptr, pred, cf(0.0)}, asmStr, cons,
               /*has_side_effects=*/!cacheOp.empty(), /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
               ArrayAttr())
        .getResult(0);
  }

  /// predicatedLoad of an element of any float type; 16-bit types go
  /// through a `.b16` register (the "h" constraint wants an i16).
  Value predicatedLoad(Value ptr, Value pred, Type type) {
    if (type == elemTy)
      return predicatedLoad(ptr, pred);
    unsigned bits = type.getIntOrFloatBitWidth();
    Type regTy = bits == 16 ? Type(b.getI16Type()) : type;
    std::string ptx = bits == 16 ? "b16" : bits == 32 ? "f32" : "f64";
    std::string reg = bits == 16 ? "h" : bits == 32 ? "f" : "d";
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(regTy));
    Value v =
        LLVM::InlineAsmOp::create(
            b, loc, regTy, ValueRange{ptr, pred, zero},
            "@$2 ld.global." + ptx + " $0, [$1];", "=" + reg + ",l,b,0",
            /*has_side_effects=*/false,
            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr(), ArrayAttr())
            .getResult(0);
    return bits == 16 ? Value(LLVM::BitcastOp::create(b, loc, type, v)) : v;
  }

  /// `@p st.global` of one element.
  void predicatedStore(Value ptr, Value value, Value pred) {
    if (value.getType() == elemTy) {
      predicatedGlobalWrite("st.global", ptr, value, pred);
      return;
    }
    unsigned bits = value.getType().getIntOrFloatBitWidth();
    if (bits == 16)
      value = LLVM::BitcastOp::create(b, loc, b.getI16Type(), value);
    std::string ptx = bits == 16 ? "b16" : bits == 32 ? "f32" : "f64";
    std::string reg = bits == 16 ? "h" : bits == 32 ? "f" : "d";
    LLVM::InlineAsmOp::create(
        b, loc, Type(), ValueRange{ptr, value, pred},
        "@$2 st.global." + ptx + " [$0], $1;", "l," + reg + ",b",
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
  }

  /// `@p red.global.add`: the KG > 1 accumulation into C. Relaxed, with no
  /// returned value: all split-K needs (an acq_rel atomicrmw is stronger).
  void predicatedReduceAdd(Value ptr, Value value, Value pred) {
    predicatedGlobalWrite("red.global.add", ptr, value, pred);
  }

  /// `@p red.global.add.v2.f32 [ptr], {lo, hi};`: two adjacent f32 values
  /// (ptr 8-byte aligned) added with one atomic (PTX ISA 8.1, sm_90;
  /// ::isaac::hasVectorRedF32).
  void predicatedReduceAddPair(Value ptr, Value lo, Value hi, Value pred) {
    LLVM::InlineAsmOp::create(
        b, loc, Type(), ValueRange{ptr, lo, hi, pred},
        "@$3 red.global.add.v2.f32 [$0], {$1, $2};", "l,f,f,b",
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
  }

  /// `@p <op>.<type> [ptr], value;` through inline PTX.
  void predicatedGlobalWrite(StringRef op, Value ptr, Value value, Value pred) {
    std::string asmStr = ("@$2 " + op + "." + ptxType() + " [$0], $1;").str();
    std::string cons = ("l," + regConstraint() + ",b").str();
    LLVM::InlineAsmOp::create(b, loc, Type(), ValueRange{ptr, value, pred},
                              asmStr, cons, /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::tailcallkind::TailCallKind::None,
                              LLVM::AsmDialectAttr(), ArrayAttr());
  }

  /// A barrier of the threads that compute: the block's (barrier 0, every
  /// thread), or with `computeThreads` set (a warp-specialized kernel,
  /// whose producer warpgroup leaves after its copies) named barrier 1 of
  /// that many threads, which the producer never reaches.
  void barrier() {
    if (!computeThreads) {
      gpu::BarrierOp::create(b, loc);
      return;
    }
    NVVM::BarrierOp::create(b, loc, Type(), ci32(1), ci32(computeThreads),
                            NVVM::BarrierReductionAttr(), Value());
  }
  int computeThreads = 0;

  /// `cp.async` of `bytes` (4, 8 or 16) from global `src` to shared `dst`;
  /// with `srcSize`, only that many bytes are read and the rest zero-filled.
  /// 16-byte copies bypass L1 (`.cg`, which takes only 16 bytes), the
  /// others are `.ca`.
  void cpAsync(Value dst, Value src, int bytes, Value srcSize = Value()) {
    auto modifier = NVVM::LoadCacheModifierKindAttr::get(
        b.getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                    : NVVM::LoadCacheModifierKind::CA);
    NVVM::CpAsyncOp::create(b, loc, dst, src, b.getI32IntegerAttr(bytes),
                            modifier, srcSize);
  }

  /// `fence.acq_rel.gpu`: orders this thread's memory accesses before and
  /// after it for every thread of the GPU (a __threadfence()).
  void fenceGpu() {
    LLVM::InlineAsmOp::create(
        b, loc, Type(), ValueRange{}, "fence.acq_rel.gpu;", "",
        /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
  }

  /// `atom.add.acq_rel.gpu.u32`: adds `value` (i32) at `ptr`, returns the
  /// old value.
  Value atomicAddAcqRel(Value ptr, Value value) {
    return LLVM::InlineAsmOp::create(
               b, loc, i32, ValueRange{ptr, value},
               "atom.add.acq_rel.gpu.u32 $0, [$1], $2;", "=r,l,r",
               /*has_side_effects=*/true, /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
               ArrayAttr())
        .getResult(0);
  }

  /// The split-K semaphore of the atomic mode (docs/abi.md): counts the
  /// block in at its tile's counter (`counters`: one i32 per tile of the
  /// grid, batch-major) and returns, in every thread, whether it is the
  /// `kg`-th block of the tile to arrive; that block resets the counter for
  /// the next launch (the runtime keeps the counters zero between
  /// launches). As CUTLASS's split-K semaphores: the barrier orders every
  /// thread's partial sums (its red.adds) before thread 0's fence, which
  /// releases them to the GPU (cumulativity); thread 0 passes the answer
  /// on through `flag`, an i32 of shared memory.
  Value arriveAtTile(Value counters, Value batch, Value tid, Value flag,
                     int kg) {
    barrier();
    Value gx = gridDim(gpu::Dimension::x);
    Value gy = gridDim(gpu::Dimension::y);
    Value bx = sreg(gpu::Dimension::x, true);
    Value by = sreg(gpu::Dimension::y, true);
    Value tile = add(mul(ext64(batch), mul(ext64(gx), ext64(gy))),
                     add(mul(ext64(by), ext64(gx)), ext64(bx)));
    Value counter = gep(counters, tile, i32);
    {
      auto first = scf::IfOp::create(b, loc, eq(tid, ci32(0)),
                                     /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      fenceGpu();
      Value old = atomicAddAcqRel(counter, ci32(1));
      Value last = eq(old, ci32(kg - 1));
      LLVM::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, last),
                            flag, 4);
      auto lastIf = scf::IfOp::create(b, loc, last, /*withElse=*/false);
      b.setInsertionPointToStart(lastIf.thenBlock());
      LLVM::StoreOp::create(b, loc, ci32(0), counter, 4);
    }
    barrier();
    return eq(LLVM::LoadOp::create(b, loc, i32, flag, 4), ci32(1));
  }

  Value gridDim(gpu::Dimension d) {
    return arith::IndexCastUIOp::create(b, loc, i32,
                                        gpu::GridDimOp::create(b, loc, d));
  }

  Value sreg(gpu::Dimension d, bool block) {
    Value v = block ? Value(gpu::BlockIdOp::create(b, loc, d))
                    : Value(gpu::ThreadIdOp::create(b, loc, d));
    return arith::IndexCastUIOp::create(b, loc, i32, v);
  }
};

/// The hooks of a cp.async multistage main loop (emitCpAsyncMainLoop).
struct CpAsyncLoopHooks {
  /// Copies K tile `tile` into the stage at element offset `stageOff` (the
  /// caller's copies; one commit group is closed after each call).
  function_ref<void(Value tile, Value stageOff)> issue;
  /// The values the loop carries besides the two stage offsets (the
  /// accumulators), built after the prologue.
  function_ref<SmallVector<Value>()> init;
  /// Multiplies the tile in the stage at `stageOff`; returns the new
  /// carried values.
  function_ref<SmallVector<Value>(Value stageOff, ValueRange carried)> compute;
  /// Optional: after a tile's wait, before the barrier (a proxy fence).
  function_ref<void()> afterWait = nullptr;
  /// Optional: after compute (waiting for asynchronous MMAs).
  function_ref<void()> afterCompute = nullptr;
  /// Optional: after the loop, before the final wait (draining MMAs).
  function_ref<void()> beforeDrain = nullptr;
};

/// The main loop every cp.async pipeline shares (the simt kernels with
/// stages > 2, the mma and wgmma kernels): tiles 0 .. ahead-1 are copied
/// in a prologue, one commit group each (empty past the last tile, so that
/// every thread counts the same groups). Iteration t waits until tile t
/// has landed (`cp.async.wait_group ahead-1`: this thread's copies; after
/// the barrier, every thread's), copies tile t+ahead into the write stage,
/// then computes tile t from the read stage; both offsets advance through
/// `stages` stages of `stageElems`. Copying `ahead` tiles ahead, the write
/// stage is the one tile t - (stages - ahead) used, whose reads the caller
/// guarantees ended before the barrier. After the loop nothing is in
/// flight (the groups past the last tile are empty) and a barrier frees
/// the stages. Returns the carried values (without the stage offsets).
inline SmallVector<Value> emitCpAsyncMainLoop(KernelEmitter &e, int stages,
                                              int ahead, int stageElems,
                                              Value nTiles,
                                              const CpAsyncLoopHooks &hooks) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // A loop, not unrolled here: the copy code would otherwise be repeated
  // `ahead` times.
  {
    auto prologue =
        scf::ForOp::create(b, loc, e.ci32(0), e.ci32(ahead), e.ci32(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prologue.getBody());
    Value s = prologue.getInductionVar();
    ifThen(b, loc, e.slt(s, nTiles),
           [&] { hooks.issue(s, e.mul(s, e.ci32(stageElems))); });
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  SmallVector<Value> init = hooks.init();
  int nCarried = init.size();
  init.push_back(e.ci32(0));                  // read stage
  init.push_back(e.ci32(ahead * stageElems)); // write stage
  auto loop = scf::ForOp::create(b, loc, e.ci32(0), nTiles, e.ci32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    ValueRange iter = loop.getRegionIterArgs();
    Value rd = iter[nCarried], wr = iter[nCarried + 1];
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(ahead - 1));
    if (hooks.afterWait)
      hooks.afterWait();
    e.barrier();
    Value next = e.add(t, e.ci32(ahead));
    ifThen(b, loc, e.slt(next, nTiles), [&] { hooks.issue(next, wr); });
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    SmallVector<Value> carried = hooks.compute(rd, iter.take_front(nCarried));
    if (hooks.afterCompute)
      hooks.afterCompute();
    auto advance = [&](Value s) {
      Value n = e.add(s, e.ci32(stageElems));
      return arith::SelectOp::create(
          b, loc, e.eq(n, e.ci32(stages * stageElems)), e.ci32(0), n);
    };
    carried.push_back(advance(rd));
    carried.push_back(advance(wr));
    scf::YieldOp::create(b, loc, carried);
  }
  if (hooks.beforeDrain)
    hooks.beforeDrain();
  NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0));
  e.barrier();
  return SmallVector<Value>(loop.getResults().take_front(nCarried));
}

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_KERNELEMITTER_H
