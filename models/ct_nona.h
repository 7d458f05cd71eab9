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
 * Server queueing (params.server_model, default on; spec s.11; off is the
 * paper's link-only model). Servers run job-first (ct_sim.h): a job's work
 * on a server runs as one "piece" once started. Per server (M/G/1, Poisson
 * thinning over N uniform servers):
 *   rho_s = rho_bg_s + sum_j beta_j W_j / N           (W_j: a job's work; no theta)
 *   m2_s(theta) = m2_bg_s + (1/N) sum_j beta_j (W_j^2 + sum_w theta_w q_w)
 *   W = m2_s / (2 (1 - rho_s))                        (mean wait of a piece)
 * Pieces: an all-local job is one piece of W_j; a triplet w with several
 * parts cuts its segment b into the root piece (work before b plus part k),
 * one piece per other part, and the sink piece (sink of b plus the work
 * after b); q_w = (sum of their squares) - W_j^2 <= 0, exact for all-local
 * jobs and for jobs that split one segment (a linearisation otherwise).
 * Waits: the job's first piece waits W_root = r_root(d) W; every part not
 * placed with the segment's source waits a random X (0 with probability
 * 1 - rho_s, else exponential with mean W_part / rho_s, W_part = r_part(d)
 * W); a sink that returns to a server re-enters ahead of younger jobs and
 * is taken to wait nothing. M_w(phi, W) = E[max_i (a_i + n_i phi + X_i)]
 * (exact for that distribution), nondecreasing in phi and W.
 * tau_j = base_j + W_root + sum_{b of j} sum_w theta_w M_w(phi, W).
 * Batched transfers (with the server model): every crossing edge out of one
 * task reaches the link at the same instant, a batch (M^X/G/1): a2_w sums
 * each batch's squared total time instead of each S_e^2, and a transfer
 * also waits, on average, for half of the other members of its batch.
 * Dependent parts (params.dependent_parts, default on; off is the paper's
 * s.6): a part that receives an edge from an inner task of another part
 * cannot run that task before the edge's transfer, which starts when its
 * upstream task ends. Each part is then a timeline: in topological order,
 * every crossing edge into a task waits for its upstream end and then its
 * transfer occupies the part, then the task runs (params.transfers_task,
 * --transfers task: the transfer delays only the paths from its upstream
 * task, and the task starts at the later of its part's timeline and the
 * transfer's arrival, as on the simulator's link). A part's end is a max of
 * (a + n phi + X) terms, one per path that sets it (X of the part where the
 * path starts; at most CT_NONA_PATHS per part, the rest folded into one
 * term that bounds them), and those terms are the triplet's branches.
 * When every crossing edge leaves the source or enters the sink (fork-join
 * segments), it is the paper's branch model exactly. Waits of different
 * branches are taken as independent even where two paths share one X.
 * Job-first waits (params.reentry_waits, on with the server model, in the
 * aged form below by default; off: the piece waits above, the earlier model). Servers pick the ready
 * task of the oldest job, one task at a time, so a job that splits is not
 * a few uninterrupted pieces: measured per task (`contend sim --by-task`),
 * every task that joins a server after a transfer waits. Three changes:
 *  - a re-entry (a sink fed by other parts, once per sending part; an
 *    inner task fed by another part's task, after its part's first task)
 *    waits R = m2_task / 2, m2_task = (1/N) sum_j beta_j sum_t s_t^2
 *    (original tasks, plus the background's): the residual of the task in
 *    service. The re-entering job is older than almost everything queued,
 *    so under job-first it goes next (the top class of a non-preemptive
 *    priority queue: Cobham's R0 / (1 - sigma) with sigma about 0). The
 *    earlier R0 / (1 - rho_s) (reentry_waits 2, --waits stretched) had it
 *    wait behind everything: 20% pessimistic at load 0.7 on an ensemble
 *    and tables kept local above;
 *    R does not depend on theta: a constant on the branch, a + R;
 *  - a remote part's first task is the newest job's and waits behind every
 *    older job's later visits (non-preemptive priority, lowest class):
 *    W_part = r_part W / (1 - rho_s); with dependent parts that wait
 *    follows the inputs of the part's first task, so every path into it
 *    gains it (a path that already carries an X counts the further ones
 *    at their mean W_part: ct_branch_t.w);
 *  - spread waits (reentry_waits 3, --waits job-first-spread; not the
 *    default): each inner re-entry's wait is random (0 w.p. 1 - rho_s,
 *    else exponential with mean R / rho_s), and so is each further first
 *    visit (like X), all independent: a branch carries the count of its
 *    re-entries (ct_branch_t.r, their mean in a), and M_w takes the spread
 *    of each branch's summed wait (nona_model.c, spread_time). On deep
 *    generated DAGs it brings the model closer to the simulator on the
 *    tables it chooses, but paths that share a wait are treated as
 *    independent, which over-prices splits with many dependent paths: its
 *    tables simulate worse at some points (docs/model-checks.md);
 *  - W's second moment is that of the job's real pieces: visits are runs
 *    of a part's tasks cut at re-entries; the job's open piece on its
 *    current server runs on through segments that stay local and closes
 *    where one splits. Its expectation, with every segment's triplet drawn
 *    independently from theta (as the sampler draws), is carried through
 *    the segments in order (ct_nona_pieces_m2; exact under those
 *    assumptions, where the linearised q undershoots: a job that splits
 *    several segments could drive it to 0). W takes the larger of the two
 *    and of m2_task (pieces are unions of tasks). The wait LP's server
 *    row is a linear lower bound of that m2_s (the linearised one, or a
 *    cut of the pieces' squares: ct_nona_model_set_server_row), so its
 *    bounds stay bounds;
 *  - merged visits (reentry_waits 4, --waits job-first-merged): a job's
 *    later visits to a server all go before a younger job's first task
 *    there, so a newcomer waits behind all of them at once: each part's
 *    runs in a segment are one piece (no cut at re-entries; the sink goes
 *    on with part l's piece), and where the sink comes back to part k's
 *    server (l = k) the open piece takes part k and the sink and runs on,
 *    the other parts closed pieces (vh_sq of a column that stays open).
 *    W for split jobs is then about the simulated one on deep DAGs; the
 *    linearised row bounds it loosely (a certified solve keeps tables
 *    local), so it is meant with the pieces cut (--server-row pieces, which
 *    the solver's row auto takes with merged and aged waits).
 *  - aged waits (reentry_waits 5, --waits job-first-aged, the default
 *    since 2026-11-28): merged visits, and a re-entry into task v goes after the later
 *    tasks of older jobs and before every younger job's, a class of a
 *    non-preemptive priority queue: R(v) = R / (1 - sigma(v)), sigma(v) the
 *    servers' load from tasks whose earliest start in their job (no waits,
 *    no transfers) is later than v's (every class; the jobs older than this
 *    one, now doing those tasks). Cobham's R0 / ((1 - sigma_{k-1})(1 -
 *    sigma_k)) with the lower-priority factor dropped: with a full factor
 *    the tables kept local where splits pay. A constant per task, so the
 *    certificate is unchanged. Early tasks of deep DAGs wait up to R / (1 -
 *    rho_s), the last ones R: on generated layered workloads the simulator's
 *    per-task waits fall the same way with age (`--by-task`). With
 *    late-bound parts a remote part's first wait is aged too: W_part /
 *    (1 - sigma(v)), v its first task (a branch's w carries the stretch),
 *    in place of the later share's W_part / (1 - rho_s later_share), which
 *    charged a part in a job's last segment as much as one in its first
 *    (params.late_first 1, --late-first aged; not the default since
 *    2026-11-29, below).
 *  - late intrusions (params.late_first 0, the default since 2026-11-29,
 *    with late parts and aged waits): a late part's first task waits as a
 *    root does, r_root W (the simulator's late parts wait about what its
 *    roots do at age 0 and less later; the stretch charged twice that on
 *    shallow DAGs), and a task that continues its part's run on a server
 *    waits for what older jobs' late parts put there during the run
 *    before it: a busy server takes a newly bound part when every sampled
 *    server is busy (p_busy, rho_s^d in the mean field; of those not held
 *    idle), later_share of the work is in late parts and half of them are
 *    older: cont_factor = CT_NONA_INTRUSION p_busy rho_s / (rho_s +
 *    held_share) later_share of that run (ct_branch_t.c; the simulator's continuing
 *    tasks waited 0.13-0.35 of the run before them at load 0.7, d = 2,
 *    0.03-0.05 at 0.3). The stretch had stood in for these waits on deep
 *    DAGs.
 * Late-bound parts (params.late_parts): a part that leaves its source's
 * server is bound when it is first needed (one of its tasks has every
 * input sent, the earlier ones held at their senders; or the job arrives,
 * for a part fed by the source) to the least loaded of d
 * sampled servers, as the root is. Every piece then arrives through the d
 * rule (a = 1), so in the mean field a remote part's first task waits
 * r_root W as the root does (still stretched by older jobs' later visits
 * under job-first waits): r_part = r_root. Its shape is a uniform
 * server's by default (p_wait = rho_s); with params.late_waits 1
 * (least-of-d) it follows the rule too: it waits only when all d sampled
 * servers are busy, p_wait = rho_s^d, and then longer (X = 0 w.p.
 * 1 - p_wait, else exponential with mean W_part / p_wait; the mean is
 * r_root W either way), which raises the E[max] of several late parts
 * (rare long waits coincide less than frequent short ones, so their
 * maximum is larger). It predicts the generated ensembles better
 * (simulated / predicted median 1.011 against 1.038) but makes the solver's
 * default pricing miss splits on deep DAGs (docs/model-checks.md, "Late
 * parts' wait shape"). The root keeps r_root W. On generated layered workloads (contend sim
 * check --generate) this removes most of the piece model's optimism at
 * depth; docs/model-checks.md gives the figures.
 * Pooled roots: the root goes to the least loaded of d sampled servers, the
 * other parts to uniform ones; for d > 1 a mean-field M/M/1 approximation
 * (a share a of the work arrives through the root rule; the fraction of
 * servers with >= i tasks is s_0 = 1, s_i = rho (a s_{i-1}^d + (1-a) s_{i-1}))
 * scales the waits: r_root = sum_i s_i^d / L1, r_part = sum_i s_i / L1,
 * L1 = rho / (1 - rho); both are 1 at d = 1. ct_nona_solve sets a to the
 * share of its own solution (a fixed point, a few solves).
 * Finite servers (params.finite_servers, --sampling finite, the default
 * for late parts since 2026-11-30): the mean field's rho^d says d sampled servers are
 * all busy almost never once d is large, but N servers are few and a job's
 * parallel parts keep several busy at once, so the busy count spreads
 * wider than Poisson and the d rule fails in the moments when hardly one
 * is idle (a generated ensemble at load 0.7, d = 32: rho^d 1.5e-5, the
 * simulator's late parts found all d busy at 5% of their bindings). The
 * busy count B is taken Normal with mean u N (u = rho_s + the held share h)
 * and variance D rho_s N, D the dispersion of the parts' overlaps
 * (ct_nona_dispersion), and p_busy = E[min(1, B/N)^d] replaces rho^d:
 * r_root scales by p_busy / rho^d and late parts' X waits with p_busy.
 * With late parts held between their tasks (late_hold: the simulator's
 * ready-hold and probes) a re-entry into a late part's server waits
 * hold_factor of its wait, and the held time (ct_tripinfo_t.hold) is the
 * share h of servers the d rule sees busy. D and h are shares of the
 * solver's fixed point, and their marginal costs price each triplet's
 * overlap and hold in the search (price_overlap, price_hold). Within 10%
 * of the simulator at load 0.9 at most generated points where the mean
 * field was 15-30% optimistic (docs/model-checks.md, "Finite servers").
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

/** Most branches a part contributes with dependent parts (see above). */
#define CT_NONA_PATHS 4

/** --sampling auto (ct_nona_model_params_t.finite_servers 2, the default):
 *  finite sampling for late parts on the least loaded of this many choices
 *  or more, the mean field below and for probes (at d = 2 the mean field is
 *  as close to the simulator; probes' finite tables met the p99 bar less
 *  often: docs/model-checks.md, "Finite servers"). */
#define CT_NONA_SAMPLING_AUTO 2
#define CT_NONA_FINITE_D 8

/** The default waits of the server model (params.reentry_waits): 5, aged
 *  waits (--waits job-first-aged), the one that meets issue #32's bar on
 *  deep generated DAGs for both bindings (docs/model-checks.md); 1
 *  (--waits job-first) was the default before 2026-11-28. */
#define CT_NONA_WAITS_DEFAULT 5

/** The default shape of a late part's wait (params.late_waits): 1,
 *  least-of-d (--late-waits least-of-d), since 2026-11-28: within 10% on
 *  every generated ensemble where the uniform shape was 11.5% optimistic
 *  (docs/model-checks.md); 0, uniform, the shape before. */
#define CT_NONA_LATE_WAITS_DEFAULT 1

/** The default first wait of a late part (params.late_first): 0, as a
 *  root's, with late intrusions (--late-first root, since 2026-11-29:
 *  docs/model-checks.md, "Late intrusions"); 1, stretched by its age
 *  (--late-first aged), the default before. */
#define CT_NONA_LATE_FIRST_DEFAULT 0

/** Where a virtual root's wait goes (params.root_wait_all) with late
 *  parts: 1, on the whole job (--virtual-root job, the default); 0, on
 *  the paths through the root's part only (--virtual-root part, since
 *  2026-12-01, not the default: it is what the simulator does, but the
 *  wait it takes off had stood in for the continuing tasks' waits at load
 *  0.7: docs/model-checks.md, "Virtual roots"). */
#define CT_NONA_ROOT_WAIT_ALL_DEFAULT 1

/** Where an inner edge's transfer into a part goes with dependent parts
 *  (params.transfers_task): 0, onto the receiving part's timeline, every
 *  path of it (--transfers part, the default: the paper's branch sums a
 *  part's inbound transfers); 1, onto the paths through the upstream task
 *  only (--transfers task, since 2026-12-01, not the default: the
 *  simulator's link does not hold the part, but the waits it overcharged
 *  had stood in for the waits the model lacks at load 0.7:
 *  docs/model-checks.md, "Transfers"). */
#define CT_NONA_TRANSFERS_TASK_DEFAULT 0

/** Late intrusions: the share of the late parts put on a busy server that
 *  belong to older jobs and so go before its next task (half: a job in
 *  the middle of its life). */
#define CT_NONA_INTRUSION 0.5

/** One branch of a triplet: time a + n * phi (+ a server wait X) (+ w
 *  W_part) seconds. */
typedef struct {
    double a;   /**< compute + transfer times on the branch, s */
    double n;   /**< link transfers on the branch (each waits phi) */
    int remote; /**< 1: a part placed away from the source's server (waits X) */
    double w;   /**< job-first waits: further first visits of remote parts on the branch, each counted
                     at X's mean W_part (with reentry_spread: a wait like X, independent) */
    double r;   /**< reentry_spread: re-entries of inner tasks on the branch; their mean (R each) is in
                     a, their spread is added by the E[max] (independent, 0 w.p. 1 - rho_s, else
                     exponential); 0 otherwise */
    double c;   /**< late intrusions (ct_nona_model_t.late_intrusions): the run before each task on the
                     branch that continues its part's run on its server, summed, s; a holds
                     cont_factor x c of wait for it (0 otherwise; a field of its own, not a union with
                     r: with a union the pricing's copies of branches ran 20-30% slower) */
} ct_branch_t;

/** A triplet's model data. */
typedef struct {
    double a1, a2;          /**< per job: sum S_e (s), sum S_e^2 (s^2) over crossing edges */
    size_t branch_start;    /**< into model->branches */
    size_t n_branches;
    size_t n_crossing;      /**< crossing edges */
    double q;               /**< server pieces: sum of squares - W_j^2 (s^2, <= 0) */
    size_t n_remote;        /**< branches with remote = 1 */
    double remote_work;     /**< compute of the parts placed away from the source, s */
    double hold;            /**< late_hold: time its late parts hold their servers idle per job, s: from
                                 binding to their first task's inputs in, and between their tasks
                                 while an input from another part is on its way (at the branches'
                                 constant times) */
    double overlap;         /**< its parts' compute side by side, 2 sum over pairs of parts of the time
                                 both run (each part's compute spread over its span from its first
                                 task's start to its last one's end at the branches' constant
                                 times), s (0 for one part; 0 without finite_servers): what the
                                 triplet adds to the variance of the busy servers' count beyond its work */
    int vh_close;           /**< job-first waits (nona_model.c, visit_pieces): the triplet closes the job's
                                 open piece after vh_head; else the piece takes vh_head and goes on */
    double vh_head;         /**< work the open piece takes, s */
    double vh_sq;           /**< the segment's other visits, squares summed, s^2 (closed pieces; with
                                 merged visits also where the open piece goes on) */
    double vh_tail;         /**< the new open piece's start (the sink's visit), s */
    double vh_early;        /**< remote parts' first runs that need only the source (they start with the
                                 job when the segment is its first), s */
    double qr;              /**< the wait LP's server row: this triplet's coefficient, s^2 (q, or with the
                                 pieces cut its coefficient there; ct_nona_model_set_server_row) */
} ct_tripinfo_t;

/** One (class, segment) pair: a simplex of theta. */
typedef struct {
    size_t cls;             /**< class index */
    size_t segment;         /**< segment index in the class's split */
    size_t var_start;       /**< its first variable in theta */
    size_t n_vars;          /**< its triplet count */
    size_t local_var;       /**< the all-local triplet (one part, k = l = 0) */
    ct_partitions_t parts;  /**< its triplets: all of them, or (generated) those generated so far */
    int generated;          /**< 1: too many to enumerate; triplets come from column generation */
    double pre, post;       /**< the job's work before the segment's parts and from its sink on, s */
    double q_floor;         /**< <= every q_w of the segment's triplets, listed or not, s^2 (exact when
                                 enumerated; generated: the pieces' least sum of squares with tasks divisible) */
    size_t *in_start;       /**< n_inner + 2 offsets into in_edge: the edges into inner task t, then
                                 (t = n_inner) into the sink */
    size_t *in_edge;        /**< the segment's edge numbers (into seg->edges), grouped by target */
    double chain;           /**< the longest chain of inner tasks' compute, s: with dependent parts
                                 no triplet's part ends before it */
    double cut_f, cut_b, cut_z; /**< the pieces cut's weights of a triplet's forward piece, backward piece and
                                 of staying open (ct_nona_model_set_server_row; 0 without it) */
    double cut_s;           /**< the all-local triplet's coefficient under the cut, taken off every triplet's
                                 (into m2s_row; the row keeps q's shape: 0 for all-local) */
} ct_block_t;

/** Per class: the contracted, split DAG. */
typedef struct {
    ct_split_t split;
    double base;            /**< root + sinks compute time, s */
    double work;            /**< W_j: all compute of one job, s */
    size_t block_start, n_blocks;
    double *reentry_at;     /**< aged waits: per task of split.dag, R for a re-entry into it, s; NULL: the
                                 model's reentry_wait for every task */
    int root_inside;        /**< 1: the root's wait and round trip sit on the first segment's paths
                                 through the root's part (a virtual root with late parts and
                                 params.root_wait_all 0), not in base nor W_root's share of J */
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
    int server_model;       /**< 1: server queueing on (see above); 0: link only (the paper) */
    int link_batches;       /**< 1 (with server_model): transfers leave in batches, see below */
    int dependent_parts;    /**< 1: parts wait for the parts that feed them (see above); 0: the paper */
    unsigned root_choices;  /**< d of the root rule (1: uniform) */
    int late_parts;         /**< 1: parts away from their source bind when first needed, by the root
                                 rule (see above); 0: when the job arrives, uniformly (the paper) */
    int late_probes;        /**< 1 (with late_parts): roots and late parts are placed by probes
                                 (Sparrow's late binding) instead of the least loaded of d */
    double rtt;             /**< the round trip the model was built for, s (params' rtt); charged as
                                 rtt_root and rtt_part */
    double rtt_root;        /**< round trips a sampled root pays before it starts, s (params' rtt when
                                 root_choices > 1, twice with late_probes whatever d, else 0); in every
                                 class's base */
    double rtt_part;        /**< round trips a late part pays on each path into its first task, s (as
                                 rtt_root with late_parts, else 0); in its branches' a */
    int late_waits;         /**< late parts' wait X: 1, least-of-d: it waits with probability rho_s^d
                                 (mean field: every sampled server busy; params' default
                                 CT_NONA_LATE_WAITS_DEFAULT), else uniform (rho_s) */
    double p_wait;          /**< probability that a remote part's first task waits, X = 0 w.p.
                                 1 - p_wait, else exponential with mean W_part / p_wait: rho_s, or
                                 rho_s^root_choices for late parts with late_waits 1 */
    int reentry;            /**< 1: tasks that re-enter a server wait (see above); 0: they wait nothing */
    int reentry_stretched;  /**< 1: R = m2_task / (2 (1 - rho_s)), the first version's (--waits stretched) */
    double reentry_wait;    /**< R, the wait of a re-entering task, s (0 when reentry is 0) */
    int reentry_merged;     /**< 1: a part's visits to its server are one piece of W (--waits job-first-merged) */
    int reentry_aged;       /**< 1 (with reentry_merged): a re-entry waits by its task's age in the job,
                                 classes' reentry_at (--waits job-first-aged) */
    int reentry_spread;     /**< 1: inner re-entries and further first visits are independent random waits
                                 (--waits job-first-spread); 0: at their means, a constant on the branch */
    double m2s_task;        /**< m2_s if every original task were a piece of its own, s: no placement's
                                 pieces (unions of tasks) can have less */
    double m2s_floor;       /**< W's m2_s is taken no lower than this: m2s_task (reentry) or the
                                 background's (the earlier model) */
    double rho_s;           /**< per-server load */
    double m2s_local;       /**< m2_s with every job all-local, s */
    double m2_bg_s;         /**< the background's part of m2_s, s */
    double root_share;      /**< a: share of the work arriving through the root rule (default 1) */
    double later_share;     /**< job-first waits: share of the work that reaches servers after its job
                                 started (not its root piece, not first-segment parts fed by the source;
                                 default 0); with late_intrusions the late parts' share of the work
                                 instead (ct_nona_later_share: the same share of the solver's fixed
                                 point, which scales cont_factor) */
    double r_root, r_part;  /**< wait factors of the root rule */
    int finite_servers;     /**< 1: the d rule finds every sampled server busy with the chance p_busy of
                                 N servers whose busy count spreads with the jobs' parallel parts
                                 and counts the held ones (--sampling finite); 0: rho_s^d (mean
                                 field, infinitely many servers) */
    double dispersion;      /**< D >= 1: variance / mean of the busy servers' count (1: Poisson, every
                                 job on one server at a time; ct_nona_dispersion) */
    double held_share;      /**< late_hold with finite_servers: the share of servers held idle for late
                                 parts (ct_nona_held_share) */
    double p_busy;          /**< the chance that all d sampled servers are busy (or held): rho_s^d, or with
                                 finite_servers E[min(1, B/N)^d], B ~ Normal(u N, D u N), u = rho_s +
                                 held_share */
    double price_hold;      /**< finite_servers: what a second of a triplet's hold costs the other jobs'
                                 waits (dJ/dh / N, set by the solver's fixed point; 0 otherwise): added
                                 to its time with price_overlap x overlap (the search's objective;
                                 ct_nona_evaluate reports J with them, solvers report it without) */
    double price_overlap;   /**< finite_servers: the same per second of overlap (dJ/dD / (rho_s N)) */
    int late_hold;          /**< 1 (with late_parts and finite_servers): a late part's server counts it
                                 busy from its binding to its first task and between its tasks, so a
                                 re-entry into it waits only behind what the d rule put there
                                 meanwhile (hold_factor of its wait), and the held time is taken from
                                 the servers the d rule sees idle (held_share) */
    int virtual_root_part;  /**< 1: late_parts and params.root_wait_all 0 (classes with a virtual root
                                 are root_inside) */
    int transfers_task;     /**< params.transfers_task */
    int late_intrusions;    /**< 1 (late_parts with aged waits, params.late_first 0): a late part's first
                                 task waits as a root does (no stretch by its age), and a task that
                                 continues its part's run waits for the older jobs' parts bound to its
                                 server during the run before it: cont_factor of that run */
    double cont_factor;     /**< late_intrusions: CT_NONA_INTRUSION x p_busy x rho_s / (rho_s + held_share)
                                 x later_share (then the late
                                 parts' share of the work): what share of a run older jobs' late parts
                                 put before the next task of the part; in the branches' a (kept
                                 there as it changes: ct_nona_model_set_root_share) */
    double hold_factor;     /**< share of a re-entry's wait left in a held late part's server:
                                 min(1, p_busy / rho_s) at dispersion 1 with late_hold, else 1 (set
                                 by the build: the branches keep it) */
    int server_cut;         /**< 1: the wait LP's server row is the pieces cut (qr, m2s_row); 0: q, m2s_local */
    double m2s_row;         /**< the server row's constant, s (m2s_local, or the cut's) */
    void *gl;               /**< Gauss-Legendre table (private) */
    ct_scratch_t *scratch;  /**< the solves' wait LPs' buffers, kept for the next (private; NULL works: a
                                 model is solved by one thread at a time) */
    struct ct_screen_cache *screens; /**< the wait LPs' per-column screens, kept for the next (private:
                                 solver/nona_wait_lp.c; NULL works; its columns stay aligned with trip) */
    unsigned long branch_gen; /**< bumped whenever existing branches change (set_intrusions): what the
                                 screens cache is keyed on besides the waits */
} ct_nona_model_t;

/** What the wait LP's screens of one column keep (solver/nona_wait_lp.c):
 *  its branches' lower lines a + n phi + r W_part at two reference points,
 *  as floats rounded down and r in eighths. A function of the column's
 *  branches, the points and p_wait only. */
typedef struct {
    float a[2], n[2];       /**< the lines' constant and link terms */
    unsigned char r[2];     /**< their W_part coefficient in eighths, rounded down */
    unsigned char valid;    /**< 1: computed under the cache's key */
} ct_screen_entry_t;

/** The model's cache of column screens (private): entry w belongs to
 *  trip[w] (ct_nona_model_add_triplets moves entries with their columns
 *  and adds invalid ones); every valid entry was computed under key. */
struct ct_screen_cache {
    double key[6];          /**< phi and W_part at both points, p_wait, branch_gen */
    size_t n;               /**< entries (the model's n_vars, or 0 before the first use) */
    ct_screen_entry_t *e;   /**< n entries */
};

/** Model-building options; fill with ct_nona_model_params_init(). */
typedef struct {
    ct_partition_params_t partition;   /**< enumeration limits */
    int server_model;       /**< server queueing (default 1; 0: the paper's link-only model) */
    unsigned root_choices;  /**< roots on the least loaded of d servers (1..64; default 2; 1: the paper's uniform roots) */
    int dependent_parts;    /**< parts wait for the parts that feed them (default 1; 0: the paper's
                                 independent branches, spec s.6) */
    int reentry_waits;      /**< with the server model: a task that joins a server after its job
                                 left it (a sink fed by other parts, a task fed by another part's task)
                                 waits the residual of the task in service (1; 2: that wait
                                 stretched by 1 / (1 - rho_s), the first version; 3: as 1 with inner
                                 re-entries and further first visits as independent random waits
                                 (spread, see "Job-first waits"); 4: as 1 with a part's visits to
                                 its server one piece of W (merged visits); 5: as 4 with each
                                 re-entry's wait by its task's age in the job (aged waits, the default,
                                 CT_NONA_WAITS_DEFAULT); 0: the earlier
                                 model, where only the root and the first task of a remote part wait) */
    int late_parts;         /**< with the server model: parts that leave their source's server bind when
                                 first needed to the least loaded of root_choices servers (1), or when
                                 the job arrives to distinct uniform servers (0, default: the paper) */
    int late_waits;         /**< with late_parts: the shape of a late part's wait (its mean is W_part
                                 either way): 1, least-of-d: it waits with probability rho_s^d, the
                                 mean-field chance that all d sampled servers are busy, and longer
                                 (default, CT_NONA_LATE_WAITS_DEFAULT); 0, uniform: with probability
                                 rho_s, as on a uniform server (the default before 2026-11-28) */
    int late_first;         /**< with late_parts and aged waits: 0, a late part's first task waits as a
                                 root does and later tasks of a part wait for the late parts of older
                                 jobs bound to its server meanwhile (late intrusions, default,
                                 CT_NONA_LATE_FIRST_DEFAULT); 1, aged: its first task's wait is
                                 stretched by its age, W_part / (1 - sigma(v)), and a part's later
                                 tasks wait nothing (the default before 2026-11-29) */
    int root_wait_all;      /**< with late_parts, a class whose DAG has several source tasks (the split's
                                 virtual root, of no compute): 0, the root's wait r_root W (and its
                                 round trip) is on the paths through the root's part, the server the
                                 root is placed on, only; a late part fed by the source alone binds
                                 at once and waits its own X (--virtual-root part); 1, every task
                                 waits it, as behind a real root (default,
                                 CT_NONA_ROOT_WAIT_ALL_DEFAULT) */
    int transfers_task;     /**< with dependent parts: 0, an inner edge's transfer into a part shifts the
                                 part's whole timeline (default, CT_NONA_TRANSFERS_TASK_DEFAULT); 1, only
                                 the paths from its upstream task (the task waits for the later of its
                                 part's timeline and the transfer's arrival) */
    double rtt;             /**< the round trip between scheduler and servers, s (default 0, the paper:
                                 none): a root on the least loaded of root_choices > 1 starts one later
                                 (the queue lengths come back first), and with late_parts so does each
                                 part bound away from its source (0 .. 10) */
    int finite_servers;     /**< with late_parts and root_choices > 1: the chance that all d sampled
                                 servers are busy from the spread of the busy servers' count among N,
                                 with the held share and the prices of both (1, --sampling finite),
                                 or rho_s^d as for infinitely many servers (0, --sampling mean-field:
                                 the model before 2026-11-30; early parts always); 2, auto (the
                                 default, CT_NONA_SAMPLING_AUTO): finite from d = CT_NONA_FINITE_D,
                                 not for probes */
    int late_hold;          /**< with late_parts and finite_servers: a late part's server is held for
                                 it between its tasks (1, default: the simulator's --late-bind
                                 ready-hold and probes), or not (0: ready, first-input); see
                                 ct_nona_model_t.late_hold */
    int late_probes;        /**< with late_parts: the scheduler places roots and late parts by probes
                                 (reservations on d servers, the first free takes it; contend sim
                                 --late-bind probes), so each pays two round trips (the probe lands,
                                 the server asks); the waits keep the least-of-d shape (default 0:
                                 the least loaded of d, one round trip). The table records it */
    int large;              /**< segments over partition.max_triplets: 1 (default) start from a few
                                 triplets, the solver generates the rest (column generation);
                                 0: refuse them (CT_ELIMIT) */
    unsigned threads;       /**< from 64 classes on, the classes' DAGs are contracted and split on
                                 this many threads (default 1; 0: the cores); the model does not
                                 depend on it, nor does the error reported (the first class's) */
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

/** Appends n triplets to generated block `block`: assign holds n rows of
 *  parts.n_inner part numbers (numbered by first appearance), k and l the
 *  parts of source and sink. Renumbers the variables of every later block
 *  (theta vectors from before do not fit after). Fails with CT_EINPUT for a
 *  block that is not generated or a malformed triplet. O(model size). */
ct_status_t ct_nona_model_add_triplets(ct_nona_model_t *m, size_t block, size_t n, const uint8_t *assign,
                                       const uint8_t *k, const uint8_t *l, ct_error_t *err);

/** A triplet's coefficient in the wait LP's server row (ct_tripinfo_t.qr)
 *  from its q, vh_close, vh_head, vh_sq and vh_tail, under the row the
 *  model has now (ct_nona_model_set_server_row). Nondecreasing in head, sq,
 *  tail and q (the cut's weights are >= 0), so values rounded down give a
 *  lower bound. O(1). */
double ct_nona_server_coef(const ct_nona_model_t *m, size_t block, double q, int close, double head, double sq,
                           double tail);

/** Scratch space to evaluate a triplet of one block that is not (yet) in
 *  the model; see ct_nona_candidate_eval. */
typedef struct {
    size_t block;
    ct_tripinfo_t info;     /**< the last evaluated triplet (branch_start unused) */
    ct_branch_t *branches;  /**< its branches (info.n_branches) */
    double *batch;
    ct_branch_t *paths;     /**< scratch for dependent parts */
    uint8_t *n_paths;
} ct_nona_candidate_t;

ct_status_t ct_nona_candidate_alloc(const ct_nona_model_t *m, size_t block, ct_nona_candidate_t *c, ct_error_t *err);
void ct_nona_candidate_free(ct_nona_candidate_t *c);
/** Computes c->info and c->branches for the triplet (assign: q nonempty
 *  parts, one per inner task, any numbering; k, l < q). O(segment size). */
void ct_nona_candidate_eval(const ct_nona_model_t *m, ct_nona_candidate_t *c, const uint8_t *assign, size_t q,
                            size_t k, size_t l);
/** M(phi, W) of the candidate last evaluated (as ct_nona_triplet_time). */
double ct_nona_candidate_time(const ct_nona_model_t *m, const ct_nona_candidate_t *c, double phi, double W);
/** A lower bound on ct_nona_candidate_time (the latest branch's mean
 *  time without its wait's spread; -inf with spread waits, whose time
 *  is not built on it). O(branches). */
double ct_nona_candidate_time_floor(const ct_nona_model_t *m, const ct_nona_candidate_t *c, double phi, double W);

/** M_w(phi, W) for triplet w (W: the server wait; ignored without the
 *  server model). O(branches of w) (x 32 with remote parts and W > 0). */
double ct_nona_triplet_time(const ct_nona_model_t *m, size_t w, double phi, double W);

/** M(phi, W) of a triplet given by a copy of its info and branches
 *  (ti->branch_start unused): ct_nona_triplet_time on data a caller keeps
 *  packed together. */
double ct_nona_tripinfo_time(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                             double W);

/** A lower bound on M_w(phi, W) without exponentials: the larger of the
 *  largest branch's mean, max_i (a_i + n_i phi + E[X_i]) with E[X_i] =
 *  W_part for a remote branch under the server model (E[max] >= max E,
 *  the max being convex), and, with at most 16 remote branches, M_w's own
 *  sum with each e^{-x} taken at (1 - x / 8)^8 (smaller; M_w grows with
 *  each). Equal to M_w without the server model. O(branches of w +
 *  remote branches^2). */
double ct_nona_triplet_time_lb(const ct_nona_model_t *m, size_t w, double phi, double W);
/** ct_nona_triplet_time_lb of a triplet given by a copy of its info and
 *  branches (as ct_nona_tripinfo_time). */
double ct_nona_tripinfo_time_lb(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                                double W);
/** dM_w/dphi and dM_w/dW at (phi, W) (one-sided where M has a kink). */
void ct_nona_triplet_grad(const ct_nona_model_t *m, size_t w, double phi, double W, double *d_phi, double *d_W);
/** The server wait of m2_s: W = m2_s / (2 (1 - rho_s)) (0 without the server
 *  model). m2_s is taken no lower than m2s_floor: the linear m2_s of a job
 *  splitting several segments can undershoot the true sum of squares. */
double ct_nona_server_wait(const ct_nona_model_t *m, double m2s);
/** W of a placement from both estimates of its pieces' second moment: the
 *  linearised m2s and (job-first waits) m2v, the expected sum of the
 *  pieces' squares (ct_nona_pieces_m2; the larger counts). */
double ct_nona_server_wait_visits(const ct_nona_model_t *m, double m2s, double m2v);
/** Job-first waits: m2_bg_s + (1/N) sum_j beta_j E[sum of j's pieces
 *  squared], each segment's triplet drawn independently from theta. With
 *  col_start == NULL theta is the model's n_vars vector; else theta[x] for
 *  x in [col_start[b], col_start[b + 1]) belongs to block b, its column's
 *  data info[x] (m->trip[x] when info is NULL). O(columns). */
double ct_nona_pieces_m2(const ct_nona_model_t *m, const double *theta, const size_t *col_start,
                         const ct_tripinfo_t *info);

/** The model evaluated at one theta. */
typedef struct {
    double J;               /**< sum_j beta_j tau_j, jobs/s x s */
    double mean_jct;        /**< J / sum beta, s */
    double rho;             /**< link load (>= 1: unstable, J = +inf) */
    double phi;             /**< mean link wait, s */
    double m2;              /**< sum lambda S^2 including background, s */
    double W;               /**< mean server wait of a piece, s (0: link-only model) */
    double W_root;          /**< mean wait of a job's first piece, s */
    double rho_s;           /**< per-server load */
} ct_nona_eval_t;

/**
 * Evaluates theta (n_vars probabilities, one simplex per block). tau (may be
 * NULL) receives each class's predicted mean JCT in seconds. O(n_vars x
 * branches).
 */
void ct_nona_evaluate(const ct_nona_model_t *m, const double *theta, ct_nona_eval_t *out, double *tau);

/** The predicted mean end of every segment's sink since its job arrived
 *  (s), under theta (as ct_nona_evaluate): ends[b] for every block b (the
 *  root's compute and wait, then each segment's E[M] and its sink's
 *  compute). O(n_vars x branches). */
void ct_nona_segment_ends(const ct_nona_model_t *m, const double *theta, double *ends);

/** The predicted mean end of every task since its job arrived (s), under
 *  theta: per class in order, one entry per task of its contracted DAG
 *  (split.dag; a contracted task ends with its last member): the root,
 *  each segment's sink as ct_nona_segment_ends gives it, and each inner
 *  task as the segment's source's end plus the mean over the segment's
 *  triplets of the task's latest path so far (its part's timeline with
 *  dependent parts; else its part's transfers from the source and its
 *  tasks so far), with the waits the segment's time takes. ends: room for
 *  the classes' split.dag task counts summed. Caller owns ends. O(n_vars
 *  x inner tasks x CT_NONA_PATHS). */
ct_status_t ct_nona_task_ends(const ct_nona_model_t *m, const double *theta, double *ends, ct_error_t *err);

/** Sets probabilities below threshold to 0 and renormalises each block (a
 *  block left empty falls back to its all-local triplet). */
void ct_nona_theta_clean(const ct_nona_model_t *m, double *theta, double threshold);

/** theta of the opportunistic baseline: per segment, the weakly connected
 *  components of its intermediate tasks (its parallel branches) are the
 *  parts, part 0 with the segment's source and sink. */
void ct_nona_theta_branches(const ct_nona_model_t *m, double *theta);

/** theta with every block on its all-local triplet. */
void ct_nona_theta_local(const ct_nona_model_t *m, double *theta);

/** The arrival rate of the jobs whose root wait W_root is a term of J of
 *  its own (sum of beta over the classes that are not root_inside), 1/s:
 *  the others' sits in their first segment's triplet times. O(classes). */
double ct_nona_root_beta(const ct_nona_model_t *m);
/** R for a re-entry into task v of class j's DAG, s: reentry_at[v] with
 *  aged waits (by the task's place in its job), else reentry_wait (0
 *  without re-entries); a held part's re-entry takes hold_factor of it.
 *  O(1). */
double ct_nona_reentry_wait_at(const ct_nona_model_t *m, size_t j, size_t v);
/** Class j's root wait as a term of its own at server wait W, s: r_root W,
 *  or 0 where it sits in the triplets (root_inside). O(1). */
double ct_nona_class_root_wait(const ct_nona_model_t *m, size_t j, double W);

/** phi with nothing crossing: m2_bg / (2 (1 - rho_bg)). */
double ct_nona_phi_min(const ct_nona_model_t *m);
/** A phi above which no theta can be optimal: the largest all-local segment
 *  time, plus (server model) the most a crossing placement can save in root
 *  waits per unit of crossing rate (see nona_model.c). */
double ct_nona_phi_max(const ct_nona_model_t *m);
/** Job-first waits: the share of the work arriving in later visits under
 *  theta (the rest: each job's root piece and its first segment's remote
 *  parts that need only the source). Older jobs' later visits overtake a
 *  remote part's first task: W_part = r_part W / (1 - rho_s later_share).
 *  With late intrusions (m->late_intrusions) the share of the work in parts
 *  away from their source's server instead, which scales cont_factor.
 *  O(n_vars). */
double ct_nona_later_share(const ct_nona_model_t *m, const double *theta);
/** The wait model's name as tables and --waits spell it: "job-first",
 *  "stretched" or "pieces". */
const char *ct_nona_waits_name(const ct_nona_model_t *m);
/** Whether a model built with p prices late parts' sampled waits with finite servers (p's
 *  finite_servers resolved: auto is finite for late parts on the least loaded of
 *  CT_NONA_FINITE_D or more, not probes). */
int ct_nona_params_finite(const ct_nona_model_params_t *p);
/** The sampled placements' busy chance, as --sampling names it: "finite" or "mean-field" (static). */
const char *ct_nona_sampling_name(const ct_nona_model_t *m);
/** The late parts' wait shape the model was built with, as --late-waits names it: "least-of-d" or
 *  "uniform" (static). */
const char *ct_nona_late_waits_name(const ct_nona_model_t *m);
/** A late part's first wait the model was built with (params.late_first): "root" (late intrusions)
 *  or "aged"; NULL where it does not apply (early binding, or waits other than aged). */
const char *ct_nona_late_first_name(const ct_nona_model_t *m);
/** Where a virtual root's wait was put (params.root_wait_all): "part" with late parts and
 *  --virtual-root part, else NULL (the whole job's, as tables before 2026-12-01 had it). */
const char *ct_nona_virtual_root_name(const ct_nona_model_t *m);
/** Where inner transfers go (params.transfers_task): "task" with dependent parts and --transfers
 *  task, else NULL (the part's timeline, as tables before 2026-12-01 had it). */
const char *ct_nona_transfers_name(const ct_nona_model_t *m);
/** The busy servers' dispersion under theta (finite_servers): variance / mean
 *  of their count, with every job's parts started together and the count
 *  unbounded (M^X/G/inf): (sum_j beta_j (W_j + sum_w theta_w overlap_w) +
 *  background) / (rho_s N), >= 1. O(n_vars). */
double ct_nona_dispersion(const ct_nona_model_t *m, const double *theta);
/** The share of servers held idle for late parts under theta (late_hold):
 *  sum_j beta_j sum_w theta_w hold_w / N, in [0, 1 - rho_s]. O(n_vars). */
double ct_nona_held_share(const ct_nona_model_t *m, const double *theta);
/** Sets the dispersion (at least 1) and the held share (clamped to [0, 1 -
 *  rho_s]) and recomputes the wait factors. */
void ct_nona_model_set_busy(ct_nona_model_t *m, double D, double h);
/** Sets later_share (clamped to [0, 1]) and recomputes the wait factors. */
void ct_nona_model_set_later_share(ct_nona_model_t *m, double s);
/** Sets a (root_share, clamped to [0, 1]) and recomputes the wait factors. */
void ct_nona_model_set_root_share(ct_nona_model_t *m, double a);
/** The share of the work that arrives through the root rule under theta:
 *  1 - (work of parts placed away from their source) / (all work). */
double ct_nona_root_share(const ct_nona_model_t *m, const double *theta);

/**
 * The wait LP's server row (solver use): a linear lower bound on m2_s,
 * m2s_row + (1/N) sum_w beta_w qr_w theta_w <= m2_s(theta) for every theta,
 * written into every triplet's qr and m->m2s_row. Without theta_ref, or
 * without job-first waits, it is the linearised one (qr = q, m2s_row =
 * m2s_local). With job-first waits and theta_ref it is the better at
 * theta_ref of that one and the pieces cut: m2_s's visits part, the
 * expected sum of a job's pieces squared, is multilinear in the segments'
 * thetas (a sum of products F_i B_j prod z_s over pairs of segments i < j:
 * i's piece that runs forward, j's that runs back, every segment between
 * staying open), and each pair is bounded below by the better at theta_ref
 * of 0 and the two McCormick planes of its box (with -C per segment
 * between that cuts), each exact at its corners. Valid for triplets not
 * listed too (generated segments take 0 as their least piece). Sets
 * *cut (may be NULL) to 1 when the pieces cut was taken.
 * Time O(columns + sum over classes of segments^2).
 */
void ct_nona_model_set_server_row(ct_nona_model_t *m, const double *theta_ref, int *cut);
/** The server row's m2_s at theta: m2s_row + (1/N) sum beta qr theta. O(columns). */
double ct_nona_server_row(const ct_nona_model_t *m, const double *theta);

/** The range of W over every theta: [W with the least m2_s, W all-local]. */
void ct_nona_W_range(const ct_nona_model_t *m, double *lo, double *hi);

#ifdef __cplusplus
}
#endif
#endif
