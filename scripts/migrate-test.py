#!/usr/bin/env python3
"""Save/restore and migration of a gpu3d device with its demo guest running
(docs/architecture.md, Migration). For one device:

  reference  boot the demo, wait for its last line, screendump;
  migrate    boot it again, stop it in the middle of rendering, `migrate`
             to a file, start a fresh QEMU with -incoming from that file,
             cont: the final screendump equals the reference bit for bit;
             and the same with the VM running while RAM is copied (live);
  savevm     the same QEMU with a qcow2 disk (created by QEMU itself with
             blockdev-create): stop mid-rendering, savevm, cont to the end
             (equal), loadvm, cont to the end again (equal);
  corrupt    the migration file with the core stream's version changed, and
             with a ring pointer or FIFO count moved past its buffer:
             -incoming fails with
             the device's message, QEMU exits with status 1, not a signal.

    migrate-test.py --qemu BIN --kernel ELF --device r300-3d,id=gpu \\
        --started "r300-demo: " --done "r300-demo: done" \\
        --magic R300 --bad-at 66866 --compare image-compare --out DIR

--bad-at is the byte offset, from the magic, of a ring pointer or FIFO count
in the core's stream; 0 skips that check. Exit status 0 when every check passed."""

import argparse
import json
import os
import re
import random
import socket
import struct
import subprocess
import sys
import tempfile
import time


