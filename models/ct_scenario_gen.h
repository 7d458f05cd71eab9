/*
 * ct_scenario_gen.h - seeded families of generated Nona scenarios, for
 * checking the model against the simulator on workloads nobody tuned it
 * to (tests, `contend sim check --generate`, `make bench`).
 *
 * A "layered" workload: every class is a DAG of S stages (S uniform in
 * [stages_min, stages_max]), stage s holds 1 .. width_max tasks (uniform);
 * every task of stage s > 0 is fed by 1 .. fanin_max distinct tasks of
 * stage s - 1 (uniform; at most the stage's size), and a task of stage
 * s - 1 that feeds none is given to a uniform task of stage s (so no task
 * but the last stage's ends the job early). Task times are lognormal
 * (median time_median, log-sd time_sigma) clipped to [time_min, time_max]
 * seconds; edge bytes log-uniform in [bytes_min, bytes_max]. A scenario
 * has 1 .. classes_max classes (uniform) with relative rates log-uniform in
 * [0.5, 2] jobs/s (a sweep's load scales them), `servers` servers, speed
 * 1, no background of its own, and a link of one of the `n_bandwidths`
 * bandwidths (uniform). Everything is drawn from one xoshiro stream seeded
 * with the scenario's seed, so a (params, seed) pair names one scenario.
 *
 * Two more shapes (ct_scenario_gen_params_t.shape), for comparing
 * schedulers where each kind of workload wins (`contend sim compare`):
 * - "ensemble": a decode task (1-5 ms, log-uniform) sends 0.1-10 MB
 *   (log-uniform) to each of 2-6 models (uniform) of 10-100 ms
 *   (log-uniform), whose 1-100 kB answers meet at a 0.5 ms vote;
 * - "pipeline": a chain of max(5, stages_min) .. max(5, stages_max) stages
 *   of one task each, times and bytes as the layered ones'.
 * The rest (classes, rates, servers, links) as above.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SCENARIO_GEN_H
#define CT_SCENARIO_GEN_H

#include "ct_scenario.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CT_GEN_MAX_BANDWIDTHS 8

typedef enum { CT_GEN_LAYERED = 0, CT_GEN_ENSEMBLE, CT_GEN_PIPELINE } ct_gen_shape_t;

/** "layered", "ensemble", "pipeline"; CT_EINPUT for another name. */
ct_status_t ct_gen_shape_parse(const char *name, ct_gen_shape_t *out);
const char *ct_gen_shape_name(ct_gen_shape_t s);

/** Generator parameters; fill with ct_scenario_gen_params_init(). */
typedef struct {
    unsigned stages_min, stages_max; /**< stages per DAG (default 2 .. 10; 1 .. 64) */
    unsigned width_max;              /**< tasks per stage at most (default 4; 1 .. 64) */
    unsigned fanin_max;              /**< inputs per task at most (default 3; 1 .. 64) */
    unsigned classes_max;            /**< classes per scenario at most (default 3; 1 .. 64) */
    double time_median, time_sigma;  /**< lognormal task time: median s, log-sd (default 0.01, 1.0) */
    double time_min, time_max;       /**< its clip, s (default 0.0005, 0.12) */
    double bytes_min, bytes_max;     /**< log-uniform edge bytes (default 1e4 .. 5e6) */
    size_t servers;                  /**< default 80 */
    size_t n_bandwidths;             /**< 1 .. CT_GEN_MAX_BANDWIDTHS (default 2) */
    double bandwidths[CT_GEN_MAX_BANDWIDTHS]; /**< bytes/s (default 10 and 100 Gbps) */
    ct_gen_shape_t shape;            /**< default layered (see above) */
} ct_scenario_gen_params_t;

void ct_scenario_gen_params_init(ct_scenario_gen_params_t *p);

/** Checks the ranges above; CT_EINPUT naming the field otherwise. */
ct_status_t ct_scenario_gen_params_check(const ct_scenario_gen_params_t *p, ct_error_t *err);

/**
 * Generates the scenario of (p, seed) into out (initialised here; the
 * caller destroys it). Its path is "SHAPE-SEED" (layered-SEED, ...), its
 * classes "cN" with DAGs named the same and dag_path "SHAPE-SEED-cN.json"
 * (as ct_scenario_save writes them), tasks "sI_tJ" (stage I, task J;
 * ensembles: decode, m0 .. m5, vote). Deterministic.
 * Time O(tasks x fanin_max).
 */
ct_status_t ct_scenario_gen_layered(const ct_scenario_gen_params_t *p, uint64_t seed, ct_scenario_t *out,
                                    ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
