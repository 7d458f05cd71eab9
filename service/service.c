/*
 * service.c - the placement service (ct_service.h).
 *
 * Design: the loaded table is a snapshot; a request enters the current
 * epoch (one counter of its thread's shard), reads the snapshot pointer,
 * draws without any lock and leaves, so /reload can swap snapshots while
 * requests run: it stores the new pointer, then twice flips the epoch and
 * waits until no request is inside the old one, and frees the old snapshot
 * (the two flips cover a request that read the epoch just before a flip).
 * The hot path writes only its shard's cache line: with one shared
 * reference count and mutex, two server threads spent half their time
 * passing those lines between cores (bench_serve). The
 * extender's job cache is a fixed-capacity hash table (chained, oldest
 * entry evicted first) under its own read-write lock (a job's later pods
 * only read it). Bodies are parsed with cJSON (length-bounded,
 * type-checked), except /prioritize's ExtenderArgs, read in one pass
 * without a tree (extender_args.c: whole Node objects are most of it), and
 * answers written into a growing buffer.
 * Metrics are relaxed atomic counters (requests by endpoint and code, a
 * latency histogram per placing endpoint, draws per class and scenario on
 * the snapshot), one set per shard of threads and summed by GET /metrics
 * without a lock: a scrape may see one counter a request ahead of another,
 * never a torn value.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_service.h"
#include "ct_sampler.h"
#include "extender_args.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SERVERS 100000u

/* /prioritize picks the scenario by the classes' measured job rates: new
 * jobs (a job's first pod) per class and second over the last
 * RATE_SECONDS, in a ring of one-second columns. */
#define RATE_SECONDS 60

/* Metrics: the endpoints and codes requests are counted by, and the
 * latency histogram's upper bounds in seconds (the last bucket is +Inf). */
enum { EP_HEALTHZ, EP_PLACE, EP_PRIORITIZE, EP_RELOAD, EP_METRICS, EP_BIND, EP_OTHER, N_EP };
static const char *const ep_names[N_EP] = { "healthz", "place", "prioritize", "reload", "metrics", "bind", "other" };
static const int codes[] = { 200, 400, 404, 405, 413, 422, 500 };
#define N_CODES (sizeof codes / sizeof *codes)
static const double lat_bounds[] = { 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 1e-2, 1e-1, 1 };
#define N_LAT (sizeof lat_bounds / sizeof *lat_bounds + 1)

/* Threads are spread over N_SHARDS shards (thread_shard): each shard's
 * counters sit on cache lines of their own. */
#define N_SHARDS 8
#define CACHE_LINE 64

typedef struct {
    _Alignas(CACHE_LINE) atomic_ulong requests[N_EP][N_CODES + 1]; /* the last column: any other code */
    atomic_ulong latency[2][N_LAT]; /* /place, /prioritize: requests per bucket (not cumulative) */
    atomic_ulong latency_ns[2];     /* their summed latency, ns */
    atomic_ulong inside[2];         /* requests of this shard inside an epoch of that parity (snap_enter) */
} shard_t;

typedef struct {
    ct_sampler_t *smp;
    pthread_mutex_t rate_mu;     /* guards jobs and sec */
    uint32_t *jobs;              /* n_classes x RATE_SECONDS: new jobs of class c in column i at [c * RATE_SECONDS + i] */
    int64_t sec[RATE_SECONDS];   /* the second column i counts (INT64_MIN: none yet) */
    int64_t start;               /* the second the table was loaded: rates count from there */
    double loaded_unix;          /* wall-clock time of the load, for the table's age */
    atomic_ulong *draws;         /* N_SHARDS x draws_stride: jobs drawn by shard k, class c scenario i at
                                    [k * draws_stride + c * n_scenarios + i] (64-byte aligned) */
    size_t draws_stride;         /* n_classes x n_scenarios rounded up to whole cache lines */
    char *scale_text;            /* n_scenarios x SCALE_TEXT: each scenario's scale as %.17g, formatted once */
} snap_t;

#define SCALE_TEXT 32

/* A job the extender drew: its tasks' nodes as indices into the distinct
 * nodes it uses, so a job of many tasks on few nodes holds each name once. */
typedef struct {
    char *key;          /* class \x1f job; NULL when free */
    uint32_t ntasks, nnodes;
    uint32_t *part;     /* per task: its node, an index into nodes (< nnodes) */
    char **nodes;       /* distinct nodes of the draw (a rebind renames one); "" for a late-bound part
                           not bound yet (its first pod binds it, bind_late) */
    uint32_t bind_d;    /* late-bound parts: the table's choices d (0: the table binds early) */
    double hold;        /* the class's predicted mean JCT, s: how long a bound part counts as load */
    size_t bytes;       /* heap bytes the entry holds, for the cache's byte bound */
    int32_t next;       /* bucket chain */
} entry_t;

/* A job /prioritize drew recently, for the table's root rule: its nodes
 * and how many of its tasks each holds, counted as load until the model's
 * mean JCT of its class has passed (Little's law: the jobs in flight). */
typedef struct {
    double expiry;      /* service clock, s */
    uint32_t nnodes;
    char **nodes;
    uint32_t *tasks;    /* per node */
} recent_t;

#define RECENT_CAP 4096 /* jobs in flight remembered at most (older ones dropped) */

struct ct_service {
    char *path;
    ct_service_params_t p;
    pthread_mutex_t mu;     /* serialises reloads (and their epoch flips) */
    _Atomic(snap_t *) cur;  /* the loaded table: read inside an epoch (snap_enter), freed two flips after a swap */
    atomic_ulong epoch;     /* its parity selects the shards' inside[] counter new requests enter */
    shard_t *shards;        /* N_SHARDS, cache-line aligned */
    atomic_ulong reloads, streams;
    pthread_rwlock_t cache_mu; /* guards the job cache: a job's later pods read it together; drawing,
                                  binding and rebinding write it */
    entry_t *entries;       /* ring: count entries before `tail` (mod cap), oldest first */
    int32_t *buckets;
    size_t cap, nbuckets, tail, count;
    size_t bytes;           /* held by the entries: at most p.job_cache_bytes, but the newest entry always stays */
    pthread_mutex_t recent_mu; /* guards recent */
    recent_t recent[RECENT_CAP]; /* ring: nrecent records ending before recent_tail */
    size_t recent_tail, nrecent;
    /* Metrics (relaxed atomics; see the file's comment; the rest per shard). */
    atomic_ulong reload_failures;
    atomic_ulong rebinds;                     /* /prioritize: a job's node moved into a pod's candidates */
    atomic_long connections;                  /* open, as the transport reports them */
    double start_unix;
};

void ct_service_params_init(ct_service_params_t *p)
{
    *p = (ct_service_params_t){ .seed = 1, .job_cache = 65536, .job_cache_bytes = (size_t)64 << 20 };
}

/* ------------------------------------------------------------------------ */
/* Snapshots.                                                                */

