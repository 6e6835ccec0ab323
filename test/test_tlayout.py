#!/usr/bin/env python3
"""Checks the tlayout tool from the outside: every subcommand's output
against offsets and strides computed here by hand, the SVGs (well-formed,
the right number of cells, each labelled with the right offset), the
checked-in docs pictures, and bad arguments (exit 2, a message on stderr).

usage: test_tlayout.py TLAYOUT SOURCE_ROOT
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TL = os.path.abspath(sys.argv[1])
ROOT = sys.argv[2]
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, cwd=None):
    p = subprocess.run([TL] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=120, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def ceil_to(v, m):
    return (v + m - 1) // m * m


# ---- independent layout formulas -----------------------------------------

def off_nchw(d, i):
    N, C, H, W = d
    n, c, h, w = i
    return ((n * C + c) * H + h) * W + w


def off_nhwc(d, i):
    N, C, H, W = d
    n, c, h, w = i
    return ((n * H + h) * W + w) * C + c


def off_nChwXc(x):
    def f(d, i):
        N, C, H, W = d
        n, c, h, w = i
        cb = ceil_to(C, x) // x
        return (((n * cb + c // x) * H + h) * W + w) * x + c % x
    return f


def off_OIhw4i16o4i(d, i):
    O, I, H, W = d
    o, ii, h, w = i
    ib = ceil_to(I, 16) // 16
    inner = ((ii % 16) // 4) * 64 + (o % 16) * 4 + ii % 4
    return (((o // 16 * ib + ii // 16) * H + h) * W + w) * 256 + inner


def padded(tag, d):
    N, C, H, W = d
    if tag == "nChw16c":
        return [N, ceil_to(C, 16), H, W]
    if tag == "nChw8c":
        return [N, ceil_to(C, 8), H, W]
    if tag == "OIhw4i16o4i":
        return [ceil_to(N, 16), ceil_to(C, 16), H, W]
    return list(d)


FORMULAS = {"nchw": off_nchw, "nhwc": off_nhwc, "nChw16c": off_nChwXc(16),
            "nChw8c": off_nChwXc(8), "OIhw4i16o4i": off_OIhw4i16o4i}
CANON = {"nchw": "abcd", "nhwc": "acdb", "nChw16c": "aBcd16b", "nChw8c": "aBcd8b",
         "OIhw4i16o4i": "ABcd4b16a4b"}
NAMES = {"OIhw4i16o4i": "oihw"}


def dims_arg(d):
    return "x".join(str(v) for v in d)


def field(out, label):
    m = re.search(r"^%s\s+(.*)$" % re.escape(label), out, re.M)
    return m.group(1).strip() if m else None


def prod(v):
    r = 1
    for x in v:
        r *= x
    return r


# ---- describe ---------------------------------------------------------------

def test_describe(rng):
    for tag, f in FORMULAS.items():
        for _ in range(3):
            d = [rng.randint(1, 3), rng.randint(1, 40), rng.randint(1, 6), rng.randint(1, 6)]
            rc, out, err = run("describe", dims_arg(d), "f32", tag)
            check(rc == 0, "describe %s %s rc %d %s" % (tag, d, rc, err))
            pd = padded(tag, d)
            check(field(out, "padded dims") == " x ".join(map(str, pd)),
                  "describe %s %s padded dims: %s" % (tag, d, field(out, "padded dims")))
            check(field(out, "canonical") == CANON[tag], "describe %s canonical" % tag)
            check(field(out, "size") == "%d bytes" % (prod(pd) * 4), "describe %s size" % tag)
            check(field(out, "elements") == "%d logical, %d with padding" % (prod(d), prod(pd)),
                  "describe %s elements" % tag)
            # strides: the offset step of each dim, outside its blocks
            steps = []
            for k in range(4):
                blk = {"nChw16c": [1, 16, 1, 1], "nChw8c": [1, 8, 1, 1],
                       "OIhw4i16o4i": [16, 16, 1, 1]}.get(tag, [1, 1, 1, 1])[k]
                one = [0, 0, 0, 0]
                one[k] = blk
                steps.append(f(pd, one) if pd[k] > blk else None)
            got = field(out, "strides").split("(")[0].split()
            for k in range(4):
                if steps[k] is not None:
                    check(int(got[k]) == steps[k], "describe %s %s stride %d: %s vs %d"
                          % (tag, d, k, got[k], steps[k]))
            # the printed formula, evaluated, gives the same offsets
            expr = field(out, "offset")
            names = NAMES.get(tag, "nchw")
            for _ in range(5):
                idx = [rng.randrange(v) for v in pd]
                env = dict(zip(names, idx))
                val = eval(expr.replace("/", "//"), {}, env)
                check(val == f(pd, idx), "describe %s formula %s at %s" % (tag, expr, idx))
    rc, out, _ = run("describe", "2x17x5x5", "f32", "nChw16c")
    out = " ".join(out.split())
    check("blocks of 16" in out and "padded to 32" in out and "750 of the 1600" in out,
          "describe explains nChw16c padding")
    rc, out, _ = run("describe", "2x17x5x5", "f32", "any")
    check(rc == 0 and "placeholder" in out, "describe any")
    rc, out, _ = run("describe", "2x16x4x4", "f32", "nChw8c", "--view", "1x8x4x4",
                     "--at", "1,8,0,0")
    check(rc == 0 and field(out, "offset0") == str(off_nChwXc(8)([2, 16, 4, 4], [1, 8, 0, 0])),
          "describe view offset0: %s" % field(out, "offset0"))


# ---- offset -----------------------------------------------------------------

def test_offset(rng):
    for tag, f in FORMULAS.items():
        d = [2, 17, 3, 5] if tag != "OIhw4i16o4i" else [20, 18, 2, 3]
        pd = padded(tag, d)
        for _ in range(6):
            idx = [rng.randrange(v) for v in pd]
            want = f(pd, idx)
            rc, out, err = run("offset", dims_arg(d), "f32", tag, "--index",
                               ",".join(map(str, idx)))
            m = re.search(r"element offset (\d+) \(bytes (\d+)\.\.", out)
            check(rc == 0 and m and int(m.group(1)) == want and int(m.group(2)) == 4 * want,
                  "offset %s %s --index %s: %r want %d" % (tag, d, idx, out, want))
            is_pad = any(i >= v for i, v in zip(idx, d))
            check(("padding slot" in out) == is_pad, "offset padding note %s" % idx)
            rc, out, err = run("offset", dims_arg(d), "f32", tag, "--offset", want)
            got = [int(v) for v in re.findall(r"[a-z]=(\d+)", out)]
            check(rc == 0 and got == idx and (("is padding" in out) == is_pad),
                  "offset %s --offset %d: %r want %s" % (tag, want, out, idx))
    # the README's example
    rc, out, _ = run("offset", "2x17x5x5", "f32", "nChw16c", "--index", "1,16,0,3")
    check("element offset %d " % off_nChwXc(16)([2, 17, 5, 5], [1, 16, 0, 3]) in out,
          "offset readme example: %r" % out)
    # explicit strides, leading dimension 8: offset = a + 8*b, 3..7 are gaps
    for a in range(3):
        for b in range(4):
            rc, out, _ = run("offset", "3x4", "f32", "strides=1,8", "--index", "%d,%d" % (a, b))
            check("element offset %d " % (a + 8 * b) in out, "strided offset %d,%d" % (a, b))
    rc, out, _ = run("offset", "3x4", "f32", "strides=1,8", "--offset", "5")
    check(rc == 0 and "gap" in out, "strided gap: %r" % out)
    # a view: offsets before offset0 hold nothing of the view
    rc, out, _ = run("offset", "2x16x4x4", "f32", "nChw8c", "--view", "1x8x4x4", "--at",
                     "1,8,0,0", "--offset", "0")
    check(rc == 0 and "no element" in out, "offset in front of a view: %r" % out)


# ---- draw -------------------------------------------------------------------

def svg_cells(path):
    root = ET.parse(path).getroot()
    cells = {}
    for el in root.iter("{http://www.w3.org/2000/svg}rect"):
        for cls in (el.get("class") or "").split():
            cells.setdefault(cls, []).append(el)
    return cells


def test_draw(tmp, xmllint):
    cases = [("nchw", [2, 3, 4, 4]), ("nhwc", [1, 5, 3, 2]), ("nChw8c", [1, 12, 3, 3]),
             ("nChw16c", [2, 17, 2, 2]), ("OIhw4i16o4i", [16, 20, 1, 1])]
    for tag, d in cases:
        path = os.path.join(tmp, tag + ".svg")
        rc, out, err = run("draw", dims_arg(d), "f32", tag, "-o", path)
        check(rc == 0 and os.path.exists(path), "draw %s rc %d %s" % (tag, rc, err))
        if rc:
            continue
        if xmllint:
            p = subprocess.run([xmllint, "--noout", path], capture_output=True)
            check(p.returncode == 0, "xmllint %s: %s" % (tag, p.stderr))
        pd = padded(tag, d)
        cells = svg_cells(path)
        n, npad = prod(d), prod(pd)
        for cls, want in (("elem", n), ("pad", npad - n), ("mem-elem", n),
                          ("mem-pad", npad - n), ("mem-gap", 0)):
            check(len(cells.get(cls, [])) == want, "draw %s: %d %s cells, want %d"
                  % (tag, len(cells.get(cls, [])), cls, want))
        names = NAMES.get(tag, "nchw")
        for el in cells.get("elem", []) + cells.get("pad", []):
            title = el.find("{http://www.w3.org/2000/svg}title").text
            idx = [int(re.search(r"%s=(\d+)" % c, title).group(1)) for c in names]
            off = int(re.search(r"offset (\d+)", title).group(1))
            check(off == FORMULAS[tag](pd, idx), "draw %s cell %s" % (tag, title))
    # a view: its padded box is outlined, in the grid and in the strip
    path = os.path.join(tmp, "view.svg")
    rc, _, _ = run("draw", "1x16x4x4", "f32", "nChw8c", "--view", "1x8x2x2", "--at",
                   "0,8,1,1", "-o", path)
    outlined = [e for e in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}rect")
                if e.get("stroke-width") == "2"]
    check(rc == 0 and len(outlined) == 2 * 8 * 2 * 2, "draw view outlines %d" % len(outlined))
    # 1-D: a long row wraps; each cell still shows its own offset
    path = os.path.join(tmp, "x.svg")
    rc, _, _ = run("draw", "100", "f32", "x", "-o", path)
    cells = svg_cells(path)
    titles = [e.find("{http://www.w3.org/2000/svg}title").text for e in cells.get("elem", [])]
    check(rc == 0 and len(titles) == 100 and all(
        re.match(r"\(x=(\d+)\) at element offset \1$", t) for t in titles), "draw 1-D")
    # plain strides with gaps: the strip shows the holes
    path = os.path.join(tmp, "strided.svg")
    rc, _, _ = run("draw", "3x4", "f32", "strides=1,8", "-o", path)
    cells = svg_cells(path)
    check(rc == 0 and len(cells.get("elem", [])) == 12 and len(cells.get("mem-gap", [])) ==
          3 * 8 + 3 - 12, "draw strided: %s" % {k: len(v) for k, v in cells.items()})
    # too big: refused, nothing written
    path = os.path.join(tmp, "big.svg")
    rc, out, err = run("draw", "1x64x8x8", "f32", "nchw", "-o", path)
    check(rc == 2 and "too many" in err and not os.path.exists(path), "draw refuses big")


def test_docs_links():
    """Every picture the docs and README show exists."""
    pages = [os.path.join(ROOT, "README.md")] + [
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
        if f.endswith(".md")]
    for page in pages:
        with open(page) as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)#]+\.svg)\)", text):
            path = os.path.normpath(os.path.join(os.path.dirname(page), target))
            check(os.path.exists(path), "%s shows missing %s" % (page, target))


def test_docs_transcripts(tmp):
    """The `$ tlayout ...` transcripts in the docs match the tool: every
    line shown (but '...' and timings) is a line of the real output."""
    for page in ("docs/tlayout.md", "docs/format-tags.md", "README.md"):
        with open(os.path.join(ROOT, page)) as f:
            text = f.read()
        for block in re.findall(r"```\n(.*?)```", text, re.S):
            chunks = re.split(r"^\$ ", block, flags=re.M)[1:]
            for chunk in chunks:
                lines = chunk.rstrip("\n").split("\n")
                if not lines[0].startswith("tlayout "):
                    continue
                args = lines[0].split("|")[0].split()[1:]
                rc, out, err = run(*args, cwd=tmp)
                if rc == 2 and "not built" in err:
                    continue
                got = out.splitlines()
                for want in lines[1:]:
                    if want.strip() in ("", "...") or want.startswith("time "):
                        continue
                    check(want in got, "%s: `tlayout %s` no longer prints %r"
                          % (page, " ".join(args), want))


def test_docs_images(tmp):
    fresh = os.path.join(tmp, "img")
    p = subprocess.run(["sh", os.path.join(ROOT, "tools", "docs-images.sh"), TL, fresh],
                       capture_output=True, text=True)
    check(p.returncode == 0, "docs-images.sh: %s" % p.stderr)
    for name in sorted(os.listdir(fresh)):
        with open(os.path.join(fresh, name)) as a:
            new = a.read()
        try:
            with open(os.path.join(ROOT, "docs", "img", name)) as b:
                old = b.read()
        except OSError:
            old = None
        check(new == old, "docs/img/%s is stale: run `meson compile -C build docs-images`"
              % name)


# ---- the rest ---------------------------------------------------------------

BAD = [
    [],
    ["frobnicate"],
    ["describe"],
    ["describe", "2x17", "f32"],
    ["describe", "2x-1x5x5", "f32", "nchw"],
    ["describe", "2xx5", "f32", "ab"],
    ["describe", "2x3x", "f32", "ab"],
    ["describe", "1x1x1x1x1x1x1x1x1x1x1x1x1", "f32", "abcdefghijklm"],
    ["describe", "99999999999999999999", "f32", "a"],
    ["describe", "2x17x5x5", "f31", "nchw"],
    ["describe", "2x17x5x5", "f32", "nChw16"],
    ["describe", "2x17x5x5", "f32", "nchwc"],
    ["describe", "2x17x5", "f32", "nchw"],
    ["describe", "2x17x5x5", "f32", "nchw", "--index", "0,0,0,0"],
    ["describe", "2x17x5x5", "f32", "nchw", "extra"],
    ["describe", "2x16x4x4", "f32", "nChw8c", "--view", "1x8x4x4", "--at", "0,3,0,0"],
    ["describe", "2x16x4x4", "f32", "nChw8c", "--view", "1x8x4", "--at", "0,0,0"],
    ["describe", "2x16x4x4", "f32", "nChw8c", "--view", "3x8x4x4"],
    ["describe", "2x16x4x4", "f32", "nChw8c", "--at", "0,0,0,0"],
    ["offset", "2x17x5x5", "f32", "nchw"],
    ["offset", "2x17x5x5", "f32", "nchw", "--index", "0,0,0"],
    ["offset", "2x17x5x5", "f32", "nchw", "--index", "0,17,0,0"],
    ["offset", "2x17x5x5", "f32", "nchw", "--index", "0,-1,0,0"],
    ["offset", "2x17x5x5", "f32", "nchw", "--index", "0,0,0,0", "--offset", "1"],
    ["offset", "2x17x5x5", "f32", "nchw", "--offset", "850"],
    ["offset", "2x17x5x5", "f32", "nchw", "--offset", "x"],
    ["offset", "2x17x5x5", "f32", "nchw", "--index"],
    ["offset", "2x17x5x5", "f32", "any", "--offset", "0"],
    ["offset", "2x0x5x5", "f32", "nchw", "--offset", "0"],
    ["draw", "2x3x4x4", "f32", "nchw"],
    ["draw", "2x3x4x4", "f32", "any", "-o", "x.svg"],
    ["draw", "2x3x4x4", "f32", "nchw", "-o"],
    ["demo", "now"],
    ["describe", "9999999999x9999999999x99999", "f32", "abc"],
    ["describe", "3x4", "f32", "strides=1,2"],
    ["describe", "3x4", "f32", "strides=1"],
    ["describe", "3x4", "f32", "strides=1,-8"],
]


def test_bad_arguments():
    for args in BAD:
        rc, out, err = run(*args)
        check(rc == 2, "%s: rc %d, want 2" % (args, rc))
        check(err.startswith("tlayout: ") or err.startswith("usage:"),
              "%s: stderr %r" % (args, err))
        check(out == "", "%s: stdout not empty: %r" % (args, out))


# ---- engine drivers (when built in) ----------------------------------------

def q(v):
    return (v + 3) // 4


# DESIGN.md's table: element coordinates -> (image width, height), (x, y, lane)
IMAGE_TYPES = {
    "in_out_channel": ("nhwc", lambda N, H, W, C: (q(C) * W, N * H),
                       lambda d, n, h, w, c: ((c // 4) * d[2] + w, n * d[1] + h, c % 4)),
    "in_out_height": ("nhwc", lambda N, H, W, C: (W * C, N * q(H)),
                      lambda d, n, h, w, c: (c * d[2] + w, n * q(d[1]) + h // 4, h % 4)),
    "in_out_width": ("nhwc", lambda N, H, W, C: (q(W) * C, N * H),
                     lambda d, n, h, w, c: (c * q(d[2]) + w // 4, n * d[1] + h, w % 4)),
    "conv2d_filter": ("oihw", lambda O, I, H, W: (I, q(O) * H * W),
                      lambda d, o, i, h, w: (i, (o // 4) * d[2] * d[3] + h * d[3] + w, o % 4)),
    "dw_conv2d_filter": ("mihw", lambda M, I, H, W: (H * W * M, q(I)),
                         lambda d, m, i, h, w: (h * d[3] + w, i // 4, i % 4)),
    "weight_height": ("oihw", lambda O, I, H, W: (I * H * W, q(O)),
                      lambda d, o, i, h, w: ((h * d[3] + w) * d[1] + i, o // 4, o % 4)),
    "weight_width": ("oihw", lambda O, I, H, W: (q(I) * H * W, O),
                     lambda d, o, i, h, w: ((h * d[3] + w) * q(d[1]) + i // 4, o, i % 4)),
}
# the NCHW variants: an NCHW buffer, the image of the NHWC type
for _t in ("in_out_channel", "in_out_height", "in_out_width"):
    IMAGE_TYPES[_t + "_nchw"] = (
        "nchw", (lambda f: lambda N, C, H, W: f(N, H, W, C))(IMAGE_TYPES[_t][1]),
        (lambda f: lambda d, n, c, h, w: f([d[0], d[2], d[3], d[1]], n, h, w, c))(
            IMAGE_TYPES[_t][2]))


def test_engines(tmp):
    _, usage, _ = run("help")
    if "  reorder DIMS" in usage:
        for args in (["2x17x5x5", "f32:nchw", "f32:nChw16c"],
                     ["2x17x5x5", "f32:nChw16c", "f32:nhwc"],
                     ["3x20x2x3", "f32:nchw", "s8:nChw16c", "--scale", "20", "--beta", "0.5"],
                     ["2x17x3x3", "bf16:nhwc", "u8:nChw8c"],
                     ["20x18x3x3", "f16:oihw", "f32:OIhw4i16o4i"]):
            rc, out, err = run("reorder", *args)
            check(rc == 0 and "checked" in out and ": ok" in out and "GB/s" in out,
                  "reorder %s: rc %d %r %r" % (args, rc, out, err))
        for args in (["2x17"], ["2x17", "f32:ab"], ["2x17", "f32ab", "f32:ba"],
                     ["2x17", "f32:ab", "f99:ba"], ["2x17", "f32:abc", "f32:ba"],
                     ["2x17", "f32:ab", "f32:ba", "--scale"], ["2x17", "f32:ab", "f32:ba", "--x"]):
            rc, out, err = run("reorder", *args)
            check(rc == 2 and err.startswith("tlayout: ") and out == "", "reorder bad %s" % args)
    else:
        rc, _, err = run("reorder", "2x17", "f32:ab", "f32:ba")
        check(rc == 2 and "not built" in err, "reorder not built: %r" % err)
    if "  shuffle DIMS" in usage:
        for args in (["2x12x3x3", "f32", "nChw8c", "--axis", "1", "--group", "3"],
                     ["2x12x3x3", "s8", "nchw", "--axis", "1", "--group", "4", "--backward"],
                     ["6x4", "u8", "ab", "--axis", "0", "--group", "2"]):
            rc, out, err = run("shuffle", *args)
            check(rc == 0 and ": ok" in out, "shuffle %s: rc %d %r %r" % (args, rc, out, err))
        for args in (["2x12x3x3", "f32", "nchw", "--axis", "1", "--group", "5"],
                     ["2x12x3x3", "f32", "nchw", "--axis", "4", "--group", "3"],
                     ["2x12x3x3", "f32", "nchw", "--group", "3"]):
            rc, out, err = run("shuffle", *args)
            check(rc == 2 and err.startswith("tlayout: "), "shuffle bad %s" % args)
    else:
        rc, _, err = run("shuffle", "2x12", "f32", "ab", "--axis", "1", "--group", "3")
        check(rc == 2 and "not built" in err, "shuffle not built: %r" % err)
    if "  image TYPE" in usage:
        for name, (letters, shape, where) in sorted(IMAGE_TYPES.items()):
            d = [1, 5, 3, 2] if name == "dw_conv2d_filter" else [2, 5, 3, 6]
            path = os.path.join(tmp, "image_%s.svg" % name)
            rc, out, err = run("image", name, dims_arg(d), "-o", path)
            w, h = shape(*d)
            check(rc == 0 and "image %d x %d texels" % (w, h) in out and "round trip" in out,
                  "image %s %s: %r %r" % (name, d, out, err))
            if rc:
                continue
            cells = svg_cells(path)
            check(len(cells.get("lane", [])) == prod(d) and
                  len(cells.get("lane-pad", [])) == 4 * w * h - prod(d),
                  "image %s lanes" % name)
            for el in cells.get("lane", []):
                title = el.find("{http://www.w3.org/2000/svg}title").text
                m = re.match(r"texel \((\d+), (\d+)\) lane (\d)", title)
                idx = [int(re.search(r"%s=(\d+)" % c, title).group(1)) for c in letters]
                check(m and tuple(int(v) for v in m.groups()) == where(d, *idx),
                      "image %s: %s, want %s" % (name, title, where(d, *idx)))
        rc, out, err = run("image", "argument", "10")
        check(rc == 0 and "image 3 x 1 texels" in out, "image argument: %r" % out)
        for args in (["in_out_channel"], ["nope", "1x2x3x4"], ["in_out_channel", "1x2x3"],
                     ["argument", "2x2"], ["in_out_channel", "1x2x3x4", "-o"]):
            rc, out, err = run("image", *args)
            check(rc == 2 and err.startswith("tlayout: "), "image bad %s" % args)
    else:
        rc, _, err = run("image", "in_out_channel", "1x2x3x4")
        check(rc == 2 and "not built" in err, "image not built: %r" % err)


def test_misc(tmp):
    rc, out, _ = run("help")
    check(rc == 0 and "examples:" in out and "describe DIMS DT TAG" in out, "help")
    # every example the usage text gives works as written
    examples = [l.split()[1:] for l in out.splitlines() if l.startswith("  tlayout ")]
    check(len(examples) >= 6, "help lists examples")
    for args in examples:
        rc, _, err = run(*args, cwd=tmp)
        check(rc == 0, "usage example %s: rc %d %s" % (args, rc, err))
    rc, out, _ = run("demo")
    check(rc == 0 and "aBcd16b" in out and "element offset 1248 " in out
          and "ABcd4b16a4b" in out, "demo")


def main():
    rng = random.Random(7)
    xmllint = shutil.which("xmllint")
    if not xmllint:
        print("note: xmllint not found, checking SVGs with Python's parser only")
    with tempfile.TemporaryDirectory() as tmp:
        test_describe(rng)
        test_offset(rng)
        test_draw(tmp, xmllint)
        test_docs_images(tmp)
        test_docs_links()
        test_docs_transcripts(tmp)
        test_engines(tmp)
        test_misc(tmp)
    test_bad_arguments()
    print("test_tlayout: %d checks, %d failed" % (checks, len(failures)))
    return 1 if failures or checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
