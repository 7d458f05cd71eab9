/*
 * bco.c - SJF-BCO: the time model and phi by hand, re-simulation by hand
 * (work-conserving and planned) and against a slot-by-slot stepper, each
 * placement rule on small clusters, the indexed selection against the
 * reference scan, the search's independence of the horizon, infeasible
 * inputs, the workload generator and its calibrations, files, the GLPK ILP
 * for Problem (14) against brute force and under a time limit, and the
 * paper's claims: the counterexamples (violated, with their numbers) and
 * the random families.
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
    /* worst: spread over 2 servers, p = 4 (the largest server) through the
     * law: literal k = max(1, 0.5 * 4) = 2; linear k = 1 + 0.5 * 3 = 2.5. */
    double f = 2 + 0.5 * (2 - 1);
    CHECK_CLOSE(worst, (2 * 3 * 10 * f / (4 * 10) + 0.15 + 0.02 + 0.2) * 100, 1e-9);
    c.contention = CT_CONTENTION_LINEAR;
    ct_rar_exec_bounds(&c, &j, &best, &worst);
    f = 2.5 + 0.5 * 1.5;
    CHECK_CLOSE(worst, (2 * 3 * 10 * f / (4 * 10) + 0.15 + 0.02 + 0.2) * 100, 1e-9);
    ct_rar_cluster_free(&c);
}

/* One job of `slots` whole slots alone on one server. */
static void exact_slots(const ct_rar_cluster_t *c, ct_rar_job_t *j, double slots)
{
    j->iterations = slots / ct_rar_tau(c, j, 1, 1);
}

static void resimulation(void)
{
    /* One server of 2 GPUs; jobs A (2 GPUs, 10 slots) then B (1 GPU, 5). */
    uint32_t g[] = { 2 };
    ct_rar_cluster_t c;
    cluster(&c, g, 1);
    uint32_t gp[] = { 2, 1, 1 };
    double it[] = { 1, 1, 1 };
    ct_rar_jobs_t js;
    jobs_of(&js, gp, it, 2);
    exact_slots(&c, &js.jobs[0], 10);
    exact_slots(&c, &js.jobs[1], 5);
    ct_rar_schedule_t s;
    ct_error_t err;
    CHECK(ct_rar_schedule_alloc(&s, &js, &err) == CT_OK);
    s.gpus[0][0] = 0;
    s.gpus[0][1] = 1;
    s.gpus[1][0] = 1;
    double fin[3], st[3];
    for (int mode = 0; mode < 2; mode++) {
        CHECK(ct_rar_resimulate(&c, &js, &s, (ct_rar_resim_t)mode, st, fin, &err) == CT_OK);
        CHECK(fin[0] == 10 && st[1] == 10 && fin[1] == 15);
    }
    /* B planned first: it runs 0-5, then A 5-15. */
    s.start[1] = 0;
    s.start[0] = 1;
    CHECK(ct_rar_resimulate(&c, &js, &s, CT_RESIM_WORK_CONSERVING, st, fin, &err) == CT_OK);
    CHECK(fin[1] == 5 && st[0] == 5 && fin[0] == 15);
    ct_rar_schedule_free(&s);
    ct_rar_jobs_free(&js);

    /* Work-conserving: a job whose GPUs are free starts, whatever its
     * planned start, and a job planned later on other GPUs does not wait
     * for one planned earlier. A (GPU 0, 10 slots, planned 0), B (GPU 0, 5,
     * planned 1), C (GPU 1, 5, planned 7). */
    uint32_t g1[] = { 1, 1, 1 };
    jobs_of(&js, g1, it, 3);
    exact_slots(&c, &js.jobs[0], 10);
    exact_slots(&c, &js.jobs[1], 5);
    exact_slots(&c, &js.jobs[2], 5);
    CHECK(ct_rar_schedule_alloc(&s, &js, &err) == CT_OK);
    s.gpus[0][0] = 0;
    s.gpus[1][0] = 0;
    s.gpus[2][0] = 1;
    s.start[0] = 0;
    s.start[1] = 1;
    s.start[2] = 7;
    CHECK(ct_rar_resimulate(&c, &js, &s, CT_RESIM_WORK_CONSERVING, st, fin, &err) == CT_OK);
    CHECK(st[2] == 0 && fin[2] == 5 && st[1] == 10 && fin[1] == 15);
    /* Planned: C waits for its planned start and for B to start (at 10). */
    CHECK(ct_rar_resimulate(&c, &js, &s, CT_RESIM_PLANNED, st, fin, &err) == CT_OK);
    CHECK(st[2] == 10 && fin[2] == 15 && st[1] == 10);
    ct_rar_schedule_free(&s);
    ct_rar_jobs_free(&js);

    /* The exact T* no longer pays a slot for the order: two 1-GPU jobs of 10
     * slots on two GPUs give T* = 10, which SJF-BCO achieves. */
    jobs_of(&js, g1, it, 2);
    exact_slots(&c, &js.jobs[0], 10);
    exact_slots(&c, &js.jobs[1], 10);
    double T;
    CHECK(ct_bco_exhaustive(&c, &js, 1000, &T, &err) == CT_OK);
    CHECK_CLOSE(T, 10, 0);
    ct_bco_result_t r;
    CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_OK);
    CHECK_CLOSE(r.makespan, 10, 0);
    ct_bco_result_free(&r);
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);
}

