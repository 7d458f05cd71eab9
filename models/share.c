/*
 * share.c - the job-level training-cluster simulator with GPU sharing
 * (ct_share.h) and its five schedulers.
 *
 * State: each GPU holds up to two jobs (occ[g][0..nocc[g])); a running job
 * holds its GPUs until it ends (or, Tiresias only, is preempted) and
 * advances at 1 / (t_iter x slow) iterations per second, where t_iter is
 * its iteration time at its placement and accumulation steps and slow the
 * largest xi against the jobs it shares a GPU with (the job is
 * synchronous, so its slowest worker sets its pace). After a (re)start a
 * job holds its GPUs for `restart` seconds without progress.
 *
 * Loop: jump to the next event (arrival, completion, Tiresias promotion,
 * and with an interval the next scheduling round), advance every running
 * job by the elapsed time, apply the events, let the policy start (or
 * preempt) jobs, at every event or only at rounds, recompute the slowdowns. Between events
 * nothing changes, so the times are exact up to floating point.
 *
 * The schedulers (spec sjf-bsbf.md s.4-5):
 *   FIFO      exclusive, arrival order, stops at the first job that does not fit
 *             (fifo_backfill: goes on with the later jobs that fit)
 *   SJF       exclusive, shortest known duration first, any job that fits
 *   Tiresias  exclusive, preemptive: queues by attained GPU-seconds, FIFO
 *             within a queue; at every event the jobs that fit in that
 *             order run and the others are preempted
 *   SJF-FFS   SJF, then shares first-fit with any GPU holding one job (no
 *             benefit check, the job's own batch split; a GPU whose memory
 *             cannot hold it is skipped). ffs_fit: the largest micro-batch
 *             B / 2^k that fits instead (an extension; off by default)
 *   SJF-BSBF  SJF, then Algorithm 2 for every running job alone on a GPU;
 *             the jobs worth sharing with, by pair mean ascending, give
 *             their GPUs (then free GPUs); the new job takes the most
 *             accumulation steps its partners asked for, so it fits beside each
 *
 * Free GPUs are taken packed on the fewest servers: the fullest server that
 * still fits the job, else servers by most free GPUs.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_share.h"
#include "ct_rankq.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PH_FUTURE = 0, PH_PENDING, PH_RUNNING, PH_DONE };

typedef struct {
    int phase;
    uint32_t *gpu;          /* its GPUs while running (gpus entries) */
    uint32_t servers, steps;
    double local;           /* per-GPU batch = batch / gpus */
    double t_iter;          /* s per iteration alone at this placement */
    double slow;            /* >= 1: the largest xi against its partners */
    double rem;             /* iterations left */
    double hold_until;      /* no progress before (restart delay) */
    double attained;        /* GPU-seconds held (Tiresias) */
    uint32_t level;         /* Tiresias queue */
    double pend_since, queued, start, comm;
    double mem_used;        /* while running: its memory share of a GPU (ct_app_mem at local / steps) */
    double alone;           /* s per iteration alone, packed, without extra accumulation (t_alone) */
    uint32_t solo, solo_first; /* while running: its GPUs it holds alone, and the lowest of them (UINT32_MAX
                                  if none); kept by solo_update as GPUs change hands */
    int started;
    /* SJF-BSBF, while pending: Algorithm 2's options on one server [0] and
     * several [1] (ct_share_options), computed once at arrival. */
    struct opts {
        double t[2][CT_SHARE_MAX_OPTIONS], mem[CT_SHARE_MAX_OPTIONS];
        size_t n[2];
        uint32_t s0;
    } *opt;
} jst_t;

typedef struct {
    const ct_train_cluster_t *c;
    const ct_apps_t *apps;
    const ct_share_jobs_t *jobs;
    const ct_share_params_t *p;
    size_t N, n;
    double now, busy;
    jst_t *js;
    int32_t (*occ)[2];
    uint8_t *nocc;
    size_t nfree, nsingle;          /* GPUs with nocc 0, with nocc 1 */
    uint32_t *pending, npending;    /* arrival order (fast: only the count; the jobs are in rq) */
    int fast;                       /* unless params.walk: a waiting job's key never changes (SJF
                                       family: alone x iterations; Tiresias: its queue, by arrival;
                                       FIFO: arrival),
                                       so the waiting jobs are in rank queues, not sorted each event */
    ct_rankq_t *rq;                 /* fast: SJF family, one, ranked by (key, arrival), a bucket per
                                       kind (what the policy's decision reads of a waiting job: SJF
                                       its GPUs, SJF-FFS also its app and batch, SJF-BSBF also its
                                       iterations; jobs of a kind start or not alike); Tiresias, one
                                       per queue, and FIFO, one, by arrival */
    uint32_t nrq;
    double *rq_val;                 /* fast: rq's values: the jobs' GPUs (a round draws only jobs
                                       that the free, or free and single, GPUs could hold) */
    uint32_t *kind;                 /* fast, SJF family: job -> kind */
    int kind_buckets;               /* fast, SJF family: rq's buckets are the kinds (they are few) */
    uint64_t *failed, gen;          /* fast: failed[kind] == gen: a job of that kind did not start since
                                       the last start, so none of it can */
    uint32_t *running, nrunning;
    uint32_t *scratch, *srv_free, *srv_order;
    double *key;
    uint32_t *by_arrival, *rank; /* jobs by (arrival, index), and each job's place there */
    uint32_t *sort_tmp;          /* n jobs: sort_by_key's buffer */
    size_t done;
    /* Candidates of a sharing decision. */
    struct cand {
        uint32_t job;
        double t;
        uint32_t steps;
    } *cand;
} sim_t;

