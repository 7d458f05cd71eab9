/*
 * ct_family.h - summaries over a family of simulated points, for `contend
 * sim check` (the model against the simulator: how many points within 10%
 * and 20%, the median and the worst ratio) and `contend sim compare` (each
 * policy against the best on every scenario, and the best stateless and
 * stateful policy). The commands print them; the arithmetic is here.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_FAMILY_H
#define CT_FAMILY_H

#include "ct_base.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t points;          /**< points summarised */
    size_t carried;         /**< with a ratio (the others did not settle) */
    double median;          /**< median ratio (NAN when none) */
    double worst;           /**< the ratio farthest from 1 (1 when none) */
    size_t within10, within20; /**< |ratio - 1| <= 0.10, 0.20 */
} ct_check_summary_t;

/**
 * Summarises simulated / predicted ratios, ratio[0..n), NAN for a point
 * that did not settle. scratch: n doubles of the caller's. O(n log n).
 */
void ct_check_summarize(const double *ratio, size_t n, double *scratch, ct_check_summary_t *out);

typedef struct {
    size_t carried;         /**< scenarios it carried (a finite mean) */
    size_t best_at;         /**< scenarios where its mean was the lowest */
    double mean_ratio;      /**< geometric mean over carried of mean / the scenario's best mean */
    double p99_ratio;       /**< the same for p99 (the scenario's best p99 of any policy) */
} ct_compare_policy_t;

typedef struct {
    long best[2];           /**< the best stateless [0] and stateful [1] policy, -1 if none carried
                                 any scenario: most scenarios carried, then the lowest mean_ratio */
    double mean_ratio, p99_ratio; /**< geometric means of best[0] over best[1] where both carried */
    size_t both;            /**< scenarios both carried */
} ct_compare_best_t;

/**
 * Each of np policies over ns scenarios: mean[s * np + k] and
 * p99[s * np + k] (NAN: policy k did not carry scenario s); stateful[k]
 * which kind it is. Fills per[0..np) and *best. O(ns np).
 */
void ct_compare_summarize(const double *mean, const double *p99, size_t ns, size_t np, const int *stateful,
                          ct_compare_policy_t *per, ct_compare_best_t *best);

#ifdef __cplusplus
}
#endif
#endif
