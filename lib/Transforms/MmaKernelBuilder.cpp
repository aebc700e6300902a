//===- MmaKernelBuilder.cpp - GEMM kernels on warp-level mma.sync ---------===//
//
// The `mma` kernel family: C = alpha*op(A)*op(B) + beta*C on tensor cores,
// with the same ABI as the simt kernels (docs/abi.md): 16-bit operands
// (f16, bf16; mma.sync.m16n8k16) and f32 operands multiplied in TF32
// (m16n8k8), f32 accumulation, C of f16, bf16 or f32; f64 operands and C
// (DMMA: m16n8k8 on sm_90 and later, m8n8k4 on sm_80), f64 accumulation.
//
//   block  : an ML x NL tile of C; grid z = batch * KG, as the simt kernels
//   warp   : a WM x WN tile of C, (WM/m) x (WN/8) instruction tiles of m x 8
//            (m = 16; 8 for f64 on sm_80) with m/4 accumulators per lane
//            each;
//            (ML/WM) x (NL/WN) warps per KL group, KL groups splitting each
//            stage's K depth U
//   stage  : the ML x U tile of A and the U x NL tile of B, each copied in
//            its global orientation by 16-byte cp.async (vec elements per
//            copy) into XOR-swizzled shared memory; `stages` stages in
//            flight (a multistage pipeline: the copies of tile t+stages-1
//            are issued before tile t is multiplied; one barrier per tile)
//   k-step : ldmatrix (.trans where the stored orientation is the
//            transpose of the fragment's) loads one 16-deep slice of the
//            warp's A and B fragments (TF32 stored M- or N-contiguous and
//            f64 take 32- and 64-bit shared loads: ldmatrix has no
//            32-bit .trans and no 64-bit form); then every (i, j) mma.sync
//
// wgmma kernels have a second main loop on TMA (tmaMainLoop): one thread
// fills the stages with bulk tensor copies through the runtime's tensor
// maps (a convolution's input through an im2col map: the tap's offsets
// move a box of pixels), mbarriers replace the block barrier, and TMA's
// zero fill replaces the predication below; the launch's useTma argument
// chooses it when TMA can address both operands (docs/abi.md, "Tensor
// maps"). With cm > 1 the kernel runs in clusters of cm blocks along M
// that share B's tiles: each block copies 1/cm of B's rows and multicasts
// them to all, each warp releases a stage in every block of the cluster,
// and cluster barriers bracket the loop (docs/architecture.md, "Thread-
// block clusters"). With kc = 1 the KG slices of a tile are one cluster
// along z: each block parks its sums in shared memory and the warps of
// the tile are summed, in slice order, by the blocks they are dealt to
// (sumClusterSlices), which store C: no workspace, no second kernel.
//
// Bounds: a tile the block's rows and K cover entirely takes the copies
// without a source size; any other tile gives each copy its exact source
// size (zero where the copy lies outside A or B): cp.async zero-fills the
// rest, so edges need no padding and no separate code path. An operand
// whose base, leading dimension or batch stride do not allow aligned
// `vec`-wide copies is staged with predicated scalar loads instead.
//
// Which MLIR operations are used, and why (docs/architecture.md):
//   - nvvm.ldmatrix reads fragments through a pointer into the dynamic
//     shared memory (a memref.global declaration: an `.extern .shared`
//     array), its address split into the lane's loop-invariant slot and
//     the stage, so the main loop adds one offset per ldmatrix
//     (nvgpu.ldmatrix's single memref index costs three); f64 fragments
//     are plain 64-bit loads through the same pointer (no 64-bit
//     ldmatrix);
//   - nvgpu.mma.sync multiplies f16 and TF32; bf16 and sm_80's f64
//     (m8n8k4) use nvvm.mma.sync, because LLVM 22's nvgpu-to-nvvm
//     conversion cannot type bf16 operands and nvgpu.mma.sync has no f64
//     shape; sm_90's f64 (m16n8k8) calls the NVPTX intrinsic
//     (llvm.call_intrinsic), nvvm.mma.sync verifying no m16 f64 shape;
//   - the copies are nvvm.cp.async.shared.global (with its source-size
//     operand for the zero fill) and nvvm.cp.async.commit.group /
//     wait.group: nvgpu.device_async_copy wants its source as a memref, and
//     the kernel's operands are raw pointers (the ABI).
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/KernelBuilders.h"

#include "ConvInputTaps.h"
#include "EpilogueCodegen.h"
#include "KernelArgs.h"
#include "KernelEmitter.h"
#include "MmaKernelBuilder.h"

#include "isaac/Model/Mma.h"
#include "isaac/Model/Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <map>

using namespace mlir;
using namespace mlir::isaac;
using ::isaac::DType;
using ::isaac::GemmConfig;

namespace {

/// How one operand's tile is laid out in shared memory and copied there.
/// The tile keeps the operand's global orientation: `rows` x `cols`
/// elements with `cols` along the global contiguous dimension.
struct OperandPlan {
  bool contigIsK; ///< rows are m (n), columns k; else rows k, columns m (n)
  int rows, cols;
  int esz, vec;
  int unitsPerRow, units, rounds; ///< vec-wide copies
  /// Swizzle (::isaac::MmaSwizzle): the 16-byte chunk c of row r is
  /// stored at chunk c ^ (((r / rowsPerGroup) % groups) << shift), a
  /// permutation inside each 128-byte line that keeps the fragment loads
  /// free of bank conflicts.
  ::isaac::MmaSwizzle swz;
  int tileOffset; ///< elements from the start of a stage
  /// The wgmma family's layout (Wgmma.h), which replaces `swz`.
  std::optional<::isaac::WgmmaOperandLayout> wg;

  OperandPlan(const GemmConfig &c, DType ab, int mn, bool contigIsK,
              int tileOffset, int threads)
      : contigIsK(contigIsK), rows(contigIsK ? mn : c.u),
        cols(contigIsK ? c.u : mn), esz(::isaac::dtypeBytes(ab)), vec(c.vec),
        unitsPerRow(cols / c.vec), units(rows * cols / c.vec),
        rounds((units + threads - 1) / threads),
        swz(::isaac::getMmaSwizzle(cols, ab)), tileOffset(tileOffset) {}
};

class MmaBuilder {
public:
  /// `conv`: build the convolution kernel of that spec (whose gemmSpec()
  /// is `spec`) instead of the GEMM kernel.
  MmaBuilder(OpBuilder &b, Location loc, const GemmKernelSpec &spec,
             const ConvKernelSpec *conv)
      : e(b, loc, spec.accType()), spec(spec), conv(conv), c(spec.config),
        wgmma(c.family == ::isaac::GemmFamily::Wgmma),
        smem(::isaac::getMmaSharedLayout(c, spec.dtype)),
        esz(::isaac::dtypeBytes(spec.dtype)),
        threads(c.computeThreads() / c.tilesInFlight()),
        instr(*::isaac::mmaInstruction(spec.dtype, spec.chip)), kStep(instr.k),
        planA(c, spec.dtype, c.ml, /*contigIsK=*/!spec.layout.transA, 0,
              threads),
        planB(c, spec.dtype, c.nl, /*contigIsK=*/spec.layout.transB,
              smem.tileBytesA / esz, threads),
        abTy(getScalarType(b.getContext(), spec.dtype)),
        outTy(getScalarType(b.getContext(), spec.outType())),
        regs(::isaac::wgmmaRegisterSplit(
            c, spec.dtype,
            ::isaac::getChipLimits(spec.chip).value_or(
                ::isaac::ChipLimits{spec.chip}))) {
    if (spec.epilogue)
      epilogue.emplace(*spec.epilogue);
    // The producer warpgroup of a warp-specialized block leaves after its
    // copies: the block's barriers are the computing threads'.
    if (c.ws)
      e.computeThreads = threads;
    if (wgmma) {
      planA.wg = ::isaac::getWgmmaOperandLayout(c, spec.dtype, /*isB=*/false,
                                                planA.contigIsK);
      planB.wg = ::isaac::getWgmmaOperandLayout(c, spec.dtype, /*isB=*/true,
                                                planB.contigIsK);
    }
  }

  void buildBody(gpu::GPUFuncOp func, StringRef smemSymbol);
  /// ws = 1: the registers a thread starts with (0: ptxas's own bound)
  /// and what the producer and computing warpgroups trade them to.
  const ::isaac::WgmmaRegisterSplit &registerSplit() const { return regs; }

private:
  KernelEmitter e; ///< scalars of the accumulator type (f32; f64 for f64)
  const GemmKernelSpec &spec;
  const ConvKernelSpec *conv;
  const GemmConfig &c;
  bool wgmma; ///< the wgmma family (warpgroups), else mma (warps)
  ::isaac::MmaSharedLayout smem;
  /// The computing threads of one tile (ping-pong, pt = 2: of one of its
  /// two warpgroups), which share its copies and barriers.
  int esz, threads;
  ::isaac::MmaInstr instr;
  int kStep; ///< K of one mma instruction (16; 8 for TF32; 4 for f64)
  OperandPlan planA, planB;
  Type abTy, outTy;
  std::optional<EpilogueCodegen> epilogue;
  ::isaac::WgmmaRegisterSplit regs;

  // Block state.
  Value tid, lane, warpId, klId, wmBase, wnBase, g, q;
  /// The first row of C (in the block) of the thread's warp: wmBase for
  /// mma; wmBase + 16 * (warp in its warpgroup) for wgmma.
  Value rowBase;
  Value M, N, K, lda, ldb, ldc;
  Value aBase, bBase, cBase;
  Value m0, n0, kStart, kEnd, kLen;
  Value full;    ///< the block's tile lies inside C
  Value smemPtr; ///< !llvm.ptr<3> to the dynamic shared memory
  Value alignedA, alignedB;
  /// wgmma GEMM kernels: the tensor maps of A and B (generic addresses of
  /// the by-value parameters) and the batch the block computes.
  Value tmA, tmB, batchIdx;
  /// A convolution's input as the implicit A (conv kernels only).
  std::optional<ConvInputTaps> taps;
  /// wgmma conv kernels on TMA: the pixel of the block's first row, the
  /// im2col map's coordinates of every K tile's A box.
  ConvInputTaps::Pixel tmaPixel;
  /// wgmma with cm > 1: the block's rank in its cluster of cm blocks along
  /// M, which share B's tiles (each copies 1/cm of B's rows, multicast).
  Value ctaRank;

  /// Per-thread, loop-invariant facts of one copy (one round).
  struct Copy {
    Value r, ce;   ///< row, first column (elements) in the tile
    Value smemOff; ///< swizzled element offset inside the stage
    Value mn;      ///< global m (n) of the copy's first element
    Value kOff;    ///< k offset from the tile's first k
    Value active;  ///< this thread has a copy in this round (or null)
  };
  SmallVector<Copy> copiesA, copiesB;

