/*
 * sim_run.c - independent replications of a simulation and their summary
 * (see ct_sim.h). Replication r uses seed + r; quantiles pool every
 * replication's histogram; means and their 95% intervals come from the
 * replication means (Student t).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_parallel.h"
#include "ct_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_sim_run_params_init(ct_sim_run_params_t *p)
{
    *p = (ct_sim_run_params_t){ .reps = 5, .jobs = 20000, .warmup = 0.2, .seed = 1 };
}

void ct_sim_summary_free(ct_sim_summary_t *s)
{
    if (!s)
        return;
    free(s->mean);
    free(s->ci95);
    free(s->p50);
    free(s->p95);
    free(s->p99);
    free(s->jobs);
    free(s->task_offset);
    free(s->task_wait);
    free(s->task_finish);
    memset(s, 0, sizeof *s);
}

/* One replication, run to its end: *sim is the caller's (NULL on failure
 * before it exists). */
static ct_status_t rep_run(const ct_sim_config_t *cfg, ct_policy_t *policy, uint64_t seed, double t0, double t1,
                           double span, ct_sim_t **sim, ct_error_t *err)
{
    ct_sim_config_t c = *cfg;
    c.seed = seed;
    if (policy)
        c.policy = policy;
    *sim = NULL;
    ct_status_t st = ct_sim_alloc(&c, sim, err);
    if (st != CT_OK)
        return st;
    ct_sim_set_window(*sim, t0, t1);
    /* Drain: after t1 nothing arrives; counted jobs finish. */
    return ct_sim_run(*sim, t1 + 1000.0 * span, err);
}

typedef struct {
    const ct_sim_config_t *cfg;
    ct_policy_t *const *policies;
    const ct_sim_run_params_t *p;
    double t0, t1, span;
    ct_sim_t **sims;
    ct_status_t *st;
    ct_error_t *errs;
} reps_ctx_t;

/* The mean of R replications' values x[0], x[stride], ... and its 95%
 * interval (NAN with one replication; NAN throughout if any is NAN). */
static void rep_mean_ci(const double *x, size_t stride, size_t R, double *mean, double *ci95)
{
    double m = 0, v = 0;
    for (size_t r = 0; r < R; r++)
        m += x[r * stride] / (double)R;
    for (size_t r = 0; r < R; r++)
        v += (x[r * stride] - m) * (x[r * stride] - m);
    *mean = m;
    *ci95 = R > 1 ? ct_stats_ci95(sqrt(v / (double)(R - 1)), R) : NAN;
}

/* Replication r on a pool thread: its outcome is kept for the merge in
 * order, never reported to the pool (a later replication failing must not
 * hide an earlier one's result). */
static ct_status_t rep_point(size_t r, void *arg, ct_error_t *err)
{
    (void)err;
    const reps_ctx_t *c = arg;
    c->st[r] = rep_run(c->cfg, c->policies[r], c->p->seed + r, c->t0, c->t1, c->span, &c->sims[r], &c->errs[r]);
    return CT_OK;
}

ct_status_t ct_sim_replicate(const ct_sim_config_t *cfg, const ct_sim_run_params_t *p, ct_sim_summary_t *out,
                             ct_error_t *err)
{
    return ct_sim_replicate_ex(cfg, NULL, 1, p, out, err);
}

