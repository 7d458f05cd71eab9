/*
 * ct_sim.h - discrete-event simulator of an inference cluster (Nona's
 * evaluation setting, spec nona.md s.9-10) and the placement-policy
 * interface.
 *
 * The cluster: N identical servers, each runs one task at a time; one
 * bottleneck link carries every transfer between two different servers,
 * FIFO at full bandwidth (or processor sharing); a transfer between tasks
 * on the same server, or of zero bytes, is free. A task starts when all its
 * inputs are on its server. Jobs of each class arrive as Poisson processes;
 * background work arrives too: single-task compute jobs (no communication)
 * and transfer-only communication jobs, exponential sizes.
 *
 * Policies come in two kinds:
 *  - CT_POLICY_PLACE: when a job arrives, place() gives every task a server;
 *    each server then runs its ready tasks in FIFO order (random, local,
 *    opportunistic, nona, nona-star, or your own).
 *  - CT_POLICY_CENTRAL: tasks wait in a central ready pool; an idle server
 *    takes a ready task of the job with the fewest running tasks (ties: the
 *    oldest job), preferring a task whose inputs are already on it, then
 *    fetches the inputs over the link and runs it (fair, like Spark's fair
 *    scheduler).
 *
 * Usage, GSL-style: ct_sim_alloc, then ct_sim_set_window / ct_sim_inject,
 * ct_sim_run, ct_sim_result_get, ct_sim_free. Memory is bounded by the jobs in
 * flight: finished jobs' slots are reused. Deterministic for a seed.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SIM_H
#define CT_SIM_H

#include "ct_sampler.h"
#include "ct_scenario.h"
#include "ct_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Job classes as the simulator sees them.                                   */

/** A class's DAG in successor / predecessor CSR form, tasks in topological
 *  order of the original DAG (the order lookup tables use). */
typedef struct {
    char *name;
    size_t n_tasks;
    char **ids;
    double *time;          /**< seconds on a simulated server (time / speed) */
    uint32_t *succ_start, *succ;
    double *succ_bytes;
    uint32_t *pred_start, *pred;
    double *pred_bytes;
    double rate;           /**< Poisson arrival rate, jobs/s */
    double work;           /**< total compute per job, s */
    double bytes;          /**< total edge bytes per job */
} ct_sim_class_t;

/** Builds one simulator class per scenario class, rates multiplied by
 *  scale. *classes is an array of *n (free with ct_sim_classes_free). */
ct_status_t ct_sim_classes_build(const ct_scenario_t *s, double scale, ct_sim_class_t **classes, size_t *n,
                                 ct_error_t *err);
void ct_sim_classes_free(ct_sim_class_t *classes, size_t n);

/* ------------------------------------------------------------------------ */
/* Policies.                                                                 */

/** PLACE: place() binds every task when the job arrives (or gives it a
 *  late-bound slot). CENTRAL: one scheduler with every server's state
 *  hands ready tasks to idle servers. SAMPLE: Sparrow's batch sampling
 *  with late binding (spec baselines.md): the m tasks of a job that become
 *  ready at one event probe probes x m distinct uniform servers, each probe
 *  a reservation in that server's queue; a reservation that reaches the
 *  head of its queue takes one of the job's ready tasks not yet bound
 *  (the server then fetches its inputs and runs it) or, if none is left,
 *  is cancelled. Probes and requests take no time. */
typedef enum { CT_POLICY_PLACE, CT_POLICY_CENTRAL, CT_POLICY_SAMPLE } ct_policy_kind_t;

/** When a late part binds and how long its server counts it
 *  (ct_policy_t.late_bind_ready, late_hold; contend sim --late-bind). */
