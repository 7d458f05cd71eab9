/*
 * parallel.c - the point pool (ct_parallel.h): a shared atomic counter
 * hands out points; a mutex serialises progress calls and the choice of
 * the error to report.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_parallel.h"

#include <pthread.h>
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
