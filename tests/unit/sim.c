/*
 * sim.c - the event simulator: event ordering, two-server timelines worked
 * out by hand (FIFO servers and the fair policy), the link against the
 * Pollaczek-Khinchine formula (M/M/1 FIFO and processor sharing, M/D/1
 * through inference jobs), M/M/1 servers and the two-way fork-join of
 * M/M/1 queues (Flatto-Hahn), non-preemptive priorities (Cobham), the
 * Nona model at light load, every policy's
 * placement rule, determinism and bounded memory.
 */
#include "ct_eval.h"
#include "ct_evq.h"
#include "ct_nona_table.h"
#include "ct_test.h"
#include "ct_test_scenario.h"

/* ---- helpers ---- */

static void fig1(ct_dag_t *d, double t_small, double t_big, double b_det, double b_sparse, double b_out)
{
    ct_error_t err;
    size_t a, b, c, e;
    ct_dag_init(d);
    ct_dag_add_task(d, "sum", t_small, &a, &err);
    ct_dag_add_task(d, "det", t_big, &b, &err);
    ct_dag_add_task(d, "det_sparse", t_big, &c, &err);
    ct_dag_add_task(d, "add", t_small, &e, &err);
    ct_dag_add_edge(d, a, b, b_det, &err);
    ct_dag_add_edge(d, a, c, b_sparse, &err);
    ct_dag_add_edge(d, b, e, b_out, &err);
    ct_dag_add_edge(d, c, e, b_out, &err);
}

static void scenario_of(ct_scenario_t *s, const ct_dag_t *dags, const double *rates, size_t n, size_t servers,
                        double bw)
{
    ct_test_scenario(s, dags, rates, n, servers, bw, 0, 0);
}

/* Task index of an id in a simulator class. */
static size_t tix(const ct_sim_class_t *c, const char *id)
{
    for (size_t t = 0; t < c->n_tasks; t++)
        if (!strcmp(c->ids[t], id))
            return t;
    return (size_t)-1;
}

/* The table of a solution as the sampler loads it; *text the rendered file
 * (free it). NULL on failure (reported as a failed check). */
static ct_sampler_t *table_sampler_of(const ct_scenario_t *s, const ct_nona_model_t *m, const ct_nona_solution_t *sol,
                                      char **text)
{
    cJSON *entry, *doc = NULL;
    ct_sampler_t *smp = NULL;
    ct_error_t err;
    char msg[256];
    *text = NULL;
    CHECK(ct_nona_table_entry(s, 1.0, m, sol, &entry, &err) == CT_OK);
    CHECK(ct_nona_table_document(&entry, 1, &doc, &err) == CT_OK);
    CHECK(ct_json_render(doc, text, &err) == CT_OK);
    CHECK_MSG(*text && ct_sampler_load_text(*text, strlen(*text), "t", &smp, msg, sizeof msg) == 0, "%s", msg);
    cJSON_Delete(doc);
    /* the streaming writer's file is cJSON's print of it, byte for byte */
    char *direct = NULL;
    size_t len = 0;
    CHECK(ct_nona_table_text(s, 1.0, m, sol, &direct, &len, &err) == CT_OK);
    CHECK(direct && *text && len == strlen(direct) && !strcmp(direct, *text));
    free(direct);
    return smp;
}

/* ---- tests ---- */

static void event_order(void)
{
    ct_evq_t q;
    ct_evq_init(&q);
    unsigned long long x = 99;
    for (uint32_t i = 0; i < 1000; i++) {
        x = x * 6364136223846793005ULL + 1;
        CHECK(ct_evq_push(&q, (double)((x >> 40) % 50), 0, i, 0) == CT_OK);
    }
    ct_event_t ev, prev = { -1, 0, 0, 0, 0 };
    int ok = 1, n = 0;
    while (ct_evq_pop(&q, &ev)) {
        ok &= ev.t > prev.t || (ev.t == prev.t && ev.a > prev.a); /* ties: insertion order */
        prev = ev;
        n++;
    }
    CHECK(ok && n == 1000);
    CHECK(isinf(ct_evq_peek_time(&q)));
    ct_evq_free(&q);
}

/* Two jobs of the Fig. 1 DAG on two servers, link 1 byte/s, times in s:
 * sum 1, det 10, det_sparse 10, add 1; bytes sum->det 4, sum->det_sparse 2,
 * outputs 1. Job A at t = 0: det_sparse on server 1, the rest on 0; job B at
 * t = 0.5 all on server 0. Timeline (FIFO servers and link):
 *  s0: sumA 0-1, sumB 1-2, detA 2-12, detB 12-22, det_sparseB 22-32,
 *      addA 32-33, addB 33-34;  link: sum->det_sparse 1-3, ->add 13-14;
 *  s1: det_sparseA 3-13.  JCT A = 33, B = 33.5. */
/* Runs two jobs to the end, class 0 at t = 0 and class 1 at t = 0.5,
 * placed as given (NULL: by the policy); the result in *r, which points
 * into the simulator returned (the caller frees it). */
static ct_sim_t *run_two(const ct_sim_config_t *cfg, const uint32_t *pa, const uint32_t *pb, ct_sim_result_t *r)
{
    ct_error_t err;
    ct_sim_t *sim = NULL;
    CHECK(ct_sim_alloc(cfg, &sim, &err) == CT_OK);
    CHECK(ct_sim_inject(sim, 0, 0.0, pa, &err) == CT_OK);
    CHECK(ct_sim_inject(sim, 1, 0.5, pb, &err) == CT_OK);
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
    ct_sim_result_get(sim, r);
    return sim;
}

static void two_servers_by_hand(void)
{
    ct_dag_t d[2];
    fig1(&d[0], 1, 10, 4, 2, 1);
    fig1(&d[1], 1, 10, 4, 2, 1);
    double rates[2] = { 1, 1 };
    ct_scenario_t s;
    scenario_of(&s, d, rates, 2, 2, 1.0);
    ct_sim_class_t *cls;
    size_t nc;
    ct_error_t err;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t *pol;
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    ct_sim_config_t cfg = { 2, 1.0, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, 1, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
    uint32_t pa[4] = { 0, 0, 0, 0 }, pb[4] = { 0, 0, 0, 0 };
    pa[tix(&cls[0], "det_sparse")] = 1;
    ct_sim_result_t r;
    ct_sim_t *sim = run_two(&cfg, pa, pb, &r);
    CHECK(r.jct[0].n == 1 && r.jct[1].n == 1);
    CHECK_CLOSE(r.jct[0].mean, 33.0, 1e-12);
    CHECK_CLOSE(r.jct[1].mean, 33.5, 1e-12);
    CHECK_CLOSE(r.jct[2].mean, 33.25, 1e-12);
    CHECK_CLOSE(r.now, 34.0, 1e-12);
    /* Link: busy 3 of 34 s; the two transfers never waited. */
    CHECK_CLOSE(r.link_util, 3.0 / 34.0, 1e-12);
    CHECK(r.link_wait->n == 2 && r.link_wait->max == 0);
    CHECK_CLOSE(r.server_util, (34.0 + 10.0) / (2 * 34.0), 1e-12); /* s0 busy 34 s, s1 10 s */
    ct_sim_free(sim);
    ct_policy_free(pol);

    /* Job-first servers: a server runs the ready task of the earliest job.
     *  s0: sumA 0-1, detA 1-11 (ahead of sumB, ready since 0.5), sumB
     *      11-12, detB 12-22, addA 22-23 (ready at 14, ahead of B's
     *      det_sparse), det_sparseB 23-33, addB 33-34;
     *  s1: det_sparseA 3-13; link: 1-3 and 13-14. JCT A = 23, B = 33.5. */
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    cfg.policy = pol;
    cfg.server_queue = CT_QUEUE_JOB_FIRST;
    sim = run_two(&cfg, pa, pb, &r);
    CHECK_CLOSE(r.jct[0].mean, 23.0, 1e-12);
    CHECK_CLOSE(r.jct[1].mean, 33.5, 1e-12);
    CHECK_CLOSE(r.now, 34.0, 1e-12);
    ct_sim_free(sim);
    cfg.server_queue = CT_QUEUE_FIFO;
    ct_policy_free(pol);

    /* The same two jobs under fair (central queue): an idle server takes a
     * task of the job with the fewest running tasks, preferring local input.
     *  s0: sumA 0-1, detA 1-11, det_sparseA 11-21, addA 21-22
     *  s1: sumB 0.5-1.5, detB 1.5-11.5, det_sparseB 11.5-21.5, addB 21.5-22.5
     * No transfer at all; JCT A = 22, B = 22. */
    CHECK(ct_policy_fair(&pol, &err) == CT_OK);
    cfg.policy = pol;
    sim = run_two(&cfg, NULL, NULL, &r);
    CHECK_CLOSE(r.jct[0].mean, 22.0, 1e-12);
    CHECK_CLOSE(r.jct[1].mean, 22.0, 1e-12);
    CHECK(r.link_wait->n == 0);
    ct_sim_free(sim);
    ct_policy_free(pol);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d[0]);
    ct_dag_destroy(&d[1]);
}

