// RUN: isaac-opt %s --isaac-offload -split-input-file -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-offload="block-size=128" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=B128

// A fill of 64x32 elements: the two dimensions are collapsed into one of
// 2048 iterations, the column (innermost) index fastest; 8 blocks of 256
// threads (16 of 128 with block-size=128).
// CHECK-LABEL: func.func @fill(
// CHECK-SAME: %[[C:[a-z0-9_]+]]: memref<64x32xf32>
// CHECK: gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %c256
// CHECK: %[[I:.*]] = arith.addi %[[TX]], %[[BASE]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c2048
// CHECK: scf.if %[[IN]] {
// CHECK: %[[COL:.*]] = arith.remsi %[[I]], %c32
// CHECK: %[[ROW:.*]] = arith.divsi %[[I]], %c32
// CHECK: memref.store %{{.*}}, %[[C]][%[[ROW]], %[[COL]]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// B128-LABEL: func.func @fill(
// B128: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1, %{{.*}} = %c1)
func.func @fill(%c: memref<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{isaac: 'linalg.fill' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  linalg.fill ins(%zero : f32) outs(%c : memref<64x32xf32>)
  return
}

// -----

// Dynamic shapes: the grid is computed on the host, and a launch of zero
// blocks (an empty tensor) is skipped. The bias is indexed by the column.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?x?xf32>, %[[B:[a-z0-9_]+]]: memref<?xf32>, %[[Y:[a-z0-9_]+]]: memref<?x?xf32>
// CHECK-DAG: %[[M:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[TOTAL:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ne, %[[GRID:[0-9]+]], %c0
// CHECK: scf.if %[[NONEMPTY]] {
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]], {{.*}} threads({{.*}}) in (%{{.*}} = %c256
// Sizes are read in the kernel rather than passed to it.
// CHECK: %[[NK:.*]] = memref.dim %[[X]], %c1
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]]
// CHECK: %[[COL:.*]] = arith.remsi %{{.*}}, %[[NK]]
// CHECK: %[[ROW:.*]] = arith.divsi %{{.*}}, %[[NK]]
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK: %[[BV:.*]] = memref.load %[[B]][%[[COL]]]
// CHECK: %[[S:.*]] = arith.addf %[[XV]], %[[BV]]
// CHECK: %[[R:.*]] = arith.maximumf %[[S]]
// CHECK: memref.store %[[R]], %[[Y]][%[[ROW]], %[[COL]]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%x: memref<?x?xf32>, %b: memref<?xf32>, %y: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{isaac: 'linalg.generic' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<?x?xf32>, memref<?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Named elementwise operations; 100 elements: one block of 100 threads, no
// guard.
// CHECK-LABEL: func.func @named(
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads(%[[T:[a-z0-9_]+]], {{.*}}) in (%{{.*}} = %c100,
// CHECK-NOT: scf.if
// CHECK: arith.addf
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: arith.maximumf
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: math.exp
// CHECK: gpu.terminator
func.func @named(%a: memref<100xf32>, %b: memref<100xf32>, %c: memref<100xf32>) {
  // expected-remark @below {{isaac: 'linalg.add' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  linalg.add ins(%a, %b : memref<100xf32>, memref<100xf32>) outs(%c : memref<100xf32>)
  // expected-remark @below {{isaac: 'linalg.max' runs on the generic GPU path}}
  linalg.max ins(%a, %b : memref<100xf32>, memref<100xf32>) outs(%c : memref<100xf32>)
  // expected-remark @below {{isaac: 'linalg.elementwise' runs on the generic GPU path}}
  linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : memref<100xf32>) outs(%c : memref<100xf32>)
  return
}

// -----

