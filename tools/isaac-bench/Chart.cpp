//===- Chart.cpp - Bar chart of the results, as PNG -----------------------===//
//
// One group of bars per problem (isaac, cuBLAS, cuBLASLt TFLOPS) with the
// problem's roofline as a black mark across the group, labelled with the
// suite name, the sizes and layout/dtype, like Figure 6 of the ISAAC paper.
//
//===----------------------------------------------------------------------===//

#include "Image.h"
#include "Report.h"

#include <algorithm>
#include <cmath>

namespace bench {
namespace {

const Color kWhite = {255, 255, 255};
const Color kBlack = {0, 0, 0};
const Color kGrid = {225, 225, 225};
const Color kAxisText = {60, 60, 60};
const Color kFail = {200, 0, 0};
const Color kSeries[3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}};
const char *const kSeriesNames[3] = {"isaac", "cuBLAS", "cuBLASLt"};

constexpr int kBarWidth = 12, kBarGap = 2, kGroupGap = 16;
constexpr int kLeft = 70, kRight = 20, kTop = 70, kBottom = 50;
constexpr int kPlotHeight = 400;

/// The smallest 1, 2 or 5 times a power of ten such that `max` needs at
/// most eight steps.
double niceStep(double max) {
  double power = std::pow(10.0, std::floor(std::log10(max / 8)));
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (max / (factor * power) <= 8)
      return factor * power;
  return 10 * power;
}

std::string formatTick(double value, double step) {
  int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

} // namespace

bool writeChart(const std::string &path, const std::vector<ResultRow> &rows,
                const std::string &title, std::string &error) {
  std::vector<ChartGroup> groups;
  for (const ResultRow &row : rows) {
    ChartGroup g;
    g.values[0] = row.tflops(row.isaacMs);
    g.values[1] = row.tflops(row.cublasMs);
    g.values[2] = row.tflops(row.cublasLtMs);
    const Problem &p = row.problem;
    g.lines[0] = row.label;
    g.lines[1] = std::to_string(p.M) + "x" + std::to_string(p.N) + "x" +
                 std::to_string(p.K);
    g.lines[2] = p.layout() + " " + p.types.token();
    g.roofline = row.rooflineTflops;
    g.failed = row.status == "FAIL";
    groups.push_back(g);
  }
  return writeBarChart(path, groups, kSeriesNames, title, error);
}

bool writeBarChart(const std::string &path, const std::vector<ChartGroup> &all,
                   const char *const series[3], const std::string &title,
                   std::string &error) {
  std::vector<const ChartGroup *> groups;
  double maxValue = 0;
  int labelWidth = 0;
  for (const ChartGroup &g : all) {
    if (std::all_of(g.values, g.values + 3,
                    [](double v) { return std::isnan(v); }))
      continue;
    for (double v : g.values)
      if (!std::isnan(v))
        maxValue = std::max(maxValue, v);
    if (!std::isnan(g.roofline))
      maxValue = std::max(maxValue, g.roofline);
    for (const std::string &line : g.lines)
      labelWidth = std::max(labelWidth, Image::textWidth(line));
    groups.push_back(&g);
  }
  if (groups.empty()) {
    error = "no timings to chart";
    return false;
  }
  double step = niceStep(maxValue > 0 ? maxValue : 1);
  double top = std::ceil((maxValue > 0 ? maxValue : 1) / step) * step;

  int groupWidth =
      std::max(3 * kBarWidth + 2 * kBarGap, labelWidth) + kGroupGap;
  int width = kLeft + static_cast<int>(groups.size()) * groupWidth + kRight;
  width = std::max(width, Image::textWidth(title, 2) + kLeft + kRight);
  int height = kTop + kPlotHeight + kBottom;
  Image image(width, height, kWhite);
  int baseY = kTop + kPlotHeight;
  auto yFor = [&](double value) {
    return baseY - static_cast<int>(std::lround(value / top * kPlotHeight));
  };

  image.drawText(kLeft, 10, title, kBlack, 2);
  // Legend under the title.
  int legendX = kLeft;
  for (int s = 0; s < 3; ++s) {
    image.fillRect(legendX, 38, legendX + 12, 50, kSeries[s]);
    image.drawText(legendX + 16, 41, series[s], kBlack);
    legendX += 16 + Image::textWidth(series[s]) + 20;
  }
  image.fillRect(legendX, 43, legendX + 12, 45, kBlack);
  image.drawText(legendX + 16, 41, "roofline", kBlack);

  // Grid lines and tick labels.
  for (double tick = 0; tick <= top + step / 2; tick += step) {
    int y = yFor(tick);
    image.fillRect(kLeft, y, width - kRight, y + 1, kGrid);
    std::string text = formatTick(tick, step);
    image.drawText(kLeft - 6 - Image::textWidth(text), y - 3, text, kAxisText);
  }
  image.drawText(4, kTop - 14, "TFLOPS", kAxisText);
  image.fillRect(kLeft - 1, kTop, kLeft, baseY + 1, kBlack);
  image.fillRect(kLeft - 1, baseY, width - kRight, baseY + 1, kBlack);

  for (size_t i = 0; i < groups.size(); ++i) {
    const ChartGroup &g = *groups[i];
    int groupX = kLeft + static_cast<int>(i) * groupWidth + kGroupGap / 2;
    int barsWidth = 3 * kBarWidth + 2 * kBarGap;
    int barsX = groupX + (groupWidth - kGroupGap - barsWidth) / 2;
    for (int s = 0; s < 3; ++s) {
      if (std::isnan(g.values[s]))
        continue;
      int x = barsX + s * (kBarWidth + kBarGap);
      image.fillRect(x, yFor(g.values[s]), x + kBarWidth, baseY, kSeries[s]);
    }
    if (!std::isnan(g.roofline)) {
      int y = yFor(g.roofline);
      image.fillRect(barsX - 3, y - 1, barsX + barsWidth + 3, y + 1, kBlack);
    }
    if (g.failed)
      image.drawText(barsX, kTop - 12, "FAIL", kFail);
    for (int line = 0; line < 3; ++line) {
      int textX =
          groupX +
          (groupWidth - kGroupGap - Image::textWidth(g.lines[line])) / 2;
      image.drawText(textX, baseY + 8 + line * 12, g.lines[line], kAxisText);
    }
  }
  return image.writePng(path, error);
}

} // namespace bench
