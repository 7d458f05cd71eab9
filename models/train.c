/*
 * train.c - the training-cluster simulator and the LWF-kappa, FF, LS, RAND
 * placements and AdaDUAL / SRSF(n) admissions (see ct_train.h).
 *
 * The loop: the next time is the earlier of the event queue (arrivals,
 * task ends, compat ticks) and the next transfer end (transfers progress at
 * rates constant between events, so their ends are computed, not stepped
 * to). At each time: transfers are advanced, ended transfers finish their
 * iteration, events are applied, then one scheduling round: placement (if
 * a job arrived or left), admission (if a job became ready or a transfer
 * ended), and dispatch on the GPUs whose ready tasks changed.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_train.h"
#include "ct_evq.h"
#include "ct_json.h"
#include "ct_rankq.h"
#include "ct_rar.h" /* ct_job_mix */
#include "ct_sampler.h" /* ct_rng_t */

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_train_cluster_init(ct_train_cluster_t *c)
{
    *c = (ct_train_cluster_t){ .n_servers = 16, .gpus_per_server = 4, .gpu_mem = 32768, .b = 0.856, .eta = 0.235,
                               .lwf_comm = 7.8125, .mode = CT_GPU_SHARED };
}

ct_status_t ct_train_cluster_validate(const ct_train_cluster_t *c, const char *label, ct_error_t *err)
{
    if (c->n_servers < 1 || c->n_servers > 1000000)
        return ct_error_set(err, CT_EINPUT, "%s: servers: expected 1 .. 1000000", label);
    if (c->gpus_per_server < 1 || c->gpus_per_server > 4096)
        return ct_error_set(err, CT_EINPUT, "%s: gpus_per_server: expected 1 .. 4096", label);
    if ((uint64_t)c->n_servers * c->gpus_per_server > CT_MAX_GPUS)
        return ct_error_set(err, CT_EINPUT, "%s: servers x gpus_per_server: %llu GPUs, more than the %u supported", label,
                            (unsigned long long)c->n_servers * c->gpus_per_server, CT_MAX_GPUS);
    if (!(c->gpu_mem > 0 && isfinite(c->gpu_mem)))
        return ct_error_set(err, CT_EINPUT, "%s: gpu_memory: must be positive (MB)", label);
    if (!(c->b > 0 && isfinite(c->b)))
        return ct_error_set(err, CT_EINPUT, "%s: b: must be positive (ms per MB)", label);
    if (!(c->a >= 0 && isfinite(c->a)) || !(c->eta >= 0 && isfinite(c->eta)) ||
        !(c->lwf_comm >= 0 && isfinite(c->lwf_comm)))
        return ct_error_set(err, CT_EINPUT, "%s: a, eta, lwf_comm: must be >= 0", label);
    return CT_OK;
}

ct_status_t ct_train_cluster_load(ct_train_cluster_t *c, const char *path, ct_error_t *err)
{
    cJSON *root;
    ct_train_cluster_init(c);
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    double servers = (double)c->n_servers, gps = c->gpus_per_server;
    const char *mode = "shared";
    if (!cJSON_IsObject(root))
        st = ct_error_set(err, CT_EINPUT, "%s: expected a JSON object", path);
    else if ((st = ct_json_get_number(root, "servers", 0, path, "", &servers, err)) != CT_OK ||
             (st = ct_json_get_number(root, "gpus_per_server", 0, path, "", &gps, err)) != CT_OK ||
             (st = ct_json_get_number(root, "gpu_memory", 0, path, "", &c->gpu_mem, err)) != CT_OK ||
             (st = ct_json_get_number(root, "a", 0, path, "", &c->a, err)) != CT_OK ||
             (st = ct_json_get_number(root, "b", 0, path, "", &c->b, err)) != CT_OK ||
             (st = ct_json_get_number(root, "eta", 0, path, "", &c->eta, err)) != CT_OK ||
             (st = ct_json_get_number(root, "lwf_comm", 0, path, "", &c->lwf_comm, err)) != CT_OK ||
             (st = ct_json_get_string(root, "gpu_mode", 0, path, "", &mode, err)) != CT_OK)
        ;
    else if (!(servers >= 1 && servers <= 1e6 && servers == floor(servers)) ||
             !(gps >= 1 && gps <= 4096 && gps == floor(gps)))
        st = ct_error_set(err, CT_EINPUT, "%s: servers, gpus_per_server: expected whole numbers >= 1", path);
    else if (strcmp(mode, "shared") && strcmp(mode, "exclusive"))
        st = ct_error_set(err, CT_EINPUT, "%s: gpu_mode: expected \"shared\" or \"exclusive\"", path);
    else {
        c->n_servers = (size_t)servers;
        c->gpus_per_server = (uint32_t)gps;
        c->mode = strcmp(mode, "shared") ? CT_GPU_EXCLUSIVE : CT_GPU_SHARED;
        st = ct_train_cluster_validate(c, path, err);
    }
    cJSON_Delete(root);
    return st;
}

ct_status_t ct_train_jobs_validate(const ct_train_jobs_t *js, const char *label, ct_error_t *err)
{
    if (js->n == 0)
        return ct_error_set(err, CT_EINPUT, "%s: jobs: no job", label);
    for (size_t i = 0; i < js->n; i++) {
        const ct_train_job_t *j = &js->jobs[i];
        if (!j->id || !j->id[0])
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].id: empty", label, i);
        if (j->gpus < 1)
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].gpus: at least one GPU", label, i);
        if (!(j->iterations >= 1 && j->iterations <= 1e12 && j->iterations == floor(j->iterations)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].iterations: expected a whole number >= 1", label, i);
        double v[5] = { j->arrival, j->size, j->tf, j->tb, j->mem };
        static const char *const f[5] = { "arrival", "size", "forward", "backward", "memory" };
        for (int k = 0; k < 5; k++)
            if (!(v[k] >= 0 && v[k] <= 1e12)) /* ms and MB: far past any trace, short of overflow */
                return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].%s: expected 0 .. 1e12", label, i, f[k]);
        if (!(j->tf + j->tb > 0))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu]: forward + backward must be positive", label, i);
    }
    size_t dup;
    ct_status_t st = ct_first_duplicate(js->jobs, sizeof js->jobs[0], offsetof(ct_train_job_t, id), js->n, &dup, err);
    if (st == CT_OK && dup < js->n)
        st = ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].id: duplicate job id '%s'", label, dup, js->jobs[dup].id);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Job files.                                                                */

/* The job file's fields: JSON names, then the CSV trace's columns (the
 * authors' simulator's; every column required there). */
#define F(json, csv, kind, json_req, absent, member) \
    { json, csv, kind, json_req, 1, absent, offsetof(ct_train_job_t, member) }
