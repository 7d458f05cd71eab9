/*
 * share.c - GPU sharing (SJF-BSBF): the least-squares fit recovers known
 * constants from synthetic step times; the pair model against an
 * independent two-job simulation and the paper's eq. (21); Theorem 1
 * against brute force over delayed starts; Algorithm 2 against exhaustive
 * search over the micro-batch; a hand-worked three-job timeline with
 * sharing (and the refusal when xi is high); Tiresias promotions and
 * preemptions; FIFO's head-of-line blocking; the workload importer and
 * generator; determinism.
 */
#define _DEFAULT_SOURCE
#include "ct_share.h"
#include "ct_test.h"

#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* The fit.                                                                  */

static double step_of(double tc, double tn, double d)
{
    return tn > 0 ? pow(pow(tc, d) + pow(tn, d), 1 / d) : tc;
}

static void fit(void)
{
    char dir[] = "/tmp/ct-share-fit-XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/traces", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/traces/synth", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/workloads", dir);
    mkdir(path, 0700);
    const double a = 0.02, b = 0.001, d = 2.0, ia = 0.05, ib = 0.01, na = 0.3, nb = 0.02;
    static const char *const places[] = { "1", "2", "3", "4", "11", "12", "22", "44", "13", "111", "1111", "2222" };
    char *csv = malloc(65536);
    size_t len = (size_t)snprintf(csv, 65536, "placement,local_bsz,step_time,sync_time\n");
    for (size_t p = 0; p < sizeof places / sizeof *places; p++) {
        uint32_t gpus = 0, servers = (uint32_t)strlen(places[p]);
        for (const char *c = places[p]; *c; c++)
            gpus += (uint32_t)(*c - '0');
        for (double bs = 8; bs <= 128; bs *= 2) {
            double tc = a + b * bs, tn = gpus < 2 ? 0 : (servers > 1 ? na + nb * (gpus - 2) : ia + ib * (gpus - 2));
            double sync = gpus < 2 ? 0.003 : 0.5 * tn, step = gpus < 2 ? tc + sync : step_of(tc, tn, d);
            len += (size_t)snprintf(csv + len, 65536 - len, "%s,%g,%.17g,%.17g\n", places[p], bs, step, sync);
        }
    }
    snprintf(path, sizeof path, "%s/traces/synth/placements.csv", dir);
    ct_test_write(path, csv);
    free(csv);
    snprintf(path, sizeof path, "%s/traces/synth/validation-8.csv", dir);
    ct_test_write(path, "progress,iteration,metric,grad_sqr,grad_var\n500,500,0.1,1,1\n1000,1000,0.2,1,1\n");
    snprintf(path, sizeof path, "%s/traces/synth/validation-32.csv", dir);
    ct_test_write(path, "progress,iteration,metric,grad_sqr,grad_var\n500,130,0.1,1,1\n1000,260,0.2,1,1\n");
    snprintf(path, sizeof path, "%s/workloads/workload-1.csv", dir);
    ct_test_write(path, "name,time,application,num_replicas,batch_size\nsynth-0,5,synth,4,32\nsynth-1,9,synth,4,32\n"
                     "synth-2,11,synth,1,8\n");
    ct_apps_t apps;
    ct_error_t err;
    CHECK(ct_apps_fit_dir(dir, 0.3, &apps, &err) == CT_OK);
    if (apps.n == 1) {
        const ct_app_t *p = &apps.apps[0];
        CHECK(!strcmp(p->name, "synth"));
        CHECK_CLOSE(p->comp_alpha, a, 1e-9);
        CHECK_CLOSE(p->comp_beta, b, 1e-9);
        CHECK_CLOSE(p->delta, d, 1e-9);
        CHECK_CLOSE(p->comm_alpha[0], ia, 1e-7);
        CHECK_CLOSE(p->comm_beta[0], ib, 1e-7);
        CHECK_CLOSE(p->comm_alpha[1], na, 1e-7);
        CHECK_CLOSE(p->comm_beta[1], nb, 1e-7);
        CHECK(p->fit_rms_log_step < 1e-9);
        CHECK_CLOSE(p->fit_r2_comp, 1, 1e-12);
        CHECK(p->local_min == 8 && p->local_max == 128 && p->mem_static == 0.3);
        CHECK(p->n_iters == 2 && p->iters[0] == 1000 && p->iters[1] == 260 && p->init_batch == 8);
        CHECK_CLOSE(ct_app_iterations(p, 16), sqrt(1000.0 * 260.0), 1e-12); /* log-log midpoint */
        CHECK(apps.n_configs == 2);
        CHECK(apps.configs[0].gpus == 4 && apps.configs[0].batch == 32 && apps.configs[0].weight == 2);
        /* The file round-trips. */
        char out[300];
        snprintf(out, sizeof out, "%s/apps.json", dir);
        CHECK(ct_apps_write(&apps, out, &err) == CT_OK);
        ct_apps_t back;
        CHECK(ct_apps_load(&back, out, &err) == CT_OK);
        CHECK(back.n == 1 && back.apps[0].comp_beta == p->comp_beta && back.apps[0].delta == p->delta &&
              back.n_configs == 2 && back.apps[0].fit_rows_step == p->fit_rows_step);
        ct_apps_free(&back);
        unlink(out);
    }
    ct_apps_free(&apps);
    /* A trace without one-GPU rows cannot be fitted, and says so. */
    snprintf(path, sizeof path, "%s/traces/synth/placements.csv", dir);
    ct_test_write(path, "placement,local_bsz,step_time,sync_time\n2,8,0.1,0.01\n");
    CHECK(ct_apps_fit_dir(dir, 0.3, &apps, &err) != CT_OK);
    CHECK_ERR(err, CT_EINPUT, "one-GPU rows");
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* ------------------------------------------------------------------------ */
/* Theorem 1 and Algorithm 2.                                                */

