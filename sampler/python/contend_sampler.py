"""contend_sampler - draw placements from a contend lookup file (Python, ctypes).

A thin binding over libcontend-sampler (the C library production schedulers
link; standard library only). The lookup file is what `contend nona sweep`
writes; a placement gives every original task of a job its server.

    from contend_sampler import Sampler
    with Sampler("fig1.lookup.json", seed=7) as s:
        s.place("fig1", servers=["node-a", "node-b", "node-c", "node-d"], rates={"fig1": 450})
        # {'sum': 'node-c', 'det': 'node-c', 'det_sparse': 'node-c', 'add': 'node-c'}  (a draw: seed 7)

The library is found through $CONTEND_SAMPLER_LIB, the system's library
path, or next to this file's install prefix (PREFIX/lib). A Sampler is not
thread-safe (it owns one random stream); use one per thread.

Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
"""

import ctypes
import ctypes.util
import os

__all__ = ["Sampler", "SamplerError"]
__version__ = "0.1.0"


class SamplerError(Exception):
    """A lookup file that cannot be loaded, or a request that cannot be placed."""


class _Rng(ctypes.Structure):
    _fields_ = [("s", ctypes.c_uint64 * 4)]


def _candidates():
    env = os.environ.get("CONTEND_SAMPLER_LIB")
    if env:
        yield env
    found = ctypes.util.find_library("contend-sampler")
    if found:
        yield found
    here = os.path.dirname(os.path.abspath(__file__))
    # Installed: PREFIX/lib/python3/dist-packages/ -> PREFIX/lib; source tree: sampler/python -> build/.
    for rel in (("..", ".."), ("..", "..", "..", "lib"), ("..", "..", "build")):
        yield os.path.join(here, *rel, "libcontend-sampler.so.0")


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise SamplerError("libcontend-sampler not found (set CONTEND_SAMPLER_LIB): " + "; ".join(errors))


_lib = None


def _library():
    global _lib
    if _lib is None:
        lib = _load()
        P, S, D, U32, I = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double, ctypes.c_uint32, ctypes.c_int
        sig = {
            "ct_sampler_load": (I, [ctypes.c_char_p, ctypes.POINTER(P), ctypes.c_char_p, S]),
            "ct_sampler_free": (None, [P]),
            "ct_sampler_scenario_count": (S, [P]),
            "ct_sampler_scenario_scale": (D, [P, S]),
            "ct_sampler_scenario_rate": (D, [P, S, S]),
            "ct_sampler_class_count": (S, [P]),
            "ct_sampler_class_name": (ctypes.c_char_p, [P, S]),
            "ct_sampler_class_index": (ctypes.c_long, [P, ctypes.c_char_p]),
            "ct_sampler_task_count": (S, [P, S]),
            "ct_sampler_task_id": (ctypes.c_char_p, [P, S, S]),
            "ct_sampler_nearest": (S, [P, ctypes.POINTER(D)]),
            "ct_sampler_place_loaded": (I, [P, S, S, U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng),
                                            ctypes.POINTER(U32), ctypes.POINTER(U32)]),
            "ct_sampler_place_late": (I, [P, S, S, U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng),
                                          ctypes.POINTER(U32), ctypes.POINTER(U32)]),
            "ct_sampler_late_parts": (U32, [P, S]),
            "ct_sampler_least_loaded": (U32, [U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng)]),
            "ct_sampler_root_choices": (U32, [P, S]),
            "ct_sampler_max_parts": (U32, [P, S]),
            "ct_rng_seed": (None, [ctypes.POINTER(_Rng), ctypes.c_uint64]),
        }
        for name, (res, args) in sig.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
    return _lib


_LATE = 0x80000000  # CT_SAMPLER_LATE: a slot, not a server


