/*
 * split.c - bottleneck split (see ct_split.h).
 *
 * The bottlenecks are the dominators of the sink in the dominator tree
 * rooted at the source. In a DAG with one source and one sink they are
 * the tasks no edge jumps over in a topological order: one pass over the
 * edges, O(V + E) (igraph's Lengauer-Tarjan before 2026-12-03: the same
 * tasks, tests/unit/split_partition.c checks both; a tenth of a
 * 1000-class model's build went to its graphs). Tasks are assigned to
 * segments by topological position: every task lies on some source-sink
 * path, which visits the bottlenecks in order, so a task between r_i and
 * r_{i+1} in any topological order belongs to segment i.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_split.h"

#include <stdlib.h>
#include <string.h>

void ct_split_free(ct_split_t *split)
{
    if (!split)
        return;
    for (size_t i = 0; i < split->n_segments; i++) {
        ct_segment_t *s = &split->segments[i];
        free(s->inner);
        free(s->edges);
        free(s->loc_from);
        free(s->loc_to);
    }
    free(split->segments);
    free(split->bottlenecks);
    ct_dag_destroy(&split->dag);
    memset(split, 0, sizeof *split);
    ct_dag_init(&split->dag);
}

/* Gives every task an explicit member list (identity where there was none),
 * so virtual tasks can have an empty one. */
static ct_status_t ensure_members(ct_dag_t *d, ct_error_t *err)
{
    if (d->members)
        return CT_OK;
    size_t n = d->n_tasks;
    d->member_start = malloc((n + 1) * sizeof(size_t));
    d->members = calloc(n ? n : 1, sizeof(char *));
    if (!d->member_start || !d->members) {
        free(d->member_start);
        free(d->members);
        d->member_start = NULL;
        d->members = NULL;
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i <= n; i++)
        d->member_start[i] = i;
    for (size_t i = 0; i < n; i++)
        if (!(d->members[i] = ct_strdup(d->ids[i], err)))
            return CT_ENOMEM;
    return CT_OK;
}

/* Adds a zero-time task with no members and an unused id based on base. */
static ct_status_t add_virtual(ct_dag_t *d, const char *base, size_t *idx, ct_error_t *err)
{
    char id[64];
    snprintf(id, sizeof id, "%s", base);
    for (unsigned k = 1; ct_dag_find(d, id, NULL); k++)
        snprintf(id, sizeof id, "%s%u", base, k);
    size_t *ms = realloc(d->member_start, (d->n_tasks + 2) * sizeof(size_t));
    if (!ms)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    d->member_start = ms;
    ct_status_t st = ct_dag_add_task(d, id, 0.0, idx, err);
    if (st != CT_OK)
        return st;
    d->member_start[d->n_tasks] = d->member_start[d->n_tasks - 1];
    return CT_OK;
}

