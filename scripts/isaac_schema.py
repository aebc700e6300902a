#!/usr/bin/env python3
"""The tuning-space schema for isaac's Python tools.

Reads include/isaac/Model/GemmParams.def, the one table of tuning
parameters, kernel families, the legacy nine-value vector and the
element-type tokens of kernel names, and implements what lib/Model derives
from it (include/isaac/Model/GemmConfig.h) for scripts: the attribute
text of a configuration, kernel-name mangling and its parser.

A configuration is a dict: {"family": "simt", "ml": 64, ..., "stages": 2},
every parameter of the table present (the ones its family does not use at
their defaults); config() builds one.

It also reads include/isaac/Runtime/KernelABI.def, the kernel ABI, and
renders docs/abi.md's tables of kernel arguments from it.

    python3 scripts/isaac_schema.py            # the table, as
                                               # `isaac-model-test schema`
    python3 scripts/isaac_schema.py NAME...    # parse kernel names
    python3 scripts/isaac_schema.py --abi-doc DOC
                                               # DOC's ABI tables with the
                                               # ones KernelABI.def gives
"""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF_PATH = os.path.join(REPO, "include", "isaac", "Model", "GemmParams.def")
ABI_PATH = os.path.join(REPO, "include", "isaac", "Runtime", "KernelABI.def")
CHIPS_PATH = os.path.join(REPO, "include", "isaac", "Model", "Chips.def")


class Param:
    def __init__(self, name, mangle, lo, hi, default, pow2, families, doc):
        self.name, self.mangle, self.lo, self.hi = name, mangle, lo, hi
        self.default, self.pow2, self.families, self.doc = (default, pow2,
                                                            families, doc)

    def values(self):
        """Every value of [lo, hi] (powers of two where the table says so)."""
        out, x = [], self.lo
        while x <= self.hi:
            if not self.pow2 or x & (x - 1) == 0:
                out.append(x)
            x = 2 * x if self.pow2 else x + 1
        return out


