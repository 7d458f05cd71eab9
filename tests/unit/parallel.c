/*
 * parallel.c - the thread pools of ct_parallel.h.
 *
 * ct_parallel_for: every point runs once for any number of threads, the
 * progress count reaches the total, and a failure reports the lowest
 * failing point whichever thread met it first. The team (ct_team_t):
 * every index of every run runs exactly once, runs of 0 and 1 indices,
 * thousands of short runs back to back (the workers spinning between
 * them), runs after the workers have gone to sleep, a team of one (NULL),
 * and freeing a team that never ran.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_parallel.h"
#include "ct_test.h"

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

typedef struct {
    atomic_int *hits;
    size_t fail_from; /* points >= this fail (SIZE_MAX: none) */
} points_t;

static ct_status_t point(size_t i, void *ctx, ct_error_t *err)
{
    points_t *p = ctx;
    atomic_fetch_add(&p->hits[i], 1);
    if (i >= p->fail_from)
        return ct_error_set(err, CT_EINPUT, "point %zu failed", i);
    return CT_OK;
}

typedef struct {
    size_t last, calls;
    int increasing;
} progress_t;

static void progress(size_t done, size_t total, void *ctx)
{
    progress_t *p = ctx;
    (void)total;
    p->increasing &= done == p->last + 1;
    p->last = done;
    p->calls++;
}

static void for_points(void)
{
    enum { N = 500 };
    static atomic_int hits[N];
    for (unsigned threads = 1; threads <= 4; threads++) {
        for (size_t i = 0; i < N; i++)
            atomic_init(&hits[i], 0);
        points_t p = { hits, SIZE_MAX };
        progress_t pr = { 0, 0, 1 };
        ct_error_t err;
        CHECK(ct_parallel_for(N, threads, point, &p, progress, &pr, &err) == CT_OK);
        int once = 1;
        for (size_t i = 0; i < N; i++)
            once &= atomic_load(&hits[i]) == 1;
        CHECK_MSG(once, "%u threads: a point did not run exactly once", threads);
        CHECK_MSG(pr.calls == N && pr.last == N && pr.increasing, "%u threads: progress %zu calls, last %zu",
                  threads, pr.calls, pr.last);
        /* points 300 and on fail: the error is point 300's */
        p.fail_from = 300;
        ct_error_clear(&err);
        CHECK(ct_parallel_for(N, threads, point, &p, NULL, NULL, &err) == CT_EINPUT);
        CHECK_MSG(strcmp(err.msg, "point 300 failed") == 0, "%u threads: %s", threads, err.msg);
    }
    printf("parallel for: every point once and the lowest failure reported, 1-4 threads\n");
}

typedef struct {
    atomic_int *hits;
    unsigned run;
} team_ctx_t;

static void team_index(size_t i, void *ctx)
{
    team_ctx_t *c = ctx;
    atomic_fetch_add(&c->hits[i], (int)c->run);
}

/* Runs n indices as run number `run` and checks that each ran once. */
static int team_round(ct_team_t *t, size_t n, unsigned run, atomic_int *hits)
{
    for (size_t i = 0; i < n; i++)
        atomic_init(&hits[i], 0);
    team_ctx_t c = { hits, run };
    ct_team_run(t, n, team_index, &c);
    for (size_t i = 0; i < n; i++)
        if (atomic_load(&hits[i]) != (int)run)
            return 0;
    return 1;
}

static void team_runs(void)
{
    enum { N = 257 };
    static atomic_int hits[N];
    ct_error_t err;
    ct_team_t *one = NULL;
    CHECK(ct_team_alloc(1, &one, &err) == CT_OK && one == NULL && ct_team_size(one) == 1);
    CHECK(team_round(one, N, 1, hits));
    ct_team_t *idle = NULL;
    CHECK(ct_team_alloc(3, &idle, &err) == CT_OK && idle != NULL);
    ct_team_free(idle); /* never ran */
    ct_team_free(NULL);
    for (unsigned threads = 2; threads <= 4; threads++) {
        ct_team_t *t = NULL;
        CHECK(ct_team_alloc(threads, &t, &err) == CT_OK && t != NULL);
        CHECK(ct_team_size(t) == threads);
        int ok = team_round(t, 0, 1, hits) && team_round(t, 1, 2, hits);
        for (unsigned r = 0; r < 3000 && ok; r++) /* back to back: the workers spin between runs */
            ok = team_round(t, 1 + r % N, 3 + r % 5, hits);
        CHECK_MSG(ok, "team of %u: an index did not run exactly once in a run back to back", threads);
        for (int r = 0; r < 3 && ok; r++) { /* after the workers went to sleep */
            struct timespec ts = { 0, 20 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            ok = team_round(t, N, 7, hits);
        }
        CHECK_MSG(ok, "team of %u: an index did not run exactly once after the workers slept", threads);
        ct_team_free(t);
    }
    printf("team: every index once in 3,002 runs back to back and 3 after sleeping, teams of 1-4\n");
}

int main(void)
{
    for_points();
    team_runs();
    return ct_test_end();
}
