/*
 * bco.c - SJF-BCO, FA-FFP, LBSGF and the FF / LS / RAND baselines (see
 * ct_bco.h).
 *
 * One placement pass (place_all) runs the jobs in SJF order against a
 * theta_u limit, picking GPUs with the policy's rule; the searches call it
 * O(log T) times (x max G for SJF-BCO's kappa loop). The contention used
 * for a job's estimated completion is that of the jobs running when it
 * starts; the final schedule is then re-simulated slot by slot.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_bco.h"
#include "ct_json.h"
#include "ct_sampler.h" /* ct_rng_t */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_bco_params_init(ct_bco_params_t *p)
{
    p->policy = CT_BCO_SJF_BCO;
    p->kappa = 0;
    p->lambda = 0;
    p->faffp = CT_FAFFP_PACK;
    p->seed = 1;
}

static const char *const policy_names[] = { "sjf-bco", "ff", "ls", "rand" };

const char *ct_bco_policy_name(ct_bco_policy_t p)
{
    return policy_names[p];
}

ct_bco_policy_t ct_bco_policy_parse(const char *name, int *ok)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, policy_names[i])) {
            *ok = 1;
            return (ct_bco_policy_t)i;
        }
    *ok = 0;
    return CT_BCO_SJF_BCO;
}

