/*
 * share_model.c - the per-application time and memory model of GPU sharing
 * (ct_share.h): the least-squares fit from measured step times, the apps
 * JSON, Theorem 1 and Algorithm 2, and the Pollux workload format.
 *
 * Apps file (JSON):
 *   {"window_s": 28800,
 *    "apps": [{"name", "comp_alpha_s", "comp_beta_s", "comm_alpha_s": [one
 *              server, several], "comm_beta_s": [..], "delta",
 *              "init_batch", "local_min", "local_max", "mem_static",
 *              "iterations": [[batch, iterations], ...],
 *              "fit": {"rows_comp", "r2_comp", "rows_step", "rms_log_step"}}],
 *    "xi": [[app a, app b, xi], ...]       (absent pairs: 1)
 *    "configs": [[app, gpus, batch, weight], ...]}
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_json.h"
#include "ct_sampler.h"
#include "ct_share.h"

#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The model.                                                                */

double ct_app_comp(const ct_app_t *app, double b)
{
    return app->comp_alpha + app->comp_beta * b;
}

double ct_app_comm(const ct_app_t *app, uint32_t gpus, uint32_t servers)
{
    if (gpus < 2)
        return 0;
    int k = servers > 1;
    return fmax(0.0, app->comm_alpha[k] + app->comm_beta[k] * (double)(gpus - 2));
}

double ct_app_iter(const ct_app_t *app, double local, uint32_t s, uint32_t gpus, uint32_t servers)
{
    if (s < 1)
        s = 1;
    double tc = ct_app_comp(app, local / s), tn = ct_app_comm(app, gpus, servers), d = app->delta;
    double step = tn > 0 ? pow(pow(tc, d) + pow(tn, d), 1.0 / d) : tc;
    return (double)(s - 1) * tc + step;
}

double ct_app_mem(const ct_app_t *app, double b)
{
    return app->mem_static + (1.0 - app->mem_static) * b / app->local_max;
}

uint32_t ct_app_min_steps(const ct_app_t *app, double local)
{
    double s = ceil(local / app->local_max - 1e-9);
    return s < 1 ? 1 : s > 1e9 ? 1000000000u : (uint32_t)s;
}

double ct_app_iterations(const ct_app_t *app, double batch)
{
    size_t n = app->n_iters;
    if (n == 1 || batch <= app->iters_batch[0])
        return app->iters[0];
    if (batch >= app->iters_batch[n - 1])
        return app->iters[n - 1];
    size_t k = 1;
    while (app->iters_batch[k] < batch)
        k++;
    double x0 = log(app->iters_batch[k - 1]), x1 = log(app->iters_batch[k]);
    double y0 = log(app->iters[k - 1]), y1 = log(app->iters[k]);
    return exp(y0 + (y1 - y0) * (log(batch) - x0) / (x1 - x0));
}

/* ------------------------------------------------------------------------ */
/* Theorem 1 and Algorithm 2.                                                */

double ct_share_pair_mean(double t_a, double t_a_alone, double i_a, double xi_a, double t_b, double i_b, double xi_b,
                          double kappa)
{
    double b_alone_end = t_b * i_b;
    if (kappa >= b_alone_end) /* A waits for B, then runs alone */
        return 0.5 * (b_alone_end + b_alone_end + t_a_alone * i_a);
    /* B alone until kappa, then both slowed until the first ends. */
    double ib = i_b - kappa / t_b;
    double ta = t_a * xi_a, tb = t_b * xi_b;
    double end_a, end_b;
    if (i_a * ta <= ib * tb) {
        end_a = kappa + i_a * ta;
        end_b = end_a + (ib - i_a * ta / tb) * t_b;
    } else {
        end_b = kappa + ib * tb;
        end_a = end_b + (i_a - ib * tb / ta) * t_a;
    }
    return 0.5 * (end_a + end_b);
}

int ct_share_theorem1(double t_a, double t_a_alone, double i_a, double xi_a, double t_b, double i_b, double xi_b,
                      double *mean)
{
    double now = ct_share_pair_mean(t_a, t_a_alone, i_a, xi_a, t_b, i_b, xi_b, 0);
    double later = ct_share_pair_mean(t_a, t_a_alone, i_a, xi_a, t_b, i_b, xi_b, t_b * i_b);
    *mean = now < later ? now : later;
    return now < later;
}

uint32_t ct_share_options(const ct_app_t *app, double local, uint32_t gpus, uint32_t servers, double *t, double *mem,
                          size_t *n)
{
    uint32_t s0 = ct_app_min_steps(app, local);
    size_t k = 0;
    for (double s = s0; k < CT_SHARE_MAX_OPTIONS && (k == 0 || (local / s >= 1.0 - 1e-9 && s <= 2147483648.0));
         s *= 2, k++) {
        t[k] = ct_app_iter(app, local, (uint32_t)fmin(s, 4e9), gpus, servers);
        mem[k] = ct_app_mem(app, local / s);
    }
    *n = k;
    return s0;
}

ct_share_choice_t ct_share_best_of(const double *t, const double *mem, size_t n, uint32_t s0, double i_a, double xi_a,
                                   double t_b, double i_b, double xi_b, double mem_used)
{
    ct_share_choice_t best = { 0, s0, ct_share_pair_mean(t[0], t[0], i_a, xi_a, t_b, i_b, xi_b, t_b * i_b) };
    for (size_t k = 0; k < n; k++) {
        if (mem_used + mem[k] > 1.0 + 1e-12)
            continue;
        double m = ct_share_pair_mean(t[k], t[0], i_a, xi_a, t_b, i_b, xi_b, 0);
        if (m < best.mean) {
            best.share = 1;
            best.steps = s0 << k;
            best.mean = m;
        }
    }
    return best;
}

ct_share_choice_t ct_share_best(const ct_app_t *app, double local, uint32_t gpus, uint32_t servers, double i_a,
                                double xi_a, double t_b, double i_b, double xi_b, double mem_used)
{
    double t[CT_SHARE_MAX_OPTIONS], mem[CT_SHARE_MAX_OPTIONS];
    size_t n;
    uint32_t s0 = ct_share_options(app, local, gpus, servers, t, mem, &n);
    return ct_share_best_of(t, mem, n, s0, i_a, xi_a, t_b, i_b, xi_b, mem_used);
}