/* A slot-by-slot stepper of the work-conserving rule, written plainly:
 * each slot, every waiting job (in planned order) starts if its GPUs are
 * free and no job planned before it on those GPUs is still waiting; then
 * every running job advances one slot under that slot's contention. */
static void step_resim(const ct_rar_cluster_t *c, const ct_rar_jobs_t *js, const ct_rar_schedule_t *s, double *fin)
{
    size_t n = js->n;
    int *state = calloc(n, sizeof(int));
    double *prog = calloc(n, sizeof(double));
    size_t *order = malloc(n * sizeof(size_t)), *spread = calloc(c->n_servers, sizeof(size_t));
    unsigned char *busy = calloc(c->n_gpus, 1), *waiting_on = calloc(c->n_gpus, 1);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && s->start[order[b]] < s->start[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    size_t left = n;
    for (long t = 0; left > 0; t++) {
        memset(waiting_on, 0, c->n_gpus);
        for (size_t x = 0; x < n; x++) {
            size_t i = order[x];
            if (state[i] != 0)
                continue;
            int ok = 1;
            for (uint32_t k = 0; k < js->jobs[i].gpus; k++)
                ok &= !busy[s->gpus[i][k]] && !waiting_on[s->gpus[i][k]];
            if (ok) {
                state[i] = 1;
                for (uint32_t k = 0; k < js->jobs[i].gpus; k++)
                    busy[s->gpus[i][k]] = 1;
            }
            for (uint32_t k = 0; k < js->jobs[i].gpus && !ok; k++)
                waiting_on[s->gpus[i][k]] = 1;
        }
        memset(spread, 0, c->n_servers * sizeof(size_t));
        size_t sv[64], ns[4096];
        for (size_t i = 0; i < n; i++) {
            ns[i] = 0;
            if (state[i] != 1)
                continue;
            for (uint32_t k = 0; k < js->jobs[i].gpus; k++) {
                size_t v = ct_rar_server_of(c, s->gpus[i][k]), seen = 0;
                for (size_t q = 0; q < ns[i] && q < 64; q++)
                    seen |= sv[q] == v;
                if (!seen && ns[i] < 64)
                    sv[ns[i]++] = v;
            }
            if (ns[i] > 1)
                for (size_t q = 0; q < ns[i]; q++)
                    spread[sv[q]]++;
        }
        for (size_t i = 0; i < n; i++) {
            if (state[i] != 1)
                continue;
            size_t m = 0;
            double p = 1;
            for (uint32_t k = 0; k < js->jobs[i].gpus; k++) {
                size_t v = ct_rar_server_of(c, s->gpus[i][k]), seen = 0;
                for (size_t q = 0; q < m; q++)
                    seen |= sv[q] == v;
                if (!seen)
                    sv[m++] = v;
            }
            for (size_t q = 0; m > 1 && q < m; q++)
                p = fmax(p, (double)spread[sv[q]]);
            prog[i] += 1.0 / ct_rar_tau(c, &js->jobs[i], m, p);
        }
        for (size_t i = 0; i < n; i++)
            if (state[i] == 1 && prog[i] >= js->jobs[i].iterations * (1 - 1e-12)) {
                state[i] = 2;
                fin[i] = (double)(t + 1);
                left--;
                for (uint32_t k = 0; k < js->jobs[i].gpus; k++)
                    busy[s->gpus[i][k]] = 0;
            }
    }
    free(state);
    free(prog);
    free(order);
    free(spread);
    free(busy);
    free(waiting_on);
}

static void resimulation_vs_stepper(void)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t js;
    ct_error_t err;
    for (int cal = 0; cal < 2; cal++) {
        ct_rar_workload_params_t wp;
        ct_rar_workload_params_init(&wp);
        wp.calibration = (ct_rar_calibration_t)cal;
        CHECK(ct_rar_workload(2, &wp, &c, &js, &err) == CT_OK);
        for (int pol = 0; pol < 4; pol++) {
            ct_bco_params_t p;
            ct_bco_params_init(&p);
            p.policy = (ct_bco_policy_t)pol;
            ct_bco_result_t r;
            CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
            double *fin = calloc(js.n, sizeof(double));
            step_resim(&c, &js, &r.sched, fin);
            size_t diff = 0;
            for (size_t i = 0; i < js.n; i++)
                diff += fin[i] != r.finish[i];
            CHECK_MSG(diff == 0, "%s, calibration %d: %zu completions differ from the stepper", ct_bco_policy_name(p.policy),
                      cal, diff);
            free(fin);
            ct_bco_result_free(&r);
        }
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&js);
    }
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
    CHECK_ERR(err, CT_ELIMIT, "no sjf-bco schedule fits the horizon of 1 slots: theta_u must be at least");
    /* --horizon auto: no limit; a long job does not trip the re-simulation. */
    js.jobs[0].iterations = 1e6;
    ct_bco_params_init(&p);
    p.horizon = CT_BCO_HORIZON_AUTO;
    CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_MSG(r.horizon > 1 && r.makespan >= r.rho_hat[0] - 1e-6, "horizon %ld, makespan %g, rho_hat %g %g", r.horizon,
              r.makespan, r.rho_hat[0], r.rho_hat[1]);
    ct_bco_result_free(&r);
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);
}

