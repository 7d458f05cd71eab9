/*
 * ct_nona_solve.h - solvers for Nona's placement problem: choose theta (a
 * distribution over triplets per class and segment) minimising
 * J(theta) = sum_j beta_j tau_j (see ct_nona.h).
 *
 * exact (spec s.7): for fixed phi the problem is an LP (GLPK) whose value
 *   V(phi) >= J* with equality at phi* = phi(theta*); J* = min_phi V(phi).
 *   The search brackets phi in [phi_lo, phi_hi] (nothing crosses; no crossing
 *   triplet can beat local), scans a grid, refines the best cell with GSL's
 *   Brent minimiser, then polishes: phi <- phi(theta), re-solve, while the
 *   true J(theta) drops (each step can only lower it).
 * penalty (the paper's approach, as a baseline): theta = softmax(x) per
 *   block, J plus a quadratic penalty on rho >= 1, minimised by GSL's BFGS
 *   from several starts (uniform, all-local, random).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_SOLVE_H
#define CT_NONA_SOLVE_H

#include "ct_nona.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_NONA_EXACT, CT_NONA_PENALTY } ct_nona_method_t;

/** Solver options; fill with ct_nona_solve_params_init(). */
typedef struct {
    ct_nona_method_t method;
    size_t grid;            /**< exact: phi grid points (default 48) */
    size_t max_polish;      /**< exact: polishing rounds (default 50) */
    size_t starts;          /**< penalty: BFGS starts (default 6) */
    size_t max_iter;        /**< penalty: BFGS iterations per start (default 400) */
    unsigned long long seed;/**< penalty: random starts (default 1) */
    double prune;           /**< drop probabilities below this from the result (default 1e-9) */
} ct_nona_solve_params_t;

void ct_nona_solve_params_init(ct_nona_solve_params_t *p);

/** A solution. theta and tau are owned (free with ct_nona_solution_free). */
typedef struct {
    ct_nona_method_t method;
    double *theta;          /**< model->n_vars probabilities */
    double *tau;            /**< per class predicted mean JCT, s */
    ct_nona_eval_t eval;    /**< J, mean JCT, rho, phi at theta */
    double phi_lo, phi_hi;  /**< exact: the bracket searched */
    double J_local;         /**< J with every job entirely local */
    size_t lp_solves;       /**< exact: LPs solved; penalty: function evaluations */
    double seconds;         /**< wall time of the solve */
} ct_nona_solution_t;

void ct_nona_solution_free(ct_nona_solution_t *s);

/** Solves with p->method. Fails with CT_ESOLVER if GLPK or GSL fail. */
ct_status_t ct_nona_solve(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                          ct_error_t *err);

/** The exact method's inner LP: V(phi) and its minimiser. *value is
 *  +INFINITY when phi is below what any theta can reach. Exposed for tests. */
ct_status_t ct_nona_lp_value(const ct_nona_model_t *m, double phi, double *value, double *theta, ct_error_t *err);

const char *ct_nona_method_name(ct_nona_method_t m);

#ifdef __cplusplus
}
#endif
#endif
