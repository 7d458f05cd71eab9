/*
 * evaluate.c - policy evaluation sweeps (see ct_eval.h).
 *
 * Every table-driven policy goes through the production path: a solution
 * (or a fixed theta) becomes a contend-table/1 document, which the sampler
 * library loads and draws from. nona gets the table solved for the simulated
 * point itself (the entry a lookup file's nearest-rate choice would pick);
 * nona-star one table for every point; nona-file the entry of a lookup
 * file the operator gives (ct_eval_params_t.table_path) that the sampler's
 * nearest-rate choice picks, as contend serve would; local and
 * opportunistic fixed tables (all-local triplets; each segment's weakly
 * connected branches on distinct servers, one with the source and the
 * sink).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_eval.h"
#include "ct_lp.h"
#include "ct_parallel.h"
#include "ct_nona_table.h"
#include "ct_sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const policy_names[] = { "nona", "nona-late", "nona-star", "random", "opportunistic", "local", "fair",
                                            "fair-delay", "sparrow", "sparrow-local", NULL };
/* (not among the built-in names: it needs a file, which sim compare's
 * scenarios and families have none of) */
static const char file_policy[] = "nona-file";

/* The mean time of an arriving job's task (s): sum rate x work over sum
 * rate x tasks. */
static double mean_task_time(const ct_sim_class_t *classes, size_t nc)
{
    double work = 0, tasks = 0;
    for (size_t c = 0; c < nc; c++) {
        work += classes[c].rate * classes[c].work;
        tasks += classes[c].rate * (double)classes[c].n_tasks;
    }
    return tasks > 0 ? work / tasks : 0;
}

/* The policies that draw no table: random, fair, fair-delay, sparrow(-local). */
static int tableless(const char *name)
{
    return !strcmp(name, "random") || !strcmp(name, "fair") || !strcmp(name, "fair-delay") ||
           !strcmp(name, "sparrow") || !strcmp(name, "sparrow-local");
}

static ct_status_t tableless_policy(const char *name, const ct_eval_params_t *p, const ct_sim_class_t *classes,
                                    size_t nc, ct_policy_t **pol, ct_error_t *err)
{
    if (!strcmp(name, "random"))
        return ct_policy_random(pol, err);
    if (!strcmp(name, "sparrow"))
        return ct_policy_sparrow(p->probes, pol, err);
    if (!strcmp(name, "sparrow-local"))
        return ct_policy_sparrow_local(p->probes, pol, err);
    if (!strcmp(name, "fair-delay"))
        return ct_policy_fair_delay(p->locality_wait * mean_task_time(classes, nc), pol, err);
    return ct_policy_fair(pol, err);
}

/* The policies that solve a table at every point and predict its mean JCT. */
static int solved_here(const char *name)
{
    return !strcmp(name, "nona") || !strcmp(name, "nona-late");
}

const char *const *ct_eval_policy_names(void)
{
    return policy_names;
}

void ct_eval_params_init(ct_eval_params_t *p)
{
    *p = (ct_eval_params_t){ .link = CT_LINK_FIFO, .bg_ratio = 100, .star_load = 0.5, .load = 0.5,
                             .max_in_flight = 20000, .server_queue = CT_QUEUE_JOB_FIRST, .fair_pick = CT_FAIR_RECENT,
                             .root_choices = 2, .dependent_parts = 1, .job_first_waits = CT_NONA_WAITS_DEFAULT, .server_model = 1,
                             .threads = 1, .rep_threads = 1,
                             .locality_wait = 5, /* the best on most bundled scenarios; Spark's 3 s is "always wait" */
                             .probes = 2 /* Sparrow's d */, .late_waits = CT_NONA_LATE_WAITS_DEFAULT, .late_first = CT_NONA_LATE_FIRST_DEFAULT,
                             .root_wait_all = CT_NONA_ROOT_WAIT_ALL_DEFAULT,
                             .transfers_task = CT_NONA_TRANSFERS_TASK_DEFAULT, .late_bind = CT_SIM_LATE_BIND_DEFAULT, .table_rtt = -1,
                             .finite_servers = CT_NONA_SAMPLING_AUTO };
    ct_sim_run_params_init(&p->run);
    ct_nona_solve_params_init(&p->solve);
}

