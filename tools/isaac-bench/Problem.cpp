//===- Problem.cpp - GEMM shapes and their memory layout ------------------===//

#include "Problem.h"

#include "isaac/Model/GemmConfig.h"

#include <fstream>
#include <sstream>

namespace bench {

int64_t Problem::footprintA() const {
  int64_t rows = transA ? K : M, cols = transA ? M : K;
  return (rows - 1) * lda + cols;
}

int64_t Problem::footprintB() const {
  int64_t rows = transB ? N : K, cols = transB ? K : N;
  return (rows - 1) * ldb + cols;
}

const char *layoutName(bool transA, bool transB) {
  static const char *const names[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
  return names[transA][transB];
}

const char *dtypeName(int dtype) {
  return isaac::dtypeName(static_cast<isaac::DType>(dtype));
}

size_t dtypeSize(int dtype) {
  return static_cast<size_t>(
      isaac::dtypeBytes(static_cast<isaac::DType>(dtype)));
}

std::string Problem::layout() const { return layoutName(transA, transB); }

std::string Problem::describe() const {
  std::ostringstream os;
  os << "M=" << M << " N=" << N << " K=" << K << " " << layout() << " "
     << types.token();
  if (outDtype != static_cast<int>(types.c))
    os << "->" << dtypeName(outDtype);
  if (tf32FullInputs)
    os << " (full f32 inputs)";
  os << " lda=" << lda << " ldb=" << ldb << " ldc=" << ldc;
  if (batch > 1)
    os << " batch=" << batch << " sA=" << sA << " sB=" << sB << " sC=" << sC;
  if (offset)
    os << " misaligned by " << offset;
  return os.str();
}

Problem makeProblem(const Shape &shape, isaac::GemmTypes types, int64_t batch,
                    int64_t ldPad, int64_t stridePad, bool misalign) {
  Problem p;
  p.types = types;
  p.dtype = static_cast<int>(types.ab);
  p.outDtype = static_cast<int>(types.c);
  p.M = shape.M;
  p.N = shape.N;
  p.K = shape.K;
  p.transA = shape.transA;
  p.transB = shape.transB;
  p.lda = shape.lda ? shape.lda : (p.transA ? p.M : p.K) + ldPad;
  p.ldb = shape.ldb ? shape.ldb : (p.transB ? p.K : p.N) + ldPad;
  p.ldc = shape.ldc ? shape.ldc : p.N + ldPad;
  p.batch = batch;
  p.sA = p.footprintA() + stridePad;
  p.sB = p.footprintB() + stridePad;
  p.sC = p.footprintC() + stridePad;
  p.offset = misalign ? 1 : 0;
  return p;
}

const std::vector<isaac::GemmTypes> &allGemmTypes() {
  static const std::vector<isaac::GemmTypes> types = [] {
    std::vector<isaac::GemmTypes> list;
    for (const char *token :
         {"f32", "f64", "f16", "bf16", "f16f32", "bf16f32", "tf32"})
      list.push_back(*isaac::GemmTypes::parseToken(token));
    return list;
  }();
  return types;
}

std::vector<Shape> table4Shapes() {
  std::vector<Shape> shapes;
  auto add = [&](const char *label, int64_t M, int64_t N, int64_t K,
                 bool transA, bool transB) {
    Shape s;
    s.label = label;
    s.M = M;
    s.N = N;
    s.K = K;
    s.transA = transA;
    s.transB = transB;
    shapes.push_back(s);
  };
  for (int64_t n : {512, 1024, 2048})
    add("LINPACK", n, n, n, false, true);
  for (int64_t n : {16, 32, 64, 128})
    add("DeepBench-F", 2560, n, 2560, false, false);
  for (int64_t n : {16, 32, 64, 128})
    add("DeepBench-B", 2560, n, 2560, true, false);
  for (int64_t n : {32, 64, 256})
    add("ICA", n, n, 60000, false, true);
  for (int64_t n : {4096, 3456, 896})
    add("LAPACK", n, n, 32, false, true);
  return shapes;
}

bool namedShapes(const std::string &name, std::vector<Shape> &shapes) {
  if (name == "table4") {
    shapes = table4Shapes();
    return true;
  }
  if (name == "linpack4096") {
    Shape s;
    s.label = "LINPACK";
    s.M = s.N = s.K = 4096;
    s.transB = true;
    shapes = {s};
    return true;
  }
  return false;
}

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ','))
    parts.push_back(part);
  return parts;
}

bool parseShape(const std::string &text, Shape &shape, std::string &error) {
  std::vector<std::string> parts = splitCommas(text);
  if (parts.size() != 4 && parts.size() != 7) {
    error = "shape '" + text + "' is not M,N,K,layout[,lda,ldb,ldc]";
    return false;
  }
  auto number = [&](const std::string &s, int64_t &value, int64_t min) {
    try {
      size_t used = 0;
      value = std::stoll(s, &used);
      if (used == s.size() && value >= min && value < (int64_t(1) << 31))
        return true;
    } catch (...) {
    }
    error = "shape '" + text + "': '" + s + "' is not a number in [" +
            std::to_string(min) + ", 2^31)";
    return false;
  };
  Shape s;
  if (!number(parts[0], s.M, 1) || !number(parts[1], s.N, 1) ||
      !number(parts[2], s.K, 1))
    return false;
  const std::string &layout = parts[3];
  if (layout.size() != 2 || (layout[0] != 'n' && layout[0] != 't') ||
      (layout[1] != 'n' && layout[1] != 't')) {
    error =
        "shape '" + text + "': layout '" + layout + "' is not nn, nt, tn or tt";
    return false;
  }
  s.transA = layout[0] == 't';
  s.transB = layout[1] == 't';
  if (parts.size() == 7) {
    if (!number(parts[4], s.lda, 1) || !number(parts[5], s.ldb, 1) ||
        !number(parts[6], s.ldc, 1))
      return false;
    int64_t minA = s.transA ? s.M : s.K, minB = s.transB ? s.K : s.N;
    if (s.lda < minA || s.ldb < minB || s.ldc < s.N) {
      error = "shape '" + text + "': leading dimensions below the minimum " +
              std::to_string(minA) + "," + std::to_string(minB) + "," +
              std::to_string(s.N) + " for layout " + layout;
      return false;
    }
  }
  shape = s;
  return true;
}

bool readShapesFile(const std::string &path, std::vector<Shape> &shapes,
                    std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot open shapes file '" + path + "'";
    return false;
  }
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#')
      continue;
    size_t end = line.find_last_not_of(" \t\r");
    Shape shape;
    if (!parseShape(line.substr(begin, end - begin + 1), shape, error)) {
      error = path + ":" + std::to_string(lineNumber) + ": " + error;
      return false;
    }
    shapes.push_back(shape);
  }
  return true;
}

} // namespace bench
