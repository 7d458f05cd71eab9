/*
 * nona_table.c - writing placement tables / lookup files (format in
 * ct_nona_table.h). Every number goes through ct_json_number so values read
 * back bit-exact.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_nona_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CT_VERSION
#define CT_VERSION "0.1.0"
#endif

/* The original task ids of a (contracted) task, as a JSON array. */
static cJSON *members(const ct_dag_t *g, size_t v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t j = 0; a && j < ct_dag_member_count(g, v); j++) {
        cJSON *s = cJSON_CreateString(ct_dag_member(g, v, j));
        if (!s || !cJSON_AddItemToArray(a, s)) {
            cJSON_Delete(s);
            cJSON_Delete(a);
            return NULL;
        }
    }
    return a;
}

/* Adds item to obj under key (arrays: key NULL); deletes item on failure. */

static int put_num(cJSON *obj, const char *key, double v)
{
    return ct_json_put(obj, key, ct_json_number(v));
}


static cJSON *class_json(const ct_scenario_t *s, const ct_nona_model_t *m, const ct_nona_solution_t *sol, size_t j,
                         ct_error_t *err)
{
    const ct_model_class_t *mc = &m->classes[j];
    const ct_dag_t *g = &mc->split.dag, *orig = &s->classes[j].dag;
    cJSON *c = cJSON_CreateObject(), *tasks = cJSON_CreateArray(), *segs = cJSON_CreateArray();
    size_t *order = malloc((orig->n_tasks ? orig->n_tasks : 1) * sizeof(size_t));
    int bad = !c || !tasks || !segs || !order;
    if (!bad && ct_dag_topo_order(orig, order, "dag", err) != CT_OK)
        bad = 1;
    /* The original tasks: a DAG file that is already contracted lists
     * them as its tasks' members, and the parts below name members. */
    for (size_t k = 0; !bad && k < orig->n_tasks; k++)
        for (size_t mm = 0; !bad && mm < ct_dag_member_count(orig, order[k]); mm++)
            bad |= ct_json_put(tasks, NULL, cJSON_CreateString(ct_dag_member(orig, order[k], mm)));
    bad |= ct_json_put(c, "name", cJSON_CreateString(s->classes[j].name));
    bad |= put_num(c, "arrival_rate", m->beta[j]);
    bad |= put_num(c, "predicted_mean_jct", sol->tau[j]);
    bad |= ct_json_put(c, "tasks", tasks);
    tasks = NULL;
    bad |= ct_json_put(c, "root", members(g, mc->split.bottlenecks[0]));
    for (size_t i = 0; !bad && i < mc->n_blocks; i++) {
        const ct_block_t *b = &m->blocks[mc->block_start + i];
        const ct_segment_t *seg = &mc->split.segments[b->segment];
        const ct_partitions_t *pt = &b->parts;
        cJSON *sj = cJSON_CreateObject(), *tj = cJSON_CreateArray();
        bad |= ct_json_put(segs, NULL, sj);
        bad |= !tj;
        bad |= ct_json_put(sj, "source", members(g, seg->source));
        bad |= ct_json_put(sj, "sink", members(g, seg->sink));
        if (b->generated) { /* column generation: how far this segment's triplets may be from all of them */
            bad |= ct_json_put(sj, "generated", cJSON_CreateTrue());
            if (sol->segment_gap)
                bad |= put_num(sj, "gap_seconds", sol->segment_gap[mc->block_start + i]);
        }
        for (size_t t = 0; !bad && t < b->n_vars; t++) {
            size_t w = b->var_start + t;
            if (sol->theta[w] <= 0)
                continue;
            const ct_triplet_t *tr = &pt->triplets[t];
            size_t q = pt->n_parts[tr->partition];
            cJSON *o = cJSON_CreateObject(), *parts = cJSON_CreateArray();
            bad |= ct_json_put(tj, NULL, o);
            bad |= !parts;
            bad |= put_num(o, "probability", sol->theta[w]);
            bad |= put_num(o, "k", tr->k);
            bad |= put_num(o, "l", tr->l);
            for (size_t pi = 0; !bad && pi < q; pi++) {
                cJSON *part = cJSON_CreateArray();
                bad |= ct_json_put(parts, NULL, part);
                for (size_t k = 0; !bad && k < seg->n_inner; k++) {
                    if (pt->assign[(size_t)tr->partition * seg->n_inner + k] != pi)
                        continue;
                    size_t v = seg->inner[k];
                    for (size_t mm = 0; !bad && mm < ct_dag_member_count(g, v); mm++)
                        bad |= ct_json_put(part, NULL, cJSON_CreateString(ct_dag_member(g, v, mm)));
                }
            }
            bad |= ct_json_put(o, "parts", parts);
            bad |= put_num(o, "predicted_time", ct_nona_triplet_time(m, w, sol->eval.phi, sol->eval.W));
        }
        bad |= ct_json_put(sj, "triplets", tj);
    }
    bad |= ct_json_put(c, "segments", segs);
    segs = NULL;
    free(order);
    if (bad) {
        cJSON_Delete(c);
        cJSON_Delete(tasks);
        cJSON_Delete(segs);
        if (!err || err->code == CT_OK)
            ct_error_set(err, CT_ENOMEM, "out of memory building a table");
        return NULL;
    }
    return c;
}