typedef enum {
    CT_LATE_BIND_FIRST_INPUT = 0, /**< at its first input; counted until its first task (before 2026-11-29) */
    CT_LATE_BIND_READY = 1,       /**< when one of its tasks has every input sent; counted until its first task */
    CT_LATE_BIND_READY_HOLD = 2,  /**< the same, and counted while it waits for a later task (the default) */
    CT_LATE_BIND_PROBES = 3       /**< Sparrow's late binding for the root and every part: when needed
                                       (as READY), the m parts needed at once leave reservations on d x m
                                       distinct uniform servers (ct_sampler_probe_servers); the first
                                       to reach the head of a free server's queue takes the part, the
                                       server held until its first task runs; the others are dropped;
                                       a server whose part waits for a later task asks last (no
                                       round trip is charged) */
} ct_late_bind_t;
#define CT_SIM_LATE_BIND_DEFAULT CT_LATE_BIND_READY_HOLD

/** A placement policy. Write your own by filling name, kind, place (for
 *  CT_POLICY_PLACE) and destroy (may be NULL); state is yours. place()
 *  fills servers[t] (< n_servers) for the n_tasks tasks of a new job of
 *  class cls (simulator task order: ct_sim_class_t.ids) and returns 0, or
 *  -1 if it cannot place the job (the simulation then fails). loads[v] is
 *  the number of tasks queued or running on server v now. Draw random
 *  numbers from rng only, so runs stay deterministic. */
typedef struct ct_policy {
    const char *name;
    ct_policy_kind_t kind;
    int (*place)(struct ct_policy *self, size_t cls, size_t n_tasks, uint32_t n_servers, const uint32_t *loads,
                 ct_rng_t *rng, uint32_t *servers);
    void (*destroy)(struct ct_policy *self);
    void *state;
    /** Late-bound parts: place() may give a task CT_SAMPLER_LATE | i (a
     *  slot, i < n_tasks, shared by the tasks of one part) instead of a
     *  server; the simulator binds slot i when it is first needed (a task of
     *  it has no inputs, when the job arrives; else as late_bind_ready
     *  says) to the least loaded of late_choices uniform servers
     *  (ct_sampler_least_loaded), the bound server counting one task more
     *  until the part's first task is queued there (and, with late_hold,
     *  while the part waits for a later task); with late_probes, by
     *  reservations on late_choices servers a part instead. 0: no slots. */
    unsigned late_choices;
    /** CENTRAL: Spark's delay scheduling (spec baselines.md): a job skips
     *  an idle server that holds no ready task's largest input until this
     *  long (s) has passed since its last launch on a preferred server; 0:
     *  fair as the Nona paper runs it. */
    double locality_wait;
    /** SAMPLE: probes per ready task (Sparrow's d, >= 1). */
    unsigned probes;
    /** SAMPLE: 1: each ready task's first probe goes to the server holding
     *  its largest input, and a reservation takes the ready task with the
     *  most input bytes on its server ("sparrow-local"); 0: as published. */
    int probe_inputs;
    /** Late-bound parts: 1: a part is first needed when one of its tasks
     *  has every input sent (an input whose part is not bound yet waits at
     *  its sender until then), so a part fed twice does not hold an idle
     *  server between its inputs; 0: when its first input is sent (the
     *  rule before 2026-11-29). ct_policy_table sets the default,
     *  CT_SIM_LATE_BIND_DEFAULT. */
    int late_bind_ready;
    /** Late-bound parts: 1: a part whose task has ended while others are
     *  still to come counts as one task on its server until the next is
     *  queued, so the d rule leaves the server to it (else a part fed
     *  later by another part finds its server taken and waits for a whole
     *  task: layered-307 at load 0.1 with d = 32, p99 0.251 s against
     *  0.191 s); 0: only from its binding to its first task. Set by
     *  ct_policy_table from CT_SIM_LATE_BIND_DEFAULT. */
    int late_hold;
    /** Late-bound parts: 1: the root's part and every late part bind by
     *  late_choices reservations, the first free server to reach one takes
     *  the part (CT_LATE_BIND_PROBES); 0: to the least loaded of
     *  late_choices. Set by ct_policy_set_late_bind. */
    int late_probes;
    /** 1: place() reads the queue lengths of sampled servers (a table's
     *  root on the least loaded of d > 1): with ct_sim_config_t.rtt the
     *  job is placed one round trip after it arrives. Set by
     *  ct_policy_table_d. */
    int root_sampled;
} ct_policy_t;

