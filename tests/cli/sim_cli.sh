#!/bin/sh
# sim_cli.sh - `contend sim` and `contend sim sweep` from the outside.
set -u
. tests/cli-lib.sh

$C sim data/scenarios/fig1.json --policy local --load 0.2 --reps 2 --jobs 2000 >"$T/out" || fail "sim"
grep -q "^all " "$T/out" || fail "sim prints an 'all' row"
grep -q "M events/s" "$T/out" || fail "sim prints the event rate"
$C sim data/scenarios/fig1.json --policy nona --load 0.2 --reps 2 --jobs 2000 --json >"$T/j" || fail "sim --json"
for k in mean_jct p50_jct p95_jct p99_jct link_util server_util model_mean_jct; do
    grep -q "\"$k\"" "$T/j" || fail "sim --json lacks $k"
done
# Same seed, same numbers.
$C sim data/scenarios/fig1.json --policy nona --load 0.2 --reps 2 --jobs 2000 --json | sed 's/"seconds": [^}]*//' >"$T/j2"
sed 's/"seconds": [^}]*//' "$T/j" | cmp -s - "$T/j2" || fail "sim is not deterministic"

# Sweep: CSV with the promised columns, a row per policy x load x class
# (plus "all"), and the ratio table on stdout.
$C sim sweep data/scenarios/fig1.json --loads 0.1:0.3:0.1 --policies nona,local,fair,random --reps 2 --jobs 1000 \
    -o "$T/r.csv" >"$T/table" || fail "sim sweep"
head -1 "$T/r.csv" | grep -q "^policy,load,bandwidth,class,mean_jct,mean_jct_ci95,p50_jct,p95_jct,p99_jct" || fail "CSV header"
[ "$(wc -l <"$T/r.csv")" -eq $((1 + 3 * 4 * 2)) ] || fail "CSV rows: $(wc -l <"$T/r.csv")"
grep -q "^nona,0.1,.*,all," "$T/r.csv" || fail "CSV has class all"
grep -q "unstable" "$T/r.csv" || fail "random should be unstable on fig1 (200 MB transfers)"
grep -q "\[1\]" "$T/table" || fail "ratio table"
# The p99 table beside the mean's: nona's p99 at load 0.2 as in the CSV.
p99=$(awk -F, '$1 == "nona" && $2 == 0.2 && $4 == "all" { printf "%.3g", $9 }' "$T/r.csv")
sed -n '/p99 JCT of all jobs/,$p' "$T/table" | grep -q "^0.20 *${p99}s\[1\]" || fail "p99 table: $p99: $(cat "$T/table")"
$C sim sweep data/scenarios/fig1.json --bandwidths 5e9:2e10:5e9 --load 0.1 --policies nona,local --reps 1 --jobs 500 \
    -o "$T/b.csv" >/dev/null || fail "bandwidth sweep"
grep -q "^nona,0.1,2e+10,all," "$T/b.csv" || fail "bandwidth sweep rows: $(grep all "$T/b.csv" | head -2)"

# Errors.
$C sim sweep data/scenarios/fig1.json --loads 0.1:0.2:0.1 --policies nona,bogus -o "$T/x.csv" 2>"$T/e" >/dev/null
[ $? -eq 2 ] && grep -q "unknown policy 'bogus'" "$T/e" && [ ! -e "$T/x.csv" ] || fail "unknown policy"
$C sim sweep data/scenarios/fig1.json --loads 0.1:1.5:0.1 -o "$T/x.csv" 2>"$T/e" >/dev/null
[ $? -eq 2 ] && grep -q -- "--loads" "$T/e" || fail "load >= 1 refused"
$C sim data/scenarios/fig1.json --policy random --load 0.5 --reps 1 --jobs 500 2>"$T/e" >/dev/null
[ $? -eq 2 ] && grep -q "unstable" "$T/e" || fail "unstable single run: exit 2 with a message"

# Instability is judged from the backlog's trend, not from a cap: random on
# the ensemble at load 0.5 piles up (its mean JCT would grow with the run
# length); nona there is steady: two run lengths agree within their intervals.
$C sim data/scenarios/ensemble.json --policy random --load 0.5 --reps 2 --jobs 4000 2>"$T/e" >"$T/o"
[ $? -eq 2 ] && grep -q "unstable at load 0.5: jobs in flight kept rising, from .* in the window's first quarter to .* in its last" "$T/e" ||
    fail "random ensemble: $(cat "$T/e")"
[ ! -s "$T/o" ] || fail "unstable run printed a table: $(cat "$T/o")"
[ "$(wc -l <"$T/e")" -eq 1 ] || fail "unstable: not one line"
# --json: the document still comes, with the verdict and the trend
$C sim data/scenarios/ensemble.json --policy random --load 0.5 --reps 2 --jobs 4000 --json 2>/dev/null >"$T/o"
[ $? -eq 2 ] && grep -q '"stable": false, "classes": \[\], "backlog": \[' "$T/o" || fail "unstable --json: $(cat "$T/o")"
for n in 4000 16000; do
    $C sim data/scenarios/ensemble.json --policy nona --load 0.5 --reps 4 --jobs $n --json >"$T/n$n" || fail "nona $n"
