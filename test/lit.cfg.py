# -*- Python -*-

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ISAAC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.isaac_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%isaac_src", config.isaac_src_root))
config.substitutions.append(("%isaac_libs", config.isaac_lib_dir))
config.substitutions.append(("%python", config.python_executable or "python3"))

# The golden-search tests over the correctness sweep's 5,811 inputs take
# ~33 minutes of the 2-core machine; check-isaac runs every 16th input,
# check-isaac-full (lit --param isaac_full_sweep=1) runs them all.
if lit_config.params.get("isaac_full_sweep", "0") not in ("0", ""):
    config.substitutions.append(("%sweep_sample", "--shard=0/1"))
else:
    config.substitutions.append(("%sweep_sample", "--shard=0/16"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.isaac_tools_dir, config.llvm_tools_dir]
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tools = [
    "isaac-opt",
    "isaac-model-test",
    "isaac-conv-test",
    "isaac-epilogue-test",
    "isaac-runtime-test",
    "isaac-tune",
    ToolSubst("mlir-opt", unresolved="ignore"),
    # LLVM 22's, from llvm_tools_dir: LLVM IR of the host side.
    ToolSubst("mlir-translate", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# scripts/gen_kernels.py asks this isaac-opt which configurations are legal.
config.environment["ISAAC_OPT"] = os.path.join(config.isaac_tools_dir,
                                               "isaac-opt")

# ptxas checks run only where the CUDA toolkit is installed.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))

# The end-to-end example (examples/e2e) links against the CUDA toolkit's
# static cudart, installed next to ptxas.
cuda_home = (os.path.dirname(os.path.dirname(config.ptxas)) if config.ptxas
             else "/usr/local/cuda")
if os.path.exists(os.path.join(cuda_home, "lib64", "libcudart_static.a")):
    config.available_features.add("cudart-static")
    config.substitutions.append(("%cuda_home", cuda_home))

# isaac-bench is built where the CUDA toolkit is (scripts/build.sh); without
# a GPU only its command line and its error paths can be tested.
if os.path.exists(os.path.join(config.isaac_tools_dir, "isaac-bench")):
    config.available_features.add("isaac-bench")
    config.substitutions.append(
        ("%isaac_bench", os.path.join(config.isaac_tools_dir, "isaac-bench")))
