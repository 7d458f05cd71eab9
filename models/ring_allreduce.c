/*
 * ring_allreduce.c - training jobs that all-reduce over a ring (SJF-BCO's
 * world, ct_rar.h: "rar" = ring all-reduce): the cluster model, its files,
 * the workload generator and the re-simulation of a schedule.
 *
 * Cluster file:
 *   {"servers": [8, 16, 4], "intra_bandwidth": 1000, "inter_bandwidth": 100,
 *    "reduction_speed": 2000, "xi1": 1, "xi2": 0.001, "alpha": 0.5,
 *    "horizon": 1200, "contention": "linear"}
 * Job file: {"jobs": [{"id", "gpus", "iterations", "gradient_size", "batch",
 *   "forward_time", "backward_time", "lambda"}]} or the same columns as CSV.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_json.h"
#include "ct_rar.h"
#include "ct_sampler.h" /* ct_rng_t */

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void ct_rar_cluster_free(ct_rar_cluster_t *c)
{
    if (!c)
        return;
    free(c->gpus);
    free(c->first_gpu);
    memset(c, 0, sizeof *c);
}

ct_status_t ct_rar_cluster_index(ct_rar_cluster_t *c, ct_error_t *err)
{
    free(c->first_gpu);
    c->first_gpu = malloc((c->n_servers ? c->n_servers : 1) * sizeof(uint32_t));
    if (!c->first_gpu)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    c->n_gpus = 0;
    uint64_t total = 0; /* 64 bits: servers are capped one by one, the sum is not */
    for (size_t s = 0; s < c->n_servers; s++) {
        c->first_gpu[s] = (uint32_t)total;
        total += c->gpus[s];
        if (total > CT_MAX_GPUS)
            return ct_error_set(err, CT_EINPUT, "servers: more than %u GPUs in all (the first %zu servers hold %llu)",
                                CT_MAX_GPUS, s + 1, (unsigned long long)total);
    }
    c->n_gpus = (uint32_t)total;
    return CT_OK;
}