done
m1=$(sed 's/.*"name": "all", "mean_jct": \([^,]*\), "mean_jct_ci95": \([^,]*\),.*/\1 \2/' "$T/n4000")
m2=$(sed 's/.*"name": "all", "mean_jct": \([^,]*\), "mean_jct_ci95": \([^,]*\),.*/\1 \2/' "$T/n16000")
echo "$m1 $m2" | awk '{ d = $1 - $3; if (d < 0) d = -d; exit !(d <= $2 + $4) }' || fail "run lengths disagree: $m1 vs $m2"
# Options of the simulator's judge: queue discipline and fair's server choice.
$C sim data/scenarios/fig1.json --policy local --load 0.2 --reps 1 --jobs 1000 --server-queue fifo >/dev/null || fail "--server-queue fifo"
$C sim data/scenarios/fig1.json --policy fair --load 0.2 --reps 1 --jobs 1000 --fair-pick random >/dev/null || fail "--fair-pick random"
# --exp-service: the one-task counterexample's 10 ms task becomes exponential
# (p99 about 46 ms under fair at load 0.5, 10 ms as given).
p99() { sed -n 's/.*"p99_jct": \([-0-9.e+]*\).*/\1/p' "$1" | head -1; }
$C sim data/counterexamples/one-task.json --policy fair --load 0.5 --reps 1 --jobs 5000 --json >"$T/det.json" &&
    $C sim data/counterexamples/one-task.json --policy fair --load 0.5 --reps 1 --jobs 5000 --exp-service --json \
        >"$T/exp.json" || fail "sim one-task --exp-service"
awk -v d="$(p99 "$T/det.json")" -v e="$(p99 "$T/exp.json")" 'BEGIN { exit !(d < 0.0105 && e > 0.035 && e < 0.06) }' ||
    fail "--exp-service: p99 $(p99 "$T/exp.json") s (as given $(p99 "$T/det.json") s), want about 0.046 (0.010)"
# --rtt: fair's launch waits one round trip (the one-task job at load 0.1
# takes 10 ms + 1 ms), a stateless table (uniform roots) none (the same
# JSON as without); bad values refused in one line.
mean() { sed -n 's/.*"name": "all", "mean_jct": \([-0-9.e+]*\).*/\1/p' "$1" | head -1; }
$C sim data/counterexamples/one-task.json --policy fair --load 0.1 --reps 1 --jobs 2000 --rtt 0.001 --json \
    >"$T/rtt.json" || fail "sim --rtt"
awk -v m="$(mean "$T/rtt.json")" 'BEGIN { exit !(m > 0.0109 && m < 0.0112) }' ||
    fail "--rtt 0.001: fair's mean $(mean "$T/rtt.json") s, want about 0.011"
for r in 0 0.001; do
    $C sim data/counterexamples/one-task.json --policy nona --root-choices 1 --load 0.5 --reps 1 --jobs 2000 \
        --rtt $r --json | sed 's/"seconds": [^}]*//' >"$T/rtt$r.json" || fail "sim nona --rtt $r"
done
cmp -s "$T/rtt0.json" "$T/rtt0.001.json" || fail "--rtt changed a stateless table's run"
# Probes under a round trip: a part's other reservations are cancelled once
# it is taken, so a busy server does not ask for each stale one in turn
# (asking cost 31 round trips a part with d = 32: unstable at load 0.9).
for r in 0 0.0001; do
    $C sim data/counterexamples/four-tasks.json --policy nona-late --late-bind probes --root-choices 32 --load 0.9 \
        --reps 2 --jobs 5000 --rtt $r --json >"$T/pr$r.json" || fail "probes --rtt $r at load 0.9"
done
awk -v a="$(mean "$T/pr0.json")" -v b="$(mean "$T/pr0.0001.json")" 'BEGIN { exit !(b < 1.1 * a) }' ||
    fail "probes with --rtt 0.0001: mean $(mean "$T/pr0.0001.json") s against $(mean "$T/pr0.json") s without"
for bad in -1 x 11; do
    $C sim data/counterexamples/one-task.json --rtt "$bad" 2>"$T/e" >/dev/null
    [ $? -eq 2 ] && grep -q -- "--rtt" "$T/e" && [ "$(wc -l <"$T/e")" -eq 1 ] || fail "--rtt $bad: $(cat "$T/e")"
    $C sim data/counterexamples/one-task.json --table-rtt "$bad" 2>"$T/e" >/dev/null
    [ $? -eq 2 ] && grep -q -- "--table-rtt" "$T/e" && [ "$(wc -l <"$T/e")" -eq 1 ] ||
        fail "--table-rtt $bad: $(cat "$T/e")"
done
# The tables are solved for the round trip simulated (--table-rtt 0: as
# before 2026-11-29): fig1 late-bound at load 0.1 with 1 ms simulates
# 19.0 ms; the table solved for it predicts 18.9 ms, the one without 17.1
# ms (a root and a part each start a round trip later).
model() { sed -n 's/.*"model_mean_jct": \([-0-9.e+]*\).*/\1/p' "$1" | head -1; }
for tr in 0.001 0; do
    $C sim data/scenarios/fig1.json --policy nona-late --load 0.1 --reps 1 --jobs 2000 --rtt 0.001 --table-rtt $tr \
        --json >"$T/tr$tr.json" || fail "sim --table-rtt $tr"
done
awk -v s="$(mean "$T/tr0.001.json")" -v a="$(model "$T/tr0.001.json")" -v b="$(model "$T/tr0.json")" \
    'BEGIN { exit !(a > 0.97 * s && a < 1.03 * s && b < 0.93 * s) }' ||
    fail "--rtt 0.001: simulated $(mean "$T/tr0.001.json"), predicted $(model "$T/tr0.001.json") (--table-rtt 0: $(model "$T/tr0.json"))"
