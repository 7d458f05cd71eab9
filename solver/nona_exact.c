/*
 * nona_exact.c - the exact Nona solver: a certified branch-and-bound over
 * the waits (phi on the link, W at the servers) of LPs solved by GLPK, and
 * the older 1-D grid search (see ct_nona_solve.h, spec s.7 and s.11).
 *
 * The LP for objective waits (po, wo) and row waits (pr, wr), over theta >= 0:
 *   min  sum_w beta_w M_w(po, wo) theta_w
 *   s.t. sum_{w in block b} theta_w = 1                              every block
 *        sum_w beta_w (a2_w + 2 pr a1_w) theta_w <= 2 pr (1 - rho_bg) - m2_bg  (link wait <= pr)
 *        sum_w beta_w q_w theta_w / N <= 2 wr (1 - rho_s) - m2s_local         (server wait <= wr)
 * With (po, wo) = (pr, wr) it is V(phi, W) >= J*, with equality at the
 * optimum's own waits. With the objective at a box's lower corner and the
 * rows at its upper corner it bounds every theta whose waits lie in the box.
 * The bound is the Lagrangian value at the LP's dual multipliers y >= 0:
 *   L(y) = sum_b min_{w in b} (c_w + y . A_w) - y . r  <=  LP optimum,
 * valid for any y, so the certificate does not rest on GLPK's tolerances.
 * One GLPK problem is built once; each solve changes the objective and the
 * two wait rows, and the simplex warm-starts from the previous basis.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_block_lp.h"
#include "ct_lp.h"
#include "nona_internal.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_nona_solve_params_init(ct_nona_solve_params_t *p)
{
    p->method = CT_NONA_EXACT;
    p->gap = 1e-9;
    p->max_lps = 20000;
    p->grid = 48;
    p->max_polish = 50;
    p->starts = 6;
    p->max_iter = 400;
    p->seed = 1;
    p->prune = 1e-9;
    p->lp = CT_NONA_LP_BLOCK;
    p->cg_rounds = 200;
    p->price_exact = 500000;
    p->price_evals = 20000;
    p->price_spread = 0;
}

ct_status_t ct_nona_solve_params_check(const ct_nona_solve_params_t *p, const char *pre, ct_error_t *err)
{
    if (p->method != CT_NONA_EXACT && p->method != CT_NONA_PENALTY && p->method != CT_NONA_GRID)
        return ct_error_set(err, CT_EINPUT, "%smethod: unknown method %d", pre, (int)p->method);
    if (!(p->gap >= 0 && p->gap <= 0.5))
        return ct_error_set(err, CT_EINPUT, "%sgap: expected 0 .. 0.5 (got %g)", pre, p->gap);
    if (p->max_lps < 1)
        return ct_error_set(err, CT_EINPUT, "%smax-lps: expected at least 1", pre);
    if (p->grid < 4 || p->grid > 100000)
        return ct_error_set(err, CT_EINPUT, "%sgrid: expected 4 .. 100000 points (got %zu)", pre, p->grid);
    if (p->max_polish > 10000)
        return ct_error_set(err, CT_EINPUT, "%smax-polish: expected 0 .. 10000 (got %zu)", pre, p->max_polish);
    if (p->starts < 1 || p->starts > 1000)
        return ct_error_set(err, CT_EINPUT, "%sstarts: expected 1 .. 1000 (got %zu)", pre, p->starts);
    if (p->max_iter < 1 || p->max_iter > 1000000)
        return ct_error_set(err, CT_EINPUT, "%smax-iter: expected 1 .. 1000000 (got %zu)", pre, p->max_iter);
    if (p->lp != CT_NONA_LP_BLOCK && p->lp != CT_NONA_LP_GLPK)
        return ct_error_set(err, CT_EINPUT, "%slp: unknown LP solver %d", pre, (int)p->lp);
    if (p->cg_rounds < 1 || p->cg_rounds > 100000)
        return ct_error_set(err, CT_EINPUT, "%scg-rounds: expected 1 .. 100000 (got %zu)", pre, p->cg_rounds);
    if (p->price_evals < 100)
        return ct_error_set(err, CT_EINPUT, "%sprice-evals: expected at least 100 (got %zu)", pre, p->price_evals);
    if (!(p->prune >= 0 && p->prune < 0.5))
        return ct_error_set(err, CT_EINPUT, "%sprune: expected 0 .. 0.5 (got %g)", pre, p->prune);
    return CT_OK;
}

const char *ct_nona_method_name(ct_nona_method_t m)
{
    return m == CT_NONA_EXACT ? "exact" : m == CT_NONA_GRID ? "grid" : "penalty";
}

void ct_nona_solution_free(ct_nona_solution_t *s)
{
    if (!s)
        return;
    free(s->theta);
    free(s->tau);
    free(s->segment_gap);
    memset(s, 0, sizeof *s);
}

/* The LP, kept across solves: the block solver's workspace, or one GLPK
 * problem whose simplex warm-starts from the previous basis. c, v1, v2, r1,
 * r2: the scaled objective and rows of the last solve, for the Lagrangian
 * bound. */
typedef struct {
    const ct_nona_model_t *m;
    ct_block_lp_t *blp;     /* the block solver (params lp = block) */
    ct_lp_t *lp;            /* or GLPK (lp = glpk) */
    size_t *cols;
    double *vals, *x, *c, *v1, *v2;
    double r1, r2;
    double tscale, scale1, scale2; /* the last solve's scaling of c, row 1, row 2 */
    double y1, y2;          /* and its multipliers (>= 0, scaled units) */
    double constant;        /* sum_j beta_j base_j */
    double beta_sum;
    size_t solves;
    /* The block solver works on a restricted problem (column generation at
     * fixed waits): block b's active columns are act[var_start + i], i <
     * n_act[b], in increasing order, the all-local one always among them
     * (so row 1 is always met). A solve prices every other column against
     * its block's least reduced cost (first a bound without exponentials,
     * then exactly) and adds the cheapest that prices out, until none does:
     * then the restricted optimum is the full LP's, and its bound is over
     * every column. The active sets persist from solve to solve. ac, av1,
     * av2, ax, astart: the compact problem; cstamp[w] == stamp when c[w] is
     * this solve's. */
    size_t *act, *n_act, *astart, *cstamp, stamp;
    unsigned char *on;      /* on[w]: column w is active */
    double *ac, *av1, *av2, *ax;
    double *tm, po, wo;     /* tm[w]: M_w at this solve's objective waits (po, wo), with c[w] */
    /* Pricing's first screen, one stream per term (memory-bound, so in
     * floats rounded down: the screen stays a lower bound): column w's
     * loads (beta a1, beta a2, beta q / N) and two branches' means
     * la + ln phi (+ W_part if remote, bit 0 / 1 of lr), each <= M_w: the
     * branches longest at the bottom and at the top of the search range */
    float *sa1, *sa2, *sq, *la, *ln, *la2, *ln2;
    unsigned char *lr;
    double *bbeta, *bshare; /* per block: its class's beta, beta / beta_sum */
    double inv_t;           /* 1 / tscale */
    double y2_last;         /* the last solve's row-2 multiplier in model units: the next one's hint */
    double *bmin;           /* per block, 6 entries: the least la, ln, lr, sa1, sa2, sq over
                             * its columns but all-local (a screen for the whole block) */
    /* The active columns packed in block order (astart: the blocks'
     * offsets), with copies of their triplets and branches so that a
     * solve's pass over them streams through memory: dcol[k] the column,
     * dinfo[k] its triplet (branch_start into dbr), dM[k] its M at this
     * solve's (po, wo); dpos[w] = k for an active w. Rebuilt when columns
     * are added (dense_stale). */
    size_t *dcol, *dpos, n_dense, dstamp;
    ct_tripinfo_t *dinfo;
    ct_branch_t *dbr;
    double *dM;
    int dense_stale;
    size_t *cand, *cand_b, *pbest; /* pricing: the screen's survivors, their blocks; per block */
    double *cand_lin, *pu, *ptmin, *pbest_rc;
    double a1max, a2max;    /* max beta a1, max beta a2: bound row 1's scale */
    double qmax;            /* max |row 2 coefficient| */
} wait_lp_t;

/* The wait rows' coefficients of column w (class weight beta), unscaled:
 * row 1 (the link's second moment at phi = pr), row 2 (server pieces). */
