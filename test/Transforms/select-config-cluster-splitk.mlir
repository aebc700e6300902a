// isaac-select-config gives kc = 1 to the configurations it returns where
// the measured rule says (withClusterSplitK): a wgmma one of KG 2 to 8 (the
// DeepBench GEMM below: the shipped f16 model's first choice splits K 2
// to 8 ways), never an f64 one (its split adds into C with atomics).
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=3" -mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=SELECT

module attributes {isaac.target = "sm_90a"} {
// SELECT-LABEL: func.func @deepbench
// SELECT: isaac.config = #isaac.gemm<family = wgmma, {{.*}}kg = {{[248]}}, {{.*}}, kc = 1{{(, ws = 1)?}}>
// SELECT-LABEL: func.func @f64
// SELECT-NOT: kc = 1
// SELECT: isaac.config = #isaac.gemm<family = mma, {{.*}}kg = 8,
// SELECT-NOT: kc = 1
func.func @deepbench(%A: memref<2560x2560xf16>, %B: memref<2560x16xf16>, %C: memref<2560x16xf16>) {
  linalg.matmul ins(%A, %B : memref<2560x2560xf16>, memref<2560x16xf16>) outs(%C : memref<2560x16xf16>)
  return
}
func.func @f64(%A: memref<2560x2560xf64>, %B: memref<2560x16xf64>, %C: memref<2560x16xf64>) {
  linalg.matmul ins(%A, %B : memref<2560x2560xf64>, memref<2560x16xf64>) outs(%C : memref<2560x16xf64>)
  return
}
}