// A row sum: one thread per row, the reduction a loop in the thread.
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?x?xf32>, %[[S:[a-z0-9_]+]]: memref<?xf32>
// CHECK: gpu.launch
// CHECK-DAG: %[[M:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]]
// CHECK: memref.load %[[X]][%[[ROW]], %[[K]]]
// CHECK: memref.load %[[S]][%[[ROW]]]
// CHECK: memref.store %{{.*}}, %[[S]][%[[ROW]]]
func.func @row_sum(%x: memref<?x?xf32>, %s: memref<?xf32>) {
  // expected-remark @below {{isaac: 'linalg.generic' runs on the generic GPU path}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A column sum (reduction dimension first): the parallel dimension is
// moved outermost, so one kernel sums every column rather than a host loop
// launching one kernel per row.
// CHECK-LABEL: func.func @column_sum(
// CHECK-NOT: scf.for
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads(%[[T:[a-z0-9_]+]], {{.*}}) in (%{{.*}} = %c64,
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c128
// CHECK: memref.load %{{.*}}[%[[R]], %[[T]]] : memref<128x64xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[T]]] : memref<64xf32>
func.func @column_sum(%x: memref<128x64xf32>, %s: memref<64xf32>) {
  // expected-remark @below {{isaac: 'linalg.reduce' runs on the generic GPU path}}
  linalg.reduce ins(%x : memref<128x64xf32>) outs(%s : memref<64xf32>) dimensions = [0]
    (%a: f32, %o: f32) {
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
  return
}

// -----

// A full reduction to a 0-d buffer has no parallel dimension: one thread.
// CHECK-LABEL: func.func @full_sum(
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
func.func @full_sum(%x: memref<?x?xf32>, %s: memref<f32>) {
  // expected-remark @below {{isaac: 'linalg.generic' runs on the generic GPU path}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A transpose iterates over the output: consecutive threads write
// consecutive elements.
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<48x96xf32>, %[[Y:[a-z0-9_]+]]: memref<96x48xf32>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c18,
// CHECK: %[[J:.*]] = arith.remsi %{{.*}}, %c48
// CHECK: %[[I:.*]] = arith.divsi %{{.*}}, %c48
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[J]], %[[I]]]
// CHECK: memref.store %[[V]], %[[Y]][%[[I]], %[[J]]]
func.func @transpose(%x: memref<48x96xf32>, %y: memref<96x48xf32>) {
  // expected-remark @below {{isaac: 'linalg.transpose' runs on the generic GPU path}}
  linalg.transpose ins(%x : memref<48x96xf32>) outs(%y : memref<96x48xf32>) permutation = [1, 0]
  return
}

// -----

// GEMMs isaac does not take run here, and the remark says why isaac did
// not take them.
// CHECK-LABEL: func.func @matmuls(
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}} : f32
// CHECK: gpu.launch
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.mulf %{{.*}} : f64
// CHECK: gpu.launch
// CHECK: arith.mulf %{{.*}} : f32
// CHECK: gpu.launch
// CHECK: arith.mulf %{{.*}} : f32
// CHECK: gpu.launch
// CHECK: arith.mulf %{{.*}} : f64
// CHECK-NOT: linalg.
func.func @matmuls(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>,
                   %ah: memref<64x64xf16>, %bh: memref<64x64xf16>, %ch: memref<64x64xf64>,
                   %as: memref<64x64xf32, strided<[128, 2]>>, %bs: memref<64x64xf32>, %cs: memref<64x64xf32>,
                   %ad: memref<2x8x4xf64>, %bd: memref<2x4x8xf64>, %cd: memref<2x8x8xf64>) {
  // expected-remark @below {{isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported (kernel configurations are chosen per static shape)}}
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  // expected-remark @below {{isaac: 'linalg.matmul' runs on the generic GPU path (untuned): an output of f64 with f16 operands is not supported (C of the operands' type, or f32)}}
  linalg.matmul ins(%ah, %bh : memref<64x64xf16>, memref<64x64xf16>) outs(%ch : memref<64x64xf64>)
  // A configuration isaac-lower-to-gpu could not use: its reason.
  // expected-remark @below {{isaac: 'linalg.matmul' runs on the generic GPU path (untuned): operands must be contiguous along their innermost dimension (unit innermost stride)}}
  linalg.matmul ins(%as, %bs : memref<64x64xf32, strided<[128, 2]>>, memref<64x64xf32>) outs(%cs : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>}
  // A GEMM isaac would take, had the passes before run.
  // expected-remark @below {{isaac: 'linalg.matmul' runs on the generic GPU path (untuned): no isaac.config (run isaac-select-config first)}}
  linalg.matmul ins(%bs, %bs : memref<64x64xf32>, memref<64x64xf32>) outs(%cs : memref<64x64xf32>)
  // expected-remark @below {{isaac: 'linalg.batch_matmul' runs on the generic GPU path (untuned): it carries an isaac.config but isaac-lower-to-gpu did not run before isaac-offload}}
  linalg.batch_matmul ins(%ad, %bd : memref<2x8x4xf64>, memref<2x4x8xf64>) outs(%cd : memref<2x8x8xf64>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 4, ks = 1, kl = 1, kg = 1, vec = 1>}
  return
}

