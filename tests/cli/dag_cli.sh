#!/bin/sh
# dag_cli.sh - `contend dag` from the outside: exit codes, one-line errors
# that name the file, no output file left behind, bundled data up to date.
set -u
. tests/cli-lib.sh

printf '{"tasks": [{"id": "a", "time": 1}, {"id": "b", "time": 1}], "edges": [{"from": "a", "to": "b", "bytes": 1}, {"from": "b", "to": "a", "bytes": 1}]}' >"$T/cycle.json"
printf '{"tasks": [{"id": "a", "time": -1}]}' >"$T/neg.json"
printf '{"tasks": [{"id": "a", "time": 1}' >"$T/bad.json"
printf 'n1 -- X -- forward_compute_time=1, activation_size=4\n\tn1 -- n2\n' >"$T/bad.txt"
expect_error 2 "cycle.json: edges: the graph has a cycle: " -- $C dag contract "$T/cycle.json" -o "$T/out.json"
expect_error 2 "neg.json: tasks[0].time: task 'a' has negative time" -- $C dag contract "$T/neg.json" -o "$T/out.json"
expect_error 2 "bad.json:1:" -- $C dag split "$T/bad.json"
expect_error 2 "bad.txt:2: edge target: unknown task id 'n2'" -- $C dag import pipedream "$T/bad.txt" -o "$T/out.json"
expect_error 2 "missing.json: cannot open" -- $C dag contract "$T/missing.json" -o "$T/out.json"
expect_error 2 "unknown model 'nope'" -- $C dag zoo nope -o "$T/out.json"
expect_error 2 "--max-triplets" -- $C dag partitions --max-triplets 0 data/dags/resnet18.json
expect_error 2 "unknown command" -- $C frobnicate
$C --help | grep -q "usage: contend" || fail "contend --help"
$C dag --help | grep -q -- "--keep-input-time" || fail "contend dag --help"

# Over the triplet limit: names the segment and the count.
expect_error 2 "need 5 placement triplets, over the limit of 4" -- $C dag partitions --max-triplets 4 data/dags/resnet18.json

# The bundled DAGs are exactly what the zoo generator writes.
for m in alexnet vgg16 resnet18 densenet121 gpt2; do
    $C dag zoo $m -o "$T/$m.json" 2>/dev/null || fail "zoo $m"
    cmp -s "$T/$m.json" "data/dags/$m.json" || fail "data/dags/$m.json is stale: run make data"
    $C dag zoo $m --flops 1e11 --mem-bw 2e10 -o "$T/$m.json" 2>/dev/null || fail "zoo $m (cpu)"
    cmp -s "$T/$m.json" "data/dags-cpu/$m.json" || fail "data/dags-cpu/$m.json is stale: run make data"
done

# contract -o writes a loadable DAG whose members cover every original task.
$C dag contract data/dags/resnet18.json -o "$T/c.json" >/dev/null || fail "contract -o"
$C dag check "$T/c.json" | grep -q "10 tasks" || fail "contracted resnet18 has 10 tasks"
$C dag contract --json data/dags/densenet121.json | tr -d ' \n\t' | grep -q '"tasks_before":429,"edges_before":487,"tasks_after":4' || fail "contract --json"
$C dag partitions --json data/dags/resnet18.json | grep -q '"crossing"' || fail "partitions --json"
$C dag split data/dags/resnet18.json | grep -q "4 bottlenecks, 3 segments" || fail "split resnet18"

# "-" is standard input, for DAGs and scenarios (whose DAG paths are then
# relative to the working directory)
$C dag check - <data/examples/fig1.json >"$T/stdin.out" 2>&1 && grep -q "^-: valid DAG fig1, 4 tasks" "$T/stdin.out" ||
    fail "dag check -: $(cat "$T/stdin.out")"
sed 's|"\.\./examples/fig1.json"|"data/examples/fig1.json"|' data/scenarios/fig1.json >"$T/fig1-here.json"
$C nona solve - <"$T/fig1-here.json" >"$T/stdin.out" 2>&1 || fail "nona solve -: $(cat "$T/stdin.out")"
grep -q "^scenario -" "$T/stdin.out" || fail "nona solve -: $(head -2 "$T/stdin.out")"
echo '{"tasks": [' | $C dag check - >/dev/null 2>"$T/stdin.err"
grep -q "^contend: -:2:1: malformed JSON" "$T/stdin.err" || fail "a malformed DAG on stdin: $(cat "$T/stdin.err")"
finish
