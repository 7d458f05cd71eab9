/*
 * block_lp.c - the exact block LP solver (see ct_block_lp.h for the method).
 *
 * Layout of the workspace: every per-column array is indexed like the
 * problem's columns; a block's lower envelope is stored in hcol/hy at its
 * own columns' positions (an envelope never has more entries than its
 * block has columns): hcol[start[b] + i] is the i-th column of the
 * envelope, hy[...] the multiplier from which it is the cheapest (0 for the
 * first). by/bd hold every envelope breakpoint (its multiplier and the drop
 * in A it brings) for the weighted selection, which reorders them.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_block_lp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The two-row search's guard; it settles in a handful of steps. */
#define MAX_STEPS 200
/* The hint's search: its first step from the hint (relative; the hints
 * of a box search's LPs are mostly 1-10% off), the factor each later step
 * grows by, and how far past the zero of the slopes' line through two
 * points on one side the next step goes (steps measured on the mixed
 * fleets and the random family: 3e-2 and 1.2 take a quarter fewer one-row
 * solves than 1e-3 without the line; 5e-2 lengthened some searches) */
#define HINT_STEP 3e-2
#define HINT_GROW 8.0
#define HINT_OVERSHOOT 1.2

struct ct_block_lp {
    size_t nb, n;           /* blocks, columns of the current offsets */
    size_t cap;             /* columns allocated for (n <= cap) */
    size_t *start;          /* nb + 1 column offsets */
    size_t *hcol, *hlen;    /* envelopes: columns (n), lengths (nb) */
    double *hy;             /* envelopes: entry multipliers (n) */
    double *by, *bd;        /* breakpoints: multiplier, drop in A (n) */
    double *d;              /* the one-row solve's costs c + y2 A2 (n) */
    double *xa, *xb, *xc;   /* the two-row search's points (n) */
    size_t *work;           /* purification: extras (n) and bases (nb) */
    size_t *base;
    ct_scratch_t *scratch;  /* where the arrays come from and go back to (NULL: malloc and free) */
};

void ct_block_lp_free(ct_block_lp_t *w)
{
    if (!w)
        return;
    ct_scratch_put(w->scratch, w->start);
    ct_scratch_put(w->scratch, w->hcol);
    ct_scratch_put(w->scratch, w->hlen);
    ct_scratch_put(w->scratch, w->hy);
    ct_scratch_put(w->scratch, w->by);
    ct_scratch_put(w->scratch, w->bd);
    ct_scratch_put(w->scratch, w->d);
    ct_scratch_put(w->scratch, w->xa);
    ct_scratch_put(w->scratch, w->xb);
    ct_scratch_put(w->scratch, w->xc);
    ct_scratch_put(w->scratch, w->work);
    ct_scratch_put(w->scratch, w->base);
    free(w);
}

static ct_status_t check_offsets(size_t nb, const size_t *start, ct_error_t *err)
{
    if (start[0] != 0)
        return ct_error_set(err, CT_EINPUT, "block LP: the first block must start at column 0");
    for (size_t b = 0; b < nb; b++)
        if (start[b + 1] <= start[b])
            return ct_error_set(err, CT_EINPUT, "block LP: block %zu has no columns", b);
    return CT_OK;
}

ct_status_t ct_block_lp_set_blocks(ct_block_lp_t *w, const size_t *start, ct_error_t *err)
{
    ct_status_t st = check_offsets(w->nb, start, err);
    if (st != CT_OK)
        return st;
    if (start[w->nb] > w->cap)
        return ct_error_set(err, CT_EINPUT, "block LP: %zu columns, allocated for %zu", start[w->nb], w->cap);
    memcpy(w->start, start, (w->nb + 1) * sizeof(size_t));
    w->n = start[w->nb];
    return CT_OK;
}

