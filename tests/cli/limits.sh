#!/bin/sh
# limits.sh - documented limits on hostile or huge input (docs/limits.md):
# refused with exit 2 and a one-line message before the input is read or
# memory is committed.
set -u
. tests/cli-lib.sh

# A file over 1 GiB (sparse: no disk used) is refused before it is read.
truncate -s 1100000000 "$T/huge.json" 2>/dev/null || dd if=/dev/zero of="$T/huge.json" bs=1 count=0 seek=1100000000 2>/dev/null
expect_error 2 "over the limit of 1073741824 bytes per input file" -- $C dag check "$T/huge.json"
expect_error 2 "over the limit of 1073741824 bytes per input file" -- $C nona solve "$T/huge.json" -o "$T/out.json"
expect_error 2 "over the limit of 1073741824 bytes per lookup file" -- $C sample "$T/huge.json" --class x --servers 8
# ... refused before it is read: well under its size in memory (#31 item 11)
if command -v /usr/bin/time >/dev/null 2>&1; then
    /usr/bin/time -f '%M' -o "$T/rss" $C sample "$T/huge.json" --class x --servers 8 >/dev/null 2>&1
    [ "$(tail -1 "$T/rss")" -lt 200000 ] || fail "a 1.1 GB lookup file took $(tail -1 "$T/rss") KB to refuse"
else
    echo "SKIP: /usr/bin/time absent: the memory to refuse a huge lookup file is not checked"
fi
rm -f "$T/huge.json"

# A task id over 1024 bytes.
long=$(head -c 1100 /dev/zero | tr '\0' x)
printf '{"tasks": [{"id": "%s", "time": 1}]}' "$long" >"$T/longid.json"
expect_error 2 "tasks[0].id: task id of 1100 bytes, over the limit of 1024" -- $C dag check "$T/longid.json"
printf 'n1 -- %s -- forward_compute_time=1, activation_size=4\n' "$long" >"$T/ok.txt"
$C dag check --format pipedream "$T/ok.txt" >/dev/null || fail "a long description is fine"

# More than 10,000 classes in a scenario.
{
    printf '{"cluster": {"servers": 8, "link_bandwidth": 1e9}, "classes": ['
    i=0
    while [ $i -le 10000 ]; do
        [ $i -gt 0 ] && printf ','
        printf '{"name": "c%d", "dag": "d.json", "arrival_rate": 1}' $i
        i=$((i + 1))
    done
    printf ']}'
} >"$T/many.json"
expect_error 2 "classes: 10001 classes, over the limit of 10000" -- $C nona solve "$T/many.json" -o "$T/out.json"

# A lookup file with a task id over 1024 bytes.
printf '{"format": "contend-table/1", "scenarios": [{"scale": 1, "classes": [{"name": "c", "arrival_rate": 1, "tasks": ["%s"], "root": ["%s"], "segments": []}]}]}' "$long" "$long" >"$T/lk.json"
expect_error 2 "task id longer than 1024 bytes" -- $C sample "$T/lk.json" --class c --servers 8

# More GPUs than CT_MAX_GPUS in a training cluster: each server is within its
# own cap, the total (4.3e9) would wrap a 32-bit count (issue 31, item 1).
{
    printf '{"servers": ['
    i=0
    while [ $i -lt 4295 ]; do
        [ $i -gt 0 ] && printf ','
        printf '1000000'
        i=$((i + 1))
    done
    printf '], "intra_bandwidth": 1000, "inter_bandwidth": 100, "reduction_speed": 2000, "xi1": 1, "xi2": 0.0002, "alpha": 0.5, "horizon": 1200}'
} >"$T/bigc.json"
bjobs=data/bco/p2-cmax/jobs.json
for sub in schedule validate; do
    expect_error 2 "servers: 4295000000 GPUs in all, more than the 10000000 supported" -- $C bco $sub "$T/bigc.json" "$bjobs"
