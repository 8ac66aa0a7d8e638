#!/usr/bin/env bash
# Build the Linux guest that drives r300-3d with Debian's own radeon KMS
# driver: bookworm's kernel (linux-image-amd64), radeon.ko and the modules
# modules.dep says it needs, busybox-static, libdrm-tests (modetest, vbltest)
# and radeon/R300_cp.bin from firmware-amd-graphics (non-free-firmware).
#
#   scripts/linux-guest.sh [--packages "PKG..."] [--init-hook FILE]
#                          [--partial PKG=LIST] [--no-firmware] [--print-dir]
#   scripts/linux-guest.sh --fetch PKG     (download PKG's .deb into the private
#                                          apt cache, print its path: to read
#                                          what a --partial LIST should name)
#
# Packages come through a PRIVATE apt configuration under
# $GPU3D_CACHE/linux-apt (its own sources list, lists, status and archive
# dirs), so the system's sources stay untouched; they are fetched with
# `apt-get download` / `apt-get install --download-only` against an empty
# dpkg status and unpacked with `dpkg-deb -x`. The result
# (vmlinuz + initrd.img) is cached in $GPU3D_CACHE/linux-guest-<key>, the key
# being the package versions, the options and this script with its /init.
#
# Extending it (e.g. Mesa on this kernel):
#   --packages "libgl1-mesa-dri kmscube"   more Debian packages, with their
#                                          dependency closure, in the root fs
#   --init-hook FILE                       a shell fragment /init sources after
#                                          the radeon checks (before poweroff);
#                                          it can print "name: PASS|FAIL" lines
#   --partial PKG=LIST                     only the paths LIST names (one a
#                                          line, "./usr/..." as dpkg-deb -c
#                                          prints them) of package PKG, not
#                                          its dependencies (piglit installs
#                                          2 GB; a test list needs ~50 MB)
# The same through GPU3D_LINUX_PACKAGES and GPU3D_LINUX_INIT_HOOK.
#
# The guest's /init prints "gpu3d-linux: <check>: PASS|FAIL [detail]" lines and
# "gpu3d-linux: done" on the serial console, then powers off. Options for the
# driver come from the kernel command line ("radeon.test=1" is passed on to
# modprobe); "gpu3d.skip=a,b" skips named checks.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

extra_pkgs=${GPU3D_LINUX_PACKAGES:-}
init_hook=${GPU3D_LINUX_INIT_HOOK:-}
partials=()
firmware=1
print_dir=0
fetch=
while [ $# -gt 0 ]; do
  case $1 in
    --packages) extra_pkgs="$extra_pkgs $2"; shift 2 ;;
    --init-hook) init_hook=$2; shift 2 ;;
    --partial) partials+=("$2"); shift 2 ;;
    --no-firmware) firmware=0; shift ;;
    --print-dir) print_dir=1; shift ;;
    --fetch) fetch=$2; shift 2 ;;
    *) die "linux-guest.sh: unknown option $1" ;;
  esac
done
[ -z "$init_hook" ] || [ -f "$init_hook" ] || die "no init hook $init_hook"
PART_PKGS=()
for p in "${partials[@]}"; do
  [ -f "${p#*=}" ] || die "--partial $p: no list ${p#*=}"
  PART_PKGS+=("${p%%=*}")
done

APT_DIR=$GPU3D_CACHE/linux-apt
mkdir -p "$APT_DIR"/{lists/partial,archives/partial,etc/sources.list.d,etc/preferences.d,dpkg}
: >"$APT_DIR/dpkg/status"
cat >"$APT_DIR/etc/sources.list" <<'SRC'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main non-free-firmware
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-updates main non-free-firmware
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main non-free-firmware
SRC
APT_OPTS=(
  -o "Dir::Etc::SourceList=$APT_DIR/etc/sources.list"
  -o "Dir::Etc::SourceParts=$APT_DIR/etc/sources.list.d"
  -o "Dir::Etc::Preferences=$APT_DIR/etc/preferences"
  -o "Dir::Etc::PreferencesParts=$APT_DIR/etc/preferences.d"
  -o "Dir::State=$APT_DIR"
  -o "Dir::State::Lists=$APT_DIR/lists"
  -o "Dir::State::status=$APT_DIR/dpkg/status"
  -o "Dir::Cache=$APT_DIR"
  -o "Dir::Cache::archives=$APT_DIR/archives"
  -o "Debug::NoLocking=1"
  -o "APT::Sandbox::User=root"
  -o "APT::Install-Recommends=0"
  -o "APT::Get::AllowUnauthenticated=0"
)
papt_get() { apt-get "${APT_OPTS[@]}" "$@"; }
papt_cache() { apt-cache "${APT_OPTS[@]}" "$@"; }

