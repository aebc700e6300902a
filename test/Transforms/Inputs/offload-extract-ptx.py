"""Writes the PTX that gpu-module-to-binary{format=isa} embedded in an LLVM IR
module (one `@<module>_binary` string per gpu.module, as mlir-translate emits
it) to <dir>/<module>.ptx, and prints the module names."""

import os
import re
import sys

ir = open(sys.argv[1]).read()
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
pattern = re.compile(r'^@(\w+)_binary = internal constant \[\d+ x i8\] c"([^"]*)"',
                     re.M)
for name, text in pattern.findall(ir):
    # LLVM IR string constants escape everything unprintable, '"' and '\'
    # as \XX (two hex digits).
    ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write(ptx.rstrip("\0"))
    print(name)