static const ct_field_t job_fields[] = {
    F("id", "job_id", CT_FIELD_TEXT, 1, 0, id),
    F("model", "dnn", CT_FIELD_TEXT, 0, 0, model),
    F("arrival", "start_time", CT_FIELD_NUMBER, 0, 0, arrival),
    F("gpus", "nworkers", CT_FIELD_COUNT, 1, 0, gpus),
    F("iterations", "iters", CT_FIELD_NUMBER, 1, 0, iterations),
    F("size", "model_size", CT_FIELD_NUMBER, 1, 0, size),
    F("forward", "fw_time", CT_FIELD_NUMBER, 1, 0, tf),
    F("backward", "bw_time", CT_FIELD_NUMBER, 1, 0, tb),
    F("memory", "train_mem", CT_FIELD_NUMBER, 1, 0, mem),
};
#undef F
enum { NF = sizeof job_fields / sizeof job_fields[0] };

void ct_train_jobs_free(ct_train_jobs_t *js)
{
    if (!js)
        return;
    ct_records_free(job_fields, NF, sizeof *js->jobs, js->jobs, js->n);
    memset(js, 0, sizeof *js);
}

ct_status_t ct_train_jobs_load(ct_train_jobs_t *js, const char *path, ct_error_t *err)
{
    memset(js, 0, sizeof *js);
    ct_status_t st = ct_records_load(path, "jobs", job_fields, NF, sizeof *js->jobs, (void **)&js->jobs, &js->n, err);
    if (st == CT_OK && (st = ct_train_jobs_validate(js, path, err)) != CT_OK)
        ct_train_jobs_free(js);
    return st;
}

ct_status_t ct_train_jobs_write(const ct_train_jobs_t *js, const char *path, ct_error_t *err)
{
    return ct_records_write(path, "jobs", job_fields, NF, sizeof *js->jobs, js->jobs, js->n, err);
}

/* The spec's V100 models: all-reduce MB, forward and backward ms, memory MB. */
static const struct {
    const char *name;
    double size, tf, tb, mem;
} paper_models[] = { { "vgg16", 526.4, 35.8, 53.7, 4527 },
                     { "resnet50", 99.2, 25.0, 37.4, 3213 },
                     { "inception-v3", 103.0, 34.9, 52.4, 3291 },
                     { "lstm-ptb", 251.8, 31.5, 47.3, 2751 } };

/* Job i of a generated trace: id, one of the paper's models, GPUs. */
static ct_status_t gen_job(ct_train_jobs_t *js, size_t i, unsigned pick, uint32_t gpus, ct_error_t *err)
{
    ct_train_job_t *j = &js->jobs[i];
    char id[32];
    snprintf(id, sizeof id, "%zu", i);
    js->n = i + 1;
    if (!(j->id = ct_strdup(id, err)) || !(j->model = ct_strdup(paper_models[pick].name, err)))
        return CT_ENOMEM;
    j->gpus = gpus;
    j->size = paper_models[pick].size;
    j->tf = paper_models[pick].tf;
    j->tb = paper_models[pick].tb;
    j->mem = paper_models[pick].mem;
    return CT_OK;
}

