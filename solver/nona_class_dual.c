/*
 * nona_class_dual.c - the class dual: a lower bound on J over a box of
 * waits that keeps each job's server pieces exact.
 *
 * The wait LP (nona_wait_lp.c) bounds a box [p0, p1] x [w0, w1] with the
 * server row linear in theta: the linearised row or a cut of the pieces'
 * second moment. But with job-first waits W rides on the expected squares
 * of each job's pieces, which is multilinear in its segments' thetas, and
 * however small the box the LP's bound stays below J by what the linear
 * row lets split jobs hide: a floor (4% of J on issue #27's mixed fleets)
 * that more boxes do not pass.
 *
 * Here the two wait rows are relaxed with multipliers instead, the server
 * row on the pieces' m2_s itself. For every theta in the box
 *   J >= sum_j beta_j base_j + sum_w beta M_w(p0, w0) theta_w + root(theta),
 *   root(theta) = B r_root W(theta) >= max(k pv(theta), B r_root w0),
 * pv the pieces' m2_s (W's is never below it), k = B r_root / (2 (1 -
 * rho_s)); the rows are link(theta) <= r1 (phi <= p1) and pv(theta) <=
 * R(w1) = 2 w1 (1 - rho_s). With y1 >= 0 on the link row, yp >= 0 on the
 * server row and max(a, b) >= mu a + (1 - mu) b, mu in [0, 1], the
 * Lagrangian is linear in theta plus g pv(theta), g = mu k + yp; taking
 * the best mu and yp for a given g,
 *   L(y1, g) = sum_j beta_j base_j + sum_j min_{pure placements of class j}
 *              [sum_seg beta (M_w + y1 link_w) + g beta pieces_j / N]
 *              + g m2_bg_s - y1 r1 + c(g),
 *   c(g) = B r_root w0 (1 - g / k) for g <= k, -(g - k) R(w1) beyond.
 * The pieces' second moment under theta is the expectation over segments
 * drawn independently, multilinear in the blocks' thetas, so its minimum
 * over the product of simplices sits at a vertex: each class on one
 * triplet per segment. That minimum is a pass over the class's segments
 * in order whose state is the job's open piece o (the work on its current
 * server since the last close): a triplet that keeps the piece open adds
 * its head to o; one that closes it adds (o + head)^2 to the closed
 * squares and opens its tail. The future cost only grows with o, so a
 * segment keeps the states no other beats in both o and cost (a handful
 * here). L(y1, g) is concave, each pass gives its value and a
 * supergradient (the minimiser's link load and pieces), and Kelley's
 * cutting planes in the two multipliers climb it from the wait LP's own
 * multipliers until the box is pruned or the planes' maximum is within a
 * millionth. Every L is a bound whatever the multipliers: the certificate
 * does not rest on the search converging.
 *
 * The LP's bound is L at its multipliers with the linear row in place of
 * pv: the class dual is at least as tight wherever pv is above the row
 * (split jobs), and its duality gap falls like the share of one class in
 * J (many small independent classes, two coupling rows).
 *
 * The classes' passes are independent: with a team (the solve's threads,
 * lent by the wait LP) and enough classes, a pass runs in pieces of
 * classes, each with its own states. A state carries only its open piece
 * and cost; the minimiser's closed squares and link load are added up
 * along its path after the pass, in the pass's order, so a piece's sums
 * are the same doubles as one thread's.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "nona_class_dual.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DUAL_STATES 256     /* states kept per segment; beyond, neighbours merge (still a bound) */
#define DUAL_PASSES 24      /* passes per box at most */
#define DUAL_TOL 1e-6       /* stop when the planes' maximum is within this share of the bound */

int ct_class_dual_applies(const ct_nona_model_t *m)
{
    return m->server_model && m->reentry;
}

/* Scratch sc's arrays (the states of one segment, and the backtrack's
 * per segment): 0 when out of memory. */
