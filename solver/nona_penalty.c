/*
 * nona_penalty.c - the paper's way of solving Nona's problem, kept as a
 * baseline: theta = softmax(x) per block, minimise
 *   F(x) = J(theta) + P max(0, rho - rho_cap)^2
 * with GSL's BFGS (analytic gradient) from several starts. J uses the PK wait
 * with rho clipped at rho_cap so F stays finite and smooth past saturation.
 *
 * Gradient: dJ/dtheta_w = beta_w M_w(phi) + D dphi/dtheta_w, where
 * D = sum_v beta_v theta_v M'_v(phi) and
 * dphi/dtheta_w = beta_w (a2_w / (2(1-rho)) + m2 a1_w / (2(1-rho)^2));
 * through the softmax, dF/dx_w = theta_w (g_w - sum_{v in block} theta_v g_v).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "nona_internal.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RHO_CAP (1.0 - 1e-6)

typedef struct {
    const ct_nona_model_t *m;
    double *theta, *g;
    double penalty;
    size_t evals;
} pen_t;

static void softmax(const ct_nona_model_t *m, const gsl_vector *x, double *theta)
{
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double mx = -INFINITY, sum = 0;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            if (gsl_vector_get(x, w) > mx)
                mx = gsl_vector_get(x, w);
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            theta[w] = exp(gsl_vector_get(x, w) - mx);
            sum += theta[w];
        }
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            theta[w] /= sum;
    }
}

/* F at x; grad (may be NULL) receives dF/dx. */
static double pen_eval(pen_t *s, const gsl_vector *x, gsl_vector *grad)
{
    const ct_nona_model_t *m = s->m;
    double *theta = s->theta, *g = s->g;
    s->evals++;
    softmax(m, x, theta);
    double rho = m->rho_bg, m2 = m->m2_bg, m2s = m->m2s_local;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls];
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            rho += beta * theta[w] * m->trip[w].a1;
            m2 += beta * theta[w] * m->trip[w].a2;
            m2s += beta * theta[w] * m->trip[w].q / (double)m->servers;
        }
    }
    double r = rho < RHO_CAP ? rho : RHO_CAP, over = rho - RHO_CAP;
    double phi = m2 / (2.0 * (1.0 - r)), F = 0, D = 0, W = ct_nona_server_wait(m, m2s), DW = 0;
    double dW_dm2s = m->server_model ? 1.0 / (2.0 * (1.0 - m->rho_s) * (double)m->servers) : 0.0;
    for (size_t j = 0; j < m->n_classes; j++) {
        F += m->beta[j] * (m->classes[j].base + ct_nona_class_root_wait(m, j, W));
        DW += m->server_model ? m->beta[j] * ct_nona_class_root_wait(m, j, 1.0) : 0.0;
    }
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls];
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            double Mw = ct_nona_triplet_time(m, w, phi, W), dp, dw;
            F += beta * theta[w] * Mw;
            if (grad) {
                ct_nona_triplet_grad(m, w, phi, W, &dp, &dw);
                D += beta * theta[w] * dp;
                DW += beta * theta[w] * dw;
            }
            g[w] = beta * Mw;
        }
    }
    if (over > 0)
        F += s->penalty * over * over;
    if (!grad)
        return F;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls], mean = 0;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            double dphi = beta * m->trip[w].a2 / (2.0 * (1.0 - r));
            if (over <= 0)
                dphi += beta * m2 * m->trip[w].a1 / (2.0 * (1.0 - r) * (1.0 - r));
            g[w] += D * dphi + DW * beta * m->trip[w].q * dW_dm2s;
            if (over > 0)
                g[w] += 2.0 * s->penalty * over * beta * m->trip[w].a1;
            mean += theta[w] * g[w];
        }
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            gsl_vector_set(grad, w, theta[w] * (g[w] - mean));
    }
    return F;
}

static double f_cb(const gsl_vector *x, void *ctx)
{
    return pen_eval(ctx, x, NULL);
}

static void df_cb(const gsl_vector *x, void *ctx, gsl_vector *grad)
{
    pen_eval(ctx, x, grad);
}

static void fdf_cb(const gsl_vector *x, void *ctx, double *f, gsl_vector *grad)
{
    *f = pen_eval(ctx, x, grad);
}

static double uniform01(unsigned long long *state)
{
    /* splitmix64 */
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

ct_status_t ct_nona_solve_penalty(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                                  ct_error_t *err)
{
    size_t n = m->n_vars;
    ct_nona_eval_t e;
    double *best = malloc((n ? n : 1) * sizeof(double));
    pen_t s = { m, malloc((n ? n : 1) * sizeof(double)), malloc((n ? n : 1) * sizeof(double)), 0, 0 };
    ct_status_t st = CT_OK;
    if (!best || !s.theta || !s.g) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    ct_nona_theta_local(m, best);
    ct_nona_evaluate(m, best, &e, NULL);
    double best_J = sol->J_local = e.J;
    sol->phi_lo = ct_nona_phi_min(m);
    sol->phi_hi = ct_nona_phi_max(m);
    if (n == m->n_blocks)
        goto done;
    s.penalty = 1e6 * (best_J > 0 ? best_J : 1.0);
    gsl_vector *x = gsl_vector_alloc(n);
    gsl_multimin_fdfminimizer *mz = gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, n);
    if (!x || !mz) {
        if (x)
            gsl_vector_free(x);
        if (mz)
            gsl_multimin_fdfminimizer_free(mz);
        st = ct_error_set(err, CT_ENOMEM, "out of memory (GSL minimiser)");
        goto done;
    }
    gsl_multimin_function_fdf F = { f_cb, df_cb, fdf_cb, n, &s };
    unsigned long long rng = p->seed;
    size_t starts = p->starts ? p->starts : 1;
    for (size_t k = 0; k < starts; k++) {
        for (size_t w = 0; w < n; w++) {
            double v = 0.0;                  /* start 0: uniform */
            if (k == 1)                      /* start 1: all-local */
                v = 0.0;
            else if (k >= 2)                 /* others: random */
                v = 6.0 * uniform01(&rng) - 3.0;
            gsl_vector_set(x, w, v);
        }
        if (k == 1)
            for (size_t b = 0; b < m->n_blocks; b++)
                gsl_vector_set(x, m->blocks[b].local_var, 8.0);
        if (gsl_multimin_fdfminimizer_set(mz, &F, x, 0.1, 0.1) != GSL_SUCCESS)
            continue;
        for (size_t it = 0; it < p->max_iter; it++) {
            int gs = gsl_multimin_fdfminimizer_iterate(mz);
            if (gs != GSL_SUCCESS) /* GSL_ENOPROG: no further progress from here */
                break;
            if (gsl_multimin_test_gradient(gsl_multimin_fdfminimizer_gradient(mz), 1e-12) == GSL_SUCCESS)
                break;
        }
        softmax(m, gsl_multimin_fdfminimizer_x(mz), s.theta);
        ct_nona_evaluate(m, s.theta, &e, NULL);
        if (e.J < best_J) {
            best_J = e.J;
            memcpy(best, s.theta, n * sizeof(double));
        }
    }
    gsl_vector_free(x);
    gsl_multimin_fdfminimizer_free(mz);
done:
    if (st == CT_OK) {
        memcpy(sol->theta, best, n * sizeof(double));
        sol->lp_solves = s.evals;
    }
    free(best);
    free(s.theta);
    free(s.g);
    return st;
}