size_t ct_rar_server_of(const ct_rar_cluster_t *c, uint32_t gpu)
{
    size_t lo = 0, hi = c->n_servers; /* last server whose first_gpu <= gpu */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (c->first_gpu[mid] <= gpu)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

ct_status_t ct_rar_cluster_validate(const ct_rar_cluster_t *c, const char *label, ct_error_t *err)
{
    if (c->n_servers == 0)
        return ct_error_set(err, CT_EINPUT, "%s: servers: at least one server is needed", label);
    uint64_t total = 0;
    for (size_t s = 0; s < c->n_servers; s++) {
        if (c->gpus[s] == 0)
            return ct_error_set(err, CT_EINPUT, "%s: servers[%zu]: a server needs at least one GPU", label, s);
        total += c->gpus[s];
    }
    if (total > CT_MAX_GPUS)
        return ct_error_set(err, CT_EINPUT, "%s: servers: %llu GPUs in all, more than the %u supported", label,
                            (unsigned long long)total, CT_MAX_GPUS);
    if (!(c->b_intra > 0 && isfinite(c->b_intra)))
        return ct_error_set(err, CT_EINPUT, "%s: intra_bandwidth: must be positive (gradient units per slot)", label);
    if (!(c->b_inter > 0 && isfinite(c->b_inter)))
        return ct_error_set(err, CT_EINPUT, "%s: inter_bandwidth: must be positive (gradient units per slot)", label);
    if (!(c->reduction > 0 && isfinite(c->reduction)))
        return ct_error_set(err, CT_EINPUT, "%s: reduction_speed: must be positive (gradient units per slot)", label);
    if (!(c->xi1 > 0 && c->xi1 <= 1))
        return ct_error_set(err, CT_EINPUT, "%s: xi1: must be in (0, 1] (got %g)", label, c->xi1);
    if (!(c->xi2 >= 0 && isfinite(c->xi2)))
        return ct_error_set(err, CT_EINPUT, "%s: xi2: must be >= 0 slots (got %g)", label, c->xi2);
    if (!(c->alpha >= 0 && isfinite(c->alpha)))
        return ct_error_set(err, CT_EINPUT, "%s: alpha: must be >= 0 (got %g)", label, c->alpha);
    if (c->horizon < 1)
        return ct_error_set(err, CT_EINPUT, "%s: horizon: must be at least 1 slot", label);
    return CT_OK;
}

ct_status_t ct_rar_jobs_validate(const ct_rar_jobs_t *js, const char *label, ct_error_t *err)
{
    if (js->n == 0)
        return ct_error_set(err, CT_EINPUT, "%s: jobs: no job", label);
    for (size_t i = 0; i < js->n; i++) {
        const ct_rar_job_t *j = &js->jobs[i];
        if (!j->id || !j->id[0])
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].id: empty", label, i);
        if (j->gpus < 1)
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].gpus: job '%s' needs at least one GPU", label, i, j->id);
        if (!(j->iterations > 0 && isfinite(j->iterations)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].iterations: must be positive", label, i);
        if (!(j->grad > 0 && isfinite(j->grad)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].gradient_size: must be positive", label, i);
        if (!(j->batch > 0 && isfinite(j->batch)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].batch: must be positive", label, i);
        if (!(j->fwd >= 0 && isfinite(j->fwd)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].forward_time: must be >= 0 slots", label, i);
        if (!(j->bwd >= 0 && isfinite(j->bwd)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].backward_time: must be >= 0 slots", label, i);
        if (!(j->lambda >= 1 && isfinite(j->lambda)))
            return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].lambda: must be >= 1 (got %g)", label, i, j->lambda);
    }
    size_t dup;
    ct_status_t st = ct_first_duplicate(js->jobs, sizeof js->jobs[0], offsetof(ct_rar_job_t, id), js->n, &dup, err);
    if (st == CT_OK && dup < js->n)
        st = ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].id: duplicate job id '%s'", label, dup, js->jobs[dup].id);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The time model.                                                           */

static double tau_k(const ct_rar_cluster_t *c, const ct_rar_job_t *j, size_t servers, double k)
{
    double w = (double)j->gpus, B = c->b_intra;
    if (servers > 1)
        B = c->b_inter / (k + c->alpha * (k - 1.0));
    double comm = w > 1 ? 2.0 * (w - 1) * j->grad / (w * B) + (w - 1) * j->grad / (w * c->reduction) : 0.0;
    return comm + c->xi2 * (double)servers + j->fwd * j->batch + j->bwd;
}

double ct_rar_contention_k(const ct_rar_cluster_t *c, double p)
{
    if (p < 1)
        p = 1;
    return c->contention == CT_CONTENTION_LITERAL ? fmax(1.0, c->xi1 * p) : 1.0 + c->xi1 * (p - 1.0);
}

double ct_rar_tau(const ct_rar_cluster_t *c, const ct_rar_job_t *j, size_t servers, double p)
{
    return tau_k(c, j, servers, servers > 1 ? ct_rar_contention_k(c, p) : 1.0);
}

static int cmp_desc_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Fewest servers that can hold g GPUs (largest first). */
static size_t min_servers(const ct_rar_cluster_t *c, uint32_t g)
{
    uint64_t have = 0;
    size_t n = 0;
    uint32_t omax = 0;
    for (size_t s = 0; s < c->n_servers; s++)
        omax = c->gpus[s] > omax ? c->gpus[s] : omax;
    if (g <= omax)
        return 1;
    uint32_t *sorted = malloc(c->n_servers * sizeof(uint32_t));
    if (!sorted)
        return c->n_servers;
    memcpy(sorted, c->gpus, c->n_servers * sizeof(uint32_t));
    qsort(sorted, c->n_servers, sizeof(uint32_t), cmp_desc_u32);
    while (n < c->n_servers && have < g)
        have += sorted[n++];
    free(sorted);
    return n ? n : 1;
}

void ct_rar_exec_bounds(const ct_rar_cluster_t *c, const ct_rar_job_t *j, double *best, double *worst)
{
    uint32_t omax = 0;
    for (size_t s = 0; s < c->n_servers; s++)
        if (c->gpus[s] > omax)
            omax = c->gpus[s];
    size_t spread = j->gpus < c->n_servers ? j->gpus : c->n_servers;
    size_t fewest = min_servers(c, j->gpus);
    if (spread < fewest)
        spread = fewest;
    *best = tau_k(c, j, fewest, 1.0) * j->iterations;
    *worst = ct_rar_tau(c, j, spread, (double)omax) * j->iterations;
    if (*worst < *best)
        *worst = *best;
}

/* ------------------------------------------------------------------------ */
/* Files.                                                                    */

ct_status_t ct_rar_cluster_load(ct_rar_cluster_t *c, const char *path, ct_error_t *err)
{
    cJSON *root;
    memset(c, 0, sizeof *c);
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    const cJSON *sv = cJSON_GetObjectItemCaseSensitive(root, "servers");
    const char *cont = "linear";
    double horizon = 0;
    if (!cJSON_IsObject(root)) {
        st = ct_error_set(err, CT_EINPUT, "%s: expected a JSON object", path);
        goto done;
    }
    if (!cJSON_IsArray(sv) || cJSON_GetArraySize(sv) == 0) {
        st = ct_error_set(err, CT_EINPUT, "%s: servers: %s", path, sv ? "expected a non-empty array of GPU counts" : "missing");
        goto done;
    }
    c->n_servers = (size_t)cJSON_GetArraySize(sv);
    c->gpus = calloc(c->n_servers, sizeof(uint32_t));
    if (!c->gpus) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, sv) {
        double g = -1;
        if (cJSON_IsNumber(it))
            g = it->valuedouble;
        else if (cJSON_IsObject(it)) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "gpus");
            if (cJSON_IsNumber(n))
                g = n->valuedouble;
        }
        if (!(g >= 1 && g <= 1e6 && g == floor(g))) {
            st = ct_error_set(err, CT_EINPUT, "%s: servers[%zu]: expected a whole number of GPUs >= 1", path, i);
            goto done;
        }
        c->gpus[i++] = (uint32_t)g;
    }
    c->xi1 = 1;
    c->alpha = 0;
    if ((st = ct_json_get_number(root, "intra_bandwidth", 1, path, "", &c->b_intra, err)) != CT_OK ||
        (st = ct_json_get_number(root, "inter_bandwidth", 1, path, "", &c->b_inter, err)) != CT_OK ||
        (st = ct_json_get_number(root, "reduction_speed", 1, path, "", &c->reduction, err)) != CT_OK ||
        (st = ct_json_get_number(root, "xi1", 0, path, "", &c->xi1, err)) != CT_OK ||
        (st = ct_json_get_number(root, "xi2", 0, path, "", &c->xi2, err)) != CT_OK ||
        (st = ct_json_get_number(root, "alpha", 0, path, "", &c->alpha, err)) != CT_OK ||
        (st = ct_json_get_number(root, "horizon", 1, path, "", &horizon, err)) != CT_OK ||
        (st = ct_json_get_string(root, "contention", 0, path, "", &cont, err)) != CT_OK)
        goto done;
    if (!(horizon >= 1 && horizon <= 1e9 && horizon == floor(horizon))) {
        st = ct_error_set(err, CT_EINPUT, "%s: horizon: expected a whole number of slots >= 1", path);
        goto done;
    }
    c->horizon = (long)horizon;
    if (!strcmp(cont, "linear"))
        c->contention = CT_CONTENTION_LINEAR;
    else if (!strcmp(cont, "literal"))
        c->contention = CT_CONTENTION_LITERAL;
    else {
        st = ct_error_set(err, CT_EINPUT, "%s: contention: expected \"linear\" or \"literal\"", path);
        goto done;
    }
    if ((st = ct_rar_cluster_validate(c, path, err)) == CT_OK) /* before indexing: it checks the GPUs' total */
        st = ct_rar_cluster_index(c, err);
done:
    cJSON_Delete(root);
    if (st != CT_OK)
        ct_rar_cluster_free(c);
    return st;
}

