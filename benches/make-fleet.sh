#!/usr/bin/env bash
# Writes N reports into DIR, made from benches/z8-g4-report.json (the reference HP Z8 G4 of
# the tests, written from the same Spec values; tests/fleet.rs checks it still loads): every
# host renamed, every 50th with its second GPU at x8, every 70th with DIMM 7 gone (moved to
# slot 13), every 40th with two Quadro RTX 8000 in place of the RTX 6000s, every 90th with a
# 16 GiB DIMM 12 (104 GiB in all). tests/engines.rs loads 1,000 of them into DuckDB.
# Usage: benches/make-fleet.sh N DIR
set -euo pipefail
n="$1"
dir="$2"
mkdir -p "$dir"
awk -v n="$n" -v dir="$dir" '
  { t = t $0 "\n" }
  END {
    for (i = 1; i <= n; i++) {
      r = t
      gsub(/z8-ref/, sprintf("node-%06d", i), r)
      if (i % 50 == 0) { k = index(r, "0000:af:00.0"); s = substr(r, k); sub(/"width": 16/, "\"width\": 8", s); r = substr(r, 1, k - 1) s }
      if (i % 70 == 0) { sub(/"locator": "DIMM 7"/, "\"locator\": \"DIMM 13\"", r) }
      if (i % 40 == 0) { gsub(/Quadro RTX 6000/, "Quadro RTX 8000", r) }
      if (i % 90 == 0) {
        k = index(r, "\"locator\": \"DIMM 12\""); s = substr(r, k)
        sub(/"size_bytes": 8589934592/, "\"size_bytes\": 17179869184", s); r = substr(r, 1, k - 1) s
        sub(/"total_bytes": 103079215104/, "\"total_bytes\": 111669149696", r)
      }
      f = sprintf("%s/node-%06d.json", dir, i)
      printf "%s", r > f
      close(f)
    }
  }' "$(dirname "$0")/z8-g4-report.json"