# --sampling (docs/model-checks.md, "Finite servers"): five-models-cpu
# late-bound on the least loaded of 32 at load 0.9 simulates the same table
# either way; finite sampling predicts it within 10% (the busy count
# spreads: 32 samples all find busy servers at times), the mean field's
# rho^32 more than 15% short.
for sm in finite mean-field; do
    $C sim data/scenarios/five-models-cpu.json --policy nona-late --root-choices 32 --load 0.9 --reps 1 --jobs 5000 \
        --sampling $sm --json >"$T/sm-$sm.json" || fail "sim --sampling $sm"
done
awk -v s="$(mean "$T/sm-finite.json")" -v f="$(model "$T/sm-finite.json")" -v s2="$(mean "$T/sm-mean-field.json")" \
    -v m="$(model "$T/sm-mean-field.json")" 'BEGIN { exit !(s == s2 && f > 0.9 * s && f < 1.1 * s && m < 0.85 * s) }' ||
    fail "--sampling at 0.9: simulated $(mean "$T/sm-finite.json"), predicted $(model "$T/sm-finite.json") finite, $(model "$T/sm-mean-field.json") mean-field"
expect_error 2 "--sampling: expected auto, finite or mean-field" -- $C sim data/scenarios/fig1.json --sampling uniform
# --price-spread (docs/baselines.md, "Without queue lengths"): on the
# generated layered-309 with uniform roots at load 0.5, column generation at
# the all-local table's waits finds no split (no split pays alone there;
# --spread-gap 0, the default before 2026-11-28); priced at a spread of
# waits too, the table splits and the model predicts it well below
# all-local (0.250 s against 0.305 s).
predicted() { sed -n 's/.*"model_mean_jct": \([-0-9.e+]*\).*/\1/p' "$1" | head -1; }
$C sim check --generate 1 --family layered --gen-seed 309 --stages 2:6 --loads 0.5:0.5:0.1 --reps 1 --jobs 200 \
    --root-choices 1 --save "$T/l309" >/dev/null 2>&1 || fail "sim check --save layered-309"
$C sim "$T/l309/layered-309.json" --root-choices 1 --load 0.5 --reps 1 --jobs 500 --json --spread-gap 0 >"$T/l0.json" &&
    $C sim "$T/l309/layered-309.json" --root-choices 1 --load 0.5 --reps 1 --jobs 500 --json --price-spread \
        >"$T/l1.json" || fail "sim layered-309 --price-spread"
awk -v a="$(predicted "$T/l0.json")" -v b="$(predicted "$T/l1.json")" 'BEGIN { exit !(b < 0.9 * a) }' ||
    fail "--price-spread: predicted $(predicted "$T/l1.json") s, --spread-gap 0 $(predicted "$T/l0.json") s: want a split"
# --spread-gap (default 0.007): the spread only where the column gap at the
# table's waits is above that share of J (the all-local table leaves most
# of J unproven there), so the default finds the same split
$C sim "$T/l309/layered-309.json" --root-choices 1 --load 0.5 --reps 1 --jobs 500 --json \
    >"$T/l2.json" || fail "sim layered-309 (default spread gap)"
awk -v a="$(predicted "$T/l0.json")" -v b="$(predicted "$T/l2.json")" 'BEGIN { exit !(b < 0.9 * a) }' ||
    fail "default --spread-gap: predicted $(predicted "$T/l2.json") s, --spread-gap 0 $(predicted "$T/l0.json") s: want a split"
# A solve whose later searches generate columns and drift to a worse fixed
# point of the shares reports the best table it found at its own shares:
# layered-3022 at 0.7 with --spread-gap 0.01 (the default then) predicted
# 0.2355 s where the first search (--spread-gap 0's table) proved all-local
# at 0.2155 s.
$C sim check --generate 1 --family layered --gen-seed 3022 --stages 2:10 --loads 0.7:0.7:0.1 --reps 1 --jobs 200 \
    --save "$T/l3022" >/dev/null 2>&1 || fail "sim check --save layered-3022"
$C sim "$T/l3022/layered-3022.json" --load 0.7 --reps 1 --jobs 1000 --json --spread-gap 0 --late-waits uniform \
    >"$T/m0.json" && $C sim "$T/l3022/layered-3022.json" --load 0.7 --reps 1 --jobs 1000 --json >"$T/m1.json" ||
    fail "sim layered-3022"
awk -v a="$(predicted "$T/m0.json")" -v b="$(predicted "$T/m1.json")" 'BEGIN { exit !(b <= a * (1 + 1e-9)) }' ||
    fail "default --spread-gap: predicted $(predicted "$T/m1.json") s, above --spread-gap 0's $(predicted "$T/m0.json") s"
# Late intrusions (docs/model-checks.md, "Late intrusions"): on
# layered-2022 at 0.7 (four stages, two of three parts late) the default
# late model predicts its table within 10%; a late part's first wait
# stretched by its age (--late-first aged, the model before) charges it
# twice a root's and predicts 14% high.
$C sim check --generate 1 --gen-seed 2022 --loads 0.7:0.7:0.1 --reps 1 --jobs 200 --save "$T/l2022" >/dev/null 2>&1 ||
    fail "sim check --save layered-2022"
