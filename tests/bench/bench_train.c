/*
 * bench_train.c - the training-cluster simulator: one 160-job run of the
 * paper's workload at the authors' scale (goal: under 50 ms; their
 * simulator takes 4-40 s) and at the paper's scale, events per second, for
 * Ada-SRSF and the baselines, exact and compat side by side; then the
 * time per job at 1,000 / 10,000 / 100,000 jobs of a Philly-like trace
 * (near-linear: issue #31) beside the whole-queue walk.
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
    /* Growth in jobs (issue #31): a generated trace with Philly-like sizes
     * and durations (ct_train_workload_trace) offering 0.8 of the GPUs'
     * time, where all-reduces make the queue grow, at 1,000, 10,000 and
     * 100,000 jobs: time per job against the 1,000-job run's (flat =
     * linear), every placement and admission; the walk over the whole
     * queue at every round (params.walk, what the rank queue replaced)
     * beside it at 1,000 and 10,000 jobs. */
    printf("training simulator, growth (Philly-like trace, load 0.8): time per job against 1,000 jobs' (goal: flat)\n");
    printf("  %-14s %16s %16s %16s %14s %14s\n", "policy", "1,000 jobs", "10,000", "100,000", "walk 1,000",
           "walk 10,000");
    ct_train_jobs_t tr[3], sat[3];
    for (int k = 0; k < 3; k++) {
        ct_error_t err;
        size_t n = k == 0 ? 1000 : k == 1 ? 10000 : 100000;
        if (ct_train_workload_trace(1, n, &c, 0.8, &tr[k], &err) != CT_OK ||
            ct_train_workload_trace(1, n, &c, 100, &sat[k], &err) != CT_OK)
            return 1;
    }
    /* the last row: Ada-SRSF on a saturated trace (load 100: every job
     * arrives within about 1% of the time its work takes), the queue as
     * long as the trace */
    for (int pl = 0; pl < 5; pl++)
        for (int ad = 0; ad < (pl == 4 ? 1 : 2); ad++) {
            char label[32];
            if (pl == 4)
                snprintf(label, sizeof label, "saturated");
            else
                snprintf(label, sizeof label, "%s+%s", ct_place_name((ct_place_t)pl), ct_admit_name((ct_admit_t)ad));
            printf("  %-14s", label);
            double base = 0;
            for (int walk = 0; walk < 2; walk++)
                for (int k = 0; k < (walk ? 2 : 3); k++) {
                    ct_train_params_t p;
                    ct_train_params_init(&p);
                    p.place = pl == 4 ? CT_PLACE_LWF : (ct_place_t)pl;
                    p.admit = (ct_admit_t)ad;
                    p.walk = walk;
                    ct_train_result_t r = { 0 };
                    ct_error_t err;
                    const ct_train_jobs_t *jobs = pl == 4 ? &sat[k] : &tr[k];
                    double t0 = bench_now();
                    int ok = ct_train_run(&c, jobs, &p, &r, &err) == CT_OK;
                    double per = (bench_now() - t0) / (double)jobs->n;
                    ct_train_result_free(&r);
                    if (!ok)
                        return 1;
                    if (k == 0 && !walk)
                        base = per;
                    if (walk)
                        printf(" %7.1f us x%4.1f", 1e6 * per, per / base);
                    else
                        printf(" %8.1f us x%5.1f", 1e6 * per, per / base);
                }
            printf("\n");
        }
    for (int k = 0; k < 3; k++) {
        ct_train_jobs_free(&tr[k]);
        ct_train_jobs_free(&sat[k]);
    }
    return 0;
}
