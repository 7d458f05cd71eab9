#!/bin/sh
# bco_cli.sh - `contend bco` from the outside: workload, schedule, sweep,
# validate, errors.
set -u
. tests/cli-lib.sh

$C bco workload --seed 3 -o "$T/w" >/dev/null || fail "workload"
[ -f "$T/w/cluster.json" ] && [ -f "$T/w/jobs.json" ] || fail "workload files"
$C bco workload --seed 3 -o "$T/w2" >/dev/null
cmp -s "$T/w/jobs.json" "$T/w2/jobs.json" || fail "workload is not deterministic for a seed"
$C bco schedule "$T/w/cluster.json" "$T/w/jobs.json" --json -o "$T/s.json" >"$T/sum" || fail "schedule"
for k in makespan mean_jct theta_u kappa; do
    grep -q "\"$k\"" "$T/sum" || fail "schedule --json lacks $k"
done
grep -q '"format":[[:space:]]*"contend-schedule/1"' "$T/s.json" || fail "schedule format tag"
grep -q '"gpus_per_server"' "$T/s.json" && grep -q '"expected_completion"' "$T/s.json" || fail "schedule fields"
# SJF-BCO beats every baseline on the paper's workload.
m() { $C bco schedule "$T/w/cluster.json" "$T/w/jobs.json" --policy "$1" --json | sed 's/.*"makespan": \([0-9.e+]*\),.*/\1/'; }
sjf=$(m sjf-bco)
for p in ff ls rand; do
    awk -v a="$sjf" -v b="$(m $p)" 'BEGIN { exit !(a < b) }' || fail "sjf-bco ($sjf) not below $p"
done
$C bco sweep "$T/w/cluster.json" "$T/w/jobs.json" --vary lambda -o "$T/l.csv" >/dev/null || fail "sweep lambda"
head -1 "$T/l.csv" | grep -q "^vary,value,policy,makespan" || fail "sweep header"
[ "$(wc -l <"$T/l.csv")" -eq 5 ] || fail "lambda sweep rows"
$C bco validate --random 10 --json | grep -q '"theorem5_violations": 0' || fail "validate --random"
# Errors.
printf '{"jobs": [{"id": "big", "gpus": 999, "iterations": 10, "gradient_size": 1, "batch": 1, "forward_time": 0.01, "backward_time": 0.01}]}' >"$T/big.json"
expect_error 2 "job 'big' needs 999 GPUs" -- $C bco schedule "$T/w/cluster.json" "$T/big.json" -o "$T/out.json"
expect_error 2 "missing.json: cannot open" -- $C bco schedule "$T/w/cluster.json" "$T/missing.json" -o "$T/out.json"
expect_error 2 "--policy" -- $C bco schedule --policy best "$T/w/cluster.json" "$T/w/jobs.json"
finish
