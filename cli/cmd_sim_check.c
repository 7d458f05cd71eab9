/*
 * cmd_sim_check.c - `contend sim check`: the Nona model against the
 * simulator over a family of scenarios (files, generated ones, or both) at
 * several loads. Each point solves the nona table for its load (the model's
 * predicted mean JCT), simulates the cluster under that table and reports
 * simulated / predicted; the summary gives, per load and in all, the median
 * ratio, how many points lie within 10% and 20%, and the worst.
 *
 * Points are (scenario, load) pairs run by the sweep machinery, so -j and
 * --shard / contend merge work as for every sweep; the CSV rows are the
 * points' texts and the summary is computed from them.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cmd_sim.h"
#include "ct_family.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ct_scenario_t *scen;     /* every scenario, files first */
    size_t n_scen;
    const double *loads;
    size_t n_loads;
    const ct_eval_params_t *ev;
    const char *policy;      /* nona or nona-late */
} check_ctx_t;

/* Tasks on the longest path of any class's DAG (its depth): edges relaxed
 * in the topological order of their sources (bucketed by it). O(V + E). */
static size_t scenario_depth(const ct_scenario_t *s, size_t *tasks)
{
    size_t depth = 0;
    *tasks = 0;
    for (size_t c = 0; c < s->n_classes; c++) {
        const ct_dag_t *g = &s->classes[c].dag;
        size_t n = g->n_tasks ? g->n_tasks : 1, *order = malloc(n * sizeof(size_t)), *len = malloc(n * sizeof(size_t)),
               *start = calloc(n + 1, sizeof(size_t)), *by_from = malloc((g->n_edges ? g->n_edges : 1) * sizeof(size_t));
        ct_error_t err;
        *tasks += g->n_tasks;
        if (order && len && start && by_from && ct_dag_topo_order(g, order, "dag", &err) == CT_OK) {
            for (size_t e = 0; e < g->n_edges; e++) /* edges grouped by their source */
                start[g->from[e] + 1]++;
            for (size_t v = 0; v < g->n_tasks; v++)
                start[v + 1] += start[v];
            for (size_t e = 0; e < g->n_edges; e++)
                by_from[start[g->from[e]]++] = e;
            for (size_t v = g->n_tasks; v > 0; v--) /* the fill advanced each start to the next */
                start[v] = start[v - 1];
            start[0] = 0;
            for (size_t v = 0; v < g->n_tasks; v++)
                len[v] = 1;
            for (size_t i = 0; i < g->n_tasks; i++) {
                size_t u = order[i];
                for (size_t k = start[u]; k < start[u + 1]; k++) {
                    size_t t = g->to[by_from[k]];
                    if (len[t] < len[u] + 1)
                        len[t] = len[u] + 1;
                }
                depth = len[u] > depth ? len[u] : depth;
            }
        }
        free(order);
        free(len);
        free(start);
        free(by_from);
    }
    return depth;
}

static ct_status_t check_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const check_ctx_t *c = arg;
    const ct_scenario_t *s = &c->scen[i / c->n_loads];
    double load = c->loads[i % c->n_loads];
    const char *pol[1] = { c->policy };
    ct_eval_result_t res;
    ct_status_t st = ct_eval_sweep(s, &load, 1, 0, pol, 1, c->ev, NULL, NULL, &res, err);
    char row[1024], status[32] = "ok";
    size_t tasks, depth = scenario_depth(s, &tasks);
    double sim = NAN, ci = NAN, model = NAN;
    if (st == CT_EUNSTABLE) { /* the load cannot be carried at all: a point, not a failure */
        snprintf(status, sizeof status, "unstable-model");
        st = CT_OK;
    } else if (st != CT_OK) {
        return st;
    } else {
        const ct_eval_point_t *p = &res.points[0];
        model = p->model_mean_jct;
        if (p->unstable)
            snprintf(status, sizeof status, "unstable");
        else {
            sim = p->sum.mean[res.n_classes];
            ci = p->sum.ci95[res.n_classes];
        }
        ct_eval_result_free(&res);
    }
    char f[4][32];
    double v[4] = { sim, isfinite(ci) ? ci : NAN, model, sim / model };
    for (int k = 0; k < 4; k++) {
        if (isfinite(v[k]))
            snprintf(f[k], 32, "%.9g", v[k]);
        else
            f[k][0] = '\0';
    }
    char *path = ct_csv_quote(s->path);
    if (!path)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    snprintf(row, sizeof row, "%s,%zu,%zu,%zu,%.9g,%.6g,%s,%s,%s,%s,%s\n", path, s->n_classes, depth, tasks,
             s->link_bandwidth, load, f[0], f[1], f[2], f[3], status);
    free(path);
    if (!(*text = strdup(row)))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    return CT_OK;
}