  /// Element offset inside the tile of element (r, col), swizzled.
  Value swizzle(const OperandPlan &p, Value r, Value col);
  SmallVector<Copy> planCopies(const OperandPlan &p, Value rowBase);
  void issueOperand(const OperandPlan &p, ArrayRef<Copy> copies, Value xBase,
                    Value ld, Value limit, Value aligned, Value kBase,
                    Value fastTile, Value stageOff);
  void issueTile(Value t, Value stageOff, Value nFull);
  void emitCopies(const OperandPlan &p, ArrayRef<Copy> copies, Value xBase,
                  Value ld, Value limit, Value kBase, Value stageOff,
                  bool exact);
  void emitScalarCopies(const OperandPlan &p, ArrayRef<Copy> copies,
                        Value xBase, Value ld, Value limit, Value kBase,
                        Value stageOff);
  /// A convolution's A tile: cp.async from the input where C allows
  /// vec-wide chunks of one tap (alignedA), each copy's source size zero
  /// in the halo and past the tile's rows or K; predicated scalar loads
  /// otherwise.
  void issueConvInput(Value kBase, Value stageOff);
  /// ldmatrix of `numTiles` 8x8 matrices at element `offset` (the lane's
  /// row in its tile, loop-invariant) of the stage at `stageOff`.
  Value ldmatrix(Value offset, Value stageOff, int numTiles, bool trans);
  /// A fragment of one element per register (TF32) from the given element
  /// offsets, one per register: vector<offsets x 1>.
  Value loadFragment(ArrayRef<Value> offsets);
  /// Each element of a TF32 fragment rounded to nearest (ties away), as
  /// cuBLAS and CUTLASS round f32 operands for TF32 tensor cores.
  Value roundToTF32(Value frag);
  SmallVector<Value> computeStage(Value stageOff, ValueRange acc);
  /// The wgmma family's stage: for each 16-deep k-step of this KL group's
  /// share of the stage at `stageOff`, one wgmma.m64nWNk16 per 64-row
  /// tile of the warpgroup, accumulating into `acc` (one struct of WN/2
  /// f32 per tile).
  /// `overwrite`: the first k-step's wgmmas ignore `acc` (scale-d = 0).
  SmallVector<Value> wgmmaStage(Value stageOff, ValueRange acc,
                                bool overwrite = false);
  /// The matrix descriptor of the operand tile `p` at `stageOff` for the
  /// wgmma that reads rows (columns) from `mn` and k from `k0`.
  Value descriptor(const OperandPlan &p, Value stageOff, Value mn, Value k0);
  /// The multistage main loop of both families: cp.async copies `stages -
  /// 1` (mma) or `stages - 2` (wgmma, one tile's wgmmas in flight) tiles
  /// ahead of the one multiplied. Returns the accumulators in accIndex
  /// order.
  SmallVector<Value> mainLoop(Value nTiles, Value nFull, int stageElems);
  /// The wgmma family's main loop on TMA (tensor maps tmA and tmB): one
  /// thread issues each stage's bulk tensor copies, which complete the
  /// stage's "full" mbarrier; every warp arrives on its "empty" mbarrier
  /// once the wgmmas that read it are done, and the issuing thread waits
  /// for that before refilling it. Returns the accumulators as mainLoop.
  SmallVector<Value> tmaMainLoop(Value nTiles, int stageElems);
  /// Thread 0's initialization of the stage barriers (full: one arrival,
  /// the copies' thread's; empty: one per computing warp of each block of
  /// the cluster), and the tensor maps' prefetch.
  void initStageBarriers();
  /// Warp specialization (ws = 1): the TMA loop split between the
  /// producer warpgroup's thread, which fills each stage once the
  /// computing warps have released it (producerLoop), and the computing
  /// warpgroups, which wait for each stage, multiply and release it
  /// (multiplyStages without a refill).
  /// `state` and the result: the stage, its phase parity and how many
  /// tiles the thread issued before (persistent blocks carry them from
  /// one output tile to the next; zeros otherwise).
  SmallVector<Value> producerLoop(Value nTiles, int stageElems,
                                  ValueRange state = {});
  /// pt = 1: the block's output tiles, tile i = blockIdx.x, blockIdx.x +
  /// gridDim.x, ... of ceil(M/ml) * ceil(N/nl), M fastest (the order of
  /// the grid of a plain launch). Each iteration binds its tile (setTile)
  /// and runs `body` on the carried values, which it returns updated.
  /// `first`, `step`: tiles first, first + step, ... of the block's
  /// sequence (ping-pong: a warpgroup's alternate ones). `body` gets the
  /// tile's index i too.
  SmallVector<Value> forEachTile(
      ValueRange init,
      function_ref<SmallVector<Value>(Value i, Value nFull, ValueRange)> body,
      Value first = Value(), int step = 1);
  /// Ping-pong (pt = 2), the computing warpgroups' part: on TMA,
  /// warpgroup w computes the block's tiles w, w + 2, ..., each from ring
  /// position j * nTiles (tile j's first K tile) on, and waits for the
  /// other to finish its wgmmas of tile j - 1 before starting (named
  /// barriers 2 + w): its epilogue overlaps the other's wgmmas. On the
  /// cp.async loop warpgroup 0 computes every tile.
  void buildPingPong(Value useTma, Value nTiles, int stageElems,
                     function_ref<void(SmallVector<Value>)> finish);
  /// Ping-pong: the block's warpgroup of the thread (0 or 1).
  Value pingPongGroup;
  /// The block's output tile (bx, by) along M and N, of K length `kLen`:
  /// sets m0, n0, full and the copy plans; returns nFull (the K tiles that
  /// need no source sizes).
  Value setTile(Value bx, Value by, Value kLen);
  /// The kernel's body from its main loop on, warp-specialized: the
  /// stage barriers (TMA), then the producer's copies and the computing
  /// warpgroups' main loop (TMA or cp.async, as useTma says) and `finish`.
  /// Where the computing threads need more registers than the kernel's
  /// bound, the producer gives its own to them first (setmaxnreg,
  /// wgmmaRegisterSplit).
  /// The wgmma main loop the launch chose (the useTma argument): `tmaLoop`
  /// where the runtime passed tensor maps, the cp.async loop otherwise;
  /// the accumulators as mainLoop returns them.
  /// With `state` (persistent blocks), `tmaLoop` returns it updated
  /// after the accumulators, and so does the result.
  SmallVector<Value> chooseMainLoop(Value useTma, Value nTiles, Value nFull,
                                    int stageElems,
                                    function_ref<SmallVector<Value>()> tmaLoop,
                                    ValueRange state = {});
  void buildWarpSpecialized(Value useTma, Value nTiles, Value nFull,
                            int stageElems,
                            function_ref<void(SmallVector<Value>)> finish);
  /// The TMA loop of the computing warps (both main loops on TMA): per K
  /// tile, wait for its stage's full barrier, multiply, wait for tile
  /// t - 1's wgmmas and release that stage; then `refill(t, stage, phase,
  /// previous stage, its phase)`, where tmaMainLoop's thread 0 refills a
  /// stage (a warp-specialized block has none: its producer refills). Ends
  /// with no wgmma in flight and the stages free (stagesBarrier); returns
  /// the accumulators as mainLoop.
  ///
  /// With `state` (persistent blocks, pt = 1: the stage and phase parity
  /// of the first K tile, carried from the block's previous output tile),
  /// it ends instead by releasing the last stage once its wgmmas are done,
  /// so that the producer fills the next tile's stages during this one's
  /// epilogue, and returns that state after the accumulators.
  SmallVector<Value> multiplyStages(
      Value nTiles, int stageElems,
      function_ref<void(Value, Value, Value, Value, Value)> refill = nullptr,
      ValueRange state = {});
  /// The stage and phase parity of the tile after the one in `stage`.
  std::pair<Value, Value> nextStage(Value stage, Value phase);
  /// The stage and phase parity of the tile before the one in `stage`.
  std::pair<Value, Value> previousStage(Value stage, Value phase);
  /// The output tiles of a batch: ceil(M / ml) along M (the first result)
  /// times ceil(N / nl).
  std::pair<Value, Value> tileCount();
  /// Thread 0's copies of K tile `t` into stage `stage`: the stage's
  /// expected bytes on its full barrier, then one bulk tensor copy per
  /// column block of each operand's tile (a box of the tensor map).
  void issueTmaTile(Value t, Value stage, int stageElems);
  /// A convolution's A tile of reduction index k by im2col TMA (tmA is the
  /// input's im2col map), completing the stage's barrier `full`.
  void copyConvInput(Value k, Value stageByte, Value full);
  /// The bulk tensor copies of operand tile `p` into the stage at
  /// `stageByte`: one box of `map` per column block, at `coords(first
  /// element of the block along the contiguous dimension, first row)`;
  /// im2col mode with `im2colOffsets`, tile mode without. Where the map's
  /// box is a share of the tile's rows (B in a cluster: wgmmaBoxRows) the
  /// block copies its share, rows [rank, rank + 1) * box rows, and
  /// multicasts it to every block of its cluster.
  void copyBoxes(const OperandPlan &p, bool isB, Value map, Value stageByte,
                 Value full, ValueRange im2colOffsets,
                 function_ref<SmallVector<Value>(int, Value)> coords);
  /// This lane's arrival, for its warp, on the empty barrier `index`: of
  /// block `lane` of the cluster (cm > 1, called by lanes 0 .. cm-1: every
  /// block's copies multicast into this block's stage), else of this block.
  void releaseStage(Value index);
  /// A barrier of every block whose copies and arrivals reach this block's
  /// stages: the cluster's (all threads of its cm blocks), else the
  /// block's.
  void stagesBarrier();
  /// barrier.cluster.arrive (release) and wait (acquire): every thread of
  /// the cluster's blocks meets, as at the block barrier one block's do.
  void clusterBarrier();
  /// The mbarrier `index` (full: 0 .. stages-1; empty: stages ..
  /// 2*stages-1) of the stage barriers.
  Value stageBarrier(Value index);
  /// Zero accumulators of the wgmma family: one struct of WN/2 f32 per
  /// 64-row tile (the operand of nvvm.wgmma.mma_async).
  SmallVector<Value> initWgmmaAccumulators();
  /// Those structs' elements in accIndex order.
  SmallVector<Value> flattenWgmmaAccumulators(ValueRange tiles);
  /// One k-step of f64 (m16n8k8; m8n8k4 on sm_80): one f64 of A per 8 rows
  /// and of B per 8 columns, 4 of K and lane, from 64-bit shared loads.
  void computeStepF64(Value stageOff, Value kOff, MutableArrayRef<Value> acc);
  SmallVector<Value> mma(Value a, Value bFrag, int bHalf, ArrayRef<Value> acc);

  /// Accumulators per instruction tile and lane: 4 (m16n8), 2 (m8n8).
  int accPerTile() const { return instr.m * instr.n / 32; }
  // Epilogue: the thread's accumulators form a rows x cols tile with
  // rows = WM/8 (row r: instruction tile r/(m/8), half r%(m/8)) and
  // cols = WN/4 (column j: n8 tile j/2, element j%2 of the pair); row r
  // is row 8r + g of the warp tile in both shapes.
  int tileRows() const { return wgmma ? c.wm / 32 : c.wm / 8; }
  int tileCols() const { return c.wn / 4; }
  int accIndex(int i, int j) const {
    int halves = instr.m / 8;
    return ((i / halves) * (c.wn / 8) + j / 2) * accPerTile() +
           (i % halves) * 2 + j % 2;
  }
  /// Rows of C of one instruction tile: wgmma's m64 or mma's m16 (two
  /// 8-row halves, the thread's rows g and g + 8 of each).
  int rowsPerTile() const { return wgmma ? 64 : 16; }
  // wgmma: row r of the thread's tile is row 8r + g of the warp's 16 rows
  // of each 64-row tile, the same fragment as mma.sync's m16n8 tiles.
  Value rowOf(int i) {
    return e.add(e.add(m0, rowBase),
                 e.add(e.ci32((i / 2) * rowsPerTile() + (i % 2) * 8), g));
  }
  Value colOf(int j) {
    return e.add(e.add(n0, wnBase),
                 e.add(e.ci32((j / 2) * 8 + j % 2), e.mul(q, e.ci32(2))));
  }
  Value cPtr(Value row, Value col) {
    return e.gep(cBase, e.add(e.mul(e.ext64(row), e.ext64(ldc)), e.ext64(col)),
                 outTy);
  }
  void forEachElement(function_ref<void(int, int, Value, Value, Value)> fn);
  void storeOutput(function_ref<Value(int, int, Value)> x, Value beta);
  /// The shared-memory geometry of storeStaged; region = 0: the kernel
  /// stores directly.
  struct Staging {
    int first = 0;     ///< byte of warp 0's region
    int region = 0;    ///< bytes of one warp's region: 16 rows of `pitch`
    int chunkCols = 0; ///< columns staged per round (up to 128 bytes)
    int pitch = 0;     ///< bytes per staged row: the chunk and 16 of padding
  };
  Staging stagingLayout() const;
  /// Stores a tile through shared memory: each warp writes its values of
  /// 16 rows x `chunk` columns into its region, then reads them back as
  /// 16-byte row pieces and stores those (whole 32-byte sectors per warp
  /// instead of 4-byte pairs in eight rows). `partial`: a tile that may
  /// reach past M or N, whose N is a multiple of a piece; the pieces past
  /// M or N are skipped.
  void storeStaged(function_ref<Value(int, int)> out, bool partial = false);
  void emitEpilogue(ArrayRef<Value> acc, Value gSlice, Value batch, Value W,
                    Value S, Value alpha, Value beta);
  /// kc: the KG slices of the tile are the blocks of this cluster (rank =
  /// slice). Group 0 of each parks its sums in shared memory (after the KL
  /// partials); after a cluster barrier, warp w of group 0 of block
  /// w % KG reads warp w's sums of every block (ld.shared::cluster) and
  /// adds them in slice order, so the result does not depend on which
  /// block adds. Replaces `acc` by those sums in the adding warps (zeros
  /// in the others) and returns whether this thread's warp is one; each
  /// thread has arrived on the cluster barrier that the kernel's end waits
  /// for (no block may exit while another reads its shared memory).
  Value sumClusterSlices(SmallVectorImpl<Value> &acc, Value isGroup0,
                         Value rank);
  void emitSplitKFixup(Value batch, Value isGroup0, Value T, Value S,
                       Value beta);
  Value partialSumPtr(Value tBase, Value batch, Value row, Value col);
};

Value MmaBuilder::swizzle(const OperandPlan &p, Value r, Value col) {
  int perChunk = 16 / p.esz;
  if (p.wg) {
    // WgmmaOperandLayout::offset: column blocks of one swizzle atom, row r
    // at r * atomBytes inside its block, chunks XOR-ed by the row's group.
    const ::isaac::WgmmaOperandLayout &l = *p.wg;
    int perAtom = l.atomBytes / l.esz;
    Value block = e.divu(col, e.ci32(perAtom));
    Value within = e.remu(col, e.ci32(perAtom));
    Value chunk = e.divu(within, e.ci32(perChunk));
    Value s =
        e.remu(e.divu(r, e.ci32(128 / l.atomBytes)), e.ci32(l.atomBytes / 16));
    Value phys = arith::XOrIOp::create(e.b, e.loc, chunk, s);
    return e.add(
        e.add(e.mul(block, e.ci32(l.blockBytes / l.esz)),
              e.mul(r, e.ci32(perAtom))),
        e.add(e.mul(phys, e.ci32(perChunk)), e.remu(within, e.ci32(perChunk))));
  }
  Value chunk = e.divu(col, e.ci32(perChunk));
  Value within = e.remu(col, e.ci32(perChunk));
  Value s = e.remu(e.divu(r, e.ci32(p.swz.rowsPerGroup)), e.ci32(p.swz.groups));
  if (p.swz.shift)
    s = arith::ShLIOp::create(e.b, e.loc, s, e.ci32(p.swz.shift));
  Value phys = arith::XOrIOp::create(e.b, e.loc, chunk, s);
  return e.add(e.mul(r, e.ci32(p.cols)),
               e.add(e.mul(phys, e.ci32(perChunk)), within));
}

SmallVector<MmaBuilder::Copy> MmaBuilder::planCopies(const OperandPlan &p,
                                                     Value rowBase) {
  SmallVector<Copy> out;
  for (int rd = 0; rd < p.rounds; ++rd) {
    Copy cp;
    Value i = e.add(tid, e.ci32(rd * threads));
    // Threads past the last copy of the final round copy nothing; their
    // coordinates are those of a copy of round 0, never used.
    if ((rd + 1) * threads > p.units) {
      cp.active = e.slt(i, e.ci32(p.units));
      i = e.remu(i, e.ci32(p.units));
    }
    cp.r = e.divu(i, e.ci32(p.unitsPerRow));
    cp.ce = e.mul(e.remu(i, e.ci32(p.unitsPerRow)), e.ci32(p.vec));
    cp.smemOff = e.add(e.ci32(p.tileOffset), swizzle(p, cp.r, cp.ce));
    if (p.contigIsK) {
      cp.mn = e.add(rowBase, cp.r);
      cp.kOff = cp.ce;
    } else {
      cp.mn = e.add(rowBase, cp.ce);
      cp.kOff = cp.r;
    }
    out.push_back(cp);
  }
  return out;
}

void MmaBuilder::emitCopies(const OperandPlan &p, ArrayRef<Copy> copies,
                            Value xBase, Value ld, Value limit, Value kBase,
                            Value stageOff, bool exact) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int bytes = p.vec * p.esz;
  for (const Copy &cp : copies) {
    ifThen(b, loc, cp.active, [&] {
      Value k = e.add(kBase, cp.kOff);
      // The copy's address as a loop-invariant part (its row and column in
      // the tile) plus the tile's (kBase's) part, and its shared-memory
      // address as its slot plus the stage's offset: nested so that LLVM
      // hoists the invariant halves out of the main loop and each copy
      // costs one 64-bit add per tile (no i32 -> i64 widening of a sum).
      Value inv =
          p.contigIsK
              ? e.add(e.mul(e.ext64(cp.mn), e.ext64(ld)), e.ext64(cp.kOff))
              : e.add(e.mul(e.ext64(cp.kOff), e.ext64(ld)), e.ext64(cp.mn));
      Value tileOff =
          p.contigIsK ? e.ext64(kBase) : e.mul(e.ext64(kBase), e.ext64(ld));
      Value src = e.gep(e.gep(xBase, inv, abTy), tileOff, abTy);
      Value dst = e.gep(e.gep(smemPtr, cp.smemOff, abTy), stageOff, abTy);
      Value srcSize;
      if (exact) {
        // Elements of the copy inside the operand: the rest is zero-filled.
        auto clamp = [&](Value n) {
          return arith::MaxSIOp::create(b, loc, e.ci32(0),
                                        e.minsi(n, e.ci32(p.vec)));
        };
        Value n;
        if (p.contigIsK)
          n = arith::SelectOp::create(b, loc, e.slt(cp.mn, limit),
                                      clamp(e.sub(kEnd, k)), e.ci32(0));
        else
          n = arith::SelectOp::create(b, loc, e.slt(k, kEnd),
                                      clamp(e.sub(limit, cp.mn)), e.ci32(0));
        // A copy reading nothing points at the operand's base: its own
        // address may lie outside the allocation.
        Value none = e.eq(n, e.ci32(0));
        src = arith::SelectOp::create(b, loc, none, xBase, src);
        srcSize = e.mul(n, e.ci32(p.esz));
      }
      e.cpAsync(dst, src, bytes, srcSize);
    });
  }
}

