/*
 * dag.c - the DAG container: building, copying, adjacency, topological order
 * and validation (see ct_dag.h for the invariants).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_adj.h"
#include "ct_dag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_dag_init(ct_dag_t *dag)
{
    memset(dag, 0, sizeof *dag);
    ct_strmap_init(&dag->index);
}

void ct_dag_destroy(ct_dag_t *dag)
{
    if (!dag)
        return;
    free(dag->name);
    for (size_t i = 0; i < dag->n_tasks; i++)
        free(dag->ids[i]);
    if (dag->members)
        for (size_t j = 0; j < dag->member_start[dag->n_tasks]; j++)
            free(dag->members[j]);
    free(dag->ids);
    free(dag->time);
    free(dag->from);
    free(dag->to);
    free(dag->bytes);
    free(dag->member_start);
    free(dag->members);
    ct_strmap_destroy(&dag->index);
    ct_dag_init(dag);
}

ct_status_t ct_dag_set_name(ct_dag_t *dag, const char *name, ct_error_t *err)
{
    char *n = NULL;
    if (name && !(n = ct_strdup(name, err)))
        return CT_ENOMEM;
    free(dag->name);
    dag->name = n;
    return CT_OK;
}

static int grow(void **p, size_t elem, size_t need)
{
    void *np = realloc(*p, elem * need);
    if (!np)
        return -1;
    *p = np;
    return 0;
}

ct_status_t ct_dag_add_task(ct_dag_t *dag, const char *id, double time, size_t *idx,
                            ct_error_t *err)
{
    if (dag->n_tasks >= CT_MAX_TASKS)
        return ct_error_set(err, CT_ELIMIT, "more than %u tasks (the limit per DAG)", CT_MAX_TASKS);
    if (strlen(id) > CT_MAX_ID_BYTES)
        return ct_error_set(err, CT_ELIMIT, "task id of %zu bytes, over the limit of %u", strlen(id), CT_MAX_ID_BYTES);
    if (time > CT_MAX_SECONDS) /* (negative and non-finite: ct_dag_validate names them) */
        return ct_error_set(err, CT_EINPUT, "task '%s': time %g s, over %g s", id, time, CT_MAX_SECONDS);
    if (dag->n_tasks == dag->cap_tasks) {
        size_t nc = dag->cap_tasks ? 2 * dag->cap_tasks : 16;
        if (grow((void **)&dag->ids, sizeof(char *), nc) || grow((void **)&dag->time, sizeof(double), nc))
            return ct_error_set(err, CT_ENOMEM, "out of memory adding task '%s'", id);
        dag->cap_tasks = nc;
    }
    ct_status_t st = ct_strmap_put(&dag->index, id, dag->n_tasks);
    if (st == CT_EINPUT)
        return ct_error_set(err, CT_EINPUT, "duplicate task id '%s'", id);
    if (st != CT_OK)
        return ct_error_set(err, CT_ENOMEM, "out of memory adding task '%s'", id);
    char *copy = ct_strdup(id, err);
    if (!copy)
        return CT_ENOMEM; /* the index keeps a dangling entry only until destroy */
    dag->ids[dag->n_tasks] = copy;
    dag->time[dag->n_tasks] = time;
    if (idx)
        *idx = dag->n_tasks;
    dag->n_tasks++;
    return CT_OK;
}