for lf in root aged; do
    $C sim "$T/l2022/layered-2022.json" --policy nona-late --load 0.7 --reps 1 --jobs 10000 --json --late-first $lf \
        >"$T/lf-$lf.json" || fail "sim --late-first $lf"
done
awk -v s="$(mean "$T/lf-root.json")" -v r="$(model "$T/lf-root.json")" -v s2="$(mean "$T/lf-aged.json")" \
    -v a="$(model "$T/lf-aged.json")" 'BEGIN { exit !(s > 0.9 * r && s < 1.1 * r && s2 < 0.9 * a) }' ||
    fail "--late-first: simulated $(mean "$T/lf-root.json") / predicted $(model "$T/lf-root.json") (root), $(mean "$T/lf-aged.json") / $(model "$T/lf-aged.json") (aged)"
# Virtual roots (docs/model-checks.md, "Virtual roots"): layered-2014's
# first stage has four tasks; with --virtual-root part only the root's part
# waits for the root's server, which moves its table and prediction (J at
# a table is never above the default's, tests/unit/nona_model.c; the
# optimum found is: column generation stops at another fixed point). On
# layered-2022 (one source task) the option changes nothing.
$C sim check --generate 1 --gen-seed 2014 --loads 0.5:0.5:0.1 --reps 1 --jobs 200 --save "$T/l2014" >/dev/null 2>&1 ||
    fail "sim check --save layered-2014"
for f in 2014 2022; do
    for vr in job part; do
        $C sim "$T/l$f/layered-$f.json" --policy nona-late --load 0.5 --reps 1 --jobs 1000 --json --virtual-root $vr \
            >"$T/vr-$f-$vr.json" || fail "sim layered-$f --virtual-root $vr"
    done
done
awk -v j="$(model "$T/vr-2014-job.json")" -v p="$(model "$T/vr-2014-part.json")" 'BEGIN { exit !(p > 0 && (p - j) ^ 2 > (0.01 * j) ^ 2) }' ||
    fail "--virtual-root part predicts $(model "$T/vr-2014-part.json") s on layered-2014, the default $(model "$T/vr-2014-job.json")"
cmp -s "$T/vr-2022-job.json" "$T/vr-2022-part.json" || [ "$(grep -v seconds "$T/vr-2022-job.json")" = "$(grep -v seconds "$T/vr-2022-part.json")" ] ||
    fail "--virtual-root part changed layered-2022, which has one source task"
for bad in "--server-queue lifo" "--fair-pick oldest" "--root-choices 0" "--model none" "--spread-gap -1" \
    "--late-waits some" "--late-bind early" "--late-first young" "--virtual-root all" "--transfers link"; do
    # shellcheck disable=SC2086
    $C sim data/scenarios/fig1.json $bad >/dev/null 2>"$T/e"
    [ $? -eq 2 ] && grep -q -- "${bad%% *}" "$T/e" || fail "$bad not refused"
done
# Parts that feed each other (docs/model-checks.md):
# on the N-shaped segment the solver puts d on another server than a, which
# feeds it. The paper's independent branches (--parts independent) predict
# far less than the simulator measures, with either model; the default
# (dependent parts) predicts it within 15% with server queueing.
ratio() { # sim options... -> simulated / predicted mean JCT
    $C sim data/scenarios/n-shape.json --policy nona --load 0.3 --reps 2 --jobs 5000 --json "$@" >"$T/n" || return 1
    awk '{ match($0, /"mean_jct": [0-9.e-]+/); s = substr($0, RSTART + 12, RLENGTH - 12)
        match($0, /"model_mean_jct": [0-9.e-]+/); p = substr($0, RSTART + 18, RLENGTH - 18); print s / p }' "$T/n"
}
for m in servers link; do
    r=$(ratio --model $m --parts independent) || fail "n-shape sim ($m, independent)"
    awk -v r="$r" 'BEGIN { exit !(r > 1.5) }' || fail "n-shape, $m, independent parts: simulated / predicted $r, expected > 1.5"
done
r=$(ratio) || fail "n-shape sim (dependent parts)"
awk -v r="$r" 'BEGIN { exit !(r > 0.87 && r < 1.15) }' || fail "n-shape, dependent parts: simulated / predicted $r"

# sim --by-task: fig1's four tasks, each with a wait >= 0 and an end after
# its inputs' ends; det runs after sum on the root's server (no wait there
# under the local table).
$C sim data/scenarios/fig1.json --policy local --by-task --json --reps 2 --jobs 2000 >"$T/bt.json" || fail "sim --by-task"
python3 - "$T/bt.json" <<'PYEOF' || fail "sim --by-task: per-task figures"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["id"]: x for x in d["classes"][0]["tasks"]}
assert set(t) == {"sum", "det", "det_sparse", "add"}, t
assert all(x["mean_wait"] >= 0 for x in t.values())
for a, b in [("sum", "det"), ("sum", "det_sparse"), ("det", "add"), ("det_sparse", "add")]:
    assert t[b]["mean_end"] >= t[a]["mean_end"] + t[b]["time"] - 1e-12, (a, b)
