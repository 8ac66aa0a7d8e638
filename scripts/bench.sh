#!/usr/bin/env bash
# Every chip's speed in one table, from one run of the project's benchmarks
# (tests/bench-*.c) on a release build of the cores:
#   - for each chip and case, the figure at 1 and 2 render threads, the
#     2-thread speed-up, and that speed-up relative to the same run's pure-CPU
#     control loop (1.00 = the renderer scales exactly as well as a loop
#     that touches no memory: the machine, not the renderer, is the limit);
#   - Mpixels/s figures also as a fraction of the same run's memset of a
#     32-bit frame on one thread (tests/bench-control.c, first and last);
#   - peers: Dolphin's software renderer on the same GX streams (.dff FIFO
#     logs written by flipper-dff), frames/s measured in this run when
#     dolphin-emu and Xvfb are installed; the ATTILA simulator's time per
#     corpus frame from the corpus README (not measured in this run).
#
#   scripts/bench.sh [SECONDS-PER-CASE]      (default 0.5)
#   scripts/bench.sh --instructions [BEFORE-BUILD]
#
# --instructions counts instructions under callgrind instead (they do not
# depend on the machine's load): the common rasteriser's cases and each
# chip's flat and Gouraud case on one render thread, each with its command
# line; BEFORE-BUILD (another release build directory, e.g. of the branch's
# base) adds a "before" column from the same cases run there.
#
# Environment: GPU3D_BENCH_BUILD (default build-bench, configured here with
# --buildtype=release), GPU3D_BENCH_ONLY (chips to run, e.g. "flipper glamo"),
# GPU3D_BENCH_DOLPHIN=0 (skip Dolphin), GPU3D_BENCH_DOLPHIN_SCENES (default:
# the scenes of issue 11's comparison), GPU3D_BENCH_DOLPHIN_SECONDS (per
# scene, default 10). Wall-clock figures are only as good as the machine is
# idle: the control loop's 2-thread ratio says how idle it was.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

instructions=
before=
if [ "${1:-}" = --instructions ]; then
  instructions=1
  before=${2:-}
  command -v valgrind >/dev/null || die "--instructions needs valgrind"
  set --
fi
secs=${1:-0.5}
build=${GPU3D_BENCH_BUILD:-$GPU3D_ROOT/build-bench}
only=${GPU3D_BENCH_ONLY:-raster flipper glamo pica200 r300 attila}
dolphin_scenes=${GPU3D_BENCH_DOLPHIN_SCENES:-gouraud cube tex-filter tex-tev tex-texgen}
dolphin_secs=${GPU3D_BENCH_DOLPHIN_SECONDS:-10}
DOLPHIN=/usr/games/dolphin-emu-nogui

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$GPU3D_ROOT" --buildtype=release >/dev/null
fi
if ! ninja -C "$build" >"$build/bench-ninja.log" 2>&1; then
  tail -20 "$build/bench-ninja.log" >&2
  die "ninja -C $build failed"
fi

rows=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$rows" "$tmp"' EXIT

# Instructions of one case in build directory $1: callgrind collecting only
# inside the bench's case function(s) named by the toggles ($2).
ir_case() {
  local dir=$1 toggles=$2 bin=$3 out=$tmp/callgrind.out
  shift 3
  # shellcheck disable=SC2086
  if valgrind --tool=callgrind --callgrind-out-file="$out" $toggles \
      "$dir/$bin" "$@" >/dev/null 2>&1; then
    awk '/^summary:/ { print $2 }' "$out"
  else
    echo -
  fi
}

# one row of the --instructions table: name, toggles, bench, arguments
ir_row() {
  local name=$1 toggles=$2 a b= r=
  shift 2
  a=$(ir_case "$build" "$toggles" "$@")
  if [ -n "$before" ]; then
    b=$(ir_case "$before" "$toggles" "$@")
    [ "$a" != - ] && [ "$b" != - ] &&
      r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", b / a }')
  fi
  printf '%-48s %14s %14s %7s\n' "$name" "$b" "$a" "$r"
  printf '    valgrind --tool=callgrind %s %s\n' "$toggles" "$(printf '%q ' "$@")"
}

