//===- EpilogueTest.cpp - Unit checks of lib/Model/Epilogue ---------------===//
//
// isaac-epilogue-test: the canonical text of epilogue programs (print, parse,
// ids), their verifier and their reference semantics. Prints one line per
// failed check and a summary `N passed, M failed`.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/Epilogue.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace isaac;

static int passed = 0, failed = 0;

static void expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

static EpilogueInst inst(EpilogueOp op, DType t, std::vector<int> args,
                         double value = 0) {
  EpilogueInst i;
  i.op = op;
  i.type = EpilogueType::of(t);
  i.args = std::move(args);
  i.value = value;
  return i;
}

/// x + in0 (a bias), then relu: max(v, 0).
static EpilogueProgram biasRelu() {
  EpilogueProgram p;
  p.accType = DType::F32;
  p.inputTypes = {DType::F32};
  p.insts.push_back(inst(EpilogueOp::AddF, DType::F32, {0, 1}));
  p.insts.push_back(inst(EpilogueOp::Const, DType::F32, {}, 0.0));
  p.insts.push_back(inst(EpilogueOp::MaximumF, DType::F32, {2, 3}));
  p.result = 4;
  p.outType = DType::F32;
  return p;
}

static void checkText() {
  EpilogueProgram p = biasRelu();
  std::string text = p.str();
  expect(text == "x:f32, in0:f32; v0 = addf x, in0 : f32; v1 = const 0 : "
                 "f32; v2 = maximumf v0, v1 : f32; yield v2 : f32",
         "canonical text: " + text);
  std::string err;
  std::optional<EpilogueProgram> q = EpilogueProgram::parse(text, err);
  expect(q && q->str() == text, "round trip: " + err);
  // The id names kernels: it must not change unless the text does.
  expect(p.id() == q->id() && p.id().size() == 16, "id: " + p.id());
  EpilogueProgram other = p;
  other.insts[1].value = 1.0;
  expect(other.id() != p.id(), "different programs, different ids");

  EpilogueProgram identity;
  expect(identity.isIdentity() && identity.str() == "x:f32; yield x : f32",
         "identity: " + identity.str());

  // Exact constants: 17 significant digits round-trip doubles.
  EpilogueProgram c;
  c.accType = DType::F64;
  c.insts.push_back(inst(EpilogueOp::Const, DType::F64, {}, 0.1));
  c.insts.push_back(inst(EpilogueOp::MulF, DType::F64, {0, 1}));
  c.result = 2;
  c.outType = DType::F64;
  q = EpilogueProgram::parse(c.str(), err);
  expect(q && q->insts[0].value == 0.1, "constant 0.1 survives: " + c.str());

  // Broadcast inputs carry their dimensions; the full matrix prints none,
  // so the ids of programs without broadcasts do not change.
  EpilogueProgram bias = biasRelu();
  bias.setDims(0, kEpilogueCol);
  expect(bias.str() == "x:f32, in0:f32[n]; v0 = addf x, in0 : f32; v1 = "
                       "const 0 : f32; v2 = maximumf v0, v1 : f32; yield v2 "
                       ": f32",
         "per-column input: " + bias.str());
  expect(bias.id() != p.id(), "a per-column input changes the id");
  for (uint8_t d :
       {kEpilogueScalar, kEpilogueRow, kEpilogueCol, kEpilogueRowCol}) {
    EpilogueProgram b = biasRelu();
    b.setDims(0, d);
    q = EpilogueProgram::parse(b.str(), err);
    expect(q && q->dimsOf(0) == d && q->str() == b.str(),
           "dimensions round trip: " + b.str() + " " + err);
  }
  EpilogueProgram full = biasRelu();
  full.setDims(0, kEpilogueRowCol);
  expect(full.id() == p.id(), "explicit full dimensions keep the id");

  const char *bad[] = {
      "",
      "x:f32",
      "x:f32; yield y : f32",
      "x:f32; v0 = addf x, x : f32; yield v0 : f16",
      "x:f32; v0 = frobnicate x : f32; yield v0 : f32",
      "x:f32; v1 = negf x : f32; yield v1 : f32",
      "x:f32; v0 = addf x : f32; yield v0 : f32",
      "x:f32; v0 = truncf x : f64; yield v0 : f64",
      "x:f32; v0 = cmpf bogus x, x : i1; yield x : f32",
      "x:f32; yield x : f32 trailing",
      "x:f32, in1:f32; yield x : f32",
      "x:f32, in0:f32[k]; yield x : f32",
      "x:f32, in0:f32[mn]; yield x : f32",
      "x:f32, in0:f32[n; yield x : f32",
  };
  for (const char *b : bad)
    expect(!EpilogueProgram::parse(b, err), std::string("rejects '") + b + "'");
}

