#!/bin/sh
# walkthrough.sh - runs the `sh` blocks of docs/walkthrough.md in order, in
# an empty folder, with `contend` the command under test, and checks their
# outputs: the page is a test (issue #29).
. tests/cli-lib.sh
doc=docs/walkthrough.md
[ -f "$doc" ] || { fail "$doc missing"; finish; exit 1; }
# The sh blocks, joined into one script (set -e: a failing step stops it).
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on' "$doc" >"$T/steps.sh"
[ "$(grep -c "^contend " "$T/steps.sh")" -ge 7 ] || fail "too few steps extracted: $(cat "$T/steps.sh")"
# `contend` on PATH runs $C (its last word the program, any words before it
# a wrapper such as valgrind), from any directory.
prog=${C##* } wrap=
[ "$prog" = "$C" ] || wrap=${C% *}
prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
mkdir "$T/run" "$T/bin"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$wrap" "$prog" >"$T/bin/contend"
chmod +x "$T/bin/contend"
(cd "$T/run" && PATH="$T/bin:$PATH" sh -e ../steps.sh) >"$T/out" 2>"$T/err" || fail "a step failed: $(tail -5 "$T/err")"
grep -q "predicted mean JCT" "$T/out" || fail "nona solve printed no prediction: $(head -5 "$T/out")"
for f in docs-table.json docs-compare.csv docs-lookup.json docs-configmap.yaml docs-tables.csv; do
    [ -s "$T/run/$f" ] || fail "the walkthrough did not write $f"
done
grep -q '^nona,0.5,' "$T/run/docs-compare.csv" && grep -q '^fair,0.8,' "$T/run/docs-compare.csv" ||
    fail "compare.csv lacks rows: $(head -3 "$T/run/docs-compare.csv")"
[ "$(grep -c '^ocr=' "$T/out")" -eq 3 ] || fail "sample did not print 3 placements: $(cat "$T/out" | tail -5)"
grep -q 'kind: ConfigMap' "$T/run/docs-configmap.yaml" || fail "the ConfigMap: $(head -3 "$T/run/docs-configmap.yaml")"
finish