if [ -n "$instructions" ]; then
  printf '%-48s %14s %14s %7s\n' "case (callgrind Ir, one render thread)" \
    "${before:+before}" "after" "${before:+ratio}"
  ir_row "raster: flat fill, 256px triangles" --toggle-collect=run \
    bench-raster -4 1 "flat fill"
  ir_row "raster: Gouraud, 256px triangles" --toggle-collect=run \
    bench-raster -1 1 "Gouraud, 256"
  ir_row "raster: Gouraud, 8px triangles" --toggle-collect=run \
    bench-raster -40 1 "Gouraud, 8"
  ir_row "raster: flat, 2px triangles" --toggle-collect=run \
    bench-raster -200 1 "flat, 2"
  ir_row "raster: Gouraud, staged, 8px triangles" --toggle-collect=run \
    bench-raster -40 1 "Gouraud, staged"
  ir_row "raster: flat, staged, 2px triangles" --toggle-collect=run \
    bench-raster -200 1 "flat, staged"
  ir_row "r300-3d: flat, no blend or depth" --toggle-collect=run_case \
    bench-r300 -t 1 -s 0 -k "flat"
  ir_row "r300-3d: Gouraud, full screen" --toggle-collect=run_case \
    bench-r300 -t 1 -s 0 -k "Gouraud, full screen"
  ir_row "r300-3d: small triangles (32 pixels)" --toggle-collect=run_case \
    bench-r300 -t 1 -s 0 -k small
  ir_row "pica200-3d: flat" --toggle-collect=run_scene bench-pica200 0 1 flat
  ir_row "pica200-3d: gouraud" --toggle-collect=run_scene \
    bench-pica200 0 1 gouraud
  ir_row "flipper-gx: flat fill (2 batches)" --toggle-collect=flipper_gx_exec \
    bench-flipper -2 1 "flat fill"
  # rig_scanout_argb: the frame's scan-out since flip10 (rig_scanout before)
  ir_row "flipper-gx: frame gouraud (2 frames)" \
    "--toggle-collect=rig_run_scene --toggle-collect=rig_scanout --toggle-collect=rig_scanout_argb" \
    bench-flipper -2 1 gouraud
  ir_row "glamo-3d: all cases, 1 submission, 1+2 threads" \
    --toggle-collect=run_case bench-glamo -1
  exit 0
fi
export GPU3D_BENCH_ROWS=1

# run a bench, keep its rows (renaming the chip column with $1 when set)
collect() {
  local rename=$1
  shift
  log "$(basename "$1") ${*:2}"
  "$@" | { grep '^row' || true; } | if [ -n "$rename" ]; then
    sed "s/^row\t[^\t]*\t/row\t$rename\t/"
  else
    cat
  fi >>"$rows"
}

# Dolphin's software renderer playing a scene's FIFO log in a loop, as fast
# as it can (EmulationSpeed 0); frames/s from the median time between
# presented frames (Dolphin's Logs/render_times.txt, one line per frame).
dolphin_fps() {
  local scene=$1 user=$tmp/dolphin-$1 xpid dpid disp
  mkdir -p "$user/Config" "$user/Logs"
  "$build/flipper-dff" write "$scene" "$tmp/$scene.dff"
  cat >"$user/Config/Dolphin.ini" <<'INI'
[Core]
GFXBackend = Software Renderer
CPUThread = False
EmulationSpeed = 0.0
[FifoPlayer]
LoopReplay = True
[Interface]
ConfirmStop = False
INI
  cat >"$user/Config/GFX.ini" <<'INI'
[Settings]
LogRenderTimeToFile = True
[Hacks]
ImmediateXFBEnable = True
EFBToTextureEnable = False
DeferEFBCopies = False
INI
  disp=:$((90 + RANDOM % 100))
  Xvfb "$disp" -screen 0 1024x768x24 >/dev/null 2>&1 &
  xpid=$!
  sleep 1
  DISPLAY=$disp "$DOLPHIN" -u "$user" -p x11 -e "$tmp/$scene.dff" \
    >"$user/log.txt" 2>&1 &
  dpid=$!
  sleep "$dolphin_secs"
  # SIGINT: Dolphin stops cleanly and flushes its logs
  kill -INT "$dpid" 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 "$dpid" 2>/dev/null || break
    sleep 1
  done
  kill "$dpid" 2>/dev/null || true
  wait "$dpid" 2>/dev/null || true
  kill "$xpid" 2>/dev/null || true
  wait "$xpid" 2>/dev/null || true
  # skip the first frames (start-up), median of the rest
  awk 'NR > 3 && $1 > 0 { print $1 }' "$user/Logs/render_times.txt" 2>/dev/null |
    sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.3f\n", 1000 / a[int((NR + 1) / 2)] }'
}