# the sink ends the job: its pooled mean end is the mean JCT (pooled, not per replication)
assert abs(t["add"]["mean_end"] - d["classes"][0]["mean_jct"]) < 0.01 * d["classes"][0]["mean_jct"]
PYEOF
$C sim data/scenarios/fig1.json --by-task --reps 2 --jobs 2000 | grep -q "^class fig1 by task" || fail "sim --by-task: table"
# ... and with a nona table the model's end of every task (the inner ones
# too), each within 10% of the simulated one on fig1 at load 0.7
$C sim data/scenarios/fig1.json --by-task --json --reps 2 --jobs 2000 --load 0.7 >"$T/btm.json" || fail "sim --by-task nona"
python3 - "$T/btm.json" <<'PYEOF' || fail "sim --by-task: the model's ends"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["classes"][0]["tasks"]
assert len(t) == 4 and all("model_end" in x for x in t), t
for x in t:
    assert abs(x["model_end"] / x["mean_end"] - 1) < 0.1, x
PYEOF

# sim check: two generated workloads and a file at two loads; a CSV row per
# point, a summary line per load and one in all; the same seed, the same rows.
$C sim check data/scenarios/fig1.json --generate 2 --gen-seed 5 --stages 2:4 --loads 0.3:0.6:0.3 --jobs 2000 \
    -o "$T/check.csv" >"$T/check.txt" || fail "sim check"
[ "$(wc -l <"$T/check.csv")" -eq 7 ] || fail "sim check: 6 points and a header: $(cat "$T/check.csv")"
grep -q "^layered-6,.*,0.6,.*,ok$" "$T/check.csv" || fail "sim check: generated rows: $(cat "$T/check.csv")"
grep -q "^all *6 " "$T/check.txt" || fail "sim check: summary: $(cat "$T/check.txt")"
$C sim check --generate 2 --gen-seed 5 --stages 2:4 --loads 0.3:0.6:0.3 --jobs 2000 -j 1 -o "$T/check2.csv" >/dev/null
grep layered "$T/check.csv" >"$T/c1"
tail -n +2 "$T/check2.csv" | cmp -s - "$T/c1" || fail "sim check: not reproducible for a seed"
# --save creates its folder (not its parents), and refuses a file
$C sim check --generate 1 --gen-seed 5 --stages 2:4 --loads 0.3:0.3:0.1 --jobs 1000 --save "$T/saved" >/dev/null ||
    fail "sim check --save"
$C dag check "$T/saved/layered-5-c0.json" >/dev/null || fail "sim check --save: the DAG"
$C sim "$T/saved/layered-5.json" --load 0.3 --reps 1 --jobs 1000 >/dev/null || fail "sim check --save: the scenario"
$C sim check --generate 1 --loads 0.3:0.3:0.1 --jobs 100 --save "$T/saved/layered-5.json" >/dev/null 2>"$T/err" &&
    fail "sim check --save FILE: accepted"
grep -q "layered-5.json: cannot create the folder: Not a directory" "$T/err" || fail "sim check --save FILE: $(cat "$T/err")"
# sim compare: every policy asked for on two generated ensembles at one load: a
# row per scenario x policy, a summary naming the best of each kind; shards merge
# to the same rows.
$C sim compare --generate 2 --family ensemble --gen-seed 3 --loads 0.5:0.5:0.1 --policies nona-late,random,fair \
    --reps 1 --jobs 1000 -o "$T/cmp.csv" >"$T/cmp.txt" || fail "sim compare"
[ "$(wc -l <"$T/cmp.csv")" -eq 7 ] || fail "sim compare: 6 rows and a header: $(cat "$T/cmp.csv")"
# (one replication: no confidence interval, an empty cell)
grep -q "^ensemble-4,.*,0.5,fair,[0-9.e-]*,,[0-9.e-]*,ok$" "$T/cmp.csv" || fail "sim compare: rows: $(cat "$T/cmp.csv")"
grep -q "best stateless: [a-z-]*, best stateful: fair" "$T/cmp.txt" || fail "sim compare: summary: $(cat "$T/cmp.txt")"
for i in 0 1; do
    $C sim compare --generate 2 --family ensemble --gen-seed 3 --loads 0.5:0.5:0.1 --policies nona-late,random,fair \
        --reps 1 --jobs 1000 --shard $i/2 -o "$T/cmp.part$i" >/dev/null || fail "sim compare --shard $i/2"
done
$C merge "$T/cmp.part0" "$T/cmp.part1" -o "$T/cmp2.csv" >/dev/null || fail "merge sim compare parts"
cmp -s "$T/cmp.csv" "$T/cmp2.csv" || fail "sim compare: shards merge to other rows"
$C sim check --generate 1 --family pipeline --gen-seed 2 --loads 0.3:0.3:0.1 --jobs 1000 -o "$T/pcheck.csv" >/dev/null ||
    fail "sim check --family pipeline"
grep -q "^pipeline-2," "$T/pcheck.csv" || fail "sim check --family pipeline: rows"
expect_error 2 "--family: expected layered, ensemble or pipeline" -- $C sim compare --generate 1 --family tree
expect_error 2 "compare: --policies: unknown" -- $C sim compare --generate 1 --policies nona,best
expect_error 2 "compare: give SCENARIO files, --generate N, or both" -- $C sim compare
expect_error 2 "check: give SCENARIO files, --generate N, or both" -- $C sim check
expect_error 2 "--stages: expected MIN:MAX" -- $C sim check --generate 1 --stages 5:2
expect_error 2 "--gbps" -- $C sim check --generate 1 --gbps 0
expect_error 2 "--waits: expected job-first, job-first-spread, job-first-merged, job-first-aged, stretched or pieces" -- $C nona solve data/scenarios/fig1.json --waits fast
# Spread waits inside a part (an option): recorded in the table and the JSON summary.
$C nona solve "$T/saved/layered-5.json" --waits job-first-spread -o "$T/spread.json" >/dev/null ||
    fail "nona solve --waits job-first-spread"
