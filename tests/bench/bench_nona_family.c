/*
 * bench_nona_family.c - certified Nona solves on a seeded family of random
 * layered workloads (issue #27's check: 30 scenarios of 1-3 classes of
 * DAGs with 2-7 stages of 1-4 tasks, 80 servers, 10 or 100 Gbps, at the
 * generator's rates), under job-first waits (--waits job-first, the
 * default until 2026-11-28; BENCH_WAITS=aged: the default aged waits,
 * whose default row is the cut), each solved with the server row's pieces
 * cut (--server-row pieces) and with the linearised row (job-first's
 * default), side
 * by side in one run: time, LPs, the proven gap, the column gap of
 * generated segments, the mean JCT; then a summary (searches that closed
 * their gap, the slowest solves, the JCT of the cut's tables against the
 * default's, and the default gap 1e-9 against 1e-6 and 1e-4: time, LPs,
 * tables). BENCH_FAMILY=N takes the
 * first N seeds (default 30); BENCH_CLASS_DUAL=1 adds the default row with
 * the class dual (--bound class-dual) beside the default, seed by seed
 * (minutes more: the searches that stop at the LP's floor go on);
 * BENCH_SPREAD_GAP=G adds the default row with --spread-gap G beside the
 * default (0.01 since 2026-11-28; G = 0: the earlier default), summed
 * (time, LPs, column gaps, tables); BENCH_STALL=N the same with --stall N
 * (250 since 2026-11-29; 1000: the rule before); BENCH_STALL_RULE=before
 * the same with the stall rule's levels before 2026-11-30's (--stall-gap 0
 * --stall-close 0.1); BENCH_SCRATCH=off the same with the wait LPs'
 * arrays allocated afresh for each LP set up (the model's scratch cache
 * dropped, as before 2026-11-30's); BENCH_SCREENS=off the same with every
 * wait LP's column screens computed afresh (the model's screens cache
 * dropped, as before the night of 2026-11-30); BENCH_THREADS=N the same
 * on N threads (`nona solve -j N`: exact pricing's streams in N ranges
 * at once, the wait LPs' pricing passes in pieces on a team; the
 * library's default is 1, the command's the cores).
 */
#include "bench_util.h"
#include "ct_nona_solve.h"
#include "ct_scenario_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double seconds, gap, column_gap, jct;
    size_t lps;
} result_t;

static int class_dual; /* BENCH_CLASS_DUAL=1: the solves of the class-dual table use it */
static double spread_gap = CT_NONA_SPREAD_GAP; /* BENCH_SPREAD_GAP=G: the solves of that summary use G */
static size_t stall = CT_NONA_STALL_LPS;       /* BENCH_STALL=N: the same with --stall N */
static double stall_gap = CT_NONA_STALL_GAP, stall_close = CT_NONA_STALL_CLOSE; /* BENCH_STALL_RULE=before */
static int no_scratch; /* BENCH_SCRATCH=off: the model's scratch cache dropped */
static int no_screens; /* BENCH_SCREENS=off: the model's screens cache dropped */
static unsigned threads = 1; /* BENCH_THREADS=N: the solves of that summary take N */
static int waits = 1;  /* params.reentry_waits: job-first (BENCH_WAITS=aged: CT_NONA_WAITS_DEFAULT) */