void MmaBuilder::emitScalarCopies(const OperandPlan &p, ArrayRef<Copy> copies,
                                  Value xBase, Value ld, Value limit,
                                  Value kBase, Value stageOff) {
  OpBuilder &b = e.b;
  for (const Copy &cp : copies) {
    ifThen(b, e.loc, cp.active, [&] {
      Value k = e.add(kBase, cp.kOff);
      SmallVector<Value> vals;
      for (int j = 0; j < p.vec; ++j) {
        Value mnJ = p.contigIsK ? cp.mn : e.add(cp.mn, e.ci32(j));
        Value kJ = p.contigIsK ? e.add(k, e.ci32(j)) : k;
        Value ok = e.land(e.slt(mnJ, limit), e.slt(kJ, kEnd));
        Value off = e.add(e.mul(e.ext64(p.contigIsK ? mnJ : kJ), e.ext64(ld)),
                          e.ext64(p.contigIsK ? kJ : mnJ));
        vals.push_back(e.predicatedLoad(e.gep(xBase, off, abTy), ok, abTy));
      }
      Value dst = e.gep(smemPtr, e.add(stageOff, cp.smemOff), abTy);
      e.storeVector(dst, vals, abTy);
    });
  }
}

void MmaBuilder::issueOperand(const OperandPlan &p, ArrayRef<Copy> copies,
                              Value xBase, Value ld, Value limit, Value aligned,
                              Value kBase, Value fastTile, Value stageOff) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto alignedIf = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(alignedIf.thenBlock());
    auto fastIf = scf::IfOp::create(b, loc, fastTile, /*withElse=*/true);
    b.setInsertionPointToStart(fastIf.thenBlock());
    emitCopies(p, copies, xBase, ld, limit, kBase, stageOff, /*exact=*/false);
    b.setInsertionPointToStart(fastIf.elseBlock());
    emitCopies(p, copies, xBase, ld, limit, kBase, stageOff, /*exact=*/true);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(alignedIf.elseBlock());
  emitScalarCopies(p, copies, xBase, ld, limit, kBase, stageOff);
}

void MmaBuilder::issueConvInput(Value kBase, Value stageOff) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const OperandPlan &p = planA;
  Value input = aBase;
  // A copy's column in the tile (its k offset) is round 0's where
  // rd * threads is a multiple of unitsPerRow (units is one too, so the
  // wrap of the last round keeps it): the rounds of one column share its
  // k and the taps derived from it, computed here, before the copies'
  // conditional blocks.
  auto column = [&](int rd) { return (rd * threads) % p.unitsPerRow; };
  std::map<int, Value> kOf;
  for (auto [rd, cp] : llvm::enumerate(copiesA))
    if (!kOf.count(column(rd)))
      kOf[column(rd)] = e.add(kBase, cp.kOff);
  auto alignedIf = scf::IfOp::create(b, loc, alignedA, /*withElse=*/true);
  {
    // A chunk is vec channels of one tap (C % vec == 0), inside the input
    // or entirely in the halo; k < kEnd covers the whole chunk (K = C*R*S
    // and the slice ends are multiples of vec).
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(alignedIf.thenBlock());
    int bytes = p.vec * p.esz;
    std::map<int, std::pair<ConvInputTaps::Tap, Value>> tapOf;
    for (auto &[col, k] : kOf)
      tapOf[col] = {taps->decompose(k), e.slt(k, kEnd)};
    for (auto [rd, cp] : llvm::enumerate(copiesA)) {
      auto &[tap, kOk] = tapOf[column(rd)];
      ifThen(b, loc, cp.active, [&] {
        auto [off, inside] = taps->at(rd, tap);
        Value ok = e.land(e.land(e.slt(cp.mn, M), kOk), inside);
        // A copy reading nothing points at the input's base: its own
        // address may lie outside the allocation.
        Value src =
            arith::SelectOp::create(b, loc, ok, e.gep(input, off, abTy), input);
        Value srcSize =
            arith::SelectOp::create(b, loc, ok, e.ci32(bytes), e.ci32(0));
        Value dst = e.gep(e.gep(smemPtr, cp.smemOff, abTy), stageOff, abTy);
        e.cpAsync(dst, src, bytes, srcSize);
      });
    }
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(alignedIf.elseBlock());
  // Each element its own tap: C need not be a multiple of vec here.
  std::map<std::pair<int, int>, std::pair<ConvInputTaps::Tap, Value>> tapOf;
  for (auto &[col, k] : kOf)
    for (int j = 0; j < p.vec; ++j) {
      Value kJ = j == 0 ? k : e.add(k, e.ci32(j));
      tapOf[{col, j}] = {taps->decompose(kJ), e.slt(kJ, kEnd)};
    }
  for (auto [rd, cp] : llvm::enumerate(copiesA)) {
    ifThen(b, loc, cp.active, [&] {
      Value rowOk = e.slt(cp.mn, M);
      SmallVector<Value> vals;
      for (int j = 0; j < p.vec; ++j) {
        auto &[tap, kOk] = tapOf[{column(rd), j}];
        auto [off, inside] = taps->at(rd, tap);
        Value ok = e.land(e.land(rowOk, kOk), inside);
        vals.push_back(e.predicatedLoad(e.gep(input, off, abTy), ok, abTy));
      }
      Value dst = e.gep(smemPtr, e.add(stageOff, cp.smemOff), abTy);
      e.storeVector(dst, vals, abTy);
    });
  }
}

void MmaBuilder::issueTile(Value t, Value stageOff, Value nFull) {
  Value kBase = e.add(kStart, e.mul(t, e.ci32(c.u)));
  Value fastTile = e.slt(t, nFull);
  if (taps)
    issueConvInput(kBase, stageOff);
  else
    issueOperand(planA, copiesA, aBase, lda, M, alignedA, kBase, fastTile,
                 stageOff);
  issueOperand(planB, copiesB, bBase, ldb, N, alignedB, kBase, fastTile,
               stageOff);
}

Value MmaBuilder::ldmatrix(Value offset, Value stageOff, int numTiles,
                           bool trans) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // The address as the lane's loop-invariant slot plus the stage: LLVM
  // hoists the first out of the main loop, and each ldmatrix costs one add
  // per stage (nvgpu.ldmatrix's memref index would widen the sum of both,
  // three instructions per ldmatrix in the loop).
  Value ptr = e.gep(e.gep(smemPtr, offset, abTy), stageOff, abTy);
  Type resTy = e.i32;
  if (numTiles > 1)
    resTy = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(numTiles, e.i32));
  Value res = NVVM::LdMatrixOp::create(
      b, loc, resTy, ptr, numTiles,
      trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  // One 32-bit register per matrix: two 16-bit elements or one TF32.
  auto rowTy = VectorType::get({4 / esz}, abTy);
  auto type = VectorType::get({numTiles, 4 / esz}, abTy);
  Value v = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (int i = 0; i < numTiles; ++i) {
    Value r = numTiles > 1 ? LLVM::ExtractValueOp::create(b, loc, res, i) : res;
    v = vector::InsertOp::create(
        b, loc, LLVM::BitcastOp::create(b, loc, rowTy, r).getResult(), v,
        ArrayRef<int64_t>{i});
  }
  return v;
}

Value MmaBuilder::loadFragment(ArrayRef<Value> offsets) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto type = VectorType::get({static_cast<int64_t>(offsets.size()), 1}, abTy);
  Value v = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (auto [r, off] : llvm::enumerate(offsets)) {
    Value x =
        LLVM::LoadOp::create(b, loc, abTy, e.gep(smemPtr, off, abTy), esz);
    v = vector::InsertOp::create(b, loc, x, v,
                                 ArrayRef<int64_t>{int64_t(r), 0});
  }
  return v;
}

Value MmaBuilder::roundToTF32(Value frag) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t rows = cast<VectorType>(frag.getType()).getDimSize(0);
  for (int64_t r = 0; r < rows; ++r) {
    Value x = vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{r, 0});
    Value t = NVVM::ConvertFloatToTF32Op::create(
        b, loc, e.i32, x,
        NVVM::FPRoundingModeAttr::get(b.getContext(),
                                      NVVM::FPRoundingMode::RNA),
        NVVM::SaturationModeAttr::get(b.getContext(),
                                      NVVM::SaturationMode::NONE),
        b.getBoolAttr(false));
    frag = vector::InsertOp::create(
        b, loc, LLVM::BitcastOp::create(b, loc, abTy, t).getResult(), frag,
        ArrayRef<int64_t>{r, 0});
  }
  return frag;
}

/// acc (4 f32) += a (vector<4xR>) * b, where b is rows 2*bHalf and
/// 2*bHalf + 1 of bFrag (vector<2xR> or vector<4xR>; R = 2 16-bit elements
/// or 1 TF32 per register).
SmallVector<Value> MmaBuilder::mma(Value a, Value bFrag, int bHalf,
                                   ArrayRef<Value> acc) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto row = [&](Value v, int r) {
    return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r});
  };
  SmallVector<Value> out;
  if (spec.dtype != DType::BF16) {
    auto bTy = VectorType::get({2, 4 / esz}, abTy);
    auto cTy = VectorType::get({2, 2}, e.elemTy);
    Value bv = arith::ConstantOp::create(b, loc, b.getZeroAttr(bTy));
    for (int r = 0; r < 2; ++r)
      bv = vector::InsertOp::create(b, loc, row(bFrag, 2 * bHalf + r), bv,
                                    ArrayRef<int64_t>{r});
    Value cv = arith::ConstantOp::create(b, loc, b.getZeroAttr(cTy));
    for (int x = 0; x < 4; ++x)
      cv = vector::InsertOp::create(b, loc, acc[x], cv,
                                    ArrayRef<int64_t>{x / 2, x % 2});
    Value d = nvgpu::MmaSyncOp::create(
        b, loc, a, bv, cv, ArrayRef<int64_t>{16, 8, kStep},
        /*tf32Enabled=*/spec.dtype == DType::F32);
    for (int x = 0; x < 4; ++x)
      out.push_back(vector::ExtractOp::create(b, loc, d,
                                              ArrayRef<int64_t>{x / 2, x % 2}));
    return out;
  }
  // bf16: nvvm.mma.sync takes each pair of elements as an i32.
  auto asI32 = [&](Value v, int r) -> Value {
    return LLVM::BitcastOp::create(b, loc, e.i32, row(v, r));
  };
  SmallVector<Value> aRegs, bRegs;
  for (int r = 0; r < 4; ++r)
    aRegs.push_back(asI32(a, r));
  for (int r = 0; r < 2; ++r)
    bRegs.push_back(asI32(bFrag, 2 * bHalf + r));
  Type resTy = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                SmallVector<Type>(4, e.elemTy));
  Value d = NVVM::MmaOp::create(
      b, loc, resTy, aRegs, bRegs, acc, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int x = 0; x < 4; ++x)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, d, x));
  return out;
}

