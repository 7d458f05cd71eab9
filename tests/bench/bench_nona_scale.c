/*
 * bench_nona_scale.c - Nona at fleet scale: scenarios of 10, 100 and 1000
 * classes, each a DAG of 10 segments of 2-3 parallel tasks (#9's shape).
 * Prints, side by side in one run:
 *   - one wait LP (at the solution's own waits, and at the middle of the
 *     searched ranges): the block LP solver against GLPK's simplex, with
 *     both objectives (they agree to round-off) and time per column;
 *   - whole certified solves with each LP solver, and the paper's penalty
 *     method, with their mean JCT.
 * The goal (#9): 1000 classes in at most 100 ms, time growing about
 * linearly. For the link model the box search (point_search = 0) runs
 * beside the point search (the default), as the baseline of the latter. A last table solves the server model at a quarter of the
 * load, where splitting pays, with a budget of 1000 LPs per search, and
 * prints the gap reached; then the mixed fleet's default solve and its
 * 20-scale lookup (scales 0.1 .. 2.0), each beside the large models' rule
 * before 2026-12-02's second (--search-warm 0: every search of the
 * shares' fixed point from all-local's table); a
 * last one the job-first waits (the default
 * until 2026-11-28), merged visits and aged waits (the default) beside the
 * earlier piece waits (#32: at most 2x the time). GLPK's and the penalty method's whole solves at 1000 classes
 * take minutes, and the 1000-class lookup's rule before about a minute
 * more; set BENCH_FULL=1 to include them. The one-LP times are
 * cold: setting the LP up and, for the block solver, growing its restricted
 * problem from all-local by pricing (the search's later boxes start from
 * the columns found before). Whole solves with the block solver: the
 * fastest of three. BENCH_SAVE=DIR writes issue #27's mixed fleets of
 * 10, 100 and 1000 classes (DIR/fleet-N.json and their DAGs) for the
 * command line (`contend nona solve`, `contend nona sweep`) and stops.
 */
#include "bench_util.h"
#include "ct_nona_solve.h"
#include "ct_test_fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* #9's fleet: 2-6 ms tasks, 2-8 MB in, 0.5-1 MB out, 400 servers. */
static void fleet(ct_scenario_t *s, size_t n, double rate)
{
    const ct_test_fleet_shape_t f = { "fleet", 400, rate, 0.002, 2e6, 5e5, 4, 2 };
    ct_test_fleet(s, n, &f);
}

/* Builds s's model with mp, solves it with p into *sol (the caller frees
 * it) and frees the model; *columns (may be NULL): the model's. Prints the
 * error and returns 1 on failure. */
static int solve_scenario(const ct_scenario_t *s, const ct_nona_model_params_t *mp, const ct_nona_solve_params_t *p,
                          ct_nona_solution_t *sol, size_t *columns)
{
    ct_nona_model_t m;
    ct_error_t err;
    ct_status_t st = ct_nona_model_build(s, mp, &m, &err);
    if (st == CT_OK) {
        st = ct_nona_solve(&m, p, sol, &err);
        if (columns)
            *columns = m.n_vars;
        ct_nona_model_free(&m);
    }
    if (st != CT_OK)
        fprintf(stderr, "%s\n", err.msg);
    return st != CT_OK;
}

