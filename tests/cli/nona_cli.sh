#!/bin/sh
# nona_cli.sh - `contend nona` and `contend sample` from the outside: JSON
# summaries, table files the sampler reads, sweeps that skip unstable
# scales, errors with exit 2 and no output left behind, determinism.
set -u
. tests/cli-lib.sh

# solve --json has the promised keys; the table is versioned.
$C nona solve data/scenarios/five-models.json --json -o "$T/t.json" >"$T/s.json" || fail "solve five-models"
for k in objective mean_jct rho phi method; do
    grep -q "\"$k\"" "$T/s.json" || fail "solve --json lacks $k"
done
grep -q '"format":[[:space:]]*"contend-table/1"' "$T/t.json" || fail "table format tag"
grep -q '"hash":' "$T/t.json" || fail "table hash"
# Original task ids of the zoo (contracted nodes expanded).
grep -q '"layer2.0.bn2"' "$T/t.json" || fail "table spells original task ids"
$C nona solve data/scenarios/five-models.json --method penalty --json | grep -q '"method":[[:space:]]*"penalty"' || fail "penalty"
$C nona solve data/scenarios/five-models.json | grep -q "class resnet18" || fail "human summary"

# The same inputs give the same hash and the same table (solve_seconds aside).
$C nona solve data/scenarios/five-models.json -o "$T/t2.json" >/dev/null
[ "$(grep -v solve_seconds "$T/t.json")" = "$(grep -v solve_seconds "$T/t2.json")" ] || fail "solve is not deterministic"

# Sample from it: deterministic for a seed; every task gets a server < N.
$C sample "$T/t.json" --class resnet18 --servers 80 --count 5 --seed 9 >"$T/a" || fail "sample"
$C sample "$T/t.json" --class resnet18 --servers 80 --count 5 --seed 9 >"$T/b"
cmp -s "$T/a" "$T/b" || fail "sample is not deterministic"
[ "$(grep -c 'layer4.0.add=' "$T/a")" -eq 5 ] || fail "sample prints every task"
grep -v '^#' "$T/a" | tr ' ' '\n' | awk -F= '$2 >= 80 { bad = 1 } END { exit bad }' || fail "server out of range"
$C sample "$T/t.json" --class resnet18 --servers 80 --json | grep -q '"placements"' || fail "sample --json"

# A segment too large to enumerate (a fork of 12 parallel tasks: 1.3e8
# triplets) gets a table by column generation, with its gap reported; the
# sampler reads it and places every task.
mkdir -p "$T/big"
# fork_dag N: a fork of N parallel tasks of 2-6 ms (1 MB in, 0.5 MB out).
fork_dag() {
    printf '{"name": "fork%d", "tasks": [{"id": "in", "time": 0.001}, {"id": "out", "time": 0.001}' "$1"
    i=0; while [ $i -lt "$1" ]; do printf ', {"id": "t%d", "time": 0.00%d}' $i $((i % 5 + 2)); i=$((i + 1)); done
    printf '], "edges": ['
    i=0; while [ $i -lt "$1" ]; do
        [ $i -gt 0 ] && printf ', '
        printf '{"from": "in", "to": "t%d", "bytes": 1e6}, {"from": "t%d", "to": "out", "bytes": 5e5}' $i $i
        i=$((i + 1))
    done
    printf ']}'
}
fork_dag 12 >"$T/big/fork12.json"
printf '{"cluster": {"servers": 40, "link_bandwidth": 1.25e9}, "classes": [{"name": "fork12", "dag": "fork12.json", "arrival_rate": 50}]}' >"$T/big/s.json"
$C nona solve "$T/big/s.json" --json -o "$T/big/t.json" >"$T/big/out.json" 2>"$T/big/err" || fail "large segment: $(cat "$T/big/err")"
grep -q '"column_gap"' "$T/big/out.json" || fail "large segment: no column_gap in --json"
grep -q '"generated":[[:space:]]*true' "$T/big/t.json" || fail "large segment: table does not mark the generated segment"
grep -q '"gap_seconds"' "$T/big/t.json" || fail "large segment: table lacks the segment's gap"
$C nona solve "$T/big/s.json" | grep -q "generated of 1.36e+08" || fail "large segment: summary"
$C sample "$T/big/t.json" --class fork12 --servers 40 --count 3 --seed 1 >"$T/big/a" || fail "large segment: sample"
[ "$(grep -c 't11=' "$T/big/a")" -eq 3 ] || fail "large segment: sample places every task"
expect_error 2 "need 135610448 placement triplets" -- $C nona solve --large refuse "$T/big/s.json" -o "$T/out.json"

