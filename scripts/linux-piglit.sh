#!/usr/bin/env bash
# The whole piglit list (tests/r300/piglit-list.txt) in the Mesa guest of
# scripts/linux-mesa.sh, on r300-3d and on llvmpipe in the same boot; writes
# OUTDIR/piglit-table.md (test | r300-3d | llvmpipe) and compares r300-3d
# with tests/r300/piglit-expected.txt (exit 1 on a test that passed there
# and does not now). --update rewrites the expectations from this run.
#
#   scripts/linux-piglit.sh [--update] [--drivers hw|sw|hw,sw] [--host-sw]
#                           [OUTDIR]
#
# Each test is its binary run directly (bin/TEST ... -auto [-fbo]), not
# piglit's Python runner (see scripts/mesa-piglit.py). About 17 minutes of
# guest time on r300-3d; llvmpipe under TCG is several times slower (a
# test of the list can take minutes), and in the guest it runs the -fbo
# tests only: kms_swrast cannot allocate a window's buffers on the render
# node waffle's GBM platform opens.
#
# --host-sw: the llvmpipe column from the host instead of the guest: the
# same piglit package's binaries, on the host's own Mesa (which must be the
# guest's version: checked), PIGLIT_PLATFORM=surfaceless_egl with -fbo for
# every test (surfaceless has no window); lines in OUTDIR/host-sw.log, in
# the guest's format, read after the guest's serial log (--drivers hw then
# suffices).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

update=0
drivers=hw,sw
host_sw=0
while [ $# -gt 0 ]; do
  case $1 in
    --update) update=1; shift ;;
    --drivers) drivers=$2; shift 2 ;;
    --host-sw) host_sw=1; shift ;;
    -*) die "linux-piglit.sh: unknown option $1" ;;
    *) break ;;
  esac
done
out=${1:-$GPU3D_ROOT/out/linux-piglit}
expected=$GPU3D_ROOT/tests/r300/piglit-expected.txt
status=0
mkdir -p "$out"
out=$(realpath "$out")

if [ $host_sw = 1 ]; then
  pr=$(piglit_host_root "$out/host")
  read -r plan root <<<"$pr"
  have=$(dpkg-query -W -f '${Version}' libgl1-mesa-dri 2>/dev/null || true)
  log "linux-piglit: llvmpipe on the host (Mesa $have)"
  LIBGL_ALWAYS_SOFTWARE=1 PIGLIT_PLATFORM=surfaceless_egl \
    piglit_host_run "$root" "$plan/piglit-run.txt" sw "$out/host-pig.out" \
    >"$out/host-sw.log"
fi
args=(--run piglit --drivers "$drivers")
[ $update = 1 ] || [ ! -f "$expected" ] || args+=(--expected "$expected")
"$GPU3D_ROOT/scripts/linux-mesa.sh" "${args[@]}" "$out" || status=$?
results=$out/serial.log
if [ $host_sw = 1 ]; then
  # the guest's lines, then the host's llvmpipe lines (the later line wins)
  results=$out/results.log
  cat "$out/serial.log" "$out/host-sw.log" >"$results"
  python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" report "$results" \
      "$GPU3D_ROOT/tests/r300/piglit-list.txt" --table "$out/piglit-table.md"
fi
if [ $update = 1 ]; then
  python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" report "$results" \
      "$GPU3D_ROOT/tests/r300/piglit-list.txt" --write-expected "$expected"
  log "linux-piglit: wrote $expected"
fi
log "linux-piglit: table in $out/piglit-table.md"
exit $status
