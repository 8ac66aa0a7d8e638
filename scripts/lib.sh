# Shared settings of the gpu3d scripts. Sourced, not run.
# shellcheck shell=bash

GPU3D_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GPU3D_CACHE=${GPU3D_CACHE:-$HOME/.cache/gpu3d}
QEMU_VERSION=7.2.22          # upstream version inside Debian bookworm's qemu 1:7.2+dfsg
QEMU_PATCH=$GPU3D_ROOT/patches/qemu-7.2-gpu3d-hooks.patch
FIRMWARE_PATH=/usr/share/seabios:/usr/share/qemu:/usr/lib/ipxe/qemu
# the small build of DESIGN.md; ccache wraps the compiler when present
QEMU_CC=gcc
command -v ccache >/dev/null 2>&1 && QEMU_CC="ccache gcc"
QEMU_CONFIGURE_ARGS=(--target-list=x86_64-softmmu --without-default-features
  --enable-tcg --enable-png --enable-vnc --disable-docs --disable-werror
  --disable-install-blobs "--firmwarepath=$FIRMWARE_PATH" "--cc=$QEMU_CC")
# more flags for a developer's build, e.g. --enable-sanitizers (own tree key)
if [ -n "${GPU3D_QEMU_EXTRA_CONFIGURE:-}" ]; then
  read -r -a _extra <<<"$GPU3D_QEMU_EXTRA_CONFIGURE"
  QEMU_CONFIGURE_ARGS+=("${_extra[@]}")
fi
# the prepared tree is keyed by the QEMU version, our patch and the flags
PATCH_KEY=$( (cat "$QEMU_PATCH"; printf '%s\n' "${QEMU_CONFIGURE_ARGS[@]}") |
             sha256sum | cut -c1-12)
# The pristine source, shared by every tree.
QEMU_SRC=$GPU3D_CACHE/qemu-$QEMU_VERSION-src
# The prepared tree (source + hooks + overlay + build dir), keyed by QEMU
# version and our patch. A second work tree sets GPU3D_QEMU_TREE to its own.
QEMU_TREE=${GPU3D_QEMU_TREE:-$GPU3D_CACHE/qemu-$QEMU_VERSION-$PATCH_KEY}
QEMU_BUILD=$QEMU_TREE/build
QEMU_BIN=$QEMU_BUILD/qemu-system-x86_64
CORE_BUILD=${GPU3D_CORE_BUILD:-$GPU3D_ROOT/build}
OUT=${GPU3D_OUT:-$GPU3D_ROOT/out}
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$GPU3D_CACHE/ccache}
export CCACHE_BASEDIR=$GPU3D_CACHE
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}

log() { printf '[gpu3d] %s\n' "$*" >&2; }
die() { printf '[gpu3d] error: %s\n' "$*" >&2; exit 1; }
