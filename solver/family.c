/*
 * family.c - summaries over a family of simulated points (ct_family.h).
 *
 * Ratios are compared on the log scale (geometric means), so a policy
 * twice as slow on one scenario and twice as fast on another averages to
 * par.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_family.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void ct_check_summarize(const double *ratio, size_t n, double *scratch, ct_check_summary_t *out)
{
    size_t m = 0;
    out->points = n;
    out->within10 = out->within20 = 0;
    out->worst = 1.0;
    for (size_t i = 0; i < n; i++) {
        double r = ratio[i];
        if (isnan(r))
            continue;
        scratch[m++] = r;
        out->within10 += fabs(r - 1) <= 0.10;
        out->within20 += fabs(r - 1) <= 0.20;
        if (fabs(r - 1) > fabs(out->worst - 1))
            out->worst = r;
    }
    out->carried = m;
    qsort(scratch, m, sizeof(double), cmp_double);
    out->median = m ? (m % 2 ? scratch[m / 2] : 0.5 * (scratch[m / 2 - 1] + scratch[m / 2])) : NAN;
}

void ct_compare_summarize(const double *mean, const double *p99, size_t ns, size_t np, const int *stateful,
                          ct_compare_policy_t *per, ct_compare_best_t *best)
{
    for (size_t k = 0; k < np; k++)
        per[k] = (ct_compare_policy_t){ 0, 0, 0, 0 };
    for (size_t s = 0; s < ns; s++) {
        double bm = INFINITY, bq = INFINITY;
        for (size_t k = 0; k < np; k++)
            if (!isnan(mean[s * np + k])) {
                bm = fmin(bm, mean[s * np + k]);
                bq = fmin(bq, p99[s * np + k]);
            }
        if (!isfinite(bm))
            continue;
        for (size_t k = 0; k < np; k++)
            if (!isnan(mean[s * np + k])) {
                per[k].carried++;
                per[k].mean_ratio += log(mean[s * np + k] / bm); /* sums of logs until the end */
                per[k].p99_ratio += log(p99[s * np + k] / bq);
                per[k].best_at += mean[s * np + k] == bm;
            }
    }
    best->best[0] = best->best[1] = -1;
    for (size_t k = 0; k < np; k++) {
        double c = (double)per[k].carried;
        per[k].mean_ratio = per[k].carried ? exp(per[k].mean_ratio / c) : NAN;
        per[k].p99_ratio = per[k].carried ? exp(per[k].p99_ratio / c) : NAN;
        long *b = &best->best[stateful[k] != 0];
        if (per[k].carried && (*b < 0 || per[k].carried > per[*b].carried ||
                               (per[k].carried == per[*b].carried && per[k].mean_ratio < per[*b].mean_ratio)))
            *b = (long)k;
    }
    best->both = 0;
    best->mean_ratio = best->p99_ratio = NAN;
    if (best->best[0] < 0 || best->best[1] < 0)
        return;
    double r = 0, rq = 0;
    size_t a = (size_t)best->best[0], b = (size_t)best->best[1];
    for (size_t s = 0; s < ns; s++)
        if (!isnan(mean[s * np + a]) && !isnan(mean[s * np + b])) {
            r += log(mean[s * np + a] / mean[s * np + b]);
            rq += log(p99[s * np + a] / p99[s * np + b]);
            best->both++;
        }
    if (best->both) {
        best->mean_ratio = exp(r / (double)best->both);
        best->p99_ratio = exp(rq / (double)best->both);
    }
}