void ct_bco_result_free(ct_bco_result_t *r)
{
    if (!r)
        return;
    ct_rar_schedule_free(&r->sched);
    free(r->finish);
    free(r->U);
    free(r->rho_hat);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */

typedef struct {
    const ct_rar_cluster_t *c;
    const ct_rar_jobs_t *jobs;
    const ct_bco_params_t *p;
    size_t *order;          /* SJF order */
    double *rho_hat;
    /* pass state */
    double *U, *busy_until, clock;
    uint32_t *cand;         /* scratch: candidate GPUs */
    double *key;            /* scratch: sort keys per GPU */
    size_t *srv_order, *srv_list;
    unsigned char *srv_mark;
    ct_rar_schedule_t sched;/* the pass's schedule */
    unsigned char *spread;  /* per job: uses more than one server */
    size_t **jsrv, *jnsrv;  /* per job placed in this pass: its servers */
    ct_rng_t rng;
} pass_t;

/* Moves the k GPU ids with the least key (ties: lower id) to the front,
 * in order: a partial selection sort, O(k n) with k = G_j <= a few dozen. */
static void select_by_key(uint32_t *g, size_t n, size_t k, const double *key)
{
    for (size_t a = 0; a < k && a < n; a++) {
        size_t m = a;
        for (size_t b = a + 1; b < n; b++)
            if (key[g[b]] < key[g[m]] || (key[g[b]] == key[g[m]] && g[b] < g[m]))
                m = b;
        uint32_t t = g[a];
        g[a] = g[m];
        g[m] = t;
    }
}

static int gpu_free(const pass_t *s, uint32_t g)
{
    return s->busy_until[g] <= s->clock;
}

static int eligible(const pass_t *s, uint32_t g, double rh, double theta)
{
    return s->U[g] + rh <= theta + 1e-9;
}

/* Picks G GPUs for job j at the current clock into out; returns 1, or 0
 * when too few eligible GPUs are free now. */
static int pick(pass_t *s, size_t j, int use_lbsgf, double theta, uint32_t *out)
{
    const ct_rar_cluster_t *c = s->c;
    const ct_rar_job_t *job = &s->jobs->jobs[j];
    double rh = s->rho_hat[j];
    uint32_t G = job->gpus;
    size_t n = 0;
    ct_bco_policy_t pol = s->p->policy;
    if (use_lbsgf) {
        /* Servers by mean accumulated time; the fewest leading ones whose
         * capacity reaches lambda G; their eligible free GPUs by least U. */
        for (size_t v = 0; v < c->n_servers; v++) {
            double sum = 0;
            for (uint32_t k = 0; k < c->gpus[v]; k++)
                sum += s->U[c->first_gpu[v] + k];
            s->key[v] = sum / c->gpus[v];
            s->srv_order[v] = v;
        }
        for (size_t a = 1; a < c->n_servers; a++)
            for (size_t b = a; b > 0 && s->key[s->srv_order[b]] < s->key[s->srv_order[b - 1]]; b--) {
                size_t t = s->srv_order[b];
                s->srv_order[b] = s->srv_order[b - 1];
                s->srv_order[b - 1] = t;
            }
        double lambda = s->p->lambda > 0 ? s->p->lambda : job->lambda, cap = 0;
        size_t take = 0;
        while (take < c->n_servers && cap < lambda * G)
            cap += c->gpus[s->srv_order[take++]];
        int any_busy = 0;
        for (uint32_t g = 0; g < c->n_gpus && !any_busy; g++)
            any_busy = !gpu_free(s, g);
        for (;;) {
            n = 0;
            for (size_t k = 0; k < take; k++) {
                size_t v = s->srv_order[k];
                for (uint32_t q = 0; q < c->gpus[v]; q++) {
                    uint32_t g = c->first_gpu[v] + q;
                    if (gpu_free(s, g) && eligible(s, g, rh, theta))
                        s->cand[n++] = g;
                }
            }
            /* Nothing running will free GPUs in these servers: admit more. */
            if (n >= G || any_busy || take == c->n_servers)
                break;
            take++;
        }
        if (n < G)
            return 0;
        select_by_key(s->cand, n, G, s->U);
        memcpy(out, s->cand, G * sizeof(uint32_t));
        return 1;
    }
    for (uint32_t g = 0; g < c->n_gpus; g++)
        if (gpu_free(s, g) && eligible(s, g, rh, theta))
            s->cand[n++] = g;
    if (n < G)
        return 0;
    if (pol == CT_BCO_FF) {
        /* already in server and GPU index order */
    } else if (pol == CT_BCO_LS || (pol == CT_BCO_SJF_BCO && s->p->faffp == CT_FAFFP_LEAST_U)) {
        select_by_key(s->cand, n, G, s->U);
    } else if (pol == CT_BCO_RAND) {
        for (size_t k = 0; k < G; k++) { /* partial Fisher-Yates */
            size_t r = k + (size_t)ct_rng_below(&s->rng, n - k);
            uint32_t t = s->cand[k];
            s->cand[k] = s->cand[r];
            s->cand[r] = t;
        }
    } else {
        /* FA-FFP: servers already hosting a running job first, then servers
         * with fewer free GPUs, then least U: a composite key. */
        for (size_t v = 0; v < c->n_servers; v++) {
            uint32_t freec = 0, hosts = 0;
            for (uint32_t q = 0; q < c->gpus[v]; q++) {
                uint32_t g = c->first_gpu[v] + q;
                if (gpu_free(s, g))
                    freec++;
                else
                    hosts = 1;
            }
            for (uint32_t q = 0; q < c->gpus[v]; q++) {
                uint32_t g = c->first_gpu[v] + q;
                s->key[g] = (hosts ? 0.0 : 1e12) + (double)freec * 1e6 + s->U[g];
            }
        }
        select_by_key(s->cand, n, G, s->key);
    }
    memcpy(out, s->cand, G * sizeof(uint32_t));
    return 1;
}

/* Servers of a GPU list; returns how many. */
static size_t servers_of(pass_t *s, const uint32_t *g, uint32_t n)
{
    size_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        size_t v = ct_rar_server_of(s->c, g[k]);
        if (!s->srv_mark[v]) {
            s->srv_mark[v] = 1;
            s->srv_list[m++] = v;
        }
    }
    for (size_t k = 0; k < m; k++)
        s->srv_mark[s->srv_list[k]] = 0;
    return m;
}

/* One placement pass. Returns 1 with the makespan estimate, 0 if some job
 * cannot be placed under theta. */