/* The indexed GPU selection gives exactly the reference scan's schedules. */
static void indexed_equals_reference(void)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t js;
    ct_error_t err;
    size_t compared = 0, differ = 0;
    for (uint64_t seed = 1; seed <= 2; seed++)
        for (int cal = 0; cal < 2; cal++) {
            ct_rar_workload_params_t wp;
            ct_rar_workload_params_init(&wp);
            wp.calibration = (ct_rar_calibration_t)cal;
            wp.n_servers = seed == 1 ? 20 : 7;
            wp.n_jobs = seed == 1 ? 160 : 60;
            CHECK(ct_rar_workload(seed, &wp, &c, &js, &err) == CT_OK);
            for (int v = 0; v < 7; v++) {
                ct_bco_params_t p;
                ct_bco_params_init(&p);
                p.policy = v < 4 ? (ct_bco_policy_t)v : CT_BCO_SJF_BCO;
                p.faffp = v == 4 ? CT_FAFFP_LEAST_U : CT_FAFFP_PACK;
                p.lambda = v == 5 ? 2 : 0;
                p.search = v == 6 ? CT_BCO_SEARCH_BISECT : CT_BCO_SEARCH_SCAN;
                ct_bco_result_t a, b;
                CHECK(ct_bco_schedule(&c, &js, &p, &a, &err) == CT_OK);
                p.reference = 1;
                CHECK(ct_bco_schedule(&c, &js, &p, &b, &err) == CT_OK);
                int same = a.makespan_est == b.makespan_est && a.theta_u == b.theta_u && a.kappa == b.kappa;
                for (size_t j = 0; j < js.n && same; j++)
                    same = !memcmp(a.sched.gpus[j], b.sched.gpus[j], js.jobs[j].gpus * sizeof(uint32_t)) &&
                           a.sched.start[j] == b.sched.start[j];
                compared++;
                differ += !same;
                if (!same)
                    fprintf(stderr, "differs: seed %llu calibration %d variant %d\n", (unsigned long long)seed, cal, v);
                ct_bco_result_free(&a);
                ct_bco_result_free(&b);
            }
            ct_rar_cluster_free(&c);
            ct_rar_jobs_free(&js);
        }
    CHECK_MSG(differ == 0, "%zu of %zu schedules differ from the reference selection", differ, compared);
}

