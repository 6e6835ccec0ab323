#!/usr/bin/env python3
"""Embed kernels/*.cl into tensorlayout_ocl.h as string literals.

The .cl files are the source of truth; the header carries a generated copy
so that users need neither Python nor our build. The copy sits between the
BEGIN/END marker lines in the implementation section, one literal per
source line (far below compiler limits on literal length, and exactly the
shape clCreateProgramWithSource takes).

    embed_cl.py           rewrite the header if it is stale
    embed_cl.py --check   exit 1 (and say so) if the header is stale
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER = ROOT / "tensorlayout_ocl.h"
KERNELS = ROOT / "kernels"
BEGIN = "/* ---- BEGIN generated kernel sources ---- */"
END = "/* ---- END generated kernel sources ---- */"


def c_literal(line):
    """One source line as a C string literal, newline included."""
    out = []
    prev = ""
    for ch in line:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\t":
            out.append("\\t")
        elif ch == "?" and prev == "?":
            out.append("\\?")  # no trigraphs (C99 still has them)
        elif ord(ch) < 0x20 or ord(ch) > 0x7e:
            raise SystemExit("embed_cl: non-ASCII or control character %r in %r"
                             % (ch, line))
        else:
            out.append(ch)
        prev = ch
    return '"' + "".join(out) + '\\n"'


def generated_block():
    files = sorted(KERNELS.glob("*.cl"))
    if not files:
        raise SystemExit("embed_cl: no kernels/*.cl found")
    # Line comments: a block comment may not contain the "/*" of "*.cl".
    lines = [BEGIN,
             "// GENERATED from kernels/*.cl by tools/embed_cl.py. DO NOT EDIT.",
             "// Regenerate: meson compile -C build embed-cl",
             "static const char *const tl__ocl_source_lines[] = {"]
    for path in files:
        lines.append("    /* kernels/%s */" % path.name)
        text = path.read_text(encoding="ascii")
        for src in text.splitlines():
            lines.append("    " + c_literal(src.rstrip()) + ",")
    lines.append("};")
    lines.append(END)
    return "\n".join(lines)


def updated_header(current):
    begin = current.find(BEGIN)
    end = current.find(END)
    if begin < 0 or end < begin:
        raise SystemExit("embed_cl: markers not found in %s" % HEADER)
    return current[:begin] + generated_block() + current[end + len(END):]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if tensorlayout_ocl.h is stale; write nothing")
    args = ap.parse_args()
    current = HEADER.read_text(encoding="ascii")
    wanted = updated_header(current)
    if args.check:
        if wanted != current:
            print("tensorlayout_ocl.h is stale: kernels/*.cl changed; run "
                  "'meson compile -C build embed-cl' (tools/embed_cl.py)",
                  file=sys.stderr)
            return 1
        print("tensorlayout_ocl.h matches kernels/*.cl")
        return 0
    if wanted != current:
        HEADER.write_text(wanted, encoding="ascii")
        print("updated", HEADER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
