/*
 * ct_test_fleet.h - the fleets of issues #9 and #27 for tests and
 * benchmarks: n classes, each a DAG of 10 segments of 2-3 parallel tasks,
 * drawn from one xorshift stream, so that a test and a benchmark of the
 * same shape solve the same fleet.
 */
#ifndef CT_TEST_FLEET_H
#define CT_TEST_FLEET_H

#include "ct_scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A fleet's shape: total arrival rate `rate` jobs/s spread unevenly over
 * the classes (x 0.5 .. 1.5), task times t0 + 0..4 ms, edges into the
 * parallel tasks in_b x 1..in_n bytes and out of them out_b x 1..out_n,
 * 10 Gbps, `servers` servers. */
typedef struct {
    const char *name;
    size_t servers;
    double rate, t0, in_b, out_b;
    int in_n, out_n;
} ct_test_fleet_shape_t;

static inline double ct_test_fleet_urand(unsigned long long *st)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return (double)(*st >> 11) * 0x1.0p-53;
}

/* The fleet of n classes of shape f into s (the caller destroys it). */
static inline void ct_test_fleet(ct_scenario_t *s, size_t n, const ct_test_fleet_shape_t *f)
{
    ct_error_t err;
    unsigned long long st = 0x9E3779B97F4A7C15ULL;
    ct_scenario_init(s);
    s->path = ct_strdup(f->name, &err);
    s->servers = f->servers;
    s->link_bandwidth = 1.25e9;
    s->speed = 1;
    s->rho_bg = 0.05;
    s->m2_bg = 1e-6;
    s->n_classes = n;
    s->classes = calloc(n, sizeof(ct_class_t));
    for (size_t c = 0; c < n; c++) {
        ct_class_t *k = &s->classes[c];
        char id[48];
        size_t prev, join, par[3];
        snprintf(id, sizeof id, "c%zu", c);
        k->name = ct_strdup(id, &err);
        snprintf(id, sizeof id, "c%zu.json", c); /* (each class its own DAG) */
        k->dag_path = ct_strdup(id, &err);
        k->rate = f->rate / (double)n * (0.5 + ct_test_fleet_urand(&st));
        ct_dag_init(&k->dag);
        ct_dag_add_task(&k->dag, "in", 0.0005, &prev, &err);
        for (size_t g = 0; g < 10; g++) {
            size_t width = ct_test_fleet_urand(&st) < 0.5 ? 2 : 3;
            for (size_t t = 0; t < width; t++) {
                snprintf(id, sizeof id, "g%zu.t%zu", g, t);
                ct_dag_add_task(&k->dag, id, f->t0 + 0.001 * floor(5 * ct_test_fleet_urand(&st)), &par[t], &err);
                ct_dag_add_edge(&k->dag, prev, par[t], f->in_b * (1 + floor(f->in_n * ct_test_fleet_urand(&st))),
                                &err);
            }
            snprintf(id, sizeof id, "g%zu.join", g);
            ct_dag_add_task(&k->dag, id, 0.0002, &join, &err);
            for (size_t t = 0; t < width; t++)
                ct_dag_add_edge(&k->dag, par[t], join, f->out_b * (1 + floor(f->out_n * ct_test_fleet_urand(&st))),
                                &err);
            prev = join;
        }
    }
}

/* Issue #27's mixed-optimum fleet at `scale` times its load (about 105
 * jobs/s in all on 80 servers at scale 1): 1-5 ms tasks, edges of 0.1-2
 * MB; splitting pays about 15% of the mean JCT and the optimum mixes. */
static inline void ct_test_fleet_mixed(ct_scenario_t *s, size_t n, double scale)
{
    const ct_test_fleet_shape_t f = { "fleet-mixed", 80, 105.0 * scale, 0.001, 1e5, 1e5, 20, 20 };
    ct_test_fleet(s, n, &f);
}

#endif