void MmaBuilder::computeStepF64(Value stageOff, Value kOff,
                                MutableArrayRef<Value> acc) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // Lane (g, q) holds A(m g, k q) of each 8 rows and 4 of K, and B(k q,
  // n g) of each 8 columns and 4 of K: one LDS.64 each, the same loads for
  // both shapes (m8n8k4; m16n8k8: its fragments are those of two m8 rows
  // and two k4 steps, a0..a3 = (g, q), (g+8, q), (g, q+4), (g+8, q+4),
  // b0, b1 = (q, g), (q+4, g); PTX ISA, "Matrix Fragments for mma.m16n8k8"
  // .f64). Where the tile is stored (m or n, k) or (k, m or n), a
  // half-warp reads four rows at one aligned 32-byte pair of chunks, which
  // the f64 swizzle spreads over all 32 banks. As for ldmatrix, the
  // address is the lane's loop-invariant slot plus the stage's offset (one
  // add per load in the main loop).
  auto load = [&](const OperandPlan &p, Value mn, Value k) -> Value {
    Value slot = e.add(e.ci32(p.tileOffset),
                       p.contigIsK ? swizzle(p, mn, k) : swizzle(p, k, mn));
    Value ptr = e.gep(e.gep(smemPtr, slot, abTy), stageOff, abTy);
    return LLVM::LoadOp::create(b, loc, abTy, ptr, esz);
  };
  int halves = instr.m / 8, quarters = kStep / ::isaac::kF64SliceK;
  int tilesM = c.wm / instr.m, tilesN = c.wn / 8;
  SmallVector<Value> k;
  for (int kq = 0; kq < quarters; ++kq)
    k.push_back(e.add(kOff, e.add(e.ci32(::isaac::kF64SliceK * kq), q)));
  // aFrag[i]: a0.. of m tile i in the instruction's order (kq, then half).
  SmallVector<SmallVector<Value>> aFrag(tilesM), bFrag(tilesN);
  for (int i = 0; i < tilesM; ++i)
    for (int kq = 0; kq < quarters; ++kq)
      for (int h = 0; h < halves; ++h)
        aFrag[i].push_back(
            load(planA, e.add(wmBase, e.add(e.ci32(instr.m * i + 8 * h), g)),
                 k[kq]));
  for (int j = 0; j < tilesN; ++j)
    for (int kq = 0; kq < quarters; ++kq)
      bFrag[j].push_back(
          load(planB, e.add(wnBase, e.add(e.ci32(8 * j), g)), k[kq]));
  int nAcc = accPerTile();
  Type resTy = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(nAcc, e.elemTy));
  for (int i = 0; i < tilesM; ++i)
    for (int j = 0; j < tilesN; ++j) {
      MutableArrayRef<Value> tile(&acc[(i * tilesN + j) * nAcc], nAcc);
      Value d;
      if (instr.m == 8) {
        d = NVVM::MmaOp::create(
            b, loc, resTy, aFrag[i], bFrag[j], tile, ArrayRef<int64_t>{8, 8, 4},
            std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::f64,
                                          NVVM::MMATypes::f64},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
      } else {
        // nvvm.mma.sync (LLVM 22) knows no m16 f64 shape; the NVPTX
        // intrinsic does.
        SmallVector<Value> args(aFrag[i]);
        args.append(bFrag[j]);
        args.append(tile.begin(), tile.end());
        d = LLVM::CallIntrinsicOp::create(
                b, loc, resTy,
                b.getStringAttr("llvm.nvvm.mma.m16n8k" + std::to_string(kStep) +
                                ".row.col.f64"),
                args)
                .getResult(0);
      }
      for (int x = 0; x < nAcc; ++x)
        tile[x] = LLVM::ExtractValueOp::create(b, loc, d, x);
    }
}

SmallVector<Value> MmaBuilder::computeStage(Value stageOff, ValueRange accIn) {
  SmallVector<Value> acc(accIn.begin(), accIn.end());
  if (spec.dtype == DType::F64) {
    Value groupK = e.mul(klId, e.ci32(c.u / c.kl));
    for (int kk = 0; kk < c.u / kStep / c.kl; ++kk)
      computeStepF64(stageOff, e.add(groupK, e.ci32(kk * kStep)), acc);
    return acc;
  }
  int tilesM = c.wm / 16, tilesN = c.wn / 8;
  int steps = c.u / kStep / c.kl;
  bool tf32 = spec.dtype == DType::F32;
  // Elements in 16 bytes: a row of one ldmatrix matrix (8 16-bit elements
  // or 4 TF32), half an instruction's K.
  int h = 16 / esz;
  // Lane roles in ldmatrix: lanes 8j..8j+7 give the rows of matrix j.
  Value l8 = e.remu(lane, e.ci32(8));
  Value l16 = e.remu(lane, e.ci32(16));
  Value hi16 = e.divu(lane, e.ci32(16)); // lanes 16..31
  Value odd8 =
      e.remu(e.divu(lane, e.ci32(8)), e.ci32(2)); // lanes 8..15, 24..31
  Value groupK = e.mul(klId, e.ci32(c.u / c.kl));
  Value baseA = e.add(stageOff, e.ci32(planA.tileOffset));
  Value baseB = e.add(stageOff, e.ci32(planB.tileOffset));
  Value tileA = e.ci32(planA.tileOffset), tileB = e.ci32(planB.tileOffset);
  for (int kk = 0; kk < steps; ++kk) {
    Value kOff = e.add(groupK, e.ci32(kk * kStep));
    // A: one x4 per m16 tile: matrices (m 0-7, k 0..h-1), (m 8-15, k 0..h-1),
    // (m 0-7, k h..2h-1), (m 8-15, k h..2h-1) = fragment registers a0..a3.
    SmallVector<Value> aFrag;
    for (int i = 0; i < tilesM; ++i) {
      Value m = e.add(wmBase, e.ci32(16 * i));
      if (planA.contigIsK) { // rows m, columns k
        Value r = e.add(m, l16);
        Value col = e.add(kOff, e.mul(hi16, e.ci32(h)));
        aFrag.push_back(ldmatrix(e.add(tileA, swizzle(planA, r, col)), stageOff,
                                 4, /*trans=*/false));
      } else if (!tf32) { // rows k, columns m: transposed on the way
        Value r = e.add(kOff, e.add(l8, e.mul(hi16, e.ci32(8))));
        Value col = e.add(m, e.mul(odd8, e.ci32(8)));
        aFrag.push_back(ldmatrix(e.add(tileA, swizzle(planA, r, col)), stageOff,
                                 4, /*trans=*/true));
      } else {
        // TF32 stored K x M: no 32-bit ldmatrix.trans; a0..a3 are
        // (m g, k q), (g+8, q), (g, q+4), (g+8, q+4).
        SmallVector<Value> offs;
        for (int j = 0; j < 4; ++j)
          offs.push_back(e.add(
              baseA, swizzle(planA, e.add(kOff, e.add(q, e.ci32(4 * (j / 2)))),
                             e.add(m, e.add(g, e.ci32(8 * (j % 2)))))));
        aFrag.push_back(loadFragment(offs));
      }
      if (tf32)
        aFrag.back() = roundToTF32(aFrag.back());
    }
    // B: one x4 per pair of n8 tiles: matrices (k 0..h-1, n 0-7),
    // (k h..2h-1, n 0-7), (k 0..h-1, n 8-15), (k h..2h-1, n 8-15) = b0, b1
    // of the first tile, then of the second; an x2 for a last unpaired
    // tile.
    SmallVector<Value> bFrag;
    for (int p = 0; p < (tilesN + 1) / 2; ++p) {
      int numTiles = 2 * p + 1 < tilesN ? 4 : 2;
      Value n = e.add(wnBase, e.ci32(16 * p));
      if (planB.contigIsK) { // rows n, columns k
        Value r = e.add(n, e.add(l8, e.mul(hi16, e.ci32(8))));
        Value col = e.add(kOff, e.mul(odd8, e.ci32(h)));
        bFrag.push_back(ldmatrix(e.add(tileB, swizzle(planB, r, col)), stageOff,
                                 numTiles, /*trans=*/false));
      } else if (!tf32) { // rows k, columns n: transposed on the way
        Value r = e.add(kOff, e.add(l8, e.mul(odd8, e.ci32(8))));
        Value col = e.add(n, e.mul(hi16, e.ci32(8)));
        bFrag.push_back(ldmatrix(e.add(tileB, swizzle(planB, r, col)), stageOff,
                                 numTiles, /*trans=*/true));
      } else {
        // TF32 stored K x N: b0, b1 of each n8 tile are (k q, n g) and
        // (k q+4, n g).
        SmallVector<Value> offs;
        for (int j = 0; j < numTiles; ++j)
          offs.push_back(e.add(
              baseB, swizzle(planB, e.add(kOff, e.add(q, e.ci32(4 * (j % 2)))),
                             e.add(n, e.add(g, e.ci32(8 * (j / 2)))))));
        bFrag.push_back(loadFragment(offs));
      }
      if (tf32)
        bFrag.back() = roundToTF32(bFrag.back());
    }
    for (int i = 0; i < tilesM; ++i)
      for (int j = 0; j < tilesN; ++j) {
        MutableArrayRef<Value> tile(&acc[(i * tilesN + j) * 4], 4);
        SmallVector<Value> d = mma(aFrag[i], bFrag[j / 2], j % 2, tile);
        std::copy(d.begin(), d.end(), tile.begin());
      }
  }
  return acc;
}

Value MmaBuilder::descriptor(const OperandPlan &p, Value stageOff, Value mn,
                             Value k0) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const ::isaac::WgmmaOperandLayout &l = *p.wg;
  int perAtom = l.atomBytes / l.esz;
  // Byte offset of the wgmma's first element in the tile: a K-major tile
  // starts at row mn of the column block holding k0 (k-steps inside a
  // 128-byte swizzled row advance the start address, as CUTLASS's
  // descriptor iterator does); an M or N major one at k-row k0 of the
  // block holding column mn (mn is a multiple of the atom's columns).
  // Every term is a multiple of 16 bytes (k-steps of 16 elements, rows of
  // an atom, 1024-byte aligned tiles and stages), so the start address is
  // summed in 16-byte units, in 32 bits, as ((base + mn) + stage) + k-step,
  // and widened once: a constant add per descriptor when KL = 1, where
  // forming it from the byte address (add, shift, mask) took four or five
  // instructions. In 64 bits the sums would save more instructions, but
  // each descriptor's hoisted base then occupies two registers (measured:
  // one resident block less, 9% slower, on a K = 32 kernel).
  Value mn16, k16;
  if (p.contigIsK) {
    mn16 = e.mul(mn, e.ci32(l.atomBytes / 16));
    k16 = e.add(
        e.mul(e.divu(k0, e.ci32(perAtom)), e.ci32(l.blockBytes / 16)),
        e.divu(e.mul(e.remu(k0, e.ci32(perAtom)), e.ci32(l.esz)), e.ci32(16)));
  } else {
    mn16 = e.mul(e.divu(mn, e.ci32(perAtom)), e.ci32(l.blockBytes / 16));
    k16 = e.mul(k0, e.ci32(l.atomBytes / 16));
  }
  Value tile16 = e.divu(
      e.mul(e.add(stageOff, e.ci32(p.tileOffset)), e.ci32(l.esz)), e.ci32(16));
  // PTX ISA, "Matrix Descriptor Format": (start address & 0x3FFFF) >> 4 in
  // bits 0-13, leading-dimension byte offset >> 4 in 16-29,
  // stride-dimension byte offset >> 4 in 32-45, base offset 0 (every tile
  // starts on a pattern boundary), swizzle mode in 62-63. The mask is
  // needed: in a cluster launch the shared variable's address has bits
  // above 256 KiB set, which unmasked carried into the leading offset
  // (measured on an H100: wrong columns from the second 64-column atom of
  // an M- or N-major operand). Masking the base once covers the sums.
  uint64_t hi = (uint64_t(l.leadingByteOffset() >> 4) << 16) |
                (uint64_t(l.strideByteOffset() >> 4) << 32) |
                (uint64_t(l.swizzleMode()) << 62);
  Value base16 = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(
          b, loc, LLVM::PtrToIntOp::create(b, loc, e.i32, smemPtr).getResult(),
          e.ci32(4)),
      e.ci32(0x3FFF));
  Value start = e.add(e.add(e.add(base16, mn16), tile16), k16);
  return arith::OrIOp::create(b, loc,
                              arith::ExtUIOp::create(b, loc, e.i64, start),
                              e.ci64(static_cast<int64_t>(hi)));
}

SmallVector<Value> MmaBuilder::wgmmaStage(Value stageOff, ValueRange accIn,
                                          bool overwrite) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> acc(accIn.begin(), accIn.end());
  auto type = spec.dtype == DType::BF16 ? NVVM::WGMMATypes::bf16
                                        : NVVM::WGMMATypes::f16;
  // K-major A is wgmma's "row" A, K-major B its "col" B; the other
  // orientations are the transposed (M or N major) forms.
  auto layoutA = planA.contigIsK ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  auto layoutB = planB.contigIsK ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  Value groupK = e.mul(klId, e.ci32(c.u / c.kl));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int kk = 0; kk < c.u / c.kl / ::isaac::kWgmmaK; ++kk) {
    Value k0 = e.add(groupK, e.ci32(kk * ::isaac::kWgmmaK));
    Value descB = descriptor(planB, stageOff, wnBase, k0);
    for (size_t mt = 0; mt < acc.size(); ++mt) {
      Value descA = descriptor(
          planA, stageOff,
          e.add(wmBase, e.ci32(static_cast<int>(mt) * ::isaac::kWgmmaM)), k0);
      acc[mt] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, acc[mt].getType(), acc[mt], descA, descB,
          NVVM::MMAShapeAttr::get(ctx, ::isaac::kWgmmaM, c.wn,
                                  ::isaac::kWgmmaK),
          NVVM::WGMMATypesAttr::get(ctx, type),
          NVVM::WGMMATypesAttr::get(ctx, type),
          NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, overwrite && kk == 0
                                                ? NVVM::WGMMAScaleOut::zero
                                                : NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, layoutA),
          NVVM::MMALayoutAttr::get(ctx, layoutB),
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}

SmallVector<Value> MmaBuilder::mainLoop(Value nTiles, Value nFull,
                                        int stageElems) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // Tiles copied ahead of the one multiplied. mma: stages - 1, into the
  // stage tile t - 1 used, whose reads ended before this iteration's
  // barrier. wgmma: stages - 2, into the stage tile t - 2 used: the
  // wgmmas of tile t - 1 may still read theirs (one commit group in
  // flight), those of t - 2 are done in every warpgroup (each waited for
  // them before the barrier that precedes the copies).
  int ahead = wgmma ? c.stages - 2 : c.stages - 1;
  CpAsyncLoopHooks hooks;
  auto issue = [&](Value t, Value stageOff) { issueTile(t, stageOff, nFull); };
  hooks.issue = issue;
  // The accumulators carried through the loop: mma's as scalars in
  // accIndex order; wgmma's as one struct of WN/2 f32 per 64-row tile (the
  // operand of nvvm.wgmma.mma_async).
  auto init = [&]() -> SmallVector<Value> {
    if (wgmma)
      return initWgmmaAccumulators();
    return SmallVector<Value>(
        (c.wm / instr.m) * (c.wn / instr.n) * accPerTile(), e.cf(0.0));
  };
  hooks.init = init;
  auto compute = [&](Value rd, ValueRange acc) {
    return wgmma ? wgmmaStage(rd, acc) : computeStage(rd, acc);
  };
  hooks.compute = compute;
  // For wgmma the proxy fence makes the copies (generic proxy) visible to
  // wgmma's reads (async proxy) before the barrier; one group of wgmmas
  // stays in flight across iterations and none after the loop.
  auto fence = [&] {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  };
  auto waitOne = [&] { NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1); };
  auto waitAll = [&] { NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0); };
  if (wgmma) {
    hooks.afterWait = fence;
    hooks.afterCompute = waitOne;
    hooks.beforeDrain = waitAll;
  }
  SmallVector<Value> acc =
      emitCpAsyncMainLoop(e, c.stages, ahead, stageElems, nTiles, hooks);
  if (!wgmma)
    return acc;
  return flattenWgmmaAccumulators(acc);
}