/* An independent two-job simulation: B runs alone until kappa (or to its
 * end), then both at their shared speeds until one ends, then the other
 * alone. Phase by phase, from the iteration counts. */
static double pair_sim(double t_a, double t_a_alone, double i_a, double xi_a, double t_b, double i_b, double xi_b,
                       double kappa)
{
    double now = 0, ra = i_a, rb = i_b, end_a = -1, end_b = -1;
    int a_on = 0;
    while (end_a < 0 || end_b < 0) {
        double va = 0, vb = 0; /* iterations per second */
        int shared = a_on && end_a < 0 && end_b < 0;
        if (end_b < 0)
            vb = 1 / (t_b * (shared ? xi_b : 1));
        if (a_on && end_a < 0)
            va = 1 / ((end_b >= 0 && kappa >= t_b * i_b ? t_a_alone : t_a) * (shared ? xi_a : 1));
        double dt = INFINITY;
        if (vb > 0)
            dt = fmin(dt, rb / vb);
        if (va > 0)
            dt = fmin(dt, ra / va);
        if (!a_on && kappa - now < dt)
            dt = kappa - now;
        now += dt;
        rb -= vb * dt;
        ra -= va * dt;
        if (end_b < 0 && rb <= 1e-12 * i_b) {
            end_b = now;
            a_on = 1; /* A starts at B's end at the latest */
        }
        if (end_a < 0 && a_on && ra <= 1e-12 * i_a && va > 0)
            end_a = now;
        if (!a_on && now >= kappa)
            a_on = 1;
    }
    return 0.5 * (end_a + end_b);
}

static double uniform(unsigned *seed, double lo, double hi)
{
    *seed = *seed * 1103515245u + 12345u;
    return lo + (hi - lo) * (double)((*seed >> 8) & 0xffffff) / 16777216.0;
}