/* One summary line over the points whose load is `load` (NAN: all): their
 * sim_over_model cells (empty: the point did not settle) summarised by
 * ct_check_summarize. */
static void summary_line(char *const *texts, size_t n, double load, double *ratio, double *scratch)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        /* scenario,classes,depth,tasks,bandwidth,load,sim,ci,model,ratio,status */
        char *copy = texts[i] ? strdup(texts[i]) : NULL, *cur = copy, *cells[16];
        size_t line = 0, nc;
        double l, r;
        if (copy && ct_csv_next(&cur, &line, cells, 16, &nc) && nc == 11 && ct_csv_number(cells[5], &l) &&
            (isnan(load) || fabs(l - load) <= 1e-9))
            ratio[m++] = ct_csv_number(cells[9], &r) ? r : NAN;
        free(copy);
    }
    if (!m)
        return;
    ct_check_summary_t sum;
    ct_check_summarize(ratio, m, scratch, &sum);
    char lbl[16];
    if (isnan(load))
        snprintf(lbl, sizeof lbl, "all");
    else
        snprintf(lbl, sizeof lbl, "%.3g", load);
    printf("%-6s %6zu %9.3f %6zu (%3.0f%%) %6zu (%3.0f%%) %8.3f %9zu\n", lbl, sum.points, sum.median, sum.within10,
           sum.carried ? 100.0 * (double)sum.within10 / (double)sum.carried : 0.0, sum.within20,
           sum.carried ? 100.0 * (double)sum.within20 / (double)sum.carried : 0.0, sum.worst,
           sum.points - sum.carried);
}

/* The files given, then o->generate generated scenarios (saved when
 * --save); *scen holds *n of them, the caller's (destroy each, free). */
static int collect_scenarios(int argc, char **argv, const sim_opts_t *o, ct_scenario_t **scen, size_t *n)
{
    ct_error_t err;
    size_t nfiles = (size_t)(argc - optind);
    *n = 0;
    if (!(*scen = calloc(nfiles + o->generate + 1, sizeof(ct_scenario_t)))) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        return cli_fail(&err);
    }
    for (size_t i = 0; i < nfiles; i++, (*n)++)
        if (ct_scenario_load(&(*scen)[*n], argv[optind + (int)i], &err) != CT_OK)
            return cli_fail(&err);
    if (o->save && o->generate && cli_make_dir(o->save, &err) != 0)
        return cli_fail(&err);
    for (size_t i = 0; i < o->generate; i++) {
        ct_scenario_t *g = &(*scen)[*n];
        char name[96];
        if (ct_scenario_gen_layered(&o->gen, o->gen_seed + i, g, &err) != CT_OK)
            return cli_fail(&err);
        (*n)++;
        snprintf(name, sizeof name, "%s.json", g->path);
        if (o->save && ct_scenario_save(g, o->save, name, &err) != CT_OK)
            return cli_fail(&err);
    }
    if (o->save && o->generate)
        printf("wrote %zu generated scenarios to %s (%s-SEED.json and their DAGs)\n", o->generate, o->save,
               ct_gen_shape_name(o->gen.shape));
    return 0;
}

/* What check and compare share before their points: the options (2
 * replications, gap 1e-4, and `jobs` jobs when > 0, unless given), the
 * refusals, the scenarios. 0, or the exit code. */
