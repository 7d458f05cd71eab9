#!/bin/sh
# bco_cli.sh - `contend bco` from the outside: workload and its
# calibrations, schedule (format 2: re-simulated start beside the plan),
# sweep, validate (the bundled counterexamples, the random families,
# per-instance CSV, saved counterexamples, --strict), errors.
set -u
. tests/cli-lib.sh

$C bco workload --seed 3 -o "$T/w" >/dev/null || fail "workload"
[ -f "$T/w/cluster.json" ] && [ -f "$T/w/jobs.json" ] || fail "workload files"
$C bco workload --seed 3 -o "$T/w2" >/dev/null
cmp -s "$T/w/jobs.json" "$T/w2/jobs.json" || fail "workload is not deterministic for a seed"
$C bco workload --seed 3 --calibration best -o "$T/wb" >/dev/null || fail "workload --calibration best"
cmp -s "$T/w/jobs.json" "$T/wb/jobs.json" && fail "the calibrations give the same jobs"
$C bco workload --seed 3 --jobs 320 -o "$T/w320" | grep -q "(320 jobs)" || fail "workload --jobs"
$C bco schedule "$T/w/cluster.json" "$T/w/jobs.json" --json -o "$T/s.json" >"$T/sum" || fail "schedule"
for k in makespan mean_jct theta_u theta_range horizon kappa; do
    grep -q "\"$k\"" "$T/sum" || fail "schedule --json lacks $k"
done
grep -q '"format":[[:space:]]*"contend-schedule/2"' "$T/s.json" || fail "schedule format tag"
for k in gpus_per_server start completion planned_start expected_completion; do
    grep -q "\"$k\"" "$T/s.json" || fail "schedule lacks $k"
done
# SJF-BCO is lowest on the paper's workload (its calibration).
m() { $C bco schedule "$T/w/cluster.json" "$T/w/jobs.json" --policy "$@" --json | sed 's/.*"makespan": *\([0-9.e+]*\),.*/\1/'; }
sjf=$(m sjf-bco)
for p in ff ls rand; do
    awk -v a="$sjf" -v b="$(m $p)" 'BEGIN { exit !(a <= b) }' || fail "sjf-bco ($sjf) above $p"
done
# The scan does not depend on the horizon here; the paper's bisection is kept.
[ "$(m sjf-bco --horizon 2000)" = "$sjf" ] || fail "scan result moved with the horizon"
[ "$(m sjf-bco --horizon auto)" = "$sjf" ] || fail "scan result moved with --horizon auto"
m sjf-bco --search bisect >/dev/null || fail "--search bisect"
m sjf-bco --resim planned >/dev/null || fail "--resim planned"
$C bco sweep "$T/w/cluster.json" "$T/w/jobs.json" --vary lambda -o "$T/l.csv" >/dev/null || fail "sweep lambda"
head -1 "$T/l.csv" | grep -q "^vary,value,policy,makespan" || fail "sweep header"
[ "$(wc -l <"$T/l.csv")" -eq 5 ] || fail "lambda sweep rows"
[ "$(tail -n +2 "$T/l.csv" | cut -d, -f8 | sort -u)" = "1" ] || fail "lambda sweep does not fix kappa = 1"

# The bundled counterexamples, with their numbers.
D=data/bco
$C bco validate $D/p2-cmax/cluster.json $D/p2-cmax/jobs.json >"$T/v" || fail "validate p2-cmax"
grep -q "Lemma 4: theta_u~ 70 <= phi (u/l) theta_u\* + 1 = 61: VIOLATED" "$T/v" || fail "p2-cmax Lemma 4"
grep -q "T\* = 60 (exhaustive); Theorem 5: makespan 70.0 <= n_g phi (u/l) T\* = 60: VIOLATED" "$T/v" ||
    fail "p2-cmax Theorem 5"
$C bco validate --strict $D/p2-cmax/cluster.json $D/p2-cmax/jobs.json >/dev/null 2>&1
[ $? -eq 1 ] || fail "validate --strict: a violation must exit 1"
$C bco validate $D/spread-lemma3/cluster.json $D/spread-lemma3/jobs.json >"$T/v" || fail "validate spread-lemma3"
grep -q "Lemma 3: makespan 52.0 <= n_g W_max = 24.0 (whole slots per job: W 12): VIOLATED" "$T/v" ||
    fail "spread-lemma3 Lemma 3"

