#!/bin/sh
# install.sh - `make install` into a staging root, then build and run a
# consumer of the sampler library with nothing but its pkg-config file (what
# a production scheduler does: no igraph, GSL or GLPK).
set -u
. tests/cli-lib.sh
B=${BUILD:-build}
if [ "$B" != build ]; then
    echo "SKIP: only for the default build (this is $B)"
    exit 77
fi
make -s install DESTDIR="$T/root" PREFIX=/usr >/dev/null 2>"$T/err" || { cat "$T/err"; fail "make install"; }
for f in usr/bin/contend usr/lib/libcontend.so.0 usr/lib/libcontend-sampler.so.0 usr/include/contend/ct_sampler.h \
    usr/lib/pkgconfig/contend.pc usr/lib/pkgconfig/contend-sampler.pc usr/share/contend/data/share/apps.json \
    usr/share/contend/data/scenarios/fig1.json usr/share/man/man1/contend.1 usr/share/man/man1/contend-sim.1 \
    usr/share/bash-completion/completions/contend usr/share/contend/data/onnx/devices.json; do
    [ -e "$T/root/$f" ] || fail "missing $f"
done
# The manual pages say what --help says, and render without warnings.
grep -q -- '--probes D' "$T/root/usr/share/man/man1/contend-sim.1" || fail "contend-sim.1 lacks sim's options"
if command -v man >/dev/null 2>&1; then
    w=$(MANWIDTH=100 man --warnings -E UTF-8 -l "$T/root/usr/share/man/man1/contend-nona.1" 2>&1 >/dev/null)
    [ -z "$w" ] || fail "contend-nona.1 renders with warnings: $w"
fi
# The installed command works from any directory: its bundled data (the
# sharing apps, the scenarios) is found beside it.
mkdir -p "$T/elsewhere"
(cd "$T/elsewhere" && "$T/root/usr/bin/contend" train share-workload --jobs 20 -o w.csv >/dev/null &&
    "$T/root/usr/bin/contend" train run w.csv --policy sjf-bsbf >/dev/null 2>"$T/err") ||
    fail "installed contend train run from another directory: $(cat "$T/err")"
(cd "$T/elsewhere" && "$T/root/usr/bin/contend" sim "$T/root/usr/share/contend/data/scenarios/fig1.json" --jobs 500 \
    --reps 1 >/dev/null 2>"$T/err") || fail "installed contend sim of an installed scenario: $(cat "$T/err")"
(cd "$T/elsewhere" && "$T/root/usr/bin/contend" dag import onnx "$T/root/usr/share/contend/data/onnx/residual.onnx" \
    --device t4 -o r.json >/dev/null 2>"$T/err") || grep -q "this build reads no ONNX" "$T/err" ||
    fail "installed contend dag import onnx (its device presets) from another directory: $(cat "$T/err")"
# README's main jobs from the installed prefix in an empty directory, the
# bundled data copied in as README says, each command as README writes it
# (continuation lines joined) but with short simulations: --reps 1 --jobs
# 300 on sim sweeps, checks and comparisons, 2 generated scenarios for
# compare and none for check (its file only); serve runs 2 s on a free port.
mkdir -p "$T/empty"
cp -r "$T/root/usr/share/contend/data" "$T/empty/data"
awk '/^## The main jobs/ { f = 1; next } f && /^## / { f = 0 } f && /^```sh/ { b = 1; next } /^```/ { b = 0 } b && f' \
    README.md | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' >"$T/readme.sh"
[ "$(grep -c '^contend ' "$T/readme.sh")" -ge 10 ] || fail "README's main jobs: found $(grep -c '^contend ' "$T/readme.sh") commands"
while IFS= read -r line; do
    cmd=$(printf '%s\n' "$line" | sed -e "s#\\(^\\|&& \\)contend #\\1'$T/root/usr/bin/contend' #g" \
        -e 's/--generate 20/--generate 2/; s/--generate 4 --gen-seed 1/--generate 0/' \
        -e '/contend. sim \(sweep\|compare\|check\)/s/$/ --reps 1 --jobs 300/' \
        -e "/contend. serve/s/^/timeout 2 /" -e 's/127\.0\.0\.1:8080/127.0.0.1:0/')
    (cd "$T/empty" && CONTEND_NO_PROGRESS=1 sh -c "$cmd" >/dev/null 2>"$T/err")
    rc=$?
    case "$line" in *"contend serve"*) [ $rc -eq 124 ] || fail "README from the installed prefix: $line: exit $rc: $(cat "$T/err")" ;;
    *) [ $rc -eq 0 ] || fail "README from the installed prefix: $line: exit $rc: $(cat "$T/err")" ;; esac
