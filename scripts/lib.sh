# Shared settings of the gpu3d scripts. Sourced, not run.
# shellcheck shell=bash

GPU3D_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GPU3D_CACHE=${GPU3D_CACHE:-$HOME/.cache/gpu3d}
log() { printf '[gpu3d] %s\n' "$*" >&2; }
die() { printf '[gpu3d] error: %s\n' "$*" >&2; exit 1; }
# Which QEMU: GPU3D_QEMU=7.2 (default, Debian bookworm's qemu) or 10.0
# (bookworm-backports' qemu, fetched through a private apt configuration so
# the system's sources stay as they are; its meson >= 1.5 and pycotap come
# from bookworm-backports too, unpacked under $QEMU_TOOLS).
GPU3D_QEMU=${GPU3D_QEMU:-7.2}
case "$GPU3D_QEMU" in
  7.2)
    QEMU_VERSION=7.2.22        # upstream version inside bookworm's qemu 1:7.2+dfsg
    QEMU_DEB_VERSION=          # whatever bookworm's deb-src entries have
    ;;
  10.0)
    QEMU_VERSION=10.0.2
    QEMU_DEB_VERSION=1:10.0.2+ds-2+deb13u1~bpo12+1
    # configure's python deps (QEMU's pythondeps.toml, group meson); Debian
    # strips the wheels QEMU vendors in python/wheels
    QEMU_BPO_DEBS=(meson python3-pycotap)
    ;;
  *) die "GPU3D_QEMU=$GPU3D_QEMU: supported are 7.2 and 10.0" ;;
esac
QEMU_PATCH=$GPU3D_ROOT/patches/qemu-$GPU3D_QEMU-gpu3d-hooks.patch
# in the names of files a run against a non-default QEMU writes
QEMU_TAG=
[ "$GPU3D_QEMU" = 7.2 ] || QEMU_TAG=-qemu$GPU3D_QEMU
FIRMWARE_PATH=/usr/share/seabios:/usr/share/qemu:/usr/lib/ipxe/qemu
# the small build of docs/architecture.md; ccache wraps the compiler when
# present
QEMU_CC=gcc
command -v ccache >/dev/null 2>&1 && QEMU_CC="ccache gcc"
QEMU_CONFIGURE_ARGS=(--target-list=x86_64-softmmu --without-default-features
  --enable-tcg --enable-png --enable-vnc --disable-docs --disable-werror
  --disable-install-blobs "--firmwarepath=$FIRMWARE_PATH" "--cc=$QEMU_CC")
if [ "$GPU3D_QEMU" != 7.2 ]; then
  # offline: configure takes meson from $QEMU_TOOLS, never from the network;
  # pixman became optional (8.2) and the VNC display needs it
  QEMU_CONFIGURE_ARGS+=(--disable-download --enable-pixman)
fi
# more flags for a developer's build, e.g. --enable-sanitizers (own tree key)
if [ -n "${GPU3D_QEMU_EXTRA_CONFIGURE:-}" ]; then
  read -r -a _extra <<<"$GPU3D_QEMU_EXTRA_CONFIGURE"
  QEMU_CONFIGURE_ARGS+=("${_extra[@]}")
fi
# the prepared tree is keyed by the QEMU version, our patch and the flags,
# but not by the compiler launcher: a script sources this before setup.sh
# installs ccache and the build scripts it runs after, and on a fresh
# machine both must name the same tree
_key_args=()
for _a in "${QEMU_CONFIGURE_ARGS[@]}"; do
  case $_a in --cc=*) ;; *) _key_args+=("$_a") ;; esac
done
PATCH_KEY=$( (cat "$QEMU_PATCH"; printf '%s\n' "${_key_args[@]}") |
             sha256sum | cut -c1-12)
# The pristine source, shared by every tree.
QEMU_SRC=$GPU3D_CACHE/qemu-$QEMU_VERSION-src
# The prepared tree (source + hooks + overlay + build dir), keyed by QEMU
# version and our patch. A second work tree sets GPU3D_QEMU_TREE to its own.
# A GPU3D_QEMU_TREE names the 7.2 tree; other versions get it with a suffix.
if [ -n "${GPU3D_QEMU_TREE:-}" ]; then
  QEMU_TREE=$GPU3D_QEMU_TREE
  [ "$GPU3D_QEMU" = 7.2 ] || QEMU_TREE=$GPU3D_QEMU_TREE-$GPU3D_QEMU
else
  QEMU_TREE=$GPU3D_CACHE/qemu-$QEMU_VERSION-$PATCH_KEY