SmallVector<Value> MmaBuilder::initWgmmaAccumulators() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int perTile = c.wn / 2;
  Type accTy = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(perTile, e.elemTy));
  SmallVector<Value> init;
  for (int mt = 0; mt < c.wm / ::isaac::kWgmmaM; ++mt) {
    Value z = LLVM::UndefOp::create(b, loc, accTy);
    for (int x = 0; x < perTile; ++x)
      z = LLVM::InsertValueOp::create(b, loc, z, e.cf(0.0), x);
    init.push_back(z);
  }
  return init;
}

SmallVector<Value> MmaBuilder::flattenWgmmaAccumulators(ValueRange tiles) {
  // Tile mt's element x is accIndex's mt * WN/2 + x.
  SmallVector<Value> acc;
  for (Value tile : tiles)
    for (int x = 0; x < c.wn / 2; ++x)
      acc.push_back(LLVM::ExtractValueOp::create(e.b, e.loc, tile, x));
  return acc;
}

Value MmaBuilder::stageBarrier(Value index) {
  Value offset = e.add(e.ci32(smem.barrierOffset), e.mul(index, e.ci32(8)));
  return e.gep(smemPtr, offset, e.b.getI8Type());
}

void MmaBuilder::issueTmaTile(Value t, Value stage, int stageElems) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const ::isaac::WgmmaOperandLayout &la = *planA.wg, &lb = *planB.wg;
  // TMA counts the bytes of whole boxes, zero-filled parts included.
  Value full = stageBarrier(stage);
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), full,
                                         e.ci32(la.bytes + lb.bytes),
                                         NVVM::MemScopeKind::CTA,
                                         /*relaxed=*/false, Value());
  Value k = e.add(kStart, e.mul(t, e.ci32(c.u)));
  Value stageByte = e.mul(stage, e.ci32(stageElems * esz));
  auto copyTile = [&](const OperandPlan &p, bool isB, Value map, Value mn) {
    copyBoxes(
        p, isB, map, stageByte, full, ValueRange(), [&](int first, Value row) {
          Value at = e.ci32(first);
          return p.contigIsK ? SmallVector<Value>{e.add(k, at), e.add(mn, row),
                                                  batchIdx}
                             : SmallVector<Value>{e.add(mn, at), e.add(k, row),
                                                  batchIdx};
        });
  };
  if (taps)
    copyConvInput(k, stageByte, full);
  else
    copyTile(planA, /*isB=*/false, tmA, m0);
  // The cluster's blocks share n0 (they lie along M): B's tile is theirs.
  copyTile(planB, /*isB=*/true, tmB, n0);
}

void MmaBuilder::copyBoxes(
    const OperandPlan &p, bool isB, Value map, Value stageByte, Value full,
    ValueRange im2colOffsets,
    function_ref<SmallVector<Value>(int, Value)> coords) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const ::isaac::WgmmaOperandLayout &l = *p.wg;
  int perBox = l.atomBytes / l.esz;
  // This block's rows of each column block: all, or its slice, a whole
  // number of 8-row swizzle patterns (the legality's cluster rule), so
  // that the multicast lands in every block's layout unchanged.
  int sliceRows = ::isaac::wgmmaBoxRows(l, c, isB);
  int slices = l.rows / sliceRows;
  Value row = e.ci32(0), sliceByte = e.ci32(0), mask;
  if (slices > 1) {
    row = e.mul(ctaRank, e.ci32(sliceRows));
    sliceByte = e.mul(ctaRank, e.ci32(sliceRows * l.atomBytes));
    mask = arith::ConstantOp::create(b, loc,
                                     b.getI16IntegerAttr((1 << slices) - 1));
  }
  // One box per column block of the tile, at the block's bytes.
  for (int blk = 0; blk < l.cols / perBox; ++blk) {
    Value dst = e.gep(smemPtr,
                      e.add(e.add(stageByte, sliceByte),
                            e.ci32(p.tileOffset * esz + blk * l.blockBytes)),
                      b.getI8Type());
    Value cluster = LLVM::AddrSpaceCastOp::create(
        b, loc,
        LLVM::LLVMPointerType::get(
            b.getContext(),
            static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
        dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, cluster, map, coords(blk * perBox, row), full, im2colOffsets,
        mask, Value(),
        im2colOffsets.empty() ? NVVM::TMALoadMode::TILE
                              : NVVM::TMALoadMode::IM2COL,
        /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), Value());
  }
}

void MmaBuilder::copyConvInput(Value k, Value stageByte, Value full) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // The launch passes an im2col map only where C is a multiple of U (so
  // the tile's k are U channels of one tap): one box per column block,
  // its channels from c, its ML pixels from the block's first output
  // pixel's (tap (0, 0)), traversed at the convolution's strides inside
  // the map's bounding box; the tap's dilated offsets (s*dw, r*dh) move
  // every pixel, and TMA fills the halo and the rows past M with zeros.
  ConvInputTaps::Tap tap = taps->decompose(k);
  auto i16 = [&](Value v) {
    return arith::TruncIOp::create(b, loc, b.getI16Type(), v).getResult();
  };
  SmallVector<Value> offsets{i16(tap.ds), i16(tap.dr)};
  copyBoxes(planA, /*isB=*/false, tmA, stageByte, full, offsets,
            [&](int first, Value) {
              return SmallVector<Value>{e.add(tap.ch, e.ci32(first)),
                                        tmaPixel.w, tmaPixel.h, tmaPixel.n};
            });
}

/// The time a waiting thread may sleep in mbarrier.try_wait before it
/// tests again (ns; CUTLASS's 0x989680). A hint of 0 would make the
/// waiting warps spin and take issue slots from those whose wgmmas and
/// copies run.
static constexpr int kSuspendHintNs = 0x989680;

void MmaBuilder::initStageBarriers() {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int S = c.stages;
  int warps = threads / 32;
  ifThen(b, loc, e.eq(tid, e.ci32(0)), [&] {
    // The maps' first use waits for their fetch from parameter space:
    // started here, it overlaps the barriers' initialization.
    for (Value map : {tmA, tmB})
      NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, map,
                               /*predicate=*/Value(), /*tensormap=*/true,
                               /*uniform=*/false, /*in_param_space=*/false);
    for (int st = 0; st < S; ++st) {
      NVVM::MBarrierInitOp::create(b, loc, stageBarrier(e.ci32(st)), e.ci32(1),
                                   Value());
      NVVM::MBarrierInitOp::create(b, loc, stageBarrier(e.ci32(S + st)),
                                   e.ci32(warps * c.cm), Value());
    }
    if (c.cm > 1)
      NVVM::FenceMbarrierInitOp::create(b, loc);
  });
}

SmallVector<Value> MmaBuilder::producerLoop(Value nTiles, int stageElems,
                                            ValueRange state) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int S = c.stages;
  // The n-th tile the thread issues goes into stage n % S once tile
  // n - S, which used it before, was released: the (n / S - 1)-th
  // completion of the stage's empty barrier, parity (n / S + 1) % 2 -- the
  // parity of the tile's own full-barrier wait flipped.
  SmallVector<Value> init(state);
  if (init.empty())
    init = {e.ci32(0), e.ci32(0), e.ci32(0)};
  auto loop = scf::ForOp::create(b, loc, e.ci32(0), nTiles, e.ci32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value stage = loop.getRegionIterArgs()[0];
    Value phase = loop.getRegionIterArgs()[1];
    Value issued = loop.getRegionIterArgs()[2];
    ifThen(b, loc, e.sle(e.ci32(S), issued), [&] {
      NVVM::MBarrierTryWaitParityOp::create(
          b, loc, stageBarrier(e.add(stage, e.ci32(S))),
          arith::XOrIOp::create(b, loc, phase, e.ci32(1)),
          e.ci32(kSuspendHintNs));
    });
    issueTmaTile(t, stage, stageElems);
    auto [nextStageIdx, nextPhase] = nextStage(stage, phase);
    scf::YieldOp::create(
        b, loc, ValueRange{nextStageIdx, nextPhase, e.add(issued, e.ci32(1))});
  }
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> MmaBuilder::forEachTile(
    ValueRange init,
    function_ref<SmallVector<Value>(Value i, Value nFull, ValueRange)> body,
    Value first, int step) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto [tilesM, tiles] = tileCount();
  Value grid = e.gridDim(gpu::Dimension::x);
  Value start = e.sreg(gpu::Dimension::x, /*block=*/true);
  if (first)
    start = e.add(start, e.mul(first, grid));
  auto loop =
      scf::ForOp::create(b, loc, start, tiles, e.mul(grid, e.ci32(step)), init);
  OpBuilder::InsertionGuard guard(b);
  // Without carried values the loop has its terminator already.
  if (init.empty())
    b.setInsertionPoint(loop.getBody()->getTerminator());
  else
    b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value nFull = setTile(e.remu(i, tilesM), e.divu(i, tilesM), kLen);
  SmallVector<Value> next = body(i, nFull, loop.getRegionIterArgs());
  if (!init.empty())
    scf::YieldOp::create(b, loc, next);
  return SmallVector<Value>(loop.getResults());
}

Value MmaBuilder::setTile(Value bx, Value by, Value kLen) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  m0 = e.mul(bx, e.ci32(c.ml));
  n0 = e.mul(by, e.ci32(c.nl));
  full = e.land(e.sle(e.add(m0, e.ci32(c.ml)), M),
                e.sle(e.add(n0, e.ci32(c.nl)), N));
  copiesA = planCopies(planA, m0);
  copiesB = planCopies(planB, n0);
  // Tiles t < nFull need no source sizes: the block's rows and the whole
  // K-depth U are inside the operands.
  return arith::SelectOp::create(b, loc, full, e.divu(kLen, e.ci32(c.u)),
                                 e.ci32(0));
}

std::pair<Value, Value> MmaBuilder::previousStage(Value stage, Value phase) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value wraps = e.eq(stage, e.ci32(0));
  return {arith::SelectOp::create(b, loc, wraps, e.ci32(c.stages - 1),
                                  e.sub(stage, e.ci32(1))),
          arith::SelectOp::create(
              b, loc, wraps, arith::XOrIOp::create(b, loc, phase, e.ci32(1)),
              phase)};
}

std::pair<Value, Value> MmaBuilder::tileCount() {
  Value tilesM = e.divu(e.add(M, e.ci32(c.ml - 1)), e.ci32(c.ml));
  Value tilesN = e.divu(e.add(N, e.ci32(c.nl - 1)), e.ci32(c.nl));
  return {tilesM, e.mul(tilesM, tilesN)};
}

std::pair<Value, Value> MmaBuilder::nextStage(Value stage, Value phase) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value last = e.eq(stage, e.ci32(c.stages - 1));
  return {
      arith::SelectOp::create(b, loc, last, e.ci32(0), e.add(stage, e.ci32(1))),
      arith::SelectOp::create(b, loc, last,
                              arith::XOrIOp::create(b, loc, phase, e.ci32(1)),
                              phase)};
}

SmallVector<Value> MmaBuilder::multiplyStages(
    Value nTiles, int stageElems,
    function_ref<void(Value, Value, Value, Value, Value)> refill,
    ValueRange state) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int S = c.stages;
  bool persistent = !state.empty();
  // K tiles [first, nTiles) from `init`: the accumulators, the stage of
  // tile t and the phase parity of that stage's barriers.
  auto emitLoop = [&](Value first, SmallVector<Value> init) {
    int nCarried = init.size() - 2;
    auto loop = scf::ForOp::create(b, loc, first, nTiles, e.ci32(1), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    ValueRange iter = loop.getRegionIterArgs();
    Value stage = iter[nCarried], phase = iter[nCarried + 1];
    NVVM::MBarrierTryWaitParityOp::create(b, loc, stageBarrier(stage), phase,
                                          e.ci32(kSuspendHintNs));
    SmallVector<Value> acc =
        wgmmaStage(e.mul(stage, e.ci32(stageElems)), iter.take_front(nCarried));
    // The wgmmas of tile t - 1 are done (this warp's): the warp releases
    // its stage, to be refilled with tile t - 1 + S once every warp has.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    auto [prevStage, prevPhase] = previousStage(stage, phase);
    // Lane r of each warp releases the stage in block r of the cluster.
    Value releasing =
        c.cm > 1 ? e.slt(lane, e.ci32(c.cm)) : e.eq(lane, e.ci32(0));
    ifThen(b, loc, e.land(e.slt(e.ci32(0), t), releasing),
           [&] { releaseStage(e.add(prevStage, e.ci32(S))); });
    if (refill)
      refill(t, stage, phase, prevStage, prevPhase);
    auto [nextStageIdx, nextPhase] = nextStage(stage, phase);
    acc.push_back(nextStageIdx);
    acc.push_back(nextPhase);
    scf::YieldOp::create(b, loc, acc);
    return loop;
  };

  if (!persistent) {
    SmallVector<Value> init = initWgmmaAccumulators();
    int nCarried = init.size();
    init.append({e.ci32(0), e.ci32(0)});
    scf::ForOp loop = emitLoop(e.ci32(0), init);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    SmallVector<Value> acc =
        flattenWgmmaAccumulators(loop.getResults().take_front(nCarried));
    // Every copy has landed (each was waited for) and no wgmma is in
    // flight; the barrier frees the stages for the KL partials and the
    // flag. With a cluster, the other blocks' last arrivals on this block's
    // barriers must have happened before any block reuses its stages or
    // exits.
    stagesBarrier();
    return acc;
  }

  // A persistent block's output tiles follow each other in one loop: K
  // tile 0 is peeled, its first wgmmas ignoring the accumulators (scale-d
  // = 0), so that no instruction but a wgmma writes the accumulators the
  // wgmmas read. Zeroing them at every output tile instead made ptxas
  // insert warpgroup.arrive and serialize the wgmmas (C7520).
  SmallVector<Value> zeros = initWgmmaAccumulators();
  int nCarried = zeros.size();
  SmallVector<Type> types;
  for (Value v : zeros)
    types.push_back(v.getType());
  types.append(2, b.getI32Type());
  auto some = scf::IfOp::create(b, loc, types, e.slt(e.ci32(0), nTiles),
                                /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(some.thenBlock());
    Value stage = state[0], phase = state[1];
    NVVM::MBarrierTryWaitParityOp::create(b, loc, stageBarrier(stage), phase,
                                          e.ci32(kSuspendHintNs));
    SmallVector<Value> undef;
    for (Value v : zeros)
      undef.push_back(LLVM::UndefOp::create(b, loc, v.getType()));
    SmallVector<Value> init =
        wgmmaStage(e.mul(stage, e.ci32(stageElems)), undef, /*overwrite=*/true);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    auto [nextStageIdx, nextPhase] = nextStage(stage, phase);
    init.append({nextStageIdx, nextPhase});
    scf::ForOp loop = emitLoop(e.ci32(1), init);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    // The last tile's wgmmas are done: its stage goes back to the
    // producer, which is already filling the next output tile's first
    // stages.
    Value last =
        previousStage(loop.getResult(nCarried), loop.getResult(nCarried + 1))
            .first;
    ifThen(b, loc, e.eq(lane, e.ci32(0)),
           [&] { releaseStage(e.add(last, e.ci32(S))); });
    scf::YieldOp::create(b, loc, loop.getResults());
    b.setInsertionPointToStart(some.elseBlock());
    zeros.append(state.begin(), state.end());
    scf::YieldOp::create(b, loc, zeros);
  }
  SmallVector<Value> acc =
      flattenWgmmaAccumulators(some.getResults().take_front(nCarried));
  acc.append(some.getResults().begin() + nCarried, some.getResults().end());
  return acc;
}

