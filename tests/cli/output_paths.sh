#!/bin/sh
# output_paths.sh - every writer treats paths it does not own with care:
# '-' is stdout; devices, FIFOs and links to them are written directly and
# never replaced; write errors (ENOSPC, EPIPE) exit 1 naming the path and
# leave no temporary behind; regular files (and links to them) are replaced
# atomically, the link staying a link. Also: the PipeDream loader's hang on a
# final "\r" without "\n" (tests/data/pipedream_cr_eof.txt).
set -u
. tests/cli-lib.sh

DAG=data/dags/alexnet.json

# /dev/full: ENOSPC, exit 1, the device is still a device.
for w in "dag contract $DAG" "nona solve data/scenarios/fig1.json" "dag zoo alexnet" "dag import pipedream tests/data/pipedream_cr_eof.txt"; do
    # shellcheck disable=SC2086
    $C $w -o /dev/full >"$T/stdout" 2>"$T/stderr"
    rc=$?
    [ $rc -eq 1 ] || fail "$w -o /dev/full: exit $rc, wanted 1"
    grep -q "/dev/full: write failed: No space left on device" "$T/stderr" || fail "$w -o /dev/full: $(cat "$T/stderr")"
    [ -c /dev/full ] || { echo "FATAL: /dev/full is no longer a device"; exit 1; }
    # shellcheck disable=SC2086
    $C $w -o /dev/null >"$T/stdout" 2>"$T/stderr" || fail "$w -o /dev/null: $(cat "$T/stderr")"
    [ -c /dev/null ] || { echo "FATAL: /dev/null is no longer a device"; exit 1; }
done
ls /dev | grep -q 'tmp\.' && fail "a temporary was left in /dev"

# Standard output that fails: ENOSPC through '-' and through the shell.
$C dag contract $DAG -o - >/dev/full 2>"$T/stderr"
[ $? -eq 1 ] || fail "-o - >/dev/full: wanted exit 1"
grep -q "^contend: -: write failed" "$T/stderr" || fail "-o - >/dev/full: $(cat "$T/stderr")"
$C dag contract $DAG --json >/dev/full 2>"$T/stderr"
[ $? -eq 1 ] || fail "--json >/dev/full: wanted exit 1"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "--json >/dev/full: not one line: $(cat "$T/stderr")"

# '-' is stdout, and the same bytes as a file.
$C dag contract $DAG -o - >"$T/a.json" 2>/dev/null || fail "-o -"
$C dag contract $DAG -o "$T/b.json" >/dev/null 2>&1 || fail "-o file"
cmp -s "$T/a.json" "$T/b.json" || fail "-o - differs from -o FILE"

# EPIPE: a reader that closes early; exit 1, one line naming the path.
mkfifo "$T/fifo"
( exec 3<"$T/fifo"; exec 3<&- ) &
reader=$!
$C dag zoo densenet121 -o "$T/fifo" 2>"$T/stderr"
rc=$?
wait $reader
[ $rc -eq 1 ] || fail "closed FIFO: exit $rc, wanted 1"
grep -q "fifo: write failed: Broken pipe" "$T/stderr" || fail "closed FIFO: $(cat "$T/stderr")"
[ -p "$T/fifo" ] || fail "the FIFO was replaced"

# A FIFO with a reader gets the whole output and stays a FIFO.
cat "$T/fifo" >"$T/from_fifo" &
reader=$!
$C dag contract $DAG -o "$T/fifo" >/dev/null 2>"$T/stderr" || fail "FIFO: $(cat "$T/stderr")"
wait $reader
[ -p "$T/fifo" ] || fail "the FIFO was replaced"
cmp -s "$T/from_fifo" "$T/b.json" || fail "FIFO output differs"

# A symlink to a device is written through, never replaced.
ln -s /dev/null "$T/null_link"
$C dag contract $DAG -o "$T/null_link" >/dev/null 2>&1 || fail "link to /dev/null"
[ -L "$T/null_link" ] && [ -c /dev/null ] || fail "the link to /dev/null was replaced"

