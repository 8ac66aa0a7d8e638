#!/usr/bin/env bash
# Fetch Debian's QEMU source (bookworm's 7.2 with apt-get source qemu, or with
# GPU3D_QEMU=10.0 bookworm-backports' 10.0, see lib.sh), copy it into
# a prepared tree keyed by the QEMU version and our hook patch, overlay the
# project's device sources, configure the small build of docs/architecture.md
# and build the named targets: qemu-system-x86_64 and our qtests.
#
#   scripts/qemu-build.sh [ninja targets...]
#   scripts/qemu-build.sh --fetch-only      (the sources and tools, no build)
#
# Reuses $GPU3D_CACHE (default ~/.cache/gpu3d) when present; rebuilds from
# nothing when it is absent.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fetch_source() {
  [ -f "$QEMU_SRC/VERSION" ] && return
  local tmp
  tmp=$(mktemp -d "$GPU3D_CACHE/fetch.XXXXXX")
  if [ -z "$QEMU_DEB_VERSION" ]; then
    log "fetching QEMU source with apt-get source qemu"
    (cd "$tmp" && apt-get source --download-only qemu >/dev/null 2>&1) ||
      die "apt-get source qemu failed (run scripts/setup.sh first)"
  else
    log "fetching QEMU $QEMU_DEB_VERSION source from bookworm-backports"
    apt_bpo update -qq >/dev/null 2>&1 || die "apt-get update (bookworm-backports) failed"
    # The mirror may serve the orig tarball (shared with trixie) without the
    # backport's .dsc; apt keeps only files matching the Sources hashes, so
    # a verified orig tarball alone is the pristine upstream source.
    (cd "$tmp" && apt_bpo source --download-only "qemu=$QEMU_DEB_VERSION" >fetch.log 2>&1) ||
      log "apt-get source: $(grep -c '^E:' "$tmp/fetch.log") errors, using what arrived"
  fi
  if compgen -G "$tmp/qemu_*.dsc" >/dev/null; then
    (cd "$tmp" && dpkg-source -x qemu_*.dsc src >/dev/null) || die "dpkg-source failed"
  elif compgen -G "$tmp/qemu_*.orig.tar.*" >/dev/null; then
    mkdir "$tmp/x"
    tar -xf "$tmp"/qemu_*.orig.tar.* -C "$tmp/x" || die "unpacking the orig tarball failed"
    mv "$tmp"/x/qemu-* "$tmp/src"
  else
    die "no QEMU source arrived (log: $tmp/fetch.log)"
  fi
  local v
  v=$(cat "$tmp/src/VERSION")
  [ "$v" = "$QEMU_VERSION" ] || log "warning: Debian ships QEMU $v; this project was checked with $QEMU_VERSION"
  rm -rf "$QEMU_SRC"
  mv "$tmp/src" "$QEMU_SRC"
  rm -rf "$tmp"
}

fetch_tools() {
  # bookworm's meson is 1.0; QEMU 10 wants >= 1.5: unpack bookworm-backports'
  # pure-python packages under $QEMU_TOOLS (lib.sh puts them on PATH and
  # PYTHONPATH), leaving the system's meson alone.
  [ "$GPU3D_QEMU" != 7.2 ] || return 0
  [ -f "$QEMU_TOOLS/.done" ] && return
  local tmp p
  tmp=$(mktemp -d "$GPU3D_CACHE/fetch.XXXXXX")
  apt_bpo update -qq >/dev/null 2>&1 || die "apt-get update (bookworm-backports) failed"
  for p in "${QEMU_BPO_DEBS[@]}"; do
    (cd "$tmp" && apt_bpo download "$p/bookworm-backports" >/dev/null 2>&1) ||
      die "apt-get download $p/bookworm-backports failed"
  done
  rm -rf "$QEMU_TOOLS"
  for p in "$tmp"/*.deb; do
    dpkg-deb -x "$p" "$QEMU_TOOLS" || die "dpkg-deb -x $p failed"
  done
  rm -rf "$tmp"
  touch "$QEMU_TOOLS/.done"
  log "tools: meson $(PYTHONPATH=$QEMU_TOOLS_PY python3 "$QEMU_TOOLS/usr/bin/meson" --version)"
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
  (if [ "$GPU3D_QEMU" != 7.2 ]; then
     export PYTHONPATH=$QEMU_TOOLS_PY${PYTHONPATH:+:$PYTHONPATH}
   fi
   cd "$QEMU_BUILD" && ../configure "${QEMU_CONFIGURE_ARGS[@]}" \
      >configure.log 2>&1) ||
    { tail -30 "$QEMU_BUILD/configure.log"; die "configure failed"; }
  if [ "$GPU3D_QEMU" != 7.2 ]; then
    # configure's venv (build/pyvenv) runs meson again from ninja: a .pth
    # file shows it the unpacked packages without any environment
    local site
    site=$(echo "$QEMU_BUILD"/pyvenv/lib/python3*/site-packages)
    [ -d "$site" ] || die "no site-packages in $QEMU_BUILD/pyvenv"
    echo "$QEMU_TOOLS_PY" >"$site/gpu3d-bookworm-backports.pth"
  fi
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
fetch_tools
[ "${1:-}" != --fetch-only ] || exit 0
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