grep -q '"waits":[[:space:]]*"job-first-spread"' "$T/spread.json" || fail "--waits job-first-spread: not recorded"
$C nona solve "$T/saved/layered-5.json" --waits job-first-spread --json | grep -q '"waits":[[:space:]]*"job-first-spread"' ||
    fail "nona solve --json: waits job-first-spread missing"
# Merged visits (an option): recorded, and the solve's server row is then
# the pieces cut unless asked otherwise (--server-row auto, the default).
$C nona solve "$T/saved/layered-5.json" --waits job-first-merged --json >"$T/merged.json" ||
    fail "nona solve --waits job-first-merged"
grep -q '"waits":[[:space:]]*"job-first-merged"' "$T/merged.json" || fail "--waits job-first-merged: not in --json"
grep -q '"server_row":[[:space:]]*"pieces"' "$T/merged.json" || fail "--waits job-first-merged: row not the cut"
$C nona solve "$T/saved/layered-5.json" --waits job-first-merged --server-row linear --json |
    grep -q '"server_row":[[:space:]]*"linear"' || fail "--server-row linear with merged visits"
$C nona solve "$T/saved/layered-5.json" --waits job-first --json | grep -q '"server_row":[[:space:]]*"linear"' ||
    fail "job-first: the default row is not the linearised one"
$C nona solve "$T/saved/layered-5.json" --json | grep -q '"server_row":[[:space:]]*"pieces"' ||
    fail "aged waits (the default): the default row is not the pieces cut"
expect_error 2 "--server-row: expected auto, pieces or linear" -- $C sim "$T/saved/layered-5.json" --server-row cut
expect_error 2 "--bound: expected class-dual or lp" -- $C sim "$T/saved/layered-5.json" --bound dual
expect_error 2 "--stall: expected an integer >= 0" -- $C sim "$T/saved/layered-5.json" --stall -1
$C sim "$T/saved/layered-5.json" --stall 0 --jobs 200 --reps 1 >/dev/null || fail "sim --stall 0"
expect_error 2 "--stall-gap: expected a share of J, 0 .. 0.5" -- $C sim "$T/saved/layered-5.json" --stall-gap 1
expect_error 2 "--stall-close: expected a share of the gap, 0 .. 1" -- $C sim "$T/saved/layered-5.json" --stall-close x
$C sim "$T/saved/layered-5.json" --stall-gap 0.01 --stall-close 0.1 --jobs 200 --reps 1 >/dev/null ||
    fail "sim --stall-gap 0.01 --stall-close 0.1"
expect_error 2 "--pilot: expected LPs 0 .. 1e9" -- $C sim "$T/saved/layered-5.json" --pilot x
$C sim "$T/saved/layered-5.json" --pilot 0 --jobs 200 --reps 1 >/dev/null || fail "sim --pilot 0"
expect_error 2 "--pilot-swing: expected LPs 0 .. 1e9" -- $C sim "$T/saved/layered-5.json" --pilot-swing -3
$C sim "$T/saved/layered-5.json" --pilot-swing 0 --jobs 200 --reps 1 >/dev/null || fail "sim --pilot-swing 0"
expect_error 2 "--stall-large: expected LPs 0 .. 1e9" -- $C sim "$T/saved/layered-5.json" --stall-large 1e10
$C sim "$T/saved/layered-5.json" --stall-large 0 --jobs 200 --reps 1 >/dev/null || fail "sim --stall-large 0"
expect_error 2 "--pilot-first: expected 0 or 1" -- $C sim "$T/saved/layered-5.json" --pilot-first yes
expect_error 2 "stall-gap-large" -- $C sim "$T/saved/layered-5.json" --stall-gap-large 0.6
$C sim "$T/saved/layered-5.json" --pilot-first 0 --stall-gap-large 0 --jobs 200 --reps 1 >/dev/null ||
    fail "sim --pilot-first 0 --stall-gap-large 0"
expect_error 2 "--box-pairs: expected 0 or 1" -- $C sim "$T/saved/layered-5.json" --box-pairs 3
$C sim "$T/saved/layered-5.json" --box-pairs 0 --jobs 200 --reps 1 >/dev/null || fail "sim --box-pairs 0"
expect_error 2 "--search-warm: expected 0 or 1" -- $C sim "$T/saved/layered-5.json" --search-warm on
$C sim "$T/saved/layered-5.json" --search-warm 0 --jobs 200 --reps 1 >/dev/null || fail "sim --search-warm 0"
# The class dual through sim: a table solved with it simulates (layered-5's
# search under job-first waits closes without it: the same prediction).
a=$($C sim "$T/saved/layered-5.json" --policy nona --jobs 2000 --waits job-first --json | grep -o '"model_mean_jct":[^,]*')
b=$($C sim "$T/saved/layered-5.json" --policy nona --jobs 2000 --waits job-first --bound class-dual --json |
    grep -o '"model_mean_jct":[^,]*')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "sim --bound class-dual: '$b', without '$a'"
