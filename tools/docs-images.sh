#!/bin/sh
# Draws every picture the docs show. usage: docs-images.sh TLAYOUT OUTDIR
# Run through `meson compile -C build docs-images`; test/test_tlayout.py
# compares the checked-in files with a fresh run.
set -eu
tl=$1
out=$2
mkdir -p "$out"
"$tl" draw 2x3x4x4 f32 nchw -o "$out/nchw.svg" >/dev/null
"$tl" draw 2x3x4x4 f32 nhwc -o "$out/nhwc.svg" >/dev/null
"$tl" draw 1x12x3x3 f32 nChw8c -o "$out/nChw8c.svg" >/dev/null
"$tl" draw 16x16x1x1 f32 OIhw4i16o4i -o "$out/OIhw4i16o4i.svg" >/dev/null
"$tl" draw 1x16x4x4 f32 nChw8c --view 1x8x2x2 --at 0,8,1,1 -o "$out/submemory.svg" >/dev/null
# The GPU image picture needs the OpenCL host helpers built in.
if "$tl" help | grep -q '^  image TYPE'; then
    "$tl" image in_out_channel 1x2x3x6 -o "$out/image_in_out_channel.svg" >/dev/null
fi
