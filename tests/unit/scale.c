/*
 * scale.c - loading, contraction and the bottleneck split grow linearly with
 * a DAG's size: a chain of diamonds (source -> two branches -> join) of
 * 25,000 and 100,000 tasks, as JSON text, parsed, contracted and split; the
 * four-times-larger input must take well under the sixteen times a
 * quadratic step would (best of five runs each, the two sizes in turn, so
 * a noisy machine does not decide, nor a burst of load that one size
 * meets and the other does not). Absolute times are `make bench`'s
 * business. Also the limits on hostile input (docs/limits.md).
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_contract.h"
#include "ct_split.h"
#include "ct_test_diamonds.h"
#include "ct_test.h"

#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* One run of parse + contract + split (s). */
static double pipeline(const char *text, size_t len, size_t want_tasks)
{
    ct_dag_t d, c;
    ct_split_t sp;
    ct_error_t err;
    ct_dag_init(&d);
    double t0 = now();
    CHECK(ct_dag_parse_json(&d, text, len, "diamonds", &err) == CT_OK);
    CHECK(ct_dag_contract(&d, &c, NULL, &err) == CT_OK);
    CHECK(ct_split_compute(&d, &sp, &err) == CT_OK);
    double t = now() - t0;
    CHECK(d.n_tasks == want_tasks && sp.n_segments == (want_tasks - 1) / 3);
    /* a diamond's branches are parallel: nothing contracts */
    CHECK(c.n_tasks == d.n_tasks);
    ct_split_free(&sp);
    ct_dag_destroy(&c);
    ct_dag_destroy(&d);
    return t;
}

static void linear_growth(void)
{
    size_t l1, l2;
    char *small = ct_test_diamonds(25000, &l1), *large = ct_test_diamonds(100000, &l2);
    double t1 = 1e300, t2 = 1e300;
    for (int r = 0; r < 5; r++) {
        t1 = fmin(t1, pipeline(small, l1, 1 + 3 * ((25000 - 1) / 3)));
        t2 = fmin(t2, pipeline(large, l2, 1 + 3 * ((100000 - 1) / 3)));
    }
    printf("parse + contract + split: 25k tasks %.3f s, 100k tasks %.3f s (x%.1f for 4x the tasks)\n", t1, t2,
           t2 / t1);
    /* x4 is linear; a quadratic step gives x16. Linear work whose data
     * leaves the caches between the two sizes has taken x9.5 here with
     * other jobs on both cores (x5 on a quiet machine). */
    CHECK_MSG(t2 < 12 * t1, "100k tasks took %.3f s, 25k %.3f s: growth x%.1f is not linear", t2, t1, t2 / t1);
    free(small);
    free(large);
}

static void limits(void)
{
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    char id[CT_MAX_ID_BYTES + 2];
    memset(id, 'x', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    CHECK(ct_dag_add_task(&d, id, 1, NULL, &err) == CT_ELIMIT);
    CHECK_ERR(err, CT_ELIMIT, "over the limit of 1024");
    id[CT_MAX_ID_BYTES] = '\0'; /* exactly the limit: fine */
    CHECK(ct_dag_add_task(&d, id, 1, NULL, &err) == CT_OK);
    ct_dag_destroy(&d);
}

int main(void)
{
    linear_growth();
    limits();
    return ct_test_end();
}