done
expect_error 2 "servers: 4295000000 GPUs in all, more than the 10000000 supported" -- $C bco sweep "$T/bigc.json" "$bjobs" --vary kappa -o "$T/sw.csv"
[ -e "$T/sw.csv" ] && fail "bco sweep left an output for a refused cluster"
printf '{"servers": 10000, "gpus_per_server": 4096, "gpu_memory": 16000, "b": 1}' >"$T/bigt.json"
$C train workload --seed 1 -o "$T/tj.json" >/dev/null || fail "train workload"
expect_error 2 "servers x gpus_per_server: 40960000 GPUs, more than the 10000000 supported" -- $C train run "$T/tj.json" --cluster "$T/bigt.json"
# Options that would run forever or write nothing (#31 item 12).
expect_error 2 "--interval" -- $C train run "$T/tj.json" --policy sjf-bsbf --interval 1e-9
for p in ',,,' '' 'nona,local,nona'; do
    expect_error 2 "--policies" -- $C sim sweep data/scenarios/fig1.json --loads 0.5:0.5:0.1 --policies "$p" -o "$T/out.json"
done
# A short run whose backlog rises mildly is undecided, not unstable (#31 item 14).
$C sim data/scenarios/fig1.json --policy local --load 0.4 --jobs 500 --reps 1 --seed 4 >/dev/null 2>"$T/stderr" ||
    fail "a 500-job run called unstable: $(cat "$T/stderr")"
grep -q "too few to judge stability" "$T/stderr" || fail "no warning for a 500-job run: $(cat "$T/stderr")"
# CSV fields are quoted (RFC 4180) where names hold commas or quotes, in every
# writer, and read back (#31 item 9): a class name through sim sweep, a job
# name through a sharing workload and train run.
sed 's|"fig1", "dag": "../examples/fig1.json"|"fig1, \\"v2\\"", "dag": "'"$PWD"'/data/examples/fig1.json"|' \
    data/scenarios/fig1.json >"$T/odd.json"
$C sim sweep "$T/odd.json" --loads 0.5:0.5:0.1 --policies local --jobs 1000 --reps 2 -o "$T/odd.csv" >/dev/null 2>&1 ||
    fail "sim sweep of a class named with a comma and quotes"
python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows and rows[0]["class"] == "fig1, \"v2\"" and rows[0]["status"] == "ok", rows[:1]' "$T/odd.csv" ||
    fail "sim sweep CSV: the class name does not read back"
$C train share-workload --jobs 3 -o "$T/sw.csv" >/dev/null || fail "share-workload"
sed '2s/^[^,]*,/"j,1 ""x""",/' "$T/sw.csv" >"$T/sw2.csv"
$C train run "$T/sw2.csv" --policy sjf-bsbf -o "$T/sres.csv" >/dev/null || fail "train run of a quoted job name"
python3 -c 'import csv, sys
ids = [r["id"] for r in csv.DictReader(open(sys.argv[1], newline=""))]
assert "j,1 \"x\"" in ids, ids' "$T/sres.csv" || fail "train run CSV: the quoted job name does not read back"
# Finite but absurd values (#31 item 13): refused at load, not run into inf / nan.
printf '{"name": "x", "tasks": [{"id": "a", "time": 1e308}], "edges": []}' >"$T/t308.json"
expect_error 2 "tasks[0].time: task 'a' has an implausible (over 1e9 s) time" -- $C dag check "$T/t308.json"
printf '{"name": "x", "tasks": [{"id": "a", "time": 1}, {"id": "b", "time": 1}], "edges": [{"from": "a", "to": "b", "bytes": 1e300}]}' >"$T/b300.json"
expect_error 2 "edges[0].bytes: edge a -> b: 1e+300 bytes, over 1e+18" -- $C dag check "$T/b300.json"
$C train share-workload --jobs 3 -o "$T/sw308.csv" >/dev/null || fail "share-workload"
sed '2s/,[0-9.e+]*$/,1e308/' "$T/sw308.csv" >"$T/sw308b.csv"
expect_error 2 "iterations: expected a number in (0, 1e+12]" -- $C train run "$T/sw308b.csv" --policy sjf-bsbf
# A newline in a lookup's task id stays out of the (one-line) error (#31 item 10).
$C nona solve data/scenarios/fig1.json -o "$T/nl.json" >/dev/null || fail "nona solve"
sed 's/\[\["det"\]/[["det\\nx"]/' "$T/nl.json" >"$T/nl2.json"
grep -q 'det\\nx' "$T/nl2.json" || fail "the lookup was not mutated"
expect_error 2 "task 'det?x' is not in" -- $C sample "$T/nl2.json" --class fig1 --servers 8
expect_error 2 "--servers: expected 1 .. 4294967294" -- $C sample "$T/nl.json" --class fig1 --servers 4294967295
finish
