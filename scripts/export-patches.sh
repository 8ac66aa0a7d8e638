#!/usr/bin/env bash
# Export the devices as a `git format-patch` series against the chosen QEMU
# (GPU3D_QEMU=7.2 or 10.0), for people who carry their own QEMU tree:
#
#   scripts/export-patches.sh [out-dir]   (default out/patches-qemu-<version>)
#   cd qemu && git am <out-dir>/*.patch
#
# 0001 the shared engine parts, the glue, the build hooks (patches/qemu-<v>-
#      gpu3d-hooks.patch), the qtest helpers and docs/gpu3d/architecture.md;
# then one patch per device (core, PCI device, register headers, Kconfig and
# meson entries, qtest, docs/gpu3d/<device>.md); the last the qtests that
# cover every device (storm, ...).
# The series is checked: applied in order to the pristine QEMU files it
# touches, it gives exactly the tree scripts/qemu-build.sh prepares.
# The commits carry no Signed-off-by: add yours with `git am --signoff`.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dest=${1:-$OUT/patches-qemu-$GPU3D_QEMU}
"$GPU3D_ROOT/scripts/qemu-build.sh" --fetch-only
command -v git >/dev/null || die "git is needed"

# the project as it sits in a QEMU tree: what qemu-build.sh overlays, plus docs
stage=$(mktemp -d)
repo=$(mktemp -d)
trap 'rm -rf "$stage" "$repo"' EXIT
mkdir -p "$stage/hw" "$stage/include" "$stage/tests/qtest" "$stage/docs/gpu3d"
cp -a "$GPU3D_ROOT/hw/gpu3d" "$stage/hw/"
cp -a "$GPU3D_ROOT/include/gpu3d" "$stage/include/"
cp -a "$GPU3D_ROOT"/qtest/gpu3d-* "$stage/tests/qtest/"
cp -a "$GPU3D_ROOT"/docs/*.md "$stage/docs/gpu3d/"
# the files the hook patch changes, pristine and hooked
mapfile -t hooked < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$QEMU_PATCH")
for f in "${hooked[@]}"; do
  mkdir -p "$repo/$(dirname "$f")" "$stage/$(dirname "$f")"
  cp "$QEMU_SRC/$f" "$repo/$f"
  cp "$QEMU_SRC/$f" "$stage/$f"
done
(cd "$stage" && patch -p1 -s <"$QEMU_PATCH") || die "hook patch does not apply"

cd "$repo"
git init -q
git config user.name "$(git -C "$GPU3D_ROOT" log -1 --format=%an)"
git config user.email "$(git -C "$GPU3D_ROOT" log -1 --format=%ae)"
git add -A
git commit -qm "QEMU $QEMU_VERSION (the files the series touches)"
base=$(git rev-parse HEAD)

# step N of the series takes the staged files of the parts named so far;
# in Kconfig and the meson files, a paragraph whose first line names a part
# not yet taken is left out, and so is any other line naming one
# ("every": the qtests that cover every device)
parts=(r300 pica200 glamo attila flipper every)
for f in "$GPU3D_ROOT"/hw/gpu3d/*-pci.c; do
  f=$(basename "$f" -pci.c)
  [[ " ${parts[*]} " == *" $f "* ]] || die "no patch for the device $f: add it to parts"
done
take() {   # take <number of parts taken>
  python3 - "$stage" "$repo" "$1" "${parts[@]}" "${hooked[@]}" <<'PY'
import os, re, shutil, sys
stage, repo, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
parts = sys.argv[4:10]
hooked = sys.argv[10:]
taken, later = parts[:n], parts[n:]

devices = parts[:-1]
every_test = r'gpu3d-(?!(%s)-)[a-z0-9]+-test' % '|'.join(devices)

def owner(path):
    name = os.path.basename(path)
    for p in devices:
        if (f'/{p}/' in path or name.startswith(p + '-') or
                name == f'gpu3d-{p}-test.c'):
            return p
    if re.fullmatch(every_test + r'\.c', name):
        return 'every'
    return None

def mentions(line, names):
    return any(re.search(every_test, line) if p == 'every' else
               re.search(r'\b%s\b' % p, line, re.I) or
               re.search(r'gpu3d[-_]%s' % p, line, re.I) for p in names)

def filt(text):
    out = []
    for para in re.split(r'(\n\n+)', text.rstrip('\n')):
        if para.startswith('\n'):
            out.append(para)
            continue
        lines = para.split('\n')
        if lines and mentions(lines[0], later):
            out.append(None)
            continue
        out.append('\n'.join(l for l in lines if not mentions(l, later)))
    # drop a left-out paragraph and the blank run before it
    res = []
    for chunk in out:
        if chunk is None:
            if res and res[-1].startswith('\n'):
                res.pop()
            continue
        res.append(chunk)
    return ''.join(res) + '\n'

for root, dirs, files in os.walk(stage):
    for f in files:
        src = os.path.join(root, f)
        rel = os.path.relpath(src, stage)
        o = owner(rel)
        if o is not None and o not in taken:
            continue
        dst = os.path.join(repo, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if rel in ('hw/gpu3d/Kconfig', 'hw/gpu3d/meson.build'):
            with open(src) as fh:
                text = fh.read()
            with open(dst, 'w') as fh:
                fh.write(filt(text))
        else:
            shutil.copy2(src, dst)
PY
  git add -A
}

commit() {   # commit <subject> <body>
  git commit -q -m "$1" -m "$2"
}

take 0
commit "hw/gpu3d: shared engine parts and QEMU glue for the gpu3d devices" \
"The parts every gpu3d device shares: the rasteriser with its tile threads,
texture and framebuffer formats, float packing, fragment operations and
scanout (hw/gpu3d/common/), and the QEMU glue (gpu3d-worker.[ch]): one
worker thread per device that owns the engine core, an in-order queue of
MMIO writes, interrupt and display bottom halves, the consoles.
qemu-compat.h covers the QEMU API differences between the versions the
devices build against. Hooks the directory into the build (Kconfig, meson,
trace events), adds the qtest helpers and docs/gpu3d/architecture.md."

declare -A title=(
  [r300]="r300-3d: the ATI Radeon R300 3D engine"
  [pica200]="pica200-3d: the Nintendo 3DS PICA200 GPU"
  [glamo]="glamo-3d: the SMedia Glamo336x 3D engine"
  [attila]="attila-3d: the ATTILA unified-shader GPU"
  [flipper]="flipper-gx: the Nintendo GameCube Flipper GPU"
)
for i in 0 1 2 3 4; do
  p=${parts[$i]}
  take $((i + 1))
  doc=$(cd "$stage/docs/gpu3d" && ls "$p"-*.md)
  commit "hw/gpu3d/${title[$p]}" \
"Adds ${title[$p]#*: } as a PCI device.

Its engine core (hw/gpu3d/$p/, one file per hardware block), the device
(hw/gpu3d/$p-pci.c), its register header shared by the device and the
tests (include/gpu3d/), its qtest and docs/gpu3d/$doc, which says what
is modelled."
done
take 6
commit "tests/qtest: the gpu3d qtests that cover every device" \
"The qtests that put every gpu3d device through the same checks:

$(sed -n "s/^gpu3d_qtests += \['\(gpu3d-[a-z0-9]*-test\)'\] *# */- \1: /p" \
    "$stage/hw/gpu3d/meson.build")"

# the whole series gives the prepared tree
if ! diff -r -x .git "$stage" "$repo" >/dev/null; then
  diff -r -x .git "$stage" "$repo" | head -20 >&2
  die "the series does not add up to the prepared tree"
fi

rm -rf "$dest"
mkdir -p "$dest"
git format-patch -q --cover-letter -o "$dest" "$base"..HEAD
# and the patch files themselves apply with git am
git worktree add -q --detach "$repo/.am" "$base"
mapfile -t series < <(ls "$dest"/*.patch | grep -v '/0000-cover-letter.patch$')
git -C "$repo/.am" am -q "${series[@]}" >/dev/null 2>&1 ||
  die "the series does not apply with git am"
diff -r -x .git "$stage" "$repo/.am" >/dev/null ||
  die "the applied series differs from the prepared tree"
sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/gpu3d: five 3D GPUs as QEMU $GPU3D_QEMU devices/" \
  -e "s/\*\*\* BLURB HERE \*\*\*/The gpu3d devices (r300-3d, pica200-3d, glamo-3d, attila-3d, flipper-gx) against QEMU $QEMU_VERSION./" \
  "$dest"/0000-cover-letter.patch
log "$(ls "$dest" | wc -l) files in $dest"
