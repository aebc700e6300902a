#!/usr/bin/env python3
"""Writes L transformer layers' projection GEMMs as one module, for the
compile-time measurement of repeated layers (docs/perf.md, "Compile
time"): each layer a function of four linalg.matmul on memrefs, the
BERT-base shapes at T tokens (QKV T x 2304 x 768, output T x 768 x 768,
FFN T x 3072 x 768 and T x 768 x 3072), of one element type.

    layers_mlir.py [LAYERS (12)] [TOKENS (512)] [DTYPE (f16)] > layers.mlir
"""
import sys


def main(argv):
    layers = int(argv[0]) if argv else 12
    tokens = int(argv[1]) if len(argv) > 1 else 512
    dtype = argv[2] if len(argv) > 2 else "f16"
    shapes = [(tokens, 2304, 768), (tokens, 768, 768), (tokens, 3072, 768),
              (tokens, 768, 3072)]
    print("module {")
    for layer in range(layers):
        args, body = [], []
        for i, (m, n, k) in enumerate(shapes):
            a = f"memref<{m}x{k}x{dtype}>"
            b = f"memref<{k}x{n}x{dtype}>"
            c = f"memref<{m}x{n}x{dtype}>"
            args += [f"%A{i}: {a}", f"%B{i}: {b}", f"%C{i}: {c}"]
            body.append(f"  linalg.matmul ins(%A{i}, %B{i} : {a}, {b}) "
                        f"outs(%C{i} : {c})")
        print(f"func.func @layer{layer}({', '.join(args)}) {{")
        print("\n".join(body))
        print("  return\n}")
    print("}")


if __name__ == "__main__":
    main(sys.argv[1:])
