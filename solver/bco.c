/*
 * bco.c - SJF-BCO, FA-FFP, LBSGF and the FF / LS / RAND baselines (see
 * ct_bco.h).
 *
 * One placement pass (place_all) runs the jobs in SJF order against a
 * theta_u limit, picking GPUs with the policy's rule; the search calls it
 * a few dozen times per distinct job size. A pass keeps, per server, its
 * GPUs sorted by accumulated time U (so the least-U free eligible GPUs of
 * a server are a prefix walk), its free-GPU count, its U sum and its
 * running spread jobs, and the running jobs in a heap by estimated
 * completion. A pick then costs O(S + G log S + GPUs walked) instead of a
 * scan and a selection over every GPU; the reference rules (params
 * `reference`) keep that scan, and tests check both give the same
 * schedule. A pass stops as soon as its makespan exceeds the best found.
 * The contention used for a job's estimated completion is that of the jobs
 * running when it starts; the chosen schedule is then re-simulated.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_bco.h"
#include "ct_json.h"
#include "ct_sampler.h" /* ct_rng_t */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_bco_params_init(ct_bco_params_t *p)
{
    *p = (ct_bco_params_t){ .policy = CT_BCO_SJF_BCO, .faffp = CT_FAFFP_PACK, .search = CT_BCO_SEARCH_SCAN,
                            .resim = CT_RESIM_WORK_CONSERVING, .seed = 1 };
}

static const char *const policy_names[] = { "sjf-bco", "ff", "ls", "rand" };
static const char *const search_names[] = { "scan", "bisect" };

CT_ENUM_NAMES(ct_bco_policy_t, ct_bco_policy_name, ct_bco_policy_parse, policy_names)

CT_ENUM_NAMES(ct_bco_search_t, ct_bco_search_name, ct_bco_search_parse, search_names)