/* ------------------------------------------------------------------------ */
/* Apps: validation, lookup, JSON.                                           */

void ct_apps_free(ct_apps_t *a)
{
    if (!a)
        return;
    free(a->apps);
    free(a->xi);
    free(a->configs);
    memset(a, 0, sizeof *a);
}

int ct_apps_find(const ct_apps_t *a, const char *name)
{
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->apps[i].name, name))
            return (int)i;
    return -1;
}

static int nonneg(double x)
{
    return isfinite(x) && x >= 0;
}

ct_status_t ct_apps_validate(const ct_apps_t *a, const char *label, ct_error_t *err)
{
    if (a->n < 1)
        return ct_error_set(err, CT_EINPUT, "%s: apps: at least one application", label);
    for (size_t i = 0; i < a->n; i++) {
        const ct_app_t *p = &a->apps[i];
        const char *nm = p->name;
        if (!p->name[0])
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu].name: empty", label, i);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(a->apps[k].name, nm))
                return ct_error_set(err, CT_EINPUT, "%s: apps[%zu].name: '%s' appears twice", label, i, nm);
        if (!nonneg(p->comp_alpha) || !nonneg(p->comp_beta) || !(p->comp_alpha + p->comp_beta > 0))
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': comp_alpha_s, comp_beta_s: expected >= 0, not both 0",
                                label, i, nm);
        for (int k = 0; k < 2; k++)
            if (!nonneg(p->comm_alpha[k]) || !nonneg(p->comm_beta[k]))
                return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': comm_alpha_s, comm_beta_s: expected >= 0",
                                    label, i, nm);
        if (!(p->delta >= 1 && p->delta <= 10))
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': delta: expected 1 .. 10", label, i, nm);
        if (!(p->local_min >= 1 && p->local_max >= p->local_min && isfinite(p->local_max)))
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': local_min, local_max: expected 1 <= min <= max",
                                label, i, nm);
        if (!(p->mem_static >= 0 && p->mem_static < 1))
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': mem_static: expected 0 <= m < 1", label, i, nm);
        if (!(p->init_batch >= 1 && isfinite(p->init_batch)))
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': init_batch: expected >= 1", label, i, nm);
        if (p->n_iters < 1 || p->n_iters > CT_APP_ITERS_MAX)
            return ct_error_set(err, CT_EINPUT, "%s: apps[%zu] '%s': iterations: expected 1 .. %d rows", label, i, nm,
                                CT_APP_ITERS_MAX);
        for (size_t k = 0; k < p->n_iters; k++)
            if (!(p->iters_batch[k] >= 1 && p->iters_batch[k] <= CT_MAX_COUNT && p->iters[k] > 0 &&
                  p->iters[k] <= CT_MAX_COUNT &&
                  (k == 0 || p->iters_batch[k] > p->iters_batch[k - 1])))
                return ct_error_set(err, CT_EINPUT,
                                    "%s: apps[%zu] '%s': iterations[%zu]: expected [batch, iterations] > 0, batches "
                                    "increasing",
                                    label, i, nm, k);
    }
    for (size_t k = 0; k < a->n * a->n; k++)
        if (!(a->xi[k] >= 1 && isfinite(a->xi[k])))
            return ct_error_set(err, CT_EINPUT, "%s: xi: %s with %s: expected a finite ratio >= 1", label,
                                a->apps[k / a->n].name, a->apps[k % a->n].name);
    for (size_t k = 0; k < a->n_configs; k++) {
        const ct_app_config_t *c = &a->configs[k];
        if (c->app >= a->n || c->gpus < 1 || !(c->batch >= 1 && isfinite(c->batch)) ||
            !(c->weight > 0 && isfinite(c->weight)))
            return ct_error_set(err, CT_EINPUT, "%s: configs[%zu]: expected [known app, gpus >= 1, batch >= 1, weight > 0]",
                                label, k);
    }
    if (!(a->window >= 0 && isfinite(a->window)))
        return ct_error_set(err, CT_EINPUT, "%s: window_s: expected >= 0", label);
    return CT_OK;
}

/* A JSON array of numbers into v[0..max); CT_EINPUT naming the field. */
static ct_status_t get_numbers(const cJSON *arr, double *v, size_t want, const char *label, const char *item,
                               ct_error_t *err)
{
    if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != want)
        return ct_error_set(err, CT_EINPUT, "%s: %s: expected an array of %zu numbers", label, item, want);
    size_t k = 0;
    for (const cJSON *x = arr->child; x; x = x->next, k++) {
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return ct_error_set(err, CT_EINPUT, "%s: %s[%zu]: expected a number", label, item, k);
        v[k] = x->valuedouble;
    }
    return CT_OK;
}

