#!/usr/bin/env bash
# Times a full inventory against lscpu and lshw on this machine, and a replay of the largest
# fixtures, with hyperfine. Usage: benches/inventory.sh  (builds the release binary first).
# Needs hyperfine; lscpu (util-linux) and lshw are compared when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/rigcheck
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)"; exit 2; }
cmds=("$bin --format json" "$bin --format table --color never")
command -v lscpu >/dev/null && cmds+=("lscpu --json")
command -v lshw >/dev/null && cmds+=("lshw -json")
hyperfine -N --warmup 5 --runs "${RUNS:-50}" --export-markdown target/bench-live.md "${cmds[@]}"
replays=()
for f in fixtures/x86_64-epyc_7451 fixtures/hp-z8-g4-dual-rtx6000 fixtures/x86_64-64cpu-linux6.2; do
  [ -d "$f" ] && replays+=("$bin --sysroot $f --format json")
done
# lscpu reads the same util-linux dump: the like-for-like replay comparison.
command -v lscpu >/dev/null && [ -d fixtures/x86_64-epyc_7451 ] &&
  replays+=("lscpu --sysroot fixtures/x86_64-epyc_7451")
if [ ${#replays[@]} -gt 0 ]; then
  hyperfine -N --warmup 5 --runs "${RUNS:-50}" --export-markdown target/bench-replay.md "${replays[@]}"
fi
