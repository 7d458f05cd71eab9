/*
 * bco.c - SJF-BCO: the time model by hand, re-simulation by hand, each
 * placement rule on small clusters, infeasible inputs, the workload
 * generator, files, the GLPK ILP for Problem (14) against brute force, and
 * the bounds on random small instances.
 */
#define _DEFAULT_SOURCE
#include "ct_bco.h"
#include "ct_test.h"

#include <unistd.h>

static void cluster(ct_rar_cluster_t *c, const uint32_t *gpus, size_t n)
{
    ct_error_t err;
    memset(c, 0, sizeof *c);
    c->n_servers = n;
    c->gpus = malloc(n * sizeof(uint32_t));
    memcpy(c->gpus, gpus, n * sizeof(uint32_t));
    c->b_intra = 100;
    c->b_inter = 10;
    c->reduction = 50;
    c->xi1 = 1;
    c->xi2 = 0.01;
    c->alpha = 0.5;
    c->horizon = 100000;
    CHECK(ct_rar_cluster_index(c, &err) == CT_OK);
}

static void jobs_of(ct_rar_jobs_t *js, const uint32_t *gpus, const double *iters, size_t n)
{
    ct_error_t err;
    js->n = n;
    js->jobs = calloc(n, sizeof(ct_rar_job_t));
    for (size_t i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "j%zu", i);
        js->jobs[i].id = ct_strdup(id, &err);
        js->jobs[i].gpus = gpus[i];
        js->jobs[i].iterations = iters[i];
        js->jobs[i].grad = 10;
        js->jobs[i].batch = 10;
        js->jobs[i].fwd = 0.01;
        js->jobs[i].bwd = 0.1;
        js->jobs[i].lambda = 1;
    }
}

static void time_model(void)
{
    uint32_t g[] = { 4, 4 };
    ct_rar_cluster_t c;
    cluster(&c, g, 2);
    ct_rar_job_t j = { "x", 4, 100, 10, 10, 0.01, 0.1, 1 };
    /* one server: 2*3*10/(4*100) + 3*10/(4*50) + 0.01 + 0.01*10 + 0.1 */
    double one = 0.15 + 0.15 + 0.01 + 0.1 + 0.1;
    CHECK_CLOSE(ct_rar_tau(&c, &j, 1, 7), one, 1e-12); /* p ignored on one server */
    /* two servers, alone (p = 1 -> k = 1, f = 1): B = 10 */
    double two = 1.5 + 0.15 + 0.02 + 0.2;
    CHECK_CLOSE(ct_rar_tau(&c, &j, 2, 1), two, 1e-12);
    /* p = 3, linear: k = 3, f = 3 + 0.5 * 2 = 4: B = 2.5 */
    CHECK_CLOSE(ct_rar_tau(&c, &j, 2, 3), 6.0 + 0.15 + 0.02 + 0.2, 1e-12);
    c.xi1 = 0.5; /* linear: k = 1 + 0.5 * 2 = 2, f = 2.5; literal: k = max(1, 1.5) = 1.5, f = 1.75 */
    CHECK_CLOSE(ct_rar_tau(&c, &j, 2, 3), 2 * 3 * 10 * 2.5 / (4 * 10) + 0.15 + 0.02 + 0.2, 1e-12);
    c.contention = CT_CONTENTION_LITERAL;
    CHECK_CLOSE(ct_rar_tau(&c, &j, 2, 3), 2 * 3 * 10 * 1.75 / (4 * 10) + 0.15 + 0.02 + 0.2, 1e-12);
    /* A single worker has no all-reduce. */
    ct_rar_job_t s = { "s", 1, 100, 10, 10, 0.01, 0.1, 1 };
    CHECK_CLOSE(ct_rar_tau(&c, &s, 1, 1), 0.01 + 0.1 + 0.1, 1e-12);
    double best, worst;
    ct_rar_exec_bounds(&c, &j, &best, &worst);
    CHECK_CLOSE(best, one * 100, 1e-12);
    CHECK(worst > best);
    ct_rar_cluster_free(&c);
}