collect control-start "$build/bench-control" "$secs"
for chip in $only; do
  case $chip in
    raster)  collect "" "$build/bench-raster" "$secs" ;;
    flipper) collect "" "$build/bench-flipper" "$secs" 2 ;;
    glamo)   collect "" "$build/bench-glamo" "$secs" ;;
    pica200) collect "" "$build/bench-pica200" "$secs" 2 ;;
    r300)    collect "" "$build/bench-r300" -t 2 -s "$secs" ;;
    attila)  collect "" "$build/bench-attila" -t 1 -s "$secs"
             collect "" "$build/bench-attila" -t 2 -s "$secs" ;;
    *) die "unknown chip $chip" ;;
  esac
done
dolphin_note="not installed (scripts/flipper-dolphin-ref.sh installs dolphin-emu)"
if [[ " $only " == *" flipper "* ]] && [ "${GPU3D_BENCH_DOLPHIN:-1}" != 0 ]; then
  if [ -x "$DOLPHIN" ] && command -v Xvfb >/dev/null; then
    dolphin_note="measured in this run, ${dolphin_secs} s a scene"
    for s in $dolphin_scenes; do
      log "dolphin $s"
      fps=$(dolphin_fps "$s")
      [ -n "$fps" ] && printf 'row\tdolphin\tframe %s\t1\t%s\tframes/s\n' "$s" "$fps" >>"$rows"
    done
  fi
else
  dolphin_note="skipped"
fi
collect control-end "$build/bench-control" "$secs"

load=$(cut -d' ' -f1-3 /proc/loadavg)
awk -F'\t' -v load="$load" -v cpus="$(nproc)" -v dnote="$dolphin_note" '
  { key = $2 FS $3; v[key, $4] = $5; unit[key] = $6
    if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
  END {
    m1 = v["control-start" FS "memset", 1]; c1 = v["control-start" FS "CPU loop", 1]
    c2 = v["control-start" FS "CPU loop", 2]
    cs = (c1 > 0) ? c2 / c1 : 0
    printf "gpu3d bench: %d CPUs, load average %s at the end\n", cpus, load
    printf "memset (1 thread): %.2f Gpixels/s at the start, %.2f at the end; 2 threads: %.2f, %.2f\n",
      m1, v["control-end" FS "memset", 1], v["control-start" FS "memset", 2], v["control-end" FS "memset", 2]
    printf "CPU control loop 2/1 threads: %.2fx at the start, %s at the end (2.00 = idle 2-core machine)\n",
      cs, ratio(v["control-end" FS "CPU loop", 2], v["control-end" FS "CPU loop", 1])
    printf "Dolphin peer: %s; ATTILA simulator: corpus README, not same-run\n\n", dnote
    printf "%-11s %-38s %-9s %10s %10s %6s %7s %8s %s\n", "chip", "case", "unit",
      "1 thread", "2 threads", "2/1", "vs CPU", "memset%", "peer"
    for (i = 1; i <= n; i++) {
      key = order[i]; split(key, k, FS)
      if (k[1] ~ /^(control|dolphin|attila-sim)/) continue
      a = v[key, 1]; b = v[key, 2]
      # ms/trace: smaller is faster
      sc = unit[key] == "ms/trace" ? ratio(a, b) : ratio(b, a); rel = (sc != "-" && cs > 0) ? sprintf("%.2f", sc / cs) : "-"
      mem = (unit[key] == "Mpix/s" && a != "" && m1 > 0) ? sprintf("%.2f%%", a / (m1 * 1000) * 100) : "-"
      peer = ""
      if (k[1] == "flipper-gx" && (("dolphin" FS k[2], 1) in v)) {
        d = v["dolphin" FS k[2], 1]
        peer = sprintf("Dolphin %.1f frames/s: %.2fx", d, a / d)
      }
      if (k[1] == "attila-3d" && (("attila-sim" FS k[2], 1) in v)) {
        s = v["attila-sim" FS k[2], 1]
        peer = sprintf("simulator %.0f ms (README): %.0fx", s, s / a)
      }
      printf "%-11s %-38s %-9s %10s %10s %6s %7s %8s %s\n", k[1], substr(k[2], 1, 38),
        unit[key], a == "" ? "-" : a, b == "" ? "-" : b, sc, rel, mem, peer
    }
  }' "$rows"
