/*
 * ct_nona.h - Nona's link and completion-time model (spec nona.md s.5-6),
 * precomputed for fast evaluation.
 *
 * For every job class the DAG is contracted and split at its bottlenecks;
 * every segment (a "block" here) gets its triplets, and every triplet w the
 * quantities the model needs:
 *   a1_w = sum of S_e over edges crossing under w      (seconds per job)
 *   a2_w = sum of S_e^2 over the same edges            (seconds^2 per job)
 *   branches: M_w(phi) = max_i (a_i + n_i phi), where branch i collects its
 *   part's compute time and the S_e of its crossing edges (a_i), and counts
 *   those edges (n_i: each waits phi on the link). S_e = bytes / bandwidth.
 * A probability vector theta over all triplets (a simplex per block) gives
 *   rho = rho_bg + sum_b beta_b sum_w theta_w a1_w        (link load)
 *   phi = (m2_bg + sum_b beta_b sum_w theta_w a2_w) / (2 (1 - rho))   (PK)
 *   tau_j = base_j + sum_{b of j} sum_w theta_w M_w(phi)   (mean JCT of j)
 *   J = sum_j beta_j tau_j.
 * base_j = the root's compute plus every segment sink's compute.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_H
#define CT_NONA_H

#include "ct_scenario.h"
#include "ct_split.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One branch of a triplet: time a + n * phi seconds. */
typedef struct {
    double a;   /**< compute + transfer times on the branch, s */
    double n;   /**< link transfers on the branch (each waits phi) */
} ct_branch_t;

/** A triplet's model data. */
typedef struct {
    double a1, a2;          /**< per job: sum S_e (s), sum S_e^2 (s^2) over crossing edges */
    size_t branch_start;    /**< into model->branches */
    size_t n_branches;
    size_t n_crossing;      /**< crossing edges */
} ct_tripinfo_t;

/** One (class, segment) pair: a simplex of theta. */
typedef struct {
    size_t cls;             /**< class index */
    size_t segment;         /**< segment index in the class's split */
    size_t var_start;       /**< its first variable in theta */
    size_t n_vars;          /**< its triplet count */
    size_t local_var;       /**< the all-local triplet (one part, k = l = 0) */
    ct_partitions_t parts;  /**< its triplets */
} ct_block_t;

/** Per class: the contracted, split DAG. */
typedef struct {
    ct_split_t split;
    double base;            /**< root + sinks compute time, s */
    size_t block_start, n_blocks;
} ct_model_class_t;

/** The model of a scenario. Owns everything in it. */
typedef struct {
    size_t n_classes;
    double *beta;           /**< arrival rates, jobs/s */
    char **class_names;
    double rho_bg, m2_bg, bandwidth, speed;
    size_t servers;
    ct_model_class_t *classes;
    size_t n_blocks;
    ct_block_t *blocks;
    size_t n_vars;
    ct_tripinfo_t *trip;
    ct_branch_t *branches;
    size_t n_branches;
} ct_nona_model_t;

/** Model-building options; fill with ct_nona_model_params_init(). */
typedef struct {
    ct_partition_params_t partition;   /**< enumeration limits */
} ct_nona_model_params_t;

void ct_nona_model_params_init(ct_nona_model_params_t *p);

/**
 * Builds the model of scenario s: contracts and splits every class's DAG,
 * enumerates triplets and precomputes their data. Fails with CT_ELIMIT
 * naming the class and segment if a segment is over the enumeration limit,
 * and with CT_EUNSTABLE if the load cannot be carried even with every job
 * entirely local (background link load >= 1, or compute load >= servers).
 * Time O(sum of triplets x segment size).
 */
ct_status_t ct_nona_model_build(const ct_scenario_t *s, const ct_nona_model_params_t *p, ct_nona_model_t *m,
                                ct_error_t *err);
void ct_nona_model_free(ct_nona_model_t *m);

/** M_w(phi) for triplet w. O(branches of w). */
double ct_nona_triplet_time(const ct_nona_model_t *m, size_t w, double phi);
/** Slope of M_w at phi (number of link waits on its longest branch). */
double ct_nona_triplet_slope(const ct_nona_model_t *m, size_t w, double phi);

/** The model evaluated at one theta. */
typedef struct {
    double J;               /**< sum_j beta_j tau_j, jobs/s x s */
    double mean_jct;        /**< J / sum beta, s */
    double rho;             /**< link load (>= 1: unstable, J = +inf) */
    double phi;             /**< mean link wait, s */
    double m2;              /**< sum lambda S^2 including background, s */
} ct_nona_eval_t;

/**
 * Evaluates theta (n_vars probabilities, one simplex per block). tau (may be
 * NULL) receives each class's predicted mean JCT in seconds. O(n_vars x
 * branches).
 */
void ct_nona_evaluate(const ct_nona_model_t *m, const double *theta, ct_nona_eval_t *out, double *tau);

/** Sets probabilities below threshold to 0 and renormalises each block (a
 *  block left empty falls back to its all-local triplet). */
void ct_nona_theta_clean(const ct_nona_model_t *m, double *theta, double threshold);

/** theta of the opportunistic baseline: per segment, the weakly connected
 *  components of its intermediate tasks (its parallel branches) are the
 *  parts, part 0 with the segment's source and sink. */
void ct_nona_theta_branches(const ct_nona_model_t *m, double *theta);

/** theta with every block on its all-local triplet. */
void ct_nona_theta_local(const ct_nona_model_t *m, double *theta);

/** phi with nothing crossing: m2_bg / (2 (1 - rho_bg)). */
double ct_nona_phi_min(const ct_nona_model_t *m);
/** A phi at or above which no crossing triplet beats its block's all-local
 *  triplet: the largest all-local segment time. */
double ct_nona_phi_max(const ct_nona_model_t *m);

#ifdef __cplusplus
}
#endif
#endif
