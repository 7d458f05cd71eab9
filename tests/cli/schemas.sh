#!/bin/sh
# schemas.sh - real outputs of every command validated against the
# versioned JSON Schemas in notebooks-export/schemas/ (python3-jsonschema),
# and a broken output refused.
set -u
. tests/cli-lib.sh
PY=""
for p in /usr/bin/python3 python3; do
    if command -v $p >/dev/null 2>&1 && $p -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    echo "SKIP: python3-jsonschema is not installed ('sh .ci/install-deps' installs it)"
    exit 77
fi
V="$PY notebooks-export/validate.py"
ok() { $V "$@" >"$T/v.out" 2>&1 || fail "$(cat "$T/v.out")"; }
$C dag contract data/examples/fig1.json -o "$T/dag.json" >/dev/null && ok dag-v1 "$T/dag.json" data/dags/alexnet.json
$C nona solve data/scenarios/fig1.json -o "$T/table.json" --json >"$T/solve.json" &&
    ok contend-table-1 "$T/table.json" && ok nona-solve-json-v1 "$T/solve.json"
$C nona sweep data/scenarios/fig1.json --scale 0.5:1.5:0.5 -o "$T/lookup.json" --json >"$T/nsweep.json" 2>/dev/null &&
    ok contend-table-1 "$T/lookup.json" && ok nona-sweep-json-v1 "$T/nsweep.json"
# Every variant of the solve summary, and a summary inside the sweep's is checked against the solve's schema.
$C nona solve data/scenarios/ensemble-large.json --binding late --waits job-first-merged --late-waits uniform \
    --json >"$T/s1.json" &&
    $C nona solve data/scenarios/ensemble.json --binding late --rtt 0.0005 --json >"$T/s4.json" &&
    $C nona solve data/scenarios/fig1.json --model link --method grid --json >"$T/s2.json" &&
    $C nona solve data/scenarios/fig1.json --method penalty --json >"$T/s3.json" &&
    ok nona-solve-json-v1 "$T/s1.json" "$T/s2.json" "$T/s3.json" "$T/s4.json"
sed 's/"skipped"/"skiped"/' "$T/nsweep.json" >"$T/bad.json"
$V nona-sweep-json-v1 "$T/bad.json" >/dev/null 2>&1 && fail "a misspelled key in nona sweep --json validated"
sed 's/"mean_jct"/"mean_jtc"/' "$T/nsweep.json" >"$T/bad.json"
$V nona-sweep-json-v1 "$T/bad.json" >/dev/null 2>&1 && fail "a misspelled key inside a sweep's summary validated"
$C dag check data/examples/fig1.json --json >"$T/dcheck.json" && ok dag-check-json-v1 "$T/dcheck.json"
$C dag contract data/dags/alexnet.json --json >"$T/dcon.json" && ok dag-contract-json-v1 "$T/dcon.json"
$C dag split data/dags/alexnet.json --json >"$T/dsplit.json" && ok dag-split-json-v1 "$T/dsplit.json"
$C dag partitions data/examples/fig1.json --json >"$T/dpart.json" && ok dag-partitions-json-v1 "$T/dpart.json"
$C sim data/scenarios/fig1.json --jobs 1000 --reps 2 --by-task --json >"$T/simt.json" && ok sim-json-v1 "$T/simt.json"
$C sim check --generate 1 --gen-seed 5 --stages 2:3 --jobs 500 --reps 2 --loads 0.3:0.3:0.1 -o "$T/check.csv" \
    >/dev/null && ok sim-check-csv-v1 "$T/check.csv"
$C sim compare --generate 1 --family pipeline --gen-seed 5 --jobs 500 --reps 2 --loads 0.5:0.5:0.1 \
    --policies nona,random,fair -o "$T/compare.csv" >/dev/null && ok sim-compare-csv-v2 "$T/compare.csv"
