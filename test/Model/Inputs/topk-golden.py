#!/usr/bin/env python3
"""The golden top-10 files of topk-golden-*.test.

  topk-golden.py shapes SHAPES [SELECT...]
      the inputs of SHAPES (topk-shapes.txt), `M N K LAYOUT BATCH` per
      line.
  topk-golden.py expected SHAPES GOLDEN.xz [SELECT...]
      the golden lines of the same inputs, in the same order.
  topk-golden.py write SHAPES GOLDEN.xz OUTPUT...
      assembles GOLDEN.xz from `isaac-model-test mlp-topk` outputs (any
      order, any split); every input of SHAPES must be in them, an input
      given twice must have the same line.

SELECT narrows the inputs: `--origin=table4,held-out` or `--origin=sweep`
(the origin comment of each line: `table4`, `scripts/eval/...` for the
held-out sets, `sweep` and `sweep-more` for the sweep problems), and
`--shard=I/N` keeps every N-th of those, from the I-th (0-based), so that
lit runs the long lists on all workers.

A golden line is `M N K LAYOUT BATCH: CONFIG ...`, the configurations best
first as GemmConfig::mangle() writes them.
"""
import lzma
import sys

ORIGINS = {
    "table4": ("table4",),
    "held-out": ("scripts/eval/shapes.txt", "scripts/eval/shapes-b.txt"),
    "sweep": ("sweep", "sweep-more"),
}


def shapes(path, select):
    origins, shard = None, (0, 1)
    for s in select:
        if s.startswith("--origin="):
            origins = set()
            for o in s[len("--origin="):].split(","):
                if o not in ORIGINS:
                    sys.exit("topk-golden.py: unknown origin '%s'" % o)
                origins.update(ORIGINS[o])
        elif s.startswith("--shard="):
            i, n = s[len("--shard="):].split("/")
            shard = (int(i), int(n))
        else:
            sys.exit("topk-golden.py: unknown option '%s'" % s)
    out = []
    for line in open(path):
        body, _, origin = line.partition("#")
        if not body.strip():
            continue
        words = origin.split()
        if origins is not None and (not words or words[0] not in origins):
            continue
        out.append(" ".join(body.split()))
    return out[shard[0]::shard[1]]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    select = [a for a in args if a.startswith("--")]
    args = [a for a in args if not a.startswith("--")]
    if cmd == "shapes":
        sys.stdout.write("".join(s + "\n" for s in shapes(args[0], select)))
    elif cmd == "expected":
        golden = {}
        with lzma.open(args[1], "rt") as f:
            for line in f:
                golden[line.split(":")[0]] = line
        for s in shapes(args[0], select):
            if s not in golden:
                sys.exit("topk-golden.py: %s is not in %s" % (s, args[1]))
            sys.stdout.write(golden[s])
    elif cmd == "write":
        lines = {}
        for path in args[2:]:
            for line in open(path):
                if not line.endswith("\n") or ":" not in line:
                    continue  # a cut-off last line
                key = line.split(":")[0]
                if lines.setdefault(key, line) != line:
                    sys.exit("topk-golden.py: %s differs between outputs" % key)
        missing = [s for s in shapes(args[0], []) if s not in lines]
        if missing:
            sys.exit("topk-golden.py: %d inputs missing, e.g. %s"
                     % (len(missing), missing[0]))
        with lzma.open(args[1], "wt", preset=9) as f:
            for s in shapes(args[0], []):
                f.write(lines[s])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