def _rows(text, macro):
    """The argument lists of the `macro(...)` rows of the .def (one a line)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*%s\((.*)\)\s*$" % macro, line)
        if m:
            out.append([a.strip() for a in
                        re.findall(r'\s*("[^"]*"|[^,]+)\s*(?:,|$)',
                                   m.group(1))])
    return out


def _unquote(s):
    if not (s.startswith('"') and s.endswith('"')):
        raise ValueError("GemmParams.def: expected a string literal, got %s" % s)
    return s[1:-1]


class Schema:
    def __init__(self, path=DEF_PATH):
        text = open(path).read()
        # Families, in order: GemmFamily's values.
        self.families = []  # (Name, token)
        for name, token, _doc in _rows(text, "GEMM_FAMILY"):
            self.families.append((name, _unquote(token)))
        token_of = dict(self.families)
        self.params = []
        for row in _rows(text, "GEMM_PARAM"):
            name, mangle, lo, hi, default, pow2, fams, doc = row
            families = [token_of[f] for f in
                        re.findall(r"GEMM_FAMILY_BIT\((\w+)\)", fams)]
            self.params.append(Param(name, _unquote(mangle), int(lo), int(hi),
                                     int(default), pow2 == "true", families,
                                     _unquote(doc)))
        self.by_name = {p.name: p for p in self.params}
        (legacy,) = _rows(text, "GEMM_LEGACY_VECTOR")
        self.legacy = legacy
        # The learned models' nine parameters per family (Features.h).
        self.feature_vectors = {}  # family token -> [parameter names]
        for row in _rows(text, "GEMM_FEATURE_VECTOR"):
            self.feature_vectors[token_of[row[0]]] = row[1:]
        # Parameters a family's models read outside the nine, through a
        # derived feature (GEMM_EXTRA_FEATURE: simt's stages).
        self.extra_features = {}  # family token -> [parameter names]
        for fam, name in _rows(text, "GEMM_EXTRA_FEATURE"):
            self.extra_features.setdefault(token_of[fam], []).append(name)
        self.types = {}  # token -> (ab, c, tf32)
        for token, ab, c, tf32 in _rows(text, "GEMM_TYPES"):
            self.types[token] = (ab.lower(), c.lower(), tf32 == "true")

    # -- Families and parameters -------------------------------------------

    def family_tokens(self):
        return [t for _, t in self.families]

    def family_params(self, family):
        """The parameters `family` uses, in table order."""
        return [p for p in self.params if family in p.families]

    def optional_in(self, family, name):
        """Whether `family` uses `name` outside its models' feature vector
        (GemmConfig.h: gemmParamOptional): written only when it differs
        from its default."""
        return (family in self.by_name[name].families and
                name not in self.feature_vectors[family])

    def optional(self, name):
        """Whether `name` may be left out of an attribute: optional in some
        family."""
        return any(self.optional_in(f, name) for _, f in self.families)

    def config(self, family="simt", **values):
        """A configuration: the table's defaults, then `values`."""
        cfg = {"family": family}
        for p in self.params:
            cfg[p.name] = p.default
        for k, v in values.items():
            if k not in self.by_name:
                raise KeyError("no parameter %r in GemmParams.def" % k)
            cfg[k] = int(v)
        return cfg

    def is_written(self, cfg, name):
        """Whether parameter `name` appears in cfg's text and kernel name."""
        p = self.by_name[name]
        if cfg["family"] not in p.families:
            return False
        if self.optional_in(cfg["family"], name):
            return cfg[name] != p.default
        return True

    # -- Attribute text ------------------------------------------------------

    def attr_text(self, cfg):
        """`ml = 64, nl = 64, ...` as inside #isaac.gemm<...>."""
        parts = [] if cfg["family"] == "simt" else ["family = " + cfg["family"]]
        parts += ["%s = %d" % (p.name, cfg[p.name]) for p in self.params
                  if self.is_written(cfg, p.name)]
        return ", ".join(parts)

    def parse_attr_text(self, text):
        """The configuration of `key = value, ...` (the inside of
        #isaac.gemm<...>, or the whole attribute)."""
        m = re.search(r"#isaac\.gemm<([^>]*)>", text)
        body = m.group(1) if m else text
        pairs = [kv.split("=") for kv in body.split(",") if kv.strip()]
        pairs = [(k.strip(), v.strip()) for k, v in pairs]
        family = "simt"
        if pairs and pairs[0][0] == "family":
            family = pairs.pop(0)[1]
            if family not in self.family_tokens():
                raise ValueError("unknown family %r" % family)
        cfg = self.config(family)
        seen = set()
        for k, v in pairs:
            p = self.by_name.get(k)
            if p is None or family not in p.families:
                raise ValueError("%r is not a parameter of the %s family" %
                                 (k, family))
            if k in seen:
                raise ValueError("%r given twice" % k)
            seen.add(k)
            cfg[k] = int(v)
        for p in self.family_params(family):
            if p.name not in seen and not self.optional(p.name):
                raise ValueError("missing parameter %r" % p.name)
        return cfg

    # -- Kernel names ----------------------------------------------------------

    def mangle(self, cfg):
        """ml64_nl64_..._v4 (simt), mma_ml128_..._st4 (GemmConfig::mangle)."""
        parts = [] if cfg["family"] == "simt" else [cfg["family"]]
        parts += ["%s%d" % (p.mangle, cfg[p.name]) for p in self.params
                  if self.is_written(cfg, p.name)]
        return "_".join(parts)

    def parse_mangled(self, text):
        """The configuration whose mangle() is `text` (canonical names only)."""
        parts = text.split("_")
        family = "simt"
        if parts and parts[0] in self.family_tokens() and parts[0] != "simt":
            family = parts.pop(0)
        cfg = self.config(family)
        by_mangle = {p.mangle: p for p in self.family_params(family)}
        for part in parts:
            m = re.match(r"([a-z]+)(\d{1,9})$", part)
            if not m or m.group(1) not in by_mangle:
                raise ValueError("%r: %r is not a parameter of the %s family" %
                                 (text, part, family))
            cfg[by_mangle[m.group(1)].name] = int(m.group(2))
        if self.mangle(cfg) != text:
            raise ValueError("%r is not the canonical name %r" %
                             (text, self.mangle(cfg)))
        return cfg

    def kernel_name(self, types, layout, cfg, epilogue=None):
        """isaac_gemm_<types>_<layout>_<config>[_ep<ID>] (docs/abi.md)."""
        if types not in self.types:
            raise ValueError("unknown element-type token %r" % types)
        name = "isaac_gemm_%s_%s_%s" % (types, layout, self.mangle(cfg))
        return name + ("_ep" + epilogue if epilogue else "")

    def conv_kernel_name(self, types, layout, cfg):
        """isaac_conv_<types>_nhwc_<layout>_<family>_<config>
        (ConvKernelName): the filter layout `hwcf` or `fhwc`, and the family
        always written, simt's too."""
        if types not in self.types:
            raise ValueError("unknown element-type token %r" % types)
        mangled = self.mangle(cfg)
        if cfg["family"] == "simt":
            mangled = "simt_" + mangled
        return "isaac_conv_%s_nhwc_%s_%s" % (types, layout, mangled)

    def parse_kernel_name(self, name):
        """(types, layout, config, epilogue ID or None) of a kernel name."""
        m = re.match(r"isaac_gemm_([a-z0-9]+)_([nt][nt])_(.*?)"
                     r"(?:_ep([0-9a-f]{16}))?$", name)
        if not m or m.group(1) not in self.types:
            raise ValueError("%r is not isaac_gemm_<types>_<layout>_<config>"
                             "[_ep<ID>]" % name)
        return m.group(1), m.group(2), self.parse_mangled(m.group(3)), m.group(4)

    # -- Printing --------------------------------------------------------------

    def describe(self):
        """The table, in the words of `isaac-model-test schema`."""
        lines = []
        for name, token in self.families:
            lines.append("family %s: %s" % (token, " ".join(
                p.name for p in self.family_params(token))))
        for p in self.params:
            lines.append("param %s mangle=%s range=[%d,%d] default=%d pow2=%d "
                         "families=%s optional=%d" % (
                             p.name, p.mangle, p.lo, p.hi, p.default,
                             int(p.pow2), ",".join(p.families),
                             int(self.optional(p.name))))
        lines.append("legacy " + " ".join(self.legacy))
        for token, (ab, c, tf32) in self.types.items():
            lines.append("types %s ab=%s c=%s tf32=%d" % (token, ab, c, int(tf32)))
        return "\n".join(lines)


