#!/usr/bin/env bash
# piglit on the host against the device model: the tests of
# tests/r300/piglit-list.txt run on Debian's own Mesa 22.3 r300 driver over
# Mesa's radeon DRM shim, which hands every command stream to the core
# (tests/r300/r300-shim-exec.c: buffers in, relocations applied as the
# radeon kernel applies them, the IB through the CP, buffers out). A test
# takes a second or less instead of 4-10 s in the TCG guest, so a failure
# can be reproduced, captured (SHIM_CS_DUMP=FILE, tools/mesa-capture/
# cs2replay.py) and bisected on the host; the guest stays the reference.
#
#   tools/mesa-capture/host-piglit.sh [--gbm] [--filter REGEX] [OUTDIR]
#
# Lines "gpu3d-linux: piglit-host: RESULT NAME" in OUTDIR/host-r300.log
# (default out/host-piglit), the differences from
# tests/r300/piglit-expected.txt printed. surfaceless_egl with -fbo for
# every test by default (no window); --gbm runs on waffle's GBM platform
# over the shim's render node instead, with windows (the window tests).
# needs: the host's Mesa to be the guest's version (checked), a build of
# this tree in build/ (meson: libr300-shim-exec.so), what capture.sh needs.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

plat=surfaceless_egl
filter=
while [ $# -gt 0 ]; do
  case $1 in
    --gbm) plat=gbm; shift ;;
    --filter) filter=$2; shift 2 ;;
    -*) die "host-piglit.sh: unknown option $1" ;;
    *) break ;;
  esac
done
out=${1:-$GPU3D_ROOT/out/host-piglit}
mkdir -p "$out"
out=$(realpath "$out")
exec_lib=$GPU3D_ROOT/build/tests/r300/libr300-shim-exec.so
[ -f "$exec_lib" ] || die "no $exec_lib: meson setup build && ninja -C build"
work=$GPU3D_CACHE/mesa-capture
mkdir -p "$work"
. "$GPU3D_ROOT/tools/mesa-capture/shim.sh"
shim=$(build_shim "$work" "$GPU3D_ROOT/tools/mesa-capture")
pr=$(piglit_host_root "$out/host")
read -r plan root <<<"$pr"
log "host-piglit: Mesa's r300 driver over the device model ($plat)"
LD_PRELOAD=$shim SHIM_R300_EXEC=$exec_lib RADEON_GPU_ID=0x4e44 \
  MESA_LOADER_DRIVER_OVERRIDE=r300 PIGLIT_PLATFORM=$plat \
  WAFFLE_GBM_DEVICE=/dev/dri/renderD128 PIGLIT_FILTER=$filter \
  piglit_host_run "$root" "$plan/piglit-run.txt" host "$out/pig.out" \
  >"$out/host-r300.log"
# the differences from the guest's expectations
awk 'NR == FNR { if ($0 !~ /^#/) { r = $1; sub(/^[^ ]* /, ""); want[$0] = r }
                 next }
     /piglit-host: / { sub(/.*piglit-host: /, ""); r = $1; sub(/^[^ ]* /, "")
                       n++; if (want[$0] != r) print want[$0] " -> " r ": " $0 }
     END { print n " tests run" }' \
    "$GPU3D_ROOT/tests/r300/piglit-expected.txt" "$out/host-r300.log"