static int family_setup(int argc, char **argv, const char *cmd, size_t jobs, sim_opts_t *o, ct_scenario_t **scen,
                        size_t *n_scen)
{
    int reps_given = 0, gap_given = 0, jobs_given = 0;
    for (int i = 1; i < argc; i++) {
        reps_given |= !strncmp(argv[i], "--reps", 6);
        gap_given |= !strncmp(argv[i], "--gap", 5);
        jobs_given |= !strncmp(argv[i], "--jobs", 6);
    }
    int rc = sim_parse(argc, argv, o);
    if (rc != 0)
        return rc;
    if (!reps_given)
        o->ev.run.reps = 2;
    if (!gap_given) /* far below the simulation's noise; 1e-9 costs minutes on deep scenarios */
        o->ev.solve.gap = 1e-4;
    if (!jobs_given && jobs)
        o->ev.run.jobs = jobs;
    o->ev.rep_threads = 1;
    if ((size_t)(argc - optind) + o->generate == 0)
        return cli_usage("sim", "%s: give SCENARIO files, --generate N, or both", cmd);
    if (o->n_bws)
        return cli_usage("sim", "%s: --bandwidths does not apply (the scenarios' own links are used)", cmd);
    if (o->ev.table_path) /* (one file is solved for one scenario; a family has many) */
        return cli_usage("sim", "%s: --table does not apply (contend sim SCENARIO --table FILE)", cmd);
    return collect_scenarios(argc, argv, o, scen, n_scen);
}

/* Runs n points of a family command as a sweep into *texts (allocated
 * here). 1 when the caller is done (*rc set), 0 to present the points. */
static int family_run(const char *cmd, const char *what, const char *kind, const sim_opts_t *o, size_t n,
                      ct_sweep_point_fn fn, void *ctx, char ***texts, int *rc)
{
    ct_error_t err;
    if (!(*texts = calloc(n ? n : 1, sizeof(char *)))) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        *rc = cli_fail(&err);
        return 1;
    }
    if (o->sweep.shards > 1 && !o->output) {
        *rc = cli_usage("sim", "%s: --shard needs -o PART", cmd);
        return 1;
    }
    return cli_sweep_run(what, kind, o->output, n, fn, ctx, &o->sweep, *texts, rc);
}

static void check_usage(FILE *out)
{
    fprintf(out,
            "usage: contend sim check [SCENARIO ...] [--generate N [--family layered|ensemble|pipeline]\n"
            "                          [--gen-seed S] [--stages A:B] [--gbps G,...] [--save DIR]]\n"
            "                         [--loads A:B:STEP] [-o results.csv] [sim options]\n"
            "\n"
            "Checks the Nona model against the simulator: at every load, solves the nona table\n"
            "(the model's predicted mean JCT), simulates the cluster under it and reports\n"
            "simulated / predicted mean JCT per point, then a summary per load: the median ratio,\n"
            "points within 10%% and 20%%, the worst ratio, and points the simulation found\n"
            "unstable. Scenarios are the files given and N generated layered workloads\n"
            "(seeds S .. S+N-1: 2-10 stages of 1-4 tasks, fan-in 1-3, lognormal task times around\n"
            "10 ms, log-uniform edge bytes 10 kB-5 MB, 1-3 classes, 80 servers, a 10 or 100 Gbps\n"
            "link; the same seed always gives the same scenario; --family ensemble or pipeline:\n"
            "the families of contend sim compare --help).\n"
            "\n"
            "options (besides those of contend sim):\n"
            "  --generate N          generated scenarios (0 .. 100000; default 0)\n"
            "  --gen-seed S          the first generated scenario's seed (default 1)\n"
            "  --stages A:B          stages per generated DAG (default 2:10)\n"
            "  --gbps G,...          link speeds drawn from, Gbit/s (default 10,100)\n"
            "  --save DIR            also write the generated scenarios to DIR (created if\n"
            "                        needed; FAMILY-SEED.json and their DAGs), to simulate or\n"
            "                        solve one alone\n"
            "  --loads A:B:STEP      loads (default 0.1:0.7:0.2)\n"
            "  -o FILE               CSV, one row per scenario x load\n"
            "  --policy P            nona (default: parts bound when the job arrives) or nona-late\n"
            "                        (parts bound when needed; tables solved for that)\n"
            "  -j N, --shard I/N     as for sweeps\n"
            "Replications default to 2 of 20000 jobs (--reps, --jobs); the solver's gap to 1e-4\n"
            "(--gap), far below the simulation's noise.\n");
}