static int scratch_init(const ct_class_dual_t *d, ct_class_dual_scratch_t *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->cur = malloc(d->cap * sizeof *sc->cur);
    sc->pick = malloc((d->max_blocks ? d->max_blocks : 1) * d->cap * sizeof *sc->pick);
    sc->from = malloc((d->max_blocks ? d->max_blocks : 1) * d->cap * sizeof *sc->from);
    return sc->cur && sc->pick && sc->from;
}

static void scratch_free(ct_class_dual_scratch_t *sc)
{
    free(sc->cur);
    free(sc->next);
    free(sc->next2);
    free(sc->pick);
    free(sc->from);
}

ct_class_dual_t *ct_class_dual_alloc(const ct_nona_model_t *m)
{
    ct_class_dual_t *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->m = m;
    for (size_t j = 0; j < m->n_classes; j++)
        d->max_blocks = m->classes[j].n_blocks > d->max_blocks ? m->classes[j].n_blocks : d->max_blocks;
    d->cap = DUAL_STATES;
    d->team_classes = CT_CLASS_DUAL_TEAM_CLASSES;
    d->sc = calloc(1, sizeof *d->sc);
    if (d->sc)
        d->n_sc = 1;
    d->chosen = malloc((m->n_blocks ? m->n_blocks : 1) * sizeof *d->chosen);
    d->cv = malloc(3 * (m->n_classes ? m->n_classes : 1) * sizeof(double));
    d->cl = d->cv ? d->cv + m->n_classes : NULL;
    d->cp = d->cv ? d->cl + m->n_classes : NULL;
    d->n_close = malloc((m->n_blocks ? m->n_blocks : 1) * sizeof *d->n_close);
    if (!d->sc || !scratch_init(d, &d->sc[0]) || !d->chosen || !d->n_close || !d->cv) {
        ct_class_dual_free(d);
        return NULL;
    }
    return d;
}

void ct_class_dual_free(ct_class_dual_t *d)
{
    if (!d)
        return;
    free(d->cost);
    free(d->row1);
    free(d->exact);
    free(d->line);
    free(d->chosen);
    free(d->cv);
    for (size_t i = 0; i < d->n_sc; i++)
        scratch_free(&d->sc[i]);
    free(d->sc);
    free(d->order);
    free(d->n_close);
    free(d);
}

/* Merges fronts a[0 .. na) and b[0 .. nb) (each: o ascending, c strictly
 * descending) into out: the states neither beats. Returns its size. */
static size_t front_merge(const ct_class_dual_state_t *a, size_t na, const ct_class_dual_state_t *b, size_t nb,
                          ct_class_dual_state_t *out)
{
    size_t i = 0, j = 0, n = 0;
    double cmin = INFINITY;
    while (i < na || j < nb) {
        const ct_class_dual_state_t *x =
            j >= nb || (i < na && (a[i].o < b[j].o || (a[i].o == b[j].o && a[i].c <= b[j].c))) ? &a[i++] : &b[j++];
        if (x->c < cmin) {
            cmin = x->c;
            out[n++] = *x;
        }
    }
    return n;
}

/* Per block, its columns that close the open piece in order of their
 * tails, then the others (order[var_start ..], n_close per block). */