void ct_eval_point_free(ct_eval_point_t *pt)
{
    ct_sim_summary_free(&pt->sum);
    free(pt->model_task_end);
    pt->model_task_end = NULL;
}

void ct_eval_result_free(ct_eval_result_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_points; i++)
        ct_eval_point_free(&r->points[i]);
    for (size_t c = 0; r->class_names && c < r->n_classes; c++)
        free(r->class_names[c]);
    free(r->class_names);
    free(r->points);
    memset(r, 0, sizeof *r);
}

static double job_work(const ct_class_t *c, double speed)
{
    double w = 0;
    for (size_t v = 0; v < c->dag.n_tasks; v++)
        w += c->dag.time[v] / speed;
    return w;
}

static double job_bytes(const ct_class_t *c)
{
    double b = 0;
    for (size_t e = 0; e < c->dag.n_edges; e++)
        b += c->dag.bytes[e];
    return b;
}

/* The solver's parameters for a point's table: the evaluation's, with no
 * progress calls (points run at once) and one thread (as many points as
 * cores run at once already). */
static void solve_params(const ct_eval_params_t *p, ct_nona_solve_params_t *sp)
{
    *sp = p->solve;
    sp->progress = NULL;
    sp->progress_ctx = NULL;
    sp->threads = 1;
}

double ct_eval_table_rtt(const ct_eval_params_t *p)
{
    return p->table_rtt >= 0 ? p->table_rtt : p->rtt;
}

double ct_eval_scale_for_load(const ct_scenario_t *s, double load)
{
    double busy = 0; /* servers' worth of compute at scale 1 */
    for (size_t c = 0; c < s->n_classes; c++)
        busy += s->classes[c].rate * job_work(&s->classes[c], s->speed);
    return busy > 0 ? load * (double)s->servers / busy : 0;
}

/* Background for a scaled scenario: fills the simulator's streams and the
 * model's (rho_bg, m2_bg) consistently. base: the unscaled scenario. */
static void background(const ct_scenario_t *base, ct_scenario_t *sx, const ct_eval_params_t *p, ct_sim_config_t *cfg)
{
    double rate = 0, work = 0, bytes = 0;
    for (size_t c = 0; c < sx->n_classes; c++) {
        rate += sx->classes[c].rate;
        work += sx->classes[c].rate * job_work(&sx->classes[c], sx->speed);
        bytes += sx->classes[c].rate * job_bytes(&sx->classes[c]);
    }
    cfg->bg_compute_rate = cfg->bg_comm_rate = 0;
    cfg->bg_compute_time = cfg->bg_comm_bytes = 0;
    if (p->bg_ratio > 0 && rate > 0) {
        cfg->bg_compute_rate = rate / p->bg_ratio;
        cfg->bg_compute_time = work / rate;
        cfg->bg_comm_rate = rate / p->bg_ratio;
        cfg->bg_comm_bytes = bytes / rate;
    }
    if (base->rho_bg > 0 && base->m2_bg > 0) { /* the scenario's own link background */
        double S = base->m2_bg / (2.0 * base->rho_bg); /* exponential: m2 = lambda 2 S^2 */
        cfg->bg_comm_rate = base->rho_bg / S;
        cfg->bg_comm_bytes = S * base->link_bandwidth;
    }
    double S = cfg->bg_comm_bytes / sx->link_bandwidth;
    sx->rho_bg = cfg->bg_comm_rate * S;
    sx->m2_bg = cfg->bg_comm_rate * 2.0 * S * S;
    /* Background compute jobs land on uniform servers: per server a Poisson
     * stream of rate / N with exponential times (E[T^2] = 2 T^2). */
    double T = cfg->bg_compute_time, per = cfg->bg_compute_rate / (double)sx->servers;
    sx->rho_bg_s = per * T; /* the simulator runs no other server background */
    sx->m2_bg_s = per * 2.0 * T * T;
}

