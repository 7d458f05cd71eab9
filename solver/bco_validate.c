/*
 * bco_validate.c - the approximation-bound checks of SJF-BCO (spec
 * sjf-bco.md s.7): Lemma 3, Problem (14) solved exactly as an ILP with GLPK
 * (Lemma 4), lower bounds on T*, exhaustive T* on tiny instances, and
 * Theorem 5.
 *
 * Problem (14) here: binaries x_jg (job j uses GPU g), sum_g x_jg = G_j,
 * sum_j x_jg rho_hat_j / u <= theta for every GPU, minimise theta. GPUs of
 * one server are interchangeable, so their loads are ordered
 * (load_g >= load_{g+1}) to cut symmetric solutions.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_bco.h"
#include "ct_lp.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_bco_validate_params_init(ct_bco_validate_params_t *p)
{
    p->ilp_max_binaries = 400;
    p->ilp_seconds = 10;
    p->exhaustive_max = 200000;
}

static const char *const claim_names[] = { "holds", "VIOLATED", "undecided" };

const char *ct_claim_name(ct_claim_t c)
{
    return claim_names[c];
}

ct_status_t ct_bco_theta_star(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const double *rho_hat,
                              double seconds, ct_theta_status_t *status, double *lo, double *hi, uint32_t **place,
                              ct_error_t *err)
{
    size_t J = jobs->n, N = c->n_gpus, nx = J * N, cols = nx + 1; /* last column: theta */
    size_t rows = J + N + N; /* assignment, load, symmetry (at most N) */
    ct_lp_t *lp = NULL;
    size_t *idx = malloc((nx + 2) * sizeof(size_t));
    double *val = malloc((nx + 2) * sizeof(double)), *xv = malloc(cols * sizeof(double));
    ct_status_t st = CT_OK;
    if (!idx || !val || !xv) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_lp_alloc(&lp, rows, cols, err)) != CT_OK)
        goto done;
    ct_lp_set_time_limit(lp, seconds);
    double scale = 0; /* keep coefficients O(1) for GLPK's tolerances */
    for (size_t j = 0; j < J; j++)
        if (rho_hat[j] > scale)
            scale = rho_hat[j];
    if (!(scale > 0))
        scale = 1;
    size_t r = 0;
    for (size_t j = 0; j < J; j++) {
        for (size_t g = 0; g < N; g++) {
            idx[g] = j * N + g;
            val[g] = 1;
            if ((st = ct_lp_set_bounds(lp, j * N + g, 0, 1, err)) != CT_OK ||
                (st = ct_lp_set_integer(lp, j * N + g, err)) != CT_OK)
                goto done;
        }
        if ((st = ct_lp_set_row(lp, r++, N, idx, val, CT_LP_EQ, jobs->jobs[j].gpus, err)) != CT_OK)
            goto done;
    }
    for (size_t g = 0; g < N; g++) { /* load_g - theta <= 0 */
        for (size_t j = 0; j < J; j++) {
            idx[j] = j * N + g;
            val[j] = rho_hat[j] / scale;
        }
        idx[J] = nx;
        val[J] = -1;
        if ((st = ct_lp_set_row(lp, r++, J + 1, idx, val, CT_LP_LE, 0, err)) != CT_OK)
            goto done;
    }
    for (size_t v = 0; v < c->n_servers; v++) /* load_g >= load_{g+1} within a server */
        for (uint32_t q = 0; q + 1 < c->gpus[v]; q++) {
            size_t g = c->first_gpu[v] + q;
            for (size_t j = 0; j < J; j++) {
                idx[2 * j] = j * N + g;
                val[2 * j] = rho_hat[j] / scale;
                idx[2 * j + 1] = j * N + g + 1;
                val[2 * j + 1] = -rho_hat[j] / scale;
            }
            if ((st = ct_lp_set_row(lp, r++, 2 * J, idx, val, CT_LP_GE, 0, err)) != CT_OK)
                goto done;
        }
    for (; r < rows; r++) /* unused rows: 0 >= 0 */
        if ((st = ct_lp_set_row(lp, r, 0, idx, val, CT_LP_GE, 0, err)) != CT_OK)
            goto done;
    if ((st = ct_lp_set_obj(lp, nx, 1.0, err)) != CT_OK)
        goto done;
    ct_lp_result_t res;
    double obj;
    if ((st = ct_lp_solve(lp, &res, &obj, xv, err)) != CT_OK)
        goto done;
    if (res == CT_LP_INFEASIBLE || res == CT_LP_UNBOUNDED) {
        st = ct_error_set(err, CT_ESOLVER, "Problem (14) has no optimum (GLPK: %s)",
                          res == CT_LP_INFEASIBLE ? "infeasible" : "unbounded");
        goto done;
    }
    if (res == CT_LP_OPTIMAL) {
        *status = CT_THETA_EXACT;
        *lo = *hi = obj * scale;
    } else {
        double relax = ct_lp_relaxation(lp);
        *status = CT_THETA_TIME_LIMIT;
        *lo = isnan(relax) ? 0 : relax * scale;
        *hi = isnan(obj) ? INFINITY : obj * scale;
        if (isfinite(*hi) && *hi - *lo <= 1e-9 * *hi) /* the relaxation already meets the incumbent */
            *status = CT_THETA_EXACT;
    }
    if (place && isfinite(*hi))
        for (size_t j = 0; j < J; j++) {
            uint32_t k = 0;
            for (size_t g = 0; g < N && k < jobs->jobs[j].gpus; g++)
                if (xv[j * N + g] > 0.5)
                    place[j][k++] = (uint32_t)g;
        }