# Late-bound parts: the table records the rule, the simulator binds by it and
# the model predicts it (with background traffic: its jobs share the servers).
$C nona solve data/scenarios/ensemble.json --binding late -o "$T/late.json" >/dev/null || fail "nona solve --binding late"
grep -q '"part_binding":[[:space:]]*"late"' "$T/late.json" || fail "--binding late: not recorded in the table"
$C nona solve data/scenarios/ensemble.json -o "$T/early.json" >/dev/null || fail "nona solve"
grep -q part_binding "$T/early.json" && fail "an early table names a binding (early tables are as before)"
$C nona solve data/scenarios/ensemble.json --binding late --json | grep -q '"binding":[[:space:]]*"late"' ||
    fail "nona solve --json: no binding"
$C sim data/scenarios/ensemble.json --policy nona-late --load 0.5 --reps 1 --jobs 3000 >"$T/late.txt" ||
    fail "sim --policy nona-late"
grep -q "^policy nona-late" "$T/late.txt" && grep -q "model's predicted mean JCT" "$T/late.txt" ||
    fail "sim nona-late: $(cat "$T/late.txt")"
# The model's link wait for the table beside the simulated one: on n-shape
# at 0.3 (its link 29% busy) within 2x of each other; -1 for a baseline.
$C sim data/scenarios/n-shape.json --policy nona --load 0.3 --reps 2 --jobs 5000 --json >"$T/lw.json" ||
    fail "sim n-shape --json"
awk '{ match($0, /"link_wait": [0-9.e-]+/); s = substr($0, RSTART + 13, RLENGTH - 13)
    match($0, /"model_link_wait": [0-9.e-]+/); p = substr($0, RSTART + 19, RLENGTH - 19)
    exit !(p > 0 && s / p > 0.5 && s / p < 2) }' "$T/lw.json" ||
    fail "sim n-shape: the model's link wait against the simulated one: $(cat "$T/lw.json")"
# The wait at a batch's head (phi's like): a mean over some of the jobs'
# transfers, none above the per-transfer mean here by more than noise; -1 on
# a processor-sharing link.
awk '{ match($0, /"link_wait": [0-9.e-]+/); s = substr($0, RSTART + 13, RLENGTH - 13)
    match($0, /"link_head_wait": [0-9.e-]+/); h = substr($0, RSTART + 18, RLENGTH - 18)
    exit !(h > 0 && h < 1.1 * s) }' "$T/lw.json" ||
    fail "sim n-shape: the wait at a batch's head against the link's: $(cat "$T/lw.json")"
$C sim data/scenarios/n-shape.json --policy nona --load 0.3 --reps 1 --jobs 1000 --json --link ps |
    grep -q '"link_head_wait": -1[,}]' || fail "sim --link ps --json: a head wait"
$C sim data/scenarios/n-shape.json --policy fair --load 0.3 --reps 1 --jobs 1000 --json |
    grep -q '"model_link_wait": -1[,}]' || fail "sim --policy fair --json: a model link wait"
$C sim check data/scenarios/ensemble.json --policy nona-late --loads 0.3:0.3:0.1 --jobs 2000 -o "$T/lc.csv" >/dev/null ||
    fail "sim check --policy nona-late"
grep -q ",ok$" "$T/lc.csv" || fail "sim check nona-late: $(cat "$T/lc.csv")"
# A late part fed twice binds when its last input is sent (the default,
# --late-bind ready-hold): binding at its first input (the rule before) holds
# an idle server between a's and b's outputs on n-shape, and the d rule
# then sees fewer idle servers (d = 8, load 0.7: 26.0 ms against 23.8 ms;
# the same table, the mean field's: finite sampling solves one for each).
mean_of() { awk '{ match($0, /"mean_jct": [0-9.e-]+/); print substr($0, RSTART + 12, RLENGTH - 12); exit }' "$1"; }
$C sim data/scenarios/n-shape.json --policy nona-late --root-choices 8 --load 0.7 --reps 1 --jobs 20000 --json \
    --sampling mean-field >"$T/lb1.json" && $C sim data/scenarios/n-shape.json --policy nona-late --root-choices 8 \
    --load 0.7 --reps 1 --jobs 20000 --json --late-bind first-input --sampling mean-field >"$T/lb0.json" ||
    fail "sim --late-bind"
awk -v a="$(mean_of "$T/lb0.json")" -v b="$(mean_of "$T/lb1.json")" 'BEGIN { exit !(b > 0 && b < 0.96 * a) }' ||
    fail "--late-bind ready-hold: mean JCT $(mean_of "$T/lb1.json") s, first-input $(mean_of "$T/lb0.json") s"
# Probes (--late-bind probes): four tasks started together at load 0.7 with
# d = 32; a part bound to the least loaded of d waits out the task its
# server runs when all are busy (p99 about 20 ms), a part with
# reservations takes the first server to free (about 13 ms, fair's 15).
p99_of() { awk '{ match($0, /"p99_jct": [0-9.e-]+/); print substr($0, RSTART + 11, RLENGTH - 11); exit }' "$1"; }
$C sim data/counterexamples/four-tasks.json --policy nona-late --root-choices 32 --load 0.7 --reps 1 --jobs 20000 \
    --json >"$T/pb0.json" && $C sim data/counterexamples/four-tasks.json --policy nona-late --root-choices 32 \
    --load 0.7 --reps 1 --jobs 20000 --json --late-bind probes >"$T/pb1.json" || fail "sim --late-bind probes"