/* The job file's fields (the same names in JSON and CSV); lambda defaults to 1. */
#define F(name, kind, req, absent, member) { name, name, kind, req, req, absent, offsetof(ct_rar_job_t, member) }
static const ct_field_t job_fields[] = {
    F("id", CT_FIELD_TEXT, 1, 0, id),
    F("gpus", CT_FIELD_COUNT, 1, 0, gpus),
    F("iterations", CT_FIELD_NUMBER, 1, 0, iterations),
    F("gradient_size", CT_FIELD_NUMBER, 1, 0, grad),
    F("batch", CT_FIELD_NUMBER, 1, 0, batch),
    F("forward_time", CT_FIELD_NUMBER, 1, 0, fwd),
    F("backward_time", CT_FIELD_NUMBER, 1, 0, bwd),
    F("lambda", CT_FIELD_NUMBER, 0, 1.0, lambda),
};
#undef F
enum { NF = sizeof job_fields / sizeof job_fields[0] };

void ct_rar_jobs_free(ct_rar_jobs_t *js)
{
    if (!js)
        return;
    ct_records_free(job_fields, NF, sizeof *js->jobs, js->jobs, js->n);
    memset(js, 0, sizeof *js);
}

ct_status_t ct_rar_jobs_load(ct_rar_jobs_t *js, const char *path, ct_error_t *err)
{
    memset(js, 0, sizeof *js);
    ct_status_t st = ct_records_load(path, "jobs", job_fields, NF, sizeof *js->jobs, (void **)&js->jobs, &js->n, err);
    if (st == CT_OK && (st = ct_rar_jobs_validate(js, path, err)) != CT_OK)
        ct_rar_jobs_free(js);
    return st;
}