static ct_status_t load_app(const cJSON *o, ct_app_t *p, const char *path, size_t i, ct_error_t *err)
{
    char item[64];
    snprintf(item, sizeof item, "apps[%zu]", i);
    const char *name = NULL;
    ct_status_t st;
    if (!cJSON_IsObject(o))
        return ct_error_set(err, CT_EINPUT, "%s: %s: expected an object", path, item);
    if ((st = ct_json_get_string(o, "name", 1, path, item, &name, err)) != CT_OK)
        return st;
    if (strlen(name) >= CT_APP_NAME_MAX)
        return ct_error_set(err, CT_EINPUT, "%s: %s.name: longer than %d bytes", path, item, CT_APP_NAME_MAX - 1);
    strcpy(p->name, name);
    p->delta = 1;
    p->local_min = 1;
    p->mem_static = 0.25;
    if ((st = ct_json_get_number(o, "comp_alpha_s", 1, path, item, &p->comp_alpha, err)) != CT_OK ||
        (st = ct_json_get_number(o, "comp_beta_s", 1, path, item, &p->comp_beta, err)) != CT_OK ||
        (st = ct_json_get_number(o, "delta", 0, path, item, &p->delta, err)) != CT_OK ||
        (st = ct_json_get_number(o, "init_batch", 1, path, item, &p->init_batch, err)) != CT_OK ||
        (st = ct_json_get_number(o, "local_min", 0, path, item, &p->local_min, err)) != CT_OK ||
        (st = ct_json_get_number(o, "local_max", 1, path, item, &p->local_max, err)) != CT_OK ||
        (st = ct_json_get_number(o, "mem_static", 0, path, item, &p->mem_static, err)) != CT_OK)
        return st;
    char sub[96];
    const cJSON *ca = cJSON_GetObjectItemCaseSensitive(o, "comm_alpha_s");
    const cJSON *cb = cJSON_GetObjectItemCaseSensitive(o, "comm_beta_s");
    snprintf(sub, sizeof sub, "%s.comm_alpha_s", item);
    if (ca && (st = get_numbers(ca, p->comm_alpha, 2, path, sub, err)) != CT_OK)
        return st;
    snprintf(sub, sizeof sub, "%s.comm_beta_s", item);
    if (cb && (st = get_numbers(cb, p->comm_beta, 2, path, sub, err)) != CT_OK)
        return st;
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "iterations");
    snprintf(sub, sizeof sub, "%s.iterations", item);
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) < 1 || cJSON_GetArraySize(it) > CT_APP_ITERS_MAX)
        return ct_error_set(err, CT_EINPUT, "%s: %s: expected 1 .. %d [batch, iterations] pairs", path, sub,
                            CT_APP_ITERS_MAX);
    size_t k = 0;
    for (const cJSON *x = it->child; x; x = x->next, k++) {
        double v[2];
        char row[128];
        snprintf(row, sizeof row, "%s[%zu]", sub, k);
        if ((st = get_numbers(x, v, 2, path, row, err)) != CT_OK)
            return st;
        p->iters_batch[k] = v[0];
        p->iters[k] = v[1];
    }
    p->n_iters = k;
    const cJSON *fit = cJSON_GetObjectItemCaseSensitive(o, "fit");
    if (cJSON_IsObject(fit)) {
        double r = 0, s = 0;
        snprintf(sub, sizeof sub, "%s.fit", item);
        if ((st = ct_json_get_number(fit, "rows_comp", 0, path, sub, &r, err)) != CT_OK ||
            (st = ct_json_get_number(fit, "rows_step", 0, path, sub, &s, err)) != CT_OK ||
            (st = ct_json_get_number(fit, "r2_comp", 0, path, sub, &p->fit_r2_comp, err)) != CT_OK ||
            (st = ct_json_get_number(fit, "rms_log_step", 0, path, sub, &p->fit_rms_log_step, err)) != CT_OK)
            return st;
        p->fit_rows_comp = r >= 0 && r < 1e12 ? (size_t)r : 0;
        p->fit_rows_step = s >= 0 && s < 1e12 ? (size_t)s : 0;
    }
    return CT_OK;
}

/* [name a, name b, number] or [name, number, number, number]: the app
 * names of a row looked up; CT_EINPUT naming the row. */
static ct_status_t row_app(const ct_apps_t *a, const cJSON *x, const char *path, const char *item, uint32_t *out,
                           ct_error_t *err)
{
    if (!cJSON_IsString(x))
        return ct_error_set(err, CT_EINPUT, "%s: %s: expected an application name", path, item);
    int k = ct_apps_find(a, x->valuestring);
    if (k < 0)
        return ct_error_set(err, CT_EINPUT, "%s: %s: unknown application '%s'", path, item, x->valuestring);
    *out = (uint32_t)k;
    return CT_OK;
}

ct_status_t ct_apps_load(ct_apps_t *a, const char *path, ct_error_t *err)
{
    memset(a, 0, sizeof *a);
    cJSON *root;
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    const cJSON *apps = cJSON_GetObjectItemCaseSensitive(root, "apps");
    const cJSON *xi = cJSON_GetObjectItemCaseSensitive(root, "xi");
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(root, "configs");
    a->window = 8 * 3600.0;
    if (!cJSON_IsObject(root) || !cJSON_IsArray(apps) || cJSON_GetArraySize(apps) < 1) {
        st = ct_error_set(err, CT_EINPUT, "%s: apps: expected {\"apps\": [at least one application]}", path);
        goto fail;
    }
    if ((st = ct_json_get_number(root, "window_s", 0, path, "", &a->window, err)) != CT_OK)
        goto fail;
    size_t n = (size_t)cJSON_GetArraySize(apps);
    if (n > 4096) {
        st = ct_error_set(err, CT_ELIMIT, "%s: apps: %zu applications, the limit is 4096", path, n);
        goto fail;
    }
    a->apps = calloc(n, sizeof(ct_app_t));
    a->xi = malloc(n * n * sizeof(double));
    if (!a->apps || !a->xi) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t k = 0; k < n * n; k++)
        a->xi[k] = 1;
    for (const cJSON *x = apps->child; x; x = x->next, a->n++)
        if ((st = load_app(x, &a->apps[a->n], path, a->n, err)) != CT_OK)
            goto fail;
    if (xi && !cJSON_IsArray(xi)) {
        st = ct_error_set(err, CT_EINPUT, "%s: xi: expected an array of [app, app, ratio]", path);
        goto fail;
    }
    size_t k = 0;
    for (const cJSON *x = xi ? xi->child : NULL; x; x = x->next, k++) {
        char item[48];
        snprintf(item, sizeof item, "xi[%zu]", k);
        uint32_t p, q;
        if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) != 3 || !cJSON_IsNumber(x->child->next->next)) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: expected [app, app, ratio]", path, item);
            goto fail;
        }
        if ((st = row_app(a, x->child, path, item, &p, err)) != CT_OK ||
            (st = row_app(a, x->child->next, path, item, &q, err)) != CT_OK)
            goto fail;
        a->xi[p * n + q] = x->child->next->next->valuedouble;
    }
    if (cf && !cJSON_IsArray(cf)) {
        st = ct_error_set(err, CT_EINPUT, "%s: configs: expected an array of [app, gpus, batch, weight]", path);
        goto fail;
    }
    size_t nc = cf ? (size_t)cJSON_GetArraySize(cf) : 0;
    if (nc && !(a->configs = calloc(nc, sizeof(ct_app_config_t)))) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto fail;
    }
    for (const cJSON *x = cf ? cf->child : NULL; x; x = x->next, a->n_configs++) {
        char item[48];
        snprintf(item, sizeof item, "configs[%zu]", a->n_configs);
        ct_app_config_t *c = &a->configs[a->n_configs];
        double v[3];
        if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) != 4) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: expected [app, gpus, batch, weight]", path, item);
            goto fail;
        }
        int bad = 0;
        size_t m = 0;
        for (const cJSON *y = x->child->next; y; y = y->next, m++) {
            if (!cJSON_IsNumber(y) || !isfinite(y->valuedouble))
                bad = 1;
            else
                v[m] = y->valuedouble;
        }
        if (bad || !(v[0] >= 1 && v[0] <= 1e6 && v[0] == floor(v[0]))) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: expected [app, whole gpus >= 1, batch, weight]", path, item);
            goto fail;
        }
        if ((st = row_app(a, x->child, path, item, &c->app, err)) != CT_OK)
            goto fail;
        c->gpus = (uint32_t)v[0];
        c->batch = v[1];
        c->weight = v[2];
    }
    if ((st = ct_apps_validate(a, path, err)) != CT_OK)
        goto fail;
    cJSON_Delete(root);
    return CT_OK;
