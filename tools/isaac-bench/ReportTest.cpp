//===- ReportTest.cpp - isaac-bench's CSV, written row by row -------------===//
//
// isaac-bench-report-test: the --csv file of isaac-bench (CsvFile,
// Report.h) without a GPU. After each append, the file read back by another
// stream must hold the header and every row so far (so a run cut short
// keeps what it measured); a row without measurements has empty cells; a
// path that cannot be created is refused with its name. Prints one line per
// check and `report test: N checks, N failed`; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace bench;

namespace {

int checks = 0, failed = 0;

void expect(bool ok, const std::string &what) {
  ++checks;
  if (!ok)
    ++failed;
  std::printf("%s %s\n", ok ? "ok" : "FAILED", what.c_str());
}

std::vector<std::string> readLines(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// The `index`th comma-separated cell of `line`.
std::string cell(const std::string &line, int index) {
  std::vector<std::string> cells = splitCommas(line);
  return index < static_cast<int>(cells.size()) ? cells[index] : "<none>";
}

ResultRow row(int64_t m, const char *status) {
  ResultRow r;
  r.label = "custom";
  r.problem.types = *isaac::GemmTypes::parseToken("f16");
  r.problem.M = m;
  r.problem.N = 128;
  r.problem.K = 2560;
  r.problem.lda = 2560;
  r.problem.ldb = 128;
  r.problem.ldc = 128;
  r.status = status;
  return r;
}

} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::string path = dir + "/rows.csv";
  CsvFile csv;
  std::string error;
  expect(csv.open(path, gemmCsvHeader(), error), "open " + path);
  std::vector<std::string> lines = readLines(path);
  expect(lines.size() == 1 && cell(lines[0], 12) == "isaac_us",
         "header on disk before any row");

  ResultRow timed = row(2560, "PASS");
  timed.kernel = "isaac_gemm_f16_nn_wgmma_ml128_nl128_wm64_wn128_u64_kl1_"
                 "kg4_v8_st6_kc1_ws1";
  timed.isaacMs = 0.0105;
  timed.cublasMs = 0.0112;
  timed.maxError = 0.25;
  expect(csv.append(gemmCsvLine(timed), error), "append a timed row");
  lines = readLines(path);
  expect(lines.size() == 2, "2 lines on disk after one row");
  expect(lines.size() == 2 && cell(lines[1], 1) == "2560" &&
             cell(lines[1], 11) == timed.kernel &&
             cell(lines[1], 12) == "10.500" && cell(lines[1], 23) == "PASS",
         "the timed row's M, kernel, microseconds and status");

  ResultRow skipped = row(7, "SKIP");
  expect(csv.append(gemmCsvLine(skipped), error),
         "append a row without measurements");
  lines = readLines(path);
  expect(lines.size() == 3 && cell(lines[2], 1) == "7" &&
             cell(lines[2], 12).empty() && cell(lines[2], 23) == "SKIP",
         "3 lines on disk; the row without measurements has empty cells");

  CsvFile bad;
  std::string badPath = dir + "/no-such-dir/rows.csv";
  error.clear();
  bool refused = !bad.open(badPath, gemmCsvHeader(), error);
  expect(refused && error.find(badPath) != std::string::npos,
         "an uncreatable path is refused: " + error);

  std::printf("report test: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