static void resimulation(void)
{
    /* One server of 2 GPUs; jobs A (2 GPUs) then B (1 GPU), planned at 0:
     * B waits for A (planned order), A: tau = 0.15*... use iterations so
     * that A takes exactly 10 slots and B 5 slots. */
    uint32_t g[] = { 2 };
    ct_rar_cluster_t c;
    cluster(&c, g, 1);
    uint32_t gp[] = { 2, 1 };
    double it[] = { 1, 1 };
    ct_rar_jobs_t js;
    jobs_of(&js, gp, it, 2);
    js.jobs[0].iterations = 10.0 / ct_rar_tau(&c, &js.jobs[0], 1, 1);
    js.jobs[1].iterations = 5.0 / ct_rar_tau(&c, &js.jobs[1], 1, 1);
    ct_rar_schedule_t s;
    ct_error_t err;
    CHECK(ct_rar_schedule_alloc(&s, &js, &err) == CT_OK);
    s.gpus[0][0] = 0;
    s.gpus[0][1] = 1;
    s.gpus[1][0] = 1;
    double fin[2];
    CHECK(ct_rar_resimulate(&c, &js, &s, fin, &err) == CT_OK);
    CHECK(fin[0] == 10 && fin[1] == 15);
    /* B planned first: it runs 0-5, then A 5-15. */
    s.start[1] = 0;
    s.start[0] = 1;
    CHECK(ct_rar_resimulate(&c, &js, &s, fin, &err) == CT_OK);
    CHECK(fin[1] == 5 && fin[0] == 15);
    ct_rar_schedule_free(&s);
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);
}

static uint32_t server_of_job(const ct_rar_cluster_t *c, const ct_bco_result_t *r, size_t j, size_t k)
{
    return (uint32_t)ct_rar_server_of(c, r->sched.gpus[j][k]);
}

static void placement_rules(void)
{
    ct_error_t err;
    ct_bco_params_t p;
    ct_bco_result_t r;
    /* Servers of 4 and 2 GPUs; two 1-GPU jobs, j0 shorter (placed first).
     * FA-FFP packs onto the server with fewer free GPUs (server 1), then
     * onto the server already hosting a job (server 1 again); FF and LS
     * take GPU 0 then GPU 1 (index order / least U with ties by id). */
    uint32_t g1[] = { 4, 2 };
    ct_rar_cluster_t c;
    cluster(&c, g1, 2);
    uint32_t gp[] = { 1, 1 };
    double it[] = { 100, 200 };
    ct_rar_jobs_t js;
    jobs_of(&js, gp, it, 2);
    ct_bco_params_init(&p);
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[0][0] == 4 && r.sched.gpus[1][0] == 5);
    ct_bco_result_free(&r);
    p.policy = CT_BCO_FF;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[0][0] == 0 && r.sched.gpus[1][0] == 1);
    ct_bco_result_free(&r);
    p.policy = CT_BCO_LS;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[0][0] == 0 && r.sched.gpus[1][0] == 1);
    ct_bco_result_free(&r);
    p.policy = CT_BCO_SJF_BCO;
    p.faffp = CT_FAFFP_LEAST_U; /* the literal variant: least U, ties by id */
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[0][0] == 0);
    ct_bco_result_free(&r);
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);

    /* Servers of 2 and 2; a 1-GPU job then a 2-GPU job, kappa 1. FA-FFP puts
     * the 1-GPU job on GPU 0; LBSGF takes the least busy server (server 1)
     * for the 2-GPU job and keeps it on one server, where FF and LS take
     * GPUs 1 and 2 and spread it. */
    uint32_t g2[] = { 2, 2 };
    cluster(&c, g2, 2);
    uint32_t gq[] = { 1, 2 };
    double iq[] = { 1000, 100 };
    jobs_of(&js, gq, iq, 2);
    ct_bco_params_init(&p);
    p.kappa = 1;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[0][0] == 0);
    CHECK(server_of_job(&c, &r, 1, 0) == 1 && server_of_job(&c, &r, 1, 1) == 1);
    CHECK(r.kappa == 1);
    ct_bco_result_free(&r);
    p.policy = CT_BCO_FF;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.sched.gpus[1][0] == 1 && r.sched.gpus[1][1] == 2);
    ct_bco_result_free(&r);
    /* RAND: deterministic for a seed. */
    p.policy = CT_BCO_RAND;
    ct_bco_result_t r2;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(ct_bco_schedule(&c, &js, &p, &r2, &err) == CT_OK);
    CHECK(!memcmp(r.sched.gpus[1], r2.sched.gpus[1], 2 * sizeof(uint32_t)) && r.makespan == r2.makespan);
    CHECK(r.theta_u == c.horizon);
    ct_bco_result_free(&r);
    ct_bco_result_free(&r2);
    /* Infeasible: more GPUs than the cluster has; a horizon too short. */
    js.jobs[1].gpus = 5;
    CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "job 'j1' needs 5 GPUs, the cluster has 4");
    js.jobs[1].gpus = 2;
    c.horizon = 1;
    CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_ELIMIT);
    CHECK_ERR(err, CT_ELIMIT, "no sjf-bco schedule fits the horizon of 1 slots");
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);
}

