/*
 * rar.c - ring-all-reduce cluster model, files, workload generator and
 * schedule re-simulation (see ct_rar.h).
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

void ct_rar_jobs_free(ct_rar_jobs_t *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        free(j->jobs[i].id);
    free(j->jobs);
    memset(j, 0, sizeof *j);
}

ct_status_t ct_rar_cluster_index(ct_rar_cluster_t *c, ct_error_t *err)
{
    free(c->first_gpu);
    c->first_gpu = malloc((c->n_servers ? c->n_servers : 1) * sizeof(uint32_t));
    if (!c->first_gpu)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    c->n_gpus = 0;
    for (size_t s = 0; s < c->n_servers; s++) {
        c->first_gpu[s] = c->n_gpus;
        c->n_gpus += c->gpus[s];
    }
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
    for (size_t s = 0; s < c->n_servers; s++)
        if (c->gpus[s] == 0)
            return ct_error_set(err, CT_EINPUT, "%s: servers[%zu]: a server needs at least one GPU", label, s);
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
        for (size_t k = 0; k < i; k++)
            if (!strcmp(js->jobs[k].id, j->id))
                return ct_error_set(err, CT_EINPUT, "%s: jobs[%zu].id: duplicate job id '%s'", label, i, j->id);
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
    return CT_OK;
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

double ct_rar_tau(const ct_rar_cluster_t *c, const ct_rar_job_t *j, size_t servers, double p)
{
    double k = 1.0;
    if (servers > 1) {
        if (p < 1)
            p = 1;
        k = c->contention == CT_CONTENTION_LITERAL ? fmax(1.0, c->xi1 * p) : 1.0 + c->xi1 * (p - 1.0);
    }
    return tau_k(c, j, servers, k);
}

/* Fewest servers that can hold g GPUs (largest first). */
static size_t min_servers(const ct_rar_cluster_t *c, uint32_t g)
{
    uint32_t *sorted = malloc(c->n_servers * sizeof(uint32_t));
    if (!sorted)
        return c->n_servers;
    memcpy(sorted, c->gpus, c->n_servers * sizeof(uint32_t));
    for (size_t a = 1; a < c->n_servers; a++) /* descending insertion sort */
        for (size_t b = a; b > 0 && sorted[b] > sorted[b - 1]; b--) {
            uint32_t t = sorted[b];
            sorted[b] = sorted[b - 1];
            sorted[b - 1] = t;
        }
    size_t n = 0;
    uint64_t have = 0;
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
    *worst = tau_k(c, j, spread, spread > 1 ? (double)omax : 1.0) * j->iterations;
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
    if ((st = ct_rar_cluster_index(c, err)) == CT_OK)
        st = ct_rar_cluster_validate(c, path, err);
done:
    cJSON_Delete(root);
    if (st != CT_OK)
        ct_rar_cluster_free(c);
    return st;
}

static const char *const job_fields[] = { "id", "gpus", "iterations", "gradient_size", "batch", "forward_time",
                                          "backward_time", "lambda" };

static ct_status_t job_set(ct_rar_job_t *j, size_t f, double v)
{
    switch (f) {
    case 1:
        if (!(v >= 1 && v <= 1e6 && v == floor(v)))
            return CT_EINPUT;
        j->gpus = (uint32_t)v;
        break;
    case 2: j->iterations = v; break;
    case 3: j->grad = v; break;
    case 4: j->batch = v; break;
    case 5: j->fwd = v; break;
    case 6: j->bwd = v; break;
    case 7: j->lambda = v; break;
    }
    return CT_OK;
}