ct_status_t ct_rar_cluster_write(const ct_rar_cluster_t *c, const char *path, ct_error_t *err)
{
    cJSON *r = cJSON_CreateObject(), *sv = cJSON_CreateArray();
    if (!r || !sv) {
        cJSON_Delete(r);
        cJSON_Delete(sv);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t s = 0; s < c->n_servers; s++)
        cJSON_AddItemToArray(sv, ct_json_number(c->gpus[s]));
    cJSON_AddItemToObject(r, "servers", sv);
    ct_json_add_number(r, "intra_bandwidth", c->b_intra);
    ct_json_add_number(r, "inter_bandwidth", c->b_inter);
    ct_json_add_number(r, "reduction_speed", c->reduction);
    ct_json_add_number(r, "xi1", c->xi1);
    ct_json_add_number(r, "xi2", c->xi2);
    ct_json_add_number(r, "alpha", c->alpha);
    ct_json_add_number(r, "horizon", (double)c->horizon);
    cJSON_AddStringToObject(r, "contention", c->contention == CT_CONTENTION_LITERAL ? "literal" : "linear");
    ct_status_t st = ct_json_write_file(r, path, err);
    cJSON_Delete(r);
    return st;
}

ct_status_t ct_rar_jobs_write(const ct_rar_jobs_t *js, const char *path, ct_error_t *err)
{
    return ct_records_write(path, "jobs", job_fields, NF, sizeof *js->jobs, js->jobs, js->n, err);
}

/* ------------------------------------------------------------------------ */
/* The paper's workload.                                                     */

void ct_rar_workload_params_init(ct_rar_workload_params_t *p)
{
    *p = (ct_rar_workload_params_t){ .n_servers = 20, .n_jobs = 160, .calibration = CT_CALIBRATION_PAPER };
}

static const char *const calibration_names[] = { "paper", "best" };

CT_ENUM_NAMES(ct_rar_calibration_t, ct_rar_calibration_name, ct_rar_calibration_parse, calibration_names)

/* Slots per gradient unit of one all-reduce iteration on `servers` servers
 * with contention factor k: tau = comm_per_unit m + overhead + compute. */