static ct_status_t order_columns(ct_class_dual_t *d, double p0, double w0, ct_error_t *err)
{
    const ct_nona_model_t *m = d->m;
    size_t *o = realloc(d->order, (m->n_vars ? m->n_vars : 1) * sizeof *o);
    if (o)
        d->order = o;
    double *ln = o ? realloc(d->line, 3 * (m->n_vars ? m->n_vars : 1) * sizeof *ln) : NULL;
    if (!ln)
        return ct_error_set(err, CT_ENOMEM, "out of memory (class dual)");
    d->line = ln;
    /* each column's branch line a + n phi + c W_part that is the largest
     * at these waits: any branch's mean bounds M below, everywhere (the
     * boxes' lower bounds before a pass picks the column) */
    double Wp = m->r_part * w0;
    for (size_t w = 0; w < m->n_vars; w++) {
        const ct_tripinfo_t *t = &m->trip[w];
        const ct_branch_t *br = m->branches + t->branch_start;
        double best = -INFINITY, *l = ln + 3 * w;
        l[0] = l[1] = l[2] = 0;
        for (size_t i = 0; i < t->n_branches; i++) {
            double c = br[i].w + (br[i].remote && m->rho_s > 0 ? 1.0 : 0.0), v = br[i].a + br[i].n * p0 + c * Wp;
            if (v > best) {
                best = v;
                l[0] = br[i].a;
                l[1] = br[i].n;
                l[2] = c;
            }
        }
    }
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        size_t nc = 0, *x = o + b->var_start;
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            if (m->trip[w].vh_close) { /* insertion by tail (blocks are small; generated ones grow slowly) */
                size_t k = nc++;
                for (; k > 0 && m->trip[x[k - 1]].vh_tail > m->trip[w].vh_tail; k--)
                    x[k] = x[k - 1];
                x[k] = w;
            }
        size_t k = nc;
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            if (!m->trip[w].vh_close)
                x[k++] = w;
        d->n_close[bi] = nc;
    }
    d->ordered = m->n_vars;
    return CT_OK;
}

/* Class j's pass at (y1, g) with scratch sc: its minimum (J units), the
 * minimiser's link load (beta link) and pieces (beta pieces / N) into
 * cv[j], cl[j], cp[j], its triplets into chosen[]. Writes only class j's
 * slots and sc: passes of different classes run side by side. */
