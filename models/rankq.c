/*
 * rankq.c - a bucketed rank queue with min-trees (see ct_rankq.h).
 *
 * Positions are fixed at init: bucket by bucket, each in rank order, so a
 * query is a binary search for the first position past a rank and a
 * descent of the bucket's min-tree for the first leaf at or after it with
 * a value under the bound. Queueing and removing write one leaf and its
 * path to the root.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_rankq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_rankq_free(ct_rankq_t *q)
{
    free(q->bstart);
    free(q->leaves);
    free(q->toff);
    free(q->pos_item);
    free(q->pos_rank);
    free(q->item_pos);
    free(q->item_bucket);
    free(q->tree);
    memset(q, 0, sizeof *q);
}

ct_status_t ct_rankq_init(ct_rankq_t *q, size_t n, const uint32_t *rank, const uint32_t *bucket, uint32_t nb,
                          const double *value, ct_error_t *err)
{
    memset(q, 0, sizeof *q);
    q->n = n;
    q->nb = nb;
    q->value = value;
    size_t m = n ? n : 1;
    uint32_t *by_rank = malloc(m * sizeof(uint32_t));
    q->bstart = calloc((size_t)nb + 1, sizeof(uint32_t));
    q->leaves = calloc(nb ? nb : 1, sizeof(uint32_t));
    q->toff = calloc(nb ? nb : 1, sizeof(size_t));
    q->pos_item = malloc(m * sizeof(uint32_t));
    q->pos_rank = malloc(m * sizeof(uint32_t));
    q->item_pos = malloc(m * sizeof(uint32_t));
    q->item_bucket = malloc(m * sizeof(uint32_t));
    if (!q->item_bucket || !by_rank || !q->bstart || !q->leaves || !q->toff || !q->pos_item || !q->pos_rank || !q->item_pos)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        by_rank[rank[i]] = (uint32_t)i;
        q->bstart[bucket[i] + 1]++;
    }
    size_t total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t c = q->bstart[b + 1], L = 1;
        while (L < c)
            L *= 2;
        q->leaves[b] = L;
        q->toff[b] = total;
        total += 2 * (size_t)L;
        q->bstart[b + 1] += q->bstart[b];
    }
    if (!(q->tree = malloc((total ? total : 1) * sizeof(double))))
        goto nomem;
    for (size_t k = 0; k < total; k++)
        q->tree[k] = INFINITY;
    /* fill each bucket in rank order: a cursor per bucket */
    uint32_t *cur = malloc((nb ? nb : 1) * sizeof(uint32_t));
    if (!cur)
        goto nomem;
    memcpy(cur, q->bstart, nb * sizeof(uint32_t));
    for (size_t r = 0; r < n; r++) {
        uint32_t i = by_rank[r], p = cur[bucket[i]]++;
        q->pos_item[p] = i;
        q->pos_rank[p] = (uint32_t)r;
        q->item_pos[i] = p;
        q->item_bucket[i] = bucket[i];
    }
    free(cur);
    free(by_rank);
    return CT_OK;
nomem:
    free(by_rank);
    ct_rankq_free(q);
    return ct_error_set(err, CT_ENOMEM, "out of memory");
}

static void set_leaf(ct_rankq_t *q, uint32_t item, double v)
{
    uint32_t p = q->item_pos[item], b = q->item_bucket[item];
    double *t = q->tree + q->toff[b];
    size_t k = q->leaves[b] + (p - q->bstart[b]);
    t[k] = v;
    for (k /= 2; k >= 1; k /= 2)
        t[k] = fmin(t[2 * k], t[2 * k + 1]);
}

void ct_rankq_insert(ct_rankq_t *q, uint32_t item)
{
    set_leaf(q, item, q->value[item]);
    q->count++;
}

void ct_rankq_remove(ct_rankq_t *q, uint32_t item)
{
    set_leaf(q, item, INFINITY);
    q->count--;
}

/* First leaf index >= lo under node k (covering [nl, nr)) with value <= bound. */
static int64_t descend(const double *t, size_t k, size_t nl, size_t nr, size_t lo, double bound)
{
    if (nr <= lo || !(t[k] <= bound))
        return -1;
    if (nr - nl == 1)
        return (int64_t)nl;
    size_t mid = nl + (nr - nl) / 2;
    int64_t r = descend(t, 2 * k, nl, mid, lo, bound);
    return r >= 0 ? r : descend(t, 2 * k + 1, mid, nr, lo, bound);
}

int64_t ct_rankq_first(const ct_rankq_t *q, uint32_t b, int64_t after, double bound)
{
    uint32_t s = q->bstart[b], e = q->bstart[b + 1];
    uint32_t lo = s, hi = e; /* first position with rank > after */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((int64_t)q->pos_rank[mid] > after)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo >= e)
        return -1;
    int64_t i = descend(q->tree + q->toff[b], 1, 0, q->leaves[b], lo - s, bound);
    return i < 0 ? -1 : (int64_t)q->pos_item[s + (uint32_t)i];
}
