#!/usr/bin/env bash
# Mesa's r300 driver on r300-3d in the Linux guest of scripts/linux-guest.sh:
# the guest gets Debian's Mesa (libgl1-mesa-dri, libgbm1, libegl-mesa0,
# libegl1, libgles2), kmscube, glmark2-es2-drm and the piglit tests of
# tests/r300/piglit-list.txt (their binaries, shader files and libraries
# only: the whole package is 2 GB). One image serves every run; the kernel
# command line (gpu3d.mesa=..., gpu3d.piglit=..., gpu3d.drivers=...) says
# what its init hook runs:
#   kmscube  `kmscube -M MODE` for --frames frames in each of its modes (smooth, rgba,
#            nv12-2img, nv12-1img)
#   kmscap   one kmscube frame drawn with tools/mesa-capture/kmscap.c by
#            r300 and by llvmpipe (LIBGL_ALWAYS_SOFTWARE=1), printed on the
#            console: the smooth cube and a textured cube on a pbuffer, and
#            the textured cube of -M rgba, nv12-2img and nv12-1img with
#            kmscube's own frame imported as dma-bufs (on GBM) on r300, and
#            the same bytes uploaded as ordinary textures on both; this script
#            compares them (PSNR, pixels that differ; the bar is 45 dB and 8
#            pixels beyond +-2, as for the replays of tests/r300)
#   glmark2  glmark2-es2-drm's default scenes, 1 s each (-b :duration=1; a
#            full run is too slow under TCG), per driver
#   piglit   the tests of the list (or of --piglit FILE, a subset) run as
#            bin/TEST ... -auto [-fbo], per driver (scripts/mesa-piglit.py)
#   gpureset the kernel's GPU reset through radeon's debugfs, then kmscube
#            twice: the device must come back (the ring and IB tests pass)
# --env VAR=VAL[,VAR=VAL] is exported in the guest for every program, e.g.
# --env RADEON_HYPERZ=1 (Mesa's HyperZ on R300: r300_blit.c).
# Drivers: hw = r300-3d, sw = llvmpipe in the same guest.
#
#   scripts/linux-mesa.sh [--run kmscube,kmscap,glmark2,piglit,gpureset]
#       [--drivers hw,sw] [--piglit FILE] [--expected FILE] [--env VAR=VAL]
#       [--frames N] [--build-only]
#       [OUTDIR]
#
# Default: --run kmscube,kmscap,glmark2, OUTDIR out/linux-mesa; --frames:
# kmscube's frames in each mode (60). Exit status 1 when the kernel reports
# a GPU lockup or a warning, a kmscube mode does not exit 0, a kmscap frame misses
# the bar, a glmark2 run fails, or (with --expected) a piglit test that
# passes there does not. Needs QEMU built (scripts/qemu-build.sh), kmscube's
# source through `apt-get source` and the host's libegl-dev/libgles-dev to
# build kmscap.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run=kmscube,kmscap,glmark2
drivers=hw,sw
subset=
expected=
env=
frames=60
build_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --run) run=$2; shift 2 ;;
    --drivers) drivers=$2; shift 2 ;;
    --piglit) subset=$2; shift 2 ;;
    --expected) expected=$2; shift 2 ;;
    --env) env=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -*) die "linux-mesa.sh: unknown option $1" ;;
    *) break ;;
  esac
done
out=${1:-$GPU3D_ROOT/out/linux-mesa}
mkdir -p "$out"
cap=$GPU3D_CACHE/mesa-capture
K=$cap/kmscube
if [ ! -d "$K" ]; then
  mkdir -p "$cap" && (cd "$cap" &&
    { apt-get source --download-only kmscube >/dev/null 2>&1 || true; } &&
    mkdir kmscube && tar xzf kmscube_*.orig.tar.gz -C kmscube --strip-components=1)
fi

# kmscap, built here (the guest has no compiler) against the same Mesa
log "linux-mesa: kmscap"
. "$GPU3D_ROOT/tools/mesa-capture/build-kmscap.sh"
(cd "$out" && build_kmscap "$K" "$GPU3D_ROOT/tools/mesa-capture")