static double row1_coef(const ct_nona_model_t *m, size_t w, double beta, double pr)
{
    return beta * (m->trip[w].a2 + 2.0 * pr * m->trip[w].a1);
}

static double row2_coef(const ct_nona_model_t *m, size_t w, double beta)
{
    return m->server_model ? beta * m->trip[w].q / (double)m->servers : 0.0;
}

/* x as a float no larger than x (the screens' streams must stay bounds). */
static float float_down(double x)
{
    float f = (float)x;
    if ((double)f > x)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* The branch of triplet w whose mean a + n phi + r W_part is the largest
 * at (phi, Wp): *a, *n, *r (r = 1 for a remote branch, as
 * ct_nona_triplet_time_lb counts its wait). Any branch's mean bounds M_w
 * below at every wait; this one is tight near the search's bottom. */
static void screen_branch(const ct_nona_model_t *m, size_t w, double phi, double Wp, double *a, double *n, double *r)
{
    const ct_tripinfo_t *t = &m->trip[w];
    const ct_branch_t *br = m->branches + t->branch_start;
    double best = -INFINITY;
    *a = *n = *r = 0;
    for (size_t i = 0; i < t->n_branches; i++) {
        double v = br[i].a + br[i].n * phi + (br[i].remote ? Wp : 0.0);
        if (v > best) {
            best = v;
            *a = br[i].a;
            *n = br[i].n;
            *r = br[i].remote ? 1.0 : 0.0;
        }
    }
}

/* The last solve's multipliers in model units (nona_columns.c's f): *y1
 * per unit of a2 + 2 phi a1, *y2 per unit of q / N. */
static void wait_lp_multipliers(const wait_lp_t *s, double *y1, double *y2)
{
    *y1 = s->y1 * s->beta_sum * s->tscale / s->scale1;
    *y2 = s->m->server_model ? s->y2 * s->beta_sum * s->tscale / s->scale2 : 0;
}

static ct_status_t wait_lp_init(wait_lp_t *s, const ct_nona_model_t *m, ct_nona_lp_t which, ct_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    size_t n = m->n_vars ? m->n_vars : 1;
    s->cols = malloc(n * sizeof(size_t));
    s->vals = malloc(n * sizeof(double));
    s->x = malloc(n * sizeof(double));
    s->c = malloc(n * sizeof(double));
    s->v1 = malloc(n * sizeof(double));
    s->v2 = malloc(n * sizeof(double));
    if (!s->cols || !s->vals || !s->x || !s->c || !s->v1 || !s->v2)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t j = 0; j < m->n_classes; j++) {
        s->constant += m->beta[j] * m->classes[j].base;
        s->beta_sum += m->beta[j];
    }
    ct_status_t st;
    if (which == CT_NONA_LP_BLOCK) { /* blocks are consecutive runs of theta */
        size_t nb1 = m->n_blocks + 1;
        double phi_ref = ct_nona_phi_min(m), W_ref, W_hi;
        ct_nona_W_range(m, &W_ref, &W_hi);
        double Wp_ref = m->r_part * W_ref, phi_top = ct_nona_phi_max(m), Wp_top = m->r_part * W_hi;
        s->act = malloc(n * sizeof(size_t));
        s->cstamp = calloc(n, sizeof(size_t));
        s->on = calloc(n, 1);
        s->n_act = malloc(nb1 * sizeof(size_t));
        s->astart = malloc(nb1 * sizeof(size_t));
        s->ac = malloc(n * sizeof(double));
        s->av1 = malloc(n * sizeof(double));
        s->av2 = malloc(n * sizeof(double));
        s->ax = malloc(n * sizeof(double));
        s->tm = malloc(n * sizeof(double));
        s->sa1 = malloc(n * sizeof(float));
        s->sa2 = malloc(n * sizeof(float));
        s->sq = malloc(n * sizeof(float));
        s->la = malloc(n * sizeof(float));
        s->ln = malloc(n * sizeof(float));
        s->la2 = malloc(n * sizeof(float));
        s->ln2 = malloc(n * sizeof(float));
        s->lr = malloc(n);
        s->bmin = malloc(6 * nb1 * sizeof(double));
        s->bbeta = malloc(nb1 * sizeof(double));
        s->bshare = malloc(nb1 * sizeof(double));
        s->cand = malloc(n * sizeof(size_t));
        s->dcol = malloc(n * sizeof(size_t));
        s->dpos = malloc(n * sizeof(size_t));
        s->dinfo = malloc(n * sizeof(ct_tripinfo_t));
        s->dbr = malloc((m->n_branches ? m->n_branches : 1) * sizeof(ct_branch_t));
        s->dM = malloc(n * sizeof(double));
        s->dense_stale = 1;
        s->cand_b = malloc(n * sizeof(size_t));
        s->cand_lin = malloc(n * sizeof(double));
        s->pbest = malloc(nb1 * sizeof(size_t));
        s->pu = malloc(nb1 * sizeof(double));
        s->ptmin = malloc(nb1 * sizeof(double));
        s->pbest_rc = malloc(nb1 * sizeof(double));
        if (!s->act || !s->cstamp || !s->on || !s->n_act || !s->astart || !s->ac || !s->av1 || !s->av2 || !s->ax || !s->tm || !s->sa1 ||
            !s->sa2 || !s->sq || !s->la || !s->ln || !s->la2 || !s->ln2 || !s->lr || !s->bmin || !s->bbeta || !s->bshare ||
            !s->dcol || !s->dpos || !s->dinfo || !s->dbr || !s->dM || !s->cand || !s->cand_b || !s->cand_lin || !s->pbest || !s->pu || !s->ptmin || !s->pbest_rc)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            s->act[bl->var_start] = bl->local_var;
            s->on[bl->local_var] = 1;
            s->n_act[b] = 1;
            s->astart[b] = bl->var_start; /* the allocation's offsets: every column */
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                double beta = m->beta[bl->cls], q = row2_coef(m, w, beta), a, nn, r1, r2;
                s->sa1[w] = float_down(beta * m->trip[w].a1);
                s->sa2[w] = float_down(beta * m->trip[w].a2);
                s->sq[w] = float_down(q);
                s->a1max = fmax(s->a1max, beta * m->trip[w].a1);
                s->a2max = fmax(s->a2max, beta * m->trip[w].a2);
                s->qmax = fmax(s->qmax, fabs(q));
                screen_branch(m, w, phi_ref, Wp_ref, &a, &nn, &r1);
                s->la[w] = float_down(a);
                s->ln[w] = float_down(nn);
                screen_branch(m, w, phi_top, Wp_top, &a, &nn, &r2);
                s->la2[w] = float_down(a);
                s->ln2[w] = float_down(nn);
                s->lr[w] = (unsigned char)((r1 > 0) | (r2 > 0) << 1);
            }
            s->bbeta[b] = m->beta[bl->cls];
            s->bshare[b] = m->beta[bl->cls] / s->beta_sum;
            double *mn = s->bmin + 6 * b;
            for (int i = 0; i < 6; i++)
                mn[i] = INFINITY; /* no column but all-local: never priced */
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                if (w == bl->local_var)
                    continue;
                const double v[6] = { s->la[w], s->ln[w], s->lr[w] & 1, s->sa1[w], s->sa2[w], s->sq[w] };
                for (int i = 0; i < 6; i++)
                    mn[i] = fmin(mn[i], v[i]);
            }
        }
        s->astart[m->n_blocks] = m->n_vars;
        return ct_block_lp_alloc(&s->blp, m->n_blocks, s->astart, err);
    }
    if ((st = ct_lp_alloc(&s->lp, m->n_blocks + 2, m->n_vars, err)) != CT_OK)
        return st;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        for (size_t i = 0; i < bl->n_vars; i++) {
            s->cols[i] = bl->var_start + i;
            s->vals[i] = 1.0;
        }
        if ((st = ct_lp_set_row(s->lp, b, bl->n_vars, s->cols, s->vals, CT_LP_EQ, 1.0, err)) != CT_OK)
            return st;
    }
    return CT_OK;
}