/* The scan's result does not depend on the horizon once it exceeds the
 * unconstrained load; the paper's bisection does (seed 2, 11 servers,
 * calibration "best": 9524 slots at T = 1200 against 2128 at 1500). */
static void search_and_horizon(void)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t js;
    ct_error_t err;
    ct_rar_workload_params_t wp;
    ct_rar_workload_params_init(&wp);
    wp.calibration = CT_CALIBRATION_BEST;
    wp.n_servers = 11;
    CHECK(ct_rar_workload(2, &wp, &c, &js, &err) == CT_OK);
    static const long horizons[] = { 1200, 1500, 2000, CT_BCO_HORIZON_AUTO };
    double scan[4], bisect[4];
    for (int h = 0; h < 4; h++) {
        ct_bco_params_t p;
        ct_bco_params_init(&p);
        p.horizon = horizons[h];
        ct_bco_result_t r;
        CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
        scan[h] = r.makespan;
        CHECK(r.theta_lo <= r.theta_u && r.theta_u <= r.theta_hi);
        ct_bco_result_free(&r);
        p.search = CT_BCO_SEARCH_BISECT;
        CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
        bisect[h] = r.makespan;
        ct_bco_result_free(&r);
    }
    for (int h = 1; h < 4; h++)
        CHECK_MSG(fabs(scan[h] - scan[0]) <= 0.03 * scan[0], "scan: %g at horizon %ld against %g at 1200", scan[h],
                  horizons[h], scan[0]);
    for (int h = 0; h < 4; h++) /* the property wanted: the scan never does worse (the paper's bisection swings) */
        CHECK_MSG(scan[h] <= bisect[h], "horizon %ld: scan %g, bisection %g", horizons[h], scan[h], bisect[h]);
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&js);
}

