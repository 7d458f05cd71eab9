"""contend_sampler - draw placements from a contend lookup file (Python, ctypes).

A thin binding over libcontend-sampler (the C library production schedulers
link; standard library only). The lookup file is what `contend nona sweep`
writes; a placement gives every original task of a job its server.

    from contend_sampler import Sampler
    with Sampler("fig1.lookup.json", seed=7) as s:
        s.place("fig1", servers=["node-a", "node-b", "node-c", "node-d"], rates={"fig1": 450})
        # {'sum': 'node-c', 'det': 'node-c', 'det_sparse': 'node-c', 'add': 'node-c'}  (a draw: seed 7)

The library is found through $CONTEND_SAMPLER_LIB, the system's library
path, or next to this file's install prefix (PREFIX/lib).

Errors are the exceptions Python code expects: FileNotFoundError for a
missing lookup file, TypeError for an argument of the wrong type (a string
where servers are expected, a float queue length, a bool), ValueError for a
value out of range (SamplerError, a ValueError, for what the table cannot
do: an unknown class, fewer servers than its parts); a closed Sampler
raises ValueError. Calls on one Sampler are serialised by a lock (it owns
one random stream), so threads may share it, close it while others draw,
and never crash the interpreter; for parallel draws use one per thread.

Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
"""

import ctypes
import ctypes.util
import math
import operator
import os
import threading
from collections.abc import Mapping
from typing import List, Optional, Sequence, Union

__all__ = ["Placement", "Sampler", "SamplerError"]
__version__ = "0.2.0"

_U32_MAX = 2**32 - 1
_LATE = 0x80000000  # CT_SAMPLER_LATE: a slot, not a server


class SamplerError(ValueError):
    """A lookup file that cannot be loaded, or a request the table cannot place."""


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
    # Installed: PREFIX/lib/python3[.X]/dist-packages/ -> PREFIX/lib; source tree: sampler/python -> build/.
    for rel in (("..", ".."), ("..", "..", "..", "lib"), ("..", "..", "build")):
        yield os.path.join(here, *rel, "libcontend-sampler.so.0")


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise OSError("libcontend-sampler not found (set CONTEND_SAMPLER_LIB): " + "; ".join(errors))


_lib = None
_lib_lock = threading.Lock()


def _library():
    global _lib
    with _lib_lock:
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
                "ct_sampler_task_count": (S, [P, S]),
                "ct_sampler_task_id": (ctypes.c_char_p, [P, S, S]),
                "ct_sampler_nearest": (S, [P, ctypes.POINTER(D)]),
                "ct_sampler_place_loaded": (I, [P, S, S, U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng),
                                                ctypes.POINTER(U32), ctypes.POINTER(U32)]),
                "ct_sampler_place_late": (I, [P, S, S, U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng),
                                              ctypes.POINTER(U32), ctypes.POINTER(U32)]),
                "ct_sampler_late_parts": (U32, [P, S]),
                "ct_sampler_late_probes": (U32, [P, S]),
                "ct_sampler_least_loaded": (U32, [U32, ctypes.POINTER(U32), U32, ctypes.POINTER(_Rng)]),
                "ct_sampler_probe_servers": (U32, [U32, U32, ctypes.POINTER(U32), ctypes.POINTER(_Rng)]),
                "ct_sampler_root_choices": (U32, [P, S]),
                "ct_sampler_max_parts": (U32, [P, S]),
                "ct_rng_seed": (None, [ctypes.POINTER(_Rng), ctypes.c_uint64]),
            }
            for name, (res, args) in sig.items():
                f = getattr(lib, name)
                f.restype, f.argtypes = res, args
            _lib = lib
    return _lib


def _index(x, what: str, lo: int, hi: int) -> int:
    """An integer argument (int-like, not bool) in lo..hi."""
    if isinstance(x, bool):
        raise TypeError(f"{what}: expected an integer, got a bool")
    try:
        v = operator.index(x)
    except TypeError:
        raise TypeError(f"{what}: expected an integer, got {type(x).__name__}") from None
    if not lo <= v <= hi:
        raise ValueError(f"{what}: expected {lo} .. {hi}, got {v}")
    return v


def _rate(x, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) and not hasattr(x, "__float__"):
        raise TypeError(f"{what}: expected a number, got {type(x).__name__}")
    v = float(x)
    if not (v >= 0 and math.isfinite(v)):
        raise ValueError(f"{what}: expected a finite number >= 0, got {v}")
    return v


Servers = Union[int, Sequence[str]]


