/*
 * train.c - the training-cluster simulator: hand-worked timelines (a
 * one-server job that sends nothing; two jobs sharing a link under SRSF(2)
 * at the contention rate 1 / (k b + (k - 1) eta); AdaDUAL refusing and
 * admitting by Theorem 2), the ordering and placement rules, exclusive
 * GPUs, determinism, the compat switch's effect, the workload generator,
 * job files and errors.
 */
#define _DEFAULT_SOURCE
#include "ct_test.h"
#include "ct_train.h"

#include <unistd.h>

static void job(ct_train_jobs_t *js, size_t i, double arrival, uint32_t gpus, double iters, double size, double tf,
                double tb)
{
    ct_error_t err;
    char id[16];
    snprintf(id, sizeof id, "j%zu", i);
    ct_train_job_t *j = &js->jobs[i];
    j->id = ct_strdup(id, &err);
    j->model = ct_strdup("", &err);
    j->arrival = arrival;
    j->gpus = gpus;
    j->iterations = iters;
    j->size = size;
    j->tf = tf;
    j->tb = tb;
    j->mem = 1000;
}

static void jobs_alloc(ct_train_jobs_t *js, size_t n)
{
    js->n = n;
    js->jobs = calloc(n, sizeof(ct_train_job_t));
}

static void cluster(ct_train_cluster_t *c, size_t servers, uint32_t gpus)
{
    ct_train_cluster_init(c);
    c->n_servers = servers;
    c->gpus_per_server = gpus;
    c->b = 1;
    c->eta = 0.5;
}

static void timelines(void)
{
    ct_error_t err;
    ct_train_cluster_t c;
    ct_train_jobs_t js;
    ct_train_result_t r;
    ct_train_params_t p;
    /* One server, 4 GPUs: a 4-GPU job of 3 iterations of 10 + 20 ms sends
     * nothing: JCT 90 ms, no communication. */
    cluster(&c, 1, 4);
    jobs_alloc(&js, 1);
    job(&js, 0, 5, 4, 3, 100, 10, 20);
    CHECK(ct_train_run(&c, &js, NULL, &r, &err) == CT_OK);
    CHECK(r.jobs[0].start == 5 && r.jobs[0].end == 95 && r.jobs[0].jct == 90);
    CHECK(r.jobs[0].comm == 0 && r.jobs[0].servers == 1 && r.total_mb == 0);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);

    /* Two servers of 1 GPU (shared by memory); A and B (2 GPUs, 1
     * iteration of 10 + 10 ms, 100 MB) both span the servers. Each GPU runs
     * A's forward 0-10 and backward 10-20 (A first: equal work, lower
     * index), then B's 20-40. A's transfer runs alone from 20 at 1 MB/ms. */
    cluster(&c, 2, 1);
    jobs_alloc(&js, 2);
    job(&js, 0, 0, 2, 1, 100, 10, 10);
    job(&js, 1, 0, 2, 1, 100, 10, 10);
    /* AdaDUAL: at 40 A has 80 MB left; 100 / 80 is not below b / (2 (b +
     * eta)) = 1/3, so B waits until A ends at 120 and ends at 220. */
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[0].end, 120, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 220, 1e-9);
    CHECK_CLOSE(r.jobs[1].comm_wait, 80, 1e-9);
    CHECK_CLOSE(r.jobs[1].comm, 100, 1e-9);
    ct_train_result_free(&r);
    /* SRSF(2): B starts at 40; with k = 2 both run at 1 / (2 b + eta) = 0.4
     * MB/ms: A's 80 MB end at 240, then B's last 20 MB at 1 MB/ms: 260. */
    p.admit = CT_ADMIT_SRSF;
    p.srsf_n = 2;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[0].end, 240, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 260, 1e-9);
    ct_train_result_free(&r);
    /* SRSF(1) behaves as the refusal above. */
    p.srsf_n = 1;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[1].end, 220, 1e-9);
    ct_train_result_free(&r);
    /* AdaDUAL admits a small transfer: B of 10 MB, 10 / 80 < 1/3: both at
     * 0.4 MB/ms from 40, B ends at 65; A's 70 MB left run at 1 MB/ms: 135. */
    js.jobs[1].size = 10;
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[1].end, 65, 1e-9);
    CHECK_CLOSE(r.jobs[0].end, 135, 1e-9);
    CHECK(r.jobs[1].comm_wait == 0 && r.free_mb == 0);
    ct_train_result_free(&r);
    /* A latency a adds to each transfer. */
    c.a = 3;
    js.jobs[1].size = 100;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[0].end, 123, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 226, 1e-9);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);
}

