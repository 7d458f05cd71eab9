#!/bin/sh
# model_check.sh - the Nona model against the simulator on a seeded family
# of generated layered workloads (8 scenarios, seeds 3000-3007: 2-10 stages,
# 1-3 classes, 10 and 100 Gbps) at loads 0.1-0.7: aged waits (the default
# since 2026-11-28), job-first waits (the default before), the same with
# spread waits inside a part, with merged visits (its solve on the pieces
# cut), the first job-first version and the earlier piece waits side by
# side, each with its wall time, in one run (#32: at least 90% of points
# within 10%, none beyond 20%), then the late-bound parts (nona-late, the
# default waits) under the same bar. CONTEND: the command.
set -u
C=${CONTEND:-build/contend}
A="sim check --generate 8 --gen-seed 3000 --jobs 4000 --loads 0.1:0.7:0.2"
echo "model against simulation: 8 generated layered workloads x 4 loads (simulated / predicted mean JCT)"
for w in job-first-aged job-first job-first-spread job-first-merged stretched pieces; do
    t0=$(date +%s)
    out=$($C $A --waits "$w" -j 0) || echo "bench model_check: $w failed" >&2
    echo "  --waits $w ($(($(date +%s) - t0)) s, solves and simulation)"
    printf '%s\n' "$out" | sed -n '1,6p' | sed 's/^/    /'
done
echo "  --policy nona-late (parts bound when needed, the default aged waits; #26)"
$C $A --policy nona-late -j 0 | sed -n '1,6p' | sed 's/^/    /' || echo "bench model_check: nona-late failed" >&2