/* Runs reps replications of jobs measured jobs each of cfg into *sum. */
static void replicate(const ct_sim_config_t *cfg, size_t reps, size_t jobs, ct_sim_summary_t *sum)
{
    ct_error_t err;
    ct_sim_run_params_t p;
    ct_sim_run_params_init(&p);
    p.reps = reps;
    p.jobs = jobs;
    CHECK_MSG(ct_sim_replicate(cfg, &p, sum, &err) == CT_OK, "%s", err.msg);
}

/* One trivial inference class (a single 1 ns task) so replications run,
 * plus background transfers of exponential size at link load 0.5:
 * PK mean wait = rho E[S] / (1 - rho) = E[S]. Processor sharing has the
 * same mean excess sojourn for exponential sizes. */
static void pk_link(ct_link_mode_t mode)
{
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    ct_dag_add_task(&d, "only", 1e-9, NULL, &err);
    double rate = 10;
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 100, 1e6);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t *pol;
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    double S = 0.001, lambda = 500; /* rho = 0.5 */
    ct_sim_config_t cfg = { 100, 1e6, mode, cls, nc, 0, 0, lambda, S * 1e6, pol, 1, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
    ct_sim_summary_t sum;
    replicate(&cfg, 10, 4000, &sum); /* 400 s: 200,000 transfers per replication */
    double pk = lambda * 2 * S * S / (2 * (1 - 0.5));
    CHECK_MSG(fabs(sum.link_wait - pk) <= sum.link_wait_ci95, "%s: wait %.6g +- %.2g, PK %.6g",
              mode == CT_LINK_FIFO ? "fifo" : "ps", sum.link_wait, sum.link_wait_ci95, pk);
    CHECK(sum.link_wait_ci95 < 0.05 * pk); /* the interval is tight enough to mean something */
    CHECK(isnan(sum.link_head_wait)); /* background transfers only (and PS has no heads) */
    CHECK_REL(sum.link_util, 0.5, 0.01); /* 2,000,000 transfers: the utilisation's error is ~0.1% */
    ct_sim_summary_free(&sum);
    ct_policy_free(pol);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* M/D/1 through the inference path: a -> b with random placement on 2
 * servers; the transfer crosses with probability 1/2 (Poisson thinning),
 * deterministic S. Compute is negligible. */
static void pk_inference(void)
{
    ct_dag_t d;
    ct_error_t err;
    size_t a, b;
    ct_dag_init(&d);
    ct_dag_add_task(&d, "a", 1e-9, &a, &err);
    ct_dag_add_task(&d, "b", 1e-9, &b, &err);
    ct_dag_add_edge(&d, a, b, 1000, &err);
    double rate = 1400; /* crossing 700/s x S 1 ms = rho 0.7 */
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 2, 1e6);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t *pol;
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    ct_sim_config_t cfg = { 2, 1e6, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, 3, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
    ct_sim_summary_t sum;
    replicate(&cfg, 10, 200000, &sum);
    double lam = 700, S = 0.001, rho = lam * S, pk = lam * S * S / (2 * (1 - rho));
    CHECK_MSG(fabs(sum.link_wait - pk) <= sum.link_wait_ci95, "M/D/1: wait %.6g +- %.2g, PK %.6g", sum.link_wait,
              sum.link_wait_ci95, pk);
    CHECK_REL(sum.link_util, rho, 0.01);
    CHECK_REL(sum.link_head_wait, sum.link_wait, 1e-12); /* one transfer a batch: every one heads it */
    /* Mean JCT: half the jobs pay wait + S; 2,000,000 jobs, the wait's own
     * interval checked above is under 2% of it. */
    CHECK_REL(sum.mean[1], 0.5 * (pk + S) + 2e-9, 0.02);
    ct_sim_summary_free(&sum);
    ct_policy_free(pol);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* Fork-join: task t of every job on server t (a place() of the test's own). */
static int place_by_index(ct_policy_t *self, size_t cls, size_t n_tasks, uint32_t n_servers, const uint32_t *loads,
                          ct_rng_t *rng, uint32_t *servers)
{
    (void)self, (void)cls, (void)loads, (void)rng;
    for (size_t t = 0; t < n_tasks; t++)
        servers[t] = (uint32_t)(t % n_servers);
    return 0;
}

/* Three tasks of `time` s: a -> b, then a -> c (fork) or b -> c (chain),
 * each edge of `bytes`. */
static void dag_abc(ct_dag_t *d, double time, double bytes, int chain)
{
    ct_error_t err;
    size_t a, b, c;
    ct_dag_init(d);
    CHECK(ct_dag_add_task(d, "a", time, &a, &err) == CT_OK && ct_dag_add_task(d, "b", time, &b, &err) == CT_OK &&
          ct_dag_add_task(d, "c", time, &c, &err) == CT_OK);
    CHECK(ct_dag_add_edge(d, a, b, bytes, &err) == CT_OK && ct_dag_add_edge(d, chain ? b : a, c, bytes, &err) == CT_OK);
}

/* Batches: a -> b, a -> c with task t on server t, so every job sends two
 * transfers of S at once, Poisson at lambda: an M^X/D/1 link whose batch
 * (2 S) waits the Pollaczek-Khinchine wait of batches, lambda (2 S)^2 /
 * (2 (1 - rho)), at its head (link_head_wait), and whose transfers wait
 * S / 2 more on average (link_wait). Counting every transfer as a head
 * would give the latter. */
static void pk_batches(void)
{
    ct_dag_t d;
    ct_error_t err;
    dag_abc(&d, 1e-9, 1000, 0);
    double lam = 300, S = 0.001, rho = 2 * lam * S; /* 0.6 */
    ct_scenario_t s;
    scenario_of(&s, &d, &lam, 1, 3, 1e6);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t pol = { .name = "by-index", .kind = CT_POLICY_PLACE, .place = place_by_index };
    ct_sim_config_t cfg = { 3, 1e6, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, &pol, 5, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
    ct_sim_summary_t sum;
    replicate(&cfg, 10, 100000, &sum);
    double head = lam * 4 * S * S / (2 * (1 - rho));
    CHECK_MSG(fabs(sum.link_head_wait - head) <= sum.link_head_wait_ci95 + 0.01 * head,
              "batch head: wait %.6g +- %.2g, PK of batches %.6g", sum.link_head_wait, sum.link_head_wait_ci95, head);
    CHECK(sum.link_head_wait_ci95 < 0.05 * head);
    CHECK_REL(sum.link_wait - sum.link_head_wait, S / 2, 0.01); /* the second of each batch waits S more */
    ct_sim_summary_free(&sum);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* A theory check's run: 10 replications of 100,000 jobs with exponential
 * task times, FIFO (q 0) or job-first (q 1) servers. */
static void theory_run(const ct_sim_class_t *cls, size_t nc, size_t servers, ct_policy_t *pol, uint64_t seed, int q,
                       ct_sim_summary_t *sum)
{
    ct_sim_config_t cfg = { servers, 1e9, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, seed, 0,
                            q ? CT_QUEUE_JOB_FIRST : CT_QUEUE_FIFO, CT_FAIR_RECENT, 1, 0 };
    replicate(&cfg, 10, 100000, sum);
}

/* Single-task jobs (mean time 1 / mu, Poisson at lambda) on `servers` servers. */
typedef struct {
    ct_dag_t d;
    ct_scenario_t s;
    ct_sim_class_t *cls;
    size_t nc;
} one_task_t;

static void one_task_setup(one_task_t *o, double mu, double lambda, size_t servers)
{
    ct_error_t err;
    ct_dag_init(&o->d);
    CHECK(ct_dag_add_task(&o->d, "x", 1 / mu, NULL, &err) == CT_OK);
    scenario_of(&o->s, &o->d, &lambda, 1, servers, 1e9);
    CHECK(ct_sim_classes_build(&o->s, 1.0, &o->cls, &o->nc, &err) == CT_OK);
}

static void one_task_free(one_task_t *o)
{
    ct_sim_classes_free(o->cls, o->nc);
    ct_scenario_destroy(&o->s);
    ct_dag_destroy(&o->d);
}

/* Queueing theory beyond one queue, with exponential task times
 * (exp_service): an M/M/1 server (mean response 1 / (mu - lambda)), and
 * the two-way fork-join of M/M/1 queues, whose mean response time is
 * (12 - rho) / 8 x 1 / (mu - lambda) (Flatto and Hahn 1984; Nelson and
 * Tantawi 1988): every job forks two independent tasks, one per server.
 * Job-first and FIFO servers agree here (one task of a job per server).
 * Each check: within the replications' 95% interval plus 1.5% (the
 * warm-up's bias), and the interval itself under 3%. A fork-join simulated
 * as the larger of two independent M/M/1 responses would give 1.5 x
 * 1 / (mu - lambda), 4% more at rho = 0.5: outside. */
static void queueing_theory(void)
{
    ct_error_t err;
    double mu = 100, lambda = 50, rho = lambda / mu;
    for (int fork = 0; fork < 2; fork++) {
        ct_dag_t d;
        ct_dag_init(&d);
        ct_dag_add_task(&d, "x", 1 / mu, NULL, &err);
        if (fork)
            ct_dag_add_task(&d, "y", 1 / mu, NULL, &err);
        ct_scenario_t s;
        scenario_of(&s, &d, &lambda, 1, fork ? 2 : 1, 1e9);
        ct_sim_class_t *cls;
        size_t nc;
        CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
        ct_policy_t pol = { .name = "by-index", .kind = CT_POLICY_PLACE, .place = place_by_index };
        for (int q = 0; q < 2; q++) {
            ct_sim_summary_t sum;
            theory_run(cls, nc, fork ? 2 : 1, &pol, 7, q, &sum);
            double want = (fork ? (12 - rho) / 8 : 1.0) / (mu - lambda), got = sum.mean[1], ci = sum.ci95[1];
            CHECK_MSG(fabs(got - want) <= ci + 0.015 * want, "%s, %s servers: mean response %.6g +- %.2g s, theory %.6g s",
                      fork ? "fork-join of two M/M/1" : "M/M/1", q ? "job-first" : "FIFO", got, ci, want);
            CHECK(ci < 0.03 * want);
            CHECK(fabs(sum.server_util - rho) <= 0.02 * rho);
            ct_sim_summary_free(&sum);
        }
        ct_sim_classes_free(cls, nc);
        ct_scenario_destroy(&s);
        ct_dag_destroy(&d);
    }
}

/* Non-preemptive priority (CT_QUEUE_CLASS_PRIORITY), one server, two
 * classes of single-task jobs with exponential times: Cobham's formula,
 * W_k = R / ((1 - sigma_{k-1}) (1 - sigma_k)), R = sum lambda E[S^2] / 2.
 * Within the replications' interval plus 1.5%. Under FIFO both classes
 * would wait R / (1 - rho), between the two. */
static void cobham(void)
{
    ct_error_t err;
    ct_dag_t d[2];
    double rates[2] = { 30, 40 }, S[2] = { 0.010, 0.006 };
    for (int c = 0; c < 2; c++) {
        ct_dag_init(&d[c]);
        ct_dag_add_task(&d[c], "x", S[c], NULL, &err);
    }
    ct_scenario_t s;
    scenario_of(&s, d, rates, 2, 1, 1e9);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t pol = { .name = "by-index", .kind = CT_POLICY_PLACE, .place = place_by_index };
    ct_sim_config_t cfg = { 1, 1e9, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, &pol, 11, 0, CT_QUEUE_CLASS_PRIORITY,
                            CT_FAIR_RECENT, 1, 0 };
    ct_sim_summary_t sum;
    replicate(&cfg, 10, 100000, &sum);
    double s1 = rates[0] * S[0], rho = s1 + rates[1] * S[1];
    double R = (rates[0] * 2 * S[0] * S[0] + rates[1] * 2 * S[1] * S[1]) / 2;
    double want[2] = { R / (1 - s1) + S[0], R / ((1 - s1) * (1 - rho)) + S[1] };
    for (int c = 0; c < 2; c++)
        CHECK_MSG(fabs(sum.mean[c] - want[c]) <= sum.ci95[c] + 0.015 * want[c],
                  "priority class %d: mean response %.6g +- %.2g s, Cobham %.6g s", c, sum.mean[c], sum.ci95[c], want[c]);
    ct_sim_summary_free(&sum);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    for (int c = 0; c < 2; c++)
        ct_dag_destroy(&d[c]);
}

/* The Nona model against the simulator where its assumptions hold: light
 * compute load (servers rarely queue), no background. */
static void model_light_load(void)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    CHECK(ct_scenario_load(&s, "data/scenarios/fig1.json", &err) == CT_OK);
    ct_eval_params_t p;
    ct_eval_params_init(&p);
    p.bg_ratio = 0;
    p.run.reps = 5;
    p.run.jobs = 20000;
    const char *pol[] = { "nona" };
    double load = 0.02;
    ct_eval_result_t r;
    CHECK(ct_eval_sweep(&s, &load, 1, 0, pol, 1, &p, NULL, NULL, &r, &err) == CT_OK);
    double sim = r.points[0].sum.mean[1], model = r.points[0].model_mean_jct;
    CHECK_MSG(fabs(sim - model) <= 0.03 * model, "light load: simulated %.6g s, model %.6g s", sim, model);
    ct_eval_result_free(&r);
    ct_scenario_destroy(&s);
}

static void placement_rules(void)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    CHECK(ct_scenario_load(&s, "data/scenarios/fig1.json", &err) == CT_OK);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    size_t sum = tix(cls, "sum"), det = tix(cls, "det"), sp = tix(cls, "det_sparse"), add = tix(cls, "add");
    ct_rng_t rng;
    ct_rng_seed(&rng, 11);
    uint32_t pl[4];
    /* random: every task uniform and independent */
    ct_policy_t *pol;
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    size_t same = 0, hist[8] = { 0 };
    for (int i = 0; i < 40000; i++) {
        CHECK(pol->place(pol, 0, 4, 8, NULL, &rng, pl) == 0);
        hist[pl[det]]++;
        same += pl[sum] == pl[add];
    }
    for (int k = 0; k < 8; k++)
        CHECK(hist[k] > 4600 && hist[k] < 5400);
    CHECK(same > 4600 && same < 5400); /* P = 1/8 */
    ct_policy_free(pol);
    /* local, opportunistic, nona, fair, nona-star through the sweep path, no
     * background, light load (rate = 0.02 x 80 / 0.022 s = 72.7 jobs/s):
     * local uses the link only for background; opportunistic puts det (first branch) with
     * sum and add and det_sparse elsewhere: 2e7 + 1e6 bytes per job on a
     * 1e10 bytes/s link. */
    ct_eval_params_t p;
    ct_eval_params_init(&p);
    p.bg_ratio = 0;
    p.run.reps = 2;
    p.run.jobs = 20000;
    const char *names[] = { "local", "opportunistic", "nona", "fair", "nona-star" };
    double load = 0.02, rate = load * 80 / 0.022;
    ct_eval_result_t r;
    CHECK(ct_eval_sweep(&s, &load, 1, 0, names, 5, &p, NULL, NULL, &r, &err) == CT_OK);
    CHECK(r.n_points == 5);
    for (size_t i = 0; i < 5; i++)
        CHECK(!r.points[i].unstable && !strcmp(r.points[i].policy, names[i]));
    /* fig1.json has its own background: link load 0.05. */
    CHECK_REL(r.points[0].sum.link_util, 0.05, 0.1); /* background alone: Poisson, 40,000 jobs' span */
    CHECK_REL(r.points[1].sum.link_util, 0.05 + rate * 2.1e7 / 1e10, 0.03);
    /* nona at light load splits the same way (see the solver tests): same
     * bytes per job, and it beats local, which runs det and det_sparse in
     * sequence (22 ms). */
    CHECK_REL(r.points[2].sum.link_util, 0.05 + rate * 2.1e7 / 1e10, 0.03);
    CHECK(r.points[2].sum.mean[1] < 0.8 * r.points[0].sum.mean[1]);
    CHECK_REL(r.points[0].sum.mean[1], 0.022, 0.03); /* 22 ms of compute, servers 2% busy */
    /* fair's central queue runs det and det_sparse in parallel too. */
    CHECK(r.points[3].sum.mean[1] < r.points[0].sum.mean[1]);
    ct_eval_result_free(&r);
    /* The rules on actual placements drawn through the table policy. */
    ct_nona_model_t m;
    CHECK(ct_nona_model_build(&s, NULL, &m, &err) == CT_OK);
    double *theta = calloc(m.n_vars, sizeof(double));
    for (int which = 0; which < 2; which++) {
        if (which == 0)
            ct_nona_theta_local(&m, theta);
        else
            ct_nona_theta_branches(&m, theta);
        ct_nona_solution_t sol;
        memset(&sol, 0, sizeof sol);
        sol.theta = theta;
        sol.tau = calloc(1, sizeof(double));
        ct_nona_evaluate(&m, theta, &sol.eval, sol.tau);
        cJSON *entry, *doc;
        char *text, msg[256];
        ct_sampler_t *smp = NULL;
        CHECK(ct_nona_table_entry(&s, 1, &m, &sol, &entry, &err) == CT_OK);
        CHECK(ct_nona_table_document(&entry, 1, &doc, &err) == CT_OK);
        CHECK(ct_json_render(doc, &text, &err) == CT_OK);
        CHECK(ct_sampler_load_text(text, strlen(text), "t", &smp, msg, sizeof msg) == 0);
        CHECK(ct_policy_table(which ? "opportunistic" : "local", smp, NULL, cls, nc, &pol, &err) == CT_OK);
        int ok = 1;
        for (int i = 0; i < 2000; i++) {
            CHECK(pol->place(pol, 0, 4, 80, NULL, &rng, pl) == 0);
            if (which == 0) /* local: the whole job on one server */
                ok &= pl[sum] == pl[det] && pl[det] == pl[sp] && pl[sp] == pl[add];
            else /* opportunistic: branches apart, the first with source and sink */
                ok &= pl[det] != pl[sp] && pl[sum] == pl[det] && pl[add] == pl[det];
        }
        CHECK_MSG(ok, "%s placement rule", which ? "opportunistic" : "local");
        ct_policy_free(pol);
        ct_sampler_free(smp);
        cJSON_Delete(doc);
        free(text);
        free(sol.tau);
    }
    free(theta);
    ct_nona_model_free(&m);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
}

/* Pooled roots: the least loaded of d draws; d = 1 or no loads: uniform. */
static void pooled_roots(void)
{
    ct_dag_t d;
    fig1(&d, 0.001, 0.010, 2e8, 2e7, 1e6);
    double rate = 100;
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 8, 1e10);
    ct_nona_model_t m;
    ct_nona_solution_t sol;
    ct_error_t err;
    CHECK(ct_nona_model_build(&s, NULL, &m, &err) == CT_OK);
    CHECK(m.root_choices == 2 && m.r_root < 1 && m.r_part < 1 / (1 - m.rho_s) && m.r_root < m.r_part);
    CHECK(ct_nona_solve(&m, NULL, &sol, &err) == CT_OK);
    char *text;
    ct_sampler_t *smp = table_sampler_of(&s, &m, &sol, &text);
    CHECK(smp && ct_sampler_root_choices(smp, 0) == 2);
    uint32_t loads[8] = { 5, 5, 5, 5, 5, 5, 5, 0 }, pl[4], hits = 0, hits_uniform = 0;
    ct_rng_t rng;
    ct_rng_seed(&rng, 3);
    size_t root = 0; /* "sum" is the root in the table's order */
    for (int i = 0; i < 8000; i++) {
        CHECK(ct_sampler_place_loaded(smp, 0, 0, 8, loads, 2, &rng, pl, NULL) == 0);
        hits += pl[root] == 7;
        CHECK(ct_sampler_place_loaded(smp, 0, 0, 8, NULL, 2, &rng, pl, NULL) == 0);
        hits_uniform += pl[root] == 7;
    }
    /* d = 2: P(server 7 among two draws) = 1 - (7/8)^2 = 0.234; uniform 0.125 */
    CHECK_MSG(fabs(hits / 8000.0 - 0.234375) < 0.02, "d = 2 picked the idle server %u / 8000 times", hits);
    CHECK_MSG(fabs(hits_uniform / 8000.0 - 0.125) < 0.015, "uniform picked it %u / 8000 times", hits_uniform);
    free(text);
    ct_sampler_free(smp);
    ct_nona_solution_free(&sol);
    ct_nona_model_free(&m);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* The smallest job against a central queue (docs/baselines.md, "The
 * smallest counterexample"): single-task jobs with exponential times on 8
 * servers at load 0.8. fair is one central FIFO queue served by 8, M/M/8
 * (Erlang C: mean response 1 / mu + C(8, A) / (8 mu - lambda)); a table's
 * pooled root (the least loaded of d = 2 sampled servers) waits whenever
 * both samples are busy, so its mean lies strictly between M/M/8 and
 * uniform placement (eight M/M/1 queues at lambda / 8). */
static double erlang_c(unsigned c, double a)
{
    double term = 1, sum = 0; /* a^k / k!, summed for k < c */
    for (unsigned k = 0; k < c; k++) {
        sum += term;
        term *= a / (k + 1);
    }
    double top = term * c / (c - a);
    return top / (sum + top);
}

static void central_against_sampled(void)
{
    ct_error_t err;
    const size_t servers = 8;
    double mu = 100, lambda = 0.8 * servers * mu;
    one_task_t o;
    one_task_setup(&o, mu, lambda, servers);
    double mmc = 1 / mu + erlang_c((unsigned)servers, lambda / mu) / (servers * mu - lambda);
    double uniform = 1 / (mu - lambda / servers);
    ct_policy_t *fair;
    CHECK(ct_policy_fair(&fair, &err) == CT_OK);
    ct_sim_summary_t sum;
    theory_run(o.cls, o.nc, servers, fair, 11, 0, &sum);
    CHECK_MSG(fabs(sum.mean[1] - mmc) <= sum.ci95[1] + 0.015 * mmc,
              "fair, one task: mean response %.6g +- %.2g s, M/M/%zu %.6g s", sum.mean[1], sum.ci95[1], servers, mmc);
    ct_sim_summary_free(&sum);
    ct_policy_free(fair);

    ct_nona_model_t m;
    ct_nona_solution_t sol;
    CHECK(ct_nona_model_build(&o.s, NULL, &m, &err) == CT_OK && m.root_choices == 2);
    CHECK(ct_nona_solve(&m, NULL, &sol, &err) == CT_OK);
    char *text;
    ct_sampler_t *smp = table_sampler_of(&o.s, &m, &sol, &text);
    ct_policy_t *pol;
    CHECK(smp && ct_policy_table_d("nona", smp, NULL, o.cls, o.nc, 0, &pol, &err) == CT_OK);
    theory_run(o.cls, o.nc, servers, pol, 11, 1, &sum);
    double got = sum.mean[1], ci = sum.ci95[1];
    CHECK_MSG(got - ci > 1.1 * mmc && got + ci < 0.9 * uniform,
              "nona d = 2, one task: mean response %.6g +- %.2g s, want within (1.1 x M/M/%zu %.6g, 0.9 x M/M/1 %.6g)",
              got, ci, servers, mmc, uniform);
    ct_sim_summary_free(&sum);
    ct_policy_free(pol);
    free(text);
    ct_sampler_free(smp);
    ct_nona_solution_free(&sol);
    ct_nona_model_free(&m);
    one_task_free(&o);
}

static void determinism_and_memory(void)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    CHECK(ct_scenario_load(&s, "data/scenarios/five-models.json", &err) == CT_OK);
    ct_eval_params_t p;
    ct_eval_params_init(&p);
    p.run.reps = 2;
    p.run.jobs = 3000;
    const char *pol[] = { "nona", "fair" };
    double load = 0.5;
    ct_eval_result_t a, b;
    CHECK(ct_eval_sweep(&s, &load, 1, 0, pol, 2, &p, NULL, NULL, &a, &err) == CT_OK);
    CHECK(ct_eval_sweep(&s, &load, 1, 0, pol, 2, &p, NULL, NULL, &b, &err) == CT_OK);
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k <= a.n_classes; k++)
            CHECK(a.points[i].sum.mean[k] == b.points[i].sum.mean[k] && a.points[i].sum.p99[k] == b.points[i].sum.p99[k]);
    ct_eval_result_free(&b);
    p.run.seed = 2;
    CHECK(ct_eval_sweep(&s, &load, 1, 0, pol, 2, &p, NULL, NULL, &b, &err) == CT_OK);
    CHECK(a.points[0].sum.mean[a.n_classes] != b.points[0].sum.mean[b.n_classes]);
    ct_eval_result_free(&a);
    ct_eval_result_free(&b);
    /* 200,000 jobs through one run: the pool holds only jobs in flight. */
    p.run.reps = 1;
    p.run.jobs = 200000;
    const char *loc[] = { "local" };
    CHECK(ct_eval_sweep(&s, &load, 1, 0, loc, 1, &p, NULL, NULL, &a, &err) == CT_OK);
    CHECK(a.points[0].sum.jobs[a.n_classes] >= 199000);
    CHECK_MSG(a.points[0].sum.max_in_flight < 2000, "peak %zu jobs in flight", a.points[0].sum.max_in_flight);
    ct_eval_result_free(&a);
    /* An unstable policy is reported as such, not as an error. */
    const char *rnd[] = { "random" };
    p.run.jobs = 2000;
    p.max_in_flight = 500;
    CHECK(ct_eval_sweep(&s, &load, 1, 0, rnd, 1, &p, NULL, NULL, &a, &err) == CT_OK);
    CHECK(a.points[0].unstable);
    ct_eval_result_free(&a);
    const char *bad[] = { "nope" };
    CHECK(ct_eval_sweep(&s, &load, 1, 0, bad, 1, &p, NULL, NULL, &a, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "unknown policy 'nope'");
    ct_scenario_destroy(&s);
}

/* Fair with delay scheduling, worked by hand (2 servers, 1 byte/s): job A
 * has roots a_small (3 s) and a_big (1 s) feeding b (1 s) with 1 and 4
 * bytes; a 4 s hog arrives at 0.5. a_small runs on s0 0-3, a_big on s1
 * 0-1, the hog on s1 1-5. At 3 b is ready and prefers s1 (its largest
 * input), which is busy:
 *  fair:                 b on s0 at once, fetches 4 B (3-7), runs 7-8: 8;
 *  delay, wait 5.5 s:    passes on s0, takes s1 when it frees at 5, fetches
 *                        1 B (5-6), runs 6-7: 7;
 *  delay, wait 4 s:      passes until 4 (a scheduled wake-up), then s0:
 *                        fetches 4 B (4-8), runs 8-9: 9. */
static void delay_scheduling(void)
{
    ct_dag_t d[2];
    ct_error_t err;
    size_t as, ab, b, h;
    ct_dag_init(&d[0]);
    CHECK(ct_dag_add_task(&d[0], "a_small", 3, &as, &err) == CT_OK);
    CHECK(ct_dag_add_task(&d[0], "a_big", 1, &ab, &err) == CT_OK);
    CHECK(ct_dag_add_task(&d[0], "b", 1, &b, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&d[0], as, b, 1, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&d[0], ab, b, 4, &err) == CT_OK);
    ct_dag_init(&d[1]);
    CHECK(ct_dag_add_task(&d[1], "hog", 4, &h, &err) == CT_OK);
    double rates[2] = { 1, 1 }, want[3] = { 8, 7, 9 }, waits[3] = { 0, 5.5, 4 };
    ct_scenario_t s;
    scenario_of(&s, d, rates, 2, 2, 1.0);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    for (int k = 0; k < 3; k++) {
        ct_policy_t *pol;
        CHECK((k ? ct_policy_fair_delay(waits[k], &pol, &err) : ct_policy_fair(&pol, &err)) == CT_OK);
        ct_sim_config_t cfg = { 2, 1.0, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, 1, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
        ct_sim_result_t r;
        ct_sim_t *sim = run_two(&cfg, NULL, NULL, &r);
        CHECK_MSG(r.jct[0].n == 1 && fabs(r.jct[0].mean - want[k]) < 1e-12, "wait %g: JCT %g, want %g", waits[k],
                  r.jct[0].mean, want[k]);
        CHECK_CLOSE(r.jct[1].mean, 4.5, 1e-12);
        ct_sim_free(sim);
        ct_policy_free(pol);
    }
    ct_policy_t *pol;
    CHECK(ct_policy_fair_delay(0, &pol, &err) == CT_EINPUT);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d[0]);
    ct_dag_destroy(&d[1]);
}

/* Sparrow (CT_POLICY_SAMPLE) against queueing theory and by hand.
 * Single-task jobs with exponential times: one probe per job (d = 1, four
 * servers) splits the Poisson stream uniformly, four M/M/1 queues at
 * lambda / 4 (mean response 1 / (mu - lambda / 4)); two probes on two
 * servers (every job probes both) with late binding is one central queue
 * served by two, M/M/2 (Erlang C: P(wait) = 2 rho^2 / (1 + rho), mean
 * response 1 / mu + P(wait) / (2 mu - lambda)), under both disciplines: the
 * first free server takes the oldest job and its other reservation is
 * cancelled. Early binding to the shorter of two queues could not reach
 * M/M/2. Then a chain with a large edge: sparrow-local probes the input's
 * server, so the job never moves its input; published Sparrow moves it
 * when its one probe lands elsewhere. */
static void sparrow(void)
{
    ct_error_t err;
    double mu = 100;
    for (int two = 0; two < 2; two++) {
        double lambda = two ? 100 : 200, rho = lambda / (two ? 2 * mu : 4 * mu);
        size_t servers = two ? 2 : 4;
        one_task_t o;
        one_task_setup(&o, mu, lambda, servers);
        ct_policy_t *pol;
        CHECK(ct_policy_sparrow(two ? 2 : 1, &pol, &err) == CT_OK);
        for (int q = 0; q < 2; q++) {
            ct_sim_summary_t sum;
            theory_run(o.cls, o.nc, servers, pol, 5, q, &sum);
            double want = two ? 1 / mu + 2 * rho * rho / (1 + rho) / (2 * mu - lambda) : 1 / (mu - lambda / 4);
            CHECK_MSG(fabs(sum.mean[1] - want) <= sum.ci95[1] + 0.015 * want,
                      "sparrow, %s, %s servers: mean response %.6g +- %.2g s, theory %.6g s",
                      two ? "d = 2 on two servers (M/M/2)" : "d = 1 (M/M/1 each)", q ? "job-first" : "FIFO",
                      sum.mean[1], sum.ci95[1], want);
            CHECK(fabs(sum.server_util - rho) <= 0.02 * rho);
            ct_sim_summary_free(&sum);
        }
        ct_policy_free(pol);
        one_task_free(&o);
    }
    /* root (1 s) -> a (1 s) over 10 bytes at 1 B/s, three servers, jobs 100 s apart. */
    ct_dag_t d;
    size_t r, a;
    ct_dag_init(&d);
    CHECK(ct_dag_add_task(&d, "root", 1, &r, &err) == CT_OK);
    CHECK(ct_dag_add_task(&d, "a", 1, &a, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&d, r, a, 10, &err) == CT_OK);
    double rate = 1;
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 3, 1.0);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    for (int local = 0; local < 2; local++) {
        ct_policy_t *pol;
        CHECK((local ? ct_policy_sparrow_local(1, &pol, &err) : ct_policy_sparrow(1, &pol, &err)) == CT_OK);
        ct_sim_config_t cfg = { 3, 1.0, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, 3, 0, CT_QUEUE_JOB_FIRST,
                                CT_FAIR_RECENT, 0, 0 };
        ct_sim_t *sim;
        CHECK(ct_sim_alloc(&cfg, &sim, &err) == CT_OK);
        for (int k = 0; k < 60; k++)
            CHECK(ct_sim_inject(sim, 0, 100.0 * k, NULL, &err) == CT_OK);
        uint32_t placed[2] = { 0, 0 };
        CHECK(ct_sim_inject(sim, 0, 0.0, placed, &err) == CT_EINPUT); /* it places tasks itself */
        CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
        ct_sim_result_t res;
        ct_sim_result_get(sim, &res);
        CHECK(res.jct[0].n == 60);
        if (local) /* every job: 2 s, its input never moves */
            CHECK_MSG(fabs(res.jct[0].mean - 2) < 1e-12 && fabs(res.jct[0].max - 2) < 1e-12,
                      "sparrow-local chain: mean JCT %g, max %g, want 2", res.jct[0].mean, res.jct[0].max);
        else /* moved in about 2 of 3 jobs: 2 s or 12 s */
            CHECK_MSG(res.jct[0].mean > 4 && res.jct[0].mean < 11 && fabs(res.jct[0].max - 12) < 1e-12,
                      "sparrow chain: mean JCT %g, max %g", res.jct[0].mean, res.jct[0].max);
        ct_sim_free(sim);
        ct_policy_free(pol);
    }
    ct_policy_t *pol;
    CHECK(ct_policy_sparrow(0, &pol, &err) == CT_EINPUT);
    CHECK(ct_policy_sparrow(65, &pol, &err) == CT_EINPUT);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* A table solved for late-bound parts: remote parts wait as roots do in the
 * model, the table records the rule, the sampler and the table policy
 * follow it; early tables say nothing (as before). */
static void late_table(void)
{
    ct_dag_t d;
    fig1(&d, 0.001, 0.010, 2e5, 2e5, 1e5);
    double rate = 200; /* servers 55% busy */
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 8, 1e10);
    ct_nona_model_params_t mp;
    ct_nona_model_params_init(&mp);
    CHECK(mp.late_parts == 0);
    for (int late = 0; late < 2; late++) {
        mp.late_parts = late;
        ct_nona_model_t m;
        ct_nona_solution_t sol;
        ct_error_t err;
        CHECK_MSG(ct_nona_model_build(&s, &mp, &m, &err) == CT_OK, "%s", err.msg);
        CHECK(m.late_parts == late);
        CHECK(late ? fabs(m.r_part * (1 - m.rho_s * m.later_share) - m.r_root) < 1e-12 : m.r_part > m.r_root);
        CHECK(ct_nona_solve(&m, NULL, &sol, &err) == CT_OK);
        CHECK(!late || ct_nona_root_share(&m, sol.theta) == 1.0);
        char *text;
        ct_sampler_t *smp = table_sampler_of(&s, &m, &sol, &text);
        CHECK(smp && text);
        if (!smp || !text)
            return;
        CHECK((strstr(text, "\"part_binding\"") != NULL) == late);
        CHECK(ct_sampler_late_parts(smp, 0) == (uint32_t)late);
        ct_sim_class_t *cls;
        size_t nc;
        ct_policy_t *pol;
        CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
        CHECK(ct_policy_table_d("t", smp, NULL, cls, nc, 0, &pol, &err) == CT_OK);
        CHECK(pol->late_choices == (late ? 2u : 0u));
        ct_policy_free(pol);
        ct_sim_classes_free(cls, nc);
        free(text);
        ct_sampler_free(smp);
        ct_nona_solution_free(&sol);
        ct_nona_model_free(&m);
    }
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* The late-binding tests' simulator: a class per DAG of d[0..1] (1 job/s
 * each) on n servers, a random policy whose late parts see every server
 * (late_choices 64: each of n <= 3 missed with probability (2/3)^64 or
 * less), one replication. Frees the DAGs with the rest. */
typedef struct {
    ct_dag_t d[2];
    ct_scenario_t s;
    ct_sim_class_t *cls;
    size_t nc;
    ct_policy_t *pol;
    ct_sim_config_t cfg;
} late_rig_t;

static void late_rig(late_rig_t *g, size_t servers)
{
    ct_error_t err;
    double rates[2] = { 1, 1 };
    scenario_of(&g->s, g->d, rates, 2, servers, 1.0);
    CHECK(ct_sim_classes_build(&g->s, 1.0, &g->cls, &g->nc, &err) == CT_OK);
    CHECK(ct_policy_random(&g->pol, &err) == CT_OK);
    g->pol->late_choices = 64;
    g->cfg = (ct_sim_config_t){ servers, 1.0, CT_LINK_FIFO, g->cls, g->nc, 0, 0, 0, 0, g->pol, 1, 0,
                                CT_QUEUE_JOB_FIRST, CT_FAIR_RECENT, 0, 0 };
}

/* late_rig on two classes: a chain "r" -> b (1 s each, a free edge) and
 * one task h of h_time seconds. */
static void chain_rig(late_rig_t *g, const char *b, const char *h, double h_time, size_t servers)
{
    ct_error_t err;
    size_t r, v;
    ct_dag_init(&g->d[0]);
    CHECK(ct_dag_add_task(&g->d[0], "r", 1, &r, &err) == CT_OK);
    CHECK(ct_dag_add_task(&g->d[0], b, 1, &v, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&g->d[0], r, v, 0, &err) == CT_OK);
    ct_dag_init(&g->d[1]);
    CHECK(ct_dag_add_task(&g->d[1], h, h_time, &v, &err) == CT_OK);
    late_rig(g, servers);
}

static void late_rig_free(late_rig_t *g)
{
    ct_policy_free(g->pol);
    ct_sim_classes_free(g->cls, g->nc);
    ct_scenario_destroy(&g->s);
    ct_dag_destroy(&g->d[0]);
    ct_dag_destroy(&g->d[1]);
}

/* Late-bound parts: a slot binds when its part is first needed, to the
 * least loaded server then (not when the job arrives). fig1 with free
 * edges: sum, det and add on server 0, det_sparse on slot 0; a 0.8 s hog
 * on server 1 at t = 0 and another on server 2 at t = 0.5. At arrival
 * server 2 is the idle one; at t = 1, when sum ends and det_sparse is
 * needed, server 1 is (server 0 runs det, server 2 the second hog). */
static void late_binding(void)
{
    late_rig_t g;
    fig1(&g.d[0], 1, 10, 0, 0, 0);
    ct_error_t err;
    size_t h;
    ct_dag_init(&g.d[1]);
    CHECK(ct_dag_add_task(&g.d[1], "hog", 0.8, &h, &err) == CT_OK);
    late_rig(&g, 3);
    ct_sim_t *sim;
    CHECK(ct_sim_alloc(&g.cfg, &sim, &err) == CT_OK);
    uint32_t pf[4] = { 0, 0, 0, 0 }, h1 = 1, h2 = 2;
    pf[tix(&g.cls[0], "det_sparse")] = CT_SAMPLER_LATE | 0;
    CHECK(ct_sim_inject(sim, 1, 0.0, &h1, &err) == CT_OK);
    CHECK(ct_sim_inject(sim, 0, 0.0, pf, &err) == CT_OK);
    CHECK(ct_sim_inject(sim, 1, 0.5, &h2, &err) == CT_OK);
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
    ct_sim_result_t r;
    ct_sim_result_get(sim, &r);
    CHECK(r.jct[0].n == 1);
    CHECK_CLOSE(r.jct[0].mean, 12.0, 1e-12); /* bound at arrival (server 2): 12.3 */
    CHECK_CLOSE(r.task_wait_sum[r.task_offset[0] + tix(&g.cls[0], "det_sparse")], 0.0, 1e-12);
    CHECK_CLOSE(r.server_util, (12.0 + 10.0 + 1.6) / (3 * 12.0), 1e-12); /* s0 12 s, s1 0.8 + 10, s2 0.8 */
    ct_sim_free(sim);
    /* A slot past the job's tasks is refused, not bound. */
    CHECK(ct_sim_alloc(&g.cfg, &sim, &err) == CT_OK);
    pf[tix(&g.cls[0], "det_sparse")] = CT_SAMPLER_LATE | 4;
    CHECK(ct_sim_inject(sim, 0, 0.0, pf, &err) == CT_OK);
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_EINTERNAL);
    ct_sim_free(sim);
    late_rig_free(&g);
}

/* Chains (CT_QUEUE_JOB_FIRST_CHAINS): a -> b, a -> c, b -> d on one
 * server, one job (a 1 s, b 2 s, c 4 s, d 8 s). Job-first runs the job's
 * ready tasks in readiness order: b and c as a ends, then d behind c (d
 * ends at 15 s, c at 7 s); with chains d, b's one successor and fed by b
 * alone, goes as b ends, as the model's contraction of b -> d takes it (d
 * at 11 s, c at 15 s). */
static void chains_run_through(void)
{
    ct_dag_t d;
    ct_error_t err;
    size_t a, b, c, e;
    ct_dag_init(&d);
    CHECK(ct_dag_add_task(&d, "a", 1, &a, &err) == CT_OK && ct_dag_add_task(&d, "b", 2, &b, &err) == CT_OK &&
          ct_dag_add_task(&d, "c", 4, &c, &err) == CT_OK && ct_dag_add_task(&d, "d", 8, &e, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&d, a, b, 0, &err) == CT_OK && ct_dag_add_edge(&d, a, c, 0, &err) == CT_OK &&
          ct_dag_add_edge(&d, b, e, 0, &err) == CT_OK);
    double rate = 1;
    ct_scenario_t s;
    scenario_of(&s, &d, &rate, 1, 1, 1e9);
    ct_sim_class_t *cls;
    size_t nc;
    CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
    ct_policy_t *pol;
    CHECK(ct_policy_random(&pol, &err) == CT_OK);
    for (int chains = 0; chains < 2; chains++) {
        ct_sim_config_t cfg = { 1,      1e9, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, pol, 1, 0,
                                chains ? CT_QUEUE_JOB_FIRST_CHAINS : CT_QUEUE_JOB_FIRST, CT_FAIR_RECENT, 0, 0 };
        ct_sim_t *sim;
        CHECK(ct_sim_alloc(&cfg, &sim, &err) == CT_OK);
        uint32_t at[4] = { 0, 0, 0, 0 };
        CHECK(ct_sim_inject(sim, 0, 0.0, at, &err) == CT_OK);
        CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
        ct_sim_result_t r;
        ct_sim_result_get(sim, &r);
        CHECK(r.jct[0].n == 1);
        CHECK_CLOSE(r.task_finish_sum[r.task_offset[0] + tix(&cls[0], "d")], chains ? 11.0 : 15.0, 1e-12);
        CHECK_CLOSE(r.task_finish_sum[r.task_offset[0] + tix(&cls[0], "c")], chains ? 15.0 : 7.0, 1e-12);
        CHECK_CLOSE(r.jct[0].mean, 15.0, 1e-12);
        ct_sim_free(sim);
    }
    ct_policy_free(pol);
    ct_sim_classes_free(cls, nc);
    ct_scenario_destroy(&s);
    ct_dag_destroy(&d);
}

/* A late part binds after its job's tasks that become ready at the same
 * moment on bound servers are queued, so it never takes the server of
 * its job's next task for idle: fig1 with free edges on 2 servers, det on
 * slot 0 (the first successor of sum), det_sparse and the rest on server
 * 0; as sum ends, det_sparse joins server 0's queue first and det binds
 * to server 1 (before, the two looked equally idle and det waited behind
 * det_sparse in about half of the jobs: JCT 22 s instead of 12 s). The
 * same at arrival: two roots without inputs, b late, a on server 0. One
 * job at a time, 100 of each. */
static void late_binding_order(void)
{
    late_rig_t g;
    fig1(&g.d[0], 1, 10, 0, 0, 0);
    ct_error_t err;
    size_t a, b, c;
    ct_dag_init(&g.d[1]);
    CHECK(ct_dag_add_task(&g.d[1], "a", 10, &a, &err) == CT_OK);
    CHECK(ct_dag_add_task(&g.d[1], "b", 10, &b, &err) == CT_OK);
    CHECK(ct_dag_add_task(&g.d[1], "c", 1, &c, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&g.d[1], a, c, 0, &err) == CT_OK);
    CHECK(ct_dag_add_edge(&g.d[1], b, c, 0, &err) == CT_OK);
    late_rig(&g, 2);
    ct_sim_t *sim;
    CHECK(ct_sim_alloc(&g.cfg, &sim, &err) == CT_OK);
    uint32_t pf[4] = { 0, 0, 0, 0 }, pa[3] = { 0, 0, 0 };
    pf[tix(&g.cls[0], "det")] = CT_SAMPLER_LATE | 0;
    pa[tix(&g.cls[1], "b")] = CT_SAMPLER_LATE | 0;
    for (int i = 0; i < 100; i++) {
        CHECK(ct_sim_inject(sim, 0, 100.0 * i, pf, &err) == CT_OK);
        CHECK(ct_sim_inject(sim, 1, 100.0 * i + 50, pa, &err) == CT_OK);
    }
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
    ct_sim_result_t r;
    ct_sim_result_get(sim, &r);
    CHECK(r.jct[0].n == 100 && r.jct[1].n == 100);
    CHECK_CLOSE(r.jct[0].mean, 12.0, 1e-9);
    CHECK_CLOSE(r.jct[1].mean, 11.0, 1e-9);
    CHECK_CLOSE(r.task_wait_sum[r.task_offset[0] + tix(&g.cls[0], "det")], 0.0, 1e-9);
    CHECK_CLOSE(r.task_wait_sum[r.task_offset[1] + tix(&g.cls[1], "b")], 0.0, 1e-9);
    ct_sim_free(sim);
    late_rig_free(&g);
}

/* The binding-rule tests' pair: job 0 of four tasks (names, times and
 * four edges from -> to with bytes), job 1 one late task of 10 s. */
typedef struct {
    const char *name[4];
    double time[4];
    int from[4], to[4];
    double bytes[4];
} late_pair_t;

static void late_pair_dags(late_rig_t *g, const late_pair_t *p)
{
    ct_error_t err;
    size_t id[4], h;
    ct_dag_init(&g->d[0]);
    for (int t = 0; t < 4; t++)
        CHECK(ct_dag_add_task(&g->d[0], p->name[t], p->time[t], &id[t], &err) == CT_OK);
    for (int k = 0; k < 4; k++)
        CHECK(ct_dag_add_edge(&g->d[0], id[p->from[k]], id[p->to[k]], p->bytes[k], &err) == CT_OK);
    ct_dag_init(&g->d[1]);
    CHECK(ct_dag_add_task(&g->d[1], "h", 10, &h, &err) == CT_OK);
}

/* Runs 100 pairs, job 0 at 100 i placed by p0, job 1 at 100 i + 3 late;
 * want0 > 0: job 0 takes want0 s and job 1 want1 s exactly, every pair;
 * else job 0 waits behind job 1 in about half of them (7 or 14 s). */
static void late_pair_check(late_rig_t *g, const uint32_t *p0, double want0, double want1)
{
    ct_error_t err;
    ct_sim_t *sim;
    CHECK(ct_sim_alloc(&g->cfg, &sim, &err) == CT_OK);
    uint32_t p1 = CT_SAMPLER_LATE | 0;
    for (int i = 0; i < 100; i++) {
        CHECK(ct_sim_inject(sim, 0, 100.0 * i, p0, &err) == CT_OK);
        CHECK(ct_sim_inject(sim, 1, 100.0 * i + 3, &p1, &err) == CT_OK);
    }
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
    ct_sim_result_t r;
    ct_sim_result_get(sim, &r);
    CHECK(r.jct[0].n == 100 && r.jct[1].n == 100);
    if (want0 > 0) {
        CHECK_MSG(fabs(r.jct[0].mean - want0) < 1e-9 && fabs(r.jct[0].max - want0) < 1e-9,
                  "pair, rtt %g: job 0's JCT mean %g max %g, want %g", g->cfg.rtt, r.jct[0].mean, r.jct[0].max, want0);
        CHECK_CLOSE(r.jct[1].mean, want1, 1e-9);
    } else {
        CHECK(r.jct[0].mean > 8.0 && r.jct[0].mean < 13.0);
    }
    ct_sim_free(sim);
}

/* A late part binds when one of its tasks has every input sent
 * (late_bind_ready), not at its first input, so it does not hold an idle
 * server between its inputs. Two servers; job 0: s (1 s) and a (4 s) on
 * server 0, b (1 s) on server 1, d late, fed by a and b (1 byte each, the
 * link 1 byte/s); job 1 at t = 3: one late task h of 10 s. b ends at 2,
 * a at 5. Bound when ready: h sees server 1 idle at 3 and takes it; d
 * binds at 5 to server 0 and b's held input crosses the link then (5-6):
 * JCT 7 s. At the first input, d reserves server 1 at 2, h ties it with
 * server 0 and half the time lands on it, and d waits for h: JCT 7 or
 * 14 s. */
static void late_binding_ready(void)
{
    static const late_pair_t p = { { "s", "a", "b", "d" }, { 1, 4, 1, 1 }, { 0, 0, 1, 2 }, { 1, 2, 3, 3 },
                                   { 0, 0, 1, 1 } };
    for (int ready = 1; ready >= 0; ready--) {
        late_rig_t g;
        late_pair_dags(&g, &p);
        late_rig(&g, 2);
        g.pol->late_bind_ready = ready;
        uint32_t p0[4] = { 0, 0, 0, 0 };
        p0[tix(&g.cls[0], "b")] = 1;
        p0[tix(&g.cls[0], "d")] = CT_SAMPLER_LATE | 0;
        late_pair_check(&g, p0, ready ? 7 : -1, ready ? 10 : -1);
        late_rig_free(&g);
    }
}

/* A late part with tasks still to come keeps its idle server counted busy
 * (late_hold), so the d rule leaves the server to it. Three servers; job
 * 0: s (1 s) and a (5 s) on server 0, the late part {x (1 s), y (1 s)},
 * x fed by s, y by x and a (no bytes); job 1 at t = 3: h. x binds at 1
 * and ends at 2; y waits for a until 6. Held, x's server counts one task
 * from 2 to 6 and h takes the third server: JCT 7 s. Not held, h sees two
 * idle servers and half the time takes x's, and y waits for it: JCT 7 or
 * 14 s. */
static void late_binding_hold(void)
{
    static const late_pair_t p = { { "s", "a", "x", "y" }, { 1, 5, 1, 1 }, { 0, 0, 2, 1 }, { 1, 2, 3, 3 },
                                   { 0, 0, 0, 0 } };
    for (int hold = 1; hold >= 0; hold--) {
        late_rig_t g;
        late_pair_dags(&g, &p);
        late_rig(&g, 3);
        g.pol->late_bind_ready = 1;
        g.pol->late_hold = hold;
        uint32_t p0[4] = { 0, 0, 0, 0 };
        p0[tix(&g.cls[0], "x")] = CT_SAMPLER_LATE | 0;
        p0[tix(&g.cls[0], "y")] = CT_SAMPLER_LATE | 0;
        late_pair_check(&g, p0, hold ? 7 : -1, hold ? 10 : -1);
        late_rig_free(&g);
    }
}

/* Probes (late_probes): a part leaves reservations on d servers and the
 * first that frees takes it. Two servers; h (10 s) at 100 i, then two
 * one-task jobs a at 100 i + 0.5 and + 1. The first a finds the other
 * server idle (0.5-1.5); the second finds both busy, and the server that
 * frees first takes it at 1.5: JCTs 1 and 1.5 s, mean 1.25 exactly. The
 * least loaded of d sees two servers of one task each and half the time
 * waits behind h (mean about 3.4 s). */
static void late_binding_probes(void)
{
    for (int probes = 1; probes >= 0; probes--) {
        late_rig_t g;
        ct_error_t err;
        size_t t;
        ct_dag_init(&g.d[0]);
        CHECK(ct_dag_add_task(&g.d[0], "a", 1, &t, &err) == CT_OK);
        ct_dag_init(&g.d[1]);
        CHECK(ct_dag_add_task(&g.d[1], "h", 10, &t, &err) == CT_OK);
        late_rig(&g, 2);
        ct_policy_set_late_bind(g.pol, probes ? CT_LATE_BIND_PROBES : CT_LATE_BIND_READY_HOLD);
        ct_sim_t *sim;
        CHECK(ct_sim_alloc(&g.cfg, &sim, &err) == CT_OK);
        uint32_t late = CT_SAMPLER_LATE | 0;
        for (int i = 0; i < 100; i++) {
            CHECK(ct_sim_inject(sim, 1, 100.0 * i, &late, &err) == CT_OK);
            CHECK(ct_sim_inject(sim, 0, 100.0 * i + 0.5, &late, &err) == CT_OK);
            CHECK(ct_sim_inject(sim, 0, 100.0 * i + 1, &late, &err) == CT_OK);
        }
        CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
        ct_sim_result_t r;
        ct_sim_result_get(sim, &r);
        CHECK(r.jct[0].n == 200 && r.jct[1].n == 100);
        CHECK_CLOSE(r.jct[1].mean, 10.0, 1e-9);
        if (probes)
            CHECK_CLOSE(r.jct[0].mean, 1.25, 1e-9);
        else
            CHECK_MSG(r.jct[0].mean > 2.0, "least loaded of d: mean %g s", r.jct[0].mean);
        ct_sim_free(sim);
        late_rig_free(&g);
    }
}

/* With probes a server whose part waits for a later task asks last: a
 * reservation goes to another idle server first. Three servers; job 0: s
 * (1 s), then parts {x (1 s), y (1 s)} and {b (5 s)}, y fed by x and b (no
 * bytes); job 1 at t = 3: h (10 s). At 3 x's server waits for b (until 6)
 * and s's server is idle: h takes the idle one and y runs at 6, JCT 7 s
 * exactly. Asked in draw order, h took x's server half the time and y
 * waited for it (14 s). */
static void late_probes_ask_last(void)
{
    static const late_pair_t p = { { "s", "x", "b", "y" }, { 1, 1, 5, 1 }, { 0, 0, 1, 2 }, { 1, 2, 3, 3 },
                                   { 0, 0, 0, 0 } };
    late_rig_t g;
    late_pair_dags(&g, &p);
    late_rig(&g, 3);
    ct_policy_set_late_bind(g.pol, CT_LATE_BIND_PROBES);
    uint32_t p0[4] = { 0, 0, 0, 0 };
    p0[tix(&g.cls[0], "x")] = CT_SAMPLER_LATE | 0;
    p0[tix(&g.cls[0], "y")] = CT_SAMPLER_LATE | 0;
    p0[tix(&g.cls[0], "b")] = CT_SAMPLER_LATE | 1;
    late_pair_check(&g, p0, 7, 10);
    /* With a round trip R the waiting server answers h's reservation a
     * round trip late: the root's part starts at 2 R (probe, request), x
     * and b at 1 + 4 R, h at 3 + 2 R on s's server, y at 6 + 4 R: 7 + 4 R
     * and 10 + 2 R exactly. Asking as fast as the others, x's server took
     * h in about half of the pairs (y at 13 + 2 R). */
    const double R = 0.01;
    g.cfg.rtt = R;
    late_pair_check(&g, p0, 7 + 4 * R, 10 + 2 * R);
    late_rig_free(&g);
}

/* With probes a part's task that is ready as the part's last task ends
 * runs next, ahead of the queue: a part is one unit of work on its server.
 * One server, FIFO queues; job p: r (1 s) then m (1 s), one part (the
 * root's), at 100 i; job q (1 s) at 100 i + 0.5 reserves the server
 * while r runs. m runs at 1 (p: 2 s), q after it (2.5 s); q's reservation
 * taking the server between r and m would give 3 s and 1.5 s. */
static void late_probes_continue(void)
{
    late_rig_t g;
    ct_error_t err;
    chain_rig(&g, "m", "q", 1, 1);
    g.cfg.server_queue = CT_QUEUE_FIFO;
    ct_policy_set_late_bind(g.pol, CT_LATE_BIND_PROBES);
    ct_sim_t *sim;
    CHECK(ct_sim_alloc(&g.cfg, &sim, &err) == CT_OK);
    uint32_t pp[2] = { 0, 0 }, pq = 0;
    for (int i = 0; i < 100; i++) {
        CHECK(ct_sim_inject(sim, 0, 100.0 * i, pp, &err) == CT_OK);
        CHECK(ct_sim_inject(sim, 1, 100.0 * i + 0.5, &pq, &err) == CT_OK);
    }
    CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
    ct_sim_result_t r;
    ct_sim_result_get(sim, &r);
    CHECK(r.jct[0].n == 100 && r.jct[1].n == 100);
    CHECK_CLOSE(r.jct[0].mean, 2.0, 1e-9);
    CHECK_CLOSE(r.jct[1].mean, 2.5, 1e-9);
    ct_sim_free(sim);
    late_rig_free(&g);
}

/* The loads a policy sees (least loaded of d reads them) follow the
 * tasks: a job of three 1 ms tasks on one uniform server; at 0.5 jobs/s
 * an arrival almost never meets another job (P about 0.3%), so the loads
 * it sees sum to 0 (a simulator that never decremented them would show
 * every earlier task); at 500 jobs/s on 4 servers they average between
 * the tasks' running time and their sojourn by Little's law (1.5 .. 8). */
typedef struct {
    size_t calls, nonzero;
    double sum;
} load_seen_t;

/* Round trips (ct_sim_config_t.rtt = R): one job at a time, a chain r
 * (1 s) -> b (1 s) without bytes on three servers, so JCT = 2 s plus what
 * the policy waits for: a stateless placement nothing, a sampled root (the
 * d queue lengths) R, a late part bound to the least loaded of d R, fair
 * one launch a task (2 R), Sparrow and probes a probe and a request a
 * task or part (4 R); a late part on a uniform server (d = 1) nothing.
 * Each is exact; with R = 0 all take 2 s. */
static void round_trips(void)
{
    const double R = 0.25;
    late_rig_t g;
    ct_error_t err;
    chain_rig(&g, "b", "h", 10, 3);
    static const char *const what[] = { "stateless", "sampled root", "late part, least loaded", "late part, probes",
                                        "fair", "sparrow", "late part, uniform" };
    static const double trips[] = { 0, 1, 1, 4, 2, 4, 0 };
    for (int k = 0; k < 7; k++) {
        for (int on = 0; on < 2; on++) {
            ct_policy_t *pol = g.pol;
            if (k == 4)
                CHECK(ct_policy_fair(&pol, &err) == CT_OK);
            else if (k == 5)
                CHECK(ct_policy_sparrow(2, &pol, &err) == CT_OK);
            g.pol->root_sampled = k == 1;
            g.pol->late_choices = k == 6 ? 1 : 64;
            ct_policy_set_late_bind(g.pol, k == 3 ? CT_LATE_BIND_PROBES : CT_LATE_BIND_READY_HOLD);
            ct_sim_config_t cfg = g.cfg;
            cfg.policy = pol;
            cfg.rtt = on ? R : 0;
            ct_sim_t *sim;
            CHECK(ct_sim_alloc(&cfg, &sim, &err) == CT_OK);
            uint32_t late[2] = { 0, CT_SAMPLER_LATE | 0 };
            for (int i = 0; i < 20; i++)
                CHECK(ct_sim_inject(sim, 0, 100.0 * i, k == 2 || k == 3 || k == 6 ? late : NULL, &err) == CT_OK);
            CHECK(ct_sim_run(sim, INFINITY, &err) == CT_OK);
            ct_sim_result_t res;
            ct_sim_result_get(sim, &res);
            double want = 2 + (on ? trips[k] * R : 0);
            CHECK(res.jct[0].n == 20);
            CHECK_MSG(fabs(res.jct[0].mean - want) < 1e-9 && fabs(res.jct[0].max - want) < 1e-9,
                      "round trips, %s, rtt %g: mean JCT %g s, max %g, want %g", what[k], cfg.rtt, res.jct[0].mean,
                      res.jct[0].max, want);
            ct_sim_free(sim);
            if (pol != g.pol)
                ct_policy_free(pol);
        }
    }
    late_rig_free(&g);
}

static int place_recording(ct_policy_t *self, size_t cls, size_t n_tasks, uint32_t n_servers, const uint32_t *loads,
                           ct_rng_t *rng, uint32_t *servers)
{
    (void)cls;
    load_seen_t *ls = self->state;
    uint64_t total = 0;
    for (uint32_t v = 0; v < n_servers; v++)
        total += loads[v];
    ls->calls++;
    ls->nonzero += total > 0;
    ls->sum += (double)total;
    uint32_t v = (uint32_t)(ct_rng_next(rng) % n_servers);
    for (size_t t = 0; t < n_tasks; t++)
        servers[t] = v;
    return 0;
}

static void load_tracking(void)
{
    ct_error_t err;
    ct_dag_t d;
    dag_abc(&d, 1e-3, 0, 1);
    static const double rates[2] = { 0.5, 500 };
    for (int k = 0; k < 2; k++) {
        double rate = rates[k];
        ct_scenario_t s;
        scenario_of(&s, &d, &rate, 1, 4, 1e9);
        ct_sim_class_t *cls;
        size_t nc;
        CHECK(ct_sim_classes_build(&s, 1.0, &cls, &nc, &err) == CT_OK);
        load_seen_t ls = { 0, 0, 0 };
        ct_policy_t pol = { .name = "recording", .kind = CT_POLICY_PLACE, .place = place_recording, .state = &ls };
        ct_sim_config_t cfg = { 4, 1e9, CT_LINK_FIFO, cls, nc, 0, 0, 0, 0, &pol, 11, 0, CT_QUEUE_FIFO, CT_FAIR_RECENT, 0, 0 };
        ct_sim_summary_t sum;
        replicate(&cfg, 1, 20000, &sum);
        CHECK(ls.calls > 20000);
        double mean = ls.calls ? ls.sum / (double)ls.calls : 0;
        if (k == 0)
            CHECK_MSG(ls.nonzero < ls.calls / 50, "%zu of %zu arrivals saw busy servers at 0.5 jobs/s", ls.nonzero,
                      ls.calls);
        else
            CHECK_MSG(mean > 1.5 && mean < 8, "mean load seen %.3g at 500 jobs/s", mean);
        ct_sim_summary_free(&sum);
        ct_sim_classes_free(cls, nc);
        ct_scenario_destroy(&s);
    }
    ct_dag_destroy(&d);
}

int main(void)
{
    event_order();
    two_servers_by_hand();
    pk_link(CT_LINK_FIFO);
    pk_link(CT_LINK_PS);
    pk_inference();
    pk_batches();
    queueing_theory();
    cobham();
    model_light_load();
    placement_rules();
    pooled_roots();
    delay_scheduling();
    sparrow();
    central_against_sampled();
    late_table();
    late_binding();
    late_binding_order();
    chains_run_through();
    late_binding_ready();
    late_binding_hold();
    late_binding_probes();
    late_probes_continue();
    late_probes_ask_last();
    round_trips();
    determinism_and_memory();
    load_tracking();
    return ct_test_end();
}