ct_status_t ct_dag_add_edge(ct_dag_t *dag, size_t from, size_t to, double bytes, ct_error_t *err)
{
    if (dag->n_edges >= CT_MAX_EDGES)
        return ct_error_set(err, CT_ELIMIT, "more than %u edges (the limit per DAG)", CT_MAX_EDGES);
    if (bytes > CT_MAX_BYTES) /* (negative and non-finite: ct_dag_validate names them) */
        return ct_error_set(err, CT_EINPUT, "edge %s -> %s: %g bytes, over %g", from < dag->n_tasks ? dag->ids[from] : "?",
                            to < dag->n_tasks ? dag->ids[to] : "?", bytes, CT_MAX_BYTES);
    if (dag->n_edges == dag->cap_edges) {
        size_t nc = dag->cap_edges ? 2 * dag->cap_edges : 16;
        if (grow((void **)&dag->from, sizeof(size_t), nc) || grow((void **)&dag->to, sizeof(size_t), nc) ||
            grow((void **)&dag->bytes, sizeof(double), nc))
            return ct_error_set(err, CT_ENOMEM, "out of memory adding an edge");
        dag->cap_edges = nc;
    }
    dag->from[dag->n_edges] = from;
    dag->to[dag->n_edges] = to;
    dag->bytes[dag->n_edges] = bytes;
    dag->n_edges++;
    return CT_OK;
}

int ct_dag_find(const ct_dag_t *dag, const char *id, size_t *idx)
{
    return ct_strmap_get(&dag->index, id, idx);
}

size_t ct_dag_member_count(const ct_dag_t *dag, size_t i)
{
    return dag->members ? dag->member_start[i + 1] - dag->member_start[i] : 1;
}

const char *ct_dag_member(const ct_dag_t *dag, size_t i, size_t j)
{
    return dag->members ? dag->members[dag->member_start[i] + j] : dag->ids[i];
}

ct_status_t ct_dag_copy(ct_dag_t *dst, const ct_dag_t *src, ct_error_t *err)
{
    ct_status_t st;
    ct_dag_init(dst);
    if ((st = ct_dag_set_name(dst, src->name, err)) != CT_OK)
        goto fail;
    for (size_t i = 0; i < src->n_tasks; i++)
        if ((st = ct_dag_add_task(dst, src->ids[i], src->time[i], NULL, err)) != CT_OK)
            goto fail;
    for (size_t e = 0; e < src->n_edges; e++)
        if ((st = ct_dag_add_edge(dst, src->from[e], src->to[e], src->bytes[e], err)) != CT_OK)
            goto fail;
    if (src->members) {
        size_t nm = src->member_start[src->n_tasks];
        dst->member_start = malloc((src->n_tasks + 1) * sizeof(size_t));
        dst->members = calloc(nm ? nm : 1, sizeof(char *));
        if (!dst->member_start || !dst->members) {
            free(dst->member_start);
            free(dst->members);
            dst->member_start = NULL;
            dst->members = NULL;
            st = ct_error_set(err, CT_ENOMEM, "out of memory copying a DAG");
            goto fail;
        }
        memcpy(dst->member_start, src->member_start, (src->n_tasks + 1) * sizeof(size_t));
        for (size_t j = 0; j < nm; j++)
            if (!(dst->members[j] = ct_strdup(src->members[j], err))) {
                st = CT_ENOMEM;
                goto fail;
            }
    }
    return CT_OK;
fail:
    ct_dag_destroy(dst);
    return st;
}

/* ------------------------------------------------------------------------ */

void ct_adj_free(ct_adj_t *adj)
{
    free(adj->out_start);
    free(adj->out_edge);
    free(adj->in_start);
    free(adj->in_edge);
    memset(adj, 0, sizeof *adj);
}

