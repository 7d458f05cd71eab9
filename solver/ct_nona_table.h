/*
 * ct_nona_table.h - placement tables and lookup files ("contend-table/1").
 *
 * A lookup file is one JSON document holding one or more scenarios (a sweep
 * of arrival-rate scale factors); a single table is a lookup file with one.
 * Layout (units: seconds, bytes/s, jobs/s; docs/formats.md has the full text):
 *   {"format": "contend-table/1", "generator": "contend 0.1.0",
 *    "scenarios": [{
 *      "scale": 1.0, "hash": "16 hex digits of the inputs",
 *      "inputs": {"cluster": {...}, "background": {...},
 *                 "classes": [{"name", "dag", "arrival_rate"}]},
 *      "model": {"method", "objective", "mean_jct", "rho", "phi",
 *                "phi_bracket": [lo, hi], "local_mean_jct", "solve_seconds"},
 *      "classes": [{"name", "arrival_rate", "predicted_mean_jct",
 *         "tasks": [every original task id, topological order],
 *         "root": [original ids placed on the job's root server],
 *         "segments": [{"source": [ids], "sink": [ids],
 *            "triplets": [{"probability", "k", "l",
 *                          "parts": [[ids], ...], "predicted_time"}]}]}]}]}
 * Only triplets with positive probability are listed. Part k shares the
 * segment source's server, the other parts go to distinct other servers,
 * the sink goes with part l; with no parts the sink stays on the source's
 * server.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_TABLE_H
#define CT_NONA_TABLE_H

#include "ct_json.h"
#include "ct_nona_solve.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CT_TABLE_FORMAT "contend-table/1"

/** One scenario entry's text (caller frees *text; *len its bytes), as the
 *  lookup document prints it among its "scenarios" (cJSON_Print's layout,
 *  nested two deep), written without a cJSON tree: a 1000-class table is
 *  hundreds of thousands of values. Time O(the text). */
ct_status_t ct_nona_table_entry_text(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                                     const ct_nona_solution_t *sol, char **text, size_t *len, ct_error_t *err);
/** Writes the lookup document of n entry texts (ct_nona_table_entry_text)
 *  to fp, as ct_nona_table_document and ct_json_render print it. Stream
 *  errors stay in fp's error flag for the caller's commit to report. */
ct_status_t ct_nona_table_write(FILE *fp, const char *const *entries, const size_t *lens, size_t n, ct_error_t *err);
/** A one-scenario document's text (caller frees it), as the file holds it. */
ct_status_t ct_nona_table_text(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                               const ct_nona_solution_t *sol, char **text, size_t *len, ct_error_t *err);
/** The entry as a cJSON tree (caller owns *out: cJSON_Delete): its text
 *  parsed, numbers kept as written. */
ct_status_t ct_nona_table_entry(const ct_scenario_t *s, double scale, const ct_nona_model_t *m,
                                const ct_nona_solution_t *sol, cJSON **out, ct_error_t *err);

/** Wraps entries (ownership passes to the document) into a versioned
 *  document. On error the entries are freed too. */
ct_status_t ct_nona_table_document(cJSON **entries, size_t n, cJSON **doc, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
