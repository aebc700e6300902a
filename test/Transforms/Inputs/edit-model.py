#!/usr/bin/env python3
"""Writes a model file (docs/model-format.md) with a regular-expression
substitution applied to its body, re-signed (a valid `end` checksum), so
that tests can hand the loader files whose only fault is their numbers.

usage: edit-model.py MODEL PATTERN REPLACEMENT [COUNT] > OUT
PATTERN is a Python regular expression (multi-line mode) over the text
before the `end` line; COUNT (default 1) replacements, 0 for all. The
pattern must match.
"""
import re
import sys
import zlib


def main():
    text = open(sys.argv[1]).read()
    body = text[:text.rindex("\nend ") + 1]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    new, n = re.subn(sys.argv[2], sys.argv[3], body, count=count, flags=re.M)
    if n == 0:
        sys.exit("edit-model.py: '%s' does not match" % sys.argv[2])
    sys.stdout.write(new + "end %08x\n" % (zlib.crc32(new.encode()) & 0xFFFFFFFF))


if __name__ == "__main__":
    main()