static void wait_lp_free(wait_lp_t *s)
{
    ct_block_lp_free(s->blp);
    ct_lp_free(s->lp);
    free(s->cols);
    free(s->vals);
    free(s->x);
    free(s->c);
    free(s->v1);
    free(s->v2);
    free(s->act);
    free(s->n_act);
    free(s->astart);
    free(s->cstamp);
    free(s->on);
    free(s->ac);
    free(s->av1);
    free(s->av2);
    free(s->ax);
    free(s->tm);
    free(s->sa1);
    free(s->sa2);
    free(s->sq);
    free(s->la);
    free(s->ln);
    free(s->la2);
    free(s->ln2);
    free(s->lr);
    free(s->bmin);
    free(s->bbeta);
    free(s->bshare);
    free(s->cand);
    free(s->dcol);
    free(s->dpos);
    free(s->dinfo);
    free(s->dbr);
    free(s->dM);
    free(s->cand_b);
    free(s->cand_lin);
    free(s->pbest);
    free(s->pu);
    free(s->ptmin);
    free(s->pbest_rc);
}

/* A wait row's scale: GLPK's row tolerance is relative to the bound (about
 * 1e-7 (1 + |rhs|)), so the bound is scaled to 1 and a row is met to 1e-7
 * of itself, not of the largest coefficient cmax (which can be 1e4 times
 * larger); cmax when the bound is about 0. Both LP solvers use it. */
static double wait_row_scale(double rhs, double cmax)
{
    double scale = fabs(rhs) > 1e-9 * cmax ? fabs(rhs) : cmax;
    return scale > 0 ? scale : 1;
}

/* Scales the row coef . theta <= rhs into v (may be coef) and *rs and sets
 * it as GLPK's row r. */
static ct_status_t set_wait_row(wait_lp_t *s, size_t r, const double *coef, double rhs, double *v, double *rs,
                                double *row_scale, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    double cmax = 0, scale;
    for (size_t w = 0; w < m->n_vars; w++)
        if (fabs(coef[w]) > cmax)
            cmax = fabs(coef[w]);
    scale = wait_row_scale(rhs, cmax);
    size_t nz = 0;
    *rs = rhs / scale;
    *row_scale = scale;
    for (size_t w = 0; w < m->n_vars; w++) {
        v[w] = coef[w] / scale;
        if (v[w] != 0) {
            s->cols[nz] = w;
            s->vals[nz++] = v[w];
        }
    }
    return ct_lp_set_row(s->lp, r, nz, s->cols, s->vals, CT_LP_LE, *rs, err);
}

/* Column w's scaled objective c[w] at this solve's waits (computed once
 * per solve). */
static double cost(wait_lp_t *s, size_t w, double share, double po, double wo)
{
    if (s->cstamp[w] != s->stamp) {
        s->tm[w] = ct_nona_triplet_time(s->m, w, po, wo);
        s->c[w] = share * s->tm[w] * s->inv_t;
        s->cstamp[w] = s->stamp;
    }
    return s->c[w];
}

/* M_w(p, W): the last solve's value when it was computed there. */
static double lp_time(const wait_lp_t *s, size_t w, double p, double W)
{
    if (s->cstamp && p == s->po && W == s->wo) {
        if (s->on[w] && !s->dense_stale)
            return s->dM[s->dpos[w]];
        if (s->cstamp[w] == s->stamp)
            return s->tm[w];
    }
    return ct_nona_triplet_time(s->m, w, p, W);
}

/* Makes column w of block b active (kept in increasing order). */
static void activate(wait_lp_t *s, size_t b, size_t w)
{
    size_t *a = s->act + s->m->blocks[b].var_start, i = s->n_act[b]++;
    for (; i > 0 && a[i - 1] > w; i--)
        a[i] = a[i - 1];
    a[i] = w;
    s->on[w] = 1;
    s->dense_stale = 1;
}

/* Packs the active columns (see wait_lp_t); a column activated in this
 * solve brings its M from the pricing pass. */
static void pack_active(wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    size_t k = 0, nbr = 0;
    for (size_t j = 0; j < s->n_dense; j++) /* keep this solve's M of the columns already packed */
        if (!isnan(s->dM[j]) && s->dstamp == s->stamp) {
            s->tm[s->dcol[j]] = s->dM[j];
            s->cstamp[s->dcol[j]] = s->stamp;
        }
    s->dstamp = s->stamp;
    for (size_t b = 0; b < m->n_blocks; b++) {
        s->astart[b] = k;
        for (size_t i = 0; i < s->n_act[b]; i++, k++) {
            size_t w = s->act[m->blocks[b].var_start + i];
            const ct_tripinfo_t *t = &m->trip[w];
            s->dcol[k] = w;
            s->dpos[w] = k;
            s->dinfo[k] = *t;
            s->dinfo[k].branch_start = nbr;
            memcpy(s->dbr + nbr, m->branches + t->branch_start, t->n_branches * sizeof(ct_branch_t));
            nbr += t->n_branches;
            s->dM[k] = s->cstamp[w] == s->stamp ? s->tm[w] : NAN;
        }
    }
    s->astart[m->n_blocks] = s->n_dense = k;
    s->dense_stale = 0;
}

/* The restricted problem over the active columns, in compact arrays, with
 * the block solver's offsets. */
static ct_status_t compact(wait_lp_t *s, double po, double wo, double pr, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    if (s->dense_stale)
        pack_active(s);
    double i1 = 1.0 / s->scale1, i2 = m->server_model ? 1.0 / ((double)m->servers * s->scale2) : 0.0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double beta = s->bbeta[b], share = s->bshare[b], k1 = beta * i1, k2 = beta * i2;
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
            const ct_tripinfo_t *t = &s->dinfo[k];
            if (isnan(s->dM[k]))
                s->dM[k] = ct_nona_tripinfo_time(m, t, s->dbr + t->branch_start, po, wo);
            s->ac[k] = share * s->dM[k] * s->inv_t;
            s->av1[k] = k1 * (t->a2 + 2.0 * pr * t->a1);
            s->av2[k] = k2 * t->q;
        }
    }
    return ct_block_lp_set_blocks(s->blp, s->astart, err);
}

/* An infeasible restricted problem: the least row 2 that row 1 allows,
 * min av2 . x s.t. av1 . x <= r1 (always feasible: all-local is active),
 * priced over every column at its multiplier z (no objective needed).
 * Returns the columns added; 0 proves the full LP infeasible too. */
static ct_status_t price_feasibility(wait_lp_t *s, double pr, size_t *added, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    const double *A[1] = { s->av1 };
    ct_block_lp_result_t aux;
    ct_status_t st = ct_block_lp_solve(s->blp, 1, s->av2, A, &s->r1, s->ax, &aux, err);
    *added = 0;
    if (st != CT_OK || aux.result != CT_LP_OPTIMAL)
        return st;
    double z = aux.y[0];
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls], u = INFINITY, best_key;
        size_t best = SIZE_MAX;
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++)
            u = fmin(u, s->av2[k] + z * s->av1[k]);
        best_key = u - 1e-12 * fabs(u);
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            if (s->on[w])
                continue;
            double key = row2_coef(m, w, beta) / s->scale2 + z * row1_coef(m, w, beta, pr) / s->scale1;
            if (key < best_key) {
                best_key = key;
                best = w;
            }
        }
        if (best != SIZE_MAX) {
            activate(s, b, best);
            ++*added;
        }
    }
    return CT_OK;
}

/* The block solver's LP at objective waits (po, wo), rows at pr: column
 * generation over the active columns (see wait_lp_t) until no column
 * prices out. *ok = 0 when infeasible; else s->ax (packed), *y1, *y2
 * (scaled multipliers) and *L (the Lagrangian value over every column,
 * scaled). rhs1, rhs2: the rows' unscaled bounds. */