ct_status_t ct_train_workload(uint64_t seed, double scale, ct_train_jobs_t *js, ct_error_t *err)
{
    uint32_t mix[160];
    ct_job_mix(160, mix);
    if (!(scale > 0))
        scale = 1;
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    memset(js, 0, sizeof *js);
    if (!(js->jobs = calloc(160, sizeof(ct_train_job_t))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t i = 0; i < 160; i++) {
        ct_train_job_t *j = &js->jobs[i];
        if (gen_job(js, i, (unsigned)ct_rng_below(&rng, 4), mix[i], err) != CT_OK) {
            ct_train_jobs_free(js);
            return CT_ENOMEM;
        }
        j->iterations = fmax(1.0, floor((double)(1000 + ct_rng_below(&rng, 5001)) / scale));
        j->arrival = floor(1200000.0 / scale * ct_rng_uniform(&rng));
    }
    return CT_OK;
}

ct_status_t ct_train_workload_trace(uint64_t seed, size_t n, const ct_train_cluster_t *c, double load,
                                    ct_train_jobs_t *js, ct_error_t *err)
{
    static const uint32_t sizes[] = { 1, 2, 4, 8, 16 };
    static const double shares[] = { 0.70, 0.10, 0.10, 0.07, 0.03 };
    memset(js, 0, sizeof *js);
    if (n < 1 || n > CT_TRAIN_MAX_GEN_JOBS)
        return ct_error_set(err, CT_EINPUT, "jobs: expected 1 .. %u", (unsigned)CT_TRAIN_MAX_GEN_JOBS);
    if (!(load > 0 && load <= 1e6))
        return ct_error_set(err, CT_EINPUT, "load: expected a number in (0, 1e6]");
    size_t G = (size_t)c->n_servers * c->gpus_per_server;
    if (!(js->jobs = calloc(n, sizeof(ct_train_job_t))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    double work = 0, t = 0;
    for (size_t i = 0; i < n; i++) {
        double u = ct_rng_uniform(&rng), acc = 0;
        size_t k = 0;
        while (k + 1 < sizeof sizes / sizeof sizes[0] && u >= (acc += shares[k]))
            k++;
        uint32_t gpus = sizes[k] < G ? sizes[k] : (uint32_t)G;
        if (gen_job(js, i, (unsigned)ct_rng_below(&rng, 4), gpus, err) != CT_OK) {
            ct_train_jobs_free(js);
            return CT_ENOMEM;
        }
        ct_train_job_t *j = &js->jobs[i];
        /* log-normal iterations (Box-Muller), heavy-tailed like Philly's run times */
        double a = 1.0 - ct_rng_uniform(&rng), b = ct_rng_uniform(&rng);
        double z = sqrt(-2.0 * log(a)) * cos(6.283185307179586 * b);
        j->iterations = fmin(20000.0, fmax(1.0, round(20.0 * exp(1.2 * z))));
        /* a job over one server's GPUs all-reduces every iteration, uncontended */
        double comm = gpus > c->gpus_per_server ? c->a + j->size * c->b : 0;
        work += j->iterations * (j->tf + j->tb + comm) * j->gpus;
        j->arrival = t; /* unit-rate gaps, scaled below */
        t += -log(1.0 - ct_rng_uniform(&rng));
    }
    /* n unit-mean gaps span about n; the rate that offers `load` spreads
     * them over work / (load x G) ms. Whole ms, as the authors' traces. */
    double scale = work / (load * (double)G) / (double)n;
    for (size_t i = 0; i < n; i++)
        js->jobs[i].arrival = floor(js->jobs[i].arrival * scale);
    return CT_OK;
}

void ct_train_params_init(ct_train_params_t *p)
{
    *p = (ct_train_params_t){ .place = CT_PLACE_LWF, .kappa = 1, .admit = CT_ADMIT_ADADUAL, .srsf_n = 1, .seed = 1 };
}

static const char *const place_names[] = { "lwf", "ff", "ls", "rand" };
static const char *const admit_names[] = { "adadual", "srsf" };

CT_ENUM_NAMES(ct_place_t, ct_place_name, ct_place_parse, place_names)

CT_ENUM_NAMES(ct_admit_t, ct_admit_name, ct_admit_parse, admit_names)

void ct_train_result_free(ct_train_result_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->jobs && i < r->n; i++)
        free(r->jobs[i].gpus);
    free(r->jobs);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */
/* The simulator.                                                            */

enum { EV_ARRIVE = 1, EV_TASK, EV_TICK };
enum { PH_COMPUTE = 0, PH_READY, PH_COMM, PH_DONE };
/* worker phases within an iteration */
enum { W_FWD = 0, W_FWD_RUN, W_BWD, W_BWD_RUN, W_DONE };

typedef struct {
    int phase;
    uint32_t *srv, nsrv;        /* servers used (distinct) */
    unsigned char *wph;         /* per worker */
    uint32_t wdone;
    double iters;               /* iterations done */
    double rem;                 /* remaining GPU work: (tf + tb) x iterations left x GPUs (compat:
                                   less each task done, as the authors count it) */
    uint32_t seq;               /* placement order, 1-based (0: not placed) */
    double left, lat, rate;     /* transfer: MB left, latency left (ms), MB per ms */
    double rate_prev;           /* compat: the rate over the last 1 ms step (what the authors'
                                   AdaDUAL query credits) */
    double fin_tick;            /* compat: when the authors' loop sees the job finished */
    double t_mark;              /* when the current comm wait or transfer began */
} jst_t;

typedef struct {
    uint32_t job, worker;
} slot_t;

struct ct_train_view {
    const ct_train_cluster_t *c;
    const ct_train_jobs_t *jobs;
    const ct_train_params_t *p;
    ct_train_result_t *out;
    size_t N;                   /* GPUs */
    jst_t *js;
    /* per GPU */
    double *mem_used, *busy_time, *load;
    double *mk;                 /* compat: the authors' GPU "makespan", kept by the same float
                                   operations (+ a job's total at placement, - each task and
                                   all-reduce done): LWF's workload there */
    slot_t **on;                /* jobs on each GPU */
    uint32_t *non, *oncap;
    int64_t *running;           /* job running a task, -1 idle */
    uint32_t *run_worker;
    unsigned char *dirty;       /* GPU needs a dispatch */
    uint32_t *dirty_list;
    size_t ndirty;
    /* per server */
    uint32_t *tx;               /* transfers running on each server */
    /* lists */
    uint32_t *queue, nqueue;    /* queued jobs (unless fast) */
    int fast;                   /* the built-in placements and order: the queue is rq, whose
                                   ranks are fixed (a waiting job's remaining work is all of it) */
    ct_rankq_t rq;              /* fast: queued jobs by GPU count (bucket), SRSF rank, memory */
    uint32_t *bucket_gpus;      /* fast: bucket -> GPU count */
    double *jmem;               /* fast: job -> memory per GPU (rq's values; 0 when exclusive) */
    double *used_sorted;        /* fast: GPUs' memory used, ascending (the n-th decides whether
                                   n GPUs fit) */
    uint32_t *ready, nready;    /* jobs ready to all-reduce */
    uint32_t *active, nactive;  /* running transfers */
    uint32_t *scratch;          /* GPUs, for placement */
    uint32_t *srv_order;        /* compat: servers in the order LWF's last sort left them (the
                                   authors sort their node list in place, so ties keep it) */
    uint32_t nplaced;
    uint32_t *placed, nrunning; /* compat: placed jobs not yet released, in placement order */
    uint32_t npending;          /* compat: finished jobs whose GPUs are not yet released */
    double *key;
    ct_evq_t q;
    ct_rng_t rng;
    double t;
    size_t done;
    int place_dirty, admit_dirty, tick_pending;
    double tick_time;
};
typedef struct ct_train_view sim_t;

static void mark_dirty(sim_t *s, uint32_t g)
{
    if (!s->dirty[g]) {
        s->dirty[g] = 1;
        s->dirty_list[s->ndirty++] = g;
    }
}

static double job_rem(const ct_train_job_t *j, double iters_done)
{
    return (j->tf + j->tb) * (j->iterations - iters_done) * j->gpus;
}

/* SRSF order: remaining GPU work, then arrival, then index. */
static int srsf_before(const sim_t *s, uint32_t a, uint32_t b)
{
    ct_train_policy_t *pol = s->p->policy;
    double ka = s->js[a].rem, kb = s->js[b].rem;
    if (pol && pol->order_key) {
        ka = pol->order_key(pol, s, a);
        kb = pol->order_key(pol, s, b);
    }
    if (ka != kb)
        return ka < kb;
    if (s->p->compat && s->js[a].seq && s->js[b].seq) /* the authors' lists keep placement order */
        return s->js[a].seq < s->js[b].seq;
    const ct_train_job_t *ja = &s->jobs->jobs[a], *jb = &s->jobs->jobs[b];
    if (ja->arrival != jb->arrival)
        return ja->arrival < jb->arrival;
    return a < b;
}

static void sort_srsf(const sim_t *s, uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t k = i; k > 0 && srsf_before(s, v[k], v[k - 1]); k--) {
            uint32_t t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
}

static int fits(const sim_t *s, uint32_t g, const ct_train_job_t *j)
{
    if (s->c->mode == CT_GPU_EXCLUSIVE)
        return s->non[g] == 0;
    return s->mem_used[g] + j->mem <= s->c->gpu_mem * (1 + 1e-12);
}

/* LWF's per-GPU workload: remaining compute of its jobs, plus their
 * all-reduces for multi-server jobs. */
static void compute_loads(sim_t *s)
{
    if (s->p->compat) {
        memcpy(s->load, s->mk, s->N * sizeof(double));
        return;
    }
    for (size_t g = 0; g < s->N; g++) {
        double L = 0;
        for (uint32_t k = 0; k < s->non[g]; k++) {
            uint32_t jj = s->on[g][k].job;
            const ct_train_job_t *j = &s->jobs->jobs[jj];
            double left = j->iterations - s->js[jj].iters;
            L += (j->tf + j->tb) * left;
            if (s->js[jj].nsrv > 1)
                L += left * j->size * s->c->lwf_comm;
        }
        s->load[g] = L;
    }
}

/* Sorts GPU ids by (load, id). */
static void sort_by_load(const sim_t *s, uint32_t *g, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0; k--) {
            uint32_t x = g[k], y = g[k - 1];
            if (s->load[x] < s->load[y] || (s->load[x] == s->load[y] && x < y)) {
                g[k] = y;
                g[k - 1] = x;
            } else
                break;
        }
}

/* Chooses GPUs for job jj into out; 1 on success. */
static int choose(sim_t *s, uint32_t jj, uint32_t *out)
{
    const ct_train_job_t *j = &s->jobs->jobs[jj];
    uint32_t n = j->gpus, G = s->c->gpus_per_server;
    size_t m = 0;
    for (size_t g = 0; g < s->N; g++)
        if (fits(s, (uint32_t)g, j))
            s->scratch[m++] = (uint32_t)g;
    if (m < n)
        return 0;
    switch (s->p->place) {
    case CT_PLACE_FF:
        break; /* index order */
    case CT_PLACE_RAND:
        for (uint32_t k = 0; k < n; k++) {
            size_t r = k + (size_t)ct_rng_below(&s->rng, m - k);
            uint32_t t = s->scratch[k];
            s->scratch[k] = s->scratch[r];
            s->scratch[r] = t;
        }
        break;
    case CT_PLACE_LS:
        sort_by_load(s, s->scratch, m);
        break;
    case CT_PLACE_LWF:
        if (n <= s->p->kappa) {
            sort_by_load(s, s->scratch, m);
            break;
        }
        {
            /* Servers by mean GPU workload (ties: lower id; compat: the
             * order the last sort left); their fitting GPUs least-loaded
             * first, server by server. */
            size_t S = s->c->n_servers;
            uint32_t *srv = s->p->compat ? s->srv_order : s->scratch + s->N; /* room after the GPU list */
            for (size_t v = 0; v < S; v++) {
                double sum = 0;
                for (uint32_t q = 0; q < G; q++)
                    sum += s->load[v * G + q];
                s->key[v] = sum / G;
                if (!s->p->compat)
                    srv[v] = (uint32_t)v;
            }
            for (size_t a = 1; a < S; a++)
                for (size_t b = a; b > 0 && s->key[srv[b]] < s->key[srv[b - 1]]; b--) {
                    uint32_t t = srv[b];
                    srv[b] = srv[b - 1];
                    srv[b - 1] = t;
                }
            m = 0;
            for (size_t k = 0; k < S && m < n; k++) {
                uint32_t v = srv[k], tmp[4096];
                size_t c = 0;
                for (uint32_t q = 0; q < G; q++)
                    if (fits(s, v * G + q, j))
                        tmp[c++] = v * G + q;
                sort_by_load(s, tmp, c);
                for (size_t q = 0; q < c && m < n; q++)
                    s->scratch[m++] = tmp[q];
            }
            if (m < n)
                return 0;
        }
        break;
    }
    memcpy(out, s->scratch, n * sizeof(uint32_t));
    return 1;
}

static ct_status_t place_job(sim_t *s, uint32_t jj, const uint32_t *gpus, ct_error_t *err)
{
    const ct_train_job_t *j = &s->jobs->jobs[jj];
    jst_t *x = &s->js[jj];
    ct_train_job_result_t *r = &s->out->jobs[jj];
    uint32_t G = s->c->gpus_per_server;
    x->wph = calloc(j->gpus, 1);
    x->srv = malloc(j->gpus * sizeof(uint32_t));
    r->gpus = malloc(j->gpus * sizeof(uint32_t));
    if (!x->wph || !x->srv || !r->gpus)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    memcpy(r->gpus, gpus, j->gpus * sizeof(uint32_t));
    for (uint32_t k = 0; k < j->gpus; k++) {
        uint32_t g = gpus[k], v = g / G, seen = 0;
        for (uint32_t q = 0; q < x->nsrv; q++)
            seen |= x->srv[q] == v;
        if (!seen)
            x->srv[x->nsrv++] = v;
        if (s->non[g] == s->oncap[g]) {
            uint32_t nc = s->oncap[g] ? 2 * s->oncap[g] : 4;
            slot_t *ns = realloc(s->on[g], nc * sizeof(slot_t));
            if (!ns)
                return ct_error_set(err, CT_ENOMEM, "out of memory");
            s->on[g] = ns;
            s->oncap[g] = nc;
        }
        s->on[g][s->non[g]++] = (slot_t){ jj, k };
        s->mem_used[g] += j->mem;
        mark_dirty(s, g);
    }
    x->seq = ++s->nplaced;
    /* LWF's workload, kept current within a placement round. */
    if (s->p->compat) { /* compute_duration + comm_duration, added once per GPU */
        double add = (j->tf + j->tb) * j->iterations + (x->nsrv > 1 ? j->size * s->c->lwf_comm * j->iterations : 0);
        for (uint32_t k = 0; k < j->gpus; k++)
            s->load[gpus[k]] = s->mk[gpus[k]] += add;
        s->placed[s->nrunning++] = jj;
    } else
        for (uint32_t k = 0; k < j->gpus; k++) {
            s->load[gpus[k]] += (j->tf + j->tb) * j->iterations;
            if (x->nsrv > 1)
                s->load[gpus[k]] += j->iterations * j->size * s->c->lwf_comm;
        }
    x->phase = PH_COMPUTE;
    r->start = s->t;
    r->servers = x->nsrv;
    return CT_OK;
}

/* A custom placement's GPUs: distinct, existing, fitting. */
static int valid_choice(const sim_t *s, uint32_t jj, const uint32_t *gpus)
{
    const ct_train_job_t *j = &s->jobs->jobs[jj];
    for (uint32_t k = 0; k < j->gpus; k++) {
        if (gpus[k] >= s->N || !fits(s, gpus[k], j))
            return 0;
        for (uint32_t q = 0; q < k; q++)
            if (gpus[q] == gpus[k])
                return 0;
    }
    return 1;
}

/* Compat: the authors try to place waiting jobs at every 1 ms step, and
 * LWF's attempt for a job over kappa GPUs sorts their server list in
 * place even when the job does not fit; nothing else changes between
 * releases, so only then is placement run at every event. */
static int resorts(const sim_t *s)
{
    if (!s->p->compat || s->p->place != CT_PLACE_LWF || (s->p->policy && s->p->policy->place))
        return 0;
    for (uint32_t k = 0; k < s->nqueue; k++)
        if (s->jobs->jobs[s->queue[k]].gpus > s->p->kappa)
            return 1;
    return 0;
}

static int cmp_double(const void *a, const void *b);

/* Fast rounds: what the queued jobs can use, after a placement changed it. */
static size_t capacity(sim_t *s)
{
    size_t nfree = 0;
    if (s->c->mode == CT_GPU_EXCLUSIVE) {
        for (size_t g = 0; g < s->N; g++)
            nfree += s->non[g] == 0;
        return nfree;
    }
    memcpy(s->used_sorted, s->mem_used, s->N * sizeof(double));
    qsort(s->used_sorted, s->N, sizeof(double), cmp_double);
    return 0;
}

/* The queued job with the least SRSF rank above `after` that fits now, or
 * -1. A job of n GPUs fits when n GPUs have room: in shared mode when the
 * n-th least used GPU has (fits' test, monotone in the memory used). */
static int64_t next_fitting(sim_t *s, int64_t after, size_t nfree)
{
    int excl = s->c->mode == CT_GPU_EXCLUSIVE;
    double capx = s->c->gpu_mem * (1 + 1e-12);
    int64_t best = -1;
    uint32_t best_rank = 0;
    for (uint32_t b = 0; b < s->rq.nb; b++) {
        uint32_t n = s->bucket_gpus[b];
        if (excl ? nfree < n : !(s->used_sorted[n - 1] < capx))
            continue;
        /* the tree's bound is loose by rounding; the exact test follows */
        double used = excl ? 0 : s->used_sorted[n - 1], bound = excl ? DBL_MAX : (capx - used) * (1 + 1e-9) + 1e-9;
        for (int64_t a = after;;) {
            int64_t i = ct_rankq_first(&s->rq, b, a, bound);
            if (i < 0)
                break;
            uint32_t r = ct_rankq_rank(&s->rq, (uint32_t)i);
            if (best >= 0 && r > best_rank)
                break;
            if (excl || used + s->jobs->jobs[i].mem <= capx) {
                best = i;
                best_rank = r;
                break;
            }
            a = r;
        }
    }
    return best;
}

/* One round: every queued job that fits, in SRSF order, as placement()
 * walks them, without testing those that cannot fit. */
static ct_status_t placement_fast(sim_t *s, ct_error_t *err)
{
    if (s->rq.count == 0)
        return CT_OK;
    compute_loads(s);
    uint32_t *gpus = s->scratch + s->N + s->c->n_servers;
    size_t nfree = capacity(s);
    for (int64_t after = -1;;) {
        int64_t i = next_fitting(s, after, nfree);
        if (i < 0)
            break;
        uint32_t jj = (uint32_t)i;
        after = ct_rankq_rank(&s->rq, jj);
        if (!choose(s, jj, gpus)) /* not reached: choose fails only when fewer than n GPUs fit */
            continue;
        ct_status_t st = place_job(s, jj, gpus, err);
        if (st != CT_OK)
            return st;
        ct_rankq_remove(&s->rq, jj);
        nfree = capacity(s);
    }
    s->nqueue = (uint32_t)s->rq.count;
    return CT_OK;
}

static ct_status_t placement(sim_t *s, ct_error_t *err)
{
    if (s->fast)
        return placement_fast(s, err);
    if (s->nqueue == 0)
        return CT_OK;
    sort_srsf(s, s->queue, s->nqueue);
    compute_loads(s); /* LWF's, and what a custom policy reads */
    uint32_t keep = 0, *gpus = s->scratch + s->N + s->c->n_servers;
    ct_train_policy_t *pol = s->p->policy;
    for (uint32_t k = 0; k < s->nqueue; k++) {
        uint32_t jj = s->queue[k];
        int ok = pol && pol->place ? pol->place(pol, s, jj, gpus) : choose(s, jj, gpus);
        if (ok && pol && pol->place && !valid_choice(s, jj, gpus))
            return ct_error_set(err, CT_EINPUT, "custom placement: job '%s': GPUs that do not fit, repeat or do not exist",
                                s->jobs->jobs[jj].id);
        if (ok) {
            ct_status_t st = place_job(s, jj, gpus, err);
            if (st != CT_OK)
                return st;
        } else
            s->queue[keep++] = jj;
    }
    s->nqueue = keep;
    return CT_OK;
}

/* Transfers: rates from the busiest server's count. */
static void set_rates(sim_t *s)
{
    const ct_train_cluster_t *c = s->c;
    for (uint32_t k = 0; k < s->nactive; k++) {
        jst_t *x = &s->js[s->active[k]];
        uint32_t kmax = 1;
        for (uint32_t q = 0; q < x->nsrv; q++)
            kmax = s->tx[x->srv[q]] > kmax ? s->tx[x->srv[q]] : kmax;
        x->rate = 1.0 / ((double)kmax * c->b + (double)(kmax - 1) * c->eta);
    }
}

/* A running transfer's remaining MB, as AdaDUAL reads it. In compat mode
 * the read itself credits one more 1 ms step of progress (the authors'
 * side effect). */
static double remaining(sim_t *s, uint32_t jj)
{
    jst_t *x = &s->js[jj];
    if (s->p->compat && x->lat <= 0 && x->t_mark < s->t - 1e-9) {
        /* the step since their last rate update: none for a transfer started in this step */
        double credit = fmin(x->left, x->rate_prev * 1.0);
        x->left -= credit;
        s->out->free_mb += credit;
    }
    return x->left;
}

static int admissible(sim_t *s, uint32_t jj)
{
    const ct_train_cluster_t *c = s->c;
    jst_t *x = &s->js[jj];
    uint32_t max_task = 0;
    for (uint32_t q = 0; q < x->nsrv; q++)
        max_task = s->tx[x->srv[q]] > max_task ? s->tx[x->srv[q]] : max_task;
    if (s->p->admit == CT_ADMIT_SRSF)
        return max_task + 1 <= s->p->srsf_n;
    if (max_task == 0)
        return 1;
    if (max_task >= 2)
        return 0;
    /* One transfer on its busiest server: Theorem 2 against every running
     * transfer that shares a server with it. Compat: the authors test one,
     * the transfer on the first of the job's servers that has one. */
    double thr = c->b / (2 * (c->b + c->eta)), size = s->jobs->jobs[jj].size;
    for (uint32_t b = 0; b < x->nsrv; b++) {
        if (s->tx[x->srv[b]] == 0)
            continue;
        for (uint32_t k = 0; k < s->nactive; k++) {
            uint32_t o = s->active[k];
            int on = 0;
            for (uint32_t a = 0; a < s->js[o].nsrv && !on; a++)
                on = s->js[o].srv[a] == x->srv[b];
            if (!on)
                continue;
            double rem = remaining(s, o);
            if (s->p->compat ? rem / size < 2 * (c->b + c->eta) / c->b : !(rem > 0 && size / rem < thr))
                return 0;
        }
        if (s->p->compat)
            break;
    }
    return 1;
}

static void start_transfer(sim_t *s, uint32_t jj)
{
    jst_t *x = &s->js[jj];
    s->out->jobs[jj].comm_wait += s->t - x->t_mark;
    x->phase = PH_COMM;
    x->left = s->jobs->jobs[jj].size;
    x->lat = s->c->a;
    x->t_mark = s->t;
    s->out->total_mb += x->left;
    for (uint32_t q = 0; q < x->nsrv; q++)
        s->tx[x->srv[q]]++;
    s->active[s->nactive++] = jj;
}

/* Compat: the authors' loop steps 1 ms at a time, so admission happens at
 * whole milliseconds; one pending tick at a time, the earliest wins. */
static ct_status_t tick_at(sim_t *s, double t, ct_error_t *err)
{
    if (s->tick_pending && s->tick_time <= t)
        return CT_OK;
    ct_status_t st = ct_evq_push(&s->q, t, EV_TICK, 0, 0);
    if (st != CT_OK)
        return ct_error_set(err, st, "out of memory");
    s->tick_pending = 1;
    s->tick_time = t;
    return CT_OK;
}

static ct_status_t admission(sim_t *s, ct_error_t *err)
{
    if (s->nready == 0)
        return CT_OK;
    sort_srsf(s, s->ready, s->nready);
    uint32_t keep = 0;
    for (uint32_t k = 0; k < s->nready; k++) {
        uint32_t jj = s->ready[k];
        ct_train_policy_t *pol = s->p->policy;
        if (pol && pol->admit ? pol->admit(pol, s, jj) : admissible(s, jj)) {
            start_transfer(s, jj);
            set_rates(s);
        } else
            s->ready[keep++] = jj;
    }
    s->nready = keep;
    if (keep > 0 && s->p->compat)
        return tick_at(s, floor(s->t + 1e-9) + 1.0, err); /* re-examined every 1 ms */
    return CT_OK;
}

/* Gives each dirty idle GPU the ready task of its job with the least
 * remaining work. */
static ct_status_t dispatch(sim_t *s, ct_error_t *err)
{
    for (size_t d = 0; d < s->ndirty; d++) {
        uint32_t g = s->dirty_list[d];
        s->dirty[g] = 0;
        if (s->running[g] >= 0)
            continue;
        int64_t best = -1;
        uint32_t bw = 0;
        for (uint32_t k = 0; k < s->non[g]; k++) {
            slot_t o = s->on[g][k];
            jst_t *x = &s->js[o.job];
            if (x->phase != PH_COMPUTE || (x->wph[o.worker] != W_FWD && x->wph[o.worker] != W_BWD))
                continue;
            if (best < 0 || srsf_before(s, o.job, (uint32_t)best)) {
                best = o.job;
                bw = o.worker;
            }
        }
        if (best < 0)
            continue;
        const ct_train_job_t *j = &s->jobs->jobs[best];
        jst_t *x = &s->js[best];
        double dur = x->wph[bw] == W_FWD ? j->tf : j->tb;
        x->wph[bw]++;
        s->running[g] = best;
        s->run_worker[g] = bw;
        s->busy_time[g] += dur;
        ct_status_t st = ct_evq_push(&s->q, s->t + dur, EV_TASK, g, 0);
        if (st != CT_OK)
            return ct_error_set(err, st, "out of memory");
    }
    s->ndirty = 0;
    return CT_OK;
}

/* A finished job leaves its GPUs. */
static void release_job(sim_t *s, uint32_t jj)
{
    const ct_train_job_t *j = &s->jobs->jobs[jj];
    jst_t *x = &s->js[jj];
    const ct_train_job_result_t *r = &s->out->jobs[jj];
    for (uint32_t k = 0; k < j->gpus; k++) {
        uint32_t g = r->gpus[k];
        s->mem_used[g] -= j->mem;
        if (s->mem_used[g] < 1e-9)
            s->mem_used[g] = 0;
        for (uint32_t q = 0; q < s->non[g]; q++)
            if (s->on[g][q].job == jj) {
                s->on[g][q] = s->on[g][--s->non[g]];
                break;
            }
    }
    s->place_dirty = 1;
    free(x->wph); /* memory stays bounded by the jobs in flight */
    x->wph = NULL;
}

static ct_status_t tick_at(sim_t *s, double t, ct_error_t *err);

/* Compat: the authors' finished-job check walks their running list while
 * removing from it, so the job after each removed one is skipped until the
 * next 1 ms step; a job is seen from its fin_tick. */
static ct_status_t release_finished(sim_t *s, ct_error_t *err)
{
    uint32_t keep = 0;
    int skip = 0;
    for (uint32_t i = 0; i < s->nrunning; i++) {
        uint32_t jj = s->placed[i];
        const jst_t *x = &s->js[jj];
        if (!skip && x->phase == PH_DONE && x->fin_tick <= s->t + 1e-9) {
            release_job(s, jj);
            s->npending--;
            skip = 1;
            continue;
        }
        skip = 0;
        s->placed[keep++] = jj;
    }
    s->nrunning = keep;
    return s->npending ? tick_at(s, floor(s->t + 1e-9) + 1.0, err) : CT_OK;
}

/* The all-reduce (or barrier) of job jj is over: next iteration or done. */
static void end_iteration(sim_t *s, uint32_t jj)
{
    const ct_train_job_t *j = &s->jobs->jobs[jj];
    jst_t *x = &s->js[jj];
    x->iters += 1;
    if (!s->p->compat)
        x->rem = job_rem(j, x->iters);
    else if (x->nsrv > 1) /* comm_duration_once off each of its GPUs */
        for (uint32_t k = 0; k < j->gpus; k++)
            s->mk[s->out->jobs[jj].gpus[k]] -= j->size * s->c->lwf_comm;
    if (x->iters >= j->iterations) {
        ct_train_job_result_t *r = &s->out->jobs[jj];
        r->end = s->t;
        r->jct = r->end - r->arrival;
        r->queued = r->start - r->arrival;
        x->phase = PH_DONE;
        s->done++;
        if (s->p->progress)
            s->p->progress(s->done, s->jobs->n, s->p->progress_ctx);
        if (s->p->compat) { /* released by release_finished, when the authors' loop sees it */
            x->fin_tick = s->t + (x->nsrv == 1 ? 1 : 0); /* one-server jobs finish after their check */
            s->npending++;
        } else
            release_job(s, jj);
        return;
    }
    x->phase = PH_COMPUTE;
    x->wdone = 0;
    memset(x->wph, W_FWD, j->gpus);
    for (uint32_t k = 0; k < j->gpus; k++)
        mark_dirty(s, s->out->jobs[jj].gpus[k]);
}

static void task_end(sim_t *s, uint32_t g)
{
    uint32_t jj = (uint32_t)s->running[g], w = s->run_worker[g];
    jst_t *x = &s->js[jj];
    s->running[g] = -1;
    mark_dirty(s, g);
    if (s->p->compat) {
        double d = x->wph[w] == W_FWD_RUN ? s->jobs->jobs[jj].tf : s->jobs->jobs[jj].tb;
        s->mk[g] -= d;
        x->rem -= d;
    }
    x->wph[w]++;
    if (x->wph[w] != W_DONE)
        return;
    if (++x->wdone < s->jobs->jobs[jj].gpus)
        return;
    if (x->nsrv == 1) { /* one server: nothing crosses the network */
        end_iteration(s, jj);
        return;
    }
    x->phase = PH_READY;
    x->t_mark = s->t;
    s->ready[s->nready++] = jj;
    s->admit_dirty = 1;
}

/* Advances transfers to time t1; ends those that complete (the one that
 * set t1 for certain, others within rounding). */
static void advance_transfers(sim_t *s, double t1, int64_t ending)
{
    double dt = t1 - s->t;
    int changed = 0;
    if (dt > 0)
        for (uint32_t k = 0; k < s->nactive; k++)
            s->js[s->active[k]].rate_prev = s->js[s->active[k]].rate;
    s->t = t1;
    for (uint32_t k = 0; k < s->nactive;) {
        uint32_t jj = s->active[k];
        jst_t *x = &s->js[jj];
        double rest = dt;
        if (x->lat > 0) {
            double d = fmin(rest, x->lat);
            x->lat -= d;
            rest -= d;
        }
        x->left -= rest * x->rate;
        if ((int64_t)jj == ending || (x->lat <= 1e-12 && x->left <= 1e-9 * s->jobs->jobs[jj].size)) {
            s->out->jobs[jj].comm += t1 - x->t_mark;
            for (uint32_t q = 0; q < x->nsrv; q++)
                s->tx[x->srv[q]]--;
            s->active[k] = s->active[--s->nactive];
            changed = 1;
            end_iteration(s, jj);
            continue;
        }
        k++;
    }
    if (changed) {
        set_rates(s);
        s->admit_dirty = 1;
    }
}

/* The next transfer end after now and the job it belongs to. */
static double next_transfer(const sim_t *s, int64_t *who)
{
    double best = INFINITY;
    *who = -1;
    for (uint32_t k = 0; k < s->nactive; k++) {
        const jst_t *x = &s->js[s->active[k]];
        double t = s->t + fmax(0.0, x->lat) + fmax(0.0, x->left) / x->rate;
        if (s->p->compat) /* slotted: a transfer holds to the end of its last 1 ms step, and
                             ends are seen at the start of a step, never in the current one */
            t = fmax(ceil(t - 1e-9), floor(s->t + 1e-9) + 1.0);
        if (t < best) {
            best = t;
            *who = s->active[k];
        }
    }
    return best;
}

static void sim_free(sim_t *s)
{
    for (size_t i = 0; s->js && i < s->jobs->n; i++) {
        free(s->js[i].srv);
        free(s->js[i].wph);
    }
    for (size_t g = 0; s->on && g < s->N; g++)
        free(s->on[g]);
    free(s->js);
    free(s->mem_used);
    free(s->busy_time);
    free(s->load);
    free(s->mk);
    free(s->placed);
    free(s->srv_order);
    free(s->on);
    free(s->non);
    free(s->oncap);
    free(s->running);
    free(s->run_worker);
    free(s->dirty);
    free(s->dirty_list);
    free(s->tx);
    free(s->queue);
    free(s->ready);
    free(s->active);
    free(s->scratch);
    free(s->key);
    free(s->bucket_gpus);
    free(s->jmem);
    free(s->used_sorted);
    ct_rankq_free(&s->rq);
    ct_evq_free(&s->q);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    double rem, arrival;
    uint32_t i;
} srsf_key_t;

/* SRSF's order for waiting jobs (srsf_before with no placement order). */
static int cmp_srsf_key(const void *a, const void *b)
{
    const srsf_key_t *x = a, *y = b;
    if (x->rem != y->rem)
        return x->rem < y->rem ? -1 : 1;
    if (x->arrival != y->arrival)
        return x->arrival < y->arrival ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Fast path: the rank queue over every job (ranks by SRSF, buckets by GPU
 * count). O(n log n). */
static ct_status_t fast_init(sim_t *s, ct_error_t *err)
{
    size_t n = s->jobs->n, m = n ? n : 1;
    srsf_key_t *key = malloc(m * sizeof *key);
    uint32_t *rank = malloc(m * sizeof(uint32_t)), *bucket = malloc(m * sizeof(uint32_t));
    s->bucket_gpus = malloc(m * sizeof(uint32_t));
    s->jmem = malloc(m * sizeof(double));
    s->used_sorted = malloc(s->N * sizeof(double));
    ct_status_t st = CT_OK;
    if (!key || !rank || !bucket || !s->bucket_gpus || !s->jmem || !s->used_sorted) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    uint32_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        const ct_train_job_t *j = &s->jobs->jobs[i];
        key[i] = (srsf_key_t){ s->js[i].rem, j->arrival, (uint32_t)i };
        s->bucket_gpus[i] = j->gpus;
        s->jmem[i] = s->c->mode == CT_GPU_EXCLUSIVE ? 0 : j->mem;
    }
    qsort(key, n, sizeof *key, cmp_srsf_key);
    for (size_t r = 0; r < n; r++)
        rank[key[r].i] = (uint32_t)r;
    qsort(s->bucket_gpus, n, sizeof(uint32_t), cmp_u32);
    for (size_t i = 0; i < n; i++)
        if (nb == 0 || s->bucket_gpus[nb - 1] != s->bucket_gpus[i])
            s->bucket_gpus[nb++] = s->bucket_gpus[i];
    for (size_t i = 0; i < n; i++) {
        const uint32_t *hit = bsearch(&s->jobs->jobs[i].gpus, s->bucket_gpus, nb, sizeof(uint32_t), cmp_u32);
        bucket[i] = (uint32_t)(hit - s->bucket_gpus);
    }
    st = ct_rankq_init(&s->rq, n, rank, bucket, nb, s->jmem, err);
done:
    free(key);
    free(rank);
    free(bucket);
    return st;
}

ct_status_t ct_train_run(const ct_train_cluster_t *c, const ct_train_jobs_t *jobs, const ct_train_params_t *p,
                         ct_train_result_t *out, ct_error_t *err)
{
    ct_train_params_t defaults;
    if (!p) {
        ct_train_params_init(&defaults);
        p = &defaults;
    }
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t n = jobs->n, N = c->n_servers * c->gpus_per_server;
    for (size_t i = 0; i < n; i++) {
        const ct_train_job_t *j = &jobs->jobs[i];
        if (j->gpus > N)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].gpus: job '%s' needs %u GPUs, the cluster has %zu", i,
                                j->id, j->gpus, N);
        if (c->mode == CT_GPU_SHARED && j->mem > c->gpu_mem)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].memory: job '%s' needs %g MB per GPU, a GPU has %g", i,
                                j->id, j->mem, c->gpu_mem);
    }
    sim_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.jobs = jobs;
    s.p = p;
    s.out = out;
    s.N = N;
    ct_evq_init(&s.q);
    ct_rng_seed(&s.rng, p->seed);
    out->n = n;
    out->jobs = calloc(n, sizeof(ct_train_job_result_t));
    s.js = calloc(n, sizeof(jst_t));
    s.mem_used = calloc(N, sizeof(double));
    s.busy_time = calloc(N, sizeof(double));
    s.load = calloc(N, sizeof(double));
    s.mk = calloc(N, sizeof(double));
    s.placed = malloc((n ? n : 1) * sizeof(uint32_t));
    s.srv_order = malloc(c->n_servers * sizeof(uint32_t));
    s.on = calloc(N, sizeof(slot_t *));
    s.non = calloc(N, sizeof(uint32_t));
    s.oncap = calloc(N, sizeof(uint32_t));
    s.running = malloc(N * sizeof(int64_t));
    s.run_worker = calloc(N, sizeof(uint32_t));
    s.dirty = calloc(N, 1);
    s.dirty_list = malloc(N * sizeof(uint32_t));
    s.tx = calloc(c->n_servers, sizeof(uint32_t));
    s.queue = malloc(n * sizeof(uint32_t));
    s.ready = malloc(n * sizeof(uint32_t));
    s.active = malloc(n * sizeof(uint32_t));
    s.scratch = malloc((2 * N + c->n_servers) * sizeof(uint32_t));
    s.key = malloc(c->n_servers * sizeof(double));
    ct_status_t st = CT_OK;
    if (!out->jobs || !s.js || !s.mem_used || !s.busy_time || !s.load || !s.on || !s.non || !s.oncap ||
        !s.running || !s.run_worker || !s.dirty || !s.dirty_list || !s.tx || !s.queue || !s.ready || !s.active ||
        !s.scratch || !s.key || !s.mk || !s.srv_order || !s.placed) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < N; g++)
        s.running[g] = -1;
    /* Custom orders and placements, and the authors' accounting (whose LWF
     * sorts servers even for jobs that do not fit), walk the whole queue. */
    s.fast = !p->compat && !p->walk && !(p->policy && (p->policy->place || p->policy->order_key));
    for (size_t v = 0; v < c->n_servers; v++)
        s.srv_order[v] = (uint32_t)v;
    for (size_t i = 0; i < n; i++) {
        out->jobs[i].arrival = jobs->jobs[i].arrival;
        out->jobs[i].id = jobs->jobs[i].id;
        out->jobs[i].ngpus = jobs->jobs[i].gpus;
        s.js[i].rem = job_rem(&jobs->jobs[i], 0);
        if ((st = ct_evq_push(&s.q, jobs->jobs[i].arrival, EV_ARRIVE, (uint32_t)i, 0)) != CT_OK) {
            st = ct_error_set(err, st, "out of memory");
            goto done;
        }
    }
    if (s.fast && (st = fast_init(&s, err)) != CT_OK)
        goto done;
    while (s.done < n) {
        int64_t who;
        double tt = next_transfer(&s, &who), te = ct_evq_peek_time(&s.q), tn = fmin(tt, te);
        if (!isfinite(tn)) {
            st = ct_error_set(err, CT_EINTERNAL, "training simulation: stalled at %.3f ms with %zu jobs left", s.t,
                              n - s.done);
            goto done;
        }
        advance_transfers(&s, tn, tt <= te ? who : -1);
        ct_event_t ev;
        while (ct_evq_peek_time(&s.q) <= s.t && ct_evq_pop(&s.q, &ev)) {
            out->events++;
            if (ev.kind == EV_ARRIVE) {
                if (s.fast)
                    ct_rankq_insert(&s.rq, ev.a);
                else
                    s.queue[s.nqueue++] = ev.a;
                s.nqueue += s.fast;
                s.place_dirty = 1;
            } else if (ev.kind == EV_TASK) {
                task_end(&s, ev.a);
            } else {
                if (ev.t >= s.tick_time)
                    s.tick_pending = 0;
                s.admit_dirty = 1;
            }
        }
        if (p->compat && s.npending && (st = release_finished(&s, err)) != CT_OK)
            goto done;
        if (s.place_dirty || resorts(&s)) {
            s.place_dirty = 0;
            if ((st = placement(&s, err)) != CT_OK)
                goto done;
        }
        if (s.admit_dirty && p->compat && fabs(s.t - round(s.t)) > 1e-9) {
            if ((st = tick_at(&s, ceil(s.t), err)) != CT_OK) /* wait for the next whole ms */
                goto done;
        } else if (s.admit_dirty) {
            s.admit_dirty = 0;
            if ((st = admission(&s, err)) != CT_OK)
                goto done;
        }
        if ((st = dispatch(&s, err)) != CT_OK)
            goto done;
    }
    double busy = 0;
    for (size_t g = 0; g < N; g++)
        busy += s.busy_time[g];
    st = ct_train_summarize(out, busy, N, err);
