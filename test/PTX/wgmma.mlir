// REQUIRES: ptxas
// The wgmma family's PTX (sm_90a): every layout, f16 and bf16, C of the
// operands' type and f32, KL and KG > 1, 64-row tiles stacked in a
// warpgroup and a fused epilogue, through the whole pipeline, assembled by
// ptxas. Without a configuration, f16 and bf16 GEMMs on sm_90a are still
// searched in the mma family.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90a ptx-dir=%t" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90a %t 7 | FileCheck %s --check-prefix=ASM
// ASM: ptxas sm_90a: 16 kernels, 0 failed
// REMARK: remark: isaac: configuration chosen by the trained model {{.*}}sm_90a{{/|\\}}gemm-bf16.mlp (trained on measurements)
//
// The large tile: 128-byte swizzle atoms aligned to 1024 bytes, the stage
// mbarriers after the stages (smem = 4 * 64 KiB + 2 * 4 * 8 bytes); the
// tensor maps last among the parameters, by value (grid constants whose
// address TMA reads); four m64n128k16 wgmmas per stage (A K-major, B
// K-major: no transpose), one commit group kept in flight; 64 accumulators
// a thread, no spill. An f16 C: the tile counters S (parameter 15) come
// before the maps.
// RUN: FileCheck %s --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx
// CHECK: // isaac.kernel name=isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4 dtype=f16 layout=nt ml=128 nl=128 wm=64 wn=128 u=64 kl=1 kg=1 vec=8 stages=4 threads=256 smem=131136 dynsmem=1 chip=sm_90a
// CHECK: .target sm_90a
// CHECK: .extern .shared .align 1024 .b8 isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4_smem[];
// CHECK: .param .f32 {{.*}}_param_14,
// CHECK-NEXT: .param .u64 {{.*}}_param_15,
// CHECK-NEXT: .param .align 64 .b8 {{.*}}_param_16{{\[}}128],
// CHECK-NEXT: .param .align 64 .b8 {{.*}}_param_17{{\[}}128],
// CHECK-NEXT: .param .u32 {{.*}}_param_18
// CHECK-DAG: cvta.param.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}};
// CHECK-DAG: ld.param.b32 {{%r[0-9]+}}, [{{.*}}_param_18];
//
// TMA path: thread 0 initializes a full (count 1) and an empty (count: the
// 8 warps) mbarrier per stage after the stages, then fills stages 0..3:
// the stage's bytes (2 * 128 * 64 * 2) expected on its full barrier, one
// 3-D box copy per operand (K-major, 64 x 128 elements each). LLVM places
// the loop's blocks out of source order: each part is checked on its own.
// RUN: FileCheck %s --check-prefix=TMA --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx
// TMA: mbarrier.init.shared.b64 [[[SMEM:isaac_gemm_[a-z0-9_]+_smem]]+131072], {{%r[0-9]+}};
// TMA: mbarrier.init.shared.b64 [[[SMEM]]+131104], {{%r[0-9]+}};
// TMA: bar.sync 0;
// TMA: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[SMEM]]+131072], {{%r[0-9]+}};
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}], [[[SMEM]]+131072];
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA: wgmma.fence.sync.aligned;
// TMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// TMA: wgmma.commit_group.sync.aligned;
// TMA-NEXT: wgmma.wait_group.sync.aligned 1;
// After the loop: no wgmma in flight, then the barrier that frees the
// stages.
// TMA: wgmma.wait_group.sync.aligned 0;
// TMA-NEXT: bar.sync 0;
// Each later K tile: after its wgmmas, each warp's lane 0 releases the
// previous stage; thread 0 waits until all have, then refills it.
// RUN: FileCheck %s --check-prefix=REFILL --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx
// REFILL: mbarrier.arrive.shared.b64
// REFILL: mbarrier.try_wait.parity.shared.b64
// REFILL: mbarrier.arrive.expect_tx.shared.b64
// REFILL: cp.async.bulk.tensor.3d
//
// cp.async path (useTma = 0: an operand TMA cannot address): 16-byte
// copies, made visible to the async proxy before the barrier.
// RUN: FileCheck %s --check-prefix=CPASYNC --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx
// CPASYNC: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CPASYNC: cp.async.wait_group 1;
// CPASYNC-NEXT: fence.proxy.async.shared::cta;
// CPASYNC-NEXT: bar.sync 0;
// Both loops' four wgmmas, the TMA loop's first tile peeled: 12.
// RUN: grep -c "wgmma.mma_async" %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx | FileCheck %s --check-prefix=COUNT
// COUNT: 12
// RUN: %ptxas -arch=sm_90a -v %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// REGS: 0 bytes spill stores, 0 bytes spill loads
// A full tile with beta = 0 and C 16-byte aligned goes through shared
// memory: each warp writes its converted pairs into its region (after the
// split-K flag's 128 bytes; rows of 128 + 16 bytes, so row 8 starts at
// 128 + 8 * 144 = 1280), reads them back as 16-byte row pieces and stores
// those: 2 chunks of 64 columns x 4 pieces a lane.
// RUN: FileCheck %s --check-prefix=STAGED --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx
// STAGED: cvt.rn.f16x2.f32
// STAGED-NEXT: st.shared.b32 [%rd{{[0-9]+}}+128]
// STAGED: st.shared.b32 [%rd{{[0-9]+}}+144]
// STAGED: st.shared.b32 [%rd{{[0-9]+}}+1280]
// STAGED: bar.warp.sync -1;
// STAGED: ld.shared.v4.b32
// STAGED: st.global.v4.b32
// STAGED: bar.warp.sync -1;
// An edge tile (past M or N) with beta = 0, C's rows on 16 bytes and N a
// multiple of 8 goes the same way, its pieces past M or N skipped: 8
// pieces for each; the element-wise stores (`@p st.global.b16`) are the
// other edge tiles' alone, 2 x 64 a thread (beta 0 or not).
// RUN: grep -c "st.global.v4.b32" %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx | FileCheck %s --check-prefix=PIECES
// PIECES: 16
// RUN: grep -c "st.global.b16" %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm64_wn128_u64_kl1_kg1_v8_st4.ptx | FileCheck %s --check-prefix=EDGE
// EDGE: 128
//
// M- and N-major operands take wgmma's transposed forms: nn transposes B,
// tn both, tt A; bf16 its own type; two 64-row tiles per warpgroup issue
// two wgmmas per k-step (in each of the two main loops, the TMA loop's
// first tile peeled: 3 x 4 k-steps x 2).
// RUN: FileCheck %s --check-prefix=NN --input-file=%t/isaac_gemm_f16f32_nn_wgmma_ml64_nl32_wm64_wn16_u32_kl1_kg2_v8_st3.ptx
// NN: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// RUN: FileCheck %s --check-prefix=TN --input-file=%t/isaac_gemm_f16_tn_wgmma_ml64_nl64_wm64_wn64_u64_kl2_kg1_v8_st5.ptx
// TN: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
// RUN: FileCheck %s --check-prefix=TT --input-file=%t/isaac_gemm_bf16_tt_wgmma_ml256_nl64_wm128_wn64_u64_kl1_kg1_v4_st3.ptx
// TT-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 0;
// TT-DAG: cvt.rn.bf16.f32
// RUN: grep -c "wgmma.mma_async" %t/isaac_gemm_bf16_tt_wgmma_ml256_nl64_wm128_wn64_u64_kl1_kg1_v4_st3.ptx | FileCheck %s --check-prefix=COUNT16
// COUNT16: 24
//
// Split over K into a 16-bit C, which takes the tile counters S
// (parameter 15). S != 0 (atomic mode): every block adds its slice's f32
// partial sums into T (W) and counts itself in on its tile's counter; the
// block that arrives KG-th reads the tile's sums back (.cg: other SMs added
// them; 2 x 8 per thread in each of the six stores: full or edge tile,
// beta 0 or not, a beta-0 tile staged through shared memory or not),
// zeroes them and converts once. S = 0: the
// slice's plane of the workspace, summed by isaac_splitk_reduce_f16.
// RUN: FileCheck %s --check-prefix=SPLITK --input-file=%t/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx
// SPLITK: ld.param.b64 {{%rd[0-9]+}}, [{{.*}}_param_15];
// SPLITK-DAG: @{{%p[0-9]+}} red.global.add.f32
// SPLITK-DAG: @{{%p[0-9]+}} st.global.f32
// SPLITK: fence.acq_rel.gpu;
// SPLITK: atom.add.acq_rel.gpu.u32
// SPLITK: ld.global.cg.f32
// SPLITK: cvt.rn.f16.f32
// RUN: grep -c "ld.global.cg.f32" %t/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx | FileCheck %s --check-prefix=SUMS
// SUMS: 96
// RUN: grep -c "isaac_splitk_reduce_f16" %t/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx | FileCheck %s --check-prefix=REDUCER
// REDUCER: {{[1-9]}}
//
// The chip table's PTX ISA 8.1 has vector reductions: with N even, each
// pair of adjacent columns (2q, 2q + 1 of a fragment) is added into T with
// one red.global.add.v2.f32 (8 in this PTX), else with two scalar adds
// (16). Into an f32 C (f16f32, atomic mode) the same, when C's base and
// ldc also allow 8-byte pairs. A PTX version without them (+ptx80) keeps
// the scalar adds only.
// RUN: FileCheck %s --check-prefix=PAIRS --input-file=%t/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx
// PAIRS: .version 8.1
// PAIRS: @{{%p[0-9]+}} red.global.add.v2.f32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// PAIRS: @{{%p[0-9]+}} red.global.add.f32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// RUN: grep -c "red.global.add.v2.f32" %t/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx | FileCheck %s --check-prefix=PAIRS8
// PAIRS8: 8
// RUN: grep -c "red.global.add.v2.f32" %t/isaac_gemm_f16f32_nn_wgmma_ml64_nl32_wm64_wn16_u32_kl1_kg2_v8_st3.ptx | FileCheck %s --check-prefix=PAIRS4
// PAIRS4: 4
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90a features=+ptx80 ptx-dir=%t/ptx80" -o /dev/null 2>&1
// RUN: not grep -q "red.global.add.v2" %t/ptx80/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx
// RUN: grep -c "red.global.add.f32" %t/ptx80/isaac_gemm_f16_nt_wgmma_ml64_nl32_wm64_wn32_u32_kl1_kg4_v8_st3.ptx | FileCheck %s --check-prefix=SCALAR
// SCALAR: 16
//
// A cluster of cm = 2 blocks along M (nn: B N-major, U = 64 rows of which
// each block copies 32, 4 KiB into its half of the stage, and multicasts
// them to both): the kernel declares its cluster; the empty barriers count
// both blocks' 4 warps and their initialization is fenced for the cluster
// and published by a cluster barrier; each warp releases a stage in both
// blocks (mapa, a cluster-scope arrive); the loop ends with a cluster
// barrier; blocks past M skip the epilogue and the split-K fixup.
// RUN: FileCheck %s --check-prefix=CLUSTER --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg2_v8_st4_cm2.ptx
// CLUSTER: // isaac.kernel name=isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg2_v8_st4_cm2 {{.*}} stages=4 cm=2 threads=128
// CLUSTER: .explicitcluster
// CLUSTER-NEXT: .reqnctapercluster 2, 1, 1
// CLUSTER: mov.b32 [[EMPTY:%r[0-9]+]], 8;
// CLUSTER: mbarrier.init.shared.b64 [{{.*}}_smem+65568], [[EMPTY]];
// CLUSTER: fence.mbarrier_init.release.cluster;
// CLUSTER: barrier.cluster.arrive;
// CLUSTER-NEXT: barrier.cluster.wait;
// CLUSTER: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// CLUSTER: wgmma.wait_group.sync.aligned 0;
// CLUSTER-NEXT: barrier.cluster.arrive;
// CLUSTER-NEXT: barrier.cluster.wait;
// The loop's release: lane r of each warp arrives on the stage's empty
// barrier in block r (mapa of the lane's rank), a CTA-scope release (a
// cluster-scope one waits for all the thread's memory operations).
// RUN: FileCheck %s --check-prefix=RELEASE --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg2_v8_st4_cm2.ptx
// RELEASE: wgmma.wait_group.sync.aligned 1;
// RELEASE: mapa.shared::cluster.u64 [[R:%rd[0-9]+]], {{%rd[0-9]+}}, {{%r[0-9]+}};
// RELEASE: mbarrier.arrive.shared::cluster.b64 _, [[[R]]]
// RELEASE-NOT: release.cluster
// The matrix descriptors' base is the shared address masked to its 18
// bits (>> 4: 14): a cluster launch sets the address's higher bits.
// RUN: FileCheck %s --check-prefix=MASK --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg2_v8_st4_cm2.ptx
// MASK: shr.u32 [[B:%r[0-9]+]], {{%r[0-9]+}}, 4;
// MASK-NEXT: and.b32 {{%r[0-9]+}}, [[B]], {{16320|16383}};
// B's one column block (its half) is multicast in each of the 4 stages of
// the prologue and in the loop's refill; A's box is not.
// RUN: grep -c "multicast::cluster" %t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg2_v8_st4_cm2.ptx | FileCheck %s --check-prefix=MULTICAST
// MULTICAST: 5
//
// Split-K inside a cluster (kc = 1, f16 C, KG = 4): the kernel declares a
// cluster of its 4 slices along z; each block parks its sums (16-byte
// slots) and after a cluster barrier the warp's adding block reads every
// slice's (mapa of ranks 0 to 3, ld.shared::cluster) and stores C; the
// kernel waits for the cluster before it exits; no split-K helper
// kernel, so the module has no reducer.
// RUN: FileCheck %s --check-prefix=KC --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl32_wm64_wn32_u64_kl1_kg4_v8_st4_kc1.ptx
// KC: // isaac.kernel name=isaac_gemm_f16_nn_wgmma_ml64_nl32_wm64_wn32_u64_kl1_kg4_v8_st4_kc1 {{.*}} stages=4 kc=1 threads=128
// KC: .explicitcluster
// KC-NEXT: .reqnctapercluster 1, 1, 4
// KC: wgmma.wait_group.sync.aligned 0;
// KC: st.shared.v4.b32
// KC: barrier.cluster.arrive;
// KC-NEXT: barrier.cluster.wait;
// KC: mapa.shared::cluster.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0;
// KC: ld.shared::cluster.v4.b32
// KC: mapa.shared::cluster.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 3;
// KC: barrier.cluster.arrive;
// KC: st.global
// KC: barrier.cluster.wait;
// KC-NEXT: ret;
// RUN: not grep -q "isaac_splitk_reduce\|isaac_scale" %t/isaac_gemm_f16_nn_wgmma_ml64_nl32_wm64_wn32_u64_kl1_kg4_v8_st4_kc1.ptx
//
// Warp-specialized (ws = 1): a producer warpgroup after the computing one
// (256 threads); thread 0 initializes the stage barriers (empty: the 4
// computing warps), every thread meets at barrier 0, then thread 128 alone
// issues the TMA copies (tile t into stage t % 4 once the empty barrier
// says tile t - 4 was released) while the computing warps wait for each
// stage, multiply and release it; their barriers are named barrier 1 of
// 128 threads, which the producer never reaches. 64 accumulators a thread
// fit 64K / 256 registers: no setmaxnreg.
// RUN: FileCheck %s --check-prefix=WS --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1.ptx
// WS: // isaac.kernel name=isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1 {{.*}} stages=4 ws=1 threads=256
// WS-NOT: .maxnreg
// WS: .maxntid 256, 1, 1
// WS: mov.b32 [[EMPTY:%r[0-9]+]], 4;
// WS: mbarrier.init.shared.b64 [{{.*}}_smem+65568], [[EMPTY]];
// WS: bar.sync 0;
// WS-NEXT: setp.lt.u32 {{%p[0-9]+}}, [[TID:%r[0-9]+]], 128;
// WS: setp.ne.b32 {{%p[0-9]+}}, [[TID]], 128;
// WS: mbarrier.arrive.expect_tx.shared.b64
// WS: cp.async.bulk.tensor.3d
// RUN: FileCheck %s --check-prefix=WSLOOP --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1.ptx
// WSLOOP-DAG: wgmma.wait_group.sync.aligned 1;
// WSLOOP-DAG: mbarrier.arrive.shared.b64
// WSLOOP-DAG: bar.sync 1, 128;
// RUN: not grep -q "setmaxnreg" %t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1.ptx
// RUN: grep -cE "bar.sync\s+0;" %t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1.ptx | FileCheck %s --check-prefix=ONE
// ONE: 1
// Two computing warpgroups of 64x256 (128 accumulators a thread) and the
// producer: 384 threads, 168 registers each at the start (.maxnreg); the
// producer gives its down to 40 and the computing ones take 232, which
// ptxas compiles them under (no spill).
// RUN: FileCheck %s --check-prefix=SPLIT --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm64_wn256_u64_kl1_kg1_v8_st4_ws1.ptx
// SPLIT: threads=384
// SPLIT: .maxnreg 168
// SPLIT: setmaxnreg.dec.sync.aligned.u32 40;
// SPLIT: cp.async.bulk.tensor.3d
// SPLIT: setmaxnreg.inc.sync.aligned.u32 232;
// SPLIT: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// SPLIT: bar.sync 1, 256;
// With the K slices summed inside a cluster (kc = 1) the producer joins
// the cluster's two barriers (every thread of its blocks arrives): two
// arrive/wait pairs on its path, two on the computing threads'.
// RUN: grep -c "barrier.cluster.arrive;" %t/isaac_gemm_f16_nn_wgmma_ml64_nl32_wm64_wn32_u64_kl1_kg4_v8_st4_kc1_ws1.ptx | FileCheck %s --check-prefix=KCWS
// RUN: grep -c "barrier.cluster.wait;" %t/isaac_gemm_f16_nn_wgmma_ml64_nl32_wm64_wn32_u64_kl1_kg4_v8_st4_kc1_ws1.ptx | FileCheck %s --check-prefix=KCWS
// KCWS: 4
// RUN: %ptxas -arch=sm_90a -v %t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm64_wn256_u64_kl1_kg1_v8_st4_ws1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSPILL
// NOSPILL: 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NEXT: Used 168 registers
//
// Warp-specialized in clusters of two blocks along M (cm = 2, ws = 1: the
// cluster form of docs/perf.md, "Rows off sectors"): the empty barriers
// count both blocks' 8 computing warps; every thread of the cluster meets
// at a cluster barrier after the fenced initialization; the producer
// multicasts its half of B's tile and, like the computing warps at the end
// of their loop, joins one more cluster barrier before leaving (no block
// exits while the other's warps may still release its stages): three in
// all.
// RUN: FileCheck %s --check-prefix=CMWS --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm128_wn128_u64_kl1_kg1_v8_st4_cm2_ws1.ptx
// CMWS: // isaac.kernel name=isaac_gemm_f16_nt_wgmma_ml128_nl256_wm128_wn128_u64_kl1_kg1_v8_st4_cm2_ws1 {{.*}} stages=4 cm=2 ws=1 threads=384
// CMWS: .explicitcluster
// CMWS-NEXT: .reqnctapercluster 2, 1, 1
// CMWS: mov.b32 [[EMPTY:%r[0-9]+]], 16;
// CMWS: mbarrier.init.shared.b64 [{{.*}}_smem+196640], [[EMPTY]];
// CMWS: fence.mbarrier_init.release.cluster;
// CMWS: barrier.cluster.arrive;
// CMWS-NEXT: barrier.cluster.wait;
// CMWS: setmaxnreg.dec.sync.aligned.u32 40;
// CMWS: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// CMWS: barrier.cluster.arrive;
// CMWS-NEXT: barrier.cluster.wait;
// CMWS: setmaxnreg.inc.sync.aligned.u32 232;
// CMWS: mapa.shared::cluster.u64
// RUN: grep -c "barrier.cluster.arrive;" %t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm128_wn128_u64_kl1_kg1_v8_st4_cm2_ws1.ptx | FileCheck %s --check-prefix=CMWSBAR
// CMWSBAR: 3
//
// Persistent tiles (pt = 1): the producer's thread and the computing warps
// each loop over the output tiles from %ctaid.x by %nctaid.x; the stage
// and phase run on from tile to tile. The computing warps stage the
// epilogue's stores in their own 2304-byte regions after the mbarriers
// (65536 + 64 rounded up to 65664; smem = 65664 + 4 * 2304), since the
// producer refills the stages meanwhile. .maxnreg 128 keeps the two blocks
// an SM of the plain kernel (persistentRegisterBound).
// RUN: FileCheck %s --check-prefix=PT --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1_pt1.ptx
// PT: // isaac.kernel name=isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1_pt1 {{.*}} stages=4 ws=1 pt=1 threads=256 smem=74880
// PT: .maxnreg 128
// PT: bar.sync 0;
// PT: mov.u32 {{%r[0-9]+}}, %ctaid.x;
// PT: mov.u32 {{%r[0-9]+}}, %nctaid.x;
// PT: cp.async.bulk.tensor.3d
// PT: mov.u32 {{%r[0-9]+}}, %ctaid.x;
// PT: mov.u32 {{%r[0-9]+}}, %nctaid.x;
// PT: wgmma.mma_async
// RUN: FileCheck %s --check-prefix=PTSTAGE --input-file=%t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ws1_pt1.ptx
// PTSTAGE-DAG: mul.lo.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2304;
// PTSTAGE-DAG: ld.shared.v4.b32 {{.*}}+65664];
// PTSTAGE-DAG: st.global.v4.b32
// Two computing warpgroups: the register split as without pt (no spill),
// its staging regions after the mbarriers: 4 * 48 KiB + 128 + 8 * 2304.
// RUN: FileCheck %s --check-prefix=PTSPLIT --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm64_wn256_u64_kl1_kg1_v8_st4_ws1_pt1.ptx
// PTSPLIT: threads=384 smem=215168
// PTSPLIT: .maxnreg 168
// PTSPLIT: setmaxnreg.inc.sync.aligned.u32 232;
// RUN: %ptxas -arch=sm_90a -v %t/isaac_gemm_f16_nt_wgmma_ml128_nl256_wm64_wn256_u64_kl1_kg1_v8_st4_ws1_pt1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSPILL
// Ping-pong (pt = 2): two computing warpgroups of a 128x128 tile each and
// the producer (384 threads); warpgroup w takes the block's tiles w, w + 2,
// ..., waits at barrier 2 + w for the other's wgmmas of the tile before
// (from its second tile on) and lets the other start after its own (bar.arrive
// 3 - w). Each output tile's first k-step overwrites the accumulators
// (scale-d = 0: two m64 wgmmas), so that no other instruction writes
// them and ptxas keeps the wgmmas asynchronous (no C7520 serialization).
// RUN: FileCheck %s --check-prefix=PP --input-file=%t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm128_wn128_u64_kl1_kg1_v8_st5_ws1_pt2.ptx
// PP: {{.*}} stages=5 ws=1 pt=2 threads=384
// PP-DAG: bar.sync 2, 256;
// PP-DAG: bar.sync 3, 256;
// PP-DAG: bar.arrive 2, 256;
// PP-DAG: bar.arrive 3, 256;
// RUN: grep -c "setp.ne.b32 p, 0, 0;" %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm128_wn128_u64_kl1_kg1_v8_st5_ws1_pt2.ptx | FileCheck %s --check-prefix=OVERWRITE
// OVERWRITE: 2
// RUN: %ptxas -arch=sm_90a -v %t/isaac_gemm_f16_nt_wgmma_ml128_nl128_wm128_wn128_u64_kl1_kg1_v8_st5_ws1_pt2.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASYNC
// ASYNC-NOT: C7520
// ASYNC: used 4 barriers
//
// The fused bias + relu epilogue (in f16, NaN-propagating as maximumf) after
// the last wgmma group.
// RUN: cat %t/isaac_gemm_f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl1_kg1_v8_st4_ep*.ptx | FileCheck %s --check-prefix=EPI
// EPI: wgmma.wait_group.sync.aligned 0;
// EPI: max.NaN.f16

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

