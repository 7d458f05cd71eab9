/*
 * scenario_gen.c - seeded layered, ensemble and pipeline scenarios (see
 * ct_scenario_gen.h).
 *
 * One random stream per scenario, drawn in a fixed order (class count,
 * bandwidth, then per class: rate, stage count, per stage its width, per
 * task its time and inputs, per edge its bytes), so changing one default
 * changes the draws after it but never makes a run irreproducible.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_scenario_gen.h"
#include "ct_sampler.h" /* ct_rng_t */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ct_scenario_gen_params_init(ct_scenario_gen_params_t *p)
{
    *p = (ct_scenario_gen_params_t){ .stages_min = 2, .stages_max = 10, .width_max = 4, .fanin_max = 3,
                                     .classes_max = 3, .time_median = 0.01, .time_sigma = 1.0, .time_min = 0.0005,
                                     .time_max = 0.12, .bytes_min = 1e4, .bytes_max = 5e6, .servers = 80,
                                     .n_bandwidths = 2, .bandwidths = { 1.25e9, 1.25e10 } /* 10, 100 Gbps */ };
}

ct_status_t ct_scenario_gen_params_check(const ct_scenario_gen_params_t *p, ct_error_t *err)
{
    if (p->stages_min < 1 || p->stages_max > 64 || p->stages_min > p->stages_max)
        return ct_error_set(err, CT_EINPUT, "stages: expected 1 <= min <= max <= 64 (got %u .. %u)", p->stages_min,
                            p->stages_max);
    if (p->width_max < 1 || p->width_max > 64)
        return ct_error_set(err, CT_EINPUT, "width: expected 1 .. 64 tasks per stage (got %u)", p->width_max);
    if (p->fanin_max < 1 || p->fanin_max > 64)
        return ct_error_set(err, CT_EINPUT, "fan-in: expected 1 .. 64 (got %u)", p->fanin_max);
    if (p->classes_max < 1 || p->classes_max > 64)
        return ct_error_set(err, CT_EINPUT, "classes: expected 1 .. 64 (got %u)", p->classes_max);
    if (!(p->time_min > 0 && p->time_min <= p->time_median && p->time_median <= p->time_max &&
          isfinite(p->time_max) && p->time_sigma >= 0 && p->time_sigma <= 10))
        return ct_error_set(err, CT_EINPUT, "task times: expected 0 < min <= median <= max (s), 0 <= sigma <= 10");
    if (!(p->bytes_min > 0 && p->bytes_min <= p->bytes_max && p->bytes_max <= 1e15))
        return ct_error_set(err, CT_EINPUT, "edge bytes: expected 0 < min <= max <= 1e15");
    if (p->servers < 1 || p->servers > 1000000)
        return ct_error_set(err, CT_EINPUT, "servers: expected 1 .. 1000000 (got %zu)", p->servers);
    if ((unsigned)p->shape > CT_GEN_PIPELINE)
        return ct_error_set(err, CT_EINPUT, "shape: expected layered, ensemble or pipeline");
    if (p->n_bandwidths < 1 || p->n_bandwidths > CT_GEN_MAX_BANDWIDTHS)
        return ct_error_set(err, CT_EINPUT, "bandwidths: expected 1 .. %d values", CT_GEN_MAX_BANDWIDTHS);
    for (size_t i = 0; i < p->n_bandwidths; i++)
        if (!(p->bandwidths[i] > 0 && isfinite(p->bandwidths[i])))
            return ct_error_set(err, CT_EINPUT, "bandwidths[%zu]: must be positive (bytes/s)", i);
    return CT_OK;
}

/* Uniform integer in [lo, hi]. */
static unsigned uniform_int(ct_rng_t *r, unsigned lo, unsigned hi)
{
    return lo + (unsigned)ct_rng_below(r, (uint64_t)(hi - lo) + 1);
}

/* Standard normal (Box-Muller, one of the pair). */
static double normal(ct_rng_t *r)
{
    double u = 1.0 - ct_rng_uniform(r), v = ct_rng_uniform(r); /* u in (0, 1] */
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static double log_uniform(ct_rng_t *r, double lo, double hi)
{
    return lo * exp(ct_rng_uniform(r) * log(hi / lo));
}

static const char *const shape_names[] = { "layered", "ensemble", "pipeline" };

ct_status_t ct_gen_shape_parse(const char *name, ct_gen_shape_t *out)
{
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, shape_names[k])) {
            *out = (ct_gen_shape_t)k;
            return CT_OK;
        }
    return CT_EINPUT;
}

const char *ct_gen_shape_name(ct_gen_shape_t s)
{
    return (unsigned)s < 3 ? shape_names[s] : "?";
}