ct_status_t ct_split_compute(const ct_dag_t *in, ct_split_t *split, ct_error_t *err)
{
    memset(split, 0, sizeof *split);
    ct_dag_init(&split->dag);
    ct_status_t st = ct_dag_validate(in, in->name ? in->name : "dag", err);
    if (st != CT_OK)
        return st;
    if ((st = ct_dag_copy(&split->dag, in, err)) != CT_OK)
        return st;
    ct_dag_t *d = &split->dag;
    size_t n0 = d->n_tasks, *indeg = calloc(n0, sizeof(size_t)), *outdeg = calloc(n0, sizeof(size_t));
    size_t *order = NULL, *pos = NULL;
    if (!indeg || !outdeg) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t e = 0; e < d->n_edges; e++) {
        outdeg[d->from[e]]++;
        indeg[d->to[e]]++;
    }
    size_t n_roots = 0, n_sinks = 0, root = 0, sink = 0;
    for (size_t v = 0; v < n0; v++) {
        if (!indeg[v]) {
            n_roots++;
            root = v;
        }
        if (!outdeg[v]) {
            n_sinks++;
            sink = v;
        }
    }
    if (n_roots > 1 || n_sinks > 1)
        if ((st = ensure_members(d, err)) != CT_OK)
            goto done;
    if (n_roots > 1) {
        if ((st = add_virtual(d, "__source__", &root, err)) != CT_OK)
            goto done;
        for (size_t v = 0; v < n0; v++)
            if (!indeg[v] && (st = ct_dag_add_edge(d, root, v, 0.0, err)) != CT_OK)
                goto done;
        split->virtual_source = 1;
    }
    if (n_sinks > 1) {
        if ((st = add_virtual(d, "__sink__", &sink, err)) != CT_OK)
            goto done;
        for (size_t v = 0; v < n0; v++)
            if (!outdeg[v] && (st = ct_dag_add_edge(d, v, sink, 0.0, err)) != CT_OK)
                goto done;
        split->virtual_sink = 1;
    }
    size_t n = d->n_tasks;
    order = malloc(n * sizeof(size_t));
    pos = malloc(n * sizeof(size_t));
    if (!order || !pos) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_dag_topo_order(d, order, d->name ? d->name : "dag", err)) != CT_OK)
        goto done;
    for (size_t k = 0; k < n; k++)
        pos[order[k]] = k;

    /* Dominators of the sink, from the source: the tasks no edge jumps
     * over in the topological order (every task lies on a source-sink
     * path; a path's positions rise along its edges, so it reaches every
     * position no edge of it jumps, and an edge a -> b that jumps v's
     * gives the path source ..> a -> b ..> sink that misses v). cover[k]:
     * the edges from before position k to after it. */
    split->bottlenecks = malloc(n * sizeof(size_t));
    long *cover = calloc(n + 1, sizeof(long));
    if (!split->bottlenecks || !cover) {
        free(cover);
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t e = 0; e < d->n_edges; e++) {
        cover[pos[d->from[e]] + 1]++;
        cover[pos[d->to[e]]]--;
    }
    size_t nb = 0;
    long open = 0;
    for (size_t k = 0; k < n; k++) {
        open += cover[k];
        if (open == 0)
            split->bottlenecks[nb++] = order[k];
    }
    free(cover);
    if (nb < 1 || split->bottlenecks[0] != root || split->bottlenecks[nb - 1] != sink) {
        st = ct_error_set(err, CT_EINTERNAL, "dominator chain of the sink does not reach the source");
        goto done;
    }
    split->n_bottlenecks = nb;
    split->n_segments = nb - 1;
    split->segments = calloc(nb, sizeof(ct_segment_t));
    if (!split->segments) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    /* seg_of[v]: segment of an intermediate task (by topological position),
     * local[v]: its index inside that segment. */
    size_t *seg_of = indeg, *local = outdeg; /* reuse: n0 <= n, reallocate */
    seg_of = realloc(indeg, n * sizeof(size_t));
    if (!seg_of) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    indeg = seg_of;
    local = realloc(outdeg, n * sizeof(size_t));
    if (!local) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    outdeg = local;
    for (size_t v = 0; v < n; v++)
        seg_of[v] = local[v] = (size_t)-1;
    for (size_t i = 0; i < split->n_segments; i++) {
        ct_segment_t *s = &split->segments[i];
        s->source = split->bottlenecks[i];
        s->sink = split->bottlenecks[i + 1];
        size_t lo = pos[s->source], hi = pos[s->sink];
        s->n_inner = hi - lo - 1;
        s->inner = malloc((s->n_inner ? s->n_inner : 1) * sizeof(size_t));
        if (!s->inner) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t k = lo + 1; k < hi; k++) {
            size_t v = order[k];
            s->inner[k - lo - 1] = v;
            seg_of[v] = i;
            local[v] = k - lo - 1;
        }
    }
    /* Each edge belongs to the segment of its source end, except edges out
     * of a bottleneck r_i, which belong to segment i. */
    size_t *bseg = pos; /* bottleneck -> its outgoing segment; pos no longer needed */
    for (size_t v = 0; v < n; v++)
        bseg[v] = (size_t)-1;
    for (size_t i = 0; i < split->n_segments; i++)
        bseg[split->bottlenecks[i]] = i;
    size_t *eseg = malloc((d->n_edges ? d->n_edges : 1) * sizeof(size_t));
    if (!eseg) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t e = 0; e < d->n_edges; e++) {
        size_t u = d->from[e];
        eseg[e] = bseg[u] != (size_t)-1 ? bseg[u] : seg_of[u];
        split->segments[eseg[e]].n_edges++;
    }
    for (size_t i = 0; i < split->n_segments && st == CT_OK; i++) {
        ct_segment_t *s = &split->segments[i];
        size_t m = s->n_edges ? s->n_edges : 1;
        s->edges = malloc(m * sizeof(size_t));
        s->loc_from = malloc(m * sizeof(size_t));
        s->loc_to = malloc(m * sizeof(size_t));
        if (!s->edges || !s->loc_from || !s->loc_to)
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
        s->n_edges = 0;
    }
    for (size_t e = 0; e < d->n_edges && st == CT_OK; e++) {
        ct_segment_t *s = &split->segments[eseg[e]];
        size_t u = d->from[e], v = d->to[e], j = s->n_edges++;
        s->edges[j] = e;
        s->loc_from[j] = u == s->source ? CT_SEG_SOURCE : local[u];
        s->loc_to[j] = v == s->sink ? CT_SEG_SINK : local[v];
        if (u == s->sink || v == s->source || (v != s->sink && seg_of[v] != eseg[e]))
            st = ct_error_set(err, CT_EINTERNAL, "edge %s -> %s leaves its segment", d->ids[u], d->ids[v]);
    }
    free(eseg);
done:
    free(indeg);
    free(outdeg);
    free(order);
    free(pos);
    if (st != CT_OK)
        ct_split_free(split);
    return st;
}
