/*
 * contract.c - DAG contraction (see ct_contract.h).
 *
 * Per round: build sorted adjacency lists, test every edge with two sorted
 * subset checks, let igraph find the connected components of the qualifying
 * edges (under the igraph lock: the rest runs on any thread), and rebuild
 * the DAG with one task per component. Tasks of the new
 * DAG are ordered by the first topological position of their members, so
 * the output is deterministic and reads in execution order.
 *
 * Contracting a qualifying edge cannot create a cycle (a second path a -> x
 * -> b would put x among a's other outputs, hence among b's outputs, and
 * close a cycle b -> x -> b). Contracting several at once is checked anyway;
 * should a round ever create a cycle, it is redone with a single edge.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_adj.h"
#include "ct_contract.h"

#include <igraph.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void igraph_quiet_once(void)
{
    igraph_set_error_handler(igraph_error_handler_ignore);
    igraph_set_warning_handler(igraph_warning_handler_ignore);
}

/* Debian's igraph is built without thread-local state (IGRAPH_THREAD_SAFE
 * 0): its error stack is global, so igraph calls from several threads (a
 * parallel sweep building models) take turns under this lock. */
static pthread_mutex_t igraph_mu = PTHREAD_MUTEX_INITIALIZER;

void ct_igraph_lock(void)
{
#if !IGRAPH_THREAD_SAFE
    pthread_mutex_lock(&igraph_mu);
#endif
}

void ct_igraph_unlock(void)
{
#if !IGRAPH_THREAD_SAFE
    pthread_mutex_unlock(&igraph_mu);
#endif
}

void ct_igraph_quiet(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, igraph_quiet_once);
}

/* Is the sorted list of far ends `sub`, minus `skip`, contained in `sup`?
 * Both lists are edge numbers sorted by end[] (see ct_adj.h). */
static int subset_except(const size_t *sub, size_t nsub, const size_t *sup, size_t nsup, const size_t *end,
                         size_t skip)
{
    size_t j = 0;
    for (size_t i = 0; i < nsub; i++) {
        size_t x = end[sub[i]];
        if (x == skip)
            continue;
        while (j < nsup && end[sup[j]] < x)
            j++;
        if (j == nsup || end[sup[j]] != x)
            return 0;
    }
    return 1;
}

static int qualifies(const ct_dag_t *d, const ct_adj_t *adj, size_t e)
{
    size_t a = d->from[e], b = d->to[e];
    /* in(b) \ {a}  is a subset of  in(a) */
    if (!subset_except(adj->in_edge + adj->in_start[b], adj->in_start[b + 1] - adj->in_start[b],
                       adj->in_edge + adj->in_start[a], adj->in_start[a + 1] - adj->in_start[a], d->from, a))
        return 0;
    /* out(a) \ {b}  is a subset of  out(b) */
    return subset_except(adj->out_edge + adj->out_start[a], adj->out_start[a + 1] - adj->out_start[a],
                         adj->out_edge + adj->out_start[b], adj->out_start[b + 1] - adj->out_start[b], d->to, b);
}

int ct_contract_edge_qualifies(const ct_dag_t *dag, size_t e)
{
    ct_adj_t adj;
    if (e >= dag->n_edges || ct_adj_build(&adj, dag, NULL) != CT_OK)
        return 0;
    int q = qualifies(dag, &adj, e);
    ct_adj_free(&adj);
    return q;
}

typedef struct {
    size_t u, v;
    double bytes;
} merged_edge_t;