# Exact pricing's streams in ranges on threads (-j): a fork of 8 tasks
# generated (73,681 triplets, past the 65,536 from which a stream is cut
# into ranges) gives the same table, but its solve time, at -j 1 and -j 3.
fork_dag 8 >"$T/big/fork8.json"
printf '{"cluster": {"servers": 40, "link_bandwidth": 1.25e9}, "classes": [{"name": "fork8", "dag": "fork8.json", "arrival_rate": 50}]}' >"$T/big/s8.json"
for j in 1 3; do
    $C nona solve "$T/big/s8.json" --max-triplets 1000 -j $j -o "$T/big/t8-$j.json" >"$T/big/out8" 2>&1 || fail "-j $j: $(cat "$T/big/out8")"
    grep -q "generated of 7.37e+04" "$T/big/out8" || fail "-j $j: the segment is not generated: $(cat "$T/big/out8")"
    sed 's/"solve_seconds":[^,}]*//' "$T/big/t8-$j.json" >"$T/big/t8-$j"
done
cmp -s "$T/big/t8-1" "$T/big/t8-3" || fail "nona solve -j 3 gives another table than -j 1"

# Sweep: unstable scales are reported and skipped, the rest written.
$C nona sweep data/scenarios/fig1.json --scale 1:40:13 -o "$T/l.json" >"$T/out" 2>"$T/err" || fail "sweep"
grep -q "scale 40 skipped: .*unstable" "$T/err" || fail "sweep does not report the unstable scale: $(cat "$T/err")"
grep -q "wrote .*3 scenarios, 1 unstable" "$T/out" || fail "sweep summary: $(cat "$T/out")"
$C sample "$T/l.json" --class fig1 --servers 80 --rates fig1=1300 --count 1 | grep -q "scale 14" || fail "nearest scenario"
# Each scale's line carries its certificate as `nona solve` prints it: the
# gap the file records, the LPs and the solve's time.
grep -q "^scale 14 *mean JCT [0-9.e-]* s, certified gap [0-9.e+-]*, [0-9]* LPs, [0-9.]* ms$" "$T/out" ||
    fail "sweep line lacks the certificate: $(cat "$T/out")"
g14=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.2g" % [e for e in d["scenarios"] if e["scale"] == 14][0]["model"]["gap"])' "$T/l.json" 2>/dev/null)
[ -z "$g14" ] || grep -q "^scale 14 .*, certified gap $g14," "$T/out" || fail "sweep line's gap is not the file's $g14: $(cat "$T/out")"
$C nona sweep data/scenarios/fig1.json --scale 1:14:13 --method penalty -o "$T/lp.json" >"$T/outp" || fail "penalty sweep"
grep -q "^scale 14 *mean JCT [0-9.e-]* s, [0-9]* evaluations, [0-9.]* ms$" "$T/outp" || fail "penalty sweep line: $(cat "$T/outp")"

# Errors: one line naming the file and the field, exit 2, no output file.
mkdir -p "$T/sc"
cp data/examples/fig1.json "$T/sc/fig1.json"
printf '{"cluster": {"servers": 1, "link_bandwidth": 1e10}, "classes": [{"name": "f", "dag": "fig1.json", "arrival_rate": 100}]}' >"$T/sc/hot.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": 1e10}, "classes": [{"name": "f", "dag": "fig1.json", "arrival_rate": 0}]}' >"$T/sc/zero.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": 1e10}, "classes": [{"name": "f", "dag": "gone.json", "arrival_rate": 1}]}' >"$T/sc/gone.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": -5}, "classes": []}' >"$T/sc/neg.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": 1e10}, "background": {"link_load": 1.2}, "classes": [{"name": "f", "dag": "fig1.json", "arrival_rate": 1}]}' >"$T/sc/bg.json"
expect_error 2 "unstable: compute alone needs 2.2 servers" -- $C nona solve "$T/sc/hot.json" -o "$T/out.json"
expect_error 2 "classes[0].arrival_rate" -- $C nona solve "$T/sc/zero.json" -o "$T/out.json"
expect_error 2 "classes[0].dag: " -- $C nona solve "$T/sc/gone.json" -o "$T/out.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": 1e10}, "classes": [{"name": "f", "dag": "fig1.json", "arrival_rate": 1}, {"name": "f", "dag": "fig1.json", "arrival_rate": 1}]}' >"$T/sc/dup.json"
expect_error 2 "classes[1].name: duplicate class name 'f'" -- $C nona solve "$T/sc/dup.json" -o "$T/out.json"
expect_error 2 "cluster.link_bandwidth" -- $C nona solve "$T/sc/neg.json" -o "$T/out.json"
expect_error 2 "background.link_load" -- $C nona solve "$T/sc/bg.json" -o "$T/out.json"
expect_error 2 "need 5 placement triplets, over the limit of 3" -- $C nona solve --max-triplets 3 --large refuse data/scenarios/fig1.json -o "$T/out.json"
# A range's points are the decimals it spells: 0.1:0.7:0.2 gives 0.3, the
# value --scale 0.3 would (a + i step alone gives 0.30000000000000004).
for r in 0.1:0.7:0.2 1e-1:7e-1:2e-1; do
    $C nona sweep data/scenarios/fig1.json --scale $r -o "$T/dec.json" >/dev/null || fail "decimal sweep $r"
    [ "$(grep '"scale"' "$T/dec.json" | tr -d ' \t,' | tr '\n' ' ')" = '"scale":0.1 "scale":0.3 "scale":0.5 "scale":0.7 ' ] ||
        fail "range $r: points off the decimal grid: $(grep '"scale"' "$T/dec.json" | tr -d '\t\n')"
