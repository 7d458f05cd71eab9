/*
 * bench_bco.c - SJF-BCO's scheduling time as the workload grows (the
 * paper's 160 jobs on 20 servers, then 1000 on 100 and 5000 on 200, the
 * paper's job mix), the indexed GPU selection against the reference scan
 * of every GPU side by side (same schedules; see tests/unit/bco.c), and the
 * four policies' makespans on the paper workload.
 *
 * Goals: 160 jobs <= 20 ms, 5000 jobs on 200 servers <= 2 s.
 */
#include "bench_util.h"
#include "ct_bco.h"

#include <stdio.h>

static int run(const ct_rar_cluster_t *c, const ct_rar_jobs_t *j, ct_bco_params_t *bp, int reps, double *t,
               ct_bco_result_t *keep)
{
    ct_error_t err;
    int ok = 1;
    BENCH_MIN(*t, reps, {
        ct_bco_result_free(keep);
        if (ct_bco_schedule(c, j, bp, keep, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            ok = 0;
        }
    });
    return ok;
}

int main(void)
{
    static const struct {
        size_t jobs, servers;
        int reference;
    } sizes[] = { { 160, 20, 1 }, { 1000, 100, 1 }, { 5000, 200, 0 } };
    printf("SJF-BCO scheduling time by size (paper job mix and calibration, seed 1)\n");
    printf("  %6s %7s %6s %11s %8s %10s %13s %9s\n", "jobs", "servers", "GPUs", "indexed", "passes", "makespan",
           "reference", "ratio");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        ct_error_t err;
        ct_rar_workload_params_t wp;
        ct_rar_workload_params_init(&wp);
        wp.n_jobs = sizes[k].jobs;
        wp.n_servers = sizes[k].servers;
        if (ct_rar_workload(1, &wp, &c, &j, &err) != CT_OK)
            return 1;
        ct_bco_params_t bp;
        ct_bco_params_init(&bp);
        bp.horizon = CT_BCO_HORIZON_AUTO;
        ct_bco_result_t r = { 0 }, rr = { 0 };
        double t, tr = 0;
        if (!run(&c, &j, &bp, k == 0 ? 5 : 1, &t, &r))
            return 1;
        printf("  %6zu %7zu %6u %8.1f ms %8zu %10.1f", j.n, c.n_servers, c.n_gpus, 1e3 * t, r.runs, r.makespan);
        if (sizes[k].reference) {
            bp.reference = 1;
            if (!run(&c, &j, &bp, k == 0 ? 5 : 1, &tr, &rr))
                return 1;
            printf(" %10.1f ms %8.1fx%s\n", 1e3 * tr, tr / t, rr.makespan == r.makespan ? "" : " (makespans differ!)");
        } else {
            printf(" %13s %9s\n", "(skipped)", "");
        }
        ct_bco_result_free(&r);
        ct_bco_result_free(&rr);
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
    }

    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    if (ct_rar_workload(1, NULL, &c, &j, &err) != CT_OK)
        return 1;
    printf("\nSJF-BCO vs baselines: paper workload (160 jobs, 20 servers, %u GPUs, seed 1)\n", c.n_gpus);
    printf("  %-8s %10s %8s %12s %12s %16s\n", "policy", "time", "passes", "makespan", "mean JCT", "makespan / sjf");
    double base = 0;
    for (int p = 0; p < 4; p++) {
        ct_bco_params_t bp;
        ct_bco_params_init(&bp);
        bp.policy = (ct_bco_policy_t)p;
        ct_bco_result_t r = { 0 };
        double t;
        if (!run(&c, &j, &bp, 3, &t, &r))
            return 1;
        if (p == 0)
            base = r.makespan;
        printf("  %-8s %8.1f ms %8zu %12.1f %12.1f %15.2fx\n", ct_bco_policy_name(bp.policy), 1e3 * t, r.runs,
               r.makespan, r.mean_jct, r.makespan / base);
        ct_bco_result_free(&r);
    }
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return 0;
}