cut -d, -f1-8,10- "$T/compare.csv" >"$T/compare1.csv" && ok sim-compare-csv-v1 "$T/compare1.csv" # the older rows
sed 's/,fair,/,fiar,/' "$T/compare.csv" >"$T/badc.csv"
$V sim-compare-csv-v2 "$T/badc.csv" >/dev/null 2>&1 && fail "an unknown policy in sim compare's rows validated"
$C sample "$T/lookup.json" --class fig1 --servers 8 --count 3 --json >"$T/sample.json" && ok sample-json-v1 "$T/sample.json"
$C sim data/scenarios/fig1.json --jobs 2000 --reps 2 --json >"$T/sim.json" && ok sim-json-v1 "$T/sim.json"
$C sim data/scenarios/fig1.json --table "$T/lookup.json" --load 0.1 --jobs 1000 --reps 1 --json >"$T/simf.json" &&
    grep -q '"table_scale"' "$T/simf.json" && ok sim-json-v1 "$T/simf.json" || fail "sim --table --json"
$C sim data/scenarios/ensemble.json --policy random --load 0.5 --reps 2 --jobs 4000 --json >"$T/simu.json" 2>/dev/null
ok sim-json-v1 "$T/simu.json" # an unstable run (exit 2) still writes its document
$C sim sweep data/scenarios/fig1.json --loads 0.3:0.95:0.3 --jobs 2000 --reps 2 --policies nona,local \
    -o "$T/sweep.csv" >/dev/null && ok sim-sweep-csv-v1 "$T/sweep.csv"
$C bco workload --seed 1 --jobs 20 -o "$T/bco" >/dev/null && ok rar-cluster-v1 "$T/bco/cluster.json" &&
    ok rar-jobs-v1 "$T/bco/jobs.json"
$C bco schedule "$T/bco/cluster.json" "$T/bco/jobs.json" -o "$T/schedule.json" --json >"$T/bsched.json" &&
    ok contend-schedule-2 "$T/schedule.json" && ok bco-schedule-json-v1 "$T/bsched.json"
$C bco validate --random 3 --family tiny --json >"$T/bvr.json" 2>/dev/null && ok bco-validate-random-json-v1 "$T/bvr.json"
$C bco sweep "$T/bco/cluster.json" "$T/bco/jobs.json" --vary servers -o "$T/bsweep.csv" >/dev/null &&
    ok bco-sweep-csv-v1 "$T/bsweep.csv"
$C bco validate --random 4 --family tiny -o "$T/inst.csv" >/dev/null 2>&1 && ok bco-instances-csv-v1 "$T/inst.csv"
$C bco validate "$T/bco/cluster.json" "$T/bco/jobs.json" --json >"$T/bval.json" 2>/dev/null &&
    ok bco-validate-json-v1 "$T/bval.json"
$C train workload --seed 1 --scale 100 -o "$T/tjobs.json" >/dev/null && ok train-jobs-v1 "$T/tjobs.json"
$C train run "$T/tjobs.json" -o "$T/tres.csv" --json >"$T/trun.json" && ok train-results-csv-v1 "$T/tres.csv" &&
    ok train-run-json-v1 "$T/trun.json"
$C train sweep "$T/tjobs.json" --accounting exact -o "$T/tsweep.csv" >/dev/null && ok train-sweep-csv-v1 "$T/tsweep.csv"
$C train share-workload --jobs 40 -o "$T/sw.csv" >/dev/null && ok share-workload-csv-v1 "$T/sw.csv"
$C train run "$T/sw.csv" --policy sjf-bsbf -o "$T/sres.csv" --json >"$T/srun.json" &&
    ok train-results-csv-v1 "$T/sres.csv" && ok train-run-json-v1 "$T/srun.json"
$C train table "$T/sw.csv" -o "$T/stable.csv" >/dev/null && ok share-table-csv-v1 "$T/stable.csv"
ok share-apps-v1 data/share/apps.json data/share/cx-wait/apps.json
$C export "$T/lookup.json" --format csv -o "$T/export.csv" && ok export-csv-v1 "$T/export.csv"
# A table solved for late-bound parts: sample prints their tasks as null.
$C nona solve data/scenarios/ensemble.json --binding late --late-waits uniform -o "$T/ld.json" >/dev/null &&
    ok contend-table-1 "$T/ld.json" || fail "a uniform late table"
$C nona solve data/scenarios/ensemble.json --binding late --rtt 0.0005 -o "$T/late.json" >/dev/null &&
    ok contend-table-1 "$T/late.json" &&
    $C sample "$T/late.json" --class ensemble --servers 8 --count 3 --json >"$T/ls.json" &&
    grep -q 'null' "$T/ls.json" && ok sample-json-v1 "$T/ls.json" || fail "sample of a late table: $(cat "$T/ls.json")"
