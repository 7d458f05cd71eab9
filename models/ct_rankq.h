/*
 * ct_rankq.h - a queue of items with fixed ranks, grouped in buckets, that
 * finds the first queued item of a bucket after a given rank whose value
 * is at most a bound in O(log n).
 *
 * What it is for: the training simulators' placement rounds walk the
 * waiting jobs in a fixed order (shortest remaining work first: a waiting
 * job's work does not change) and start every job that fits. A job of
 * bucket b (its GPU count) fits when its value (memory per GPU) is at most
 * what the b-th least used GPU has free, so a round asks each bucket for
 * its first fitting job after the last one started instead of testing
 * every waiting job: with a queue that grows with the trace the rounds
 * stay logarithmic, and the run near-linear in events.
 *
 * Each bucket keeps its items in rank order and a binary min-tree of
 * their values over them (INFINITY where an item is not queued).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_RANKQ_H
#define CT_RANKQ_H

#include "ct_base.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;            /**< items */
    uint32_t nb;         /**< buckets */
    uint32_t *bstart;    /**< nb + 1: bucket b's positions are [bstart[b], bstart[b + 1]) */
    uint32_t *leaves;    /**< nb: leaves of bucket b's tree, a power of two >= its items */
    size_t *toff;        /**< nb: where bucket b's tree (2 x leaves) starts in tree */
    uint32_t *pos_item;  /**< position -> item; positions of a bucket in rank order */
    uint32_t *pos_rank;  /**< position -> the item's rank */
    uint32_t *item_pos;  /**< item -> position */
    uint32_t *item_bucket; /**< item -> bucket */
    const double *value; /**< item -> value (borrowed; must not change while queued) */
    double *tree;        /**< node 1 of a bucket's tree is its root; leaves follow the inner nodes */
    size_t count;        /**< items queued */
} ct_rankq_t;

/**
 * Sets up an empty queue. rank[i]: item i's rank, distinct in 0 .. n - 1;
 * bucket[i] < nb; value[i] is borrowed until ct_rankq_free (must be
 * finite). Returns CT_ENOMEM. O(n + nb).
 */
ct_status_t ct_rankq_init(ct_rankq_t *q, size_t n, const uint32_t *rank, const uint32_t *bucket, uint32_t nb,
                          const double *value, ct_error_t *err);
void ct_rankq_free(ct_rankq_t *q);
/** Queues item (not already queued). O(log n). */
void ct_rankq_insert(ct_rankq_t *q, uint32_t item);
/** Takes a queued item out. O(log n). */
void ct_rankq_remove(ct_rankq_t *q, uint32_t item);
/**
 * The queued item of bucket b with the least rank above after (-1: any)
 * whose value is <= bound, or -1 when there is none. O(log n).
 */
int64_t ct_rankq_first(const ct_rankq_t *q, uint32_t b, int64_t after, double bound);
/** An item's rank. */
static inline uint32_t ct_rankq_rank(const ct_rankq_t *q, uint32_t item)
{
    return q->pos_rank[q->item_pos[item]];
}

#endif
