// A GEMM isaac cannot tune (dynamic shapes): pipeline-tensors.mlir compiles
// it with and without strict=true.
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>, %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>) outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