# piglit: which binaries, shader files and libraries the list needs, read
# from the package's own test profiles (cached: it reads the 2 GB package)
list=$GPU3D_ROOT/tests/r300/piglit-list.txt
pdeb=$("$GPU3D_ROOT/scripts/linux-guest.sh" --fetch piglit | tail -1)
pkey=$( (cat "$list" "$GPU3D_ROOT/scripts/mesa-piglit.py"; echo "$pdeb") |
        sha256sum | cut -c1-12)
plan=$GPU3D_CACHE/piglit-plan-$pkey
if [ ! -f "$plan/piglit-paths.txt" ]; then
  log "linux-mesa: piglit plan (reads $pdeb)"
  rm -rf "$plan.tmp" && mkdir -p "$plan.tmp"
  python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" plan "$pdeb" "$list" "$plan.tmp"
  mv "$plan.tmp" "$plan"
fi

# the init hook: kmscap and the piglit run table, then linux-mesa-hook.sh
hook=$out/hook.sh
{
  echo "base64 -d >/tmp/kmscap <<'B64'"
  base64 -w 76 "$out/kmscap"
  echo "B64"
  echo "cat >/tmp/piglit-run.txt <<'RUN'"
  cat "$plan/piglit-run.txt"
  echo "RUN"
  cat "$GPU3D_ROOT/scripts/linux-mesa-hook.sh"
} >"$hook"

