/*
 * nona_exact.c - the exact Nona solver: a 1-D search over the link wait phi
 * of LPs solved by GLPK (see ct_nona_solve.h and spec s.7).
 *
 * The LP at fixed phi, over theta >= 0:
 *   min  sum_w beta_w M_w(phi) theta_w
 *   s.t. sum_{w in block b} theta_w = 1                       for every block
 *        sum_w beta_w (a2_w + 2 phi a1_w) theta_w <= 2 phi (1 - rho_bg) - m2_bg
 * The last row is "the PK wait of theta is at most phi". One GLPK problem is
 * built once; each phi changes the objective and the link row only, and the
 * simplex warm-starts from the previous basis.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_lp.h"
#include "nona_internal.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_nona_solve_params_init(ct_nona_solve_params_t *p)
{
    p->method = CT_NONA_EXACT;
    p->grid = 48;
    p->max_polish = 50;
    p->starts = 6;
    p->max_iter = 400;
    p->seed = 1;
    p->prune = 1e-9;
}

const char *ct_nona_method_name(ct_nona_method_t m)
{
    return m == CT_NONA_EXACT ? "exact" : "penalty";
}

void ct_nona_solution_free(ct_nona_solution_t *s)
{
    if (!s)
        return;
    free(s->theta);
    free(s->tau);
    memset(s, 0, sizeof *s);
}

/* The LP of one search, kept across phi values. */
typedef struct {
    const ct_nona_model_t *m;
    ct_lp_t *lp;
    size_t *cols;
    double *vals, *x;
    double constant;        /* sum_j beta_j base_j */
    double beta_sum;
    size_t solves;
} phi_lp_t;

static ct_status_t phi_lp_init(phi_lp_t *s, const ct_nona_model_t *m, ct_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    size_t n = m->n_vars ? m->n_vars : 1;
    s->cols = malloc(n * sizeof(size_t));
    s->vals = malloc(n * sizeof(double));
    s->x = malloc(n * sizeof(double));
    if (!s->cols || !s->vals || !s->x)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t j = 0; j < m->n_classes; j++) {
        s->constant += m->beta[j] * m->classes[j].base;
        s->beta_sum += m->beta[j];
    }
    ct_status_t st = ct_lp_alloc(&s->lp, m->n_blocks + 1, m->n_vars, err);
    if (st != CT_OK)
        return st;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        for (size_t i = 0; i < bl->n_vars; i++) {
            s->cols[i] = bl->var_start + i;
            s->vals[i] = 1.0;
        }
        if ((st = ct_lp_set_row(s->lp, b, bl->n_vars, s->cols, s->vals, CT_LP_EQ, 1.0, err)) != CT_OK)
            return st;
    }
    return CT_OK;
}

static void phi_lp_free(phi_lp_t *s)
{
    ct_lp_free(s->lp);
    free(s->cols);
    free(s->vals);
    free(s->x);
}

