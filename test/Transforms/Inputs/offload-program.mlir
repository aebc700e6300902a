// A small program as a DL compiler emits it (functions on tensors, dynamic
// shapes, constants, loops), for the end-to-end tests of the generic GPU
// path (offload-e2e*.mlir).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>

// A dense layer: the GEMM is isaac's, the fill, bias and ReLU (repeated in
// a loop) run on the generic path; the bias is a host constant.
func.func @dense(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>, %n: index) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<32xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x128xf32>, tensor<128x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %mm) -> tensor<64x32xf32> {
    %e2 = tensor.empty() : tensor<64x32xf32>
    %g = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%t, %bias : tensor<64x32xf32>, tensor<32xf32>) outs(%e2 : tensor<64x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<64x32xf32>
    scf.yield %g : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// Dynamic shapes: a GEMM isaac cannot take, a row sum and a sum of all.
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %er = tensor.empty(%m) : tensor<?xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %rows = linalg.reduce ins(%c : tensor<?x?xf32>) outs(%fr : tensor<?xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  %es = tensor.empty() : tensor<f32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %all = linalg.reduce ins(%rows : tensor<?xf32>) outs(%fs : tensor<f32>) dimensions = [0]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  return %rows, %all : tensor<?xf32>, tensor<f32>
}

// A convolution isaac does not compile (depthwise) in f16, and a transpose.
func.func @conv(%in: tensor<1x18x18x8xf16>, %k: tensor<3x3x8xf16>) -> tensor<1x16x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x16x16x8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x16x16x8xf16>) -> tensor<1x16x16x8xf16>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %k : tensor<1x18x18x8xf16>, tensor<3x3x8xf16>) outs(%f : tensor<1x16x16x8xf16>) -> tensor<1x16x16x8xf16>
  %et = tensor.empty() : tensor<1x16x16x8xf16>
  %t = linalg.transpose ins(%c : tensor<1x16x16x8xf16>) outs(%et : tensor<1x16x16x8xf16>) permutation = [0, 2, 1, 3]
  return %t : tensor<1x16x16x8xf16>
}

// Two buffers swapped through a loop: the deallocation pipeline's helper
// keeps its pointer and flag arrays on the host.
func.func @swap(%a: tensor<16xf32>, %b: tensor<16xf32>, %n: index, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a, %u = %b) -> (tensor<16xf32>, tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %g = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
        ins(%t, %u : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    } -> tensor<16xf32>
    %s = arith.select %c, %g, %t : tensor<16xf32>
    scf.yield %s, %g : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}
