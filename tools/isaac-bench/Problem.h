//===- Problem.h - GEMM shapes and their memory layout ----------*- C++ -*-===//
//
// A Shape is what the user asks for (sizes, layout, optional leading
// dimensions); a Problem is one concrete launch: dtype, leading dimensions,
// batch strides and base-pointer misalignment, in the row-major storage
// convention of docs/abi.md.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_PROBLEM_H
#define ISAAC_BENCH_PROBLEM_H

#include "isaac/Model/GemmConfig.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// Bytes of an element of an isaacDtype.
size_t dtypeSize(int dtype);

struct Shape {
  std::string label; // e.g. "LINPACK"; empty for user shapes
  int64_t M = 0, N = 0, K = 0;
  bool transA = false, transB = false;
  int64_t lda = 0, ldb = 0, ldc = 0; // 0: the minimum for the layout
};

struct Problem {
  int dtype = 0;    // isaacDtype of A and B
  int outDtype = 0; // isaacDtype of C: the kernel's, or its epilogue's output
  /// The GEMM's element types as its kernels' names spell them (f32, f64,
  /// f16, bf16, f16f32, bf16f32, tf32); a fused epilogue may store C in
  /// another type (outDtype).
  isaac::GemmTypes types;
  /// tf32 only: A and B hold arbitrary f32 values, which the kernel rounds
  /// to TF32 (the error bound then includes that rounding); otherwise they
  /// hold values exact in TF32, so that only the accumulation errs.
  bool tf32FullInputs = false;
  int64_t M = 0, N = 0, K = 0;
  bool transA = false, transB = false;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t sA = 0, sB = 0, sC = 0; // batch strides, at least one footprint
  int64_t batch = 1;
  int64_t offset = 0; // elements between the allocation and the base pointers

  /// Bytes of an element of A and B.
  size_t elementSize() const { return dtypeSize(dtype); }
  /// The accumulation's type, which is also alpha's and beta's: f64 for
  /// f64 operands, else f32.
  int computeDtype() const { return dtype == 1 ? 1 : 0; }
  /// Bytes of an element of C.
  size_t outElementSize() const { return dtypeSize(outDtype); }
  /// Elements from the first to the last element of one matrix.
  int64_t footprintA() const;
  int64_t footprintB() const;
  int64_t footprintC() const { return (M - 1) * ldc + N; }
  /// Elements of all batches.
  int64_t spanA() const { return (batch - 1) * sA + footprintA(); }
  int64_t spanB() const { return (batch - 1) * sB + footprintB(); }
  int64_t spanC() const { return (batch - 1) * sC + footprintC(); }
  double flops() const {
    return 2.0 * static_cast<double>(M) * static_cast<double>(N) *
           static_cast<double>(K) * static_cast<double>(batch);
  }
  /// Compulsory traffic of one GEMM: read A and B, write C.
  double bytes() const {
    return static_cast<double>(batch) *
           (static_cast<double>(M * K + K * N) *
                static_cast<double>(elementSize()) +
            static_cast<double>(M * N) * static_cast<double>(outElementSize()));
  }
  std::string layout() const;
  /// "M=.. N=.. K=.. nt f32 lda=.. ..." for messages.
  std::string describe() const;
};

const char *layoutName(bool transA, bool transB);
/// "f32", "f64", "f16" or "bf16" for an isaacDtype.
const char *dtypeName(int dtype);

/// Resolves `shape` for `types`: leading dimensions default to the minimum
/// plus `ldPad`, batch strides to a footprint plus `stridePad`, and base
/// pointers move by one element when `misalign` is set. C is of types.c;
/// set outDtype for a kernel with a fused epilogue.
Problem makeProblem(const Shape &shape, isaac::GemmTypes types, int64_t batch,
                    int64_t ldPad, int64_t stridePad, bool misalign);

/// Every GEMM type isaac-bench knows, in the order of --help: f32, f64,
/// f16, bf16, f16f32, bf16f32, tf32.
const std::vector<isaac::GemmTypes> &allGemmTypes();

/// Shapes of Table 4 of the ISAAC paper (LINPACK, DeepBench, ICA, LAPACK).
std::vector<Shape> table4Shapes();

/// The suite `name` (table4, or linpack4096: LINPACK at 4096^3, where
/// tensor-core GEMMs leave the small-problem regime); false if unknown.
bool namedShapes(const std::string &name, std::vector<Shape> &shapes);

/// Parses "M,N,K,layout[,lda,ldb,ldc]".
bool parseShape(const std::string &text, Shape &shape, std::string &error);

/// The comma-separated parts of `text` (option lists, shapes, the cells of
/// a CSV line: isaac's files quote nothing).
std::vector<std::string> splitCommas(const std::string &text);

/// One shape per line; blank lines and lines starting with '#' are skipped.
bool readShapesFile(const std::string &path, std::vector<Shape> &shapes,
                    std::string &error);

} // namespace bench

#endif // ISAAC_BENCH_PROBLEM_H
