#!/usr/bin/env python3
"""Writes the code blocks of README.md that the lit tests run.

A block is tested when the line before its opening fence (blank lines
aside) is an HTML comment `<!-- readme-test: NAME -->`, which Markdown
renders as nothing: the block's text is written to OUTDIR/NAME, exactly as
the README shows it, and NAME is printed. test/Examples/readme-*.test run
the files, so the README's commands and code cannot rot.

Usage: readme-blocks.py README.md OUTDIR
"""
import os
import re
import sys

MARKER = re.compile(r"^<!-- readme-test: ([A-Za-z0-9._-]+) -->$")
FENCE = re.compile(r"^(```+)\s*([A-Za-z0-9+-]*)\s*$")


def blocks(lines):
    """Yields (name, text, line) for every marked block."""
    pending = None  # (name, line) of a marker awaiting its fence
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\n")
        marker = MARKER.match(line)
        fence = FENCE.match(line)
        if marker:
            if pending:
                sys.exit(f"README.md:{pending[1]}: marker without a block")
            pending = (marker.group(1), i + 1)
        elif fence:
            end = i + 1
            while end < len(lines) and lines[end].rstrip("\n") != fence.group(1):
                end += 1
            if end == len(lines):
                sys.exit(f"README.md:{i + 1}: unterminated code block")
            if pending:
                yield pending[0], "".join(lines[i + 1:end]), pending[1]
                pending = None
            i = end
        elif line.strip() and pending:
            sys.exit(f"README.md:{pending[1]}: marker not followed by a block")
        i += 1
    if pending:
        sys.exit(f"README.md:{pending[1]}: marker without a block")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = f.readlines()
    seen = set()
    for name, text, line in blocks(lines):
        if name in seen:
            sys.exit(f"README.md:{line}: block name '{name}' used twice")
        seen.add(name)
        with open(os.path.join(sys.argv[2], name), "w", encoding="utf-8") as f:
            f.write(text)
        print(name)


if __name__ == "__main__":
    main()
