/*
 * ct_test_diamonds.h - a large DAG as JSON text for the scaling test and
 * benchmark: a chain of diamonds (source -> two parallel branches -> join),
 * about n tasks. Nothing in it contracts; every join is a bottleneck.
 */
#ifndef CT_TEST_DIAMONDS_H
#define CT_TEST_DIAMONDS_H

#include <stdio.h>
#include <stdlib.h>

/* Returns the text (caller frees; exits on out of memory) and its length. */
static inline char *ct_test_diamonds(size_t n, size_t *len)
{
    size_t cap = n * 120 + 64, k = 0, d = (n - 1) / 3;
    char *t = malloc(cap);
    if (!t)
        exit(1);
    k += (size_t)snprintf(t + k, cap - k, "{\"tasks\": [{\"id\": \"t0\", \"time\": 0.001}");
    for (size_t i = 1; i <= d; i++)
        k += (size_t)snprintf(t + k, cap - k,
                              ", {\"id\": \"a%zu\", \"time\": 0.001}, {\"id\": \"b%zu\", \"time\": 0.002}, "
                              "{\"id\": \"t%zu\", \"time\": 0.001}", i, i, i);
    k += (size_t)snprintf(t + k, cap - k, "], \"edges\": [");
    for (size_t i = 1; i <= d; i++)
        k += (size_t)snprintf(t + k, cap - k,
                              "%s{\"from\": \"t%zu\", \"to\": \"a%zu\", \"bytes\": 1000}, "
                              "{\"from\": \"t%zu\", \"to\": \"b%zu\", \"bytes\": 1000}, "
                              "{\"from\": \"a%zu\", \"to\": \"t%zu\", \"bytes\": 10}, "
                              "{\"from\": \"b%zu\", \"to\": \"t%zu\", \"bytes\": 10}",
                              i > 1 ? ", " : "", i - 1, i, i - 1, i, i, i, i, i);
    k += (size_t)snprintf(t + k, cap - k, "]}");
    *len = k;
    return t;
}

#endif