int cmd_sim_check(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        check_usage(stdout);
        return 0;
    }
    sim_opts_t o;
    check_ctx_t ctx = { 0 };
    double def_loads[4] = { 0.1, 0.3, 0.5, 0.7 };
    char **texts = NULL;
    size_t n = 0;
    ct_error_t err;
    int rc = family_setup(argc, argv, "check", 0, &o, &ctx.scen, &ctx.n_scen);
    if (rc != 0)
        goto done;
    if (strcmp(o.policy, "nona") && strcmp(o.policy, "nona-late")) {
        rc = cli_usage("sim", "check: --policy: expected nona or nona-late, got '%s'", o.policy);
        goto done;
    }
    ctx.policy = o.policy;
    ctx.loads = o.n_loads ? o.loads : def_loads;
    ctx.n_loads = o.n_loads ? o.n_loads : 4;
    ctx.ev = &o.ev;
    n = ctx.n_scen * ctx.n_loads;
    const char *out = o.output;
    if (family_run("check", "checking", "sim-check", &o, n, check_point, &ctx, &texts, &rc))
        goto done;
    double *scratch = malloc(2 * (n ? n : 1) * sizeof(double));
    if (!scratch) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    double trip = ct_eval_table_rtt(&o.ev); /* what the tables were solved for */
    printf("%-6s %6s %9s %13s %13s %8s %9s   (simulated / predicted mean JCT, nona tables", "load", "points",
           "median", "within 10%", "within 20%", "worst", "unstable");
    if (o.ev.rtt > 0 || trip > 0)
        printf("; round trip %g s simulated, %g s in the tables", o.ev.rtt, trip);
    ct_nona_model_params_t mp; /* (the sampling the late tables are solved with) */
    ct_eval_model_params(&o.ev, !strcmp(o.policy, "nona-late"), &mp);
    if (mp.late_parts && mp.server_model && mp.root_choices > 1)
        printf("; sampling %s", ct_nona_params_finite(&mp) ? "finite" : "mean-field");
    printf(")\n");
    for (size_t l = 0; l < ctx.n_loads; l++)
        summary_line(texts, n, ctx.loads[l], scratch, scratch + n);
    if (ctx.n_loads > 1)
        summary_line(texts, n, NAN, scratch, scratch + n);
    free(scratch);
    if (out && !(rc = cli_sweep_write("sim-check", out, n, &o.sweep, texts)))
        printf("wrote %s\n", out);
done:
    ct_sweep_texts_free(texts, n);
    for (size_t i = 0; i < ctx.n_scen; i++)
        ct_scenario_destroy(&ctx.scen[i]);
    free(ctx.scen);
    free(o.loads);
    free(o.bws);
    free(o.policies);
    return rc < 0 ? 0 : rc;
}

/* ------------------------------------------------------------------------ */
/* contend sim compare: every policy over a family, the best stateless and
 * the best stateful one per load.                                          */

typedef struct {
    ct_scenario_t *scen;
    size_t n_scen;
    const double *loads;
    size_t n_loads;
    const ct_eval_params_t *ev;
    char **pols;
    size_t n_pols;
} compare_ctx_t;

/* Stateful: the policy reads the servers' state at every decision through
 * a central scheduler (fair, fair-delay) or probes (Sparrow). The rest
 * decide from a table or at random (nona's d choices read d sampled
 * queue lengths, late parts too: no central state). */
static int policy_stateful(const char *p)
{
    return !strcmp(p, "fair") || !strcmp(p, "fair-delay") || !strncmp(p, "sparrow", 7);
}

/* Point i: scenario i / n_loads at load i % n_loads under every policy, a
 * row each. A policy that cannot carry the load is a row, not a failure. */