/* The service's clock in whole seconds (params.clock, or CLOCK_MONOTONIC). */
static int64_t now_sec(const ct_service_t *s)
{
    if (s->p.clock)
        return (int64_t)floor(s->p.clock(s->p.clock_ctx));
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec;
}

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The service's clock in seconds (params.clock, or CLOCK_MONOTONIC). */
static double now_precise(const ct_service_t *s)
{
    if (s->p.clock)
        return s->p.clock(s->p.clock_ctx);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void recent_clear(recent_t *r)
{
    for (uint32_t i = 0; i < r->nnodes; i++)
        free(r->nodes[i]);
    free(r->nodes);
    free(r->tasks);
    memset(r, 0, sizeof *r);
}

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

/* Tasks of jobs in flight at time t on each of the nn sorted candidates
 * (loads, zeroed here), dropping the expired at the ring's front. */
static void recent_loads(ct_service_t *s, double t, const char *const *sorted, int nn, uint32_t *loads)
{
    memset(loads, 0, (size_t)nn * sizeof *loads);
    pthread_mutex_lock(&s->recent_mu);
    while (s->nrecent && s->recent[(s->recent_tail + RECENT_CAP - s->nrecent) % RECENT_CAP].expiry <= t) {
        recent_clear(&s->recent[(s->recent_tail + RECENT_CAP - s->nrecent) % RECENT_CAP]);
        s->nrecent--;
    }
    for (size_t k = 0; k < s->nrecent; k++) {
        const recent_t *r = &s->recent[(s->recent_tail + RECENT_CAP - s->nrecent + k) % RECENT_CAP];
        if (r->expiry <= t) /* (expiries are not in ring order: classes' JCTs differ) */
            continue;
        for (uint32_t i = 0; i < r->nnodes; i++) {
            const char *const *hit = bsearch(r->nodes[i], sorted, (size_t)nn, sizeof *sorted, cmp_name);
            if (hit)
                loads[hit - sorted] += r->tasks[i];
        }
    }
    pthread_mutex_unlock(&s->recent_mu);
}

/* Remembers n nodes holding tasks[i] tasks each (a drawn job, or a part
 * bound later) until expiry. tasks NULL: counted from ent's draw.
 * Out of memory: not remembered (its load is not counted). */
static void recent_add_nodes(ct_service_t *s, char *const *nodes, const uint32_t *tasks, uint32_t n,
                             const entry_t *ent, double expiry)
{
    recent_t r = { expiry, n, calloc(n ? n : 1, sizeof(char *)), calloc(n ? n : 1, sizeof(uint32_t)) };
    int ok = r.nodes && r.tasks;
    for (uint32_t i = 0; ok && i < n; i++) {
        ok = (r.nodes[i] = strdup(nodes[i])) != NULL;
        if (tasks)
            r.tasks[i] = tasks[i];
    }
    for (uint32_t t = 0; ok && !tasks && t < ent->ntasks; t++)
        r.tasks[ent->part[t]]++;
    if (!ok) {
        recent_clear(&r);
        return;
    }
    pthread_mutex_lock(&s->recent_mu);
    if (s->nrecent == RECENT_CAP) { /* full: the oldest goes */
        recent_clear(&s->recent[s->recent_tail]);
        s->nrecent--;
    }
    s->recent[s->recent_tail] = r;
    s->recent_tail = (s->recent_tail + 1) % RECENT_CAP;
    s->nrecent++;
    pthread_mutex_unlock(&s->recent_mu);
}

/* Remembers a drawn job (ent: its distinct nodes and tasks) until expiry. */
static void recent_add(ct_service_t *s, const entry_t *ent, double expiry)
{
    recent_add_nodes(s, ent->nodes, NULL, ent->nnodes, ent, expiry);
}

static snap_t *snap_load(const ct_service_t *s, const char *path, char *errbuf, size_t errlen)
{
    snap_t *sn = malloc(sizeof *sn);
    if (!sn) {
        snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    if (ct_sampler_load(path, &sn->smp, errbuf, errlen) != 0) {
        free(sn);
        return NULL;
    }
    size_t nc = ct_sampler_class_count(sn->smp);
    size_t ns = ct_sampler_scenario_count(sn->smp);
    size_t per_line = CACHE_LINE / sizeof(atomic_ulong);
    sn->draws_stride = nc * ns > 0 ? (nc * ns + per_line - 1) / per_line * per_line : per_line;
    sn->draws = sn->draws_stride <= SIZE_MAX / N_SHARDS / sizeof(atomic_ulong)
                    ? aligned_alloc(CACHE_LINE, N_SHARDS * sn->draws_stride * sizeof(atomic_ulong))
                    : NULL;
    sn->scale_text = malloc(ns ? ns * SCALE_TEXT : 1);
    if (!(sn->jobs = calloc(nc * RATE_SECONDS, sizeof(uint32_t))) || !sn->draws || !sn->scale_text) {
        free(sn->jobs);
        free(sn->draws);
        free(sn->scale_text);
        ct_sampler_free(sn->smp);
        free(sn);
        snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < RATE_SECONDS; i++)
        sn->sec[i] = INT64_MIN;
    for (size_t i = 0; i < N_SHARDS * sn->draws_stride; i++)
        atomic_init(&sn->draws[i], 0);
    for (size_t i = 0; i < ns; i++)
        snprintf(sn->scale_text + i * SCALE_TEXT, SCALE_TEXT, "%.17g", ct_sampler_scenario_scale(sn->smp, i));
    sn->start = now_sec(s);
    sn->loaded_unix = unix_now();
    pthread_mutex_init(&sn->rate_mu, NULL);
    return sn;
}

static void snap_free(snap_t *sn)
{
    ct_sampler_free(sn->smp);
    pthread_mutex_destroy(&sn->rate_mu);
    free(sn->jobs);
    free(sn->draws);
    free(sn->scale_text);
    free(sn);
}

/* This thread's shard: threads take shards in turn as they first ask. */
static size_t thread_shard(void)
{
    static atomic_uint next;
    static _Thread_local unsigned shard; /* 0: none yet, else 1 + the shard */
    if (!shard)
        shard = 1 + atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % N_SHARDS;
    return shard - 1;
}

/* Counts a job drawn from scenario scen for class c. */
static void snap_count_draw(snap_t *sn, size_t c, size_t scen)
{
    atomic_fetch_add_explicit(&sn->draws[thread_shard() * sn->draws_stride + c * ct_sampler_scenario_count(sn->smp) +
                                         scen],
                              1, memory_order_relaxed);
}

/* Jobs drawn for class c from scenario scen, over the shards. */
static unsigned long snap_draws(const snap_t *sn, size_t c, size_t scen)
{
    unsigned long n = 0;
    size_t i = c * ct_sampler_scenario_count(sn->smp) + scen;
    for (size_t k = 0; k < N_SHARDS; k++)
        n += atomic_load_explicit(&sn->draws[k * sn->draws_stride + i], memory_order_relaxed);
    return n;
}

/* The measured rates at second t (jobs / s of each class over the last
 * RATE_SECONDS, or since the table was loaded when that is shorter) into
 * rates (room for every class), and the scenario nearest them. Call with
 * rate_mu held. */
static size_t snap_rates_locked(snap_t *sn, int64_t t, double *rates)
{
    size_t nc = ct_sampler_class_count(sn->smp);
    double span = (double)(t - sn->start + 1);
    span = span < 1 ? 1 : span > RATE_SECONDS ? RATE_SECONDS : span;
    for (size_t k = 0; k < nc; k++) {
        uint32_t n = 0;
        for (size_t j = 0; j < RATE_SECONDS; j++)
            if (sn->sec[j] > t - RATE_SECONDS && sn->sec[j] <= t)
                n += sn->jobs[k * RATE_SECONDS + j];
        rates[k] = (double)n / span;
    }
    return ct_sampler_nearest(sn->smp, rates);
}

static size_t snap_rates(snap_t *sn, int64_t t, double *rates)
{
    pthread_mutex_lock(&sn->rate_mu);
    size_t scen = snap_rates_locked(sn, t, rates);
    pthread_mutex_unlock(&sn->rate_mu);
    return scen;
}

/* Counts a new job of class c at second t, then as snap_rates. Two pods of
 * one new job racing each other may count it twice (the first to draw is
 * kept); a job's later pods do not count. */
static size_t snap_new_job(snap_t *sn, size_t c, int64_t t, double *rates)
{
    size_t nc = ct_sampler_class_count(sn->smp), i = (size_t)(((t % RATE_SECONDS) + RATE_SECONDS) % RATE_SECONDS);
    pthread_mutex_lock(&sn->rate_mu);
    if (sn->sec[i] != t) { /* the column held an older second: reuse it */
        for (size_t k = 0; k < nc; k++)
            sn->jobs[k * RATE_SECONDS + i] = 0;
        sn->sec[i] = t;
    }
    sn->jobs[c * RATE_SECONDS + i]++;
    size_t scen = snap_rates_locked(sn, t, rates);
    pthread_mutex_unlock(&sn->rate_mu);
    return scen;
}

/* The loaded table, valid until snap_leave(s, *epoch): the request counts
 * itself inside the current epoch before it reads the pointer, so a reload
 * that swapped the pointer earlier is seen, and one that swaps it later
 * waits for this request (snap_swap). Sequentially consistent atomics. */
static snap_t *snap_enter(ct_service_t *s, unsigned *epoch)
{
    shard_t *sh = &s->shards[thread_shard()];
    *epoch = (unsigned)(atomic_load(&s->epoch) & 1);
    atomic_fetch_add(&sh->inside[*epoch], 1);
    return atomic_load(&s->cur);
}

static void snap_leave(ct_service_t *s, unsigned epoch)
{
    atomic_fetch_sub(&s->shards[thread_shard()].inside[epoch], 1);
}

/* Makes sn the loaded table and frees the old one once no request can
 * hold it. A request holding the old one entered before the swap, in
 * either parity (it may have read the epoch before an earlier flip): the
 * first flip sends new requests to the other parity and the wait lets the
 * old parity's requests leave; the second does the same for the other.
 * Call with s->mu held (reloads one at a time). */
static void snap_swap(ct_service_t *s, snap_t *sn)
{
    snap_t *old = atomic_exchange(&s->cur, sn);
    for (int flip = 0; flip < 2; flip++) {
        unsigned was = (unsigned)(atomic_fetch_add(&s->epoch, 1) & 1);
        for (size_t k = 0; k < N_SHARDS; k++)
            while (atomic_load(&s->shards[k].inside[was]) != 0) {
                struct timespec ts = { 0, 1000 }; /* requests take microseconds */
                nanosleep(&ts, NULL);
            }
    }
    snap_free(old);
}

int ct_service_open(const char *lookup_path, const ct_service_params_t *p, ct_service_t **out, char *errbuf,
                    size_t errlen)
{
    *out = NULL;
    ct_service_t *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(lookup_path))) {
        free(s);
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }
    if (p)
        s->p = *p;
    else
        ct_service_params_init(&s->p);
    if (s->p.job_cache < 1)
        s->p.job_cache = 1;
    s->cap = s->p.job_cache;
    s->nbuckets = 2 * s->cap;
    s->entries = calloc(s->cap, sizeof(entry_t));
    s->buckets = malloc(s->nbuckets * sizeof(int32_t));
    if (s->cap > INT32_MAX / 2 || !s->entries || !s->buckets) {
        snprintf(errbuf, errlen, "job cache of %zu entries: out of memory", s->cap);
        free(s->entries);
        free(s->buckets);
        free(s->path);
        free(s);
        return -1;
    }
    for (size_t b = 0; b < s->nbuckets; b++)
        s->buckets[b] = -1;
    snap_t *first = NULL;
    if (!(s->shards = aligned_alloc(CACHE_LINE, N_SHARDS * sizeof(shard_t))))
        snprintf(errbuf, errlen, "out of memory");
    if (!s->shards || !(first = snap_load(s, lookup_path, errbuf, errlen))) {
        free(s->shards);
        free(s->entries);
        free(s->buckets);
        free(s->path);
        free(s);
        return -1;
    }
    atomic_init(&s->cur, first);
    atomic_init(&s->epoch, 0);
    pthread_mutex_init(&s->mu, NULL);
    pthread_rwlock_init(&s->cache_mu, NULL);
    pthread_mutex_init(&s->recent_mu, NULL);
    atomic_init(&s->reloads, 0);
    atomic_init(&s->streams, 0);
    for (size_t h = 0; h < N_SHARDS; h++) {
        shard_t *sh = &s->shards[h];
        for (size_t e = 0; e < N_EP; e++)
            for (size_t k = 0; k <= N_CODES; k++)
                atomic_init(&sh->requests[e][k], 0);
        for (size_t e = 0; e < 2; e++) {
            for (size_t k = 0; k < N_LAT; k++)
                atomic_init(&sh->latency[e][k], 0);
            atomic_init(&sh->latency_ns[e], 0);
            atomic_init(&sh->inside[e], 0);
        }
    }
    atomic_init(&s->reload_failures, 0);
    atomic_init(&s->rebinds, 0);
    atomic_init(&s->connections, 0);
    s->start_unix = unix_now();
    *out = s;
    return 0;
}

