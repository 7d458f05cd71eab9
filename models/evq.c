/*
 * evq.c - binary min-heap event queue (see ct_evq.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_evq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_evq_init(ct_evq_t *q)
{
    memset(q, 0, sizeof *q);
}

void ct_evq_free(ct_evq_t *q)
{
    free(q->heap);
    memset(q, 0, sizeof *q);
}

static int before(const ct_event_t *x, const ct_event_t *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

ct_status_t ct_evq_push(ct_evq_t *q, double t, uint32_t kind, uint32_t a, uint64_t b)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 256;
        ct_event_t *nh = realloc(q->heap, nc * sizeof *nh);
        if (!nh)
            return CT_ENOMEM;
        q->heap = nh;
        q->cap = nc;
    }
    ct_event_t ev = { t, q->next_seq++, kind, a, b };
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&ev, &q->heap[p]))
            break;
        q->heap[i] = q->heap[p];
        i = p;
    }
    q->heap[i] = ev;
    return CT_OK;
}

int ct_evq_pop(ct_evq_t *q, ct_event_t *ev)
{
    if (q->n == 0)
        return 0;
    *ev = q->heap[0];
    ct_event_t last = q->heap[--q->n];
    size_t i = 0, n = q->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!before(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (n)
        q->heap[i] = last;
    return 1;
}

double ct_evq_peek_time(const ct_evq_t *q)
{
    return q->n ? q->heap[0].t : INFINITY;
}
