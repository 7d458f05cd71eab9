/*
 * bench_nona.c - the exact Nona solver against the paper's penalty method
 * on the same scenarios: wall time and objective side by side. The paper
 * reports 13 s for its solver on five models.
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

static void run(const char *name, const ct_scenario_t *s)
{
    ct_nona_model_t m;
    ct_error_t err;
    if (ct_nona_model_build(s, NULL, &m, &err) != CT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    ct_nona_solve_params_t pe, pp;
    ct_nona_solve_params_init(&pe);
    ct_nona_solve_params_init(&pp);
    pp.method = CT_NONA_PENALTY;
    double te, tp, Je = 0, Jp = 0;
    int reps = m.n_vars > 200 ? 1 : 5;
    BENCH_MIN(te, reps, {
        ct_nona_solution_t sol;
        if (ct_nona_solve(&m, &pe, &sol, &err) != CT_OK)
            exit(1);
        Je = sol.eval.mean_jct;
        ct_nona_solution_free(&sol);
    });
    BENCH_MIN(tp, reps, {
        ct_nona_solution_t sol;
        if (ct_nona_solve(&m, &pp, &sol, &err) != CT_OK)
            exit(1);
        Jp = sol.eval.mean_jct;
        ct_nona_solution_free(&sol);
    });
    printf("  %-26s %5zu %9.3f ms %11.3f ms %8.1fx   %.6g s  %.6g s  %+.2e\n", name, m.n_vars, 1e3 * te, 1e3 * tp,
           tp / te, Je, Jp, (Jp - Je) / Je);
    ct_nona_model_free(&m);
}

int main(void)
{
    printf("Nona solvers: exact (GLPK LPs over phi) vs penalty (softmax + BFGS, the paper's method)\n");
    printf("  %-26s %5s %12s %14s %9s   %-9s  %-9s  %s\n", "scenario", "vars", "exact", "penalty", "ratio",
           "exact JCT", "penalty JCT", "penalty/exact-1");
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    const char *files[] = { "data/scenarios/five-models.json", "data/scenarios/fig1.json" };
    const double scales[] = { 1.0, 4.5 };
    for (int i = 0; i < 2; i++) {
        ct_scenario_t sc;
        if (ct_scenario_load(&s, files[i], &err) != CT_OK || ct_scenario_scaled(&s, scales[i], &sc, &err) != CT_OK) {
            fprintf(stderr, "%s (run from the repository root)\n", err.msg);
            return 1;
        }
        char name[64];
        snprintf(name, sizeof name, "%s x%g", i ? "fig1" : "five zoo models", scales[i]);
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