ct_status_t ct_block_lp_alloc_scratch(ct_block_lp_t **out, size_t nb, const size_t *start, ct_scratch_t *scratch,
                                      ct_error_t *err)
{
    *out = NULL;
    ct_status_t st = check_offsets(nb, start, err);
    if (st != CT_OK)
        return st;
    ct_block_lp_t *w = calloc(1, sizeof *w);
    if (!w)
        return ct_error_set(err, CT_ENOMEM, "out of memory (block LP)");
    size_t n = start[nb], n1 = n ? n : 1, nb1 = nb ? nb : 1;
    w->scratch = scratch;
    w->nb = nb;
    w->n = w->cap = n;
    w->start = ct_scratch_get(scratch, (nb + 1) * sizeof(size_t), 0);
    w->hcol = ct_scratch_get(scratch, n1 * sizeof(size_t), 0);
    w->hlen = ct_scratch_get(scratch, nb1 * sizeof(size_t), 0);
    w->hy = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->by = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->bd = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->d = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->xa = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->xb = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->xc = ct_scratch_get(scratch, n1 * sizeof(double), 0);
    w->work = ct_scratch_get(scratch, n1 * sizeof(size_t), 0);
    w->base = ct_scratch_get(scratch, nb1 * sizeof(size_t), 0);
    if (!w->start || !w->hcol || !w->hlen || !w->hy || !w->by || !w->bd || !w->d || !w->xa || !w->xb || !w->xc ||
        !w->work || !w->base) {
        ct_block_lp_free(w);
        return ct_error_set(err, CT_ENOMEM, "out of memory (block LP)");
    }
    memcpy(w->start, start, (nb + 1) * sizeof(size_t));
    *out = w;
    return CT_OK;
}

ct_status_t ct_block_lp_alloc(ct_block_lp_t **out, size_t nb, const size_t *start, ct_error_t *err)
{
    return ct_block_lp_alloc_scratch(out, nb, start, NULL, err);
}

/* u . x; u is finite (checked on entry), so the zeros of x add +-0 and the
 * sum equals the one over x's nonzeros, without a branch per entry. */
static double dot(const double *u, const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += u[i] * x[i];
    return s;
}

/* Builds every block's lower envelope of d_w + y a_w over y >= 0 by gift
 * wrapping from the cheapest column at y = 0 (ties: the smaller a). Returns
 * the breakpoint count; *s0 = sum of a at y = 0, *smin = the least sum of a
 * (every block on its last envelope column), *sabs a magnitude for
 * tolerances. */
static size_t envelopes(ct_block_lp_t *w, const double *d, const double *a, double *s0, double *smin, double *sabs)
{
    size_t K = 0;
    double S0 = 0, Smin = 0, Sabs = 0;
    for (size_t b = 0; b < w->nb; b++) {
        size_t lo = w->start[b], hi = w->start[b + 1], cur = lo, h = lo;
        if (hi - lo <= 2) { /* most blocks (a restricted problem's): the same steps, unrolled */
            size_t j = hi - 1;
            if (j != lo && (d[j] < d[lo] || (d[j] == d[lo] && a[j] < a[lo])))
                cur = j, j = lo;
            w->hcol[lo] = cur;
            w->hy[lo] = 0;
            S0 += a[cur];
            Sabs += fabs(a[cur]);
            if (j != cur && a[j] < a[cur]) { /* j takes over where the lines cross */
                double t = (d[j] - d[cur]) / (a[cur] - a[j]);
                if (t < 0)
                    t = 0;
                w->hcol[lo + 1] = j;
                w->hy[lo + 1] = t;
                w->by[K] = t;
                w->bd[K++] = a[cur] - a[j];
                cur = j;
            }
            w->hlen[b] = cur == w->hcol[lo] ? 1 : 2;
            Smin += a[cur];
            Sabs += fabs(a[cur]);
            continue;
        }
        for (size_t j = lo + 1; j < hi; j++)
            if (d[j] < d[cur] || (d[j] == d[cur] && a[j] < a[cur]))
                cur = j;
        w->hcol[h] = cur;
        w->hy[h++] = 0;
        S0 += a[cur];
        Sabs += fabs(a[cur]);
        double ycur = 0;
        for (;;) {
            size_t next = hi;
            double tbest = INFINITY;
            for (size_t j = lo; j < hi; j++) {
                if (!(a[j] < a[cur]))
                    continue;
                /* cur is cheapest at ycur, so j crosses it at or after ycur
                 * (before only by round-off). */
                double t = (d[j] - d[cur]) / (a[cur] - a[j]);
                if (t < ycur)
                    t = ycur;
                /* (ties: the smaller a; none yet at an infinite crossing,
                 * whose a[next] would be past the block) */
                if (t < tbest || (t == tbest && next != hi && a[j] < a[next])) {
                    tbest = t;
                    next = j;
                }
            }
            if (next == hi)
                break;
            w->hcol[h] = next;
            w->hy[h++] = tbest;
            w->by[K] = tbest;
            w->bd[K++] = a[cur] - a[next];
            cur = next;
            ycur = tbest;
        }
        w->hlen[b] = h - lo;
        Smin += a[cur];
        Sabs += fabs(a[cur]);
    }
    *s0 = S0;
    *smin = Smin;
    *sabs = Sabs;
    return K;
}

