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
 * hosted. For each theta_u SJF-BCO tries every kappa in 1..max G_j (jobs
 * with G_j <= kappa go through FA-FFP, larger ones through LBSGF; kappas
 * between two job sizes give the same pass, so one of each is run). FF and
 * LS search theta_u too; RAND uses theta_u = horizon.
 *
 * The search over theta_u. Feasibility is not monotone in theta_u (a
 * tighter limit can succeed where a looser one fails, and the makespan
 * jumps both ways), so the default search (SCAN) brackets: theta_u below
 * L = max(max_j rho_hat_j, GPU-work / GPUs) cannot succeed, and above the
 * largest load W_free of an unconstrained pass every limit gives that
 * pass's schedule; it scans [L, min(T, W_free)] on a grid, then narrows
 * around the best point by halving steps, keeping the best schedule seen.
 * The result no longer depends on T once T >= W_free. BISECT is the
 * paper's Algorithm 1 (over [1, T], move down when the makespan does not
 * get worse).
 *
 * Estimates (CHOICE): rho_hat_j = the best-case execution time (fewest
 * servers, no contention), so u = 1 and l = min_j best_j / worst_j = 1/phi.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_BCO_H
#define CT_BCO_H

#include "ct_rar.h"
#include "ct_sampler.h" /* ct_rng_t */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_BCO_SJF_BCO, CT_BCO_FF, CT_BCO_LS, CT_BCO_RAND } ct_bco_policy_t;
typedef enum { CT_FAFFP_PACK = 0, CT_FAFFP_LEAST_U } ct_faffp_t;
typedef enum { CT_BCO_SEARCH_SCAN = 0, CT_BCO_SEARCH_BISECT } ct_bco_search_t;

/** horizon value meaning "no limit": T = sum_j rho_hat_j, enough for any pass */
#define CT_BCO_HORIZON_AUTO (-1L)

typedef struct {
    ct_bco_policy_t policy;
    long kappa;             /**< SJF-BCO: only this kappa (0: search 1..max G_j) */
    double lambda;          /**< > 0: every job's LBSGF lambda (0: each job's own) */
    ct_faffp_t faffp;       /**< FA-FFP order: pack onto busy, fuller servers (default) or least U */
    ct_bco_search_t search; /**< theta_u search: robust scan (default) or the paper's bisection */
    ct_rar_resim_t resim;   /**< re-simulation rule (default work-conserving) */
    long horizon;           /**< T in slots: 0 = the cluster file's, CT_BCO_HORIZON_AUTO = no limit */
    int reference;          /**< 1: pick GPUs by scanning every GPU (the O(N) reference the
                                 indexed selection is tested and benchmarked against) */
    uint64_t seed;          /**< RAND */
} ct_bco_params_t;

void ct_bco_params_init(ct_bco_params_t *p);
ct_status_t ct_bco_policy_parse(const char *name, ct_bco_policy_t *out);
const char *ct_bco_policy_name(ct_bco_policy_t p);
ct_status_t ct_bco_search_parse(const char *name, ct_bco_search_t *out);
const char *ct_bco_search_name(ct_bco_search_t s);

typedef struct {
    ct_rar_schedule_t sched;/**< the plan: GPUs, planned start, estimated completion */
    double makespan_est;    /**< the algorithm's estimate, slots */
    double makespan;        /**< re-simulated with dynamic contention, slots */
    double mean_jct;        /**< re-simulated, all jobs submitted at slot 0 */
    double *start;          /**< re-simulated start per job */
    double *finish;         /**< re-simulated completion per job */
    long horizon;           /**< T used */
    long theta_lo, theta_hi;/**< the searched range of theta_u (scan) */
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
 * cluster has; CT_ELIMIT if no theta_u up to the horizon gives a schedule
 * (the message names the smallest limit that could).
 * Time: O(P |J| (S + N_s + G log S)) for P placement passes (SJF-BCO: one
 * per distinct job size per theta_u tried, about 40 theta_u), S servers,
 * N_s GPUs per server, G = max G_j.
 */
ct_status_t ct_bco_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                            ct_bco_result_t *out, ct_error_t *err);

