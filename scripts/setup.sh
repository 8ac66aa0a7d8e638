#!/usr/bin/env bash
# Install everything the build, the tests and the demos need on Debian
# bookworm, and enable the deb-src entries `apt-get source qemu` needs.
# Safe to run again: it only installs what is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
  build-essential gcc-multilib ninja-build meson pkg-config python3 ccache rsync
  python3-venv
  dpkg-dev xz-utils ca-certificates
  valgrind    # QEMU compiles its valgrind.h hints in when the header is there
  libglib2.0-dev libpixman-1-dev libpng-dev zlib1g-dev libfdt-dev
  seabios qemu-system-data ipxe-qemu
  libosmesa6-dev libgl-dev mesa-common-dev
  libegl-dev libgles-dev libgbm1   # kmscap, built by scripts/linux-mesa.sh
  libgl1-mesa-dri   # llvmpipe on the host: kmscap's reference, linux-piglit.sh --host-sw
)

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

SRC_LIST=/etc/apt/sources.list.d/gpu3d-deb-src.sources
need_update=0
if ! apt-cache showsrc qemu >/dev/null 2>&1 || ! apt-cache showsrc qemu 2>/dev/null | grep '^Version:' >/dev/null; then
  if [ ! -e "$SRC_LIST" ] && ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "adding deb-src entries ($SRC_LIST)"
    $SUDO tee "$SRC_LIST" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  need_update=1
fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  need_update=1
fi
if [ $need_update = 1 ]; then
  log "apt-get update"
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
log "packages ready"
