#!/bin/sh
# docs_figures.sh - the figures the documentation quotes, re-run: each check
# runs the command a page names, prints the figure the way the page writes
# it, and fails when the page no longer says so (a default or the code
# moved and the page was not re-run). `make docs-check` runs this alone;
# `make test` (and so CI) runs it with the rest. Only figures that take
# seconds are here; the page says which command gives each of the others.
# Skipped under a memory checker (WRAP set: make valgrind), where the runs
# would take long and check nothing more.
set -u
. tests/cli-lib.sh
if [ -n "${WRAP:-}" ] || [ -n "${CT_TEST_QUICK:-}" ]; then
    echo "SKIP: documentation figures are re-run by make test and make docs-check, not under a memory checker"
    finish
    exit
fi
export CONTEND_NO_PROGRESS=1
# figure PAGE TEXT: PAGE must contain TEXT verbatim.
figure() {
    grep -qF -- "$2" "$1" || fail "$1 does not say '$2' (what the command gives now: re-run it and update the page)"
}
ms() { awk -v x="$1" -v d="${2:-1}" 'BEGIN { printf "%.*f", d, 1000 * x }'; }
json_num() { sed -n "s/.*\"$1\": \([-0-9.e+]*\).*/\1/p" "$2" | head -1; }

# docs/nona-model.md: the ensemble's and video analytics' splits against
# all-local at their bundled rates (nona solve: "mean JCT X s (all-local Y s)").
for s in ensemble video-analytics; do
    $C nona solve "data/scenarios/$s.json" >"$T/$s.txt" || fail "nona solve $s"
    set -- $(sed -n 's/.*mean JCT \([0-9.e-]*\) s (all-local \([0-9.e-]*\) s).*/\1 \2/p' "$T/$s.txt" | head -1)
    eval "${s%%-*}_split=\"$(ms "$1" 2) ms vs $(ms "$2" 2) ms\""
done
figure docs/nona-model.md "pipeline (two detectors) split: $ensemble_split all-local, and"
figure docs/nona-model.md "$video_split at their bundled rates"

# docs/model-checks.md: the N-shaped segment at load 0.3, predicted and
# simulated mean JCT per model (contend sim --json: model_mean_jct, mean_jct).
row() { # OPTIONS...: "| P ms | S ms (+D%) |"
    $C sim data/scenarios/n-shape.json --policy nona --load 0.3 --json "$@" >"$T/n.json" || fail "sim n-shape $*"
    p=$(json_num model_mean_jct "$T/n.json") s=$(json_num mean_jct "$T/n.json")
    awk -v p="$p" -v s="$s" 'BEGIN { printf "| %.1f ms | %.1f ms (+%.0f%%) |", 1000 * p, 1000 * s, 100 * (s / p - 1) }'
}
figure docs/model-checks.md "{a c} {b d} $(row)"
figure docs/model-checks.md "{a c} {b d} $(row --waits job-first)"
figure docs/model-checks.md "$(row --waits pieces)"
figure docs/model-checks.md "{a} {b c} {d} $(row --parts independent)"
figure docs/model-checks.md "{a} {b c} {d} $(row --parts independent --model link)"
$C sim data/scenarios/n-shape.json --policy local --load 0.3 --json >"$T/l.json" || fail "sim n-shape local"
figure docs/model-checks.md "| all-local (\`--policy local\`) | | | $(ms "$(json_num mean_jct "$T/l.json")") ms |"

# docs/sjf-bco.md: the paper's claims on 1000 random instances per family.
for f in tiny identical hetero; do
    $C bco validate --random 1000 --family $f >"$T/$f.txt" || fail "bco validate --family $f"
done
v() { sed -n "s/^  $2 *holds [0-9]*, VIOLATED \([0-9]*\),.*/\1/p" "$T/$1.txt"; }
w() { sed -n 's/^  worst makespan \/ T\*: \([0-9.]*\) where.*/\1/p' "$T/$1.txt"; }
[ "$(v tiny 'Lemma 3') $(v tiny 'Lemma 4') $(v tiny 'Theorem 5')" = "0 0 0" ] ||
    fail "docs/sjf-bco.md says the tiny family never violates anything"
