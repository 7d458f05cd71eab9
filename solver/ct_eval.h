/*
 * ct_eval.h - policy evaluation sweeps: the Nona paper's Figures 3 and 4.
 *
 * For each point of a sweep (a compute load, or a link bandwidth at a fixed
 * load) and each policy, simulate the scenario (ct_sim.h) and summarise.
 *   load rho_c = sum_j beta_j W_j / N   (W_j: a job's total compute, s;
 *   the paper's "compute load" divided by the number of servers): every
 *   class's rate is scaled by the same factor to reach it.
 * Background (the paper: 1:100): single-task compute jobs and transfer-only
 * jobs, each at sum_j beta_j / bg_ratio per second, with exponential sizes of
 * mean the mix's mean job compute and mean job edge bytes. If the scenario
 * has its own "background" link traffic, that replaces the transfer stream
 * (exponential sizes matching its link_load and link_second_moment). The
 * Nona tables are solved for exactly this background.
 *
 * Policies by name: nona (a lookup file solved at every sweep point, the
 * scenario nearest the simulated rates), nona-late (the same solved and run
 * with late-bound parts), fair-delay (fair with Spark's delay scheduling,
 * a locality wait of params.locality_wait mean task times), nona-star (one table solved at
 * star_load and the scenario's bandwidth, used everywhere), nona-file (an
 * operator's lookup file, params.table_path: the entry nearest the simulated
 * rates at every point, not solved here), random,
 * opportunistic, local, fair, sparrow (batch sampling, late binding;
 * params.probes per task). Placement-table policies draw through the
 * sampler library, as production schedulers would.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_EVAL_H
#define CT_EVAL_H

#include "ct_nona_solve.h"
#include "ct_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    ct_sim_run_params_t run;
    ct_link_mode_t link;
    double bg_ratio;          /**< inference : background rate (default 100; 0: no background) */
    double star_load;         /**< nona-star's table load (default 0.5) */
    double load;              /**< the load of a bandwidth sweep (default 0.5) */
    size_t max_in_flight;     /**< declare a run unstable past this (default 20000 jobs) */
    ct_server_queue_t server_queue; /**< server discipline (default job-first, what the model assumes) */
    ct_fair_pick_t fair_pick; /**< fair's idle-server choice (default most recently freed) */
    unsigned root_choices;    /**< nona, nona-star: root on the least loaded of d servers (default 2; 1: the paper) */
    int dependent_parts;      /**< nona tables: parts wait for the parts that feed them (default 1; 0: the paper) */
    int job_first_waits;      /**< nona tables: the model's waits, ct_nona_model_params_t.reentry_waits
                                   (default CT_NONA_WAITS_DEFAULT, aged; 1: job-first; 0: pieces) */
    ct_late_bind_t late_bind; /**< nona-late: when a part binds and how (CT_LATE_BIND_PROBES: by probes), how long its server counts it
                                   (default CT_SIM_LATE_BIND_DEFAULT; ct_policy_set_late_bind) */
    int finite_servers;       /**< nona tables: ct_nona_model_params_t.finite_servers (default
                                   CT_NONA_SAMPLING_AUTO; 1 finite, 0 mean field, the model before
                                   2026-11-30); late_hold follows late_bind */
    int late_first;           /**< nona-late tables: ct_nona_model_params_t.late_first (default
                                   CT_NONA_LATE_FIRST_DEFAULT, root; 1: aged) */
    int transfers_task;       /**< nona tables: ct_nona_model_params_t.transfers_task (default
                                   CT_NONA_TRANSFERS_TASK_DEFAULT, part; 1: task) */
    int root_wait_all;        /**< nona-late tables: ct_nona_model_params_t.root_wait_all (default
                                   CT_NONA_ROOT_WAIT_ALL_DEFAULT, job; 0: part) */
    int late_waits;           /**< nona-late tables: ct_nona_model_params_t.late_waits (default
                                   CT_NONA_LATE_WAITS_DEFAULT, least-of-d; 0: uniform) */
    int server_model;         /**< nona tables: model server queueing (default 1; 0: the paper's link-only model) */
    unsigned threads;         /**< points at once (default 1; 0: the cores); the result does not depend on it */
    unsigned rep_threads;     /**< a point's replications at once (default 1; 0: the cores); nor on this */
    double locality_wait;     /**< fair-delay: the locality wait in mean task times (default 5; the mean
                                   over arriving jobs' tasks) */
    unsigned probes;          /**< sparrow: probes per ready task (default 2, Sparrow's d; 1..64) */
    int exp_service;          /**< 1: task times exponential around the class's (queueing-theory
                                   checks; default 0: as given) */
    ct_nona_solve_params_t solve; /**< nona tables: the solver's parameters (default
                                   ct_nona_solve_params_init's; its progress and threads are the
                                   evaluation's own: progress none, threads 1) */
    double rtt;               /**< the simulator's round trip, s (ct_sim_config_t.rtt; default 0) */
    double table_rtt;         /**< nona tables: the round trip they are solved for, s
                                   (ct_nona_model_params_t.rtt); < 0 (default): rtt, the one simulated */
    const char *table_path;   /**< nona-file: the lookup file it draws from (nona solve or nona sweep's
                                   output; at each point the entry nearest the simulated rates, as
                                   ct_sampler_nearest and contend serve pick it); not owned; NULL
                                   (default): none, and nona-file is refused */
} ct_eval_params_t;