fail:
    cJSON_Delete(root);
    ct_apps_free(a);
    return st;
}

static cJSON *number_pair(double x, double y)
{
    cJSON *p = cJSON_CreateArray();
    if (p) {
        cJSON_AddItemToArray(p, ct_json_number(x));
        cJSON_AddItemToArray(p, ct_json_number(y));
    }
    return p;
}

ct_status_t ct_apps_write(const ct_apps_t *a, const char *path, ct_error_t *err)
{
    cJSON *root = cJSON_CreateObject(), *apps = cJSON_CreateArray(), *xi = cJSON_CreateArray(),
          *cf = cJSON_CreateArray();
    ct_status_t st = CT_OK;
    if (!root || !apps || !xi || !cf) {
        cJSON_Delete(apps);
        cJSON_Delete(xi);
        cJSON_Delete(cf);
        goto oom;
    }
    ct_json_add_number(root, "window_s", a->window);
    cJSON_AddItemToObject(root, "apps", apps);
    cJSON_AddItemToObject(root, "xi", xi);
    cJSON_AddItemToObject(root, "configs", cf);
    for (size_t i = 0; i < a->n; i++) {
        const ct_app_t *p = &a->apps[i];
        cJSON *o = cJSON_CreateObject(), *it = cJSON_CreateArray(), *fit = cJSON_CreateObject();
        if (!o || !it || !fit) {
            cJSON_Delete(o);
            cJSON_Delete(it);
            cJSON_Delete(fit);
            goto oom;
        }
        cJSON_AddItemToArray(apps, o);
        cJSON_AddStringToObject(o, "name", p->name);
        ct_json_add_number(o, "comp_alpha_s", p->comp_alpha);
        ct_json_add_number(o, "comp_beta_s", p->comp_beta);
        cJSON_AddItemToObject(o, "comm_alpha_s", number_pair(p->comm_alpha[0], p->comm_alpha[1]));
        cJSON_AddItemToObject(o, "comm_beta_s", number_pair(p->comm_beta[0], p->comm_beta[1]));
        ct_json_add_number(o, "delta", p->delta);
        ct_json_add_number(o, "init_batch", p->init_batch);
        ct_json_add_number(o, "local_min", p->local_min);
        ct_json_add_number(o, "local_max", p->local_max);
        ct_json_add_number(o, "mem_static", p->mem_static);
        for (size_t k = 0; k < p->n_iters; k++)
            cJSON_AddItemToArray(it, number_pair(p->iters_batch[k], p->iters[k]));
        cJSON_AddItemToObject(o, "iterations", it);
        ct_json_add_number(fit, "rows_comp", (double)p->fit_rows_comp);
        ct_json_add_number(fit, "r2_comp", p->fit_r2_comp);
        ct_json_add_number(fit, "rows_step", (double)p->fit_rows_step);
        ct_json_add_number(fit, "rms_log_step", p->fit_rms_log_step);
        cJSON_AddItemToObject(o, "fit", fit);
    }
    for (size_t i = 0; i < a->n; i++)
        for (size_t k = 0; k < a->n; k++) {
            if (a->xi[i * a->n + k] == 1)
                continue;
            cJSON *r = cJSON_CreateArray();
            if (!r)
                goto oom;
            cJSON_AddItemToArray(xi, r);
            cJSON_AddItemToArray(r, cJSON_CreateString(a->apps[i].name));
            cJSON_AddItemToArray(r, cJSON_CreateString(a->apps[k].name));
            cJSON_AddItemToArray(r, ct_json_number(a->xi[i * a->n + k]));
        }
    for (size_t i = 0; i < a->n_configs; i++) {
        const ct_app_config_t *c = &a->configs[i];
        cJSON *r = cJSON_CreateArray();
        if (!r)
            goto oom;
        cJSON_AddItemToArray(cf, r);
        cJSON_AddItemToArray(r, cJSON_CreateString(a->apps[c->app].name));
        cJSON_AddItemToArray(r, ct_json_number(c->gpus));
        cJSON_AddItemToArray(r, ct_json_number(c->batch));
        cJSON_AddItemToArray(r, ct_json_number(c->weight));
    }
    st = ct_json_write_file(root, path, err);
    cJSON_Delete(root);
    return st;
oom:
    cJSON_Delete(root);
    return ct_error_set(err, CT_ENOMEM, "out of memory");
}

ct_status_t ct_apps_set_xi(ct_apps_t *a, double lo, double hi, uint64_t seed, ct_error_t *err)
{
    if (!(lo >= 1 && hi >= lo && isfinite(hi)))
        return ct_error_set(err, CT_EINPUT, "xi: expected 1 <= lo <= hi, got %g .. %g", lo, hi);
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    for (size_t k = 0; k < a->n * a->n; k++)
        a->xi[k] = lo == hi ? lo : lo + (hi - lo) * ct_rng_uniform(&rng);
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* The fit.                                                                  */

typedef struct {
    double b, step, sync;
    uint32_t gpus, servers;
} row_t;

typedef struct {
    row_t *v;
    size_t n, cap;
} rows_t;

static ct_status_t rows_push(rows_t *r, row_t x, ct_error_t *err)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        row_t *v = realloc(r->v, cap * sizeof(row_t));
        if (!v)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = x;
    return CT_OK;
}

/* placements.csv (placement,local_bsz,step_time,sync_time) or, scal = 1,
 * scalability.csv (num_nodes,num_replicas,local_bsz,step_time,sync_time). */
