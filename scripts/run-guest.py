#!/usr/bin/env python3
"""Boot a gpu3d guest program, wait for its serial log to say it is done,
take a QMP screendump (PNG) of a device head, and stop QEMU.

    run-guest.py --qemu BIN --kernel ELF --device r300-3d,id=gpu \\
                 --wait "r300-demo: done" --screenshot out.png [--head 0]

Exit status 0 when the line was seen and the screenshot written; the serial
log is printed (and saved with --log)."""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def qmp_connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    f = s.makefile("rw")
    json.loads(f.readline())                 # greeting
    qmp(f, "qmp_capabilities")
    return s, f


def qmp(f, cmd, **args):
    f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
    f.flush()
    while True:
        msg = json.loads(f.readline())
        if "return" in msg:
            return msg["return"]
        if "error" in msg:
            raise RuntimeError(f"{cmd}: {msg['error']}")


def stop_and_read(proc, serial_path):
    """Let QEMU exit (kill it after 10 s) and return the serial log."""
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    if os.path.exists(serial_path):
        with open(serial_path, errors="replace") as s:
            return s.read()
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--device", action="append", required=True)
    ap.add_argument("--machine", default="pc")
    ap.add_argument("--wait", required=True, help="serial text that means done")
    ap.add_argument("--screenshot")
    ap.add_argument("--id", default="gpu", help="device id for screendump")
    ap.add_argument("--head", type=int, default=0)
    ap.add_argument("--head-shot", action="append", default=[],
                    metavar="HEAD:PNG", help="also screendump another head")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--log")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="gpu3d-run-")
    qmp_path = os.path.join(tmp, "qmp.sock")
    serial_path = os.path.join(tmp, "serial.log")
    cmd = [a.qemu, "-machine", a.machine, "-m", "256", "-display", "none",
           "-kernel", a.kernel, "-serial", f"file:{serial_path}",
           "-qmp", f"unix:{qmp_path},server=on,wait=off",
           "-device", "isa-debug-exit,iobase=0x501", "-no-reboot"]
    for d in a.device:
        cmd += ["-device", d]
    proc = subprocess.Popen(cmd)
    deadline = time.time() + a.timeout
    ok = False
    log = ""
    try:
        sock, f = qmp_connect(qmp_path, deadline)
        while time.time() < deadline:
            if os.path.exists(serial_path):
                with open(serial_path, errors="replace") as s:
                    log = s.read()
                if a.wait in log:
                    ok = True
                    break
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        if ok and a.screenshot:
            out = os.path.abspath(a.screenshot)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            qmp(f, "screendump", filename=out, device=a.id, head=a.head,
                format="png")
        for extra in a.head_shot if ok else []:
            head, path = extra.split(":", 1)
            out = os.path.abspath(path)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            qmp(f, "screendump", filename=out, device=a.id, head=int(head),
                format="png")
        if proc.poll() is None:
            qmp(f, "quit")
        sock.close()
    except Exception as e:                  # report, then clean up
        print(f"run-guest: {e}", file=sys.stderr)
        ok = False
    finally:
        log = stop_and_read(proc, serial_path) or log
    sys.stdout.write(log)
    if a.log:
        with open(a.log, "w") as s:
            s.write(log)
    if not ok:
        print(f"run-guest: '{a.wait}' not seen (qemu exit {proc.returncode})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