/* An ensemble's DAG: decode -> 2-6 models -> vote (ct_scenario_gen.h). */
static ct_status_t gen_ensemble(ct_rng_t *r, ct_dag_t *g, ct_error_t *err)
{
    size_t dec, vote, m;
    unsigned models = uniform_int(r, 2, 6);
    ct_status_t st = ct_dag_add_task(g, "decode", log_uniform(r, 0.001, 0.005), &dec, err);
    for (unsigned k = 0; k < models && st == CT_OK; k++) {
        char id[16];
        snprintf(id, sizeof id, "m%u", k);
        if ((st = ct_dag_add_task(g, id, log_uniform(r, 0.010, 0.100), &m, err)) == CT_OK)
            st = ct_dag_add_edge(g, dec, m, log_uniform(r, 1e5, 1e7), err);
    }
    if (st == CT_OK)
        st = ct_dag_add_task(g, "vote", 0.0005, &vote, err);
    for (unsigned k = 0; k < models && st == CT_OK; k++)
        st = ct_dag_add_edge(g, dec + 1 + k, vote, log_uniform(r, 1e3, 1e5), err);
    return st;
}

/* One class's DAG: stages of tasks, each fed by the stage before. */
static ct_status_t gen_dag(const ct_scenario_gen_params_t *p, ct_rng_t *r, ct_dag_t *g, ct_error_t *err)
{
    if (p->shape == CT_GEN_ENSEMBLE)
        return gen_ensemble(r, g, err);
    unsigned stages = uniform_int(r, p->stages_min, p->stages_max);
    if (p->shape == CT_GEN_PIPELINE)
        stages = uniform_int(r, p->stages_min < 5 ? 5 : p->stages_min, p->stages_max < 5 ? 5 : p->stages_max);
    size_t prev_start = 0, prev_n = 0;
    unsigned char fed[64];
    ct_status_t st = CT_OK;
    for (unsigned s = 0; s < stages && st == CT_OK; s++) {
        unsigned width = p->shape == CT_GEN_PIPELINE ? 1 : uniform_int(r, 1, p->width_max);
        size_t start = g->n_tasks;
        memset(fed, 0, sizeof fed);
        for (unsigned t = 0; t < width && st == CT_OK; t++) {
            char id[32];
            snprintf(id, sizeof id, "s%u_t%u", s, t);
            double time = p->time_median * exp(p->time_sigma * normal(r));
            time = fmin(p->time_max, fmax(p->time_min, time));
            size_t idx;
            if ((st = ct_dag_add_task(g, id, time, &idx, err)) != CT_OK || s == 0)
                continue;
            unsigned fan = uniform_int(r, 1, p->fanin_max < prev_n ? p->fanin_max : (unsigned)prev_n);
            unsigned char pick[64] = { 0 };
            for (unsigned f = 0; f < fan && st == CT_OK; f++) {
                size_t u;
                do
                    u = (size_t)ct_rng_below(r, prev_n);
                while (pick[u]);
                pick[u] = fed[u] = 1;
                st = ct_dag_add_edge(g, prev_start + u, idx, log_uniform(r, p->bytes_min, p->bytes_max), err);
            }
        }
        for (size_t u = 0; u < prev_n && st == CT_OK && s > 0; u++)
            if (!fed[u]) /* an unfed task of the stage before feeds a uniform one of this stage */
                st = ct_dag_add_edge(g, prev_start + u, start + (size_t)ct_rng_below(r, width),
                                     log_uniform(r, p->bytes_min, p->bytes_max), err);
        prev_start = start;
        prev_n = width;
    }
    return st;
}

ct_status_t ct_scenario_gen_layered(const ct_scenario_gen_params_t *p, uint64_t seed, ct_scenario_t *out,
                                    ct_error_t *err)
{
    ct_scenario_init(out);
    ct_status_t st = ct_scenario_gen_params_check(p, err);
    if (st != CT_OK)
        return st;
    ct_rng_t r;
    ct_rng_seed(&r, seed);
    char name[64];
    snprintf(name, sizeof name, "%s-%llu", ct_gen_shape_name(p->shape), (unsigned long long)seed);
    unsigned nc = uniform_int(&r, 1, p->classes_max);
    out->servers = p->servers;
    out->link_bandwidth = p->bandwidths[ct_rng_below(&r, p->n_bandwidths)];
    out->speed = 1.0;
    if (!(out->path = ct_strdup(name, err)) || !(out->classes = calloc(nc, sizeof(ct_class_t)))) {
        ct_scenario_destroy(out);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (unsigned c = 0; c < nc && st == CT_OK; c++) {
        ct_class_t *k = &out->classes[c];
        ct_dag_init(&k->dag);
        out->n_classes++;
        char cn[16];
        snprintf(cn, sizeof cn, "c%u", c);
        k->rate = log_uniform(&r, 0.5, 2.0);
        char dp[96];
        snprintf(dp, sizeof dp, "%s-%s.json", name, cn);
        if (!(k->name = ct_strdup(cn, err)) || !(k->dag_path = ct_strdup(dp, err)))
            st = CT_ENOMEM;
        else if ((st = ct_dag_set_name(&k->dag, cn, err)) == CT_OK && (st = gen_dag(p, &r, &k->dag, err)) == CT_OK)
            st = ct_dag_validate(&k->dag, name, err);
    }
    if (st == CT_OK)
        st = ct_scenario_validate(out, name, err);
    if (st != CT_OK)
        ct_scenario_destroy(out);
    return st;
}