static ct_status_t read_rows(const char *path, int scal, int required, rows_t *rows, ct_error_t *err)
{
    char *text;
    size_t len;
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return required ? st : (ct_error_clear(err), CT_OK);
    static const char *const pc[] = { "placement", "local_bsz", "step_time", "sync_time" };
    static const char *const sc[] = { "num_nodes", "num_replicas", "local_bsz", "step_time", "sync_time" };
    const char *const *names = scal ? sc : pc;
    size_t nn = scal ? 5 : 4, line = 0, nc;
    int col[5];
    char *cur = text, *cells[16];
    if (!ct_csv_next(&cur, &line, cells, 16, &nc)) {
        st = ct_error_set(err, CT_EINPUT, "%s: empty file", path);
        goto done;
    }
    ct_csv_columns(cells, nc, names, nn, col);
    for (size_t k = 0; k < nn; k++)
        if (col[k] < 0) {
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: no column '%s'", path, line, names[k]);
            goto done;
        }
    while (ct_csv_next(&cur, &line, cells, 16, &nc)) {
        double v[5];
        for (size_t k = 0; k < nn; k++)
            if ((size_t)col[k] >= nc || !ct_csv_number(cells[col[k]], &v[k]) || v[k] < 0) {
                st = ct_error_set(err, CT_EINPUT, "%s: line %zu: %s: expected a number >= 0", path, line, names[k]);
                goto done;
            }
        row_t r;
        if (scal) {
            r.servers = (uint32_t)v[0];
            r.gpus = (uint32_t)v[1];
            r.b = v[2], r.step = v[3], r.sync = v[4];
        } else {
            /* The placement's digits are GPUs per server. */
            const char *d = cells[col[0]];
            r.servers = 0;
            r.gpus = 0;
            for (; *d; d++) {
                if (*d < '1' || *d > '9') {
                    st = ct_error_set(err, CT_EINPUT, "%s: line %zu: placement: expected digits 1-9", path, line);
                    goto done;
                }
                r.servers++;
                r.gpus += (uint32_t)(*d - '0');
            }
            r.b = v[1], r.step = v[2], r.sync = v[3];
        }
        if (r.gpus < 1 || r.servers < 1 || !(r.step > 0) || !(r.b > 0)) {
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: expected >= 1 GPU and a step time > 0", path, line);
            goto done;
        }
        if ((st = rows_push(rows, r, err)) != CT_OK)
            goto done;
    }
done:
    free(text);
    return st;
}

/* RMS log error of predicted multi-GPU step times for one delta; fills the
 * comm lines. Returns +inf when a line cannot be fitted. */
