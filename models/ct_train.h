/*
 * ct_train.h - an online, event-driven simulator of a GPU training cluster
 * (spec ada-srsf.md), with the policy points of LWF-kappa / AdaDUAL /
 * Ada-SRSF: job ordering, placement and communication admission.
 *
 * Units: time in ms, sizes and memory in MB, the network's b and eta in ms
 * per MB.
 *
 * The model. Servers of equal GPU count; a GPU has memory. A job arrives,
 * waits in a queue ordered by remaining GPU work (SRSF: remaining
 * iterations x (t_f + t_b) x GPUs), and is placed when its GPUs fit (in
 * SHARED mode a GPU fits when its free memory holds the job's; EXCLUSIVE:
 * when it hosts no job). Each iteration: a forward then a backward task on
 * every worker; a GPU runs one task at a time, non-preemptively, choosing
 * among its jobs' ready tasks the job with the least remaining GPU work;
 * when every worker is done, one all-reduce of the model size. A job on one
 * server sends nothing over the network (its iteration ends at the
 * barrier). A job on several servers asks for admission (AdaDUAL or
 * SRSF(n)); once admitted its transfer runs at 1 / (k b + (k - 1) eta) MB
 * per ms after a latency a, k = the most transfers running on any of its
 * servers, recomputed whenever a transfer starts or ends. The next
 * iteration starts when the transfer ends. Time is continuous: events are
 * arrivals, task ends and transfer ends (no 1 ms slots).
 *
 * --compat reproduces the authors' simulator's accounting (spec s.7):
 * every time AdaDUAL reads a running transfer's remaining size, it credits
 * that transfer with one more step (1 ms) of progress, and waiting
 * candidates are re-examined every 1 ms, as in their slotted loop. It also
 * keeps their bookkeeping (docs/training-cluster.md, "--compat"): LWF's workload as their
 * running per-GPU float sum, their server order kept across sorts, the
 * remaining work counted per pass with ties in placement order, and their
 * late release of finished jobs' memory.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_TRAIN_H
#define CT_TRAIN_H

#include "ct_base.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_GPU_SHARED = 0, CT_GPU_EXCLUSIVE } ct_gpu_mode_t;

/** A cluster. Invariants (ct_train_cluster_validate): >= 1 server and GPU
 *  per server; memory > 0; b > 0; a, eta, lwf_comm >= 0. */
typedef struct {
    size_t n_servers;
    uint32_t gpus_per_server;
    double gpu_mem;         /**< MB per GPU */
    double a;               /**< all-reduce latency, ms */
    double b, eta;          /**< ms per MB: transfer time and contention penalty */
    double lwf_comm;        /**< ms per MB of a multi-server job's all-reduce in LWF's GPU workload */
    ct_gpu_mode_t mode;
} ct_train_cluster_t;

/** The paper's cluster: 16 servers x 4 GPUs of 32768 MB, shared by memory;
 *  a = 0, b = 0.856, eta = 0.235 ms/MB (10 GbE), lwf_comm = 7.8125. */
void ct_train_cluster_init(ct_train_cluster_t *c);
ct_status_t ct_train_cluster_validate(const ct_train_cluster_t *c, const char *label, ct_error_t *err);
/** Loads a cluster file (JSON; fields as the struct, see docs/formats.md); absent
 *  fields keep the paper's values. */
ct_status_t ct_train_cluster_load(ct_train_cluster_t *c, const char *path, ct_error_t *err);

/** A job. Invariants: id non-empty and unique; gpus >= 1; iterations >= 1;
 *  arrival, size, t_f, t_b, memory >= 0 and finite. */
typedef struct {
    char *id;
    char *model;            /**< a name, for reports (may be empty) */
    double arrival;         /**< ms */
    uint32_t gpus;
    double iterations;
    double size;            /**< all-reduce message (model size), MB */
    double tf, tb;          /**< forward and backward time per iteration per GPU, ms */
    double mem;             /**< training memory per GPU, MB */
} ct_train_job_t;

typedef struct {
    size_t n;
    ct_train_job_t *jobs;
} ct_train_jobs_t;

void ct_train_jobs_free(ct_train_jobs_t *j);
ct_status_t ct_train_jobs_validate(const ct_train_jobs_t *j, const char *label, ct_error_t *err);
/** Loads jobs: CSV with the header of the authors' traces
 *  (job_id,dnn,nworkers,iters,start_time,model_size,fw_time,bw_time,train_mem[,batch_size])
 *  or JSON {"jobs": [{"id", "model", "arrival", "gpus", "iterations",
 *  "size", "forward", "backward", "memory"}]}. */
