//===- ConvInputTaps.h - A convolution's input as an implicit GEMM A -*- C++
//-*-===//
//
// Private to lib/Transforms: the one home of a conv kernel's addressing,
// shared by both kernel families (GemmKernelBuilder.cpp's simt fetch and
// MmaKernelBuilder.cpp's cp.async fetch). It reads the CONV_ARG arguments
// of KernelABI.def, derives the implicit GEMM's sizes from them and maps a
// (row, reduction index) of the implicit A to an element of the NHWC input
// and whether that element lies inside the input (the halo predicate).
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_LIB_TRANSFORMS_CONVINPUTTAPS_H
#define ISAAC_LIB_TRANSFORMS_CONVINPUTTAPS_H

#include "KernelEmitter.h"

#include "isaac/Model/ConvShape.h"
#include "isaac/Runtime/KernelABI.h"

namespace mlir::isaac {

/// A convolution kernel's arguments (CONV_ARG) and the implicit GEMM they
/// describe (ConvShape::gemmShape; ConvShape::validate keeps M and K below
/// 2^31): M = N*P*Q, N = K, K = C*R*S; the filters are K x N (hwcf,
/// ld = K) or N x K (fhwc, ld = C*R*S), the output NPQ x K (ld = K).
struct ConvKernelArgs {
  Value O, I, F, ws, alpha, beta;
  Value N, H, W, C, K, P, Q, R, S, sh, sw, dh, dw, padT, padL;
  Value gemmM, gemmN, gemmK, ldb, ldc;

  static ConvKernelArgs bind(KernelEmitter &e, ValueRange args,
                             ::isaac::ConvLayout layout) {
    namespace carg = ::isaac::abi::conv;
    ConvKernelArgs a;
    a.O = args[carg::O];
    a.I = args[carg::I];
    a.F = args[carg::F];
    a.ws = args[carg::ws];
    a.alpha = args[carg::alpha];
    a.beta = args[carg::beta];
    a.N = args[carg::N];
    a.H = args[carg::H];
    a.W = args[carg::W];
    a.C = args[carg::C];
    a.K = args[carg::K];
    a.P = args[carg::P];
    a.Q = args[carg::Q];
    a.R = args[carg::R];
    a.S = args[carg::S];
    a.sh = args[carg::sh];
    a.sw = args[carg::sw];
    a.dh = args[carg::dh];
    a.dw = args[carg::dw];
    a.padT = args[carg::padT];
    a.padL = args[carg::padL];
    a.gemmM = e.mul(e.mul(a.N, a.P), a.Q);
    a.gemmN = a.K;
    a.gemmK = e.mul(e.mul(a.C, a.R), a.S);
    a.ldb = layout == ::isaac::ConvLayout::NhwcHwcf ? a.K : a.gemmK;
    a.ldc = a.K;
    return a;
  }
};

/// A convolution's NHWC input as the implicit GEMM's A (M = N*P*Q rows,
/// K = C*R*S with c fastest, then s, then r): element (npq, crs) is
///   I[n][p*sh - padT + r*dh][q*sw - padL + s*dw][c],
/// zero where the pixel lies outside H x W (the halo). The per-row part
/// ((n*H + p*sh - padT)*W + q*sw - padL)*C is computed once per block for
/// each of the thread's slots (prepare: a slot is one row the thread
/// fetches in every K tile); decompose() splits a reduction index into
/// (r, s, c) by invariant divisors, at() combines the two.
class ConvInputTaps {
public:
  ConvInputTaps(KernelEmitter &e, const ConvKernelArgs &a) : e(e), a(a) {}

  /// Division by a runtime value that is the same for the whole kernel (C,
  /// S) as a multiply-high and a shift instead of a ~20-instruction
  /// division (Granlund and Montgomery; CUTLASS's FastDivmod): for d >= 2,
  /// with p = 31 + ceil(log2 d) and m = ceil(2^p / d) (< 2^32),
  /// n / d = umulhi(n, m) >> (p - 32) for every n < 2^31, which covers the
  /// reduction indices (C*R*S < 2^31, ConvShape::validate); d = 1 is n.
  /// The constants cost one 64-bit division per thread, once.
  struct InvariantDivisor {
    Value d, m, shift, isOne;
  };
  InvariantDivisor makeDivisor(Value d) {
    InvariantDivisor v;
    v.d = d;
    v.isOne = e.eq(d, e.ci32(1));
    // ceil(log2 d) = 32 - clz(d - 1) for d >= 2.
    Value clz = LLVM::CountLeadingZerosOp::create(e.b, e.loc, e.i32,
                                                  e.sub(d, e.ci32(1)),
                                                  /*is_zero_poison=*/false);
    Value p = e.add(e.sub(e.ci32(32), clz), e.ci32(31));
    Value d64 = arith::ExtUIOp::create(e.b, e.loc, e.i64, d);
    Value pow = arith::ShLIOp::create(
        e.b, e.loc, e.ci64(1), arith::ExtUIOp::create(e.b, e.loc, e.i64, p));
    Value m64 = e.divu(e.add(pow, e.sub(d64, e.ci64(1))), d64);
    v.m = arith::TruncIOp::create(e.b, e.loc, e.i32, m64);
    // p - 32 is -1 for d = 1, whose quotient does not use it.
    v.shift = arith::SelectOp::create(e.b, e.loc, v.isOne, e.ci32(0),
                                      e.sub(p, e.ci32(32)));
    return v;
  }
  /// n / v.d and n % v.d for 0 <= n < 2^31.
  std::pair<Value, Value> divmod(const InvariantDivisor &v, Value n) {
    auto wide = arith::MulUIExtendedOp::create(e.b, e.loc, n, v.m);
    Value q = arith::ShRUIOp::create(e.b, e.loc, wide.getHigh(), v.shift);
    q = arith::SelectOp::create(e.b, e.loc, v.isOne, n, q);
    return {q, e.sub(n, e.mul(q, v.d))};
  }