static const char *const policy_names[] = { "sjf-bsbf", "sjf-ffs", "fifo", "sjf", "tiresias" };

CT_ENUM_NAMES(ct_share_policy_t, ct_share_policy_name, ct_share_policy_parse, policy_names)

void ct_share_params_init(ct_share_params_t *p)
{
    *p = (ct_share_params_t){ .policy = CT_SHARE_SJF_BSBF, .restart = 30, .n_thresholds = 1,
                              .thresholds = { 16 * 3600.0 } };
}

static const ct_app_t *app_of(const sim_t *s, uint32_t j)
{
    return &s->apps->apps[s->jobs->jobs[j].app];
}

static uint32_t servers_needed(const sim_t *s, uint32_t gpus)
{
    return (gpus + s->c->gpus_per_server - 1) / s->c->gpus_per_server;
}

/* The job's iteration time alone, packed, without extra accumulation. */
static double t_alone(const sim_t *s, uint32_t j)
{
    const ct_share_job_t *x = &s->jobs->jobs[j];
    double local = x->batch / x->gpus;
    return ct_app_iter(app_of(s, j), local, ct_app_min_steps(app_of(s, j), local), x->gpus, servers_needed(s, x->gpus));
}

/* Recounts running job r's GPUs held alone (jst_t.solo, solo_first). */
static void solo_update(sim_t *s, uint32_t r)
{
    jst_t *rs = &s->js[r];
    rs->solo = 0;
    rs->solo_first = UINT32_MAX;
    for (uint32_t q = 0; q < s->jobs->jobs[r].gpus; q++)
        if (s->nocc[rs->gpu[q]] == 1) {
            rs->solo++;
            rs->solo_first = rs->solo_first < rs->gpu[q] ? rs->solo_first : rs->gpu[q];
        }
}

static double job_end_time(const sim_t *s, uint32_t j)
{
    const jst_t *x = &s->js[j];
    return fmax(s->now, x->hold_until) + x->rem * x->t_iter * x->slow;
}

static double exposed_comm_share(const sim_t *s, uint32_t j)
{
    const jst_t *x = &s->js[j];
    double tc = (double)x->steps * ct_app_comp(app_of(s, j), x->local / x->steps);
    return x->t_iter > tc ? (x->t_iter - tc) / x->t_iter : 0;
}

static void advance(sim_t *s, double t)
{
    double dt = t - s->now;
    if (dt <= 0)
        return;
    for (uint32_t k = 0; k < s->nrunning; k++) {
        uint32_t j = s->running[k];
        jst_t *x = &s->js[j];
        double eff = t - fmax(s->now, x->hold_until);
        if (eff > 0) {
            x->rem -= eff / (x->t_iter * x->slow);
            x->comm += eff * exposed_comm_share(s, j);
        }
        x->attained += dt * s->jobs->jobs[j].gpus;
    }
    size_t used = 0;
    for (size_t g = 0; g < s->N; g++)
        used += s->nocc[g] > 0;
    s->busy += dt * (double)used;
    s->now = t;
}

static void set_slowdowns(sim_t *s)
{
    const size_t na = s->apps->n;
    for (uint32_t k = 0; k < s->nrunning; k++) {
        uint32_t j = s->running[k];
        jst_t *x = &s->js[j];
        double slow = 1;
        uint32_t a = s->jobs->jobs[j].app;
        for (uint32_t q = 0; q < s->jobs->jobs[j].gpus; q++) {
            uint32_t g = x->gpu[q];
            for (int o = 0; o < s->nocc[g]; o++) {
                int32_t other = s->occ[g][o];
                if (other != (int32_t)j)
                    slow = fmax(slow, s->apps->xi[a * na + s->jobs->jobs[other].app]);
            }
        }
        x->slow = slow;
    }
}

/* Picks gpus free GPUs packed on the fewest servers into out; 0 if fewer free. */
static int pick_free(sim_t *s, uint32_t gpus, uint32_t *out)
{
    const uint32_t G = s->c->gpus_per_server;
    const size_t S = s->c->n_servers;
    size_t total = 0, best = S;
    for (size_t v = 0; v < S; v++) {
        uint32_t f = 0;
        for (uint32_t i = 0; i < G; i++)
            f += s->nocc[v * G + i] == 0;
        s->srv_free[v] = f;
        total += f;
        if (f >= gpus && (best == S || f < s->srv_free[best]))
            best = v;
    }
    if (total < gpus)
        return 0;
    uint32_t m = 0;
    if (best < S) {
        for (uint32_t i = 0; i < G && m < gpus; i++)
            if (s->nocc[best * G + i] == 0)
                out[m++] = (uint32_t)(best * G + i);
        return 1;
    }
    /* Servers by most free GPUs (ties: lower index): insertion sort, S small. */
    for (size_t v = 0; v < S; v++) {
        size_t k = v;
        while (k > 0 && s->srv_free[s->srv_order[k - 1]] < s->srv_free[v]) {
            s->srv_order[k] = s->srv_order[k - 1];
            k--;
        }
        s->srv_order[k] = (uint32_t)v;
    }
    for (size_t q = 0; q < S && m < gpus; q++) {
        size_t v = s->srv_order[q];
        for (uint32_t i = 0; i < G && m < gpus; i++)
            if (s->nocc[v * G + i] == 0)
                out[m++] = (uint32_t)(v * G + i);
    }
    return 1;
}

