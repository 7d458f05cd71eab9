/*
 * ct_bco.h - SJF-BCO and its baselines FF, LS, RAND for ring-all-reduce
 * training jobs (spec sjf-bco.md s.2-6), and validation of the paper's
 * approximation bounds (s.7).
 *
 * Every policy places jobs in order (SJF: by GPUs, ties by estimated
 * execution time) at a clock that only moves forward: a job waits for the
 * next completion when too few eligible GPUs are free. GPU g is eligible
 * for job j under the limit theta_u when it is free and
 * U_g + rho_hat_j / u <= theta_u, where U_g sums rho_hat / u of the jobs it
 * hosted. SJF-BCO bisects theta_u over [1, horizon] and, for each, tries
 * every kappa in 1..max G_j: jobs with G_j <= kappa go through FA-FFP,
 * larger ones through LBSGF; FF and LS have their own theta_u search; RAND
 * uses theta_u = horizon.
 *
 * Estimates (CHOICE): rho_hat_j = the best-case execution time (fewest
 * servers, no contention), so u = 1 and l = min_j best_j / worst_j = 1/phi.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_BCO_H
#define CT_BCO_H

#include "ct_rar.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_BCO_SJF_BCO, CT_BCO_FF, CT_BCO_LS, CT_BCO_RAND } ct_bco_policy_t;
typedef enum { CT_FAFFP_PACK = 0, CT_FAFFP_LEAST_U } ct_faffp_t;

typedef struct {
    ct_bco_policy_t policy;
    long kappa;             /**< SJF-BCO: only this kappa (0: search 1..max G_j) */
    double lambda;          /**< > 0: every job's LBSGF lambda (0: each job's own) */
    ct_faffp_t faffp;       /**< FA-FFP order: pack onto busy, fuller servers (default) or least U */
    uint64_t seed;          /**< RAND */
} ct_bco_params_t;

void ct_bco_params_init(ct_bco_params_t *p);
ct_bco_policy_t ct_bco_policy_parse(const char *name, int *ok);
const char *ct_bco_policy_name(ct_bco_policy_t p);

typedef struct {
    ct_rar_schedule_t sched;
    double makespan_est;    /**< the algorithm's estimate, slots */
    double makespan;        /**< re-simulated with dynamic contention, slots */
    double mean_jct;        /**< re-simulated, all jobs submitted at slot 0 */
    double *finish;         /**< re-simulated completion per job */
    long theta_u;           /**< the tightest theta_u that produced the schedule */
    long kappa;             /**< SJF-BCO's kappa (0 for the baselines) */
    double *U;              /**< per GPU: accumulated rho_hat / u */
    double W_max;           /**< max_g U_g */
    double *rho_hat;        /**< per job */
    size_t runs;            /**< placement passes tried */
    double seconds;
} ct_bco_result_t;

void ct_bco_result_free(ct_bco_result_t *r);

/**
 * Schedules jobs on the cluster. CT_EINPUT if a job needs more GPUs than the
 * cluster has; CT_ELIMIT if no theta_u up to the horizon gives a schedule.
 * Time O(max G |J|^2 log T) for SJF-BCO.
 */
ct_status_t ct_bco_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                            ct_bco_result_t *out, ct_error_t *err);

/** Writes a schedule ("contend-schedule/1", see README) atomically. */
ct_status_t ct_bco_write_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                                  const ct_bco_result_t *r, const char *path, ct_error_t *err);

/* ------------------------------------------------------------------------ */
/* Bounds.                                                                   */

typedef struct {
    size_t ilp_max_binaries;   /**< solve Problem (14) exactly up to this many 0/1 variables (default 400) */
    size_t exhaustive_max;     /**< exhaustive T* up to this many placement x order combinations (default 200000) */
} ct_bco_validate_params_t;

void ct_bco_validate_params_init(ct_bco_validate_params_t *p);

typedef struct {
    double n_g, phi, u_over_l, W_max;
    long theta_tilde;
    double makespan, makespan_est;
    int lemma3;                 /**< makespan estimate <= n_g W_max */
    int have_theta_star;
    double theta_star;          /**< Problem (14) optimum (GLPK ILP) */
    int lemma4;                 /**< theta_tilde <= phi (u/l) theta_star */
    double T_lower;             /**< max(theta*, max best rho_j, GPU-work / GPUs) */
    int have_T_exact;
    double T_exact;             /**< exhaustive optimum under the model */
    double T_star;              /**< T_exact if known, else T_lower */
    double bound;               /**< n_g phi (u/l) T_star */
    int theorem5;               /**< makespan <= bound */
} ct_bco_bounds_t;

/** Computes the bound quantities for a schedule r of (c, jobs). */
ct_status_t ct_bco_validate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_result_t *r,
                            const ct_bco_validate_params_t *p, ct_bco_bounds_t *b, ct_error_t *err);

/** Problem (14) by GLPK: place every job on G_j distinct GPUs to minimise
 *  the largest per-GPU sum of rho_hat / u. */
ct_status_t ct_bco_theta_star(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const double *rho_hat,
                              double *theta, ct_error_t *err);

/** Exhaustive optimum makespan under the model: every GPU set per job (one
 *  per server-count pattern, by GPU symmetry) and every start order,
 *  re-simulated. CT_ELIMIT past max_combos. */
ct_status_t ct_bco_exhaustive(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, size_t max_combos, double *T,
                              ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