static int cmp_merged(const void *pa, const void *pb)
{
    const merged_edge_t *a = pa, *b = pb;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* Builds `out` from `cur` by merging each component of `membership`
 * (component numbers 0..nc-1). `order` is a topological order of cur. */
static ct_status_t rebuild(const ct_dag_t *cur, const size_t *order, const size_t *membership, size_t nc,
                           ct_dag_t *out, ct_error_t *err)
{
    size_t n = cur->n_tasks;
    ct_status_t st = CT_OK;
    size_t *rank = malloc(nc * sizeof(size_t));     /* component -> new task number */
    size_t *first = malloc(nc * sizeof(size_t));    /* new task -> first member (old) */
    size_t *count = calloc(nc + 1, sizeof(size_t)); /* member counts, then offsets */
    merged_edge_t *me = malloc((cur->n_edges ? cur->n_edges : 1) * sizeof *me);
    ct_dag_init(out);
    if (!rank || !first || !count || !me) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory contracting");
        goto done;
    }
    for (size_t c = 0; c < nc; c++)
        rank[c] = (size_t)-1;
    size_t next = 0;
    for (size_t k = 0; k < n; k++) {
        size_t c = membership[order[k]];
        if (rank[c] == (size_t)-1) {
            rank[c] = next;
            first[next++] = order[k];
        }
    }
    if ((st = ct_dag_set_name(out, cur->name, err)) != CT_OK)
        goto done;
    for (size_t t = 0; t < nc; t++)
        if ((st = ct_dag_add_task(out, cur->ids[first[t]], 0.0, NULL, err)) != CT_OK)
            goto done;
    /* Times and member counts. */
    for (size_t v = 0; v < n; v++) {
        size_t t = rank[membership[v]];
        out->time[t] += cur->time[v];
        count[t + 1] += ct_dag_member_count(cur, v);
    }
    for (size_t t = 0; t < nc; t++)
        count[t + 1] += count[t];
    out->member_start = malloc((nc + 1) * sizeof(size_t));
    out->members = calloc(count[nc] ? count[nc] : 1, sizeof(char *));
    if (!out->member_start || !out->members) {
        free(out->member_start);
        free(out->members);
        out->member_start = NULL;
        out->members = NULL;
        st = ct_error_set(err, CT_ENOMEM, "out of memory contracting");
        goto done;
    }
    memcpy(out->member_start, count, (nc + 1) * sizeof(size_t));
    /* Members in topological order of their old tasks. */
    for (size_t k = 0; k < n; k++) {
        size_t v = order[k], t = rank[membership[v]];
        for (size_t j = 0; j < ct_dag_member_count(cur, v); j++)
            if (!(out->members[count[t]++] = ct_strdup(ct_dag_member(cur, v, j), err))) {
                st = CT_ENOMEM;
                goto done;
            }
    }
    /* Edges: map, drop self-loops, sort, sum parallel ones. */
    size_t m = 0;
    for (size_t e = 0; e < cur->n_edges; e++) {
        size_t u = rank[membership[cur->from[e]]], v = rank[membership[cur->to[e]]];
        if (u != v)
            me[m++] = (merged_edge_t){ u, v, cur->bytes[e] };
    }
    qsort(me, m, sizeof *me, cmp_merged);
    for (size_t i = 0; i < m;) {
        size_t j = i;
        double b = 0;
        while (j < m && me[j].u == me[i].u && me[j].v == me[i].v)
            b += me[j++].bytes;
        if ((st = ct_dag_add_edge(out, me[i].u, me[i].v, b, err)) != CT_OK)
            goto done;
        i = j;
    }
done:
    free(rank);
    free(first);
    free(count);
    free(me);
    if (st != CT_OK)
        ct_dag_destroy(out);
    return st;
}

/* The weakly connected components of the n tasks joined by the nq edges
 * qe[2i] - qe[2i+1]: membership[v] in 0 .. *nc - 1. igraph, under its
 * lock (the rest of the contraction runs on any thread). */
static ct_status_t components(size_t n, const size_t *qe, size_t nq, size_t *membership, size_t *nc,
                              ct_error_t *err)
{
    igraph_vector_int_t edges, memb;
    igraph_t g;
    ct_status_t st = CT_OK;
    ct_igraph_lock();
    ct_igraph_quiet();
    if (igraph_vector_int_init(&edges, (igraph_integer_t)(2 * nq)) != IGRAPH_SUCCESS) {
        ct_igraph_unlock();
        return ct_error_set(err, CT_ENOMEM, "out of memory contracting");
    }
    if (igraph_vector_int_init(&memb, 0) != IGRAPH_SUCCESS) {
        igraph_vector_int_destroy(&edges);
        ct_igraph_unlock();
        return ct_error_set(err, CT_ENOMEM, "out of memory contracting");
    }
    for (size_t i = 0; i < 2 * nq; i++)
        VECTOR(edges)[i] = (igraph_integer_t)qe[i];
    igraph_integer_t count = 0;
    if (igraph_create(&g, &edges, (igraph_integer_t)n, IGRAPH_UNDIRECTED) != IGRAPH_SUCCESS)
        st = ct_error_set(err, CT_ENOMEM, "igraph could not build the qualifying-edge graph");
    else {
        igraph_error_t ie = igraph_connected_components(&g, &memb, NULL, &count, IGRAPH_WEAK);
        igraph_destroy(&g);
        if (ie != IGRAPH_SUCCESS)
            st = ct_error_set(err, CT_ENOMEM, "igraph could not find components (%s)", igraph_strerror(ie));
    }
    for (size_t v = 0; st == CT_OK && v < n; v++)
        membership[v] = (size_t)VECTOR(memb)[v];
    *nc = (size_t)count;
    igraph_vector_int_destroy(&edges);
    igraph_vector_int_destroy(&memb);
    ct_igraph_unlock();
    return st;
}

/* One round. Sets *changed to 0 when no edge qualified (out is then
 * untouched: cur stands). */