done:
    ct_lp_free(lp);
    free(idx);
    free(val);
    free(xv);
    return st;
}

static const char *const family_names[] = { "tiny", "identical", "hetero", "all" };

CT_ENUM_NAMES(ct_bco_family_t, ct_bco_family_name, ct_bco_family_parse, family_names)

ct_status_t ct_bco_random_instance(ct_rng_t *rng, ct_bco_family_t f, ct_rar_cluster_t *c, ct_rar_jobs_t *j,
                                   ct_error_t *err)
{
    memset(c, 0, sizeof *c);
    memset(j, 0, sizeof *j);
    size_t S, n;
    uint32_t m = 0;
    if (f == CT_BCO_FAMILY_IDENTICAL) {
        S = 1;
        m = 2 + (uint32_t)ct_rng_below(rng, 2);
        n = 2 * m + 1 + (size_t)ct_rng_below(rng, 3);
    } else if (f == CT_BCO_FAMILY_HETERO) {
        S = 2 + (size_t)ct_rng_below(rng, 2);
        n = 2 + (size_t)ct_rng_below(rng, 2);
    } else {
        S = 2;
        n = 3;
    }
    c->n_servers = S;
    c->gpus = malloc(S * sizeof(uint32_t));
    j->jobs = calloc(n, sizeof(ct_rar_job_t));
    if (!c->gpus || !j->jobs) {
        ct_rar_cluster_free(c);
        ct_rar_jobs_free(j);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < S; v++)
        c->gpus[v] = f == CT_BCO_FAMILY_IDENTICAL ? m : f == CT_BCO_FAMILY_HETERO ? 1 + (uint32_t)ct_rng_below(rng, 2) : 2;
    c->b_intra = 1000;
    c->reduction = 2000;
    c->xi1 = 1;
    c->horizon = 4000;
    if (f == CT_BCO_FAMILY_HETERO) {
        c->b_inter = 1 + 4 * ct_rng_uniform(rng);
        c->xi1 = 0.5 + 0.5 * ct_rng_uniform(rng);
        c->xi2 = 0.001;
        c->alpha = ct_rng_uniform(rng);
    } else {
        c->b_inter = 50 + 200 * ct_rng_uniform(rng);
        c->xi2 = f == CT_BCO_FAMILY_IDENTICAL ? 0 : 0.001;
        c->alpha = f == CT_BCO_FAMILY_IDENTICAL ? 0 : ct_rng_uniform(rng);
    }
    ct_status_t st = ct_rar_cluster_index(c, err);
    uint32_t total = c->n_gpus;
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        ct_rar_job_t *x = &j->jobs[i];
        char id[32];
        snprintf(id, sizeof id, "r%zu", i);
        if (!(x->id = ct_strdup(id, err))) {
            st = CT_ENOMEM;
            break;
        }
        j->n = i + 1;
        x->batch = 32;
        x->lambda = 1;
        if (f == CT_BCO_FAMILY_IDENTICAL) {
            /* exact whole-slot times: one slot per iteration, 20..50 iterations */
            x->gpus = 1;
            x->iterations = 10.0 * (double)(2 + ct_rng_below(rng, 4));
            x->fwd = 0;
            x->bwd = 1;
            x->grad = 1;
        } else if (f == CT_BCO_FAMILY_HETERO) {
            x->gpus = 1 + (uint32_t)ct_rng_below(rng, total < 2 ? 1 : 2);
            x->iterations = 10 + (double)ct_rng_below(rng, 41);
            x->fwd = 0.001 * ct_rng_uniform(rng);
            x->bwd = 0.05 + 0.2 * ct_rng_uniform(rng);
            x->grad = 1 + 4 * ct_rng_uniform(rng);
        } else {
            x->gpus = 1 + (uint32_t)ct_rng_below(rng, 2);
            x->iterations = 500 + (double)ct_rng_below(rng, 1500);
            x->fwd = 0.0001 + 0.001 * ct_rng_uniform(rng);
            x->bwd = 2 * x->fwd * x->batch;
            x->grad = 1 + 20 * ct_rng_uniform(rng);
        }
    }
    if (st != CT_OK) {
        ct_rar_cluster_free(c);
        ct_rar_jobs_free(j);
    }
    return st;
}

