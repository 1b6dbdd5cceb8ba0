#!/bin/sh
# Slurm prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/rigcheck.sh): runs before each job;
# a node that is not ready is drained with the reason, and the job is requeued elsewhere
# (a non-zero prolog exit drains the node too, but without saying why).
# rigcheck exits 0 when ready, 1 when a check failed, 2 when it could not run.
PROFILE=/etc/rigcheck/order.toml
out=$(rigcheck preflight --profile "$PROFILE" --format table 2>&1)
rc=$?
[ "$rc" -eq 0 ] && exit 0
reason=$(printf '%s\n' "$out" | grep -m1 -i 'fail' | cut -c1-120)
[ -n "$reason" ] || reason="rigcheck preflight exit $rc"
scontrol update nodename="$SLURMD_NODENAME" state=drain reason="rigcheck: $reason"
logger -t rigcheck "drained $SLURMD_NODENAME: $reason"
exit 1
