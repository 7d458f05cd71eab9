/*
 * nona_table.c - writing placement tables / lookup files (format in
 * ct_nona_table.h). An entry is written as text by the streaming writer
 * (ct_jw_t: cJSON_Print's layout, so files are what they were when a
 * cJSON tree was printed), not built as a tree: a 1000-class table is
 * hundreds of thousands of values, and a sweep's points travel as text
 * anyway. Every number prints as ct_json_number's, so values read back
 * bit-exact.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "ct_nona_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CT_VERSION
#define CT_VERSION "0.1.0"
#endif

/* The original task ids of a (contracted) task, as a JSON array. */
static void members(ct_jw_t *w, const char *key, const ct_dag_t *g, size_t v)
{
    ct_jw_array(w, key);
    for (size_t j = 0; j < ct_dag_member_count(g, v); j++)
        ct_jw_string(w, NULL, ct_dag_member(g, v, j));
    ct_jw_end(w);
}

static ct_status_t class_write(ct_jw_t *w, const ct_scenario_t *s, const ct_nona_model_t *m,
                               const ct_nona_solution_t *sol, size_t j, ct_error_t *err)
{
    const ct_model_class_t *mc = &m->classes[j];
    const ct_dag_t *g = &mc->split.dag, *orig = &s->classes[j].dag;
    size_t *order = malloc((orig->n_tasks ? orig->n_tasks : 1) * sizeof(size_t));
    if (!order)
        return ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    ct_status_t st = ct_dag_topo_order(orig, order, "dag", err);
    if (st != CT_OK) {
        free(order);
        return st;
    }
    ct_jw_object(w, NULL);
    ct_jw_string(w, "name", s->classes[j].name);
    ct_jw_number(w, "arrival_rate", m->beta[j]);
    ct_jw_number(w, "predicted_mean_jct", sol->tau[j]);
    /* The original tasks: a DAG file that is already contracted lists
     * them as its tasks' members, and the parts below name members. */
    ct_jw_array(w, "tasks");
    for (size_t k = 0; k < orig->n_tasks; k++)
        for (size_t mm = 0; mm < ct_dag_member_count(orig, order[k]); mm++)
            ct_jw_string(w, NULL, ct_dag_member(orig, order[k], mm));
    ct_jw_end(w);
    free(order);
    members(w, "root", g, mc->split.bottlenecks[0]);
    ct_jw_array(w, "segments");
    for (size_t i = 0; i < mc->n_blocks && !w->oom; i++) {
        const ct_block_t *b = &m->blocks[mc->block_start + i];
        const ct_segment_t *seg = &mc->split.segments[b->segment];
        const ct_partitions_t *pt = &b->parts;
        ct_jw_object(w, NULL);
        members(w, "source", g, seg->source);
        members(w, "sink", g, seg->sink);
        if (b->generated) { /* column generation: how far this segment's triplets may be from all of them */
            ct_jw_true(w, "generated");
            if (sol->segment_gap)
                ct_jw_number(w, "gap_seconds", sol->segment_gap[mc->block_start + i]);
        }
        ct_jw_array(w, "triplets");
        for (size_t t = 0; t < b->n_vars; t++) {
            size_t v = b->var_start + t;
            if (sol->theta[v] <= 0)
                continue;
            const ct_triplet_t *tr = &pt->triplets[t];
            size_t q = pt->n_parts[tr->partition];
            ct_jw_object(w, NULL);
            ct_jw_number(w, "probability", sol->theta[v]);
            ct_jw_number(w, "k", tr->k);
            ct_jw_number(w, "l", tr->l);
            ct_jw_array(w, "parts");
            for (size_t pi = 0; pi < q; pi++) {
                ct_jw_array(w, NULL);
                for (size_t k = 0; k < seg->n_inner; k++) {
                    if (pt->assign[(size_t)tr->partition * seg->n_inner + k] != pi)
                        continue;
                    size_t u = seg->inner[k];
                    for (size_t mm = 0; mm < ct_dag_member_count(g, u); mm++)
                        ct_jw_string(w, NULL, ct_dag_member(g, u, mm));
                }
                ct_jw_end(w);
            }
            ct_jw_end(w);
            ct_jw_number(w, "predicted_time", ct_nona_triplet_time(m, v, sol->eval.phi, sol->eval.W));
            ct_jw_end(w);
        }
        ct_jw_end(w);
        ct_jw_end(w);
    }
    ct_jw_end(w);
    ct_jw_end(w);
    return CT_OK;
}