ct_status_t ct_sim_replicate_ex(const ct_sim_config_t *cfg, ct_policy_t *const *policies, unsigned threads,
                                const ct_sim_run_params_t *p, ct_sim_summary_t *out, ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    ct_sim_t **sims = NULL;
    ct_status_t *rep_st = NULL;
    ct_error_t *rep_err = NULL;
    size_t K = cfg->n_classes + 1, R = p->reps ? p->reps : 1;
    double rate = 0;
    for (size_t c = 0; c < cfg->n_classes; c++)
        rate += cfg->classes[c].rate;
    if (!(rate > 0))
        return ct_error_set(err, CT_EINPUT, "simulation: every class has a zero arrival rate");
    double span = (double)p->jobs / rate, t0 = p->warmup * span, t1 = t0 + span;
    ct_stats_t *pool = calloc(K, sizeof(ct_stats_t)), wait;
    /* rep_wait: per transfer, then at a batch's head */
    double *rep_means = calloc(K * R, sizeof(double)), *rep_wait = calloc(2 * R, sizeof(double));
    out->n_classes = cfg->n_classes;
    out->mean = calloc(K, sizeof(double));
    out->ci95 = calloc(K, sizeof(double));
    out->p50 = calloc(K, sizeof(double));
    out->p95 = calloc(K, sizeof(double));
    out->p99 = calloc(K, sizeof(double));
    out->jobs = calloc(K, sizeof(uint64_t));
    out->task_offset = calloc(K, sizeof(size_t));
    for (size_t c = 0; out->task_offset && c < cfg->n_classes; c++)
        out->task_offset[c + 1] = out->task_offset[c] + cfg->classes[c].n_tasks;
    size_t NT = out->task_offset ? out->task_offset[cfg->n_classes] : 0;
    out->task_wait = calloc(NT ? NT : 1, sizeof(double));
    out->task_finish = calloc(NT ? NT : 1, sizeof(double));
    uint64_t *task_n = calloc(NT ? NT : 1, sizeof(uint64_t));
    ct_stats_init(&wait);
    ct_status_t st = CT_OK;
    if (!pool || !rep_means || !rep_wait || !out->mean || !out->ci95 || !out->p50 || !out->p95 || !out->p99 ||
        !out->jobs || !out->task_offset || !out->task_wait || !out->task_finish || !task_n) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < K; k++)
        ct_stats_init(&pool[k]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    if (policies && threads != 1 && R > 1) {
        /* Every replication at once (each with its own policy object),
         * then merged below in replication order, as the serial loop does. */
        sims = calloc(R, sizeof(ct_sim_t *));
        rep_st = calloc(R, sizeof(ct_status_t));
        rep_err = calloc(R, sizeof(ct_error_t));
        if (!sims || !rep_st || !rep_err) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        reps_ctx_t rc = { cfg, policies, p, t0, t1, span, sims, rep_st, rep_err };
        if ((st = ct_parallel_for(R, threads, rep_point, &rc, NULL, NULL, err)) != CT_OK)
            goto done;
    }
    for (size_t r = 0; r < R && st == CT_OK; r++) {
        ct_sim_t *sim;
        ct_sim_result_t res;
        if (sims) {
            sim = sims[r];
            sims[r] = NULL;
            if ((st = rep_st[r]) != CT_OK && err)
                *err = rep_err[r];
        } else
            st = rep_run(cfg, policies ? policies[r] : NULL, p->seed + r, t0, t1, span, &sim, err);
        if (!sim)
            break;
        if (st == CT_OK) {
            ct_sim_result_get(sim, &res);
            for (size_t k = 0; k < K; k++) {
                rep_means[r * K + k] = res.jct[k].mean;
                if (ct_stats_merge(&pool[k], &res.jct[k]) != CT_OK)
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
            }
            for (size_t t = 0; t < NT; t++) { /* pooled over replications */
                out->task_wait[t] += res.task_wait_sum[t];
                out->task_finish[t] += res.task_finish_sum[t];
                task_n[t] += res.task_count[t];
            }
            rep_wait[r] = res.link_wait->mean;
            rep_wait[R + r] = res.link_head_wait;
            if (ct_stats_merge(&wait, res.link_wait) != CT_OK)
                st = ct_error_set(err, CT_ENOMEM, "out of memory");
            out->link_util += res.link_util / (double)R;
            out->server_util += res.server_util / (double)R;
            out->events += res.events;
            if (res.max_in_flight > out->max_in_flight)
                out->max_in_flight = res.max_in_flight;
            /* Unstable: the backlog trends upward over the window (with
             * linear growth g per second the second half's average exceeds
             * the first's by g span / 2), jobs are left, or the backlog at
             * the end of the window took longer to clear than the window
             * (a sustainable load clears it within a few busy periods). */
            const double *q = res.backlog;
            double growth = res.arrived ? (q[2] + q[3] - q[0] - q[1]) / (double)res.arrived : 0;
            if (r == 0 || growth > out->growth) {
                out->growth = growth;
                memcpy(out->backlog, q, sizeof out->backlog);
            }
            /* A stable run still warming up grows too, but ever more
             * slowly; a pile-up keeps its pace. */
            int rising = (growth > CT_SIM_GROWTH_LIMIT && q[3] - q[2] > 0.5 * (q[1] - q[0])) ||
                         growth > 5 * CT_SIM_GROWTH_LIMIT,
                late = res.in_flight > 0 || res.now - t1 > span;
            /* A short window cannot tell a mild rise from noise (#31). */
            if ((rising || late) && res.arrived < CT_SIM_JUDGE_JOBS && growth <= 5 * CT_SIM_GROWTH_LIMIT &&
                res.in_flight == 0 && res.now - t1 <= 10 * span)
                out->undecided = 1;
            else if (rising)
                st = ct_error_set(err, CT_EUNSTABLE,
                                  "simulation did not settle (jobs in flight kept rising, from %.4g on average in the "
                                  "window's first quarter to %.4g in its last): the load is unstable under policy %s",
                                  q[0], q[3], cfg->policy->name);
            else if (late)
                st = ct_error_set(err, CT_EUNSTABLE,
                                  "simulation did not settle (backlog cleared %.3g s after a %.3g s window): the load "
                                  "is unstable under policy %s",
                                  res.now - t1, span, cfg->policy->name);
        }
        ct_sim_free(sim);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    out->seconds = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    if (st != CT_OK)
        goto done;
    for (size_t k = 0; k < K; k++) {
        rep_mean_ci(rep_means + k, K, R, &out->mean[k], &out->ci95[k]);
        out->p50[k] = ct_stats_quantile(&pool[k], 0.50);
        out->p95[k] = ct_stats_quantile(&pool[k], 0.95);
        out->p99[k] = ct_stats_quantile(&pool[k], 0.99);
        out->jobs[k] = pool[k].n;
    }
    rep_mean_ci(rep_wait, 1, R, &out->link_wait, &out->link_wait_ci95);
    rep_mean_ci(rep_wait + R, 1, R, &out->link_head_wait, &out->link_head_wait_ci95);
    for (size_t t = 0; t < NT; t++) {
        out->task_wait[t] = task_n[t] ? out->task_wait[t] / (double)task_n[t] : NAN;
        out->task_finish[t] = task_n[t] ? out->task_finish[t] / (double)task_n[t] : NAN;
    }
done:
    free(task_n);
    for (size_t r = 0; sims && r < R; r++)
        ct_sim_free(sims[r]);
    free(sims);
    free(rep_st);
    free(rep_err);
    for (size_t k = 0; pool && k < K; k++)
        ct_stats_free(&pool[k]);
    free(pool);
    ct_stats_free(&wait);
    free(rep_means);
    free(rep_wait);
    if (st != CT_OK && st != CT_EUNSTABLE)
        ct_sim_summary_free(out);
    return st;
}
