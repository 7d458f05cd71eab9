/*
 * policies.c - the built-in placement policies (see ct_sim.h).
 *
 * random places every task on a uniform server; fair is a CENTRAL policy
 * (the simulator implements its dispatch rule); the table policy draws from
 * a lookup table with the sampler library and maps the table's task order to
 * the simulator's by task id, once, when it is created; a table solved for
 * late-bound parts gives slots the simulator binds (ct_policy_t.late_choices).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_policy_free(ct_policy_t *p)
{
    if (!p)
        return;
    if (p->destroy)
        p->destroy(p);
    free(p);
}

static int random_place(ct_policy_t *self, size_t cls, size_t n_tasks, uint32_t n_servers, const uint32_t *loads,
                        ct_rng_t *rng, uint32_t *servers)
{
    (void)self;
    (void)cls;
    (void)loads;
    for (size_t t = 0; t < n_tasks; t++)
        servers[t] = (uint32_t)ct_rng_below(rng, n_servers);
    return 0;
}

ct_status_t ct_policy_random(ct_policy_t **out, ct_error_t *err)
{
    *out = calloc(1, sizeof(ct_policy_t));
    if (!*out)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    (*out)->name = "random";
    (*out)->kind = CT_POLICY_PLACE;
    (*out)->place = random_place;
    return CT_OK;
}

ct_status_t ct_policy_fair(ct_policy_t **out, ct_error_t *err)
{
    *out = calloc(1, sizeof(ct_policy_t));
    if (!*out)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    (*out)->name = "fair";
    (*out)->kind = CT_POLICY_CENTRAL;
    return CT_OK;
}

ct_status_t ct_policy_fair_delay(double wait, ct_policy_t **out, ct_error_t *err)
{
    if (!(wait > 0) || !isfinite(wait))
        return ct_error_set(err, CT_EINPUT, "fair-delay: the locality wait must be a positive number of seconds");
    ct_status_t st = ct_policy_fair(out, err);
    if (st == CT_OK) {
        (*out)->name = "fair-delay";
        (*out)->locality_wait = wait;
    }
    return st;
}

ct_status_t ct_policy_sparrow(unsigned probes, ct_policy_t **out, ct_error_t *err)
{
    if (probes < 1 || probes > 64)
        return ct_error_set(err, CT_EINPUT, "sparrow: probes per task: expected 1..64 (got %u)", probes);
    *out = calloc(1, sizeof(ct_policy_t));
    if (!*out)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    (*out)->name = "sparrow";
    (*out)->kind = CT_POLICY_SAMPLE;
    (*out)->probes = probes;
    return CT_OK;
}

ct_status_t ct_policy_sparrow_local(unsigned probes, ct_policy_t **out, ct_error_t *err)
{
    ct_status_t st = ct_policy_sparrow(probes, out, err);
    if (st == CT_OK) {
        (*out)->name = "sparrow-local";
        (*out)->probe_inputs = 1;
    }
    return st;
}

/* ------------------------------------------------------------------------ */

typedef struct {
    char *name;
    const ct_sampler_t *sampler;
    size_t scenario;
    size_t n_classes;
    size_t *table_class;     /* simulator class -> table class */
    uint32_t **perm;         /* per class: table task index -> simulator task index, or UINT32_MAX for a
                                member of a task the scenario's DAG already contracts (it goes with it) */
    uint32_t *scratch;
    unsigned root_choices;   /* d: the root goes to the least loaded of d sampled servers */
} table_state_t;

static void table_destroy(ct_policy_t *self)
{
    table_state_t *ts = self->state;
    if (!ts)
        return;
    for (size_t c = 0; c < ts->n_classes; c++)
        free(ts->perm ? ts->perm[c] : NULL);
    free(ts->perm);
    free(ts->table_class);
    free(ts->scratch);
    free(ts->name);
    free(ts);
}

static int table_place(ct_policy_t *self, size_t cls, size_t n_tasks, uint32_t n_servers, const uint32_t *loads,
                       ct_rng_t *rng, uint32_t *servers)
{
    (void)n_tasks;
    table_state_t *ts = self->state;
    size_t tc = ts->table_class[cls], n = ct_sampler_task_count(ts->sampler, tc);
    if ((self->late_choices ? ct_sampler_place_late : ct_sampler_place_loaded)(
            ts->sampler, ts->scenario, tc, n_servers, ts->root_choices > 1 ? loads : NULL, ts->root_choices, rng,
            ts->scratch, NULL) != 0)
        return -1;
    for (size_t t = 0; t < n; t++)
        if (ts->perm[cls][t] != UINT32_MAX)
            servers[ts->perm[cls][t]] = ts->scratch[t];
    return 0;
}

size_t ct_policy_table_entry(const ct_policy_t *p)
{
    return p && p->place == table_place ? ((const table_state_t *)p->state)->scenario : 0;
}