/** Every task on a uniform server, independently. */
ct_status_t ct_policy_random(ct_policy_t **out, ct_error_t *err);
/** Central fair sharing (see above). */
ct_status_t ct_policy_fair(ct_policy_t **out, ct_error_t *err);
/** Fair with delay scheduling ("fair-delay"): locality_wait = wait (s, > 0). */
ct_status_t ct_policy_fair_delay(double wait, ct_policy_t **out, ct_error_t *err);
/**
 * Draws placements from a lookup table through the sampler library (the
 * production path): the scenario nearest the given rates (one per class,
 * jobs/s; NULL: the first scenario). Task ids are matched by name to the
 * simulator's classes, which must all be in the table. name is copied.
 * Used for nona, nona-star, local and opportunistic (each with its table).
 * The policy does not own the sampler.
 */
ct_status_t ct_policy_table(const char *name, const ct_sampler_t *sampler, const double *rates,
                            const ct_sim_class_t *classes, size_t n_classes, ct_policy_t **out, ct_error_t *err);
/** The same, placing each job's root on the least loaded of root_choices
 *  uniformly sampled servers (power of d choices; 1: uniform, the paper's
 *  rule; 0: the rule the table records). */
ct_status_t ct_policy_table_d(const char *name, const ct_sampler_t *sampler, const double *rates,
                              const ct_sim_class_t *classes, size_t n_classes, unsigned root_choices,
                              ct_policy_t **out, ct_error_t *err);
/** The scenario (entry) of its lookup file that table policy p draws from:
 *  the one nearest the rates it was made with (ct_sampler_nearest), 0
 *  without rates; 0 for a policy that draws no table. O(1). */
size_t ct_policy_table_entry(const ct_policy_t *p);
/** Sparrow (Ousterhout et al., SOSP 2013) as published: batch sampling of
 *  probes x m servers for m ready tasks, late binding, no locality
 *  ("sparrow"; probes in 1..64, the paper's d = 2). */
ct_status_t ct_policy_sparrow(unsigned probes, ct_policy_t **out, ct_error_t *err);
/** Sparrow probing the input holder first (spec baselines.md's named
 *  variant, "sparrow-local"; see probe_inputs). */
ct_status_t ct_policy_sparrow_local(unsigned probes, ct_policy_t **out, ct_error_t *err);
/** Sets p's late_bind_ready and late_hold from rule. */
void ct_policy_set_late_bind(ct_policy_t *p, ct_late_bind_t rule);
void ct_policy_free(ct_policy_t *p);

/* ------------------------------------------------------------------------ */
/* The simulator.                                                            */

typedef enum { CT_LINK_FIFO, CT_LINK_PS } ct_link_mode_t;

/** How a server picks its next ready task (PLACE policies).
 *  FIFO: in the order tasks became ready; every task of a job queues at
 *  the back again. JOB_FIRST: the ready task of the job that arrived
 *  earliest (ties: readiness order), so a job's local chain continues
 *  ahead of younger jobs. The Nona model's server queueing assumes
 *  JOB_FIRST. CLASS_PRIORITY: the ready task of the lowest-numbered class
 *  (ties: readiness order; background last), non-preemptive: the textbook
 *  priority queue, for checks against Cobham's formula. */
/** Server queues: FIFO (readiness order), job-first (the earliest-arriving
 *  job's ready task, then readiness order), job-first with chains (the
 *  same, but a task whose one input comes from the task just run on its
 *  server, of which it is the one successor, goes first among its job's:
 *  a chain runs uninterrupted, as the DAG's contraction takes it), class
 *  priority. */
typedef enum { CT_QUEUE_FIFO, CT_QUEUE_JOB_FIRST, CT_QUEUE_CLASS_PRIORITY, CT_QUEUE_JOB_FIRST_CHAINS } ct_server_queue_t;

/** Which idle server a CENTRAL policy hands the next task: the most
 *  recently freed one (keeps a job's chain on one server), or a uniform
 *  idle one. */
typedef enum { CT_FAIR_RECENT, CT_FAIR_RANDOM } ct_fair_pick_t;