static ct_status_t jobs_load_csv(ct_rar_jobs_t *js, char *text, const char *path, ct_error_t *err)
{
    size_t cap = 0, line = 0;
    int col[8];
    ct_status_t st = CT_OK;
    /* Split by hand, not with strtok_r: it merges blank lines, and error
     * messages must name the real line number. */
    for (char *ln = text, *next; ln && *ln && st == CT_OK; ln = next) {
        line++;
        next = strchr(ln, '\n');
        if (next)
            *next++ = '\0';
        size_t L = strlen(ln);
        if (L && ln[L - 1] == '\r')
            ln[--L] = '\0';
        if (L == 0)
            continue;
        char *cells[16];
        size_t nc = 0;
        for (char *p = ln, *q; nc < 16; p = q + 1) {
            cells[nc++] = p;
            if (!(q = strchr(p, ',')))
                break;
            *q = '\0';
        }
        if (line == 1) {
            for (size_t f = 0; f < 8; f++) {
                col[f] = -1;
                for (size_t k = 0; k < nc; k++)
                    if (!strcmp(cells[k], job_fields[f]))
                        col[f] = (int)k;
                if (col[f] < 0 && f < 7)
                    return ct_error_set(err, CT_EINPUT, "%s:1: header lacks the column '%s'", path, job_fields[f]);
            }
            continue;
        }
        if (js->n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            ct_rar_job_t *nj = realloc(js->jobs, ncap * sizeof *nj);
            if (!nj)
                return ct_error_set(err, CT_ENOMEM, "out of memory");
            js->jobs = nj;
            cap = ncap;
        }
        ct_rar_job_t *j = &js->jobs[js->n];
        memset(j, 0, sizeof *j);
        j->lambda = 1;
        if ((size_t)col[0] >= nc || !(j->id = ct_strdup(cells[col[0]], err)))
            return ct_error_set(err, CT_EINPUT, "%s:%zu: missing id", path, line);
        js->n++;
        for (size_t f = 1; f < 8; f++) {
            if (col[f] < 0)
                continue;
            char *end;
            double v = (size_t)col[f] < nc ? strtod(cells[col[f]], &end) : NAN;
            if ((size_t)col[f] >= nc || end == cells[col[f]] || *end || !isfinite(v) || job_set(j, f, v) != CT_OK)
                return ct_error_set(err, CT_EINPUT, "%s:%zu: %s: expected a number%s", path, line, job_fields[f],
                                    f == 1 ? " (whole, >= 1)" : "");
        }
    }
    return st;
}