static ct_status_t restricted_solve(wait_lp_t *s, double po, double wo, double pr, double rhs1, double rhs2, int *ok,
                                    double *y1, double *y2, double *L, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    size_t rows = m->server_model ? 2 : 1;
    ct_status_t st;
    *ok = 0;
    /* this solve's costs: scaled by the largest active M (all-local among them) */
    s->stamp++;
    s->po = po;
    s->wo = wo;
    if (s->dense_stale)
        pack_active(s);
    s->dstamp = s->stamp;
    double tscale = 0;
    for (size_t k = 0; k < s->n_dense; k++) {
        const ct_tripinfo_t *t = &s->dinfo[k];
        s->dM[k] = ct_nona_tripinfo_time(m, t, s->dbr + t->branch_start, po, wo);
        if (s->dM[k] > tscale)
            tscale = s->dM[k];
    }
    s->tscale = tscale > 0 ? tscale : 1;
    s->inv_t = 1.0 / s->tscale;
    /* the rows' scales, as GLPK's: an upper bound on the largest row-1
     * coefficient settles the common case without a pass over the columns */
    double cmax1 = s->a2max + 2.0 * pr * s->a1max;
    if (!(fabs(rhs1) > 1e-9 * cmax1)) {
        cmax1 = 0;
        for (size_t b = 0; b < m->n_blocks; b++)
            for (size_t w = m->blocks[b].var_start; w < m->blocks[b].var_start + m->blocks[b].n_vars; w++)
                cmax1 = fmax(cmax1, fabs(row1_coef(m, w, m->beta[m->blocks[b].cls], pr)));
    }
    s->scale1 = wait_row_scale(rhs1, cmax1);
    s->scale2 = wait_row_scale(rhs2, s->qmax);
    s->r1 = rhs1 / s->scale1;
    s->r2 = rhs2 / s->scale2;
    const double r[2] = { s->r1, s->r2 }, *A[2] = { s->av1, s->av2 };
    /* the boxes of the search are near each other: start from the last multiplier */
    double y2_hint = s->y2_last * s->scale2 / (s->beta_sum * s->tscale);
    for (;;) {
        ct_block_lp_result_t res;
        size_t added = 0;
        if ((st = compact(s, po, wo, pr, err)) != CT_OK ||
            (st = ct_block_lp_solve_from(s->blp, rows, s->ac, A, r, y2_hint, s->ax, &res, err)) != CT_OK)
            return st;
        if (res.result != CT_LP_OPTIMAL) {
            if ((st = price_feasibility(s, pr, &added, err)) != CT_OK || !added)
                return st;
            continue;
        }
        double Y1 = res.y[0], Y2 = rows > 1 ? res.y[1] : 0.0, Lsum = 0, p2 = 2.0 * pr;
        /* a column's row terms Y . A_w = k1 (sa2 + 2 pr sa1) + k2 sq; its
         * objective's screen sh (la + ln po + lr Wp0), sh its block's */
        double k1 = Y1 / s->scale1, k2 = rows > 1 ? Y2 / s->scale2 : 0.0, Wp0 = m->r_part * wo;
        if (!(m->server_model && m->rho_s > 0 && Wp0 > 0))
            Wp0 = 0;
        /* Pass 1 streams every column through the screen; the few that
         * pass it (scattered in memory) are gathered, then bounded and
         * priced in pass 2 with their data fetched ahead. tmin[b]: the
         * least reduced cost over block b's columns (one skipped by a bound
         * has one >= u[b]); best[b]: the column to add, below u[b] by more
         * than round-off. */
        size_t nc = 0;
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            double u = INFINITY, sh = s->bshare[b] * s->inv_t;
            for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
                double rc = s->ac[k] + Y1 * s->av1[k] + Y2 * s->av2[k];
                u = rc < u ? rc : u;
            }
            s->pu[b] = s->ptmin[b] = u;
            s->pbest_rc[b] = u - 1e-12 * fabs(u);
            s->pbest[b] = SIZE_MAX;
            const double *mn = s->bmin + 6 * b; /* every multiplier >= 0: a bound for the block */
            if (sh * (mn[0] + mn[1] * po + mn[2] * Wp0) + k1 * (mn[4] + p2 * mn[3]) + k2 * mn[5] >= u)
                continue;
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                double lin = k1 * ((double)s->sa2[w] + p2 * s->sa1[w]) + k2 * s->sq[w];
                double m1 = s->la[w] + s->ln[w] * po + (s->lr[w] & 1 ? Wp0 : 0.0);
                double m2 = s->la2[w] + s->ln2[w] * po + (s->lr[w] & 2 ? Wp0 : 0.0);
                if (sh * (m1 > m2 ? m1 : m2) + lin >= u || s->on[w])
                    continue;
                s->cand[nc] = w;
                s->cand_b[nc] = b;
                s->cand_lin[nc++] = lin;
            }
        }
        for (size_t i = 0; i < nc; i++) {
            if (i + 8 < nc)
                CT_PREFETCH(&m->trip[s->cand[i + 8]]);
            if (i + 4 < nc)
                CT_PREFETCH(&m->branches[m->trip[s->cand[i + 4]].branch_start]);
            size_t w = s->cand[i], b = s->cand_b[i];
            double share = s->bshare[b], lin = s->cand_lin[i];
            if (s->cstamp[w] != s->stamp && share * s->inv_t * ct_nona_triplet_time_lb(m, w, po, wo) + lin >= s->pu[b])
                continue;
            double rc = cost(s, w, share, po, wo) + lin;
            if (rc < s->ptmin[b])
                s->ptmin[b] = rc;
            if (rc < s->pbest_rc[b]) {
                s->pbest_rc[b] = rc;
                s->pbest[b] = w;
            }
        }
        for (size_t b = 0; b < m->n_blocks; b++) {
            if (s->pbest[b] != SIZE_MAX) {
                activate(s, b, s->pbest[b]);
                added++;
            }
            Lsum += s->ptmin[b];
        }
        if (added)
            continue;
        *y1 = Y1;
        *y2 = Y2;
        s->y2_last = Y2 * s->beta_sum * s->tscale / s->scale2;
        *L = Lsum - Y1 * s->r1 - Y2 * s->r2;
        *ok = 1;
        return CT_OK;
    }
}

/* ct_nona_theta_clean on the block solver's packed solution (each block's
 * active columns are its only nonzero ones, in column order). */
static void clean_packed(wait_lp_t *s, double threshold)
{
    const ct_nona_model_t *m = s->m;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double sum = 0;
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
            if (!(s->ax[k] >= threshold))
                s->ax[k] = 0;
            sum += s->ax[k];
        }
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++)
            s->ax[k] = sum > 0 ? s->ax[k] / sum : (s->dcol[k] == m->blocks[b].local_var);
    }
}

/* The block solver's last solution as a full theta. O(columns). */
static void wait_lp_theta(const wait_lp_t *s, double *theta)
{
    memset(theta, 0, s->m->n_vars * sizeof(double));
    for (size_t k = 0; k < s->n_dense; k++)
        theta[s->dcol[k]] = s->ax[k];
}

/* 1 if the block solver's packed solution is theta (the search finds the
 * incumbent again and again: no need to evaluate it). Blocks sum to 1 on
 * both sides, so equal active entries leave theta no others (cleaned
 * entries are 0 or >= 1e-12). */
static int same_as(const wait_lp_t *s, const double *theta)
{
    for (size_t k = 0; k < s->n_dense; k++)
        if (theta[s->dcol[k]] != s->ax[k])
            return 0;
    return 1;
}

/* Solves the LP with the objective at (po, wo) and the rows at (pr, wr).
 * *feasible = 0 when no theta has waits <= (pr, wr). Otherwise theta (may
 * be NULL) receives the LP's cleaned minimiser, *value its objective at
 * (po, wo) in J units (with the root waits at wo), *bound (may be NULL) the
 * Lagrangian lower bound in J units. */