typedef struct {
    size_t servers;
    double bandwidth;              /**< bytes/s */
    ct_link_mode_t link;
    const ct_sim_class_t *classes; /**< not owned; must outlive the simulator */
    size_t n_classes;
    double bg_compute_rate;        /**< background compute jobs/s */
    double bg_compute_time;        /**< their mean time, s (exponential) */
    double bg_comm_rate;           /**< background transfers/s */
    double bg_comm_bytes;          /**< their mean size, bytes (exponential) */
    ct_policy_t *policy;           /**< not owned */
    uint64_t seed;
    size_t max_in_flight;          /**< stop with CT_EUNSTABLE past this many jobs in flight (0: no limit) */
    ct_server_queue_t server_queue;/**< server discipline (zero value: FIFO) */
    ct_fair_pick_t fair_pick;      /**< CENTRAL: idle-server choice (zero value: most recent) */
    int exp_service;               /**< 1: a task's time is exponential with its class's time as the mean,
                                        drawn when it starts (queueing-theory checks); zero value: as given */
    /** Round trip between a scheduler and a server, s (spec baselines.md:
     *  "a probe and a request each cost one round trip"). Charged to every
     *  decision that waits for an answer: a sampled root (the d queue
     *  lengths, ct_policy_t.root_sampled) and a late part bound to the least
     *  loaded of d are placed one round trip later; a probe (Sparrow's, or a
     *  part's) lands in its server's queue one round trip later, and a
     *  server reaching it waits, idle, one more for its task or cancel; a
     *  central launch (the freed server's status and the task) starts one
     *  round trip after the decision. A stateless placement and the data a
     *  finished task sends its successors cost none (the link carries
     *  data). The queue lengths are read when the answer arrives. Zero
     *  value: no cost, the figures before 2026-11-29. */
    double rtt;
} ct_sim_config_t;

typedef struct ct_sim ct_sim_t;

/** Allocates a simulator at time 0 with no job in flight. */
ct_status_t ct_sim_alloc(const ct_sim_config_t *cfg, ct_sim_t **out, ct_error_t *err);
void ct_sim_free(ct_sim_t *sim);

/**
 * Sets the measurement window: jobs arriving in [t0, t1) are counted;
 * utilisations are measured over it; Poisson arrivals (of every class and
 * the background, at the configured rates) are generated until t1.
 * Without a window nothing arrives by itself and every job counts.
 */
void ct_sim_set_window(ct_sim_t *sim, double t0, double t1);

/** Adds one job of class cls arriving at time t (>= now). servers: a
 *  placement for every task, or NULL to ask the policy. For tests and
 *  trace-driven runs. */
ct_status_t ct_sim_inject(ct_sim_t *sim, size_t cls, double t, const uint32_t *servers, ct_error_t *err);

/** Runs until no event is left (every counted job done) or the time
 *  exceeds t_max. */
ct_status_t ct_sim_run(ct_sim_t *sim, double t_max, ct_error_t *err);

/** What a run measured. jct[c] for c < n_classes, jct[n_classes] = all
 *  inference jobs; the ct_stats_t are owned by the simulator. */
typedef struct {
    size_t n_classes;
    const ct_stats_t *jct;
    const ct_stats_t *bg_compute, *bg_comm;
    const ct_stats_t *link_wait;   /**< per transfer: queueing before service (PS: sojourn - size/bw) */
    double link_head_wait;         /**< FIFO: mean wait of the inference jobs' transfers that head their batch (the
                                        first a job submits at an instant: what the model's phi is); NAN under PS or
                                        with no such transfer */
    double link_util, server_util; /**< busy fraction over the window */
    uint64_t events;
    size_t max_in_flight;          /**< peak jobs in flight (memory bound) */
    size_t in_flight;              /**< jobs not finished yet */
    double now;
    double backlog[4];             /**< time-average jobs in flight over each quarter of the window */
    uint64_t arrived;              /**< jobs (inference and background) arriving in the window */
    /** By task, for counted jobs: task t of class c is entry task_offset[c] + t
     *  (simulator task order); sums over its runs of the wait (ready, i.e. every
     *  input on its server, to start, s) and of its end since the job's arrival
     *  (s), and the runs counted. */
    const size_t *task_offset;
    const double *task_wait_sum, *task_finish_sum;
    const uint64_t *task_count;
} ct_sim_result_t;

