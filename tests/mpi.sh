#!/bin/sh
# mpi.sh - `make test-mpi`: every sweep run by 2 MPI ranks (CONTEND, built
# with make MPI=1) writes the file the serial command (SERIAL, -j 1) writes.
# Ends with "N passed, N failed".
set -u
C=${CONTEND:-build/mpi/contend}
S=${SERIAL:-build/contend}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
M="mpirun --oversubscribe -n 2"
[ "$(id -u)" -eq 0 ] && M="$M --allow-run-as-root"
pass=0 failed=0
one() { # name ext filter args...
    name=$1 ext=$2 filter=$3
    shift 3
    $S "$@" -j 1 -o "$T/$name-serial.$ext" >/dev/null 2>&1 || { echo "FAIL $name: serial run"; failed=$((failed + 1)); return; }
    $M $C "$@" -o "$T/$name-mpi.$ext" >"$T/$name.log" 2>&1 || { echo "FAIL $name: mpirun: $(tail -3 "$T/$name.log")"; failed=$((failed + 1)); return; }
    if [ -n "$filter" ]; then
        grep -v "$filter" "$T/$name-serial.$ext" >"$T/a"; grep -v "$filter" "$T/$name-mpi.$ext" >"$T/b"
    else
        cp "$T/$name-serial.$ext" "$T/a"; cp "$T/$name-mpi.$ext" "$T/b"
    fi
    if cmp -s "$T/a" "$T/b" && grep -q "MPI: 2 ranks" "$T/$name.log"; then
        echo "PASS mpi $name"; pass=$((pass + 1))
    else
        echo "FAIL mpi $name: $(diff "$T/a" "$T/b" | head -3) $(tail -2 "$T/$name.log")"; failed=$((failed + 1))
    fi
}
one nona json solve_seconds nona sweep data/scenarios/fig1.json --scale 0.5:4:0.5
one sim csv "" sim sweep data/scenarios/fig1.json --loads 0.2:0.8:0.3 --policies nona,random,local --reps 2 --jobs 1000
$S bco workload --seed 2 --jobs 40 -o "$T/bco" >/dev/null
one bco csv "" bco sweep "$T/bco/cluster.json" "$T/bco/jobs.json" --vary servers
$S train workload --seed 3 --scale 100 -o "$T/ada.json" >/dev/null
one train csv "" train sweep "$T/ada.json" --accounting exact
$S train share-workload --jobs 60 --seed 2 -o "$T/w.csv" >/dev/null
one table csv "" train table "$T/w.csv" "$T/ada.json"
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
