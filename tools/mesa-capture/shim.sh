# Mesa's radeon DRM shim (src/amd/drm-shim of `apt-get source mesa`) with
# radeon-shim-dump.patch, built from its few sources. Sourced by capture.sh
# and host-piglit.sh.
# shellcheck shell=sh

# build_shim WORKDIR PATCHDIR: prints the path of the shim library, built
# under WORKDIR/shim-HASH (HASH: that of PATCHDIR/radeon-shim-dump.patch),
# from the Mesa source in WORKDIR/mesa (unpacked there first) with the
# patch applied to a copy of the one file it changes
build_shim() {
    _w=$1
    _here=$2
    _hash=$(sha256sum "$_here/radeon-shim-dump.patch" | cut -c1-12)
    _out=$_w/shim-$_hash
    if [ ! -f "$_out/libradeon_noop_drm_shim.so" ]; then
        (cd "$_w" &&
         { [ -d mesa ] || { apt-get source --download-only mesa >/dev/null &&
             mkdir mesa.tmp && tar xzf mesa_*.orig.tar.gz -C mesa.tmp \
                 --strip-components=1 && mv mesa.tmp mesa; }; }) >&2 || return 1
        rm -rf "$_out" && mkdir -p "$_out/src" "$_out/obj"
        # the pristine file from the tarball, then the patch
        tar xzf "$_w"/mesa_*.orig.tar.gz -C "$_out/src" --strip-components=1 \
            --wildcards '*/src/amd/drm-shim/radeon_noop_drm_shim.c' >&2 &&
        (cd "$_out/src" && patch -p1 -s < "$_here/radeon-shim-dump.patch") >&2 ||
            return 1
        _m=$_w/mesa
        _cflags="-O1 -g -fPIC -fvisibility=hidden -DHAVE_FUNC_ATTRIBUTE_VISIBILITY
            -DHAVE_FUNC_ATTRIBUTE_ALIAS -D_GNU_SOURCE -DHAVE_PTHREAD
            -DHAVE_STRUCT_TIMESPEC -DHAVE_TIMESPEC_GET -DUTIL_ARCH_LITTLE_ENDIAN=1
            -DUTIL_ARCH_BIG_ENDIAN=0 -I$_m/include -I$_m/src -I$_m/src/amd
            -I$_m/src/amd/drm-shim -I$_m/src/drm-shim -I$_m/src/util
            -I$_m/src/c11 -I/usr/include/libdrm -I$_m/include/drm-uapi"
        for _f in drm-shim/device.c drm-shim/drm_shim.c util/hash_table.c \
                  util/set.c util/log.c util/u_debug.c util/vma.c util/ralloc.c \
                  util/os_misc.c util/u_call_once.c util/simple_mtx.c \
                  util/futex.c c11/impl/threads_posix.c util/u_process.c \
                  util/os_file.c; do
            # shellcheck disable=SC2086
            gcc $_cflags -c "$_m/src/$_f" -o "$_out/obj/$(basename "$_f" .c).o" ||
                return 1
        done
        # shellcheck disable=SC2086
        gcc $_cflags -c "$_out/src/src/amd/drm-shim/radeon_noop_drm_shim.c" \
            -o "$_out/obj/radeon_noop_drm_shim.o" &&
        gcc -shared -o "$_out/libradeon_noop_drm_shim.so" "$_out"/obj/*.o \
            -ldrm -ldl -lpthread -lm || return 1
    fi
    echo "$_out/libradeon_noop_drm_shim.so"
}