done

# A sweep where every scale is unstable: each is reported, then it fails.
$C nona sweep "$T/sc/hot.json" --scale 1:2:1 -o "$T/out.json" >/dev/null 2>"$T/stderr"
[ $? -eq 2 ] || fail "all-unstable sweep: exit status"
[ "$(grep -c 'skipped' "$T/stderr")" -eq 2 ] || fail "all-unstable sweep: skipped lines"
tail -1 "$T/stderr" | grep -q "every scale in the sweep is unstable: no lookup file written" || fail "all-unstable sweep: final error"
[ ! -e "$T/out.json" ] || fail "all-unstable sweep left a file"
expect_error 2 "--scale" -- $C nona sweep data/scenarios/fig1.json --scale 2:1:1 -o "$T/out.json"
expect_error 2 "no class 'nope'" -- $C sample "$T/t.json" --class nope --servers 8
expect_error 2 "format: expected" -- $C sample data/scenarios/fig1.json --class fig1 --servers 8

# Every option value is valid or refused before any work (hardening issue).
for bad in "--grid 3" "--grid 0" "--gap -1" "--gap 0.7" "--max-lps 0" "--starts 0" "--root-choices 0" \
           "--root-choices 65" "--model nope" "--method nope" "--parts nope" "--search nope" \
           "--server-row nope" "--bound nope" "--stall nope" "--stall -1" "--stall-gap 0.7" "--stall-gap x" \
           "--stall-close 1.5" "--stall-close -0.1" "--pilot x" "--pilot -1" "--pilot 2000000000" \
           "--pilot-swing x" "--pilot-swing -1" "--pilot-swing 2000000000" \
           "--stall-large x" "--stall-large -1" "--stall-large 2000000000" "--pilot-first 2" "--pilot-first x" \
           "--stall-gap-large 0.7" "--stall-gap-large x" "--box-pairs 2" "--box-pairs x" \
           "--search-warm 2" "--search-warm x"; do
    # shellcheck disable=SC2086
    expect_error 2 "${bad%% *}" -- $C nona solve data/scenarios/fig1.json $bad -o "$T/out.json"
done
$C nona solve data/scenarios/fig1.json --method grid --grid 4 >/dev/null 2>"$T/stderr" && fail "grid on the server model"
grep -q "link-only model only" "$T/stderr" || fail "grid on the server model: $(cat "$T/stderr")"
for g in 4 5 6 48; do
    $C nona solve data/scenarios/fig1.json --model link --method grid --grid $g --json >/dev/null || fail "--grid $g"
done
# The certified search reports its gap; the link model is the paper's.
$C nona solve data/scenarios/fig1.json --json | grep -q '"gap"' || fail "solve --json lacks the gap"
$C nona solve data/scenarios/fig1.json --model link --json | grep -q '"model":[[:space:]]*"link"' || fail "--model link"
$C nona solve data/scenarios/fig1.json --model link -o "$T/link.json" >/dev/null || fail "--model link -o"
grep -q '"queueing":[[:space:]]*"link"' "$T/link.json" || fail "table records the link-only model"
# The server row: the pieces cut and the linearised row (job-first's
# default) certify the same optimum on a bundled scenario; the summary
# says whether a search stalled.
cut=$($C nona solve data/scenarios/video-analytics.json --waits job-first --server-row pieces | sed -n 's/.*mean JCT \([0-9.e-]*\) s.*certified gap \([0-9.e-]*\).*/\1 \2/p')
lin=$($C nona solve data/scenarios/video-analytics.json --waits job-first --server-row linear |
      sed -n 's/.*mean JCT \([0-9.e-]*\) s.*certified gap \([0-9.e-]*\).*/\1 \2/p')
