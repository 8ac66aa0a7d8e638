#!/usr/bin/env bash
# Every file the builds took from the system comes from a package that
# scripts/setup.sh installs (or one those pull in, or an Essential one), so a
# package installed by hand on this machine cannot hide a missing install
# step: the check fails here instead of on a user's fresh machine.
#
# What counts as taken from the system: every header the compiler read
# (ninja's dependency log of the core build and of the QEMU build), and every
# shared library the built programs load (ldd).
#
#   scripts/check-packages.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# the list setup.sh installs, read from setup.sh itself
mapfile -t wanted < <(sed -n '/^PKGS=(/,/^)/p' "$GPU3D_ROOT/scripts/setup.sh" |
                      sed 's/#.*//; s/PKGS=(//; s/)//' | tr -s ' \t' '\n' | sed '/^$/d')
[ ${#wanted[@]} -gt 0 ] || die "no package list found in scripts/setup.sh"

# what installing that list brings: the list, its Depends/PreDepends closure
# (as installed here), and the Essential set every Debian system has
closure=$(mktemp)
trap 'rm -f "$closure" "$closure".*' EXIT
{
  printf '%s\n' "${wanted[@]}"
  apt-cache depends --recurse --installed --no-recommends --no-suggests \
      --no-conflicts --no-breaks --no-replaces --no-enhances "${wanted[@]}" 2>/dev/null |
    sed -n 's/^ *\(Pre\)\{0,1\}Depends: //p; /^[a-z0-9]/p' | tr -d '<>' | sed 's/:.*//'
  dpkg-query -W -f='${Package} ${Essential}\n' | awk '$2 == "yes" { print $1 }'
} | sort -u >"$closure"

# files the builds took from outside the trees
files=$closure.files
: >"$files"
for b in "$CORE_BUILD" "$QEMU_BUILD"; do
  [ -f "$b/build.ninja" ] || continue
  ninja -C "$b" -t deps 2>/dev/null | awk '/^    \// { print $1 }' |
    grep -v -e "^$GPU3D_ROOT/" -e "^$GPU3D_CACHE/" -e "^/tmp/" >>"$files" || true
done
for exe in "$QEMU_BIN" "$CORE_BUILD"/image-compare; do
  [ -x "$exe" ] || continue
  ldd "$exe" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' >>"$files"
done
sort -u -o "$files" "$files"
[ -s "$files" ] || die "no build found to check (build the cores and QEMU first)"

# owner packages: dpkg knows a path as the package shipped it, which with
# merged /usr may differ from the path the compiler used, so ask for each
# file's spellings at once and take the first one dpkg knows
declare -A owner=()
cands=()
while read -r f; do
  r=$(readlink -f "$f")
  cands+=("$f" "$r")
  case $r in /usr/lib/*|/usr/bin/*|/usr/sbin/*) cands+=("${r#/usr}") ;; esac
done <"$files"
while IFS= read -r line; do
  case $line in diversion*) continue ;; esac
  owner["${line#*: }"]=${line%%: /*}
done < <(printf '%s\n' "${cands[@]}" | sort -u | xargs -d '\n' dpkg-query -S 2>/dev/null || true)

owners=$closure.owners
: >"$owners"
unowned=()
while read -r f; do
  r=$(readlink -f "$f")
  o=
  for c in "$f" "$r" "${r#/usr}"; do
    o=${owner[$c]:-}
    [ -n "$o" ] && break
  done
  if [ -n "$o" ]; then
    printf '%s\t%s\n' "$o" "$f" >>"$owners"
  else
    unowned+=("$f")
  fi
done <"$files"

missing=0
while IFS=$'\t' read -r pkgs f; do
  ok=
  for p in ${pkgs//,/ }; do
    grep -qx "${p%%:*}" "$closure" && ok=1
  done
  if [ -z "$ok" ]; then
    log "not installed by scripts/setup.sh: $pkgs (for $f)"
    missing=1
  fi
done < <(sort -u "$owners")
for f in "${unowned[@]}"; do
  log "warning: $f belongs to no package"
done
n=$(wc -l <"$files")
if [ $missing != 0 ]; then
  die "scripts/setup.sh's package list lacks what the build uses (above)"
fi
log "package list covers the $n system files the builds used"
