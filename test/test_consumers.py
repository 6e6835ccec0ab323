#!/usr/bin/env python3
"""Builds two outside users of tensorlayout, as a new project would:

1. test/consumer as a separate meson project, with this source tree
   linked in as subprojects/tensorlayout and found by dependency();
2. the same program compiled by hand against an installed copy
   (`meson install --destdir`), with flags from `pkg-config --cflags`.

Both must print what tensorlayout computes for nChw16c 2x17x5x5.
When the library has tl_reorder (HAVE_REORDER = 1), the README's example
is also cut out of README.md, compiled and run.

usage: test_consumers.py SOURCE_ROOT BUILD_ROOT MESON HAVE_REORDER CC...
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC, BUILD, MESON, HAVE_REORDER = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
CC = sys.argv[5:]
# 2*32*5*5 f32 = 6400 bytes; (1,16,0,3) -> 1*800 + 1*400 + 3*16 + 0
WANT = "consumer: aBcd16b size 6400 offset 1248"


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kw)
    if p.returncode != 0:
        print("FAILED:", " ".join(cmd), "\n", p.stdout[-3000:], p.stderr[-3000:],
              file=sys.stderr)
        raise SystemExit(1)
    return p.stdout


def subproject_consumer(tmp):
    proj = os.path.join(tmp, "consumer")
    shutil.copytree(os.path.join(SRC, "test", "consumer"), proj)
    os.makedirs(os.path.join(proj, "subprojects"))
    os.symlink(os.path.abspath(SRC), os.path.join(proj, "subprojects", "tensorlayout"))
    # force the fallback: an installed tensorlayout.pc must not be picked up
    run([MESON, "setup", "--force-fallback-for=tensorlayout", os.path.join(proj, "b"), proj])
    run([MESON, "compile", "-C", os.path.join(proj, "b")])
    out = run([os.path.join(proj, "b", "consumer")]).strip()
    if out != WANT:
        print("subproject consumer printed %r, want %r" % (out, WANT), file=sys.stderr)
        raise SystemExit(1)
    # tlayout is ours, not the parent's: it is not built in a subproject
    if glob.glob(os.path.join(proj, "b", "subprojects", "tensorlayout", "tools", "tlayout")):
        print("tlayout was built inside the parent project", file=sys.stderr)
        raise SystemExit(1)
    print("subproject consumer: ok")


def pkgconfig_consumer(tmp):
    dest = os.path.join(tmp, "dest")
    run([MESON, "install", "--no-rebuild", "--quiet", "-C", BUILD, "--destdir", dest])
    pcs = glob.glob(os.path.join(dest, "**", "pkgconfig", "tensorlayout.pc"), recursive=True)
    if len(pcs) != 1:
        print("expected one installed tensorlayout.pc, found %s" % pcs, file=sys.stderr)
        raise SystemExit(1)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]),
               PKG_CONFIG_SYSROOT_DIR=dest, PKG_CONFIG_LIBDIR="")
    cflags = run(["pkg-config", "--cflags", "tensorlayout"], env=env).split()
    if not any(f.startswith("-I" + dest) for f in cflags):
        print("pkg-config gave %s, not the installed headers" % cflags, file=sys.stderr)
        raise SystemExit(1)
    exe = os.path.join(tmp, "pc_consumer")
    run(CC + ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"] + cflags +
        [os.path.join(SRC, "test", "consumer", "consumer.c"), "-o", exe])
    out = run([exe]).strip()
    if out != WANT:
        print("pkg-config consumer printed %r, want %r" % (out, WANT), file=sys.stderr)
        raise SystemExit(1)
    tl = glob.glob(os.path.join(dest, "**", "bin", "tlayout"), recursive=True)
    if len(tl) != 1 or "aBcd16b" not in run([tl[0], "describe", "2x17x5x5", "f32", "nChw16c"]):
        print("installed tlayout missing or broken: %s" % tl, file=sys.stderr)
        raise SystemExit(1)
    print("pkg-config consumer: ok")


def readme_example(tmp):
    with open(os.path.join(SRC, "README.md")) as f:
        text = f.read()
    blocks = re.findall(r"```c\n(.*?)```", text, re.S)
    if len(blocks) != 1:
        print("README.md should hold one C example, found %d" % len(blocks), file=sys.stderr)
        raise SystemExit(1)
    src = os.path.join(tmp, "readme.c")
    with open(src, "w") as f:
        f.write(blocks[0])
    exe = os.path.join(tmp, "readme")
    run(CC + ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I" + SRC, src,
              "-o", exe])
    out = run([exe]).strip()
    want = "nchw offset 828 -> nChw16c offset 1248, value 42"
    if out != want:
        print("README example printed %r, want %r" % (out, want), file=sys.stderr)
        raise SystemExit(1)
    print("README example: ok")


def main():
    if not shutil.which("pkg-config"):
        print("pkg-config not installed")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        subproject_consumer(tmp)
        pkgconfig_consumer(tmp)
        if HAVE_REORDER == "1":
            readme_example(tmp)
        else:
            print("README example: skipped, this library has no tl_reorder yet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