static uint32_t count_servers(const sim_t *s, const uint32_t *gpus, uint32_t n)
{
    uint32_t cnt = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = gpus[k] / s->c->gpus_per_server, seen = 0;
        for (uint32_t q = 0; q < k && !seen; q++)
            seen = gpus[q] / s->c->gpus_per_server == v;
        cnt += !seen;
    }
    return cnt;
}

static void remove_at(uint32_t *v, uint32_t *n, uint32_t who)
{
    for (uint32_t k = 0; k < *n; k++)
        if (v[k] == who) {
            memmove(v + k, v + k + 1, (*n - k - 1) * sizeof(uint32_t));
            (*n)--;
            return;
        }
}

/* Fast: the rank queue a waiting job is in. */
static ct_rankq_t *queue_of(sim_t *s, uint32_t j)
{
    return &s->rq[s->p->policy == CT_SHARE_TIRESIAS ? s->js[j].level : 0];
}

static void start_job(sim_t *s, uint32_t j, const uint32_t *gpus, uint32_t steps)
{
    const ct_share_job_t *x = &s->jobs->jobs[j];
    jst_t *st = &s->js[j];
    memcpy(st->gpu, gpus, x->gpus * sizeof(uint32_t));
    for (uint32_t k = 0; k < x->gpus; k++) {
        uint32_t g = gpus[k];
        s->nfree -= s->nocc[g] == 0;
        s->nsingle += s->nocc[g] == 0 ? 1 : -1;
        s->occ[g][s->nocc[g]++] = (int32_t)j;
    }
    for (uint32_t k = 0; k < x->gpus; k++) /* its GPUs' holders (itself too) recount */
        for (int o = 0; o < s->nocc[gpus[k]]; o++)
            if (s->occ[gpus[k]][o] != (int32_t)j)
                solo_update(s, (uint32_t)s->occ[gpus[k]][o]);
    st->servers = count_servers(s, gpus, x->gpus);
    st->steps = steps;
    st->t_iter = ct_app_iter(app_of(s, j), st->local, steps, x->gpus, st->servers);
    st->mem_used = ct_app_mem(app_of(s, j), st->local / steps);
    st->slow = 1;
    st->hold_until = s->now + s->p->restart;
    st->queued += s->now - st->pend_since;
    if (!st->started) {
        st->started = 1;
        st->start = s->now;
    }
    st->phase = PH_RUNNING;
    solo_update(s, j);
    free(st->opt); /* a job never returns to pending under SJF-BSBF */
    st->opt = NULL;
    if (s->fast) {
        ct_rankq_remove(queue_of(s, j), j);
        s->npending--;
    } else
        remove_at(s->pending, &s->npending, j);
    s->running[s->nrunning++] = j;
}

static void release(sim_t *s, uint32_t j)
{
    jst_t *st = &s->js[j];
    for (uint32_t k = 0; k < s->jobs->jobs[j].gpus; k++) {
        uint32_t g = st->gpu[k];
        if (s->occ[g][0] == (int32_t)j)
            s->occ[g][0] = s->occ[g][1];
        s->occ[g][1] = -1;
        s->nocc[g]--;
        s->nfree += s->nocc[g] == 0;
        s->nsingle += s->nocc[g] == 1 ? 1 : -1;
    }
    for (uint32_t k = 0; k < s->jobs->jobs[j].gpus; k++) /* a partner left holds its GPUs alone now */
        if (s->nocc[st->gpu[k]] == 1)
            solo_update(s, (uint32_t)s->occ[st->gpu[k]][0]);
    remove_at(s->running, &s->nrunning, j);
}

/* Orders jobs by key ascending, ties by arrival order: a merge sort
 * (stable, O(n log n); the queue can hold thousands of jobs at every
 * event, where the insertion sort it replaces took O(n^2)). tmp: n slots. */
static int key_before(const sim_t *s, uint32_t a, uint32_t b)
{
    return s->key[a] < s->key[b] || (s->key[a] == s->key[b] && s->rank[a] < s->rank[b]);
}

static void sort_by_key(sim_t *s, uint32_t *v, uint32_t n)
{
    uint32_t *tmp = s->sort_tmp;
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = key_before(s, v[j], v[i]) ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof(uint32_t));
    }
}

