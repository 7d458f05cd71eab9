#!/bin/sh
# sweeps.sh - every sweep gives the same file at -j 1, at -j 2, and as
# shards joined by contend merge (nona sweep: but for its measured solve
# times); merge refuses a missing or repeated shard, parts of different
# sweeps and files that are no parts.
set -u
. tests/cli-lib.sh
same() { # name file-a file-b [filter]
    if [ -n "${4:-}" ]; then grep -v "$4" "$2" >"$T/a.cmp"; grep -v "$4" "$3" >"$T/b.cmp"; else cp "$2" "$T/a.cmp"; cp "$3" "$T/b.cmp"; fi
    cmp -s "$T/a.cmp" "$T/b.cmp" || fail "$1: $(diff "$T/a.cmp" "$T/b.cmp" | head -4)"
}
check() { # name output-extension filter command...
    name=$1 ext=$2 filter=$3
    shift 3
    "$@" -j 1 -o "$T/$name-1.$ext" >/dev/null 2>&1 || fail "$name -j 1"
    "$@" -j 2 -o "$T/$name-2.$ext" >/dev/null 2>&1 || fail "$name -j 2"
    same "$name: -j 2 differs from -j 1" "$T/$name-1.$ext" "$T/$name-2.$ext" "$filter"
    for k in 0 1 2; do "$@" -j 2 --shard $k/3 -o "$T/$name.part$k" >/dev/null 2>&1 || fail "$name --shard $k/3"; done
    $C merge "$T/$name.part2" "$T/$name.part0" "$T/$name.part1" -o "$T/$name-m.$ext" >/dev/null || fail "$name merge"
    same "$name: merged shards differ from one run" "$T/$name-1.$ext" "$T/$name-m.$ext" "$filter"
}
check nona json solve_seconds $C nona sweep data/scenarios/fig1.json --scale 0.5:4:0.5
check sim csv "" $C sim sweep data/scenarios/fig1.json --loads 0.2:0.95:0.25 --policies nona,random,local --reps 2 --jobs 1000
$C bco workload --seed 2 --jobs 40 -o "$T/bco" >/dev/null
check bco csv "" $C bco sweep "$T/bco/cluster.json" "$T/bco/jobs.json" --vary servers
$C train workload --seed 3 --scale 100 -o "$T/ada.json" >/dev/null
check train csv "" $C train sweep "$T/ada.json" --accounting exact
$C train share-workload --jobs 60 --seed 2 -o "$T/w.csv" >/dev/null
check table csv "" $C train table "$T/w.csv" "$T/ada.json"
# Unstable scales are skipped the same way in every mode.
check unstable json solve_seconds $C nona sweep data/scenarios/fig1.json --scale 10:40:10
# One run's replications at once (-j): the same summary (but for its timing).
for pol in nona nona-late fair local; do
    $C sim data/scenarios/fig1.json --policy $pol --load 0.4 --reps 3 --jobs 1500 -j 1 --json |
        sed 's/"seconds": [0-9.e+-]*//' >"$T/r1" || fail "sim -j 1 $pol"
    $C sim data/scenarios/fig1.json --policy $pol --load 0.4 --reps 3 --jobs 1500 -j 3 --json |
        sed 's/"seconds": [0-9.e+-]*//' >"$T/r3" || fail "sim -j 3 $pol"
    cmp -s "$T/r1" "$T/r3" || fail "sim $pol: replications at once differ from in order"
done
# merge's refusals.
expect_error 2 "shard 2/3 is missing" -- $C merge "$T/nona.part0" "$T/nona.part1" -o "$T/out.json"
expect_error 2 "given twice" -- $C merge "$T/nona.part0" "$T/nona.part0" "$T/nona.part1" "$T/nona.part2" -o "$T/out.json"
expect_error 2 "parts of different sweeps" -- $C merge "$T/nona.part0" "$T/sim.part1" -o "$T/out.json"
expect_error 2 "not a contend part file" -- $C merge "$T/nona-1.json" -o "$T/out.json"
# Parts of two sweeps of the same shape (issue 31, item 8): a fig1 shard and
# an n-shape shard, or the same scenario with another option, are refused.
for k in 0 1; do
    $C sim sweep data/scenarios/fig1.json --loads 0.2:0.4:0.2 --policies local --reps 2 --jobs 500 --shard $k/2 \
        -o "$T/f.part$k" >/dev/null 2>&1 || fail "fig1 shard $k"
    $C sim sweep data/scenarios/n-shape.json --loads 0.2:0.4:0.2 --policies local --reps 2 --jobs 500 --shard $k/2 \
        -o "$T/n.part$k" >/dev/null 2>&1 || fail "n-shape shard $k"
    $C sim sweep data/scenarios/fig1.json --loads 0.2:0.4:0.2 --policies local --reps 2 --jobs 600 --shard $k/2 \
        -o "$T/g.part$k" >/dev/null 2>&1 || fail "fig1 --jobs 600 shard $k"
done
$C merge "$T/f.part1" "$T/f.part0" -o "$T/f.csv" || fail "merge of one sweep's parts"
expect_error 2 "parts of different sweeps" -- $C merge "$T/f.part0" "$T/n.part1" -o "$T/out.json"
expect_error 2 "parts of different sweeps" -- $C merge "$T/f.part0" "$T/g.part1" -o "$T/out.json"
# Crafted part files (issue 31, item 2): a negative or SIZE_MAX point length
# (used to abort in memcpy), a negative shard count (was "out of memory"),
# bytes after the last point (were ignored).
printf 'contend-part/1\nkind sim-sweep\npoints 1\nshard 0 1\npoint 0 -1\nabc\n' >"$T/neg.part"
expect_error 2 "neg.part: point 0 missing or truncated" -- $C merge "$T/neg.part" -o "$T/out.json"
printf 'contend-part/1\nkind sim-sweep\npoints 1\nshard 0 1\npoint 0 18446744073709551615\nabc\n' >"$T/max.part"
expect_error 2 "max.part: point 0 missing or truncated" -- $C merge "$T/max.part" -o "$T/out.json"
printf 'contend-part/1\nkind sim-sweep\npoints 1\nshard 0 -2\npoint 0 3\nabc\n' >"$T/negs.part"
expect_error 2 "negs.part: not a contend part file" -- $C merge "$T/negs.part" -o "$T/out.json"
printf 'contend-part/1\nkind sim-sweep\npoints 1\nshard 0 200000\npoint 0 3\nabc\n' >"$T/many.part"
expect_error 2 "shard I N with 0 <= I < N <= 100000" -- $C merge "$T/many.part" -o "$T/out.json"
printf 'contend-part/1\nkind sim-sweep\npoints 1\nshard 0 1\npoint 0 3\nabc\ngarbage\n' >"$T/tail.part"
expect_error 2 "tail.part: 8 bytes after the last point" -- $C merge "$T/tail.part" -o "$T/out.json"
expect_error 2 "--shard" -- $C sim sweep data/scenarios/fig1.json --loads 0.2:0.4:0.2 --shard 3/3 -o "$T/out.json"
expect_error 2 "-j" -- $C nona sweep data/scenarios/fig1.json --scale 1:2:1 -j -1 -o "$T/out.json"
finish