static void entry_clear(entry_t *e)
{
    for (uint32_t i = 0; e->nodes && i < e->nnodes; i++)
        free(e->nodes[i]);
    free(e->nodes);
    free(e->part);
    free(e->key);
    memset(e, 0, sizeof *e);
}

void ct_service_free(ct_service_t *s)
{
    if (!s)
        return;
    snap_free(atomic_load(&s->cur)); /* no request runs any more: the caller's contract */
    free(s->shards);
    for (size_t i = 0; i < s->cap; i++)
        entry_clear(&s->entries[i]);
    free(s->entries);
    free(s->buckets);
    pthread_mutex_destroy(&s->mu);
    pthread_rwlock_destroy(&s->cache_mu);
    for (size_t i = 0; i < RECENT_CAP; i++)
        recent_clear(&s->recent[i]);
    pthread_mutex_destroy(&s->recent_mu);
    free(s->path);
    free(s);
}

int ct_service_reload(ct_service_t *s, char *errbuf, size_t errlen)
{
    snap_t *sn = snap_load(s, s->path, errbuf, errlen);
    if (!sn) {
        atomic_fetch_add(&s->reload_failures, 1);
        return -1;
    }
    pthread_mutex_lock(&s->mu);
    snap_swap(s, sn);
    pthread_mutex_unlock(&s->mu);
    /* Jobs drawn from the old table keep their draw (their pods may be
     * half scheduled); new jobs draw from the new one. */
    atomic_fetch_add(&s->reloads, 1);
    return 0;
}

/* One random stream per thread and service. */
static ct_rng_t *thread_rng(ct_service_t *s)
{
    static _Thread_local struct {
        const ct_service_t *owner;
        ct_rng_t rng;
    } tl;
    if (tl.owner != s) {
        unsigned long k = atomic_fetch_add(&s->streams, 1);
        ct_rng_seed(&tl.rng, s->p.seed ^ (0x9e3779b97f4a7c15ULL * (k + 1)));
        tl.owner = s;
    }
    return &tl.rng;
}

/* ------------------------------------------------------------------------ */
/* Output.                                                                   */

typedef struct {
    char *b;
    size_t n, cap;
    int oom;
} buf_t;

static void put(buf_t *o, const char *s, size_t len)
{
    if (o->oom)
        return;
    if (o->n + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 1024; /* most answers fit the first */
        while (cap < o->n + len + 1)
            cap *= 2;
        char *b = realloc(o->b, cap);
        if (!b) {
            o->oom = 1;
            return;
        }
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->n, s, len);
    o->n += len;
    o->b[o->n] = '\0';
}

static void puts_(buf_t *o, const char *s)
{
    put(o, s, strlen(s));
}

/* An unsigned integer in decimal (printf costs as much as a draw). */
static void put_uint(buf_t *o, unsigned long v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    put(o, p, (size_t)(tmp + sizeof tmp - p));
}