/** Writes a schedule ("contend-schedule/2", see docs/formats.md) atomically: per job
 *  its GPUs, the re-simulated start and completion, and the plan beside
 *  them (planned start, estimated completion). */
ct_status_t ct_bco_write_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                                  const ct_bco_result_t *r, const char *path, ct_error_t *err);

/* ------------------------------------------------------------------------ */
/* Bounds.                                                                   */

typedef struct {
    size_t ilp_max_binaries;   /**< solve Problem (14) exactly up to this many 0/1 variables (default 400) */
    double ilp_seconds;        /**< time limit per ILP (default 10 s; 0: none) */
    size_t exhaustive_max;     /**< exhaustive T* up to this many placement x order combinations (default 200000) */
} ct_bco_validate_params_t;

void ct_bco_validate_params_init(ct_bco_validate_params_t *p);

/** A claim's verdict on one instance. UNDECIDED: the numbers known (bounds
 *  on theta_u* or T* not closed within the limits) do not settle it. */
typedef enum { CT_CLAIM_HOLDS = 0, CT_CLAIM_VIOLATED, CT_CLAIM_UNDECIDED } ct_claim_t;
const char *ct_claim_name(ct_claim_t c);

/** Problem (14)'s optimum as far as it is known. */
typedef enum { CT_THETA_EXACT = 0, CT_THETA_TIME_LIMIT, CT_THETA_TOO_LARGE } ct_theta_status_t;

typedef struct {
    double n_g, phi, u_over_l, W_max;
    double W_slots;             /**< W_max with each job's rho_hat rounded up to whole slots: a job
                                     occupies its GPUs until the end of the slot it completes in */
    long theta_tilde;
    double makespan, makespan_est;
    ct_claim_t lemma3;          /**< re-simulated makespan <= n_g W_slots */
    ct_claim_t lemma3_est;      /**< the algorithm's estimate <= n_g W_max */
    ct_theta_status_t theta_status;
    double theta_lo, theta_hi;  /**< theta_u* in [theta_lo, theta_hi] (equal when exact; hi = INFINITY
                                     without an incumbent) */
    ct_claim_t lemma4;          /**< theta_tilde <= phi (u/l) theta_u* (+1 slot for the integer search) */
    double T_lo, T_hi;          /**< T* in [T_lo, T_hi]: T_lo = max(theta_lo, max best rho_j, GPU-work / GPUs),
                                     T_hi = the best makespan of known schedules */
    int have_T_exact;           /**< exhaustive search ran: T_lo = T_hi = T* (the optimum over placements
                                     and per-GPU start orders, jobs starting when their GPUs are free) */
    double ratio_lo, ratio_hi;  /**< makespan / T* lies in [makespan / T_hi, makespan / T_lo] */
    ct_claim_t theorem5;        /**< makespan <= n_g phi (u/l) T* */
} ct_bco_bounds_t;

/** Computes the bound quantities for a schedule r of (c, jobs). */
ct_status_t ct_bco_validate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_result_t *r,
                            const ct_bco_validate_params_t *p, ct_bco_bounds_t *b, ct_error_t *err);

/** Random instance families for checking the claims. TINY: 2 servers x 2
 *  GPUs, 3 jobs of 1-2 GPUs (the first family: it cannot produce a tight
 *  case). IDENTICAL: one server of 2-3 GPUs, 2m+1 .. 2m+3 single-GPU jobs of
 *  20-50 slots and no communication (P||Cmax, where n_g = phi = 1 makes the
 *  bound claim optimality). HETERO: 2-3 servers of 1-2 GPUs, 2-3 jobs of
 *  1-2 GPUs with heavy communication over a slow inter-server link. */
typedef enum { CT_BCO_FAMILY_TINY = 0, CT_BCO_FAMILY_IDENTICAL, CT_BCO_FAMILY_HETERO, CT_BCO_FAMILY_ALL } ct_bco_family_t;

