#!/bin/sh
# sweeps.sh - the speed-up of a sweep on 2 threads and on 2 MPI ranks
# against 1 thread, in one run (goal: 1.8x on two cores). CONTEND: the
# command; MPI_CONTEND: the MPI build (skipped when absent).
set -u
C=${CONTEND:-build/contend}
MC=${MPI_CONTEND:-build/mpi/contend}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }
A="sim sweep data/scenarios/five-models.json --loads 0.1:0.8:0.1 --policies nona,random,local,fair --reps 2 --jobs 4000"
run() { t0=$(now); "$@" >/dev/null 2>&1 || echo "bench sweeps: $* failed" >&2; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }
t1=$(run $C $A -j 1 -o "$T/1.csv")
t2=$(run $C $A -j 2 -o "$T/2.csv")
cmp -s "$T/1.csv" "$T/2.csv" || echo "bench sweeps: -j 2 output differs from -j 1!" >&2
echo "sweeps: sim sweep, five models, 8 loads x 4 policies x 2 replications (goal: 1.8x on 2 cores; $(nproc) here)"
printf '  %-22s %8.2f s\n' "-j 1" "$t1"
printf '  %-22s %8.2f s %7.2fx\n' "-j 2" "$t2" "$(ratio "$t1" "$t2")"
if [ -x "$MC" ] && command -v mpirun >/dev/null 2>&1; then
    M="mpirun --oversubscribe -n 2"
    [ "$(id -u)" -eq 0 ] && M="$M --allow-run-as-root"
    tm=$(run $M $MC $A -o "$T/m.csv")
    cmp -s "$T/1.csv" "$T/m.csv" || echo "bench sweeps: the MPI output differs from -j 1!" >&2
    printf '  %-22s %8.2f s %7.2fx\n' "mpirun -n 2 (1 thread)" "$tm" "$(ratio "$t1" "$tm")"
else
    echo "  mpirun -n 2: skipped (no MPI build: make MPI=1)"
fi