ct_status_t ct_train_jobs_load(ct_train_jobs_t *j, const char *path, ct_error_t *err);
ct_status_t ct_train_jobs_write(const ct_train_jobs_t *j, const char *path, ct_error_t *err);

/** The paper's workload for a seed: 160 jobs (80x1, 14x2, 26x4, 30x8, 8x16,
 *  2x32 GPUs), each of VGG-16, ResNet-50, Inception-V3 or LSTM-PTB at
 *  random with the spec's V100 timings, sizes and memory; iterations
 *  uniform in [1000, 6000]; arrivals uniform over [0, 1200 s). scale
 *  divides iterations and the arrival window (the authors' traces use
 *  100); 0 means 1. */
ct_status_t ct_train_workload(uint64_t seed, double scale, ct_train_jobs_t *j, ct_error_t *err);

#define CT_TRAIN_MAX_GEN_JOBS 10000000u /* jobs in a generated trace */

/** A generated trace of n jobs with Philly-like sizes and durations, for
 *  runs at scale (bench_train, `train workload --jobs N`): GPUs 1, 2, 4, 8
 *  or 16 with shares 0.70, 0.10, 0.10, 0.07, 0.03 (most jobs on one GPU, a
 *  few large ones, as Jeon et al. report for Philly; sizes above the
 *  cluster's GPUs are capped to it); each of the four models at random;
 *  iterations log-normal with median 20 and sigma 1.2 (heavy-tailed run
 *  times), capped at 20,000; Poisson arrivals at the rate that offers
 *  `load` of the cluster's GPU time (each job's GPU time alone: iterations
 *  x (tf + tb + its all-reduce alone when it needs more than one
 *  server) x GPUs); load above 1 makes the queue grow. Deterministic
 *  per seed. O(n). */
ct_status_t ct_train_workload_trace(uint64_t seed, size_t n, const ct_train_cluster_t *c, double load,
                                    ct_train_jobs_t *j, ct_error_t *err);

typedef enum { CT_PLACE_LWF = 0, CT_PLACE_FF, CT_PLACE_LS, CT_PLACE_RAND } ct_place_t;
typedef enum { CT_ADMIT_ADADUAL = 0, CT_ADMIT_SRSF } ct_admit_t;

/* ------------------------------------------------------------------------ */
/* Policy points: job order, placement, admission.                           */

/** What a policy sees of the running simulation (read-only; valid only
 *  during the call). Jobs are indices into the job list; GPUs are numbered
 *  server x gpus_per_server + index. */
typedef struct ct_train_view ct_train_view_t;

double ct_train_view_now(const ct_train_view_t *v);                  /**< ms */
const ct_train_cluster_t *ct_train_view_cluster(const ct_train_view_t *v);
const ct_train_jobs_t *ct_train_view_jobs(const ct_train_view_t *v);
/** A job's remaining GPU work: (t_f + t_b) x iterations left x GPUs, ms. */
double ct_train_view_remaining(const ct_train_view_t *v, uint32_t job);
/** 1 if the job can be placed on GPU g now (memory, or exclusivity). */
int ct_train_view_fits(const ct_train_view_t *v, uint32_t g, uint32_t job);
/** GPU g's LWF workload: remaining compute of its jobs plus, for
 *  multi-server jobs, lwf_comm x remaining all-reduce MB. */
double ct_train_view_gpu_load(const ct_train_view_t *v, uint32_t g);
double ct_train_view_gpu_mem_used(const ct_train_view_t *v, uint32_t g);
uint32_t ct_train_view_gpu_jobs(const ct_train_view_t *v, uint32_t g);
/** Transfers running on a server (a multi-server job counts once per server). */
uint32_t ct_train_view_server_transfers(const ct_train_view_t *v, size_t server);
/** The servers of a placed job (n receives how many). */
const uint32_t *ct_train_view_job_servers(const ct_train_view_t *v, uint32_t job, uint32_t *n);
/** MB left of a job's running transfer (0 if none). */
double ct_train_view_transfer_left(const ct_train_view_t *v, uint32_t job);