/* V(phi); theta (may be NULL) receives the LP's minimiser. */
static ct_status_t phi_lp_value(phi_lp_t *s, double phi, double *value, double *theta, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    double rhs = 2.0 * phi * (1.0 - m->rho_bg) - m->m2_bg;
    *value = INFINITY;
    if (rhs < 0)
        return CT_OK; /* below phi_lo: even all-local waits longer */
    /* GLPK's tolerances are absolute (about 1e-7 on reduced costs and
     * 1e-9 on rows): scale the objective to O(1) by sum beta and the
     * largest triplet time, and the link row by its largest entry, so
     * tiny rates or times do not look like ties to the simplex. */
    ct_status_t st;
    double tscale = 0, rscale = fabs(rhs);
    for (size_t w = 0; w < m->n_vars; w++) {
        double t = ct_nona_triplet_time(m, w, phi);
        if (t > tscale)
            tscale = t;
    }
    if (!(tscale > 0))
        tscale = 1;
    size_t nz = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double share = m->beta[bl->cls] / s->beta_sum;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            if ((st = ct_lp_set_obj(s->lp, w, share * ct_nona_triplet_time(m, w, phi) / tscale, err)) != CT_OK)
                return st;
            double c = m->beta[bl->cls] * (m->trip[w].a2 + 2.0 * phi * m->trip[w].a1);
            if (c != 0) {
                s->cols[nz] = w;
                s->vals[nz++] = c;
                if (c > rscale)
                    rscale = c;
            }
        }
    }
    if (!(rscale > 0))
        rscale = 1;
    for (size_t i = 0; i < nz; i++)
        s->vals[i] /= rscale;
    if ((st = ct_lp_set_row(s->lp, m->n_blocks, nz, s->cols, s->vals, CT_LP_LE, rhs / rscale, err)) != CT_OK)
        return st;
    ct_lp_result_t res;
    double obj = 0;
    if ((st = ct_lp_solve(s->lp, &res, &obj, s->x, err)) != CT_OK)
        return st;
    s->solves++;
    if (res == CT_LP_INFEASIBLE)
        return CT_OK;
    if (res != CT_LP_OPTIMAL)
        return ct_error_set(err, CT_ESOLVER, "the phi-LP is unbounded (a bug: the objective is bounded below)");
    ct_nona_theta_clean(m, s->x, 1e-12); /* simplex round-off */
    /* The LP value from the cleaned theta, in the model's own units. */
    double v = s->constant;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            if (s->x[w] > 0)
                v += m->beta[bl->cls] * s->x[w] * ct_nona_triplet_time(m, w, phi);
    }
    (void)obj;
    *value = v;
    if (theta)
        memcpy(theta, s->x, m->n_vars * sizeof(double));
    return CT_OK;
}

ct_status_t ct_nona_lp_value(const ct_nona_model_t *m, double phi, double *value, double *theta, ct_error_t *err)
{
    phi_lp_t s;
    ct_status_t st = phi_lp_init(&s, m, err);
    if (st == CT_OK)
        st = phi_lp_value(&s, phi, value, theta, err);
    phi_lp_free(&s);
    return st;
}

/* The search state: the best true J seen, and its theta. */
typedef struct {
    phi_lp_t lp;
    double *theta, *best;
    double best_J;
    ct_status_t st;
    ct_error_t *err;
} search_t;

/* V(phi), recording the LP's theta if its true J is the best so far. */
static double search_value(search_t *s, double phi)
{
    double v;
    if (s->st != CT_OK)
        return INFINITY;
    if ((s->st = phi_lp_value(&s->lp, phi, &v, s->theta, s->err)) != CT_OK || !isfinite(v))
        return INFINITY;
    ct_nona_eval_t e;
    ct_nona_evaluate(s->lp.m, s->theta, &e, NULL);
    if (e.J < s->best_J) {
        s->best_J = e.J;
        memcpy(s->best, s->theta, s->lp.m->n_vars * sizeof(double));
    }
    return v;
}