ct_status_t ct_rar_jobs_load(ct_rar_jobs_t *js, const char *path, ct_error_t *err)
{
    char *text;
    size_t len;
    memset(js, 0, sizeof *js);
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return st;
    size_t k = strspn(text, " \t\r\n");
    if (text[k] != '{') {
        st = jobs_load_csv(js, text, path, err);
    } else {
        cJSON *root = NULL;
        st = ct_json_parse(text, len, path, &root, err);
        const cJSON *arr = root ? cJSON_GetObjectItemCaseSensitive(root, "jobs") : NULL;
        if (st == CT_OK && !cJSON_IsArray(arr))
            st = ct_error_set(err, CT_EINPUT, "%s: jobs: %s", path, arr ? "expected an array" : "missing");
        if (st == CT_OK) {
            size_t n = (size_t)cJSON_GetArraySize(arr);
            js->jobs = calloc(n ? n : 1, sizeof(ct_rar_job_t));
            if (!js->jobs)
                st = ct_error_set(err, CT_ENOMEM, "out of memory");
            const cJSON *it;
            cJSON_ArrayForEach(it, arr) {
                if (st != CT_OK)
                    break;
                char item[32];
                snprintf(item, sizeof item, "jobs[%zu]", js->n);
                ct_rar_job_t *j = &js->jobs[js->n];
                const char *id;
                j->lambda = 1;
                if (!cJSON_IsObject(it)) {
                    st = ct_error_set(err, CT_EINPUT, "%s: %s: expected an object", path, item);
                    break;
                }
                if ((st = ct_json_get_string(it, "id", 1, path, item, &id, err)) != CT_OK)
                    break;
                if (!(j->id = ct_strdup(id, err))) {
                    st = CT_ENOMEM;
                    break;
                }
                js->n++;
                for (size_t f = 1; f < 8 && st == CT_OK; f++) {
                    double v = f == 7 ? 1.0 : NAN;
                    if ((st = ct_json_get_number(it, job_fields[f], f < 7, path, item, &v, err)) != CT_OK)
                        break;
                    if (job_set(j, f, v) != CT_OK)
                        st = ct_error_set(err, CT_EINPUT, "%s: %s.gpus: expected a whole number >= 1", path, item);
                }
            }
        }
        cJSON_Delete(root);
    }
    free(text);
    if (st == CT_OK)
        st = ct_rar_jobs_validate(js, path, err);
    if (st != CT_OK)
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
    cJSON *r = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    if (!r || !arr) {
        cJSON_Delete(r);
        cJSON_Delete(arr);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    cJSON_AddItemToObject(r, "jobs", arr);
    for (size_t i = 0; i < js->n; i++) {
        const ct_rar_job_t *j = &js->jobs[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "id", j->id);
        double v[7] = { j->gpus, j->iterations, j->grad, j->batch, j->fwd, j->bwd, j->lambda };
        for (size_t f = 1; f < 8; f++)
            ct_json_add_number(o, job_fields[f], v[f - 1]);
    }
    ct_status_t st = ct_json_write_file(r, path, err);
    cJSON_Delete(r);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The paper's workload.                                                     */

ct_status_t ct_rar_workload(uint64_t seed, size_t n_servers, ct_rar_cluster_t *c, ct_rar_jobs_t *js, ct_error_t *err)
{
    static const uint32_t sizes[] = { 4, 8, 16, 32 };
    static const struct {
        uint32_t gpus, count;
    } mix[] = { { 1, 80 }, { 2, 14 }, { 4, 26 }, { 8, 30 }, { 16, 8 }, { 32, 2 } };
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    memset(c, 0, sizeof *c);
    memset(js, 0, sizeof *js);
    c->n_servers = n_servers ? n_servers : 20;
    c->gpus = malloc(c->n_servers * sizeof(uint32_t));
    js->jobs = calloc(160, sizeof(ct_rar_job_t));
    if (!c->gpus || !js->jobs) {
        ct_rar_cluster_free(c);
        ct_rar_jobs_free(js);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t s = 0; s < c->n_servers; s++)
        c->gpus[s] = sizes[ct_rng_below(&rng, 4)];
    c->b_intra = 1000;
    c->b_inter = 100;
    c->reduction = 2000;
    c->xi1 = 1;
    c->xi2 = 0.0002; /* 8 servers' overhead stays under the shortest iteration */
    c->alpha = 0.5;
    c->horizon = 1200;
    ct_status_t st = ct_rar_cluster_index(c, err);
    /* Each job: best-case execution E in [50, 300] slots over F in [1000,
     * 6000] iterations. At its best-case placement (fewest servers, no
     * contention) overhead plus all-reduce take 15% of an iteration (the
     * gradient size is set to make it so: "contention and overhead at most
     * 15%"), compute the rest (a third forward over a batch of 32, two
     * thirds backward); single-GPU jobs have overhead only. */
    size_t i = 0;
    for (size_t m = 0; st == CT_OK && m < sizeof mix / sizeof mix[0]; m++)
        for (uint32_t k = 0; st == CT_OK && k < mix[m].count; k++, i++) {
            ct_rar_job_t *j = &js->jobs[i];
            char id[32];
            snprintf(id, sizeof id, "j%03zu", i + 1);
            if (!(j->id = ct_strdup(id, err))) {
                st = CT_ENOMEM;
                break;
            }
            js->n = i + 1;
            j->gpus = mix[m].gpus;
            j->iterations = (double)(1000 + ct_rng_below(&rng, 5001));
            j->batch = 32;
            j->lambda = 1;
            double E = 50.0 + 250.0 * ct_rng_uniform(&rng), tau = E / j->iterations;
            size_t ns = min_servers(c, j->gpus);
            double w = j->gpus, overhead = c->xi2 * (double)ns;
            double comm = w > 1 ? fmax(0.0, 0.15 * tau - overhead) : 0.0;
            double compute = tau - overhead - comm;
            j->fwd = compute / 3.0 / j->batch;
            j->bwd = 2.0 * compute / 3.0;
            double B = ns > 1 ? c->b_inter : c->b_intra;
            double per_unit = w > 1 ? 2.0 * (w - 1) / (w * B) + (w - 1) / (w * c->reduction) : 0.0;
            j->grad = per_unit > 0 && comm > 0 ? comm / per_unit : 1e-9;
        }
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

ct_status_t ct_rar_resimulate(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_rar_schedule_t *s,
                              double *finish, ct_error_t *err)
{
    size_t n = jobs->n, S = c->n_servers;
    size_t *order = malloc(n * sizeof(size_t)), *nsrv = calloc(n, sizeof(size_t)), **srv = calloc(n, sizeof(size_t *));
    size_t *spread_on = calloc(S, sizeof(size_t)), *list = malloc(S * sizeof(size_t));
    double *prog = calloc(n, sizeof(double));
    int *state = calloc(n, sizeof(int)); /* 0 waiting, 1 running, 2 done */
    unsigned char *busy = calloc(c->n_gpus ? c->n_gpus : 1, 1), *mark = calloc(S, 1);
    ct_status_t st = CT_OK;
    if (!order || !nsrv || !srv || !spread_on || !list || !prog || !state || !busy || !mark) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        nsrv[i] = job_servers(c, s->gpus[i], jobs->jobs[i].gpus, mark, list);
        if (!(srv[i] = malloc(nsrv[i] * sizeof(size_t)))) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        memcpy(srv[i], list, nsrv[i] * sizeof(size_t));
    }
    for (size_t a = 1; a < n; a++) /* stable insertion sort by planned start */
        for (size_t b = a; b > 0 && s->start[order[b]] < s->start[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    size_t next = 0, left = n;
    long limit = 100 * c->horizon;
    for (long t = 0; left > 0; t++) {
        if (t > limit) {
            st = ct_error_set(err, CT_EINTERNAL, "re-simulation: jobs still running after %ld slots", limit);
            goto done;
        }
        /* Starts, in planned order, as GPUs allow. */
        while (next < n) {
            size_t i = order[next];
            if (s->start[i] > (double)t)
                break;
            int free_all = 1;
            for (uint32_t k = 0; k < jobs->jobs[i].gpus && free_all; k++)
                free_all = !busy[s->gpus[i][k]];
            if (!free_all)
                break;
            for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++)
                busy[s->gpus[i][k]] = 1;
            state[i] = 1;
            if (nsrv[i] > 1)
                for (size_t k = 0; k < nsrv[i]; k++)
                    spread_on[srv[i][k]]++;
            next++;
        }
        /* One slot of progress with this slot's contention. */
        for (size_t i = 0; i < n; i++) {
            if (state[i] != 1)
                continue;
            double p = 1;
            if (nsrv[i] > 1)
                for (size_t k = 0; k < nsrv[i]; k++)
                    if ((double)spread_on[srv[i][k]] > p)
                        p = (double)spread_on[srv[i][k]];
            prog[i] += 1.0 / ct_rar_tau(c, &jobs->jobs[i], nsrv[i], p);
        }
        for (size_t i = 0; i < n; i++) {
            if (state[i] != 1 || prog[i] < jobs->jobs[i].iterations * (1 - 1e-12))
                continue;
            state[i] = 2;
            finish[i] = (double)(t + 1);
            left--;
            for (uint32_t k = 0; k < jobs->jobs[i].gpus; k++)
                busy[s->gpus[i][k]] = 0;
            if (nsrv[i] > 1)
                for (size_t k = 0; k < nsrv[i]; k++)
                    spread_on[srv[i][k]]--;
        }
    }
done:
    for (size_t i = 0; srv && i < n; i++)
        free(srv[i]);
    free(srv);
    free(order);
    free(nsrv);
    free(spread_on);
    free(list);
    free(prog);
    free(state);
    free(busy);
    free(mark);
    return st;
}