log "linux-mesa: guest"
guest=$("$GPU3D_ROOT/scripts/linux-guest.sh" --print-dir \
        --packages "libgl1-mesa-dri libgbm1 libegl-mesa0 libegl1 libgles2 kmscube
                    glmark2-es2-drm libgl1 libwaffle-1-0 libx11-6 libxkbcommon0
                    libwayland-client0" \
        --partial "piglit=$plan/piglit-paths.txt" \
        --init-hook "$hook" | tail -1)

# --build-only: the piglit plan, then the guest (last line)
[ $build_only = 0 ] || { echo "$plan"; echo "$guest"; exit 0; }

sel=all
[ -z "$subset" ] ||
  sel=$(python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" lines "$list" "$subset")
log "linux-mesa: booting $guest on r300-3d"
serial=$out/serial.log
rm -f "$serial"
# radeon.lockup_timeout=60000: the kernel calls the GPU locked up when the
# ring's read pointer has not moved for 10 s of wall time (radeon_drv.c),
# and one glmark2 frame under TCG on a loaded host takes longer than that;
# a real hang is still reported, after a minute
timeout 14400 "$QEMU_BIN" -machine pc -m 2048 -vga none \
    -device r300-3d,id=gpu,render-threads=2 \
    -kernel "$guest/vmlinuz" -initrd "$guest/initrd.img" \
    -append "console=ttyS0 panic=-1 radeon.lockup_timeout=60000 gpu3d.mesa=$run gpu3d.drivers=$drivers gpu3d.piglit=$sel gpu3d.frames=$frames${env:+ gpu3d.env=$env}" \
    -display none \
    -serial "file:$serial" -monitor none -no-reboot \
    -d guest_errors,unimp -D "$out/qemu.log" || true

python3 - "$serial" "$out" <<'PY'
import base64, re, sys
text = open(sys.argv[1], errors="replace").read()
for m in re.finditer(r"gpu3d-linux: ppm-begin (\S+)\r?\n(.*?)gpu3d-linux: ppm-end", text, re.S):
    data = base64.b64decode("".join(l.strip() for l in m.group(2).splitlines()
                                    if not l.startswith("[")))
    open("%s/%s.ppm" % (sys.argv[2], m.group(1)), "wb").write(data)
PY
grep "gpu3d-linux" "$serial" | grep -v "^gpu3d-linux: ppm\|^[A-Za-z0-9+/=]*$" || true

fail=0
bad() { log "FAIL: linux-mesa: $*"; fail=1; }
grep -q "gpu3d-linux: mesa: end" "$serial" || bad "the guest did not finish"
grep -q "gpu3d-linux: clean-dmesg: PASS" "$serial" || bad "kernel warnings (clean-dmesg)"
! grep -q "GPU lockup" "$serial" || bad "GPU lockup"
if [[ ,$run, == *,kmscube,* ]]; then
  for m in smooth rgba nv12-2img nv12-1img; do
    grep -q "gpu3d-linux: kmscube-$m: rc 0," "$serial" || bad "kmscube -M $m"
  done
fi
if [[ ,$run, == *,gpureset,* ]]; then
  grep -q "gpu3d-linux: gpu-reset: PASS" "$serial" || bad "GPU reset"
fi
if [[ ,$run, == *,kmscap,* ]]; then
  # cmp NAME A B ARGS: image-compare A B ARGS, a failure when it misses
  cmp() {
    local name=$1 a=$out/$2.ppm b=$out/$3.ppm
    shift 3
    echo "$name:"
    if [ ! -s "$a" ] || [ ! -s "$b" ] ||
       ! "$CORE_BUILD/image-compare" "$a" "$b" "$@"; then
      bad "kmscap $name"
    fi
  }
  for m in smooth tex; do
    cmp "kmscube $m, r300-3d vs llvmpipe in the guest" $m-hw $m-sw \
      --tolerance 2 --min-psnr 45 --max-diff-pixels 8
  done
  # kmscube's own frame, imported: on r300-3d exactly the frame of the
  # same bytes uploaded (the import's planes, pitch, format and swizzle);
  # against llvmpipe with a wider bar, as this 512x512 frame of colour bars
  # and noise is drawn about 8x smaller without mipmaps, so that the chip's
  # vertex and texture-coordinate precision picks other texels along the
  # bars' edges and in the noise (1.2-1.4 % of the pixels by more than 2,
  # 42-46 dB; a missing plane measured 16-21 dB)
  for m in rgba nv12-2img nv12-1img; do
    cmp "kmscube -M $m, import vs upload on r300-3d" $m-hw $m-upload-hw \
      --tolerance 0 --min-psnr 999 --max-diff-pixels 0
    cmp "kmscube -M $m, r300-3d vs llvmpipe in the guest" $m-hw $m-upload-sw \
      --tolerance 2 --min-psnr 40 --max-diff-pixels 384
  done
fi
if [[ ,$run, == *,glmark2,* ]]; then
  for r in hw sw; do
    [[ ,$drivers, == *,$r,* ]] || continue
    grep -q "gpu3d-linux: glmark2-$r: rc 0 " "$serial" || bad "glmark2 ($r)"
  done
  python3 - "$serial" >"$out/glmark2.md" <<'PY'
import re, sys
res = {"hw": {}, "sw": {}}
order = []
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"gpu3d-linux: glmark2-(hw|sw): (?:.*?)(\[\w+\] .*?):(?: .*:)? "
                 r"(FPS: \d+ FrameTime: [\d.]+ ms|Unsupported)", line)
    if m:
        if m.group(2) not in order:
            order.append(m.group(2))
        v = m.group(3).replace("FPS: ", "").replace(" FrameTime: ", " fps, ")
        res[m.group(1)][m.group(2)] = v
    m = re.match(r"gpu3d-linux: glmark2-(hw|sw): .*Score: (\d+)", line)
    if m:
        res[m.group(1)]["score"] = m.group(2)
print("| scene | r300-3d | llvmpipe |\n|---|---|---|")
for k in order:
    print("| `%s` | %s | %s |" % (k, res["hw"].get(k, "-"), res["sw"].get(k, "-")))
print("| glmark2 Score | %s | %s |" % (res["hw"].get("score", "-"),
                                      res["sw"].get("score", "-")))
PY
  cat "$out/glmark2.md"
fi
if [[ ,$run, == *,piglit,* ]]; then
  args=(--table "$out/piglit-table.md")
  [ -z "$expected" ] || args+=(--expected "$expected")
  [ -z "$subset" ] || args+=(--only "$subset")
  python3 "$GPU3D_ROOT/scripts/mesa-piglit.py" report "$serial" "$list" \
      "${args[@]}" || bad "piglit regressions against $expected"
fi
# device-side: what the guest sent that the device does not model (logged once)
if [ -s "$out/qemu.log" ]; then
  echo "QEMU's log (guest errors, unimplemented), $(wc -l <"$out/qemu.log") lines:"
  sort "$out/qemu.log" | uniq -c | sort -rn | head -20
fi
exit $fail