static int solve(const ct_scenario_t *s, ct_nona_row_t row, double gap, result_t *r)
{
    ct_nona_model_t m;
    ct_nona_model_params_t mp;
    ct_nona_solve_params_t p;
    ct_nona_solution_t sol;
    ct_error_t err;
    ct_nona_model_params_init(&mp);
    mp.reentry_waits = waits;
    ct_nona_solve_params_init(&p);
    p.server_row = row;
    p.gap = gap;
    p.class_dual = class_dual;
    p.spread_gap = spread_gap;
    p.stall_lps = stall;
    p.stall_gap = stall_gap;
    p.stall_close = stall_close;
    p.threads = threads;
    int built = ct_nona_model_build(s, &mp, &m, &err) == CT_OK;
    if (built && no_scratch) {
        ct_scratch_free(m.scratch);
        m.scratch = NULL;
    }
    if (built && no_screens && m.screens) {
        free(m.screens->e);
        free(m.screens);
        m.screens = NULL;
    }
    if (!built || ct_nona_solve(&m, &p, &sol, &err) != CT_OK) {
        fprintf(stderr, "%s: %s\n", s->path, err.msg);
        return 1;
    }
    r->seconds = sol.seconds;
    r->gap = sol.gap;
    r->column_gap = sol.segment_gap && sol.eval.J > 0 ? sol.column_gap / sol.eval.J : 0.0;
    r->jct = sol.eval.mean_jct;
    r->lps = sol.lp_solves;
    ct_nona_solution_free(&sol);
    ct_nona_model_free(&m);
    return 0;
}