awk -v a="$(p99_of "$T/pb0.json")" -v b="$(p99_of "$T/pb1.json")" 'BEGIN { exit !(b > 0 && b < 0.8 * a) }' ||
    fail "--late-bind probes: p99 JCT $(p99_of "$T/pb1.json") s, the least loaded of d $(p99_of "$T/pb0.json") s"
# Fair with delay scheduling: a long locality wait keeps fig1 all local (22 ms, local's time).
$C sim data/scenarios/fig1.json --policy fair-delay --locality-wait 5 --load 0.5 --reps 1 --jobs 2000 >"$T/fd.txt" ||
    fail "sim --policy fair-delay"
grep -q "^all  *0.022  " "$T/fd.txt" || fail "fair-delay on fig1: $(cat "$T/fd.txt")"
expect_error 2 "--locality-wait: expected a number of mean task times" -- $C sim data/scenarios/fig1.json \
    --policy fair-delay --locality-wait 0
# Sparrow: ignores locality as published (fig1's transfers then saturate the link: unstable at 0.5);
# sparrow-local probes the input holders; both in a sweep's CSV.
$C sim sweep data/scenarios/ensemble.json --loads 0.3:0.3:0.1 --policies sparrow,sparrow-local,fair --reps 1 \
    --jobs 2000 --probes 2 -o "$T/sp.csv" >/dev/null || fail "sim sweep --policies sparrow,sparrow-local"
[ "$(grep -c '^sparrow' "$T/sp.csv")" -ge 2 ] && grep -q '^sparrow-local,' "$T/sp.csv" ||
    fail "sparrow rows: $(cat "$T/sp.csv")"
# nona-file: a lookup file the operator solved (nona sweep), drawn at the
# entry nearest the simulated rates. Its entry for these very rates is the
# table nona solves here, so the two simulations agree to the event.
E=data/scenarios/ensemble.json
base=$($C nona solve $E --json | sed -n 's/.*"rho_servers":[[:space:]]*\([0-9.e+-]*\).*/\1/p')
[ -n "$base" ] || fail "nona solve --json gives rho_servers"
L2=$(awk -v b="$base" 'BEGIN { printf "%.17g", 2 * b }')
$C nona sweep $E --scale 1:3:1 -o "$T/lk.json" >/dev/null || fail "nona sweep for nona-file"
$C sim $E --table "$T/lk.json" --load "$L2" --reps 2 --jobs 2000 --json 2>"$T/e" |
    sed 's/"seconds": [^}]*//; s/"model_[a-z_]*": [^,]*,//g; s/"policy": "[a-z-]*"//' >"$T/f-nona-file" ||
    fail "sim --table: $(cat "$T/e")"
$C sim $E --policy nona --load "$L2" --reps 2 --jobs 2000 --json |
    sed 's/"seconds": [^}]*//; s/"model_[a-z_]*": [^,]*,//g; s/"policy": "[a-z-]*"//' >"$T/f-nona"
grep -q '"events"' "$T/f-nona-file" && cmp -s "$T/f-nona" "$T/f-nona-file" ||
    fail "nona-file at its entry's rates differs from nona: $(diff "$T/f-nona" "$T/f-nona-file" | head -4)"
# (--table alone picks nona-file; another policy with it is refused: the
# file would go unused)
$C sim $E --table "$T/lk.json" --load "$L2" --reps 1 --jobs 500 --json | grep -q '"policy": "nona-file".*"table_scale": 2}' ||
    fail "sim --table: the policy defaults to nona-file, and --json names the entry"
$C sim $E --table "$T/lk.json" --load "$(awk -v b="$base" 'BEGIN { printf "%.6g", 2.8 * b }')" --reps 1 --jobs 500 |
    grep -q "lk.json, its entry at scale 3 (the nearest" || fail "sim --table names the entry nearest the rates"
expect_error 2 "the policy is nona, not nona-file" -- $C sim $E --policy nona --table "$T/lk.json"
$C sim sweep $E --table "$T/lk.json" --loads "$L2:$L2:0.1" --policies nona,nona-file --reps 1 --jobs 1000 \
    -o "$T/nf.csv" >"$T/nf" || fail "sim sweep --table"
grep -q "^nona-file,.*,all," "$T/nf.csv" && grep -q "nona-file" "$T/nf" || fail "nona-file sweep rows: $(cat "$T/nf")"
expect_error 2 "lk.json: --policies does not list nona-file" -- \
    $C sim sweep $E --table "$T/lk.json" --loads 0.1:0.2:0.1 --policies nona,fair -o "$T/x.csv"
expect_error 2 "policy nona-file: no lookup file given (--table FILE)" -- $C sim $E --policy nona-file
expect_error 2 "nope.json: cannot open" -- $C sim $E --table "$T/nope.json"
expect_error 2 "lk.json: policy nona-file: class 'fig1' is not in the lookup table" -- \
    $C sim data/scenarios/fig1.json --table "$T/lk.json"
expect_error 2 "check: --table does not apply" -- $C sim check $E --table "$T/lk.json"
expect_error 2 "--probes: expected 1..64" -- $C sim data/scenarios/fig1.json --policy sparrow --probes 0
expect_error 2 "--binding: expected early or late" -- $C nona solve data/scenarios/fig1.json --binding lazy
expect_error 2 "--policy: expected nona or nona-late" -- $C sim check data/scenarios/fig1.json --policy fair
finish
