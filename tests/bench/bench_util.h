/*
 * bench_util.h - timing for the benchmarks: the minimum over repeats of a
 * monotonic wall clock (the least-disturbed run), so ratios computed in one
 * run are comparable on a noisy machine.
 */
#ifndef CT_BENCH_UTIL_H
#define CT_BENCH_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs body `reps` times and leaves the fastest run's seconds in `best`. */
#define BENCH_MIN(best, reps, body)                                                                 \
    do {                                                                                            \
        (best) = 1e300;                                                                             \
        for (int bench_r_ = 0; bench_r_ < (reps); bench_r_++) {                                     \
            double bench_t0_ = bench_now();                                                         \
            body;                                                                                   \
            double bench_dt_ = bench_now() - bench_t0_;                                             \
            if (bench_dt_ < (best))                                                                 \
                (best) = bench_dt_;                                                                 \
        }                                                                                           \
    } while (0)

#endif
