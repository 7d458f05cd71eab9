"""python_binding.py - the Python binding's place() against the C call it
wraps (#28's goal: within 3x), side by side in one run, per class of the
five-model scenario's table: a draw over a server count and over 80 names.
Usage: python3 python_binding.py LOOKUP.json (CONTEND_SAMPLER_LIB, PYTHONPATH
set by `make bench`)."""

import ctypes
import sys
import time

from contend_sampler import Sampler, _Rng


def per_call(f, n):
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n


def main(path):
    s = Sampler(path)
    lib, names = s._lib, ["n%d" % i for i in range(80)]
    print("python binding: place() against the C call through ctypes (us per draw; goal: within 3x)")
    for cls in s.classes:
        c, ids, _pos, out, _nb = s._cls[cls]
        rng = _Rng()
        lib.ct_rng_seed(ctypes.byref(rng), 5)
        n = 20000
        base = per_call(lambda: lib.ct_sampler_place_loaded(s._s, 0, c, 80, None, 2, ctypes.byref(rng), out, None), n)
        cnt = per_call(lambda: s.place(cls, servers=80), n)
        nm = per_call(lambda: s.place(cls, servers=names), n)
        print(f"  {cls:12s} {len(ids):4d} tasks: C {base * 1e6:5.2f} us; place(servers=80) {cnt * 1e6:5.2f} us "
              f"(x{cnt / base:.1f}); 80 names {nm * 1e6:5.2f} us (x{nm / base:.1f})")
    s.close()


if __name__ == "__main__":
    main(sys.argv[1])
