/*
 * ct_rar.h - ring-all-reduce training jobs on a multi-server GPU cluster:
 * the per-iteration time model with contention and overhead (spec
 * sjf-bco.md s.1), cluster and job files, the paper's workload generator,
 * and slot-by-slot re-simulation of a schedule.
 *
 * Units: time in slots; bandwidths and the reduction speed C in gradient
 * units per slot (the unit of gradient_size, e.g. MB); forward time per
 * sample and backward time per iteration in slots.
 *
 * Per-iteration time of job j (paper eq. 8), w = G_j workers:
 *   tau = 2 (w-1) m / (w B) + (w-1) m / (w C) + gamma + df M + db
 *   B = b_intra on one server; else b_inter / f(alpha, k),
 *   f(alpha, k) = k + alpha (k - 1)                           (CHOICE)
 *   k = 1 + xi1 (p - 1)                                       (CHOICE, default)
 *     or max(1, xi1 p)                                        ("literal")
 *   p = max over j's servers of the spread jobs active there (j included)
 *   gamma = xi2 x (number of servers j uses)
 * A job advances 1 / tau iterations per slot (real-valued: CHOICE) and
 * completes in the slot where its progress reaches F_j.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_RAR_H
#define CT_RAR_H

#include "ct_base.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_CONTENTION_LINEAR = 0, CT_CONTENTION_LITERAL } ct_contention_t;

/** A cluster. Invariants (ct_rar_cluster_validate): >= 1 server, every
 *  server >= 1 GPU, at most CT_MAX_GPUS in all; bandwidths, C > 0;
 *  xi1 in (0, 1]; xi2, alpha >= 0; horizon >= 1 slot. */
typedef struct {
    size_t n_servers;
    uint32_t *gpus;         /**< GPUs per server */
    uint32_t *first_gpu;    /**< global id of each server's first GPU */
    uint32_t n_gpus;
    double b_intra, b_inter;/**< gradient units per slot */
    double reduction;       /**< C, gradient units per slot */
    double xi1, xi2, alpha;
    long horizon;           /**< T, slots */
    ct_contention_t contention;
} ct_rar_cluster_t;

/** A job. Invariants: id unique and non-empty; gpus >= 1; iterations,
 *  gradient_size, batch > 0; forward/backward times >= 0; lambda >= 1. */
typedef struct {
    char *id;
    uint32_t gpus;          /**< G_j */
    double iterations;      /**< F_j */
    double grad;            /**< m_j, gradient units */
    double batch;           /**< M_j, samples */
    double fwd;             /**< df_j, slots per sample */
    double bwd;             /**< db_j, slots per iteration */
    double lambda;          /**< LBSGF server admission factor (default 1) */
} ct_rar_job_t;

typedef struct {
    size_t n;
    ct_rar_job_t *jobs;
} ct_rar_jobs_t;

void ct_rar_cluster_free(ct_rar_cluster_t *c);
void ct_rar_jobs_free(ct_rar_jobs_t *j);
ct_status_t ct_rar_cluster_validate(const ct_rar_cluster_t *c, const char *label, ct_error_t *err);
ct_status_t ct_rar_jobs_validate(const ct_rar_jobs_t *j, const char *label, ct_error_t *err);

/** Loads a cluster file (JSON; format in docs/formats.md) and validates it. *c is
 *  overwritten (free what it held first); on error it is left empty. */
ct_status_t ct_rar_cluster_load(ct_rar_cluster_t *c, const char *path, ct_error_t *err);
/** Loads a job file (*j overwritten, as above): JSON ({"jobs": [...]}) or CSV (header
 *  id,gpus,iterations,gradient_size,batch,forward_time,backward_time[,lambda]),
 *  told apart by the first non-blank byte. */
ct_status_t ct_rar_jobs_load(ct_rar_jobs_t *j, const char *path, ct_error_t *err);
ct_status_t ct_rar_cluster_write(const ct_rar_cluster_t *c, const char *path, ct_error_t *err);
ct_status_t ct_rar_jobs_write(const ct_rar_jobs_t *j, const char *path, ct_error_t *err);

/** Fills first_gpu and n_gpus from gpus (call after changing servers).
 *  Returns CT_EINPUT when the GPUs total more than CT_MAX_GPUS. */
ct_status_t ct_rar_cluster_index(ct_rar_cluster_t *c, ct_error_t *err);

/** Per-iteration time (slots) of job j using `servers` servers with
 *  contention count p (ignored on one server). */
double ct_rar_tau(const ct_rar_cluster_t *c, const ct_rar_job_t *j, size_t servers, double p);

