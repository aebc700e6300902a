"""Fake timings of a conv evaluation (the CSV isaac-bench --conv --collect
writes) for conv-eval.test: every candidate of samples.txt takes 200 us,
the model's top-1 100 us, the heuristic's top-1 400 us unless it is the
model's. usage: fake-conv-times.py RANKS.json SAMPLES.txt > CSV"""
import json
import sys

ranks = json.load(open(sys.argv[1]))
top = {(r["model"][0], r["shape"]): 100.0 for r in ranks}
for r in ranks:
    top.setdefault((r["heuristic"][0], r["shape"]), 400.0)
cols = ["kernel", "n", "h", "w", "c", "k", "r", "s", "stride_h", "stride_w",
        "pad_top", "pad_left", "dilation_h", "dilation_w", "p", "q",
        "time_us", "status"]
print("# fake timings")
print(",".join(cols))
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    kernel, shape = line.split()
    t = top.get((kernel, shape), 200.0)
    print(",".join([kernel] + shape.split(",") + ["%.3f" % t, "ok"]))
