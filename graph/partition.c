/*
 * partition.c - enumeration of a segment's placement triplets (ct_split.h).
 *
 * Set partitions are generated as restricted growth strings (a[0] = 0,
 * a[i] <= 1 + max(a[0..i-1])), which lists each partition exactly once; for
 * a partition with q parts the q^2 choices of (k, l) follow. The count is
 * checked against the limit before anything is allocated.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_split.h"

#include <stdlib.h>
#include <string.h>

void ct_partition_params_init(ct_partition_params_t *p)
{
    p->max_triplets = 100000;
}

double ct_partition_triplet_count(size_t n)
{
    if (n == 0)
        return 1.0;
    /* Stirling numbers of the second kind, one row at a time:
     * S(i, q) = q S(i-1, q) + S(i-1, q-1). */
    double *s = calloc(n + 2, sizeof(double));
    if (!s)
        return -1.0;
    s[0] = 1.0;
    for (size_t i = 1; i <= n; i++) {
        for (size_t q = i; q >= 1; q--)
            s[q] = (double)q * s[q] + s[q - 1];
        s[0] = 0.0;
    }
    double total = 0.0;
    for (size_t q = 1; q <= n; q++)
        total += s[q] * (double)q * (double)q;
    free(s);
    return total;
}

void ct_partitions_free(ct_partitions_t *pt)
{
    if (!pt)
        return;
    free(pt->assign);
    free(pt->n_parts);
    free(pt->triplets);
    memset(pt, 0, sizeof *pt);
}

static double bell_number(size_t n)
{
    /* Bell triangle, in doubles (only used below the triplet limit). */
    double *row = malloc((n + 1) * sizeof(double)), *next = malloc((n + 1) * sizeof(double));
    double b = 1.0;
    if (!row || !next) {
        free(row);
        free(next);
        return -1.0;
    }
    row[0] = 1.0;
    for (size_t i = 1; i <= n; i++) {
        next[0] = row[i - 1];
        for (size_t j = 1; j <= i; j++)
            next[j] = next[j - 1] + row[j - 1];
        memcpy(row, next, (i + 1) * sizeof(double));
    }
    b = row[0];
    free(row);
    free(next);
    return b;
}

int ct_partition_next(uint8_t *a, uint8_t *mx, size_t n)
{
    /* bump the last position that can grow, reset the ones after it */
    size_t i = n - 1;
    while (i > 0 && a[i] > mx[i - 1])
        i--;
    if (i == 0)
        return 0;
    a[i]++;
    mx[i] = a[i] > mx[i - 1] ? a[i] : mx[i - 1];
    for (size_t j = i + 1; j < n; j++) {
        a[j] = 0;
        mx[j] = mx[i];
    }
    return 1;
}

ct_status_t ct_partitions_enumerate(size_t n, const ct_partition_params_t *p, const char *label,
                                    ct_partitions_t *out, ct_error_t *err)
{
    ct_partition_params_t defaults;
    if (!p) {
        ct_partition_params_init(&defaults);
        p = &defaults;
    }
    memset(out, 0, sizeof *out);
    double want = ct_partition_triplet_count(n);
    if (want < 0)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    if (want > (double)p->max_triplets || n > 250)
        return ct_error_set(err, CT_ELIMIT,
                            "%s: %zu intermediate tasks need %.0f placement triplets, over the limit of %zu "
                            "(raise --max-triplets, or contract the DAG further)",
                            label, n, want, p->max_triplets);
    size_t nt = (size_t)want, np = n ? (size_t)bell_number(n) : 1;
    out->n_inner = n;
    out->assign = malloc(np * (n ? n : 1));
    out->n_parts = malloc(np);
    out->triplets = malloc(nt * sizeof(ct_triplet_t));
    uint8_t *a = calloc(n + 1, 1), *mx = calloc(n + 1, 1); /* mx[i] = max(a[0..i]) */
    if (!out->assign || !out->n_parts || !out->triplets || !a || !mx) {
        free(a);
        free(mx);
        ct_partitions_free(out);
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory for %zu triplets", label, nt);
    }
    if (n == 0) {
        out->n_partitions = 1;
        out->n_parts[0] = 0;
        out->n_triplets = 1;
        out->triplets[0] = (ct_triplet_t){ 0, 0, 0 };
        free(a);
        free(mx);
        return CT_OK;
    }
    size_t ip = 0, it = 0;
    for (;;) {
        uint8_t q = (uint8_t)(mx[n - 1] + 1);
        memcpy(out->assign + ip * n, a, n);
        out->n_parts[ip] = q;
        for (unsigned k = 0; k < q; k++)
            for (unsigned l = 0; l < q; l++)
                out->triplets[it++] = (ct_triplet_t){ (uint32_t)ip, (uint8_t)k, (uint8_t)l };
        ip++;
        if (!ct_partition_next(a, mx, n))
            break;
    }
    free(a);
    free(mx);
    out->n_partitions = ip;
    out->n_triplets = it;
    if (ip != np || it != nt) {
        ct_partitions_free(out);
        return ct_error_set(err, CT_EINTERNAL, "%s: enumerated %zu partitions / %zu triplets, expected %zu / %zu",
                            label, ip, it, np, nt);
    }
    return CT_OK;
}