static int place_all(pass_t *s, double theta, long kappa, double *makespan)
{
    const ct_rar_cluster_t *c = s->c;
    size_t n = s->jobs->n;
    for (uint32_t g = 0; g < c->n_gpus; g++)
        s->U[g] = s->busy_until[g] = 0;
    s->clock = 0;
    memset(s->spread, 0, n);
    double ms = 0;
    for (size_t oi = 0; oi < n; oi++) {
        size_t j = s->order[oi];
        const ct_rar_job_t *job = &s->jobs->jobs[j];
        double rh = s->rho_hat[j];
        uint32_t cnt = 0;
        for (uint32_t g = 0; g < c->n_gpus; g++)
            cnt += eligible(s, g, rh, theta);
        if (cnt < job->gpus)
            return 0; /* no waiting makes U smaller */
        int lbsgf = s->p->policy == CT_BCO_SJF_BCO && (long)job->gpus > kappa;
        while (!pick(s, j, lbsgf, theta, s->sched.gpus[j])) {
            double next = INFINITY; /* the next completion after the clock */
            for (uint32_t g = 0; g < c->n_gpus; g++)
                if (s->busy_until[g] > s->clock && s->busy_until[g] < next)
                    next = s->busy_until[g];
            if (!isfinite(next))
                return 0;
            s->clock = next;
        }
        /* Estimated completion with the contention of the jobs running now. */
        size_t ns = servers_of(s, s->sched.gpus[j], job->gpus);
        memcpy(s->jsrv[j], s->srv_list, ns * sizeof(size_t));
        s->jnsrv[j] = ns;
        double p = 1;
        if (ns > 1) {
            s->spread[j] = 1;
            for (size_t k = 0; k < ns; k++) {
                double on = 1; /* j itself */
                for (size_t oj = 0; oj < oi; oj++) {
                    size_t o = s->order[oj];
                    if (!s->spread[o] || s->sched.finish_est[o] <= s->clock)
                        continue;
                    for (size_t q = 0; q < s->jnsrv[o]; q++)
                        if (s->jsrv[o][q] == s->jsrv[j][k]) {
                            on++;
                            break;
                        }
                }
                if (on > p)
                    p = on;
            }
        }
        double fin = s->clock + ct_rar_tau(c, job, ns, p) * job->iterations;
        s->sched.start[j] = s->clock;
        s->sched.finish_est[j] = fin;
        for (uint32_t k = 0; k < job->gpus; k++) {
            uint32_t g = s->sched.gpus[j][k];
            s->busy_until[g] = fin;
            s->U[g] += rh;
        }
        if (fin > ms)
            ms = fin;
    }
    *makespan = ms;
    return 1;
}

static void copy_schedule(ct_rar_schedule_t *dst, const ct_rar_schedule_t *src, const ct_rar_jobs_t *jobs)
{
    for (size_t j = 0; j < src->n; j++) {
        memcpy(dst->gpus[j], src->gpus[j], jobs->jobs[j].gpus * sizeof(uint32_t));
        dst->start[j] = src->start[j];
        dst->finish_est[j] = src->finish_est[j];
    }
}

