#!/usr/bin/env bash
# Times the check table: `rigcheck verify` of a profile of N [[gpus]] groups (made by
# benches/hostile.py) against the reference machine, drawn as a table fitted to a 100-column
# window, and prints rows of the table per second. Every group but one names a GPU the
# machine lacks, so the table has one row (and a note under it) per group.
# Usage: benches/render.sh [N...]   (default 2000 4000 8000 20000)
# BIN=path/to/rigcheck uses that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet
  BIN=target/release/rigcheck
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%-8s %8s %10s %12s\n' groups rows seconds rows/s
for n in "${@:-2000 4000 8000 20000}"; do
  for m in $n; do
    python3 benches/hostile.py profile "$m" "$work/p.toml" > /dev/null
    run() {
      COLUMNS=100 "$BIN" --sysroot fixtures/hp-z8-g4-dual-rtx6000 verify --profile "$work/p.toml" \
        --color never > "$work/out.txt" || true
    }
    run
    t0=$(date +%s.%N)
    run
    t1=$(date +%s.%N)
    rows=$(grep -c '^ [a-z]' "$work/out.txt" || true)
    awk -v n="$m" -v r="$rows" -v a="$t0" -v b="$t1" \
      'BEGIN { s = b - a; printf "%-8d %8d %10.3f %12.0f\n", n, r, s, r / s }'
  done
done