/* The entry into w (see ct_nona_table_entry_text). */
static ct_status_t entry_write(ct_jw_t *w, const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                               const ct_nona_solution_t *sol, ct_error_t *err)
{
    char hash[24];
    ct_scenario_hash(s, hash, sizeof hash);
    cJSON *inputs = ct_scenario_to_json(s); /* (small: a few items a class) */
    if (!inputs)
        return ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    double beta_sum = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        beta_sum += m->beta[j];
    ct_jw_object(w, NULL);
    ct_jw_number(w, "scale", scale);
    ct_jw_string(w, "hash", hash);
    ct_jw_item(w, "inputs", inputs);
    cJSON_Delete(inputs);
    ct_jw_object(w, "model");
    ct_jw_string(w, "method", ct_nona_method_name(sol->method));
    ct_jw_number(w, "objective", sol->eval.J);
    ct_jw_number(w, "mean_jct", sol->eval.mean_jct);
    ct_jw_number(w, "rho", sol->eval.rho);
    ct_jw_number(w, "phi", sol->eval.phi);
    ct_jw_string(w, "queueing", m->server_model ? "link+servers" : "link");
    ct_jw_number(w, "root_choices", (double)m->root_choices);
    ct_jw_string(w, "parts", m->dependent_parts ? "dependent" : "independent");
    if (m->late_parts) /* written only when late: early tables stay as they were */
        ct_jw_string(w, "part_binding", "late");
    if (m->late_parts) /* the shape the table was solved with (absent in early tables and before 2026-11-28: uniform) */
        ct_jw_string(w, "late_waits", ct_nona_late_waits_name(m));
    if (ct_nona_late_first_name(m)) /* (absent: aged, late tables before 2026-11-29) */
        ct_jw_string(w, "late_first", ct_nona_late_first_name(m));
    if (ct_nona_transfers_name(m)) /* (absent: on the part's timeline, the default) */
        ct_jw_string(w, "transfers", ct_nona_transfers_name(m));
    if (ct_nona_virtual_root_name(m)) /* (absent: the whole job's, the default) */
        ct_jw_string(w, "virtual_root", ct_nona_virtual_root_name(m));
    if (m->late_probes) /* written only for probes: least-of-d tables stay as they were */
        ct_jw_string(w, "late_bind", "probes");
    if (m->finite_servers && m->root_choices > 1) { /* (absent: the mean field, tables before 2026-11-30) */
        ct_jw_string(w, "sampling", "finite");
        ct_jw_number(w, "busy_dispersion", m->dispersion);
        ct_jw_number(w, "held_share", m->held_share);
    }
    if (m->rtt_root > 0) /* written only when charged: tables without a round trip stay as they were */
        ct_jw_number(w, "round_trip", m->rtt);
    if (m->server_model) {
        ct_jw_string(w, "waits", ct_nona_waits_name(m));
        ct_jw_number(w, "rho_servers", sol->eval.rho_s);
        ct_jw_number(w, "server_wait", sol->eval.W);
        ct_jw_number(w, "root_wait", sol->eval.W_root);
    }
    if (isfinite(sol->gap))
        ct_jw_number(w, "gap", sol->gap);
    ct_jw_array(w, "phi_bracket");
    ct_jw_number(w, NULL, sol->phi_lo);
    ct_jw_number(w, NULL, sol->phi_hi);
    ct_jw_end(w);
    ct_jw_number(w, "local_mean_jct", sol->J_local / beta_sum);
    ct_jw_number(w, "solve_seconds", sol->seconds);
    ct_jw_end(w);
    ct_jw_array(w, "classes");
    ct_status_t st = CT_OK;
    for (size_t j = 0; j < m->n_classes && st == CT_OK && !w->oom; j++)
        st = class_write(w, s, m, sol, j, err);
    ct_jw_end(w);
    ct_jw_end(w);
    return st;
}