ct_status_t ct_bco_family_parse(const char *name, ct_bco_family_t *out);
const char *ct_bco_family_name(ct_bco_family_t f);

/** Draws an instance of family f (not ALL) into c and j (overwritten; free
 *  them after). The draw advances rng. */
ct_status_t ct_bco_random_instance(ct_rng_t *rng, ct_bco_family_t f, ct_rar_cluster_t *c, ct_rar_jobs_t *j,
                                   ct_error_t *err);

/** The claims checked over random instances (`bco validate --random`),
 *  GSL-style: init, then one iterate per instance. Claim k: 0 Lemma 3, 1
 *  Lemma 4, 2 Theorem 5; verdicts as ct_claim_t (holds, violated, undecided). */
typedef struct {
    size_t instances;               /**< instances to draw (default 50; the caller iterates that many) */
    unsigned long long seed;        /**< the draw's seed (default 1) */
    ct_bco_family_t family;         /**< one family, or CT_BCO_FAMILY_ALL: round robin (default) */
    ct_bco_params_t schedule;       /**< how each instance is scheduled */
    ct_bco_validate_params_t validate;
} ct_bco_claims_params_t;

void ct_bco_claims_params_init(ct_bco_claims_params_t *p);

/** A claim's smallest counterexample so far: fewest jobs, then GPUs, then
 *  the largest excess over the bound; the draw's state, to redraw it. */
typedef struct {
    int have;
    size_t index, jobs;
    uint32_t gpus;
    double excess;
    ct_rng_t rng;
    ct_bco_family_t family;
    ct_bco_bounds_t b;
} ct_bco_counterexample_t;

/** The check's state and tallies (caller-owned, no heap). */
typedef struct {
    ct_bco_claims_params_t p;
    ct_rng_t rng;
    size_t done;                    /**< instances checked */
    size_t count[3];                /**< per family */
    size_t tally[3][3];             /**< claim x verdict */
    double worst;                   /**< the largest makespan / T* lower end */
    double worst_exact;             /**< the same where T* is known exactly */
    ct_bco_counterexample_t ce[3];  /**< per claim */
} ct_bco_claims_t;

void ct_bco_claims_init(ct_bco_claims_t *s, const ct_bco_claims_params_t *p);

/**
 * Draws instance s->done, schedules it and checks the claims, updating the
 * tallies and counterexamples. The instance and its bounds come back in c,
 * j (free them after, also on error: they are then empty), *family and *b.
 * Time: one schedule and one validation.
 */
ct_status_t ct_bco_claims_iterate(ct_bco_claims_t *s, ct_rar_cluster_t *c, ct_rar_jobs_t *j, ct_bco_family_t *family,
                                  ct_bco_bounds_t *b, ct_error_t *err);

/** Redraws claim k's smallest counterexample into c and j (free them after). */
ct_status_t ct_bco_claims_counterexample(const ct_bco_claims_t *s, int k, ct_rar_cluster_t *c, ct_rar_jobs_t *j,
                                         ct_error_t *err);

/** Problem (14) by GLPK: place every job on G_j distinct GPUs to minimise
 *  the largest per-GPU sum of rho_hat / u. Within `seconds` (0: no limit)
 *  *status is EXACT and lo = hi; else TIME_LIMIT with lo the relaxation's
 *  bound and hi the incumbent (INFINITY if none). place (may be NULL;
 *  n x G_j GPU ids, as a schedule's gpus) receives the best placement found
 *  (left unchanged without an incumbent). */
ct_status_t ct_bco_theta_star(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const double *rho_hat,
                              double seconds, ct_theta_status_t *status, double *lo, double *hi, uint32_t **place,
                              ct_error_t *err);

/** Exhaustive optimum makespan under the model: every GPU set per job and
 *  every start order, re-simulated work-conserving (a job starts when its
 *  GPUs are free, in that order per GPU). CT_ELIMIT past max_combos. */
ct_status_t ct_bco_exhaustive(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, size_t max_combos, double *T,
                              ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
