#!/usr/bin/env bash
# Every test, from a fresh Debian bookworm machine: installs packages, builds
# the standalone cores and runs their unit tests, benchmarks' smoke run and
# fuzz harnesses; builds QEMU with the devices and runs the qtests; builds
# the homebrew guests, boots each and compares its screenshot with the
# independent reference image; builds the Linux guest from Debian packages
# and checks what the radeon driver reports on r300-3d. GPU3D_QEMU=10.0
# picks the QEMU (default 7.2); the qtests, guests and Linux checks then run
# again against each QEMU in GPU3D_QEMU_ALSO (default "10.0"; empty: only
# the one). Each QEMU's pass also migrates each demo guest mid-frame
# (scripts/migrate-test.py) and exports the devices as a patch series
# against it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export GPU3D_QEMU_ALSO=${GPU3D_QEMU_ALSO-10.0}

"$GPU3D_ROOT/scripts/setup.sh"

log "standalone cores: build and unit tests"
if [ ! -f "$CORE_BUILD/build.ninja" ]; then
  meson setup "$CORE_BUILD" "$GPU3D_ROOT" >/dev/null
fi
ninja -C "$CORE_BUILD" -j "$JOBS" >/dev/null
if [ -z "${GPU3D_QEMU_ONLY:-}" ]; then
  meson test -C "$CORE_BUILD" --num-processes "$JOBS" --print-errorlogs
fi

log "QEMU $QEMU_VERSION with the gpu3d devices"
"$GPU3D_ROOT/scripts/qemu-build.sh"

log "every system file the builds used comes from setup.sh's package list"
"$GPU3D_ROOT/scripts/check-packages.sh"

log "qtests"
export GPU3D_ROOT   # the attila qtest reads its corpus from the source tree
# For a QEMU built with --enable-sanitizers (GPU3D_QEMU_EXTRA_CONFIGURE):
# QEMU 7.2's own console leak is suppressed, and LeakSanitizer matches the
# suppression only with the slow unwinder (no effect on a plain build).
export ASAN_OPTIONS=${ASAN_OPTIONS:-fast_unwind_on_malloc=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$GPU3D_ROOT/scripts/lsan-suppressions.txt}
fail=0
for t in "$GPU3D_ROOT"/qtest/gpu3d-*-test.c; do
  name=$(basename "$t" .c)
  if ! (cd "$QEMU_BUILD" && QTEST_QEMU_BINARY=./qemu-system-x86_64 \
        timeout 600 "./tests/qtest/$name" --tap -k); then
    log "FAIL: $name"
    fail=1
  fi
done

log "guests: boot, screenshot, compare with the independent reference"
make -s -C "$GPU3D_ROOT/guest" O="$OUT/guest"
declare -A booted=()
# name | device | serial line when done | reference | min PSNR | tolerance | max pixels beyond it [| head]
while IFS='|' read -r demo device done ref psnr tol maxpx head; do
  [ -n "$demo" ] || continue
  for machine in pc q35; do
    shot="$OUT/test-$demo-$machine${head:+-head$head}$QEMU_TAG.png"
    # a row that checks the same screenshot against another reference
    # reuses that boot
    run="$shot|$device"
    if [ -z "${booted[$run]:-}" ]; then
      booted[$run]=1
      rm -f "$shot"
      python3 "$GPU3D_ROOT/scripts/run-guest.py" --qemu "$QEMU_BIN" \
        --machine "$machine" --kernel "$OUT/guest/$demo.elf" \
        --device "$device" --wait "$done" --screenshot "$shot" \
        --head "${head:-0}" >/dev/null || true
    fi
    if [ ! -f "$shot" ] ||
       ! "$CORE_BUILD/image-compare" "$shot" "$GPU3D_ROOT/$ref" \
         --min-psnr "$psnr" --tolerance "$tol" --max-diff-pixels "$maxpx"; then
      log "FAIL: $demo${head:+ head $head} on $machine"
      fail=1
    else
      log "ok: $demo${head:+ head $head} on $machine"
    fi
  done
done <<'TABLE'
r300-demo|r300-3d,id=gpu,render-threads=2|r300-demo: done|tests/r300/ref/demo-cube.png|44|2|200
pica200-demo|pica200-3d,id=gpu,render-threads=2|pica200-demo: done|tests/pica200/ref/demo-top.png|41|2|40|0
pica200-demo|pica200-3d,id=gpu,render-threads=2|pica200-demo: done|tests/pica200/ref/demo-lit.png|45|2|40|1
glamo-demo|glamo-3d,id=gpu,render-threads=2|glamo-demo: done|tests/glamo/ref/demo-cube.png|31|32|40
glamo-demo|glamo-3d,id=gpu,render-threads=2|glamo-demo: done|tests/glamo/ref/demo-cube-565.png|70|4|0
attila-demo|attila-3d,id=gpu,render-threads=2|attila-demo: done|tests/attila/ref/demo-cube.png|46|2|40
flipper-demo|flipper-gx,id=gpu,render-threads=2|flipper-demo: done|tests/flipper/ref/cube.png|80|2|0
TABLE

