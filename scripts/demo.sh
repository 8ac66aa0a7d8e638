#!/usr/bin/env bash
# The main job: on a fresh Debian bookworm machine, install what is needed,
# fetch and build QEMU with the gpu3d devices, build the homebrew guests,
# boot the demo of one device and save its screenshot (QMP screendump).
#
#   scripts/demo.sh [r300]        -> out/<chip>-demo.png
#   scripts/demo.sh pica200       -> out/pica200-demo.png (top screen) and
#                                    out/pica200-demo-bottom.png
#   scripts/demo.sh glamo         -> out/glamo-demo.png (the LCD)
#   scripts/demo.sh attila        -> out/attila-demo.png
#   scripts/demo.sh flipper       -> out/flipper-demo.png
set -euo pipefail
. "$(dirname "$0")/lib.sh"

chip=${1:-r300}
extra=()
case "$chip" in
  r300) device="r300-3d,id=gpu"; wait_for="r300-demo: done" ;;
  pica200) device="pica200-3d,id=gpu"; wait_for="pica200-demo: done"
           extra=(--head-shot "1:$OUT/pica200-demo-bottom.png") ;;
  glamo) device="glamo-3d,id=gpu"; wait_for="glamo-demo: done" ;;
  attila) device="attila-3d,id=gpu"; wait_for="attila-demo: done" ;;
  flipper) device="flipper-gx,id=gpu"; wait_for="flipper-demo: done" ;;
  *) die "no demo for '$chip' (known: r300, pica200, glamo, attila, flipper)" ;;
esac

"$GPU3D_ROOT/scripts/setup.sh"
"$GPU3D_ROOT/scripts/qemu-build.sh" qemu-system-x86_64
make -s -C "$GPU3D_ROOT/guest" O="$OUT/guest"
mkdir -p "$OUT"
python3 "$GPU3D_ROOT/scripts/run-guest.py" --qemu "$QEMU_BIN" \
    --kernel "$OUT/guest/$chip-demo.elf" --device "$device" \
    --wait "$wait_for" --screenshot "$OUT/$chip-demo.png" "${extra[@]}"
log "screenshot: $OUT/$chip-demo.png"
