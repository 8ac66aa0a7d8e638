#!/usr/bin/env bash
# Render GX scenes with Dolphin's software renderer, the flipper-gx core's
# independent reference (docs/architecture.md, Correctness; Dolphin's FIFO
# player).
#
#   scripts/flipper-dolphin-ref.sh IN.dff OUT.png
#       play a Dolphin FIFO log and save the frame Dolphin dumps for its
#       EFB -> XFB copy (after the XFB's YUV round trip) as OUT.png
#   scripts/flipper-dolphin-ref.sh --regen [SCENE...]
#       rebuild tests/flipper/ref/SCENE.png (default: every scene
#       `flipper-dff list` names) from logs written by build/flipper-dff
#
# Needs Debian's dolphin-emu, xvfb and xauth; installs them when missing.
# Dolphin runs under Xvfb with the x11 platform: this build's headless
# platform has no EGL.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DOLPHIN=/usr/games/dolphin-emu-nogui

need_packages() {
  local missing=() p
  for p in dolphin-emu xvfb xauth; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    log "installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

render() {
  local in=$1 out=$2 user frame
  user=$(mktemp -d)
  mkdir -p "$user/Config"
  cat > "$user/Config/Dolphin.ini" <<'INI'
[Core]
GFXBackend = Software Renderer
CPUThread = False
[Movie]
DumpFrames = True
[FifoPlayer]
LoopReplay = False
[Interface]
ConfirmStop = False
INI
  cat > "$user/Config/GFX.ini" <<'INI'
[Settings]
DumpFramesAsImages = True
[Hacks]
ImmediateXFBEnable = True
EFBToTextureEnable = False
DeferEFBCopies = False
INI
  timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" \
    "$DOLPHIN" -u "$user" -p x11 -e "$(readlink -f "$in")" >"$user/log.txt" 2>&1 || true
  frame=$(ls "$user"/Dump/Frames/framedump_*.png 2>/dev/null | sort -V | head -1 || true)
  if [ -z "$frame" ]; then
    cat "$user/log.txt" >&2
    rm -rf "$user"
    die "Dolphin dumped no frame for $in"
  fi
  cp "$frame" "$out"
  rm -rf "$user"
  log "$in -> $out"
}

need_packages
if [ "${1:-}" = "--regen" ]; then
  shift
  tool=$CORE_BUILD/flipper-dff
  [ -x "$tool" ] || die "build $tool first (ninja -C build)"
  scenes=("$@")
  [ ${#scenes[@]} -gt 0 ] || mapfile -t scenes < <("$tool" list)
  tmp=$(mktemp -d)
  for s in "${scenes[@]}"; do
    "$tool" write "$s" "$tmp/$s.dff"
    render "$tmp/$s.dff" "$GPU3D_ROOT/tests/flipper/ref/$s.png"
  done
  rm -rf "$tmp"
elif [ $# -eq 2 ]; then
  render "$1" "$2"
else
  die "usage: $0 IN.dff OUT.png | --regen [SCENE...]"
fi
