/*
 * ct_test_scenario.h - an in-memory scenario for unit tests: copies of the
 * given DAGs as classes c0, c1, ... with the given rates.
 */
#ifndef CT_TEST_SCENARIO_H
#define CT_TEST_SCENARIO_H

#include "ct_scenario.h"
#include "ct_test.h"

static inline void ct_test_scenario(ct_scenario_t *s, const ct_dag_t *dags, const double *rates, size_t n,
                                    size_t servers, double bw, double rho_bg, double m2_bg)
{
    ct_error_t err;
    ct_scenario_init(s);
    s->path = ct_strdup("test", &err);
    s->servers = servers;
    s->link_bandwidth = bw;
    s->speed = 1.0;
    s->rho_bg = rho_bg;
    s->m2_bg = m2_bg;
    s->n_classes = n;
    s->classes = calloc(n, sizeof(ct_class_t));
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%zu", i);
        s->classes[i].name = ct_strdup(name, &err);
        s->classes[i].dag_path = ct_strdup("mem", &err);
        s->classes[i].rate = rates[i];
        CHECK(ct_dag_copy(&s->classes[i].dag, &dags[i], &err) == CT_OK);
    }
}

#endif
