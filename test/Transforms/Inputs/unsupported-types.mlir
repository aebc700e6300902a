// GEMMs whose element types isaac does not compile: pipeline-mma.mlir
// compiles them with and without strict=true.
func.func @f16_into_f64(%a: tensor<64x64xf16>, %b: tensor<64x32xf16>, %c: tensor<64x32xf64>) -> tensor<64x32xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x32xf16>) outs(%c : tensor<64x32xf64>) -> tensor<64x32xf64>
  return %r : tensor<64x32xf64>
}
