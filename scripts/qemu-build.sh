#!/usr/bin/env bash
# Fetch Debian bookworm's QEMU 7.2 source (apt-get source qemu), copy it into
# a prepared tree keyed by the QEMU version and our hook patch, overlay the
# project's device sources, configure the small build of DESIGN.md and build
# the named targets: qemu-system-x86_64 and our qtests.
#
#   scripts/qemu-build.sh [ninja targets...]
#
# Reuses $GPU3D_CACHE (default ~/.cache/gpu3d) when present; rebuilds from
# nothing when it is absent.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fetch_source() {
  [ -f "$QEMU_SRC/VERSION" ] && return
  local tmp
  tmp=$(mktemp -d "$GPU3D_CACHE/fetch.XXXXXX")
  log "fetching QEMU source with apt-get source qemu"
  (cd "$tmp" && apt-get source --download-only qemu >/dev/null 2>&1) ||
    die "apt-get source qemu failed (run scripts/setup.sh first)"
  (cd "$tmp" && dpkg-source -x qemu_*.dsc src >/dev/null) || die "dpkg-source failed"
  local v
  v=$(cat "$tmp/src/VERSION")
  [ "$v" = "$QEMU_VERSION" ] || log "warning: Debian ships QEMU $v; this project was checked with $QEMU_VERSION"
  rm -rf "$QEMU_SRC"
  mv "$tmp/src" "$QEMU_SRC"
  rm -rf "$tmp"
}

overlay() {
  # Copy only what changed (rsync -c), so ninja rebuilds only changed files;
  # --delete drops files the project removed.
  mkdir -p "$QEMU_TREE/hw/gpu3d" "$QEMU_TREE/include/gpu3d"
  rsync -rc --delete "$GPU3D_ROOT/hw/gpu3d/" "$QEMU_TREE/hw/gpu3d/"
  rsync -rc --delete "$GPU3D_ROOT/include/gpu3d/" "$QEMU_TREE/include/gpu3d/"
  local f
  for f in "$QEMU_TREE"/tests/qtest/gpu3d-*; do
    [ -e "$f" ] || continue
    [ -e "$GPU3D_ROOT/qtest/$(basename "$f")" ] || rm -f "$f"
  done
  rsync -rc "$GPU3D_ROOT"/qtest/gpu3d-* "$QEMU_TREE/tests/qtest/"
}

prepare_tree() {
  [ -f "$QEMU_TREE/.gpu3d-prepared" ] && return
  log "preparing QEMU tree $QEMU_TREE"
  rm -rf "$QEMU_TREE"
  cp -a "$QEMU_SRC" "$QEMU_TREE"
  (cd "$QEMU_TREE" && patch -p1 -s < "$QEMU_PATCH") || die "hook patch does not apply"
  overlay
  mkdir -p "$QEMU_BUILD"
  log "configuring"
  (cd "$QEMU_BUILD" && ../configure "${QEMU_CONFIGURE_ARGS[@]}" \
      >configure.log 2>&1) ||
    { tail -30 "$QEMU_BUILD/configure.log"; die "configure failed"; }
  touch "$QEMU_TREE/.gpu3d-prepared"
}

link_firmware() {
  # Run from its build tree, QEMU relocates the firmware path into
  # build/qemu-bundle/: point that at Debian's seabios, ipxe-qemu and
  # qemu-system-data (which has the multiboot option ROMs -kernel needs).
  local d
  for d in ${FIRMWARE_PATH//:/ }; do
    mkdir -p "$QEMU_BUILD/qemu-bundle$(dirname "$d")"
    ln -sfn "$d" "$QEMU_BUILD/qemu-bundle$d"
  done
}

qtest_targets() {
  local f
  for f in "$GPU3D_ROOT"/qtest/gpu3d-*-test.c; do
    [ -e "$f" ] || continue
    printf 'tests/qtest/%s\n' "$(basename "$f" .c)"
  done
}

mkdir -p "$GPU3D_CACHE"
fetch_source
prepare_tree
overlay
link_firmware
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
  mapfile -t targets < <(echo qemu-system-x86_64; qtest_targets)
fi
log "building ${targets[*]}"
ninja -C "$QEMU_BUILD" -j "$JOBS" "${targets[@]}" >"$QEMU_BUILD/gpu3d-build.log" 2>&1 ||
  { grep -E 'error|Error' -A3 "$QEMU_BUILD/gpu3d-build.log" | head -60; die "QEMU build failed (log: $QEMU_BUILD/gpu3d-build.log)"; }
log "QEMU ready: $QEMU_BIN"