ct_status_t ct_adj_build(ct_adj_t *adj, const ct_dag_t *dag, ct_error_t *err)
{
    size_t n = dag->n_tasks, m = dag->n_edges;
    memset(adj, 0, sizeof *adj);
    adj->n = n;
    adj->out_start = calloc(n + 1, sizeof(size_t));
    adj->in_start = calloc(n + 1, sizeof(size_t));
    adj->out_edge = malloc((m ? m : 1) * sizeof(size_t));
    adj->in_edge = malloc((m ? m : 1) * sizeof(size_t));
    if (!adj->out_start || !adj->in_start || !adj->out_edge || !adj->in_edge) {
        ct_adj_free(adj);
        return ct_error_set(err, CT_ENOMEM, "out of memory building adjacency");
    }
    for (size_t e = 0; e < m; e++) {
        adj->out_start[dag->from[e] + 1]++;
        adj->in_start[dag->to[e] + 1]++;
    }
    for (size_t v = 0; v < n; v++) {
        adj->out_start[v + 1] += adj->out_start[v];
        adj->in_start[v + 1] += adj->in_start[v];
    }
    /* Two counting passes: edges grouped by target (in edge order), then
     * scattered into out-lists in that order, which sorts each out-list by
     * target; the same again from the out-lists sorts each in-list by source.
     * O(V + E), no comparison sort. */
    size_t *fill = malloc((n + 1) * sizeof(size_t)), *by_to = malloc((m ? m : 1) * sizeof(size_t));
    if (!fill || !by_to) {
        free(fill);
        free(by_to);
        ct_adj_free(adj);
        return ct_error_set(err, CT_ENOMEM, "out of memory building adjacency");
    }
    memcpy(fill, adj->in_start, (n + 1) * sizeof(size_t));
    for (size_t e = 0; e < m; e++)
        by_to[fill[dag->to[e]]++] = e;
    memcpy(fill, adj->out_start, (n + 1) * sizeof(size_t));
    for (size_t k = 0; k < m; k++)
        adj->out_edge[fill[dag->from[by_to[k]]]++] = by_to[k];
    memcpy(fill, adj->in_start, (n + 1) * sizeof(size_t));
    for (size_t k = 0; k < m; k++)
        adj->in_edge[fill[dag->to[adj->out_edge[k]]]++] = adj->out_edge[k];
    free(fill);
    free(by_to);
    return CT_OK;
}

/* Names one cycle among the tasks Kahn's algorithm could not order
 * (indeg[v] > 0): walk predecessors that are also unordered until a task
 * repeats, then print the loop forwards. */
static ct_status_t report_cycle(const ct_dag_t *dag, const ct_adj_t *adj, const size_t *indeg,
                                const char *label, ct_error_t *err)
{
    size_t n = dag->n_tasks, start = n;
    for (size_t v = 0; v < n && start == n; v++)
        if (indeg[v] > 0)
            start = v;
    size_t *seen = malloc(n * sizeof(size_t)), *path = malloc((n + 1) * sizeof(size_t));
    if (!seen || !path) {
        free(seen);
        free(path);
        return ct_error_set(err, CT_EINPUT, "%s: edges: the graph has a cycle", label);
    }
    for (size_t v = 0; v < n; v++)
        seen[v] = (size_t)-1;
    size_t len = 0, v = start;
    while (seen[v] == (size_t)-1) {
        seen[v] = len;
        path[len++] = v;
        size_t next = n;
        for (size_t k = adj->in_start[v]; k < adj->in_start[v + 1]; k++) {
            size_t u = dag->from[adj->in_edge[k]];
            if (indeg[u] > 0) {
                next = u;
                break;
            }
        }
        v = next; /* every unordered task has an unordered predecessor */
    }
    /* path[seen[v]..len-1] walks the cycle backwards. */
    char buf[400];
    size_t pos = 0;
    for (size_t i = len; i-- > seen[v];) {
        int w = snprintf(buf + pos, sizeof buf - pos, "%s -> ", dag->ids[path[i]]);
        if (w < 0 || (size_t)w >= sizeof buf - pos) {
            pos = sizeof buf - 1;
            break;
        }
        pos += (size_t)w;
    }
    if (pos < sizeof buf - 1)
        snprintf(buf + pos, sizeof buf - pos, "%s", dag->ids[path[len - 1]]);
    free(seen);
    free(path);
    return ct_error_set(err, CT_EINPUT, "%s: edges: the graph has a cycle: %s", label, buf);
}