class Sampler:
    """A loaded lookup file and a random stream (seeded: draws repeat for a seed)."""

    def __init__(self, path, seed=1):
        lib = _library()
        self._lib = lib
        self._s = ctypes.c_void_p()
        err = ctypes.create_string_buffer(512)
        if lib.ct_sampler_load(os.fsencode(path), ctypes.byref(self._s), err, len(err)) != 0:
            self._s = None
            raise SamplerError(err.value.decode(errors="replace"))
        self._rng = _Rng()
        lib.ct_rng_seed(ctypes.byref(self._rng), seed)
        n = lib.ct_sampler_class_count(self._s)
        self.classes = [lib.ct_sampler_class_name(self._s, c).decode() for c in range(n)]
        self.scenarios = lib.ct_sampler_scenario_count(self._s)

    def close(self):
        if self._s:
            self._lib.ct_sampler_free(self._s)
            self._s = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _class(self, name):
        c = self._lib.ct_sampler_class_index(self._s, name.encode())
        if c < 0:
            raise SamplerError(f"class: unknown {name!r} (the file has {', '.join(self.classes)})")
        return c

    def tasks(self, cls):
        """The original task ids of a class, in the table's order."""
        c = self._class(cls)
        return [self._lib.ct_sampler_task_id(self._s, c, t).decode()
                for t in range(self._lib.ct_sampler_task_count(self._s, c))]

    def scale(self, scenario):
        """The arrival-rate scale a scenario was solved for."""
        return self._lib.ct_sampler_scenario_scale(self._s, scenario)

    def nearest(self, rates):
        """The scenario nearest the measured rates {class: jobs/s}; classes not
        given keep the first scenario's rate."""
        n = len(self.classes)
        v = (ctypes.c_double * n)(*[self._lib.ct_sampler_scenario_rate(self._s, 0, c) for c in range(n)])
        for name, r in rates.items():
            if not r >= 0:
                raise SamplerError(f"rates[{name!r}]: expected a number >= 0")
            v[self._class(name)] = float(r)
        return self._lib.ct_sampler_nearest(self._s, v)

    def place(self, cls, servers, rates=None, queue_lengths=None, scenario=None):
        """Draws one job's placement: {task id: server}. servers: a count (servers
        are 0..N-1) or a list of names. queue_lengths (one per server) puts the
        root on the least loaded of the servers the table samples. A table solved
        for late-bound parts (late_parts()) gives the parts away from the root a
        slot instead, the string "late:I" (one per part, shared by its tasks):
        bind each when its part is first needed with bind()."""
        c = self._class(cls)
        names = None if isinstance(servers, int) else list(servers)
        n = servers if names is None else len(names)
        if n < 1:
            raise SamplerError("servers: expected at least one")
        if scenario is None:
            scenario = self.nearest(rates) if rates else 0
        if not 0 <= scenario < self.scenarios:
            raise SamplerError(f"scenario: expected 0 .. {self.scenarios - 1}")
        loads = None
        if queue_lengths is not None:
            if len(queue_lengths) != n:
                raise SamplerError(f"queue_lengths: expected {n} numbers, one per server")
            loads = (ctypes.c_uint32 * n)(*[int(q) for q in queue_lengths])
        nt = self._lib.ct_sampler_task_count(self._s, c)
        out = (ctypes.c_uint32 * max(nt, 1))()
        d = self._lib.ct_sampler_root_choices(self._s, scenario)
        late = self._lib.ct_sampler_late_parts(self._s, scenario)
        draw = self._lib.ct_sampler_place_late if late else self._lib.ct_sampler_place_loaded
        if draw(self._s, scenario, c, n, loads, d, ctypes.byref(self._rng), out, None) != 0:
            raise SamplerError(f"servers: {n} is fewer than the "
                               f"{self._lib.ct_sampler_max_parts(self._s, scenario)} parts this table may use")
        ids = self.tasks(cls)

        def server(v):
            if v & _LATE:
                return f"late:{v & ~_LATE}"
            return v if names is None else names[v]
        return {ids[t]: server(out[t]) for t in range(nt)}

    def late_parts(self, scenario=0):
        """True when the scenario's table was solved for late-bound parts."""
        return bool(self._lib.ct_sampler_late_parts(self._s, scenario))

    def bind(self, servers, queue_lengths, scenario=0):
        """Binds a late part now: the least loaded of the d servers the table
        samples (its root rule), given the queue lengths of this moment."""
        names = None if isinstance(servers, int) else list(servers)
        n = servers if names is None else len(names)
        if n < 1 or len(queue_lengths) != n:
            raise SamplerError(f"queue_lengths: expected {n} numbers, one per server (at least one)")
        loads = (ctypes.c_uint32 * n)(*[int(q) for q in queue_lengths])
        d = self._lib.ct_sampler_root_choices(self._s, scenario)
        v = self._lib.ct_sampler_least_loaded(n, loads, d, ctypes.byref(self._rng))
        return v if names is None else names[v]
