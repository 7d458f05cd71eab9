/*
 * bench_nona_large.c - Nona on models whose segments are too large to
 * enumerate (column generation, #9 part 1), on generated DAGs shaped like
 * the public profiles that need it:
 *   inception-like: three Inception-E modules whose branch outputs feed the
 *     next module directly (no concat node between them, as in profiler
 *     graphs), so no bottleneck separates them: one segment of 27 tasks;
 *   nasnet-like: NASNet-A cells, each reading the two previous cells'
 *     outputs (which removes every bottleneck), five blocks of two ops and
 *     an add, and a concat: 6 cells (mobile-sized) and 20 cells (large-sized,
 *     one segment of 300+ tasks).
 * Prints per model and model (servers / link): wall time of the whole
 * solve, triplets generated, pricing rounds, the mean JCT against all-local
 * and the reported gap. Goals: under 1 s, the large NASNet under 5 s.
 */
#include "bench_util.h"
#include "ct_nona_solve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-53;
}

/* A task named prefix + a + "." + b. */
static size_t task(ct_dag_t *d, const char *prefix, size_t a, size_t b, double t)
{
    char id[64];
    size_t v;
    ct_error_t err;
    snprintf(id, sizeof id, "%s%zu.%zu", prefix, a, b);
    ct_dag_add_task(d, id, t, &v, &err);
    return v;
}

static void edge(ct_dag_t *d, size_t u, size_t v, double bytes)
{
    ct_error_t err;
    ct_dag_add_edge(d, u, v, bytes, &err);
}

/* Three Inception-E-like modules chained without a concat between them. */
static void inception_like(ct_dag_t *d)
{
    ct_dag_init(d);
    size_t in = task(d, "stem", 0, 0, 0.004), outs[9], n_out = 1;
    outs[0] = in;
    for (size_t mod = 0; mod < 3; mod++) {
        size_t nb = 0, next[9];
        /* branch 1: 1x1; branch 2: 1x1 -> {1x3, 3x1}; branch 3: 1x1 -> 3x3 -> {1x3, 3x1}; branch 4: pool -> 1x1 */
        size_t b1 = task(d, "m.b1.", mod, 0, 0.0015 + 0.001 * urand());
        size_t b2 = task(d, "m.b2.", mod, 0, 0.0015 + 0.001 * urand());
        size_t b2a = task(d, "m.b2a.", mod, 1, 0.001 + 0.001 * urand());
        size_t b2b = task(d, "m.b2b.", mod, 2, 0.001 + 0.001 * urand());
        size_t b3 = task(d, "m.b3.", mod, 0, 0.002 + 0.002 * urand());
        size_t b3c = task(d, "m.b3c.", mod, 1, 0.003 + 0.002 * urand());
        size_t b3a = task(d, "m.b3a.", mod, 2, 0.001 + 0.001 * urand());
        size_t b3b = task(d, "m.b3b.", mod, 3, 0.001 + 0.001 * urand());
        size_t b4 = task(d, "m.b4.", mod, 0, 0.0008 + 0.0005 * urand());
        size_t heads[4] = { b1, b2, b3, b4 };
        for (size_t i = 0; i < n_out; i++)
            for (size_t h = 0; h < 4; h++)
                edge(d, outs[i], heads[h], 1e6 * (1 + 3 * urand()));
        edge(d, b2, b2a, 8e5);
        edge(d, b2, b2b, 8e5);
        edge(d, b3, b3c, 1.2e6);
        edge(d, b3c, b3a, 8e5);
        edge(d, b3c, b3b, 8e5);
        next[nb++] = b1;
        next[nb++] = b2a;
        next[nb++] = b2b;
        next[nb++] = b3a;
        next[nb++] = b3b;
        next[nb++] = b4;
        for (size_t i = 0; i < nb; i++)
            outs[i] = next[i];
        n_out = nb;
    }
    size_t head = task(d, "head", 0, 0, 0.001);
    for (size_t i = 0; i < n_out; i++)
        edge(d, outs[i], head, 5e5);
}

/* NASNet-A-like cells: inputs h[i-1], h[i-2]; five blocks of two ops on
 * earlier states and an add; the cell's output concatenates the blocks. */