static double comm_per_unit(const ct_rar_cluster_t *c, double w, size_t servers, double k)
{
    double B = servers > 1 ? c->b_inter / (k + c->alpha * (k - 1.0)) : c->b_intra;
    return w > 1 ? 2.0 * (w - 1) / (w * B) + (w - 1) / (w * c->reduction) : 0.0;
}

void ct_job_mix(size_t n, uint32_t *gpus)
{
    static const struct {
        uint32_t gpus, count;
    } mix[] = { { 1, 80 }, { 2, 14 }, { 4, 26 }, { 8, 30 }, { 16, 8 }, { 32, 2 } };
    enum { NMIX = sizeof mix / sizeof mix[0] };
    size_t count[NMIX], given = 0;
    double frac[NMIX];
    for (size_t m = 0; m < NMIX; m++) {
        double exact = (double)mix[m].count * (double)n / 160.0;
        count[m] = (size_t)exact;
        frac[m] = exact - (double)count[m];
        given += count[m];
    }
    while (given < n) {
        size_t best = 0;
        for (size_t m = 1; m < NMIX; m++)
            if (frac[m] > frac[best])
                best = m;
        count[best]++;
        frac[best] = -1;
        given++;
    }
    for (size_t m = 0, i = 0; m < NMIX; m++)
        for (size_t k = 0; k < count[m]; k++)
            gpus[i++] = mix[m].gpus;
}