// -----

// A convolution: the four output dimensions collapsed (channel fastest),
// the filter window and input channels loops in each thread.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %[[IN:[a-z0-9_]+]]: memref<1x34x34x16xf32>, %[[F:[a-z0-9_]+]]: memref<3x3x16x32xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x32x32x32xf32>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c128,
// CHECK: arith.cmpi ult, %{{.*}}, %c32768
// CHECK: %[[CH:.*]] = arith.remsi %{{.*}}, %c32
// CHECK: %[[R1:.*]] = arith.divsi %{{.*}}, %c32
// CHECK: %[[OW:.*]] = arith.remsi %[[R1]], %c32
// CHECK: %[[R2:.*]] = arith.divsi %[[R1]], %c32
// CHECK: %[[OH:.*]] = arith.remsi %[[R2]], %c32
// CHECK: %[[NB:.*]] = arith.divsi %[[R2]], %c32
// CHECK: scf.for %[[KH:.*]] = %{{.*}} to %c3
// CHECK: scf.for %[[KW:.*]] = %{{.*}} to %c3
// CHECK: scf.for %[[CI:.*]] = %{{.*}} to %c16
// CHECK: memref.load %[[IN]][%[[NB]], %{{.*}}, %{{.*}}, %[[CI]]]
// CHECK: memref.load %[[F]][%[[KH]], %[[KW]], %[[CI]], %[[CH]]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[NB]], %[[OH]], %[[OW]], %[[CH]]]
func.func @conv(%in: memref<1x34x34x16xf32>, %f: memref<3x3x16x32xf32>, %out: memref<1x32x32x32xf32>) {
  // expected-remark @below {{isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path (untuned): no isaac.config (run isaac-select-config first)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : memref<1x34x34x16xf32>, memref<3x3x16x32xf32>) outs(%out : memref<1x32x32x32xf32>)
  return
}

// -----

