/*
 * ct_share.h - GPU sharing with batch-size scaling (spec sjf-bsbf.md):
 * per-application time models fitted from measured step times, gradient
 * accumulation, interference, Theorem 1 and Algorithm 2, and a job-level
 * event simulator of a training cluster running SJF-BSBF, SJF-FFS, FIFO,
 * SJF or Tiresias.
 *
 * Units: seconds for time (results are reported in ms, as ct_train's, so
 * the same writers and summaries serve both simulators); batch sizes in
 * samples; GPU memory as a fraction of one GPU.
 *
 * Why a job-level engine beside ct_train's iteration-level one: the
 * Pollux workloads run 10^4 - 6 x 10^5 iterations a job, ~10^8 task events
 * for a 480-job trace. The paper's model (eq. 13) is a rate model: a job
 * advances at 1 / t_iter iterations per second (1 / (t_iter xi) while it
 * shares a GPU), so between two events every rate is constant and the
 * simulation can jump from event to event exactly: arrivals, completions,
 * the end of a (re)start delay and Tiresias queue promotions.
 *
 * The per-application model (an "app"):
 *   t_comp(b)  = comp_alpha + comp_beta b       one micro-step on one GPU
 *   t_net(R)   = comm_alpha[k] + comm_beta[k] (R - 2)   R >= 2 GPUs, k = 0
 *                on one server, 1 across servers; 0 on one GPU. (The
 *                spec's alpha' + beta' M has one M per application, so it
 *                is a constant there; the fit keeps the ring's growth in R.)
 *   t_iter(s)  = (s - 1) t_comp(L / s) + (t_comp(L / s)^delta + t_net^delta)^(1/delta)
 *                with L = B / G the per-GPU batch and s accumulation steps.
 *   memory(b)  = mem_static + (1 - mem_static) b / local_max   of one GPU
 *                (local_max is the largest micro-batch measured on one GPU
 *                alone, so a GPU is full at local_max; the traces carry no
 *                memory figures, so mem_static is an assumption, settable).
 *   iterations to finish at total batch B: the measured table (iters_batch,
 *                iters), interpolated in log B.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SHARE_H
#define CT_SHARE_H

#include "ct_base.h"
#include "ct_train.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CT_APP_NAME_MAX 32
#define CT_APP_ITERS_MAX 16

/** One application's time and memory model. Invariants (ct_apps_validate):
 *  comp_alpha >= 0, comp_beta >= 0, not both 0; comm terms >= 0; delta in
 *  [1, 10]; 1 <= local_min <= local_max; 0 <= mem_static < 1; n_iters >= 1
 *  with iters_batch increasing and iters > 0. */
typedef struct {
    char name[CT_APP_NAME_MAX];
    double comp_alpha, comp_beta;   /**< s, s per sample */
    double comm_alpha[2], comm_beta[2]; /**< s, s per GPU beyond 2; [0] one server, [1] several */
    double delta;                   /**< overlap degree of compute and all-reduce */
    double init_batch;              /**< the smallest measured total batch */
    double local_min, local_max;    /**< per-GPU micro-batch limits, samples */
    double mem_static;              /**< memory fraction independent of the micro-batch */
    size_t n_iters;
    double iters_batch[CT_APP_ITERS_MAX], iters[CT_APP_ITERS_MAX];
    /* Fit report (0 when not fitted). */
    size_t fit_rows_comp, fit_rows_step;
    double fit_r2_comp;             /**< R^2 of the compute line */
    double fit_rms_log_step;        /**< RMS of log(predicted / measured step time), multi-GPU rows */
} ct_app_t;

/** A job configuration the generator draws (weight: relative frequency). */
typedef struct {
    uint32_t app, gpus;
    double batch, weight;
} ct_app_config_t;

/** The applications, their interference and the generator's mix. xi[a *
 *  n + b] >= 1 is how much slower an iteration of app a gets while it
 *  shares a GPU with app b. */
typedef struct {
    size_t n;
    ct_app_t *apps;
    double *xi;
    size_t n_configs;
    ct_app_config_t *configs;
    double window;                  /**< arrival window of the generator, s (Pollux: 8 h) */
} ct_apps_t;

void ct_apps_free(ct_apps_t *a);
ct_status_t ct_apps_validate(const ct_apps_t *a, const char *label, ct_error_t *err);
/** Index of an app by name, or -1. */
int ct_apps_find(const ct_apps_t *a, const char *name);
/** Loads / writes the apps JSON (see docs/formats.md). */
ct_status_t ct_apps_load(ct_apps_t *a, const char *path, ct_error_t *err);
ct_status_t ct_apps_write(const ct_apps_t *a, const char *path, ct_error_t *err);