/* The least y among the breakpoints such that the drops at multipliers <= y
 * add up to at least need; the largest breakpoint if they never do (round-
 * off). Expected O(K): a quickselect that partitions by value in three.
 * The sums of one set of drops, taken in another order by a later
 * partition, may round the other way: a range once found sufficient stays
 * the answer's bound (suff, its largest value), so round-off can move the
 * answer within that range but never to the largest breakpoint of all
 * (which gave the two-row search a row-1 multiplier of 1103 for 0.33 and
 * a supergradient of the wrong sign, and it never settled). */
static double select_multiplier(double *y, double *dl, size_t K, double need)
{
    double ymax = 0;
    for (size_t i = 0; i < K; i++)
        if (y[i] > ymax)
            ymax = y[i];
    double suff = ymax;
    size_t lo = 0, hi = K;
    while (lo < hi) {
        double p0 = y[lo], p1 = y[lo + (hi - lo) / 2], p2 = y[hi - 1], pivot;
        if (p0 < p1)
            pivot = p1 < p2 ? p1 : (p0 < p2 ? p2 : p0);
        else
            pivot = p0 < p2 ? p0 : (p1 < p2 ? p2 : p1);
        /* [lo, lt): < pivot, [lt, i): == pivot, [gt, hi): > pivot */
        size_t lt = lo, i = lo, gt = hi;
        double sum_lt = 0, sum_eq = 0, max_lt = 0;
        while (i < gt) {
            double v = y[i], dv = dl[i];
            if (v < pivot) {
                max_lt = v > max_lt ? v : max_lt;
                y[i] = y[lt];
                dl[i] = dl[lt];
                y[lt] = v;
                dl[lt] = dv;
                sum_lt += dv;
                lt++;
                i++;
            } else if (v > pivot) {
                gt--;
                y[i] = y[gt];
                dl[i] = dl[gt];
                y[gt] = v;
                dl[gt] = dv;
            } else {
                sum_eq += dv;
                i++;
            }
        }
        if (sum_lt >= need) {
            hi = lt;
            suff = max_lt;
        } else if (sum_lt + sum_eq >= need)
            return pivot;
        else {
            need -= sum_lt + sum_eq;
            lo = gt;
        }
    }
    return suff;
}

/* The one-row problem min d . x s.t. a . x <= r. Returns 0 if infeasible;
 * else fills x (every column), *y (the row's multiplier). */
static int solve_one_row(ct_block_lp_t *w, const double *d, const double *a, double r, double *x, double *y)
{
    double S0, Smin, Sabs;
    size_t K = envelopes(w, d, a, &S0, &Smin, &Sabs);
    double tol = 1e-12 * (fabs(r) + Sabs);
    if (Smin > r + tol)
        return 0;
    memset(x, 0, w->n * sizeof(double));
    if (S0 <= r) { /* the row is slack at the blocks' cheapest columns */
        for (size_t b = 0; b < w->nb; b++)
            x[w->hcol[w->start[b]]] = 1;
        *y = 0;
        return 1;
    }
    double ys = select_multiplier(w->by, w->bd, K, S0 - r);
    /* Every block past its breakpoints below y*; then the ones at y* move
     * in turn until the row is met, the last by a fraction. */
    double S = 0;
    for (size_t b = 0; b < w->nb; b++) {
        size_t p = w->start[b], end = p + w->hlen[b];
        while (p + 1 < end && w->hy[p + 1] < ys)
            p++;
        w->base[b] = p;
        S += a[w->hcol[p]];
        x[w->hcol[p]] = 1;
    }
    for (size_t b = 0; b < w->nb && S > r; b++) {
        size_t p = w->base[b], end = w->start[b] + w->hlen[b];
        while (S > r && p + 1 < end && w->hy[p + 1] == ys) {
            size_t from = w->hcol[p], to = w->hcol[p + 1];
            double drop = a[from] - a[to];
            if (S - drop <= r) {
                double f = (S - r) / drop;
                if (f > 1) /* round-off: S - drop <= r said at most 1 */
                    f = 1;
                x[from] = 1 - f;
                x[to] = f;
                S = r;
            } else {
                x[from] = 0;
                x[to] = 1;
                S -= drop;
            }
            p++;
        }
    }
    *y = ys;
    return 1;
}