/**
 * A custom policy: any hook left NULL falls back to the built-in rule the
 * params name. order_key: jobs are queued, admitted and served on a GPU by
 * increasing key (ties: arrival, index). place: choose the job's GPUs into
 * gpus (job->gpus distinct ids that fit) and return 1, or 0 to let it wait.
 * admit: 1 to start the job's all-reduce now. The engine never frees it.
 */
typedef struct ct_train_policy {
    double (*order_key)(struct ct_train_policy *self, const ct_train_view_t *v, uint32_t job);
    int (*place)(struct ct_train_policy *self, const ct_train_view_t *v, uint32_t job, uint32_t *gpus);
    int (*admit)(struct ct_train_policy *self, const ct_train_view_t *v, uint32_t job);
    void *state;
} ct_train_policy_t;

typedef struct {
    ct_place_t place;
    uint32_t kappa;         /**< LWF-kappa (default 1) */
    ct_admit_t admit;
    uint32_t srsf_n;        /**< SRSF(n): at most n - 1 transfers already on a job's servers (default 1) */
    int compat;             /**< 1: the authors' free-progress accounting (see above) */
    uint64_t seed;          /**< RAND */
    ct_train_policy_t *policy; /**< custom hooks (NULL: none); not owned */
    void (*progress)(size_t done, size_t total, void *ctx); /**< called as jobs finish (NULL: none) */
    void *progress_ctx;
    int walk;               /**< 1: sort and test every waiting job at every placement round (the
                                 reference the default's rank queue is tested against: the same
                                 results; custom hooks and compat always walk) */
} ct_train_params_t;

void ct_train_params_init(ct_train_params_t *p);
ct_status_t ct_place_parse(const char *name, ct_place_t *out);
const char *ct_place_name(ct_place_t p);
ct_status_t ct_admit_parse(const char *name, ct_admit_t *out);
const char *ct_admit_name(ct_admit_t a);

/** Per job results (ms). */
typedef struct {
    double arrival, start, end;
    double jct;             /**< end - arrival */
    double queued;          /**< start - arrival */
    double comm;            /**< time with a transfer running */
    double comm_wait;       /**< time ready to all-reduce but not admitted */
    uint32_t servers;       /**< servers used */
    uint32_t ngpus;         /**< how many GPUs */
    uint32_t *gpus;         /**< the GPUs (server * gpus_per_server + index) */
    const char *id;         /**< the job's id (borrowed from the job list) */
} ct_train_job_result_t;

typedef struct {
    size_t n;
    ct_train_job_result_t *jobs;
    double mean_jct, median_jct, p95_jct, makespan;
    double utilization;     /**< mean over GPUs of busy time / makespan */
    double mean_queued;     /**< mean time waiting for GPUs */
    size_t n_small;         /**< jobs on <= 4 GPUs ("small", the SJF-BSBF paper's split) */
    double mean_jct_small, mean_jct_large, mean_queued_small, mean_queued_large; /**< NAN when none */
    double free_mb;         /**< compat: MB credited without transfer */
    double total_mb;        /**< MB all-reduced over the network */
    size_t events;
    double seconds;
} ct_train_result_t;

void ct_train_result_free(ct_train_result_t *r);

/**
 * Runs the jobs on the cluster. CT_EINPUT if a job can never fit (more
 * GPUs than the cluster, more memory than a GPU). Deterministic for a
 * seed. Memory O(jobs + GPUs + jobs in flight x GPUs).
 */
ct_status_t ct_train_run(const ct_train_cluster_t *c, const ct_train_jobs_t *jobs, const ct_train_params_t *p,
                         ct_train_result_t *out, ct_error_t *err);

/** Fills the summary of r from its jobs (mean / median / p95 JCT,
 *  makespan, queueing, the small / large split) and utilisation from the
 *  GPUs' total busy time. CT_ENOMEM. O(n log n). */
ct_status_t ct_train_summarize(ct_train_result_t *r, double busy, size_t n_gpus, ct_error_t *err);

/** Per-job CSV (id,arrival_ms,start_ms,end_ms,jct_ms,queued_ms,comm_ms,comm_wait_ms,servers,gpus). */
ct_status_t ct_train_write_results_csv(const ct_train_result_t *r, const char *path, ct_error_t *err);
/** The same, for ct_train_run's results (kept for callers of 0.1). */
ct_status_t ct_train_write_jobs_csv(const ct_train_jobs_t *jobs, const ct_train_result_t *r, const char *path,
                                    ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