static ct_status_t contract_round(const ct_dag_t *cur, int single_edge, ct_dag_t *out, int *changed, ct_error_t *err)
{
    size_t n = cur->n_tasks;
    ct_status_t st = CT_OK;
    ct_adj_t adj;
    size_t *order = malloc((n ? n : 1) * sizeof(size_t)), *membership = malloc((n ? n : 1) * sizeof(size_t));
    size_t *qe = malloc((2 * cur->n_edges + 2) * sizeof(size_t)); /* qualifying edges' ends, in pairs */
    *changed = 0;
    if (!order || !membership || !qe) {
        free(order);
        free(membership);
        free(qe);
        return ct_error_set(err, CT_ENOMEM, "out of memory contracting");
    }
    if ((st = ct_adj_build(&adj, cur, err)) != CT_OK) {
        free(order);
        free(membership);
        free(qe);
        return st;
    }
    if ((st = ct_dag_topo_order(cur, order, cur->name ? cur->name : "dag", err)) != CT_OK)
        goto done;
    size_t nq = 0, first_q = 0;
    for (size_t e = 0; e < cur->n_edges; e++)
        if (qualifies(cur, &adj, e)) {
            if (nq == 0)
                first_q = e;
            qe[2 * nq] = cur->from[e];
            qe[2 * nq++ + 1] = cur->to[e];
        }
    if (nq == 0) /* (out untouched: the caller keeps cur) */
        goto done;
    for (int attempt = single_edge; attempt < 2; attempt++) {
        if (attempt == 1) { /* the first qualifying edge alone */
            nq = 1;
            qe[0] = cur->from[first_q];
            qe[1] = cur->to[first_q];
        }
        size_t nc = 0;
        if ((st = components(n, qe, nq, membership, &nc, err)) != CT_OK)
            goto done;
        if ((st = rebuild(cur, order, membership, nc, out, err)) != CT_OK)
            goto done;
        size_t *o2 = malloc((out->n_tasks ? out->n_tasks : 1) * sizeof(size_t));
        if (!o2) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory contracting");
            goto done;
        }
        ct_error_t scratch;
        ct_status_t cyc = ct_dag_topo_order(out, o2, "contracted", &scratch);
        free(o2);
        if (cyc == CT_OK) {
            *changed = 1;
            goto done;
        }
        ct_dag_destroy(out);
        if (cyc != CT_EINPUT) {
            st = ct_error_set(err, cyc, "%s", scratch.msg);
            goto done;
        }
    }
    st = ct_error_set(err, CT_EINTERNAL, "contracting a single qualifying edge created a cycle");
done:
    ct_adj_free(&adj);
    free(order);
    free(membership);
    free(qe);
    return st;
}

void ct_contract_params_init(ct_contract_params_t *p)
{
    p->single_edge = 0;
}

ct_status_t ct_dag_contract(const ct_dag_t *in, ct_dag_t *out, ct_contract_info_t *info, ct_error_t *err)
{
    return ct_dag_contract_ex(in, NULL, out, info, err);
}

ct_status_t ct_dag_contract_ex(const ct_dag_t *in, const ct_contract_params_t *p, ct_dag_t *out,
                               ct_contract_info_t *info, ct_error_t *err)
{
    int single_edge = p ? p->single_edge : 0;
    ct_contract_info_t loc = { in->n_tasks, in->n_edges, 0, 0, 0 };
    ct_dag_t cur, next;
    ct_status_t st = ct_dag_validate(in, in->name ? in->name : "dag", err);
    ct_dag_init(out);
    if (st != CT_OK)
        return st;
    /* c: the DAG of the round, `in` until a round merges (owned: cur) */
    const ct_dag_t *c = in;
    int own = 0;
    for (;;) {
        int changed;
        if ((st = contract_round(c, single_edge, &next, &changed, err)) != CT_OK) {
            if (own)
                ct_dag_destroy(&cur);
            return st;
        }
        if (!changed)
            break;
        if (own)
            ct_dag_destroy(&cur);
        cur = next; /* (next's heap pointers now belong to cur) */
        own = 1;
        c = &cur;
        loc.rounds++;
    }
    if (!c->members) { /* nothing merged: still record identity members */
        ct_dag_t tmp;
        size_t *order = malloc((c->n_tasks ? c->n_tasks : 1) * sizeof(size_t));
        size_t *mem = malloc((c->n_tasks ? c->n_tasks : 1) * sizeof(size_t));
        if (!order || !mem) {
            free(order);
            free(mem);
            if (own)
                ct_dag_destroy(&cur);
            return ct_error_set(err, CT_ENOMEM, "out of memory contracting");
        }
        for (size_t v = 0; v < c->n_tasks; v++)
            mem[v] = v;
        st = ct_dag_topo_order(c, order, "dag", err);
        if (st == CT_OK)
            st = rebuild(c, order, mem, c->n_tasks, &tmp, err);
        free(mem);
        free(order);
        if (own)
            ct_dag_destroy(&cur);
        if (st != CT_OK)
            return st;
        cur = tmp;
    } else if (!own && (st = ct_dag_copy(&cur, in, err)) != CT_OK) /* (merged before: members, no merge now) */
        return st;
    loc.tasks_after = cur.n_tasks;
    loc.edges_after = cur.n_edges;
    *out = cur;
    if (info)
        *info = loc;
    return CT_OK;
}