[ -n "$cut" ] && [ "${cut% *}" = "${lin% *}" ] || fail "--server-row: pieces '$cut', linear '$lin'"
$C nona solve data/scenarios/video-analytics.json --json | grep -q '"stalled":[[:space:]]*false' ||
    fail "solve --json lacks stalled"
# The class dual comes in only where the LP's bounds stop closing the gap:
# a search that closes with them is the same search (job-first waits); with
# the default aged waits the LP's pieces cut leaves video analytics with a
# gap the class dual closes, at the same mean JCT.
gapof='s/.*mean JCT \([0-9.e-]*\) s.*certified gap \([0-9.e-]*\).*/\1 \2/p'
cd_=$($C nona solve data/scenarios/video-analytics.json --waits job-first --bound class-dual | sed -n "$gapof")
[ -n "$cd_" ] && [ "$cd_" = "$lin" ] || fail "--bound class-dual: '$cd_', the LP alone '$lin'"
ag=$($C nona solve data/scenarios/video-analytics.json | sed -n "$gapof")
agd=$($C nona solve data/scenarios/video-analytics.json --bound class-dual | sed -n "$gapof")
[ -n "$ag" ] && [ "${agd% *}" = "${ag% *}" ] && awk "BEGIN { exit !(${agd#* } <= ${ag#* }) }" ||
    fail "--bound class-dual with aged waits: '$agd', the LP alone '$ag'"
$C nona solve data/scenarios/video-analytics.json --bound class-dual --json | grep -q '"bound":[[:space:]]*"class-dual"' ||
    fail "solve --json lacks the bound"
# The link model's two searches certify the same mean JCT (video analytics
# splits: a mixed optimum); the point search with far fewer LPs.
pts=$($C nona solve data/scenarios/video-analytics.json --model link | sed -n 's/.*mean JCT \([0-9.e-]*\) s.* \([0-9]*\) LPs.*/\1 \2/p')
box=$($C nona solve data/scenarios/video-analytics.json --model link --search boxes |
      sed -n 's/.*mean JCT \([0-9.e-]*\) s.* \([0-9]*\) LPs.*/\1 \2/p')
[ -n "$pts" ] && [ "${pts% *}" = "${box% *}" ] || fail "--search: points '$pts', boxes '$box'"
[ "${pts#* }" -lt "${box#* }" ] || fail "--search: the point search took no fewer LPs ($pts, $box)"
# A long search (fig1 at 4.5x with servers, to its LP budget) shows a
# status line on a terminal, none when stderr is not one; about 1 s
# natively (the line waits 0.2 s).
n=2000000
case "$C" in *valgrind*) n=20000 ;; esac
sed 's|"arrival_rate": 100|"arrival_rate": 450|; s|\.\./examples/|'"$PWD"'/data/examples/|' data/scenarios/fig1.json \
    >"$T/fig1x45.json"
$C nona solve "$T/fig1x45.json" --max-lps $n --gap 0 >/dev/null 2>"$T/err" || fail "fig1 x4.5"
[ ! -s "$T/err" ] || fail "a status line without a terminal: $(cat "$T/err")"
if command -v script >/dev/null 2>&1; then
    script -qc "$C nona solve $T/fig1x45.json --max-lps $n --gap 0" "$T/tty" >/dev/null 2>&1
    grep -q "solving: search [0-9]*, [0-9]* of at most [0-9]* LPs, mean JCT 0.018[0-9]* s, gap" "$T/tty" ||
        fail "no status line on a terminal: $(head -c 300 "$T/tty")"
else
    echo "skip: no script(1) to run the solve on a terminal"
fi
grep -q '"root_choices":[[:space:]]*2' "$T/t.json" || fail "table records the root rule"
grep -q '"parts":[[:space:]]*"dependent"' "$T/t.json" || fail "table records dependent parts"
$C nona solve data/scenarios/n-shape.json --parts independent --json | grep -q '"parts":[[:space:]]*"independent"' ||
    fail "--parts independent"
# The bundled splitting scenarios split.
for sc in ensemble video-analytics; do
    $C nona solve data/scenarios/$sc.json | grep -q 'p=1.0000 k=[0-9] l=[0-9] M=[0-9.e-]* s: {[^}]*} {' \
        || fail "$sc: the table does not split"
