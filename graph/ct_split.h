/*
 * ct_split.h - bottleneck split of a DAG into segments, and the enumeration
 * of a segment's placement triplets (spec nona.md s.3-4).
 *
 * A bottleneck lies on every source-to-sink path, i.e. it dominates the sink
 * in the dominator tree rooted at the source (with one source and one sink:
 * the tasks no edge jumps over in a topological order). Sorted
 * topologically they are r_0 (source) .. r_m (sink); segment i runs from r_i
 * to r_{i+1} and holds the tasks strictly between them. Every edge of the DAG
 * lies in exactly one segment.
 *
 * A triplet (pi, k, l) of a segment: pi a set partition of the intermediate
 * tasks (a restricted growth string: assign[t] = part of task t, parts
 * numbered in order of first appearance), k the part placed with the
 * segment's source, l the part placed with its sink. Different parts go to
 * different servers. Under a triplet an edge crosses the link iff its two
 * ends are in different parts, with the source in part k and the sink in
 * part l (so a direct source -> sink edge crosses iff k != l). A segment with
 * no intermediate task has one trivial triplet (no parts, nothing crosses).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SPLIT_H
#define CT_SPLIT_H

#include "ct_dag.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Local end codes of a segment edge that touches the source or the sink. */
#define CT_SEG_SOURCE ((size_t)-2)
#define CT_SEG_SINK ((size_t)-1)

/** One segment. Invariants: inner[] in topological order; every edge in
 *  edges[] has both ends in {source, sink} U inner; loc_from/loc_to give the
 *  inner index of each end, or CT_SEG_SOURCE / CT_SEG_SINK. */
typedef struct {
    size_t source, sink;   /**< task numbers in the split's DAG */
    size_t n_inner;
    size_t *inner;         /**< task numbers of the intermediate tasks */
    size_t n_edges;
    size_t *edges;         /**< edge numbers in the split's DAG */
    size_t *loc_from, *loc_to;
} ct_segment_t;

/** A split DAG. The split owns dag, a copy of the input with a zero-time
 *  virtual source / sink added where the input has several roots / sinks
 *  (their member lists are empty: they stand for no original task). */
typedef struct {
    ct_dag_t dag;
    int virtual_source, virtual_sink;
    size_t n_bottlenecks;
    size_t *bottlenecks;   /**< topological order; [0] source, [last] sink */
    size_t n_segments;     /**< n_bottlenecks - 1 */
    ct_segment_t *segments;
} ct_split_t;

/**
 * Splits dag at its bottlenecks. split is initialised here; free it with
 * ct_split_free. Time O(V + E) (a topological order, the bottlenecks,
 * tasks and edges to segments).
 */
ct_status_t ct_split_compute(const ct_dag_t *dag, ct_split_t *split, ct_error_t *err);
void ct_split_free(ct_split_t *split);

/* ------------------------------------------------------------------------ */

/** One triplet: partition number, k, l. */
typedef struct {
    uint32_t partition;
    uint8_t k, l;
} ct_triplet_t;

/** All triplets of a segment with n_inner intermediate tasks. */
typedef struct {
    size_t n_inner;
    size_t n_partitions;
    uint8_t *assign;       /**< n_partitions x n_inner part numbers */
    uint8_t *n_parts;      /**< per partition (0 only when n_inner == 0) */
    size_t n_triplets;
    ct_triplet_t *triplets;
} ct_partitions_t;

/** Limits of the enumeration; fill with ct_partition_params_init(). */
typedef struct {
    size_t max_triplets;   /**< refuse segments needing more (default 100000, i.e. up to 8 tasks) */
} ct_partition_params_t;

void ct_partition_params_init(ct_partition_params_t *p);

/** Number of triplets for n intermediate tasks: sum over set partitions of
 *  (number of parts)^2 = sum_q S(n, q) q^2 (1, 5, 22, 99, 471, ...), as a
 *  double because it overflows quickly. O(n^2). */
double ct_partition_triplet_count(size_t n);

/**
 * Enumerates every triplet for n_inner tasks (partitions in restricted
 * growth order, then k, then l). label names the segment in the CT_ELIMIT
 * message ("resnet18.json: segment 3 (a -> b)"). out is initialised here.
 * Time and memory O(n_triplets + n_partitions * n_inner).
 */
ct_status_t ct_partitions_enumerate(size_t n_inner, const ct_partition_params_t *p, const char *label,
                                    ct_partitions_t *out, ct_error_t *err);
void ct_partitions_free(ct_partitions_t *parts);

/** Steps a[0..n-1] (n >= 1) to the next set partition as a restricted
 *  growth string; mx[i] = max(a[0..i]) is kept alongside (start from all
 *  zeros). Returns 0 after the last one (a is then unchanged). O(n). */
int ct_partition_next(uint8_t *a, uint8_t *mx, size_t n);

/** Part of a segment edge end when the inner tasks are in parts assign[],
 *  the source in part k and the sink in part l. */
static inline size_t ct_assign_part(const uint8_t *assign, size_t k, size_t l, size_t loc)
{
    return loc == CT_SEG_SOURCE ? k : loc == CT_SEG_SINK ? l : assign[loc];
}

/** Part of a segment edge end under triplet t (source -> k, sink -> l). */
static inline size_t ct_triplet_part(const ct_partitions_t *pt, const ct_triplet_t *t, size_t loc)
{
    return ct_assign_part(pt->assign + (size_t)t->partition * pt->n_inner, t->k, t->l, loc);
}

/** Whether segment edge j (index into seg->edges) crosses under triplet t. */
static inline int ct_triplet_crosses(const ct_segment_t *seg, const ct_partitions_t *pt, const ct_triplet_t *t,
                                     size_t j)
{
    return ct_triplet_part(pt, t, seg->loc_from[j]) != ct_triplet_part(pt, t, seg->loc_to[j]);
}

#ifdef __cplusplus
}
#endif
#endif