# --------------------------------------------------------------------------
# The kernel ABI (include/isaac/Runtime/KernelABI.def)
# --------------------------------------------------------------------------

PTX_TYPES = {"Ptr": "`.u64` ptr", "U32": "`.u32`", "U64": "`.u64`",
             "Scalar": "`.f32`/`.f64`", "TensorMap": "`.align 64 .b8 [128]`"}
# Inside a signature, itself one code span: no backticks of their own.
SIGNATURE_TYPES = {"Ptr": ".u64", "U32": ".u32", "U64": ".u64", "Scalar": "T",
                   "TensorMap": ".align 64 .b8 [128]"}


def kernel_abi(path=ABI_PATH):
    """{list: [(index, name, type, meaning)]} for GEMM_ARG, CONV_ARG,
    FUSED_GEMM_ARG, EPILOGUE_INPUT_ARG, TMA_GEMM_ARG, SCALE_ARG, REDUCE_ARG,
    HOST_ARG, HOST_EPILOGUE_ARG."""
    text = open(path).read()
    out = {}
    for macro in ("GEMM_ARG", "CONV_ARG", "FUSED_GEMM_ARG",
                  "EPILOGUE_INPUT_ARG", "TMA_GEMM_ARG", "SCALE_ARG",
                  "REDUCE_ARG", "HOST_ARG", "HOST_EPILOGUE_ARG"):
        out[macro] = [(int(i), n, t, _unquote(m))
                      for i, n, t, m in _rows(text, macro)]
    return out