int main(void)
{
    const char *w = getenv("BENCH_WAITS");
    if (w && !strcmp(w, "aged"))
        waits = CT_NONA_WAITS_DEFAULT;
    const char *env = getenv("BENCH_FAMILY");
    int n = env ? atoi(env) : 30;
    if (n < 1 || n > 1000)
        n = 30;
    ct_scenario_gen_params_t gp;
    ct_scenario_gen_params_init(&gp);
    gp.stages_min = 2;
    gp.stages_max = 7;
    /* (the default row: the linearised one with job-first waits, the cut with aged waits) */
    int aged = waits != 1;
    printf("Nona certified solves on %d random layered workloads (seeds 1..%d, 2-7 stages, 80 servers, 10/100 Gbps), "
           "%s:\n  the server row's pieces cut (--server-row pieces%s) against the linearised row (%s)\n",
           n, n, aged ? "aged waits (the default)" : "job-first waits", aged ? ", the default" : "",
           aged ? "--server-row linear" : "the default");
    printf("  %4s %7s | %-40s | %-40s | %s\n", "seed", "classes",
           aged ? "pieces cut (default): time (LPs) gap col.gap" : "pieces cut: time (LPs) gap col.gap",
           aged ? "linear: time (LPs) gap col.gap" : "linear (default): time (LPs) gap col.gap", "JCT ratio");
    int closed[2] = { 0, 0 }, col1[2] = { 0, 0 };
    double tmax[2] = { 0, 0 }, tsum[2] = { 0, 0 }, lratio = 0, worst = 0, best = INFINITY;
    const double loose[2] = { 1e-6, 1e-4 };
    double lsum[2] = { 0, 0 }, lj[2] = { 0, 0 }, lworst[2] = { 0, 0 };
    size_t llps[2] = { 0, 0 }, lps9 = 0;
    const char *cd_env = getenv("BENCH_CLASS_DUAL");
    int with_cd = cd_env && atoi(cd_env) == 1, cd_closed = 0;
    const char *sg_env = getenv("BENCH_SPREAD_GAP"), *st_env = getenv("BENCH_STALL"), *sr_env = getenv("BENCH_STALL_RULE");
    /* (sg_*: the default row with the other option, --spread-gap, --stall or the stall rule's levels before) */
    double sg = sg_env ? atof(sg_env) : -1, st = st_env ? atof(st_env) : -1;
    int sr = sr_env && !strcmp(sr_env, "before");
    const char *sc_env = getenv("BENCH_SCRATCH");
    int sc = sc_env && !strcmp(sc_env, "off");
    const char *sn_env = getenv("BENCH_SCREENS");
    int sn = sn_env && !strcmp(sn_env, "off");
    const char *th_env = getenv("BENCH_THREADS");
    int th = th_env ? atoi(th_env) : 0;
    if (th < 0 || th > 1024)
        th = 0;
    double sg_sum = 0, def_sum = 0, sg_lj = 0, sg_worst = 0, sg_best = INFINITY;
    size_t sg_lps = 0, def_lps = 0;
    int sg_col1 = 0, def_col1 = 0, sg_slow = 0, def_slow = 0, sg_changed = 0;
    result_t *cd = calloc((size_t)n + 1, sizeof(result_t)), *lin = calloc((size_t)n + 1, sizeof(result_t));
    double cd_sum = 0, cd_max = 0, cd_lj = 0, cd_worst = 0, cd_best = INFINITY;
    if (!cd || !lin)
        return 1;
    for (int i = 1; i <= n; i++) {
        ct_scenario_t s;
        ct_error_t err;
        if (ct_scenario_gen_layered(&gp, (uint64_t)i, &s, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        result_t r[2];
        if (solve(&s, CT_NONA_ROW_PIECES, 1e-9, &r[0]) || solve(&s, CT_NONA_ROW_LINEAR, 1e-9, &r[1]))
            return 1;
        /* the default gap (1e-9) against looser ones, the default row */
        for (int g = 0; g < 2; g++) {
            result_t x;
            if (solve(&s, CT_NONA_ROW_LINEAR, loose[g], &x))
                return 1;
            lsum[g] += x.seconds;
            llps[g] += x.lps;
            lj[g] += log(x.jct / r[1].jct);
            lworst[g] = fmax(lworst[g], x.jct / r[1].jct);
        }
        lps9 += r[1].lps;
        lin[i] = r[1];
        if (with_cd) {
            class_dual = 1;
            int bad = solve(&s, CT_NONA_ROW_LINEAR, 1e-9, &cd[i]);
            class_dual = 0;
            if (bad)
                return 1;
            cd_closed += cd[i].gap <= 1e-6;
            cd_sum += cd[i].seconds;
            cd_max = fmax(cd_max, cd[i].seconds);
            double q = cd[i].jct / r[1].jct;
            cd_lj += log(q);
            cd_worst = fmax(cd_worst, q);
            cd_best = fmin(cd_best, q);
        }
        if (sg >= 0 || st >= 0 || sr || sc || sn || th > 0) { /* the default row (aged waits: the cut), other options */
            result_t x, *d = aged ? &r[0] : &r[1];
            spread_gap = sg >= 0 ? sg : CT_NONA_SPREAD_GAP;
            stall = st >= 0 ? (size_t)st : CT_NONA_STALL_LPS;
            stall_gap = sr ? 0 : CT_NONA_STALL_GAP;
            stall_close = sr ? 0.1 : CT_NONA_STALL_CLOSE;
            no_scratch = sc;
            no_screens = sn;
            threads = th > 0 ? (unsigned)th : 1;
            int bad = solve(&s, aged ? CT_NONA_ROW_PIECES : CT_NONA_ROW_LINEAR, 1e-9, &x);
            spread_gap = CT_NONA_SPREAD_GAP;
            stall = CT_NONA_STALL_LPS;
            stall_gap = CT_NONA_STALL_GAP;
            stall_close = CT_NONA_STALL_CLOSE;
            no_scratch = 0;
            no_screens = 0;
            threads = 1;
            if (bad)
                return 1;
            sg_sum += x.seconds;
            def_sum += d->seconds;
            sg_lps += x.lps;
            def_lps += d->lps;
            sg_col1 += x.column_gap <= 0.01;
            def_col1 += d->column_gap <= 0.01;
            sg_slow += x.seconds > 1;
            def_slow += d->seconds > 1;
            double q = x.jct / d->jct;
            sg_changed += q != 1.0;
            sg_lj += log(q);
            sg_worst = fmax(sg_worst, q);
            sg_best = fmin(sg_best, q);
        }
        printf("  %4d %7zu |", i, s.n_classes);
        for (int v = 0; v < 2; v++) {
            printf(" %8.3f s (%5zu) %8.2e %8.2e |", r[v].seconds, r[v].lps, r[v].gap, r[v].column_gap);
            closed[v] += r[v].gap <= 1e-6;
            col1[v] += r[v].column_gap <= 0.01;
            tmax[v] = fmax(tmax[v], r[v].seconds);
            tsum[v] += r[v].seconds;
        }
        double ratio = r[0].jct / r[1].jct;
        printf(" %.6f\n", ratio);
        lratio += log(ratio);
        worst = fmax(worst, ratio);
        best = fmin(best, ratio);
        ct_scenario_destroy(&s);
    }
    for (int v = 0; v < 2; v++)
        printf("  %s: gap <= 1e-6 in %d of %d, column gap <= 1%% in %d, slowest %.3f s, all %.3f s\n",
               v ? (aged ? "linear row" : "linear row (default)") : (aged ? "pieces cut (default)" : "pieces cut"),
               closed[v], n, col1[v], tmax[v], tsum[v]);
    printf("  mean JCT of the cut's tables over the linear row's: geometric mean %.6f (%.6f .. %.6f)\n",
           exp(lratio / n), best, worst);
    printf("  the default gap 1e-9 against looser ones (linear row): 1e-9 %.3f s in all (%zu LPs)", tsum[1], lps9);
    for (int g = 0; g < 2; g++)
        printf("; %.0e %.3f s (%zu LPs), JCT over 1e-9's geometric mean %.6f, worst %.6f", loose[g], lsum[g], llps[g],
               exp(lj[g] / n), lworst[g]);
    printf("\n");
    if (with_cd) {
        printf("  the class dual (--bound class-dual) against the default (the LP alone), default row:\n");
        printf("  %4s | %-31s | %-31s | %s\n", "seed", "LP alone: time (LPs) gap", "class dual: time (LPs) gap",
               "JCT ratio");
        for (int i = 1; i <= n; i++)
            printf("  %4d | %8.3f s (%5zu) %8.2e | %8.3f s (%5zu) %8.2e | %.6f\n", i, lin[i].seconds, lin[i].lps,
                   lin[i].gap, cd[i].seconds, cd[i].lps, cd[i].gap, cd[i].jct / lin[i].jct);
        printf("  class dual: gap <= 1e-6 in %d of %d (LP alone %d), slowest %.3f s, all %.3f s (LP alone %.3f s); "
               "JCT over the LP's geometric mean %.6f (%.6f .. %.6f)\n",
               cd_closed, n, closed[1], cd_max, cd_sum, tsum[1], exp(cd_lj / n), cd_best, cd_worst);
    }
    if (sg >= 0 || st >= 0 || sr || sc || sn || th > 0) {
        char what[256]; /* (every option at once fits) */
        int k = 0;
        what[0] = 0;
        if (sg >= 0)
            k += snprintf(what + k, sizeof what - (size_t)k, "--spread-gap %g ", sg);
        if (st >= 0)
            k += snprintf(what + k, sizeof what - (size_t)k, "--stall %g ", st);
        if (sr)
            k += snprintf(what + k, sizeof what - (size_t)k, "--stall-gap 0 --stall-close 0.1 ");
        if (sc)
            k += snprintf(what + k, sizeof what - (size_t)k, "without the scratch cache ");
        if (sn)
            k += snprintf(what + k, sizeof what - (size_t)k, "without the screens cache ");
        if (th > 0)
            k += snprintf(what + k, sizeof what - (size_t)k, "%d threads (-j %d: pricing's streams, the wait LPs' pricing passes) ", th, th);
        if (k > 0)
            what[k - 1] = 0;
        printf("  %s against the default row: %.3f s in all against %.3f s (x%.2f), %zu LPs against %zu, "
               "column gap <= 1%% in %d against %d, above 1 s %d against %d; tables changed %d, mean JCT over the "
               "default's geometric mean %.6f (%.6f .. %.6f)\n",
               what, sg_sum, def_sum, def_sum > 0 ? sg_sum / def_sum : 0, sg_lps, def_lps, sg_col1, def_col1, sg_slow,
               def_slow, sg_changed, exp(sg_lj / n), sg_best, sg_worst);
    }
    free(cd);
    free(lin);
    return 0;
}
