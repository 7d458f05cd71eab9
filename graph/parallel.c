/*
 * parallel.c - the point pool (ct_parallel.h): a shared atomic counter
 * hands out points; a mutex serialises progress calls and the choice of
 * the error to report. The team (ct_team_t) keeps its workers between
 * runs: a run is published by bumping a generation counter (release),
 * which a worker sees spinning or, after a while idle, through a
 * condition variable; the caller closes a run when its own indices are
 * done and waits only for the workers that joined it (struct ct_team).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    size_t n;
    ct_point_fn fn;
    void *ctx;
    void (*progress)(size_t, size_t, void *);
    void *pctx;
    void (*thread_exit)(void);
    atomic_size_t next;
    atomic_int failed;
    pthread_mutex_t mu;
    size_t done;
    size_t err_index;       /* lowest failing point so far (n: none) */
    ct_error_t err;
} pool_t;

unsigned ct_parallel_cores(void)
{
    long k = sysconf(_SC_NPROCESSORS_ONLN);
    return k < 1 ? 1 : k > 1024 ? 1024 : (unsigned)k;
}

static void *worker(void *arg)
{
    pool_t *p = arg;
    for (;;) {
        if (atomic_load(&p->failed))
            break;
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        ct_error_t e;
        ct_error_clear(&e);
        ct_status_t st = p->fn(i, p->ctx, &e);
        pthread_mutex_lock(&p->mu);
        if (st != CT_OK) {
            if (i < p->err_index) {
                p->err_index = i;
                p->err = e;
                if (p->err.code == CT_OK)
                    p->err.code = st;
            }
            atomic_store(&p->failed, 1);
        } else if (p->progress)
            p->progress(++p->done, p->n, p->pctx);
        pthread_mutex_unlock(&p->mu);
    }
    if (p->thread_exit)
        p->thread_exit(); /* e.g. this thread's GLPK environment (the solver's sweeps) */
    return NULL;
}

ct_status_t ct_parallel_for(size_t n, unsigned threads, ct_point_fn fn, void *ctx,
                            void (*progress)(size_t done, size_t total, void *pctx), void *pctx, ct_error_t *err)
{
    return ct_parallel_for_ex(n, threads, fn, ctx, progress, pctx, NULL, err);
}

ct_status_t ct_parallel_for_ex(size_t n, unsigned threads, ct_point_fn fn, void *ctx,
                               void (*progress)(size_t done, size_t total, void *pctx), void *pctx,
                               void (*thread_exit)(void), ct_error_t *err)
{
    if (threads == 0)
        threads = ct_parallel_cores();
    if (threads > n)
        threads = n ? (unsigned)n : 1;
    if (threads <= 1) { /* in this thread, in order */
        for (size_t i = 0; i < n; i++) {
            ct_status_t st = fn(i, ctx, err);
            if (st != CT_OK)
                return st;
            if (progress)
                progress(i + 1, n, pctx);
        }
        return CT_OK;
    }
    pool_t p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.fn = fn;
    p.ctx = ctx;
    p.progress = progress;
    p.pctx = pctx;
    p.thread_exit = thread_exit;
    p.err_index = n;
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    pthread_mutex_init(&p.mu, NULL);
    pthread_t *th = malloc(threads * sizeof(pthread_t));
    unsigned started = 0;
    if (th)
        for (; started < threads; started++)
            if (pthread_create(&th[started], NULL, worker, &p) != 0)
                break;
    if (!started) { /* no thread at all: run here */
        free(th);
        pthread_mutex_destroy(&p.mu);
        return ct_parallel_for(n, 1, fn, ctx, progress, pctx, err);
    }
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    free(th);
    pthread_mutex_destroy(&p.mu);
    if (p.err_index < n) {
        if (err)
            *err = p.err;
        return p.err.code;
    }
    return CT_OK;
}

/* Yields a worker makes waiting for a run before it sleeps: about a
 * millisecond (a yield with the other core idle returns at once), longer
 * than the gaps between the pricing passes of one solve. */
#define TEAM_SPINS 4096

/* A run's end: the caller does not wait for workers that have not joined
 * it (one asleep would cost its wake-up), only for those inside. A worker
 * joins by counting itself in `active`, then reads `closed`; the caller,
 * its own indices done, sets `closed`, then reads `active` (both
 * sequentially consistent): either the worker sees the run closed and
 * leaves it untouched, or the caller sees it and waits. A worker late for
 * one run may join the next: it reads the fields after seeing that run
 * open, and the caller wrote them before opening it. */
struct ct_team {
    unsigned workers;      /* threads besides the caller's */
    pthread_t *th;
    pthread_mutex_t mu;    /* with wake: a sleeping worker's wait for gen to move */
    pthread_cond_t wake;
    atomic_uint gen;       /* bumped when a run is published or the team stops */
    atomic_int quit;
    atomic_int closed;     /* 1 between runs: no worker may start on the fields */
    atomic_uint active;    /* workers inside the current run */
    /* the current run: written only while closed and no worker is active */
    size_t n;
    ct_team_fn fn;
    void *ctx;
    atomic_size_t next;
};

static void team_indices(ct_team_t *t)
{
    for (size_t i; (i = atomic_fetch_add(&t->next, 1)) < t->n;)
        t->fn(i, t->ctx);
}

static void *team_worker(void *arg)
{
    ct_team_t *t = arg;
    unsigned seen = 0;
    for (;;) {
        unsigned g = atomic_load_explicit(&t->gen, memory_order_acquire);
        for (int k = 0; g == seen && k < TEAM_SPINS; k++) {
            sched_yield();
            g = atomic_load_explicit(&t->gen, memory_order_acquire);
        }
        if (g == seen) {
            pthread_mutex_lock(&t->mu);
            while ((g = atomic_load_explicit(&t->gen, memory_order_acquire)) == seen)
                pthread_cond_wait(&t->wake, &t->mu);
            pthread_mutex_unlock(&t->mu);
        }
        seen = g;
        if (atomic_load(&t->quit))
            return NULL;
        atomic_fetch_add(&t->active, 1);
        if (!atomic_load(&t->closed))
            team_indices(t);
        atomic_fetch_sub_explicit(&t->active, 1, memory_order_release);
    }
}

/* Publishes a new generation (a run, or the stop) to every worker. */
static void team_publish(ct_team_t *t)
{
    pthread_mutex_lock(&t->mu);
    atomic_fetch_add_explicit(&t->gen, 1, memory_order_release);
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->mu);
}

ct_status_t ct_team_alloc(unsigned threads, ct_team_t **team, ct_error_t *err)
{
    *team = NULL;
    if (threads == 0)
        threads = ct_parallel_cores();
    if (threads <= 1)
        return CT_OK;
    ct_team_t *t = calloc(1, sizeof *t);
    if (!t || !(t->th = malloc((threads - 1) * sizeof(pthread_t)))) {
        free(t);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->wake, NULL);
    atomic_init(&t->gen, 0);
    atomic_init(&t->quit, 0);
    atomic_init(&t->closed, 1);
    atomic_init(&t->active, 0);
    atomic_init(&t->next, 0);
    for (; t->workers < threads - 1; t->workers++)
        if (pthread_create(&t->th[t->workers], NULL, team_worker, t) != 0) {
            ct_team_free(t);
            return ct_error_set(err, CT_ENOMEM, "cannot start a thread");
        }
    *team = t;
    return CT_OK;
}

unsigned ct_team_size(const ct_team_t *team)
{
    return team ? team->workers + 1 : 1;
}

void ct_team_run(ct_team_t *team, size_t n, ct_team_fn fn, void *ctx)
{
    if (!team || n <= 1) {
        for (size_t i = 0; i < n; i++)
            fn(i, ctx);
        return;
    }
    team->n = n;
    team->fn = fn;
    team->ctx = ctx;
    atomic_store_explicit(&team->next, 0, memory_order_relaxed);
    atomic_store_explicit(&team->closed, 0, memory_order_release);
    team_publish(team);
    team_indices(team);
    atomic_store(&team->closed, 1);
    /* the workers inside finish their last index (a short wait; yielding
     * after a while, for a worker preempted inside) */
    for (unsigned k = 0; atomic_load(&team->active) != 0; k++)
        if (k >= 1024)
            sched_yield();
}

void ct_team_free(ct_team_t *team)
{
    if (!team)
        return;
    atomic_store(&team->quit, 1);
    team_publish(team);
    for (unsigned k = 0; k < team->workers; k++)
        pthread_join(team->th[k], NULL);
    pthread_mutex_destroy(&team->mu);
    pthread_cond_destroy(&team->wake);
    free(team->th);
    free(team);
}