/* Next k-subset of {0..n-1} in lexicographic order; 0 when done. */
static int next_subset(uint32_t *a, uint32_t k, uint32_t n)
{
    for (uint32_t i = k; i-- > 0;)
        if (a[i] < n - k + i) {
            a[i]++;
            for (uint32_t m = i + 1; m < k; m++)
                a[m] = a[m - 1] + 1;
            return 1;
        }
    return 0;
}

static double binom(uint32_t n, uint32_t k)
{
    double b = 1;
    for (uint32_t i = 1; i <= k; i++)
        b = b * (double)(n - k + i) / (double)i;
    return b;
}

ct_status_t ct_bco_exhaustive(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, size_t max_combos, double *T,
                              ct_error_t *err)
{
    size_t n = jobs->n;
    double combos = 1;
    for (size_t j = 0; j < n; j++)
        combos *= binom(c->n_gpus, jobs->jobs[j].gpus) * (double)(j + 1); /* placements x orders */
    if (combos > (double)max_combos)
        return ct_error_set(err, CT_ELIMIT, "exhaustive T*: %.0f placement x order combinations, over the limit %zu",
                            combos, max_combos);
    ct_rar_schedule_t s;
    ct_status_t st = ct_rar_schedule_alloc(&s, jobs, err);
    if (st != CT_OK)
        return st;
    size_t *perm = malloc(n * sizeof(size_t));
    double *fin = malloc(n * sizeof(double));
    if (!perm || !fin) {
        free(perm);
        free(fin);
        ct_rar_schedule_free(&s);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < n; j++)
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++)
            s.gpus[j][k] = k;
    double best = INFINITY;
    for (;;) {
        /* every start order (Heap's algorithm would do; n is tiny) */
        for (size_t j = 0; j < n; j++)
            perm[j] = j;
        for (;;) {
            for (size_t r = 0; r < n; r++)
                s.start[perm[r]] = (double)r; /* only the order counts when work-conserving */
            if ((st = ct_rar_resimulate(c, jobs, &s, CT_RESIM_WORK_CONSERVING, NULL, fin, err)) != CT_OK)
                goto done;
            double ms = 0;
            for (size_t j = 0; j < n; j++)
                ms = fmax(ms, fin[j]);
            best = fmin(best, ms);
            /* next permutation (lexicographic) */
            size_t i = n - 1;
            while (i > 0 && perm[i - 1] >= perm[i])
                i--;
            if (i == 0)
                break;
            size_t k = n - 1;
            while (perm[k] <= perm[i - 1])
                k--;
            size_t t = perm[i - 1];
            perm[i - 1] = perm[k];
            perm[k] = t;
            for (size_t a = i, b = n - 1; a < b; a++, b--) {
                t = perm[a];
                perm[a] = perm[b];
                perm[b] = t;
            }
        }
        /* next placement: odometer over the jobs' GPU subsets */
        size_t j = 0;
        while (j < n && !next_subset(s.gpus[j], jobs->jobs[j].gpus, c->n_gpus)) {
            for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++)
                s.gpus[j][k] = k;
            j++;
        }
        if (j == n)
            break;
    }
    *T = best;
done:
    free(perm);
    free(fin);
    ct_rar_schedule_free(&s);
    return st;
}

/* A verdict from a quantity and the bracket [lo_rhs, hi_rhs] of what it
 * must not exceed. */
