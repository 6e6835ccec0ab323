#!/bin/sh
# Installs what tensorlayout's build, tests and tools use on Debian 12
# (bookworm) or a close relative. Safe to run again: apt-get skips what
# is already there. Uses sudo only when not run as root.
set -eu

packages="meson ninja-build pkg-config gcc g++ libsimde-dev opencl-headers
ocl-icd-opencl-dev pocl-opencl-icd clinfo libdnnl-dev libxml2-utils
libdlpack-dev clang libclang-rt-14-dev python3"

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "install-deps.sh: run as root, or install sudo" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086  # the lists are meant to split into words
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages
