/*
 * bench_share.c - the GPU-sharing simulator: one 480-job run (16 x 4 GPUs,
 * the bundled applications, seed 1) per policy, against the goal of 200 ms
 * a run, events per second; then the time per job at 1,000 / 10,000 /
 * 100,000 jobs (near-linear: issue #31) beside the whole-queue walk.
 */
#include "bench_util.h"
#include "ct_share.h"
#include "ct_train.h"

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
    /* Growth in jobs (issue #31: near-linear at 100,000 jobs): the time
     * per job at 1,000, 10,000 and 100,000 jobs of the same mix over the
     * same 8 h (the queue grows with the trace: the hardest case), against
     * the 1,000-job run's (flat = linear; 10x per decade = quadratic), and
     * the walk over the whole queue at every round (params.walk, what the
     * rank queues replaced) at 1,000 and 10,000 jobs beside it. */
    printf("sharing simulator, growth over 8 h: time per job against 1,000 jobs' (goal: flat); walk: the whole queue each round\n");
    printf("  %-10s %16s %16s %16s %14s %14s\n", "policy", "1,000 jobs", "10,000", "100,000", "walk 1,000",
           "walk 10,000");
    for (int k = 0; k < 5; k++) {
        double base = 0;
        printf("  %-10s", ct_share_policy_name((ct_share_policy_t)k));
        for (int walk = 0; walk < 2; walk++)
            for (size_t n = 1000; n <= (walk ? 10000u : 100000u); n *= 10) {
                ct_share_params_t p;
                ct_share_params_init(&p);
                p.policy = (ct_share_policy_t)k;
                p.walk = walk;
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
                if (n == 1000 && !walk)
                    base = per;
                if (walk)
                    printf(" %7.1f us x%4.1f", 1e6 * per, per / base);
                else
                    printf(" %8.1f us x%5.1f", 1e6 * per, per / base);
            }
        printf("\n");
    }
    ct_apps_free(&a);
    /* The same on a generated trace with Philly-like sizes and durations
     * (ct_train_workload_trace at load 0.8, as bench_train's, each model an
     * application: ct_share_from_train). */
    printf("sharing simulator, growth (Philly-like trace, load 0.8): time per job against 1,000 jobs' (goal: flat)\n");
    printf("  %-10s %16s %16s %16s\n", "policy", "1,000 jobs", "10,000", "100,000");
    ct_apps_t pa[3];
    ct_share_jobs_t pj[3];
    for (int k = 0; k < 3; k++) {
        ct_train_jobs_t tj;
        size_t n = k == 0 ? 1000 : k == 1 ? 10000 : 100000;
        if (ct_train_workload_trace(1, n, &c, 0.8, &tj, &err) != CT_OK ||
            ct_share_from_train(&c, &tj, &pa[k], &pj[k], &err) != CT_OK) {
            fprintf(stderr, "bench_share: %s\n", err.msg);
            return 1;
        }
        ct_train_jobs_free(&tj);
    }
    for (int k = 0; k < 5; k++) {
        double base = 0;
        printf("  %-10s", ct_share_policy_name((ct_share_policy_t)k));
        for (int m = 0; m < 3; m++) {
            ct_share_params_t p;
            ct_share_params_init(&p);
            p.policy = (ct_share_policy_t)k;
            ct_train_result_t r = { 0 };
            double t0 = bench_now();
            int ok = ct_share_run(&c, &pa[m], &pj[m], &p, &r, &err) == CT_OK;
            double per = (bench_now() - t0) / (double)pj[m].n;
            ct_train_result_free(&r);
            if (!ok)
                return 1;
            if (m == 0)
                base = per;
            printf(" %8.1f us x%5.1f", 1e6 * per, per / base);
        }
        printf("\n");
    }
    for (int k = 0; k < 3; k++) {
        ct_share_jobs_free(&pj[k]);
        ct_apps_free(&pa[k]);
    }
    return 0;
}
