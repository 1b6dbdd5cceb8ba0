#!/usr/bin/env bash
# gpu-smoke.sh: checks a built rigcheck on a machine with NVIDIA GPUs against nvidia-smi.
#
#   scripts/gpu-smoke.sh PATH/TO/rigcheck [--bench-seconds N] [--keep DIR]
#
# Builds nothing. Runs the live inventory; `capture` then replay, which must print the same
# report; compares every GPU's name, brand, architecture, UUID, memory, max SM and memory
# clocks, max customer boost clock, PCIe link, MIG instances and the GPU count with
# `nvidia-smi -q -x`, and fails on a GPU that differs from its datasheet; runs
# `bench gpu` for N seconds (default 3; a binary built without the gpu-bench feature reports
# it as skipped); and prints one summary line last.
#
# Exit: 0 every check passed, 1 a check failed (each failure is listed above the summary),
# 2 the smoke test could not run (no nvidia-smi, no python3, no binary, a command failed).
# Needs bash, python3 (to read nvidia-smi's XML and rigcheck's JSON) and nvidia-smi.
set -euo pipefail

prog=gpu-smoke
die() {
    echo "$prog: $*" >&2
    exit 2
}
usage() {
    echo "usage: $0 PATH/TO/rigcheck [--bench-seconds N] [--keep DIR]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
case $1 in -h | --help) usage ;; esac
bin=$1
shift
bench_seconds=3
keep=
while [ $# -gt 0 ]; do
    case $1 in
    --bench-seconds)
        [ $# -ge 2 ] || die "--bench-seconds needs a number of seconds"
        bench_seconds=$2
        shift 2
        ;;
    --keep)
        [ $# -ge 2 ] || die "--keep needs a directory"
        keep=$2
        shift 2
        ;;
    -h | --help) usage ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done
case $bench_seconds in
'' | *[!0-9]*) die "--bench-seconds '$bench_seconds' is not a whole number of seconds" ;;
esac

