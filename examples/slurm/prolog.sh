#!/bin/sh
# Slurm prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/rigcheck.sh, PrologFlags=Alloc): runs
# as root on each allocated node before the job. A node that is not ready is drained with the
# reason and the job is requeued elsewhere (a non-zero prolog exit drains the node too, but
# without saying why). rigcheck exits 0 when ready, 1 when a check failed, 2 when it could
# not run.
# SLURM_JOB_GPUS lists the GPU indices allocated to the job, e.g. "0,1".
gpus=$(printf '%s' "${SLURM_JOB_GPUS:-}" | tr ',' '\n' | grep -c .)
out=$(CUDA_VISIBLE_DEVICES="${SLURM_JOB_GPUS:-}" \
      rigcheck preflight --gpus "$gpus" --data "${RIGCHECK_DATA:-/scratch}" --format table 2>&1)
rc=$?
[ "$rc" -eq 0 ] && exit 0
# First failing row of the table, columns split at its rules:
# " fail   │ gpu.temperature │ GPU 0 │ ≤ 80 °C │ 89 °C" -> "gpu.temperature GPU 0: 89 °C (expected ≤ 80 °C)".
reason=$(printf '%s\n' "$out" | awk -F'│' '
  function t(s) { gsub(/^ +| +$/, "", s); return s }
  t($1) == "fail" {
    on = t($3); want = t($4)
    print t($2) (on != "" ? " " on : "") ": " t($5) (want != "" ? " (expected " want ")" : "")
    exit
  }' | cut -c1-120)
[ -n "$reason" ] || reason="rigcheck preflight exit $rc"
scontrol update nodename="$SLURMD_NODENAME" state=drain reason="rigcheck: $reason"
logger -t rigcheck "drained $SLURMD_NODENAME: $reason"
exit 1
