#!/usr/bin/env python3
"""Writes a model file (docs/model-format.md) with the given `support`
records, re-signed: a version-1 model becomes a version-2 one (the records
after `data`, `members 1` and `member 0` before its layers), a version-2
model has its records replaced.

usage: with-support.py MODEL 'ml 1 2' 'u 64' ... > OUT
Parameters not named keep every value from 1 to 1024; a record is written
as given (so tests can write malformed ones too), e.g. 'nl 4 2'. A
'stages ...' record (simt's extra feature) goes after the nine.
"""
import sys
import zlib

PARAMS = ["ml", "nl", "ms", "ns", "u", "ks", "kl", "kg", "vec"]
EXTRA = ["stages"]


def main():
    text = open(sys.argv[1]).read()
    lines = text.split("\n")
    given = {}
    order = []
    for spec in sys.argv[2:]:
        name = spec.split()[0]
        given[name] = "support " + spec
        order.append(name)
    every = " ".join(str(1 << i) for i in range(11))
    records = [given.get(p, "support %s %s" % (p, every)) for p in PARAMS]
    # A record for an unknown parameter name goes first (malformed files);
    # simt's extra feature (stages) after the nine.
    records = [given[n] for n in order if n not in PARAMS + EXTRA] + \
        records + [given[n] for n in order if n in EXTRA]
    v1 = lines[0].strip() == "isaac-mlp 1"
    out = []
    for line in lines:
        if line.startswith("isaac-mlp "):
            line = "isaac-mlp 2"
        if line.startswith("support ") or line.startswith("end "):
            continue
        out.append(line)
        if line.startswith("data "):
            out += records
        if v1 and line.startswith("output-std "):
            out += ["members 1", "member 0"]
    body = "\n".join(l for l in out if l != "") + "\n"
    sys.stdout.write(body + "end %08x\n" % (zlib.crc32(body.encode()) & 0xFFFFFFFF))


if __name__ == "__main__":
    main()