fi
QEMU_BUILD=$QEMU_TREE/build
QEMU_BIN=$QEMU_BUILD/qemu-system-x86_64
CORE_BUILD=${GPU3D_CORE_BUILD:-$GPU3D_ROOT/build}
OUT=${GPU3D_OUT:-$GPU3D_ROOT/out}
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$GPU3D_CACHE/ccache}
export CCACHE_BASEDIR=$GPU3D_CACHE
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}


# bookworm-backports through a private apt configuration: its own sources
# file, lists and cache under $GPU3D_CACHE, so /etc/apt gains nothing.
APT_BPO=$GPU3D_CACHE/apt-bookworm-backports
QEMU_TOOLS=$GPU3D_CACHE/tools-bookworm-backports
apt_bpo() {
  mkdir -p "$APT_BPO/lists/partial" "$APT_BPO/cache/archives/partial"
  [ -f "$APT_BPO/sources.list" ] ||
    printf '%s\n' \
      'deb http://deb.debian.org/debian bookworm-backports main' \
      'deb-src http://deb.debian.org/debian bookworm-backports main' \
      >"$APT_BPO/sources.list"
  apt-get -o "Dir::Etc::SourceList=$APT_BPO/sources.list" \
    -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$APT_BPO/lists" \
    -o "Dir::Cache=$APT_BPO/cache" -o APT::Sandbox::User=root "$@"
}
QEMU_TOOLS_PY=$QEMU_TOOLS/usr/lib/python3/dist-packages

# The piglit binaries of the Mesa guest's package set on the host (for
# runs on the host's own Mesa, which must be the guest's version: checked):
# prints "PLAN ROOT", the piglit plan directory (piglit-run.txt) and the
# root the package and libwaffle are unpacked under. OUT: scratch dir.
piglit_host_root() {
  local built plan want have root deb p
  built=$("$GPU3D_ROOT/scripts/linux-mesa.sh" --build-only "$1" | tail -2)
  plan=$(echo "$built" | head -1)
  want=$(grep "^libgl1-mesa-dri=" "$(echo "$built" | tail -1)/packages" |
         cut -d= -f2)
  have=$(dpkg-query -W -f '${Version}' libgl1-mesa-dri 2>/dev/null || true)
  [ -n "$want" ] && [ "$want" = "$have" ] ||
    die "host Mesa '$have' is not the guest's '$want'"
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
  echo "$plan $root"
}

# Run the piglit tests of a plan's piglit-run.txt (name|flags|command) from
# a piglit_host_root ROOT on the host, each as bin/TEST ... -auto with -fbo
# unless PIGLIT_PLATFORM=gbm, under the environment the caller exports
# (which Mesa driver); prints "gpu3d-linux: piglit-TAG: RESULT NAME" lines
# in the guest's format, with the first log lines of a failure. Only the
# tests whose name matches PIGLIT_FILTER (grep -E) when it is set. SCRATCH:
# a file for each test's output.
piglit_host_run() {
  local root=$1 run=$2 tag=$3 scratch=$4 name flags cmd bin rc res fbo=-fbo
  [ "${PIGLIT_PLATFORM:-}" != gbm ] || fbo=
  (cd "$root/usr/lib/x86_64-linux-gnu/piglit" &&
   export LD_LIBRARY_PATH=$PWD/lib:$root/usr/lib/x86_64-linux-gnu \
          PIGLIT_SOURCE_DIR=$PWD MESA_SHADER_CACHE_DISABLE=true &&
   while IFS='|' read -r name flags cmd; do
     if [ -n "${PIGLIT_FILTER:-}" ] &&
        ! printf '%s\n' "$name" | grep -qE "$PIGLIT_FILTER"; then
       continue
     fi
     eval "set -- $cmd"
     bin=$1; shift
     rc=0
     # shellcheck disable=SC2086
     timeout 120 "./bin/$bin" "$@" -auto $fbo >"$scratch" 2>&1 </dev/null ||
       rc=$?
     res=$(grep -o '"result": *"[a-z]*"' "$scratch" | tail -1 |
           sed 's/.*"\([a-z]*\)"$/\1/' || true)
     if [ -z "$res" ]; then
       if [ $rc = 124 ]; then res=timeout
       elif [ $rc -gt 128 ]; then res=crash; else res=fail; fi
     fi
     echo "gpu3d-linux: piglit-$tag: $res $name"
     if [ "$res" != pass ] && [ "$res" != skip ]; then
       grep -v '^PIGLIT\|^DRM_SHIM' "$scratch" | head -"${PIGLIT_LOG_LINES:-6}" |
         sed "s/^/gpu3d-linux: piglit-$tag-log: /" || true
     fi
   done <"$run")
}