done:
    sim_free(&s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st != CT_OK)
        ct_train_result_free(out);
    return st;
}

ct_status_t ct_train_summarize(ct_train_result_t *r, double busy, size_t n_gpus, ct_error_t *err)
{
    size_t n = r->n;
    double *v = malloc((n ? n : 1) * sizeof(double));
    if (!v)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    double sum = 0, q = 0, sum_s = 0, q_s = 0;
    r->makespan = 0;
    r->n_small = 0;
    for (size_t i = 0; i < n; i++) {
        const ct_train_job_result_t *x = &r->jobs[i];
        v[i] = x->jct;
        sum += x->jct;
        q += x->queued;
        if (x->ngpus <= 4) {
            r->n_small++;
            sum_s += x->jct;
            q_s += x->queued;
        }
        r->makespan = fmax(r->makespan, x->end);
    }
    qsort(v, n, sizeof(double), cmp_double);
    double nn = (double)n, ns = (double)r->n_small, nl = nn - ns;
    r->mean_jct = n ? sum / nn : NAN;
    r->mean_queued = n ? q / nn : NAN;
    r->median_jct = !n ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    r->p95_jct = n ? v[(size_t)ceil(0.95 * nn) - 1] : NAN;
    r->mean_jct_small = ns > 0 ? sum_s / ns : NAN;
    r->mean_queued_small = ns > 0 ? q_s / ns : NAN;
    r->mean_jct_large = nl > 0 ? (sum - sum_s) / nl : NAN;
    r->mean_queued_large = nl > 0 ? (q - q_s) / nl : NAN;
    r->utilization = r->makespan > 0 && n_gpus ? busy / (double)n_gpus / r->makespan : 0;
    free(v);
    return CT_OK;
}

