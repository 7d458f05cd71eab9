/*
 * bench_train.c - the training-cluster simulator: one 160-job run of the
 * paper's workload at the authors' scale (goal: under 50 ms; their
 * simulator takes 4-40 s) and at the paper's scale, events per second, for
 * Ada-SRSF and the baselines, exact and compat side by side.
 */
#include "bench_util.h"
#include "ct_train.h"

#include <stdio.h>

int main(void)
{
    ct_train_cluster_t c;
    ct_train_cluster_init(&c);
    static const double scales[] = { 100, 1 };
    printf("training simulator: 160 jobs, 16 x 4 GPUs, seed 1 (goal: a run at scale 100 under 50 ms)\n");
    printf("  %-6s %-14s %-7s %10s %10s %12s %9s\n", "scale", "policy", "acct", "time", "events", "events/s",
           "vs goal");
    for (size_t k = 0; k < 2; k++) {
        ct_train_jobs_t j;
        ct_error_t err;
        if (ct_train_workload(1, scales[k], &j, &err) != CT_OK)
            return 1;
        for (int pl = 0; pl < 4; pl++)
            for (int compat = 0; compat < 2; compat++) {
                ct_train_params_t p;
                ct_train_params_init(&p);
                p.place = (ct_place_t)pl;
                p.compat = compat;
                ct_train_result_t r = { 0 };
                double t;
                int ok = 1;
                BENCH_MIN(t, k == 0 ? 5 : 1, {
                    ct_train_result_free(&r);
                    ok &= ct_train_run(&c, &j, &p, &r, &err) == CT_OK;
                });
                if (!ok)
                    return 1;
                char label[32];
                snprintf(label, sizeof label, "%s+adadual", ct_place_name(p.place));
                printf("  %-6g %-14s %-7s %7.1f ms %10zu %10.2f M", scales[k], label, compat ? "compat" : "exact",
                       1e3 * t, r.events, 1e-6 * (double)r.events / t);
                if (k == 0)
                    printf(" %8.1fx\n", 0.050 / t);
                else
                    printf("\n");
                ct_train_result_free(&r);
            }
        ct_train_jobs_free(&j);
    }
    return 0;
}