/* A sampler over a one-scenario table of theta (copied into a solution). */
static ct_status_t table_sampler(const ct_scenario_t *s, const ct_nona_model_t *m, const ct_nona_solution_t *sol,
                                 ct_sampler_t **out, ct_error_t *err)
{
    char *text, msg[512];
    size_t len;
    ct_status_t st = ct_nona_table_text(s, 1.0, m, sol, &text, &len, err);
    if (st != CT_OK)
        return st;
    if (ct_sampler_load_text(text, len, "table", out, msg, sizeof msg) != 0)
        st = ct_error_set(err, CT_EINTERNAL, "a generated table does not load: %s", msg);
    free(text);
    return st;
}

/* A solution holding a fixed theta (evaluated by the model). */
static ct_status_t fixed_solution(const ct_nona_model_t *m, const double *theta, ct_nona_solution_t *sol,
                                  ct_error_t *err)
{
    memset(sol, 0, sizeof *sol);
    sol->theta = malloc((m->n_vars ? m->n_vars : 1) * sizeof(double));
    sol->tau = malloc((m->n_classes ? m->n_classes : 1) * sizeof(double));
    if (!sol->theta || !sol->tau) {
        ct_nona_solution_free(sol);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    memcpy(sol->theta, theta, m->n_vars * sizeof(double));
    ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
    return CT_OK;
}

static int policy_known(const char *name)
{
    if (!strcmp(name, file_policy))
        return 1;
    for (size_t i = 0; policy_names[i]; i++)
        if (!strcmp(policy_names[i], name))
            return 1;
    return 0;
}

static const char *static_name(const char *name)
{
    if (!strcmp(name, file_policy))
        return file_policy;
    for (size_t i = 0; policy_names[i]; i++)
        if (!strcmp(policy_names[i], name))
            return policy_names[i];
    return "?";
}

/* Builds (scaled, background-adjusted) scenario, model and Nona solution
 * for one sweep point. */
void ct_eval_model_params(const ct_eval_params_t *p, int late_parts, ct_nona_model_params_t *mp)
{
    ct_nona_model_params_init(mp);
    mp->server_model = p->server_model;
    mp->root_choices = p->root_choices ? p->root_choices : 1;
    mp->dependent_parts = p->dependent_parts;
    mp->reentry_waits = p->job_first_waits;
    mp->late_parts = late_parts;
    mp->late_waits = p->late_waits;
    mp->late_first = p->late_first;
    mp->root_wait_all = p->root_wait_all;
    mp->transfers_task = p->transfers_task;
    mp->rtt = ct_eval_table_rtt(p);
    mp->late_probes = p->late_bind == CT_LATE_BIND_PROBES;
    mp->finite_servers = p->finite_servers;
    mp->late_hold = p->late_bind == CT_LATE_BIND_PROBES || p->late_bind == CT_LATE_BIND_READY_HOLD;
}

/* The point's scenario into *sx and the simulator's background streams
 * into *cfg (see ct_eval_point_scenario). */
static ct_status_t point_scenario(const ct_scenario_t *s, double scale, double bw, const ct_eval_params_t *p,
                                  ct_scenario_t *sx, ct_sim_config_t *cfg, ct_error_t *err)
{
    ct_status_t st = ct_scenario_scaled(s, scale, sx, err);
    if (st != CT_OK)
        return st;
    sx->link_bandwidth = bw;
    background(s, sx, p, cfg);
    if (sx->rho_bg >= 1) {
        st = ct_error_set(err, CT_EUNSTABLE,
                          "%s: background transfers alone load the link to %.3g at %.4g bytes/s (%s): raise "
                          "--bg-ratio for fewer background jobs, or set it to 0 for none",
                          s->path ? s->path : "scenario", sx->rho_bg, bw,
                          s->rho_bg > 0 ? "the scenario's background" : "1 per --bg-ratio jobs, each moving a mean job's bytes");
        ct_scenario_destroy(sx);
    }
    return st;
}

ct_status_t ct_eval_point_scenario(const ct_scenario_t *s, double scale, double bw, const ct_eval_params_t *p,
                                   ct_scenario_t *out, ct_error_t *err)
{
    ct_eval_params_t defaults;
    ct_sim_config_t cfg;
    if (!p) {
        ct_eval_params_init(&defaults);
        p = &defaults;
    }
    memset(&cfg, 0, sizeof cfg);
    return point_scenario(s, scale, bw, p, out, &cfg, err);
}

static ct_status_t point_setup(const ct_scenario_t *s, double scale, double bw, const ct_eval_params_t *p,
                               int late_parts, ct_scenario_t *sx, ct_sim_config_t *cfg, ct_nona_model_t *m,
                               ct_error_t *err)
{
    ct_status_t st = point_scenario(s, scale, bw, p, sx, cfg, err);
    if (st != CT_OK)
        return st;
    ct_nona_model_params_t mp;
    ct_eval_model_params(p, late_parts, &mp);
    if ((st = ct_nona_model_build(sx, &mp, m, err)) != CT_OK)
        ct_scenario_destroy(sx);
    return st;
}

struct ct_eval_plan {
    const ct_scenario_t *s;
    double *xs;
    size_t n_x;
    int bandwidth_sweep;
    const char **policies;  /* static names */
    size_t n_policies;
    ct_eval_params_t params;
    const ct_eval_params_t *p;
    ct_sampler_t *star;     /* nona-star's table, when asked for */
    ct_nona_solution_t star_sol;
    ct_sampler_t *file;     /* nona-file's lookup file, when asked for (read-only: shared by the points) */
};
typedef struct ct_eval_plan eval_ctx_t;

/* The model's mean end of every task, by the simulator's task order (NAN
 * where it has none): a contracted task ends with its last member, the
 * one latest in the simulator's (topological) order. */
static ct_status_t model_task_ends(const ct_nona_model_t *m, const ct_nona_solution_t *sol,
                                   const ct_sim_class_t *classes, size_t nc, double **out, ct_error_t *err)
{
    size_t nt = 0, nv = 0;
    for (size_t c = 0; c < nc; c++)
        nt += classes[c].n_tasks;
    for (size_t c = 0; c < m->n_classes; c++)
        nv += m->classes[c].split.dag.n_tasks;
    double *ends = malloc((nv ? nv : 1) * sizeof(double));
    *out = malloc((nt ? nt : 1) * sizeof(double));
    ct_status_t st = ends && *out ? ct_nona_task_ends(m, sol->theta, ends, err)
                                  : ct_error_set(err, CT_ENOMEM, "out of memory");
    if (st != CT_OK) {
        free(ends);
        free(*out);
        *out = NULL;
        return st;
    }
    for (size_t t = 0; t < nt; t++)
        (*out)[t] = NAN;
    for (size_t c = 0, off = 0, voff = 0; c < nc && c < m->n_classes;
         off += classes[c].n_tasks, voff += m->classes[c].split.dag.n_tasks, c++) {
        const ct_dag_t *g = &m->classes[c].split.dag;
        ct_dag_t ids; /* (only its id index: the simulator's task numbers by id) */
        ct_dag_init(&ids);
        for (size_t t = 0; t < classes[c].n_tasks && st == CT_OK; t++)
            st = ct_dag_add_task(&ids, classes[c].ids[t], 0.0, NULL, err);
        for (size_t v = 0; v < g->n_tasks && st == CT_OK; v++) {
            size_t last = SIZE_MAX, t;
            for (size_t k = 0; k < ct_dag_member_count(g, v); k++)
                if (ct_dag_find(&ids, ct_dag_member(g, v, k), &t) && (last == SIZE_MAX || t > last))
                    last = t;
            if (last != SIZE_MAX)
                (*out)[off + last] = ends[voff + v];
        }
        ct_dag_destroy(&ids);
    }
    free(ends);
    if (st != CT_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

/* The tables whose own root rule runs (the root choices they record):
 * nona's, nona-late's, nona-star's and the operator's file; the fixed
 * baselines' roots are uniform. */
static int root_rule_of_table(const char *name)
{
    return solved_here(name) || !strcmp(name, "nona-star") || !strcmp(name, file_policy);
}

ct_status_t ct_eval_plan_point(const ct_eval_plan_t *ec, size_t i, ct_eval_point_t *pt, ct_error_t *err)
{
    const ct_scenario_t *s = ec->s;
    const ct_eval_params_t *p = ec->p;
    size_t xi = i / ec->n_policies, pi = i % ec->n_policies;
    double load = ec->bandwidth_sweep ? p->load : ec->xs[xi], bw = ec->bandwidth_sweep ? ec->xs[xi] : s->link_bandwidth;
    ct_scenario_t sx;
    ct_sim_config_t cfg;
    ct_nona_model_t m;
    ct_sim_class_t *classes = NULL;
    size_t nc = 0;
    memset(&cfg, 0, sizeof cfg);
    ct_status_t st = point_setup(s, ct_eval_scale_for_load(s, load), bw, p, !strcmp(ec->policies[pi], "nona-late"),
                                 &sx, &cfg, &m, err);
    if (st != CT_OK)
        return st;
    if ((st = ct_sim_classes_build(&sx, 1.0, &classes, &nc, err)) != CT_OK) {
        ct_nona_model_free(&m);
        ct_scenario_destroy(&sx);
        return st;
    }
    double *rates = malloc(nc * sizeof(double)), *theta = malloc((m.n_vars ? m.n_vars : 1) * sizeof(double));
    if (!rates || !theta)
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t c = 0; rates && c < nc; c++)
        rates[c] = classes[c].rate;
    memset(pt, 0, sizeof *pt);
    ct_policy_t *pol = NULL;
    ct_sampler_t *smp = NULL;
    ct_nona_solution_t sol;
    memset(&sol, 0, sizeof sol);
    pt->policy = static_name(ec->policies[pi]);
    pt->load = load;
    pt->bandwidth = bw;
    pt->model_mean_jct = pt->model_link_wait = pt->table_scale = NAN;
    const char *name = ec->policies[pi];
    if (st != CT_OK)
        ;
    else if (tableless(name))
        st = tableless_policy(name, p, classes, nc, &pol, err);
    else if (!strcmp(name, "nona-star")) {
        st = ct_policy_table_d(name, ec->star, rates, classes, nc, 0, &pol, err);
        if (st == CT_OK) { /* what the star table predicts at this point */
            ct_nona_eval_t e;
            ct_nona_model_set_root_share(&m, ct_nona_root_share(&m, ec->star_sol.theta));
            ct_nona_model_set_later_share(&m, ct_nona_later_share(&m, ec->star_sol.theta));
            ct_nona_model_set_busy(&m, ct_nona_dispersion(&m, ec->star_sol.theta),
                                   ct_nona_held_share(&m, ec->star_sol.theta));
            ct_nona_evaluate(&m, ec->star_sol.theta, &e, NULL);
            pt->model_mean_jct = e.mean_jct;
            pt->model_link_wait = e.phi;
        }
    } else if (!strcmp(name, file_policy)) {
        /* (no prediction: the file's own is for the background its solve
         * assumed, not the one simulated here, and its table is not the
         * model's variables) */
        if ((st = ct_policy_table_d(name, ec->file, rates, classes, nc, 0, &pol, err)) == CT_OK)
            pt->table_scale = ct_sampler_scenario_scale(ec->file, ct_policy_table_entry(pol));
        else if (err) { /* (the policy's message names the class; this names the file) */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            st = ct_error_set(err, st, "%s: %s", p->table_path, msg);
        }
    } else {
        if (solved_here(name)) {
            ct_nona_solve_params_t sp;
            solve_params(ec->p, &sp);
            st = ct_nona_solve(&m, &sp, &sol, err);
        } else {
            if (!strcmp(name, "local"))
                ct_nona_theta_local(&m, theta);
            else
                ct_nona_theta_branches(&m, theta);
            st = fixed_solution(&m, theta, &sol, err);
        }
        if (st == CT_OK)
            st = table_sampler(&sx, &m, &sol, &smp, err);
        if (st == CT_OK) /* nona: the root rule the table records; the baselines: uniform roots */
            st = ct_policy_table_d(name, smp, rates, classes, nc, solved_here(name) ? 0 : 1, &pol, err);
        if (solved_here(name)) { /* the baselines run uniform roots: no prediction */
            pt->model_mean_jct = sol.eval.mean_jct;
            pt->model_link_wait = sol.eval.phi;
            if (st == CT_OK)
                st = model_task_ends(&m, &sol, classes, nc, &pt->model_task_end, err);
        }
    }
    if (st == CT_OK) {
        cfg.servers = sx.servers;
        cfg.bandwidth = bw;
        cfg.link = p->link;
        cfg.classes = classes;
        cfg.n_classes = nc;
        cfg.policy = pol;
        cfg.max_in_flight = p->max_in_flight;
        cfg.server_queue = p->server_queue;
        cfg.fair_pick = p->fair_pick;
        cfg.exp_service = p->exp_service;
        cfg.rtt = p->rtt;
        /* Replications at once need a policy object each (policies keep
         * scratch state): the same policy built again per replication. */
        size_t R = p->run.reps ? p->run.reps : 1;
        ct_policy_t **pols = NULL;
        if (p->rep_threads != 1 && R > 1 && (pols = calloc(R, sizeof(ct_policy_t *)))) {
            pols[0] = pol;
            for (size_t r = 1; r < R && st == CT_OK; r++) {
                if (tableless(name))
                    st = tableless_policy(name, p, classes, nc, &pols[r], err);
                else
                    st = ct_policy_table_d(name, !strcmp(name, "nona-star") ? ec->star
                                                 : !strcmp(name, file_policy) ? ec->file
                                                                              : smp,
                                           rates, classes, nc, root_rule_of_table(name) ? 0 : 1, &pols[r], err);
            }
        }
        ct_error_t e2;
        ct_status_t rs = CT_OK;
        for (size_t r = 0; st == CT_OK && r < (pols ? R : 1); r++) /* (pols[0] is pol) */
            ct_policy_set_late_bind(pols ? pols[r] : pol, p->late_bind);
        if (st == CT_OK)
            rs = ct_sim_replicate_ex(&cfg, pols, p->rep_threads, &p->run, &pt->sum, &e2);
        for (size_t r = 1; pols && r < R; r++)
            ct_policy_free(pols[r]);
        free(pols);
        if (rs == CT_EUNSTABLE)
            pt->unstable = 1;
        else if (rs != CT_OK)
            st = ct_error_set(err, rs, "%s", e2.msg);
    }
    ct_policy_free(pol);
    ct_sampler_free(smp);
    ct_nona_solution_free(&sol);
    free(rates);
    free(theta);
    ct_sim_classes_free(classes, nc);
    ct_nona_model_free(&m);
    ct_scenario_destroy(&sx);
    if (st != CT_OK) {
        free(pt->model_task_end);
        pt->model_task_end = NULL;
    }
    return st;
}

void ct_eval_plan_free(ct_eval_plan_t *pl)
{
    if (!pl)
        return;
    ct_sampler_free(pl->star);
    ct_nona_solution_free(&pl->star_sol);
    ct_sampler_free(pl->file);
    free(pl->xs);
    free(pl->policies);
    free(pl);
}

size_t ct_eval_plan_points(const ct_eval_plan_t *pl)
{
    return pl->n_x * pl->n_policies;
}

ct_status_t ct_eval_plan_make(const ct_scenario_t *s, const double *xs, size_t n_x, int bandwidth_sweep,
                              const char *const *policies, size_t n_policies, const ct_eval_params_t *p,
                              ct_eval_plan_t **out, ct_error_t *err)
{
    *out = NULL;
    for (size_t i = 0; i < n_policies; i++)
        if (!policy_known(policies[i]))
            return ct_error_set(err, CT_EINPUT, "--policies: unknown policy '%s' (known: nona, nona-late, nona-star, "
                                "random, opportunistic, local, fair, fair-delay, sparrow, sparrow-local, nona-file)",
                                policies[i]);
    ct_eval_plan_t *pl = calloc(1, sizeof *pl);
    if (!pl || !(pl->xs = malloc((n_x ? n_x : 1) * sizeof(double))) ||
        !(pl->policies = malloc((n_policies ? n_policies : 1) * sizeof(char *)))) {
        ct_eval_plan_free(pl);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    pl->s = s;
    memcpy(pl->xs, xs, n_x * sizeof(double));
    pl->n_x = n_x;
    pl->bandwidth_sweep = bandwidth_sweep;
    for (size_t i = 0; i < n_policies; i++)
        pl->policies[i] = static_name(policies[i]);
    pl->n_policies = n_policies;
    if (p)
        pl->params = *p;
    else
        ct_eval_params_init(&pl->params);
    pl->p = &pl->params;
    p = pl->p;
    /* nona-star: one table, solved at star_load and the scenario's bandwidth. */
    for (size_t i = 0; i < n_policies; i++)
        if (!strcmp(policies[i], "nona-star") && !pl->star) {
            ct_scenario_t sx;
            ct_sim_config_t cfg;
            ct_nona_model_t m;
            memset(&cfg, 0, sizeof cfg);
            ct_status_t st = point_setup(s, ct_eval_scale_for_load(s, p->star_load), s->link_bandwidth, p, 0, &sx, &cfg,
                                         &m, err);
            if (st == CT_OK) {
                ct_nona_solve_params_t sp;
                solve_params(p, &sp);
                st = ct_nona_solve(&m, &sp, &pl->star_sol, err);
                if (st == CT_OK)
                    st = table_sampler(&sx, &m, &pl->star_sol, &pl->star, err);
                ct_nona_model_free(&m);
                ct_scenario_destroy(&sx);
            }
            if (st != CT_OK) {
                ct_eval_plan_free(pl);
                return st;
            }
        }
    /* nona-file: the operator's lookup file, read once. */
    for (size_t i = 0; i < n_policies; i++)
        if (!strcmp(policies[i], file_policy) && !pl->file) {
            char msg[sizeof err->msg];
            ct_status_t st = CT_OK;
            if (!p->table_path || !*p->table_path)
                st = ct_error_set(err, CT_EINPUT, "policy nona-file: no lookup file given (--table FILE)");
            else if (ct_sampler_load(p->table_path, &pl->file, msg, sizeof msg) != 0)
                st = ct_error_set(err, CT_EINPUT, "%s", msg);
            if (st != CT_OK) {
                ct_eval_plan_free(pl);
                return st;
            }
        }
    *out = pl;
    return CT_OK;
}

typedef struct {
    const ct_eval_plan_t *pl;
    ct_eval_result_t *out;
} sweep_ctx_t;

static ct_status_t sweep_point(size_t i, void *arg, ct_error_t *err)
{
    const sweep_ctx_t *c = arg;
    return ct_eval_plan_point(c->pl, i, &c->out->points[i], err);
}

ct_status_t ct_eval_sweep(const ct_scenario_t *s, const double *xs, size_t n_x, int bandwidth_sweep,
                          const char *const *policies, size_t n_policies, const ct_eval_params_t *p,
                          void (*progress)(size_t done, size_t total, void *ctx), void *ctx, ct_eval_result_t *out,
                          ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    ct_eval_plan_t *pl;
    ct_status_t st = ct_eval_plan_make(s, xs, n_x, bandwidth_sweep, policies, n_policies, p, &pl, err);
    if (st != CT_OK)
        return st;
    out->n_classes = s->n_classes;
    out->class_names = calloc(s->n_classes, sizeof(char *));
    out->n_points = n_x * n_policies;
    out->points = calloc(out->n_points ? out->n_points : 1, sizeof(ct_eval_point_t));
    if (!out->class_names || !out->points)
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t c = 0; st == CT_OK && c < s->n_classes; c++)
        if (!(out->class_names[c] = ct_strdup(s->classes[c].name, err)))
            st = CT_ENOMEM;
    sweep_ctx_t c = { pl, out };
    if (st == CT_OK)
        st = ct_parallel_for_ex(out->n_points, pl->p->threads, sweep_point, &c, progress, ctx, ct_lp_thread_exit, err);
    ct_eval_plan_free(pl);
    if (st != CT_OK)
        ct_eval_result_free(out);
    return st;
}
