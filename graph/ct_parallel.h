/*
 * ct_parallel.h - runs the independent points of a sweep on a pool of
 * threads.
 *
 * Points are handed out one at a time from a shared counter (dynamic
 * assignment: points differ in cost), each writes only its own result
 * slot, and the caller writes the results in point order afterwards, so
 * the output is the same for any number of threads. A point's randomness
 * must come from the point (its seed), never from the thread. GLPK keeps
 * its environment per thread (it is built with thread-local storage): the
 * solver's sweeps pass ct_lp_thread_exit so each worker frees its own
 * before it ends. Here beside the base utilities, below the models and the
 * solver that both use it.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_PARALLEL_H
#define CT_PARALLEL_H

#include "ct_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One point: computes point i into the caller's slot i. Must be safe to
 *  run concurrently with other points (no shared mutable state). */
typedef ct_status_t (*ct_point_fn)(size_t i, void *ctx, ct_error_t *err);

/** The cores this process may use (at least 1). */
unsigned ct_parallel_cores(void);

/**
 * Runs fn(i) for every i in [0, n) on `threads` threads (0: the cores;
 * 1: in this thread, in order). progress (may be NULL) is called, one call
 * at a time, with the number of finished points. On failure no new points
 * start, and the error reported is the one of the lowest failing point, so
 * it too is the same for any number of threads. CT_ENOMEM if threads
 * cannot be started.
 */
ct_status_t ct_parallel_for(size_t n, unsigned threads, ct_point_fn fn, void *ctx,
                            void (*progress)(size_t done, size_t total, void *pctx), void *pctx, ct_error_t *err);

/** The same, calling thread_exit (may be NULL) in each pool thread before
 *  it ends: the solver's sweeps free the thread's GLPK environment
 *  (ct_lp_thread_exit) so this file needs no solver. */
ct_status_t ct_parallel_for_ex(size_t n, unsigned threads, ct_point_fn fn, void *ctx,
                               void (*progress)(size_t done, size_t total, void *pctx), void *pctx,
                               void (*thread_exit)(void), ct_error_t *err);

/**
 * A team: threads kept between runs of short parallel loops, where
 * starting threads for each (about 60 us a create and join) would cost
 * more than the loop saves (the exact solver's pricing passes take
 * 0.1-0.3 ms and run thousands of times). Between runs the workers spin
 * (yielding) for about a millisecond, then sleep until the next run.
 * One caller at a time; the caller takes part in every run.
 */
typedef struct ct_team ct_team_t;

/** One index of a team run: must not fail, and may run concurrently with
 *  the run's other indices (each writes only its own slots). */
typedef void (*ct_team_fn)(size_t i, void *ctx);

/**
 * Starts a team of `threads` threads in all, the caller's among them
 * (threads - 1 workers; 0: the cores). *team is NULL when threads is 1
 * (ct_team_run then runs in the caller alone). Free with ct_team_free.
 * Returns CT_ENOMEM when a thread or memory cannot be had (*team NULL).
 */
ct_status_t ct_team_alloc(unsigned threads, ct_team_t **team, ct_error_t *err);

/** Threads in the team, the caller's included (1 for a NULL team). */
unsigned ct_team_size(const ct_team_t *team);

/** Runs fn(i, ctx) for every i in [0, n) on the team (NULL: in this thread,
 *  in order) and returns when all have ended. Indices are handed out one at
 *  a time, so results must not depend on which thread runs which. */
void ct_team_run(ct_team_t *team, size_t n, ct_team_fn fn, void *ctx);

/** Stops and joins the workers; takes NULL. */
void ct_team_free(ct_team_t *team);

#ifdef __cplusplus
}
#endif
#endif