static ct_status_t wait_lp_solve(wait_lp_t *s, double po, double wo, double pr, double wr, int *feasible,
                                 double *value, double *bound, double *theta, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    *feasible = 0;
    double rhs1 = 2.0 * pr * (1.0 - m->rho_bg) - m->m2_bg;
    if (rhs1 < 0)
        return CT_OK; /* below phi_lo: even all-local waits longer */
    double rhs2 = m->server_model ? 2.0 * wr * (1.0 - m->rho_s) - m->m2s_local : 1.0;
    ct_status_t st;
    double y1, y2, L = NAN; /* the Lagrangian value, scaled (the block solver forms it) */
    if (s->blp) {
        int ok;
        if ((st = restricted_solve(s, po, wo, pr, rhs1, rhs2, &ok, &y1, &y2, &L, err)) != CT_OK)
            return st;
        s->solves++;
        if (!ok)
            return CT_OK;
    } else {
        double tscale = 0;
        for (size_t w = 0; w < m->n_vars; w++) {
            s->c[w] = ct_nona_triplet_time(m, w, po, wo);
            if (s->c[w] > tscale)
                tscale = s->c[w];
        }
        if (!(tscale > 0))
            tscale = 1;
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            double share = m->beta[bl->cls] / s->beta_sum;
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                s->c[w] = share * s->c[w] / tscale;
                if ((st = ct_lp_set_obj(s->lp, w, s->c[w], err)) != CT_OK)
                    return st;
                s->v1[w] = row1_coef(m, w, m->beta[bl->cls], pr);
                s->v2[w] = row2_coef(m, w, m->beta[bl->cls]);
            }
        }
        s->tscale = tscale;
        if ((st = set_wait_row(s, m->n_blocks, s->v1, rhs1, s->v1, &s->r1, &s->scale1, err)) != CT_OK ||
            (st = set_wait_row(s, m->n_blocks + 1, s->v2, rhs2, s->v2, &s->r2, &s->scale2, err)) != CT_OK)
            return st;
        ct_lp_result_t res;
        double obj = 0;
        if ((st = ct_lp_solve(s->lp, &res, &obj, s->x, err)) != CT_OK)
            return st;
        s->solves++;
        if (res == CT_LP_INFEASIBLE)
            return CT_OK;
        if (res != CT_LP_OPTIMAL)
            return ct_error_set(err, CT_ESOLVER, "the wait LP is unbounded (a bug: the objective is bounded below)");
        y1 = -ct_lp_row_dual(s->lp, m->n_blocks);
        y2 = -ct_lp_row_dual(s->lp, m->n_blocks + 1);
    }
    *feasible = 1;
    double root = s->beta_sum * m->r_root * (m->server_model ? wo : 0.0);
    s->y1 = y1 = y1 > 0 ? y1 : 0;
    s->y2 = y2 = y2 > 0 ? y2 : 0;
    if (bound && isnan(L)) { /* GLPK: L(y) = sum_b min_w (c_w + y . A_w) - y . r at its duals */
        L = -y1 * s->r1 - y2 * s->r2;
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            double best = INFINITY;
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                double t = s->c[w] + y1 * s->v1[w] + y2 * s->v2[w];
                if (t < best)
                    best = t;
            }
            L += best;
        }
    }
    if (bound)
        *bound = s->constant + root + s->beta_sum * s->tscale * L;
    /* The objective from the cleaned theta, in the model's own units. */
    double v = s->constant + root;
    if (s->blp) { /* the solution stays packed: the same operations, in the same order */
        clean_packed(s, 1e-12);
        for (size_t k = 0; k < s->n_dense; k++)
            if (s->ax[k] > 0)
                v += s->beta_sum * s->tscale * s->ac[k] * s->ax[k];
        if (theta)
            wait_lp_theta(s, theta);
    } else {
        ct_nona_theta_clean(m, s->x, 1e-12); /* simplex round-off */
        for (size_t w = 0; w < m->n_vars; w++)
            if (s->x[w] > 0)
                v += s->beta_sum * s->tscale * s->c[w] * s->x[w];
        if (theta)
            memcpy(theta, s->x, m->n_vars * sizeof(double));
    }
    *value = v;
    return CT_OK;
}

ct_status_t ct_nona_lp_value(const ct_nona_model_t *m, ct_nona_lp_t lp, double phi, double W, double *value,
                             double *theta, ct_error_t *err)
{
    wait_lp_t s;
    int feasible;
    if (lp != CT_NONA_LP_BLOCK && lp != CT_NONA_LP_GLPK)
        return ct_error_set(err, CT_EINPUT, "lp: unknown LP solver %d", (int)lp);
    ct_status_t st = wait_lp_init(&s, m, lp, err);
    if (st == CT_OK)
        st = wait_lp_solve(&s, phi, W, phi, W, &feasible, value, NULL, theta, err);
    if (st == CT_OK && !feasible)
        *value = INFINITY;
    wait_lp_free(&s);
    return st;
}

/* All-local is always feasible: the starting incumbent of both searches.
 * Fills best with it, records its J in sol->J_local and returns it. */
static double local_incumbent(const ct_nona_model_t *m, double *best, ct_nona_solution_t *sol)
{
    ct_nona_eval_t e;
    ct_nona_theta_local(m, best);
    ct_nona_evaluate(m, best, &e, NULL);
    return sol->J_local = e.J;
}

/* ------------------------------------------------------------------------ */
/* Branch-and-bound over boxes of (phi, W).                                  */

typedef struct {
    double p0, p1, w0, w1;
    double lb;              /* lower bound on J over thetas with waits in the box */
    double dphi, dW;        /* how much the bound loses across each side */
} box_t;

/* Triplets of generated segments that priced out inside the search; the
 * caller adds them and searches again. */
typedef struct {
    size_t block;
    uint8_t k, l;
    uint8_t *assign;
} cg_column_t;

typedef struct {
    cg_column_t *v;
    size_t n, cap;
} cg_pending_t;

static void pending_free(cg_pending_t *pd)
{
    for (size_t i = 0; i < pd->n; i++)
        free(pd->v[i].assign);
    free(pd->v);
    memset(pd, 0, sizeof *pd);
}

/* Keeps a copy unless the same triplet is pending already. */
static ct_status_t pending_add(cg_pending_t *pd, size_t block, const ct_nona_priced_t *pr, size_t n_inner,
                               ct_error_t *err)
{
    for (size_t i = 0; i < pd->n; i++)
        if (pd->v[i].block == block && pd->v[i].k == pr->k && pd->v[i].l == pr->l &&
            !memcmp(pd->v[i].assign, pr->assign, n_inner))
            return CT_OK;
    if (pd->n == pd->cap) {
        size_t nc = pd->cap ? 2 * pd->cap : 16;
        cg_column_t *nv = realloc(pd->v, nc * sizeof *nv);
        if (!nv)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        pd->v = nv;
        pd->cap = nc;
    }
    cg_column_t *c = &pd->v[pd->n];
    if (!(c->assign = malloc(n_inner ? n_inner : 1)))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    memcpy(c->assign, pr->assign, n_inner);
    c->block = block;
    c->k = (uint8_t)pr->k;
    c->l = (uint8_t)pr->l;
    pd->n++;
    return CT_OK;
}

/* Generated segments with at most this many triplets are priced exactly in
 * every box of the search, which keeps its bounds valid for all triplets. */
#define CG_BOX_EXACT 20000

/* Whether block b's triplets are generated, and more than `limit`. */
static int generated_over(const ct_block_t *b, double limit)
{
    return b->generated && ct_partition_triplet_count(b->parts.n_inner) > limit;
}

typedef struct {
    wait_lp_t lp;
    double *theta, *best, *work;
    double best_J;
    box_t *heap;
    size_t n, cap;
    const ct_nona_solve_params_t *p;
    cg_pending_t *pending;  /* NULL: no generated segment small enough to price in boxes */
} bnb_t;

/* Exact pricing of the box's generated segments at its LP's multipliers
 * (objective at the lower corner, link row at the upper one): lowers *lb
 * by what missing triplets could save and queues those triplets. With an
 * infeasible box (*lb = NAN on entry), queues each segment's triplet of
 * least server pieces and least link use, which may make it feasible. */
