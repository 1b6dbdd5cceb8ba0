#!/usr/bin/env bash
# Writes link/hot-text.txt: the functions of rigcheck that its everyday commands execute, in
# the order they first run. build.rs turns the list into a linker script that places them
# together at the start of the program's text, so that starting a run maps a few dozen pages
# of code instead of touching one 64 KB window of a 6 MB text after another (each a page
# fault; docs/performance.md has the figures).
#
# The names are the linker's (mangled). A name carries a hash of the crate's build settings
# and toolchain, so a new Rust release or a dependency update changes many of them; build.rs
# then falls back to the same names with the hash left open, which gathers the same code and
# its siblings. Rerun this after such a change, or when benches/speed.sh reports that few of
# the listed names are in the binary.
#
# Needs valgrind (callgrind lists every function that ran). The runs: the inventory of this
# machine as a table and as JSON, a replay of the reference HP Z8 G4 (CPU, SMBIOS, two GPUs
# through their recorded NVML answers) as a table and as JSON, `verify` of that replay
# against its order and `preflight` of a recorded healthy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || {
  echo "hot-text.sh: needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 2
}
cargo build --release --locked --quiet
bin=target/release/rigcheck
z8=fixtures/hp-z8-g4-dual-rtx6000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

runs=(
  ""
  "-f json"
  "--sysroot $z8"
  "--sysroot $z8 -f json"
  "verify --profile hp-z8-g4-dual-rtx6000 --sysroot $z8"
  "preflight --sysroot fixtures/preflight-healthy"
)
i=0
for args in "${runs[@]}"; do
  i=$((i + 1))
  # verify and preflight exit 1 on a finding: the run's functions are what counts here.
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$i.out" \
    "$bin" $args >/dev/null 2>"$work/$i.err" || true
  [ -s "$work/$i.out" ] || { cat "$work/$i.err" >&2; exit 1; }
done

# Functions defined in rigcheck's own text (not libc's), first use first.
nm --defined-only "$bin" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"
for f in $(seq 1 "$i"); do grep -ohE '^c?fn=\([0-9]+\) [^ ]+' "$work/$f.out" | cut -d' ' -f2; done |
  awk '!seen[$0]++' | awk 'NR == FNR { d[$0]; next } $0 in d' "$work/defined" - >"$work/hot"

{
  echo "# Functions that rigcheck's everyday commands run, first use first: build.rs places them"
  echo "# at the start of the program's text. Written by benches/hot-text.sh ($(rustc --version | cut -d' ' -f1-2))."
  cat "$work/hot"
} >link/hot-text.txt
echo "link/hot-text.txt: $(wc -l <"$work/hot") functions"