static void workload_and_files(void)
{
    ct_rar_cluster_t c, c2;
    ct_rar_jobs_t js, js2;
    ct_error_t err;
    CHECK(ct_rar_workload(7, NULL, &c, &js, &err) == CT_OK);
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
    /* The paper's calibration: spreading costs at most 15% of the actual
     * time, so phi = 1 / 0.85 for the multi-GPU jobs. */
    double phi = 1;
    for (size_t i = 0; i < js.n; i++) {
        double best, worst;
        ct_rar_exec_bounds(&c, &js.jobs[i], &best, &worst);
        phi = fmax(phi, worst / best);
        if (js.jobs[i].gpus == 1)
            CHECK_CLOSE(worst, best, 1e-9);
    }
    CHECK_CLOSE(phi, 1 / 0.85, 1e-9);
    /* Other job counts keep the shares; the "best" calibration spreads
     * expensively. */
    ct_rar_workload_params_t wp;
    ct_rar_workload_params_init(&wp);
    wp.n_jobs = 1000;
    wp.calibration = CT_CALIBRATION_BEST;
    CHECK(ct_rar_workload(7, &wp, &c2, &js2, &err) == CT_OK);
    memset(count, 0, sizeof count);
    phi = 1;
    for (size_t i = 0; i < js2.n; i++) {
        double best, worst;
        count[js2.jobs[i].gpus]++;
        ct_rar_exec_bounds(&c2, &js2.jobs[i], &best, &worst);
        phi = fmax(phi, worst / best);
    }
    CHECK(js2.n == 1000 && count[1] == 500 && count[2] == 88 && count[4] == 163 && count[8] == 187 &&
          count[16] == 50 && count[32] == 12);
    CHECK(phi > 10);
    ct_rar_jobs_free(&js2);
    ct_rar_cluster_free(&c2);
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
    ct_test_write(csv, "id,gpus,iterations,gradient_size,batch,forward_time,backward_time\na,2,100,5,8,0.01,0.1\nb,1,50,5,8,0.01,0.1\n");
    CHECK(ct_rar_jobs_load(&js2, csv, &err) == CT_OK);
    CHECK(js2.n == 2 && js2.jobs[0].gpus == 2 && js2.jobs[1].lambda == 1);
    ct_rar_jobs_free(&js2);
    ct_test_write(csv, "id,gpus,iterations,gradient_size,batch,forward_time,backward_time\na,0,100,5,8,0.01,0.1\n");
    CHECK(ct_rar_jobs_load(&js2, csv, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "j.csv:2: gpus: expected a whole number >= 1");
    ct_test_write(jp, "{\"jobs\": [{\"id\": \"a\", \"gpus\": 1, \"iterations\": -1, \"gradient_size\": 1, \"batch\": 1, "
               "\"forward_time\": 0, \"backward_time\": 0}]}");
    CHECK(ct_rar_jobs_load(&js2, jp, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "jobs[0].iterations: must be positive");
    ct_test_write(cp, "{\"servers\": [4, 0], \"intra_bandwidth\": 1, \"inter_bandwidth\": 1, \"reduction_speed\": 1, "
               "\"horizon\": 10}");
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

/* n random jobs of 1-3 GPUs and 100-999 iterations (an LCG in *x), with
 * their best-case times in rh. */
static void random_jobs(unsigned long long *x, const ct_rar_cluster_t *c, size_t n, ct_rar_jobs_t *js, double *rh)
{
    uint32_t gp[16] = { 0 };
    double it[16] = { 0 };
    for (size_t i = 0; i < n; i++) {
        *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
        gp[i] = 1 + (uint32_t)((*x >> 33) % 3);
        it[i] = 100 + (double)((*x >> 40) % 900);
    }
    jobs_of(js, gp, it, n);
    for (size_t i = 0; i < n; i++) {
        double w;
        ct_rar_exec_bounds(c, &js->jobs[i], &rh[i], &w);
    }
}

static void ilp_and_bounds(void)
{
    uint32_t g[] = { 2, 3 };
    ct_rar_cluster_t c;
    cluster(&c, g, 2);
    ct_error_t err;
    unsigned long long x = 5;
    for (int trial = 0; trial < 20; trial++) {
        double rh[4], load[8] = { 0 };
        ct_rar_jobs_t js;
        random_jobs(&x, &c, 4, &js, rh);
        double lo, hi;
        ct_theta_status_t ts;
        CHECK(ct_bco_theta_star(&c, &js, rh, 0, &ts, &lo, &hi, NULL, &err) == CT_OK);
        double brute = brute_theta(&c, &js, rh, 0, load);
        CHECK(ts == CT_THETA_EXACT && lo == hi);
        CHECK_CLOSE(lo, brute, 1e-6);
        ct_rar_jobs_free(&js);
    }
    ct_rar_cluster_free(&c);

    /* A time limit: 12 jobs on 8 GPUs is past GLPK's reach in 10 ms; the
     * answer is a bracket, not an error. */
    uint32_t g8[] = { 4, 4 };
    cluster(&c, g8, 2);
    double rh12[12];
    ct_rar_jobs_t j12;
    random_jobs(&x, &c, 12, &j12, rh12);
    double lo, hi;
    ct_theta_status_t ts;
    CHECK(ct_bco_theta_star(&c, &j12, rh12, 0.01, &ts, &lo, &hi, NULL, &err) == CT_OK);
    CHECK(ts == CT_THETA_TIME_LIMIT && lo > 0 && lo <= hi);
    ct_rar_jobs_free(&j12);
    ct_rar_cluster_free(&c);
}

/* Instance from whole-slot 1-GPU jobs on one server (P||Cmax). */
static void identical(ct_rar_cluster_t *c, ct_rar_jobs_t *js, uint32_t m, const double *slots, size_t n)
{
    uint32_t g[] = { m };
    cluster(c, g, 1);
    c->xi2 = 0;
    uint32_t gp[16];
    for (size_t i = 0; i < n; i++)
        gp[i] = 1;
    jobs_of(js, gp, slots, n);
    for (size_t i = 0; i < n; i++) {
        js->jobs[i].fwd = 0;
        js->jobs[i].bwd = 1;
    }
}

static void claims(void)
{
    ct_error_t err;
    ct_rar_cluster_t c;
    ct_rar_jobs_t js;
    ct_bco_result_t r;
    ct_bco_bounds_t b;
    /* P2||Cmax: jobs of 30, 30, 20, 20, 20 slots on 2 GPUs, n_g = phi = 1.
     * SJF-BCO: 70 slots, theta_u~ 70; theta_u* = T* = 60. Lemma 4 and
     * Theorem 5 are violated (with either search); Lemma 3 holds. */
    double p2[] = { 30, 30, 20, 20, 20 };
    identical(&c, &js, 2, p2, 5);
    for (int search = 0; search < 2; search++) {
        ct_bco_params_t p;
        ct_bco_params_init(&p);
        p.search = (ct_bco_search_t)search;
        CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
        CHECK(ct_bco_validate(&c, &js, &r, NULL, &b, &err) == CT_OK);
        CHECK(b.n_g == 1 && b.phi == 1 && b.u_over_l == 1);
        CHECK(b.makespan == 70 && b.theta_tilde == 70);
        CHECK(b.theta_status == CT_THETA_EXACT && b.theta_lo == b.theta_hi);
        CHECK_CLOSE(b.theta_lo, 60, 1e-9);
        CHECK(b.have_T_exact && b.T_lo == 60 && b.T_hi == 60);
        CHECK(b.lemma3 == CT_CLAIM_HOLDS && b.lemma4 == CT_CLAIM_VIOLATED && b.theorem5 == CT_CLAIM_VIOLATED);
        CHECK_CLOSE(b.ratio_lo, 70.0 / 60.0, 1e-12);
        ct_bco_result_free(&r);
    }
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);

    /* Lemma 3: servers of 1 and 2 GPUs, two communication-heavy 2-GPU jobs
     * of 5.12 slots on one server (rho_hat) and 45.06 spread. The first is
     * spread (the least busy servers, in index order), the second waits:
     * 46 + 6 = 52 slots > n_g W = 2 x 12. */
    uint32_t g12[] = { 1, 2 };
    cluster(&c, g12, 2);
    c.b_intra = 1000;
    c.b_inter = 2;
    c.reduction = 2000;
    c.xi2 = 0.001;
    uint32_t gp2[] = { 2, 2 };
    double it2[] = { 20, 20 };
    jobs_of(&js, gp2, it2, 2);
    for (int i = 0; i < 2; i++) {
        js.jobs[i].grad = 4;
        js.jobs[i].batch = 1;
        js.jobs[i].fwd = 0;
        js.jobs[i].bwd = 0.25;
    }
    CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_OK);
    CHECK(ct_bco_validate(&c, &js, &r, NULL, &b, &err) == CT_OK);
    CHECK_CLOSE(r.rho_hat[0], 5.12, 1e-9);
    CHECK(b.makespan == 52 && b.W_slots == 12 && b.n_g == 2);
    CHECK(b.lemma3 == CT_CLAIM_VIOLATED && b.lemma3_est == CT_CLAIM_VIOLATED);
    CHECK(b.lemma4 == CT_CLAIM_HOLDS && b.theorem5 == CT_CLAIM_HOLDS); /* phi = 20.5 makes these loose */
    ct_bco_result_free(&r);
    ct_rar_jobs_free(&js);
    ct_rar_cluster_free(&c);

    /* The random families: the first one (tiny) finds no violation, which
     * is why it could not refute the claims; identical machines refute
     * Lemma 4 and Theorem 5, heterogeneous clusters Lemma 3. Every
     * violation is certain: it holds against the upper end of the bracket. */
    ct_rng_t rng;
    ct_rng_seed(&rng, 11);
    size_t viol[3][3] = { { 0 } };
    for (int f = 0; f < 3; f++)
        for (int i = 0; i < 40; i++) {
            CHECK(ct_bco_random_instance(&rng, (ct_bco_family_t)f, &c, &js, &err) == CT_OK);
            CHECK(ct_bco_schedule(&c, &js, NULL, &r, &err) == CT_OK);
            CHECK(ct_bco_validate(&c, &js, &r, NULL, &b, &err) == CT_OK);
            double ul = b.phi * b.u_over_l;
            CHECK(b.T_lo <= b.T_hi && b.T_hi <= r.makespan && b.theta_lo <= b.theta_hi + 1e-9);
            if (b.theorem5 == CT_CLAIM_VIOLATED)
                CHECK(b.makespan > b.n_g * ul * b.T_hi);
            if (b.lemma4 == CT_CLAIM_VIOLATED)
                CHECK((double)b.theta_tilde > ul * b.theta_hi + 1);
            viol[f][0] += b.lemma3 == CT_CLAIM_VIOLATED;
            viol[f][1] += b.lemma4 == CT_CLAIM_VIOLATED;
            viol[f][2] += b.theorem5 == CT_CLAIM_VIOLATED;
            ct_bco_result_free(&r);
            ct_rar_jobs_free(&js);
            ct_rar_cluster_free(&c);
        }
    CHECK(viol[0][0] + viol[0][1] + viol[0][2] == 0);
    CHECK(viol[1][1] > 0 && viol[1][2] > 0);
    CHECK(viol[2][0] > 0);
}

/* The paper's Fig. 4 in shape, under its calibration, over a family
 * (seeds 1-20 of the paper's workload generator): SJF-BCO's makespan is
 * within 1% of the best of the four policies on every workload, the lowest
 * on most, and the lowest summed over the family. It is not the lowest on
 * every one: FF beats it by 1-4 slots (under 1%) on seeds 9, 11 and 14
 * (seed 9: 448 against 447), so that is not asserted. */
static void paper_shape(void)
{
    ct_error_t err;
    double total[4] = { 0, 0, 0, 0 };
    int lowest = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        ct_rar_cluster_t c;
        ct_rar_jobs_t js;
        CHECK(ct_rar_workload(seed, NULL, &c, &js, &err) == CT_OK);
        double ms[4];
        for (int pol = 0; pol < 4; pol++) {
            ct_bco_params_t p;
            ct_bco_params_init(&p);
            p.policy = (ct_bco_policy_t)pol;
            ct_bco_result_t r;
            CHECK(ct_bco_schedule(&c, &js, &p, &r, &err) == CT_OK);
            ms[pol] = r.makespan;
            total[pol] += r.makespan;
            ct_bco_result_free(&r);
        }
        double best = fmin(fmin(ms[1], ms[2]), ms[3]);
        lowest += ms[0] <= best;
        CHECK_MSG(ms[0] <= 1.01 * best, "seed %llu: sjf-bco %g, ff %g, ls %g, rand %g", (unsigned long long)seed,
                  ms[0], ms[1], ms[2], ms[3]);
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&js);
    }
    CHECK_MSG(lowest >= 15, "sjf-bco the lowest on %d of 20 workloads", lowest);
    CHECK(total[0] < total[1] && total[0] < total[2] && total[0] < total[3]);
}