// Operations inside host loops: the launch is inside the loop.
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: arith.mulf
// CHECK: gpu.terminator
func.func @in_loop(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{isaac: 'linalg.generic' runs on the generic GPU path}}
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%x : memref<?xf32>) {
    ^bb0(%o: f32):
      %r = arith.mulf %o, %two : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// A parallel loop written on the host, with a step: its two dimensions are
// collapsed (4 x n iterations); the nested parallel loop and the linalg
// operation inside run sequentially in each thread.
// CHECK-LABEL: func.func @user_parallel(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<8x?x4xf32>
// CHECK: %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %c4
// CHECK: gpu.launch
// CHECK: %[[NK:.*]] = memref.dim %[[X]], %c1
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]]
// CHECK: %[[J:.*]] = arith.remsi %{{.*}}, %[[NK]]
// CHECK: %[[I0:.*]] = arith.divsi %{{.*}}, %[[NK]]
// CHECK: %[[I:.*]] = arith.muli %[[I0]], %c2
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c4
// CHECK: memref.store %{{.*}}, %[[X]][%[[I]], %[[J]], %[[K]]]
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NOT: scf.parallel
// CHECK-NOT: linalg.
func.func @user_parallel(%x: memref<8x?x4xf32>, %row: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %x, %c1 : memref<8x?x4xf32>
  // expected-remark @below {{isaac: 'scf.parallel' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %n) step (%c2, %c1) {
    scf.parallel (%k) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %x[%i, %j, %k] : memref<8x?x4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i, %j, %k] : memref<8x?x4xf32>
    }
    %sub = memref.subview %x[%i, %j, 0] [1, 1, 4] [1, 1, 1] : memref<8x?x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.copy ins(%row : memref<4xf32>) outs(%sub : memref<4xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// Copies: one gpu.memcpy between identity layouts (no remark: not a
// kernel), a copy kernel otherwise; copies between host-only buffers (read
// and written by the CPU) stay on the host.
// CHECK-LABEL: func.func @copies(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<16x16xf32>, %[[B:[a-z0-9_]+]]: memref<16x16xf32>, %[[S:[a-z0-9_]+]]: memref<4x16xf32, strided<[16, 1], offset: 32>>
// CHECK: gpu.memcpy %[[B]], %[[A]] : memref<16x16xf32>, memref<16x16xf32>
// CHECK: %[[SUB:.*]] = memref.subview %[[A]]
// CHECK: gpu.launch
// CHECK: %[[V:.*]] = memref.load %[[S]]
// CHECK: memref.store %[[V]], %[[SUB]]
// CHECK: gpu.terminator
// CHECK: %[[H1:.*]] = memref.alloc
// CHECK: %[[H2:.*]] = memref.alloc
// CHECK: memref.copy %[[H1]], %[[H2]]
// CHECK-NOT: gpu.
// CHECK: return
func.func @copies(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %s: memref<4x16xf32, strided<[16, 1], offset: 32>>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  memref.copy %a, %b : memref<16x16xf32> to memref<16x16xf32>
  %sub = memref.subview %a[2, 0] [4, 16] [1, 1] : memref<16x16xf32> to memref<4x16xf32, strided<[16, 1], offset: 32>>
  // expected-remark @below {{isaac: 'memref.copy' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  memref.copy %s, %sub : memref<4x16xf32, strided<[16, 1], offset: 32>> to memref<4x16xf32, strided<[16, 1], offset: 32>>
  %h1 = memref.alloc(%n) : memref<?xf32>
  %h2 = memref.alloc(%n) : memref<?xf32>
  memref.copy %h1, %h2 : memref<?xf32> to memref<?xf32>
  %v = memref.load %h2[%c0] : memref<?xf32>
  memref.store %v, %h1[%c0] : memref<?xf32>
  memref.dealloc %h1 : memref<?xf32>
  memref.dealloc %h2 : memref<?xf32>
  return %v : f32
}

// -----

// What already runs on the GPU is left alone: linalg in gpu.module
// functions and in gpu.launch bodies, and isaac's own launches.
// CHECK-LABEL: gpu.module @dev
// CHECK: linalg.fill
// CHECK-LABEL: func.func @untouched(
// CHECK: gpu.launch
// CHECK: linalg.fill
// CHECK: isaac.launch_gemm
module attributes {gpu.container_module} {
  gpu.module @dev {
    func.func @device_helper(%x: memref<4xf32>) {
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%x : memref<4xf32>)
      return
    }
  }
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @untouched(%x: memref<4xf32>, %a: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%x : memref<4xf32>)
      gpu.terminator
    }
    isaac.launch_gemm @k::@k(%a, %a, %a) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      trans_a = false, trans_b = false} : memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>
    return
  }
}

// -----

// An operation over no element at all launches nothing.
// CHECK-LABEL: func.func @empty(
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @empty(%x: memref<0x16xf32>) {
  %z = arith.constant 0.0 : f32
  // expected-remark @below {{isaac: 'linalg.fill' runs on the generic GPU path}}
  linalg.fill ins(%z : f32) outs(%x : memref<0x16xf32>)
  return
}