module attributes {isaac.target = "sm_90a"} {
func.func @layouts(%A: memref<257x130xf16>, %At: memref<130x257xf16>,
                   %B: memref<130x129xf16>, %Bt: memref<129x130xf16>,
                   %C: memref<257x129xf32>, %H: memref<257x129xf16>,
                   %Ab: memref<130x257xbf16>, %Bb: memref<129x130xbf16>,
                   %Cb: memref<257x129xbf16>) {
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%C : memref<257x129xf32>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 32, wm = 64, wn = 16, u = 32, kl = 1, kg = 2, vec = 8, stages = 3>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%At, %B : memref<130x257xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 2, kg = 1, vec = 8, stages = 5>}
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%Ab, %Bb : memref<130x257xbf16>, memref<129x130xbf16>) outs(%Cb : memref<257x129xbf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 256, nl = 64, wm = 128, wn = 64, u = 64, kl = 1, kg = 1, vec = 4, stages = 3>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 32, wm = 64, wn = 32, u = 32, kl = 1, kg = 4, vec = 8, stages = 3>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 2, vec = 8, stages = 4, cm = 2>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 32, wm = 64, wn = 32, u = 64, kl = 1, kg = 4, vec = 8, stages = 4, kc = 1>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 64, wn = 256, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 32, wm = 64, wn = 32, u = 64, kl = 1, kg = 4, vec = 8, stages = 4, kc = 1, ws = 1>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1, pt = 1>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 64, wn = 256, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1, pt = 1>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 5, ws = 1, pt = 2>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, cm = 2, ws = 1>}
  return
}