static void rules(void)
{
    ct_error_t err;
    ct_train_cluster_t c;
    ct_train_jobs_t js;
    ct_train_result_t r;
    ct_train_params_t p;
    /* 2 servers x 2 GPUs. X (1 GPU, long) at 0, Y (1 GPU) at 1, Z (2 GPUs)
     * at 2. LWF-1: X on GPU 0, Y on the least loaded (GPU 1), Z on the
     * server with the least mean load (GPUs 2, 3). FF, shared: everything
     * from GPU 0. Exclusive FF: X 0, Y 1, Z 2 3. */
    cluster(&c, 2, 2);
    jobs_alloc(&js, 3);
    job(&js, 0, 0, 1, 100, 10, 10, 10);
    job(&js, 1, 1, 1, 50, 10, 10, 10);
    job(&js, 2, 2, 2, 50, 10, 10, 10);
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].gpus[0] == 0 && r.jobs[1].gpus[0] == 1);
    CHECK(r.jobs[2].gpus[0] / 2 == 1 && r.jobs[2].gpus[1] / 2 == 1 && r.jobs[2].servers == 1);
    ct_train_result_free(&r);
    p.place = CT_PLACE_FF;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].gpus[0] == 0 && r.jobs[1].gpus[0] == 0 && r.jobs[2].gpus[0] == 0 && r.jobs[2].gpus[1] == 1);
    ct_train_result_free(&r);
    c.mode = CT_GPU_EXCLUSIVE;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].gpus[0] == 0 && r.jobs[1].gpus[0] == 1 && r.jobs[2].gpus[0] == 2 && r.jobs[2].gpus[1] == 3);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);

    /* SRSF order: one exclusive GPU; a long job runs, a long and a short
     * one wait: the short one (arrived later) goes first. */
    cluster(&c, 1, 1);
    c.mode = CT_GPU_EXCLUSIVE;
    jobs_alloc(&js, 3);
    job(&js, 0, 0, 1, 10, 1, 5, 5);
    job(&js, 1, 1, 1, 10, 1, 5, 5);
    job(&js, 2, 2, 1, 2, 1, 5, 5);
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].end == 100 && r.jobs[2].start == 100 && r.jobs[2].end == 120 && r.jobs[1].start == 120);
    CHECK(r.jobs[1].end == 220 && r.makespan == 220);
    CHECK_CLOSE(r.mean_jct, (100.0 + 219 + 118) / 3, 1e-9);
    CHECK_CLOSE(r.utilization, 1.0, 1e-12);
    ct_train_result_free(&r);
    /* Shared GPU: tasks interleave by remaining work; the short job's
     * tasks win as soon as it is placed. */
    c.mode = CT_GPU_SHARED;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[2].start == 2 && r.jobs[2].end < r.jobs[0].end);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);
}

/* A custom policy: FIFO order, the highest-numbered fitting GPUs, every
 * all-reduce admitted at once. */
static double fifo_key(ct_train_policy_t *self, const ct_train_view_t *v, uint32_t job)
{
    (void)self;
    return ct_train_view_jobs(v)->jobs[job].arrival;
}

static int place_high(ct_train_policy_t *self, const ct_train_view_t *v, uint32_t job, uint32_t *gpus)
{
    const ct_train_cluster_t *c = ct_train_view_cluster(v);
    uint32_t need = ct_train_view_jobs(v)->jobs[job].gpus, got = 0;
    for (uint32_t g = (uint32_t)(c->n_servers * c->gpus_per_server); g-- > 0 && got < need;)
        if (ct_train_view_fits(v, g, job))
            gpus[got++] = g;
    ++*(int *)self->state;
    return got == need;
}

static int admit_all(ct_train_policy_t *self, const ct_train_view_t *v, uint32_t job)
{
    (void)self;
    uint32_t n;
    const uint32_t *srv = ct_train_view_job_servers(v, job, &n);
    return srv && n > 1 && ct_train_view_transfer_left(v, job) == 0;
}

