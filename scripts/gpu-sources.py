#!/usr/bin/env python3
"""Counts, per market segment, the GPU product table's figures that have an NVIDIA source and
those that rest on a third-party source only.

A row's figures are its figure fields (SMs, cores, clocks, memory, bus, rates, power, host
link) that it holds; the ones named in its `third_party` list rest on a third-party source
only (the TechPowerUp GPU Database, a press article), every other one on the NVIDIA document
its `source` names or on NVIDIA's driver (NVML captures). Laptop and embedded rows (`mobile`)
are left out: they carry no rated figures of their own. docs/gpu-products.md shows the output
between `<!-- sources:begin -->` and `<!-- sources:end -->`.

    python3 scripts/gpu-sources.py          # print the table
    python3 scripts/gpu-sources.py --check  # fail if the doc's table is not this output

Exit 0: printed, or the doc agrees; 1: the doc's table differs; 2: the table or the doc could
not be read.
"""

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "src/probe/gpu/products.toml"
DOC = ROOT / "docs/gpu-products.md"

FIGURES = [
    "sms",
    "cuda_cores",
    "tensor_cores",
    "base_mhz",
    "boost_mhz",
    "tensor_mhz",
    "memory_gib",
    "memory_type",
    "bus_bits",
    "data_rate_gbps",
    "bandwidth_gb_s",
    "fp32_tflops",
    "fp16_tensor_tflops",
    "power_w",
    "pcie",
]
SEGMENTS = [("data center", "data center"), ("workstation", "workstation"), ("geforce", "GeForce")]


def fail(msg, code=2):
    print(f"gpu-sources: {msg}", file=sys.stderr)
    sys.exit(code)


def counts(rows):
    """Per segment: rows with figures, rows all NVIDIA, figures NVIDIA, figures third-party."""
    out = {}
    for seg, _ in SEGMENTS:
        with_figures = all_nvidia = nvidia = third = 0
        for row in rows:
            if row.get("segment") != seg or row.get("mobile", False):
                continue
            figures = [f for f in FIGURES if f in row]
            if not figures:
                continue
            marked = set(row.get("third_party", []))
            unknown = marked - set(figures)
            if unknown:
                fail(f"{row['name']}: third_party names figures the row lacks: {sorted(unknown)}")
            with_figures += 1
            t = sum(1 for f in figures if f in marked)
            third += t
            nvidia += len(figures) - t
            all_nvidia += t == 0
        out[seg] = (with_figures, all_nvidia, nvidia, third)
    return out


def render(c):
    lines = [
        "| segment | rows with figures | of them all NVIDIA | figures with an NVIDIA source "
        "| on a third-party source only | NVIDIA share |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    total = [0, 0, 0, 0]
    for seg, label in SEGMENTS + [("all", "all (mobile rows excluded)")]:
        if seg == "all":
            r, a, n, t = total
        else:
            r, a, n, t = c[seg]
            total = [x + y for x, y in zip(total, (r, a, n, t))]
        share = f"{100 * n / (n + t):.1f} %" if n + t else "-"
        lines.append(f"| {label} | {r} | {a} | {n} | {t} | {share} |")
    return "\n".join(lines)


def main():
    try:
        table = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        fail(f"{TABLE}: {e}")
    out = render(counts(table.get("gpu", [])))
    if "--check" not in sys.argv[1:]:
        print(out)
        return
    try:
        text = DOC.read_text(encoding="utf-8")
    except OSError as e:
        fail(f"{DOC}: {e}")
    m = re.search(r"<!-- sources:begin -->\n(.*?)\n<!-- sources:end -->", text, re.S)
    if not m:
        fail(f"{DOC}: no <!-- sources:begin --> ... <!-- sources:end --> table")
    if m.group(1).strip() != out.strip():
        print("docs/gpu-products.md's table is not the table's count; it should read:")
        print(out)
        sys.exit(1)
    print("docs/gpu-products.md agrees with the table")


if __name__ == "__main__":
    main()