static void checkVerify() {
  EpilogueProgram p = biasRelu();
  expect(p.verify().empty(), "bias+relu verifies: " + p.verify());
  p.insts[2].args = {2, 5};
  expect(!p.verify().empty(), "operand defined later is rejected");
  p = biasRelu();
  p.inputTypes = {DType::F16};
  expect(!p.verify().empty(), "type mismatch is rejected");
  p = biasRelu();
  p.inputTypes.assign(kMaxEpilogueInputs + 1, DType::F32);
  expect(!p.verify().empty(), "too many inputs are rejected");
}

static void checkEvaluate() {
  EpilogueProgram p = biasRelu();
  double in = 0.5;
  expect(p.evaluate(1.0, &in) == 1.5, "bias+relu(1, 0.5) = 1.5");
  in = -2.0;
  expect(p.evaluate(1.0, &in) == 0.0, "bias+relu(1, -2) = 0");
  in = 0.0;
  expect(std::isnan(p.evaluate(NAN, &in)), "maximumf propagates NaN");

  // f16 output: x -> truncf(x).
  EpilogueProgram h;
  h.insts.push_back(inst(EpilogueOp::TruncF, DType::F16, {0}));
  h.result = 1;
  h.outType = DType::F16;
  expect(h.verify().empty(), "truncf to f16 verifies");
  expect(h.evaluate(1.0 + 1.0 / 4096, nullptr) == 1.0,
         "f16 rounds 1+2^-12 down to 1 (ties to even)");
  expect(h.evaluate(1.0 + 3.0 / 2048, nullptr) == 1.0 + 2.0 / 1024,
         "f16 rounds 1+3*2^-11 up to 1+2^-9");
  expect(std::isinf(h.evaluate(65520.0, nullptr)), "f16 overflows to inf");
  expect(h.evaluate(65504.0, nullptr) == 65504.0, "f16 max finite");
  expect(h.evaluate(std::ldexp(1.0, -24), nullptr) == std::ldexp(1.0, -24),
         "f16 smallest subnormal");
  expect(roundToType(1.0 + 1.0 / 256, DType::BF16) == 1.0,
         "bf16 rounds 1+2^-8 to 1 (ties to even)");
  expect(roundToType(1.0 + 3.0 / 256, DType::BF16) == 1.0 + 4.0 / 256,
         "bf16 rounds 1+3*2^-8 to 1+2^-6");
  expect(roundToType(1.0 / 3.0, DType::F32) == double(1.0f / 3.0f),
         "f32 rounding");

  // clamp via cmpf + select: x > 6 ? 6 : x.
  EpilogueProgram s;
  s.insts.push_back(inst(EpilogueOp::Const, DType::F32, {}, 6.0));
  EpilogueInst cmp = inst(EpilogueOp::CmpF, DType::F32, {0, 1});
  cmp.type = EpilogueType::predicate();
  cmp.predicate = "ogt";
  s.insts.push_back(cmp);
  s.insts.push_back(inst(EpilogueOp::Select, DType::F32, {2, 1, 0}));
  s.result = 3;
  expect(s.verify().empty(), "select verifies: " + s.verify());
  expect(s.evaluate(7.0, nullptr) == 6.0 && s.evaluate(5.0, nullptr) == 5.0,
         "cmpf/select clamp");
  std::string err;
  expect(EpilogueProgram::parse(s.str(), err).has_value(),
         "cmpf round trip: " + s.str() + " " + err);
}

int main() {
  checkText();
  checkVerify();
  checkEvaluate();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
