#!/usr/bin/env python3
"""How a rigcheck binary was linked (build.rs): the shared libraries every start loads, and
the functions of link/hot-text.txt at the start of its text.

Usage: benches/linkage.py BINARY [--check]

Prints two lines, `loads: ...` and `hot text: ...`. A list gone stale (a new toolchain or a
changed dependency renames most functions) shows as few of its names found; build.rs then
places them by their names with the hashes left open, less tightly, until benches/hot-text.sh
writes the list again. With --check (CI, on a release build) the script exits 1 where the
binary loads libm or libgcc_s (src/main.rs's maths, build.rs's static_unwinder), has no
.text.hot, or leaves more than 1 % of the listed functions it names outside it; a stale list
is said, not failed. Needs readelf and nm (binutils).
"""

import re
import subprocess
import sys


def tool(*argv):
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def bare(name):
    # ThinLTO's `.llvm.N` suffix of a promoted local changes with the code: not compared.
    return re.sub(r"\.llvm\.\d+$", "", name)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[3])
    binary = args[0]
    faults = []

    loads = re.findall(r"\(NEEDED\).*\[(.*)\]", tool("readelf", "-d", binary))
    print("loads:", " ".join(loads))
    faults += [f"loads {lib}" for lib in loads if lib.startswith(("libm.so", "libgcc_s.so"))]

    hot = re.search(r"\.text\.hot\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)",
                    tool("readelf", "-S", "-W", binary))
    if not hot:
        print("hot text: none (linked in the compiler's order)")
        faults.append("has no .text.hot")
    else:
        start, size = int(hot.group(1), 16), int(hot.group(2), 16)
        with open("link/hot-text.txt") as f:
            listed = {bare(l.strip()) for l in f if l.strip() and not l.startswith("#")}
        # A local function can have copies of one name in several codegen units: the name
        # counts as placed where one of them is in .text.hot. A stripped binary names none.
        found, placed = set(), set()
        symbols = subprocess.run(["nm", binary], capture_output=True, text=True).stdout
        for line in symbols.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW" and bare(parts[2]) in listed:
                found.add(bare(parts[2]))
                if start <= int(parts[0], 16) < start + size:
                    placed.add(bare(parts[2]))
        outside = sorted(found - placed)
        print(f"hot text: {size // 1024} KB; {len(found)} of the {len(listed)} functions of "
              f"link/hot-text.txt found by name, {len(outside)} of them outside it")
        if len(outside) > len(found) // 100:
            faults.append(f"has listed functions outside .text.hot: {outside[:5]}")

    if check and faults:
        for fault in faults:
            print(f"linkage.py: {binary} {fault}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