class Qemu:
    def __init__(self, a, tmp, name, extra=()):
        self.serial = os.path.join(tmp, name + ".serial")
        self.qmp_path = os.path.join(tmp, name + ".qmp")
        self.err = os.path.join(tmp, name + ".stderr")
        cmd = [a.qemu, "-machine", a.machine, "-m", "256", "-display", "none",
               "-kernel", a.kernel, "-serial", f"file:{self.serial}",
               "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
               "-device", "isa-debug-exit,iobase=0x501", "-no-reboot",
               "-device", a.device] + list(extra)
        self.proc = subprocess.Popen(cmd, stderr=open(self.err, "w"))
        self.f = None
        self.events = []

    def connect(self, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.qmp_path)
                break
            except OSError:
                if time.time() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("no QMP socket: " + self.stderr())
                time.sleep(0.05)
        self.sock = s
        self.f = s.makefile("rw")
        json.loads(self.f.readline())
        self.qmp("qmp_capabilities")

    def qmp(self, cmd, **args):
        self.f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise RuntimeError(f"{cmd}: QEMU went away: {self.stderr()}")
            msg = json.loads(line)
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise RuntimeError(f"{cmd}: {msg['error']['desc']}")
            self.events.append(msg)

    def hmp(self, line):
        out = self.qmp("human-monitor-command", **{"command-line": line})
        if out.strip():
            raise RuntimeError(f"{line}: {out.strip()}")

    def log(self):
        if not os.path.exists(self.serial):
            return ""
        with open(self.serial, errors="replace") as s:
            return s.read()

    def stderr(self):
        with open(self.err, errors="replace") as s:
            return s.read()

    def wait_log(self, text, count=1, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.log().count(text) >= count:
                return
            if self.proc.poll() is not None:
                break
            # short: a fast demo renders all its frames in a few tens of ms
            time.sleep(0.005)
        raise RuntimeError(f"'{text}' (x{count}) not seen; serial:\n"
                           + self.log() + self.stderr())

    def wait_status(self, want, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = self.qmp("query-status")["status"]
            if st in want:
                return st
            time.sleep(0.05)
        raise RuntimeError(f"status never {want}")

    def wait_migrated(self, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            st = self.qmp("query-migrate").get("status")
            if st == "completed":
                return
            if st in ("failed", "cancelled"):
                raise RuntimeError(f"migration {st}: "
                                   + str(self.qmp("query-migrate")))
            time.sleep(0.05)
        raise RuntimeError("migration did not complete")

    def shot(self, path, a):
        self.qmp("screendump", filename=os.path.abspath(path), device=a.id,
                 head=a.head, format="png")

    def quit(self):
        try:
            if self.proc.poll() is None and self.f:
                self.qmp("quit")
        except (RuntimeError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def same(a, x, y):
    """bit for bit: no pixel differs at all"""
    r = subprocess.run([a.compare, x, y, "--tolerance", "0",
                        "--max-diff-pixels", "0"], capture_output=True,
                       text=True)
    return r.returncode == 0, r.stdout.strip() + r.stderr.strip()


class TooLate(RuntimeError):
    """the guest finished before the stop: the case proved nothing"""


def stop_mid_frame(q, a, rng, window):
    """stop after the guest started rendering and before it is done"""
    q.wait_log(a.started)
    time.sleep(rng.uniform(0.0, window))
    q.qmp("stop")
    if a.done in q.log():
        raise TooLate("the guest finished before the stop")


def check(ok, what, detail=""):
    print(f"{'ok' if ok else 'FAIL'}: {what}{': ' + detail if detail else ''}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--device", required=True)
    ap.add_argument("--machine", default="pc")
    ap.add_argument("--started", required=True,
                    help="serial text after which the guest renders")
    ap.add_argument("--done", required=True, help="serial text: finished")
    ap.add_argument("--window", type=float, default=0.3,
                    help="stop at a random time up to this many s after "
                         "--started")
    ap.add_argument("--magic", required=True,
                    help="the core stream's magic, 4 ASCII bytes")
    ap.add_argument("--bad-at", type=int, default=0)
    ap.add_argument("--compare", required=True, help="image-compare")
    ap.add_argument("--id", default="gpu")
    ap.add_argument("--head", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    name = a.device.split(",")[0]
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"{name}: seed {seed}")
    tmp = tempfile.mkdtemp(prefix="gpu3d-migrate-")
    ref = os.path.join(a.out, f"{name}-reference.png")
    good = True

    # the stop's window: a loaded host can run the whole frame inside it,
    # so a case that stopped too late is tried again with half the window
    # (six tries: down to 1/32 of it)
    window = a.window

    def run(what, fn, tries=6):
        nonlocal good, window
        window = a.window
        for attempt in range(tries):
            try:
                fn()
                return
            except TooLate as e:
                if attempt + 1 == tries:
                    good = check(False, what, f"{e}, {tries} times; the "
                                 f"last window was {window:.3f} s") and good
                    return
                window /= 2
                print(f"  {what}: {e}; again with a {window:.3f} s window")
            except Exception as e:          # report, go on with the next
                good = check(False, what, str(e)) and good
                return

    # ---- reference: uninterrupted
    def reference():
        q = Qemu(a, tmp, "ref")
        try:
            q.connect()
            q.wait_log(a.done)
            q.shot(ref, a)
        finally:
            q.quit()
    run("reference run", reference)
    if not os.path.exists(ref):
        return 1

    # ---- migrate to a file, continue in a fresh QEMU
    mig = os.path.join(tmp, "migration")

    def migrate(live):
        nonlocal good
        q = Qemu(a, tmp, "src")
        try:
            q.connect()
            if live:
                # QEMU stops the VM once RAM is copied: rendering goes on
                # meanwhile, into VRAM that dirty tracking does not see
                q.wait_log(a.started)
                time.sleep(rng.uniform(0.0, window))
            else:
                stop_mid_frame(q, a, rng, window)
            t0 = time.time()
            q.qmp("migrate", uri=f"exec:cat > {mig}")
            q.wait_migrated()
            if live and a.done in q.log():
                raise TooLate("the guest finished before the migration")
            print(f"  migrated{' live' if live else ''} "
                  f"{os.path.getsize(mig) >> 20} MiB in "
                  f"{time.time() - t0:.2f} s")
        finally:
            q.quit()
        d = Qemu(a, tmp, "dst", ["-incoming", f"exec:cat {mig}"])
        try:
            d.connect()
            st = d.wait_status(("paused", "postmigrate", "running"))
            if st != "running":
                d.qmp("cont")
            d.wait_log(a.done)
            shot = os.path.join(a.out, f"{name}-migrated"
                                f"{'-live' if live else ''}.png")
            d.shot(shot, a)
            ok, msg = same(a, shot, ref)
            good = check(ok, ("migrated while running" if live else
                              "migrated mid-frame") + ": final picture "
                         "equals the uninterrupted run's", msg) and good
        finally:
            d.quit()
    run("live migrate", lambda: migrate(True))
    run("migrate", lambda: migrate(False))

    # ---- savevm / loadvm on a qcow2 disk
    def savevm():
        nonlocal good
        disk = os.path.join(tmp, "disk.qcow2")
        open(disk, "wb").close()
        q = Qemu(a, tmp, "snap", ["-blockdev",
                                  f"driver=file,filename={disk},"
                                  "node-name=file0"])
        try:
            q.connect()
            q.qmp("blockdev-create", **{"job-id": "mk", "options": {
                "driver": "qcow2", "file": "file0", "size": 16 << 20}})
            deadline = time.time() + 30
            while q.qmp("query-jobs")[0]["status"] != "concluded":
                if time.time() > deadline:
                    raise RuntimeError("blockdev-create did not finish")
                time.sleep(0.05)
            q.qmp("job-dismiss", id="mk")
            q.qmp("blockdev-add", driver="qcow2", **{"node-name": "disk0",
                                                      "file": "file0"})
            stop_mid_frame(q, a, rng, window)
            q.hmp("savevm mid")
            q.qmp("cont")
            q.wait_log(a.done)
            shot = os.path.join(a.out, f"{name}-after-savevm.png")
            q.shot(shot, a)
            ok, msg = same(a, shot, ref)
            good = check(ok, "savevm mid-frame, cont: final picture equals "
                         "the uninterrupted run's", msg) and good
            q.hmp("loadvm mid")
            q.qmp("cont")
            q.wait_log(a.done, count=2)
            shot = os.path.join(a.out, f"{name}-after-loadvm.png")
            q.shot(shot, a)
            ok, msg = same(a, shot, ref)
            good = check(ok, "loadvm back to mid-frame, cont: final picture "
                         "equals the uninterrupted run's", msg) and good
        finally:
            q.quit()
    run("savevm/loadvm", savevm)

    # ---- a corrupted stream fails -incoming with a message, no crash
    def corrupt(what, patch, expect):
        nonlocal good
        with open(mig, "rb") as f:
            data = bytearray(f.read())
        # the magic and the stream's version (a small number: any, so a
        # core's state version can grow)
        m = re.search(re.escape(a.magic.encode()) + rb"[\x01-\xff]\x00\x00\x00",
                      bytes(data))
        at = m.start() if m else -1
        if at < 0:
            raise RuntimeError(f"no {a.magic} stream in the migration file")
        patch(data, at)
        bad = os.path.join(tmp, "bad-migration")
        with open(bad, "wb") as f:
            f.write(data)
        d = Qemu(a, tmp, "bad", ["-incoming", f"exec:cat {bad}"])
        try:
            d.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            d.quit()
            raise RuntimeError("QEMU did not give up on the stream")
        err = d.stderr()
        good = check(d.proc.returncode == 1 and expect in err,
                     f"{what}: -incoming fails (status "
                     f"{d.proc.returncode})", err.strip().splitlines()[0]
                     if err.strip() else "no message") and good

    def bad_version(data, at):
        data[at + 4] += 1

    def bad_pointer(data, at):
        data[at + a.bad_at:at + a.bad_at + 4] = struct.pack("<I",
                                                              0x7ffffff0)

    if os.path.exists(mig):
        run("bad version", lambda: corrupt("core stream of a later version",
                                           bad_version, "version"))
        if a.bad_at:
            run("bad pointer", lambda: corrupt(
                "ring pointer or FIFO count past its buffer", bad_pointer,
                "past"))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
