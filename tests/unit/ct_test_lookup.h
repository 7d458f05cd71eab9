/*
 * ct_test_lookup.h - a lookup file for tests: data/scenarios/fig1.json
 * solved at the given arrival rates, one scenario per rate (what `contend
 * nona sweep` writes). Include after ct_test.h.
 */
#ifndef CT_TEST_LOOKUP_H
#define CT_TEST_LOOKUP_H

#include "ct_json.h"
#include "ct_nona_table.h"

/* Solves scenario file path at the given rates of its first class into a
 * lookup file text with one scenario per rate; late: tables for late-bound
 * parts. */
static inline char *make_lookup_of(const char *path, const double *rates, size_t n, int late)
{
    ct_error_t err;
    ct_scenario_t base;
    ct_nona_model_params_t mp;
    ct_nona_model_params_init(&mp);
    mp.late_parts = late != 0;
    mp.late_probes = late == 2; /* (2: late parts placed by probes) */
    ct_scenario_init(&base);
    if (ct_scenario_load(&base, path, &err) != CT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    cJSON **entries = calloc(n, sizeof(cJSON *));
    for (size_t i = 0; i < n; i++) {
        ct_scenario_t s;
        ct_nona_model_t m;
        ct_nona_solution_t sol;
        CHECK(ct_scenario_scaled(&base, rates[i] / base.classes[0].rate, &s, &err) == CT_OK);
        CHECK(ct_nona_model_build(&s, &mp, &m, &err) == CT_OK);
        CHECK(ct_nona_solve(&m, NULL, &sol, &err) == CT_OK);
        CHECK(ct_nona_table_entry(&s, rates[i] / base.classes[0].rate, &m, &sol, &entries[i], &err) == CT_OK);
        ct_nona_solution_free(&sol);
        ct_nona_model_free(&m);
        ct_scenario_destroy(&s);
    }
    cJSON *doc;
    char *text = NULL;
    CHECK(ct_nona_table_document(entries, n, &doc, &err) == CT_OK);
    CHECK(ct_json_render(doc, &text, &err) == CT_OK);
    cJSON_Delete(doc);
    free(entries);
    ct_scenario_destroy(&base);
    return text;
}

/* data/scenarios/fig1.json at the given rates (early binding). */
static inline char *make_lookup(const double *rates, size_t n)
{
    return make_lookup_of("data/scenarios/fig1.json", rates, n, 0);
}

#endif
