/*
 * ct_stats.h - streaming statistics for simulations: count, mean and
 * variance (Welford), and quantiles from a log-binned histogram, so a run of
 * any length keeps O(1) memory per metric.
 *
 * Histogram bins are geometric with ratio 1 + 1/512 between 1e-9 s and 1e6 s
 * (about 17,700 bins), so a reported quantile is within 0.2% of the true
 * sample quantile; values outside the range land in the end bins.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_STATS_H
#define CT_STATS_H

#include "ct_base.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t n;
    double mean, m2;      /**< Welford running mean and sum of squared deviations */
    double min, max;
    uint32_t *bins;       /**< NULL until the first add (lazily allocated) */
} ct_stats_t;

void ct_stats_init(ct_stats_t *s);
void ct_stats_free(ct_stats_t *s);
/** Adds one value (>= 0). CT_ENOMEM if the histogram cannot be allocated. */
ct_status_t ct_stats_add(ct_stats_t *s, double x);
/** Merges src into dst (histograms and moments). */
ct_status_t ct_stats_merge(ct_stats_t *dst, const ct_stats_t *src);
/** Sample variance (n - 1 denominator); 0 for n < 2. */
double ct_stats_variance(const ct_stats_t *s);
/** The q-quantile (0 <= q <= 1) from the histogram; NAN when empty. */
double ct_stats_quantile(const ct_stats_t *s, double q);

/** Means by label and column, for tables over many runs (train sweep,
 *  train table): rows keep the order their labels first came in; a NAN
 *  value is left out of its column's mean. */
typedef struct {
    size_t n_rows, n_cols, cap;
    char **labels;      /**< n_rows, owned */
    double *sum;        /**< n_rows x n_cols */
    size_t *cnt;        /**< n_rows x n_cols: values summed */
} ct_means_t;

void ct_means_init(ct_means_t *m, size_t n_cols);
void ct_means_free(ct_means_t *m);
/** Adds n_cols values (NAN: none) to label's row, made if new. The label
 *  is copied. CT_ENOMEM. O(rows) a call. */
ct_status_t ct_means_add(ct_means_t *m, const char *label, const double *v, ct_error_t *err);
/** The mean of a row's column; NAN when it had no value. */
double ct_means_get(const ct_means_t *m, size_t row, size_t col);

/** Half-width of a 95% confidence interval for the mean of k independent
 *  replication values with the given sample standard deviation (Student t). */
double ct_stats_ci95(double stddev, size_t k);

#ifdef __cplusplus
}
#endif
#endif