static void putf(buf_t *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void putf(buf_t *o, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k > 0)
        put(o, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlongs, surrogates or code points past U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
    size_t n = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (size_t)(end - p) < n)
        return 0;
    uint32_t cp = n == 1 ? p[0] : n == 2 ? p[0] & 0x1fu : n == 3 ? p[0] & 0x0fu : p[0] & 0x07u;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* A JSON string: quotes, backslashes and controls escaped; a byte that is
 * not well-formed UTF-8 (a name cut short in an error message) becomes
 * U+FFFD, so the answer is always valid JSON. */
static void put_string(buf_t *o, const char *s)
{
    put(o, "\"", 1);
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    while (p < end) {
        const unsigned char *q = p; /* a run of plain ASCII goes in one piece */
        while (q < end && *q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
            q++;
        if (q > p) {
            put(o, (const char *)p, (size_t)(q - p));
            p = q;
            continue;
        }
        size_t n = utf8_seq(p, end);
        if (*p == '"' || *p == '\\') {
            char e[2] = { '\\', (char)*p };
            put(o, e, 2);
        } else if (*p < 0x20)
            putf(o, "\\u%04x", *p);
        else if (n)
            put(o, (const char *)p, n);
        else
            puts_(o, "\xef\xbf\xbd");
        p += n ? n : 1;
    }
    put(o, "\"", 1);
}

/* Why a request body is refused before it is parsed, or NULL: JSON is
 * UTF-8 (RFC 8259), and a \u0000 escape would cut a name short in C. */
static const char *body_refusal(const char *body, size_t len, size_t *at)
{
    const unsigned char *p = (const unsigned char *)body, *end = p + len;
    for (const unsigned char *q = p; q < end;) {
        if (*q < 0x80 && *q != '\\') { /* ASCII: nothing to check */
            q++;
            continue;
        }
        size_t n = utf8_seq(q, end);
        if (!n) {
            *at = (size_t)(q - p);
            return "not UTF-8";
        }
        if (*q == '\\' && end - q >= 6 && !memcmp(q + 1, "u0000", 5)) {
            *at = (size_t)(q - p);
            return "\\u0000 (NUL) in a string";
        }
        q += *q == '\\' && q + 1 < end ? 2 : n; /* an escaped backslash is not an escape */
    }
    return NULL;
}

static int error_reply(buf_t *o, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int error_reply(buf_t *o, int status, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->n = 0;
    puts_(o, "{\"error\": ");
    put_string(o, msg);
    puts_(o, "}\n");
    return status;
}

/* ------------------------------------------------------------------------ */
/* /place.                                                                   */

/* The request's "servers" (a count or an array of names) in *n: 0, or the
 * error reply's status. */
static int parse_servers(const cJSON *srv, uint32_t *n, buf_t *o)
{
    if (cJSON_IsNumber(srv)) {
        double v = srv->valuedouble;
        if (!(v >= 1 && v <= MAX_SERVERS && v == floor(v)))
            return error_reply(o, 400, "servers: expected a whole number 1 .. %u or an array of names", MAX_SERVERS);
        *n = (uint32_t)v;
    } else if (cJSON_IsArray(srv)) {
        int k = cJSON_GetArraySize(srv);
        if (k < 1 || k > (int)MAX_SERVERS)
            return error_reply(o, 400, "servers: expected 1 .. %u names", MAX_SERVERS);
        for (const cJSON *x = srv->child; x; x = x->next)
            if (!cJSON_IsString(x))
                return error_reply(o, 400, "servers: expected an array of strings");
        *n = (uint32_t)k;
    } else
        return error_reply(o, 400, "servers: expected a whole number or an array of names");
    return 0;
}

/* The request's "queue_lengths" (n numbers >= 0) as a malloc'd array in
 * *loads (NULL when absent): 0, the error reply's status, or -1 out of
 * memory. */
static int parse_loads(const cJSON *ql, uint32_t n, uint32_t **loads, buf_t *o)
{
    *loads = NULL;
    if (!ql)
        return 0;
    if (!cJSON_IsArray(ql) || (uint32_t)cJSON_GetArraySize(ql) != n)
        return error_reply(o, 400, "queue_lengths: expected an array of %u numbers (one per server)", n);
    if (!(*loads = malloc(n * sizeof(uint32_t))))
        return -1;
    uint32_t k = 0;
    for (const cJSON *x = ql->child; x; x = x->next, k++) {
        if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0 && x->valuedouble <= 4e9)) {
            free(*loads);
            *loads = NULL;
            return error_reply(o, 400, "queue_lengths[%u]: expected a number >= 0", k);
        }
        (*loads)[k] = (uint32_t)x->valuedouble;
    }
    return 0;
}

/* A server as the request named them: its name, or its index. */
static void put_server(buf_t *o, const cJSON *srv, uint32_t v)
{
    if (cJSON_IsArray(srv))
        put_string(o, cJSON_GetArrayItem(srv, (int)v)->valuestring);
    else
        put_uint(o, v);
}

static int handle_place(ct_service_t *s, const cJSON *req, buf_t *o)
{
    if (!cJSON_IsObject(req))
        return error_reply(o, 400, "body: expected a JSON object");
    const cJSON *cls = cJSON_GetObjectItemCaseSensitive(req, "class");
    const cJSON *srv = cJSON_GetObjectItemCaseSensitive(req, "servers");
    const cJSON *rates = cJSON_GetObjectItemCaseSensitive(req, "rates");
    const cJSON *ql = cJSON_GetObjectItemCaseSensitive(req, "queue_lengths");
    if (!cJSON_IsString(cls))
        return error_reply(o, 400, "class: expected a string");
    uint32_t n;
    int bad = parse_servers(srv, &n, o);
    if (bad)
        return bad;
    if (rates && !cJSON_IsObject(rates))
        return error_reply(o, 400, "rates: expected an object {class: jobs/s}");
    unsigned epoch;
    snap_t *sn = snap_enter(s, &epoch);
    const ct_sampler_t *smp = sn->smp;
    int status = 200;
    double *rv = NULL;
    uint32_t *loads = NULL, *out = NULL;
    long c = ct_sampler_class_index(smp, cls->valuestring);
    size_t nc = ct_sampler_class_count(smp), scen = 0;
    if (c < 0) {
        status = error_reply(o, 400, "class: unknown '%.200s'", cls->valuestring);
        goto done;
    }
    if (rates) {
        if (!(rv = malloc(nc * sizeof(double))))
            goto oom;
        for (size_t k = 0; k < nc; k++)
            rv[k] = ct_sampler_scenario_rate(smp, 0, k);
        for (const cJSON *x = rates->child; x; x = x->next) {
            long k = ct_sampler_class_index(smp, x->string);
            if (k < 0) {
                status = error_reply(o, 400, "rates: unknown class '%.200s'", x->string);
                goto done;
            }
            if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0) || !isfinite(x->valuedouble)) {
                status = error_reply(o, 400, "rates.%.200s: expected a number >= 0", x->string);
                goto done;
            }
            rv[k] = x->valuedouble;
        }
        scen = ct_sampler_nearest(smp, rv);
    }
    if ((bad = parse_loads(ql, n, &loads, o)) != 0) {
        if (bad < 0)
            goto oom;
        status = bad;
        goto done;
    }
    size_t nt = ct_sampler_task_count(smp, (size_t)c);
    if (!(out = malloc((nt ? nt : 1) * sizeof(uint32_t))))
        goto oom;
    /* A table solved for late-bound parts: the parts away from their
     * source's server are left for POST /bind when they are needed. */
    uint32_t d = ct_sampler_root_choices(smp, scen), late = ct_sampler_late_parts(smp, scen);
    if ((late ? ct_sampler_place_late : ct_sampler_place_loaded)(smp, scen, (size_t)c, n, loads, d, thread_rng(s),
                                                                 out, NULL) != 0) {
        status = error_reply(o, 422, "servers: %u is fewer than the %u parts this class's table may use", n,
                             ct_sampler_max_parts(smp, scen));
        goto done;
    }
    snap_count_draw(sn, (size_t)c, scen);
    puts_(o, "{\"class\": ");
    put_string(o, cls->valuestring);
    puts_(o, ", \"scenario\": ");
    put_uint(o, scen);
    puts_(o, ", \"scale\": ");
    puts_(o, sn->scale_text + scen * SCALE_TEXT);
    puts_(o, ", \"placement\": {");
    uint32_t parts = 0; /* late: slots drawn, numbered 0 .. parts - 1 */
    for (size_t t = 0; t < nt; t++) {
        if (t)
            puts_(o, ", ");
        put_string(o, ct_sampler_task_id(smp, (size_t)c, t));
        puts_(o, ": ");
        if (out[t] & CT_SAMPLER_LATE) {
            puts_(o, "null");
            if ((out[t] & ~CT_SAMPLER_LATE) + 1 > parts)
                parts = (out[t] & ~CT_SAMPLER_LATE) + 1;
        } else {
            put_server(o, srv, out[t]);
        }
    }
    puts_(o, "}");
    if (late) { /* each late part's tasks, to bind together */
        puts_(o, ", \"late_parts\": [");
        for (uint32_t i = 0; i < parts; i++) {
            puts_(o, i ? ", [" : "[");
            int first = 1;
            for (size_t t = 0; t < nt; t++)
                if (out[t] == (CT_SAMPLER_LATE | i)) {
                    if (!first)
                        puts_(o, ", ");
                    put_string(o, ct_sampler_task_id(smp, (size_t)c, t));
                    first = 0;
                }
            puts_(o, "]");
        }
        putf(o, "], \"bind_choices\": %u", d);
    }
    puts_(o, "}\n");
    goto done;
oom:
    o->oom = 1;
done:
    free(rv);
    free(loads);
    free(out);
    snap_leave(s, epoch);
    return status;
}

