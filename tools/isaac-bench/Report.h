//===- Report.h - Result table, CSV and chart -------------------*- C++ -*-===//

#ifndef ISAAC_BENCH_REPORT_H
#define ISAAC_BENCH_REPORT_H

#include "Problem.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace bench {

/// One line of the report: a problem, the kernel chosen for it and the
/// measurements (NaN where not measured).
struct ResultRow {
  std::string label;
  Problem problem;
  std::string kernel; // empty when no kernel fits
  std::string status; // PASS, FAIL or SKIP
  double maxError = NAN;
  /// maxError is a fraction of the tolerance (types other than f32 and
  /// f64, fused kernels) rather than a relative error.
  bool errorIsFraction = false;
  double isaacMs = NAN, cublasMs = NAN, cublasLtMs = NAN;
  double rooflineTflops = NAN;

  double tflops(double ms) const {
    return problem.flops() / (ms * 1e-3) / 1e12;
  }
};

void printTableHeader(std::FILE *out);
void printTableRow(std::FILE *out, const ResultRow &row);

/// A CSV file written row by row as the rows are measured: each line is
/// flushed, so a run that is interrupted (a time limit, a crash in a later
/// kernel) leaves every row it measured in the file. The GEMM, convolution
/// and epilogue-overhead tables all write through it.
class CsvFile {
public:
  /// Creates `path` and writes `header` (one line, no newline); false (and
  /// `error`) if it cannot.
  bool open(const std::string &path, const std::string &header,
            std::string &error);
  /// Appends `line` (no newline) and flushes it; false (and `error`) on a
  /// write error.
  bool append(const std::string &line, std::string &error);
  /// As append where the file is open; a write error is printed to stderr
  /// once, and the file written no further.
  void appendOrWarn(const std::string &line);
  bool isOpen() const { return out.is_open(); }

private:
  std::string path;
  std::ofstream out;
  bool failed = false;
};

/// The GEMM table's CSV header and the line of one row.
std::string gemmCsvHeader();
std::string gemmCsvLine(const ResultRow &row);

/// Formats `value` with printf's `spec`: "-" for NaN in a printed table
/// (format), empty in a CSV cell (csvNumber).
std::string format(const char *spec, double value);
std::string csvNumber(const char *spec, double value);
/// MxNxK of a problem (xBATCH after it where batched).
std::string sizes(const Problem &p);

/// A bar chart of isaac, cuBLAS and cuBLASLt TFLOPS per row, with each row's
/// roofline marked, in the style of the ISAAC paper's Figure 6.
bool writeChart(const std::string &path, const std::vector<ResultRow> &rows,
                const std::string &title, std::string &error);

/// One group of three bars (NaN: not drawn) under three lines of label,
/// with a roofline mark (NaN: none) and FAIL written above when `failed`.
struct ChartGroup {
  double values[3];
  std::string lines[3];
  double roofline = NAN;
  bool failed = false;
};

/// The chart of writeChart for any three series: `series` names them in
/// the legend. Groups whose three values are NaN are left out.
bool writeBarChart(const std::string &path,
                   const std::vector<ChartGroup> &groups,
                   const char *const series[3], const std::string &title,
                   std::string &error);

} // namespace bench

#endif // ISAAC_BENCH_REPORT_H
