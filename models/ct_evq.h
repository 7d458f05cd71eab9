/*
 * ct_evq.h - the event queue of contend's discrete-event simulators.
 *
 * A binary min-heap of events ordered by (time, insertion number): events at
 * the same time pop in the order they were pushed, so runs are deterministic.
 * An event is a time plus three integers whose meaning belongs to the
 * simulator (a kind, and two operands such as a job slot and a task), so the
 * same queue serves the inference simulator now and the training-cluster
 * simulators later. Push and pop are O(log n); memory grows with the events
 * pending, never with the events processed.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_EVQ_H
#define CT_EVQ_H

#include "ct_base.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double t;          /**< event time, s */
    uint64_t seq;      /**< insertion number (tie-break) */
    uint32_t kind;     /**< simulator-defined */
    uint32_t a;        /**< simulator-defined operand */
    uint64_t b;        /**< simulator-defined operand */
} ct_event_t;

typedef struct {
    ct_event_t *heap;
    size_t n, cap;
    uint64_t next_seq;
} ct_evq_t;

void ct_evq_init(ct_evq_t *q);
void ct_evq_free(ct_evq_t *q);
/** Pushes an event (t must be finite). CT_ENOMEM on failure. */
ct_status_t ct_evq_push(ct_evq_t *q, double t, uint32_t kind, uint32_t a, uint64_t b);
/** Pops the earliest event into *ev; returns 0 when the queue is empty. */
int ct_evq_pop(ct_evq_t *q, ct_event_t *ev);
/** The earliest event's time, or +INFINITY when empty. */
double ct_evq_peek_time(const ct_evq_t *q);

#ifdef __cplusplus
}
#endif
#endif