/* POST /bind: a late-bound part is needed now: the least loaded of d
 * uniform servers under the queue lengths of this moment, d the table's
 * choices (the scenario's, as /place gave it; the rule the table was
 * solved for); or, with "rule": "probes" (the default for a table solved
 * for probes, model.late_bind), the d x m distinct uniform servers the m
 * parts needed now leave reservations on (Sparrow's late binding:
 * ct_sampler_probe_servers). */
static int handle_bind(ct_service_t *s, const cJSON *req, buf_t *o)
{
    if (!cJSON_IsObject(req))
        return error_reply(o, 400, "body: expected a JSON object");
    const cJSON *srv = cJSON_GetObjectItemCaseSensitive(req, "servers");
    const cJSON *ql = cJSON_GetObjectItemCaseSensitive(req, "queue_lengths");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(req, "scenario");
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(req, "rule");
    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(req, "parts");
    uint32_t n, *loads = NULL;
    int bad = parse_servers(srv, &n, o);
    if (bad)
        return bad;
    int probes = rule && cJSON_IsString(rule) && !strcmp(rule->valuestring, "probes");
    if (rule && !probes && !(cJSON_IsString(rule) && !strcmp(rule->valuestring, "least-loaded")))
        return error_reply(o, 400, "rule: expected \"least-loaded\" or \"probes\" (default: the table's)");
    unsigned epoch;
    snap_t *sn = snap_enter(s, &epoch);
    size_t scen = 0;
    int status = 200;
    if (sc && (!cJSON_IsNumber(sc) || !(sc->valuedouble >= 0) || sc->valuedouble != floor(sc->valuedouble) ||
               !(sc->valuedouble < (double)ct_sampler_scenario_count(sn->smp)))) {
        status = error_reply(o, 400, "scenario: expected a whole number 0 .. %zu (as /place answered)",
                             ct_sampler_scenario_count(sn->smp) - 1);
        goto done;
    }
    if (sc)
        scen = (size_t)sc->valuedouble;
    if (!rule) /* the rule the table was solved for */
        probes = ct_sampler_late_probes(sn->smp, scen) != 0;
    if (parts && (!probes || !cJSON_IsNumber(parts) || !(parts->valuedouble >= 1 && parts->valuedouble <= 65536) ||
                  parts->valuedouble != floor(parts->valuedouble))) {
        status = error_reply(o, 400, "parts: expected a whole number 1 .. 65536, with the rule probes");
        goto done;
    }
    if (!ql && !probes) {
        status = error_reply(o, 400, "queue_lengths: required (one number per server: binding picks the least loaded)");
        goto done;
    }
    if (probes) {
        uint32_t d = ct_sampler_root_choices(sn->smp, scen), m = parts ? (uint32_t)parts->valuedouble : 1;
        uint32_t *perm = malloc((size_t)n * sizeof(uint32_t)); /* (the permutation the probes are drawn from) */
        if (!perm) {
            o->oom = 1;
            goto done;
        }
        ct_sampler_perm_init(n, perm);
        uint32_t k = ct_sampler_probe_servers(n, (uint64_t)d * m < n ? d * m : n, perm, thread_rng(s));
        puts_(o, "{\"probes\": [");
        for (uint32_t i = 0; i < k; i++) {
            puts_(o, i ? ", " : "");
            put_server(o, srv, perm[i]);
        }
        putf(o, "], \"choices\": %u}\n", d);
        free(perm);
        goto done;
    }
    if ((bad = parse_loads(ql, n, &loads, o)) != 0) {
        if (bad < 0)
            o->oom = 1;
        else
            status = bad;
        goto done;
    }
    uint32_t d = ct_sampler_root_choices(sn->smp, scen);
    puts_(o, "{\"server\": ");
    put_server(o, srv, ct_sampler_least_loaded(n, loads, d, thread_rng(s)));
    putf(o, ", \"choices\": %u}\n", d);
done:
    free(loads);
    snap_leave(s, epoch);
    return status;
}

/* ------------------------------------------------------------------------ */
/* The scheduler extender.                                                   */

static uint64_t hash_key(const char *k)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ULL;
    return h;
}

/* Under cache_mu: the entry of key, or -1. */
static int32_t cache_find(ct_service_t *s, const char *key)
{
    for (int32_t i = s->buckets[hash_key(key) % s->nbuckets]; i >= 0; i = s->entries[i].next)
        if (!strcmp(s->entries[i].key, key))
            return i;
    return -1;
}

/* Under cache_mu: drops the oldest entry. */
static void cache_evict_oldest(ct_service_t *s)
{
    int32_t slot = (int32_t)((s->tail + s->cap - s->count) % s->cap);
    entry_t *e = &s->entries[slot];
    int32_t *pp = &s->buckets[hash_key(e->key) % s->nbuckets];
    while (*pp != slot)
        pp = &s->entries[*pp].next;
    *pp = e->next;
    s->bytes -= e->bytes;
    entry_clear(e);
    s->count--;
}

/* Under cache_mu: adds *src (the cache takes its memory) as the newest
 * entry, then drops the oldest while over the job or byte bound. */