/* sum_b min_w (c_w + y . A_w) - y . r: the dual value at y, a lower bound
 * on the optimum for any y >= 0. */
static double dual_value(const ct_block_lp_t *w, size_t rows, const double *c, const double *const *A,
                         const double *r, const double *y)
{
    double g = 0;
    for (size_t b = 0; b < w->nb; b++) {
        double best = INFINITY;
        for (size_t j = w->start[b]; j < w->start[b + 1]; j++) {
            double t = c[j] + y[0] * A[0][j] + (rows > 1 ? y[1] * A[1][j] : 0);
            if (t < best)
                best = t;
        }
        g += best;
    }
    return g - y[0] * r[0] - (rows > 1 ? y[1] * r[1] : 0);
}

/* A null vector t of the rows x (rows + 1) matrix R (row-major, rows <= 2). */
static void null_vector(size_t rows, const double R[2][3], double t[3])
{
    const double *u = R[0];
    if (rows == 2) {
        t[0] = R[0][1] * R[1][2] - R[0][2] * R[1][1];
        t[1] = R[0][2] * R[1][0] - R[0][0] * R[1][2];
        t[2] = R[0][0] * R[1][1] - R[0][1] * R[1][0];
        double n0 = fabs(R[0][0]) + fabs(R[0][1]) + fabs(R[0][2]), n1 = fabs(R[1][0]) + fabs(R[1][1]) + fabs(R[1][2]);
        if (fabs(t[0]) + fabs(t[1]) + fabs(t[2]) > 1e-13 * n0 * n1)
            return;
        u = n1 > n0 ? R[1] : R[0]; /* rank <= 1: the null space of the larger row */
    }
    t[2] = 0;
    if (u[0] != 0 || u[1] != 0) {
        t[0] = u[1];
        t[1] = -u[0];
    } else {
        t[0] = 1;
        t[1] = 0;
    }
}

