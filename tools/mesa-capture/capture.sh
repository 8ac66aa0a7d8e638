#!/bin/sh
# Capture the command stream Mesa's r300 driver (Debian's libgl1-mesa-dri,
# the host's own) produces for one kmscube frame, without a GPU: Mesa's
# radeon DRM shim (src/amd/drm-shim) pretends to be an R300 (1002:4E44),
# patched to dump every submitted IB with its relocations and buffers.
# The dump becomes a replay file for tests/r300 (cs2replay.py).
#
# usage: tools/mesa-capture/capture.sh OUT.replay [FRAME [smooth|tex|ops [REF.ppm]]]
# REF.ppm: the same frame drawn by llvmpipe (LIBGL_ALWAYS_SOFTWARE=1), the
# independent reference of tests/r300/ref/kmscube-*-llvmpipe.png.
# needs: the host's Mesa 22.3 (libegl-mesa0, libgbm1, libgl1-mesa-dri),
# libegl-dev, libgles-dev, libdrm-dev, deb-src lines for `apt-get source`.
# Work files go to ~/.cache/gpu3d/mesa-capture. Not part of scripts/test.sh:
# the replay files it made are committed under tests/r300/data.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath "$1")
frame=${2:-0}
mode=${3:-smooth}
work=$HOME/.cache/gpu3d/mesa-capture
mkdir -p "$work"
cd "$work"
[ -d mesa ] || { apt-get source --download-only mesa >/dev/null &&
    mkdir mesa && tar xzf mesa_*.orig.tar.gz -C mesa --strip-components=1; }
[ -d kmscube ] || { apt-get source --download-only kmscube >/dev/null 2>&1 || true;
    mkdir kmscube && tar xzf kmscube_*.orig.tar.gz -C kmscube --strip-components=1; }

# the shim, with the dump patch, built from its few sources
if [ ! -f libradeon_noop_drm_shim.so ]; then
    rm -rf shim && mkdir shim
    (cd mesa && patch -p1 -N -r - < "$here/radeon-shim-dump.patch" || true)
    M=$work/mesa
    CFLAGS="-O1 -g -fPIC -fvisibility=hidden -DHAVE_FUNC_ATTRIBUTE_VISIBILITY
        -DHAVE_FUNC_ATTRIBUTE_ALIAS -D_GNU_SOURCE -DHAVE_PTHREAD
        -DHAVE_STRUCT_TIMESPEC -DHAVE_TIMESPEC_GET -DUTIL_ARCH_LITTLE_ENDIAN=1
        -DUTIL_ARCH_BIG_ENDIAN=0 -I$M/include -I$M/src -I$M/src/amd
        -I$M/src/drm-shim -I$M/src/util -I$M/src/c11 -I/usr/include/libdrm
        -I$M/include/drm-uapi"
    for f in drm-shim/device.c drm-shim/drm_shim.c \
             amd/drm-shim/radeon_noop_drm_shim.c util/hash_table.c util/set.c \
             util/log.c util/u_debug.c util/vma.c util/ralloc.c util/os_misc.c \
             util/u_call_once.c util/simple_mtx.c util/futex.c \
             c11/impl/threads_posix.c util/u_process.c util/os_file.c; do
        gcc $CFLAGS -c "$M/src/$f" -o "shim/$(basename "$f" .c).o"
    done
    gcc -shared -o libradeon_noop_drm_shim.so shim/*.o -ldrm -ldl -lpthread -lm
fi

# kmscube's smooth cube: its shaders and geometry from its own source
K=$work/kmscube
(sed -n '/static const GLfloat vVertices/,/^};/p;/static const GLfloat vColors/,/^};/p;/static const GLfloat vNormals/,/^};/p' "$K/cube-smooth.c"
 sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source/,/;$/p' "$K/cube-smooth.c") > cube.h
# cube-tex.c's texture coordinates and shaders, with an ordinary sampler2D
(sed -n '/GLfloat vTexCoords/,/^};/p' "$K/cube-tex.c"
 sed -n '/static const char \*vertex_shader_source/,/;$/p;/static const char \*fragment_shader_source_1img/,/;$/p' "$K/cube-tex.c" |
 sed 's/vertex_shader_source/tex_vertex_shader_source/;
      s/fragment_shader_source_1img/tex_fragment_shader_source/;
      /GL_OES_EGL_image_external/d; s/samplerExternalOES/sampler2D/') > cube-tex.h
gcc -O1 -I. -I"$K" -o kmscap "$here/kmscap.c" "$K/esTransform.c" \
    -lEGL -lGLESv2 -l:libgbm.so.1 -lm

rm -f dump.txt
SHIM_CS_DUMP=$work/dump.txt RADEON_GPU_ID=0x4e44 \
MESA_LOADER_DRIVER_OVERRIDE=r300 RADEON_DEBUG=vp,fp \
LD_PRELOAD=$work/libradeon_noop_drm_shim.so ./kmscap "$frame" "$mode" > shaders.txt 2>&1
python3 "$here/cs2replay.py" dump.txt "$out"
if [ $# -ge 4 ]; then
    LIBGL_ALWAYS_SOFTWARE=1 ./kmscap "$frame" "$mode" \
        "$(cd "$(dirname "$4")" && pwd)/$(basename "$4")" >/dev/null
fi
echo "$out (shader dumps in $work/shaders.txt)"
