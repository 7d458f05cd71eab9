#!/bin/sh
# fuzz_replay.sh - replays the committed fuzz corpus (seeds and every input
# that once crashed a loader, tests/fuzz/corpus/NAME) through each harness
# built without libFuzzer, so `make test`, `make asan` and `make valgrind`
# check them all. `make fuzz` searches for new ones.
set -u
. tests/cli-lib.sh
B=${BUILD:-build}/fuzz-replay
for dir in tests/fuzz/corpus/*/; do
    n=$(basename "$dir")
    bin="$B/fuzz_$n"
    [ -x "$bin" ] || { fail "$bin missing (make test builds it)"; continue; }
    # shellcheck disable=SC2086
    out=$(${WRAP:-} "$bin" "$dir" 2>&1) || fail "fuzz_$n on its corpus: $out"
    echo "$out" | grep -q "^[1-9][0-9]* inputs$" || fail "fuzz_$n replayed nothing: $out"
done
finish
