/*
 * bench_first_touch.c - what a process pays to touch memory it has never
 * touched, against memory it touched and freed before: the large solves'
 * arrays come from ct_big_calloc (huge pages advised), and a short solve
 * (one `contend nona solve`) touches its 100-200 MB once. On bare metal
 * both run at memory speed; on a virtual machine whose host takes freed
 * guest pages back (free page reporting) a new process's first touch
 * faults each page in on the host as well, and that, not the solver's
 * arithmetic, is then part of a short solve's time. A lookup sweep, one
 * process over many scales, reuses its pages from the second scale on.
 *
 * Prints, per size, the first touch, the touch again after ct_big_free and
 * a new ct_big_calloc (the fastest of three), and their ratio.
 */
#include "bench_util.h"
#include "ct_base.h"

#include <stdio.h>

/* Touches every 4 KiB page of p (n bytes); returns the seconds. */
static double touch(unsigned char *p, size_t n)
{
    double t0 = bench_now();
    for (size_t i = 0; i < n; i += 4096)
        p[i] = 1;
    return bench_now() - t0;
}

int main(void)
{
    static const size_t mb[] = { 32, 128 };
    printf("first touch of fresh memory against memory this process freed (ct_big_calloc, every 4 KiB page)\n");
    printf("  %-8s %12s %12s %12s %8s\n", "size", "first", "again", "first ms/MB", "ratio");
    for (size_t k = 0; k < sizeof mb / sizeof mb[0]; k++) {
        size_t n = mb[k] << 20;
        unsigned char *p = ct_big_calloc(n, 1);
        if (!p) {
            fprintf(stderr, "bench_first_touch: out of memory (%zu MB)\n", mb[k]);
            return 1;
        }
        double first = touch(p, n), again;
        ct_big_free(p);
        int ok = 1;
        BENCH_MIN(again, 3, {
            unsigned char *q = ct_big_calloc(n, 1);
            if (!q) {
                ok = 0;
                break;
            }
            touch(q, n);
            ct_big_free(q);
        });
        if (!ok) {
            fprintf(stderr, "bench_first_touch: out of memory (%zu MB)\n", mb[k]);
            return 1;
        }
        printf("  %5zu MB %9.1f ms %9.1f ms %12.3f %7.1fx\n", mb[k], 1e3 * first, 1e3 * again, 1e3 * first / (double)mb[k],
               first / again);
    }
    return 0;
}
