//===- ConvReport.cpp - The --conv table, CSV and chart -------------------===//

#include "ConvBench.h"
#include "Report.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bench {
namespace {

std::string algo(int a) { return a < 0 ? "-" : std::to_string(a); }

const char kRowFormat[] = "%-20s %-38s %-9s %-5s %7s %7s %2s %7s %2s %6s %8s "
                          "%10s %9s %-6s %s\n";

} // namespace

double ConvRow::bestCudnnTflops() const {
  double nhwc = tflops(cudnnMs[0]), nchw = tflops(cudnnMs[1]);
  return std::isnan(nhwc)   ? nchw
         : std::isnan(nchw) ? nhwc
                            : std::max(nhwc, nchw);
}

void printConvHeader(std::FILE *out) {
  std::fprintf(out, kRowFormat, "shape", "problem", "layout", "dt", "isaac",
               "NHWC", "a", "NCHW", "a", "i/best", "roofline", "max-err",
               "cudnn-err", "status", "kernel");
  std::fprintf(out, kRowFormat, "", "", "", "", "TFLOPS", "TFLOPS", "",
               "TFLOPS", "", "", "TFLOPS", "", "", "", "");
}

void printConvRow(std::FILE *out, const ConvRow &row) {
  const ConvProblem &p = row.problem;
  double isaac = row.tflops(row.isaacMs);
  std::fprintf(out, kRowFormat, p.label.c_str(), p.brief().c_str(),
               isaac::convLayoutName(p.shape.layout),
               p.shape.types.token().c_str(), format("%.2f", isaac).c_str(),
               format("%.2f", row.tflops(row.cudnnMs[0])).c_str(),
               algo(row.cudnnAlgo[0]).c_str(),
               format("%.2f", row.tflops(row.cudnnMs[1])).c_str(),
               algo(row.cudnnAlgo[1]).c_str(),
               format("%.2f", isaac / row.bestCudnnTflops()).c_str(),
               format("%.2f", row.rooflineTflops).c_str(),
               format("%.2e", row.maxError).c_str(),
               format("%.1e", row.cudnnError).c_str(), row.status.c_str(),
               row.kernel.empty() ? "-" : row.kernel.c_str());
  std::fflush(out);
}

std::string convCsvHeader() {
  return "shape,N,H,W,C,K,R,S,P,Q,stride_h,stride_w,pad_top,pad_left,"
         "pad_bottom,pad_right,dilation_h,dilation_w,layout,dtype,misaligned,"
         "gemm_m,gemm_n,gemm_k,gflop,kernel,isaac_us,isaac_tflops,"
         "cudnn_nhwc_algo,cudnn_nhwc_us,cudnn_nhwc_tflops,cudnn_nchw_algo,"
         "cudnn_nchw_us,cudnn_nchw_tflops,best_cudnn_tflops,"
         "isaac_over_best_cudnn,roofline_tflops,max_error,error_is_fraction,"
         "cudnn_max_error,status";
}

std::string convCsvLine(const ConvRow &row) {
  const auto &num = csvNumber;
  auto algoCell = [](int a) {
    return a < 0 ? std::string() : std::to_string(a);
  };
  const ConvProblem &p = row.problem;
  const isaac::ConvShape &x = p.shape;
  double isaac = row.tflops(row.isaacMs);
  std::ostringstream out;
  out << p.label << "," << x.n << "," << x.h << "," << x.w << "," << x.c << ","
      << x.k << "," << x.r << "," << x.s << "," << x.p << "," << x.q << ","
      << x.strideH << "," << x.strideW << "," << x.padTop << "," << x.padLeft
      << "," << x.padBottom() << "," << x.padRight() << "," << x.dilationH
      << "," << x.dilationW << "," << isaac::convLayoutName(x.layout) << ","
      << x.types.token() << "," << (p.offset ? 1 : 0) << "," << x.n * x.p * x.q
      << "," << x.k << "," << x.c * x.r * x.s << ","
      << num("%.6f", p.flops() / 1e9) << "," << row.kernel << ","
      << num("%.3f", row.isaacMs * 1e3) << "," << num("%.4f", isaac) << ","
      << algoCell(row.cudnnAlgo[0]) << "," << num("%.3f", row.cudnnMs[0] * 1e3)
      << "," << num("%.4f", row.tflops(row.cudnnMs[0])) << ","
      << algoCell(row.cudnnAlgo[1]) << "," << num("%.3f", row.cudnnMs[1] * 1e3)
      << "," << num("%.4f", row.tflops(row.cudnnMs[1])) << ","
      << num("%.4f", row.bestCudnnTflops()) << ","
      << num("%.4f", isaac / row.bestCudnnTflops()) << ","
      << num("%.4f", row.rooflineTflops) << "," << num("%.3e", row.maxError)
      << "," << (row.errorIsFraction ? 1 : 0) << ","
      << num("%.3e", row.cudnnError) << "," << row.status;
  return out.str();
}

bool writeConvChart(const std::string &path, const std::vector<ConvRow> &rows,
                    const std::string &title, std::string &error) {
  static const char *const kSeries[3] = {"isaac", "cuDNN NHWC", "cuDNN NCHW"};
  std::vector<ChartGroup> groups;
  for (const ConvRow &row : rows) {
    const ConvProblem &p = row.problem;
    const isaac::ConvShape &x = p.shape;
    ChartGroup g;
    g.values[0] = row.tflops(row.isaacMs);
    g.values[1] = row.tflops(row.cudnnMs[0]);
    g.values[2] = row.tflops(row.cudnnMs[1]);
    g.lines[0] = p.label;
    g.lines[1] = std::to_string(x.n * x.p * x.q) + "x" + std::to_string(x.k) +
                 "x" + std::to_string(x.c * x.r * x.s);
    g.lines[2] =
        std::string(x.layout == isaac::ConvLayout::NhwcHwcf ? "hwcf" : "fhwc") +
        " " + x.types.token();
    g.roofline = row.rooflineTflops;
    g.failed = row.status == "FAIL";
    groups.push_back(g);
  }
  return writeBarChart(path, groups, kSeries, title, error);
}

} // namespace bench