# refresh the private lists at most once a day
stamp=$APT_DIR/lists/.gpu3d-updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
  log "linux guest: apt-get update (private lists in $APT_DIR)"
  papt_get update -qq >/dev/null
  touch "$stamp"
fi

candidate() { papt_cache policy "$1" | awk '/Candidate:/ { print $2 }'; }
deb_of() {  # the archive file of package $1 at its candidate version
  local v; v=$(candidate "$1")
  ls "$APT_DIR/archives/$1_${v//:/%3a}_"*.deb 2>/dev/null | head -1
}
if [ -n "$fetch" ]; then
  [ -n "$(deb_of "$fetch")" ] ||
    ( cd "$APT_DIR/archives" && papt_get download -qq "$fetch" )
  deb_of "$fetch"
  exit 0
fi
# linux-image-amd64 names the versioned kernel package it depends on
KPKG=$(papt_cache depends linux-image-amd64 | awk '/Depends: linux-image-/ { print $2; exit }')
[ -n "$KPKG" ] || die "cannot resolve linux-image-amd64"
USER_PKGS=(busybox-static libdrm-tests $extra_pkgs)
FW_PKGS=()
[ $firmware = 0 ] || FW_PKGS=(firmware-amd-graphics)

versions=""
for p in "$KPKG" "${USER_PKGS[@]}" "${FW_PKGS[@]}" "${PART_PKGS[@]}"; do
  v=$(candidate "$p")
  [ -n "$v" ] && [ "$v" != "(none)" ] || die "package $p not found"
  versions="$versions$p=$v"$'\n'
done
INIT_SRC=$GPU3D_ROOT/scripts/linux-guest-init.sh
key=$( (printf '%s' "$versions" "fw=$firmware"; cat "$0" "$INIT_SRC";
        [ -z "$init_hook" ] || cat "$init_hook"
        for p in "${partials[@]}"; do cat "${p#*=}"; done) | sha256sum | cut -c1-12)
OUTDIR=$GPU3D_CACHE/linux-guest-$key
if [ -f "$OUTDIR/initrd.img" ] && [ -f "$OUTDIR/vmlinuz" ]; then
  [ $print_dir = 1 ] && echo "$OUTDIR"
  log "linux guest: cached $OUTDIR"
  exit 0
fi
log "linux guest: building $OUTDIR from"$'\n'"$versions"

# the kernel alone (its Depends are for an installed system); the user-space
# packages with their dependency closure, resolved against an empty system
( cd "$APT_DIR/archives" && papt_get download -qq "$KPKG" "${FW_PKGS[@]}" "${PART_PKGS[@]}" )
papt_get install -qq -y --download-only "${USER_PKGS[@]}" >/dev/null

