/*
 * ct_adj.h - compressed adjacency (CSR) of a DAG, in both directions.
 *
 * out_edge[out_start[v] .. out_start[v+1]-1] are the edge numbers leaving v,
 * in_edge[in_start[v] .. in_start[v+1]-1] those entering v, each list sorted
 * by the task at the other end. Built in O(V + E log E); read-only after.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_ADJ_H
#define CT_ADJ_H

#include "ct_dag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t n;
    size_t *out_start, *out_edge;
    size_t *in_start, *in_edge;
} ct_adj_t;

/** Builds the adjacency of dag (edge endpoints must be in range). */
ct_status_t ct_adj_build(ct_adj_t *adj, const ct_dag_t *dag, ct_error_t *err);
void ct_adj_free(ct_adj_t *adj);

#ifdef __cplusplus
}
#endif
#endif