static void cache_insert(ct_service_t *s, entry_t *src)
{
    if (s->count == s->cap)
        cache_evict_oldest(s);
    int32_t slot = (int32_t)s->tail;
    entry_t *e = &s->entries[slot];
    *e = *src;
    memset(src, 0, sizeof *src);
    int32_t *head = &s->buckets[hash_key(e->key) % s->nbuckets];
    e->next = *head;
    *head = slot;
    s->tail = (s->tail + 1) % s->cap;
    s->count++;
    s->bytes += e->bytes;
    while (s->bytes > s->p.job_cache_bytes && s->count > 1)
        cache_evict_oldest(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A HostPriorityList: 10 for the drawn node, 0 for the others. */
static void put_scores(buf_t *o, const char *const *cand, int nn, const char *drawn)
{
    put(o, "[", 1);
    for (int i = 0; i < nn; i++) {
        if (i)
            puts_(o, ", ");
        puts_(o, "{\"Host\": ");
        put_string(o, cand[i]);
        puts_(o, strcmp(cand[i], drawn) ? ", \"Score\": 0}" : ", \"Score\": 10}");
    }
    puts_(o, "]\n");
}

/* A pod whose candidates exclude the node its task was drawn on (kube-
 * scheduler scores a rotating subset of a large cluster:
 * percentageOfNodesToScore) moves that node's part of the job: every task
 * of the job drawn on it goes to one candidate that holds none of the
 * job's other tasks (the first such by name; any candidate when every one
 * does), so the parts stay together and apart, and the job's later pods
 * follow. drawn (cap bytes) is updated. 1, or 0 when out of memory. */
static int job_uses(const entry_t *en, const char *node)
{
    for (uint32_t i = 0; i < en->nnodes; i++)
        if (!strcmp(en->nodes[i], node))
            return 1;
    return 0;
}

static int rebind(ct_service_t *s, const char *key, const char *const *cand, int nn, char **drawn)
{
    for (int i = 0; i < nn; i++)
        if (!strcmp(cand[i], *drawn))
            return 1;
    int ok = 1;
    pthread_rwlock_wrlock(&s->cache_mu);
    int32_t e = cache_find(s, key);
    if (e >= 0) { /* (evicted meanwhile: no preference, as before the draw) */
        entry_t *en = &s->entries[e];
        const char *to = NULL;
        for (int i = 0; i < nn; i++)
            if (!job_uses(en, cand[i]) && (!to || strcmp(cand[i], to) < 0))
                to = cand[i];
        if (!to)
            to = cand[0];
        char *c = strdup(to), *d = strdup(to);
        if (!c || !d) {
            free(c);
            free(d);
            ok = 0;
        } else {
            for (uint32_t i = 0; i < en->nnodes; i++)
                if (!strcmp(en->nodes[i], *drawn)) { /* that part of the job moves */
                    size_t was = strlen(en->nodes[i]), now = strlen(c);
                    free(en->nodes[i]);
                    en->nodes[i] = c;
                    c = NULL;
                    en->bytes = en->bytes - was + now;
                    s->bytes = s->bytes - was + now;
                    break;
                }
            free(c);
            free(*drawn);
            *drawn = d;
            atomic_fetch_add_explicit(&s->rebinds, 1, memory_order_relaxed);
        }
    }
    pthread_rwlock_unlock(&s->cache_mu);
    return ok;
}

/* A pod of a late-bound part not bound yet (its node ""): the part is
 * needed now, so it binds to the least loaded of the table's d candidates,
 * loads being the tasks of the jobs drawn here still in flight (as for
 * roots); every pod of the part then scores there. Nothing to do when the
 * job left the cache or is not late-bound (drawn stays "": neutral scores).
 * 1, or 0 when out of memory. */
static int bind_late(ct_service_t *s, const char *key, uint32_t t, const char *const *cand, int nn, char **drawn)
{
    const char **sorted = malloc((size_t)nn * sizeof *sorted);
    uint32_t *loads = malloc((size_t)nn * sizeof *loads);
    if (!sorted || !loads) {
        free(sorted);
        free(loads);
        return 0;
    }
    memcpy(sorted, cand, (size_t)nn * sizeof *sorted);
    qsort(sorted, (size_t)nn, sizeof *sorted, cmp_str);
    double t_now = now_precise(s);
    recent_loads(s, t_now, sorted, nn, loads);
    int ok = 1;
    pthread_rwlock_wrlock(&s->cache_mu);
    int32_t e = cache_find(s, key);
    if (e >= 0 && t < s->entries[e].ntasks && s->entries[e].bind_d) {
        entry_t *en = &s->entries[e];
        uint32_t p = en->part[t];
        if (!en->nodes[p][0]) { /* not bound by another pod meanwhile */
            const char *to = sorted[ct_sampler_least_loaded((uint32_t)nn, loads, en->bind_d, thread_rng(s))];
            char *c = strdup(to);
            if (!c) {
                ok = 0;
            } else {
                free(en->nodes[p]);
                en->nodes[p] = c;
                en->bytes += strlen(c);
                s->bytes += strlen(c);
                if (en->hold > 0) { /* the part's tasks count as load there while the job runs */
                    uint32_t nt = 0;
                    for (uint32_t i = 0; i < en->ntasks; i++)
                        nt += en->part[i] == p;
                    recent_add_nodes(s, &c, &nt, 1, NULL, t_now + en->hold);
                }
            }
        }
        if (ok) {
            char *mine = strdup(en->nodes[p]);
            if (!mine) {
                ok = 0;
            } else {
                free(*drawn);
                *drawn = mine;
            }
        }
    }
    pthread_rwlock_unlock(&s->cache_mu);
    free(sorted);
    free(loads);
    return ok;
}

/* POST /prioritize, its body read (extender_args.c): Pod's labels and the
 * candidates, NodeNames (a node-cache-capable extender) or Nodes.items. */
static int handle_prioritize(ct_service_t *s, const ct_extender_args_t *args, buf_t *o)
{
    const char *cls = args->cls, *job = args->job, *task = args->task;
    const char *const *cand = args->cand;
    int nn = args->ncand;
    if (cls && (!job || !task)) /* ours, but not placeable */
        return error_reply(o, 400, "Pod.metadata.labels: contend.io/class needs contend.io/job and contend.io/task");
    if (nn < 1 || nn > (int)MAX_SERVERS)
        return error_reply(o, 400, "NodeNames or Nodes.items: expected 1 .. %u candidate nodes", MAX_SERVERS);
    for (int k = 0; k < nn; k++)
        if (!cand[k])
            return error_reply(o, 400, "candidate node %d: expected a name", k);
    if (!cls) { /* not ours (no contend.io/class): the same score everywhere, no effect */
        put_scores(o, cand, nn, "");
        return 200;
    }
    unsigned epoch;
    snap_t *sn = snap_enter(s, &epoch);
    const ct_sampler_t *smp = sn->smp;
    int status = 200;
    char *key = NULL, *drawn = NULL;
    double *rates = NULL;
    const char **sorted = NULL;
    uint32_t *out = NULL, *map = NULL, *loads = NULL, nt = 0;
    entry_t ent = { 0 };
    long c = ct_sampler_class_index(smp, cls);
    long t = -1;
    if (c < 0) {
        status = error_reply(o, 400, "contend.io/class: unknown '%.200s'", cls);
        goto done;
    }
    nt = (uint32_t)ct_sampler_task_count(smp, (size_t)c);
    for (uint32_t i = 0; i < nt && t < 0; i++)
        if (!strcmp(ct_sampler_task_id(smp, (size_t)c, i), task))
            t = i;
    if (t < 0) {
        status = error_reply(o, 400, "contend.io/task: class '%.100s' has no task '%.100s'", cls, task);
        goto done;
    }
    size_t cl = strlen(cls), jl = strlen(job), kl = cl + jl + 2;
    if (!(key = malloc(kl)))
        goto oom;
    memcpy(key, cls, cl); /* class \x1f job */
    key[cl] = '\x1f';
    memcpy(key + cl + 1, job, jl + 1);
    int fail = 0;
    pthread_rwlock_rdlock(&s->cache_mu);
    int32_t e = cache_find(s, key);
    if (e >= 0 && (uint32_t)t < s->entries[e].ntasks)
        fail = !(drawn = strdup(s->entries[e].nodes[s->entries[e].part[t]]));
    pthread_rwlock_unlock(&s->cache_mu);
    if (fail)
        goto oom;
    if (e < 0) { /* the job's first pod: draw over its candidates, sorted, from the scenario of the rates seen */
        if (!(sorted = malloc((size_t)nn * sizeof(char *))) || !(out = malloc((nt ? nt : 1) * sizeof(uint32_t))) ||
            !(map = malloc((size_t)nn * sizeof(uint32_t))) || !(loads = malloc((size_t)nn * sizeof(uint32_t))) ||
            !(ent.part = malloc((nt ? nt : 1) * sizeof(uint32_t))) ||
            !(rates = malloc(ct_sampler_class_count(smp) * sizeof(double))))
            goto oom;
        memcpy(sorted, cand, (size_t)nn * sizeof(char *));
        qsort(sorted, (size_t)nn, sizeof(char *), cmp_str);
        size_t scen = snap_new_job(sn, (size_t)c, now_sec(s), rates);
        /* The table's root rule: the least loaded of d candidates, loads being
         * the tasks of the jobs this service drew that are still in flight
         * (kube-scheduler sends no queue lengths). */
        uint32_t d = ct_sampler_root_choices(smp, scen), late = ct_sampler_late_parts(smp, scen);
        double t_now = now_precise(s);
        if (d > 1)
            recent_loads(s, t_now, sorted, nn, loads);
        /* a table for late-bound parts leaves them unbound ("" nodes): each
         * part's first pod binds it (bind_late) */
        if ((late ? ct_sampler_place_late : ct_sampler_place_loaded)(smp, scen, (size_t)c, (uint32_t)nn,
                                                                     d > 1 ? loads : NULL, d, thread_rng(s), out,
                                                                     NULL) != 0) {
            status = error_reply(o, 422, "%d candidate nodes are fewer than the %u parts this class's table may use",
                                 nn, ct_sampler_max_parts(smp, scen));
            goto done;
        }
        snap_count_draw(sn, (size_t)c, scen);
        /* The distinct nodes, in the order the tasks first use them. */
        for (int i = 0; i < nn; i++)
            map[i] = UINT32_MAX;
        ent.ntasks = nt;
        uint32_t slots = 0; /* late parts: slot i becomes node drawn_nodes + i, after the drawn nodes */
        for (uint32_t i = 0; i < nt; i++) {
            if (out[i] & CT_SAMPLER_LATE) {
                if ((out[i] & ~CT_SAMPLER_LATE) + 1 > slots)
                    slots = (out[i] & ~CT_SAMPLER_LATE) + 1;
                continue;
            }
            if (map[out[i]] == UINT32_MAX)
                map[out[i]] = ent.nnodes++;
            ent.part[i] = map[out[i]];
        }
        uint32_t drawn_nodes = ent.nnodes;
        for (uint32_t i = 0; i < nt; i++)
            if (out[i] & CT_SAMPLER_LATE)
                ent.part[i] = drawn_nodes + (out[i] & ~CT_SAMPLER_LATE);
        ent.nnodes += slots;
        ent.bind_d = late ? (d > 1 ? d : 1) : 0;
        if (!(ent.nodes = calloc(ent.nnodes ? ent.nnodes : 1, sizeof(char *))))
            goto oom;
        ent.bytes = kl + (size_t)nt * sizeof(uint32_t) + ent.nnodes * sizeof(char *);
        for (int i = 0; i < nn; i++)
            if (map[i] != UINT32_MAX) {
                if (!(ent.nodes[map[i]] = strdup(sorted[i])))
                    goto oom;
                ent.bytes += strlen(sorted[i]) + 1;
            }
        for (uint32_t i = drawn_nodes; i < ent.nnodes; i++) {
            if (!(ent.nodes[i] = strdup("")))
                goto oom;
            ent.bytes += 1;
        }
        if (!(drawn = strdup(ent.nodes[ent.part[t]])))
            goto oom;
        if (!(ent.key = strdup(key)))
            goto oom;
        double hold = ct_sampler_predicted_jct(smp, scen, (size_t)c);
        ent.hold = hold;
        pthread_rwlock_wrlock(&s->cache_mu);
        if ((e = cache_find(s, key)) < 0) { /* another pod of the job may have drawn meanwhile: first one wins */
            if (d > 1 && hold > 0) /* (lock order: cache_mu, then recent_mu) */
                recent_add(s, &ent, t_now + hold);
            cache_insert(s, &ent);
        } else if ((uint32_t)t < s->entries[e].ntasks) {
            char *mine = strdup(s->entries[e].nodes[s->entries[e].part[t]]);
            if (mine) {
                free(drawn);
                drawn = mine;
            }
        }
        pthread_rwlock_unlock(&s->cache_mu);
    }
    if (!drawn && !(drawn = strdup(""))) /* a job drawn before a reload gave its class more tasks */
        goto oom;
    if (!drawn[0] && !bind_late(s, key, (uint32_t)t, cand, nn, &drawn))
        goto oom;
    if (drawn[0] && !rebind(s, key, cand, nn, &drawn))
        goto oom;
    put_scores(o, cand, nn, drawn);
    goto done;
oom:
    o->oom = 1;
done:
    entry_clear(&ent);
    free(drawn);
    free(key);
    free(sorted);
    free(out);
    free(map);
    free(loads);
    free(rates);
    snap_leave(s, epoch);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Metrics (Prometheus text exposition format 0.0.4).                        */

/* A label value: backslash, double quote and newline escaped. */
static void put_label(buf_t *o, const char *s)
{
    put(o, "\"", 1);
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            putf(o, "\\%c", *s);
        else if (*s == '\n')
            puts_(o, "\\n");
        else
            put(o, s, 1);
    }
    put(o, "\"", 1);
}

static void put_family(buf_t *o, const char *name, const char *type, const char *help)
{
    /* Not putf: its buffer is short, and HELP texts are long. */
    puts_(o, "# HELP ");
    puts_(o, name);
    puts_(o, " ");
    puts_(o, help);
    puts_(o, "\n# TYPE ");
    puts_(o, name);
    puts_(o, " ");
    puts_(o, type);
    puts_(o, "\n");
}

static void put_metrics(ct_service_t *s, buf_t *o)
{
    unsigned epoch;
    snap_t *sn = snap_enter(s, &epoch);
    const ct_sampler_t *smp = sn->smp;
    put_family(o, "contend_requests_total", "counter", "Requests answered, by endpoint and HTTP status code.");
    for (size_t e = 0; e < N_EP; e++)
        for (size_t k = 0; k <= N_CODES; k++) {
            unsigned long v = 0;
            for (size_t h = 0; h < N_SHARDS; h++)
                v += atomic_load_explicit(&s->shards[h].requests[e][k], memory_order_relaxed);
            if (v || (k == 0 && e != EP_OTHER)) { /* every endpoint's 200 series exists from the start */
                putf(o, "contend_requests_total{endpoint=\"%s\",", ep_names[e]);
                if (k < N_CODES)
                    putf(o, "code=\"%d\"} %lu\n", codes[k], v);
                else
                    putf(o, "code=\"other\"} %lu\n", v);
            }
        }
    put_family(o, "contend_request_duration_seconds", "histogram",
               "Time to answer /place and /prioritize, from the body received to the answer written.");
    for (size_t e = 0; e < 2; e++) {
        const char *ep = ep_names[e == 0 ? EP_PLACE : EP_PRIORITIZE];
        unsigned long cum = 0, ns_sum = 0;
        for (size_t h = 0; h < N_SHARDS; h++)
            ns_sum += atomic_load_explicit(&s->shards[h].latency_ns[e], memory_order_relaxed);
        for (size_t k = 0; k < N_LAT; k++) {
            for (size_t h = 0; h < N_SHARDS; h++)
                cum += atomic_load_explicit(&s->shards[h].latency[e][k], memory_order_relaxed);
            if (k + 1 < N_LAT)
                putf(o, "contend_request_duration_seconds_bucket{endpoint=\"%s\",le=\"%g\"} %lu\n", ep,
                     lat_bounds[k], cum);
            else
                putf(o, "contend_request_duration_seconds_bucket{endpoint=\"%s\",le=\"+Inf\"} %lu\n", ep, cum);
        }
        putf(o, "contend_request_duration_seconds_sum{endpoint=\"%s\"} %.9f\n", ep,
             1e-9 * (double)ns_sum);
        putf(o, "contend_request_duration_seconds_count{endpoint=\"%s\"} %lu\n", ep, cum);
    }
    put_family(o, "contend_draws_total", "counter",
               "Jobs placed from the loaded table, by class and scenario (index in the lookup file); from 0 at each "
               "load.");
    size_t nc = ct_sampler_class_count(smp), ns = ct_sampler_scenario_count(smp);
    for (size_t c = 0; c < nc; c++)
        for (size_t i = 0; i < ns; i++) {
            puts_(o, "contend_draws_total{class=");
            put_label(o, ct_sampler_class_name(smp, c));
            putf(o, ",scenario=\"%zu\"} %lu\n", i, snap_draws(sn, c, i));
        }
    put_family(o, "contend_table_info", "gauge", "The loaded lookup file: its path and a digest of its bytes (FNV-1a).");
    puts_(o, "contend_table_info{lookup=");
    put_label(o, s->path);
    putf(o, ",digest=\"%016llx\"} 1\n", (unsigned long long)ct_sampler_digest(smp));
    put_family(o, "contend_table_classes", "gauge", "Classes in the loaded table.");
    putf(o, "contend_table_classes %zu\n", nc);
    put_family(o, "contend_table_scenarios", "gauge", "Arrival-rate scenarios in the loaded table.");
    putf(o, "contend_table_scenarios %zu\n", ns);
    put_family(o, "contend_table_loaded_timestamp_seconds", "gauge", "When the loaded table was read (Unix time).");
    putf(o, "contend_table_loaded_timestamp_seconds %.3f\n", sn->loaded_unix);
    put_family(o, "contend_table_age_seconds", "gauge", "Seconds since the loaded table was read.");
    putf(o, "contend_table_age_seconds %.3f\n", unix_now() - sn->loaded_unix);
    put_family(o, "contend_reloads_total", "counter", "Successful reloads of the lookup file.");
    putf(o, "contend_reloads_total %lu\n", (unsigned long)atomic_load(&s->reloads));
    put_family(o, "contend_reload_failures_total", "counter", "Failed reloads (the previous table stayed).");
    putf(o, "contend_reload_failures_total %lu\n", (unsigned long)atomic_load(&s->reload_failures));
    put_family(o, "contend_prioritize_rebinds_total", "counter",
               "Pods whose candidates excluded their task's node: the job's tasks on it moved to a candidate.");
    putf(o, "contend_prioritize_rebinds_total %lu\n", (unsigned long)atomic_load(&s->rebinds));
    put_family(o, "contend_open_connections", "gauge", "Client connections open now.");
    putf(o, "contend_open_connections %ld\n", (long)atomic_load(&s->connections));
    pthread_rwlock_rdlock(&s->cache_mu);
    size_t cached = s->count, cached_bytes = s->bytes;
    pthread_rwlock_unlock(&s->cache_mu);
    put_family(o, "contend_job_cache_jobs", "gauge", "Jobs the extender remembers (their pods get the same draw).");
    putf(o, "contend_job_cache_jobs %zu\n", cached);
    put_family(o, "contend_job_cache_capacity_jobs", "gauge", "Jobs the extender's cache holds at most (--job-cache).");
    putf(o, "contend_job_cache_capacity_jobs %zu\n", s->cap);
    put_family(o, "contend_job_cache_bytes", "gauge", "Heap bytes the extender's job cache holds.");
    putf(o, "contend_job_cache_bytes %zu\n", cached_bytes);
    put_family(o, "contend_job_cache_capacity_bytes", "gauge",
               "Bytes the job cache holds at most (--job-cache-bytes; the newest job always stays).");
    putf(o, "contend_job_cache_capacity_bytes %zu\n", s->p.job_cache_bytes);
    put_family(o, "contend_start_time_seconds", "gauge", "When the service started (Unix time).");
    putf(o, "contend_start_time_seconds %.3f\n", s->start_unix);
    snap_leave(s, epoch);
}

void ct_service_connections(ct_service_t *s, int delta)
{
    atomic_fetch_add_explicit(&s->connections, delta, memory_order_relaxed);
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Counts one answered request; a placing endpoint's latency too. */
static void count_request(ct_service_t *s, size_t ep, int status, double seconds)
{
    size_t k = 0;
    while (k < N_CODES && codes[k] != status)
        k++;
    shard_t *sh = &s->shards[thread_shard()];
    atomic_fetch_add_explicit(&sh->requests[ep][k], 1, memory_order_relaxed);
    if (ep != EP_PLACE && ep != EP_PRIORITIZE)
        return;
    size_t e = ep == EP_PLACE ? 0 : 1, b = 0;
    while (b + 1 < N_LAT && seconds > lat_bounds[b])
        b++;
    atomic_fetch_add_explicit(&sh->latency[e][b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->latency_ns[e], (unsigned long)(seconds * 1e9), memory_order_relaxed);
}

static int only_space(const char *p, const char *end)
{
    for (; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return 0;
    return 1;
}

/* The endpoint a path names: its last segment, so that any prefix works
 * (kube-scheduler's urlPrefix may carry a path: http://host:port/contend
 * calls /contend/prioritize). The query string is not part of it. */
static const char *endpoint(const char *path, char *buf, size_t cap)
{
    const char *e = path + strcspn(path, "?#"), *b = e;
    while (b > path && b[-1] != '/')
        b--;
    if (b > path)
        b--; /* keep the slash */
    size_t n = (size_t)(e - b);
    if (n >= cap)
        n = 0;
    memcpy(buf, b, n);
    buf[n] = '\0';
    return buf;
}

const char *ct_service_allow(const char *path)
{
    char ep[32];
    endpoint(path, ep, sizeof ep);
    if (!strcmp(ep, "/healthz") || !strcmp(ep, "/metrics"))
        return "GET, HEAD";
    if (!strcmp(ep, "/reload") || !strcmp(ep, "/place") || !strcmp(ep, "/prioritize") || !strcmp(ep, "/bind"))
        return "POST";
    return NULL;
}

size_t ct_service_max_body(const char *path)
{
    char ep[32];
    endpoint(path, ep, sizeof ep);
    return !strcmp(ep, "/prioritize") ? CT_SERVICE_MAX_PRIORITIZE_BODY : CT_SERVICE_MAX_BODY;
}

const char *ct_service_content_type(const char *path, int status)
{
    char ep[32];
    endpoint(path, ep, sizeof ep);
    return status == 200 && !strcmp(ep, "/metrics") ? "text/plain; version=0.0.4; charset=utf-8" : "application/json";
}

int ct_service_handle(ct_service_t *s, const char *method, const char *path, const char *body, size_t len, char **out,
                      size_t *outlen)
{
    buf_t o = { 0 };
    int status;
    size_t epi = EP_OTHER;
    double t0 = 0;
    int post = !strcmp(method, "POST"), get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    char ep[32];
    const char *full = path;
    path = endpoint(full, ep, sizeof ep);
    if (!strcmp(path, "/metrics")) {
        epi = EP_METRICS;
        if (!get)
            status = error_reply(&o, 405, "/metrics: use GET");
        else {
            put_metrics(s, &o);
            status = 200;
        }
    } else if (!strcmp(path, "/healthz")) {
        epi = EP_HEALTHZ;
        if (!get)
            status = error_reply(&o, 405, "/healthz: use GET");
        else {
            unsigned epoch;
            snap_t *sn = snap_enter(s, &epoch);
            size_t nc = ct_sampler_class_count(sn->smp);
            double *rates = malloc(nc * sizeof(double));
            if (!rates)
                o.oom = 1;
            else {
                size_t scen = snap_rates(sn, now_sec(s), rates);
                puts_(&o, "{\"status\": \"ok\", \"lookup\": ");
                put_string(&o, s->path);
                putf(&o, ", \"classes\": %zu, \"scenarios\": %zu, \"reloads\": %lu, \"measured_rates\": {", nc,
                     ct_sampler_scenario_count(sn->smp), (unsigned long)atomic_load(&s->reloads));
                for (size_t k = 0; k < nc; k++) {
                    if (k)
                        puts_(&o, ", ");
                    put_string(&o, ct_sampler_class_name(sn->smp, k));
                    putf(&o, ": %.17g", rates[k]);
                }
                putf(&o, "}, \"prioritize_scenario\": %zu}\n", scen);
            }
            free(rates);
            snap_leave(s, epoch);
            status = 200;
        }
    } else if (!strcmp(path, "/reload")) {
        epi = EP_RELOAD;
        char err[512];
        if (!post)
            status = error_reply(&o, 405, "/reload: use POST");
        else if (ct_service_reload(s, err, sizeof err) != 0)
            status = error_reply(&o, 500, "reload failed, the previous table stays: %s", err);
        else {
            putf(&o, "{\"status\": \"reloaded\", \"reloads\": %lu}\n", (unsigned long)atomic_load(&s->reloads));
            status = 200;
        }
    } else if (!strcmp(path, "/place") || !strcmp(path, "/prioritize") || !strcmp(path, "/bind")) {
        cJSON *req = NULL;
        const char *end = NULL, *why;
        size_t at = 0;
        epi = path[1] == 'b' ? EP_BIND : path[2] == 'l' ? EP_PLACE : EP_PRIORITIZE;
        t0 = mono_now();
        if (!post)
            status = error_reply(&o, 405, "%s: use POST", path);
        else if (len > ct_service_max_body(path))
            status = error_reply(&o, 413, "body: over %zu bytes", ct_service_max_body(path));
        else if (body && (why = body_refusal(body, len, &at)))
            status = error_reply(&o, 400, "body: %s at byte %zu", why, at);
        else if (epi == EP_PRIORITIZE && body && len) {
            ct_extender_args_t args;
            int r = ct_extender_args_parse(body, len, &args);
            if (r == CT_EA_NOMEM) {
                o.oom = 1;
                status = 0;
            }
            else if (r == CT_EA_MALFORMED)
                status = error_reply(&o, 400, "body: malformed JSON");
            else if (r == CT_EA_TRAILING)
                status = error_reply(&o, 400, "body: data after the JSON value");
            else if (r == CT_EA_NOT_OBJECT)
                status = error_reply(&o, 400, "body: expected a JSON object (ExtenderArgs)");
            else
                status = handle_prioritize(s, &args, &o);
            ct_extender_args_free(&args);
        } else if (!body || !len || !(req = cJSON_ParseWithLengthOpts(body, len, &end, 0)))
            status = error_reply(&o, 400, "body: malformed JSON%s", !body || !len ? " (empty)" : "");
        else if (!only_space(end, body + len))
            status = error_reply(&o, 400, "body: data after the JSON value");
        else if (epi == EP_PLACE)
            status = handle_place(s, req, &o);
        else
            status = handle_bind(s, req, &o);
        cJSON_Delete(req);
    } else
        status = error_reply(&o, 404, "%s: no such endpoint (GET /healthz, /metrics, POST /place, /bind, /prioritize, /reload)",
                             full);
    count_request(s, epi, o.oom ? 0 : status, t0 > 0 ? mono_now() - t0 : 0);
    if (o.oom) {
        free(o.b);
        *out = NULL;
        *outlen = 0;
        return 0;
    }
    *out = o.b;
    *outlen = o.n;
    return status;
}
