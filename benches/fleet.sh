#!/usr/bin/env bash
# Times `rigcheck fleet DIR --format json` over N reports (default 10000) written by
# benches/make-fleet.sh: three runs after one that warms the page cache, with wall time and
# peak memory. Usage: benches/fleet.sh [N]   (BIN=path/to/rigcheck to time another build)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet
  BIN=target/release/rigcheck
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
benches/make-fleet.sh "$n" "$dir"
echo "$n reports, $(du -sh "$dir" | cut -f1) in $dir"
"$BIN" fleet "$dir" --format json > /dev/null || true
for _ in 1 2 3; do
  /usr/bin/time -f "%e s wall, %M KiB max RSS" "$BIN" fleet "$dir" --format json > /dev/null || true
done
