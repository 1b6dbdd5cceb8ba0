#!/usr/bin/env bash
# Times `rigcheck fleet DIR --format json` over N reports (default 10000) made from
# benches/z8-g4-report.json (the reference HP Z8 G4 of the tests, written from the same Spec
# values; tests/fleet.rs checks it still loads): every host renamed, every 50th with its
# second GPU at x8, every 70th with DIMM 7 gone.
# Usage: benches/fleet.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"
cargo build --release --locked --quiet
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
awk -v n="$n" -v dir="$dir" '
  { t = t $0 "\n" }
  END {
    for (i = 1; i <= n; i++) {
      r = t
      gsub(/z8-ref/, sprintf("node-%05d", i), r)
      if (i % 50 == 0) { k = index(r, "0000:af:00.0"); s = substr(r, k); sub(/"width": 16/, "\"width\": 8", s); r = substr(r, 1, k - 1) s }
      if (i % 70 == 0) { sub(/"locator": "DIMM 7"/, "\"locator\": \"DIMM 13\"", r) }
      f = sprintf("%s/node-%05d.json", dir, i)
      printf "%s", r > f
      close(f)
    }
  }' benches/z8-g4-report.json
echo "$n reports, $(du -sh "$dir" | cut -f1) in $dir"
# Warm the page cache once, then time three runs.
./target/release/rigcheck fleet "$dir" --format json > /dev/null || true
for _ in 1 2 3; do
  /usr/bin/time -f "%e s wall, %M KiB max RSS" ./target/release/rigcheck fleet "$dir" --format json > /dev/null || true
done
