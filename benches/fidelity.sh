#!/usr/bin/env bash
# How close `rigcheck bench memory` and `bench disk` come to the tools people trust for the
# same figures, on this machine: STREAM's copy and triad (McCalpin's kernels, compiled here
# with cc -O3 -fopenmp, on as many threads as rigcheck used and arrays of the size rigcheck
# chose) and fio's sequential direct read (`fio --direct=1 --rw=read --bs=1M --iodepth=4`,
# libaio) of the same file rigcheck read. Prints each pair and rigcheck / reference; the
# goal is 0.90 to 1.10.
#
# Each side runs ROUNDS times, alternately, and the best run of each is kept (STREAM's rule:
# the best repetition is the machine's, the others lost time to something else).
#
# Usage: benches/fidelity.sh
#   BIN=path/to/rigcheck   that binary (default: build the release one)
#   STREAM_C=path/stream.c McCalpin's own stream.c instead of the kernels below (compiled
#                          with -DSTREAM_ARRAY_SIZE set to rigcheck's array size)
#   DATA=DIR               where the disk test file is written (default: a directory under
#                          the repository's target/, so on the drive the build is on)
#   SECONDS_PER=10 ROUNDS=3
# Needs cc with OpenMP for the memory part and fio for the disk part; what is missing is
# said and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet --bin rigcheck
  BIN=target/release/rigcheck
fi
secs="${SECONDS_PER:-10}"
rounds="${ROUNDS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
threads="$(nproc)"

best() { sort -g | tail -1; }
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'{a / b:.2f}')" "$1" "$2"; }
# The figure of one kernel at the most threads, in MB/s (10^6), from rigcheck's JSON.
rig_mem() {
  python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["bench"]["memory"]
r = max((x for x in b["results"] if x["kernel"] == sys.argv[2]), key=lambda x: x["threads"])
print(r["bytes_per_s"] / 1e6 if sys.argv[3] == "rate" else b["array_bytes"] // 8)' "$@"
}

echo "rigcheck: $BIN ($("$BIN" --version)); $threads threads; $(date -u +%FT%TZ)"

# --- memory -----------------------------------------------------------------------------
if command -v cc >/dev/null && echo 'int main(void){return 0;}' | cc -fopenmp -x c - -o "$work/t" 2>/dev/null; then
  "$BIN" bench memory --seconds "$secs" -f json >"$work/m0.json"
  n="$(rig_mem "$work/m0.json" copy size)"
  if [ -n "${STREAM_C:-}" ]; then
    cc -O3 -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=20 "$STREAM_C" -o "$work/stream"
  else
    cat >"$work/stream.c" <<'EOF'
/* STREAM's copy (c = a) and triad (a = b + q c) as McCalpin writes them: OpenMP static
   loops, arrays first touched by the threads that use them, the best of NTIMES, bytes
   counted as STREAM counts them (16 per element for copy, 24 for triad). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef NTIMES
#define NTIMES 20
#endif
static double *a, *b, *c;
int main(int argc, char **argv) {
  long n = atol(argv[1]);
  a = malloc(n * sizeof *a); b = malloc(n * sizeof *b); c = malloc(n * sizeof *c);
#pragma omp parallel for
  for (long j = 0; j < n; j++) { a[j] = 1.0; b[j] = 2.0; c[j] = 0.0; }
  double copy = 1e30, triad = 1e30, q = 3.0;
  for (int k = 0; k < NTIMES; k++) {
    double t = omp_get_wtime();
#pragma omp parallel for
    for (long j = 0; j < n; j++) c[j] = a[j];
    t = omp_get_wtime() - t; if (k && t < copy) copy = t;
    t = omp_get_wtime();
#pragma omp parallel for
    for (long j = 0; j < n; j++) a[j] = b[j] + q * c[j];
    t = omp_get_wtime() - t; if (k && t < triad) triad = t;
  }
  printf("Copy: %.1f\nTriad: %.1f\n", 16.0 * n / copy / 1e6, 24.0 * n / triad / 1e6);
  return a[n / 2] == 0.0;
}
EOF
    cc -O3 -fopenmp "$work/stream.c" -o "$work/stream"
  fi
  : >"$work/rc"; : >"$work/rt"; : >"$work/sc"; : >"$work/st"
  for _ in $(seq "$rounds"); do
    "$BIN" bench memory --seconds "$secs" -f json >"$work/m.json"
    rig_mem "$work/m.json" copy rate >>"$work/rc"
    rig_mem "$work/m.json" triad rate >>"$work/rt"
    OMP_NUM_THREADS="$threads" "$work/stream" "$n" >"$work/s.txt"
    awk '/^Copy:/ {print $2}' "$work/s.txt" >>"$work/sc"
    awk '/^Triad:/ {print $2}' "$work/s.txt" >>"$work/st"
  done
  rc="$(best <"$work/rc")"; sc="$(best <"$work/sc")"
  rt="$(best <"$work/rt")"; st="$(best <"$work/st")"
  echo "memory: arrays of $((n * 8 / 1048576)) MiB, $threads threads"
  echo "  copy   rigcheck ${rc%.*} MB/s  STREAM ${sc%.*} MB/s  ratio $(ratio "$rc" "$sc")"
  echo "  triad  rigcheck ${rt%.*} MB/s  STREAM ${st%.*} MB/s  ratio $(ratio "$rt" "$st")"
else
  echo "memory: skipped: no cc with OpenMP (apt-get install gcc)"
fi

# --- disk -------------------------------------------------------------------------------
if command -v fio >/dev/null; then
  dir="${DATA:-target/fidelity-data}"
  mkdir -p "$dir"
  file="$dir/fidelity.bin"
  # One file for both: 1 GiB, written once and synced, as rigcheck's own test file is.
  [ -f "$file" ] || { dd if=/dev/urandom of="$file" bs=1M count=1024 status=none; sync; }
  : >"$work/rd"; : >"$work/fd"
  for _ in $(seq "$rounds"); do
    "$BIN" bench disk --data "$file" --seconds "$secs" -f json >"$work/d.json"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bench"]["disk"]["bytes_per_s"] / 1e6)' "$work/d.json" >>"$work/rd"
    fio --name=read --filename="$file" --direct=1 --rw=read --bs=1M --iodepth=4 \
      --ioengine=libaio --runtime="$secs" --time_based --output-format=json >"$work/f.json"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["bw_bytes"] / 1e6)' "$work/f.json" >>"$work/fd"
  done
  rd="$(best <"$work/rd")"; fd="$(best <"$work/fd")"
  echo "disk: $file"
  echo "  read   rigcheck ${rd%.*} MB/s  fio ${fd%.*} MB/s  ratio $(ratio "$rd" "$fd")"
  [ -n "${DATA:-}" ] || rm -f "$file"
else
  echo "disk: skipped: fio not installed (apt-get install fio)"
fi