void ct_bco_result_free(ct_bco_result_t *r)
{
    if (!r)
        return;
    ct_rar_schedule_free(&r->sched);
    free(r->start);
    free(r->finish);
    free(r->U);
    free(r->rho_hat);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */
/* A binary min-heap of (a, b, id) triples, lexicographic.                   */

typedef struct {
    double a, b;
    uint32_t id;
} hitem_t;

static int hless(const hitem_t *x, const hitem_t *y)
{
    if (x->a != y->a)
        return x->a < y->a;
    if (x->b != y->b)
        return x->b < y->b;
    return x->id < y->id;
}

static void hdown(hitem_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && hless(&h[l], &h[m]))
            m = l;
        if (l + 1 < n && hless(&h[l + 1], &h[m]))
            m = l + 1;
        if (m == i)
            return;
        hitem_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void hpush(hitem_t *h, size_t *n, hitem_t x)
{
    size_t i = (*n)++;
    h[i] = x;
    while (i > 0 && hless(&h[i], &h[(i - 1) / 2])) {
        hitem_t t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static hitem_t hpop(hitem_t *h, size_t *n)
{
    hitem_t top = h[0];
    h[0] = h[--*n];
    hdown(h, *n, 0);
    return top;
}

static void hbuild(hitem_t *h, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        hdown(h, n, i);
}

/* ------------------------------------------------------------------------ */
/* The pass workspace.                                                       */

typedef struct {
    const ct_rar_cluster_t *c;
    const ct_rar_jobs_t *jobs;
    const ct_bco_params_t *p;
    size_t *order;          /* SJF order */
    double *rho_hat;
    /* per GPU */
    double *U;
    unsigned char *busy;
    uint32_t *slist;        /* per server, its GPUs sorted by (U, id): slist[first_gpu[s] ..] */
    uint32_t *spos;         /* position of each GPU in slist */
    uint32_t *gsrv;         /* server of each GPU */
    /* per server */
    uint32_t *nfree;
    double *sumU;
    uint32_t *spread_run;   /* running spread jobs */
    uint32_t *cursor;       /* scratch: walk position in slist */
    uint32_t *lorder, *lpos;/* servers sorted by (mean U, index) for LBSGF, and their positions */
    unsigned char *srv_mark;
    size_t *srv_list;
    hitem_t *sheap;         /* scratch: servers */
    size_t nsheap;
    /* running jobs by estimated completion */
    hitem_t *run;
    size_t nrun;
    double clock;
    uint32_t *cand;         /* scratch: candidate GPUs */
    double *key;            /* scratch (reference rules): sort keys per GPU or server */
    size_t *srv_order;      /* scratch (reference LBSGF) */
    ct_rar_schedule_t sched;/* the pass's schedule */
    size_t *jsrv, *jsoff;   /* per job placed in this pass: its servers (CSR by job) */
    size_t *jnsrv;          /* ... and how many */
    ct_rng_t rng;
} pass_t;

static void pass_free(pass_t *s)
{
    ct_rar_schedule_free(&s->sched);
    free(s->order);
    free(s->rho_hat);
    free(s->U);
    free(s->busy);
    free(s->slist);
    free(s->spos);
    free(s->gsrv);
    free(s->lorder);
    free(s->lpos);
    free(s->nfree);
    free(s->sumU);
    free(s->spread_run);
    free(s->cursor);
    free(s->srv_mark);
    free(s->srv_list);
    free(s->sheap);
    free(s->run);
    free(s->cand);
    free(s->key);
    free(s->srv_order);
    free(s->jsrv);
    free(s->jsoff);
    free(s->jnsrv);
}

static ct_status_t pass_alloc(pass_t *s, const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs,
                              const ct_bco_params_t *p, ct_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->jobs = jobs;
    s->p = p;
    ct_rng_seed(&s->rng, p->seed);
    size_t n = jobs->n, NG = c->n_gpus, NS = c->n_servers, kn = NG > NS ? NG : NS, nsrv = 0;
    for (size_t j = 0; j < n; j++)
        nsrv += jobs->jobs[j].gpus < NS ? jobs->jobs[j].gpus : NS;
    s->order = malloc(n * sizeof(size_t));
    s->rho_hat = malloc(n * sizeof(double));
    s->U = malloc(NG * sizeof(double));
    s->busy = malloc(NG);
    s->slist = malloc(NG * sizeof(uint32_t));
    s->spos = malloc(NG * sizeof(uint32_t));
    s->gsrv = malloc(NG * sizeof(uint32_t));
    s->lorder = malloc(NS * sizeof(uint32_t));
    s->lpos = malloc(NS * sizeof(uint32_t));
    s->nfree = malloc(NS * sizeof(uint32_t));
    s->sumU = malloc(NS * sizeof(double));
    s->spread_run = malloc(NS * sizeof(uint32_t));
    s->cursor = malloc(NS * sizeof(uint32_t));
    s->srv_mark = calloc(NS, 1);
    s->srv_list = malloc(NS * sizeof(size_t));
    s->sheap = malloc(NS * sizeof(hitem_t));
    s->run = malloc(n * sizeof(hitem_t));
    s->cand = malloc(NG * sizeof(uint32_t));
    s->key = malloc(kn * sizeof(double));
    s->srv_order = malloc(NS * sizeof(size_t));
    s->jsrv = malloc((nsrv ? nsrv : 1) * sizeof(size_t));
    s->jsoff = calloc(n + 1, sizeof(size_t));
    s->jnsrv = calloc(n, sizeof(size_t));
    if (!s->order || !s->rho_hat || !s->U || !s->busy || !s->slist || !s->spos || !s->gsrv || !s->lorder || !s->lpos || !s->nfree || !s->sumU ||
        !s->spread_run || !s->cursor || !s->srv_mark || !s->srv_list || !s->sheap || !s->run || !s->cand ||
        !s->key || !s->srv_order || !s->jsrv || !s->jsoff || !s->jnsrv) {
        pass_free(s);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < NS; v++)
        for (uint32_t q = 0; q < c->gpus[v]; q++)
            s->gsrv[c->first_gpu[v] + q] = (uint32_t)v;
    for (size_t j = 0; j < n; j++) /* room for each job's servers */
        s->jsoff[j + 1] = s->jsoff[j] + (jobs->jobs[j].gpus < NS ? jobs->jobs[j].gpus : NS);
    return ct_rar_schedule_alloc(&s->sched, jobs, err);
}

static void pass_reset(pass_t *s)
{
    const ct_rar_cluster_t *c = s->c;
    for (uint32_t g = 0; g < c->n_gpus; g++) {
        s->U[g] = 0;
        s->busy[g] = 0;
        s->slist[g] = g;
        s->spos[g] = g;
    }
    for (size_t v = 0; v < c->n_servers; v++) {
        s->nfree[v] = c->gpus[v];
        s->sumU[v] = 0;
        s->spread_run[v] = 0;
        s->lorder[v] = s->lpos[v] = (uint32_t)v;
    }
    s->nrun = 0;
    s->clock = 0;
}

/* Adds rh to U of GPU g and keeps its server's slist sorted by (U, id). */
static void add_load(pass_t *s, uint32_t g, double rh, size_t v)
{
    s->U[g] += rh;
    s->sumU[v] += rh;
    uint32_t end = s->c->first_gpu[v] + s->c->gpus[v], i = s->spos[g];
    while (i + 1 < end) {
        uint32_t h = s->slist[i + 1];
        if (s->U[h] < s->U[g] || (s->U[h] == s->U[g] && h < g)) {
            s->slist[i] = h;
            s->spos[h] = i;
            i++;
        } else
            break;
    }
    s->slist[i] = g;
    s->spos[g] = i;
}

/* LBSGF's server order: (mean U, index). */
static int lbsgf_before(const pass_t *s, uint32_t a, uint32_t b)
{
    double ka = s->sumU[a] / s->c->gpus[a], kb = s->sumU[b] / s->c->gpus[b];
    return ka < kb || (ka == kb && a < b);
}

/* Server v's U sum grew: move it right in lorder (every server right of
 * it must be in order). */
static void lbsgf_update(pass_t *s, uint32_t v)
{
    uint32_t i = s->lpos[v], NS = (uint32_t)s->c->n_servers;
    while (i + 1 < NS && lbsgf_before(s, s->lorder[i + 1], v)) {
        s->lorder[i] = s->lorder[i + 1];
        s->lpos[s->lorder[i]] = i;
        i++;
    }
    s->lorder[i] = v;
    s->lpos[v] = i;
}

/* Eligibility: U_g + rh <= theta (with a hair of slack for rounding). */
static int eligible(const pass_t *s, uint32_t g, double thr)
{
    return s->U[g] <= thr;
}

/* Advances server v's cursor to its next free eligible GPU (least U
 * first); returns it, or UINT32_MAX when none is left. */
static uint32_t next_free(pass_t *s, size_t v, double thr)
{
    uint32_t end = s->c->first_gpu[v] + s->c->gpus[v];
    while (s->cursor[v] < end) {
        uint32_t g = s->slist[s->cursor[v]];
        if (s->U[g] > thr)
            break;
        if (!s->busy[g])
            return g;
        s->cursor[v]++;
    }
    s->cursor[v] = end;
    return UINT32_MAX;
}

/* Takes up to G GPUs from the servers in sheap (keyed by class in .a), in
 * the order (class, U, GPU id): a k-way merge of the servers' least-U
 * walks. Returns how many were taken into out. */
static uint32_t merge_take(pass_t *s, double thr, uint32_t G, uint32_t *out)
{
    /* Heap keys: (class, U of the server's next GPU, that GPU id). */
    size_t m = 0;
    for (size_t k = 0; k < s->nsheap; k++) {
        size_t v = s->sheap[k].id;
        s->cursor[v] = s->c->first_gpu[v];
        uint32_t g = next_free(s, v, thr);
        if (g != UINT32_MAX)
            s->sheap[m++] = (hitem_t){ s->sheap[k].a, s->U[g], (uint32_t)v };
    }
    /* The tie between two servers' equal-U GPUs goes to the lower GPU id:
     * with GPU ids increasing with server index, the server id orders them. */
    if (G == 1) { /* the least item: no heap needed */
        if (m == 0)
            return 0;
        size_t best = 0;
        for (size_t k = 1; k < m; k++)
            if (hless(&s->sheap[k], &s->sheap[best]))
                best = k;
        out[0] = s->slist[s->cursor[s->sheap[best].id]];
        return 1;
    }
    hbuild(s->sheap, m);
    uint32_t taken = 0;
    while (taken < G && m > 0) {
        size_t v = s->sheap[0].id;
        uint32_t g = s->slist[s->cursor[v]];
        out[taken++] = g;
        s->cursor[v]++;
        uint32_t h = next_free(s, v, thr);
        if (h == UINT32_MAX)
            hpop(s->sheap, &m);
        else {
            s->sheap[0].b = s->U[h];
            hdown(s->sheap, m, 0);
        }
    }
    return taken;
}

/* Servers that may hold a free eligible GPU (their least U is within the
 * limit and a GPU is free) into sheap with class key `a`. */
static void servers_with_room(pass_t *s, double thr, int pack)
{
    const ct_rar_cluster_t *c = s->c;
    s->nsheap = 0;
    for (size_t v = 0; v < c->n_servers; v++) {
        if (s->nfree[v] == 0 || s->U[s->slist[c->first_gpu[v]]] > thr)
            continue;
        double a = 0;
        if (pack) /* FA-FFP: servers hosting a running job first, then fewer free GPUs */
            a = (s->nfree[v] < c->gpus[v] ? 0.0 : 4294967296.0) + (double)s->nfree[v];
        s->sheap[s->nsheap++] = (hitem_t){ a, 0, (uint32_t)v };
    }
}

/* LBSGF: servers by mean accumulated time (ties: index); the fewest leading
 * ones whose capacity reaches lambda G; their free eligible GPUs by least
 * U. More servers are admitted only when nothing running can free GPUs in
 * the chosen ones. */
static int pick_lbsgf(pass_t *s, size_t j, double thr, uint32_t *out)
{
    const ct_rar_cluster_t *c = s->c;
    const ct_rar_job_t *job = &s->jobs->jobs[j];
    uint32_t G = job->gpus;
    size_t NS = c->n_servers;
    double lambda = s->p->lambda > 0 ? s->p->lambda : job->lambda, cap = 0;
    size_t take = 0;
    while (take < NS && cap < lambda * G)
        cap += c->gpus[s->lorder[take++]];
    for (;;) {
        s->nsheap = 0;
        for (size_t k = 0; k < take; k++)
            s->sheap[s->nsheap++] = (hitem_t){ 0, 0, s->lorder[k] };
        if (merge_take(s, thr, G, out) == G)
            return 1;
        if (s->nrun > 0 || take == NS)
            return 0;
        take++;
    }
}

/* Picks G GPUs for job j at the current clock into out; 1, or 0 when too
 * few eligible GPUs are free now. */
static int pick(pass_t *s, size_t j, int use_lbsgf, double thr, uint32_t *out)
{
    const ct_rar_cluster_t *c = s->c;
    uint32_t G = s->jobs->jobs[j].gpus;
    ct_bco_policy_t pol = s->p->policy;
    if (use_lbsgf)
        return pick_lbsgf(s, j, thr, out);
    if (pol == CT_BCO_FF) { /* servers and GPUs in index order */
        uint32_t got = 0;
        for (size_t v = 0; v < c->n_servers && got < G; v++) {
            if (s->nfree[v] == 0 || s->U[s->slist[c->first_gpu[v]]] > thr)
                continue;
            for (uint32_t q = 0; q < c->gpus[v] && got < G; q++) {
                uint32_t g = c->first_gpu[v] + q;
                if (!s->busy[g] && eligible(s, g, thr))
                    out[got++] = g;
            }
        }
        return got == G;
    }
    if (pol == CT_BCO_RAND) {
        size_t n = 0;
        for (uint32_t g = 0; g < c->n_gpus; g++)
            if (!s->busy[g] && eligible(s, g, thr))
                s->cand[n++] = g;
        if (n < G)
            return 0;
        for (size_t k = 0; k < G; k++) { /* partial Fisher-Yates */
            size_t r = k + (size_t)ct_rng_below(&s->rng, n - k);
            uint32_t t = s->cand[k];
            s->cand[k] = s->cand[r];
            s->cand[r] = t;
        }
        memcpy(out, s->cand, G * sizeof(uint32_t));
        return 1;
    }
    /* LS and FA-FFP least-U: global least U; FA-FFP pack: by server class. */
    int pack = pol == CT_BCO_SJF_BCO && s->p->faffp == CT_FAFFP_PACK;
    servers_with_room(s, thr, pack);
    return merge_take(s, thr, G, out) == G;
}

/* ------------------------------------------------------------------------ */
/* The reference rules: every GPU scanned, candidates selected by key.       */

/* Moves the k GPU ids with the least key (ties: lower id) to the front. */
static void select_by_key(uint32_t *g, size_t n, size_t k, const double *key)
{
    for (size_t a = 0; a < k && a < n; a++) {
        size_t m = a;
        for (size_t b = a + 1; b < n; b++)
            if (key[g[b]] < key[g[m]] || (key[g[b]] == key[g[m]] && g[b] < g[m]))
                m = b;
        uint32_t t = g[a];
        g[a] = g[m];
        g[m] = t;
    }
}

static int pick_reference(pass_t *s, size_t j, int use_lbsgf, double thr, uint32_t *out)
{
    const ct_rar_cluster_t *c = s->c;
    const ct_rar_job_t *job = &s->jobs->jobs[j];
    uint32_t G = job->gpus;
    size_t n = 0;
    ct_bco_policy_t pol = s->p->policy;
    if (use_lbsgf) {
        for (size_t v = 0; v < c->n_servers; v++) {
            s->key[v] = s->sumU[v] / c->gpus[v];
            s->srv_order[v] = v;
        }
        for (size_t a = 1; a < c->n_servers; a++) /* stable: ties by index */
            for (size_t b = a; b > 0 && s->key[s->srv_order[b]] < s->key[s->srv_order[b - 1]]; b--) {
                size_t t = s->srv_order[b];
                s->srv_order[b] = s->srv_order[b - 1];
                s->srv_order[b - 1] = t;
            }
        double lambda = s->p->lambda > 0 ? s->p->lambda : job->lambda, cap = 0;
        size_t take = 0;
        while (take < c->n_servers && cap < lambda * G)
            cap += c->gpus[s->srv_order[take++]];
        for (;;) {
            n = 0;
            for (size_t k = 0; k < take; k++) {
                size_t v = s->srv_order[k];
                for (uint32_t q = 0; q < c->gpus[v]; q++) {
                    uint32_t g = c->first_gpu[v] + q;
                    if (!s->busy[g] && eligible(s, g, thr))
                        s->cand[n++] = g;
                }
            }
            if (n >= G || s->nrun > 0 || take == c->n_servers)
                break;
            take++;
        }
        if (n < G)
            return 0;
        select_by_key(s->cand, n, G, s->U);
        memcpy(out, s->cand, G * sizeof(uint32_t));
        return 1;
    }
    if (pol == CT_BCO_RAND)
        return pick(s, j, 0, thr, out);
    for (uint32_t g = 0; g < c->n_gpus; g++)
        if (!s->busy[g] && eligible(s, g, thr))
            s->cand[n++] = g;
    if (n < G)
        return 0;
    if (pol == CT_BCO_FF) {
        /* already in server and GPU index order */
    } else if (pol == CT_BCO_LS || s->p->faffp == CT_FAFFP_LEAST_U) {
        select_by_key(s->cand, n, G, s->U);
    } else {
        /* FA-FFP pack: class (hosts a running job, free GPUs), then U; the
         * class is compared first, exactly, through a two-level sort. */
        for (size_t v = 0; v < c->n_servers; v++) {
            double cls = (s->nfree[v] < c->gpus[v] ? 0.0 : 4294967296.0) + (double)s->nfree[v];
            for (uint32_t q = 0; q < c->gpus[v]; q++)
                s->key[c->first_gpu[v] + q] = cls;
        }
        for (size_t a = 0; a < G; a++) {
            size_t m = a;
            for (size_t b = a + 1; b < n; b++) {
                uint32_t x = s->cand[b], y = s->cand[m];
                if (s->key[x] < s->key[y] ||
                    (s->key[x] == s->key[y] && (s->U[x] < s->U[y] || (s->U[x] == s->U[y] && x < y))))
                    m = b;
            }
            uint32_t t = s->cand[a];
            s->cand[a] = s->cand[m];
            s->cand[m] = t;
        }
    }
    memcpy(out, s->cand, G * sizeof(uint32_t));
    return 1;
}

/* ------------------------------------------------------------------------ */

/* Frees the GPUs of every running job that completes by the clock. */
static void release_done(pass_t *s)
{
    while (s->nrun > 0 && s->run[0].a <= s->clock) {
        hitem_t x = hpop(s->run, &s->nrun);
        size_t j = x.id;
        for (uint32_t k = 0; k < s->jobs->jobs[j].gpus; k++) {
            uint32_t g = s->sched.gpus[j][k];
            s->busy[g] = 0;
            s->nfree[s->gsrv[g]]++;
        }
        if (s->jnsrv[j] > 1)
            for (size_t k = 0; k < s->jnsrv[j]; k++)
                s->spread_run[s->jsrv[s->jsoff[j] + k]]--;
    }
}

/* GPUs eligible for a job (free or not) in total: a necessary condition
 * for waiting to help (U never decreases). */
static uint32_t count_eligible(const pass_t *s, double thr)
{
    const ct_rar_cluster_t *c = s->c;
    uint32_t cnt = 0;
    for (size_t v = 0; v < c->n_servers; v++) {
        uint32_t lo = c->first_gpu[v], hi = lo + c->gpus[v];
        while (lo < hi) { /* first position with U > thr */
            uint32_t mid = lo + (hi - lo) / 2;
            if (s->U[s->slist[mid]] <= thr)
                lo = mid + 1;
            else
                hi = mid;
        }
        cnt += lo - c->first_gpu[v];
    }
    return cnt;
}

typedef enum { PASS_OK, PASS_INFEASIBLE, PASS_PRUNED } pass_end_t;

/* One placement pass under the limit theta; stops early (PRUNED) once the
 * makespan estimate exceeds `bound`. On PASS_OK *makespan and *wmax (the
 * largest U) are set. */
static pass_end_t place_all(pass_t *s, double theta, long kappa, double bound, double *makespan, double *wmax)
{
    const ct_rar_cluster_t *c = s->c;
    size_t n = s->jobs->n;
    pass_reset(s);
    double ms = 0;
    for (size_t oi = 0; oi < n; oi++) {
        size_t j = s->order[oi];
        const ct_rar_job_t *job = &s->jobs->jobs[j];
        double rh = s->rho_hat[j], thr = theta + 1e-9 - rh;
        int lbsgf = s->p->policy == CT_BCO_SJF_BCO && (long)job->gpus > kappa, checked = 0;
        uint32_t *out = s->sched.gpus[j];
        for (;;) {
            if (s->p->reference ? pick_reference(s, j, lbsgf, thr, out) : pick(s, j, lbsgf, thr, out))
                break;
            if (!checked && count_eligible(s, thr) < job->gpus)
                return PASS_INFEASIBLE; /* no waiting makes U smaller */
            checked = 1;
            if (s->nrun == 0)
                return PASS_INFEASIBLE;
            s->clock = s->run[0].a; /* the next completion */
            release_done(s);
        }
        /* Its servers; the estimated completion with the contention of the
         * spread jobs running now. */
        size_t ns = 0, *srv = s->jsrv + s->jsoff[j];
        for (uint32_t k = 0; k < job->gpus; k++) {
            size_t v = s->gsrv[out[k]];
            if (!s->srv_mark[v]) {
                s->srv_mark[v] = 1;
                srv[ns++] = v;
            }
        }
        s->jnsrv[j] = ns;
        double p = 1;
        for (size_t k = 0; k < ns; k++) {
            s->srv_mark[srv[k]] = 0;
            if (ns > 1 && s->spread_run[srv[k]] + 1.0 > p)
                p = s->spread_run[srv[k]] + 1.0;
        }
        double fin = s->clock + ct_rar_tau(c, job, ns, p) * job->iterations;
        if (fin > bound)
            return PASS_PRUNED;
        s->sched.start[j] = s->clock;
        s->sched.finish_est[j] = fin;
        for (uint32_t k = 0; k < job->gpus; k++) {
            uint32_t g = out[k];
            size_t v = s->gsrv[g];
            s->busy[g] = 1;
            s->nfree[v]--;
            add_load(s, g, rh, v);
        }
        /* LBSGF's order: the rightmost changed server first, so each one
         * moves past servers already in order. */
        for (size_t a = 1; a < ns; a++)
            for (size_t b = a; b > 0 && s->lpos[srv[b]] > s->lpos[srv[b - 1]]; b--) {
                size_t t = srv[b];
                srv[b] = srv[b - 1];
                srv[b - 1] = t;
            }
        for (size_t k = 0; k < ns; k++) {
            lbsgf_update(s, (uint32_t)srv[k]);
            if (ns > 1)
                s->spread_run[srv[k]]++;
        }
        hpush(s->run, &s->nrun, (hitem_t){ fin, 0, (uint32_t)j });
        if (fin > ms)
            ms = fin;
    }
    double w = 0;
    for (uint32_t g = 0; g < c->n_gpus; g++)
        w = fmax(w, s->U[g]);
    *makespan = ms;
    *wmax = w;
    return PASS_OK;
}

/* ------------------------------------------------------------------------ */
/* The search over theta_u.                                                  */

typedef struct {
    pass_t *s;
    ct_bco_result_t *out;
    long *kappas;           /* kappa values to try (one per distinct job size) */
    size_t nk;
    double best;            /* best makespan estimate so far */
    long best_theta, best_kappa;
    int have_best;
} search_t;

static void keep_schedule(ct_rar_schedule_t *dst, const ct_rar_schedule_t *src, const ct_rar_jobs_t *jobs)
{
    for (size_t j = 0; j < src->n; j++) {
        memcpy(dst->gpus[j], src->gpus[j], jobs->jobs[j].gpus * sizeof(uint32_t));
        dst->start[j] = src->start[j];
        dst->finish_est[j] = src->finish_est[j];
    }
}

/* Tries theta with every kappa; keeps a schedule strictly better than the
 * best, or as good at a smaller theta. Returns the best makespan at this
 * theta (INFINITY if none beat or tied the best). */
static double try_theta(search_t *x, long theta)
{
    pass_t *s = x->s;
    double m_theta = INFINITY, ms, w;
    for (size_t k = 0; k < x->nk; k++) {
        x->out->runs++;
        double bound = fmin(x->best, m_theta) * (1 + 1e-12);
        if (place_all(s, (double)theta, x->kappas[k], bound, &ms, &w) != PASS_OK || !(ms < m_theta))
            continue;
        m_theta = ms;
        if (ms < x->best || (ms == x->best && theta < x->best_theta)) {
            x->best = ms;
            x->best_theta = theta;
            x->best_kappa = x->kappas[k];
            x->have_best = 1;
            keep_schedule(&x->out->sched, &s->sched, s->jobs);
        }
    }
    return m_theta;
}

/* The paper's bisection over [1, T]: a makespan no worse than the best
 * moves the search down (CHOICE: ties too, so theta_u~ is the tightest). */
static void search_bisect(search_t *x, long T)
{
    long lo = 1, hi = T;
    while (lo <= hi) {
        long theta = lo + (hi - lo) / 2;
        double m = try_theta(x, theta);
        if (isfinite(m) && m <= x->best)
            hi = theta - 1;
        else
            lo = theta + 1;
    }
}

/* The robust search: a grid over [lo, hi], then halving steps around the
 * best point. Every schedule tried competes; the best one is kept. */
static void search_scan(search_t *x, long lo, long hi)
{
    enum { GRID = 24 };
    long prev = lo - 1;
    for (int i = 0; i < GRID; i++) {
        long theta = lo + (long)llround((double)(hi - lo) * i / (GRID - 1));
        if (theta == prev)
            continue;
        try_theta(x, theta);
        prev = theta;
    }
    if (!x->have_best)
        return;
    long step = (hi - lo + GRID - 2) / (GRID - 1);
    while (step > 1) {
        step = (step + 1) / 2;
        long c = x->best_theta;
        if (c - step >= lo)
            try_theta(x, c - step);
        if (c + step <= hi)
            try_theta(x, c + step);
    }
}

ct_status_t ct_bco_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                            ct_bco_result_t *out, ct_error_t *err)
{
    ct_bco_params_t defaults;
    if (!p) {
        ct_bco_params_init(&defaults);
        p = &defaults;
    }
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t n = jobs->n;
    uint32_t max_g = 0;
    for (size_t j = 0; j < n; j++) {
        if (jobs->jobs[j].gpus > c->n_gpus)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].gpus: job '%s' needs %u GPUs, the cluster has %u", j,
                                jobs->jobs[j].id, jobs->jobs[j].gpus, c->n_gpus);
        if (jobs->jobs[j].gpus > max_g)
            max_g = jobs->jobs[j].gpus;
    }
    pass_t s;
    search_t x;
    memset(&x, 0, sizeof x);
    ct_status_t st = pass_alloc(&s, c, jobs, p, err);
    if (st != CT_OK)
        return st;
    out->start = calloc(n, sizeof(double));
    out->finish = calloc(n, sizeof(double));
    out->U = calloc(c->n_gpus, sizeof(double));
    out->rho_hat = malloc(n * sizeof(double));
    x.kappas = malloc((max_g + 1) * sizeof(long));
    if (!out->start || !out->finish || !out->U || !out->rho_hat || !x.kappas) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_rar_schedule_alloc(&out->sched, jobs, err)) != CT_OK)
        goto done;
    double max_rh = 0, work = 0, sum_rh = 0;
    for (size_t j = 0; j < n; j++) {
        double worst;
        ct_rar_exec_bounds(c, &jobs->jobs[j], &s.rho_hat[j], &worst);
        s.order[j] = j;
        max_rh = fmax(max_rh, s.rho_hat[j]);
        work += s.rho_hat[j] * jobs->jobs[j].gpus;
        sum_rh += s.rho_hat[j];
    }
    memcpy(out->rho_hat, s.rho_hat, n * sizeof(double));
    /* SJF: by GPUs, ties by estimated execution time, then job order. */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0; b--) {
            size_t u = s.order[b], v = s.order[b - 1];
            const ct_rar_job_t *ju = &jobs->jobs[u], *jv = &jobs->jobs[v];
            int less = ju->gpus < jv->gpus || (ju->gpus == jv->gpus && s.rho_hat[u] < s.rho_hat[v]);
            if (!less)
                break;
            s.order[b] = v;
            s.order[b - 1] = u;
        }
    /* kappa: one value per distinct pass (1, then each job size above 1). */
    if (p->policy != CT_BCO_SJF_BCO)
        x.kappas[x.nk++] = 0;
    else if (p->kappa > 0)
        x.kappas[x.nk++] = p->kappa;
    else {
        unsigned char *seen = calloc(max_g + 1, 1);
        if (!seen) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t j = 0; j < n; j++)
            seen[jobs->jobs[j].gpus] = 1;
        x.kappas[x.nk++] = 1;
        for (uint32_t g = 2; g <= max_g; g++)
            if (seen[g])
                x.kappas[x.nk++] = g;
        free(seen);
    }
    long T = p->horizon == CT_BCO_HORIZON_AUTO ? (long)ceil(sum_rh) + 1 : p->horizon > 0 ? p->horizon : c->horizon;
    out->horizon = T;
    x.s = &s;
    x.out = out;
    x.best = INFINITY;
    x.best_theta = T + 1;
    /* No limit below L can place every job. */
    long L = (long)ceil(fmax(max_rh, work / c->n_gpus) - 1e-9);
    if (L < 1)
        L = 1;
    if (p->policy == CT_BCO_RAND) {
        out->runs++;
        double ms, w;
        if (place_all(&s, (double)T, 0, INFINITY, &ms, &w) == PASS_OK) {
            x.best = ms;
            x.best_theta = T;
            x.have_best = 1;
            keep_schedule(&out->sched, &s.sched, jobs);
        }
        out->theta_lo = out->theta_hi = T;
    } else if (p->search == CT_BCO_SEARCH_BISECT) {
        out->theta_lo = 1;
        out->theta_hi = T;
        search_bisect(&x, T);
    } else {
        /* Above the largest load of an unconstrained pass every limit gives
         * that pass: the scan's upper end. */
        double wfree = 0, ms, w;
        for (size_t k = 0; k < x.nk; k++) {
            out->runs++;
            if (place_all(&s, INFINITY, x.kappas[k], INFINITY, &ms, &w) == PASS_OK)
                wfree = fmax(wfree, w);
        }
        long hi = (long)ceil(wfree - 1e-9);
        if (hi > T)
            hi = T;
        out->theta_lo = L;
        out->theta_hi = hi;
        if (L <= hi)
            search_scan(&x, L, hi);
    }
    if (!x.have_best) {
        if (T < L)
            st = ct_error_set(err, CT_ELIMIT,
                              "no %s schedule fits the horizon of %ld slots: theta_u must be at least %ld (the "
                              "longest job, or the GPU-work per GPU); raise \"horizon\" or use --horizon auto",
                              ct_bco_policy_name(p->policy), T, L);
        else
            st = ct_error_set(err, CT_ELIMIT,
                              "no %s schedule fits the horizon of %ld slots (raise \"horizon\" in the cluster file "
                              "or use --horizon auto)", ct_bco_policy_name(p->policy), T);
        goto done;
    }
    out->makespan_est = x.best;
    out->theta_u = x.best_theta;
    out->kappa = p->policy == CT_BCO_SJF_BCO ? x.best_kappa : 0;
    /* U and W_max of the returned schedule. */
    for (size_t j = 0; j < n; j++)
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++)
            out->U[out->sched.gpus[j][k]] += s.rho_hat[j];
    for (uint32_t g = 0; g < c->n_gpus; g++)
        if (out->U[g] > out->W_max)
            out->W_max = out->U[g];
    if ((st = ct_rar_resimulate(c, jobs, &out->sched, p->resim, out->start, out->finish, err)) != CT_OK)
        goto done;
    for (size_t j = 0; j < n; j++) {
        if (out->finish[j] > out->makespan)
            out->makespan = out->finish[j];
        out->mean_jct += out->finish[j] / (double)n;
    }
done:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    pass_free(&s);
    free(x.kappas);
    if (st != CT_OK)
        ct_bco_result_free(out);
    return st;
}

ct_status_t ct_bco_write_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                                  const ct_bco_result_t *r, const char *path, ct_error_t *err)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    if (!root || !arr) {
        cJSON_Delete(root);
        cJSON_Delete(arr);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    cJSON_AddStringToObject(root, "format", "contend-schedule/2");
    cJSON_AddStringToObject(root, "policy", ct_bco_policy_name(p->policy));
    cJSON_AddStringToObject(root, "search", ct_bco_search_name(p->search));
    cJSON_AddStringToObject(root, "resimulation", ct_rar_resim_name(p->resim));
    ct_json_add_number(root, "horizon", (double)r->horizon);
    ct_json_add_number(root, "theta_u", (double)r->theta_u);
    ct_json_add_number(root, "kappa", (double)r->kappa);
    ct_json_add_number(root, "makespan_estimate", r->makespan_est);
    ct_json_add_number(root, "makespan", r->makespan);
    ct_json_add_number(root, "mean_jct", r->mean_jct);
    cJSON_AddItemToObject(root, "jobs", arr);
    for (size_t j = 0; j < jobs->n; j++) {
        cJSON *o = cJSON_CreateObject(), *per = cJSON_CreateObject(), *ids = cJSON_CreateArray();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "id", jobs->jobs[j].id);
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++) {
            uint32_t g = r->sched.gpus[j][k];
            char key[24];
            snprintf(key, sizeof key, "%zu", ct_rar_server_of(c, g));
            cJSON *cnt = cJSON_GetObjectItemCaseSensitive(per, key);
            if (cnt)
                cJSON_SetNumberValue(cnt, cnt->valuedouble + 1);
            else
                cJSON_AddNumberToObject(per, key, 1);
            cJSON_AddItemToArray(ids, ct_json_number(g));
        }
        cJSON_AddItemToObject(o, "gpus_per_server", per);
        cJSON_AddItemToObject(o, "gpu_ids", ids);
        ct_json_add_number(o, "start", r->start[j]);
        ct_json_add_number(o, "completion", r->finish[j]);
        ct_json_add_number(o, "planned_start", r->sched.start[j]);
        ct_json_add_number(o, "expected_completion", r->sched.finish_est[j]);
    }
    ct_status_t st = ct_json_write_file(root, path, err);
    cJSON_Delete(root);
    return st;
}
