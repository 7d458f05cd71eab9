#!/bin/sh
# tests/run.sh - runs contend's tests and ends with "N passed, N failed, N skipped".
#
# Arguments: the unit-test programs. Also runs every tests/cli/*.sh script.
# A program passes when it exits 0 and, if tests/unit/NAME.out exists, its
# standard output equals that file; 77 means skipped (its SKIP line is shown);
# a passing script's "SKIP: why" lines count as skipped checks.
# WRAP (e.g. valgrind ...) prefixes every program; CONTEND names the command
# under test for the CLI scripts. Copyright (C) 2026 the contend authors.
# GPL-3.0-or-later.
pass=0 fail=0 skip=0
out=$(mktemp) || exit 1
trap 'rm -f "$out" "$out.err"' EXIT
trap 'exit 130' INT # (a trap that only cleaned up would let the run go on after Ctrl-C)
trap 'exit 143' TERM
export CONTEND="${WRAP:+$WRAP }${CONTEND:-build/contend}"
run_one() { # name, expected-output file or "", command...
    name=$1 expect=$2
    shift 2
    "$@" >"$out" 2>"$out.err"
    rc=$?
    if [ $rc -eq 77 ]; then
        skip=$((skip + 1))
        echo "SKIP $name: $(grep -m1 '^SKIP' "$out" | sed 's/^SKIP: //')"
    elif [ $rc -eq 0 ] && { [ -z "$expect" ] || cmp -s "$expect" "$out"; }; then
        pass=$((pass + 1))
        # A script that passed but skipped some checks says so ("SKIP: why"
        # lines): each counts as skipped, so a partial pass does not read as whole.
        k=$(grep -c '^SKIP' "$out")
        if [ "$k" -gt 0 ]; then
            skip=$((skip + k))
            echo "PASS $name, $k checks skipped: $(grep '^SKIP' "$out" | sed 's/^SKIP: //' | paste -sd ';' -)"
        else
            echo "PASS $name"
        fi
    else
        fail=$((fail + 1))
        echo "FAIL $name (exit $rc)"
        [ -n "$expect" ] && [ $rc -eq 0 ] && diff "$expect" "$out" | head -20
        tail -20 "$out.err"
        tail -5 "$out"
    fi
    rm -f "$out.err"
}
for t in "$@"; do
    name=$(basename "$t")
    expect=""
    [ -f "tests/unit/$name.out" ] && expect="tests/unit/$name.out"
    # shellcheck disable=SC2086
    run_one "$name" "$expect" $WRAP "$t"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    run_one "$(basename "$s" .sh)" "" sh "$s"
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
