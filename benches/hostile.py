#!/usr/bin/env python3
"""Makes the hostile inputs that benches/hardening.sh times. Each case is small to write and
was slow to read before the bounds of docs/reliability.md.

  hostile.py cgroup DEPTH OUT      sysroot: the container fixture, /proc/self/cgroup DEPTH deep
  hostile.py redact N OUT          report JSON: the reference Z8 with N DIMMs, each with a serial
  hostile.py profile N OUT         profile TOML: N [[gpus]] groups (on N lines, or one line)
  hostile.py sysfs N OUT           sysroot: the 64-CPU fixture with N sysfs attributes made
                                   1 GiB sparse files
  hostile.py notes N OUT           sysroot: the reference Z8 with N dangling entries in
                                   /sys/block, each of which the inventory notes
"""
import json
import os
import shutil
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def fresh(out):
    if os.path.exists(out):
        shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)


def cgroup(depth, out):
    fresh(out)
    shutil.copytree(os.path.join(ROOT, "fixtures/preflight-container-small-shm"), out, symlinks=True)
    path = "/" + "/".join("a" for _ in range(depth))
    with open(os.path.join(out, "proc/self/cgroup"), "w") as f:
        f.write(f"0::{path}\n")


def redact(n, out):
    with open(os.path.join(ROOT, "benches/z8-g4-report.json")) as f:
        r = json.load(f)
    first = r["memory"]["dimms"][0]
    dimms = []
    for i in range(n):
        d = dict(first)
        d["locator"] = f"DIMM {i}"
        d["serial"] = f"S{i:08X}"
        dimms.append(d)
    r["memory"]["dimms"] = dimms
    with open(out, "w") as f:
        json.dump(r, f)


def profile(n, out, one_line=False):
    if one_line:
        groups = ", ".join(f'{{ model = "RTX {i}", count = 1, vram = "24 GiB" }}' for i in range(n))
        text = f"[cpu]\nsockets = 2\n\ngpus = [{groups}]\n"
        # A bare key after a table belongs to it: put the groups first.
        text = f"gpus = [{groups}]\n\n[cpu]\nsockets = 2\n"
    else:
        text = "[cpu]\nsockets = 2\n" + "".join(
            f'\n[[gpus]]\nmodel = "RTX {i}"\ncount = 1\nvram = "24 GiB"\n' for i in range(n)
        )
    with open(out, "w") as f:
        f.write(text)


def sysfs(n, out):
    fresh(out)
    shutil.copytree(os.path.join(ROOT, "fixtures/x86_64-64cpu-linux6.2"), out, symlinks=True)
    done = 0
    for dirpath, _dirs, files in sorted(os.walk(os.path.join(out, "sys"))):
        for name in sorted(files):
            p = os.path.join(dirpath, name)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            if done >= n:
                return done
            # The real text first, then a hole: what a stranger's capture can hold.
            with open(p, "r+b") as f:
                f.truncate(1 << 30)
            done += 1
    return done


def notes(n, out):
    fresh(out)
    shutil.copytree(os.path.join(ROOT, "fixtures/hp-z8-g4-dual-rtx6000"), out, symlinks=True)
    block = os.path.join(out, "sys/block")
    for i in range(n):
        # A link to a device that is not there: each is a drive the inventory cannot read.
        os.symlink(f"../devices/virtual/block/gone{i}", os.path.join(block, f"sd{i}"))


if __name__ == "__main__":
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "cgroup":
        cgroup(n, out)
    elif kind == "redact":
        redact(n, out)
    elif kind == "profile":
        profile(n, out)
    elif kind == "profile-line":
        profile(n, out, one_line=True)
    elif kind == "sysfs":
        print(sysfs(n, out))
    elif kind == "notes":
        notes(n, out)
    else:
        sys.exit(f"unknown case {kind}")