static void theorem1(void)
{
    /* The paper's eq. (21): case 1, A the longer under sharing, kappa = 0. */
    double ta = 2, ia = 100, xa = 1.5, tb = 1, ib = 50, xb = 1.2;
    CHECK_CLOSE(ct_share_pair_mean(ta, ta, ia, xa, tb, ib, xb, 0), xb * tb * ib + ta * ia / 2 - xb * tb * ib / (2 * xa),
                1e-12);
    unsigned seed = 7;
    int shared = 0, waited = 0;
    for (int trial = 0; trial < 400; trial++) {
        ta = uniform(&seed, 0.1, 3);
        double talone = ta * uniform(&seed, 0.5, 1);
        ia = uniform(&seed, 1, 500);
        xa = uniform(&seed, 1, 3);
        tb = uniform(&seed, 0.1, 3);
        ib = uniform(&seed, 1, 500);
        xb = uniform(&seed, 1, 3);
        double m, best = INFINITY;
        int sf = ct_share_theorem1(ta, talone, ia, xa, tb, ib, xb, &m);
        shared += sf;
        waited += !sf;
        /* The closed form equals the simulation at both ends and inside. */
        for (int k = 0; k <= 200; k++) {
            double kappa = k == 200 ? tb * ib : tb * ib * k / 200.0;
            double formula = ct_share_pair_mean(ta, talone, ia, xa, tb, ib, xb, kappa);
            double sim = pair_sim(ta, talone, ia, xa, tb, ib, xb, kappa);
            CHECK_CLOSE(formula, sim, 1e-9);
            best = fmin(best, sim);
        }
        /* Theorem 1: no delayed start beats the better end. */
        CHECK_MSG(m <= best * (1 + 1e-9), "trial %d: theorem %.17g, brute force %.17g", trial, m, best);
        CHECK_CLOSE(m, best, 1e-9);
    }
    CHECK(shared > 20 && waited > 20); /* both answers were exercised */
}

static ct_app_t toy_app(double alpha, double beta, double comm, double delta, double local_max, double mem_static)
{
    ct_app_t a;
    memset(&a, 0, sizeof a);
    strcpy(a.name, "toy");
    a.comp_alpha = alpha;
    a.comp_beta = beta;
    a.comm_alpha[0] = a.comm_alpha[1] = comm;
    a.delta = delta;
    a.init_batch = 1;
    a.local_min = 1;
    a.local_max = local_max;
    a.mem_static = mem_static;
    a.n_iters = 1;
    a.iters_batch[0] = 1;
    a.iters[0] = 100;
    return a;
}

static void algorithm2(void)
{
    unsigned seed = 11;
    int shared = 0, smaller = 0;
    for (int trial = 0; trial < 300; trial++) {
        ct_app_t app = toy_app(uniform(&seed, 0, 0.05), uniform(&seed, 0.001, 0.01), uniform(&seed, 0, 0.5),
                               uniform(&seed, 1, 3), 64, uniform(&seed, 0, 0.4));
        double local = (double)(1u << (trial % 8)) * uniform(&seed, 1, 1.9); /* up to ~240: beyond local_max */
        uint32_t gpus = 1 + trial % 4;
        double ia = uniform(&seed, 10, 3000), xa = uniform(&seed, 1, 2.5), tb = uniform(&seed, 0.05, 1);
        double ib = uniform(&seed, 10, 3000), xb = uniform(&seed, 1, 2.5), mem = uniform(&seed, 0.2, 0.8);
        ct_share_choice_t ch = ct_share_best(&app, local, gpus, 1, ia, xa, tb, ib, xb, mem);
        /* Exhaustive: every s = s0 2^k whose micro-batch fits, every start on a grid. */
        uint32_t s0 = ct_app_min_steps(&app, local);
        double t_alone = ct_app_iter(&app, local, s0, gpus, 1), best = pair_sim(t_alone, t_alone, ia, xa, tb, ib, xb,
                                                                                tb * ib);
        int best_share = 0;
        uint32_t best_s = s0;
        for (uint32_t s = s0; local / s >= 1; s *= 2) {
            if (mem + ct_app_mem(&app, local / s) > 1)
                continue;
            double t = ct_app_iter(&app, local, s, gpus, 1);
            for (int k = 0; k < 50; k++) {
                double v = pair_sim(t, t_alone, ia, xa, tb, ib, xb, tb * ib * k / 50.0);
                if (v < best * (1 - 1e-9)) {
                    best = v;
                    best_share = k == 0;
                    best_s = s;
                }
            }
        }
        CHECK_CLOSE(ch.mean, best, 1e-9);
        CHECK_MSG(ch.share == best_share && (!ch.share || ch.steps == best_s), "trial %d: share %d/%d steps %u/%u",
                  trial, ch.share, best_share, ch.steps, best_s);
        shared += ch.share;
        smaller += ch.share && ch.steps > s0;
    }
    CHECK(shared > 20 && smaller > 5);
}