static ct_status_t class_pass(const ct_class_dual_t *d, ct_class_dual_scratch_t *sc, size_t j, double y1, double g,
                              ct_error_t *err)
{
    const ct_nona_model_t *m = d->m;
    const ct_model_class_t *mc = &m->classes[j];
    const ct_split_t *sp = &mc->split;
    double gb = g * m->beta[j] / (double)m->servers, o0 = sp->dag.time[sp->bottlenecks[0]] / m->speed;
    size_t n = 1;
    sc->cur[0] = (ct_class_dual_state_t){ o0, 0, 0, 0 };
    for (size_t si = 0; si < mc->n_blocks; si++) {
        const ct_block_t *b = &m->blocks[mc->block_start + si];
        size_t ncl = d->n_close[mc->block_start + si];
        size_t need = ncl + (b->n_vars - ncl + 1) * n; /* (+ n: a merge's run sits after its front) */
        if (need > sc->next_cap) {
            ct_class_dual_state_t *nn = realloc(sc->next, need * sizeof *nn);
            if (nn)
                sc->next = nn;
            ct_class_dual_state_t *n2 = nn ? realloc(sc->next2, need * sizeof *n2) : NULL;
            if (!n2)
                return ct_error_set(err, CT_ENOMEM, "out of memory (class dual states)");
            sc->next2 = n2;
            sc->next_cap = need;
        }
        /* the closing columns' states (one each: the best state to
         * close from), in order of their tails: a front */
        ct_class_dual_state_t *F = sc->next, *T = sc->next2;
        const size_t *ord = d->order + b->var_start, nc = ncl;
        size_t nf = 0;
        for (size_t x = 0; x < nc; x++) {
            size_t w = ord[x], bi = 0;
            const ct_tripinfo_t *t = &m->trip[w];
            double bv = INFINITY;
            for (size_t i = 0; i < n; i++) {
                double h = sc->cur[i].o + t->vh_head, v = sc->cur[i].c + gb * h * h;
                if (v < bv)
                    bv = v, bi = i;
            }
            double c = bv + d->cost[w] + y1 * d->row1[w] + gb * t->vh_sq;
            if (nf > 0 && !(c < F[nf - 1].c))
                continue;
            if (nf > 0 && F[nf - 1].o == t->vh_tail)
                nf--;
            F[nf++] = (ct_class_dual_state_t){ t->vh_tail, c, (uint32_t)w, (uint32_t)bi };
        }
        /* each column that keeps it open shifts the current front */
        for (size_t x = nc; x < b->n_vars; x++) {
            size_t w = ord[x];
            const ct_tripinfo_t *t = &m->trip[w];
            double C = d->cost[w] + y1 * d->row1[w] + gb * t->vh_sq;
            ct_class_dual_state_t *R = T + nf; /* (room: the merge writes at most nf + n) */
            for (size_t i = 0; i < n; i++)
                R[i] = (ct_class_dual_state_t){ sc->cur[i].o + t->vh_head, sc->cur[i].c + C, (uint32_t)w,
                                                (uint32_t)i };
            size_t nm = front_merge(F, nf, R, n, T);
            ct_class_dual_state_t *sw = F;
            F = T;
            T = sw;
            nf = nm;
        }
        n = nf;
        if (F != sc->next)
            memcpy(sc->next, F, n * sizeof *F);
        /* too many: merge neighbours into (the lower o, the lower
         * cost), which no future step charges more than either */
        while (n > d->cap) {
            size_t h = 0;
            for (size_t i = 0; i + 1 < n; i += 2) {
                sc->next[h] = sc->next[i + 1];
                sc->next[h++].o = sc->next[i].o;
            }
            if (n % 2)
                sc->next[h++] = sc->next[n - 1];
            n = h;
            sc->capped = 1;
        }
        memcpy(sc->cur, sc->next, n * sizeof *sc->cur);
        for (size_t i = 0; i < n; i++) {
            sc->pick[si * d->cap + i] = sc->cur[i].w;
            sc->from[si * d->cap + i] = sc->cur[i].from;
        }
    }
    size_t best = 0;
    double bv = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = sc->cur[i].c + gb * sc->cur[i].o * sc->cur[i].o;
        if (v < bv)
            bv = v, best = i;
    }
    d->cv[j] = bv;
    for (size_t si = mc->n_blocks, i = best; si-- > 0;) {
        d->chosen[mc->block_start + si] = sc->pick[si * d->cap + i];
        i = sc->from[si * d->cap + i];
    }
    /* the minimiser's closed squares and link load, added along its path in
     * the order the pass took them (the same sums; with merged states, the
     * path's own) */
    double o = o0, pc = 0, r1 = 0;
    for (size_t si = 0; si < mc->n_blocks; si++) {
        size_t w = d->chosen[mc->block_start + si];
        const ct_tripinfo_t *t = &m->trip[w];
        if (t->vh_close) {
            double h = o + t->vh_head;
            pc = pc + h * h + t->vh_sq;
            o = t->vh_tail;
        } else {
            o = o + t->vh_head;
            pc = pc + t->vh_sq;
        }
        r1 = r1 + d->row1[w];
    }
    d->cl[j] = r1;
    d->cp[j] = m->beta[j] * (pc + o * o) / (double)m->servers;
    return CT_OK;
}

/* Class j's pass with every column of its minimiser at its exact M: a
 * column it picks on a lower bound gets its exact M (and so do the
 * columns of its block that the pick's exact cost does not beat on their
 * bounds) and the class is passed again (only raising costs, so the
 * result is the pass with every M exact: its value and its
 * supergradient), until none does. Most columns never need their M (the
 * exponentials of E[max]). Writes only class j's columns and slots. */
static ct_status_t class_pass_exact(const ct_class_dual_t *d, ct_class_dual_scratch_t *sc, size_t j, double p0,
                                    double w0, double y1, double g, ct_error_t *err)
{
    const ct_nona_model_t *m = d->m;
    const ct_model_class_t *mc = &m->classes[j];
    double beta = m->beta[j], gb = g * beta / (double)m->servers;
    for (;;) {
        ct_status_t st = class_pass(d, sc, j, y1, g, err);
        if (st != CT_OK)
            return st;
        int redo = 0;
        for (size_t bi = mc->block_start; bi < mc->block_start + mc->n_blocks; bi++) {
            size_t w = d->chosen[bi];
            if (d->exact[w])
                continue;
            const ct_block_t *b = &m->blocks[bi];
            d->cost[w] = beta * ct_nona_triplet_time(m, w, p0, w0);
            d->exact[w] = 1;
            double cw = d->cost[w] + y1 * d->row1[w] + gb * m->trip[w].vh_sq;
            for (size_t x = b->var_start; x < b->var_start + b->n_vars; x++)
                if (!d->exact[x] && d->cost[x] + y1 * d->row1[x] + gb * m->trip[x].vh_sq < cw) {
                    d->cost[x] = beta * ct_nona_triplet_time(m, x, p0, w0);
                    d->exact[x] = 1;
                }
            redo = 1;
        }
        if (!redo)
            return CT_OK;
    }
}