ct_status_t ct_bco_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                            ct_bco_result_t *out, ct_error_t *err)
{
    ct_bco_params_t defaults;
    if (!p) {
        ct_bco_params_init(&defaults);
        p = &defaults;
    }
    memset(out, 0, sizeof *out);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t n = jobs->n;
    uint32_t max_g = 0;
    for (size_t j = 0; j < n; j++) {
        if (jobs->jobs[j].gpus > c->n_gpus)
            return ct_error_set(err, CT_EINPUT, "jobs[%zu].gpus: job '%s' needs %u GPUs, the cluster has %u", j,
                                jobs->jobs[j].id, jobs->jobs[j].gpus, c->n_gpus);
        if (jobs->jobs[j].gpus > max_g)
            max_g = jobs->jobs[j].gpus;
    }
    pass_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.jobs = jobs;
    s.p = p;
    ct_rng_seed(&s.rng, p->seed);
    size_t NG = c->n_gpus, NS = c->n_servers, kn = NG > NS ? NG : NS;
    s.order = malloc(n * sizeof(size_t));
    s.rho_hat = malloc(n * sizeof(double));
    s.U = malloc(NG * sizeof(double));
    s.busy_until = malloc(NG * sizeof(double));
    s.cand = malloc(NG * sizeof(uint32_t));
    s.key = malloc(kn * sizeof(double));
    s.srv_order = malloc(NS * sizeof(size_t));
    s.srv_list = malloc(NS * sizeof(size_t));
    s.srv_mark = calloc(NS, 1);
    s.spread = calloc(n, 1);
    s.jsrv = calloc(n, sizeof(size_t *));
    s.jnsrv = calloc(n, sizeof(size_t));
    for (size_t j = 0; s.jsrv && j < n; j++)
        s.jsrv[j] = malloc((jobs->jobs[j].gpus < NS ? jobs->jobs[j].gpus : NS) * sizeof(size_t));
    out->finish = calloc(n, sizeof(double));
    out->U = calloc(NG, sizeof(double));
    out->rho_hat = malloc(n * sizeof(double));
    ct_status_t st = CT_OK;
    if (!s.order || !s.rho_hat || !s.U || !s.busy_until || !s.cand || !s.key || !s.srv_order || !s.srv_list ||
        !s.srv_mark || !s.spread || !s.jsrv || !s.jnsrv || !out->finish || !out->U || !out->rho_hat) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_rar_schedule_alloc(&s.sched, jobs, err)) != CT_OK ||
        (st = ct_rar_schedule_alloc(&out->sched, jobs, err)) != CT_OK)
        goto done;
    for (size_t j = 0; j < n; j++) {
        double worst;
        ct_rar_exec_bounds(c, &jobs->jobs[j], &s.rho_hat[j], &worst);
        s.order[j] = j;
    }
    memcpy(out->rho_hat, s.rho_hat, n * sizeof(double));
    /* SJF: by GPUs, ties by estimated execution time, then job order. */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0; b--) {
            size_t x = s.order[b], y = s.order[b - 1];
            const ct_rar_job_t *jx = &jobs->jobs[x], *jy = &jobs->jobs[y];
            int less = jx->gpus < jy->gpus || (jx->gpus == jy->gpus && s.rho_hat[x] < s.rho_hat[y]);
            if (!less)
                break;
            s.order[b] = y;
            s.order[b - 1] = x;
        }
    double best = INFINITY, ms;
    long lo = 1, hi = c->horizon;
    if (p->policy == CT_BCO_RAND) {
        out->runs++;
        if (place_all(&s, (double)c->horizon, 0, &ms)) {
            best = ms;
            out->theta_u = c->horizon;
            copy_schedule(&out->sched, &s.sched, jobs);
        }
    } else {
        long k_lo = 1, k_hi = p->policy == CT_BCO_SJF_BCO ? (long)max_g : 1;
        if (p->policy == CT_BCO_SJF_BCO && p->kappa > 0)
            k_lo = k_hi = p->kappa;
        while (lo <= hi) {
            long theta = lo + (hi - lo) / 2;
            double m_theta = INFINITY;
            long m_kappa = 0;
            for (long kappa = k_lo; kappa <= k_hi; kappa++) {
                out->runs++;
                if (place_all(&s, (double)theta, kappa, &ms) && ms < m_theta) {
                    m_theta = ms;
                    m_kappa = kappa;
                    if (ms <= best)
                        copy_schedule(&out->sched, &s.sched, jobs);
                }
            }
            /* CHOICE: a tie also moves the search down, so theta_u~ is the
             * tightest limit that gives the best makespan (the spec's
             * strict test would leave it wherever the first hit was). */
            if (m_theta <= best && isfinite(m_theta)) {
                best = m_theta;
                out->theta_u = theta;
                out->kappa = p->policy == CT_BCO_SJF_BCO ? m_kappa : 0;
                hi = theta - 1;
            } else {
                lo = theta + 1;
            }
        }
    }
    if (!isfinite(best)) {
        st = ct_error_set(err, CT_ELIMIT, "no %s schedule fits the horizon of %ld slots (raise \"horizon\" in the "
                          "cluster file)", ct_bco_policy_name(p->policy), c->horizon);
        goto done;
    }
    out->makespan_est = best;
    /* U and W_max of the returned schedule. */
    for (size_t j = 0; j < n; j++)
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++)
            out->U[out->sched.gpus[j][k]] += s.rho_hat[j];
    for (uint32_t g = 0; g < NG; g++)
        if (out->U[g] > out->W_max)
            out->W_max = out->U[g];
    if ((st = ct_rar_resimulate(c, jobs, &out->sched, out->finish, err)) != CT_OK)
        goto done;
    for (size_t j = 0; j < n; j++) {
        if (out->finish[j] > out->makespan)
            out->makespan = out->finish[j];
        out->mean_jct += out->finish[j] / (double)n;
    }
done:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ct_rar_schedule_free(&s.sched);
    free(s.order);
    free(s.rho_hat);
    free(s.U);
    free(s.busy_until);
    free(s.cand);
    free(s.key);
    free(s.srv_order);
    free(s.srv_list);
    free(s.srv_mark);
    free(s.spread);
    for (size_t j = 0; s.jsrv && j < n; j++)
        free(s.jsrv[j]);
    free(s.jsrv);
    free(s.jnsrv);
    if (st != CT_OK)
        ct_bco_result_free(out);
    return st;
}

ct_status_t ct_bco_write_schedule(const ct_rar_cluster_t *c, const ct_rar_jobs_t *jobs, const ct_bco_params_t *p,
                                  const ct_bco_result_t *r, const char *path, ct_error_t *err)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    if (!root || !arr) {
        cJSON_Delete(root);
        cJSON_Delete(arr);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    cJSON_AddStringToObject(root, "format", "contend-schedule/1");
    cJSON_AddStringToObject(root, "policy", ct_bco_policy_name(p->policy));
    ct_json_add_number(root, "theta_u", (double)r->theta_u);
    ct_json_add_number(root, "kappa", (double)r->kappa);
    ct_json_add_number(root, "makespan_estimate", r->makespan_est);
    ct_json_add_number(root, "makespan", r->makespan);
    ct_json_add_number(root, "mean_jct", r->mean_jct);
    cJSON_AddItemToObject(root, "jobs", arr);
    for (size_t j = 0; j < jobs->n; j++) {
        cJSON *o = cJSON_CreateObject(), *per = cJSON_CreateObject(), *ids = cJSON_CreateArray();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "id", jobs->jobs[j].id);
        for (uint32_t k = 0; k < jobs->jobs[j].gpus; k++) {
            uint32_t g = r->sched.gpus[j][k];
            char key[24];
            snprintf(key, sizeof key, "%zu", ct_rar_server_of(c, g));
            cJSON *cnt = cJSON_GetObjectItemCaseSensitive(per, key);
            if (cnt)
                cJSON_SetNumberValue(cnt, cnt->valuedouble + 1);
            else
                cJSON_AddNumberToObject(per, key, 1);
            cJSON_AddItemToArray(ids, ct_json_number(g));
        }
        cJSON_AddItemToObject(o, "gpus_per_server", per);
        cJSON_AddItemToObject(o, "gpu_ids", ids);
        ct_json_add_number(o, "start", r->sched.start[j]);
        ct_json_add_number(o, "expected_completion", r->sched.finish_est[j]);
        ct_json_add_number(o, "completion", r->finish[j]);
    }
    ct_status_t st = ct_json_write_file(root, path, err);
    cJSON_Delete(root);
    return st;
}