figure docs/sjf-bco.md "its worst makespan / T* is $(w tiny)"
i4=$(v identical 'Lemma 4') i5=$(v identical 'Theorem 5')
[ "$i4" = "$i5" ] || fail "docs/sjf-bco.md counts identical's Lemma 4 and Theorem 5 violations as one ($i4, $i5)"
figure docs/sjf-bco.md "violated on $i4 of 1000, worst"
figure docs/sjf-bco.md "makespan / T* $(w identical)."
figure docs/sjf-bco.md "Lemma 3 violated on $(v hetero 'Lemma 3'), Lemma 4 on $(v hetero 'Lemma 4'), Theorem 5 on $(v hetero 'Theorem 5')"
figure docs/sjf-bco.md "worst makespan / T* $(w hetero):"

# docs/simulator.md: Fig. 3's rows at loads 0.1 and 0.9 with every stable
# policy (the page's sweep at those loads; the same seeds give the same
# points): mean JCT in ms, three significant digits, p99 in brackets (one
# decimal below 10 ms), the lowest mean bold.
$C sim sweep data/scenarios/five-models.json --loads 0.1:0.9:0.8 \
    --policies nona,nona-late,nona-star,local,fair,fair-delay -o "$T/fig3.csv" >/dev/null || fail "sim sweep five-models"
f3() { # LOAD: "| LOAD | nona | nona-late | nona-star | local | fair | fair-delay |" as the page writes it
    awk -F, -v l="$1" 'BEGIN { split("nona nona-late nona-star local fair fair-delay", P, " ") }
        NR > 1 && $4 == "all" && $2 + 0 == l + 0 && $14 == "ok" { mean[$1] = 1000 * $5; p99[$1] = 1000 * $9 }
        END {
            best = ""
            for (k = 1; k <= 6; k++) if (P[k] in mean && (best == "" || mean[P[k]] < mean[best])) best = P[k]
            printf "| %s |", l
            for (k = 1; k <= 6; k++) {
                p = P[k]
                if (!(p in mean)) { printf " unstable |"; continue }
                m = sprintf("%#.3g ms", mean[p]); if (p == best) m = "**" m "**"
                printf " %s (%s) |", m, p99[p] < 10 ? sprintf("%.1f", p99[p]) : sprintf("%.0f", p99[p])
            }
        }' "$T/fig3.csv"
}
figure docs/simulator.md "$(f3 0.1)"
figure docs/simulator.md "$(f3 0.9)"

# docs/baselines.md: the smallest counterexample, one 10 ms task against a
# central queue (mean / p99 JCT in ms per load, the page's sweeps).
ot() { # CSV POLICY LABEL: "| LABEL | mean / p99 | ... |"
    awk -F, -v p="$2" -v lab="$3" '$1 == p && $4 == "all" { r = r sprintf(" %.1f / %.1f |", 1000 * $5, 1000 * $9) }
        END { printf "| %s |%s", lab, r }' "$1"
}
for d in 2 8 32; do
    $C sim sweep data/counterexamples/one-task.json --loads 0.1:0.9:0.2 --policies nona,fair --root-choices $d \
        -o "$T/one-task-d$d.csv" >/dev/null || fail "sim sweep one-task --root-choices $d"
    figure docs/baselines.md "$(ot "$T/one-task-d$d.csv" nona "nona, d = $d")"
done
figure docs/baselines.md "$(ot "$T/one-task-d8.csv" fair "fair (central queue)")"
# ... and four tasks started together, late-bound, against it.
for d in 8 32 64; do
    $C sim sweep data/counterexamples/four-tasks.json --loads 0.1:0.9:0.2 --policies nona-late,fair --root-choices $d \
        -o "$T/four-tasks-d$d.csv" >/dev/null || fail "sim sweep four-tasks --root-choices $d"
    figure docs/baselines.md "$(ot "$T/four-tasks-d$d.csv" nona-late "nona-late, d = $d")"
done
figure docs/baselines.md "$(ot "$T/four-tasks-d8.csv" fair "fair (central queue)")"
# ... and both with probes (--late-bind probes): one row per d in each table.
for f in one-task four-tasks; do
    for d in 8 32; do
        $C sim sweep data/counterexamples/$f.json --loads 0.1:0.9:0.2 --policies nona-late --root-choices $d \
            --late-bind probes -o "$T/$f-probes-d$d.csv" >/dev/null || fail "sim sweep $f --late-bind probes"
        figure docs/baselines.md "$(ot "$T/$f-probes-d$d.csv" nona-late "probes, d = $d")"
    done