/* A team run's piece: the passes of its share of the classes. */
typedef struct {
    ct_class_dual_t *d;
    size_t pieces;
    double p0, w0, y1, g;
} pass_run_t;

static void pass_piece(size_t i, void *arg)
{
    const pass_run_t *r = arg;
    ct_class_dual_t *d = r->d;
    ct_class_dual_scratch_t *sc = &d->sc[i];
    size_t nc = d->m->n_classes, lo = nc * i / r->pieces, hi = nc * (i + 1) / r->pieces;
    for (size_t j = lo; j < hi && sc->st == CT_OK; j++)
        sc->st = class_pass_exact(d, sc, j, r->p0, r->w0, r->y1, r->g, &sc->err);
}

/* Pieces a team run hands out per thread (its load spread). */
#define TEAM_PIECES 4

/* Every class's pass at (y1, g) with its minimiser's columns exact
 * (class_pass_exact): its value, supergradient and, when theta is not
 * NULL, its minimiser. On the borrowed team when there is one and enough
 * classes: pieces of classes, each with its own scratch; the same doubles
 * as in one thread (each class's sums are its own, added in class order
 * here). */
static ct_status_t exact_pass(ct_class_dual_t *d, double p0, double w0, double y1, double g, double *value,
                              double *link, double *pieces, double *theta, ct_error_t *err)
{
    const ct_nona_model_t *m = d->m;
    d->capped = 0;
    d->evals++;
    size_t np = 1;
    if (d->team && m->n_classes >= d->team_classes) {
        np = (size_t)ct_team_size(d->team) * TEAM_PIECES;
        if (np > m->n_classes)
            np = m->n_classes;
        if (np > d->n_sc) { /* (scratch for each piece, kept) */
            ct_class_dual_scratch_t *sc = realloc(d->sc, np * sizeof *sc);
            if (!sc)
                return ct_error_set(err, CT_ENOMEM, "out of memory (class dual)");
            d->sc = sc;
            for (; d->n_sc < np; d->n_sc++)
                if (!scratch_init(d, &d->sc[d->n_sc])) {
                    scratch_free(&d->sc[d->n_sc]);
                    return ct_error_set(err, CT_ENOMEM, "out of memory (class dual)");
                }
        }
    }
    for (size_t i = 0; i < np; i++) {
        d->sc[i].st = CT_OK;
        d->sc[i].capped = 0;
    }
    pass_run_t run = { d, np, p0, w0, y1, g };
    ct_team_run(np > 1 ? d->team : NULL, np, pass_piece, &run);
    for (size_t i = 0; i < np; i++) {
        if (d->sc[i].st != CT_OK) {
            if (err)
                *err = d->sc[i].err;
            return d->sc[i].st;
        }
        d->capped |= d->sc[i].capped;
    }
    double v = 0, l = 0, pc = 0;
    for (size_t j = 0; j < m->n_classes; j++) {
        v += d->cv[j];
        l += d->cl[j];
        pc += d->cp[j];
    }
    *value = v;
    *link = l;
    *pieces = pc;
    if (theta) {
        memset(theta, 0, m->n_vars * sizeof(double));
        for (size_t bi = 0; bi < m->n_blocks; bi++)
            theta[d->chosen[bi]] = 1.0;
    }
    return CT_OK;
}

typedef struct {
    double y1, g, L, s1, sg; /* a point, L there and a supergradient */
} plane_t;

