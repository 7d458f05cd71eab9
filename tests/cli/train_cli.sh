#!/bin/sh
# train_cli.sh - `contend train` from the outside: workload (deterministic,
# scaled), run (summary, JSON, per-job CSV), sweep, the placement ordering on
# generated workloads, the compat switch, errors.
set -u
. tests/cli-lib.sh

$C train workload --seed 4 --scale 100 -o "$T/w.json" >/dev/null || fail "workload"
$C train workload --seed 4 --scale 100 -o "$T/w2.json" >/dev/null
cmp -s "$T/w.json" "$T/w2.json" || fail "workload is not deterministic for a seed"
$C train run "$T/w.json" --json -o "$T/jobs.csv" >"$T/sum" || fail "run"
for k in mean_jct_ms median_jct_ms p95_jct_ms makespan_ms utilization events; do
    grep -q "\"$k\"" "$T/sum" || fail "run --json lacks $k"
done
head -1 "$T/jobs.csv" | grep -q "^id,arrival_ms,start_ms,end_ms,jct_ms,queued_ms,comm_ms,comm_wait_ms,servers,gpus" ||
    fail "per-job CSV header"
[ "$(wc -l <"$T/jobs.csv")" -eq 161 ] || fail "per-job CSV rows"
# LWF-1 below FF, LS and RAND (Ada-SRSF admission), exact accounting.
m() { $C train run "$T/w.json" --json "$@" | sed 's/.*"mean_jct_ms": \([0-9.e+]*\),.*/\1/'; }
lwf=$(m)
for p in ff ls rand; do
    awk -v a="$lwf" -v b="$(m --placement $p)" 'BEGIN { exit !(a < b) }' || fail "lwf1 ($lwf) not below $p"
done
# Compat credits free progress: lower JCT under AdaDUAL.
awk -v a="$(m --compat)" -v b="$lwf" 'BEGIN { exit !(a < b) }' || fail "compat does not lower the JCT"
$C train run "$T/w.json" --gpu-mode exclusive >/dev/null || fail "exclusive GPUs"
$C train sweep "$T/w.json" -o "$T/s.csv" >/dev/null || fail "sweep"
[ "$(wc -l <"$T/s.csv")" -eq 33 ] || fail "sweep rows"
printf '{"servers": 2, "gpus_per_server": 2, "gpu_mode": "exclusive"}' >"$T/c.json"
printf '{"jobs": [{"id": "a", "arrival": 0, "gpus": 2, "iterations": 3, "size": 10, "forward": 10, "backward": 20, "memory": 1}]}' >"$T/j.json"
$C train run "$T/j.json" --cluster "$T/c.json" --json | grep -q '"mean_jct_ms": 90,' || fail "a one-server job: JCT 90 ms"
# Errors.
expect_error 2 "--placement" -- $C train run --placement best "$T/w.json"
expect_error 2 "--admission" -- $C train run --admission never "$T/w.json"
expect_error 2 "missing.json: cannot open" -- $C train run "$T/missing.json"
printf '{"servers": 0}' >"$T/bad.json"
expect_error 2 "servers" -- $C train run "$T/w.json" --cluster "$T/bad.json"
printf '{"jobs": [{"id": "a", "arrival": 0, "gpus": 99, "iterations": 3, "size": 10, "forward": 10, "backward": 20, "memory": 1}]}' >"$T/big.json"
expect_error 2 "needs 99 GPUs" -- $C train run "$T/big.json"
finish