static int place_exclusive(sim_t *s, uint32_t j)
{
    uint32_t *g = s->scratch;
    if (s->nfree < s->jobs->jobs[j].gpus || !pick_free(s, s->jobs->jobs[j].gpus, g))
        return 0;
    start_job(s, j, g, ct_app_min_steps(app_of(s, j), s->js[j].local));
    return 1;
}

static int cmp_cand(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

/* Algorithm 1's sharing branch for job j (SJF-BSBF or SJF-FFS). */
static int place_shared(sim_t *s, uint32_t j)
{
    const ct_share_job_t *x = &s->jobs->jobs[j];
    const ct_app_t *app = app_of(s, j);
    const size_t na = s->apps->n;
    if (s->nfree >= x->gpus)
        return place_exclusive(s, j);
    if (s->nfree + s->nsingle < x->gpus)
        return 0;
    /* (SJF-BSBF's options computed it at arrival) */
    uint32_t s0 = s->js[j].opt ? s->js[j].opt->s0 : ct_app_min_steps(app, s->js[j].local), nc = 0;
    for (uint32_t k = 0; k < s->nrunning; k++) {
        uint32_t r = s->running[k];
        const jst_t *rs = &s->js[r];
        uint32_t solo = rs->solo, first = rs->solo_first;
        if (!solo)
            continue;
        double mem_used = rs->mem_used;
        if (s->p->policy == CT_SHARE_SJF_FFS) {
            uint32_t st = s0; /* the job's own split; ffs_fit: halve the micro-batch until it fits */
            while (s->p->ffs_fit && mem_used + ct_app_mem(app, s->js[j].local / st) > 1.0 + 1e-12 &&
                   s->js[j].local / (2.0 * st) >= 1.0 - 1e-9)
                st *= 2;
            if (mem_used + ct_app_mem(app, s->js[j].local / st) <= 1.0 + 1e-12)
                s->cand[nc++] = (struct cand){ r, (double)first, st };
            continue;
        }
        uint32_t srv = x->gpus <= solo ? rs->servers : (rs->servers > servers_needed(s, x->gpus) ? rs->servers
                                                                                                : servers_needed(s, x->gpus));
        const struct opts *o = s->js[j].opt;
        int multi = srv > 1;
        ct_share_choice_t ch = ct_share_best_of(o->t[multi], o->mem, o->n[multi], o->s0, s->js[j].rem,
                                                s->apps->xi[x->app * na + s->jobs->jobs[r].app], rs->t_iter,
                                                fmax(0.0, rs->rem), s->apps->xi[s->jobs->jobs[r].app * na + x->app],
                                                mem_used);
        if (ch.share)
            s->cand[nc++] = (struct cand){ r, ch.mean, ch.steps };
    }
    if (!nc)
        return 0;
    qsort(s->cand, nc, sizeof(struct cand), cmp_cand);
    uint32_t *g = s->scratch, m = 0, steps = s0;
    for (uint32_t k = 0; k < nc && m < x->gpus; k++) {
        const jst_t *rs = &s->js[s->cand[k].job];
        int used = 0;
        for (uint32_t q = 0; q < s->jobs->jobs[s->cand[k].job].gpus && m < x->gpus; q++)
            if (s->nocc[rs->gpu[q]] == 1) {
                g[m++] = rs->gpu[q];
                used = 1;
            }
        if (used && s->cand[k].steps > steps)
            steps = s->cand[k].steps;
    }
    for (size_t q = 0; q < s->N && m < x->gpus; q++)
        if (s->nocc[q] == 0)
            g[m++] = (uint32_t)q;
    if (m < x->gpus)
        return 0;
    start_job(s, j, g, steps);
    return 1;
}

/* SJF, SJF-BSBF and SJF-FFS as schedule() walks their queue, skipping
 * the jobs of a kind that already failed since the last start (the state
 * they see is the same): each step takes the first job after the last
 * one tried among the kinds still worth trying. O(kinds log n) a step. */
static void schedule_fast(sim_t *s)
{
    const ct_share_policy_t pol = s->p->policy;
    uint64_t gen = ++s->gen;
    for (int64_t after = -1;;) {
        int64_t best = -1;
        uint32_t best_rank = 0, best_kind = 0;
        /* a job of more GPUs than are free (SJF) or free or held alone
         * (sharing) fails at once: not drawn */
        double bound = (double)(pol == CT_SHARE_SJF ? s->nfree : s->nfree + s->nsingle);
        for (uint32_t b = 0; b < s->rq->nb; b++) {
            if (s->kind_buckets && s->failed[b] == gen)
                continue;
            for (int64_t a = after;;) {
                int64_t i = ct_rankq_first(s->rq, b, a, bound);
                if (i < 0)
                    break;
                uint32_t r = ct_rankq_rank(s->rq, (uint32_t)i);
                if (best >= 0 && r > best_rank)
                    break;
                if (s->failed[s->kind[i]] == gen) { /* one bucket: skip failed kinds one by one */
                    a = r;
                    continue;
                }
                best = i;
                best_rank = r;
                best_kind = s->kind[i];
                break;
            }
        }
        if (best < 0)
            return;
        after = best_rank;
        if (pol == CT_SHARE_SJF ? place_exclusive(s, (uint32_t)best) : place_shared(s, (uint32_t)best))
            gen = ++s->gen;
        else
            s->failed[best_kind] = gen;
        if (!s->nfree && (pol == CT_SHARE_SJF || !s->nsingle))
            return; /* as schedule(): nothing can start */
    }
}

/* Tiresias as schedule() walks (queue, arrival) over waiting and running
 * jobs, admitting each that fits the GPUs left: the running jobs sorted
 * (at most a GPU each), the waiting ones drawn from their queue's rank
 * queue only when they fit. O((running + started) log n) a round. */
static void schedule_tiresias_fast(sim_t *s)
{
    uint32_t *run = s->scratch + s->N, nr = s->nrunning, nadm = 0, *adm = run + nr;
    memcpy(run, s->running, nr * sizeof(uint32_t));
    for (uint32_t k = 0; k < nr; k++)
        s->key[run[k]] = s->js[run[k]].level;
    sort_by_key(s, run, nr);
    size_t cap = s->N;
    uint32_t r = 0;
    for (uint32_t lv = 0; lv < s->nrq; lv++) {
        for (int64_t after = -1;;) {
            int64_t w = cap ? ct_rankq_first(&s->rq[lv], 0, after, (double)cap) : -1;
            int take_run = r < nr && s->js[run[r]].level == lv &&
                           (w < 0 || s->rank[run[r]] < ct_rankq_rank(&s->rq[lv], (uint32_t)w));
            if (!take_run && w < 0)
                break;
            uint32_t j = take_run ? run[r++] : (uint32_t)w, gq = s->jobs->jobs[j].gpus;
            after = s->rank[j];
            if (gq <= cap) {
                cap -= gq;
                if (!take_run)
                    adm[nadm++] = j;
            } else { /* running: preempted (a waiting job that does not fit is never drawn) */
                release(s, j);
                s->js[j].phase = PH_PENDING;
                s->js[j].pend_since = s->now;
                ct_rankq_insert(queue_of(s, j), j);
                s->npending++;
            }
        }
    }
    for (uint32_t k = 0; k < nadm; k++)
        place_exclusive(s, adm[k]);
}

/* FIFO in arrival order: strict stops at the first job that cannot start;
 * backfill draws only jobs that fit the free GPUs. */
static void schedule_fifo_fast(sim_t *s)
{
    for (int64_t after = -1;;) {
        int64_t j = ct_rankq_first(s->rq, 0, after, s->p->fifo_backfill ? (double)s->nfree : DBL_MAX);
        if (j < 0)
            return;
        after = s->rank[j];
        if (!place_exclusive(s, (uint32_t)j) && !s->p->fifo_backfill)
            return;
    }
}

static void schedule(sim_t *s)
{
    const ct_share_policy_t pol = s->p->policy;
    if (s->fast) {
        if (pol == CT_SHARE_FIFO)
            schedule_fifo_fast(s);
        else if (pol == CT_SHARE_TIRESIAS)
            schedule_tiresias_fast(s);
        else
            schedule_fast(s);
        return;
    }
    uint32_t *order = s->scratch + s->N, n = 0;
    if (pol == CT_SHARE_FIFO) {
        for (uint32_t k = 0; k < s->npending;) {
            if (place_exclusive(s, s->pending[k]))
                continue; /* started: pending[k] is now the next job */
            if (!s->p->fifo_backfill)
                break; /* strict: the head blocks the queue */
            k++;
        }
        return;
    }
    if (pol == CT_SHARE_TIRESIAS) {
        for (uint32_t k = 0; k < s->npending; k++)
            order[n++] = s->pending[k];
        for (uint32_t k = 0; k < s->nrunning; k++)
            order[n++] = s->running[k];
        for (uint32_t k = 0; k < n; k++)
            s->key[order[k]] = s->js[order[k]].level;
        sort_by_key(s, order, n);
        size_t cap = s->N;
        uint32_t nadm = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t j = order[k], gq = s->jobs->jobs[j].gpus;
            if (gq <= cap) {
                cap -= gq;
                order[nadm++] = j;
            } else if (s->js[j].phase == PH_RUNNING) { /* preempted */
                release(s, j);
                s->js[j].phase = PH_PENDING;
                s->js[j].pend_since = s->now;
                s->pending[s->npending++] = j;
            }
        }
        for (uint32_t k = 0; k < nadm; k++)
            if (s->js[order[k]].phase == PH_PENDING)
                place_exclusive(s, order[k]);
        return;
    }
    for (uint32_t k = 0; k < s->npending; k++) {
        uint32_t j = s->pending[k];
        order[n++] = j;
        s->key[j] = s->js[j].alone * s->js[j].rem;
    }
    sort_by_key(s, order, n);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = order[k];
        if (pol == CT_SHARE_SJF)
            place_exclusive(s, j);
        else
            place_shared(s, j);
        /* No GPU free (and, sharing, none with room for a second job): no
         * later job can start; the rest of the queue waits unexamined. */
        if (!s->nfree && (pol == CT_SHARE_SJF || !s->nsingle))
            break;
    }
}

