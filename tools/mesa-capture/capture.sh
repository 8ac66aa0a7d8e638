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
[ -d kmscube ] || { apt-get source --download-only kmscube >/dev/null 2>&1 || true;
    mkdir kmscube && tar xzf kmscube_*.orig.tar.gz -C kmscube --strip-components=1; }
. "$here/shim.sh"
shim=$(build_shim "$work" "$here")

# kmscap with kmscube's own geometry and shaders
. "$here/build-kmscap.sh"
build_kmscap "$work/kmscube" "$here"

rm -f dump.txt
SHIM_CS_DUMP=$work/dump.txt RADEON_GPU_ID=0x4e44 \
MESA_LOADER_DRIVER_OVERRIDE=r300 RADEON_DEBUG=vp,fp \
LD_PRELOAD=$shim ./kmscap "$frame" "$mode" > shaders.txt 2>&1
python3 "$here/cs2replay.py" dump.txt "$out"
if [ $# -ge 4 ]; then
    LIBGL_ALWAYS_SOFTWARE=1 ./kmscap "$frame" "$mode" \
        "$(cd "$(dirname "$4")" && pwd)/$(basename "$4")" >/dev/null
fi
echo "$out (shader dumps in $work/shaders.txt)"