# The service's answers (without a socket: contend serve is tested in serve_cli.sh).
if command -v curl >/dev/null 2>&1; then
    serve_start "$T/serve.out" "$T/lookup.json"
    curl -s "$U/healthz" >"$T/h.json" && ok service-healthz-v1 "$T/h.json"
    curl -s -X POST "$U/place" -d '{"class": "fig1", "servers": ["a", "b", "c"]}' >"$T/p.json" &&
        ok service-place-v1 "$T/p.json"
    curl -s -X POST "$U/prioritize" --data-binary @tests/data/extender-prioritize.json >"$T/pr.json" &&
        ok service-prioritize-v1 "$T/pr.json"
    curl -s -X POST "$U/place" -d '{"class": "x"}' >"$T/e.json" && ok service-error-v1 "$T/e.json"
    curl -s -X POST "$U/reload" >"$T/r.json" && ok service-reload-v1 "$T/r.json"
    curl -s -X POST "$U/bind" -d '{"servers": ["a", "b"], "queue_lengths": [3, 0]}' >"$T/b.json" &&
        ok service-bind-v1 "$T/b.json"
    curl -s -X POST "$U/bind" -d '{"servers": ["a", "b", "c"], "rule": "probes", "parts": 2}' >"$T/bp.json" &&
        grep -q '"probes": \[' "$T/bp.json" && ok service-bind-v1 "$T/bp.json" || fail "/bind with probes: $(cat "$T/bp.json")"
    kill $pid
    wait $pid 2>/dev/null
    # A table for late-bound parts: /place leaves the parts away from the root unbound.
    serve_start "$T/serve.out" "$T/late.json"
    curl -s -X POST "$U/place" -d '{"class": "ensemble", "servers": 8}' >"$T/pl.json" &&
        grep -q '"late_parts"' "$T/pl.json" && ok service-place-v1 "$T/pl.json" ||
        fail "a late table's /place answer: $(cat "$T/pl.json")"
    kill $pid
    wait $pid 2>/dev/null
fi
# A broken table and a renamed CSV column fail.
sed 's/"probability"/"prob"/' "$T/table.json" >"$T/bad.json"
$V contend-table-1 "$T/bad.json" >/dev/null 2>&1 && fail "a table without probabilities validated"
# The table's schema is closed: each mutation of a real lookup fails (#28).
for mut in unknown-key misspelled no-hash hash-not-hex no-root duplicate-task negative-gap; do
    python3 - "$T/lookup.json" "$T/mut.json" "$mut" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, m = d["scenarios"][0], sys.argv[3]
c, t = s["classes"][0], s["classes"][0]["segments"][0]["triplets"][0]
if m == "unknown-key": d["extra"] = 1
elif m == "misspelled": t["probabilty"] = t.pop("probability")
elif m == "no-hash": del s["hash"]
elif m == "hash-not-hex": s["hash"] = "not hex at all!!"
elif m == "no-root": del c["root"]
elif m == "duplicate-task": c["tasks"].append(c["tasks"][0])
elif m == "negative-gap": s["model"]["gap"] = -1
json.dump(d, open(sys.argv[2], "w"))
PY
    $V contend-table-1 "$T/mut.json" >/dev/null 2>&1 && fail "a lookup with $mut validated"
done
# What a schema cannot say (k within the segment's parts) the loader refuses.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["scenarios"][0]["classes"][0]["segments"][0]["triplets"][0]["k"] = 99
json.dump(d, open(sys.argv[2], "w"))' "$T/lookup.json" "$T/k99.json"
$C export "$T/k99.json" --format csv -o "$T/k99.csv" >/dev/null 2>&1 && fail "a lookup with k 99 exported"
sed '1s/mean_jct/mean/' "$T/sweep.csv" >"$T/bad.csv"
$V sim-sweep-csv-v1 "$T/bad.csv" >/dev/null 2>&1 && fail "a renamed column validated"
# Every schema is a valid draft 2020-12 schema, and each is used above.
for s in notebooks-export/schemas/*.schema.json; do
    n=$(basename "$s" .schema.json)
    grep -q "ok $n \|ok $n\$" "$0" || fail "schema $n is not exercised by this test"
done
finish