void ct_sim_result_get(const ct_sim_t *sim, ct_sim_result_t *r);

/* ------------------------------------------------------------------------ */
/* Replications.                                                             */

typedef struct {
    size_t reps;           /**< independent replications (default 5) */
    size_t jobs;           /**< measured inference jobs per replication (default 20000) */
    double warmup;         /**< warm-up as a fraction of the measured span (default 0.2) */
    uint64_t seed;         /**< replication r uses seed + r (default 1) */
} ct_sim_run_params_t;

void ct_sim_run_params_init(ct_sim_run_params_t *p);

/** Summary over replications; arrays have n_classes + 1 entries (the last
 *  is "all"). Pooled quantiles; mean and CI from replication means. */
typedef struct {
    size_t n_classes;
    double *mean, *ci95, *p50, *p95, *p99;
    uint64_t *jobs;
    double link_util, server_util;
    double link_wait, link_wait_ci95;
    double link_head_wait, link_head_wait_ci95; /**< ct_sim_result_t's, mean over replications; NAN under PS */
    uint64_t events;
    double seconds;        /**< wall time of all replications */
    size_t max_in_flight;
    double growth;         /**< worst replication: backlog growth over the window / arrivals in it */
    double backlog[4];     /**< that replication's mean jobs in flight per window quarter */
    int undecided;         /**< a replication's window held fewer than CT_SIM_JUDGE_JOBS jobs and its backlog
                                rose mildly: too short to tell a pile-up from noise, so not called unstable */
    size_t *task_offset;   /**< n_classes + 1: task t of class c is entry task_offset[c] + t of: */
    double *task_wait;     /**< mean wait of the task (its inputs on its server -> it starts), s, pooled */
    double *task_finish;   /**< mean end of the task since its job's arrival, s, pooled */
} ct_sim_summary_t;

void ct_sim_summary_free(ct_sim_summary_t *s);

/** Runs p->reps replications of cfg (its seed is replaced per replication)
 *  and summarises them. Returns CT_EUNSTABLE when a replication does not
 *  settle: jobs in flight trend upward over the window (the average over
 *  its second half exceeds the first half's by more than
 *  CT_SIM_GROWTH_LIMIT of the window's arrivals while the last quarter's
 *  rise is at least half the first quarter's, so a stable run still
 *  warming up, whose rise slows, passes; or by 5 x that limit at any
 *  pace), more than cfg->max_in_flight jobs are in flight, or the backlog
 *  left at the end of the window takes longer to clear than the window.
 *  On CT_EUNSTABLE out keeps growth and backlog (the rest is zero) and is
 *  freed with ct_sim_summary_free as after success; on other errors it is
 *  already empty. */
#define CT_SIM_GROWTH_LIMIT 0.02
/** Windows of fewer jobs than this are too short to call a mild rise (up
 *  to 5 x CT_SIM_GROWTH_LIMIT, the backlog cleared within 10 windows)
 *  unstable: the summary says undecided instead. */
#define CT_SIM_JUDGE_JOBS 5000
/** The same with replication r placed by policies[r] (R distinct policy
 *  objects, or NULL: cfg->policy for all) on up to `threads` threads (0:
 *  the cores; 1, or no policies: one after the other). Policies carry
 *  state, so replications run at once only with one each. The summary is
 *  the same for any number of threads. */
ct_status_t ct_sim_replicate_ex(const ct_sim_config_t *cfg, ct_policy_t *const *policies, unsigned threads,
                                const ct_sim_run_params_t *p, ct_sim_summary_t *out, ct_error_t *err);
ct_status_t ct_sim_replicate(const ct_sim_config_t *cfg, const ct_sim_run_params_t *p, ct_sim_summary_t *out,
                             ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