static int place_twice(ct_train_policy_t *self, const ct_train_view_t *v, uint32_t job, uint32_t *gpus)
{
    (void)self;
    for (uint32_t k = 0; k < ct_train_view_jobs(v)->jobs[job].gpus; k++)
        gpus[k] = 0;
    return 1;
}

static void custom_policy(void)
{
    ct_error_t err;
    ct_train_cluster_t c;
    ct_train_jobs_t js;
    ct_train_result_t r;
    ct_train_params_t p;
    int calls = 0;
    ct_train_policy_t pol = { fifo_key, place_high, admit_all, &calls };
    ct_train_params_init(&p);
    p.policy = &pol;
    /* The link case of timelines(): admitted at once, as SRSF(2): 240, 260. */
    cluster(&c, 2, 1);
    jobs_alloc(&js, 2);
    job(&js, 0, 0, 2, 1, 100, 10, 10);
    job(&js, 1, 0, 2, 1, 100, 10, 10);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK_CLOSE(r.jobs[0].end, 240, 1e-9);
    CHECK_CLOSE(r.jobs[1].end, 260, 1e-9);
    CHECK(calls == 2);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);
    /* FIFO: the short job no longer jumps the queue; the highest GPU. */
    cluster(&c, 2, 1);
    c.mode = CT_GPU_EXCLUSIVE;
    jobs_alloc(&js, 3);
    job(&js, 0, 0, 1, 10, 1, 5, 5);
    job(&js, 1, 1, 1, 10, 1, 5, 5);
    job(&js, 2, 2, 1, 2, 1, 5, 5);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].gpus[0] == 1 && r.jobs[1].gpus[0] == 0 && r.jobs[2].start == 100 && r.jobs[2].gpus[0] == 1);
    ct_train_result_free(&r);
    /* A placement that breaks the rules is an error, not a crash. */
    ct_train_policy_t bad = { NULL, place_twice, NULL, NULL };
    p.policy = &bad;
    js.jobs[0].gpus = 2;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "custom placement: job 'j0'");
    ct_train_jobs_free(&js);
}

/* Compat's bookkeeping, hand-worked: a job on one server is seen finished
 * one 1 ms step after its last backward pass (the authors sync it after
 * their finished-job check), and of two jobs seen finished in the same
 * step, the one placed right after the other is released a step later
 * (their check removes from the list it walks). One GPU per server, room
 * for one job per GPU. */
static void compat_release(void)
{
    ct_error_t err;
    ct_train_cluster_t c;
    ct_train_jobs_t js;
    ct_train_result_t r;
    ct_train_params_t p;
    cluster(&c, 2, 1);
    c.gpu_mem = 1500;
    jobs_alloc(&js, 4);
    job(&js, 0, 0, 1, 1, 100, 10, 10); /* A on GPU 0: 0-20 */
    job(&js, 1, 0, 1, 1, 100, 10, 10); /* B on GPU 1: 0-20 */
    job(&js, 2, 5, 1, 1, 100, 10, 10); /* C and D wait for a GPU */
    job(&js, 3, 5, 1, 1, 100, 10, 10);
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].end == 20 && r.jobs[1].end == 20 && r.jobs[2].start == 20 && r.jobs[3].start == 20);
    ct_train_result_free(&r);
    p.compat = 1;
    CHECK(ct_train_run(&c, &js, &p, &r, &err) == CT_OK);
    CHECK(r.jobs[0].end == 20 && r.jobs[1].end == 20); /* JCTs count to the last pass */
    CHECK_MSG(r.jobs[2].start == 21 && r.jobs[3].start == 22, "C at %g, D at %g", r.jobs[2].start, r.jobs[3].start);
    CHECK(r.jobs[2].end == 41 && r.jobs[3].end == 42);
    ct_train_result_free(&r);
    ct_train_jobs_free(&js);
}

