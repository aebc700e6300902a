//===- Report.cpp - Result table and CSV ----------------------------------===//

#include "Report.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bench {
namespace {

/// The derived columns, shared by the table and the CSV.
struct Derived {
  double isaac, cublas, cublasLt, vsCublas, vsCublasLt, percentRoofline;
  /// The better of cuBLAS and cuBLASLt (either where the other is not
  /// measured), and isaac over it.
  double bestVendor, vsBest;
};

Derived derive(const ResultRow &row) {
  Derived d;
  d.isaac = row.tflops(row.isaacMs);
  d.cublas = row.tflops(row.cublasMs);
  d.cublasLt = row.tflops(row.cublasLtMs);
  d.vsCublas = d.isaac / d.cublas;
  d.vsCublasLt = d.isaac / d.cublasLt;
  d.percentRoofline = 100.0 * d.isaac / row.rooflineTflops;
  d.bestVendor = std::isnan(d.cublas)     ? d.cublasLt
                 : std::isnan(d.cublasLt) ? d.cublas
                                          : std::max(d.cublas, d.cublasLt);
  d.vsBest = d.isaac / d.bestVendor;
  return d;
}

} // namespace

std::string format(const char *spec, double value) {
  if (std::isnan(value))
    return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), spec, value);
  return buffer;
}

std::string sizes(const Problem &p) {
  std::string text = std::to_string(p.M) + "x" + std::to_string(p.N) + "x" +
                     std::to_string(p.K);
  if (p.batch > 1)
    text += "x" + std::to_string(p.batch);
  return text;
}

void printTableHeader(std::FILE *out) {
  std::fprintf(out,
               "%-12s %-18s %-3s %-7s %7s %7s %8s %6s %6s %6s %8s %6s %10s "
               "%-6s %s\n",
               "shape", "MxNxK", "lay", "dt", "isaac", "cuBLAS", "cuBLASLt",
               "i/cB", "i/Lt", "i/best", "roofline", "%roof", "max-err",
               "status", "kernel");
  std::fprintf(
      out, "%-12s %-18s %-3s %-7s %7s %7s %8s %6s %6s %6s %8s %6s %10s\n", "",
      "", "", "", "TFLOPS", "TFLOPS", "TFLOPS", "", "", "", "TFLOPS", "", "");
}

void printTableRow(std::FILE *out, const ResultRow &row) {
  Derived d = derive(row);
  std::fprintf(
      out,
      "%-12s %-18s %-3s %-7s %7s %7s %8s %6s %6s %6s %8s %6s %10s %-6s %s\n",
      row.label.c_str(), sizes(row.problem).c_str(),
      row.problem.layout().c_str(), row.problem.types.token().c_str(),
      format("%.2f", d.isaac).c_str(), format("%.2f", d.cublas).c_str(),
      format("%.2f", d.cublasLt).c_str(), format("%.2f", d.vsCublas).c_str(),
      format("%.2f", d.vsCublasLt).c_str(), format("%.2f", d.vsBest).c_str(),
      format("%.2f", row.rooflineTflops).c_str(),
      format("%.1f", d.percentRoofline).c_str(),
      format("%.2e", row.maxError).c_str(), row.status.c_str(),
      row.kernel.empty() ? "-" : row.kernel.c_str());
  std::fflush(out);
}

bool CsvFile::open(const std::string &file, const std::string &header,
                   std::string &error) {
  path = file;
  out.open(path);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return append(header, error);
}

bool CsvFile::append(const std::string &line, std::string &error) {
  out << line << "\n";
  out.flush();
  if (!out) {
    error = "error writing '" + path + "'";
    return false;
  }
  return true;
}

void CsvFile::appendOrWarn(const std::string &line) {
  std::string error;
  if (!isOpen() || failed || append(line, error))
    return;
  failed = true;
  std::fprintf(stderr, "isaac-bench: %s\n", error.c_str());
}

std::string csvNumber(const char *spec, double value) {
  return std::isnan(value) ? std::string() : format(spec, value);
}

std::string gemmCsvHeader() {
  return "shape,M,N,K,batch,layout,dtype,lda,ldb,ldc,misaligned,kernel,"
         "isaac_us,cublas_us,cublaslt_us,isaac_tflops,cublas_tflops,"
         "cublaslt_tflops,isaac_over_cublas,isaac_over_cublaslt,"
         "roofline_tflops,isaac_pct_roofline,max_rel_error,status,"
         "best_vendor_tflops,isaac_over_best,error_is_fraction";
}

std::string gemmCsvLine(const ResultRow &row) {
  const auto &num = csvNumber;
  const Problem &p = row.problem;
  Derived d = derive(row);
  std::ostringstream out;
  out << row.label << "," << p.M << "," << p.N << "," << p.K << "," << p.batch
      << "," << p.layout() << "," << p.types.token() << "," << p.lda << ","
      << p.ldb << "," << p.ldc << "," << (p.offset ? 1 : 0) << "," << row.kernel
      << "," << num("%.3f", row.isaacMs * 1e3) << ","
      << num("%.3f", row.cublasMs * 1e3) << ","
      << num("%.3f", row.cublasLtMs * 1e3) << "," << num("%.4f", d.isaac) << ","
      << num("%.4f", d.cublas) << "," << num("%.4f", d.cublasLt) << ","
      << num("%.4f", d.vsCublas) << "," << num("%.4f", d.vsCublasLt) << ","
      << num("%.4f", row.rooflineTflops) << ","
      << num("%.2f", d.percentRoofline) << "," << num("%.3e", row.maxError)
      << "," << row.status << "," << num("%.4f", d.bestVendor) << ","
      << num("%.4f", d.vsBest) << "," << (row.errorIsFraction ? 1 : 0);
  return out.str();
}

} // namespace bench