ct_status_t ct_nona_table_entry_text(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                                     const ct_nona_solution_t *sol, char **text, size_t *len, ct_error_t *err)
{
    ct_jw_t w;
    ct_jw_init(&w, 2); /* (inside the document's "scenarios" array) */
    ct_error_clear(err);
    ct_status_t st = entry_write(&w, s, scale, m, sol, err);
    if (st != CT_OK) {
        ct_jw_discard(&w);
        *text = NULL;
        *len = 0;
        return st;
    }
    return ct_jw_finish(&w, text, len, err);
}

/* The document's text before its entries (ending in the "scenarios"
 * array's "["), as ct_nona_table_document prints; after them comes
 * DOC_TAIL (the array's "]", the object's "}" and the final newline). */
#define DOC_TAIL "]\n}\n"
static ct_status_t doc_head(char **head, size_t *len, ct_error_t *err)
{
    ct_jw_t w;
    ct_jw_init(&w, 0);
    ct_jw_object(&w, NULL);
    ct_jw_string(&w, "format", CT_TABLE_FORMAT);
    ct_jw_string(&w, "generator", "contend " CT_VERSION);
    ct_jw_array(&w, "scenarios"); /* (left open: the entries follow) */
    return ct_jw_take(&w, head, len, err);
}

ct_status_t ct_nona_table_write(FILE *fp, const char *const *entries, const size_t *lens, size_t n, ct_error_t *err)
{
    char *head;
    size_t len;
    ct_status_t st = doc_head(&head, &len, err);
    if (st != CT_OK)
        return st;
    fwrite(head, 1, len, fp); /* (a failure leaves the stream's error flag: the caller's commit reports it) */
    free(head);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", fp);
        fwrite(entries[i], 1, lens[i], fp);
    }
    fputs(DOC_TAIL, fp);
    return CT_OK;
}

ct_status_t ct_nona_table_text(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                               const ct_nona_solution_t *sol, char **text, size_t *len, ct_error_t *err)
{
    char *entry, *t = NULL;
    size_t el, tl = 0;
    *text = NULL;
    *len = 0;
    ct_status_t st = ct_nona_table_entry_text(s, scale, m, sol, &entry, &el, err);
    if (st != CT_OK)
        return st;
    /* (the document as ct_nona_table_write writes it, into memory) */
    FILE *fp = open_memstream(&t, &tl);
    if (fp) {
        const char *e = entry;
        st = ct_nona_table_write(fp, &e, &el, 1, err);
        int bad = ferror(fp);
        if (fclose(fp) != 0 || (bad && st == CT_OK))
            st = ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    } else
        st = ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    free(entry);
    if (st != CT_OK) {
        free(t);
        return st;
    }
    *text = t;
    *len = tl;
    return CT_OK;
}

ct_status_t ct_nona_table_entry(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                                const ct_nona_solution_t *sol, cJSON **out, ct_error_t *err)
{
    char *text;
    size_t len;
    *out = NULL;
    ct_status_t st = ct_nona_table_entry_text(s, scale, m, sol, &text, &len, err);
    if (st != CT_OK)
        return st;
    st = ct_json_parse(text, len, "table entry", out, err);
    free(text);
    if (st == CT_OK && ct_json_canonical_numbers(*out) != 0) { /* (numbers print as written) */
        cJSON_Delete(*out);
        *out = NULL;
        st = ct_error_set(err, CT_ENOMEM, "out of memory building a table");
    }
    return st;
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
