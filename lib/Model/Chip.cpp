//===- Chip.cpp - The chips isaac compiles for ----------------------------===//

#include "isaac/Model/Chip.h"

#include <algorithm>
#include <cctype>
#include <sstream>

using namespace isaac;

// A row that emits a PTX version its chip does not have would make LLVM
// abort on every compile for that chip.
#define CHIP(Name, SMs, MaxThreadsPerBlock, StaticSmemPerBlock,                \
             MaxDynSmemPerBlock, RegsPerBlock, MaxRegsPerThread, MinPtx,       \
             EmitPtx, PeakF32, PeakF64, PeakF16Tensor, PeakF64Tensor, DramGBs, \
             MmaSync, Wgmma, MmaF64M16, Clusters, RedV2F32, Base)              \
  static_assert(EmitPtx >= MinPtx, #Name ": EmitPtx is older than MinPtx");    \
  static_assert(StaticSmemPerBlock <= MaxDynSmemPerBlock,                      \
                #Name ": static shared memory exceeds the per-block maximum");
#include "isaac/Model/Chips.def"

const std::vector<ChipInfo> &isaac::allChips() {
  static const std::vector<ChipInfo> chips = {
// clang-format off
#define CHIP(Name, SMs, MaxThreadsPerBlock, StaticSmemPerBlock,                \
             MaxDynSmemPerBlock, RegsPerBlock, MaxRegsPerThread, MinPtx,       \
             EmitPtx, PeakF32, PeakF64, PeakF16Tensor, PeakF64Tensor, DramGBs, \
             MmaSync, Wgmma, MmaF64M16, Clusters, RedV2F32, Base)              \
  {#Name, SMs, MaxThreadsPerBlock, StaticSmemPerBlock, MaxDynSmemPerBlock,     \
   RegsPerBlock, MaxRegsPerThread, MinPtx, EmitPtx, PeakF32, PeakF64,          \
   PeakF16Tensor, PeakF64Tensor, DramGBs, MmaSync, Wgmma, MmaF64M16,          \
   Clusters, RedV2F32, Base},
// clang-format on
#include "isaac/Model/Chips.def"
  };
  return chips;
}

const ChipInfo *isaac::findChip(const std::string &name) {
  // The legality rules look the chip up for every configuration they judge
  // (millions in a search's space): the last one found is tried first.
  static thread_local const ChipInfo *last = nullptr;
  if (last && name == last->name)
    return last;
  for (const ChipInfo &c : allChips())
    if (name == c.name)
      return last = &c;
  return nullptr;
}

std::string isaac::ptxVersionString(int ptx) {
  return std::to_string(ptx / 10) + "." + std::to_string(ptx % 10);
}

std::string ChipInfo::ptxFeature() const {
  return "+ptx" + std::to_string(emitPtx);
}

namespace {
/// The newest `+ptxNN` of `features` (NVPTX applies every one it is given;
/// the newest wins) and its spelling; 0 without one.
int newestPtx(const std::string &features, std::string &selected) {
  int ptx = 0;
  std::istringstream in(features);
  for (std::string f; std::getline(in, f, ',');) {
    f.erase(std::remove_if(f.begin(), f.end(),
                           [](unsigned char ch) { return std::isspace(ch); }),
            f.end());
    if (f.size() <= 4 || f.compare(0, 4, "+ptx") != 0 ||
        !std::all_of(f.begin() + 4, f.end(),
                     [](unsigned char ch) { return std::isdigit(ch); }))
      continue;
    int v = std::stoi(f.substr(4, 6));
    if (v > ptx) {
      ptx = v;
      selected = f;
    }
  }
  return ptx;
}
} // namespace

int isaac::selectedPtx(const ChipInfo &chip, const std::string &features) {
  std::string selected;
  int ptx = newestPtx(features, selected);
  // Without a version LLVM picks the chip's minimum itself.
  return ptx ? ptx : chip.minPtx;
}

bool isaac::hasVectorRedF32(const ChipInfo &chip, int ptx) {
  return chip.hasRedV2F32 && ptx >= kVectorRedMinPtx;
}

std::string isaac::checkPtxFeatures(const ChipInfo &chip,
                                    const std::string &features) {
  std::string selected;
  int ptx = newestPtx(features, selected);
  // Without a version LLVM picks the chip's minimum itself.
  if (ptx == 0 || ptx >= chip.minPtx)
    return "";
  return "features '" + features + "' select PTX ISA " + ptxVersionString(ptx) +
         " (" + selected + "); " + chip.name + " needs PTX ISA " +
         ptxVersionString(chip.minPtx) +
         " or later (isaac's default for it: " + chip.ptxFeature() + ")";
}