// A fused bias + relu epilogue, f16 in and out.
func.func @fused(%x: tensor<100x264xf16>, %w: tensor<264x72xf16>, %b: tensor<72xf16>) -> tensor<100x72xf16> {
  %e = tensor.empty() : tensor<100x72xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<100x72xf16>) -> tensor<100x72xf16>
  %mm = linalg.matmul {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>} ins(%x, %w : tensor<100x264xf16>, tensor<264x72xf16>) outs(%f : tensor<100x72xf16>) -> tensor<100x72xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<100x72xf16>, tensor<72xf16>) outs(%e : tensor<100x72xf16>) {
  ^bb0(%v: f16, %bias: f16, %o: f16):
    %s = arith.addf %v, %bias : f16
    %y = arith.maximumf %s, %z : f16
    linalg.yield %y : f16
  } -> tensor<100x72xf16>
  return %r : tensor<100x72xf16>
}

// A batched bf16 GEMM with no configuration: ranked by the shipped wgmma
// model (models/sm_90a/gemm-bf16.mlp).
func.func @selected(%a: tensor<4x96x80xbf16>, %bb: tensor<4x80x48xbf16>, %cb: tensor<4x96x48xf32>) -> tensor<4x96x48xf32> {
  %r2 = linalg.batch_matmul ins(%a, %bb : tensor<4x96x80xbf16>, tensor<4x80x48xbf16>) outs(%cb : tensor<4x96x48xf32>) -> tensor<4x96x48xf32>
  return %r2 : tensor<4x96x48xf32>
}
}
