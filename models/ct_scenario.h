/*
 * ct_scenario.h - a Nona scenario: cluster, background link traffic and job
 * classes with their DAGs and Poisson arrival rates.
 *
 * File format (JSON, documented in docs/formats.md):
 *   {"cluster": {"servers": 80,               identical servers (integer >= 1)
 *                "link_bandwidth": 1.25e9,    bottleneck link, bytes/s
 *                "speed": 1.0},               task takes time/speed seconds
 *    "background": {"link_load": 0.05,        rho_bg, fraction of link time
 *                   "link_second_moment": 2e-5,   m2_bg = sum lambda S^2, s
 *                   "server_load": 0.01,          per server: compute time taken
 *                   "server_second_moment": 1e-7},   per server: sum lambda S^2, s
 *    "classes": [{"name": "resnet18",
 *                 "dag": "dags/resnet18.json",    relative to this file;
 *                                                  JSON DAG or PipeDream .txt
 *                 "arrival_rate": 20.0}]}          jobs/s, > 0
 * "background" and "speed" are optional (0 and 1.0).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SCENARIO_H
#define CT_SCENARIO_H

#include "ct_dag.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One job class. Invariants: name unique and non-empty; rate > 0 finite;
 *  dag valid (ct_dag_validate). */
typedef struct {
    char *name;
    char *dag_path;     /**< as written in the file */
    double rate;        /**< beta_j, jobs/s */
    ct_dag_t dag;       /**< the class's original DAG */
} ct_class_t;

/** A scenario. Invariants (ct_scenario_validate): servers >= 1; bandwidth,
 *  speed > 0 finite; 0 <= rho_bg, rho_bg_s < 1; m2_bg, m2_bg_s >= 0;
 *  n_classes >= 1. */
typedef struct {
    char *path;               /**< file it came from (for messages) */
    size_t servers;           /**< N */
    double link_bandwidth;    /**< mu, bytes/s */
    double speed;             /**< nu: task time = reference time / speed */
    double rho_bg;            /**< background link load */
    double m2_bg;             /**< background sum of lambda S^2, seconds */
    double rho_bg_s;          /**< background compute load per server, fraction of its time */
    double m2_bg_s;           /**< per server: background sum of lambda S^2, seconds */
    size_t n_classes;
    ct_class_t *classes;
} ct_scenario_t;

void ct_scenario_init(ct_scenario_t *s);
void ct_scenario_destroy(ct_scenario_t *s);

/** Loads a scenario file and every DAG it names (paths relative to the
 *  scenario's folder). Errors name the file, the field and the reason.
 *  s must be initialised (ct_scenario_init) or hold a scenario, which is
 *  destroyed first. */
ct_status_t ct_scenario_load(ct_scenario_t *s, const char *path, ct_error_t *err);

/** Checks the invariants above; label starts messages. */
ct_status_t ct_scenario_validate(const ct_scenario_t *s, const char *label, ct_error_t *err);

/** The scenario as a JSON object of the file format (classes name their
 *  dag_path), or NULL out of memory. Caller frees with cJSON_Delete. */
struct cJSON *ct_scenario_to_json(const ct_scenario_t *s);

/** Writes every class's DAG to dir/dag_path and the scenario to dir/name
 *  (each atomically), so ct_scenario_load(dir/name) reads it back. Classes
 *  that name one DAG file must hold the same DAG (it is written once);
 *  otherwise CT_EINPUT, naming both classes, and nothing is written.
 *  Time: O(n^2) path comparisons for n classes. */
ct_status_t ct_scenario_save(const ct_scenario_t *s, const char *dir, const char *name, ct_error_t *err);

/** Deep copy with every arrival rate multiplied by scale (> 0). */
ct_status_t ct_scenario_scaled(const ct_scenario_t *s, double scale, ct_scenario_t *out, ct_error_t *err);

/** A 64-bit hash of everything the model depends on (cluster, background,
 *  rates, and every DAG's tasks, times, edges and bytes), as 16 hex digits
 *  in buf (>= 17 bytes). Equal inputs give equal hashes across runs. */
void ct_scenario_hash(const ct_scenario_t *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
