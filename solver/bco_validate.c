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

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_bco_validate_params_init(ct_bco_validate_params_t *p)
{
    p->ilp_max_binaries = 400;
    p->exhaustive_max = 200000;
}

ct_status_t ct_bco_theta_star(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const double *rho_hat,
                              double *theta, ct_error_t *err)
{
    size_t J = jobs->n, N = c->n_gpus, nx = J * N, cols = nx + 1; /* last column: theta */
    size_t rows = J + N + N; /* assignment, load, symmetry (at most N) */
    ct_lp_t *lp = NULL;
    size_t *idx = malloc((nx + 2) * sizeof(size_t));
    double *val = malloc((nx + 2) * sizeof(double));
    ct_status_t st = CT_OK;
    if (!idx || !val) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_lp_alloc(&lp, rows, cols, err)) != CT_OK)
        goto done;
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
    if ((st = ct_lp_solve(lp, &res, &obj, NULL, err)) != CT_OK)
        goto done;
    if (res != CT_LP_OPTIMAL) {
        st = ct_error_set(err, CT_ESOLVER, "Problem (14) has no optimum (GLPK: %s)",
                          res == CT_LP_INFEASIBLE ? "infeasible" : "unbounded");
        goto done;
    }
    *theta = obj * scale;
done:
    ct_lp_free(lp);
    free(idx);
    free(val);
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
                s.start[perm[r]] = (double)r * 1e-9; /* order without delay */
            if ((st = ct_rar_resimulate(c, jobs, &s, fin, err)) != CT_OK)
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

ct_status_t ct_bco_validate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_result_t *r,
                            const ct_bco_validate_params_t *p, ct_bco_bounds_t *b, ct_error_t *err)
{
    ct_bco_validate_params_t defaults;
    if (!p) {
        ct_bco_validate_params_init(&defaults);
        p = &defaults;
    }
    memset(b, 0, sizeof *b);
    double phi = 1, work = 0, max_best = 0;
    for (size_t j = 0; j < jobs->n; j++) {
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
    b->lemma3 = r->makespan_est <= b->n_g * r->W_max * (1 + 1e-9);
    b->T_lower = fmax(max_best, work / c->n_gpus);
    if (jobs->n * c->n_gpus <= p->ilp_max_binaries) {
        ct_status_t st = ct_bco_theta_star(c, jobs, r->rho_hat, &b->theta_star, err);
        if (st != CT_OK)
            return st;
        b->have_theta_star = 1;
        b->lemma4 = (double)r->theta_u <= b->phi * b->u_over_l * b->theta_star * (1 + 1e-9) + 1;
        b->T_lower = fmax(b->T_lower, b->theta_star);
    }
    ct_error_t e2;
    if (ct_bco_exhaustive(c, jobs, p->exhaustive_max, &b->T_exact, &e2) == CT_OK)
        b->have_T_exact = 1;
    b->T_star = b->have_T_exact ? b->T_exact : b->T_lower;
    b->bound = b->n_g * b->phi * b->u_over_l * b->T_star;
    b->theorem5 = b->makespan <= b->bound * (1 + 1e-9);
    return CT_OK;
}
