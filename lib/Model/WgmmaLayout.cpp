//===- WgmmaLayout.cpp - Shared-memory tiles of the wgmma family ----------===//
//
// The operand tiles' layout in shared memory (isaac/Model/Wgmma.h), apart
// from the legality rules: the generator's descriptors and copies, the
// legality rules' sizes and the runtime's tensor maps (whose boxes are the
// layout's column blocks) all read it. Compiled into the runtime too.
//
//===----------------------------------------------------------------------===//

#include "isaac/Model/Wgmma.h"

#include <algorithm>

using namespace isaac;

bool isaac::isWgmmaType(DType ab) {
  return ab == DType::F16 || ab == DType::BF16;
}

int WgmmaOperandLayout::offset(int r, int col) const {
  int perAtom = atomBytes / esz, perChunk = 16 / esz;
  int block = col / perAtom, within = col % perAtom;
  int chunk = within / perChunk;
  int phys = chunk ^ ((r / (128 / atomBytes)) % (atomBytes / 16));
  return (block * blockBytes + r * atomBytes) / esz + phys * perChunk +
         within % perChunk;
}

WgmmaOperandLayout isaac::getWgmmaOperandLayout(const GemmConfig &c, DType ab,
                                                bool isB, bool contigIsK) {
  WgmmaOperandLayout l;
  l.contigIsK = contigIsK;
  l.esz = dtypeBytes(ab);
  int mn = isB ? c.nl : c.ml;
  int perGroup = isB ? c.wn : c.wm;
  l.rows = contigIsK ? mn : c.u;
  l.cols = contigIsK ? c.u : mn;
  // One wgmma reads U/KL (K-major; whole k16 steps) or the warpgroup's
  // extent (M or N major) along the contiguous dimension.
  int extent = contigIsK ? c.u : perGroup;
  l.atomBytes = std::max(32, std::min(128, extent * l.esz));
  l.blockBytes = l.rows * l.atomBytes;
  l.bytes = l.rows * l.cols * l.esz;
  return l;
}
