#!/usr/bin/env python3
"""piglit in the Mesa guest of scripts/linux-mesa.sh.

    mesa-piglit.py plan DEB LIST OUTDIR
        From Debian's piglit package DEB (its quick_gl/quick_shader profiles)
        resolve every test LIST names into OUTDIR/piglit-run.txt, one line
        "name|flags|command" (flags: c = run with -fbo as piglit's runner
        does for concurrent tests; command is shell-quoted), and
        OUTDIR/piglit-paths.txt, the files of DEB those tests need (for
        linux-guest.sh --partial).
    mesa-piglit.py lines LIST SUBSET
        The line numbers (1-based, comma-separated) in piglit-run.txt of the
        tests SUBSET names: the guest's gpu3d.piglit= selection, so that a
        new subset needs no new guest image.
    mesa-piglit.py report SERIAL LIST [--expected FILE] [--table FILE]
                   [--only FILE] [--write-expected FILE]
        Read "gpu3d-linux: piglit-DRV: RESULT name" lines from SERIAL; print
        the counts per driver; --table writes a Markdown table (test, r300-3d,
        llvmpipe); --expected compares r300-3d's results with the committed
        ones and exits 1 on a test that passed there and does not now (or
        did not run), over the tests FILE names with --only (default:
        all of LIST); --write-expected writes r300-3d's results as the new
        expectations.

The guest runs the binaries directly (bin/NAME ... -auto [-fbo]), not
piglit's Python runner: the runner and its Python would double the image
and the time of every test under TCG.
"""

import gzip
import io
import os
import re
import shlex
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

ROOT = "./usr/lib/x86_64-linux-gnu/piglit/"
PROFILES = ["tests/quick_gl.xml.gz", "tests/quick_shader.xml.gz"]
SHORT = {"hw": "r300-3d", "sw": "llvmpipe"}


def read_list(path):
    names = []
    for line in open(path):
        line = line.rstrip("\n")
        if line.strip() and not line.startswith("#"):
            names.append(line.split("\t")[-1] if "\t" in line else line)
    return names


def deb_tar(deb):
    data = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True,
                          capture_output=True).stdout
    return tarfile.open(fileobj=io.BytesIO(data))


def plan(deb, listfile, outdir):
    tar = deb_tar(deb)
    members = {m.name: m for m in tar.getmembers()}
    tests = {}
    for prof in PROFILES:
        xml = gzip.decompress(tar.extractfile(members[ROOT + prof]).read())
        for t in ET.fromstring(xml):
            opts = {o.get("name"): o.get("value") for o in t}
            cmd = eval(opts["command"], {}, {})  # a Python list literal
            conc = opts.get("run_concurrent", "True") == "True"
            tests[t.get("name")] = (cmd, conc)
    names = read_list(listfile)
    missing = [n for n in names if n not in tests]
    if missing:
        sys.exit("not in piglit's profiles: " + ", ".join(missing))
    # the libraries, and tests/shaders: the GLSL files the C tests of the
    # shaders group read from PIGLIT_SOURCE_DIR (250 KB)
    paths = set(n for n in members
                if (n.startswith(ROOT + "lib/") or
                    n.startswith(ROOT + "tests/shaders/"))
                and not members[n].isdir())
    with open(os.path.join(outdir, "piglit-run.txt"), "w") as out:
        for n in names:
            cmd, conc = tests[n]
            paths.add(ROOT + "bin/" + cmd[0])
            for a in cmd[1:]:
                if ROOT + a in members and not members[ROOT + a].isdir():
                    paths.add(ROOT + a)
            out.write("%s|%s|%s\n" % (n, "c" if conc else "-",
                                      " ".join(shlex.quote(a) for a in cmd)))
    for p in list(paths):   # what a symlink names comes too
        m = members[p]
        if m.issym():
            paths.add("./" + os.path.normpath(os.path.join(os.path.dirname(p),
                                                           m.linkname)))
    # each name once: tar -T finds a name only once in the archive
    with open(os.path.join(outdir, "piglit-paths.txt"), "w") as out:
        for p in sorted(paths):
            out.write(p + "\n")


LINE = re.compile(r"gpu3d-linux: piglit-(hw|sw): "
                  r"(pass|fail|skip|warn|crash|timeout|notrun) (.*?)\s*$")


def results(serial):
    res = {"hw": {}, "sw": {}}
    for line in open(serial, errors="replace"):
        m = LINE.match(line)
        if m:
            res[m.group(1)][m.group(3)] = m.group(2)
    return res


def read_expected(path):
    exp = {}
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            r, n = line.rstrip("\n").split(" ", 1)
            exp[n] = r
    return exp


def report(args):
    serial, listfile = args[0], args[1]
    opts = dict(zip(args[2::2], args[3::2]))
    names = read_list(listfile)
    res = results(serial)
    for d in ("hw", "sw"):
        if res[d]:
            counts = {}
            for r in res[d].values():
                counts[r] = counts.get(r, 0) + 1
            print("piglit on %s: %d of %d tests ran: %s" % (
                SHORT[d], len(res[d]), len(names),
                ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    if "--table" in opts:
        with open(opts["--table"], "w") as out:
            out.write("| test | r300-3d | llvmpipe |\n|---|---|---|\n")
            for n in names:
                out.write("| %s | %s | %s |\n" % (
                    n.replace("|", "\\|"), res["hw"].get(n, "-"),
                    res["sw"].get(n, "-")))
    if "--write-expected" in opts:
        with open(opts["--write-expected"], "w") as out:
            out.write("# piglit on r300-3d: the result of each test of "
                      "tests/r300/piglit-list.txt\n# (scripts/linux-piglit.sh "
                      "writes it; a test that passes here must keep passing)\n")
            for n in names:
                if n in res["hw"]:
                    out.write("%s %s\n" % (res["hw"][n], n))
    status = 0
    if "--expected" in opts:
        exp = read_expected(opts["--expected"])
        check = read_list(opts["--only"]) if "--only" in opts else names
        for n in check:
            r, e = res["hw"].get(n, "not-run"), exp.get(n)
            if e is None:
                print("piglit: %s: %s, no expectation" % (n, r))
            elif e == "pass" and r != "pass":
                print("piglit REGRESSION: %s: %s, expected pass" % (n, r))
                status = 1
            elif e != r:
                print("piglit: %s: %s, expected %s" % (n, r, e))
        if not res["hw"]:
            print("piglit: no results on r300-3d")
            status = 1
    return status


def lines(listfile, subsetfile):
    names = read_list(listfile)
    idx = []
    for n in read_list(subsetfile):
        if n not in names:
            sys.exit("%s: %s is not in %s" % (subsetfile, n, listfile))
        idx.append(names.index(n) + 1)
    print(",".join(str(i) for i in sorted(idx)))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "plan":
        plan(*sys.argv[2:5])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "lines":
        lines(*sys.argv[2:4])
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "report":
        return report(sys.argv[2:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
