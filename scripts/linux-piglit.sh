#!/usr/bin/env bash
# The whole piglit list (tests/r300/piglit-list.txt) in the Mesa guest of
# scripts/linux-mesa.sh, on r300-3d and on llvmpipe in the same boot; writes
# OUTDIR/piglit-table.md (test | r300-3d | llvmpipe) and compares r300-3d
# with tests/r300/piglit-expected.txt (exit 1 on a test that passed there
# and does not now). --update rewrites the expectations from this run.
#
#   scripts/linux-piglit.sh [--update] [--drivers hw|sw|hw,sw] [OUTDIR]
#
# Each test is its binary run directly (bin/TEST ... -auto [-fbo]), not
# piglit's Python runner (see scripts/mesa-piglit.py). About 12 minutes of
# guest time per driver.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

update=0
drivers=hw,sw
while [ $# -gt 0 ]; do
  case $1 in
    --update) update=1; shift ;;
    --drivers) drivers=$2; shift 2 ;;
    -*) die "linux-piglit.sh: unknown option $1" ;;
    *) break ;;
  esac
done
out=${1:-$GPU3D_ROOT/out/linux-piglit}
expected=$GPU3D_ROOT/tests/r300/piglit-expected.txt
status=0
args=(--run piglit --drivers "$drivers")
[ $update = 1 ] || [ ! -f "$expected" ] || args+=(--expected "$expected")
"$GPU3D_ROOT/scripts/linux-mesa.sh" "${args[@]}" "$out" || status=$?
if [ $update = 1 ]; then
  python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" report "$out/serial.log" \
      "$GPU3D_ROOT/tests/r300/piglit-list.txt" --write-expected "$expected"
  log "linux-piglit: wrote $expected"
fi
log "linux-piglit: table in $out/piglit-table.md"
exit $status