WORK=$(mktemp -d "$GPU3D_CACHE/linux-guest-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root
mkdir -p "$ROOT" "$WORK/kernel" "$WORK/fw"

# every package apt fetched for the user-space set (the closure)
for p in $(papt_get install -s -y "${USER_PKGS[@]}" 2>/dev/null |
           awk '/^Inst / { print $2 }'); do
  deb=$(deb_of "$p")
  [ -n "$deb" ] || die "no archive for $p"
  dpkg-deb -x "$deb" "$ROOT"
done
for p in "${partials[@]}"; do
  dpkg-deb --fsys-tarfile "$(deb_of "${p%%=*}")" |
    tar -x -C "$ROOT" --no-recursion --verbatim-files-from -T "${p#*=}"
done
rm -rf "$ROOT"/usr/share/{doc,man,locale,lintian,info,bug}

# the kernel and radeon's modules, unpacked once per kernel version (the
# package is large): $KCACHE/{vmlinuz,lib/modules/...}
KVER=${KPKG#linux-image-}
KCACHE=$GPU3D_CACHE/linux-kernel-$KVER-$(candidate "$KPKG" | tr ':~' '__')
if [ ! -f "$KCACHE/vmlinuz" ]; then
  rm -rf "$KCACHE.tmp"
  mkdir -p "$KCACHE.tmp"
  dpkg-deb -x "$(deb_of "$KPKG")" "$WORK/kernel"
  cp "$WORK/kernel/boot/vmlinuz-$KVER" "$KCACHE.tmp/vmlinuz"
  MODSRC=$WORK/kernel/lib/modules/$KVER
  MODDST=$KCACHE.tmp/lib/modules/$KVER; mkdir -p "$MODDST"
# radeon.ko and the modules it depends on, transitively. The package has no
# modules.dep (depmod makes it at install time): write one from each
# module's .modinfo "depends=" field, deepest dependency last, the order
# modprobe loads from the end of the list.
python3 - "$MODSRC" "$MODDST" radeon <<'PY'
import os, shutil, subprocess, sys
src, dst, top = sys.argv[1:4]
path = {}
for d, _, files in os.walk(os.path.join(src, "kernel")):
    for f in files:
        if f.endswith(".ko"):
            path[f[:-3].replace("-", "_")] = os.path.relpath(os.path.join(d, f), src)
def depends(name):
    info = subprocess.run(["objcopy", "-O", "binary", "--only-section=.modinfo",
                           os.path.join(src, path[name]), "/dev/stdout"],
                          check=True, capture_output=True).stdout
    for field in info.split(b"\0"):
        if field.startswith(b"depends="):
            return [n.replace("-", "_") for n in field[8:].decode().split(",") if n]
    return []
order, state = [], {}
def visit(n):                      # post-order: dependencies first
    if state.get(n) == 2:
        return
    if state.get(n) == 1:
        sys.exit("module dependency cycle at " + n)
    state[n] = 1
    for d in depends(n):
        visit(d)
    state[n] = 2
    order.append(n)
visit(top)
def closure(n, acc):
    for d in depends(n):
        if d not in acc:
            acc.add(d)
            closure(d, acc)
    return acc
with open(os.path.join(dst, "modules.dep"), "w") as out:
    for n in order:
        deps = closure(n, set())
        # load order is dependencies first; modprobe reads the list backwards
        line = [path[d] for d in reversed(order) if d in deps]
        out.write(path[n] + ": " + " ".join(line) + "\n")
        os.makedirs(os.path.dirname(os.path.join(dst, path[n])), exist_ok=True)
        shutil.copy(os.path.join(src, path[n]), os.path.join(dst, path[n]))
PY
for f in modules.order modules.builtin; do
  [ ! -f "$MODSRC/$f" ] || cp "$MODSRC/$f" "$MODDST/$f"
done
  rm -rf "$WORK/kernel"
  mv "$KCACHE.tmp" "$KCACHE"
fi
cp "$KCACHE/vmlinuz" "$WORK/vmlinuz"
cp -a "$KCACHE/lib" "$ROOT/"

if [ $firmware = 1 ]; then
  dpkg-deb -x "$(deb_of firmware-amd-graphics)" "$WORK/fw"
  mkdir -p "$ROOT/lib/firmware/radeon"
  cp "$WORK/fw/lib/firmware/radeon/R300_cp.bin" "$ROOT/lib/firmware/radeon/"
fi

cp "$INIT_SRC" "$ROOT/init"
chmod 755 "$ROOT/init"
if [ -n "$init_hook" ]; then
  cp "$init_hook" "$ROOT/init-hook.sh"
fi
printf '%s' "$versions" >"$ROOT/gpu3d-packages"
mkdir -p "$ROOT"/{proc,sys,dev,tmp,run,bin,sbin,usr/bin,usr/sbin}

# the initramfs: newc cpio (what the kernel unpacks), gzip
python3 - "$ROOT" "$WORK/initrd.img" <<'PY'
import gzip, os, stat, sys
root, out = sys.argv[1], sys.argv[2]
ino = [1]
def entry(f, name, st, data=b""):
    hdr = "070701" + "".join("%08X" % v for v in (
        ino[0], st.st_mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
        len(name) + 1, 0))
    ino[0] += 1
    b = hdr.encode() + name.encode() + b"\0"
    f.write(b + b"\0" * (-len(b) % 4) + data + b"\0" * (-len(data) % 4))
with gzip.open(out, "wb", compresslevel=6) as f:
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(dirs) + sorted(files):
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                data = os.readlink(p).encode()
            elif stat.S_ISREG(st.st_mode):
                data = open(p, "rb").read()
            else:
                data = b""
            entry(f, rel, st, data)
    class T: st_mode = 0
    entry(f, "TRAILER!!!", T)
PY
mkdir -p "$OUTDIR"
mv "$WORK/vmlinuz" "$WORK/initrd.img" "$OUTDIR/"
printf '%s' "$versions" >"$OUTDIR/packages"
log "linux guest: $OUTDIR ($(du -h "$OUTDIR/initrd.img" | cut -f1) initrd)"
[ $print_dir = 1 ] && echo "$OUTDIR"
exit 0
