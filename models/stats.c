/*
 * stats.c - streaming statistics (see ct_stats.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LO 1e-9
#define HI 1e6
#define STEPS_PER_E 512.0 /* bins per factor e: ratio exp(1/512) ~ 1 + 1/512 */

static size_t nbins(void)
{
    return (size_t)(log(HI / LO) * STEPS_PER_E) + 2;
}

void ct_stats_init(ct_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->min = INFINITY;
    s->max = -INFINITY;
}

void ct_stats_free(ct_stats_t *s)
{
    free(s->bins);
    ct_stats_init(s);
}

static size_t bin_of(double x)
{
    if (!(x > LO))
        return 0;
    size_t b = (size_t)(log(x / LO) * STEPS_PER_E) + 1, nb = nbins();
    return b < nb ? b : nb - 1;
}

static double bin_value(size_t b)
{
    if (b == 0)
        return LO;
    /* geometric middle of bin b: [LO e^((b-1)/K), LO e^(b/K)) */
    return LO * exp(((double)b - 0.5) / STEPS_PER_E);
}

ct_status_t ct_stats_add(ct_stats_t *s, double x)
{
    if (!s->bins && !(s->bins = calloc(nbins(), sizeof(uint32_t))))
        return CT_ENOMEM;
    s->n++;
    double d = x - s->mean;
    s->mean += d / (double)s->n;
    s->m2 += d * (x - s->mean);
    if (x < s->min)
        s->min = x;
    if (x > s->max)
        s->max = x;
    s->bins[bin_of(x)]++;
    return CT_OK;
}

ct_status_t ct_stats_merge(ct_stats_t *dst, const ct_stats_t *src)
{
    if (src->n == 0)
        return CT_OK;
    if (!dst->bins && !(dst->bins = calloc(nbins(), sizeof(uint32_t))))
        return CT_ENOMEM;
    double n1 = (double)dst->n, n2 = (double)src->n, d = src->mean - dst->mean;
    dst->m2 += src->m2 + d * d * n1 * n2 / (n1 + n2);
    dst->mean += d * n2 / (n1 + n2);
    dst->n += src->n;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    for (size_t b = 0, nb = nbins(); b < nb; b++)
        dst->bins[b] += src->bins[b];
    return CT_OK;
}

double ct_stats_variance(const ct_stats_t *s)
{
    return s->n > 1 ? s->m2 / (double)(s->n - 1) : 0.0;
}

double ct_stats_quantile(const ct_stats_t *s, double q)
{
    if (s->n == 0 || !s->bins)
        return NAN;
    if (q <= 0)
        return s->min;
    if (q >= 1)
        return s->max;
    double target = q * (double)s->n;
    uint64_t acc = 0;
    for (size_t b = 0, nb = nbins(); b < nb; b++) {
        acc += s->bins[b];
        if ((double)acc >= target) {
            double v = bin_value(b);
            return v < s->min ? s->min : v > s->max ? s->max : v;
        }
    }
    return s->max;
}

double ct_stats_ci95(double stddev, size_t k)
{
    if (k < 2)
        return INFINITY;
    return gsl_cdf_tdist_Pinv(0.975, (double)(k - 1)) * stddev / sqrt((double)k);
}

void ct_means_init(ct_means_t *m, size_t n_cols)
{
    memset(m, 0, sizeof *m);
    m->n_cols = n_cols;
}

void ct_means_free(ct_means_t *m)
{
    for (size_t r = 0; r < m->n_rows; r++)
        free(m->labels[r]);
    free(m->labels);
    free(m->sum);
    free(m->cnt);
    memset(m, 0, sizeof *m);
}

ct_status_t ct_means_add(ct_means_t *m, const char *label, const double *v, ct_error_t *err)
{
    size_t r = 0, c = m->n_cols;
    while (r < m->n_rows && strcmp(m->labels[r], label))
        r++;
    if (r == m->n_rows) {
        if (r == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 8;
            char **l = realloc(m->labels, cap * sizeof(char *));
            if (l)
                m->labels = l;
            double *s = l ? realloc(m->sum, cap * c * sizeof(double)) : NULL;
            if (s)
                m->sum = s;
            size_t *k = s ? realloc(m->cnt, cap * c * sizeof(size_t)) : NULL;
            if (!k)
                return ct_error_set(err, CT_ENOMEM, "out of memory");
            m->cnt = k;
            m->cap = cap;
        }
        if (!(m->labels[r] = ct_strdup(label, err)))
            return CT_ENOMEM;
        for (size_t j = 0; j < c; j++) {
            m->sum[r * c + j] = 0;
            m->cnt[r * c + j] = 0;
        }
        m->n_rows++;
    }
    for (size_t j = 0; j < c; j++)
        if (!isnan(v[j])) {
            m->sum[r * c + j] += v[j];
            m->cnt[r * c + j]++;
        }
    return CT_OK;
}

double ct_means_get(const ct_means_t *m, size_t row, size_t col)
{
    size_t k = row * m->n_cols + col;
    return m->cnt[k] ? m->sum[k] / (double)m->cnt[k] : NAN;
}
