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
    /* Sparrow moves every input it does not probe: on the layer-level zoo
     * DAGs that saturates the servers (fetching) even at 10x the link, so
     * its rows run on n-shape (a 4-task segment) beside nona's. */
    const char *pols[] = { "nona", "nona-late", "fair", "fair-delay", "opportunistic", "nona", "sparrow",
                           "sparrow-local", "nona-late", "nona-late", "fair", "nona-late" };
    /* then: late parts bound by the least loaded of d = 32 and by probes on
     * 32 servers a part (contend sim --late-bind probes); the last two with
     * a 0.1 ms round trip (contend sim --rtt: more events a job) */
    const char *label[] = { "nona", "nona-late", "fair", "fair-delay", "opportunistic", "nona", "sparrow",
                            "sparrow-local", "late, d = 32", "late probes 32", "fair, rtt", "probes 32, rtt" };
    double loads[] = { 0.5, 0.9 }, loads_n[] = { 0.1, 0.5 };
    ct_scenario_t n_shape;
    ct_scenario_init(&n_shape);
    if (ct_scenario_load(&n_shape, "data/scenarios/n-shape.json", &err) != CT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    for (size_t i = 0; i < 12; i++)
        for (size_t l = 0; l < 2; l++) {
            ct_eval_params_t p;
            ct_eval_result_t r;
            ct_eval_params_init(&p);
            p.run.reps = 1;
            p.run.jobs = 100000;
            p.locality_wait = 5; /* fair-delay: stable at both loads (1 saturates the link here) */
            if (i >= 8 && i != 10) {
                p.root_choices = 32;
                p.late_bind = i == 9 || i == 11 ? CT_LATE_BIND_PROBES : CT_SIM_LATE_BIND_DEFAULT;
            }
            if (i >= 10)
                p.rtt = 1e-4;
            if (i == 5 && l == 0)
                printf("  n-shape (4 inner tasks, 80 servers, 10 Gbps):\n");
            const double *ld = i >= 5 ? loads_n : loads;
            if (ct_eval_sweep(i >= 5 ? &n_shape : &s, &ld[l], 1, 0, &pols[i], 1, &p, NULL, NULL, &r, &err) != CT_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            const ct_eval_point_t *pt = &r.points[0];
            if (pt->unstable)
                printf("  %-14s %5.1f   unstable\n", label[i], ld[l]);
            else {
                double eps = (double)pt->sum.events / pt->sum.seconds;
                printf("  %-14s %5.1f %10llu %12llu %14.0f %7.1fx %15zu\n", label[i], ld[l],
                       (unsigned long long)pt->sum.jobs[r.n_classes], (unsigned long long)pt->sum.events, eps,
                       eps / 1e6, pt->sum.max_in_flight);
            }
            ct_eval_result_free(&r);
        }
    ct_scenario_destroy(&n_shape);
    ct_scenario_destroy(&s);
    return 0;
}