ct_status_t ct_train_write_results_csv(const ct_train_result_t *r, const char *path, ct_error_t *err)
{
    ct_outfile_t out;
    ct_status_t st = ct_outfile_open(&out, path, err);
    if (st != CT_OK)
        return st;
    fprintf(out.fp, "id,arrival_ms,start_ms,end_ms,jct_ms,queued_ms,comm_ms,comm_wait_ms,servers,gpus\n");
    for (size_t i = 0; i < r->n; i++) {
        const ct_train_job_result_t *x = &r->jobs[i];
        ct_csv_put(out.fp, x->id ? x->id : "");
        fprintf(out.fp, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%u,", x->arrival, x->start, x->end, x->jct,
                x->queued, x->comm, x->comm_wait, x->servers);
        for (uint32_t k = 0; k < x->ngpus && x->gpus; k++)
            fprintf(out.fp, "%s%u", k ? " " : "", x->gpus[k]);
        fputc('\n', out.fp);
    }
    return ct_outfile_commit(&out, err);
}

ct_status_t ct_train_write_jobs_csv(const ct_train_jobs_t *jobs, const ct_train_result_t *r, const char *path,
                                    ct_error_t *err)
{
    (void)jobs; /* the results carry the ids */
    return ct_train_write_results_csv(r, path, err);
}