static double fit_comm(ct_app_t *app, const rows_t *rows, double delta, double *xs, double *ys)
{
    app->delta = delta;
    for (int k = 0; k < 2; k++) {
        size_t m = 0;
        for (size_t i = 0; i < rows->n; i++) {
            const row_t *r = &rows->v[i];
            if (r->gpus < 2 || (r->servers > 1) != k)
                continue;
            double tc = ct_app_comp(app, r->b), d = pow(r->step, delta) - pow(tc, delta);
            xs[m] = (double)(r->gpus - 2);
            ys[m++] = d > 0 ? pow(d, 1.0 / delta) : 0;
        }
        double c0 = 0, c1 = 0, v00, v01, v11, ss;
        if (m >= 2 && gsl_fit_linear(xs, 1, ys, 1, m, &c0, &c1, &v00, &v01, &v11, &ss) != GSL_SUCCESS)
            return INFINITY;
        if (m == 1)
            c0 = ys[0];
        app->comm_alpha[k] = fmax(0.0, c0);
        app->comm_beta[k] = fmax(0.0, c1);
    }
    if (app->comm_alpha[1] == 0 && app->comm_beta[1] == 0) { /* no multi-server rows: as one server */
        app->comm_alpha[1] = app->comm_alpha[0];
        app->comm_beta[1] = app->comm_beta[0];
    }
    double s = 0;
    size_t m = 0;
    for (size_t i = 0; i < rows->n; i++) {
        const row_t *r = &rows->v[i];
        if (r->gpus < 2)
            continue;
        double e = log(ct_app_iter(app, r->b, 1, r->gpus, r->servers) / r->step);
        s += e * e;
        m++;
    }
    app->fit_rows_step = m;
    return m ? sqrt(s / (double)m) : 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The last row's `iteration` of every validation-B.csv in dir. */
static ct_status_t read_iterations(const char *dir, ct_app_t *app, ct_error_t *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return ct_error_set(err, CT_EIO, "%s: cannot open directory", dir);
    double pairs[CT_APP_ITERS_MAX][2];
    size_t n = 0;
    ct_status_t st = CT_OK;
    struct dirent *e;
    while (st == CT_OK && (e = readdir(d))) {
        char digits[24];
        int used = 0;
        if (sscanf(e->d_name, "validation-%20[0-9]%n", digits, &used) != 1 || strcmp(e->d_name + used, ".csv"))
            continue;
        double batch = strtod(digits, NULL);
        if (n == CT_APP_ITERS_MAX) {
            st = ct_error_set(err, CT_ELIMIT, "%s: more than %d validation files", dir, CT_APP_ITERS_MAX);
            break;
        }
        size_t plen = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(plen), *text = NULL, *cur, *cells[16];
        size_t len, line = 0, nc;
        int col = -1;
        const char *const want[] = { "iteration" };
        double last = NAN;
        if (!path) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        snprintf(path, plen, "%s/%s", dir, e->d_name);
        if ((st = ct_read_text_file(path, &text, &len, err)) == CT_OK) {
            cur = text;
            if (ct_csv_next(&cur, &line, cells, 16, &nc))
                ct_csv_columns(cells, nc, want, 1, &col);
            while (col >= 0 && ct_csv_next(&cur, &line, cells, 16, &nc))
                if ((size_t)col >= nc || !ct_csv_number(cells[col], &last))
                    last = NAN;
            if (col < 0 || !(last > 0))
                st = ct_error_set(err, CT_EINPUT, "%s: iteration: expected a last row with iterations > 0", path);
        }
        free(text);
        free(path);
        pairs[n][0] = batch;
        pairs[n][1] = last;
        n++;
    }
    closedir(d);
    if (st != CT_OK)
        return st;
    if (!n)
        return ct_error_set(err, CT_EINPUT, "%s: no validation-<batch>.csv files", dir);
    qsort(pairs, n, sizeof pairs[0], cmp_pair);
    for (size_t k = 0; k < n; k++) {
        app->iters_batch[k] = pairs[k][0];
        app->iters[k] = pairs[k][1];
    }
    app->n_iters = n;
    app->init_batch = pairs[0][0];
    return CT_OK;
}

static ct_status_t fit_app(const char *dir, const char *name, double mem_static, ct_app_t *app, ct_error_t *err)
{
    memset(app, 0, sizeof *app);
    if (strlen(name) >= CT_APP_NAME_MAX)
        return ct_error_set(err, CT_EINPUT, "%s: application name longer than %d bytes", dir, CT_APP_NAME_MAX - 1);
    strcpy(app->name, name);
    app->mem_static = mem_static;
    size_t plen = strlen(dir) + 32;
    char *path = malloc(plen);
    rows_t rows = { 0 };
    double *xs = NULL, *ys = NULL;
    ct_status_t st;
    if (!path)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    snprintf(path, plen, "%s/placements.csv", dir);
    if ((st = read_rows(path, 0, 1, &rows, err)) != CT_OK)
        goto done;
    snprintf(path, plen, "%s/scalability.csv", dir);
    if ((st = read_rows(path, 1, 0, &rows, err)) != CT_OK)
        goto done;
    if ((st = read_iterations(dir, app, err)) != CT_OK)
        goto done;
    xs = malloc((rows.n + 1) * sizeof(double));
    ys = malloc((rows.n + 1) * sizeof(double));
    if (!xs || !ys) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    /* Compute: one-GPU rows, t_comp = step - sync. */
    size_t m = 0;
    app->local_min = INFINITY;
    app->local_max = 0;
    for (size_t i = 0; i < rows.n; i++) {
        const row_t *r = &rows.v[i];
        if (r->servers == 1 && r->gpus <= 4) { /* placements.csv's own range */
            app->local_min = fmin(app->local_min, r->b);
            app->local_max = fmax(app->local_max, r->b);
        }
        if (r->gpus == 1) {
            xs[m] = r->b;
            ys[m++] = r->step - r->sync;
        }
    }
    if (m < 2) {
        st = ct_error_set(err, CT_EINPUT, "%s: placements.csv: fewer than two one-GPU rows to fit compute", dir);
        goto done;
    }
    double c0, c1, v00, v01, v11, ss, mean = 0, tot = 0;
    if (gsl_fit_linear(xs, 1, ys, 1, m, &c0, &c1, &v00, &v01, &v11, &ss) != GSL_SUCCESS) {
        st = ct_error_set(err, CT_ESOLVER, "%s: compute fit failed", dir);
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        mean += ys[i] / (double)m;
    for (size_t i = 0; i < m; i++)
        tot += (ys[i] - mean) * (ys[i] - mean);
    app->comp_alpha = fmax(0.0, c0);
    app->comp_beta = fmax(0.0, c1);
    app->fit_rows_comp = m;
    app->fit_r2_comp = tot > 0 ? 1 - ss / tot : 1;
    /* Overlap degree and all-reduce lines. */
    double best = INFINITY, best_d = 1;
    for (int k = 0; k <= 180; k++) {
        double d = 1 + 0.05 * k, e = fit_comm(app, &rows, d, xs, ys);
        if (e < best - 1e-12) {
            best = e;
            best_d = d;
        }
    }
    app->fit_rms_log_step = fit_comm(app, &rows, best_d, xs, ys);
done:
    free(rows.v);
    free(xs);
    free(ys);
    free(path);
    return st;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Counts (app, gpus, batch) over DIR/workloads/workload-*.csv. */
static ct_status_t fit_configs(const char *dir, ct_apps_t *a, ct_error_t *err)
{
    size_t plen = strlen(dir) + 300;
    char *path = malloc(plen);
    if (!path)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    snprintf(path, plen, "%s/workloads", dir);
    DIR *d = opendir(path);
    ct_status_t st = CT_OK;
    if (!d) {
        free(path);
        return CT_OK; /* no mix: the generator refuses */
    }
    struct dirent *e;
    while (st == CT_OK && (e = readdir(d))) {
        if (strncmp(e->d_name, "workload-", 9) || !strstr(e->d_name, ".csv") || strlen(e->d_name) > 200)
            continue;
        snprintf(path, plen, "%s/workloads/%s", dir, e->d_name);
        ct_share_jobs_t js;
        if ((st = ct_share_jobs_load(&js, a, path, err)) != CT_OK)
            break;
        for (size_t i = 0; i < js.n && st == CT_OK; i++) {
            const ct_share_job_t *j = &js.jobs[i];
            size_t k = 0;
            while (k < a->n_configs && !(a->configs[k].app == j->app && a->configs[k].gpus == j->gpus &&
                                         a->configs[k].batch == j->batch))
                k++;
            if (k == a->n_configs) {
                ct_app_config_t *c = realloc(a->configs, (k + 1) * sizeof(ct_app_config_t));
                if (!c) {
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
                    break;
                }
                a->configs = c;
                c[k] = (ct_app_config_t){ j->app, j->gpus, j->batch, 0 };
                a->n_configs++;
            }
            a->configs[k].weight += 1;
        }
        ct_share_jobs_free(&js);
    }
    closedir(d);
    free(path);
    return st;
}

ct_status_t ct_apps_fit_dir(const char *dir, double mem_static, ct_apps_t *out, ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->window = 8 * 3600.0;
    ct_gsl_quiet();
    size_t plen = strlen(dir) + 300;
    char *path = malloc(plen), **names = NULL;
    size_t nn = 0;
    ct_status_t st = CT_OK;
    if (!path)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    snprintf(path, plen, "%s/traces", dir);
    DIR *d = opendir(path);
    if (!d) {
        free(path);
        return ct_error_set(err, CT_EIO, "%s/traces: cannot open directory", dir);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= CT_APP_NAME_MAX)
            continue;
        snprintf(path, plen, "%s/traces/%s/placements.csv", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        fclose(f);
        char **nv = realloc(names, (nn + 1) * sizeof(char *));
        if (!nv || !(nv[nn] = ct_strdup(e->d_name, err))) {
            names = nv ? nv : names;
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        names = nv;
        nn++;
    }
    closedir(d);
    if (st == CT_OK && !nn)
        st = ct_error_set(err, CT_EINPUT, "%s/traces: no <app>/placements.csv", dir);
    if (st == CT_OK)
        qsort(names, nn, sizeof(char *), cmp_name);
    if (st == CT_OK && (!(out->apps = calloc(nn, sizeof(ct_app_t))) || !(out->xi = malloc(nn * nn * sizeof(double)))))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t i = 0; i < nn && st == CT_OK; i++) {
        snprintf(path, plen, "%s/traces/%s", dir, names[i]);
        if ((st = fit_app(path, names[i], mem_static, &out->apps[i], err)) == CT_OK)
            out->n++;
    }
    for (size_t k = 0; st == CT_OK && k < nn * nn; k++)
        out->xi[k] = 1;
    if (st == CT_OK)
        st = fit_configs(dir, out, err);
    if (st == CT_OK)
        st = ct_apps_validate(out, dir, err);
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    free(path);
    if (st != CT_OK)
        ct_apps_free(out);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Pollux workloads.                                                         */

void ct_share_jobs_free(ct_share_jobs_t *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        free(j->jobs[i].id);
    free(j->jobs);
    memset(j, 0, sizeof *j);
}

ct_status_t ct_share_jobs_load(ct_share_jobs_t *js, const ct_apps_t *apps, const char *path, ct_error_t *err)
{
    memset(js, 0, sizeof *js);
    char *text, *cur, *cells[16];
    size_t len, line = 0, nc, cap = 0;
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return st;
    static const char *const names[] = { "name", "time", "application", "num_replicas", "batch_size", "iterations" };
    int col[6];
    cur = text;
    if (!ct_csv_next(&cur, &line, cells, 16, &nc)) {
        st = ct_error_set(err, CT_EINPUT, "%s: empty file (expected a header name,time,application,...)", path);
        goto done;
    }
    ct_csv_columns(cells, nc, names, 6, col);
    for (int k = 0; k < 5; k++)
        if (col[k] < 0) {
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: no column '%s' (a Pollux workload has "
                                              "name,time,application,num_replicas,batch_size)",
                              path, line, names[k]);
            goto done;
        }
    while (ct_csv_next(&cur, &line, cells, 16, &nc)) {
        for (int k = 0; k < 6; k++)
            if (col[k] >= 0 && (size_t)col[k] >= nc) {
                st = ct_error_set(err, CT_EINPUT, "%s: line %zu: %s: missing", path, line, names[k]);
                goto done;
            }
        if (js->n == cap) {
            cap = cap ? 2 * cap : 256;
            ct_share_job_t *v = realloc(js->jobs, cap * sizeof(ct_share_job_t));
            if (!v) {
                st = ct_error_set(err, CT_ENOMEM, "out of memory");
                goto done;
            }
            js->jobs = v;
        }
        ct_share_job_t *j = &js->jobs[js->n];
        memset(j, 0, sizeof *j);
        double t = 0, g = 0, b = 0, it = 0;
        int a = ct_apps_find(apps, cells[col[2]]);
        if (!cells[col[0]][0] || strlen(cells[col[0]]) > CT_MAX_ID_BYTES)
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: name: expected 1 .. %u bytes", path, line, CT_MAX_ID_BYTES);
        else if (!ct_csv_number(cells[col[1]], &t) || t < 0 || t > CT_MAX_SECONDS)
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: time: expected 0 .. %g s", path, line, CT_MAX_SECONDS);
        else if (a < 0)
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: application: unknown '%s'", path, line, cells[col[2]]);
        else if (!ct_csv_number(cells[col[3]], &g) || g < 1 || g > 1e6 || g != floor(g))
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: num_replicas: expected a whole number >= 1", path, line);
        else if (!ct_csv_number(cells[col[4]], &b) || b < 1 || b > CT_MAX_COUNT)
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: batch_size: expected 1 .. %g", path, line, CT_MAX_COUNT);
        else if (col[5] >= 0 && (!ct_csv_number(cells[col[5]], &it) || !(it > 0 && it <= CT_MAX_COUNT)))
            st = ct_error_set(err, CT_EINPUT, "%s: line %zu: iterations: expected a number in (0, %g]", path, line,
                              CT_MAX_COUNT);
        if (st != CT_OK)
            goto done;
        if (!(j->id = ct_strdup(cells[col[0]], err))) {
            st = CT_ENOMEM;
            goto done;
        }
        js->n++;
        j->arrival = t;
        j->app = (uint32_t)a;
        j->gpus = (uint32_t)g;
        j->batch = b;
        j->iterations = col[5] >= 0 ? it : ct_app_iterations(&apps->apps[a], b);
    }
    size_t dup;
    if ((st = ct_first_duplicate(js->jobs, sizeof(ct_share_job_t), offsetof(ct_share_job_t, id), js->n, &dup, err)) ==
            CT_OK &&
        dup < js->n)
        st = ct_error_set(err, CT_EINPUT, "%s: name: '%s' appears twice", path, js->jobs[dup].id);
done:
    free(text);
    if (st != CT_OK)
        ct_share_jobs_free(js);
    return st;
}

ct_status_t ct_share_jobs_write(const ct_share_jobs_t *js, const ct_apps_t *apps, const char *path, ct_error_t *err)
{
    ct_outfile_t out;
    ct_status_t st = ct_outfile_open(&out, path, err);
    if (st != CT_OK)
        return st;
    fprintf(out.fp, "name,time,application,num_replicas,batch_size,iterations\n");
    for (size_t i = 0; i < js->n; i++) {
        const ct_share_job_t *j = &js->jobs[i];
        ct_csv_put(out.fp, j->id);
        fprintf(out.fp, ",%.17g,", j->arrival);
        ct_csv_put(out.fp, apps->apps[j->app].name);
        fprintf(out.fp, ",%u,%.17g,%.17g\n", j->gpus, j->batch, j->iterations);
    }
    return ct_outfile_commit(&out, err);
}

static int cmp_arrival(const void *a, const void *b)
{
    double x = ((const ct_share_job_t *)a)->arrival, y = ((const ct_share_job_t *)b)->arrival;
    return x < y ? -1 : x > y;
}

ct_status_t ct_share_workload(const ct_apps_t *apps, uint64_t seed, size_t n, ct_share_jobs_t *js, ct_error_t *err)
{
    memset(js, 0, sizeof *js);
    if (!apps->n_configs)
        return ct_error_set(err, CT_EINPUT, "apps: configs: no job mix to draw from");
    if (n < 1 || n > 10000000)
        return ct_error_set(err, CT_ELIMIT, "jobs: expected 1 .. 10000000, got %zu", n);
    double total = 0;
    for (size_t k = 0; k < apps->n_configs; k++)
        total += apps->configs[k].weight;
    if (!(js->jobs = calloc(n, sizeof(ct_share_job_t))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        double u = ct_rng_uniform(&rng) * total;
        size_t k = 0;
        while (k + 1 < apps->n_configs && u >= apps->configs[k].weight) {
            u -= apps->configs[k].weight;
            k++;
        }
        const ct_app_config_t *c = &apps->configs[k];
        ct_share_job_t *j = &js->jobs[i];
        j->app = c->app;
        j->gpus = c->gpus;
        j->batch = c->batch;
        j->iterations = ct_app_iterations(&apps->apps[c->app], c->batch);
        j->arrival = floor(apps->window * ct_rng_uniform(&rng));
    }
    qsort(js->jobs, n, sizeof(ct_share_job_t), cmp_arrival);
    for (size_t i = 0; i < n; i++) {
        char id[CT_APP_NAME_MAX + 24];
        snprintf(id, sizeof id, "%s-%zu", apps->apps[js->jobs[i].app].name, i);
        js->n = i + 1;
        if (!(js->jobs[i].id = ct_strdup(id, err))) {
            ct_share_jobs_free(js);
            return CT_ENOMEM;
        }
    }
    return CT_OK;
}

ct_status_t ct_share_reference_jct(const char *path, const char *workload, const ct_share_jobs_t *jobs, double mean[3],
                                   ct_error_t *err)
{
    cJSON *root;
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    const cJSON *all = cJSON_GetObjectItemCaseSensitive(root, "jcts");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(all, workload);
    double sum[3] = { 0, 0, 0 };
    size_t cnt[3] = { 0, 0, 0 };
    if (!cJSON_IsObject(all))
        st = ct_error_set(err, CT_EINPUT, "%s: jcts: expected an object {workload: {job: seconds}}", path);
    else if (!cJSON_IsObject(w))
        st = ct_error_set(err, CT_EINPUT, "%s: jcts.%s: no such workload", path, workload);
    for (size_t i = 0; st == CT_OK && i < jobs->n; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(w, jobs->jobs[i].id);
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
            st = ct_error_set(err, CT_EINPUT, "%s: jcts.%s.%s: expected a number (is it the same workload?)", path,
                              workload, jobs->jobs[i].id);
            break;
        }
        int k = jobs->jobs[i].gpus > 4 ? 1 : 2;
        sum[0] += v->valuedouble;
        cnt[0]++;
        sum[k] += v->valuedouble;
        cnt[k]++;
    }
    for (int k = 0; k < 3; k++)
        mean[k] = cnt[k] ? sum[k] / (double)cnt[k] : NAN;
    cJSON_Delete(root);
    return st;
}

ct_status_t ct_share_from_train(const ct_train_cluster_t *c, const ct_train_jobs_t *in, ct_apps_t *apps,
                                ct_share_jobs_t *out, ct_error_t *err)
{
    memset(apps, 0, sizeof *apps);
    memset(out, 0, sizeof *out);
    size_t n = in->n;
    ct_status_t st;
    size_t *first = malloc((n ? n : 1) * sizeof(size_t)); /* the job each application was made from */
    apps->window = 0;
    if (!first || !(apps->apps = calloc(n ? n : 1, sizeof(ct_app_t))) ||
        !(out->jobs = calloc(n ? n : 1, sizeof(ct_share_job_t))))
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const ct_train_job_t *j = &in->jobs[i];
        double tc = (j->tf + j->tb) / 1e3, net = (c->a + c->b * j->size) / 1e3, ms = j->mem / c->gpu_mem;
        if (!(tc > 0) || !(ms <= 1)) {
            st = ct_error_set(err, CT_EINPUT, "jobs[%zu]: job '%s': needs forward + backward > 0 and memory <= a GPU's",
                              i, j->id);
            goto fail;
        }
        size_t k = 0;
        while (k < apps->n && !(apps->apps[k].comp_alpha == tc && apps->apps[k].comm_alpha[1] == net &&
                                apps->apps[k].mem_static == fmin(ms, 0.999999) &&
                                !strcmp(in->jobs[first[k]].model, j->model)))
            k++;
        if (k == apps->n) {
            if (k >= 4096) {
                st = ct_error_set(err, CT_ELIMIT, "jobs: more than 4096 distinct job models");
                goto fail;
            }
            ct_app_t *a = &apps->apps[k];
            snprintf(a->name, sizeof a->name, "%.20s#%zu", j->model[0] ? j->model : "job", k);
            a->comp_alpha = tc;
            a->comm_alpha[1] = net;
            a->delta = 1;
            a->init_batch = a->local_min = 1;
            a->local_max = 1e12; /* memory does not grow with the (unsplittable) batch */
            a->mem_static = fmin(ms, 0.999999);
            a->n_iters = 1;
            a->iters_batch[0] = 1;
            a->iters[0] = 1;
            first[k] = i;
            apps->n++;
        }
        ct_share_job_t *o = &out->jobs[i];
        if (!(o->id = ct_strdup(j->id, err)))
            goto oom;
        out->n = i + 1;
        o->app = (uint32_t)k;
        o->arrival = j->arrival / 1e3;
        o->gpus = j->gpus;
        o->batch = j->gpus;
        o->iterations = j->iterations;
    }
    if (!(apps->xi = malloc((apps->n ? apps->n * apps->n : 1) * sizeof(double))))
        goto oom;
    for (size_t k = 0; k < apps->n * apps->n; k++)
        apps->xi[k] = 1;
    free(first);
    return CT_OK;
oom:
    st = ct_error_set(err, CT_ENOMEM, "out of memory");
fail:
    free(first);
    ct_share_jobs_free(out);
    ct_apps_free(apps);
    return st;
}