# A bare name is looked up on PATH; a path must be an executable file.
case $bin in
*/*) ;;
*) bin=$(command -v -- "$bin" 2>/dev/null) || die "'$1' is not on PATH: give the path of a built rigcheck (cargo build --release: target/release/rigcheck)" ;;
esac
[ -f "$bin" ] && [ -x "$bin" ] ||
    die "'$bin' is not an executable file: give the path of a built rigcheck (cargo build --release: target/release/rigcheck)"
command -v nvidia-smi >/dev/null 2>&1 ||
    die "nvidia-smi not found on PATH: run this on a machine with an NVIDIA GPU and its driver installed"
command -v python3 >/dev/null 2>&1 ||
    die "python3 not found: it reads nvidia-smi's XML and rigcheck's JSON (install python3)"

if [ -n "$keep" ]; then
    mkdir -p -- "$keep" || die "cannot create '$keep'"
    work=$(cd -- "$keep" && pwd)
    [ -z "$(ls -A -- "$work")" ] || die "--keep '$keep' is not empty"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-smoke.XXXXXX") || die "cannot make a temporary directory"
    trap 'rm -rf -- "$work"' EXIT
fi

# Runs "$@" with stdout to $work/$1.out and stderr to $work/$1.err; on failure, one line
# naming the step and the start of its stderr, exit 2.
step() {
    local name=$1
    shift
    local rc=0
    "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
    [ "$rc" -eq 0 ] ||
        die "$name failed (exit $rc): $*: $(head -c 400 "$work/$name.err" | tr '\n' ' ')"
}

now_ms() { date +%s%3N; }

step nvidia-smi nvidia-smi -q -x
t0=$(now_ms)
step inventory "$bin" --format json --color never
t1=$(now_ms)
step capture "$bin" capture "$work/sysroot"
step replay "$bin" --sysroot "$work/sysroot" --format json --color never
# The benchmark's own failure is a result, not a reason to stop: it is reported below.
bench_rc=0
"$bin" bench gpu --seconds "$bench_seconds" --format json --color never \
    >"$work/bench.out" 2>"$work/bench.err" || bench_rc=$?

python3 - "$work" "$((t1 - t0))" "$bench_rc" <<'PY'
"""Compares rigcheck's live report with nvidia-smi -q -x; prints failures, then one line."""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

work, inventory_ms, bench_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fails, infos = [], []


def load_json(name):
    path = os.path.join(work, name + ".out")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("gpu-smoke: %s printed no JSON report (%s)" % (name, e), file=sys.stderr)
        sys.exit(2)


def num(text):
    """'2100 MHz' -> 2100; 'N/A', '[N/A]', '' -> None."""
    m = re.match(r"\s*(-?[0-9]+)", text or "")
    return int(m.group(1)) if m else None


def bus(text):
    """NVML's 00000000:17:00.0 and sysfs's 0000:17:00.0 as one key."""
    dom, _, rest = (text or "").lower().partition(":")
    return dom[-4:] + ":" + rest


try:
    smi = ET.parse(os.path.join(work, "nvidia-smi.out")).getroot()
except (OSError, ET.ParseError) as e:
    print("gpu-smoke: nvidia-smi -q -x printed no readable XML (%s)" % e, file=sys.stderr)
    sys.exit(2)
live, replay = load_json("inventory"), load_json("replay")

# capture + replay: the replay prints what the live run printed (report.json), "source" aside.
try:
    with open(os.path.join(work, "sysroot", "report.json"), encoding="utf-8") as f:
        recorded = json.load(f)
except (OSError, ValueError) as e:
    recorded = None
    fails.append("capture wrote no readable report.json (%s)" % e)
if recorded is not None:
    a, b = dict(recorded), dict(replay)
    a.pop("source", None)
    b.pop("source", None)
    if a != b:
        keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        fails.append("replay of the capture differs from the live report in: " + ", ".join(keys))

smi_gpus = {bus(g.get("id")): g for g in smi.findall("gpu")}
nvml_gpus = [g for g in live.get("gpus", []) if g.get("index") is not None]
by_bus = {bus(g.get("pci_address")): g for g in nvml_gpus}
attached = num(smi.findtext("attached_gpus"))
if attached is not None and attached != len(smi_gpus):
    infos.append("nvidia-smi lists %d of %d attached GPUs" % (len(smi_gpus), attached))
if len(nvml_gpus) != len(smi_gpus):
    fails.append("GPU count: rigcheck %d (through NVML), nvidia-smi %d" % (len(nvml_gpus), len(smi_gpus)))
for addr in sorted(set(smi_gpus) - set(by_bus)):
    fails.append("GPU %s: in nvidia-smi, not in rigcheck's report" % addr)

checked = []
for addr, x in sorted(smi_gpus.items()):
    g = by_bus.get(addr)
    if g is None:
        continue
    t = lambda p: (x.findtext(p) or "").strip()
    link = "pci/pci_gpu_link_info/"
    pairs = [
        ("name", g.get("name"), t("product_name")),
        ("brand", g.get("brand"), t("product_brand") or None),
        ("architecture", g.get("architecture"), t("product_architecture") or None),
        ("UUID", g.get("uuid"), t("uuid")),
        ("memory (MiB)", (g.get("vram_bytes") or 0) >> 20 or None, num(t("fb_memory_usage/total"))),
        ("max SM clock (MHz)", g.get("max_sm_clock_mhz"), num(t("max_clocks/sm_clock"))),
        ("max memory clock (MHz)", g.get("max_memory_clock_mhz"), num(t("max_clocks/mem_clock"))),
        ("max customer boost clock (MHz)", g.get("max_customer_boost_clock_mhz"),
         num(t("max_customer_boost_clocks/graphics_clock"))),
        ("max PCIe generation", (g.get("pcie") or {}).get("max_gen"), num(t(link + "pcie_gen/max_link_gen"))),
        ("max PCIe width", (g.get("pcie") or {}).get("max_width"), num(t(link + "link_widths/max_link_width"))),
    ]
    for what, ours, theirs in pairs:
        if what.startswith("memory"):
            # nvidia-smi rounds to whole MiB.
            same = ours is not None and theirs is not None and abs(ours - theirs) <= 1
        else:
            same = ours == theirs
        if not same:
            fails.append("GPU %s: %s: rigcheck %r, nvidia-smi %r" % (addr, what, ours, theirs))
    # MIG instances: nvidia-smi's <mig_devices> against rigcheck's mig_instances.
    smi_migs = x.findall("mig_devices/mig_device")
    ours = {m.get("index"): m for m in g.get("mig_instances") or []}
    if len(smi_migs) != len(ours):
        fails.append("GPU %s: MIG instances: rigcheck %d, nvidia-smi %d" % (addr, len(ours), len(smi_migs)))
    for m in smi_migs:
        o = ours.get(num(m.findtext("index")))
        if o is None:
            continue
        for what, a, b in [
            ("SMs", o.get("sm_count"), num(m.findtext("device_attributes/shared/multiprocessor_count"))),
            ("memory (MiB)", (o.get("memory_bytes") or 0) >> 20 or None, num(m.findtext("fb_memory_usage/total"))),
            ("GPU instance", o.get("gpu_instance_id"), num(m.findtext("gpu_instance_id"))),
        ]:
            if a != b:
                fails.append("GPU %s MIG %s: %s: rigcheck %r, nvidia-smi %r" % (addr, o.get("index"), what, a, b))
    for m in g.get("datasheet_mismatches") or []:
        fails.append("GPU %s: differs from its datasheet: %s" % (addr, m))
    if g.get("datasheet") is None:
        infos.append("GPU %s (%s) is not in rigcheck's product table: no rated figures" % (addr, g.get("name")))
    checked.append(g)

# bench gpu: measured FP32 next to the rated figure; skipped when the binary lacks the feature.
bench = "not run"
try:
    with open(os.path.join(work, "bench.out"), encoding="utf-8") as f:
        b = json.load(f).get("bench") or {}
except (OSError, ValueError):
    b = None
if b is None:
    fails.append("bench gpu printed no JSON (exit %d): %s" % (bench_rc, open(os.path.join(work, "bench.err"), encoding="utf-8", errors="replace").read()[:300].strip()))
else:
    per = ((b.get("gpu") or {}).get("per_gpu")) or []
    why = [n.get("reason", "") for n in b.get("notes") or [] if str(n.get("field", "")).startswith("bench.gpu")]
    measured = [p for p in per if p.get("fp32_tflops") is not None]
    if measured:
        bench = "bench gpu " + ", ".join(
            "%.1f of %s TFLOPS FP32" % (p["fp32_tflops"], "%.1f" % p["fp32_peak_tflops"] if p.get("fp32_peak_tflops") else "?")
            for p in measured)
    elif any("gpu-bench feature" in w for w in why):
        bench = "bench gpu skipped (binary built without the gpu-bench feature)"
    else:
        fails.append("bench gpu measured nothing: " + ("; ".join(why) or "no reason given"))
        bench = "bench gpu measured nothing"

names = {}
for g in checked:
    names[g.get("name")] = names.get(g.get("name"), 0) + 1
fleet = ", ".join("%d x %s" % (n, name) for name, n in names.items()) or "no GPU"
for line in infos:
    print("gpu-smoke: note: " + line)
for line in fails:
    print("gpu-smoke: FAIL: " + line)
if fails:
    print("gpu-smoke: FAIL (%d %s) · %s · inventory %d ms · see the FAIL lines above · %s"
          % (len(fails), "check" if len(fails) == 1 else "checks", fleet, inventory_ms, bench))
else:
    print("gpu-smoke: PASS · %s · inventory %d ms · capture = replay · nvidia-smi agrees on "
          "name, brand, architecture, UUID, memory, clocks, PCIe link, MIG, count · %s"
          % (fleet, inventory_ms, bench))
sys.exit(1 if fails else 0)
PY
