// RUN: isaac-opt %s --pass-pipeline="builtin.module(gpu.module(isaac-legalize-math))" | FileCheck %s
// After convert-gpu-to-nvvm, only what is left for libdevice calls it: the
// f32 functions and the ops NVPTX runs natively call nothing.
// RUN: isaac-opt %s --pass-pipeline="builtin.module(gpu.module(isaac-legalize-math,convert-gpu-to-nvvm))" | FileCheck %s --check-prefix=NVVM
// NVVM-NOT: __nv_{{(tanh|erf|exp|log|fabs|fma|copysign|floor|ceil|sqrt|rint|trunc)f}}
// NVVM-NOT: __nv_fabs(
// NVVM: llvm.func @__nv_powf
// NVVM-NOT: __nv_{{(tanh|erf|exp|log|fabs|fma|copysign|floor|ceil|sqrt|rint|trunc)f}}
// NVVM: llvm.func @__nv_tanh(
// NVVM-NOT: __nv_{{(tanh|erf|exp|log|fabs|fma|copysign|floor|ceil|sqrt|rint|trunc)f}}

// f32 transcendental functions become polynomial approximations (arith
// only); rsqrt, exp2 and powf with a small integer exponent are rewritten;
// f16 goes through f32; f64 is left for libdevice.
module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: func.func @f32_functions
    // CHECK-NOT: math.tanh
    // CHECK-NOT: math.erf
    // CHECK-NOT: math.exp
    // CHECK-NOT: math.log
    // CHECK: return
    func.func @f32_functions(%x: f32) -> (f32, f32, f32, f32) {
      %a = math.tanh %x : f32
      %b = math.erf %x : f32
      %c = math.exp %x : f32
      %d = math.log %x : f32
      return %a, %b, %c, %d : f32, f32, f32, f32
    }

    // CHECK-LABEL: func.func @rewrites
    // CHECK: %[[S:.*]] = llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" %arg0 : (f32) -> f32
    // CHECK: arith.divf %{{.*}}, %[[S]] : f32
    // CHECK-NOT: math.exp2
    // CHECK-NOT: math.powf %arg0, %{{.*}} : f32
    // x^3 by square-and-multiply: x, then x*x.
    // CHECK: %[[X2:.*]] = arith.mulf %arg0, %arg0 : f32
    // CHECK: arith.mulf %{{.*}}, %[[X2]] : f32
    // A non-integer exponent stays (libdevice).
    // CHECK: math.powf %arg0, %{{.*}} : f32
    func.func @rewrites(%x: f32) -> (f32, f32, f32, f32) {
      %r = math.rsqrt %x : f32
      %e = math.exp2 %x : f32
      %c3 = arith.constant 3.0 : f32
      %p = math.powf %x, %c3 : f32
      %ch = arith.constant 0.5 : f32
      %q = math.powf %x, %ch : f32
      return %r, %e, %p, %q : f32, f32, f32, f32
    }

    // Ops NVPTX has instructions for: sign-bit arithmetic, intrinsics or
    // one PTX instruction, f32 and f64.
    // CHECK-LABEL: func.func @native
    // CHECK: %[[XI:.*]] = arith.bitcast %arg0 : f32 to i32
    // CHECK: %[[A:.*]] = arith.andi %[[XI]], %c2147483647_i32 : i32
    // CHECK: llvm.intr.fma(
    // CHECK: arith.andi %{{.*}}, %c-2147483648_i32 : i32
    // CHECK: arith.ori
    // CHECK: llvm.inline_asm "cvt.rmi.f32.f32 $0, $1;", "=f,f"
    // CHECK: llvm.inline_asm "cvt.rpi.f32.f32 $0, $1;", "=f,f"
    // CHECK: llvm.inline_asm "cvt.rni.f32.f32 $0, $1;", "=f,f"
    // CHECK: llvm.intr.trunc(
    // CHECK: arith.bitcast %arg1 : f64 to i64
    // CHECK: llvm.inline_asm "sqrt.rn.f64 $0, $1;", "=d,d"
    // CHECK-NOT: math.
    // CHECK: return
    func.func @native(%x: f32, %d: f64) -> (f32, f64) {
      %a = math.absf %x : f32
      %b = math.fma %a, %x, %x : f32
      %c = math.copysign %b, %x : f32
      %e = math.floor %c : f32
      %f = math.ceil %e : f32
      %g = math.roundeven %f : f32
      %i = math.trunc %g : f32
      %j = math.absf %d : f64
      %k = math.sqrt %j : f64
      return %i, %k : f32, f64
    }

    // CHECK-LABEL: func.func @f16_and_f64
    // CHECK: arith.extf %arg0 : f16 to f32
    // CHECK-NOT: math.tanh %{{.*}} : f32
    // CHECK: arith.truncf %{{.*}} : f32 to f16
    // CHECK: math.tanh %arg1 : f64
    func.func @f16_and_f64(%h: f16, %d: f64) -> (f16, f64) {
      %a = math.tanh %h : f16
      %b = math.tanh %d : f64
      return %a, %b : f16, f64
    }
  }
}