done <"$T/readme.sh"
# The other pages' command blocks the same way, each block a script in the
# empty directory, `contend` the installed one with short runs appended
# (one replication of 300 jobs, one generated scenario of 2-3 stages: deep
# ones take minutes to solve). Skipped: blocks with placeholders
# ([options], $P, model.onnx, scenario.json, Slurm, kubectl), the command
# synopsis and the walkthrough (below).
mkdir -p "$T/dbin"
{
    echo '#!/bin/sh'
    echo 'case "$1" in'
    echo "sim) if printf '%s\\n' \"\$@\" | grep -q -- '^--generate\$'; then exec '$T/root/usr/bin/contend' \"\$@\" --reps 1 --jobs 300 --generate 1 --stages 2:3; fi"
    echo "     exec '$T/root/usr/bin/contend' \"\$@\" --reps 1 --jobs 300 ;;"
    echo 'esac'
    echo "exec '$T/root/usr/bin/contend' \"\$@\""
} >"$T/dbin/contend"
chmod +x "$T/dbin/contend"
nblocks=0
for f in docs/*.md; do
    case $f in docs/commands.md | docs/walkthrough.md) continue ;; esac
    rm -f "$T"/block.*.sh
    awk -v out="$T/block" '/^```sh/ { b = 1; n++; next } /^```/ { b = 0; next } b { print > (out "." n ".sh") }' "$f"
    for b in "$T"/block.*.sh; do
        [ -f "$b" ] || continue
        grep -qE '\[|\$P|SLURM|kubectl|model\.onnx|scenario\.json' "$b" && continue
        nblocks=$((nblocks + 1))
        (cd "$T/empty" && PATH="$T/dbin:$PATH" CONTEND_NO_PROGRESS=1 sh -e "$b" >/dev/null 2>"$T/err") ||
            fail "$f, block $(basename "$b" .sh | sed 's/block\.//') from the installed prefix: $(tail -2 "$T/err")"
    done
done
[ "$nblocks" -ge 7 ] || fail "docs: only $nblocks command blocks run"
# docs/walkthrough.md (your own cluster, every step a command) with the
# installed command, in an empty directory (walkthrough.sh runs it there).
CONTEND="$T/root/usr/bin/contend" sh tests/cli/walkthrough.sh >"$T/walk.out" 2>&1 ||
    fail "the walkthrough with the installed contend: $(tail -3 "$T/walk.out")"
cat >"$T/use.c" <<'C'
#include <contend/ct_sampler.h> /* as docs/formats.md writes it (ct_sampler.h alone works too) */
#include <stdio.h>
int main(int argc, char **argv)
{
    ct_sampler_t *s;
    char msg[256];
    if (argc < 2 || ct_sampler_load(argv[1], &s, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", argc < 2 ? "usage" : msg);
        return 1;
    }
    ct_rng_t r;
    ct_rng_seed(&r, 1);
    uint32_t p[8];
    int rc = ct_sampler_place(s, 0, 0, 80, &r, p, NULL);
    printf("%s %zu tasks, first on server %u\n", ct_sampler_class_name(s, 0), ct_sampler_task_count(s, 0), p[0]);
    ct_sampler_free(s);
    return rc;
}
C
PC="$T/root/usr/lib/pkgconfig"
flags=$(PKG_CONFIG_PATH="$PC" pkg-config --define-prefix --cflags --libs contend-sampler) || fail "pkg-config contend-sampler"
cc -o "$T/use" "$T/use.c" $flags 2>"$T/err" || { cat "$T/err"; fail "compile a sampler consumer"; }
# The consumer links only the sampler and cJSON.
ldd "$T/use" 2>/dev/null | grep -q -e igraph -e gsl -e glpk && fail "the sampler consumer pulls in solver libraries"
"$T/root/usr/bin/contend" nona solve data/scenarios/fig1.json -o "$T/t.json" >/dev/null 2>&1 ||
    LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" nona solve data/scenarios/fig1.json -o "$T/t.json" >/dev/null ||
    fail "installed contend"
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/use" "$T/t.json" | grep -q "fig1 4 tasks" || fail "the consumer runs"
# The exports from the installed command.
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" export "$T/t.json" --format configmap -o "$T/cm.yaml" &&
    grep -q '^kind: ConfigMap$' "$T/cm.yaml" || fail "installed contend export configmap"
LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" export "$T/t.json" --format csv | grep -q '^0,1,fig1,' ||
    fail "installed contend export csv"
# The Python binding from the installed prefix (it finds PREFIX/lib itself)
# draws what the installed command draws for the same seed.
if command -v python3 >/dev/null 2>&1; then
    PY="$T/root/usr/lib/python3/dist-packages"
    [ -f "$PY/contend_sampler.py" ] || fail "missing the Python binding"
    LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" sample "$T/t.json" --class fig1 --servers 6 \
        --count 3 --seed 9 | tail -3 >"$T/c.out"
    PYTHONPATH="$PY" python3 -c '
import sys
from contend_sampler import Sampler
with Sampler(sys.argv[1], seed=9) as s:
    for i in range(3):
        print(" ".join(f"{t}={v}" for t, v in s.place("fig1", servers=6).items()))
' "$T/t.json" >"$T/py.out" 2>"$T/err" || { cat "$T/err"; fail "the Python binding"; }
    cmp -s "$T/c.out" "$T/py.out" || fail "Python and C draws differ: $(cat "$T/c.out" "$T/py.out")"
    PYTHONPATH="$PY" python3 "$T/root/usr/share/contend/examples/ray_place.py" "$T/t.json" fig1 n1 n2 n3 n4 \
        --rate 100 >"$T/ray.out" || fail "the Ray-style example"
    grep -q '"node:n[1-4]": 0.01' "$T/ray.out" || fail "the Ray-style example's output: $(cat "$T/ray.out")"
    # A table for late-bound parts: slots for the parts away from the root, bound by the root's rule.
    LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" nona solve data/scenarios/ensemble.json --binding late \
        -o "$T/late.json" >/dev/null || fail "installed contend nona solve --binding late"
    LD_LIBRARY_PATH="$T/root/usr/lib" "$T/root/usr/bin/contend" nona solve data/scenarios/ensemble.json --binding late \
        --late-bind probes -o "$T/probes.json" >/dev/null || fail "installed contend nona solve --late-bind probes"
    PYTHONPATH="$PY" python3 -c '
import sys
from contend_sampler import Sampler
with Sampler(sys.argv[1], seed=4) as s:
    assert s.late_parts() and not s.late_probes()
    with Sampler(sys.argv[2]) as p:
        assert p.late_parts() and p.late_probes()
    names = ["n%d" % i for i in range(8)]
    slots = idle = 0
    for i in range(400):
        p = s.place("ensemble", servers=names)
        slots += sum(1 for v in p.values() if str(v).startswith("late:"))
        assert p["decode"] in names, p
        idle += s.bind(names, [5, 5, 5, 0, 5, 5, 5, 5]) == "n3"
    assert slots > 0, "no slot in 400 draws"
    assert 0.17 < idle / 400 < 0.30, idle  # least loaded of 2: 1 - (7/8)^2 = 0.234
    # probes: d x m distinct servers (d = 2 here), all of them if fewer
    pr = s.probes(names, parts=3)
    assert len(pr) == 6 and len(set(pr)) == 6 and set(pr) <= set(names), pr
    assert sorted(s.probes(names, parts=10)) == names
    assert len(s.probes(8)) == 2 and all(0 <= v < 8 for v in s.probes(8))
' "$T/late.json" "$T/probes.json" 2>"$T/err" || { cat "$T/err"; fail "the Python binding on a late table"; }
    PYTHONPATH="$PY" python3 -c '
from contend_sampler import Sampler
try:
    Sampler("/nonexistent.json")
except FileNotFoundError as e:
    assert "no such lookup file" in str(e), e
else:
    raise SystemExit("no error for a missing file")
' || fail "the binding reports a missing file"
    # The default prefix puts the binding where the system python3 looks
    # (Debian: /usr/local/lib/python3.X/dist-packages, not .../python3/).
    if [ -x /usr/bin/python3 ]; then
        dir=$(make -s print-pythondir PYTHON=/usr/bin/python3)
        /usr/bin/python3 -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$dir" ||
            fail "make install would put the binding in $dir, which /usr/bin/python3 does not search"
    fi
else
    echo "SKIP: python3 absent: the Python binding is not checked"
fi
make -s uninstall DESTDIR="$T/root" PREFIX=/usr >/dev/null 2>&1 || fail "make uninstall"
[ -z "$(find "$T/root" -type f)" ] || fail "uninstall left files: $(find "$T/root" -type f | head -3)"
finish
