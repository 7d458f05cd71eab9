/*
 * rankq.c - the bucketed rank queue against a brute-force scan: random
 * inserts and removals over items of random buckets and values, and every
 * query (bucket, after, bound) compared with the first queued item of the
 * bucket past the rank whose value is within the bound.
 */
#include "ct_rankq.h"
#include "ct_sampler.h"
#include "ct_test.h"

#include <stdlib.h>

static int64_t brute(size_t n, const uint32_t *rank, const uint32_t *bucket, const double *value,
                     const unsigned char *in, uint32_t b, int64_t after, double bound)
{
    int64_t best = -1;
    for (size_t i = 0; i < n; i++)
        if (in[i] && bucket[i] == b && (int64_t)rank[i] > after && value[i] <= bound &&
            (best < 0 || rank[i] < rank[best]))
            best = (int64_t)i;
    return best;
}

int main(void)
{
    ct_rng_t r;
    ct_rng_seed(&r, 7);
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + (size_t)ct_rng_below(&r, 200);
        uint32_t nb = 1 + (uint32_t)ct_rng_below(&r, 6);
        uint32_t *rank = malloc(n * sizeof *rank), *bucket = malloc(n * sizeof *bucket);
        double *value = malloc(n * sizeof *value);
        unsigned char *in = calloc(n, 1);
        for (size_t i = 0; i < n; i++) {
            rank[i] = (uint32_t)i;
            bucket[i] = (uint32_t)ct_rng_below(&r, nb); /* some buckets may stay empty */
            value[i] = (double)ct_rng_below(&r, 10);
        }
        for (size_t i = n; i > 1; i--) { /* ranks: a random permutation */
            size_t k = (size_t)ct_rng_below(&r, i);
            uint32_t t = rank[i - 1];
            rank[i - 1] = rank[k];
            rank[k] = t;
        }
        ct_rankq_t q;
        ct_error_t err;
        CHECK(ct_rankq_init(&q, n, rank, bucket, nb, value, &err) == CT_OK);
        size_t count = 0, bad = 0;
        for (int op = 0; op < 400; op++) {
            uint32_t i = (uint32_t)ct_rng_below(&r, n);
            if (in[i]) {
                ct_rankq_remove(&q, i);
                in[i] = 0;
                count--;
            } else {
                ct_rankq_insert(&q, i);
                in[i] = 1;
                count++;
            }
            for (int t = 0; t < 4; t++) {
                uint32_t b = (uint32_t)ct_rng_below(&r, nb);
                int64_t after = (int64_t)ct_rng_below(&r, n + 1) - 1;
                double bound = (double)ct_rng_below(&r, 11) - 0.5;
                bad += ct_rankq_first(&q, b, after, bound) != brute(n, rank, bucket, value, in, b, after, bound);
            }
            CHECK(ct_rankq_rank(&q, i) == rank[i]);
        }
        CHECK(bad == 0);
        CHECK(q.count == count);
        ct_rankq_free(&q);
        free(rank);
        free(bucket);
        free(value);
        free(in);
    }
    return ct_test_end();
}