def abi_blocks(abi=None):
    """The generated blocks of docs/abi.md, by name: Markdown tables of the
    GEMM kernel's arguments, the convolution kernel's, a fused kernel's and
    a wgmma GEMM kernel's last ones (at P + i, P the number of all its
    others), and the helper kernels' signatures."""
    abi = abi or kernel_abi()
    head = ["| # | name | type | meaning |", "|---|------|------|---------|"]
    gemm = head + ["| %d | %s | %s | %s |" % (i, n, PTX_TYPES[t], m)
                   for i, n, t, m in abi["GEMM_ARG"]]
    conv = head + ["| %d | %s | %s | %s |" % (i, n, PTX_TYPES[t], m)
                   for i, n, t, m in abi["CONV_ARG"]]
    first = len(abi["GEMM_ARG"]) + len(abi["FUSED_GEMM_ARG"])
    per = len(abi["EPILOGUE_INPUT_ARG"])
    fused = head + ["| %d | %s | %s | %s |" % (i, n, PTX_TYPES[t], m)
                    for i, n, t, m in abi["FUSED_GEMM_ARG"]]
    fused += ["| %d + %di | %s_i | %s | %s |" % (first + i, per, n,
                                                 PTX_TYPES[t], m)
              for i, n, t, m in abi["EPILOGUE_INPUT_ARG"]]
    tma = head + ["| P + %d | %s | %s | %s |" % (i, n, PTX_TYPES[t], m)
                  for i, n, t, m in abi["TMA_GEMM_ARG"]]

    def signature(kernel, macro, inputs=False):
        args = ["%s %s" % (n, SIGNATURE_TYPES[t]) for _, n, t, _ in abi[macro]]
        if inputs:
            args += ["%s_0 %s" % (n, SIGNATURE_TYPES[t])
                     for _, n, t, _ in abi["EPILOGUE_INPUT_ARG"]] + ["..."]
        return "`%s(%s)`:" % (kernel, ", ".join(args))
    helpers = [signature("isaac_scale_<dtype>", "SCALE_ARG"),
               signature("isaac_splitk_reduce_<dtype>", "REDUCE_ARG"),
               signature("isaac_splitk_reduce_<dtype>_ep<ID>", "REDUCE_ARG",
                         inputs=True)]
    return {"gemm-args": "\n".join(gemm), "conv-args": "\n".join(conv),
            "fused-args": "\n".join(fused), "tma-args": "\n".join(tma),
            "helper-scale": helpers[0], "helper-reduce": helpers[1],
            "helper-reduce-ep": helpers[2]}


def check_abi_doc(path):
    """The blocks of `path` between `<!-- abi: NAME -->` and
    `<!-- /abi -->` against abi_blocks(); returns the differences."""
    text = open(path).read()
    blocks = abi_blocks()
    problems = []
    found = re.findall(r"<!-- abi: ([\w-]+) -->\n(.*?)\n<!-- /abi -->", text,
                       flags=re.S)
    for name, body in found:
        want = blocks.pop(name, None)
        if want is None:
            problems.append("%s: unknown block %r" % (path, name))
        elif body != want:
            problems.append("%s: block %r differs from KernelABI.def:\n"
                            "--- in the file\n%s\n--- from the table\n%s" %
                            (path, name, body, want))
    for name in blocks:
        problems.append("%s: no block %r" % (path, name))
    return problems


def chip_sms(chip, path=CHIPS_PATH):
    """The SMs of `chip` in the chip table (Chips.def's second column)."""
    for name, sms in re.findall(r"^CHIP\((\w+),\s*(\d+),", open(path).read(),
                                re.M):
        if name == chip:
            return int(sms)
    raise KeyError("no chip %r in %s" % (chip, path))


_SCHEMA = None


def schema():
    """The schema of this checkout (read once)."""
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = Schema()
    return _SCHEMA


def main(argv):
    if len(argv) == 3 and argv[1] == "--abi-doc":
        problems = check_abi_doc(argv[2])
        for p in problems:
            print(p)
        if not problems:
            print("%s: every ABI block agrees with KernelABI.def" % argv[2])
        return 1 if problems else 0
    s = schema()
    if len(argv) == 1:
        print(s.describe())
        return 0
    for name in argv[1:]:
        types, layout, cfg, ep = s.parse_kernel_name(name)
        print("%s %s %s <%s>%s" % (name, types, layout, s.attr_text(cfg),
                                   " ep=" + ep if ep else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
