/*
 * bench_sim.c - simulator speed: events per second on one core against the
 * 1 M events/s goal, and peak jobs in flight against jobs simulated (memory
 * is bounded by the former).
 */
#include "bench_util.h"
#include "ct_eval.h"

#include <stdio.h>

int main(void)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, "data/scenarios/five-models.json", &err) != CT_OK) {
        fprintf(stderr, "%s (run from the repository root)\n", err.msg);
        return 1;
    }
    printf("simulator: five zoo models, 80 servers (goal: 1 M events/s on one core)\n");
    printf("  %-14s %5s %10s %12s %14s %8s %15s\n", "policy", "load", "jobs", "events", "events/s", "vs goal",
           "peak in flight");
    /* Sparrow moves every input it does not probe (five-models saturates
     * the link under it at 1x): its rows at 10x the bandwidth, next to nona's. */
    const char *pols[] = { "nona", "nona-late", "fair", "fair-delay", "opportunistic", "nona", "sparrow",
                           "sparrow-local" };
    double loads[] = { 0.5, 0.9 }, bw = s.link_bandwidth;
    for (size_t i = 0; i < 8; i++)
        for (size_t l = 0; l < 2; l++) {
            ct_eval_params_t p;
            ct_eval_result_t r;
            ct_eval_params_init(&p);
            p.run.reps = 1;
            p.run.jobs = 100000;
            p.locality_wait = 5; /* fair-delay: stable at both loads (1 saturates the link here) */
            if (i == 5 && l == 0)
                printf("  the same at 10x the link bandwidth:\n");
            s.link_bandwidth = i >= 5 ? 10 * bw : bw;
            if (ct_eval_sweep(&s, &loads[l], 1, 0, &pols[i], 1, &p, NULL, NULL, &r, &err) != CT_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            const ct_eval_point_t *pt = &r.points[0];
            if (pt->unstable)
                printf("  %-14s %5.1f   unstable\n", pols[i], loads[l]);
            else {
                double eps = (double)pt->sum.events / pt->sum.seconds;
                printf("  %-14s %5.1f %10llu %12llu %14.0f %7.1fx %15zu\n", pols[i], loads[l],
                       (unsigned long long)pt->sum.jobs[r.n_classes], (unsigned long long)pt->sum.events, eps,
                       eps / 1e6, pt->sum.max_in_flight);
            }
            ct_eval_result_free(&r);
        }
    s.link_bandwidth = bw;
    ct_scenario_destroy(&s);
    return 0;
}