void MmaBuilder::buildWarpSpecialized(
    Value useTma, Value nTiles, Value nFull, int stageElems,
    function_ref<void(SmallVector<Value>)> finish) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  ifThen(b, loc, useTma, [&] { initStageBarriers(); });
  // Every thread, the producer's too: the barriers are initialized before
  // any copy or wait. With a cluster along M (cm > 1), every thread of its
  // blocks: the others' producers multicast into this block's stages and
  // complete its barriers' transactions, and their computing warps
  // release its stages.
  if (c.cm > 1)
    stagesBarrier();
  else
    gpu::BarrierOp::create(b, loc);
  // The last warpgroup produces (the computing threads keep ids 0 ..
  // threads - 1, as without it).
  int computing = c.computeThreads();
  Value producer = e.sle(e.ci32(computing), tid);
  auto split = scf::IfOp::create(b, loc, producer, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(split.thenBlock());
  if (regs.kernel)
    NVVM::SetMaxRegisterOp::create(b, loc, regs.producer,
                                   NVVM::SetMaxRegisterAction::decrease);
  // One thread issues every copy; on the cp.async path (no tensor maps)
  // the producer has nothing to do.
  ifThen(b, loc, e.land(useTma, e.eq(tid, e.ci32(computing))), [&] {
    if (taps)
      tmaPixel = taps->pixelOf(m0);
    if (!c.pt) {
      producerLoop(nTiles, stageElems);
      return;
    }
    // Stage, phase and count run on from one output tile to the next:
    // the next tile's first stages are filled as soon as the computing
    // warps release them, during this tile's epilogue.
    forEachTile({e.ci32(0), e.ci32(0), e.ci32(0)},
                [&](Value, Value, ValueRange state) {
                  return producerLoop(nTiles, stageElems, state);
                });
  });
  // cm > 1: the computing warps end the TMA loop with a cluster barrier
  // (multiplyStages: no block leaves while another's warps may still
  // release its stages); it counts every thread of the cluster's blocks,
  // so the producer warpgroup takes part. On the cp.async path neither
  // does.
  if (c.cm > 1)
    ifThen(b, loc, useTma, [&] { clusterBarrier(); });
  // kc: the cluster's barriers count every thread of its blocks; the
  // producer takes part in the two of sumClusterSlices (release/acquire
  // around the slices' sums, then the wait before the kernel exits).
  if (c.kc)
    for (int i = 0; i < 2; ++i)
      clusterBarrier();
  b.setInsertionPointToStart(split.elseBlock());
  if (regs.kernel)
    NVVM::SetMaxRegisterOp::create(b, loc, regs.consumer,
                                   NVVM::SetMaxRegisterAction::increase);
  if (!c.pt) {
    finish(chooseMainLoop(useTma, nTiles, nFull, stageElems,
                          [&] { return multiplyStages(nTiles, stageElems); }));
    return;
  }
  if (c.pt == 2)
    return buildPingPong(useTma, nTiles, stageElems, finish);
  forEachTile(
      {e.ci32(0), e.ci32(0)}, [&](Value, Value tileFull, ValueRange state) {
        SmallVector<Value> acc = chooseMainLoop(
            useTma, nTiles, tileFull, stageElems,
            [&] { return multiplyStages(nTiles, stageElems, nullptr, state); },
            state);
        SmallVector<Value> next(acc.end() - state.size(), acc.end());
        acc.resize(acc.size() - state.size());
        finish(acc);
        return next;
      });
}

void MmaBuilder::buildPingPong(Value useTma, Value nTiles, int stageElems,
                               function_ref<void(SmallVector<Value>)> finish) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int S = c.stages;
  Value group = pingPongGroup;
  auto ifOp = scf::IfOp::create(b, loc, useTma, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value tiles = tileCount().second;
    Value grid = e.gridDim(gpu::Dimension::x);
    Value bx = e.sreg(gpu::Dimension::x, /*block=*/true);
    // Barrier 2 + w: warpgroup w may start its next tile (the other's 128
    // threads arrive, its own 128 wait).
    // `bar.sync` / `bar.arrive` of barrier 2 + w in warpgroup w, its id a
    // constant: through an NVVM op, LLVM merges the two warpgroups' calls
    // into one of a computed id, for which ptxas reserves all 16 barriers.
    auto named = [&](StringRef op, bool other) {
      auto split = scf::IfOp::create(b, loc, e.eq(group, e.ci32(0)),
                                     /*withElse=*/true);
      OpBuilder::InsertionGuard g(b);
      for (int w = 0; w < 2; ++w) {
        b.setInsertionPointToStart(w ? split.elseBlock() : split.thenBlock());
        int id = 2 + (other ? 1 - w : w);
        LLVM::InlineAsmOp::create(
            b, loc, Type(), ValueRange(),
            (op + " " + Twine(id) + ", " + Twine(2 * threads) + ";").str(),
            "~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
            ArrayAttr());
      }
    };
    forEachTile(
        {},
        [&](Value i, Value, ValueRange) -> SmallVector<Value> {
          Value j = e.divu(e.sub(i, bx), grid);
          // After the other warpgroup's wait for the last stage of tile
          // j - 1, every stage before this tile's was filled: no full
          // barrier this one waits on is a phase behind (its parity would
          // alias).
          ifThen(b, loc, e.slt(e.ci32(0), j),
                 [&] { named("bar.sync", /*other=*/false); });
          Value first = e.mul(j, nTiles);
          Value stage = e.remu(first, e.ci32(S));
          Value phase = e.remu(e.divu(first, e.ci32(S)), e.ci32(2));
          SmallVector<Value> acc =
              multiplyStages(nTiles, stageElems, nullptr, {stage, phase});
          acc.resize(acc.size() - 2);
          ifThen(b, loc, e.slt(e.add(i, grid), tiles),
                 [&] { named("bar.arrive", /*other=*/true); });
          finish(acc);
          return {};
        },
        group, /*step=*/2);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.elseBlock());
  // The cp.async loop's barriers are warpgroup 0's (named barrier 1 of
  // `threads`), and so are its copies.
  ifThen(b, loc, e.eq(group, e.ci32(0)), [&] {
    forEachTile({}, [&](Value, Value nFull, ValueRange) -> SmallVector<Value> {
      finish(mainLoop(nTiles, nFull, stageElems));
      return {};
    });
  });
}

SmallVector<Value> MmaBuilder::chooseMainLoop(
    Value useTma, Value nTiles, Value nFull, int stageElems,
    function_ref<SmallVector<Value>()> tmaLoop, ValueRange state) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int nAcc = (c.wm / ::isaac::kWgmmaM) * (c.wn / 2);
  SmallVector<Type> types(nAcc, e.elemTy);
  for (Value v : state)
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(b, loc, types, useTma, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, tmaLoop());
  b.setInsertionPointToStart(ifOp.elseBlock());
  // The cp.async loop leaves the TMA loop's state (persistent blocks) as
  // it was.
  SmallVector<Value> acc = mainLoop(nTiles, nFull, stageElems);
  acc.append(state.begin(), state.end());
  scf::YieldOp::create(b, loc, acc);
  return SmallVector<Value>(ifOp.getResults().begin(), ifOp.getResults().end());
}

SmallVector<Value> MmaBuilder::tmaMainLoop(Value nTiles, int stageElems) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int S = c.stages;
  Value leader = e.eq(tid, e.ci32(0));
  // How many tiles behind the one multiplied the stage refilled lies.
  const int lag = c.cm > 1 ? 2 : 1;
  // Each warp of each block of the cluster arrives once per tile on the
  // empty barrier of its stage.
  initStageBarriers();
  // The barriers' initialization is visible to every thread (and to the
  // async proxy's complete_tx) after the block barrier; with a cluster, to
  // its other blocks (their multicasts and arrivals) after the cluster's.
  stagesBarrier();
  // Prologue: tiles 0 .. S-1 into stages 0 .. S-1.
  ifThen(b, loc, leader, [&] {
    for (int st = 0; st < S; ++st)
      ifThen(b, loc, e.slt(e.ci32(st), nTiles),
             [&] { issueTmaTile(e.ci32(st), e.ci32(st), stageElems); });
  });
  return multiplyStages(
      nTiles, stageElems,
      [&](Value t, Value stage, Value phase, Value prevStage, Value prevPhase) {
        // The stage refilled now: tile t - 1's. In a cluster, tile t - 2's:
        // every block must have released it, and waiting for the others'
        // tile t - 1 would hold this block's next wgmmas (thread 0 is in
        // them) to the cluster's slowest block at every tile.
        Value refillStage = prevStage, refillPhase = prevPhase,
              canRefill = e.slt(e.ci32(0), t);
        if (lag == 2) {
          Value wraps = e.slt(stage, e.ci32(2));
          refillStage = arith::SelectOp::create(b, loc, wraps,
                                                e.add(stage, e.ci32(S - 2)),
                                                e.sub(stage, e.ci32(2)));
          refillPhase = arith::SelectOp::create(
              b, loc, wraps, arith::XOrIOp::create(b, loc, phase, e.ci32(1)),
              phase);
          canRefill = e.slt(e.ci32(1), t);
        }
        Value next = e.add(t, e.ci32(S - lag));
        ifThen(b, loc, e.land(e.land(canRefill, leader), e.slt(next, nTiles)),
               [&] {
                 NVVM::MBarrierTryWaitParityOp::create(
                     b, loc, stageBarrier(e.add(refillStage, e.ci32(S))),
                     refillPhase, e.ci32(kSuspendHintNs));
                 issueTmaTile(next, refillStage, stageElems);
               });
      });
}

void MmaBuilder::releaseStage(Value index) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value bar = stageBarrier(index);
  if (c.cm == 1) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), bar, Value());
    return;
  }
  auto clusterPtr = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  // This lane's block of the cluster (lane < cm). A release at CTA scope,
  // as CUTLASS's ClusterBarrier::arrive: the wgmmas that read the stage
  // are complete (wgmma.wait_group), and a cluster-scope release would
  // wait for every memory operation of the thread at every tile (it made
  // the kernels 2-4x slower).
  Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, bar, lane);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                 NVVM::MemScopeKind::CTA);
}

void MmaBuilder::stagesBarrier() {
  if (c.cm == 1) {
    e.barrier();
    return;
  }
  clusterBarrier();
}

void MmaBuilder::clusterBarrier() {
  NVVM::ClusterArriveOp::create(e.b, e.loc, UnitAttr());
  NVVM::ClusterWaitOp::create(e.b, e.loc, UnitAttr());
}

void MmaBuilder::forEachElement(
    function_ref<void(int, int, Value, Value, Value)> fn) {
  SmallVector<Value> cols, colOk;
  for (int j = 0; j < tileCols(); ++j) {
    cols.push_back(colOf(j));
    colOk.push_back(e.slt(cols.back(), N));
  }
  for (int i = 0; i < tileRows(); ++i) {
    Value row = rowOf(i);
    Value rowOk = e.slt(row, M);
    for (int j = 0; j < tileCols(); ++j)
      fn(i, j, row, cols[j], e.land(rowOk, colOk[j]));
  }
}

Value MmaBuilder::partialSumPtr(Value tBase, Value batch, Value row,
                                Value col) {
  // T is a dense batch x M x N array of the accumulator's type.
  Value plane = e.mul(e.ext64(M), e.ext64(N));
  Value off = e.add(e.mul(e.ext64(batch), plane),
                    e.add(e.mul(e.ext64(row), e.ext64(N)), e.ext64(col)));
  return e.gep(tBase, off);
}

