// One f16 GEMM for chip sm_90a (the chip that has wgmma): the input of
// test/Model/mlp-family.test.
module attributes {isaac.target = "sm_90a"} {
func.func @deepbench(%A: memref<2560x2560xf16>, %B: memref<2560x64xf16>, %C: memref<2560x64xf16>) {
  linalg.matmul ins(%A, %B : memref<2560x2560xf16>, memref<2560x64xf16>) outs(%C : memref<2560x64xf16>)
  return
}
}
