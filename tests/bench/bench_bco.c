/*
 * bench_bco.c - SJF-BCO against its baselines on the paper's 160-job,
 * 20-server workload: scheduling time (goal: well under a second) and
 * makespan side by side.
 */
#include "bench_util.h"
#include "ct_bco.h"

#include <stdio.h>

int main(void)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    if (ct_rar_workload(1, 0, &c, &j, &err) != CT_OK)
        return 1;
    printf("SJF-BCO vs baselines: paper workload (160 jobs, 20 servers, %u GPUs, seed 1)\n", c.n_gpus);
    printf("  %-8s %10s %8s %12s %12s %16s\n", "policy", "time", "passes", "makespan", "mean JCT", "makespan / sjf");
    double base = 0;
    for (int p = 0; p < 4; p++) {
        ct_bco_params_t bp;
        ct_bco_params_init(&bp);
        bp.policy = (ct_bco_policy_t)p;
        double t, ms = 0, jct = 0;
        size_t runs = 0;
        BENCH_MIN(t, 3, {
            ct_bco_result_t r;
            if (ct_bco_schedule(&c, &j, &bp, &r, &err) != CT_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            ms = r.makespan;
            jct = r.mean_jct;
            runs = r.runs;
            ct_bco_result_free(&r);
        });
        if (p == 0)
            base = ms;
        printf("  %-8s %8.1f ms %8zu %12.1f %12.1f %15.2fx\n", ct_bco_policy_name(bp.policy), 1e3 * t, runs, ms, jct,
               ms / base);
    }
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return 0;
}