static ct_claim_t verdict(double lhs, double lo_rhs, double hi_rhs)
{
    const double tol = 1e-9;
    if (lhs <= lo_rhs * (1 + tol))
        return CT_CLAIM_HOLDS;
    if (lhs > hi_rhs * (1 + tol))
        return CT_CLAIM_VIOLATED;
    return CT_CLAIM_UNDECIDED;
}

ct_status_t ct_bco_validate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_result_t *r,
                            const ct_bco_validate_params_t *p, ct_bco_bounds_t *b, ct_error_t *err)
{
    ct_bco_validate_params_t defaults;
    if (!p) {
        ct_bco_validate_params_init(&defaults);
        p = &defaults;
    }
    memset(b, 0, sizeof *b);
    size_t n = jobs->n;
    double phi = 1, work = 0, max_best = 0;
    for (size_t j = 0; j < n; j++) {
        double best, worst;
        ct_rar_exec_bounds(c, &jobs->jobs[j], &best, &worst);
        phi = fmax(phi, worst / best);
        work += best * jobs->jobs[j].gpus;
        max_best = fmax(max_best, best);
        b->n_g = fmax(b->n_g, jobs->jobs[j].gpus);
    }
    b->phi = phi;
    b->u_over_l = phi; /* u = 1, l = 1/phi (rho_hat = best case) */
    b->W_max = r->W_max;
    b->theta_tilde = r->theta_u;
    b->makespan = r->makespan;
    b->makespan_est = r->makespan_est;
    /* Slots: a job of 3.1 slots holds its GPUs for 4, so the re-simulated
     * makespan is compared with loads of whole slots. */
    double *load = calloc(c->n_gpus, sizeof(double));
    if (!load)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t j = 0; j < n; j++)
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++)
            load[r->sched.gpus[j][k]] += ceil(r->rho_hat[j] - 1e-9);
    for (uint32_t g = 0; g < c->n_gpus; g++)
        b->W_slots = fmax(b->W_slots, load[g]);
    free(load);
    b->lemma3 = verdict(r->makespan, b->n_g * b->W_slots, b->n_g * b->W_slots);
    b->lemma3_est = verdict(r->makespan_est, b->n_g * r->W_max, b->n_g * r->W_max);
    /* theta_u*: exact or bracketed by the ILP; without it, the simple lower
     * bound and the returned schedule's own largest load. */
    double simple = fmax(max_best, work / c->n_gpus);
    b->theta_status = CT_THETA_TOO_LARGE;
    b->theta_lo = simple;
    b->theta_hi = r->W_max;
    b->T_hi = r->makespan;
    ct_rar_schedule_t ilp;
    ct_status_t st = ct_rar_schedule_alloc(&ilp, jobs, err);
    if (st != CT_OK)
        return st;
    if (n * c->n_gpus <= p->ilp_max_binaries) {
        double lo, hi;
        if ((st = ct_bco_theta_star(c, jobs, r->rho_hat, p->ilp_seconds, &b->theta_status, &lo, &hi, ilp.gpus,
                                    err)) != CT_OK)
            goto done;
        b->theta_lo = fmax(simple, lo);
        b->theta_hi = fmin(b->theta_hi, hi);
        if (b->theta_status == CT_THETA_EXACT)
            b->theta_lo = b->theta_hi = lo;
        if (isfinite(hi)) {
            /* The ILP's placement is a schedule too (SJF order): T* <= its makespan. */
            double *fin = malloc(n * sizeof(double));
            if (!fin) {
                st = ct_error_set(err, CT_ENOMEM, "out of memory");
                goto done;
            }
            for (size_t j = 0; j < n; j++)
                ilp.start[j] = r->sched.start[j];
            st = ct_rar_resimulate(c, jobs, &ilp, CT_RESIM_WORK_CONSERVING, NULL, fin, err);
            double ms = 0;
            for (size_t j = 0; j < n; j++)
                ms = fmax(ms, fin[j]);
            free(fin);
            if (st != CT_OK)
                goto done;
            b->T_hi = fmin(b->T_hi, ms);
        }
    }
    if (b->theta_hi - b->theta_lo <= 1e-9 * b->theta_hi) /* the bounds meet: proven either way */
        b->theta_lo = b->theta_hi;
    double ul = b->phi * b->u_over_l;
    b->lemma4 = verdict((double)r->theta_u, ul * b->theta_lo + 1, ul * b->theta_hi + 1);
    b->T_lo = fmax(simple, b->theta_lo);
    double T;
    ct_error_t e2;
    if (ct_bco_exhaustive(c, jobs, p->exhaustive_max, &T, &e2) == CT_OK) {
        b->have_T_exact = 1;
        b->T_lo = b->T_hi = T;
    }
    if (b->T_lo > b->T_hi) /* rounding of a bound against a schedule */
        b->T_lo = b->T_hi;
    double f = b->n_g * ul;
    b->theorem5 = verdict(b->makespan, f * b->T_lo, f * b->T_hi);
    b->ratio_lo = b->makespan / b->T_hi;
    b->ratio_hi = b->makespan / b->T_lo;