static ct_status_t price_box(bnb_t *s, const box_t *b, double *lb, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    int infeasible = isnan(*lb);
    double y1 = 0, y2 = 0;
    if (!infeasible)
        wait_lp_multipliers(&s->lp, &y1, &y2);
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *bl = &m->blocks[bi];
        if (!bl->generated || generated_over(bl, CG_BOX_EXACT))
            continue;
        ct_nona_priced_t pr;
        ct_status_t st;
        if (infeasible) { /* the least server pieces, then the least link use */
            for (int which = 0; which < 2; which++) {
                if (which == 0 && !m->server_model)
                    continue;
                double a = which ? 1e6 : 0, c = which ? 0 : 1e6 * (double)m->servers;
                if ((st = ct_nona_price_block(m, bi, b->p1, b->w1, b->p1, a, c, CG_BOX_EXACT, 0, &pr, err)) != CT_OK)
                    return st;
                if (pr.value < ct_nona_block_price(m, bi, b->p1, b->w1, b->p1, a, c) - 1e-12 * fabs(pr.value))
                    st = pending_add(s->pending, bi, &pr, bl->parts.n_inner, err);
                ct_nona_priced_free(&pr);
                if (st != CT_OK)
                    return st;
            }
            continue;
        }
        if ((st = ct_nona_price_block(m, bi, b->p0, b->w0, b->p1, y1, y2, CG_BOX_EXACT, 0, &pr, err)) != CT_OK)
            return st;
        double fmin = ct_nona_block_price(m, bi, b->p0, b->w0, b->p1, y1, y2);
        if (pr.value < fmin - 1e-12 * fabs(fmin)) {
            *lb -= m->beta[bl->cls] * (fmin - pr.value);
            st = pending_add(s->pending, bi, &pr, bl->parts.n_inner, err);
        }
        ct_nona_priced_free(&pr);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

static int box_before(const box_t *a, const box_t *b)
{
    return a->lb < b->lb;
}

static ct_status_t heap_push(bnb_t *s, const box_t *b, ct_error_t *err)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        box_t *nh = realloc(s->heap, nc * sizeof(box_t));
        if (!nh)
            return ct_error_set(err, CT_ENOMEM, "out of memory (branch-and-bound boxes)");
        s->heap = nh;
        s->cap = nc;
    }
    size_t i = s->n++;
    while (i > 0 && box_before(b, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = *b;
    return CT_OK;
}

static box_t heap_pop(bnb_t *s)
{
    box_t top = s->heap[0], last = s->heap[--s->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->n)
            break;
        if (c + 1 < s->n && box_before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!box_before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->n)
        s->heap[i] = last;
    return top;
}

/* J of the block solver's last solution, kept packed (streaming:
 * ct_nona_evaluate's reads are scattered): with exact = 0 a lower bound,
 * each triplet's M bounded without exponentials
 * (ct_nona_tripinfo_time_lb). Sums in another order than
 * ct_nona_evaluate: equal to round-off. */
static double J_packed(const wait_lp_t *s, int exact)
{
    const ct_nona_model_t *m = s->m;
    double rho = m->rho_bg, m2 = m->m2_bg, m2s = m->m2s_local, J = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double beta = m->beta[m->blocks[b].cls];
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
            double th = s->ax[k];
            if (th > 0) {
                rho += beta * th * s->dinfo[k].a1;
                m2 += beta * th * s->dinfo[k].a2;
                m2s += beta * th * s->dinfo[k].q / (double)m->servers;
            }
        }
    }
    if (!(rho < 1.0))
        return INFINITY;
    double phi = m2 / (2.0 * (1.0 - rho)), W = ct_nona_server_wait(m, m2s);
    for (size_t j = 0; j < m->n_classes; j++)
        J += m->beta[j] * (m->classes[j].base + m->r_root * W);
    for (size_t b = 0; b < m->n_blocks; b++) {
        double beta = m->beta[m->blocks[b].cls];
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
            double th = s->ax[k];
            if (th <= 0)
                continue;
            const ct_tripinfo_t *t = &s->dinfo[k];
            J += beta * th *
                 (exact ? ct_nona_tripinfo_time(m, t, s->dbr + t->branch_start, phi, W)
                        : ct_nona_tripinfo_time_lb(m, t, s->dbr + t->branch_start, phi, W));
        }
    }
    return J;
}

/* theta (in s->theta) is feasible: keep it if better, then polish it by
 * re-solving at its own waits while J drops (each step cannot raise J). */
static ct_status_t consider(bnb_t *s, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    ct_nona_eval_t e;
    if (s->lp.blp) {
        /* not better (beyond round-off): spare the full theta and the
         * scattered exact evaluation */
        if (J_packed(&s->lp, 0) > s->best_J * (1 + 1e-12) || J_packed(&s->lp, 1) > s->best_J * (1 + 1e-12) ||
            same_as(&s->lp, s->best))
            return CT_OK;
        wait_lp_theta(&s->lp, s->theta);
    }
    ct_nona_evaluate(m, s->theta, &e, NULL);
    if (!(e.J < s->best_J))
        return CT_OK;
    s->best_J = e.J;
    memcpy(s->best, s->theta, m->n_vars * sizeof(double));
    for (size_t r = 0; r < s->p->max_polish; r++) {
        int feasible;
        double v;
        ct_status_t st = wait_lp_solve(&s->lp, e.phi, e.W, e.phi, e.W, &feasible, &v, NULL, s->work, err);
        if (st != CT_OK)
            return st;
        if (!feasible)
            break;
        ct_nona_evaluate(m, s->work, &e, NULL);
        if (!(e.J < s->best_J * (1 - 1e-15)))
            break;
        s->best_J = e.J;
        memcpy(s->best, s->work, m->n_vars * sizeof(double));
    }
    return CT_OK;
}

/* The box's spread along each side at theta (the last solve's, at the
 * box's lower corner): what moving phi, then W, to the upper corner adds
 * to the LP's objective. Picks the side to split. The block solver's
 * positive columns are packed: its pass streams through them. */
static void box_spread(const wait_lp_t *s, const double *theta, box_t *b)
{
    const ct_nona_model_t *m = s->m;
    b->dphi = b->dW = 0;
    if (s->blp) {
        for (size_t bi = 0; bi < m->n_blocks; bi++) {
            double beta = m->beta[m->blocks[bi].cls];
            for (size_t k = s->astart[bi]; k < s->astart[bi + 1]; k++) {
                double th = s->ax[k];
                if (th <= 0)
                    continue;
                const ct_tripinfo_t *t = &s->dinfo[k];
                const ct_branch_t *br = s->dbr + t->branch_start;
                double M0 = s->dM[k], bt = beta * th;
                b->dphi += bt * (ct_nona_tripinfo_time(m, t, br, b->p1, b->w0) - M0);
                b->dW += bt * (ct_nona_tripinfo_time(m, t, br, b->p0, b->w1) - M0);
            }
        }
    } else {
        for (size_t bi = 0; bi < m->n_blocks; bi++) {
            const ct_block_t *bl = &m->blocks[bi];
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                if (theta[w] <= 0)
                    continue;
                double M0 = lp_time(s, w, b->p0, b->w0), bt = m->beta[bl->cls] * theta[w];
                b->dphi += bt * (ct_nona_triplet_time(m, w, b->p1, b->w0) - M0);
                b->dW += bt * (ct_nona_triplet_time(m, w, b->p0, b->w1) - M0);
            }
        }
    }
    if (m->server_model)
        b->dW += s->beta_sum * m->r_root * (b->w1 - b->w0);
}

/* Bounds a box; pushes it unless it is infeasible or pruned. */
static ct_status_t box_process(bnb_t *s, box_t b, ct_error_t *err)
{
    int feasible;
    double v, lb;
    /* the block solver's solution stays packed (see consider) */
    ct_status_t st =
        wait_lp_solve(&s->lp, b.p0, b.w0, b.p1, b.w1, &feasible, &v, &lb, s->lp.blp ? NULL : s->theta, err);
    if (st != CT_OK)
        return st;
    if (!feasible) {
        double none = NAN;
        return s->pending ? price_box(s, &b, &none, err) : CT_OK;
    }
    b.lb = lb < v ? lb : v;
    if (s->pending && (st = price_box(s, &b, &b.lb, err)) != CT_OK)
        return st;
    box_spread(&s->lp, s->theta, &b);
    if ((st = consider(s, err)) != CT_OK)
        return st;
    if (b.lb < s->best_J * (1 - s->p->gap))
        return heap_push(s, &b, err);
    return CT_OK;
}

/* Splits [a, b] at its middle, geometric when it spans decades (the
 * optimum's waits often sit near the bottom of the range). */
static double split_point(double a, double b)
{
    if (a > 0 && b > 8 * a)
        return sqrt(a * b);
    return 0.5 * (a + b);
}