void MmaBuilder::storeOutput(function_ref<Value(int, int, Value)> x,
                             Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  if (epilogue && epilogue->numInputs() > 0) {
    SmallVector<Value> rows, cols, rowOk, colOk;
    for (int i = 0; i < tileRows(); ++i) {
      rows.push_back(rowOf(i));
      rowOk.push_back(e.slt(rows.back(), M));
    }
    for (int j = 0; j < tileCols(); ++j) {
      cols.push_back(colOf(j));
      colOk.push_back(e.slt(cols.back(), N));
    }
    epilogue->loadTile(e, rows, cols, rowOk, colOk);
  }
  auto finish = [&](int i, int j, Value old, Value ok) -> Value {
    Value v = x(i, j, ok);
    if (old)
      v = e.fadd(e.fmul(beta, e.convert(old, e.elemTy)), v);
    if (!epilogue)
      return e.convert(v, outTy);
    return epilogue->applyTile(e, v, i, j, ok);
  };
  // Each thread owns pairs of adjacent columns: one 2-element store per
  // pair on the fast path (inside C, C aligned to the pair).
  int outBytes = outTy.getIntOrFloatBitWidth() / 8;
  // C's base and rows start on multiples of `elems` elements.
  auto cAlignedTo = [&](int elems) {
    return e.land(e.isMultiple(LLVM::PtrToIntOp::create(b, loc, e.i64, cBase),
                               elems * outBytes),
                  e.isMultiple(ldc, elems));
  };
  Value cAligned = cAlignedTo(2);
  Value betaZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, beta, e.cf(0.0));
  auto fastIf =
      scf::IfOp::create(b, loc, e.land(full, cAligned), /*withElse=*/true);
  for (int fast = 1; fast >= 0; --fast) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fast ? fastIf.thenBlock() : fastIf.elseBlock());
    auto betaIf = scf::IfOp::create(b, loc, betaZero, /*withElse=*/true);
    for (int withBeta = 0; withBeta < 2; ++withBeta) {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(withBeta ? betaIf.elseBlock()
                                          : betaIf.thenBlock());
      std::optional<OpBuilder::InsertionGuard> g3;
      if (!withBeta && stagingLayout().region) {
        // C's rows on 16 bytes: whole rows of sectors through shared
        // memory; else the pairs (a full tile) or elements below. An edge
        // tile also needs N a multiple of 16 bytes, its pieces past M or N
        // skipped: element-wise stores of a few edge tiles cost as much as
        // the rest of the tiles (ping-pong on 6000x2000x256: 0.72x of
        // 6144x2048x256; 0.89x staged).
        int pieceElems = 16 / outBytes;
        Value staged = cAlignedTo(pieceElems);
        if (!fast)
          staged = e.land(staged, e.isMultiple(N, pieceElems));
        auto stagedIf = scf::IfOp::create(b, loc, staged, /*withElse=*/true);
        g3.emplace(b);
        b.setInsertionPointToStart(stagedIf.thenBlock());
        storeStaged(
            [&](int i, int j) {
              Value ok = fast ? Value()
                              : e.land(e.slt(rowOf(i), M), e.slt(colOf(j), N));
              return finish(i, j, Value(), ok);
            },
            /*partial=*/!fast);
        b.setInsertionPointToStart(stagedIf.elseBlock());
      }
      if (fast) {
        for (int i = 0; i < tileRows(); ++i) {
          Value row = rowOf(i);
          for (int j = 0; j < tileCols(); j += 2) {
            Value ptr = cPtr(row, colOf(j));
            SmallVector<Value> old;
            if (withBeta)
              old = e.loadVector(ptr, 2, outTy);
            SmallVector<Value> out;
            for (int x = 0; x < 2; ++x)
              out.push_back(
                  finish(i, j + x, withBeta ? old[x] : Value(), Value()));
            e.storeVector(ptr, out, outTy);
          }
        }
        continue;
      }
      forEachElement([&](int i, int j, Value row, Value col, Value ok) {
        Value ptr = cPtr(row, col);
        Value old = withBeta ? e.predicatedLoad(ptr, ok, outTy) : Value();
        e.predicatedStore(ptr, finish(i, j, old, ok), ok);
      });
    }
  }
}

MmaBuilder::Staging MmaBuilder::stagingLayout() const {
  // GEMM kernels on a tile whose warps hold at least 32 bytes of a row
  // (one 16-byte piece per lane and pass).
  int outBytes = outTy.getIntOrFloatBitWidth() / 8;
  if (conv || c.wn * outBytes < 32)
    return {};
  Staging st;
  st.chunkCols = std::min(c.wn, 128 / outBytes);
  // 16 bytes of padding per row: the eight rows a pass writes start in
  // eight different bank quads.
  st.pitch = st.chunkCols * outBytes + 16;
  st.region = 16 * st.pitch;
  // A persistent block's producer refills the stages during the epilogue:
  // its warps stage in their own region.
  if (c.pt) {
    assert(st.region <= ::isaac::kStagingWarpBytes && "staging region");
    st.first = smem.stagingOffset;
    st.region = ::isaac::kStagingWarpBytes;
    return st;
  }
  // After the split-K flag (the first word, read by every thread after
  // the tile's last block is known), the KL partials (read by the other
  // warps of group 0 until they start their own epilogue) and kc's sums
  // (read by the other blocks of the cluster until its last barrier).
  st.first = (std::max(16, smem.reduceBytes) + 127) / 128 * 128;
  int warps = threads / 32 / c.kl; // group 0's
  if (st.first + warps * st.region > smem.barrierOffset)
    return {};
  return st;
}

void MmaBuilder::storeStaged(function_ref<Value(int, int)> out, bool partial) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Staging st = stagingLayout();
  int outBytes = outTy.getIntOrFloatBitWidth() / 8;
  int piecesPerRow = st.chunkCols * outBytes / 16;
  int passes = 16 * piecesPerRow / 32;
  Value mine =
      e.gep(smemPtr, e.add(e.ci32(st.first), e.mul(warpId, e.ci32(st.region))),
            b.getI8Type());
  auto v4 = VectorType::get({4}, b.getI32Type());
  for (int rb = 0; rb < tileRows() / 2; ++rb) {
    // The warp's 16 rows: rowOf(2 rb) - g onwards.
    Value row0 = e.add(e.add(m0, rowBase), e.ci32(rb * rowsPerTile()));
    for (int c0 = 0; c0 < c.wn; c0 += st.chunkCols) {
      // Each thread's pairs of this chunk (columns (j / 2) * 8 + 2 q, as
      // colOf's) at (8 h + g, column in chunk).
      for (int h = 0; h < 2; ++h)
        for (int j = c0 / 4; j < (c0 + st.chunkCols) / 4; j += 2) {
          int i = 2 * rb + h;
          Value col = e.add(e.ci32((j / 2) * 8 - c0), e.mul(q, e.ci32(2)));
          Value off = e.add(e.mul(e.add(g, e.ci32(8 * h)), e.ci32(st.pitch)),
                            e.mul(col, e.ci32(outBytes)));
          e.storeVector(e.gep(mine, off, b.getI8Type()),
                        {out(i, j), out(i, j + 1)}, outTy);
        }
      NVVM::SyncWarpOp::create(b, loc, e.ci32(-1));
      for (int pass = 0; pass < passes; ++pass) {
        Value piece = e.add(lane, e.ci32(32 * pass));
        Value r = e.divu(piece, e.ci32(piecesPerRow));
        Value cp = e.remu(piece, e.ci32(piecesPerRow));
        Value src = e.gep(
            mine, e.add(e.mul(r, e.ci32(st.pitch)), e.mul(cp, e.ci32(16))),
            b.getI8Type());
        Value v = LLVM::LoadOp::create(b, loc, v4, src, 16);
        Value col = e.add(e.add(e.add(n0, wnBase), e.ci32(c0)),
                          e.mul(cp, e.ci32(16 / outBytes)));
        Value row = e.add(row0, r);
        if (!partial) {
          LLVM::StoreOp::create(b, loc, v, cPtr(row, col), 16);
          continue;
        }
        // N is a multiple of the piece: a piece is inside C or past it.
        ifThen(b, loc, e.land(e.slt(row, M), e.slt(col, N)),
               [&] { LLVM::StoreOp::create(b, loc, v, cPtr(row, col), 16); });
      }
      // The region is rewritten by the next chunk.
      NVVM::SyncWarpOp::create(b, loc, e.ci32(-1));
    }
  }
}

void MmaBuilder::emitEpilogue(ArrayRef<Value> acc, Value gSlice, Value batch,
                              Value W, Value S, Value alpha, Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  SmallVector<Value> scaled;
  for (Value v : acc)
    scaled.push_back(e.fmul(alpha, v));
  auto value = [&](int i, int j, Value) { return scaled[accIndex(i, j)]; };
  // kc: `acc` is already the sum of every slice.
  if (!c.splitsAcrossGrid()) {
    storeOutput(value, beta);
    return;
  }
  // Deterministic mode: a dense M x N plane of the accumulator's type per
  // (batch, slice).
  auto storeWorkspace = [&] {
    Value slice = e.add(e.mul(batch, e.ci32(c.kg)), gSlice);
    forEachElement([&](int i, int j, Value row, Value col, Value ok) {
      e.predicatedStore(partialSumPtr(W, slice, row, col), value(i, j, ok), ok);
    });
  };
  // With tile counters (a fused epilogue, a 16-bit C), S != 0 selects
  // atomic mode: the slices add into T = W and the tile's last block
  // finishes it (emitSplitKFixup); S = 0 the workspace, summed by the
  // reducer. A plain f32 or f64 C: W = 0 selects atomic mode (red.add into
  // C, which the caller pre-scaled by beta). A 16-bit C cannot take the
  // adds itself (it would round at every slice): its sums stay in f32 and
  // are converted once.
  bool viaT = S != Value();
  Value useWorkspace = LLVM::ICmpOp::create(
      b, loc, viaT ? LLVM::ICmpPredicate::eq : LLVM::ICmpPredicate::ne,
      viaT ? S : W, LLVM::ZeroOp::create(b, loc, e.gptr));
  auto ifOp = scf::IfOp::create(b, loc, useWorkspace, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storeWorkspace();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.elseBlock());
  auto ptrOf = [&](Value row, Value col) {
    return viaT ? partialSumPtr(W, batch, row, col) : cPtr(row, col);
  };
  auto scalarAdds = [&] {
    forEachElement([&](int i, int j, Value row, Value col, Value ok) {
      e.predicatedReduceAdd(ptrOf(row, col), value(i, j, ok), ok);
    });
  };
  if (!spec.vectorRedF32 || spec.accType() != ::isaac::DType::F32)
    return scalarAdds();
  // Columns j and j + 1 (j even) of the thread's tile are adjacent columns
  // 2q, 2q + 1 of one fragment: one red.global.add.v2.f32 adds both. The
  // KG slices of a tile add into the same lines of T (or C), whose atomics
  // the L2 serializes per line: half as many cut the kernel's tail (on an
  // H200, 32x32x60000 f16 with KG = 64: 12.9 -> 11.6 us; docs/perf.md,
  // "Split-K adds in pairs"). The pair needs 8-byte alignment, and with N
  // even an even column inside N has its neighbour inside too; otherwise
  // (uniform over the block) the adds stay scalar.
  Value pairs = e.isMultiple(N, 2);
  if (!viaT) {
    Value c = LLVM::PtrToIntOp::create(b, loc, e.i64, cBase);
    pairs = e.land(pairs, e.land(e.isMultiple(c, 8), e.isMultiple(ldc, 2)));
  }
  auto pairIf = scf::IfOp::create(b, loc, pairs, /*withElse=*/true);
  b.setInsertionPointToStart(pairIf.thenBlock());
  forEachElement([&](int i, int j, Value row, Value col, Value ok) {
    if (j % 2 == 0)
      e.predicatedReduceAddPair(ptrOf(row, col), value(i, j, ok),
                                value(i, j + 1, ok), ok);
  });
  b.setInsertionPointToStart(pairIf.elseBlock());
  scalarAdds();
}

Value MmaBuilder::sumClusterSlices(SmallVectorImpl<Value> &acc, Value isGroup0,
                                   Value rank) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // 16-byte slots of `per` accumulators (4 f32, 2 f64), lane fastest (a
  // warp's 512 contiguous bytes per slot: conflict-free), after the KL
  // partials. Every family's accumulators per thread are a multiple of 4.
  int accBytes = ::isaac::dtypeBytes(spec.accType());
  int per = 16 / accBytes;
  int nAcc = acc.size();
  int slots = nAcc / per;
  auto slotTy = VectorType::get({per}, e.elemTy);
  int first = smem.clusterSumsOffset;
  auto slot = [&](Value w, int x) {
    Value idx = e.add(
        e.mul(e.add(e.mul(w, e.ci32(slots)), e.ci32(x)), e.ci32(32)), lane);
    return e.add(e.ci32(first), e.mul(idx, e.ci32(16)));
  };
  ifThen(b, loc, isGroup0, [&] {
    for (int x = 0; x < slots; ++x) {
      Value v = LLVM::UndefOp::create(b, loc, slotTy);
      for (int k = 0; k < per; ++k)
        v = LLVM::InsertElementOp::create(b, loc, v, acc[per * x + k],
                                          e.ci32(k));
      LLVM::StoreOp::create(b, loc, v,
                            e.gep(smemPtr, slot(warpId, x), b.getI8Type()), 16);
    }
  });
  // Every block's sums are in its shared memory (release/acquire).
  clusterBarrier();
  Value adds = e.land(isGroup0, e.eq(e.remu(warpId, e.ci32(c.kg)), rank));
  auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(nAcc, e.elemTy), adds,
                                /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    auto clusterPtr = LLVM::LLVMPointerType::get(
        b.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    // The adding block reads its own sums back too: the same order of
    // adds whichever block it is.
    SmallVector<Value> sum;
    for (int s = 0; s < c.kg; ++s) {
      Value remote =
          NVVM::MapaOp::create(b, loc, clusterPtr, smemPtr, e.ci32(s));
      for (int x = 0; x < slots; ++x) {
        Value ptr = LLVM::GEPOp::create(b, loc, clusterPtr, b.getI8Type(),
                                        remote, ValueRange{slot(warpId, x)});
        Value v = LLVM::LoadOp::create(b, loc, slotTy, ptr, 16);
        for (int k = 0; k < per; ++k) {
          Value y = LLVM::ExtractElementOp::create(b, loc, v, e.ci32(k));
          if (s == 0)
            sum.push_back(y);
          else
            sum[per * x + k] = e.fadd(sum[per * x + k], y);
        }
      }
    }
    scf::YieldOp::create(b, loc, sum);
    // The other warps store nothing: their accumulators die with the
    // parking stores above instead of living on beside the sums.
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, SmallVector<Value>(nAcc, e.cf(0.0)));
  }
  acc.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  // The reads of the other blocks' sums are done (release); the kernel's
  // end waits for every block's.
  NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
  return adds;
}