ct_status_t ct_nona_table_entry(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                                const ct_nona_solution_t *sol, cJSON **out, ct_error_t *err)
{
    char hash[24];
    *out = NULL;
    ct_error_clear(err);
    ct_scenario_hash(s, hash, sizeof hash);
    cJSON *e = cJSON_CreateObject(), *model = cJSON_CreateObject(), *classes = cJSON_CreateArray(),
          *bracket = cJSON_CreateArray();
    double beta_sum = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        beta_sum += m->beta[j];
    int bad = !e || !model || !classes || !bracket;
    bad |= put_num(e, "scale", scale);
    bad |= ct_json_put(e, "hash", cJSON_CreateString(hash));
    bad |= ct_json_put(e, "inputs", ct_scenario_to_json(s));
    bad |= ct_json_put(model, "method", cJSON_CreateString(ct_nona_method_name(sol->method)));
    bad |= put_num(model, "objective", sol->eval.J);
    bad |= put_num(model, "mean_jct", sol->eval.mean_jct);
    bad |= put_num(model, "rho", sol->eval.rho);
    bad |= put_num(model, "phi", sol->eval.phi);
    bad |= ct_json_put(model, "queueing", cJSON_CreateString(m->server_model ? "link+servers" : "link"));
    bad |= put_num(model, "root_choices", (double)m->root_choices);
    bad |= ct_json_put(model, "parts", cJSON_CreateString(m->dependent_parts ? "dependent" : "independent"));
    if (m->late_parts) /* written only when late: early tables stay as they were */
        bad |= ct_json_put(model, "part_binding", cJSON_CreateString("late"));
    if (m->late_parts) /* the shape the table was solved with (absent in early tables and before 2026-11-28: uniform) */
        bad |= ct_json_put(model, "late_waits", cJSON_CreateString(ct_nona_late_waits_name(m)));
    if (ct_nona_late_first_name(m)) /* (absent: aged, late tables before 2026-11-29) */
        bad |= ct_json_put(model, "late_first", cJSON_CreateString(ct_nona_late_first_name(m)));
    if (ct_nona_transfers_name(m)) /* (absent: on the part's timeline, the default) */
        bad |= ct_json_put(model, "transfers", cJSON_CreateString(ct_nona_transfers_name(m)));
    if (ct_nona_virtual_root_name(m)) /* (absent: the whole job's, the default) */
        bad |= ct_json_put(model, "virtual_root", cJSON_CreateString(ct_nona_virtual_root_name(m)));
    if (m->late_probes) /* written only for probes: least-of-d tables stay as they were */
        bad |= ct_json_put(model, "late_bind", cJSON_CreateString("probes"));
    if (m->finite_servers && m->root_choices > 1) { /* (absent: the mean field, tables before 2026-11-30) */
        bad |= ct_json_put(model, "sampling", cJSON_CreateString("finite"));
        bad |= put_num(model, "busy_dispersion", m->dispersion);
        bad |= put_num(model, "held_share", m->held_share);
    }
    if (m->rtt_root > 0) /* written only when charged: tables without a round trip stay as they were */
        bad |= put_num(model, "round_trip", m->rtt);
    if (m->server_model) {
        bad |= ct_json_put(model, "waits", cJSON_CreateString(ct_nona_waits_name(m)));
        bad |= put_num(model, "rho_servers", sol->eval.rho_s);
        bad |= put_num(model, "server_wait", sol->eval.W);
        bad |= put_num(model, "root_wait", sol->eval.W_root);
    }
    if (isfinite(sol->gap))
        bad |= put_num(model, "gap", sol->gap);
    bad |= put_num(bracket, NULL, sol->phi_lo) | put_num(bracket, NULL, sol->phi_hi);
    bad |= ct_json_put(model, "phi_bracket", bracket);
    bracket = NULL;
    bad |= put_num(model, "local_mean_jct", sol->J_local / beta_sum);
    bad |= put_num(model, "solve_seconds", sol->seconds);
    bad |= ct_json_put(e, "model", model);
    model = NULL;
    for (size_t j = 0; !bad && j < m->n_classes; j++) {
        cJSON *c = class_json(s, m, sol, j, err);
        if (!c)
            break;
        bad |= ct_json_put(classes, NULL, c);
    }
    bad |= ct_json_put(e, "classes", classes);
    classes = NULL;
    if (bad || (err && err->code != CT_OK)) {
        cJSON_Delete(e);
        cJSON_Delete(model);
        cJSON_Delete(classes);
        cJSON_Delete(bracket);
        return err && err->code != CT_OK ? err->code : ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    }
    *out = e;
    return CT_OK;
}

ct_status_t ct_nona_table_document(cJSON **entries, size_t n, cJSON **doc, ct_error_t *err)
{
    *doc = NULL;
    cJSON *d = cJSON_CreateObject(), *sc = cJSON_CreateArray();
    int bad = !d || !sc;
    bad |= ct_json_put(d, "format", cJSON_CreateString(CT_TABLE_FORMAT));
    bad |= ct_json_put(d, "generator", cJSON_CreateString("contend " CT_VERSION));
    for (size_t i = 0; i < n; i++) {
        if (bad)
            cJSON_Delete(entries[i]);
        else
            bad |= ct_json_put(sc, NULL, entries[i]);
        entries[i] = NULL;
    }
    bad |= ct_json_put(d, "scenarios", sc);
    if (bad) {
        cJSON_Delete(d);
        return ct_error_set(err, CT_ENOMEM, "out of memory building a lookup file");
    }
    *doc = d;
    return CT_OK;
}