static double next_promotion(const sim_t *s)
{
    double t = INFINITY;
    if (s->p->policy != CT_SHARE_TIRESIAS)
        return t;
    for (uint32_t k = 0; k < s->nrunning; k++) {
        uint32_t j = s->running[k];
        const jst_t *x = &s->js[j];
        if (x->level < s->p->n_thresholds)
            t = fmin(t, s->now + (s->p->thresholds[x->level] - x->attained) / s->jobs->jobs[j].gpus);
    }
    return t;
}

static void sim_free(sim_t *s)
{
    if (s->js)
        for (size_t i = 0; i < s->n; i++) {
            free(s->js[i].gpu);
            free(s->js[i].opt);
        }
    free(s->js);
    free(s->occ);
    free(s->nocc);
    free(s->pending);
    free(s->running);
    free(s->scratch);
    free(s->srv_free);
    free(s->srv_order);
    free(s->key);
    free(s->cand);
    free(s->by_arrival);
    free(s->rank);
    free(s->sort_tmp);
    free(s->rq_val);
    free(s->kind);
    free(s->failed);
    for (uint32_t k = 0; k < s->nrq; k++)
        ct_rankq_free(&s->rq[k]);
    free(s->rq);
}

typedef struct {
    double key;
    uint32_t rank, i;
} fast_key_t;