static double time_lp(const ct_nona_model_t *m, ct_nona_lp_t lp, double phi, double W, double *value)
{
    ct_error_t err;
    double t;
    int reps = m->n_vars > 50000 ? (lp == CT_NONA_LP_GLPK ? 1 : 3) : 5; /* a cold GLPK LP there: ~10 s */
    BENCH_MIN(t, reps, {
        if (ct_nona_lp_value(m, lp, phi, W, value, NULL, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
    });
    return t;
}

typedef struct {
    double seconds, jct;
    size_t lps;
    int ran;
} run_t;

/* The fastest of `reps` identical solves (a solve does not depend on the
 * ones before it), keeping the last solution in *keep. */
static run_t solve_min(ct_nona_model_t *m, ct_nona_method_t method, ct_nona_lp_t lp, ct_nona_solution_t *keep, int reps);

static int point_search = 1; /* the link model's search: points (1, default) or the boxes (0) */

static run_t solve(ct_nona_model_t *m, ct_nona_method_t method, ct_nona_lp_t lp, ct_nona_solution_t *keep)
{
    ct_nona_solve_params_t p;
    ct_nona_solve_params_init(&p);
    p.method = method;
    p.lp = lp;
    p.point_search = point_search;
    ct_error_t err;
    ct_nona_solution_t sol;
    if (ct_nona_solve(m, &p, &sol, &err) != CT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    run_t r = { sol.seconds, sol.eval.mean_jct, sol.lp_solves, 1 };
    if (keep)
        *keep = sol;
    else
        ct_nona_solution_free(&sol);
    return r;
}

static run_t solve_min(ct_nona_model_t *m, ct_nona_method_t method, ct_nona_lp_t lp, ct_nona_solution_t *keep, int reps)
{
    run_t best = solve(m, method, lp, keep);
    for (int i = 1; i < reps; i++) {
        ct_nona_solution_free(keep);
        run_t r = solve(m, method, lp, keep);
        if (r.seconds < best.seconds)
            best = r;
    }
    return best;
}

/* BENCH_SAVE: the mixed fleets as scenario files, each class's DAG in
 * its own file (DIR/fleet-N-cK.json). */
static int save_fleets(const char *dir)
{
    static const size_t sizes[] = { 10, 100, 1000 };
    for (int i = 0; i < 3; i++) {
        ct_scenario_t s;
        ct_error_t err;
        char name[64], dag[64];
        ct_test_fleet_mixed(&s, sizes[i], 1.0);
        for (size_t c = 0; c < s.n_classes; c++) {
            snprintf(dag, sizeof dag, "fleet-%zu-c%zu.json", sizes[i], c);
            free(s.classes[c].dag_path);
            s.classes[c].dag_path = ct_strdup(dag, &err);
        }
        snprintf(name, sizeof name, "fleet-%zu.json", sizes[i]);
        ct_status_t st = ct_scenario_save(&s, dir, name, &err);
        ct_scenario_destroy(&s);
        if (st != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        printf("wrote %s/%s\n", dir, name);
    }
    return 0;
}

int main(void)
{
    const char *save = getenv("BENCH_SAVE");
    if (save && *save)
        return save_fleets(save);
    const char *full_env = getenv("BENCH_FULL");
    int full = full_env && *full_env == '1';
    static const size_t sizes[] = { 10, 100, 1000 };
    for (int server = 1; server >= 0; server--) {
        printf("Nona at scale, %s model: N classes x 10 segments of 2-3 parallel tasks, 2000 jobs/s in all\n",
               server ? "server" : "link-only (paper's)");
        printf("  one wait LP: block solver vs GLPK simplex (same optimum); whole certified solve with each, and the "
               "paper's penalty method\n");
        printf("  %7s %8s | %-41s | %-41s | %-46s | %s\n", "classes", "columns", "LP at the solution's waits",
               "LP at the middle of the wait ranges", "whole solve: block / GLPK / penalty", "mean JCT (s)");
        double first_per = 0, growth[3] = { 1, 1, 1 }, whole_1000 = NAN;
        for (int i = 0; i < 3; i++) {
            ct_scenario_t s;
            ct_nona_model_t m;
            ct_nona_model_params_t mp;
            ct_error_t err;
            fleet(&s, sizes[i], 2000);
            ct_nona_model_params_init(&mp);
            mp.server_model = server;
            if (ct_nona_model_build(&s, &mp, &m, &err) != CT_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            ct_nona_solution_t sol;
            run_t rb = solve_min(&m, CT_NONA_EXACT, CT_NONA_LP_BLOCK, &sol, 3);
            double wlo, whi, pts[2][2] = { { sol.eval.phi, sol.eval.W }, { 0, 0 } };
            ct_nona_W_range(&m, &wlo, &whi);
            pts[1][0] = 0.5 * (ct_nona_phi_min(&m) + ct_nona_phi_max(&m));
            pts[1][1] = 0.5 * (wlo + whi);
            ct_nona_solution_free(&sol);
            printf("  %7zu %8zu |", sizes[i], m.n_vars);
            for (int k = 0; k < 2; k++) {
                double vb, vg, tb = time_lp(&m, CT_NONA_LP_BLOCK, pts[k][0], pts[k][1], &vb);
                double tg = time_lp(&m, CT_NONA_LP_GLPK, pts[k][0], pts[k][1], &vg);
                double rel = isfinite(vb) && isfinite(vg) ? fabs(vb - vg) / fabs(vg) : (isinf(vb) && isinf(vg) ? 0 : 1);
                printf(" %7.2f ms vs %8.2f ms (x%6.1f) d%.0e |", 1e3 * tb, 1e3 * tg, tg / tb, rel);
                if (k == 0) {
                    double per = tb / (double)m.n_vars;
                    if (i == 0)
                        first_per = per;
                    growth[i] = per / first_per;
                }
            }
            int big = sizes[i] >= 1000 && !full;
            run_t rg = { 0, NAN, 0, 0 }, rp = { 0, NAN, 0, 0 };
            if (!big) {
                rg = solve(&m, CT_NONA_EXACT, CT_NONA_LP_GLPK, NULL);
                rp = solve(&m, CT_NONA_PENALTY, CT_NONA_LP_BLOCK, NULL);
            }
            if (sizes[i] == 1000)
                whole_1000 = rb.seconds;
            printf(" %7.3f s (%4zu LPs) /", rb.seconds, rb.lps);
            if (rg.ran)
                printf(" %7.3f s / %7.3f s |", rg.seconds, rp.seconds);
            else
                printf(" %9s / %9s |", "(skipped)", "(skipped)");
            printf(" %.9g / %.9g / %.9g\n", rb.jct, rg.jct, rp.jct);
            if (!server) { /* the box search (first order in phi) beside the point search */
                point_search = 0;
                run_t rx = solve_min(&m, CT_NONA_EXACT, CT_NONA_LP_BLOCK, &sol, 2);
                ct_nona_solution_free(&sol);
                point_search = 1;
                printf("  %7s %8s   link model, the box search instead of the point search: %.3f s (%zu LPs), x%.1f "
                       "the point search's time, mean JCT %.9g\n",
                       "", "", rx.seconds, rx.lps, rx.seconds / rb.seconds, rx.jct);
            }
            ct_nona_model_free(&m);
            ct_scenario_destroy(&s);
        }
        printf("  block LP time per column against 10 classes (flat = linear growth): x%.2f at 100, x%.2f at 1000\n",
               growth[1], growth[2]);
        printf("  whole certified solve at 1000 classes: %.3f s against the 100 ms goal (x%.1f)\n", whole_1000,
               whole_1000 / 0.1);
    }
    if (!full)
        printf("  (GLPK's and the penalty method's whole solves at 1000 classes take minutes: BENCH_FULL=1 runs them)\n");
    /* At 2000 jobs/s the servers are loaded enough that all-local is
     * optimal and one LP proves it. At a quarter of that load splitting
     * pays, and near-optimal waits form a ridge in (phi, W): the search's
     * gap shrinks about like 1 / LPs. Shown with a budget of 1000 LPs per
     * search (the root share's fixed point runs a few searches). */
    printf("Nona at scale, server model at 500 jobs/s in all (splitting pays): whole solve, 1000 LPs per search\n");
    printf("  %7s %8s | %9s %6s %9s | %-12s %-12s\n", "classes", "columns", "time", "LPs", "gap", "mean JCT (s)",
           "all-local");
    for (int i = 0; i < 3; i++) {
        ct_scenario_t s;
        ct_nona_model_t m;
        ct_nona_model_params_t mp;
        ct_nona_solve_params_t p;
        ct_nona_solution_t sol;
        ct_error_t err;
        fleet(&s, sizes[i], 500);
        ct_nona_model_params_init(&mp);
        ct_nona_solve_params_init(&p);
        p.max_lps = 1000;
        if (ct_nona_model_build(&s, &mp, &m, &err) != CT_OK || ct_nona_solve(&m, &p, &sol, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        double beta_sum = sol.eval.J / sol.eval.mean_jct;
        printf("  %7zu %8zu | %7.3f s %6zu %9.2e | %-12.9g %-12.9g\n", sizes[i], m.n_vars, sol.seconds, sol.lp_solves,
               sol.gap, sol.eval.mean_jct, sol.J_local / beta_sum);
        ct_nona_solution_free(&sol);
        ct_nona_model_free(&m);
        ct_scenario_destroy(&s);
    }
    /* Issue #27: the mixed-optimum fleet under job-first waits, the server
     * row's pieces cut (--server-row pieces) beside the linearised row (the
     * row job-first waits take by default) with the same LP budget, the
     * link model, merged visits and aged waits (the default model since
     * 2026-11-28, on the pieces cut): time, LPs, the proven gap, the mean
     * JCT; last job-first's linearised row with the class dual (--bound
     * class-dual). A budget of 2000 LPs per search (500 at 1000 classes). */
    printf("Nona, issue #27's mixed-optimum fleet (N x 10 segments, 105 jobs/s, 80 servers, 10 Gbps): whole solve, "
           "budget per search\n");
    printf("  %7s %8s %6s | %-34s | %-34s | %-30s | %-34s | %-34s | %-34s | %s\n", "classes", "columns", "budget",
           "job-first, cut: time (LPs) gap JCT", "job-first, linear: time (LPs) gap JCT", "link model: time (LPs) gap",
           "merged visits: time (LPs) gap JCT", "aged (default): time (LPs) gap JCT", "class dual: time (LPs) gap JCT",
           "all-local JCT");
    for (int i = 0; i < 3; i++) {
        size_t budget = sizes[i] >= 1000 ? 500 : 2000;
        ct_scenario_t s;
        ct_test_fleet_mixed(&s, sizes[i], 1.0);
        double local = NAN;
        size_t cols = 0;
        printf("  %7zu", sizes[i]);
        for (int v = 0; v < 6; v++) { /* pieces cut, linear row, link model, merged visits, aged waits, class dual */
            ct_nona_model_params_t mp;
            ct_nona_solve_params_t p;
            ct_nona_solution_t sol;
            ct_nona_model_params_init(&mp);
            mp.server_model = v != 2;
            mp.reentry_waits = v == 3 ? 4 : v == 4 ? 5 : 1; /* (merged and aged: the pieces cut, their row) */
            ct_nona_solve_params_init(&p);
            p.max_lps = budget;
            p.server_row = v == 1 || v == 5 ? CT_NONA_ROW_LINEAR : CT_NONA_ROW_PIECES;
            p.class_dual = v == 5; /* (--bound class-dual, job-first's row) */
            if (solve_scenario(&s, &mp, &p, &sol, v == 0 ? &cols : NULL))
                return 1;
            if (v == 0) {
                local = sol.J_local / (sol.eval.J / sol.eval.mean_jct);
                printf(" %8zu %6zu |", cols, budget);
            }
            if (v != 2)
                printf(" %7.3f s (%5zu) %8.2e %.6f |", sol.seconds, sol.lp_solves, sol.gap, sol.eval.mean_jct);
            else
                printf(" %7.3f s (%5zu) %8.2e |", sol.seconds, sol.lp_solves, sol.gap);
            ct_nona_solution_free(&sol);
        }
        printf(" %.6f\n", local);
        ct_scenario_destroy(&s);
    }
    /* Issue #27's bar on the same fleet: the default certified solve (the
     * default gap, LP budget and stall rule; what `contend nona solve`
     * does), both models: at 1000 classes at most 1 s and 150x the
     * 10-class solve. */
    printf("Nona, issue #27's mixed-optimum fleet, the default solve (gap 1e-9, 20000 LPs, --stall %d, --stall-large "
           "%d, --pilot-first %d, --pilot-swing %d, --stall-gap-large %g, --box-pairs %d, --search-warm %d, -j the "
           "cores; goal at 1000 classes: 1 s and x150 the 10-class solve), beside the rule before (--search-warm 0)\n",
           CT_NONA_STALL_LPS, CT_NONA_STALL_LPS_LARGE, CT_NONA_PILOT_FIRST, CT_NONA_SWING_LPS, CT_NONA_STALL_GAP_LARGE,
           CT_NONA_BOX_PAIRS, CT_NONA_SEARCH_WARM);
    printf("  %7s | %-44s | %-44s | %-36s\n", "classes", "servers: time (LPs) gap stalled",
           "link model: time (LPs) gap", "servers, the rule before: time (LPs), J");
    double first[2] = { NAN, NAN };
    for (int i = 0; i < 3; i++) {
        ct_scenario_t s;
        ct_test_fleet_mixed(&s, sizes[i], 1.0);
        printf("  %7zu |", sizes[i]);
        double J = NAN, t_default = NAN;
        for (int run = 0; run < 3; run++) { /* servers, link, servers with the rule before */
            int server = run != 1;
            ct_nona_model_params_t mp;
            ct_nona_solve_params_t p;
            ct_nona_solution_t sol;
            ct_nona_model_params_init(&mp);
            mp.server_model = server;
            ct_nona_solve_params_init(&p);
            if (run == 2)
                p.search_warm = 0;
            if (solve_scenario(&s, &mp, &p, &sol, NULL))
                return 1;
            if (run == 2) {
                printf(" %7.3f s (%5zu), x%.2f the default's time, J %+.2e |\n", sol.seconds, sol.lp_solves,
                       sol.seconds / t_default, J / sol.eval.J - 1);
                ct_nona_solution_free(&sol);
                break;
            }
            if (run == 0) {
                J = sol.eval.J;
                t_default = sol.seconds;
            }
            if (i == 0)
                first[server] = sol.seconds;
            char ratio[32] = "";
            if (i == 2)
                snprintf(ratio, sizeof ratio, ", x%.0f", sol.seconds / first[server]);
            printf(" %7.3f s (%5zu) %8.2e%s%s |", sol.seconds, sol.lp_solves, sol.gap,
                   server ? (sol.stalled ? " yes" : " no") : "", ratio);
            ct_nona_solution_free(&sol);
        }
        ct_scenario_destroy(&s);
    }
    /* Issue #27's lookup of the same fleet: the 20 scales 0.1 .. 2.0 solved
     * one after the other (`contend nona sweep --scale 0.1:2:0.1 -j 1`:
     * the sum of the solves), the default beside the rule before
     * 2026-12-02's second (--search-warm 0; at 1000 classes only with
     * BENCH_FULL=1: a minute more). Goal: 10 s at 1000 classes with -j 2,
     * so about 20 s of solves here. */
    printf("Nona, the 20-scale lookup of issue #27's mixed fleet (scales 0.1 .. 2.0, one thread; goal at 1000 classes: "
           "10 s with -j 2), the default beside the rule before (--search-warm 0)\n");
    printf("  %7s | %-24s | %-24s | %s\n", "classes", "default: time (LPs)", "before: time (LPs)",
           "ratio, tables: the same J, mean JCT over the rule before's geometric mean (worst)");
    for (int i = 0; i < 3; i++) {
        ct_scenario_t s;
        ct_test_fleet_mixed(&s, sizes[i], 1.0);
        double t[2] = { 0, 0 }, Jv[2][20], lj = 0, worst = 0;
        size_t lps[2] = { 0, 0 };
        int same = 0, n = 0, rules = sizes[i] >= 1000 && !full ? 1 : 2;
        for (int k = 0; k < 20; k++)
            Jv[1][k] = NAN;
        for (int rule = 0; rule < rules; rule++)
            for (int k = 0; k < 20; k++) {
                ct_scenario_t sc;
                ct_error_t err;
                ct_nona_model_params_t mp;
                ct_nona_solve_params_t p;
                ct_nona_solution_t sol;
                Jv[rule][k] = NAN;
                if (ct_scenario_scaled(&s, 0.1 * (k + 1), &sc, &err) != CT_OK) {
                    fprintf(stderr, "%s\n", err.msg);
                    return 1;
                }
                ct_nona_model_params_init(&mp);
                ct_nona_solve_params_init(&p);
                p.threads = 1; /* (as a sweep's scales: one thread each) */
                if (rule)
                    p.search_warm = 0;
                /* (a scale past saturation fails to build: the sweep skips it) */
                ct_nona_model_t m;
                if (ct_nona_model_build(&sc, &mp, &m, &err) == CT_OK) {
                    if (ct_nona_solve(&m, &p, &sol, &err) != CT_OK) {
                        fprintf(stderr, "%s\n", err.msg);
                        return 1;
                    }
                    t[rule] += sol.seconds;
                    lps[rule] += sol.lp_solves;
                    Jv[rule][k] = sol.eval.mean_jct;
                    ct_nona_solution_free(&sol);
                    ct_nona_model_free(&m);
                }
                ct_scenario_destroy(&sc);
            }
        for (int k = 0; k < 20; k++)
            if (isfinite(Jv[0][k]) && isfinite(Jv[1][k])) {
                double q = Jv[0][k] / Jv[1][k];
                same += fabs(q - 1) <= 1e-9;
                lj += log(q);
                worst = fmax(worst, q);
                n++;
            }
        if (rules < 2)
            printf("  %7zu | %8.3f s (%7zu) | %-24s | (BENCH_FULL=1 runs the rule before)\n", sizes[i], t[0], lps[0],
                   "(skipped)");
        else
            printf("  %7zu | %8.3f s (%7zu) | %8.3f s (%7zu) | x%.2f, %d of %d the same, %.6f (%.6f)\n", sizes[i],
                   t[0], lps[0], t[1], lps[1], t[1] > 0 ? t[0] / t[1] : 0, same, n, n ? exp(lj / n) : NAN, worst);
        ct_scenario_destroy(&s);
    }
    /* Issue #32: job-first waits (the default until 2026-11-28), merged
     * visits and aged waits (the default) against the earlier piece waits,
     * the same solves side by side (goal: at most 2x the time). Fastest of
     * three; 1000 LPs per search at 500 jobs/s. */
    static const int modes[4] = { 1, 4, 5, 0 }; /* params.reentry_waits: job-first, merged, aged, pieces */
    printf("Nona at scale, server model: job-first waits, merged visits and aged waits (the default) against piece "
           "waits (--waits pieces), whole certified solve (goal: at most x2)\n");
    printf("  %7s %6s | %-30s | %-30s | %-30s | %-30s | %s\n", "classes", "jobs/s", "job-first: time (LPs) gap",
           "merged: time (LPs) gap", "aged (default): time (LPs) gap", "pieces: time (LPs) gap", "ratios");
    for (int load = 0; load < 2; load++)
        for (int i = 0; i < 3; i++) {
            double rate = load ? 500 : 2000, t[4] = { 0, 0, 0, 0 };
            printf("  %7zu %6.0f |", sizes[i], rate);
            for (int mode = 0; mode < 4; mode++) {
                ct_scenario_t s;
                ct_nona_model_t m;
                ct_nona_model_params_t mp;
                ct_nona_solve_params_t p;
                ct_error_t err;
                fleet(&s, sizes[i], rate);
                ct_nona_model_params_init(&mp);
                mp.reentry_waits = modes[mode];
                ct_nona_solve_params_init(&p);
                if (load)
                    p.max_lps = 1000;
                if (ct_nona_model_build(&s, &mp, &m, &err) != CT_OK) {
                    fprintf(stderr, "%s\n", err.msg);
                    return 1;
                }
                double best = INFINITY, gap = NAN;
                size_t lps = 0;
                for (int r = 0; r < 3; r++) {
                    ct_nona_solution_t sol;
                    if (ct_nona_solve(&m, &p, &sol, &err) != CT_OK) {
                        fprintf(stderr, "%s\n", err.msg);
                        return 1;
                    }
                    if (sol.seconds < best)
                        best = sol.seconds;
                    lps = sol.lp_solves;
                    gap = sol.gap;
                    ct_nona_solution_free(&sol);
                }
                t[mode] = best;
                printf(" %9.4f s (%5zu) %9.2e |", best, lps, gap);
                ct_nona_model_free(&m);
                ct_scenario_destroy(&s);
            }
            printf(" x%.2f x%.2f x%.2f\n", t[0] / t[3], t[1] / t[3], t[2] / t[3]);
        }
    return 0;
}