log "save/restore and migration: each demo stopped mid-frame, migrated to a file, savevm/loadvm"
# name | device | serial text once it renders | done | core stream magic |
# offset of a ring pointer or FIFO count in that stream (scripts/migrate-test.py)
# [| head compared (default 0) [| the stop's window after the serial text, s
# (default 0.3; shorter for a demo that renders all its frames in less)]]
while IFS='|' read -r demo device started done magic badat head window; do
  [ -n "$demo" ] || continue
  if ! python3 "$GPU3D_ROOT/scripts/migrate-test.py" --qemu "$QEMU_BIN" \
       --kernel "$OUT/guest/$demo.elf" --device "$device" \
       --started "$started" --done "$done" --magic "$magic" --bad-at "$badat" \
       --head "${head:-0}" --window "${window:-0.3}" \
       --compare "$CORE_BUILD/image-compare" --out "$OUT/migrate$QEMU_TAG"; then
    log "FAIL: migration of $demo"
    fail=1
  else
    log "ok: migration of $demo"
  fi
done <<'TABLE'
r300-demo|r300-3d,id=gpu,render-threads=2|MiB)|r300-demo: done|R300|66866
glamo-demo|glamo-3d,id=gpu,render-threads=2|MiB)|glamo-demo: done|GLMO|16908|0|0.05
attila-demo|attila-3d,id=gpu,render-threads=2|GPU memory|attila-demo: done|ATLA|45
pica200-demo|pica200-3d,id=gpu,render-threads=2|MiB)|pica200-demo: done|PICA|7384|0|0.08
flipper-demo|flipper-gx,id=gpu,render-threads=2|Flipper revision|flipper-demo: done|FLIP|58
TABLE

log "Linux guest: Debian's radeon KMS driver on r300-3d (scripts/linux-guest.sh)"
# bookworm's kernel, radeon.ko, busybox, libdrm-tests, R300_cp.bin; cached
linux_guest=$("$GPU3D_ROOT/scripts/linux-guest.sh" --print-dir | tail -1)
for machine in pc q35; do
  for mode in "" --moves; do
    if ! python3 "$GPU3D_ROOT/scripts/linux-test.py" --qemu "$QEMU_BIN" \
         --guest "$linux_guest" --machine "$machine" $mode \
         --log "$OUT/linux-$machine${mode:+-moves}$QEMU_TAG.log"; then
      log "FAIL: Linux on $machine${mode:+ (buffer moves)}"
      fail=1
    fi
  done
done

# Mesa's r300 driver, in the first QEMU's pass only (a boot takes ~4 min
# warm): one boot of the Mesa guest (cached image), a kmscube frame by r300
# and by llvmpipe compared (45 dB, 8 pixels beyond +-2), the tests of
# tests/r300/piglit-quick.txt on r300-3d against tests/r300/piglit-expected.txt;
# the whole list is scripts/linux-piglit.sh
if [ -z "${GPU3D_QEMU_ONLY:-}" ]; then
  log "Mesa's r300 driver on r300-3d (scripts/linux-mesa.sh): kmscube vs llvmpipe, piglit's quick list"
  if ! "$GPU3D_ROOT/scripts/linux-mesa.sh" --run kmscap,piglit --drivers hw \
       --piglit "$GPU3D_ROOT/tests/r300/piglit-quick.txt" \
       --expected "$GPU3D_ROOT/tests/r300/piglit-expected.txt" \
       "$OUT/linux-mesa$QEMU_TAG" >"$OUT/linux-mesa$QEMU_TAG.log" 2>&1; then
    tail -40 "$OUT/linux-mesa$QEMU_TAG.log" >&2
    log "FAIL: Mesa on r300-3d ($OUT/linux-mesa$QEMU_TAG.log)"
    fail=1
  else
    grep -E "PSNR|piglit on|REGRESSION" "$OUT/linux-mesa$QEMU_TAG.log" >&2 || true
    log "ok: Mesa on r300-3d"
  fi
fi

log "the devices as a patch series against QEMU $QEMU_VERSION"
if ! "$GPU3D_ROOT/scripts/export-patches.sh" "$OUT/patches-qemu-$GPU3D_QEMU"; then
  log "FAIL: scripts/export-patches.sh"
  fail=1
fi

# GPU3D_QEMU_ALSO="10.0": the qtests and guests again against those QEMUs
for also in ${GPU3D_QEMU_ALSO:-}; do
  [ "$also" != "$GPU3D_QEMU" ] || continue
  log "again against QEMU $also: qtests and guests"
  GPU3D_QEMU=$also GPU3D_QEMU_ALSO= GPU3D_QEMU_ONLY=1 "$0" || fail=1
done

if [ $fail != 0 ]; then
  die "some tests failed"
fi
log "all tests passed"