void ct_policy_set_late_bind(ct_policy_t *p, ct_late_bind_t rule)
{
    p->late_bind_ready = rule != CT_LATE_BIND_FIRST_INPUT;
    p->late_hold = rule == CT_LATE_BIND_READY_HOLD;
    p->late_probes = rule == CT_LATE_BIND_PROBES;
}

ct_status_t ct_policy_table(const char *name, const ct_sampler_t *sampler, const double *rates,
                            const ct_sim_class_t *classes, size_t n_classes, ct_policy_t **out, ct_error_t *err)
{
    return ct_policy_table_d(name, sampler, rates, classes, n_classes, 1, out, err);
}

ct_status_t ct_policy_table_d(const char *name, const ct_sampler_t *sampler, const double *rates,
                              const ct_sim_class_t *classes, size_t n_classes, unsigned root_choices,
                              ct_policy_t **out, ct_error_t *err)
{
    *out = NULL;
    ct_policy_t *p = calloc(1, sizeof *p);
    table_state_t *ts = calloc(1, sizeof *ts);
    if (!p || !ts) {
        free(p);
        free(ts);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    p->state = ts;
    p->kind = CT_POLICY_PLACE;
    p->place = table_place;
    p->destroy = table_destroy;
    ts->sampler = sampler;
    ts->n_classes = n_classes;
    ts->name = ct_strdup(name, err);
    ts->table_class = calloc(n_classes ? n_classes : 1, sizeof(size_t));
    ts->perm = calloc(n_classes ? n_classes : 1, sizeof(uint32_t *));
    size_t max_tasks = 1, nt = ct_sampler_class_count(sampler);
    double *r = calloc(nt ? nt : 1, sizeof(double));
    ct_status_t st = CT_OK;
    if (!ts->name || !ts->table_class || !ts->perm || !r) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    p->name = ts->name;
    for (size_t c = 0; c < n_classes && st == CT_OK; c++) {
        const ct_sim_class_t *k = &classes[c];
        long tc = ct_sampler_class_index(sampler, k->name);
        if (tc < 0) {
            st = ct_error_set(err, CT_EINPUT, "policy %s: class '%s' is not in the lookup table", name, k->name);
            break;
        }
        /* The table lists original tasks; a DAG file already contracted
         * has fewer, each named by its first member (as dag contract
         * writes them), and the table's other members go with it. */
        size_t n = ct_sampler_task_count(sampler, (size_t)tc);
        if (n < k->n_tasks) {
            st = ct_error_set(err, CT_EINPUT, "policy %s: class '%s' has %zu tasks, the table %zu", name, k->name,
                              k->n_tasks, n);
            break;
        }
        ts->table_class[c] = (size_t)tc;
        if (!(ts->perm[c] = malloc(n * sizeof(uint32_t)))) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        /* Task ids: the table lists them in the same topological order the
         * simulator uses, so try the identity first, then search. */
        size_t covered = 0;
        for (size_t t = 0; t < n && st == CT_OK; t++) {
            const char *id = ct_sampler_task_id(sampler, (size_t)tc, t);
            size_t hit = (size_t)-1;
            if (t < k->n_tasks && !strcmp(k->ids[t], id))
                hit = t;
            for (size_t u = 0; hit == (size_t)-1 && u < k->n_tasks; u++)
                if (!strcmp(k->ids[u], id))
                    hit = u;
            if (hit == (size_t)-1 && n == k->n_tasks)
                st = ct_error_set(err, CT_EINPUT, "policy %s: table task '%s' is not in class '%s'", name, id, k->name);
            ts->perm[c][t] = hit == (size_t)-1 ? UINT32_MAX : (uint32_t)hit;
            covered += hit != (size_t)-1;
        }
        if (st == CT_OK && covered != k->n_tasks) /* a contracted task named by none of its members */
            st = ct_error_set(err, CT_EINPUT,
                              "policy %s: class '%s': %zu of its %zu tasks are not in the table (a contracted task's id "
                              "must be one of its members)",
                              name, k->name, k->n_tasks - covered, k->n_tasks);
        if (n > max_tasks)
            max_tasks = n;
        if (rates)
            r[tc] = rates[c];
    }
    if (st == CT_OK && !(ts->scratch = malloc(max_tasks * sizeof(uint32_t))))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    if (st == CT_OK && rates) {
        for (size_t t = 0; t < nt; t++) /* classes the simulation lacks keep the table's rate */
            if (r[t] <= 0)
                r[t] = ct_sampler_scenario_rate(sampler, 0, t);
        ts->scenario = ct_sampler_nearest(sampler, r);
    }
    ts->root_choices = root_choices ? root_choices : ct_sampler_root_choices(sampler, ts->scenario);
    p->root_sampled = ts->root_choices > 1;
    if (ct_sampler_late_parts(sampler, ts->scenario)) /* parts bind when needed, by the root's rule */
        p->late_choices = ts->root_choices;
    ct_policy_set_late_bind(p, CT_SIM_LATE_BIND_DEFAULT);
done:
    free(r);
    if (st != CT_OK) {
        ct_policy_free(p);
        return st;
    }
    *out = p;
    return CT_OK;
}