done
# sample: too few servers is refused before anything is printed; --rates
# refuses unknown and repeated classes, accepts a rate of 0.
$C nona solve data/scenarios/ensemble.json -o "$T/e.json" >/dev/null || fail "solve ensemble"
$C sample "$T/e.json" --class ensemble --servers 2 --count 3 >"$T/stdout" 2>"$T/stderr"
[ $? -eq 2 ] || fail "sample with too few servers: exit status"
[ ! -s "$T/stdout" ] || fail "sample with too few servers printed: $(cat "$T/stdout")"
grep -q "too few: scenario 0 has a triplet with 3 parts" "$T/stderr" || fail "too few servers: $(cat "$T/stderr")"
expect_error 2 "class given twice" -- $C sample "$T/l.json" --class fig1 --servers 80 --rates fig1=100,fig1=200
expect_error 2 "no such class" -- $C sample "$T/l.json" --class fig1 --servers 80 --rates nope=1
expect_error 2 "rate >= 0" -- $C sample "$T/l.json" --class fig1 --servers 80 --rates fig1=-1
$C sample "$T/l.json" --class fig1 --servers 80 --rates fig1=0 --count 1 | grep -q "scale 1" || fail "--rates fig1=0"
# Pooled roots from the command line: the table's d = 2 draws favour the
# idle server (P = 1 - (3/4)^2 = 0.44 against 0.25 uniform).
$C nona solve data/scenarios/fig1.json -o "$T/f.json" >/dev/null || fail "solve fig1"
n=$($C sample "$T/f.json" --class fig1 --servers 4 --queue-lengths 5,5,0,5 --count 400 | grep -c '^sum=2 ')
[ "$n" -gt 140 ] || fail "--queue-lengths: root on the idle server $n / 400 times"
expect_error 2 "expected 4 non-negative counts" -- $C sample "$T/f.json" --class fig1 --servers 4 --queue-lengths 5,5

# A scenario whose DAG is already contracted (a task with members): its
# table lists the original tasks, loads, samples members with their task,
# and the simulator runs it (#31 item 6).
mkdir -p "$T/c6"
printf '%s\n' '{"name": "fj", "tasks": [{"id": "s", "time": 0.001}, {"id": "x1", "time": 0.01, "members": ["x1", "x2"]},' \
    '{"id": "y1", "time": 0.01}, {"id": "j", "time": 0.001}], "edges": [{"from": "s", "to": "x1", "bytes": 1e6},' \
    '{"from": "s", "to": "y1", "bytes": 1e6}, {"from": "x1", "to": "j", "bytes": 1e6}, {"from": "y1", "to": "j", "bytes": 1e6}]}' \
    >"$T/c6/dag.json"
printf '{"cluster": {"servers": 8, "link_bandwidth": 1e10}, "classes": [{"name": "fj", "dag": "dag.json", "arrival_rate": 50}]}\n' \
    >"$T/c6/sc.json"
$C nona solve "$T/c6/sc.json" -o "$T/c6/t.json" >/dev/null || fail "solve of a contracted DAG"
$C sample "$T/c6/t.json" --class fj --servers 8 --count 20 >"$T/c6/draws" || fail "sample of a contracted DAG's table"
grep -v '^#' "$T/c6/draws" | sed 's/.*x1=\([0-9]*\) x2=\([0-9]*\).*/\1 \2/' | awk '$1 != $2 { bad = 1 } END { exit bad }' ||
    fail "x2 is not on x1's server: $(head -3 "$T/c6/draws")"
for p in nona nona-late; do
    $C sim "$T/c6/sc.json" --policy $p --jobs 2000 --reps 2 >/dev/null || fail "sim --policy $p of a contracted DAG"
done
# --time-limit: a search to gap 0 that would run for minutes (without the
# stall rule) stops on time with the best table and the gap it proved
$C nona solve data/scenarios/fig1.json --gap 0 --max-lps 100000000 --stall 0 --time-limit 0.3 -o "$T/tl.json" --json \
    >"$T/tl.out" 2>&1 || fail "--time-limit: $(cat "$T/tl.out")"
grep -q '"time_limited":	true' "$T/tl.out" || fail "--time-limit not reported: $(cat "$T/tl.out")"
[ -s "$T/tl.json" ] || fail "--time-limit: no table"
expect_error 2 "--time-limit: expected 0 .. 1e9 seconds" -- $C nona solve data/scenarios/fig1.json --time-limit -1 -o "$T/out.json"
# --late-waits: a late table and its summary record the shape (least-of-d
# by default since 2026-11-28, uniform the earlier), early ones neither; a
# late part waits less often and longer, so the ensemble's three parallel
# parts are priced higher
$C nona solve data/scenarios/ensemble.json --binding late --late-waits uniform -o "$T/lu.json" --json >"$T/lu.out" ||
    fail "late solve, --late-waits uniform"