/* The block of column j (binary search over the offsets). */
static size_t block_of(const ct_block_lp_t *w, size_t j)
{
    size_t lo = 0, hi = w->nb;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (w->start[mid] <= j)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Purification: while more than `rows` variables beyond one per block (the
 * block's base) are positive, take rows + 1 of these extras, each moving
 * against its base, and move along the direction that keeps every row's
 * value, away from a higher cost, until a variable involved reaches 0.
 * Invariant: the stack ex holds every positive column that is not its
 * block's base, once; each move takes one variable out, so it ends. */
static void purify(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A, double *x)
{
    size_t *ex = w->work, nex = 0;
    for (size_t b = 0; b < w->nb; b++) {
        size_t bs = w->start[b];
        for (size_t j = w->start[b]; j < w->start[b + 1]; j++)
            if (x[j] > x[bs])
                bs = j;
        w->base[b] = bs;
        for (size_t j = w->start[b]; j < w->start[b + 1]; j++)
            if (x[j] > 0 && j != bs)
                ex[nex++] = j;
    }
    while (nex > rows) {
        size_t k = rows + 1, col[3], bl[3];
        double R[2][3], t[3], gain = 0;
        for (size_t i = 0; i < k; i++) {
            col[i] = ex[--nex];
            bl[i] = block_of(w, col[i]);
            for (size_t r = 0; r < rows; r++)
                R[r][i] = A[r][col[i]] - A[r][w->base[bl[i]]];
        }
        null_vector(rows, (const double(*)[3])R, t);
        for (size_t i = 0; i < k; i++)
            gain += t[i] * (c[col[i]] - c[w->base[bl[i]]]);
        if (gain > 0)
            for (size_t i = 0; i < k; i++)
                t[i] = -t[i];
        /* The largest step keeping every variable involved >= 0, and the
         * variable that limits it. */
        double step = INFINITY, rate[3];
        size_t limit = w->n;
        for (size_t i = 0; i < k; i++) {
            rate[i] = 0; /* the base of bl[i] moves against every extra of its block */
            for (size_t q = 0; q < k; q++)
                if (bl[q] == bl[i])
                    rate[i] -= t[q];
            if (t[i] < 0 && x[col[i]] / -t[i] < step) {
                step = x[col[i]] / -t[i];
                limit = col[i];
            }
            if (rate[i] < 0 && x[w->base[bl[i]]] / -rate[i] < step) {
                step = x[w->base[bl[i]]] / -rate[i];
                limit = w->base[bl[i]];
            }
        }
        if (limit == w->n) { /* t = 0: not for a null vector built here; a guard */
            nex += k;
            break;
        }
        for (size_t i = 0; i < k; i++) {
            x[col[i]] += step * t[i];
            x[w->base[bl[i]]] -= step * t[i];
        }
        x[limit] = 0;
        for (size_t i = 0; i < k; i++) {
            if (x[col[i]] < 0)
                x[col[i]] = 0;
            if (x[w->base[bl[i]]] < 0)
                x[w->base[bl[i]]] = 0;
        }
        /* A base that reached 0 is replaced by a positive column of its
         * block, taken out of the stack if it was there. */
        for (size_t i = 0; i < k; i++) {
            size_t b = bl[i];
            if (x[w->base[b]] > 0)
                continue;
            size_t nbs = w->n;
            for (size_t j = w->start[b]; j < w->start[b + 1] && nbs == w->n; j++)
                if (x[j] > 0)
                    nbs = j;
            w->base[b] = nbs;
            for (size_t z = 0; z < nex; z++)
                if (ex[z] == nbs) {
                    ex[z] = ex[--nex];
                    break;
                }
        }
        for (size_t i = 0; i < k; i++)
            if (x[col[i]] > 0 && col[i] != w->base[bl[i]])
                ex[nex++] = col[i];
    }
    /* Renormalise each block against the round-off of the moves. */
    for (size_t b = 0; b < w->nb; b++) {
        double s = 0;
        for (size_t j = w->start[b]; j < w->start[b + 1]; j++)
            s += x[j];
        if (s > 0 && s != 1)
            for (size_t j = w->start[b]; j < w->start[b + 1]; j++)
                x[j] /= s;
    }
}

static ct_status_t check_finite(const double *v, size_t n, const char *what, ct_error_t *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return ct_error_set(err, CT_EINPUT, "block LP: %s[%zu] is not finite", what, i);
    return CT_OK;
}

/* One point of the two-row search: the one-row solve at y2 into *xp (the
 * workspace's buffer it names), its cost *cp, row-2 slack *sp (A2 . x - r2)
 * and row-1 multiplier *y1p. */
static int search_point(ct_block_lp_t *w, const double *c, const double *const *A, const double *r, double y2,
                        double **xp, double *cp, double *sp, double *y1p)
{
    for (size_t j = 0; j < w->n; j++)
        w->d[j] = c[j] + y2 * A[1][j];
    if (!solve_one_row(w, w->d, A[0], r[0], *xp, y1p))
        return 0;
    *cp = dot(c, *xp, w->n);
    *sp = dot(A[1], *xp, w->n) - r[1];
    return 1;
}

static void swap_buffers(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

ct_status_t ct_block_lp_solve(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A, const double *r,
                              double *x, ct_block_lp_result_t *res, ct_error_t *err)
{
    return ct_block_lp_solve_within(w, rows, c, A, r, 0.0, 0.0, x, res, err);
}

ct_status_t ct_block_lp_solve_from(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A,
                                   const double *r, double y2_hint, double *x, ct_block_lp_result_t *res,
                                   ct_error_t *err)
{
    return ct_block_lp_solve_within(w, rows, c, A, r, y2_hint, 0.0, x, res, err);
}

ct_status_t ct_block_lp_solve_within(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A,
                                     const double *r, double y2_hint, double rel_tol, double *x,
                                     ct_block_lp_result_t *res, ct_error_t *err)
{
    memset(res, 0, sizeof *res);
    res->result = CT_LP_INFEASIBLE;
    if (rows < 1 || rows > 2)
        return ct_error_set(err, CT_EINPUT, "block LP: expected 1 or 2 coupling rows (got %zu)", rows);
    if (!(rel_tol >= 0) || !isfinite(rel_tol))
        return ct_error_set(err, CT_EINPUT, "block LP: rel_tol must be finite and >= 0");
    ct_status_t st = check_finite(c, w->n, "c", err);
    for (size_t k = 0; k < rows && st == CT_OK; k++) {
        st = check_finite(A[k], w->n, k ? "A2" : "A1", err);
        if (st == CT_OK && !isfinite(r[k]))
            st = ct_error_set(err, CT_EINPUT, "block LP: r[%zu] is not finite", k);
    }
    if (st != CT_OK)
        return st;
    double y1;
    double *xs = w->xa;
    if (rows == 1) {
        res->steps = 1;
        if (!solve_one_row(w, c, A[0], r[0], w->xa, &y1))
            return CT_OK;
    } else {
        double tol2 = 1e-12 * (fabs(r[1]) + 1);
        for (size_t b = 0; b < w->nb; b++) { /* the scale of row 2 */
            double m = 0;
            for (size_t j = w->start[b]; j < w->start[b + 1]; j++)
                if (fabs(A[1][j]) > m)
                    m = fabs(A[1][j]);
            tol2 += 1e-12 * m;
        }
        /* The search keeps a point on each side of h's maximum: a (slope
         * sa > 0: y2 too small) and b (sb < 0). Without a hint, a is
         * y2 = 0 and b the least A2 . x that row 1 allows (its line is
         * valid for any such x, and it proves the LP infeasible when row 2
         * still fails there). A hint (the multiplier of a nearby problem)
         * starts both sides close to the maximum: the hint, then points
         * ever farther from it (factors 1 + HINT_STEP, the step x HINT_GROW
         * each time, or a little past where two points' slopes extrapolate
         * to 0), a few, before falling back on those ends. A point whose
         * slack is within tolerance (or any point
         * meeting row 2 at y2 = 0) is optimal alone. hbest: the highest
         * h met, at (y1best, y2best): the bound an early end (rel_tol) keeps. */
        double ca = 0, sa = 0, cb = 0, sb = 0, ch, sh, y1h, y2 = 0, hbest = -INFINITY, y1best = 0, y2best = 0;
        int have_a = 0, have_b = 0, opt = 0;
        if (y2_hint > 0 && isfinite(y2_hint)) {
            double yh = y2_hint, f = HINT_STEP, yp = NAN, sp = NAN;
            for (int i = 0; i < 7 && !opt && !(have_a && have_b); i++, f *= HINT_GROW) {
                res->steps++;
                if (!search_point(w, c, A, r, yh, &w->xc, &ch, &sh, &y1h))
                    return CT_OK; /* row 1 alone is infeasible (it does not depend on y2) */
                if (ch + yh * sh > hbest)
                    hbest = ch + yh * sh, y1best = y1h, y2best = yh;
                double next;
                if (fabs(sh) <= tol2) {
                    opt = 1, xs = w->xc, y1 = y1h, y2 = yh;
                    break;
                } else if (sh > 0) {
                    swap_buffers(&w->xa, &w->xc);
                    ca = ch, sa = sh, have_a = 1;
                    next = y2_hint * (1 + f);
                } else {
                    swap_buffers(&w->xb, &w->xc);
                    cb = ch, sb = sh, have_b = 1;
                    next = y2_hint / (1 + f);
                }
                /* two points on one side: a little past where the line
                 * through their slopes reaches 0 (y2 = 0 when that is at
                 * or below it), at least the first step on and at most
                 * one growth past the schedule's point */
                if (isfinite(sp) && (sp > 0) == (sh > 0) && sp != sh) {
                    double ye = yh + sh * (yh - yp) / (sp - sh), cand = yh + HINT_OVERSHOOT * (ye - yh);
                    if (sh > 0)
                        next = cand < yh * (1 + HINT_STEP) ? yh * (1 + HINT_STEP)
                               : cand > next * HINT_GROW   ? next * HINT_GROW
                                                           : cand;
                    else if (cand <= 0)
                        next = 0;
                    else
                        next = cand > yh / (1 + HINT_STEP) ? yh / (1 + HINT_STEP)
                               : cand < next / HINT_GROW   ? next / HINT_GROW
                                                           : cand;
                }
                yp = yh, sp = sh, yh = next;
                if (!(yh > 0))
                    break; /* y2 = 0 next */
            }
        }
        if (!opt && !have_a) { /* y2 = 0 */
            res->steps++;
            if (!search_point(w, c, A, r, 0.0, &w->xc, &ch, &sh, &y1h))
                return CT_OK;
            if (sh <= tol2) { /* row 2 is met at y2 = 0 */
                opt = 1, xs = w->xc, y1 = y1h, y2 = 0;
            } else {
                if (ch > hbest)
                    hbest = ch, y1best = y1h, y2best = 0;
                swap_buffers(&w->xa, &w->xc);
                ca = ch, sa = sh, have_a = 1;
            }
        }
        if (!opt && !have_b) { /* the least A2 . x that row 1 allows */
            double ydummy;
            res->steps++;
            if (!solve_one_row(w, A[1], A[0], r[0], w->xb, &ydummy))
                return CT_OK; /* cannot happen: row 1 alone was feasible */
            sb = dot(A[1], w->xb, w->n) - r[1];
            if (sb > tol2)
                return CT_OK;
            cb = dot(c, w->xb, w->n);
            have_b = 1;
        }
        /* Each step goes where the sides' tangent lines cross; it ends when
         * the sides sit on the two pieces of h around its maximum. */
        while (!opt) {
            if (res->steps >= MAX_STEPS)
                return ct_error_set(err, CT_ESOLVER, "block LP: the two-row search did not settle in %d steps",
                                    MAX_STEPS);
            if (sb > 0)
                sb = 0; /* within tolerance: take row 2 as met */
            double yc = (cb - ca) / (sa - sb);
            if (!(yc > 0))
                yc = 0;
            if (rel_tol > 0 && ca + yc * sa - hbest <= rel_tol * fabs(ca + yc * sa)) {
                /* within rel_tol: the sides mixed to meet row 2 cost the
                 * lines' crossing, an upper bound; the best point's h a
                 * lower one */
                double lam = -sb / (sa - sb);
                for (size_t j = 0; j < w->n; j++)
                    w->xc[j] = lam * w->xa[j] + (1 - lam) * w->xb[j];
                xs = w->xc;
                y1 = y1best;
                y2 = y2best;
                break;
            }
            double cc, sc, y1c;
            res->steps++;
            if (!search_point(w, c, A, r, yc, &w->xc, &cc, &sc, &y1c))
                return ct_error_set(err, CT_ESOLVER, "block LP: row 1 became infeasible (a bug)");
            double hc = cc + yc * sc, line = ca + yc * sa;
            if (hc > hbest)
                hbest = hc, y1best = y1c, y2best = yc;
            double tol = 1e-12 * (fabs(ca) + fabs(cb) + fabs(yc) * (fabs(sa) + fabs(sb)) + 1e-300);
            if (fabs(sc) <= tol2 || hc >= line - tol) {
                if (fabs(sc) > tol2) { /* the crossing is the maximum: mix the sides */
                    double lam = -sb / (sa - sb);
                    for (size_t j = 0; j < w->n; j++)
                        w->xc[j] = lam * w->xa[j] + (1 - lam) * w->xb[j];
                } /* else x_c meets row 2 with equality: optimal alone */
                xs = w->xc;
                y1 = y1c;
                y2 = yc;
                opt = 1;
            } else if (sc > 0) {
                swap_buffers(&w->xa, &w->xc);
                ca = cc;
                sa = sc;
            } else {
                swap_buffers(&w->xb, &w->xc);
                cb = cc;
                sb = sc;
            }
        }
        res->y[1] = y2;
    }
    res->y[0] = y1;
    memcpy(x, xs, w->n * sizeof(double));
    purify(w, rows, c, A, x);
    res->result = CT_LP_OPTIMAL;
    res->obj = dot(c, x, w->n);
    res->bound = dual_value(w, rows, c, A, r, res->y);
    return CT_OK;
}