  /// Whether vec-wide chunks of the implicit A (vec consecutive reduction
  /// indices from a multiple of vec) are vec contiguous channels of one
  /// tap, and the input is aligned for them (elements of `elemBytes`).
  Value vectorOk(int vec, int elemBytes) {
    Value ptr = LLVM::PtrToIntOp::create(e.b, e.loc, e.i64, a.I);
    return e.land(e.isMultiple(ptr, vec * elemBytes), e.isMultiple(a.C, vec));
  }

  /// The input pixel that row `row` of the implicit A reads at tap (0, 0):
  /// w = q*sw - padL and h = p*sh - padT (signed: negative in the padding
  /// above and left of the input), and the image n. Also an im2col tensor
  /// map's coordinates (docs/abi.md, "Tensor maps"), where rows past M give
  /// images past N, which TMA fills with zeros.
  struct Pixel {
    Value w, h, n;
  };
  Pixel pixelOf(Value row) {
    Value q = e.remu(row, a.Q);
    Value np = e.divu(row, a.Q);
    return {e.sub(e.mul(q, a.sw), a.padL),
            e.sub(e.mul(e.remu(np, a.P), a.sh), a.padT), e.divu(np, a.P)};
  }

  /// Once per block, before the main loop: the loop-invariant part of the
  /// address of each slot's row (rows past M are harmless: their loads are
  /// predicated off).
  void prepare(ArrayRef<Value> rows) {
    divC = makeDivisor(a.C);
    divS = makeDivisor(a.S);
    for (Value row : rows) {
      Pixel at = pixelOf(row);
      Value pixel =
          e.add(e.mul(e.add(e.mul(e.ext64(at.n), e.ext64(a.H)), e.ext64(at.h)),
                      e.ext64(a.W)),
                e.ext64(at.w));
      rowBase.push_back(e.mul(pixel, e.ext64(a.C)));
      hBase.push_back(at.h);
      wBase.push_back(at.w);
    }
  }

  /// A reduction index k = (r*S + s)*C + c decomposed: the filter tap's
  /// dilated offsets and the part of the element offset that depends on k
  /// only, ((r*dh)*W + s*dw)*C + c. Every slot a thread fetches at the same
  /// k (the copies of one thread usually differ only in their row) shares
  /// one Tap: the divisions are paid once per distinct k and K tile, not
  /// once per copy.
  struct Tap {
    Value dr, ds, off;
    Value ch; ///< the channel c
  };
  Tap decompose(Value k) {
    auto [rs, ch] = divmod(divC, k);
    auto [r, s] = divmod(divS, rs);
    Tap t;
    t.ch = ch;
    t.dr = e.mul(r, a.dh);
    t.ds = e.mul(s, a.dw);
    t.off =
        e.add(e.mul(e.add(e.mul(e.ext64(t.dr), e.ext64(a.W)), e.ext64(t.ds)),
                    e.ext64(a.C)),
              e.ext64(ch));
    return t;
  }

  /// The element offset (i64) of (slot's row, tap t) in the input and
  /// whether its pixel lies inside the input (i1).
  std::pair<Value, Value> at(int slot, const Tap &t) {
    // Unsigned compares: a pixel above or left of the input is negative.
    auto ult = [&](Value x, Value y) -> Value {
      return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ult, x, y);
    };
    Value inside = e.land(ult(e.add(hBase[slot], t.dr), a.H),
                          ult(e.add(wBase[slot], t.ds), a.W));
    return {e.add(rowBase[slot], t.off), inside};
  }

private:
  KernelEmitter &e;
  ConvKernelArgs a;
  SmallVector<Value> rowBase, hBase, wBase;
  InvariantDivisor divC, divS; ///< set by prepare()
};

} // namespace mlir::isaac

#endif // ISAAC_LIB_TRANSFORMS_CONVINPUTTAPS_H