$C nona solve data/scenarios/ensemble.json --binding late -o "$T/ld.json" --json >"$T/ld.out" || fail "late solve"
$C nona solve data/scenarios/ensemble.json -o "$T/le.json" --json >"$T/le.out" || fail "early solve"
grep -q '"late_waits":	"uniform"' "$T/lu.json" || fail "--late-waits uniform not recorded in the table"
grep -q '"late_waits":	"least-of-d"' "$T/ld.json" || fail "the default late table does not record least-of-d"
grep -q '"late_waits"' "$T/le.json" && fail "an early table records late_waits"
grep -q "\"late_waits\":	\"uniform\"" "$T/lu.out" || fail "the summary does not say uniform: $(cat "$T/lu.out")"
grep -q "\"late_waits\":	\"least-of-d\"" "$T/ld.out" || fail "the summary does not say least-of-d: $(cat "$T/ld.out")"
grep -q "late_waits" "$T/le.out" && fail "an early summary names late_waits"
ju=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/lu.out")
jd=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/ld.out")
[ -n "$ju" ] && [ -n "$jd" ] && awk -v u="$ju" -v d="$jd" 'BEGIN { exit !(d > u * (1 + 1e-6)) }' ||
    fail "least-of-d's mean JCT '$jd' not above uniform's '$ju'"
$C sample "$T/ld.json" --class ensemble --servers 8 --count 5 >/dev/null 2>&1 || fail "sample of a least-of-d table"
expect_error 2 "--late-waits: expected least-of-d or uniform" -- $C nona solve data/scenarios/ensemble.json --late-waits x -o "$T/out.json"
# --late-first: late tables record the first wait they were solved with
# (root by default since 2026-11-29, aged the model before), early ones none
$C nona solve data/scenarios/ensemble.json --binding late --late-first aged -o "$T/la.json" --json >"$T/la.out" ||
    fail "late solve, --late-first aged"
grep -q '"late_first":	"aged"' "$T/la.json" && grep -q '"late_first":	"aged"' "$T/la.out" ||
    fail "--late-first aged not recorded"
grep -q '"late_first":	"root"' "$T/ld.json" && grep -q '"late_first":	"root"' "$T/ld.out" ||
    fail "the default late table does not record late_first root"
grep -q '"late_first"' "$T/le.json" "$T/le.out" && fail "an early table records late_first"
expect_error 2 "--late-first: expected aged or root" -- $C nona solve data/scenarios/ensemble.json --late-first x -o "$T/out.json"
# --virtual-root part: a DAG of two source tasks (a virtual root) solved
# late with the root's wait on its part only: recorded, and a table at
# most the default's mean JCT (the default charges every task that wait)
cat >"$T/two.json" <<'EOF2'
{"tasks": [{"id": "a", "time": 0.010}, {"id": "b", "time": 0.020}, {"id": "t", "time": 0.001}],
 "edges": [{"from": "a", "to": "t", "bytes": 100000}, {"from": "b", "to": "t", "bytes": 100000}]}
EOF2
cat >"$T/two-s.json" <<'EOF2'
{"cluster": {"servers": 80, "link_bandwidth": 1.25e9},
 "classes": [{"name": "two", "dag": "two.json", "arrival_rate": 1300}]}
EOF2
# model_option SCENARIO KEY VALUE TEST COMMON OPTION: solves with COMMON and
# OPTION and with COMMON alone; only the first table and summary record
# "KEY": "VALUE", and TEST (awk, o the option's mean JCT, d the default's) holds
model_option() {
    # shellcheck disable=SC2086
    $C nona solve "$1" $5 $6 -o "$T/mo.json" --json >"$T/mo.out" && $C nona solve "$1" $5 -o "$T/md.json" --json >"$T/md.out" ||
        { fail "solve $1 $5 [$6]"; return; }
    grep -q "\"$2\":	\"$3\"" "$T/mo.json" && grep -q "\"$2\":	\"$3\"" "$T/mo.out" || fail "$6 not recorded as $2"
    grep -q "\"$2\"" "$T/md.json" "$T/md.out" && fail "a table without $6 records $2"
    o=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/mo.out")
    d=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/md.out")
    [ -n "$o" ] && [ -n "$d" ] && awk -v o="$o" -v d="$d" "BEGIN { exit !($4) }" ||
        fail "$6: mean JCT $o against the default's $d, not $4"
}
model_option "$T/two-s.json" virtual_root part "o < d" "--binding late" "--virtual-root part"
expect_error 2 "--virtual-root: expected job or part" -- $C nona solve "$T/two-s.json" --virtual-root x -o "$T/out.json"
# --transfers task: on n-shape (parts that feed each other) a prediction at
# most the default's (a transfer no longer holds the part)
model_option data/scenarios/n-shape.json transfers task "o <= d * (1 + 1e-9)" "" "--transfers task"
expect_error 2 "--transfers: expected task or part" -- $C nona solve data/scenarios/n-shape.json --transfers x -o "$T/out.json"
# --rtt: a sampled root and each late part start a round trip later. fig1's
# split saves under 7 ms: with 10 ms a part the table keeps every job on
# its root's server (its mean JCT is the all-local one, root trip included),
# with 1 ms it still splits; the table records the round trip, tables
# without one do not
$C nona solve data/scenarios/fig1.json --binding late --rtt 0.01 -o "$T/rt.json" --json >"$T/rt.out" ||
    fail "late solve, --rtt 0.01"