static void workload_and_files(void)
{
    ct_rar_cluster_t c, c2;
    ct_rar_jobs_t js, js2;
    ct_error_t err;
    CHECK(ct_rar_workload(7, 0, &c, &js, &err) == CT_OK);
    CHECK(c.n_servers == 20 && js.n == 160);
    size_t count[33] = { 0 };
    int ok = 1;
    for (size_t s = 0; s < c.n_servers; s++)
        ok &= c.gpus[s] == 4 || c.gpus[s] == 8 || c.gpus[s] == 16 || c.gpus[s] == 32;
    for (size_t i = 0; i < js.n; i++) {
        const ct_rar_job_t *j = &js.jobs[i];
        count[j->gpus]++;
        double best, worst;
        ct_rar_exec_bounds(&c, j, &best, &worst);
        ok &= j->iterations >= 1000 && j->iterations <= 6000 && best >= 50 * 0.999 && best <= 300 * 1.001;
    }
    CHECK(ok);
    CHECK(count[1] == 80 && count[2] == 14 && count[4] == 26 && count[8] == 30 && count[16] == 8 && count[32] == 2);
    /* Files round-trip; CSV too. */
    char dir[] = "/tmp/ct-bco-XXXXXX", cp[64], jp[64], csv[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(cp, sizeof cp, "%s/c.json", dir);
    snprintf(jp, sizeof jp, "%s/j.json", dir);
    snprintf(csv, sizeof csv, "%s/j.csv", dir);
    CHECK(ct_rar_cluster_write(&c, cp, &err) == CT_OK && ct_rar_jobs_write(&js, jp, &err) == CT_OK);
    CHECK(ct_rar_cluster_load(&c2, cp, &err) == CT_OK && ct_rar_jobs_load(&js2, jp, &err) == CT_OK);
    CHECK(c2.n_gpus == c.n_gpus && js2.n == 160 && js2.jobs[5].grad == js.jobs[5].grad);
    ct_rar_jobs_free(&js2);
    ct_rar_cluster_free(&c2);
    FILE *f = fopen(csv, "w");
    fprintf(f, "id,gpus,iterations,gradient_size,batch,forward_time,backward_time\na,2,100,5,8,0.01,0.1\nb,1,50,5,8,0.01,0.1\n");
    fclose(f);
    CHECK(ct_rar_jobs_load(&js2, csv, &err) == CT_OK);
    CHECK(js2.n == 2 && js2.jobs[0].gpus == 2 && js2.jobs[1].lambda == 1);
    ct_rar_jobs_free(&js2);
    f = fopen(csv, "w");
    fprintf(f, "id,gpus,iterations,gradient_size,batch,forward_time,backward_time\na,0,100,5,8,0.01,0.1\n");
    fclose(f);
    CHECK(ct_rar_jobs_load(&js2, csv, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "j.csv:2: gpus: expected a number (whole, >= 1)");
    f = fopen(jp, "w");
    fprintf(f, "{\"jobs\": [{\"id\": \"a\", \"gpus\": 1, \"iterations\": -1, \"gradient_size\": 1, \"batch\": 1, "
               "\"forward_time\": 0, \"backward_time\": 0}]}");
    fclose(f);
    CHECK(ct_rar_jobs_load(&js2, jp, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "jobs[0].iterations: must be positive");
    f = fopen(cp, "w");
    fprintf(f, "{\"servers\": [4, 0], \"intra_bandwidth\": 1, \"inter_bandwidth\": 1, \"reduction_speed\": 1, "
               "\"horizon\": 10}");
    fclose(f);
    CHECK(ct_rar_cluster_load(&c2, cp, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "servers[1]");
    remove(cp);
    remove(jp);
    remove(csv);
    rmdir(dir);
    ct_rar_cluster_free(&c);
    ct_rar_cluster_free(&c2);
    ct_rar_jobs_free(&js);
}

/* Problem (14) by brute force: every GPU subset per job. */
static double brute_theta(const ct_rar_cluster_t *c, const ct_rar_jobs_t *js, const double *rh, size_t j, double *load)
{
    if (j == js->n) {
        double m = 0;
        for (uint32_t g = 0; g < c->n_gpus; g++)
            m = fmax(m, load[g]);
        return m;
    }
    double best = INFINITY;
    uint32_t N = c->n_gpus, G = js->jobs[j].gpus;
    for (uint32_t mask = 0; mask < (1u << N); mask++) {
        if ((uint32_t)__builtin_popcount(mask) != G)
            continue;
        for (uint32_t g = 0; g < N; g++)
            if (mask >> g & 1)
                load[g] += rh[j];
        best = fmin(best, brute_theta(c, js, rh, j + 1, load));
        for (uint32_t g = 0; g < N; g++)
            if (mask >> g & 1)
                load[g] -= rh[j];
    }
    return best;
}

static void ilp_and_bounds(void)
{
    uint32_t g[] = { 2, 3 };
    ct_rar_cluster_t c;
    cluster(&c, g, 2);
    ct_error_t err;
    unsigned long long x = 5;
    for (int trial = 0; trial < 20; trial++) {
        uint32_t gp[4];
        double it[4], rh[4], load[8] = { 0 };
        for (int i = 0; i < 4; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            gp[i] = 1 + (uint32_t)((x >> 33) % 3);
            it[i] = 100 + (double)((x >> 40) % 900);
        }
        ct_rar_jobs_t js;
        jobs_of(&js, gp, it, 4);
        for (int i = 0; i < 4; i++) {
            double w;
            ct_rar_exec_bounds(&c, &js.jobs[i], &rh[i], &w);
        }
        double ilp;
        CHECK(ct_bco_theta_star(&c, &js, rh, &ilp, &err) == CT_OK);
        double brute = brute_theta(&c, &js, rh, 0, load);
        CHECK_CLOSE(ilp, brute, 1e-6);
        ct_rar_jobs_free(&js);
    }
    ct_rar_cluster_free(&c);

    /* Bounds on random tiny instances with exhaustive T*. */
    uint32_t g2[] = { 2, 2 };
    cluster(&c, g2, 2);
    size_t violations = 0, exact = 0;
    double worst = 0;
    for (int trial = 0; trial < 40; trial++) {
        uint32_t gp[3];
        double it[3];
        for (int i = 0; i < 3; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            gp[i] = 1 + (uint32_t)((x >> 33) % 2);
            it[i] = 200 + (double)((x >> 40) % 800);
        }
        ct_rar_jobs_t js;
        jobs_of(&js, gp, it, 3);
        ct_bco_result_t r;
        ct_bco_bounds_t b;
        CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_OK);
        CHECK(ct_bco_validate(&c, &js, &r, NULL, &b, &err) == CT_OK);
        exact += b.have_T_exact;
        if (b.have_T_exact) {
            CHECK(b.T_exact <= r.makespan + 1e-9);       /* T* is optimal */
            CHECK(b.T_exact >= b.T_lower * (1 - 1e-9) - 1); /* the lower bounds are bounds (slot rounding) */
        }
        violations += !b.lemma3 || !b.have_theta_star || !b.lemma4 || !b.theorem5;
        worst = fmax(worst, r.makespan / b.T_star);
        ct_bco_result_free(&r);
        ct_rar_jobs_free(&js);
    }
    CHECK(exact == 40);
    CHECK_MSG(violations == 0, "%zu bound violations", violations);
    CHECK(worst >= 1.0);
    ct_rar_cluster_free(&c);
}

int main(void)
{
    time_model();
    resimulation();
    placement_rules();
    workload_and_files();
    ilp_and_bounds();
    return ct_test_end();
}
