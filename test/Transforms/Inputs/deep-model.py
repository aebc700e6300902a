#!/usr/bin/env python3
"""Writes a one-network model file (docs/model-format.md, version 1) with
the header records of MODEL and DEPTH hidden layers of WIDTH neurons whose
every weight is WEIGHT (biases 0), standardization of mean 0 and the
smallest allowed deviation (inputs x1024), output deviation 64: every
number within the loader's bounds, the predictions as large as the depth
makes them. Signed with a valid checksum.

usage: deep-model.py MODEL DEPTH WIDTH WEIGHT > OUT
"""
import sys
import zlib


def main():
    model, depth, width, weight = (sys.argv[1], int(sys.argv[2]),
                                   int(sys.argv[3]), sys.argv[4])
    out = ["isaac-mlp 1"]
    for line in open(model):
        word = line.split()[0] if line.split() else ""
        if word in ("dtype", "chip", "num-sms", "target", "data", "features"):
            out.append(line.rstrip("\n"))
    features = 19
    sizes = [features] + [width] * depth + [1]
    out.append("layers " + " ".join(map(str, sizes)))
    out.append("input-mean " + " ".join(["0"] * features))
    out.append("input-std " + " ".join(["0x1p-10"] * features))
    out.append("output-mean 0")
    out.append("output-std 64")
    for l in range(len(sizes) - 1):
        out.append("layer %d" % l)
        row = " ".join([weight] * sizes[l] + ["0"])
        out.extend([row] * sizes[l + 1])
    body = "\n".join(out) + "\n"
    sys.stdout.write(body + "end %08x\n" % (zlib.crc32(body.encode()) & 0xFFFFFFFF))


if __name__ == "__main__":
    main()