# An ILP past its time limit answers with a bracket, not a hang.
$C bco workload --seed 2 --jobs 12 --servers 2 -o "$T/ilp" >/dev/null || fail "workload --jobs 12"
$C bco validate "$T/ilp/cluster.json" "$T/ilp/jobs.json" --ilp-seconds 0.2 >"$T/v" || fail "validate --ilp-seconds"
grep -q "theta_u\* in \[.*\] (ILP not proven within the time limit: bound, incumbent)" "$T/v" ||
    fail "time-limited ILP: $(cat "$T/v")"

# Random families: tiny never refutes; identical machines do.
$C bco validate --random 12 --family tiny --json >"$T/v" || fail "validate --random tiny"
grep -q '"theorem5": *{"holds": *12, *"violated": *0' "$T/v" || fail "tiny family: $(cat "$T/v")"
$C bco validate --random 20 --family identical -o "$T/inst.csv" --save-counterexamples "$T/ce" >"$T/v" ||
    fail "validate --random identical"
grep -q "smallest Theorem 5 counterexample" "$T/v" || fail "no Theorem 5 counterexample among identical machines"
[ "$(wc -l <"$T/inst.csv")" -eq 21 ] || fail "per-instance CSV rows"
grep -q ",VIOLATED" "$T/inst.csv" || fail "per-instance CSV verdicts"
$C bco validate --strict "$T/ce/theorem5-cluster.json" "$T/ce/theorem5-jobs.json" >/dev/null 2>&1
[ $? -eq 1 ] || fail "a saved counterexample does not reproduce"
$C bco validate --random 20 --family identical --strict >/dev/null 2>&1
[ $? -eq 1 ] || fail "validate --random --strict: violations must exit 1"

# Errors.
printf '{"jobs": [{"id": "big", "gpus": 999, "iterations": 10, "gradient_size": 1, "batch": 1, "forward_time": 0.01, "backward_time": 0.01}]}' >"$T/big.json"
expect_error 2 "job 'big' needs 999 GPUs" -- $C bco schedule "$T/w/cluster.json" "$T/big.json" -o "$T/out.json"
expect_error 2 "missing.json: cannot open" -- $C bco schedule "$T/w/cluster.json" "$T/missing.json" -o "$T/out.json"
# The first bad job is the one reported, even when later ones are fine.
printf '{"jobs": [{"id": "a", "gpus": 0, "iterations": 1, "gradient_size": 1, "batch": 1, "forward_time": 0, "backward_time": 0}, {"id": "b", "gpus": 1, "iterations": 1, "gradient_size": 1, "batch": 1, "forward_time": 0, "backward_time": 0}]}' >"$T/bad.json"
expect_error 2 "jobs[0].gpus: expected a whole number >= 1" -- $C bco schedule "$T/w/cluster.json" "$T/bad.json"
printf '{"jobs": [{"id": "a", "gpus": 1, "iterations": 1, "gradient_size": 1, "batch": 1, "forward_time": 0, "backward_time": 1}, {"id": "a", "gpus": 1, "iterations": 1, "gradient_size": 1, "batch": 1, "forward_time": 0, "backward_time": 1}]}' >"$T/dup.json"
expect_error 2 "jobs[1].id: duplicate job id 'a'" -- $C bco schedule "$T/w/cluster.json" "$T/dup.json"
expect_error 2 "--policy" -- $C bco schedule --policy best "$T/w/cluster.json" "$T/w/jobs.json"
expect_error 2 "--search" -- $C bco schedule --search binary "$T/w/cluster.json" "$T/w/jobs.json"
expect_error 2 "--horizon" -- $C bco schedule --horizon 0 "$T/w/cluster.json" "$T/w/jobs.json"
expect_error 2 "--calibration" -- $C bco workload --calibration worst -o "$T/x"
expect_error 2 "--ilp-seconds" -- $C bco validate --random 2 --ilp-seconds -1
expect_error 2 "--family" -- $C bco validate --random 2 --family odd
expect_error 2 "theta_u must be at least" -- $C bco schedule --horizon 5 "$T/w/cluster.json" "$T/w/jobs.json"
[ ! -e "$T/out.json" ] || fail "a failed schedule left its output"
finish