/* ------------------------------------------------------------------------ */
/* The view custom policies read.                                            */

double ct_train_view_now(const ct_train_view_t *v)
{
    return v->t;
}

const ct_train_cluster_t *ct_train_view_cluster(const ct_train_view_t *v)
{
    return v->c;
}

const ct_train_jobs_t *ct_train_view_jobs(const ct_train_view_t *v)
{
    return v->jobs;
}

double ct_train_view_remaining(const ct_train_view_t *v, uint32_t job)
{
    return job < v->jobs->n ? v->js[job].rem : 0;
}

int ct_train_view_fits(const ct_train_view_t *v, uint32_t g, uint32_t job)
{
    return g < v->N && job < v->jobs->n && fits(v, g, &v->jobs->jobs[job]);
}

double ct_train_view_gpu_load(const ct_train_view_t *v, uint32_t g)
{
    return g < v->N ? v->load[g] : 0;
}

double ct_train_view_gpu_mem_used(const ct_train_view_t *v, uint32_t g)
{
    return g < v->N ? v->mem_used[g] : 0;
}

uint32_t ct_train_view_gpu_jobs(const ct_train_view_t *v, uint32_t g)
{
    return g < v->N ? v->non[g] : 0;
}

uint32_t ct_train_view_server_transfers(const ct_train_view_t *v, size_t server)
{
    return server < v->c->n_servers ? v->tx[server] : 0;
}

const uint32_t *ct_train_view_job_servers(const ct_train_view_t *v, uint32_t job, uint32_t *n)
{
    *n = job < v->jobs->n ? v->js[job].nsrv : 0;
    return *n ? v->js[job].srv : NULL;
}

double ct_train_view_transfer_left(const ct_train_view_t *v, uint32_t job)
{
    return job < v->jobs->n && v->js[job].phase == PH_COMM ? v->js[job].left : 0;
}
