#!/usr/bin/env bash
# Installs what building and testing tensorlayout needs, from Debian's
# packages (Debian 12 or a close relative). Idempotent: installs only what
# is missing, so a second run needs no network. Uses sudo only when not
# already root.
set -euo pipefail
pkgs=(meson ninja-build pkg-config gcc g++ python3 libsimde-dev
      opencl-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo libdnnl-dev
      libxml2-utils libdlpack-dev clang libclang-rt-14-dev valgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# through env: sudo drops the caller's environment by default
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