void ct_eval_params_init(ct_eval_params_t *p);

/** The round trip p's nona tables are solved for, s: table_rtt, or rtt when it is < 0. O(1). */
double ct_eval_table_rtt(const ct_eval_params_t *p);
/** The model parameters p's nona tables are solved with (late_parts: nona-late's), into *mp
 *  (initialised here). */
void ct_eval_model_params(const ct_eval_params_t *p, int late_parts, ct_nona_model_params_t *mp);

/** One simulated point. unstable: the run did not settle (summary empty). */
typedef struct {
    const char *policy;       /**< static name */
    double load, bandwidth;
    int unstable;
    double model_mean_jct;    /**< nona / nona-star: the table's prediction (s); else NAN (nona-file
                                   too: its file's predictions are for the background its solve assumed) */
    double model_link_wait;   /**< nona / nona-star: the model's link wait phi for the table (s: a batch of
                                   transfers at the head of the FIFO link, Pollaczek-Khinchine), beside
                                   the simulator's mean link wait (sum.link_wait); else NAN */
    double table_scale;       /**< nona-file: the scale of the file's entry it drew from (the nearest the
                                   simulated rates); else NAN */
    ct_sim_summary_t sum;
    double *model_task_end;   /**< nona: per task (sum.task_offset order), the model's mean end (s; a
                                   contracted task's at its last member, NAN for the others); NULL otherwise */
} ct_eval_point_t;

/** Frees what a point owns (its summary and model_task_end). */
void ct_eval_point_free(ct_eval_point_t *pt);

typedef struct {
    size_t n_classes;
    char **class_names;
    size_t n_points;
    ct_eval_point_t *points;
} ct_eval_result_t;

void ct_eval_result_free(ct_eval_result_t *r);

/**
 * The same sweep point by point, for callers that schedule the points
 * themselves (threads, shards, MPI ranks): a plan holds the inputs and
 * nona-star's table (solved once, in ct_eval_plan_make) and nona-file's
 * (read once there: a missing or invalid file fails the make); point i is load
 * (or bandwidth) i / n_policies under policy i % n_policies. The scenario
 * must outlive the plan. ct_eval_plan_point is thread-safe; *pt is the
 * caller's (ct_eval_point_free afterwards).
 */
typedef struct ct_eval_plan ct_eval_plan_t;
ct_status_t ct_eval_plan_make(const ct_scenario_t *s, const double *xs, size_t n_x, int bandwidth_sweep,
                              const char *const *policies, size_t n_policies, const ct_eval_params_t *p,
                              ct_eval_plan_t **out, ct_error_t *err);
size_t ct_eval_plan_points(const ct_eval_plan_t *pl);
ct_status_t ct_eval_plan_point(const ct_eval_plan_t *pl, size_t i, ct_eval_point_t *pt, ct_error_t *err);
void ct_eval_plan_free(ct_eval_plan_t *pl);

/** Names of the built-in policies, NULL-terminated. */
const char *const *ct_eval_policy_names(void);

/**
 * Runs the sweep: for each x in xs (loads when bandwidth_sweep is 0, link
 * bandwidths in bytes/s otherwise) and each policy name. progress (may be
 * NULL) is called after each point with (done, total, ctx) so a caller can
 * draw a progress bar. Unknown policies: CT_EINPUT naming them.
 */
ct_status_t ct_eval_sweep(const ct_scenario_t *s, const double *xs, size_t n_x, int bandwidth_sweep,
                          const char *const *policies, size_t n_policies, const ct_eval_params_t *p,
                          void (*progress)(size_t done, size_t total, void *ctx), void *ctx, ct_eval_result_t *out,
                          ct_error_t *err);

/** The rate scale that gives scenario s compute load `load`. */
double ct_eval_scale_for_load(const ct_scenario_t *s, double load);

/**
 * The scenario a sweep's point solves its tables for and simulates: s's
 * rates scaled by `scale`, the link at bw bytes/s, and the background p
 * describes (p NULL: the defaults; the scenario's own link background, or
 * one job in p->bg_ratio moving a mean job's bytes, and as many compute
 * jobs on uniform servers) in rho_bg, m2_bg, rho_bg_s and m2_bg_s.
 * @return CT_OK with *out filled (the caller destroys it); CT_EUNSTABLE
 *   if the background alone loads the link to 1 or more (nothing to
 *   destroy then). O(tasks + edges).
 */
ct_status_t ct_eval_point_scenario(const ct_scenario_t *s, double scale, double bw, const ct_eval_params_t *p,
                                   ct_scenario_t *out, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
