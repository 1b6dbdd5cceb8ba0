#!/usr/bin/env bash
# Times rigcheck on hostile inputs that are small to write and used to cost minutes:
# a deep /proc/self/cgroup, --redact over thousands of serials, a profile of thousands of
# [[gpus]] groups (on separate lines and on one line), and sysroots whose sysfs attributes
# are 1 GiB sparse files, and a sysroot whose /sys/block holds thousands of dangling entries
# (one note each), drawn as a table, a Markdown sheet and JSON. Prints one line per run:
# case, input size, seconds.
# The inputs come from benches/hostile.py (python3). docs/reliability.md has the figures.
# Usage: benches/hardening.sh [CASE...]
#   (cases: cgroup redact profile profile-line sysfs notes; notes is not in the default run)
# BIN=path/to/rigcheck uses that binary instead of building the release one;
# LIMIT=seconds stops a run that takes longer (default 600) and prints "> LIMIT".
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet
  BIN=target/release/rigcheck
fi
LIMIT="${LIMIT:-600}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gen() { python3 benches/hostile.py "$@" > /dev/null; }

# Runs "$@" once (page cache warmed by a first run) and prints the wall time in seconds.
timed() {
  timeout "$LIMIT" "$@" > /dev/null 2>&1 || true
  local t0 t1
  t0=$(date +%s.%N)
  local rc=0
  timeout "$LIMIT" "$@" > /dev/null 2>&1 || rc=$?
  [ "$rc" -eq 124 ] && { echo "> $LIMIT"; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

row() { printf '%-14s %8s %10s\n' "$1" "$2" "$3"; }

cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(cgroup redact profile profile-line sysfs)
row case size seconds
for c in "${cases[@]}"; do
  case "$c" in
    cgroup)
      # Depth of the cgroup path (2 bytes a level: 2048 levels fill the kernel's 4 KiB).
      for n in ${SIZES:-250 500 1000 2000}; do
        gen cgroup "$n" "$work/cg"
        row cgroup "$n" "$(timed "$BIN" --sysroot "$work/cg" --format json)"
      done ;;
    redact)
      # DIMMs, each with a serial, in a saved report; the sheet redacts them.
      for n in ${SIZES:-1000 2000 4000 8000}; do
        gen redact "$n" "$work/r.json"
        row redact "$n" "$(timed "$BIN" sheet --report "$work/r.json" --redact --format markdown)"
      done ;;
    profile|profile-line)
      # [[gpus]] groups of three requirements each, checked against the reference Z8.
      for n in ${SIZES:-1000 2000 4000 8000}; do
        gen "$c" "$n" "$work/p.toml"
        row "$c" "$n" "$(timed "$BIN" --sysroot fixtures/hp-z8-g4-dual-rtx6000 verify --profile "$work/p.toml" --format json)"
      done ;;
    sysfs)
      # sysfs attributes of the 64-CPU fixture made 1 GiB sparse files (it has 1314 files).
      for n in ${SIZES:-100 200 400 1300}; do
        gen sysfs "$n" "$work/sys"
        row sysfs "$n" "$(timed "$BIN" --sysroot "$work/sys" --format json)"
      done ;;
    notes)
      # Dangling entries in /sys/block of the reference Z8: one note each, in three outputs.
      for n in ${SIZES:-7500 15000 30000 60000}; do
        gen notes "$n" "$work/notes"
        row notes-table "$n" "$(timed "$BIN" --sysroot "$work/notes" --format table)"
        row notes-sheet "$n" "$(timed "$BIN" --sysroot "$work/notes" sheet --format markdown)"
        row notes-json "$n" "$(timed "$BIN" --sysroot "$work/notes" --format json)"
      done ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
done