ct_status_t ct_dag_topo_order(const ct_dag_t *dag, size_t *order, const char *label, ct_error_t *err)
{
    size_t n = dag->n_tasks;
    ct_adj_t adj;
    ct_status_t st = ct_adj_build(&adj, dag, err);
    if (st != CT_OK)
        return st;
    size_t *indeg = malloc((n ? n : 1) * sizeof(size_t));
    if (!indeg) {
        ct_adj_free(&adj);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    size_t head = 0, tail = 0;
    for (size_t v = 0; v < n; v++) {
        indeg[v] = adj.in_start[v + 1] - adj.in_start[v];
        if (indeg[v] == 0)
            order[tail++] = v;
    }
    while (head < tail) {
        size_t v = order[head++];
        for (size_t k = adj.out_start[v]; k < adj.out_start[v + 1]; k++) {
            size_t w = dag->to[adj.out_edge[k]];
            if (--indeg[w] == 0)
                order[tail++] = w;
        }
    }
    st = CT_OK;
    if (tail < n)
        st = report_cycle(dag, &adj, indeg, label, err);
    free(indeg);
    ct_adj_free(&adj);
    return st;
}

ct_status_t ct_dag_validate(const ct_dag_t *dag, const char *label, ct_error_t *err)
{
    size_t n = dag->n_tasks;
    if (n == 0)
        return ct_error_set(err, CT_EINPUT, "%s: tasks: the graph is empty", label);
    for (size_t i = 0; i < n; i++) {
        if (!dag->ids[i] || !dag->ids[i][0])
            return ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].id: empty task id", label, i);
        if (!isfinite(dag->time[i]) || dag->time[i] < 0)
            return ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].time: task '%s' has %s time %g s",
                                label, i, dag->ids[i], isfinite(dag->time[i]) ? "negative" : "non-finite",
                                dag->time[i]);
    }
    for (size_t e = 0; e < dag->n_edges; e++) {
        if (dag->from[e] >= n || dag->to[e] >= n)
            return ct_error_set(err, CT_EINPUT, "%s: edges[%zu]: task number out of range", label, e);
        if (dag->from[e] == dag->to[e])
            return ct_error_set(err, CT_EINPUT, "%s: edges[%zu]: self-loop on task '%s'", label, e,
                                dag->ids[dag->from[e]]);
        if (!isfinite(dag->bytes[e]) || dag->bytes[e] < 0)
            return ct_error_set(err, CT_EINPUT, "%s: edges[%zu].bytes: edge %s -> %s has %s size %g bytes",
                                label, e, dag->ids[dag->from[e]], dag->ids[dag->to[e]],
                                isfinite(dag->bytes[e]) ? "negative" : "non-finite", dag->bytes[e]);
    }
    if (dag->members) {
        if (dag->member_start[0] != 0)
            return ct_error_set(err, CT_EINPUT, "%s: tasks: bad member table", label);
        for (size_t i = 0; i < n; i++)
            if (dag->member_start[i + 1] < dag->member_start[i])
                return ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].members: bad member table", label, i);
    }
    ct_adj_t adj;
    ct_status_t st = ct_adj_build(&adj, dag, err);
    if (st != CT_OK)
        return st;
    /* Out-lists are sorted by target: a duplicate edge sits next to its twin. */
    for (size_t v = 0; v < n && st == CT_OK; v++)
        for (size_t k = adj.out_start[v] + 1; k < adj.out_start[v + 1]; k++) {
            size_t e0 = adj.out_edge[k - 1], e1 = adj.out_edge[k];
            if (dag->to[e0] == dag->to[e1]) {
                st = ct_error_set(err, CT_EINPUT, "%s: edges[%zu]: duplicate edge %s -> %s (also edges[%zu])",
                                  label, e1, dag->ids[v], dag->ids[dag->to[e1]], e0);
                break;
            }
        }
    ct_adj_free(&adj);
    if (st != CT_OK)
        return st;
    size_t *order = malloc(n * sizeof(size_t));
    if (!order)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    st = ct_dag_topo_order(dag, order, label, err);
    free(order);
    return st;
}
