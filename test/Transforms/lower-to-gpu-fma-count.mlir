// The unrolled stream of one staged tile has MS*NS*U/KL FMAs per thread
// (each KL group reduces U/KL of the tile), whatever KS is.
// RUN: isaac-opt %s --isaac-lower-to-gpu | grep -c llvm.intr.fma | FileCheck %s --check-prefix=FMA512
// RUN: sed -e 's/kl = 1/kl = 2/' %s | isaac-opt --isaac-lower-to-gpu | grep -c llvm.intr.fma | FileCheck %s --check-prefix=FMA256
// RUN: sed -e 's/ks = 1/ks = 2/' %s | isaac-opt --isaac-lower-to-gpu | grep -c llvm.intr.fma | FileCheck %s --check-prefix=FMA512
// RUN: sed -e 's/ms = 8, ns = 8/ms = 2, ns = 4/' -e 's/ml = 64, nl = 64/ml = 32, nl = 32/' %s | isaac-opt --isaac-lower-to-gpu | grep -c llvm.intr.fma | FileCheck %s --check-prefix=FMA64
// FMA512: {{^}}512{{$}}
// FMA256: {{^}}256{{$}}
// FMA64: {{^}}64{{$}}
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}
