# cli-lib.sh - what the CLI test scripts in tests/cli/ share (sourced, not run).
# Sets C (the command under test) and T (a scratch folder removed on exit);
# fail records a failure; expect_error WANT NEEDLE -- CMD... checks the exit
# status, a one-line stderr containing NEEDLE, and that $T/out.json was not
# created; finish ends the script with the right status.
C=${CONTEND:-build/contend}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_error() {
    want=$1 needle=$2
    shift 3
    rm -f "$T/out.json"
    "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "$*: exit $rc, wanted $want"
    [ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "$*: stderr is not one line: $(cat "$T/stderr")"
    grep -qF -- "$needle" "$T/stderr" || fail "$*: stderr lacks '$needle': $(cat "$T/stderr")"
    [ ! -e "$T/out.json" ] || fail "$*: left an output file behind"
    ls "$T" | grep -q 'tmp\.' && fail "$*: left a temporary file behind"
    return 0
}
finish() { [ "$fails" -eq 0 ]; }
# serve_start OUT LOOKUP [ARGS...]: starts `contend serve LOOKUP` on a free
# loopback port, its stdout in OUT (stderr in OUT.err); sets pid, port ("" if
# it never said which) and U (its URL). Waits up to 30 s (valgrind starts slowly).
serve_start() {
    out=$1 lookup=$2
    shift 2
    $C serve "$lookup" --listen 127.0.0.1:0 "$@" >"$out" 2>"$out.err" &
    pid=$!
    port=""
    for i in $(seq 1 300); do
        port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
    done
    U="http://127.0.0.1:$port"
}
