#!/bin/sh
# train_cli.sh - `contend train` from the outside: workload (deterministic,
# scaled; a generated trace), run (summary, JSON, per-job CSV), sweep, the placement ordering on
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
# The table sweep prints: mean JCT per policy over the files, exact and compat.
$C train workload --seed 5 --scale 100 -o "$T/w5.json" >/dev/null
$C train sweep "$T/w.json" "$T/w5.json" -o "$T/s2.csv" >"$T/s2.txt" || fail "sweep of two files"
want=$(awk -F, 'NR > 1 && $2 == "ff+srsf2" { s[$3] += $4; n[$3]++ } END { printf "%.1f %.1f", s["exact"] / n["exact"], s["compat"] / n["compat"] }' "$T/s2.csv")
[ "$(awk '$1 == "ff+srsf2" { print $2, $3 }' "$T/s2.txt")" = "$want" ] || fail "sweep's table: ff+srsf2 is not '$want': $(cat "$T/s2.txt")"
grep -q "^mean JCT over the 2 files, ms" "$T/s2.txt" || fail "sweep's table heading"
printf '{"servers": 2, "gpus_per_server": 2, "gpu_mode": "exclusive"}' >"$T/c.json"
printf '{"jobs": [{"id": "a", "arrival": 0, "gpus": 2, "iterations": 3, "size": 10, "forward": 10, "backward": 20, "memory": 1}]}' >"$T/j.json"
$C train run "$T/j.json" --cluster "$T/c.json" --json | grep -q '"mean_jct_ms": 90,' || fail "a one-server job: JCT 90 ms"
# A generated trace (Philly-like, --jobs N): deterministic, N jobs, sized to
# the cluster, runs; the queue grows above load 1.
printf '{"servers": 2, "gpus_per_server": 4}' >"$T/c8.json"
$C train workload --jobs 300 --load 3 --cluster "$T/c8.json" --seed 9 -o "$T/t1.json" >/dev/null || fail "workload --jobs"
$C train workload --jobs 300 --load 3 --cluster "$T/c8.json" --seed 9 -o "$T/t2.json" >/dev/null
cmp -s "$T/t1.json" "$T/t2.json" || fail "workload --jobs is not deterministic for a seed"
[ "$(grep -o '"gpus"' "$T/t1.json" | wc -l)" -eq 300 ] || fail "workload --jobs 300: job count"
grep -q '"gpus": 16' "$T/t1.json" && fail "workload --jobs: a 16-GPU job on an 8-GPU cluster"
q() { $C train run "$1" --cluster "$T/c8.json" --json | sed 's/.*"mean_jct_ms": \([0-9.e+]*\),.*/\1/'; }
$C train workload --jobs 300 --load 0.3 --cluster "$T/c8.json" --seed 9 -o "$T/t3.json" >/dev/null
awk -v a="$(q "$T/t3.json")" -v b="$(q "$T/t1.json")" 'BEGIN { exit !(a < b) }' || fail "load 3: mean JCT not above load 0.3's"
expect_error 2 "--jobs (a generated trace) and --scale" -- $C train workload --jobs 5 --scale 100 -o "$T/x.json"
expect_error 2 "--load" -- $C train workload --jobs 5 --load 0 -o "$T/x.json"
# Errors.
expect_error 2 "--placement" -- $C train run --placement best "$T/w.json"
expect_error 2 "--admission" -- $C train run --admission never "$T/w.json"
expect_error 2 "missing.json: cannot open" -- $C train run "$T/missing.json"
printf '{"servers": 0}' >"$T/bad.json"
expect_error 2 "servers" -- $C train run "$T/w.json" --cluster "$T/bad.json"
printf '{"jobs": [{"id": "a", "arrival": 0, "gpus": 99, "iterations": 3, "size": 10, "forward": 10, "backward": 20, "memory": 1}]}' >"$T/big.json"
expect_error 2 "needs 99 GPUs" -- $C train run "$T/big.json"
finish