ct_status_t ct_rar_workload(uint64_t seed, const ct_rar_workload_params_t *wp, ct_rar_cluster_t *c, ct_rar_jobs_t *js,
                            ct_error_t *err)
{
    static const uint32_t sizes[] = { 4, 8, 16, 32 };
    ct_rar_workload_params_t defaults;
    if (!wp) {
        ct_rar_workload_params_init(&defaults);
        wp = &defaults;
    }
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    memset(c, 0, sizeof *c);
    memset(js, 0, sizeof *js);
    size_t n_jobs = wp->n_jobs ? wp->n_jobs : 160;
    c->n_servers = wp->n_servers ? wp->n_servers : 20;
    c->gpus = malloc(c->n_servers * sizeof(uint32_t));
    js->jobs = calloc(n_jobs, sizeof(ct_rar_job_t));
    uint32_t *mix = malloc(n_jobs * sizeof(uint32_t));
    if (!c->gpus || !js->jobs || !mix) {
        free(mix);
        ct_rar_cluster_free(c);
        ct_rar_jobs_free(js);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    ct_job_mix(n_jobs, mix);
    for (size_t s = 0; s < c->n_servers; s++)
        c->gpus[s] = sizes[ct_rng_below(&rng, 4)];
    c->b_intra = 1000;
    c->b_inter = 100;
    c->reduction = 2000;
    c->xi1 = 1;
    c->alpha = 0.5;
    c->horizon = 1200;
    /* The overhead per server must fit the 15% budget of the shortest
     * iteration (50 slots / 6000 iterations) spread over 20 servers. */
    c->xi2 = wp->calibration == CT_CALIBRATION_PAPER ? 0.00002 : 0.0002;
    ct_status_t st = ct_rar_cluster_index(c, err);
    /* Each job: best-case execution E in [50, 300] slots over F in [1000,
     * 6000] iterations; compute is a third forward over a batch of 32, two
     * thirds backward. The gradient size sets the communication share:
     * PAPER: contention plus overhead are 15% of the actual time at the
     *   worst placement (spread over G_j servers, worst contention), so
     *   worst = best / 0.85 ("within 15% of the actual execution time");
     * BEST: overhead plus all-reduce are 15% of a best-placement iteration.
     * Single-GPU jobs have overhead only. */
    uint32_t omax = 0;
    for (size_t s = 0; s < c->n_servers; s++)
        omax = c->gpus[s] > omax ? c->gpus[s] : omax;
    for (size_t i = 0; st == CT_OK && i < n_jobs; i++) {
        ct_rar_job_t *j = &js->jobs[i];
        char id[32];
        snprintf(id, sizeof id, "j%03zu", i + 1);
        if (!(j->id = ct_strdup(id, err))) {
            st = CT_ENOMEM;
            break;
        }
        js->n = i + 1;
        j->gpus = mix[i];
        j->iterations = (double)(1000 + ct_rng_below(&rng, 5001));
        j->batch = 32;
        j->lambda = 1;
        double E = 50.0 + 250.0 * ct_rng_uniform(&rng), tau = E / j->iterations;
        double w = j->gpus;
        size_t ns = min_servers(c, j->gpus);
        size_t spread = j->gpus < c->n_servers ? j->gpus : c->n_servers;
        if (spread < ns)
            spread = ns;
        double a_best = comm_per_unit(c, w, ns, 1.0), o_best = c->xi2 * (double)ns;
        double grad = 1e-9;
        if (wp->calibration == CT_CALIBRATION_PAPER) {
            double kw = ct_rar_contention_k(c, (double)omax);
            double a_worst = comm_per_unit(c, w, spread, spread > 1 ? kw : 1.0);
            double o_worst = c->xi2 * (double)spread;
            double budget = tau / 0.85 - tau - (o_worst - o_best);
            if (w > 1 && a_worst > a_best && budget > 0)
                grad = budget / (a_worst - a_best);
        } else {
            double comm = w > 1 ? fmax(0.0, 0.15 * tau - o_best) : 0.0;
            if (a_best > 0 && comm > 0)
                grad = comm / a_best;
        }
        double compute = tau - o_best - a_best * grad;
        j->grad = grad;
        j->fwd = compute / 3.0 / j->batch;
        j->bwd = 2.0 * compute / 3.0;
    }
    free(mix);
    if (st != CT_OK) {
        ct_rar_cluster_free(c);
        ct_rar_jobs_free(js);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* Schedules.                                                                */

ct_status_t ct_rar_schedule_alloc(ct_rar_schedule_t *s, const ct_rar_jobs_t *jobs, ct_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->n = jobs->n;
    s->gpus = calloc(jobs->n, sizeof(uint32_t *));
    s->start = calloc(jobs->n, sizeof(double));
    s->finish_est = calloc(jobs->n, sizeof(double));
    if (!s->gpus || !s->start || !s->finish_est) {
        ct_rar_schedule_free(s);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < jobs->n; i++)
        if (!(s->gpus[i] = calloc(jobs->jobs[i].gpus, sizeof(uint32_t)))) {
            ct_rar_schedule_free(s);
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        }
    return CT_OK;
}

void ct_rar_schedule_free(ct_rar_schedule_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->gpus && i < s->n; i++)
        free(s->gpus[i]);
    free(s->gpus);
    free(s->start);
    free(s->finish_est);
    memset(s, 0, sizeof *s);
}

/* Servers a job's GPUs are on: fills mark[] (per server) and returns the
 * count; list receives the servers. */
static size_t job_servers(const ct_rar_cluster_t *c, const uint32_t *gpus, uint32_t g, unsigned char *mark,
                          size_t *list)
{
    size_t n = 0;
    for (uint32_t k = 0; k < g; k++) {
        size_t s = ct_rar_server_of(c, gpus[k]);
        if (!mark[s]) {
            mark[s] = 1;
            list[n++] = s;
        }
    }
    for (size_t k = 0; k < n; k++)
        mark[list[k]] = 0;
    return n;
}

static const char *const resim_names[] = { "work-conserving", "planned" };

CT_ENUM_NAMES(ct_rar_resim_t, ct_rar_resim_name, ct_rar_resim_parse, resim_names)

/* Re-simulation state. Per GPU a queue of its jobs in planned order (CSR:
 * qjobs[qoff[g] .. qoff[g+1]]) and the position of the next job to start;
 * a job may start when it heads the queue of each of its GPUs and they are
 * free. Progress is real-valued; between two events every running job
 * advances at a constant rate, so the next completion is computed, not
 * stepped to. */
typedef struct {
    size_t n;
    size_t *order;                  /* planned order */
    size_t *cand;                   /* scratch: sort buffer, then start candidates */
    size_t *qoff, *qjobs, *qpos;    /* per-GPU queues */
    unsigned char *busy;            /* per GPU */
    size_t *nsrv, *soff, *srv;      /* per job: its servers (CSR) */
    size_t *spread_on;              /* per server: running spread jobs */
    size_t *run;                    /* running jobs */
    size_t nrun;
    double *prog, *rate;
    unsigned char *state;           /* 0 waiting, 1 running, 2 done */
} resim_t;

static void resim_free(resim_t *r)
{
    free(r->order);
    free(r->cand);
    free(r->qoff);
    free(r->qjobs);
    free(r->qpos);
    free(r->busy);
    free(r->nsrv);
    free(r->soff);
    free(r->srv);
    free(r->spread_on);
    free(r->run);
    free(r->prog);
    free(r->rate);
    free(r->state);
}

static int cmp_planned(const void *a, const void *b, const double *start)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (start[x] != start[y])
        return start[x] < start[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Stable merge sort of job indices by planned start (ties: job order). */
static void sort_planned(size_t *a, size_t *tmp, size_t n, const double *start)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_planned(a, tmp, h, start);
    sort_planned(a + h, tmp, n - h, start);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_planned(&a[j], &a[i], start) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof(size_t));
}

static int can_start(const resim_t *r, const ct_rar_schedule_t *s, const ct_rar_jobs_t *jobs, size_t i)
{
    for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++) {
        uint32_t g = s->gpus[i][k];
        if (r->busy[g] || r->qjobs[r->qoff[g] + r->qpos[g]] != i)
            return 0;
    }
    return 1;
}