static int cmp_fast_key(const void *a, const void *b)
{
    const fast_key_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Jobs by kind: what a placement decision reads of a waiting job. */
static int cmp_kind(const void *a, const void *b, const ct_share_jobs_t *js, ct_share_policy_t pol)
{
    const ct_share_job_t *x = &js->jobs[*(const uint32_t *)a], *y = &js->jobs[*(const uint32_t *)b];
    if (pol == CT_SHARE_SJF) /* starts exactly when its GPUs are free: one kind */
        return 0;
    if (x->app != y->app)
        return x->app < y->app ? -1 : 1;
    if (x->gpus != y->gpus)
        return x->gpus < y->gpus ? -1 : 1;
    if (x->batch != y->batch)
        return x->batch < y->batch ? -1 : 1;
    if (pol == CT_SHARE_SJF_BSBF && x->iterations != y->iterations) /* Theorem 1 reads them */
        return x->iterations < y->iterations ? -1 : 1;
    return 0;
}

/* Fast path: ranks by (alone x iterations, arrival), kinds, the rank
 * queue. O(n log n). */
static ct_status_t fast_init(sim_t *s, ct_error_t *err)
{
    size_t n = s->n, m = n ? n : 1;
    fast_key_t *key = malloc(m * sizeof *key);
    uint32_t *rank = malloc(m * sizeof(uint32_t)), *bucket = malloc(m * sizeof(uint32_t)),
             *idx = malloc(m * sizeof(uint32_t)), *kind = s->kind = malloc(m * sizeof(uint32_t));
    int tiresias = s->p->policy == CT_SHARE_TIRESIAS, by_arrival = tiresias || s->p->policy == CT_SHARE_FIFO;
    s->nrq = tiresias ? (uint32_t)s->p->n_thresholds + 1 : 1;
    s->rq = calloc(s->nrq, sizeof(ct_rankq_t));
    s->rq_val = calloc(m, sizeof(double));
    ct_status_t st = CT_OK;
    if (!key || !rank || !bucket || !kind || !idx || !s->rq || !s->rq_val) {
        s->nrq = 0;
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        s->rq_val[i] = s->jobs->jobs[i].gpus;
    if (by_arrival) { /* Tiresias (a queue per level) and FIFO: ranks by arrival, one bucket */
        for (size_t i = 0; i < n; i++)
            bucket[i] = 0;
        for (uint32_t k = 0; k < s->nrq && st == CT_OK; k++)
            st = ct_rankq_init(&s->rq[k], n, s->rank, bucket, 1, s->rq_val, err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        key[i] = (fast_key_t){ s->js[i].alone * s->js[i].rem, s->rank[i], (uint32_t)i };
        idx[i] = (uint32_t)i;
    }
    qsort(key, n, sizeof *key, cmp_fast_key);
    for (size_t r = 0; r < n; r++)
        rank[key[r].i] = (uint32_t)r;
    /* kinds: sort indices by kind (a merge through sort_tmp would do; n
     * log n either way) and number the runs */
    for (size_t w = 1; w < n; w *= 2) /* bottom-up merge sort: qsort has no context argument */
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                s->sort_tmp[k++] = cmp_kind(&idx[b], &idx[a], s->jobs, s->p->policy) < 0 ? idx[b++] : idx[a++];
            while (a < mid)
                s->sort_tmp[k++] = idx[a++];
            while (b < hi)
                s->sort_tmp[k++] = idx[b++];
            memcpy(idx + lo, s->sort_tmp + lo, (hi - lo) * sizeof(uint32_t));
        }
    uint32_t nb = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || cmp_kind(&idx[k - 1], &idx[k], s->jobs, s->p->policy) != 0)
            nb++;
        kind[idx[k]] = nb - 1;
    }
    if (!(s->failed = calloc(nb ? nb : 1, sizeof(uint64_t)))) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    /* A bucket per kind while they are few (a round then skips a failed
     * kind at once); many kinds (SJF-BSBF on jobs of distinct lengths)
     * share one bucket, and a round steps over failed kinds' jobs. */
    int bucketed = s->kind_buckets = nb <= 64;
    for (size_t i = 0; i < n; i++)
        bucket[i] = bucketed ? kind[i] : 0;
    st = ct_rankq_init(&s->rq[0], n, rank, bucket, bucketed ? nb : 1, s->rq_val, err);
done:
    free(key);
    free(rank);
    free(bucket);
    free(idx);
    return st;
}