/**
 * Fits every application found under DIR/traces/<app>/ (placements.csv,
 * optional scalability.csv, validation-<B>.csv) by least squares (GSL):
 * the compute line from one-GPU rows (t_comp = step - sync), then for each
 * delta on a grid of 0.05 in [1, 10] the all-reduce lines (one server,
 * several) from the step times the overlap formula inverts to, keeping the
 * delta with the least RMS log error of the step time. Iterations to finish
 * come from the last row of each validation file; the generator's mix from
 * DIR/workloads/workload-*.csv when present. xi is set to 1 (see
 * ct_apps_set_xi). O(rows x 181).
 */
ct_status_t ct_apps_fit_dir(const char *dir, double mem_static, ct_apps_t *out, ct_error_t *err);

/** Sets every xi: uniform in [lo, hi] per ordered pair of apps (seeded;
 *  lo == hi: constant). */
ct_status_t ct_apps_set_xi(ct_apps_t *a, double lo, double hi, uint64_t seed, ct_error_t *err);

/** t_comp of one micro-step of b samples, s. */
double ct_app_comp(const ct_app_t *app, double b);
/** t_net of an all-reduce over gpus GPUs on servers servers, s. */
double ct_app_comm(const ct_app_t *app, uint32_t gpus, uint32_t servers);
/** Iteration time with s accumulation steps of the per-GPU batch local. */
double ct_app_iter(const ct_app_t *app, double local, uint32_t s, uint32_t gpus, uint32_t servers);
/** Memory of one GPU used by a micro-batch of b samples (fraction). */
double ct_app_mem(const ct_app_t *app, double b);
/** Iterations to finish at total batch B. */
double ct_app_iterations(const ct_app_t *app, double batch);
/** The fewest accumulation steps that fit local on one GPU alone. */
uint32_t ct_app_min_steps(const ct_app_t *app, double local);

/* ------------------------------------------------------------------------ */
/* Theorem 1 and Algorithm 2.                                                */

/**
 * A pair on the same GPUs, from now: the running job B has i_b iterations
 * left at t_b s each; the new job A has i_a at t_a (and t_a_alone if it
 * waits for B, which may use a larger micro-batch). Sharing slows A by xi_a
 * and B by xi_b until the first ends. Returns the mean of the two
 * completion times (from now) when A starts at kappa (kappa >= 0; A starts
 * at B's end when kappa >= B's finish time, then at t_a_alone).
 */
double ct_share_pair_mean(double t_a, double t_a_alone, double i_a, double xi_a, double t_b, double i_b, double xi_b,
                          double kappa);

/** Theorem 1: start A now (1) or after B (0); *mean receives that mean. */
int ct_share_theorem1(double t_a, double t_a_alone, double i_a, double xi_a, double t_b, double i_b, double xi_b,
                      double *mean);

/** Algorithm 2's answer for a running job and a new one. */
typedef struct {
    int share;          /**< 1: start now on the running job's GPUs */
    uint32_t steps;     /**< accumulation steps (micro-batch = local / steps) */
    double mean;        /**< the pair's mean completion time from now, s */
} ct_share_choice_t;

/**
 * Algorithm 2: for s = s_min, 2 s_min, 4 s_min, ... while the micro-batch
 * local / s is at least 1, skipping micro-batches whose memory does not fit
 * beside mem_used, Theorem 1 with t_a = t_iter(s); keeps the lowest mean.
 * The waiting option uses the job's alone configuration (s_min).
 * O(log local).
 */
ct_share_choice_t ct_share_best(const ct_app_t *app, double local, uint32_t gpus, uint32_t servers, double i_a,
                                double xi_a, double t_b, double i_b, double xi_b, double mem_used);

#define CT_SHARE_MAX_OPTIONS 40
/** The options Algorithm 2 scans for a job: t[k] and mem[k] of s = s0 2^k
 *  accumulation steps, k < *n (while the micro-batch is >= 1). Returns s0.
 *  t[0] is the alone configuration. */
uint32_t ct_share_options(const ct_app_t *app, double local, uint32_t gpus, uint32_t servers, double *t, double *mem,
                          size_t *n);
/** Algorithm 2 over precomputed options (what ct_share_best does after
 *  ct_share_options; a simulator computes the options once per job). */
ct_share_choice_t ct_share_best_of(const double *t, const double *mem, size_t n, uint32_t s0, double i_a, double xi_a,
                                   double t_b, double i_b, double xi_b, double mem_used);

/* ------------------------------------------------------------------------ */
/* Jobs and workloads.                                                       */

/** A job. Invariants: id non-empty, unique; app < apps->n; gpus >= 1;
 *  batch >= 1; iterations > 0; arrival >= 0 (s). */
typedef struct {
    char *id;
    uint32_t app;
    double arrival;     /**< s */
    uint32_t gpus;
    double batch;       /**< total batch (samples per iteration over all GPUs) */
    double iterations;
} ct_share_job_t;

typedef struct {
    size_t n;
    ct_share_job_t *jobs;
} ct_share_jobs_t;