done
# ... and with a round trip charged (--rtt; "Round trips"): four tasks at
# 0.7 and 0.9, mean / p99 in ms or "unstable".
mp() {
    awk -F, -v p="$2" -v l="$3" '$1 == p && $4 == "all" && $2 + 0 == l + 0 {
        if ($14 == "ok") printf "%.1f / %.1f", 1000 * $5, 1000 * $9; else printf "unstable" }' "$1"
}
for r in 0.0001:0.1 0.0005:0.5; do
    R=${r%%:*} ms=${r##*:}
    $C sim sweep data/counterexamples/four-tasks.json --loads 0.7:0.9:0.2 --policies nona-late,fair --root-choices 32 \
        --rtt "$R" -o "$T/rtt$R.csv" >/dev/null &&
        $C sim sweep data/counterexamples/four-tasks.json --loads 0.7:0.9:0.2 --policies nona-late --root-choices 32 \
            --late-bind probes --rtt "$R" -o "$T/rttp$R.csv" >/dev/null || fail "sim sweep four-tasks --rtt $R"
    a=$T/rtt$R.csv b=$T/rttp$R.csv
    figure docs/baselines.md "| $ms ms | $(mp "$a" nona-late 0.7) | $(mp "$a" fair 0.7) | $(mp "$b" nona-late 0.7) | $(mp "$a" nona-late 0.9) | $(mp "$a" fair 0.9) | $(mp "$b" nona-late 0.9) |"
done
cell() { awk -F, -v p="$2" -v l="$3" -v c="$4" '$1 == p && $4 == "all" && $2 + 0 == l + 0 { printf "%.1f", 1000 * $c }' "$1"; }
# README.md: the generated pipelines' best stateless over best stateful
# policy per load (sim compare's "best stateless: P, best stateful: Q;
# stateless / stateful mean JCT R" lines, in load order). The ensembles'
# row of the same table takes a minute on two cores: its command is named
# on the page.
$C sim compare --generate 20 --family pipeline --gen-seed 200 -j 2 >"$T/pipe.txt" || fail "sim compare pipelines"
figure README.md "| pipelines of 5-10 stages | $(sed -n 's/.*best stateless: \([^,]*\), best stateful: \([^;]*\); stateless \/ stateful mean JCT \([0-9.]*\).*/\1 \/ \2 \3/p' "$T/pipe.txt" | paste -sd'|' - | sed 's/|/ | /g') |"
figure README.md "$(cell "$T/one-task-d8.csv" nona 0.9 5) ms against fair's $(cell "$T/one-task-d8.csv" fair 0.9 5) ms, its p99 at 0.7 $(cell "$T/one-task-d8.csv" nona 0.7 9) ms against $(cell "$T/one-task-d8.csv" fair 0.7 9) ms"

# docs/training-cluster.md: the paper's Tables IV and V, ten seeds at the
# authors' scale, as train sweep prints them (mean JCT over the files, ms).
for s in 1 2 3 4 5 6 7 8 9 10; do
    $C train workload --seed $s --scale 100 -o "$T/w$s.json" >/dev/null || fail "train workload --seed $s"
done
$C train sweep "$T"/w*.json -o "$T/t45.csv" >"$T/t45.txt" || fail "train sweep"
t() { awk -v p="$1" '$1 == p { printf "%s | %s", $2, $3 }' "$T/t45.txt"; } # the table train sweep prints
figure docs/training-cluster.md "| RAND | $(t rand+adadual) |"
figure docs/training-cluster.md "| FF | $(t ff+adadual) |"
figure docs/training-cluster.md "| LS | $(t ls+adadual) |"
figure docs/training-cluster.md "| LWF-1 | $(t lwf1+adadual) |"
figure docs/training-cluster.md "| SRSF(1) | $(t lwf1+srsf1) |"
figure docs/training-cluster.md "| SRSF(2) | $(t lwf1+srsf2) |"
figure docs/training-cluster.md "| SRSF(3) | $(t lwf1+srsf3) |"
figure docs/training-cluster.md "| AdaDUAL (Ada-SRSF) | $(t lwf1+adadual) |"
finish
