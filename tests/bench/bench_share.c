/*
 * bench_share.c - the GPU-sharing simulator: one 480-job run (16 x 4 GPUs,
 * the bundled applications, seed 1) per policy, against the goal of 200 ms
 * a run, events per second.
 */
#include "bench_util.h"
#include "ct_share.h"

#include <stdio.h>

int main(void)
{
    ct_apps_t a;
    ct_share_jobs_t j;
    ct_error_t err;
    if (ct_apps_load(&a, "data/share/apps.json", &err) != CT_OK || ct_apps_set_xi(&a, 1.5, 2.0, 1, &err) != CT_OK ||
        ct_share_workload(&a, 1, 480, &j, &err) != CT_OK) {
        fprintf(stderr, "bench_share: %s\n", err.msg);
        return 1;
    }
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    printf("sharing simulator: 480 jobs, 16 x 4 GPUs, xi 1.5-2.0 (goal: a run under 200 ms)\n");
    printf("  %-10s %10s %8s %12s %9s\n", "policy", "time", "events", "events/s", "vs goal");
    for (int k = 0; k < 5; k++) {
        ct_share_params_t p;
        ct_share_params_init(&p);
        p.policy = (ct_share_policy_t)k;
        ct_train_result_t r = { 0 };
        double t;
        int ok = 1;
        BENCH_MIN(t, 5, {
            ct_train_result_free(&r);
            ok &= ct_share_run(&c, &a, &j, &p, &r, &err) == CT_OK;
        });
        if (!ok)
            return 1;
        printf("  %-10s %7.2f ms %8zu %10.3f M %8.1fx\n", ct_share_policy_name(p.policy), 1e3 * t, r.events,
               1e-6 * (double)r.events / t, 0.200 / t);
        ct_train_result_free(&r);
    }
    ct_share_jobs_free(&j);
    /* Growth in jobs (issue #31: near-linear at 100,000 jobs; not yet): the
     * time per job at 1,000, 2,000 and 4,000 jobs of the same mix, against
     * the 1,000-job run's (flat = linear; 2x per doubling = quadratic).
     * Exclusive SJF, which only sorts the queue at each event, grows too:
     * this mix's queue grows with the trace on 64 GPUs. */
    printf("sharing simulator, growth: time per job against 1,000 jobs' (goal: flat)\n");
    printf("  %-10s %14s %14s %14s\n", "policy", "1,000 jobs", "2,000", "4,000");
    for (int k = 0; k < 5; k++) {
        double base = 0;
        printf("  %-10s", ct_share_policy_name((ct_share_policy_t)k));
        for (size_t n = 1000; n <= 4000; n *= 2) {
            ct_share_params_t p;
            ct_share_params_init(&p);
            p.policy = (ct_share_policy_t)k;
            ct_train_result_t r = { 0 };
            if (ct_share_workload(&a, 1, n, &j, &err) != CT_OK) {
                fprintf(stderr, "bench_share: %s\n", err.msg);
                return 1;
            }
            double t0 = bench_now();
            int ok = ct_share_run(&c, &a, &j, &p, &r, &err) == CT_OK;
            double per = (bench_now() - t0) / (double)n;
            ct_train_result_free(&r);
            ct_share_jobs_free(&j);
            if (!ok)
                return 1;
            if (n == 1000)
                base = per;
            printf(" %7.1f us x%4.1f", 1e6 * per, per / base);
        }
        printf("\n");
    }
    ct_apps_free(&a);
    return 0;
}