/* The planes' minimum at (y1, g). */
static double planes_at(const plane_t *p, size_t n, double y1, double g)
{
    double u = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = p[i].L + p[i].s1 * (y1 - p[i].y1) + p[i].sg * (g - p[i].g);
        u = v < u ? v : u;
    }
    return u;
}

/* A box of multipliers [y1a, y1b] x [ga, gb]. */
typedef struct {
    double y1a, y1b, ga, gb;
} region_t;

static void try_point(const plane_t *p, size_t n, const region_t *r, double y1, double g, double *by1, double *bg,
                      double *bu)
{
    if (!(y1 >= r->y1a && y1 <= r->y1b && g >= r->ga && g <= r->gb))
        return;
    double u = planes_at(p, n, y1, g);
    if (u > *bu)
        *bu = u, *by1 = y1, *bg = g;
}

/* Kelley's step: the maximum of the planes' minimum over region r (a
 * vertex: two planes meeting on an edge of the region, three meeting
 * inside, or a corner). O(n^4) for n planes (n <= DUAL_PASSES). */
static double planes_max(const plane_t *p, size_t n, const region_t *r, double *y1, double *g)
{
    double bu = -INFINITY, a[DUAL_PASSES];
    *y1 = r->y1a;
    *g = r->ga;
    for (size_t i = 0; i < n; i++)
        a[i] = p[i].L - p[i].s1 * p[i].y1 - p[i].sg * p[i].g;
    const double ex[2] = { r->y1a, r->y1b }, eg[2] = { r->ga, r->gb };
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            try_point(p, n, r, ex[i], eg[k], y1, g, &bu);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d1 = p[i].s1 - p[j].s1, dg = p[i].sg - p[j].sg, da = a[j] - a[i];
            for (int e = 0; e < 2; e++) {
                if (dg != 0)
                    try_point(p, n, r, ex[e], (da - d1 * ex[e]) / dg, y1, g, &bu);
                if (d1 != 0)
                    try_point(p, n, r, (da - dg * eg[e]) / d1, eg[e], y1, g, &bu);
            }
            for (size_t l = j + 1; l < n; l++) {
                double e1 = p[i].s1 - p[l].s1, eg2 = p[i].sg - p[l].sg, ea = a[l] - a[i];
                double det = d1 * eg2 - dg * e1;
                if (det != 0)
                    try_point(p, n, r, (da * eg2 - dg * ea) / det, (d1 * ea - e1 * da) / det, y1, g, &bu);
            }
        }
    return bu;
}