typedef struct {
    double t;
    uint32_t i;
} arrival_t;

static int cmp_arrival(const void *a, const void *b)
{
    const arrival_t *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

ct_status_t ct_share_run(const ct_train_cluster_t *c, const ct_apps_t *apps, const ct_share_jobs_t *jobs,
                         const ct_share_params_t *p, ct_train_result_t *out, ct_error_t *err)
{
    ct_share_params_t defaults;
    if (!p) {
        ct_share_params_init(&defaults);
        p = &defaults;
    }
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t n = jobs->n, N = c->n_servers * c->gpus_per_server;
    if (!(p->restart >= 0 && isfinite(p->restart)))
        return ct_error_set(err, CT_EINPUT, "restart: expected seconds >= 0");
    if (!(p->interval >= 0 && isfinite(p->interval)))
        return ct_error_set(err, CT_EINPUT, "interval: expected seconds >= 0");
    if (p->n_thresholds >= CT_TIRESIAS_MAX_QUEUES)
        return ct_error_set(err, CT_EINPUT, "tiresias thresholds: at most %d", CT_TIRESIAS_MAX_QUEUES - 1);
    for (size_t k = 0; k < p->n_thresholds; k++)
        if (!(p->thresholds[k] > 0 && isfinite(p->thresholds[k])) || (k && p->thresholds[k] <= p->thresholds[k - 1]))
            return ct_error_set(err, CT_EINPUT, "tiresias thresholds: expected increasing GPU-seconds > 0");
    if (N > UINT32_MAX / 2 || n > UINT32_MAX / 2)
        return ct_error_set(err, CT_ELIMIT, "cluster or job list too large");
    for (size_t i = 0; i < n; i++) {
        const ct_share_job_t *j = &jobs->jobs[i];
        if (j->app >= apps->n)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].app: no application %u", i, j->app);
        if (j->gpus > N)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].gpus: job '%s' needs %u GPUs, the cluster has %zu", i, j->id,
                                j->gpus, N);
        if (!(j->iterations > 0 && j->iterations <= CT_MAX_COUNT) ||
            !(j->arrival >= 0 && j->arrival <= CT_MAX_SECONDS) || !(j->batch >= 1 && j->batch <= CT_MAX_COUNT))
            return ct_error_set(err, CT_EINPUT,
                                "jobs[%zu]: job '%s': expected arrival 0 .. %g s, batch 1 .. %g, iterations in (0, %g]",
                                i, j->id, CT_MAX_SECONDS, CT_MAX_COUNT, CT_MAX_COUNT);
    }
    sim_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.apps = apps;
    s.jobs = jobs;
    s.p = p;
    s.N = N;
    s.n = n;
    out->n = n;
    out->jobs = calloc(n ? n : 1, sizeof(ct_train_job_result_t));
    s.js = calloc(n ? n : 1, sizeof(jst_t));
    s.occ = malloc(N * sizeof *s.occ);
    s.nocc = calloc(N, 1);
    s.nfree = N;
    s.pending = malloc((n ? n : 1) * sizeof(uint32_t));
    s.running = malloc((n ? n : 1) * sizeof(uint32_t));
    s.scratch = malloc((N + n + 1) * sizeof(uint32_t));
    s.srv_free = malloc(c->n_servers * sizeof(uint32_t));
    s.srv_order = malloc(c->n_servers * sizeof(uint32_t));
    s.key = malloc((n ? n : 1) * sizeof(double));
    s.cand = malloc((n ? n : 1) * sizeof(struct cand));
    s.by_arrival = malloc((n ? n : 1) * sizeof(uint32_t));
    s.rank = malloc((n ? n : 1) * sizeof(uint32_t));
    s.sort_tmp = malloc((n ? n : 1) * sizeof(uint32_t));
    ct_status_t st = CT_OK;
    if (!out->jobs || !s.js || !s.occ || !s.nocc || !s.pending || !s.running || !s.scratch || !s.srv_free ||
        !s.srv_order || !s.key || !s.cand || !s.by_arrival || !s.rank || !s.sort_tmp) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    arrival_t *arr = malloc((n ? n : 1) * sizeof(arrival_t));
    if (!arr) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        arr[i] = (arrival_t){ jobs->jobs[i].arrival, (uint32_t)i };
    qsort(arr, n, sizeof(arrival_t), cmp_arrival);
    for (size_t i = 0; i < n; i++) {
        s.by_arrival[i] = arr[i].i;
        s.rank[arr[i].i] = (uint32_t)i;
    }
    free(arr);
    for (size_t g = 0; g < N; g++)
        s.occ[g][0] = s.occ[g][1] = -1;
    for (size_t i = 0; i < n; i++) {
        const ct_share_job_t *j = &jobs->jobs[i];
        if (!(s.js[i].gpu = malloc(j->gpus * sizeof(uint32_t)))) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        s.js[i].rem = j->iterations;
        s.js[i].local = j->batch / j->gpus;
        s.js[i].steps = 1;
        s.js[i].alone = t_alone(&s, (uint32_t)i);
        out->jobs[i].id = j->id;
        out->jobs[i].ngpus = j->gpus;
        out->jobs[i].arrival = 1e3 * j->arrival;
    }
    s.fast = !p->walk;
    if (s.fast && (st = fast_init(&s, err)) != CT_OK)
        goto done;
    size_t next_arrival = 0;
    while (s.done < n) {
        double ta = next_arrival < n ? jobs->jobs[s.by_arrival[next_arrival]].arrival : INFINITY, te = INFINITY;
        for (uint32_t k = 0; k < s.nrunning; k++)
            te = fmin(te, job_end_time(&s, s.running[k]));
        double tn = fmin(ta, fmin(te, next_promotion(&s)));
        if (p->interval > 0 && (s.npending || (p->policy == CT_SHARE_TIRESIAS && s.nrunning)))
            tn = fmin(tn, (floor(s.now / p->interval + 1e-9) + 1) * p->interval); /* the next round */
        if (!isfinite(tn)) {
            st = ct_error_set(err, CT_EINTERNAL, "sharing simulation: stalled at %.3f s with %zu jobs left", s.now,
                              n - s.done);
            goto done;
        }
        advance(&s, fmax(tn, s.now));
        out->events++;
        while (next_arrival < n && jobs->jobs[s.by_arrival[next_arrival]].arrival <= s.now) {
            const uint32_t ja = s.by_arrival[next_arrival++];
            jst_t *x = &s.js[ja];
            const ct_share_job_t *jb = &jobs->jobs[ja];
            if (p->policy == CT_SHARE_SJF_BSBF) {
                if (!(x->opt = malloc(sizeof *x->opt))) {
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
                    goto done;
                }
                const ct_app_t *ap = &apps->apps[jb->app];
                x->opt->s0 = ct_share_options(ap, x->local, jb->gpus, 1, x->opt->t[0], x->opt->mem, &x->opt->n[0]);
                ct_share_options(ap, x->local, jb->gpus, 2, x->opt->t[1], x->opt->mem, &x->opt->n[1]);
            }
            x->phase = PH_PENDING;
            x->pend_since = s.now;
            if (s.fast) {
                ct_rankq_insert(queue_of(&s, ja), ja);
                s.npending++;
            } else
                s.pending[s.npending++] = ja;
        }
        const double tol = 1e-9 * fmax(1.0, s.now);
        for (uint32_t k = 0; k < s.nrunning;) {
            uint32_t j = s.running[k];
            jst_t *x = &s.js[j];
            if (job_end_time(&s, j) <= s.now + tol) {
                release(&s, j);
                x->phase = PH_DONE;
                x->rem = 0;
                ct_train_job_result_t *r = &out->jobs[j];
                r->start = 1e3 * x->start;
                r->end = 1e3 * s.now;
                r->jct = r->end - r->arrival;
                r->queued = 1e3 * x->queued;
                r->comm = 1e3 * x->comm;
                r->servers = x->servers;
                if (!(r->gpus = malloc(jobs->jobs[j].gpus * sizeof(uint32_t)))) {
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
                    goto done;
                }
                memcpy(r->gpus, x->gpu, jobs->jobs[j].gpus * sizeof(uint32_t));
                s.done++;
                if (p->progress)
                    p->progress(s.done, n, p->progress_ctx);
                continue; /* release removed running[k] */
            }
            if (p->policy == CT_SHARE_TIRESIAS)
                while (x->level < p->n_thresholds && x->attained >= p->thresholds[x->level] * (1 - 1e-12))
                    x->level++;
            k++;
        }
        if (!(p->interval > 0) || fabs(s.now - p->interval * round(s.now / p->interval)) <= tol)
            schedule(&s);
        set_slowdowns(&s);
    }
    st = ct_train_summarize(out, 1e3 * s.busy, N, err);
done:
    sim_free(&s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != CT_OK)
        ct_train_result_free(out);
    return st;
}

ct_workload_kind_t ct_workload_kind(const char *path)
{
    char line[512] = "";
    FILE *f = fopen(path, "r");
    int c;
    if (!f)
        return CT_WORKLOAD_UNKNOWN;
    while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\r' || c == '\t')
        ;
    if (c != EOF)
        ungetc(c, f);
    if (!fgets(line, (int)sizeof line, f))
        line[0] = '\0';
    fclose(f);
    if (line[0] == '{' || strstr(line, "job_id"))
        return CT_WORKLOAD_TRAIN;
    if (strstr(line, "application") && strstr(line, "num_replicas"))
        return CT_WORKLOAD_POLLUX;
    return CT_WORKLOAD_UNKNOWN;
}
