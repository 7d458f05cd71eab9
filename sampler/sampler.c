/*
 * sampler.c - the online placement sampler (see ct_sampler.h).
 *
 * Everything a loaded sampler owns lives in one arena (a list of large
 * blocks), so loading is a sequence of bump allocations and freeing is one
 * walk. Tasks are referred to by their index in the class's "tasks" list.
 * Each segment keeps Vose alias tables: a draw is one uniform index and one
 * uniform comparison. A lookup file is parsed one scenario at a time (a
 * small scanner walks the document around them), so loading holds one
 * scenario's cJSON tree, not the whole file's; anything the scanner finds
 * unusual is parsed whole, the reading whose results and errors count.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "ct_sampler.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------ */
/* RNG: xoshiro256**, seeded through splitmix64.                             */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void ct_rng_seed(ct_rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The generator and the bounded draw, inlined into the placement loop
 * (the exported names below are for callers; a call through them cannot
 * be inlined in a shared library). */
static inline uint64_t rng_next(ct_rng_t *r)
{
    uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline uint64_t rng_below(ct_rng_t *r, uint64_t n)
{
    /* Lemire's multiply-shift with rejection of the biased low zone. */
    unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t thresh = (0 - n) % n;
        while (low < thresh) {
            m = (unsigned __int128)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

uint64_t ct_rng_next(ct_rng_t *r)
{
    return rng_next(r);
}

double ct_rng_uniform(ct_rng_t *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t ct_rng_below(ct_rng_t *r, uint64_t n)
{
    return rng_below(r, n);
}

/* ------------------------------------------------------------------------ */
/* Data.                                                                     */

typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    max_align_t data[];
} arena_block_t;

typedef struct {
    double prob;
    uint32_t k, l, n_parts;
    uint32_t *part_start;   /* n_parts + 1 offsets into part_tasks */
    uint32_t *part_tasks;
    uint32_t *prog;         /* placement program (compile_class), per part p in order
                               (one group when n_parts is 0): a run count, then the runs
                               (first task, length) that get part p's server; part l's
                               runs include the segment's tail (segment_t.tail) */
} triplet_t;

typedef struct {
    uint32_t n_sink;
    uint32_t *sink_tasks;
    uint32_t n_trip;
    triplet_t *trip;
    uint64_t *alias;        /* Vose, packed: keep i when 32 random bits are below the low 32
                               bits, else take the high 32 (an always-kept slot aliases itself) */
    /* Placement program (compile_class): a segment with one triplet of at
     * most one part is fixed, its tasks follow the current server. The tail
     * of a drawn segment, its sink and the tasks of the fixed segments right
     * after it, goes with part l (in each triplet's prog). */
    uint32_t n_tail_fixed;  /* fixed segments in the tail */
} segment_t;

typedef struct {
    double rate;
    double predicted_jct;   /* the model's mean JCT, s (0 when the file has none) */
    uint32_t n_root;
    uint32_t *root_tasks;
    uint32_t n_seg;
    segment_t *seg;
    /* Placement program: the root and the fixed segments before the first
     * drawn one, as runs, and how many segments that is. */
    uint32_t n_lead_runs;
    uint32_t *lead_runs;
    uint32_t n_lead_fixed;
} class_table_t;

typedef struct {
    double scale;
    uint32_t root_choices;  /* d >= 1: model.root_choices (absent: 1, the paper's uniform root) */
    uint32_t late_parts;    /* 1: model.part_binding "late" (parts bind when ready); 0: "early" or absent */
    uint32_t late_probes;   /* 1: model.late_bind "probes" (late parts placed by probes); 0: absent */
    uint32_t max_parts;     /* the most parts of any triplet: placement needs that many servers */
    class_table_t *classes; /* n_classes */
} scenario_t;

/* Limits on hostile lookup files (docs/limits.md). */
#define SAMPLER_MAX_FILE_BYTES ((size_t)1 << 30)
#define SAMPLER_MAX_ID_BYTES 1024u
#define SAMPLER_MAX_TASKS 10000000u

struct ct_sampler {
    arena_block_t *arena;
    size_t n_classes;
    char **class_names;
    size_t *n_tasks;
    char ***task_ids;
    uint32_t **task_hash;   /* per class: open addressing, 2^k >= 2 n slots of task index + 1 (0 = empty) */
    uint32_t *hash_mask;
    size_t n_scenarios;
    scenario_t *scenarios;
    uint64_t digest;        /* FNV-1a of the file's bytes: which table a service runs */
};

static void *arena_alloc(ct_sampler_t *s, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    arena_block_t *b = s->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > (1u << 20) ? n : (1u << 20);
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = s->arena;
        b->used = 0;
        b->cap = cap;
        s->arena = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

void ct_sampler_free(ct_sampler_t *s)
{
    if (!s)
        return;
    for (arena_block_t *b = s->arena, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(s);
}

/* ------------------------------------------------------------------------ */
/* Loading.                                                                  */

typedef struct {
    ct_sampler_t *s;
    const char *label;
    char *errbuf;
    size_t errlen;
    uint32_t stamp;     /* the last triplet's mark (see read_tasks); never PLACED */
} loader_t;

/* A class's tasks are marked as the loader meets them, in one array of the
 * class's size for the whole class (so loading stays linear in the file):
 * PLACED once the root, a sink or a segment's triplets placed it; else the
 * stamp of the last triplet that named it (each triplet gets a new one); 0
 * untouched. */
#define PLACED UINT32_MAX

static int fail(loader_t *L, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(loader_t *L, const char *fmt, ...)
{
    if (L->errbuf && L->errlen) {
        int n = snprintf(L->errbuf, L->errlen, "%s: ", L->label);
        if (n >= 0 && (size_t)n < L->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(L->errbuf + n, L->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
        /* One line, as every loader's errors: a control character from an
         * id in the file (a newline, an escape) is folded to '?'. */
        for (char *p = L->errbuf; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    }
    return -1;
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static char *arena_strdup(ct_sampler_t *s, const char *str)
{
    size_t n = strlen(str) + 1;
    char *d = arena_alloc(s, n);
    if (d)
        memcpy(d, str, n);
    return d;
}

static uint32_t id_hash(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

/* Finds a task id among the class's tasks: O(1) expected (a hostile file
 * with many tasks must not make loading quadratic). */
static long task_index(const ct_sampler_t *s, size_t c, const char *id)
{
    uint32_t mask = s->hash_mask[c];
    for (uint32_t i = id_hash(id) & mask;; i = (i + 1) & mask) {
        uint32_t v = s->task_hash[c][i];
        if (v == 0)
            return -1;
        if (!strcmp(s->task_ids[c][v - 1], id))
            return (long)(v - 1);
    }
}

/* Reads an array of task ids into task indices, marking them in mark
 * (NULL: no marks): stamp PLACED for the root and sinks (a task must be
 * unplaced); a triplet's stamp for its parts (a task must be unplaced, not
 * already named by this triplet, and, when prev is not 0, named by the
 * previous triplet of the segment: every triplet places the same set). */
static int read_tasks(loader_t *L, size_t c, const cJSON *arr, const char *where, uint32_t **out, uint32_t *n,
                      uint32_t *mark, uint32_t stamp, uint32_t prev)
{
    if (!cJSON_IsArray(arr))
        return fail(L, "%s: expected an array of task ids", where);
    *n = (uint32_t)cJSON_GetArraySize(arr);
    *out = arena_alloc(L->s, (*n ? *n : 1) * sizeof(uint32_t));
    if (!*out)
        return fail(L, "out of memory");
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it))
            return fail(L, "%s[%zu]: expected a task id string", where, i);
        long t = task_index(L->s, c, it->valuestring);
        if (t < 0)
            return fail(L, "%s[%zu]: task '%s' is not in the class's task list", where, i, it->valuestring);
        if (mark) {
            if (mark[t] == PLACED || mark[t] == stamp)
                return fail(L, "%s[%zu]: task '%s' is placed twice", where, i, it->valuestring);
            if (prev && mark[t] != prev)
                return fail(L, "%s: places a different set of tasks than triplets[0]", where);
            mark[t] = stamp;
        }
        (*out)[i++] = (uint32_t)t;
    }
    return 0;
}

static int read_number(loader_t *L, const cJSON *o, const char *key, const char *where, double *v)
{
    const cJSON *n = get(o, key);
    if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble))
        return fail(L, "%s.%s: %s", where, key, n ? "expected a finite number" : "missing");
    *v = n->valuedouble;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts tasks[0..n) (the order of the writes does not matter) and counts
 * its runs of consecutive numbers; with out, writes them as (first,
 * length) pairs. Placement fills a run with a loop the compiler turns into
 * vector stores, where a task list costs a dependent load per task. */
static uint32_t task_runs(uint32_t *tasks, uint32_t n, uint32_t *out)
{
    qsort(tasks, n, sizeof(uint32_t), cmp_u32);
    uint32_t nr = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && tasks[j] == tasks[j - 1] + 1)
            j++;
        if (out) {
            out[2 * nr] = tasks[i];
            out[2 * nr + 1] = j - i;
        }
        nr++;
        i = j;
    }
    return nr;
}

/* The runs of a task list into the arena. */
static int list_runs(loader_t *L, uint32_t *tasks, uint32_t n, uint32_t **runs, uint32_t *nruns)
{
    *nruns = task_runs(tasks, n, NULL);
    if (!(*runs = arena_alloc(L->s, (*nruns ? 2 * (size_t)*nruns : 1) * sizeof(uint32_t))))
        return fail(L, "out of memory");
    task_runs(tasks, n, *runs);
    return 0;
}

/* A keep probability as a threshold on 32 random bits (keep when below):
 * at most 2^32 - 1, so a slot kept with probability ~1 loses at most
 * 2^-32 to its alias. */
static uint32_t keep_threshold(double p)
{
    double t = p * 4294967296.0;
    return t <= 0 ? 0 : t >= 4294967295.0 ? 0xffffffffu : (uint32_t)t;
}

/* Vose's alias method. */
static int build_alias(loader_t *L, segment_t *g)
{
    uint32_t n = g->n_trip;
    g->alias = arena_alloc(L->s, n * sizeof(uint64_t));
    uint32_t *small = malloc(n * sizeof(uint32_t)), *large = malloc(n * sizeof(uint32_t));
    double *p = malloc(n * sizeof(double));
    if (!g->alias || !small || !large || !p) {
        free(small);
        free(large);
        free(p);
        return fail(L, "out of memory");
    }
    uint32_t ns = 0, nl = 0;
    for (uint32_t i = 0; i < n; i++) {
        p[i] = g->trip[i].prob * n;
        if (p[i] < 1.0)
            small[ns++] = i;
        else
            large[nl++] = i;
    }
    while (ns && nl) {
        uint32_t a = small[--ns], b = large[--nl];
        g->alias[a] = (uint64_t)b << 32 | keep_threshold(p[a]);
        p[b] = (p[b] + p[a]) - 1.0;
        if (p[b] < 1.0)
            small[ns++] = b;
        else
            large[nl++] = b;
    }
    while (nl) { /* round-off leftovers keep themselves */
        uint32_t b = large[--nl];
        g->alias[b] = (uint64_t)b << 32 | 0xffffffffu;
    }
    while (ns) {
        uint32_t a = small[--ns];
        g->alias[a] = (uint64_t)a << 32 | 0xffffffffu;
    }
    free(small);
    free(large);
    free(p);
    return 0;
}

/* A segment whose one triplet has at most one part: its tasks and sink
 * follow the current server and its draw is a constant. */
static int segment_fixed(const segment_t *g)
{
    return g->n_trip == 1 && g->trip[0].n_parts <= 1;
}

/* Appends a segment's part and sink tasks to buf (fixed segments only). */
static uint32_t append_fixed(uint32_t *buf, uint32_t n, const segment_t *g)
{
    const triplet_t *t = &g->trip[0];
    uint32_t np = t->n_parts ? t->part_start[1] : 0;
    memcpy(buf + n, t->part_tasks, np * sizeof(uint32_t));
    memcpy(buf + n + np, g->sink_tasks, g->n_sink * sizeof(uint32_t));
    return n + np + g->n_sink;
}

/* The placement program of a loaded class: runs of consecutive tasks that
 * get the same server between two draws, merged across fixed segments (in
 * a class placed locally at a load, the whole job is one run). Placement
 * still advances the generator once per fixed segment, so the servers drawn
 * for a seed do not depend on this. nt: the class's task count. */
static int compile_class(loader_t *L, class_table_t *ct, size_t nt)
{
    uint32_t *buf = malloc((nt ? nt : 1) * sizeof(uint32_t));
    if (!buf)
        return fail(L, "out of memory");
    uint32_t g = 0, n = ct->n_root;
    memcpy(buf, ct->root_tasks, n * sizeof(uint32_t));
    for (; g < ct->n_seg && segment_fixed(&ct->seg[g]); g++)
        n = append_fixed(buf, n, &ct->seg[g]);
    ct->n_lead_fixed = g;
    int rc = list_runs(L, buf, n, &ct->lead_runs, &ct->n_lead_runs);
    uint32_t *group = rc ? NULL : malloc((nt ? nt : 1) * sizeof(uint32_t));
    if (!rc && !group)
        rc = fail(L, "out of memory");
    while (!rc && g < ct->n_seg) {
        segment_t *d = &ct->seg[g++];
        uint32_t n_tail = d->n_sink;
        memcpy(buf, d->sink_tasks, n_tail * sizeof(uint32_t));
        for (d->n_tail_fixed = 0; g < ct->n_seg && segment_fixed(&ct->seg[g]); g++, d->n_tail_fixed++)
            n_tail = append_fixed(buf, n_tail, &ct->seg[g]);
        for (uint32_t i = 0; !rc && i < d->n_trip; i++) {
            triplet_t *t = &d->trip[i];
            /* Two passes over the groups: count the program's size, then write it. */
            for (int pass = 0; pass < 2; pass++) {
                size_t len = 0;
                for (uint32_t p = 0; p < (t->n_parts ? t->n_parts : 1); p++) {
                    uint32_t m = t->n_parts ? t->part_start[p + 1] - t->part_start[p] : 0;
                    memcpy(group, t->part_tasks + (t->n_parts ? t->part_start[p] : 0), m * sizeof(uint32_t));
                    if (p == (t->n_parts ? t->l : 0)) {
                        memcpy(group + m, buf, n_tail * sizeof(uint32_t));
                        m += n_tail;
                    }
                    uint32_t nr = task_runs(group, m, pass ? t->prog + len + 1 : NULL);
                    if (pass)
                        t->prog[len] = nr;
                    len += 1 + 2 * (size_t)nr;
                }
                if (!pass && !(t->prog = arena_alloc(L->s, len * sizeof(uint32_t)))) {
                    rc = fail(L, "out of memory");
                    break;
                }
            }
        }
    }
    free(group);
    free(buf);
    return rc;
}

static int read_segment(loader_t *L, size_t c, const cJSON *sj, const char *where, segment_t *g, uint32_t *mark)
{
    char w2[256];
    if (!cJSON_IsObject(sj))
        return fail(L, "%s: expected an object", where);
    snprintf(w2, sizeof w2, "%s.sink", where);
    if (read_tasks(L, c, get(sj, "sink"), w2, &g->sink_tasks, &g->n_sink, mark, PLACED, 0))
        return -1;
    const cJSON *ts = get(sj, "triplets");
    if (!cJSON_IsArray(ts) || cJSON_GetArraySize(ts) == 0)
        return fail(L, "%s.triplets: expected a non-empty array", where);
    g->n_trip = (uint32_t)cJSON_GetArraySize(ts);
    g->trip = arena_alloc(L->s, g->n_trip * sizeof(triplet_t));
    if (!g->trip)
        return fail(L, "out of memory");
    double sum = 0;
    size_t i = 0;
    const cJSON *tj;
    /* Each triplet must place the segment's intermediate tasks exactly
     * once, and all triplets the same set: triplet i's tasks must carry
     * triplet i-1's stamp and be as many as triplet 0's (read_tasks). */
    uint32_t prev = 0;
    size_t first_total = 0;
    int rc = 0;
    cJSON_ArrayForEach(tj, ts) {
        triplet_t *t = &g->trip[i];
        char w3[300];
        snprintf(w3, sizeof w3, "%s.triplets[%zu]", where, i);
        double k = 0, l = 0;
        if (!cJSON_IsObject(tj) || read_number(L, tj, "probability", w3, &t->prob) ||
            read_number(L, tj, "k", w3, &k) || read_number(L, tj, "l", w3, &l)) {
            rc = cJSON_IsObject(tj) ? -1 : fail(L, "%s: expected an object", w3);
            break;
        }
        if (t->prob < 0 || t->prob > 1 + 1e-9) {
            rc = fail(L, "%s.probability: %g is not a probability", w3, t->prob);
            break;
        }
        sum += t->prob;
        const cJSON *parts = get(tj, "parts");
        if (!cJSON_IsArray(parts)) {
            rc = fail(L, "%s.parts: expected an array of arrays", w3);
            break;
        }
        t->n_parts = (uint32_t)cJSON_GetArraySize(parts);
        if (t->n_parts > 255 || k < 0 || l < 0 || k != floor(k) || l != floor(l) ||
            (t->n_parts ? (k >= t->n_parts || l >= t->n_parts) : (k != 0 || l != 0))) {
            rc = fail(L, "%s: k = %g, l = %g do not name parts of %u", w3, k, l, t->n_parts);
            break;
        }
        t->k = (uint32_t)k;
        t->l = (uint32_t)l;
        t->part_start = arena_alloc(L->s, (t->n_parts + 1) * sizeof(uint32_t));
        if (!t->part_start) {
            rc = fail(L, "out of memory");
            break;
        }
        if (++L->stamp == PLACED) /* 2^32 - 1 triplets in one file: cannot be, but never reuse PLACED */
            L->stamp = 1;
        /* Gather all part tasks into one array. */
        size_t total = 0, pi = 0;
        const cJSON *pj;
        cJSON_ArrayForEach(pj, parts) total += cJSON_IsArray(pj) ? (size_t)cJSON_GetArraySize(pj) : 0;
        t->part_tasks = arena_alloc(L->s, (total ? total : 1) * sizeof(uint32_t));
        if (!t->part_tasks) {
            rc = fail(L, "out of memory");
            break;
        }
        size_t off = 0;
        cJSON_ArrayForEach(pj, parts) {
            char w4[320];
            uint32_t *ids, cnt;
            snprintf(w4, sizeof w4, "%s.parts[%zu]", w3, pi);
            if ((rc = read_tasks(L, c, pj, w4, &ids, &cnt, mark, L->stamp, prev)) != 0)
                break;
            if (cnt == 0) {
                rc = fail(L, "%s: empty part", w4);
                break;
            }
            t->part_start[pi] = (uint32_t)off;
            memcpy(t->part_tasks + off, ids, cnt * sizeof(uint32_t));
            off += cnt;
            pi++;
        }
        if (rc)
            break;
        t->part_start[t->n_parts] = (uint32_t)off;
        if (i == 0)
            first_total = off;
        else if (off != first_total) {
            rc = fail(L, "%s.parts: places a different set of tasks than triplets[0]", w3);
            break;
        }
        prev = L->stamp;
        i++;
    }
    if (!rc && fabs(sum - 1.0) > 1e-6)
        rc = fail(L, "%s.triplets: probabilities sum to %.9g, not 1", where, sum);
    if (rc)
        return rc;
    for (uint32_t x = 0; x < g->trip[0].part_start[g->trip[0].n_parts]; x++) /* the segment's tasks are placed */
        mark[g->trip[0].part_tasks[x]] = PLACED;
    for (uint32_t t = 0; t < g->n_trip; t++) /* renormalise round-off */
        g->trip[t].prob /= sum;
    return build_alias(L, g);
}

static int read_class(loader_t *L, size_t sc, size_t c, const cJSON *cj, class_table_t *ct)
{
    char where[128];
    ct_sampler_t *s = L->s;
    snprintf(where, sizeof where, "scenarios[%zu].classes[%zu]", sc, c);
    if (!cJSON_IsObject(cj))
        return fail(L, "%s: expected an object", where);
    const cJSON *name = get(cj, "name"), *tasks = get(cj, "tasks");
    if (!cJSON_IsString(name))
        return fail(L, "%s.name: %s", where, name ? "expected a string" : "missing");
    if (!cJSON_IsArray(tasks))
        return fail(L, "%s.tasks: %s", where, tasks ? "expected an array" : "missing");
    if (read_number(L, cj, "arrival_rate", where, &ct->rate))
        return -1;
    const cJSON *pj = get(cj, "predicted_mean_jct"); /* optional */
    ct->predicted_jct = cJSON_IsNumber(pj) && pj->valuedouble > 0 && isfinite(pj->valuedouble) ? pj->valuedouble : 0;
    if (!(ct->rate > 0))
        return fail(L, "%s.arrival_rate: must be positive", where);
    size_t nt = (size_t)cJSON_GetArraySize(tasks);
    if (nt > SAMPLER_MAX_TASKS)
        return fail(L, "%s.tasks: %zu tasks, over the limit of %u", where, nt, SAMPLER_MAX_TASKS);
    if (strlen(name->valuestring) > SAMPLER_MAX_ID_BYTES)
        return fail(L, "%s.name: longer than %u bytes", where, SAMPLER_MAX_ID_BYTES);
    if (sc == 0) { /* the first scenario defines the classes and tasks */
        s->class_names[c] = arena_strdup(s, name->valuestring);
        s->n_tasks[c] = nt;
        s->task_ids[c] = arena_alloc(s, (nt ? nt : 1) * sizeof(char *));
        uint32_t slots = 16;
        while (slots < 2 * nt)
            slots *= 2;
        s->hash_mask[c] = slots - 1;
        s->task_hash[c] = arena_alloc(s, slots * sizeof(uint32_t)); /* zeroed: empty */
        if (!s->class_names[c] || !s->task_ids[c] || !s->task_hash[c])
            return fail(L, "out of memory");
        size_t i = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, tasks) {
            if (!cJSON_IsString(t))
                return fail(L, "%s.tasks[%zu]: expected a string", where, i);
            if (strlen(t->valuestring) > SAMPLER_MAX_ID_BYTES)
                return fail(L, "%s.tasks[%zu]: task id longer than %u bytes", where, i, SAMPLER_MAX_ID_BYTES);
            if (task_index(s, c, t->valuestring) >= 0)
                return fail(L, "%s.tasks[%zu]: duplicate task id '%s'", where, i, t->valuestring);
            if (!(s->task_ids[c][i] = arena_strdup(s, t->valuestring)))
                return fail(L, "out of memory");
            uint32_t mask = s->hash_mask[c], h = id_hash(t->valuestring) & mask;
            while (s->task_hash[c][h])
                h = (h + 1) & mask;
            s->task_hash[c][h] = (uint32_t)(i + 1);
            i++;
        }
    } else {
        if (strcmp(s->class_names[c], name->valuestring) != 0)
            return fail(L, "%s.name: '%s' where scenarios[0] has '%s' (every scenario needs the same classes)",
                        where, name->valuestring, s->class_names[c]);
        if (nt != s->n_tasks[c])
            return fail(L, "%s.tasks: %zu tasks, scenarios[0] has %zu", where, nt, s->n_tasks[c]);
        size_t i = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, tasks) {
            if (!cJSON_IsString(t) || strcmp(t->valuestring, s->task_ids[c][i]) != 0)
                return fail(L, "%s.tasks[%zu]: differs from scenarios[0]", where, i);
            i++;
        }
    }
    uint32_t *mark = calloc(nt ? nt : 1, sizeof(uint32_t));
    if (!mark)
        return fail(L, "out of memory");
    char w2[160];
    snprintf(w2, sizeof w2, "%s.root", where);
    int rc = read_tasks(L, c, get(cj, "root"), w2, &ct->root_tasks, &ct->n_root, mark, PLACED, 0);
    const cJSON *segs = get(cj, "segments");
    if (!rc && !cJSON_IsArray(segs))
        rc = fail(L, "%s.segments: %s", where, segs ? "expected an array" : "missing");
    if (!rc) {
        ct->n_seg = (uint32_t)cJSON_GetArraySize(segs);
        ct->seg = arena_alloc(s, (ct->n_seg ? ct->n_seg : 1) * sizeof(segment_t));
        if (!ct->seg)
            rc = fail(L, "out of memory");
    }
    size_t i = 0;
    const cJSON *sj;
    if (!rc)
        cJSON_ArrayForEach(sj, segs) {
            snprintf(w2, sizeof w2, "%s.segments[%zu]", where, i);
            if ((rc = read_segment(L, c, sj, w2, &ct->seg[i], mark)) != 0)
                break;
            i++;
        }
    for (size_t t = 0; !rc && t < nt; t++)
        if (mark[t] != PLACED)
            rc = fail(L, "%s: task '%s' is placed by no segment", where, s->task_ids[c][t]);
    free(mark);
    if (!rc)
        rc = compile_class(L, ct, nt);
    return rc;
}

/* The classes every scenario shares, from the first one's (scenarios[0]). */
static int setup_classes(loader_t *L, const cJSON *first)
{
    ct_sampler_t *s = L->s;
    const cJSON *fc = cJSON_IsObject(first) ? get(first, "classes") : NULL;
    if (!cJSON_IsArray(fc) || cJSON_GetArraySize(fc) == 0)
        return fail(L, "scenarios[0].classes: expected a non-empty array");
    s->n_classes = (size_t)cJSON_GetArraySize(fc);
    s->class_names = arena_alloc(s, s->n_classes * sizeof(char *));
    s->n_tasks = arena_alloc(s, s->n_classes * sizeof(size_t));
    s->task_ids = arena_alloc(s, s->n_classes * sizeof(char **));
    s->task_hash = arena_alloc(s, s->n_classes * sizeof(uint32_t *));
    s->hash_mask = arena_alloc(s, s->n_classes * sizeof(uint32_t));
    if (!s->class_names || !s->n_tasks || !s->task_ids || !s->task_hash || !s->hash_mask)
        return fail(L, "out of memory");
    return 0;
}

/* Scenario i (sj) into sc. */
static int read_scenario(loader_t *L, size_t i, const cJSON *sj, scenario_t *sc)
{
    ct_sampler_t *s = L->s;
    char where[64];
    snprintf(where, sizeof where, "scenarios[%zu]", i);
    const cJSON *cls = cJSON_IsObject(sj) ? get(sj, "classes") : NULL;
    if (!cJSON_IsObject(sj) || read_number(L, sj, "scale", where, &sc->scale))
        return cJSON_IsObject(sj) ? -1 : fail(L, "%s: expected an object", where);
    if (!cJSON_IsArray(cls) || (size_t)cJSON_GetArraySize(cls) != s->n_classes)
        return fail(L, "%s.classes: expected an array of %zu classes (as scenarios[0])", where, s->n_classes);
    sc->root_choices = 1;
    const cJSON *model = get(sj, "model");
    if (model && !cJSON_IsObject(model))
        return fail(L, "%s.model: expected an object", where);
    const cJSON *rcj = model ? get(model, "root_choices") : NULL;
    if (rcj) {
        double d = cJSON_IsNumber(rcj) ? cJSON_GetNumberValue(rcj) : -1;
        if (!(d >= 1 && d <= 64 && d == (double)(uint32_t)d))
            return fail(L, "%s.model.root_choices: expected a whole number in 1..64", where);
        sc->root_choices = (uint32_t)d;
    }
    const cJSON *pbj = model ? get(model, "part_binding") : NULL;
    sc->late_parts = 0;
    if (pbj) {
        const char *v = cJSON_IsString(pbj) ? cJSON_GetStringValue(pbj) : NULL;
        if (!v || (strcmp(v, "early") && strcmp(v, "late")))
            return fail(L, "%s.model.part_binding: expected \"early\" or \"late\"", where);
        sc->late_parts = !strcmp(v, "late");
    }
    const cJSON *lbj = model ? get(model, "late_bind") : NULL;
    sc->late_probes = 0;
    if (lbj) {
        const char *v = cJSON_IsString(lbj) ? cJSON_GetStringValue(lbj) : NULL;
        if (!v || strcmp(v, "probes") || !sc->late_parts)
            return fail(L, "%s.model.late_bind: expected \"probes\", with part_binding \"late\"", where);
        sc->late_probes = 1;
    }
    sc->classes = arena_alloc(s, s->n_classes * sizeof(class_table_t));
    if (!sc->classes)
        return fail(L, "out of memory");
    size_t c = 0;
    const cJSON *cj;
    cJSON_ArrayForEach(cj, cls) {
        int rc = read_class(L, i, c, cj, &sc->classes[c]);
        if (rc)
            return rc;
        for (uint32_t g = 0; g < sc->classes[c].n_seg; g++)
            for (uint32_t t = 0; t < sc->classes[c].seg[g].n_trip; t++)
                if (sc->classes[c].seg[g].trip[t].n_parts > sc->max_parts)
                    sc->max_parts = sc->classes[c].seg[g].trip[t].n_parts;
        c++;
    }
    return 0;
}

/* The whole document parsed at once: the reference reading, and the one
 * whose errors are reported. */
static int load_whole(loader_t *L, const char *text, size_t len)
{
    ct_sampler_t *s = L->s;
    const char *end = NULL;
    /* Include the NUL: cJSON's end-of-buffer whitespace check needs it. */
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    int rc = 0;
    if (!root) {
        size_t line = 1;
        for (const char *p = text; end && p < end && p < text + len; p++)
            line += *p == '\n';
        return fail(L, "line %zu: malformed JSON", line);
    }
    const cJSON *fmt = get(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "contend-table/1") != 0) {
        rc = fail(L, "format: expected \"contend-table/1\"%s", cJSON_IsString(fmt) ? " (a newer or other format)" : "");
        goto done;
    }
    const cJSON *scs = get(root, "scenarios");
    if (!cJSON_IsArray(scs) || cJSON_GetArraySize(scs) == 0) {
        rc = fail(L, "scenarios: expected a non-empty array");
        goto done;
    }
    s->n_scenarios = (size_t)cJSON_GetArraySize(scs);
    s->scenarios = arena_alloc(s, s->n_scenarios * sizeof(scenario_t));
    if (!s->scenarios) {
        rc = fail(L, "out of memory");
        goto done;
    }
    if ((rc = setup_classes(L, cJSON_GetArrayItem(scs, 0))) != 0)
        goto done;
    size_t i = 0;
    const cJSON *sj;
    cJSON_ArrayForEach(sj, scs) {
        if ((rc = read_scenario(L, i, sj, &s->scenarios[i])) != 0)
            break;
        i++;
    }
done:
    cJSON_Delete(root);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* A lookup file scenario by scenario: a 20-scale file of 1000 classes is
 * 60 MB, 420 MB as one cJSON tree (2.6 s to load, most of it the kernel
 * handing out fresh pages); one scenario's tree at a time reuses the same
 * memory. The document around the scenarios is read by a small scanner
 * that gives up (1) on anything unusual (a key with an escape, a repeated
 * or late "format" or "scenarios", nesting near cJSON's limit, any error):
 * the whole document is then read at once, which reports errors as always
 * and decides every unusual case as before. */

#define STREAM_MAX_DEPTH 256 /* (far below cJSON's 1000: deeper files are read whole) */

/* cJSON's whitespace: every byte up to the space. */
static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (unsigned char)*p <= 32)
        p++;
    return p;
}

/* A key without escapes or control bytes: *k and *kn; 0 if not one. */
static int scan_key(const char **pp, const char *end, const char **k, size_t *kn)
{
    const char *p = *pp;
    if (p >= end || *p != '"')
        return 0;
    const char *q = ++p;
    while (q < end && *q != '"') {
        if (*q == '\\' || (unsigned char)*q < 32)
            return 0;
        q++;
    }
    if (q >= end)
        return 0;
    *k = p;
    *kn = (size_t)(q - p);
    *pp = q + 1;
    return 1;
}

/* The deepest nesting of brackets outside strings. */
static size_t max_depth(const char *p, const char *end)
{
    size_t d = 0, top = 0;
    for (int in_str = 0; p < end; p++) {
        char c = *p;
        if (in_str) {
            if (c == '\\')
                p++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"')
            in_str = 1;
        else if (c == '{' || c == '[') {
            if (++d > top)
                top = d;
        } else if ((c == '}' || c == ']') && d > 0)
            d--;
    }
    return top;
}

/* One value at p (cJSON, not its end): *v (NULL when not parsed), *pp past it. */
static cJSON *parse_one(const char **pp, const char *end)
{
    const char *after = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(*pp, (size_t)(end - *pp), &after, 0);
    if (v)
        *pp = after;
    return v;
}

static int load_streamed(loader_t *L, const char *text, size_t len)
{
    ct_sampler_t *s = L->s;
    const char *p = text, *end = text + len;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) /* (cJSON skips a byte order mark) */
        p += 3;
    if (max_depth(p, end) > STREAM_MAX_DEPTH)
        return 1;
    p = skip_ws(p, end);
    if (p >= end || *p++ != '{')
        return 1;
    int seen_format = 0, seen_scenarios = 0;
    size_t cap = 0;
    scenario_t *scs = NULL;
    int rc = 1;
    for (int first = 1;; first = 0) {
        p = skip_ws(p, end);
        if (first && p < end && *p == '}') {
            p++;
            break;
        }
        const char *k;
        size_t kn;
        if (!scan_key(&p, end, &k, &kn))
            goto done;
        p = skip_ws(p, end);
        if (p >= end || *p++ != ':')
            goto done;
        p = skip_ws(p, end);
        int is_format = kn == 6 && !memcmp(k, "format", 6), is_scs = kn == 9 && !memcmp(k, "scenarios", 9);
        if ((is_format && seen_format) || (is_scs && (seen_scenarios || !seen_format)))
            goto done; /* (repeated, or the scenarios before the format: read whole) */
        if (!is_scs) {
            cJSON *v = parse_one(&p, end);
            int ok = v && (!is_format || (cJSON_IsString(v) && !strcmp(v->valuestring, "contend-table/1")));
            cJSON_Delete(v);
            if (!ok)
                goto done;
            seen_format |= is_format;
        } else {
            seen_scenarios = 1;
            if (p >= end || *p++ != '[')
                goto done;
            for (size_t i = 0;; i++) {
                p = skip_ws(p, end);
                if (i > 0 && p < end && *p == ']') {
                    p++;
                    break;
                }
                if (i > 0 && (p >= end || *p++ != ','))
                    goto done;
                cJSON *sj = parse_one(&p, end);
                if (!sj)
                    goto done;
                if (i == cap) {
                    size_t nc = cap ? 2 * cap : 16;
                    scenario_t *t = realloc(scs, nc * sizeof *t);
                    if (!t) {
                        cJSON_Delete(sj);
                        goto done;
                    }
                    scs = t;
                    cap = nc;
                }
                memset(&scs[i], 0, sizeof scs[i]);
                int bad = (i == 0 && setup_classes(L, sj)) || read_scenario(L, i, sj, &scs[i]);
                cJSON_Delete(sj);
                if (bad)
                    goto done;
                s->n_scenarios = i + 1;
            }
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end && *p == '}') {
            p++;
            break;
        }
        goto done;
    }
    if (skip_ws(p, end) != end || !seen_scenarios || !s->n_scenarios)
        goto done;
    if (!(s->scenarios = arena_alloc(s, s->n_scenarios * sizeof(scenario_t))))
        goto done;
    memcpy(s->scenarios, scs, s->n_scenarios * sizeof(scenario_t));
    rc = 0;
done:
    free(scs);
    return rc;
}

int ct_sampler_load_text(const char *text, size_t len, const char *label, ct_sampler_t **out, char *errbuf,
                         size_t errlen)
{
    *out = NULL;
    ct_sampler_t *s = calloc(1, sizeof *s);
    loader_t L = { s, label, errbuf, errlen, 0 };
    if (!s)
        return fail(&L, "out of memory");
    if (text[len] != '\0' || memchr(text, '\0', len)) {
        free(s);
        return fail(&L, "not a text file");
    }
    uint64_t digest = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        digest = (digest ^ (unsigned char)text[i]) * 0x100000001b3ULL;
    s->digest = digest;
    int rc = load_streamed(&L, text, len);
    if (rc) { /* (unusual or wrong: read whole, from a fresh start, as always) */
        ct_sampler_free(s);
        if (!(s = calloc(1, sizeof *s)))
            return fail(&L, "out of memory");
        L = (loader_t){ s, label, errbuf, errlen, 0 };
        s->digest = digest;
        rc = load_whole(&L, text, len);
    }
    if (rc) {
        ct_sampler_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int ct_sampler_load(const char *path, ct_sampler_t **out, char *errbuf, size_t errlen)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (errbuf && errlen)
            snprintf(errbuf, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    /* A regular file over the limit is refused unread; a pipe or device is
     * read up to the limit + 1 byte, never further. */
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    int regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
    if (regular && (unsigned long long)st.st_size <= SAMPLER_MAX_FILE_BYTES)
        cap = (size_t)st.st_size + 2; /* (the whole file, then a read that finds its end) */
    char *buf = regular && (unsigned long long)st.st_size > SAMPLER_MAX_FILE_BYTES ? NULL : malloc(cap);
    if (!buf)
        n = SAMPLER_MAX_FILE_BYTES + 1;
    while (buf || n > SAMPLER_MAX_FILE_BYTES) {
        if (n > SAMPLER_MAX_FILE_BYTES) {
            free(buf);
            fclose(fp);
            if (errbuf && errlen)
                snprintf(errbuf, errlen, "%s: over the limit of %zu bytes per lookup file", path, SAMPLER_MAX_FILE_BYTES);
            return -1;
        }
        if (n + 1 >= cap) {
            size_t ncap = cap * 2 > SAMPLER_MAX_FILE_BYTES + 2 ? SAMPLER_MAX_FILE_BYTES + 2 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf || bad) {
        free(buf);
        if (errbuf && errlen)
            snprintf(errbuf, errlen, "%s: %s", path, bad ? "read error" : "out of memory");
        return -1;
    }
    buf[n] = '\0';
    int rc = ct_sampler_load_text(buf, n, path, out, errbuf, errlen);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Queries and placement.                                                    */

uint64_t ct_sampler_digest(const ct_sampler_t *s)
{
    return s->digest;
}

size_t ct_sampler_scenario_count(const ct_sampler_t *s)
{
    return s->n_scenarios;
}

double ct_sampler_scenario_scale(const ct_sampler_t *s, size_t sc)
{
    return s->scenarios[sc].scale;
}

double ct_sampler_scenario_rate(const ct_sampler_t *s, size_t sc, size_t c)
{
    return s->scenarios[sc].classes[c].rate;
}

double ct_sampler_predicted_jct(const ct_sampler_t *s, size_t sc, size_t c)
{
    return s->scenarios[sc].classes[c].predicted_jct;
}

size_t ct_sampler_class_count(const ct_sampler_t *s)
{
    return s->n_classes;
}

const char *ct_sampler_class_name(const ct_sampler_t *s, size_t c)
{
    return s->class_names[c];
}

long ct_sampler_class_index(const ct_sampler_t *s, const char *name)
{
    for (size_t c = 0; c < s->n_classes; c++)
        if (!strcmp(s->class_names[c], name))
            return (long)c;
    return -1;
}

size_t ct_sampler_task_count(const ct_sampler_t *s, size_t c)
{
    return s->n_tasks[c];
}

const char *ct_sampler_task_id(const ct_sampler_t *s, size_t c, size_t t)
{
    return s->task_ids[c][t];
}

size_t ct_sampler_nearest(const ct_sampler_t *s, const double *rates)
{
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < s->n_scenarios; i++) {
        double d = 0;
        for (size_t c = 0; c < s->n_classes; c++) {
            double r = s->scenarios[i].classes[c].rate, x = (rates[c] - r) / r;
            d += x * x;
        }
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

size_t ct_sampler_segment_count(const ct_sampler_t *s, size_t sc, size_t c)
{
    return s->scenarios[sc].classes[c].n_seg;
}

size_t ct_sampler_triplet_count(const ct_sampler_t *s, size_t sc, size_t c, size_t seg)
{
    return s->scenarios[sc].classes[c].seg[seg].n_trip;
}

double ct_sampler_triplet_probability(const ct_sampler_t *s, size_t sc, size_t c, size_t seg, size_t t)
{
    return s->scenarios[sc].classes[c].seg[seg].trip[t].prob;
}

/* One alias draw from one 64-bit random number: the slot from its high 32
 * bits (multiply-shift: bias below n / 2^32), the keep test from its low
 * 32 bits against an integer threshold. */
static inline uint32_t alias_draw(const segment_t *seg, ct_rng_t *rng)
{
    uint64_t x = rng_next(rng);
    uint32_t i = (uint32_t)(((x >> 32) * seg->n_trip) >> 32);
    uint64_t e = seg->alias[i];
    return (uint32_t)x < (uint32_t)e ? i : (uint32_t)(e >> 32);
}

/* Every task of nruns runs (first, length) gets server v: four tasks per
 * 16-byte store (a memcpy of a 16-byte pattern is one unaligned vector
 * move on x86-64 and arm64), so a long run costs a quarter of the stores. */
static inline void fill_runs(uint32_t *restrict out, const uint32_t *restrict runs, uint32_t nruns, uint32_t v)
{
    const uint32_t quad[4] = { v, v, v, v };
    for (uint32_t r = 0; r < nruns; r++) {
        uint32_t *restrict o = out + runs[2 * r];
        uint32_t n = runs[2 * r + 1], j = 0;
        if (n >= 4) { /* the last four overlap the loop's: no scalar tail */
            for (; j + 4 <= n; j += 4)
                memcpy(o + j, quad, sizeof quad);
            memcpy(o + n - 4, quad, sizeof quad);
        } else
            for (; j < n; j++)
                o[j] = v;
    }
}

uint32_t ct_sampler_draw_triplet(const ct_sampler_t *s, size_t sc, size_t c, size_t seg, ct_rng_t *rng)
{
    return alias_draw(&s->scenarios[sc].classes[c].seg[seg], rng);
}

/* Draws a server uniformly among those not in chosen[0..n) (sorted), and
 * inserts it: skip over the taken ones in ascending order. O(n). */
static uint32_t draw_distinct(ct_rng_t *rng, uint32_t n_servers, uint32_t *chosen, uint32_t n)
{
    uint32_t r = (uint32_t)rng_below(rng, n_servers - n), i = 0;
    while (i < n && chosen[i] <= r) {
        r++;
        i++;
    }
    memmove(chosen + i + 1, chosen + i, (n - i) * sizeof(uint32_t));
    chosen[i] = r;
    return r;
}

/* Segments g .. g + n - 1 are fixed: their draw is a constant (triplet 0),
 * but the generator still advances once each, so a seed gives the same
 * servers as a segment-by-segment placement. Returns g + n. */
static inline uint32_t skip_fixed(ct_rng_t *rng, uint32_t *choices, uint32_t g, uint32_t n)
{
    for (uint32_t end = g + n; g < end; g++) {
        (void)rng_next(rng);
        if (choices)
            choices[g] = 0;
    }
    return g;
}

uint32_t ct_sampler_root_choices(const ct_sampler_t *s, size_t sc)
{
    return s->scenarios[sc].root_choices;
}

uint32_t ct_sampler_max_parts(const ct_sampler_t *s, size_t sc)
{
    return s->scenarios[sc].max_parts;
}

int ct_sampler_place(const ct_sampler_t *s, size_t sc, size_t c, uint32_t n_servers, ct_rng_t *rng,
                     uint32_t *servers, uint32_t *choices)
{
    return ct_sampler_place_loaded(s, sc, c, n_servers, NULL, 1, rng, servers, choices);
}

/* One draw below n (n <= 4096) from lane j (16 bits) of the output x:
 * multiply-shift, and a rejected lane (its low half below 2^16 mod n, at
 * most 6% of lanes) takes a whole output, so each lane is exactly uniform. */
static inline uint32_t lane16(uint64_t x, unsigned j, uint32_t n, uint32_t thresh, ct_rng_t *r)
{
    uint32_t m = (uint32_t)((x >> (16 * j)) & 0xFFFF) * n;
    return __builtin_expect((m & 0xFFFF) < thresh, 0) ? (uint32_t)rng_below(r, n) : m >> 16;
}

/* Keep the less loaded of cur and v (ties: cur, the earlier draw), by
 * selects, not branches: which draw wins is a coin flip the branch
 * predictor loses. */
static inline void keep_least(uint32_t v, const uint32_t *loads, uint32_t *cur, uint32_t *best)
{
    uint32_t lv = loads[v];
    int less = lv < *best;
    *cur = less ? v : *cur;
    *best = less ? lv : *best;
}

uint32_t ct_sampler_least_loaded(uint32_t n_servers, const uint32_t *loads, uint32_t d, ct_rng_t *rng)
{
    /* power of d choices: the least loaded of d uniform draws (ties: the
     * first). Past d = 2 on up to 4096 servers, the draws come four to an
     * output, from its 16-bit lanes (lane16), unrolled: the loop is
     * throughput-bound and a generator step with its 128-bit multiply was
     * two thirds of a draw's instructions (d = 32, bench_sampler, a late
     * draw and one bind: 116 ns with one output a draw, 93 ns so). d <= 2
     * draws whole outputs as it always did, so its stream (every default
     * figure) is the one it was. */
    if (loads && d > 2 && n_servers <= 4096) {
        uint32_t thresh = (65536 - n_servers) % n_servers;
        uint64_t x = rng_next(rng);
        uint32_t cur = lane16(x, 0, n_servers, thresh, rng), best = loads[cur], i = 1;
        if (d >= 4) {
            for (unsigned j = 1; j < 4; j++)
                keep_least(lane16(x, j, n_servers, thresh, rng), loads, &cur, &best);
            for (i = 4; i + 4 <= d; i += 4) {
                x = rng_next(rng);
                keep_least(lane16(x, 0, n_servers, thresh, rng), loads, &cur, &best);
                keep_least(lane16(x, 1, n_servers, thresh, rng), loads, &cur, &best);
                keep_least(lane16(x, 2, n_servers, thresh, rng), loads, &cur, &best);
                keep_least(lane16(x, 3, n_servers, thresh, rng), loads, &cur, &best);
            }
            if (i < d)
                x = rng_next(rng);
        }
        for (unsigned j = i & 3; i < d; i++, j++)
            keep_least(lane16(x, j, n_servers, thresh, rng), loads, &cur, &best);
        return cur;
    }
    uint32_t cur = (uint32_t)rng_below(rng, n_servers);
    if (!loads)
        return cur;
    uint32_t best = loads[cur];
    for (uint32_t i = 1; i < d; i++)
        keep_least((uint32_t)rng_below(rng, n_servers), loads, &cur, &best);
    return cur;
}

/* Both placements: late, the parts not on their source's server get slots
 * (CT_SAMPLER_LATE | i, numbered in draw order) instead of servers. */
static int place(const ct_sampler_t *s, size_t sc, size_t c, uint32_t n_servers, const uint32_t *loads, uint32_t d,
                 int late, ct_rng_t *rng, uint32_t *servers, uint32_t *choices)
{
    const class_table_t *ct = &s->scenarios[sc].classes[c];
    uint32_t part_server[256], chosen[257], n_slots = 0;
    if (n_servers == 0 || (late && n_servers > CT_SAMPLER_LATE) || s->scenarios[sc].max_parts > n_servers)
        return -1;
    uint32_t cur = ct_sampler_least_loaded(n_servers, loads, d, rng);
    uint32_t *restrict out = servers;
    fill_runs(out, ct->lead_runs, ct->n_lead_runs, cur);
    uint32_t g = skip_fixed(rng, choices, 0, ct->n_lead_fixed);
    while (g < ct->n_seg) {
        const segment_t *seg = &ct->seg[g];
        uint32_t i = alias_draw(seg, rng);
        if (choices)
            choices[g] = i;
        g++;
        const triplet_t *t = &seg->trip[i];
        chosen[0] = cur;
        part_server[0] = cur;
        for (uint32_t p = 0, nch = 1; p < t->n_parts; p++)
            part_server[p] = p == t->k ? cur : late ? CT_SAMPLER_LATE | n_slots++ : draw_distinct(rng, n_servers, chosen, nch++);
        const uint32_t *restrict q = t->prog;
        for (uint32_t p = 0; p < (t->n_parts ? t->n_parts : 1); p++) {
            fill_runs(out, q + 1, q[0], part_server[p]);
            q += 1 + 2 * (size_t)q[0];
        }
        cur = t->n_parts ? part_server[t->l] : cur;
        g = skip_fixed(rng, choices, g, seg->n_tail_fixed);
    }
    return 0;
}

int ct_sampler_place_loaded(const ct_sampler_t *s, size_t sc, size_t c, uint32_t n_servers, const uint32_t *loads,
                            uint32_t d, ct_rng_t *rng, uint32_t *servers, uint32_t *choices)
{
    return place(s, sc, c, n_servers, loads, d, 0, rng, servers, choices);
}

int ct_sampler_place_late(const ct_sampler_t *s, size_t sc, size_t c, uint32_t n_servers, const uint32_t *loads,
                          uint32_t d, ct_rng_t *rng, uint32_t *servers, uint32_t *choices)
{
    return place(s, sc, c, n_servers, loads, d, 1, rng, servers, choices);
}

uint32_t ct_sampler_probe_servers(uint32_t n_servers, uint32_t k, uint32_t *perm, ct_rng_t *rng)
{
    k = k < n_servers ? k : n_servers;
    for (uint32_t p = 0; p < k; p++) { /* a partial Fisher-Yates shuffle */
        uint32_t r = p + (uint32_t)rng_below(rng, n_servers - p), v = perm[p];
        perm[p] = perm[r];
        perm[r] = v;
    }
    return k;
}

void ct_sampler_perm_init(uint32_t n_servers, uint32_t *perm)
{
    for (uint32_t v = 0; v < n_servers; v++)
        perm[v] = v;
}

uint32_t ct_sampler_late_parts(const ct_sampler_t *s, size_t sc)
{
    return s->scenarios[sc].late_parts;
}

uint32_t ct_sampler_late_probes(const ct_sampler_t *s, size_t sc)
{
    return s->scenarios[sc].late_probes;
}