static void workload_and_policies(void)
{
    ct_error_t err;
    ct_train_cluster_t c;
    ct_train_jobs_t js, js2;
    ct_train_result_t a, b;
    ct_train_params_t p;
    ct_train_cluster_init(&c);
    CHECK(ct_train_workload(3, 100, &js, &err) == CT_OK);
    size_t count[33] = { 0 };
    int ok = 1;
    for (size_t i = 0; i < js.n; i++) {
        count[js.jobs[i].gpus]++;
        ok &= js.jobs[i].iterations >= 10 && js.jobs[i].iterations <= 60 && js.jobs[i].arrival < 12000;
    }
    CHECK(js.n == 160 && ok);
    CHECK(count[1] == 80 && count[2] == 14 && count[4] == 26 && count[8] == 30 && count[16] == 8 && count[32] == 2);
    /* Deterministic for a seed; RAND's seed matters. */
    ct_train_params_init(&p);
    p.place = CT_PLACE_RAND;
    CHECK(ct_train_run(&c, &js, &p, &a, &err) == CT_OK);
    CHECK(ct_train_run(&c, &js, &p, &b, &err) == CT_OK);
    CHECK(a.mean_jct == b.mean_jct && a.makespan == b.makespan);
    ct_train_result_free(&b);
    p.seed = 2;
    CHECK(ct_train_run(&c, &js, &p, &b, &err) == CT_OK);
    CHECK(a.mean_jct != b.mean_jct);
    ct_train_result_free(&a);
    ct_train_result_free(&b);
    /* Compat credits free progress to AdaDUAL's queried transfers, so jobs
     * finish sooner; under SRSF(n) nothing is queried. */
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &a, &err) == CT_OK);
    p.compat = 1;
    CHECK(ct_train_run(&c, &js, &p, &b, &err) == CT_OK);
    CHECK(a.free_mb == 0 && b.free_mb > 0.2 * b.total_mb && b.mean_jct < a.mean_jct);
    ct_train_result_free(&a);
    ct_train_result_free(&b);
    p.admit = CT_ADMIT_SRSF;
    CHECK(ct_train_run(&c, &js, &p, &b, &err) == CT_OK);
    CHECK(b.free_mb == 0);
    ct_train_result_free(&b);
    /* Every job ran on its GPU count; JCT = end - arrival >= its compute. */
    ct_train_params_init(&p);
    CHECK(ct_train_run(&c, &js, &p, &a, &err) == CT_OK);
    ok = 1;
    for (size_t i = 0; i < js.n; i++) {
        const ct_train_job_t *j = &js.jobs[i];
        ok &= a.jobs[i].jct >= j->iterations * (j->tf + j->tb) - 1e-9 && a.jobs[i].start >= j->arrival;
    }
    CHECK(ok && a.utilization > 0 && a.utilization <= 1);
    ct_train_result_free(&a);

    /* Files: JSON round trip; the authors' CSV; errors. */
    char dir[] = "/tmp/ct-train-XXXXXX", jp[64], csv[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(jp, sizeof jp, "%s/j.json", dir);
    snprintf(csv, sizeof csv, "%s/j.csv", dir);
    CHECK(ct_train_jobs_write(&js, jp, &err) == CT_OK);
    CHECK(ct_train_jobs_load(&js2, jp, &err) == CT_OK);
    CHECK(js2.n == 160 && js2.jobs[7].iterations == js.jobs[7].iterations && !strcmp(js2.jobs[7].model, js.jobs[7].model));
    ct_train_jobs_free(&js2);
    ct_test_write(csv, "job_id,dnn,nworkers,iters,start_time,model_size,fw_time,bw_time,train_mem,batch_size\n"
               "0,resnet50,2,46,5004,99.2,25,37,3213,16\r\n1,vgg16,1,26,8643,526.4,36,54,4527,16\n");
    CHECK(ct_train_jobs_load(&js2, csv, &err) == CT_OK);
    CHECK(js2.n == 2 && js2.jobs[0].gpus == 2 && js2.jobs[1].arrival == 8643 && js2.jobs[0].mem == 3213);
    ct_train_jobs_free(&js2);
    ct_test_write(csv, "job_id,dnn,nworkers,iters,start_time,model_size,fw_time,bw_time,train_mem\n0,x,0,4,0,1,1,1,1\n");
    CHECK(ct_train_jobs_load(&js2, csv, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "j.csv:2: nworkers: expected a whole number >= 1");
    ct_test_write(csv, "job_id,dnn,nworkers,iters,start_time,model_size,fw_time,bw_time,train_mem\n0,x,1,4,0,1,1,1,1\n"
               "0,x,1,4,0,1,1,1,1\n");
    CHECK(ct_train_jobs_load(&js2, csv, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "duplicate job id '0'");
    remove(jp);
    remove(csv);
    rmdir(dir);
    /* A job that can never fit. */
    js.jobs[3].gpus = 65;
    CHECK(ct_train_run(&c, &js, NULL, &a, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "needs 65 GPUs, the cluster has 64");
    js.jobs[3].gpus = 1;
    js.jobs[3].mem = 40000;
    CHECK(ct_train_run(&c, &js, NULL, &a, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "needs 40000 MB per GPU");
    ct_train_jobs_free(&js);
}

/* The placement rounds' rank queue against the walk over the whole queue
 * (ct_train_params_t.walk): a generated trace whose queue grows (load 3),
 * every placement and admission, shared and exclusive GPUs, job by job.
 * Also the generator: deterministic, its size shares and offered load. */
static void fast_rounds(void)
{
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    c.n_servers = 4; /* 16 GPUs: 16-GPU jobs take the whole cluster */
    ct_train_jobs_t js, js2;
    ct_error_t err;
    CHECK(ct_train_workload_trace(3, 400, &c, 3.0, &js, &err) == CT_OK);
    CHECK(ct_train_workload_trace(3, 400, &c, 3.0, &js2, &err) == CT_OK);
    size_t same = 0, ones = 0;
    double work = 0;
    for (size_t i = 0; i < js.n; i++) {
        same += js.jobs[i].arrival == js2.jobs[i].arrival && js.jobs[i].iterations == js2.jobs[i].iterations &&
                js.jobs[i].gpus == js2.jobs[i].gpus;
        ones += js.jobs[i].gpus == 1;
        work += js.jobs[i].iterations * (js.jobs[i].tf + js.jobs[i].tb + (js.jobs[i].gpus > 4 ? js.jobs[i].size * c.b : 0)) *
                js.jobs[i].gpus;
        if (i)
            CHECK(js.jobs[i].arrival >= js.jobs[i - 1].arrival);
    }
    CHECK(same == js.n);
    CHECK(ones > 240 && ones < 320); /* 0.70 of 400 */
    double offered = work / (16.0 * js.jobs[js.n - 1].arrival);
    CHECK(offered > 2.6 && offered < 3.5); /* the last arrival ends the Poisson window, about */
    ct_train_jobs_free(&js2);
    CHECK(ct_train_workload_trace(3, 0, &c, 1.0, &js2, &err) == CT_EINPUT);
    CHECK(ct_train_workload_trace(3, 10, &c, -1.0, &js2, &err) == CT_EINPUT);
    size_t runs = 0, differ = 0;
    for (int mode = 0; mode < 2; mode++)
        for (int pl = 0; pl < 4; pl++)
            for (int ad = 0; ad < 2; ad++) {
                c.mode = mode ? CT_GPU_EXCLUSIVE : CT_GPU_SHARED;
                ct_train_params_t p;
                ct_train_params_init(&p);
                p.place = (ct_place_t)pl;
                p.admit = (ct_admit_t)ad;
                ct_train_result_t fast, walk;
                CHECK(ct_train_run(&c, &js, &p, &fast, &err) == CT_OK);
                p.walk = 1;
                CHECK(ct_train_run(&c, &js, &p, &walk, &err) == CT_OK);
                for (size_t i = 0; i < js.n; i++)
                    differ += fast.jobs[i].start != walk.jobs[i].start || fast.jobs[i].end != walk.jobs[i].end ||
                              fast.jobs[i].gpus[0] != walk.jobs[i].gpus[0];
                runs += fast.mean_queued > 0; /* jobs did wait: the queue was exercised */
                ct_train_result_free(&fast);
                ct_train_result_free(&walk);
            }
    CHECK(differ == 0);
    CHECK(runs == 16);
    ct_train_jobs_free(&js);
}

int main(void)
{
    fast_rounds();
    timelines();
    rules();
    custom_policy();
    compat_release();
    workload_and_policies();
    return ct_test_end();
}
