#!/usr/bin/env python3
"""Boot the Linux guest of scripts/linux-guest.sh on r300-3d and check what
Debian's radeon driver reports, from the guest's own serial output:

    linux-test.py --qemu BIN --guest DIR [--machine pc|q35] [--moves]
                  [--log FILE]

The guest's /init prints "gpu3d-linux: <check>: PASS|FAIL" lines. While it
shows "GPU3D FBCON 0123" on the console it also prints its first character
row as seen in /dev/fb0 ('#' lit, '.' dark); this script takes a QMP
screendump of the CRTC at that moment and checks that the scanout shows the
same pixels, and that the lit cells are exactly the non-blank characters.
With --moves the boot runs radeon.test=1 (GTT<->VRAM copies by the GUI DMA
and by the 2D blitter) and checks those only: the kernel's test leaves its
buffers pinned when it passes (drivers/gpu/drm/radeon/radeon_test.c frees
them only on failure), so fbcon cannot allocate its buffer afterwards.
Exit status 0 when every required check passed."""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "run_guest", os.path.join(HERE, "run-guest.py"))
run_guest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_guest)

TEXT = "GPU3D FBCON 0123"
REQUIRED = ["bind", "ring-test", "ib-test", "vga-connected", "vblank",
            "page-flip", "rmmod", "reload", "reload-ring-test", "clean-dmesg",
            "fbcon-screendump"]
# radeon.gartsize=64: 63 one-MiB test buffers rather than 511, which would
# not fit the guest's RAM
MOVES_APPEND = "radeon.test=1 radeon.gartsize=64 " \
               "gpu3d.skip=modetest,vbltest,flip,fbcon,reload"
MOVES_REQUIRED = ["bind", "ring-test", "ib-test", "buffer-moves",
                  "clean-dmesg"]
P = "gpu3d-linux: "


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    # P6 <w> <h> <max>\n then RGB bytes
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos:pos + 3 * w * h]


def check_glyphs(log, shot):
    """The guest's '#'/'.' rows against the screendump; None or an error."""
    rows = [l[len(P + "glyphs: "):] for l in log.splitlines()
            if l.startswith(P + "glyphs: ")]
    if len(rows) != 16 or any(len(r) != 128 for r in rows):
        return "guest printed %d glyph rows" % len(rows)
    w, h, rgb = read_ppm(shot)
    if w < 128 or h < 16:
        return "screendump %dx%d" % (w, h)
    for y in range(16):
        for x in range(128):
            p = rgb[3 * (y * w + x):3 * (y * w + x) + 3]
            lit = "#" if any(p) else "."
            if lit != rows[y][x]:
                return "pixel (%d,%d): screen %s, guest %s" % (
                    x, y, lit, rows[y][x])
    # lit cells (8 pixels wide) are exactly the text's non-blank characters
    for i, ch in enumerate(TEXT):
        lit = any(rows[y][8 * i + k] == "#" for y in range(16)
                  for k in range(8))
        if lit != (ch != " "):
            return "cell %d ('%s') %s" % (i, ch, "lit" if lit else "dark")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--guest", required=True, help="vmlinuz + initrd.img dir")
    ap.add_argument("--machine", default="pc")
    ap.add_argument("--moves", action="store_true",
                    help="radeon.test=1 boot: buffer moves only")
    ap.add_argument("--append", default="")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--log")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="gpu3d-linux-")
    qmp_path = os.path.join(tmp, "qmp.sock")
    serial = os.path.join(tmp, "serial.log")
    shot = os.path.join(tmp, "fbcon.ppm")
    cmd = [a.qemu, "-machine", a.machine, "-m", "512", "-display", "none",
           "-vga", "none", "-device", "r300-3d,id=gpu",
           "-kernel", os.path.join(a.guest, "vmlinuz"),
           "-initrd", os.path.join(a.guest, "initrd.img"),
           "-append", "console=ttyS0 quiet panic=-1 " +
           (MOVES_APPEND if a.moves else "") + " " + a.append,
           "-serial", "file:" + serial, "-no-reboot",
           "-qmp", "unix:%s,server=on,wait=off" % qmp_path]
    start = time.time()
    proc = subprocess.Popen(cmd)
    log, shot_taken, done = "", False, False
    try:
        sock, f = run_guest.qmp_connect(qmp_path, start + 30)
        while time.time() < start + a.timeout:
            if os.path.exists(serial):
                with open(serial, errors="replace") as s:
                    log = s.read()
            if not shot_taken and P + "fbcon-glyphs-end" in log:
                run_guest.qmp(f, "screendump", filename=shot, device="gpu")
                shot_taken = True
            if P + "done" in log:
                done = True
                break
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        try:
            proc.wait(timeout=5)        # the guest powers off by itself
        except subprocess.TimeoutExpired:
            run_guest.qmp(f, "quit")
        sock.close()
    except Exception as e:              # report, then clean up
        print("linux-test: %s" % e, file=sys.stderr)
    finally:
        log = run_guest.stop_and_read(proc, serial) or log
    elapsed = time.time() - start
    if a.log:
        with open(a.log, "w") as s:
            s.write(log)

    results = {}
    for line in log.splitlines():
        if line.startswith(P) and line.count(": ") >= 2:
            name, rest = line[len(P):].split(": ", 1)
            if rest.startswith(("PASS", "FAIL")):
                results[name] = rest
    required = MOVES_REQUIRED if a.moves else REQUIRED
    if not a.moves:
        err = check_glyphs(log, shot) if shot_taken else "no screendump"
        results["fbcon-screendump"] = "PASS" if err is None else "FAIL " + err
    shutil.rmtree(tmp, ignore_errors=True)
    ok = done
    what = "%s%s" % (a.machine, " moves" if a.moves else "")
    for name in required + [n for n in results if n not in required]:
        r = results.get(name, "FAIL (missing)")
        print("linux %s %s: %s" % (what, name, r))
        ok = ok and r.startswith("PASS")
    print("linux %s: %s in %.0f s%s" % (what, "ok" if ok else "FAILED",
                                        elapsed, "" if done else
                                        " (guest did not finish)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