static ct_status_t compare_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const compare_ctx_t *c = arg;
    const ct_scenario_t *s = &c->scen[i / c->n_loads];
    double load = c->loads[i % c->n_loads];
    size_t tasks, depth = scenario_depth(s, &tasks), cap = 256 * c->n_pols + 1, len = 0;
    char *out = malloc(cap), *path = ct_csv_quote(s->path);
    if (!out || !path) {
        free(out);
        free(path);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    ct_status_t st = CT_OK;
    for (size_t k = 0; k < c->n_pols && st == CT_OK; k++) {
        const char *pol[1] = { c->pols[k] };
        ct_eval_result_t res;
        char mean[32] = "", ci[32] = "", p99[32] = "", status[32] = "ok";
        st = ct_eval_sweep(s, &load, 1, 0, pol, 1, c->ev, NULL, NULL, &res, err);
        if (st == CT_EUNSTABLE) { /* a nona table cannot carry the load */
            snprintf(status, sizeof status, "unstable-model");
            st = CT_OK;
        } else if (st == CT_OK) {
            const ct_eval_point_t *p = &res.points[0];
            if (p->unstable)
                snprintf(status, sizeof status, "unstable");
            else {
                snprintf(mean, sizeof mean, "%.9g", p->sum.mean[res.n_classes]);
                if (isfinite(p->sum.ci95[res.n_classes])) /* (one replication: no interval) */
                    snprintf(ci, sizeof ci, "%.9g", p->sum.ci95[res.n_classes]);
                snprintf(p99, sizeof p99, "%.9g", p->sum.p99[res.n_classes]);
            }
            ct_eval_result_free(&res);
        }
        if (st == CT_OK) {
            int w = snprintf(out + len, cap - len, "%s,%zu,%zu,%zu,%.9g,%.6g,%s,%s,%s,%s,%s\n", path, s->n_classes,
                             depth, tasks, s->link_bandwidth, load, c->pols[k], mean, ci, p99, status);
            if (w < 0 || (size_t)w >= cap - len) {
                char *bigger = realloc(out, 2 * cap + (size_t)(w > 0 ? w : 0));
                if (!bigger) {
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
                    break;
                }
                out = bigger;
                cap = 2 * cap + (size_t)(w > 0 ? w : 0);
                k--; /* write the row again */
                continue;
            }
            len += (size_t)w;
        }
    }
    free(path);
    if (st != CT_OK) {
        free(out);
        return st;
    }
    *text = out;
    return CT_OK;
}

/* The summary of one load from the points' rows (ct_compare_summarize):
 * per policy how many scenarios it carried, its mean and p99 JCT over the
 * scenario's best (geometric means), how often it was the best; then the
 * best stateless and stateful policies and their ratio. */
static int compare_summary(char *const *texts, const compare_ctx_t *c, size_t l)
{
    size_t np = c->n_pols, ns = c->n_scen;
    size_t nv = ns * np > 0 ? ns * np : 1;
    double *v = malloc(2 * nv * sizeof(double)), *q = v + ns * np;
    ct_compare_policy_t *per = malloc((np ? np : 1) * sizeof *per);
    int *sf = malloc((np ? np : 1) * sizeof(int));
    if (!v || !per || !sf) {
        free(v);
        free(per);
        free(sf);
        return 1;
    }
    for (size_t k = 0; k < 2 * ns * np; k++)
        v[k] = NAN;
    for (size_t si = 0; si < ns; si++) { /* the point's rows: its policies in order */
        const char *t = texts[si * c->n_loads + l];
        char *copy = t ? strdup(t) : NULL, *cur = copy, *cells[16];
        size_t line = 0, nc;
        for (size_t k = 0; copy && k < np && ct_csv_next(&cur, &line, cells, 16, &nc); k++) {
            double m, p;
            if (nc == 11 && ct_csv_number(cells[7], &m) && ct_csv_number(cells[9], &p)) {
                v[si * np + k] = m;
                q[si * np + k] = p;
            }
        }
        free(copy);
    }
    for (size_t k = 0; k < np; k++)
        sf[k] = policy_stateful(c->pols[k]);
    ct_compare_best_t best;
    ct_compare_summarize(v, q, ns, np, sf, per, &best);
    printf("load %.3g: %zu scenarios (mean and p99 JCT over each scenario's best, geometric mean over those it carried)\n",
           c->loads[l], ns);
    printf("  %-14s %8s %12s %11s %8s %9s\n", "policy", "carried", "mean / best", "p99 / best", "best at", "kind");
    for (size_t k = 0; k < np; k++)
        printf("  %-14s %8zu %12.3f %11.3f %8zu %9s\n", c->pols[k], per[k].carried, per[k].mean_ratio,
               per[k].p99_ratio, per[k].best_at, sf[k] ? "stateful" : "stateless");
    if (best.best[0] >= 0 && best.best[1] >= 0)
        printf("  best stateless: %s, best stateful: %s; stateless / stateful mean JCT %.3f, p99 %.3f (geometric "
               "mean over %zu)\n",
               c->pols[best.best[0]], c->pols[best.best[1]], best.mean_ratio, best.p99_ratio, best.both);
    else
        printf("  best stateless: %s, best stateful: %s\n", best.best[0] >= 0 ? c->pols[best.best[0]] : "none carried",
               best.best[1] >= 0 ? c->pols[best.best[1]] : "none carried");
    free(v);
    free(per);
    free(sf);
    return 0;
}

