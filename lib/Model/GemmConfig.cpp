//===- GemmConfig.cpp - Printing of the tuning vector ---------------------===//

#include "isaac/Model/GemmConfig.h"

#include <sstream>

using namespace isaac;

std::string GemmConfig::str() const {
  std::ostringstream os;
  os << "ml = " << ml << ", nl = " << nl << ", ms = " << ms << ", ns = " << ns
     << ", u = " << u << ", ks = " << ks << ", kl = " << kl << ", kg = " << kg
     << ", vec = " << vec;
  return os.str();
}

std::string GemmConfig::mangle() const {
  std::ostringstream os;
  os << "ml" << ml << "_nl" << nl << "_ms" << ms << "_ns" << ns << "_u" << u
     << "_ks" << ks << "_kl" << kl << "_kg" << kg << "_v" << vec;
  return os.str();
}