class Placement(Mapping):
    """One job's placement, a read-only mapping {task id: server} (a server
    number, a name when names were given, or "late:I" for a late part's
    slot). It keeps the draw as drawn and looks servers up when read, so a
    draw costs about the C call whatever the number of tasks; dict(p) copies
    it (json.dumps needs a dict)."""

    __slots__ = ("_ids", "_pos", "_v", "_names")

    def __init__(self, ids, pos, raw: bytes, names):
        self._ids, self._pos, self._names = ids, pos, names
        self._v = memoryview(raw).cast("I")

    def _server(self, v: int):
        if v & _LATE:
            return f"late:{v & ~_LATE}"
        return v if self._names is None else self._names[v]

    def __getitem__(self, task: str):
        return self._server(self._v[self._pos[task]])

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, task) -> bool:
        return task in self._pos

    def items(self):
        return [(t, self._server(v)) for t, v in zip(self._ids, self._v)]

    def values(self):
        return [self._server(v) for v in self._v]

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class Sampler:
    """A loaded lookup file and a random stream (seeded: draws repeat for a seed).

    classes: the table's class names; scenarios: its number of arrival-rate
    scenarios (0 .. scenarios - 1)."""

    def __init__(self, path: Union[str, bytes, os.PathLike], seed: int = 1):
        self._s = None  # set first: __del__ runs even when __init__ raises
        self._lock = threading.Lock()
        self._names_ok = ()
        seed = _index(seed, "seed", 0, 2**64 - 1)
        fpath = os.fspath(path)
        if not os.path.exists(fpath):
            raise FileNotFoundError(2, "no such lookup file", fpath)
        lib = _library()
        self._lib = lib
        self._path = fpath
        handle = ctypes.c_void_p()
        err = ctypes.create_string_buffer(512)
        if lib.ct_sampler_load(os.fsencode(fpath), ctypes.byref(handle), err, len(err)) != 0:
            raise SamplerError(err.value.decode(errors="replace"))
        self._s = handle
        self._rng = _Rng()
        lib.ct_rng_seed(ctypes.byref(self._rng), seed)
        n = lib.ct_sampler_class_count(handle)
        self.classes: List[str] = [lib.ct_sampler_class_name(handle, c).decode() for c in range(n)]
        self.scenarios: int = lib.ct_sampler_scenario_count(handle)
        # Per class, decoded once: its index, task ids and an output buffer.
        self._cls = {}
        for c, name in enumerate(self.classes):
            nt = lib.ct_sampler_task_count(handle, c)
            ids = tuple(lib.ct_sampler_task_id(handle, c, t).decode() for t in range(nt))
            pos = {t: i for i, t in enumerate(ids)}
            self._cls[name] = (c, ids, pos, (ctypes.c_uint32 * max(nt, 1))(), 4 * nt)
        self._late = [bool(lib.ct_sampler_late_parts(handle, k)) for k in range(self.scenarios)]
        self._probes = [bool(lib.ct_sampler_late_probes(handle, k)) for k in range(self.scenarios)]
        self._d = [lib.ct_sampler_root_choices(handle, k) for k in range(self.scenarios)]

    def close(self) -> None:
        """Frees the table; later calls raise ValueError. Safe to call twice,
        and while another thread draws (it waits for that draw)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._s:
                self._lib.ct_sampler_free(self._s)
                self._s = None

    @property
    def closed(self) -> bool:
        return not self._s

    def __enter__(self) -> "Sampler":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self) -> str:
        if not self._s:
            return f"<contend_sampler.Sampler {getattr(self, '_path', '?')!r} (closed)>"
        return (f"<contend_sampler.Sampler {self._path!r}: classes {self.classes}, "
                f"{self.scenarios} scenario{'s' if self.scenarios != 1 else ''}>")

    def _live(self):
        if not self._s:
            raise ValueError("operation on a closed Sampler")

    def _class(self, name: str):
        if not isinstance(name, str):
            raise TypeError(f"class: expected a str, got {type(name).__name__}")
        info = self._cls.get(name)
        if info is None:
            raise SamplerError(f"class: unknown {name!r} (the file has {', '.join(self.classes)})")
        return info

    def _scenario(self, scenario) -> int:
        return _index(scenario, "scenario", 0, self.scenarios - 1)

    def _servers(self, servers: Servers):
        """(count, names or None) from a count or a sequence of names (the
        last names checked are remembered: a scheduler passes the same ones)."""
        if type(servers) is int and 1 <= servers <= _U32_MAX:
            return servers, None
        if isinstance(servers, (str, bytes)):
            raise TypeError("servers: expected a count or a list of names, got a string")
        if isinstance(servers, bool) or not hasattr(servers, "__iter__"):
            return _index(servers, "servers", 1, _U32_MAX), None
        names = tuple(servers)
        if names == self._names_ok:
            return len(names), names
        for i, x in enumerate(names):
            if not isinstance(x, str):
                raise TypeError(f"servers[{i}]: expected a name (str), got {type(x).__name__}")
        if not 1 <= len(names) <= _U32_MAX:
            raise ValueError(f"servers: expected 1 .. {_U32_MAX} names, got {len(names)}")
        self._names_ok = names
        return len(names), names

    @staticmethod
    def _loads(queue_lengths, n: int):
        if isinstance(queue_lengths, (str, bytes)) or not hasattr(queue_lengths, "__len__"):
            raise TypeError("queue_lengths: expected a sequence of integers, one per server")
        if len(queue_lengths) != n:
            raise ValueError(f"queue_lengths: expected {n} numbers, one per server, got {len(queue_lengths)}")
        return (ctypes.c_uint32 * n)(*[_index(q, f"queue_lengths[{i}]", 0, _U32_MAX)
                                       for i, q in enumerate(queue_lengths)])

    def tasks(self, cls: str) -> List[str]:
        """The original task ids of a class, in the table's order."""
        self._live()
        return list(self._class(cls)[1])

    def scale(self, scenario: int) -> float:
        """The arrival-rate scale a scenario was solved for."""
        with self._lock:
            self._live()
            return self._lib.ct_sampler_scenario_scale(self._s, self._scenario(scenario))

    def nearest(self, rates: Mapping[str, float]) -> int:
        """The scenario nearest the measured rates {class: jobs/s} (relative
        distance); classes not given keep the first scenario's rate."""
        if not isinstance(rates, Mapping):
            raise TypeError(f"rates: expected a mapping {{class: jobs/s}}, got {type(rates).__name__}")
        with self._lock:
            self._live()
            return self._nearest_locked(rates)

    def _nearest_locked(self, rates: Mapping[str, float]) -> int:
        n = len(self.classes)
        v = (ctypes.c_double * n)(*[self._lib.ct_sampler_scenario_rate(self._s, 0, c) for c in range(n)])
        for name, r in rates.items():
            v[self._class(name)[0]] = _rate(r, f"rates[{name!r}]")
        return self._lib.ct_sampler_nearest(self._s, v)

    def place(self, cls: str, servers: Servers, rates: Optional[Mapping[str, float]] = None,
              queue_lengths: Optional[Sequence[int]] = None,
              scenario: Optional[int] = None) -> Placement:
        """Draws one job's placement: a Placement, the mapping {task id: server}.

        servers: a count (servers are 0 .. N-1) or a list of names.
        rates: {class: jobs/s} now; the table of the nearest scenario is used
        (else scenario, else the first). queue_lengths (one per server) puts
        the root on the least loaded of the servers the table samples. A table
        solved for late-bound parts (late_parts()) gives the parts away from
        the root a slot instead, the string "late:I" (one per part, shared by
        its tasks): bind each when its part is first needed (one of its tasks
        has every input sent; hold the inputs before) with bind()."""
        c, ids, pos, out, nbytes = self._class(cls)
        n, names = self._servers(servers)
        if rates is not None and not isinstance(rates, Mapping):
            raise TypeError(f"rates: expected a mapping {{class: jobs/s}}, got {type(rates).__name__}")
        loads = None if queue_lengths is None else self._loads(queue_lengths, n)
        with self._lock:
            self._live()
            if scenario is not None:
                k = self._scenario(scenario)
            else:
                k = self._nearest_locked(rates) if rates else 0
            draw = self._lib.ct_sampler_place_late if self._late[k] else self._lib.ct_sampler_place_loaded
            if draw(self._s, k, c, n, loads, self._d[k], ctypes.byref(self._rng), out, None) != 0:
                raise SamplerError(f"servers: {n} is fewer than the "
                                   f"{self._lib.ct_sampler_max_parts(self._s, k)} parts this table may use")
            raw = ctypes.string_at(out, nbytes)
        return Placement(ids, pos, raw, names)

    def late_parts(self, scenario: int = 0) -> bool:
        """True when the scenario's table was solved for late-bound parts."""
        self._live()
        return self._late[self._scenario(scenario)]

    def late_probes(self, scenario: int = 0) -> bool:
        """True when the scenario's table was solved for late parts placed by
        probes (model.late_bind "probes": use probes(), not bind())."""
        self._live()
        return self._probes[self._scenario(scenario)]

    def bind(self, servers: Servers, queue_lengths: Sequence[int], scenario: int = 0) -> Union[int, str]:
        """Binds a late part now: the least loaded of the d servers the table
        samples (its root rule), given the queue lengths of this moment
        (counting the job's own tasks that became ready now on servers
        already bound: queue them first; and each bound part that waits for
        a later task as one task on its server)."""
        n, names = self._servers(servers)
        loads = self._loads(queue_lengths, n)
        with self._lock:
            self._live()
            d = self._d[self._scenario(scenario)]
            v = self._lib.ct_sampler_least_loaded(n, loads, d, ctypes.byref(self._rng))
        return v if names is None else names[v]

    def probes(self, servers: Servers, parts: int = 1, scenario: int = 0) -> List[Union[int, str]]:
        """Probes for parts bound by Sparrow's late binding (contend sim
        --late-bind probes): the m parts of a job needed now (the root's
        part when the job arrives) get reservations on d x m distinct
        uniform servers (all if fewer; d the table's choices), returned
        here. Each server that reaches one at the head of its queue while
        free takes the job's earliest-needed part not taken yet and runs it
        from its first task to its last; the rest are dropped. A server idle
        only because its part waits for a later task asks a round trip
        late, so another idle server takes a new part first."""
        n, names = self._servers(servers)
        m = _index(parts, "parts", 1, 1 << 20)
        perm = (ctypes.c_uint32 * n)(*range(n))
        with self._lock:
            self._live()
            d = self._d[self._scenario(scenario)]
            k = self._lib.ct_sampler_probe_servers(n, min(d * m, n), perm, ctypes.byref(self._rng))
        return [perm[i] if names is None else names[perm[i]] for i in range(k)]
