//===- KernelDir.cpp - The PTX kernels of a ptx-dir -----------------------===//

#include "KernelDir.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bench {

bool loadKernelDir(const std::string &dir, const std::string &onlyName,
                   std::vector<KernelFile> &kernels, std::string &error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".ptx")
      paths.push_back(it->path());
  if (ec) {
    error = "cannot read --ptx-dir '" + dir + "': " + ec.message();
    return false;
  }
  std::sort(paths.begin(), paths.end());
  for (const fs::path &path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "isaac-bench: warning: cannot read %s; skipped\n",
                   path.c_str());
      continue;
    }
    KernelFile kernel;
    kernel.path = path.string();
    kernel.ptx = text.str();
    if (isaacParseKernelInfo(kernel.ptx.c_str(), &kernel.info)) {
      if (mentionsEpilogue(kernel.ptx)) {
        error = path.string() +
                ": malformed fused-epilogue kernel: " + isaacGetLastError();
        return false;
      }
      std::fprintf(stderr, "isaac-bench: warning: %s: %s; skipped\n",
                   path.c_str(), isaacGetLastError());
      continue;
    }
    if (kernel.info.epilogue[0]) {
      auto epilogue = std::make_shared<KernelEpilogue>();
      std::string why;
      if (!loadKernelEpilogue(kernel.ptx, kernel.info, *epilogue, why)) {
        error =
            path.string() + ": fused kernel " + kernel.info.name + ": " + why;
        return false;
      }
      kernel.epilogue = std::move(epilogue);
    }
    // After the epilogue check: a malformed fused kernel is an error even
    // when another kernel is selected.
    if (!onlyName.empty() && onlyName != kernel.info.name)
      continue;
    if (path.stem().string() != kernel.info.name)
      std::fprintf(stderr,
                   "isaac-bench: warning: %s holds kernel %s (file name and "
                   "entry name differ)\n",
                   path.c_str(), kernel.info.name);
    kernels.push_back(std::move(kernel));
  }
  return true;
}

} // namespace bench