# A symlink to a regular file: the target is replaced atomically, the link stays.
mkdir "$T/real"
echo old >"$T/real/target.json"
ln -s real/target.json "$T/file_link"
$C dag contract $DAG -o "$T/file_link" >/dev/null 2>&1 || fail "link to a file"
[ -L "$T/file_link" ] || fail "the link to a file was replaced by a file"
cmp -s "$T/real/target.json" "$T/b.json" || fail "the link's target was not written"
{ ls "$T"; ls "$T/real"; } | grep -q 'tmp\.' && fail "a temporary was left beside a link"

# A directory is refused, untouched.
mkdir "$T/dir"
$C dag contract $DAG -o "$T/dir" >/dev/null 2>"$T/stderr"
[ $? -eq 1 ] || fail "-o DIR: wanted exit 1"
grep -q "dir: cannot write output: is a directory" "$T/stderr" || fail "-o DIR: $(cat "$T/stderr")"

# A read-only directory: exit 1, nothing created (root ignores permissions,
# so as root the command runs as nobody).
mkdir "$T/ro"
chmod 555 "$T/ro"
run_unprivileged() {
    if [ "$(id -u)" -eq 0 ]; then
        command -v setpriv >/dev/null 2>&1 || return 77
        chmod 755 "$T"
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}
run_unprivileged $C dag contract "$PWD/$DAG" -o "$T/ro/out.json" >/dev/null 2>"$T/stderr"
rc=$?
if [ $rc -eq 77 ]; then
    echo "note: setpriv missing, read-only directory check skipped as root"
else
    [ $rc -eq 1 ] || fail "read-only dir: exit $rc, wanted 1"
    grep -q "ro/out.json: cannot create output: Permission denied" "$T/stderr" || fail "read-only dir: $(cat "$T/stderr")"
    [ -z "$(ls "$T/ro")" ] || fail "read-only dir: something was created"
fi
chmod 755 "$T/ro"

# Regular files keep the atomic rename: an existing file is replaced whole.
echo old >"$T/c.json"
$C dag contract $DAG -o "$T/c.json" >/dev/null 2>&1 || fail "-o existing file"
cmp -s "$T/c.json" "$T/b.json" || fail "existing file not replaced"

# Regression: a final "\r" without "\n" used to hang the PipeDream loader.
if command -v timeout >/dev/null 2>&1; then
    $C bco workload --seed 1 -o "$T/w" >/dev/null 2>&1 || fail "bco workload"
    timeout 10 $C dag check --format pipedream tests/data/pipedream_cr_eof.txt >/dev/null 2>&1 \
        || fail "pipedream_cr_eof.txt: hang or error"
    printf 'id,gpus,iterations,gradient_size,batch,forward_time,backward_time\r\n\r\nj1,1,10,1,1,0.1,1\r' >"$T/jobs.csv"
    timeout 10 $C bco schedule "$T/w/cluster.json" "$T/jobs.csv" >/dev/null 2>"$T/stderr" \
        || fail "jobs.csv ending in \\r: $(cat "$T/stderr")"
    printf 'id,gpus,iterations,gradient_size,batch,forward_time,backward_time\n\nj1,x,10,1,1,0.1,1\n' >"$T/jobs2.csv"
    timeout 10 $C bco schedule "$T/w/cluster.json" "$T/jobs2.csv" >/dev/null 2>"$T/stderr"
    grep -q "jobs2.csv:3" "$T/stderr" || fail "CSV line numbers skip blank lines: $(cat "$T/stderr")"
fi
# An interrupted write (SIGTERM, SIGINT, SIGHUP) leaves no temporary behind
# and dies of the signal (#31 item 16); the output is not created.
for sig in TERM INT HUP; do
    mkdir -p "$T/sig$sig"
    # (bco validate writes its per-instance CSV as it goes: the temporary
    # exists while it runs, for seconds)
    $C bco validate --random 3000 -o "$T/sig$sig/out.csv" >/dev/null 2>&1 &
    p=$!
    for i in $(seq 1 50); do
        [ -n "$(ls "$T/sig$sig")" ] && break
        sleep 0.1
    done
    [ -n "$(ls "$T/sig$sig")" ] || fail "SIG$sig: no temporary to clean up (the test needs one)"
    kill -$sig $p
    wait $p
    rc=$?
    [ $rc -gt 128 ] || fail "SIG$sig: exit $rc, not killed by the signal"
    [ -z "$(ls "$T/sig$sig")" ] || fail "SIG$sig left: $(ls "$T/sig$sig")"
done
finish