ct_status_t ct_class_dual_bound(ct_class_dual_t *d, double p0, double w0, double p1, double w1, double y1_hint,
                                double g_hint, double target, double *bound, double *y2, double *y1_at,
                                double *g_at, double *theta, ct_error_t *err)
{
    const ct_nona_model_t *m = d->m;
    *bound = -INFINITY;
    *y2 = 0;
    *y1_at = y1_hint;
    *g_at = g_hint;
    if (d->ordered != m->n_vars) {
        ct_status_t st = order_columns(d, p0, w0, err);
        if (st != CT_OK)
            return st;
    }
    if (m->n_vars > d->n_alloc) { /* (column generation adds columns between searches) */
        size_t n = m->n_vars;
        double *c = realloc(d->cost, n * sizeof(double));
        if (c)
            d->cost = c;
        double *r = c ? realloc(d->row1, n * sizeof(double)) : NULL;
        if (r)
            d->row1 = r;
        unsigned char *e = r ? realloc(d->exact, n) : NULL;
        if (!e)
            return ct_error_set(err, CT_ENOMEM, "out of memory (class dual)");
        d->exact = e;
        d->n_alloc = n;
    }
    double base = 0, B = ct_nona_root_beta(m); /* (the other classes' root waits: in the triplets' lines) */
    for (size_t j = 0; j < m->n_classes; j++)
        base += m->beta[j] * m->classes[j].base;
    double Wp0 = m->r_part * w0;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        double beta = m->beta[b->cls];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
            const double *l = d->line + 3 * w;
            d->cost[w] = beta * (l[0] + l[1] * p0 + l[2] * Wp0);
            d->exact[w] = 0;
            d->row1[w] = beta * (m->trip[w].a2 + 2.0 * p1 * m->trip[w].a1);
        }
    }
    double k = B * m->r_root / (2.0 * (1.0 - m->rho_s)), R0 = 2.0 * w0 * (1.0 - m->rho_s),
           R1 = 2.0 * w1 * (1.0 - m->rho_s), r1 = 2.0 * p1 * (1.0 - m->rho_bg) - m->m2_bg;
    plane_t pl[DUAL_PASSES];
    size_t n = 0;
    /* Kelley's planes in a box step (Marsten's): each step maximises the
     * planes within a region around the best point so far, which moves to
     * the step's point when L rises there and doubles when the step ended
     * on its edge; it halves when a step inside it did not rise. */
    double y1 = y1_hint > 0 ? y1_hint : 0, g = g_hint > 0 ? g_hint : k, best = -INFINITY, by1 = y1, bg = g;
    double d1 = 0, dg = 0;
    int on_edge = 0;
    for (;;) {
        double v, link, pieces;
        ct_status_t st = exact_pass(d, p0, w0, y1, g, &v, &link, &pieces, NULL, err);
        if (st != CT_OK)
            return st;
        double cg = g <= k && k > 0 ? m->r_root * B * w0 * (1.0 - g / k) : -(g - k) * R1;
        double L = base + v + g * m->m2_bg_s - y1 * r1 + cg;
        pl[n++] = (plane_t){ y1, g, L, link - r1, pieces + m->m2_bg_s - (g < k ? R0 : R1) };
        if (n == 1) {
            double scale = fabs(L) > 0 ? fabs(L) : 1;
            d1 = fmax(0.5 * y1, r1 > 0 ? 0.01 * scale / r1 : 1.0);
            dg = fmax(0.5 * g, fmax(0.5 * k, R1 > 0 ? 0.01 * scale / R1 : 1.0));
        } else if (L > best && on_edge) {
            d1 *= 2;
            dg *= 2;
        } else if (!(L > best)) {
            d1 *= 0.5;
            dg *= 0.5;
        }
        if (L > best)
            best = L, by1 = y1, bg = g;
        if (best >= target || n == DUAL_PASSES)
            break;
        region_t rg = { fmax(0.0, by1 - d1), by1 + d1, fmax(0.0, bg - dg), bg + dg };
        double u = planes_max(pl, n, &rg, &y1, &g);
        on_edge = (y1 > 0 && (y1 <= rg.y1a || y1 >= rg.y1b)) || (g > 0 && (g <= rg.ga || g >= rg.gb));
        if (!on_edge && (!(u - best > DUAL_TOL * fabs(best)) || (u < target && u - best <= 0.25 * (target - u))))
            break; /* the planes' maximum, inside the region (the top), is within the tolerance, or so far
                      below the target that the box is split anyway */
        if (!(u - best > DUAL_TOL * fabs(best)) && on_edge) { /* flat here: look further out */
            d1 *= 2;
            dg *= 2;
            rg = (region_t){ fmax(0.0, by1 - d1), by1 + d1, fmax(0.0, bg - dg), bg + dg };
            u = planes_max(pl, n, &rg, &y1, &g);
            if (!(u - best > DUAL_TOL * fabs(best)))
                break;
        }
    }
    double best_g = bg;
    *y1_at = by1;
    *g_at = bg;
    *bound = best;
    *y2 = best_g > k ? best_g - k : 0.0;
    if (theta) { /* the minimiser at the best point */
        for (size_t i = 0; i < n; i++)
            if (pl[i].L == best) {
                double v, link, pieces;
                return exact_pass(d, p0, w0, pl[i].y1, pl[i].g, &v, &link, &pieces, theta, err);
            }
    }
    return CT_OK;
}