static ct_status_t solve_exact(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                               cg_pending_t *pending, ct_error_t *err)
{
    bnb_t s;
    memset(&s, 0, sizeof s);
    s.p = p;
    for (size_t b = 0; pending && b < m->n_blocks; b++)
        if (m->blocks[b].generated && !generated_over(&m->blocks[b], CG_BOX_EXACT))
            s.pending = pending;
    size_t n = m->n_vars ? m->n_vars : 1;
    s.theta = malloc(n * sizeof(double));
    s.best = malloc(n * sizeof(double));
    s.work = malloc(n * sizeof(double));
    ct_status_t st = CT_OK;
    if (!s.theta || !s.best || !s.work) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    s.best_J = local_incumbent(m, s.best, sol);
    double lo = ct_nona_phi_min(m), hi = ct_nona_phi_max(m), wlo, whi;
    ct_nona_W_range(m, &wlo, &whi);
    sol->phi_lo = lo;
    sol->phi_hi = hi > lo ? hi : lo;
    sol->W_lo = wlo;
    sol->W_hi = whi;
    sol->lower_bound = s.best_J;
    sol->gap = 0;
    if (m->n_vars == m->n_blocks)
        goto done; /* nothing to decide */
    if ((st = wait_lp_init(&s.lp, m, p->lp, err)) != CT_OK)
        goto done;
    box_t root = { lo, sol->phi_hi, wlo, whi, 0, 0, 0 };
    if ((st = box_process(&s, root, err)) != CT_OK)
        goto done;
    double proven = s.best_J; /* the least bound of the boxes dropped unexplored */
    while (s.n > 0) {
        if (s.heap[0].lb >= s.best_J * (1 - p->gap)) /* every box left is pruned */
            break;
        if (s.lp.solves >= p->max_lps)
            break;
        if (s.pending && s.pending->n > 0)
            break; /* triplets to add: the caller adds them and searches again */
        box_t b = heap_pop(&s);
        int can_phi = b.p1 - b.p0 > 1e-15 * (b.p1 > 0 ? b.p1 : 1);
        int can_W = b.w1 - b.w0 > 1e-15 * (b.w1 > 0 ? b.w1 : 1);
        if (!can_phi && !can_W) { /* as small as doubles allow: its bound is final */
            if (b.lb < proven)
                proven = b.lb;
            continue;
        }
        int on_phi = can_phi && (!can_W || b.dphi >= b.dW);
        box_t lo_box = b, hi_box = b;
        if (on_phi)
            lo_box.p1 = hi_box.p0 = split_point(b.p0, b.p1);
        else
            lo_box.w1 = hi_box.w0 = split_point(b.w0, b.w1);
        if ((st = box_process(&s, lo_box, err)) != CT_OK || (st = box_process(&s, hi_box, err)) != CT_OK)
            goto done;
    }
    for (size_t i = 0; i < s.n; i++)
        if (s.heap[i].lb < proven)
            proven = s.heap[i].lb;
    sol->lower_bound = proven < s.best_J ? proven : s.best_J;
    sol->gap = s.best_J > 0 ? (s.best_J - sol->lower_bound) / s.best_J : 0;
done:
    if (st == CT_OK) {
        memcpy(sol->theta, s.best, m->n_vars * sizeof(double));
        sol->lp_solves = s.lp.solves;
    }
    if (s.lp.lp || s.lp.blp || s.lp.cols)
        wait_lp_free(&s.lp);
    free(s.theta);
    free(s.best);
    free(s.work);
    free(s.heap);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The 1-D grid search of earlier versions (link-only model, no certificate). */

/* The search state: the best true J seen, and its theta. */
typedef struct {
    wait_lp_t lp;
    double *theta, *best;
    double best_J;
    ct_status_t st;
    ct_error_t *err;
} search_t;

/* V(phi), recording the LP's theta if its true J is the best so far. */
static double search_value(search_t *s, double phi)
{
    double v;
    if (s->st != CT_OK)
        return INFINITY;
    int feasible;
    if ((s->st = wait_lp_solve(&s->lp, phi, 0.0, phi, 0.0, &feasible, &v, NULL, s->theta, s->err)) != CT_OK ||
        !feasible)
        return INFINITY;
    ct_nona_eval_t e;
    ct_nona_evaluate(s->lp.m, s->theta, &e, NULL);
    if (e.J < s->best_J) {
        s->best_J = e.J;
        memcpy(s->best, s->theta, s->lp.m->n_vars * sizeof(double));
    }
    return v;
}

static double gsl_value(double phi, void *ctx)
{
    double v = search_value(ctx, phi);
    return isfinite(v) ? v : 1e300;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ct_status_t solve_grid(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                               ct_error_t *err)
{
    search_t s;
    memset(&s, 0, sizeof s);
    s.err = err;
    s.best_J = INFINITY;
    size_t n = m->n_vars ? m->n_vars : 1, G = p->grid; /* checked: >= 4 */
    s.theta = malloc(n * sizeof(double));
    s.best = malloc(n * sizeof(double));
    double *grid = malloc(G * sizeof(double)), *gv = malloc(G * sizeof(double));
    gsl_min_fminimizer *fm = NULL;
    ct_status_t st = CT_OK;
    if (!s.theta || !s.best || !grid || !gv) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    s.best_J = local_incumbent(m, s.best, sol);
    double lo = ct_nona_phi_min(m), hi = ct_nona_phi_max(m);
    sol->phi_lo = lo;
    sol->phi_hi = hi > lo ? hi : lo;
    if (m->n_vars == m->n_blocks || !(hi > lo))
        goto done; /* nothing to decide, or nothing can beat local */
    if ((st = wait_lp_init(&s.lp, m, p->lp, err)) != CT_OK)
        goto done;
    /* Grid: half geometric from just above phi_lo (the optimum often sits
     * near the bottom), half uniform. */
    size_t half = G / 2;
    double span = hi - lo;
    for (size_t i = 0; i < G; i++) {
        double f = i < half ? 1e-6 * pow(1e6, (double)i / (double)(half - 1)) : (double)(i - half + 1) / (double)(G - half);
        grid[i] = lo + span * f;
    }
    for (size_t i = 1; i < G; i++) /* insertion sort: small */
        for (size_t k = i; k > 0 && grid[k] < grid[k - 1]; k--) {
            double t = grid[k];
            grid[k] = grid[k - 1];
            grid[k - 1] = t;
        }
    size_t arg = 0;
    for (size_t i = 0; i < G; i++) {
        gv[i] = search_value(&s, grid[i]);
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        if (gv[i] < gv[arg])
            arg = i;
    }
    /* Brent on the best grid cell when it is a proper bracket. */
    if (arg > 0 && arg + 1 < G && gv[arg] < gv[arg - 1] && gv[arg] < gv[arg + 1]) {
        gsl_function F = { gsl_value, &s };
        fm = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
        if (!fm) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory (GSL minimiser)");
            goto done;
        }
        int gs = gsl_min_fminimizer_set_with_values(fm, &F, grid[arg], gv[arg], grid[arg - 1], gv[arg - 1],
                                                    grid[arg + 1], gv[arg + 1]);
        for (int it = 0; gs == GSL_SUCCESS && it < 100; it++) {
            gs = gsl_min_fminimizer_iterate(fm);
            if (gs != GSL_SUCCESS || s.st != CT_OK)
                break;
            double a = gsl_min_fminimizer_x_lower(fm), b = gsl_min_fminimizer_x_upper(fm);
            if (gsl_min_test_interval(a, b, 0.0, 1e-12) == GSL_SUCCESS)
                break;
        }
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        /* A GSL failure here (e.g. no progress on a flat stretch) only ends
         * the refinement; the grid and polish results stand. */
    }
    /* Polish: re-solve at the incumbent's own phi while J drops. */
    for (size_t r = 0; r < p->max_polish; r++) {
        ct_nona_eval_t e;
        ct_nona_evaluate(m, s.best, &e, NULL);
        double before = s.best_J;
        search_value(&s, e.phi);
        if (s.st != CT_OK) {
            st = s.st;
            goto done;
        }
        if (!(s.best_J < before * (1 - 1e-15)))
            break;
    }
done:
    if (st == CT_OK) {
        memcpy(sol->theta, s.best, m->n_vars * sizeof(double));
        sol->lp_solves = s.lp.solves;
    }
    if (fm)
        gsl_min_fminimizer_free(fm);
    if (s.lp.lp || s.lp.blp || s.lp.cols)
        wait_lp_free(&s.lp);
    free(s.theta);
    free(s.best);
    free(grid);
    free(gv);
    return st;
}

static ct_status_t solve_once(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                             cg_pending_t *pending, ct_error_t *err)
{
    ct_nona_solve_params_t defaults;
    if (!p) {
        ct_nona_solve_params_init(&defaults);
        p = &defaults;
    }
    ct_gsl_quiet();
    memset(sol, 0, sizeof *sol);
    sol->method = p->method;
    sol->theta = calloc(m->n_vars ? m->n_vars : 1, sizeof(double));
    sol->tau = calloc(m->n_classes ? m->n_classes : 1, sizeof(double));
    if (!sol->theta || !sol->tau) {
        ct_nona_solution_free(sol);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    ct_status_t st = ct_nona_solve_params_check(p, "", err);
    if (st == CT_OK && p->method == CT_NONA_GRID && m->server_model)
        st = ct_error_set(err, CT_EINPUT, "method grid: solves the link-only model only (use exact, or the link model)");
    if (st != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    sol->gap = NAN;
    double t0 = now_seconds();
    st = p->method == CT_NONA_EXACT ? solve_exact(m, p, sol, pending, err)
         : p->method == CT_NONA_GRID ? solve_grid(m, p, sol, err)
                                     : ct_nona_solve_penalty(m, p, sol, err);
    if (st != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    ct_nona_theta_clean(m, sol->theta, p->prune); /* the table lists positive probabilities */
    ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
    sol->seconds = now_seconds() - t0;
    if (!isfinite(sol->eval.J)) {
        st = ct_error_set(err, CT_ESOLVER, "the %s solver returned an unstable placement (rho = %g)",
                          ct_nona_method_name(p->method), sol->eval.rho);
        ct_nona_solution_free(sol);
        return st;
    }
    return CT_OK;
}

/* Column generation prices at the solution's waits and at CG_SPREAD phi
 * values across the search range (x 3 server waits with the server model). */
#define CG_SPREAD 6

/* The wait LP's multipliers at the solution's own waits, in model units
 * (see nona_columns.c): *y1 per unit of a2 + 2 phi a1, *y2 per unit of
 * q / N. */
static ct_status_t multipliers_at(const ct_nona_model_t *m, double phi, double W, double *y1, double *y2,
                                  ct_error_t *err)
{
    wait_lp_t s;
    ct_status_t st = wait_lp_init(&s, m, CT_NONA_LP_BLOCK, err);
    *y1 = *y2 = 0;
    for (int tries = 0; st == CT_OK && tries < 4; tries++) {
        int feasible = 0;
        double v;
        /* the solution's waits, relaxed by round-off if need be */
        double grow = tries ? pow(10.0, -12 + 2 * tries) : 0;
        if ((st = wait_lp_solve(&s, phi, W, phi * (1 + grow), W * (1 + grow), &feasible, &v, NULL, NULL, err)) !=
                CT_OK ||
            !feasible)
            continue;
        wait_lp_multipliers(&s, y1, y2);
        break;
    }
    wait_lp_free(&s);
    return st;
}

/* One pricing round of column generation: at the solution's waits (where
 * each segment's gap is measured, into gap[] and *column_gap), then over a
 * spread of the search range, so that triplets that pay only at other
 * waits get their chance too (searched segments only with price_spread).
 * Adds what lowers the LP's value when `add`; *added counts it. */
static ct_status_t price_round(ct_nona_model_t *m, const ct_nona_solve_params_t *p, const ct_nona_solution_t *sol,
                               int add, double *gap, double *column_gap, size_t *added, ct_error_t *err)
{
    double plo = ct_nona_phi_min(m), phi_hi = ct_nona_phi_max(m), wlo, whi, pts[1 + 3 * CG_SPREAD][2];
    size_t npts = 1;
    ct_nona_W_range(m, &wlo, &whi);
    pts[0][0] = sol->eval.phi;
    pts[0][1] = sol->eval.W;
    for (size_t i = 0; i < CG_SPREAD; i++) {
        double f = (double)(i + 1) / (double)(CG_SPREAD + 1);
        double ph = plo > 0 && phi_hi > 8 * plo ? plo * pow(phi_hi / plo, f) : plo + (phi_hi - plo) * f;
        for (int j = 0; j < (m->server_model ? 3 : 1); j++) {
            pts[npts][0] = ph;
            pts[npts++][1] = j == 0 ? wlo : j == 1 ? whi : 0.5 * (wlo + whi);
        }
    }
    *column_gap = 0;
    *added = 0;
    ct_status_t st = CT_OK;
    for (size_t pi = 0; pi < npts && st == CT_OK; pi++) {
        double y1, y2, phi = pts[pi][0], W = pts[pi][1];
        if ((st = multipliers_at(m, phi, W, &y1, &y2, err)) != CT_OK)
            break;
        for (size_t b = 0; b < m->n_blocks && st == CT_OK; b++) {
            if (!m->blocks[b].generated ||
                (pi > 0 && !p->price_spread && generated_over(&m->blocks[b], (double)p->price_exact)))
                continue;
            ct_nona_priced_t pr;
            if ((st = ct_nona_price_block(m, b, phi, W, phi, y1, y2, p->price_exact, p->price_evals, &pr, err)) !=
                CT_OK)
                break;
            double fmin = ct_nona_block_price(m, b, phi, W, phi, y1, y2);
            if (pi == 0) {
                gap[b] = fmax(0.0, fmin - pr.bound);
                *column_gap += m->beta[m->blocks[b].cls] * gap[b];
            }
            if (add && pr.value < fmin - 1e-12 * fabs(fmin)) {
                uint8_t k = (uint8_t)pr.k, l = (uint8_t)pr.l;
                st = ct_nona_model_add_triplets(m, b, 1, pr.assign, &k, &l, err);
                ++*added;
            }
            ct_nona_priced_free(&pr);
        }
    }
    return st;
}

/* solve_once, then column generation for generated segments: add the
 * triplets that priced out inside the search, or else those a pricing
 * round finds, and solve again, until none is found (or cg_rounds); the
 * last round's gaps go into the solution. */
static ct_status_t solve_columns(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                                 ct_error_t *err)
{
    ct_nona_solve_params_t defaults;
    if (!p) {
        ct_nona_solve_params_init(&defaults);
        p = &defaults;
    }
    int any = 0;
    for (size_t b = 0; b < m->n_blocks; b++)
        any |= m->blocks[b].generated;
    cg_pending_t pend = { NULL, 0, 0 };
    ct_status_t st = solve_once(m, p, sol, any ? &pend : NULL, err);
    if (st != CT_OK || !any) {
        pending_free(&pend);
        return st;
    }
    double seconds = sol->seconds, *gap = calloc(m->n_blocks, sizeof(double));
    size_t lps = sol->lp_solves, added = 0, rounds = 1;
    if (!gap)
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    while (st == CT_OK) {
        double t0 = now_seconds(), column_gap = 0;
        size_t added_now = 0;
        if (pend.n > 0 && rounds < p->cg_rounds) { /* priced out inside the search */
            for (size_t i = 0; i < pend.n && st == CT_OK; i++)
                st = ct_nona_model_add_triplets(m, pend.v[i].block, 1, pend.v[i].assign, &pend.v[i].k, &pend.v[i].l,
                                                err);
            added_now = pend.n;
        } else {
            st = price_round(m, p, sol, rounds < p->cg_rounds, gap, &column_gap, &added_now, err);
        }
        pending_free(&pend);
        seconds += now_seconds() - t0;
        if (st != CT_OK)
            break;
        if (!added_now) {
            sol->segment_gap = gap;
            sol->column_gap = column_gap;
            gap = NULL;
            break;
        }
        added += added_now;
        rounds++;
        ct_nona_solution_free(sol);
        if ((st = solve_once(m, p, sol, &pend, err)) != CT_OK)
            break;
        seconds += sol->seconds;
        lps += sol->lp_solves;
    }
    pending_free(&pend);
    free(gap);
    if (st != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    sol->seconds = seconds;
    sol->lp_solves = lps;
    sol->cg_rounds = rounds;
    sol->columns_added = added;
    return CT_OK;
}

ct_status_t ct_nona_solve(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                          ct_error_t *err)
{
    /* Start the fixed point from the same share every time, so a solve does
     * not depend on what was evaluated on the model before it. */
    ct_nona_model_set_root_share(m, 1.0);
    ct_status_t st = solve_columns(m, p, sol, err);
    if (st != CT_OK || m->root_choices <= 1 || !m->server_model)
        return st;
    /* The root rule's benefit depends on how much work it steers: iterate
     * the share to a fixed point. */
    double total = sol->seconds;
    size_t lps = sol->lp_solves, rounds = sol->cg_rounds, added = sol->columns_added;
    for (int it = 0; it < 5; it++) {
        double a = ct_nona_root_share(m, sol->theta);
        if (fabs(a - m->root_share) < 1e-3)
            break;
        ct_nona_model_set_root_share(m, a);
        ct_nona_solution_free(sol);
        if ((st = solve_columns(m, p, sol, err)) != CT_OK)
            return st;
        total += sol->seconds;
        lps += sol->lp_solves;
        rounds += sol->cg_rounds;
        added += sol->columns_added;
    }
    sol->seconds = total;
    sol->lp_solves = lps;
    sol->cg_rounds = rounds;
    sol->columns_added = added;
    return CT_OK;
}