$C nona solve data/scenarios/fig1.json --binding late --rtt 0.001 --json >"$T/rt1.out" || fail "late solve, --rtt 0.001"
grep -q '"round_trip":	0.01,' "$T/rt.json" || fail "--rtt not recorded in the table"
grep -q '"round_trip"' "$T/ld.json" && fail "a table without --rtt records a round trip"
jr=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/rt.out")
lr=$(sed -n 's/^	"local_mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/rt.out")
j1=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/rt1.out")
l1=$(sed -n 's/^	"local_mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/rt1.out")
[ -n "$jr" ] && awk -v j="$jr" -v l="$lr" -v j1="$j1" -v l1="$l1" \
    'BEGIN { exit !(j > l * (1 - 1e-9) && j < l * (1 + 1e-9) && l > l1 + 0.0089 && j1 < l1 * 0.95) }' ||
    fail "--rtt: fig1 at 10 ms should be all local ($jr vs $lr), split at 1 ms ($j1 vs $l1)"
expect_error 2 "--rtt: expected a round trip in seconds, 0 .. 10" -- $C nona solve data/scenarios/fig1.json --rtt -1 -o "$T/out.json"
expect_error 2 "--spread-gap: expected a share of J >= 0" -- $C nona solve data/scenarios/fig1.json --spread-gap -1 -o "$T/out.json"
expect_error 2 "--chase: expected a share of the open gap, 0 .. 1" -- $C nona solve data/scenarios/fig1.json --chase 2 -o "$T/out.json"
# the solver's options are parsed once for nona and sim (cli_parse_solve_option)
for cmd in "nona solve" sim; do
    expect_error 2 "--gap: expected a relative gap in 0 .. 0.5" -- $C $cmd data/scenarios/fig1.json --gap 0.6
    expect_error 2 "--pilot-first: expected 0 or 1" -- $C $cmd data/scenarios/fig1.json --pilot-first 2
done
$C nona solve data/scenarios/fig1.json --chase 0 -o "$T/ch.json" || fail "--chase 0"
# --late-bind probes: the table records it (late_bind) and its round trips
# are two a root and a part: fig1 with 1 ms, predicted at least 1 ms above
# the least loaded of d's table (one each); early binding refuses it
$C nona solve data/scenarios/fig1.json --binding late --late-bind probes --rtt 0.001 -o "$T/pb.json" --json \
    >"$T/pb.out" || fail "late solve, --late-bind probes"
grep -q '"late_bind":	"probes"' "$T/pb.json" || fail "--late-bind probes not recorded in the table"
grep -q '"late_bind"' "$T/rt.json" && fail "a least-of-d table records late_bind"
jp=$(sed -n 's/^	"mean_jct":	\([0-9.e+-]*\),*$/\1/p' "$T/pb.out")
[ -n "$jp" ] && awk -v p="$jp" -v l="$j1" 'BEGIN { exit !(p >= l + 0.001 - 1e-9) }' ||
    fail "--late-bind probes: predicted $jp, not 1 ms above least-of-d's $j1"
$C sample "$T/pb.json" --class fig1 --servers 8 --count 2 >/dev/null 2>&1 || fail "sample of a probes table"
expect_error 2 "--late-bind probes: the parts bind late only with --binding late" -- $C nona solve data/scenarios/fig1.json --late-bind probes -o "$T/out.json"
# --sampling: late tables on the least loaded of d record finite sampling
# (the default) with the busy count's dispersion and the held share, whose
# chance that all 32 samples are busy is above rho^32; mean-field tables and
# early ones record none (they are as before 2026-11-30)
$C nona solve data/scenarios/ensemble.json --binding late --root-choices 32 -o "$T/fs.json" --json >"$T/fs.out" ||
    fail "late solve, finite sampling"
grep -q '"sampling":	"finite"' "$T/fs.json" && grep -q '"busy_dispersion"' "$T/fs.json" &&
    grep -q '"held_share"' "$T/fs.json" || fail "a late table does not record its finite sampling"
awk -v p="$(sed -n 's/^	"all_sampled_busy":	\([0-9.e+-]*\),*$/\1/p' "$T/fs.out")" \
    -v r="$(sed -n 's/^	"rho_servers":	\([0-9.e+-]*\),*$/\1/p' "$T/fs.out")" 'BEGIN { exit !(p > r ^ 32 && p < 1) }' ||
    fail "finite sampling: all 32 busy with probability $(grep all_sampled_busy "$T/fs.out")"
$C nona solve data/scenarios/ensemble.json --binding late --root-choices 32 --sampling mean-field -o "$T/mf.json" ||
    fail "late solve, --sampling mean-field"
$C nona solve data/scenarios/ensemble.json --root-choices 32 -o "$T/ef.json" || fail "early solve, d = 32"
grep -q '"sampling"' "$T/mf.json" "$T/ef.json" && fail "a mean-field or early table records sampling"
expect_error 2 "--sampling: expected auto, finite or mean-field" -- $C nona solve data/scenarios/fig1.json --sampling x -o "$T/out.json"
$C nona solve data/scenarios/ensemble.json --binding late -o "$T/f2.json" || fail "late solve, d = 2"
grep -q '"sampling"' "$T/f2.json" && fail "auto sampling: a d = 2 table records finite sampling"
expect_error 2 "--spread-gap: expected a share of J >= 0" -- $C sim data/scenarios/fig1.json --spread-gap x
expect_error 2 "--chase: expected a share of the open gap, 0 .. 1" -- $C sim data/scenarios/fig1.json --chase -0.5

# The printed summary (--details): every segment up to 16 classes, two lines
# of totals beyond (a fleet of a thousand classes printed 21,000 lines), a
# line per class on request; the totals agree with the per-class lines.
F=$(pwd)/data/fleets/mixed-10
{
    printf '{"cluster": {"servers": 80, "link_bandwidth": 1.25e9}, "classes": ['
    i=0; while [ $i -lt 17 ]; do
        [ $i -gt 0 ] && printf ', '
        printf '{"name": "k%d", "dag": "%s/fleet-c%d.json", "arrival_rate": %d}' $i "$F" $((i % 10)) $((i % 4 + 3))
        i=$((i + 1))
    done
    printf ']}\n'
} >"$T/k17.json"
$C nona solve "$T/k17.json" >"$T/k17.auto" || fail "solve of 17 classes"
grep -q "^17 classes: predicted mean JCT [0-9.e-]* \.\. [0-9.e-]* s (median [0-9.e-]* s); [0-9]* of 170 segments split over servers$" \
    "$T/k17.auto" || fail "17 classes: no totals line: $(head -4 "$T/k17.auto")"
grep -q "^slowest: k[0-9]* [0-9.e-]* s, k" "$T/k17.auto" || fail "17 classes: no slowest classes"
grep -q "segment 0" "$T/k17.auto" && fail "17 classes: --details auto printed every segment"
$C nona solve "$T/k17.json" --details segments >"$T/k17.seg" || fail "--details segments"
[ "$(grep -c '^class k' "$T/k17.seg")" -eq 17 ] && [ "$(grep -c '^  segment ' "$T/k17.seg")" -eq 170 ] ||
    fail "--details segments: not every class and segment"
$C nona solve "$T/k17.json" --details classes >"$T/k17.cls" || fail "--details classes"
[ "$(grep -c '^class k[0-9]* (.*, 10 segments, [0-9]* split over servers$' "$T/k17.cls")" -eq 17 ] ||
    fail "--details classes: not a line per class"
sum=$(sed -n 's/.*, \([0-9]*\) split over servers$/\1/p' "$T/k17.cls" | awk '{ s += $1 } END { print s }')
grep -q "; $sum of 170 segments split" "$T/k17.auto" || fail "totals' split segments are not the classes' $sum"
$C nona solve data/scenarios/five-models.json --details totals | grep -q "^5 classes: predicted" || fail "--details totals"
$C nona solve data/scenarios/five-models.json | grep -q "^  segment 0" || fail "--details auto: 5 classes not in full"
expect_error 2 "--details: expected auto, segments, classes or totals" -- $C nona solve "$T/k17.json" --details all -o "$T/out.json"
finish