static void nasnet_like(ct_dag_t *d, size_t cells)
{
    ct_dag_init(d);
    size_t prev2 = task(d, "stem", 0, 0, 0.003), prev1 = task(d, "stem", 1, 0, 0.003);
    edge(d, prev2, prev1, 2e6);
    for (size_t c = 0; c < cells; c++) {
        size_t st[7] = { prev1, prev2 }, ns = 2;
        size_t out = 0;
        size_t blocks[5];
        for (size_t bl = 0; bl < 5; bl++) {
            size_t in1 = st[(size_t)(urand() * (double)ns) % ns], in2 = st[(size_t)(urand() * (double)ns) % ns];
            size_t op1 = task(d, "c.opa.", c, bl, 0.0006 + 0.0012 * urand());
            size_t op2 = task(d, "c.opb.", c, bl, 0.0006 + 0.0012 * urand());
            size_t add = task(d, "c.add.", c, bl, 0.0001);
            edge(d, in1, op1, 1.5e6 * (1 + urand()));
            edge(d, in2, op2, 1.5e6 * (1 + urand()));
            edge(d, op1, add, 1e6);
            edge(d, op2, add, 1e6);
            blocks[bl] = add;
            st[ns++] = add;
        }
        out = task(d, "c.concat.", c, 0, 0.0002);
        for (size_t bl = 0; bl < 5; bl++)
            edge(d, blocks[bl], out, 1e6);
        prev2 = prev1;
        prev1 = out;
    }
    size_t head = task(d, "head", 0, 0, 0.001);
    edge(d, prev1, head, 1e6);
    edge(d, prev2, head, 1e6);
}

static void run(const char *name, ct_dag_t *d, double rate, int spread)
{
    ct_error_t err;
    ct_scenario_t s;
    ct_scenario_init(&s);
    s.path = ct_strdup(name, &err);
    s.servers = 80;
    s.link_bandwidth = 1.25e9;
    s.speed = 1;
    s.rho_bg = 0.05;
    s.m2_bg = 1e-6;
    s.n_classes = 1;
    s.classes = calloc(1, sizeof(ct_class_t));
    s.classes[0].name = ct_strdup(name, &err);
    s.classes[0].dag_path = ct_strdup("generated", &err);
    s.classes[0].rate = rate;
    s.classes[0].dag = *d;
    for (int server = 1; server >= 0; server--) {
        ct_nona_model_t m;
        ct_nona_model_params_t mp;
        ct_nona_model_params_init(&mp);
        mp.server_model = server;
        double t0 = bench_now();
        if (ct_nona_model_build(&s, &mp, &m, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        size_t largest = 0, generated = 0;
        for (size_t b = 0; b < m.n_blocks; b++) {
            if (m.blocks[b].parts.n_inner > largest)
                largest = m.blocks[b].parts.n_inner;
            generated += m.blocks[b].generated;
        }
        ct_nona_solution_t sol;
        ct_nona_solve_params_t sp;
        ct_nona_solve_params_init(&sp);
        sp.price_spread = spread;
        if (ct_nona_solve(&m, &sp, &sol, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        double t = bench_now() - t0, worst = 0;
        for (size_t b = 0; sol.segment_gap && b < m.n_blocks; b++)
            worst = fmax(worst, sol.segment_gap[b]);
        printf("  %-14s %-7s%s %4zu tasks, largest segment %3zu (%zu generated): %7.3f s, %4zu triplets generated in %3zu "
               "rounds, mean JCT %.6g s (all-local %.6g), gap %.2g of J (worst segment %.3g s)\n",
               name, server ? "servers" : "link", spread ? " spread" : "", d->n_tasks, largest, generated, t, sol.columns_added, sol.cg_rounds,
               sol.eval.mean_jct, sol.J_local / rate, sol.eval.J > 0 ? sol.column_gap / sol.eval.J : 0, worst);
        ct_nona_solution_free(&sol);
        ct_nona_model_free(&m);
    }
    ct_dag_init(&s.classes[0].dag); /* the caller owns d */
    ct_scenario_destroy(&s);
}

int main(void)
{
    printf("Nona with column generation (segments over the enumeration limit); goals: < 1 s, NASNet-large < 5 s\n");
    ct_dag_t d;
    inception_like(&d);
    run("inception-like", &d, 40, 0);
    ct_dag_destroy(&d);
    nasnet_like(&d, 6);
    run("nasnet-mobile", &d, 30, 0);
    ct_dag_destroy(&d);
    nasnet_like(&d, 20);
    run("nasnet-large", &d, 10, 0);
    ct_dag_destroy(&d);
    const char *full = getenv("BENCH_FULL");
    if (full && *full == '1') { /* pricing at a spread of waits too: about a minute */
        nasnet_like(&d, 20);
        run("nasnet-large", &d, 10, 1);
        ct_dag_destroy(&d);
    } else {
        printf("  (BENCH_FULL=1 adds NASNet-large with --price-spread: about a minute)\n");
    }
    return 0;
}