void MmaBuilder::emitSplitKFixup(Value batch, Value isGroup0, Value T, Value S,
                                 Value beta) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value atomicMode = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, S,
                                          LLVM::ZeroOp::create(b, loc, e.gptr));
  auto modeIf = scf::IfOp::create(b, loc, atomicMode, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(modeIf.thenBlock());
  // The staging buffers are free after the main loop: the flag lives in
  // their first word.
  Value isLast = e.arriveAtTile(S, batch, tid, smemPtr, c.kg);
  ifThen(b, loc, e.land(isLast, isGroup0), [&] {
    // The sums, read from L2 (.cg: other SMs added them) where the
    // epilogue needs them, left zero for the next launch.
    auto sum = [&](int i, int j, Value ok) -> Value {
      Value ptr = partialSumPtr(T, batch, rowOf(i), colOf(j));
      Value inC = ok ? ok : e.land(e.slt(rowOf(i), M), e.slt(colOf(j), N));
      Value v = e.predicatedLoad(ptr, inC, ".cg");
      e.predicatedStore(ptr, e.cf(0.0), inC);
      return v;
    };
    storeOutput(sum, beta);
  });
}

void MmaBuilder::buildBody(gpu::GPUFuncOp func, StringRef smemSymbol) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  MLIRContext *ctx = b.getContext();
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  auto args = entry.getArguments();
  namespace arg = ::isaac::abi::gemm;
  Value C, A, B, W, sA, sB, sC, alpha, beta;
  std::optional<ConvKernelArgs> convArgs;
  if (conv) {
    // The implicit GEMM of a single "batch": C the output, A the input
    // (addressed through the taps), B the filters, no batch strides.
    convArgs = ConvKernelArgs::bind(e, args, conv->layout);
    C = convArgs->O;
    A = convArgs->I;
    B = convArgs->F;
    W = convArgs->ws;
    alpha = convArgs->alpha;
    beta = convArgs->beta;
    M = convArgs->gemmM;
    N = convArgs->gemmN;
    K = convArgs->gemmK;
    ldb = convArgs->ldb;
    ldc = convArgs->ldc;
    lda = K;
    sA = sB = sC = e.ci64(0);
  } else {
    C = args[arg::C];
    A = args[arg::A];
    B = args[arg::B];
    W = args[arg::W];
    M = args[arg::M];
    N = args[arg::N];
    K = args[arg::K];
    lda = args[arg::lda];
    ldb = args[arg::ldb];
    ldc = args[arg::ldc];
    sA = args[arg::sA];
    sB = args[arg::sB];
    sC = args[arg::sC];
    alpha = args[arg::alpha];
    beta = args[arg::beta];
  }

  // The dynamic shared memory, as a pointer for the copies, ldmatrix and
  // stores.
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto declTy =
      MemRefType::get({0}, b.getI8Type(), MemRefLayoutAttrInterface(), wg);
  Value decl = memref::GetGlobalOp::create(b, loc, declTy, smemSymbol);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, decl);
  smemPtr = LLVM::IntToPtrOp::create(
      b, loc, e.sptr, Value(arith::IndexCastUIOp::create(b, loc, e.i64, base)));

  tid = e.sreg(gpu::Dimension::x, /*block=*/false);
  Value bx = e.sreg(gpu::Dimension::x, true);
  Value by = e.sreg(gpu::Dimension::y, true);
  Value bz = e.sreg(gpu::Dimension::z, true);
  Value batch = e.divu(bz, e.ci32(c.kg));
  Value gSlice = e.remu(bz, e.ci32(c.kg));
  if (c.cm > 1)
    ctaRank = e.remu(bx, e.ci32(c.cm)); // %cluster_ctarank of (cm, 1, 1)
  aBase = e.gep(A, e.mul(e.ext64(batch), sA), abTy);
  bBase = e.gep(B, e.mul(e.ext64(batch), sB), abTy);
  cBase = e.gep(C, e.mul(e.ext64(batch), sC), outTy);
  Value S = spec.takesTileCounters() ? args[tileCountersArg(conv != nullptr)]
                                     : Value();
  if (epilogue)
    epilogue->bind(e, args, /*first=*/tileCountersArg(conv != nullptr) + 1,
                   batch);

  // Warp and lane coordinates.
  Value warp = e.divu(tid, e.ci32(32));
  warpId = warp;
  lane = e.remu(tid, e.ci32(32));
  // Tiles of C per KL group along M: warps (mma) or warpgroups (wgmma).
  int tilesM = wgmma ? ::isaac::wgmmaGroupsM(c) : ::isaac::mmaWarpsM(c);
  int tilesN = wgmma ? ::isaac::wgmmaGroupsN(c) : ::isaac::mmaWarpsN(c);
  int warpsPerTile = wgmma ? 4 : 1;
  int groupWarps = tilesM * tilesN * warpsPerTile;
  klId = e.divu(warp, e.ci32(groupWarps));
  // Ping-pong: the two warpgroups (one a tile) compute different tiles.
  if (c.pt == 2) {
    pingPongGroup = klId;
    klId = e.ci32(0);
  }
  Value wIn = e.divu(e.remu(warp, e.ci32(groupWarps)), e.ci32(warpsPerTile));
  wmBase = e.mul(e.remu(wIn, e.ci32(tilesM)), e.ci32(c.wm));
  wnBase = e.mul(e.divu(wIn, e.ci32(tilesM)), e.ci32(c.wn));
  rowBase = wmBase;
  if (wgmma)
    rowBase = e.add(wmBase, e.mul(e.remu(warp, e.ci32(4)), e.ci32(16)));
  g = e.divu(lane, e.ci32(4));
  q = e.remu(lane, e.ci32(4));

  // K slice, as the simt kernels: Kc = ceil(ceil(K/KG)/U)*U.
  kStart = e.ci32(0);
  kEnd = K;
  if (c.kg > 1) {
    Value perG = e.divu(e.add(K, e.ci32(c.kg - 1)), e.ci32(c.kg));
    Value kc =
        e.mul(e.divu(e.add(perG, e.ci32(c.u - 1)), e.ci32(c.u)), e.ci32(c.u));
    kStart = e.minsi(e.mul(gSlice, kc), K);
    kEnd = e.minsi(e.add(kStart, kc), K);
  }
  kLen = e.sub(kEnd, kStart);
  Value nTiles = e.divu(e.add(kLen, e.ci32(c.u - 1)), e.ci32(c.u));
  // The block's tile; a persistent block's (pt) are bound by forEachTile.
  Value nFull = setTile(bx, by, kLen);
  auto aligned = [&](Value ptr, Value ld, Value stride) {
    Value p = LLVM::PtrToIntOp::create(b, loc, e.i64, ptr);
    return e.land(e.land(e.isMultiple(p, c.vec * esz), e.isMultiple(ld, c.vec)),
                  e.isMultiple(stride, c.vec));
  };
  alignedA = aligned(A, lda, sA);
  alignedB = aligned(B, ldb, sB);
  if (conv) {
    // The rows of the input each copy reads are the same for every K
    // tile: their part of the addresses is computed here, once.
    taps.emplace(e, *convArgs);
    alignedA = taps->vectorOk(c.vec, esz);
    SmallVector<Value> rows;
    for (const Copy &cp : copiesA)
      rows.push_back(cp.mn);
    taps->prepare(rows);
  }

  // Stage offsets are in elements of A and B.
  int stageElems = smem.stageBytes / esz;
  // The rest of the kernel, from the accumulators: the KL groups' sum,
  // the epilogue and the split-K fix-up.
  auto finish = [&](SmallVector<Value> acc) {
    int nAcc = acc.size();

    // KL partials: groups 1..KL-1 park their accumulators in shared memory
    // (lane fastest: conflict-free), group 0 sums them in group order.
    int accBytes = ::isaac::dtypeBytes(spec.accType());
    Value isGroup0 = e.eq(klId, e.ci32(0));
    if (c.kl > 1) {
      auto slot = [&](Value group, int x) {
        Value warpIn = e.remu(warp, e.ci32(groupWarps));
        Value idx = e.add(
            e.mul(e.add(e.mul(e.sub(group, e.ci32(1)), e.ci32(groupWarps)),
                        warpIn),
                  e.ci32(nAcc * 32)),
            e.add(e.ci32(x * 32), lane));
        return e.gep(smemPtr, idx, e.elemTy);
      };
      {
        auto ifOp = scf::IfOp::create(b, loc, isGroup0, /*withElse=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.elseBlock());
        for (int x = 0; x < nAcc; ++x)
          LLVM::StoreOp::create(b, loc, acc[x], slot(klId, x), accBytes);
      }
      e.barrier();
      SmallVector<Type> accTypes(nAcc, e.elemTy);
      auto ifOp = scf::IfOp::create(b, loc, accTypes, isGroup0,
                                    /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        SmallVector<Value> sum(acc);
        for (int grp = 1; grp < c.kl; ++grp)
          for (int x = 0; x < nAcc; ++x)
            sum[x] = e.fadd(sum[x], LLVM::LoadOp::create(b, loc, e.elemTy,
                                                         slot(e.ci32(grp), x),
                                                         accBytes));
        scf::YieldOp::create(b, loc, sum);
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, acc);
      }
      acc.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    }

    Value stores = isGroup0;
    if (c.kc)
      stores = sumClusterSlices(acc, isGroup0, gSlice);
    auto epilogueAndFixup = [&] {
      ifThen(b, loc, stores,
             [&] { emitEpilogue(acc, gSlice, batch, W, S, alpha, beta); });
      if (S && c.splitsAcrossGrid())
        emitSplitKFixup(batch, isGroup0, W, S, beta);
    };
    // The grid's x is rounded up to whole clusters: the blocks past M only
    // helped load their cluster's B tiles (their own A tiles zero).
    if (c.cm > 1)
      ifThen(b, loc, e.slt(m0, M), epilogueAndFixup);
    else
      epilogueAndFixup();
    // kc: no block leaves while another may still read its sums.
    if (c.kc)
      NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
  };

  if (!wgmma) {
    finish(mainLoop(nTiles, nFull, stageElems));
    gpu::ReturnOp::create(b, loc);
    return;
  }
  // The launch passes tensor maps when TMA can address both operands
  // (docs/abi.md, "Tensor maps"); otherwise the cp.async loop copies
  // them, with its alignment checks and scalar fallback (a convolution's
  // input: its taps).
  unsigned first = args.size() - ::isaac::abi::kNumTmaGemmArgs;
  tmA = args[first + ::isaac::abi::tma::tmA];
  tmB = args[first + ::isaac::abi::tma::tmB];
  batchIdx = batch;
  Value useTma =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                           args[first + ::isaac::abi::tma::useTma], e.ci32(0));
  if (c.ws)
    buildWarpSpecialized(useTma, nTiles, nFull, stageElems, finish);
  else
    finish(chooseMainLoop(useTma, nTiles, nFull, stageElems, [&] {
      if (taps)
        tmaPixel = taps->pixelOf(m0);
      return tmaMainLoop(nTiles, stageElems);
    }));
  gpu::ReturnOp::create(b, loc);
}

} // namespace

gpu::GPUFuncOp mlir::isaac::buildMmaGemmKernel(OpBuilder &builder,
                                               gpu::GPUModuleOp module,
                                               const GemmKernelSpec &spec,
                                               const ConvKernelSpec *conv) {
  OpBuilder::InsertionGuard guard(builder);
  MLIRContext *ctx = builder.getContext();
  Location loc = module.getLoc();
  std::string name = conv ? conv->kernelName() : spec.kernelName();
  builder.setInsertionPointToEnd(module.getBody());
  // A declaration (no initializer): `.extern .shared .align 128 .b8
  // <name>_smem[]`, the kernel's dynamic shared memory. Its size is the
  // launch's, given by the header line's smem= (docs/abi.md).
  std::string smemName = name + "_smem";
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  memref::GlobalOp::create(
      builder, loc, smemName, builder.getStringAttr("public"),
      MemRefType::get({0}, builder.getI8Type(), MemRefLayoutAttrInterface(),
                      wg),
      /*initial_value=*/Attribute(), /*constant=*/false,
      builder.getI64IntegerAttr(spec.config.family == ::isaac::GemmFamily::Wgmma
                                    ? 1024 // the swizzle patterns' boundary
                                    : 128));

  // The simt kernels' ABI (KernelABI.def); alpha and beta (Scalar) are of
  // the accumulator's type (f32; f64 for f64).
  KernelEmitter types(builder, loc, spec.accType());
  gpu::GPUFuncOp func =
      conv ? declareConvKernel(builder, loc, *conv, name, types, types.elemTy)
           : declareGemmKernel(builder, loc, spec, name, types, types.elemTy);
  // A cluster of cm blocks along M (sharing B), or of the KG slices of a
  // tile along z (kc; the grid's z is batch * KG).
  if (int cm = spec.config.cm; cm > 1)
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  builder.getDenseI32ArrayAttr({cm, 1, 1}));
  if (spec.config.kc)
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  builder.getDenseI32ArrayAttr({1, 1, spec.config.kg}));
  MmaBuilder gen(builder, loc, spec, conv);
  // A warp-specialized block whose computing threads need more registers
  // than 64K / threads starts every thread at that bound: the pool its
  // warpgroups trade through setmaxnreg (wgmmaRegisterSplit).
  int regs = gen.registerSplit().kernel;
  // A persistent block keeps the residency of the plain one.
  if (!regs && spec.config.family == ::isaac::GemmFamily::Wgmma)
    regs = ::isaac::persistentRegisterBound(
        spec.config, spec.dtype,
        ::isaac::getChipLimits(spec.chip).value_or(
            ::isaac::ChipLimits{spec.chip}));
  if (regs)
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  builder.getI32IntegerAttr(regs));
  gen.buildBody(func, smemName);
  return func;
}