done:
    ct_rar_schedule_free(&ilp);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The claims over random instances.                                        */

void ct_bco_claims_params_init(ct_bco_claims_params_t *p)
{
    p->instances = 50;
    p->seed = 1;
    p->family = CT_BCO_FAMILY_ALL;
    ct_bco_params_init(&p->schedule);
    ct_bco_validate_params_init(&p->validate);
}

void ct_bco_claims_init(ct_bco_claims_t *s, const ct_bco_claims_params_t *p)
{
    memset(s, 0, sizeof *s);
    if (p)
        s->p = *p;
    else
        ct_bco_claims_params_init(&s->p);
    ct_rng_seed(&s->rng, s->p.seed);
}

static void claims_consider(ct_bco_counterexample_t *ce, size_t i, const ct_rar_cluster_t *c, const ct_rar_jobs_t *j,
                            const ct_rng_t *rng, ct_bco_family_t f, const ct_bco_bounds_t *b, double excess)
{
    if (ce->have && (j->n > ce->jobs || (j->n == ce->jobs && c->n_gpus > ce->gpus) ||
                     (j->n == ce->jobs && c->n_gpus == ce->gpus && excess <= ce->excess)))
        return;
    *ce = (ct_bco_counterexample_t){ 1, i, j->n, c->n_gpus, excess, *rng, f, *b };
}

ct_status_t ct_bco_claims_iterate(ct_bco_claims_t *s, ct_rar_cluster_t *c, ct_rar_jobs_t *j, ct_bco_family_t *family,
                                  ct_bco_bounds_t *b, ct_error_t *err)
{
    ct_bco_family_t f = s->p.family == CT_BCO_FAMILY_ALL ? (ct_bco_family_t)(s->done % 3) : s->p.family;
    ct_rng_t before = s->rng;
    ct_bco_result_t r;
    *family = f;
    ct_status_t st = ct_bco_random_instance(&s->rng, f, c, j, err);
    if (st != CT_OK)
        return st;
    if ((st = ct_bco_schedule(c, j, &s->p.schedule, &r, err)) != CT_OK)
        return st;
    st = ct_bco_validate(c, j, &r, &s->p.validate, b, err);
    ct_bco_result_free(&r);
    if (st != CT_OK)
        return st;
    size_t i = s->done++;
    s->count[f]++;
    s->tally[0][b->lemma3]++;
    s->tally[1][b->lemma4]++;
    s->tally[2][b->theorem5]++;
    s->worst = fmax(s->worst, b->ratio_lo);
    if (b->have_T_exact || b->T_lo == b->T_hi)
        s->worst_exact = fmax(s->worst_exact, b->ratio_lo);
    double ul = b->phi * b->u_over_l;
    if (b->lemma3 == CT_CLAIM_VIOLATED)
        claims_consider(&s->ce[0], i, c, j, &before, f, b, b->makespan / (b->n_g * b->W_slots));
    if (b->lemma4 == CT_CLAIM_VIOLATED)
        claims_consider(&s->ce[1], i, c, j, &before, f, b, (double)b->theta_tilde / (ul * b->theta_hi + 1));
    if (b->theorem5 == CT_CLAIM_VIOLATED)
        claims_consider(&s->ce[2], i, c, j, &before, f, b, b->makespan / (b->n_g * ul * b->T_hi));
    return CT_OK;
}

ct_status_t ct_bco_claims_counterexample(const ct_bco_claims_t *s, int k, ct_rar_cluster_t *c, ct_rar_jobs_t *j,
                                         ct_error_t *err)
{
    if (k < 0 || k > 2 || !s->ce[k].have)
        return ct_error_set(err, CT_EINTERNAL, "claim %d: no counterexample", k);
    ct_rng_t again = s->ce[k].rng;
    return ct_bco_random_instance(&again, s->ce[k].family, c, j, err);
}