static void start_job(resim_t *r, const ct_rar_schedule_t *s, const ct_rar_jobs_t *jobs, size_t i)
{
    for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++) {
        uint32_t g = s->gpus[i][k];
        r->busy[g] = 1;
        r->qpos[g]++;
    }
    r->state[i] = 1;
    r->run[r->nrun++] = i;
    if (r->nsrv[i] > 1)
        for (size_t k = r->soff[i]; k < r->soff[i + 1]; k++)
            r->spread_on[r->srv[k]]++;
}

ct_status_t ct_rar_resimulate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_rar_schedule_t *s,
                              ct_rar_resim_t mode, double *start, double *finish, ct_error_t *err)
{
    size_t n = jobs->n, S = c->n_servers, NG = c->n_gpus;
    resim_t r;
    memset(&r, 0, sizeof r);
    r.n = n;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += jobs->jobs[i].gpus;
    unsigned char *mark = calloc(S, 1);
    size_t *list = malloc(S * sizeof(size_t));
    r.order = malloc(n * sizeof(size_t));
    r.cand = malloc((total > n ? total : n) * sizeof(size_t));
    r.qoff = calloc(NG + 1, sizeof(size_t));
    r.qjobs = malloc((total ? total : 1) * sizeof(size_t));
    r.qpos = calloc(NG ? NG : 1, sizeof(size_t));
    r.busy = calloc(NG ? NG : 1, 1);
    r.nsrv = calloc(n, sizeof(size_t));
    r.soff = calloc(n + 1, sizeof(size_t));
    r.srv = malloc((total ? total : 1) * sizeof(size_t));
    r.spread_on = calloc(S, sizeof(size_t));
    r.run = malloc(n * sizeof(size_t));
    r.prog = calloc(n, sizeof(double));
    r.rate = calloc(n, sizeof(double));
    r.state = calloc(n, 1);
    ct_status_t st = CT_OK;
    if (!mark || !list || !r.order || !r.cand || !r.qoff || !r.qjobs || !r.qpos || !r.busy || !r.nsrv || !r.soff ||
        !r.srv || !r.spread_on || !r.run || !r.prog || !r.rate || !r.state) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        r.order[i] = i;
        r.nsrv[i] = job_servers(c, s->gpus[i], jobs->jobs[i].gpus, mark, list);
        r.soff[i + 1] = r.soff[i] + r.nsrv[i];
        memcpy(r.srv + r.soff[i], list, r.nsrv[i] * sizeof(size_t));
        for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++)
            r.qoff[s->gpus[i][k] + 1]++;
    }
    sort_planned(r.order, r.cand, n, s->start);
    for (size_t g = 0; g < NG; g++)
        r.qoff[g + 1] += r.qoff[g];
    for (size_t x = 0; x < n; x++) { /* queues in planned order */
        size_t i = r.order[x];
        for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++) {
            uint32_t g = s->gpus[i][k];
            r.qjobs[r.qoff[g] + r.qpos[g]++] = i;
        }
    }
    memset(r.qpos, 0, NG * sizeof(size_t));
    size_t next = 0, left = n, ncand = 0; /* next: first job of the planned order not yet started */
    double t = 0;
    while (left > 0) {
        /* Starts at slot t. */
        if (mode == CT_RESIM_PLANNED) {
            while (next < n && s->start[r.order[next]] <= t && can_start(&r, s, jobs, r.order[next])) {
                if (start)
                    start[r.order[next]] = t;
                start_job(&r, s, jobs, r.order[next++]);
            }
        } else {
            /* Candidates: at first every job; later the jobs heading the
             * queues of GPUs just freed (cand also serves as the sort buffer). */
            if (t == 0)
                for (size_t x = 0; x < n; x++)
                    r.cand[ncand++] = r.order[x];
            for (size_t x = 0; x < ncand; x++) {
                size_t i = r.cand[x];
                if (r.state[i] == 0 && can_start(&r, s, jobs, i)) {
                    if (start)
                        start[i] = t;
                    start_job(&r, s, jobs, i);
                }
            }
            ncand = 0;
        }
        /* Rates under this slot's contention; the next event. */
        double step = INFINITY;
        const double tol = 1 - 1e-12;
        for (size_t x = 0; x < r.nrun; x++) {
            size_t i = r.run[x];
            double p = 1;
            for (size_t k = r.soff[i]; r.nsrv[i] > 1 && k < r.soff[i + 1]; k++)
                if ((double)r.spread_on[r.srv[k]] > p)
                    p = (double)r.spread_on[r.srv[k]];
            r.rate[i] = 1.0 / ct_rar_tau(c, &jobs->jobs[i], r.nsrv[i], p);
            double need = ceil((jobs->jobs[i].iterations * tol - r.prog[i]) / r.rate[i]);
            step = fmin(step, need < 1 ? 1 : need);
        }
        if (mode == CT_RESIM_PLANNED && next < n) {
            double at = ceil(s->start[r.order[next]]);
            if (at > t)
                step = fmin(step, at - t);
        }
        if (!isfinite(step)) {
            /* Nothing runs and nothing can start: only a schedule whose
             * per-GPU orders contradict each other gets here. */
            st = ct_error_set(err, CT_EINPUT, "re-simulation: no job can start at slot %.0f (%zu left)", t, left);
            goto done;
        }
        /* Advance; jobs whose completion falls in this step end at t + step. */
        for (size_t x = 0; x < r.nrun;) {
            size_t i = r.run[x];
            double need = ceil((jobs->jobs[i].iterations * tol - r.prog[i]) / r.rate[i]);
            r.prog[i] += step * r.rate[i];
            if (need > step) {
                x++;
                continue;
            }
            r.state[i] = 2;
            finish[i] = t + step;
            left--;
            for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++) {
                uint32_t g = s->gpus[i][k];
                r.busy[g] = 0;
                if (r.qpos[g] < r.qoff[g + 1] - r.qoff[g]) /* its next job may start */
                    r.cand[ncand++] = r.qjobs[r.qoff[g] + r.qpos[g]];
            }
            if (r.nsrv[i] > 1)
                for (size_t k = r.soff[i]; k < r.soff[i + 1]; k++)
                    r.spread_on[r.srv[k]]--;
            r.run[x] = r.run[--r.nrun];
        }
        t += step;
    }
done:
    resim_free(&r);
    free(mark);
    free(list);
    return st;
}
