#!/usr/bin/env bash
# Mesa's r300 driver on r300-3d in the Linux guest of scripts/linux-guest.sh:
# the guest gets Debian's Mesa (libgl1-mesa-dri, libgbm1, libegl-mesa0,
# libegl1, libgles2) and kmscube; its init hook runs `kmscube -M smooth` and
# `-M rgba` for 60 frames each, then draws one kmscube frame (smooth, and
# the textured cube) with tools/mesa-capture/kmscap.c on a pbuffer twice,
# by r300 and by llvmpipe (LIBGL_ALWAYS_SOFTWARE=1), and prints both
# pictures on the console. This script compares them (PSNR, pixels that
# differ) and prints what the guest reported.
#
#   scripts/linux-mesa.sh [OUTDIR]      (default: out/linux-mesa)
#
# Needs QEMU built (scripts/qemu-build.sh), kmscube's source through
# `apt-get source` (tools/mesa-capture/capture.sh fetches it) and the host's
# libegl-dev/libgles-dev to build kmscap.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

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
(cd "$out" &&
 (sed -n '/static const GLfloat vVertices/,/^};/p;/static const GLfloat vColors/,/^};/p;/static const GLfloat vNormals/,/^};/p' "$K/cube-smooth.c"
  sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source/,/;$/p' "$K/cube-smooth.c") > cube.h &&
 (sed -n '/GLfloat vTexCoords/,/^};/p' "$K/cube-tex.c"
  sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source_1img/,/;$/p' "$K/cube-tex.c" |
  sed 's/vertex_shader_source/tex_vertex_shader_source/;
       s/fragment_shader_source_1img/tex_fragment_shader_source/;
       /GL_OES_EGL_image_external/d; s/samplerExternalOES/sampler2D/') > cube-tex.h &&
 gcc -O1 -I. -I"$K" -o kmscap "$GPU3D_ROOT/tools/mesa-capture/kmscap.c" \
     "$K/esTransform.c" -lEGL -lGLESv2 -l:libgbm.so.1 -lm)

# the init hook: kmscap inside it, base64
hook=$out/hook.sh
{
  cat <<'EOF'
# scripts/linux-mesa.sh: kmscube on r300-3d; one frame by r300 and llvmpipe
echo "$P: mesa: begin"
base64 -d > /tmp/kmscap <<'B64'
EOF
  base64 -w 76 "$out/kmscap"
  cat <<'EOF'
B64
chmod +x /tmp/kmscap
export HOME=/tmp XDG_RUNTIME_DIR=/tmp
for m in smooth rgba; do
    t0=$(cut -d' ' -f1 /proc/uptime)
    timeout 300 kmscube -M $m -c 60 >/tmp/k-$m 2>&1
    rc=$?
    t1=$(cut -d' ' -f1 /proc/uptime)
    sed "s/^/$P: kmscube-$m: /" /tmp/k-$m | head -12
    echo "$P: kmscube-$m: rc $rc, 60 frames from $t0 s to $t1 s"
done
for m in smooth tex; do
    for r in hw sw; do
        if [ $r = sw ]; then export LIBGL_ALWAYS_SOFTWARE=1; else unset LIBGL_ALWAYS_SOFTWARE; fi
        timeout 300 /tmp/kmscap 0 $m /tmp/$m-$r.ppm >/tmp/cap-$m-$r 2>&1
        echo "$P: kmscap-$m-$r: rc $? $(head -2 /tmp/cap-$m-$r | tr '\n' ' ')"
        echo "$P: ppm-begin $m-$r"
        base64 /tmp/$m-$r.ppm
        echo "$P: ppm-end $m-$r"
    done
done
dmesg | grep -i -E "lockup|WARNING|Oops|BUG|ring test|ib test|accel|scratch" | head -20 |
    sed "s/^/$P: dmesg-after: /"
echo "$P: mesa: end"
EOF
} >"$hook"

log "linux-mesa: guest"
guest=$("$GPU3D_ROOT/scripts/linux-guest.sh" --print-dir \
        --packages "libgl1-mesa-dri libgbm1 libegl-mesa0 libegl1 libgles2 kmscube" \
        --init-hook "$hook" | tail -1)

log "linux-mesa: booting $guest on r300-3d"
serial=$out/serial.log
rm -f "$serial"
timeout 1800 "$QEMU_BIN" -machine pc -m 2048 -vga none \
    -device r300-3d,id=gpu,render-threads=2 \
    -kernel "$guest/vmlinuz" -initrd "$guest/initrd.img" \
    -append "console=ttyS0 panic=-1" -display none \
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
for m in smooth tex; do
  if [ -s "$out/$m-hw.ppm" ] && [ -s "$out/$m-sw.ppm" ]; then
    echo "kmscube $m, r300-3d vs llvmpipe in the guest:"
    "$CORE_BUILD/image-compare" "$out/$m-hw.ppm" "$out/$m-sw.ppm" --tolerance 2 || true
  fi
done