/* The random claims check (bco validate --random) as a library loop: the
 * tallies add up, the same seed gives the same tallies, and a recorded
 * counterexample redraws as the instance it was. */
static void claims_search(void)
{
    ct_bco_claims_params_t p;
    ct_bco_claims_params_init(&p);
    p.seed = 3;
    ct_bco_claims_t a, b;
    ct_bco_claims_init(&a, &p);
    ct_bco_claims_init(&b, &p);
    ct_error_t err;
    for (int i = 0; i < 60; i++) {
        ct_rar_cluster_t c[2];
        ct_rar_jobs_t j[2];
        ct_bco_family_t f[2];
        ct_bco_bounds_t bb[2];
        CHECK(ct_bco_claims_iterate(&a, &c[0], &j[0], &f[0], &bb[0], &err) == CT_OK);
        CHECK(ct_bco_claims_iterate(&b, &c[1], &j[1], &f[1], &bb[1], &err) == CT_OK);
        CHECK(f[0] == (ct_bco_family_t)(i % 3) && f[1] == f[0] && j[0].n == j[1].n && bb[0].makespan == bb[1].makespan);
        for (int k = 0; k < 2; k++) {
            ct_rar_cluster_free(&c[k]);
            ct_rar_jobs_free(&j[k]);
        }
    }
    CHECK(a.done == 60 && a.count[0] == 20 && a.count[1] == 20 && a.count[2] == 20);
    for (int k = 0; k < 3; k++) {
        CHECK(a.tally[k][0] + a.tally[k][1] + a.tally[k][2] == 60);
        CHECK(a.tally[k][1] == b.tally[k][1]);
        CHECK(a.ce[k].have == (a.tally[k][1] > 0));
        if (!a.ce[k].have)
            continue;
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        CHECK(ct_bco_claims_counterexample(&a, k, &c, &j, &err) == CT_OK);
        CHECK(j.n == a.ce[k].jobs && c.n_gpus == a.ce[k].gpus);
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
    }
    CHECK(a.tally[1][1] > 0); /* Lemma 4 fails on the identical family (docs/sjf-bco.md) */
}

int main(void)
{
    claims_search();
    time_model();
    resimulation();
    resimulation_vs_stepper();
    placement_rules();
    indexed_equals_reference();
    search_and_horizon();
    workload_and_files();
    ilp_and_bounds();
    claims();
    paper_shape();
    return ct_test_end();
}