static double gsl_value(double phi, void *ctx)
{
    double v = search_value(ctx, phi);
    return isfinite(v) ? v : 1e300;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ct_status_t solve_exact(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                               ct_error_t *err)
{
    search_t s;
    memset(&s, 0, sizeof s);
    s.err = err;
    s.best_J = INFINITY;
    size_t n = m->n_vars ? m->n_vars : 1, G = p->grid < 3 ? 3 : p->grid;
    s.theta = malloc(n * sizeof(double));
    s.best = malloc(n * sizeof(double));
    double *grid = malloc(G * sizeof(double)), *gv = malloc(G * sizeof(double));
    gsl_min_fminimizer *fm = NULL;
    ct_status_t st = CT_OK;
    if (!s.theta || !s.best || !grid || !gv) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    /* All-local is always feasible: it is the starting incumbent. */
    ct_nona_theta_local(m, s.best);
    ct_nona_eval_t e;
    ct_nona_evaluate(m, s.best, &e, NULL);
    s.best_J = sol->J_local = e.J;
    double lo = ct_nona_phi_min(m), hi = ct_nona_phi_max(m);
    sol->phi_lo = lo;
    sol->phi_hi = hi > lo ? hi : lo;
    if (m->n_vars == m->n_blocks || !(hi > lo))
        goto done; /* nothing to decide, or nothing can beat local */
    if ((st = phi_lp_init(&s.lp, m, err)) != CT_OK)
        goto done;
    /* Grid: half geometric from just above phi_lo (the optimum often sits
     * near the bottom), half uniform. */
    size_t half = G / 2;
    double span = hi - lo;
    for (size_t i = 0; i < G; i++) {
        double f = i < half ? 1e-6 * pow(1e6, (double)i / (double)(half - 1)) : (double)(i - half + 1) / (double)(G - half);
        grid[i] = lo + span * f;
    }
    for (size_t i = 1; i < G; i++) /* insertion sort: small */
        for (size_t k = i; k > 0 && grid[k] < grid[k - 1]; k--) {
            double t = grid[k];
            grid[k] = grid[k - 1];
            grid[k - 1] = t;
        }
    size_t arg = 0;
    for (size_t i = 0; i < G; i++) {
        gv[i] = search_value(&s, grid[i]);
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        if (gv[i] < gv[arg])
            arg = i;
    }
    /* Brent on the best grid cell when it is a proper bracket. */
    if (arg > 0 && arg + 1 < G && gv[arg] < gv[arg - 1] && gv[arg] < gv[arg + 1]) {
        gsl_function F = { gsl_value, &s };
        fm = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
        if (!fm) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory (GSL minimiser)");
            goto done;
        }
        int gs = gsl_min_fminimizer_set_with_values(fm, &F, grid[arg], gv[arg], grid[arg - 1], gv[arg - 1],
                                                    grid[arg + 1], gv[arg + 1]);
        for (int it = 0; gs == GSL_SUCCESS && it < 100; it++) {
            gs = gsl_min_fminimizer_iterate(fm);
            if (gs != GSL_SUCCESS || s.st != CT_OK)
                break;
            double a = gsl_min_fminimizer_x_lower(fm), b = gsl_min_fminimizer_x_upper(fm);
            if (gsl_min_test_interval(a, b, 0.0, 1e-12) == GSL_SUCCESS)
                break;
        }
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        /* A GSL failure here (e.g. no progress on a flat stretch) only ends
         * the refinement; the grid and polish results stand. */
    }
    /* Polish: re-solve at the incumbent's own phi while J drops. */
    for (size_t r = 0; r < p->max_polish; r++) {
        ct_nona_evaluate(m, s.best, &e, NULL);
        double before = s.best_J;
        search_value(&s, e.phi);
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        if (!(s.best_J < before * (1 - 1e-15)))
            break;
    }
done:
    if (st == CT_OK) {
        memcpy(sol->theta, s.best, m->n_vars * sizeof(double));
        sol->lp_solves = s.lp.solves;
    }
    if (fm)
        gsl_min_fminimizer_free(fm);
    if (s.lp.lp || s.lp.cols)
        phi_lp_free(&s.lp);
    free(s.theta);
    free(s.best);
    free(grid);
    free(gv);
    return st;
}

ct_status_t ct_nona_solve(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                          ct_error_t *err)
{
    ct_nona_solve_params_t defaults;
    if (!p) {
        ct_nona_solve_params_init(&defaults);
        p = &defaults;
    }
    gsl_set_error_handler_off();
    memset(sol, 0, sizeof *sol);
    sol->method = p->method;
    sol->theta = calloc(m->n_vars ? m->n_vars : 1, sizeof(double));
    sol->tau = calloc(m->n_classes ? m->n_classes : 1, sizeof(double));
    if (!sol->theta || !sol->tau) {
        ct_nona_solution_free(sol);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    double t0 = now_seconds();
    ct_status_t st = p->method == CT_NONA_EXACT ? solve_exact(m, p, sol, err) : ct_nona_solve_penalty(m, p, sol, err);
    if (st != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    ct_nona_theta_clean(m, sol->theta, p->prune); /* the table lists positive probabilities */
    ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
    sol->seconds = now_seconds() - t0;
    if (!isfinite(sol->eval.J)) {
        st = ct_error_set(err, CT_ESOLVER, "the %s solver returned an unstable placement (rho = %g)",
                          ct_nona_method_name(p->method), sol->eval.rho);
        ct_nona_solution_free(sol);
        return st;
    }
    return CT_OK;
}
