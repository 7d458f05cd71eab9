/*
 * bench_nona.c - the certified Nona search against the older 1-D grid search
 * and the paper's penalty method on the same scenarios: wall time, LPs,
 * certified gap and objective side by side. The paper reports 13 s for its
 * solver on five models.
 */
#include "bench_util.h"
#include "ct_nona_solve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A class whose DAG has `segs` segments of a source, four parallel tasks
 * and a sink (99 triplets each), with sizes varied by `seed`. */
static void synthetic_class(ct_class_t *c, int idx, size_t segs, double rate)
{
    ct_error_t err;
    char id[32];
    size_t prev, x, par[4];
    ct_dag_init(&c->dag);
    snprintf(id, sizeof id, "s%d", idx);
    c->name = ct_strdup(id, &err);
    c->dag_path = ct_strdup("generated", &err);
    c->rate = rate;
    ct_dag_add_task(&c->dag, "in", 0.0005, &prev, &err);
    for (size_t s = 0; s < segs; s++) {
        for (int k = 0; k < 4; k++) {
            snprintf(id, sizeof id, "g%zu.t%d", s, k);
            ct_dag_add_task(&c->dag, id, 0.002 + 0.001 * ((idx + k + (int)s) % 5), &par[k], &err);
            ct_dag_add_edge(&c->dag, prev, par[k], 2e6 * (1 + (idx * 3 + k) % 4), &err);
        }
        snprintf(id, sizeof id, "g%zu.join", s);
        ct_dag_add_task(&c->dag, id, 0.0002, &x, &err);
        for (int k = 0; k < 4; k++)
            ct_dag_add_edge(&c->dag, par[k], x, 5e5 * (1 + k % 2), &err);
        prev = x;
    }
}

typedef struct {
    double seconds, jct, gap;
    size_t lps;
} result_t;

static result_t solve_with(ct_nona_model_t *m, ct_nona_method_t method, ct_nona_lp_t lp, int point_search)
{
    ct_nona_solve_params_t p;
    ct_nona_solve_params_init(&p);
    p.method = method;
    p.lp = lp;
    p.point_search = point_search;
    p.stall_lps = 0; /* the server model's rows measure LPs to the budget (--stall 0), as documented */
    ct_error_t err;
    result_t r = { 0, 0, NAN, 0 };
    int reps = m->n_vars > 200 ? 1 : 5;
    BENCH_MIN(r.seconds, reps, {
        ct_nona_solution_t sol;
        if (ct_nona_solve(m, &p, &sol, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        r.jct = sol.eval.mean_jct;
        r.gap = sol.gap;
        r.lps = sol.lp_solves;
        ct_nona_solution_free(&sol);
    });
    return r;
}

static result_t solve(ct_nona_model_t *m, ct_nona_method_t method, ct_nona_lp_t lp)
{
    return solve_with(m, method, lp, 1);
}

/* Link-only model (the paper's): the old 1-D grid search, the certified
 * search (1-D in phi here: the point search, and the box search as its
 * baseline) and the penalty method. With server queueing:
 * the certified 2-D search and the penalty method. */
static void run(const char *name, const ct_scenario_t *s)
{
    for (int server = 0; server < 2; server++) {
        ct_nona_model_t m;
        ct_error_t err;
        ct_nona_model_params_t mp;
        ct_nona_model_params_init(&mp);
        mp.server_model = server;
        if (ct_nona_model_build(s, &mp, &m, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        result_t e = solve(&m, CT_NONA_EXACT, CT_NONA_LP_BLOCK), p = solve(&m, CT_NONA_PENALTY, CT_NONA_LP_BLOCK);
        result_t eg = solve(&m, CT_NONA_EXACT, CT_NONA_LP_GLPK);
        printf("  %-22s %5zu %-7s certified with GLPK's LP %9.3f ms (%5zu LPs, gap %.1e, JCT %+.1e)\n", name, m.n_vars,
               server ? "servers" : "link", 1e3 * eg.seconds, eg.lps, eg.gap, (eg.jct - e.jct) / e.jct);
        if (!server) {
            result_t g = solve(&m, CT_NONA_GRID, CT_NONA_LP_BLOCK);
            result_t b = solve_with(&m, CT_NONA_EXACT, CT_NONA_LP_BLOCK, 0);
            printf("  %-22s %5zu link    1-D grid %9.3f ms | certified %9.3f ms (%.2fx, %5zu LPs, gap %.1e) | penalty "
                   "%9.3f ms | JCT grid %.6g, certified %.6g, penalty %+.1e\n",
                   name, m.n_vars, 1e3 * g.seconds, 1e3 * e.seconds, e.seconds / g.seconds, e.lps, e.gap,
                   1e3 * p.seconds, g.jct, e.jct, (p.jct - e.jct) / e.jct);
            printf("  %-22s %5zu link    the box search instead of the point search: %9.3f ms (%5zu LPs, gap %.1e): "
                   "x%.1f the point search's time, JCT %+.1e\n",
                   name, m.n_vars, 1e3 * b.seconds, b.lps, b.gap, b.seconds / e.seconds, (b.jct - e.jct) / e.jct);
        } else {
            printf("  %-22s %5zu servers                      | certified %9.3f ms (2-D, %5zu LPs, gap %.1e) | penalty "
                   "%9.3f ms | JCT certified %.6g, penalty %+.1e\n",
                   name, m.n_vars, 1e3 * e.seconds, e.lps, e.gap, 1e3 * p.seconds, e.jct, (p.jct - e.jct) / e.jct);
        }
        ct_nona_model_free(&m);
    }
}

int main(void)
{
    printf("Nona solvers: certified branch-and-bound over the waits vs the older 1-D grid search (link model)\n"
           "and the paper's penalty method (softmax + BFGS); ratio = certified / grid time\n");
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    const char *files[] = { "data/scenarios/five-models.json", "data/scenarios/fig1.json",
                            "data/scenarios/ensemble.json", "data/scenarios/video-analytics.json" };
    const double scales[] = { 1.0, 4.5, 1.0, 1.0 };
    for (int i = 0; i < 4; i++) {
        ct_scenario_t sc;
        if (ct_scenario_load(&s, files[i], &err) != CT_OK || ct_scenario_scaled(&s, scales[i], &sc, &err) != CT_OK) {
            fprintf(stderr, "%s (run from the repository root)\n", err.msg);
            return 1;
        }
        char name[64];
        static const char *names[] = { "five zoo models", "fig1", "ensemble", "video-analytics" };
        snprintf(name, sizeof name, "%s x%g", names[i], scales[i]);
        run(name, &sc);
        ct_scenario_destroy(&sc);
        ct_scenario_destroy(&s);
    }
    /* Five synthetic classes of three 4-task segments: 1485 variables. */
    ct_scenario_init(&s);
    s.path = ct_strdup("synthetic", &err);
    s.servers = 400;
    s.link_bandwidth = 1.25e9;
    s.speed = 1;
    s.rho_bg = 0.05;
    s.m2_bg = 1e-6;
    s.n_classes = 5;
    s.classes = calloc(5, sizeof(ct_class_t));
    for (int c = 0; c < 5; c++)
        synthetic_class(&s.classes[c], c, 3, 8.0 + 4 * c);
    run("5 synthetic classes", &s);
    ct_scenario_destroy(&s);
    return 0;
}
