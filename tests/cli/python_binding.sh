#!/bin/sh
# python_binding.sh - the Python binding (sampler/python/contend_sampler.py)
# from Python code as users call it wrongly: after close(), from several
# threads while one closes, with out-of-range scenarios, counts, seeds and
# rates, a string or a bool for servers, negative or fractional queue
# lengths, a missing file. Each must raise the exception Python users expect
# (TypeError, ValueError, FileNotFoundError) with a message, never crash the
# interpreter; and draws stay those of the C sampler for a seed.
set -u
. tests/cli-lib.sh
B=${BUILD:-build}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 absent: the Python binding is not checked"
    exit 77
fi
if [ ! -e "$B/libcontend-sampler.so.0" ]; then
    echo "SKIP: $B has no shared sampler library"
    exit 77
fi
$C nona sweep data/scenarios/fig1.json --scale 0.5:1.5:0.5 -o "$T/lookup.json" >/dev/null 2>&1 || fail "nona sweep"
$C sample "$T/lookup.json" --class fig1 --servers 6 --count 3 --seed 9 | tail -3 >"$T/c.out"
CONTEND_SAMPLER_LIB="$B/libcontend-sampler.so.0" PYTHONPATH=sampler/python python3 - "$T/lookup.json" "$T/c.out" <<'PY' ||
import sys, threading
from contend_sampler import Sampler, SamplerError

path, c_out = sys.argv[1], sys.argv[2]
bad = []


def expect(exc, needle, f, *a, **k):
    try:
        f(*a, **k)
    except exc as e:
        if needle not in str(e):
            bad.append(f"{f.__name__}{a}{k}: {type(e).__name__} {e!r} lacks {needle!r}")
    except BaseException as e:  # noqa: B902 - any other exception is a failure
        bad.append(f"{f.__name__}{a}{k}: {type(e).__name__} {e!r}, wanted {exc.__name__}")
    else:
        bad.append(f"{f.__name__}{a}{k}: no {exc.__name__}")


# Draws are the C sampler's for the seed.
with Sampler(path, seed=9) as s:
    got = "\n".join(" ".join(f"{t}={v}" for t, v in s.place("fig1", servers=6).items()) for _ in range(3))
if got.strip() != open(c_out).read().strip():
    bad.append(f"draws differ from the C sampler's: {got!r}")

# A Placement reads as the dict it stands for.
with Sampler(path, seed=9) as s:
    p = s.place("fig1", servers=["a", "b", "c", "d"])
    d = dict(p)
    assert p == d and len(p) == 4 and "sum" in p and "nope" not in p, (p, d)
    assert repr(p) == repr(d) and sorted(p) == sorted(d) and list(p.values()) == list(d.values())
    assert all(v in "abcd" for v in p.values()), p
    try:
        p["nope"]
    except KeyError:
        pass
    else:
        bad.append("Placement: no KeyError for an unknown task")
s = Sampler(path, seed=3)
assert "fig1" in repr(s) and "3 scenarios" in repr(s), repr(s)
expect(TypeError, "got a string", s.place, "fig1", servers="abcd")
expect(TypeError, "bool", s.place, "fig1", servers=True)
expect(ValueError, "servers", s.place, "fig1", servers=2**32 + 4)
expect(ValueError, "servers", s.place, "fig1", servers=0)
expect(TypeError, "servers[1]", s.place, "fig1", servers=["a", 2, "c", "d"])
expect(ValueError, "queue_lengths[0]", s.place, "fig1", servers=4, queue_lengths=[-1, 0, 0, 0])
expect(TypeError, "queue_lengths[0]", s.place, "fig1", servers=4, queue_lengths=[2.7, 0, 0, 0])
expect(ValueError, "one per server", s.place, "fig1", servers=4, queue_lengths=[1])
expect(ValueError, "rates", s.place, "fig1", servers=4, rates={"fig1": float("inf")})
expect(ValueError, "rates", s.place, "fig1", servers=4, rates={"fig1": -1})
expect(TypeError, "rates", s.place, "fig1", servers=4, rates={"fig1": "fast"})
expect(SamplerError, "unknown 'nope'", s.place, "nope", servers=4)
expect(SamplerError, "fewer than", s.place, "fig1", servers=1)
expect(ValueError, "scenario", s.scale, 10**7)
expect(ValueError, "scenario", s.scale, 3)
expect(ValueError, "scenario", s.place, "fig1", servers=4, scenario=-1)
expect(ValueError, "seed", Sampler, path, seed=2**70)
expect(ValueError, "seed", Sampler, path, seed=-1)
expect(FileNotFoundError, "no such lookup file", Sampler, "/nonexistent/x.json")
expect(SamplerError, "malformed JSON", Sampler, sys.argv[2])
assert 0 <= s.scale(2) and s.late_parts(0) is False
# Several threads drawing while one closes: draws or ValueError, no crash.
errors = []


def draw():
    for _ in range(2000):
        try:
            s.place("fig1", servers=["a", "b", "c", "d"], queue_lengths=[1, 0, 2, 0])
        except ValueError as e:
            if "closed" not in str(e):
                errors.append(e)
            return


ts = [threading.Thread(target=draw) for _ in range(4)]
for t in ts:
    t.start()
s.close()
for t in ts:
    t.join()
if errors:
    bad.append(f"threads: {errors[:2]}")
for f, a in ((s.place, ("fig1", 4)), (s.tasks, ("fig1",)), (s.nearest, ({"fig1": 1},)), (s.scale, (0,)),
             (s.late_parts, ()), (s.bind, (4, [0, 0, 0, 0]))):
    expect(ValueError, "closed", f, *a)
s.close()  # twice: nothing
assert "closed" in repr(s)
with Sampler(path) as s2:
    pass
expect(ValueError, "closed", s2.place, "fig1", 4)
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
    fail "the Python binding"
finish