void ct_share_jobs_free(ct_share_jobs_t *j);
/** Loads a Pollux workload CSV (name,time,application,num_replicas,
 *  batch_size[,iterations]); absent iterations come from the app's table. */
ct_status_t ct_share_jobs_load(ct_share_jobs_t *j, const ct_apps_t *apps, const char *path, ct_error_t *err);

/** What a workload file holds, from its first non-blank line: the online
 *  training simulator's jobs (JSON, or the authors' CSV with job_id), a
 *  Pollux workload (application and num_replicas columns), or neither
 *  (unreadable files too: the loaders then say why). */
typedef enum { CT_WORKLOAD_UNKNOWN = 0, CT_WORKLOAD_TRAIN, CT_WORKLOAD_POLLUX } ct_workload_kind_t;
ct_workload_kind_t ct_workload_kind(const char *path);
ct_status_t ct_share_jobs_write(const ct_share_jobs_t *j, const ct_apps_t *apps, const char *path, ct_error_t *err);
/**
 * The online simulator's jobs (ct_train.h: Ada-SRSF's format) as sharing
 * jobs, so every policy runs on them: one application per distinct (model,
 * forward + backward, size, memory), t_comp = forward + backward (the
 * per-GPU batch cannot be split: no accumulation), no all-reduce on one
 * server, a + b x size across servers (uncontended, no overlap: delta 1),
 * memory = the job's share of a GPU, xi 1. Arrivals ms -> s.
 */
ct_status_t ct_share_from_train(const ct_train_cluster_t *c, const ct_train_jobs_t *in, ct_apps_t *apps,
                                ct_share_jobs_t *out, ct_error_t *err);

/** n jobs drawn from the apps' configuration mix, arrivals uniform over the
 *  window, sorted; ids APP-K as Pollux's. Deterministic per seed. */
ct_status_t ct_share_workload(const ct_apps_t *apps, uint64_t seed, size_t n, ct_share_jobs_t *j, ct_error_t *err);

/**
 * Another simulator's published JCTs for a workload: a JSON file with
 * {"jcts": {WORKLOAD: {JOB ID: seconds}}} (Pollux's summary.json). Fills
 * mean[0..3) with the mean JCT (s) of all, large (> 4 GPUs) and small jobs
 * of `jobs` (NAN where none). CT_EINPUT naming the file and key when the
 * workload or one of its jobs is absent.
 */
ct_status_t ct_share_reference_jct(const char *path, const char *workload, const ct_share_jobs_t *jobs, double mean[3],
                                   ct_error_t *err);

/* ------------------------------------------------------------------------ */
/* The simulator.                                                            */

typedef enum { CT_SHARE_SJF_BSBF = 0, CT_SHARE_SJF_FFS, CT_SHARE_FIFO, CT_SHARE_SJF, CT_SHARE_TIRESIAS } ct_share_policy_t;

ct_status_t ct_share_policy_parse(const char *name, ct_share_policy_t *out);
const char *ct_share_policy_name(ct_share_policy_t p);

#define CT_TIRESIAS_MAX_QUEUES 8

typedef struct {
    ct_share_policy_t policy;
    double restart;         /**< s without progress at every (re)start, GPUs held (Pollux: 30) */
    double interval;        /**< 0: schedule at every event; > 0: only at multiples of this many
                                 seconds (Pollux's simulator: 60), jobs waiting for the next round */
    int fifo_backfill;      /**< FIFO: 0 strict (the head blocks the queue), 1 later jobs that fit start */
    int ffs_fit;            /**< SJF-FFS: 0 the spec's full batch (a GPU without room is skipped);
                                 1 the largest micro-batch B / 2^k that fits beside the running job */
    size_t n_thresholds;    /**< Tiresias: queue thresholds, GPU-seconds, increasing */
    double thresholds[CT_TIRESIAS_MAX_QUEUES - 1];
    void (*progress)(size_t done, size_t total, void *ctx);
    void *progress_ctx;
    int walk;               /**< 1: sort and walk the whole waiting queue at every round (the
                                 reference the default's rank queues are tested against: the
                                 same results, O(waiting) a round instead of O(log)) */
} ct_share_params_t;

/** SJF-BSBF, restart 30 s, Tiresias one threshold at 16 GPU-hours (Pollux's). */
void ct_share_params_init(ct_share_params_t *p);

/**
 * Runs the jobs on c's servers x GPUs (at most 2 jobs a GPU). Results in
 * ms, as ct_train_run's, with the small / large split (small: <= 4 GPUs).
 * CT_EINPUT if a job needs more GPUs than the cluster. Deterministic.
 * Memory O(jobs + GPUs). Time O(events x (running jobs + GPUs)).
 */
ct_status_t ct_share_run(const ct_train_cluster_t *c, const ct_apps_t *apps, const ct_share_jobs_t *jobs,
                         const ct_share_params_t *p, ct_train_result_t *out, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