/* ------------------------------------------------------------------------ */
/* The simulator.                                                            */

static void one_app(ct_apps_t *a, double xi)
{
    memset(a, 0, sizeof *a);
    a->n = 1;
    a->apps = calloc(1, sizeof(ct_app_t));
    a->xi = malloc(sizeof(double));
    a->apps[0] = toy_app(0, 1, 0, 1, 4, 0.25); /* t_comp(b) = b s; no all-reduce */
    strcpy(a->apps[0].name, "a");
    a->xi[0] = xi;
    a->window = 100;
}

static void add_job(ct_share_jobs_t *js, double arrival, uint32_t gpus, double batch, double iters)
{
    ct_error_t err;
    ct_share_job_t *j = &js->jobs[js->n];
    char id[16];
    snprintf(id, sizeof id, "j%zu", js->n);
    j->id = ct_strdup(id, &err);
    j->app = 0;
    j->arrival = arrival;
    j->gpus = gpus;
    j->batch = batch;
    j->iterations = iters;
    js->n++;
}

static void run(const ct_apps_t *a, const ct_share_jobs_t *js, ct_share_policy_t pol, size_t servers, uint32_t gps,
                double restart, ct_train_result_t *r)
{
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.n_servers = servers;
    c.gpus_per_server = gps;
    ct_share_params_t p;
    ct_share_params_init(&p);
    p.policy = pol;
    p.restart = restart;
    p.thresholds[0] = 10;
    ct_error_t err;
    CHECK(ct_share_run(&c, a, js, &p, r, &err) == CT_OK);
}

static void timeline(void)
{
    /* One server, 2 GPUs, t_iter 1 s for one sample a GPU, xi 1.25.
     * j0 (2 GPUs, 100 it) from 0; j1 (1 GPU, 10 it) at 10 and j2 (1 GPU,
     * 30 it) at 20 each share a GPU of j0 (pair means 52.5 vs 95 and 63.5
     * vs 97). j0 runs at 1/1.25 from 10: 8 it by 20, 30 more by 57.5 when
     * j2 ends (j1 ended at 22.5), then 52 alone: ends at 109.5. */
    ct_apps_t a;
    one_app(&a, 1.25);
    ct_share_jobs_t js = { 0, calloc(3, sizeof(ct_share_job_t)) };
    add_job(&js, 0, 2, 2, 100);
    add_job(&js, 10, 1, 1, 10);
    add_job(&js, 20, 1, 1, 30);
    ct_train_result_t r;
    run(&a, &js, CT_SHARE_SJF_BSBF, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[0].end, 109500, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 22500, 1e-9);
    CHECK_CLOSE(r.jobs[2].end, 57500, 1e-9);
    CHECK(r.jobs[1].queued == 0 && r.jobs[2].queued == 0);
    CHECK(r.jobs[1].gpus[0] == 0 && r.jobs[2].gpus[0] == 1);
    CHECK_CLOSE(r.mean_jct, (109500 + 12500 + 37500) / 3.0, 1e-12);
    CHECK(r.n_small == 3 && isnan(r.mean_jct_large));
    ct_train_result_free(&r);
    /* SJF-FFS shares the same way here (memory fits, no check needed). */
    run(&a, &js, CT_SHARE_SJF_FFS, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[0].end, 109500, 1e-9);
    ct_train_result_free(&r);
    /* Exclusive SJF: both wait for j0: j1 100..110, j2 100..130. */
    run(&a, &js, CT_SHARE_SJF, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[1].end, 110000, 1e-9);
    CHECK_CLOSE(r.jobs[2].end, 130000, 1e-9);
    CHECK_CLOSE(r.jobs[1].queued, 90000, 1e-9);
    ct_train_result_free(&r);
    /* xi 6: sharing j1 would give a pair mean of 100 > 95 waiting; so would
     * j2's: SJF-BSBF refuses and equals SJF, SJF-FFS still shares. */
    a.xi[0] = 6;
    run(&a, &js, CT_SHARE_SJF_BSBF, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[1].end, 110000, 1e-9);
    CHECK_CLOSE(r.jobs[2].end, 130000, 1e-9);
    ct_train_result_free(&r);
    run(&a, &js, CT_SHARE_SJF_FFS, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[1].end, 70000, 1e-9); /* 10 it at 6 s */
    ct_train_result_free(&r);
    /* Memory: a micro-batch of 4 fills a GPU (local_max 4), so a job with
     * 4 samples a GPU cannot share at full batch: SJF-FFS (full) skips,
     * SJF-BSBF accumulates: 2 x 2 needs 0.625 + 0.4375 > 1, so 4 x 1. */
    a.xi[0] = 1;
    js.jobs[1].batch = 4;
    run(&a, &js, CT_SHARE_SJF_FFS, 1, 2, 0, &r);
    CHECK(r.jobs[1].start >= 100000);
    ct_train_result_free(&r);
    run(&a, &js, CT_SHARE_SJF_BSBF, 1, 2, 0, &r);
    CHECK(r.jobs[1].start == 10000);
    ct_train_result_free(&r);
    ct_share_jobs_free(&js);
    ct_apps_free(&a);
}