/** Contention factor k for a contention count p under the cluster's law
 *  (1 when p <= 1). */
double ct_rar_contention_k(const ct_rar_cluster_t *c, double p);

/** Best-case and worst-case execution times of job j (slots): best on the
 *  fewest servers that can hold it with no contention, worst spread over
 *  G_j servers (or all servers) with the contention count p = the largest
 *  server's GPU count, through the cluster's contention law (xi1). */
void ct_rar_exec_bounds(const ct_rar_cluster_t *c, const ct_rar_job_t *j, double *best, double *worst);

/** The job mix of the Microsoft trace the SJF-BCO and Ada-SRSF papers use
 *  (80x1, 14x2, 26x4, 30x8, 8x16, 2x32 GPUs of 160) scaled to n jobs:
 *  gpus[0..n) in ascending size (shares rounded down, the remainder to the
 *  largest fractions, ties: smaller jobs). */
void ct_job_mix(size_t n, uint32_t *gpus);

/** How the generator sets a job's communication (gradient size).
 *  PAPER: contention and overhead stay within 15% of the actual execution
 *  time even at the worst placement (worst / best = 1 / 0.85, phi ~ 1.18),
 *  the paper's text. BEST: 15% of a best-placement iteration is overhead
 *  plus all-reduce, so spreading can multiply the time (phi ~ 57); the
 *  toolkit's first reading, kept for comparison. */
typedef enum { CT_CALIBRATION_PAPER = 0, CT_CALIBRATION_BEST } ct_rar_calibration_t;

typedef struct {
    size_t n_servers;       /**< servers (default 20) */
    size_t n_jobs;          /**< jobs, the paper's GPU mix scaled (default 160) */
    ct_rar_calibration_t calibration;
} ct_rar_workload_params_t;

void ct_rar_workload_params_init(ct_rar_workload_params_t *p);
ct_status_t ct_rar_calibration_parse(const char *name, ct_rar_calibration_t *out);
const char *ct_rar_calibration_name(ct_rar_calibration_t c);

/** The paper's workload for a seed: 160 jobs (80x1, 14x2, 26x4, 30x8,
 *  8x16, 2x32 GPUs; other counts keep these shares), iterations uniform in
 *  [1000, 6000], best-case execution time uniform in [50, 300] slots; 20
 *  servers with GPU counts drawn from {4, 8, 16, 32}. p may be NULL
 *  (defaults). */
ct_status_t ct_rar_workload(uint64_t seed, const ct_rar_workload_params_t *p, ct_rar_cluster_t *c, ct_rar_jobs_t *j,
                            ct_error_t *err);

/* ------------------------------------------------------------------------ */
/* Schedules and their re-simulation.                                        */

/** A schedule: per job (same order as the job list) its GPUs (global ids)
 *  and planned start; the algorithm's estimated completion. */
typedef struct {
    size_t n;
    uint32_t **gpus;        /**< n arrays of G_j global GPU ids */
    double *start;          /**< planned start, slots */
    double *finish_est;     /**< the algorithm's estimate, slots */
} ct_rar_schedule_t;

ct_status_t ct_rar_schedule_alloc(ct_rar_schedule_t *s, const ct_rar_jobs_t *jobs, ct_error_t *err);
void ct_rar_schedule_free(ct_rar_schedule_t *s);

/** Server of a global GPU id. */
size_t ct_rar_server_of(const ct_rar_cluster_t *c, uint32_t gpu);

/** When a re-simulated job may start.
 *  WORK_CONSERVING (spec): in planned order per GPU, as soon as all its GPUs
 *  are free. PLANNED: also not before its planned start slot, nor before
 *  every job planned earlier has started (the toolkit's first rule). */
typedef enum { CT_RESIM_WORK_CONSERVING = 0, CT_RESIM_PLANNED } ct_rar_resim_t;

ct_status_t ct_rar_resim_parse(const char *name, ct_rar_resim_t *out);
const char *ct_rar_resim_name(ct_rar_resim_t r);

/**
 * Re-simulates a schedule with dynamic contention. "Planned order" is by
 * planned start, ties by job order. Each slot every running job advances
 * 1/tau with the contention of that slot, and completes in the slot where
 * its progress reaches F_j. The simulation jumps from event to event (a
 * start or a completion), so its cost does not grow with the makespan.
 * start (may be NULL) and finish receive each job's start and completion
 * slot.
 * Time O(E (R + G)) for E = 2 |J| events, R running jobs, G = max G_j.
 */
ct_status_t ct_rar_resimulate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_rar_schedule_t *s,
                              ct_rar_resim_t mode, double *start, double *finish, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
