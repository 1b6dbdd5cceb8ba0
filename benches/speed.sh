#!/usr/bin/env bash
# The speed table of docs/performance.md, in one run: whole-process medians of rigcheck
# against lscpu (and lshw, hwinfo, inxi, dmidecode, lstopo where installed) on this machine,
# replays against `lscpu --sysroot` over the same recorded trees, and `fleet` (alone and with
# `--profile`) over 1,000, 10,000 and 100,000 reports with wall time, peak memory and how the
# time scales.
#
# Each comparison runs the two commands alternately, one run of each in turn and the order
# swapped every pair (benches/alternate.py), ROUNDS × RUNS runs of each, so a change of load
# on a busy machine falls on both sides; the ratio is that of the two medians. Needs python3
# for the whole-process part and /usr/bin/time (GNU time) for peak memory; whatever is
# missing is said and skipped.
#
# rigcheck is timed as installed: a copy of the binary (as `cargo install`, the .deb and the
# tarball put it), as lscpu is timed as its package installed it. The linker's own output
# file starts slower until the page cache forgets it (written in small pieces, it is cached
# in small ones: more page faults at every start; docs/performance.md has the figures).
#
# Usage: benches/speed.sh
#   BIN=path/to/rigcheck  time that binary (default: build the release one)
#   ROUNDS=5 RUNS=20      runs per command: ROUNDS × RUNS
#   SIZES="1000 10000 100000"  fleet sizes
#   CPUS=0,1              run fleet on these CPUs only (taskset), e.g. two cores of a big box
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet
  BIN=target/release/rigcheck
fi
rounds="${ROUNDS:-5}"
runs="${RUNS:-20}"
sizes="${SIZES:-1000 10000 100000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
built="$BIN"
BIN="$work/rigcheck"
cp "$built" "$BIN"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'),"\
  "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "rigcheck: $built, installed as a copy ($(stat -c %s "$BIN") bytes), $("$BIN" --version)"
echo

# compare LABEL A B: medians of A and B (ms) over alternate runs, and A/B.
compare() {
  local label="$1" a="$2" b="$3" ma mb ratio
  read -r ma mb ratio < <(benches/alternate.py "$((rounds * runs))" "$a" "$b" 2> /dev/null) ||
    { echo "| $label | failed: $a / $b | | |"; return; }
  printf '| %s | %.2f ms | %.2f ms | %.2f × |\n' "$label" "$ma" "$mb" "$ratio"
}

if command -v python3 > /dev/null; then
  echo "| rigcheck vs | rigcheck | other | ratio |"
  echo "|---|---|---|---|"
  command -v lscpu > /dev/null && compare "lscpu --json (this machine)" "$BIN -f json" "lscpu --json"
  command -v lscpu > /dev/null && compare "\`--version\` vs lscpu --json" "$BIN --version" "lscpu --json"
  for f in fixtures/hp-z8-g4-dual-rtx6000 fixtures/x86_64-epyc_7451; do
    command -v lscpu > /dev/null && [ -d "$f" ] &&
      compare "lscpu --sysroot $(basename "$f") --json" "$BIN --sysroot $f -f json" \
        "lscpu --sysroot $f --json"
  done
  # The other inventories, as they are run for a whole machine.
  for anchor in "lshw -json -quiet" "hwinfo --all" "inxi -Fxz" "dmidecode" \
    "lstopo-no-graphics --of console"; do
    command -v "${anchor%% *}" > /dev/null && compare "$anchor" "$BIN -f json" "$anchor"
  done
else
  echo "python3 is not installed: whole-process comparisons skipped"
fi
echo

# fleet alone, and fleet checking every host against the reference order (what a delivery
# of many machines is checked with).
echo "| fleet reports | command | wall (median of 3) | peak RSS | ms per 1,000 | time × / size × |"
echo "|---|---|---|---|---|---|"
pin=()
[ -n "${CPUS:-}" ] && pin=(taskset -c "$CPUS")
declare -A prev_t
prev_n=""
for n in $sizes; do
  dir="$work/fleet-$n"
  benches/make-fleet.sh "$n" "$dir"
  "${pin[@]}" "$BIN" fleet "$dir" --format json > /dev/null || true
  for mode in plain profile; do
    args=(fleet "$dir" --format json)
    [ "$mode" = profile ] && args+=(--profile hp-z8-g4-dual-rtx6000)
    : > "$work/t"; : > "$work/m"
    for _ in 1 2 3; do
      if [ -x /usr/bin/time ]; then
        /usr/bin/time -o "$work/one" -f "%e %M" "${pin[@]}" "$BIN" "${args[@]}" \
          > /dev/null || true
        read -r t m < <(tail -1 "$work/one")
      else
        s=$(date +%s.%N)
        "${pin[@]}" "$BIN" "${args[@]}" > /dev/null || true
        t=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { print e - s }'); m=""
      fi
      echo "$t" >> "$work/t"; echo "${m:-0}" >> "$work/m"
    done
    t=$(median < "$work/t")
    m=$(sort -g "$work/m" | tail -1)
    scale="-"
    [ -n "$prev_n" ] && scale=$(awk -v t="$t" -v pt="${prev_t[$mode]}" -v n="$n" -v pn="$prev_n" \
      'BEGIN { printf "%.2f", (t / pt) / (n / pn) }')
    label="fleet"
    [ "$mode" = profile ] && label="fleet --profile"
    printf '| %s | %s | %.2f s | %s | %.0f | %s |\n' "$n" "$label" "$t" \
      "$([ "$m" != 0 ] && awk -v m="$m" 'BEGIN { printf "%.0f MiB", m / 1024 }' || echo "-")" \
      "$(awk -v t="$t" -v n="$n" 'BEGIN { print t * 1000 / (n / 1000) }')" "$scale"
    prev_t[$mode]="$t"
  done
  prev_n="$n"
  rm -rf "$dir"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