static void tiresias(void)
{
    /* One GPU, one queue threshold at 10 GPU-s. j0 (100 s) reaches it at
     * 10 and is demoted; j1 (5 s) arrives at 20 in the top queue, preempts
     * j0 and runs 20..25; j0 resumes and ends at 105. */
    ct_apps_t a;
    one_app(&a, 1);
    ct_share_jobs_t js = { 0, calloc(2, sizeof(ct_share_job_t)) };
    add_job(&js, 0, 1, 1, 100);
    add_job(&js, 20, 1, 1, 5);
    ct_train_result_t r;
    run(&a, &js, CT_SHARE_TIRESIAS, 1, 1, 0, &r);
    CHECK_CLOSE(r.jobs[1].end, 25000, 1e-9);
    CHECK_CLOSE(r.jobs[0].end, 105000, 1e-9);
    CHECK_CLOSE(r.jobs[0].queued, 5000, 1e-9);
    CHECK(r.jobs[0].start == 0);
    ct_train_result_free(&r);
    /* With a 2 s restart at every start: j0 progresses 2..20 (18 it), j1
     * 22..27, j0 resumes at 27, holds until 29, ends at 29 + 82 = 111. */
    run(&a, &js, CT_SHARE_TIRESIAS, 1, 1, 2, &r);
    CHECK_CLOSE(r.jobs[1].end, 27000, 1e-9);
    CHECK_CLOSE(r.jobs[0].end, 111000, 1e-9);
    ct_train_result_free(&r);
    /* j1 arriving at 5, before j0's demotion: same queue, FIFO by arrival:
     * j1 waits until j0 is demoted at 10, then preempts it (10..15). */
    js.jobs[1].arrival = 5;
    run(&a, &js, CT_SHARE_TIRESIAS, 1, 1, 0, &r);
    CHECK_CLOSE(r.jobs[1].start, 10000, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 15000, 1e-9);
    CHECK_CLOSE(r.jobs[0].end, 105000, 1e-9);
    ct_train_result_free(&r);
    /* Two queue thresholds (10, 1000): j0 stays in the second queue,
     * j1 still preempts it; without a threshold (FIFO) j1 waits. */
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.n_servers = 1;
    c.gpus_per_server = 1;
    ct_share_params_t p;
    ct_share_params_init(&p);
    p.policy = CT_SHARE_TIRESIAS;
    p.restart = 0;
    p.thresholds[0] = 1000;
    ct_error_t err;
    CHECK(ct_share_run(&c, &a, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[1].end, 105000, 1e-9);
    ct_train_result_free(&r);
    ct_share_jobs_free(&js);
    ct_apps_free(&a);
}

static void fifo_blocking(void)
{
    /* 2 GPUs: j0 (1 GPU, 50 s), j1 (2 GPUs, 10 s) at 1, j2 (1 GPU, 10 s)
     * at 2. FIFO holds j2 behind j1: j1 50..60, j2 60..70. SJF runs j2 at
     * once (2..12), then j1 at 50. */
    ct_apps_t a;
    one_app(&a, 1);
    ct_share_jobs_t js = { 0, calloc(3, sizeof(ct_share_job_t)) };
    add_job(&js, 0, 1, 1, 50);
    add_job(&js, 1, 2, 2, 10);
    add_job(&js, 2, 1, 1, 10);
    ct_train_result_t r;
    run(&a, &js, CT_SHARE_FIFO, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[1].end, 60000, 1e-9);
    CHECK_CLOSE(r.jobs[2].end, 70000, 1e-9);
    ct_train_result_free(&r);
    run(&a, &js, CT_SHARE_SJF, 1, 2, 0, &r);
    CHECK_CLOSE(r.jobs[2].end, 12000, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 60000, 1e-9);
    CHECK_CLOSE(r.utilization, (50 + 10 + 2 * 10) / (2 * 60.0), 1e-12);
    ct_train_result_free(&r);
    /* FIFO with backfilling starts j2 past the blocked j1, as SJF does. */
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.n_servers = 1;
    c.gpus_per_server = 2;
    ct_share_params_t p;
    ct_share_params_init(&p);
    p.policy = CT_SHARE_FIFO;
    p.fifo_backfill = 1;
    p.restart = 0;
    ct_error_t err;
    CHECK(ct_share_run(&c, &a, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[2].end, 12000, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 60000, 1e-9);
    ct_train_result_free(&r);
    /* Scheduling rounds of 7 s: j0 starts at 0, j1 is seen at 7 but waits
     * for j0 (ends 50, next round 56): 56..66; j2 (FIFO) at the next round, 70..80. */
    p.fifo_backfill = 0;
    p.interval = 7;
    CHECK(ct_share_run(&c, &a, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[1].start, 56000, 1e-9);
    CHECK_CLOSE(r.jobs[2].end, 80000, 1e-9);
    ct_train_result_free(&r);
    ct_share_jobs_free(&js);
    ct_apps_free(&a);
}

static void workloads(void)
{
    ct_apps_t a;
    one_app(&a, 1);
    ct_error_t err;
    char path[] = "/tmp/ct-share-w-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    ct_test_write(path, "name,time,application,num_replicas,batch_size\n"
                     "a-0,53,a,6,2048\n"
                     "a-1,60,a,1,8\n");
    ct_share_jobs_t js;
    CHECK(ct_share_jobs_load(&js, &a, path, &err) == CT_OK);
    CHECK(js.n == 2 && !strcmp(js.jobs[0].id, "a-0") && js.jobs[0].arrival == 53 && js.jobs[0].gpus == 6 &&
          js.jobs[0].batch == 2048 && js.jobs[0].iterations == 100 && js.jobs[1].gpus == 1);
    ct_share_jobs_free(&js);
    static const struct {
        const char *text, *needle;
    } bad[] = {
        { "name,time,application,num_replicas\na,1,a,1\n", "no column 'batch_size'" },
        { "name,time,application,num_replicas,batch_size\nx,1,bert,1,8\n", "line 2: application: unknown 'bert'" },
        { "name,time,application,num_replicas,batch_size\nx,-1,a,1,8\n", "line 2: time" },
        { "name,time,application,num_replicas,batch_size\nx,1,a,0,8\n", "line 2: num_replicas" },
        { "name,time,application,num_replicas,batch_size\nx,1,a,1,8\nx,2,a,1,8\n", "'x' appears twice" },
        { "name,time,application,num_replicas,batch_size\nx,1,a,1\n", "line 2: batch_size: missing" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        ct_test_write(path, bad[k].text);
        CHECK(ct_share_jobs_load(&js, &a, path, &err) == CT_EINPUT);
        CHECK_ERR(err, CT_EINPUT, bad[k].needle);
        CHECK(strstr(err.msg, path) != NULL);
    }
    /* The generator draws the mix; it is deterministic, sorted, and what it
     * writes loads back as the same jobs. */
    a.n_configs = 2;
    a.configs = calloc(2, sizeof(ct_app_config_t));
    a.configs[0] = (ct_app_config_t){ 0, 1, 1, 3 };
    a.configs[1] = (ct_app_config_t){ 0, 2, 2, 1 };
    ct_share_jobs_t g1, g2;
    CHECK(ct_share_workload(&a, 5, 400, &g1, &err) == CT_OK);
    CHECK(ct_share_workload(&a, 5, 400, &g2, &err) == CT_OK);
    size_t ones = 0, same = 1;
    for (size_t i = 0; i < g1.n; i++) {
        ones += g1.jobs[i].gpus == 1;
        same &= g1.jobs[i].arrival == g2.jobs[i].arrival && g1.jobs[i].gpus == g2.jobs[i].gpus;
        CHECK(i == 0 || g1.jobs[i].arrival >= g1.jobs[i - 1].arrival);
        CHECK(g1.jobs[i].arrival >= 0 && g1.jobs[i].arrival < 100);
    }
    CHECK(same);
    CHECK(ones > 260 && ones < 340); /* 3:1 */
    CHECK(ct_share_jobs_write(&g1, &a, path, &err) == CT_OK);
    CHECK(ct_share_jobs_load(&js, &a, path, &err) == CT_OK);
    CHECK(js.n == 400 && js.jobs[7].arrival == g1.jobs[7].arrival && !strcmp(js.jobs[7].id, g1.jobs[7].id));
    /* Determinism of a run with sharing. */
    ct_train_result_t r1, r2;
    run(&a, &g1, CT_SHARE_SJF_BSBF, 2, 2, 1, &r1);
    a.xi[0] = 1.3;
    run(&a, &g1, CT_SHARE_SJF_BSBF, 2, 2, 1, &r2);
    CHECK(r1.n == 400 && r2.n == 400 && r1.mean_jct != r2.mean_jct);
    ct_train_result_free(&r2);
    a.xi[0] = 1;
    run(&a, &g1, CT_SHARE_SJF_BSBF, 2, 2, 1, &r2);
    CHECK(r1.mean_jct == r2.mean_jct && r1.makespan == r2.makespan);
    ct_train_result_free(&r1);
    ct_train_result_free(&r2);
    /* A job larger than the cluster is refused up front. */
    js.jobs[0].gpus = 5;
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.n_servers = 1;
    c.gpus_per_server = 4;
    CHECK(ct_share_run(&c, &a, &js, NULL, &r1, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "needs 5 GPUs");
    ct_share_jobs_free(&js);
    ct_share_jobs_free(&g1);
    ct_share_jobs_free(&g2);
    ct_apps_free(&a);
    unlink(path);
}

static void from_train(void)
{
    /* Ada-SRSF's jobs become sharing jobs: one application per model and
     * timing, t_comp = forward + backward, a + b size across servers. */
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.a = 2;
    c.b = 0.5;
    ct_error_t err;
    ct_train_jobs_t tj = { 3, calloc(3, sizeof(ct_train_job_t)) };
    const char *models[] = { "vgg16", "vgg16", "lstm" };
    for (int i = 0; i < 3; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        tj.jobs[i] = (ct_train_job_t){ ct_strdup(id, &err), ct_strdup(models[i], &err), 1000.0 * (3 - i), 2, 50,
                                       100, 10, 20, 8192 };
    }
    ct_apps_t a;
    ct_share_jobs_t js;
    CHECK(ct_share_from_train(&c, &tj, &a, &js, &err) == CT_OK);
    CHECK(a.n == 2 && js.n == 3 && js.jobs[0].app == js.jobs[1].app && js.jobs[2].app != js.jobs[0].app);
    CHECK_CLOSE(a.apps[0].comp_alpha, 0.030, 1e-12);
    CHECK_CLOSE(a.apps[0].comm_alpha[1], (2 + 0.5 * 100) / 1e3, 1e-12);
    CHECK(a.apps[0].comm_alpha[0] == 0 && a.apps[0].delta == 1);
    CHECK_CLOSE(ct_app_mem(&a.apps[0], 1), 0.25, 1e-9);
    CHECK(js.jobs[0].arrival == 3 && js.jobs[0].iterations == 50 && !strcmp(js.jobs[2].id, "2"));
    CHECK(ct_apps_validate(&a, "x", &err) == CT_OK);
    /* Unsorted arrivals are fine: two servers x 1 GPU, no restart, SJF:
     * job 2 (arrives 1 s) alone on its servers: 1 + 50 x (0.03 + 0.052). */
    ct_train_result_t r;
    ct_train_cluster_t two = c;
    two.n_servers = 2;
    two.gpus_per_server = 1;
    ct_share_params_t p;
    ct_share_params_init(&p);
    p.policy = CT_SHARE_SJF;
    p.restart = 0;
    CHECK(ct_share_run(&two, &a, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[2].end, 1e3 * (1 + 50 * (0.030 + 0.052)), 1e-9);
    CHECK_CLOSE(r.jobs[1].start, r.jobs[2].end, 1e-12); /* then job 1 (2 s), then job 0 */
    CHECK(r.jobs[0].start >= r.jobs[1].end - 1e-9);
    ct_train_result_free(&r);
    ct_share_jobs_free(&js);
    ct_apps_free(&a);
    tj.jobs[1].mem = 1e9;
    CHECK(ct_share_from_train(&c, &tj, &a, &js, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "jobs[1]");
    ct_train_jobs_free(&tj);
}

/* The rank queues against the walk over the whole queue
 * (ct_share_params_t.walk): a generated workload whose queue grows, every
 * policy (Tiresias with one and three thresholds, FIFO strict and
 * backfilling), job by job. */
static void fast_rounds(void)
{
    ct_apps_t a;
    ct_share_jobs_t js;
    ct_error_t err;
    CHECK(ct_apps_load(&a, "data/share/apps.json", &err) == CT_OK);
    CHECK(ct_apps_set_xi(&a, 1.5, 2.0, 1, &err) == CT_OK);
    CHECK(ct_share_workload(&a, 5, 500, &js, &err) == CT_OK);
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    size_t differ = 0, waited = 0;
    const ct_share_policy_t pols[] = { CT_SHARE_SJF_BSBF, CT_SHARE_SJF_FFS, CT_SHARE_SJF, CT_SHARE_TIRESIAS,
                                       CT_SHARE_TIRESIAS, CT_SHARE_FIFO, CT_SHARE_FIFO };
    for (int k = 0; k < 7; k++) {
        ct_share_params_t p;
        ct_share_params_init(&p);
        p.policy = pols[k];
        p.fifo_backfill = k == 6;
        if (k == 4) {
            p.n_thresholds = 3;
            p.thresholds[0] = 2 * 3600.0;
            p.thresholds[1] = 8 * 3600.0;
            p.thresholds[2] = 32 * 3600.0;
        }
        ct_train_result_t fast, walk;
        CHECK(ct_share_run(&c, &a, &js, &p, &fast, &err) == CT_OK);
        p.walk = 1;
        CHECK(ct_share_run(&c, &a, &js, &p, &walk, &err) == CT_OK);
        for (size_t i = 0; i < js.n; i++)
            differ += fast.jobs[i].start != walk.jobs[i].start || fast.jobs[i].end != walk.jobs[i].end ||
                      fast.jobs[i].gpus[0] != walk.jobs[i].gpus[0];
        waited += fast.mean_queued > 3600.0 * 1e3; /* an hour on average: a long queue */
        ct_train_result_free(&fast);
        ct_train_result_free(&walk);
    }
    CHECK(differ == 0);
    CHECK(waited == 7);
    ct_share_jobs_free(&js);
    ct_apps_free(&a);
}

int main(void)
{
    fast_rounds();
    fit();
    theorem1();
    algorithm2();
    timeline();
    tiresias();
    fifo_blocking();
    workloads();
    from_train();
    return ct_test_end();
}