static void compare_usage(FILE *out)
{
    fprintf(out,
            "usage: contend sim compare [SCENARIO ...] [--generate N [--family layered|ensemble|pipeline]\n"
            "                            [--gen-seed S] [--stages A:B] [--gbps G,...] [--save DIR]]\n"
            "                           [--loads A:B:STEP] [--policies P,...] [-o results.csv] [sim options]\n"
            "\n"
            "Runs every policy on every scenario at every load (the simulator, as contend sim sweep)\n"
            "and prints, per load, each policy's mean JCT over the best policy's on the same\n"
            "scenario (geometric mean over the scenarios it carried), how often it was the best,\n"
            "and the best stateless policy (a table or chance: nona, nona-late, nona-star, random,\n"
            "opportunistic, local) and the best stateful one (a central scheduler or probes: fair,\n"
            "fair-delay, sparrow, sparrow-local) with the ratio of their mean JCTs.\n"
            "\n"
            "Families (--generate N, seeds S .. S+N-1, 80 servers, a 10 or 100 Gbps link, 1-3\n"
            "classes): layered (contend sim check's), ensemble (a 1-5 ms decode sends 0.1-10 MB to\n"
            "each of 2-6 models of 10-100 ms, a 0.5 ms vote), pipeline (a chain of 5-10 stages of\n"
            "one task, lognormal times around 10 ms, 10 kB-5 MB between stages).\n"
            "\n"
            "options (besides those of contend sim):\n"
            "  --policies P,...      default: every policy\n"
            "  --loads A:B:STEP      default 0.1:0.9:0.2\n"
            "  -o FILE               CSV, one row per scenario x load x policy (mean JCT, its 95%%\n"
            "                        confidence half-width over the replications, p99 JCT; s)\n"
            "  -j N, --shard I/N     as for sweeps\n"
            "Replications default to 2 of 10000 jobs (--reps, --jobs); the solver's gap to 1e-4.\n");
}

int cmd_sim_compare(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        compare_usage(stdout);
        return 0;
    }
    sim_opts_t o;
    compare_ctx_t ctx = { 0 };
    static const double def_loads[5] = { 0.1, 0.3, 0.5, 0.7, 0.9 };
    char **texts = NULL, *list = NULL;
    size_t n = 0;
    ct_error_t err;
    int rc = family_setup(argc, argv, "compare", 10000, &o, &ctx.scen, &ctx.n_scen);
    if (rc != 0)
        goto done;
    /* the policies: --policies, else every built-in one */
    const char *const *all = ct_eval_policy_names();
    size_t nall = 0;
    while (all[nall])
        nall++;
    if (!(ctx.pols = calloc(nall + 64, sizeof(char *)))) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    if (o.policies) {
        if (!(list = strdup(o.policies))) {
            ct_error_set(&err, CT_ENOMEM, "out of memory");
            rc = cli_fail(&err);
            goto done;
        }
        char *save = NULL;
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            size_t k = 0;
            while (all[k] && strcmp(all[k], tok))
                k++;
            if (!all[k] || ctx.n_pols == nall + 63) {
                rc = cli_usage("sim", "compare: --policies: unknown or too many: '%s'", tok);
                goto done;
            }
            ctx.pols[ctx.n_pols++] = tok;
        }
    } else
        for (size_t k = 0; k < nall; k++)
            ctx.pols[ctx.n_pols++] = (char *)all[k];
    ctx.loads = o.n_loads ? o.loads : def_loads;
    ctx.n_loads = o.n_loads ? o.n_loads : 5;
    ctx.ev = &o.ev;
    n = ctx.n_scen * ctx.n_loads;
    if (family_run("compare", "comparing", "sim-compare", &o, n, compare_point, &ctx, &texts, &rc))
        goto done;
    for (size_t l = 0; l < ctx.n_loads; l++)
        if (compare_summary(texts, &ctx, l)) {
            ct_error_set(&err, CT_ENOMEM, "out of memory");
            rc = cli_fail(&err);
            goto done;
        }
    if (o.output && !(rc = cli_sweep_write("sim-compare", o.output, n, &o.sweep, texts)))
        printf("wrote %s\n", o.output);
done:
    ct_sweep_texts_free(texts, n);
    for (size_t i = 0; i < ctx.n_scen; i++)
        ct_scenario_destroy(&ctx.scen[i]);
    free(ctx.scen);
    free(ctx.pols);
    free(list);
    free(o.loads);
    free(o.bws);
    free(o.policies);
    return rc < 0 ? 0 : rc;
}
