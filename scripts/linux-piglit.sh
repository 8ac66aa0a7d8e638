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
  built=$("$GPU3D_ROOT/scripts/linux-mesa.sh" --build-only "$out/host" | tail -2)
  plan=$(echo "$built" | head -1)
  want=$(grep "^libgl1-mesa-dri=" "$(echo "$built" | tail -1)/packages" |
         cut -d= -f2)
  have=$(dpkg-query -W -f '${Version}' libgl1-mesa-dri 2>/dev/null || true)
  [ -n "$want" ] && [ "$want" = "$have" ] ||
    die "linux-piglit: host Mesa '$have' is not the guest's '$want'"
  root=$GPU3D_CACHE/piglit-host-${plan##*-}
  if [ ! -d "$root" ]; then
    mkdir -p "$root.tmp"
    for p in piglit libwaffle-1-0; do
      deb=$("$GPU3D_ROOT/scripts/linux-guest.sh" --fetch $p | tail -1)
      if [ $p = piglit ]; then
        dpkg-deb --fsys-tarfile "$deb" | tar x -C "$root.tmp" -T "$plan/piglit-paths.txt"
      else
        dpkg-deb -x "$deb" "$root.tmp"
      fi
    done
    mv "$root.tmp" "$root"
  fi
  log "linux-piglit: llvmpipe on the host (Mesa $have)"
  (cd "$root/usr/lib/x86_64-linux-gnu/piglit" &&
   export LD_LIBRARY_PATH=$PWD/lib:$root/usr/lib/x86_64-linux-gnu \
          PIGLIT_PLATFORM=surfaceless_egl PIGLIT_SOURCE_DIR=$PWD \
          LIBGL_ALWAYS_SOFTWARE=1 MESA_SHADER_CACHE_DISABLE=true &&
   while IFS='|' read -r name flags cmd; do
     eval "set -- $cmd"
     bin=$1; shift
     rc=0
     timeout 120 "./bin/$bin" "$@" -auto -fbo >"$out/host-pig.out" 2>&1 </dev/null ||
       rc=$?
     res=$(grep -o '"result": *"[a-z]*"' "$out/host-pig.out" | tail -1 |
           sed 's/.*"\([a-z]*\)"$/\1/' || true)
     if [ -z "$res" ]; then
       if [ $rc = 124 ]; then res=timeout
       elif [ $rc -gt 128 ]; then res=crash; else res=fail; fi
     fi
     echo "gpu3d-linux: piglit-sw: $res $name"
     if [ "$res" != pass ] && [ "$res" != skip ]; then
       grep -v '^PIGLIT' "$out/host-pig.out" | head -6 |
         sed "s/^/gpu3d-linux: piglit-sw-log: /" || true
     fi
   done <"$plan/piglit-run.txt") >"$out/host-sw.log"
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
