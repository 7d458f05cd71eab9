/*
 * nona_wait_lp.c - the Nona wait LP at fixed waits (spec s.7, s.11), the
 * exact solver's workhorse.
 *
 * The LP for objective waits (po, wo) and row waits (pr, wr), over theta >= 0:
 *   min  sum_w beta_w (M_w(po, wo) + k q_w / N) theta_w
 *   s.t. sum_{w in block b} theta_w = 1                              every block
 *        sum_w beta_w (a2_w + 2 pr a1_w) theta_w <= 2 pr (1 - rho_bg) - m2_bg  (link wait <= pr)
 *        sum_w beta_w qr_w theta_w / N <= 2 wr (1 - rho_s) - m2s_row          (server wait <= wr)
 * The root waits, B r_root W(theta) (B = sum beta), are linear in theta:
 * W(theta) >= (m2s_row + sum beta qr theta / N) / (2 (1 - rho_s)), the
 * server row (ct_nona_model_set_server_row: the linearised m2_s, or the
 * pieces cut the search tunes at its incumbent; W's floor and the larger
 * estimate only raise W), so they enter as that bound: a constant and
 * k = B r_root / (2 (1 - rho_s)) per unit of q / N, not at the corner wo;
 * the bound loses nothing to them however wide the box in W.
 * With (po, wo) = (pr, wr) it is V(phi, W) >= J*, with equality at the
 * optimum's own waits. With the objective at a box's lower corner and the
 * rows at its upper corner it bounds every theta whose waits lie in the box.
 * The bound is the Lagrangian value at the LP's multipliers y >= 0:
 *   L(y) = sum_b min_{w in b} (c_w + y . A_w) - y . r  <=  LP optimum,
 * valid for any y, so the certificate does not rest on a solver's
 * tolerances.
 *
 * Two solvers. GLPK (the reference): one problem built once; each solve
 * changes the objective and the two rows, and the simplex warm-starts.
 * The block solver (ct_block_lp.h) works on a restricted problem: each
 * block's active columns (all-local always among them, so row 1 can be
 * met). With the link model it sees only the columns no other of their
 * block dominates (loads and branch lines no smaller: never cheaper at
 * any waits and multipliers; most of a fleet's). A solve computes the
 * active columns' M at (po, wo), solves, then
 * prices every other column against its block's least reduced cost u_b at
 * the multipliers, cheapest checks first: a bound for the whole block from
 * its columns' least loads and branch means; per column, a bound streamed
 * from float arrays rounded down (loads, two branches' means); the
 * survivors (gathered, their data fetched ahead: they are scattered) by
 * every branch's mean (E[max] >= max E); only then M exactly. The cheapest
 * column below u_b joins; when none does, the restricted optimum is the
 * full LP's, and L(y) takes the least reduced cost over every column
 * priced (a skipped one's is >= u_b). An infeasible restricted problem is
 * priced on row 2 given row 1 (min A2 . x s.t. row 1, at its multiplier),
 * so "infeasible" is the full LP's verdict. The active columns persist
 * from solve to solve, packed in block order with copies of their
 * triplets and branches (a solve's passes stream); the solution stays
 * packed; row 2's search starts from the last solve's multiplier.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "nona_wait_lp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Pieces per thread of pricing's first pass (screen_piece): the screen
 * skips unevenly, so a thread that ends early takes another piece. */
#define SCREEN_PIECES 8

/* What pass 2 did with a survivor (cand_how): priced with the M already
 * computed at this solve's waits; bounded first (its run's memory is then
 * rewritten: mark_run) and priced; bounded and out. */
enum { CAND_PRICED, CAND_BOUNDED_PRICED, CAND_BOUNDED_OUT };

/* Every array of the LP comes from the model's scratch cache and goes back
 * to it (ct_scratch_t): a solve sets up an LP per search, polish and
 * pricing round, about the same sizes each time. */
static void *scratch_get(const ct_wait_lp_t *s, size_t bytes)
{
    return ct_scratch_get(s->m->scratch, bytes, 0);
}

/* n zeroed entries of size bytes (NULL if the product overflows, as calloc). */
static void *scratch_get_zero(const ct_wait_lp_t *s, size_t n, size_t size)
{
    return size && n > SIZE_MAX / size ? NULL : ct_scratch_get(s->m->scratch, n * size, 1);
}

static void scratch_put(const ct_wait_lp_t *s, void *p)
{
    ct_scratch_put(s->m ? s->m->scratch : NULL, p);
}

/* The wait rows' coefficients of column w (class weight beta), unscaled:
 * row 1 (the link's second moment at phi = pr), row 2 (server pieces). */
static double row1_coef(const ct_nona_model_t *m, size_t w, double beta, double pr)
{
    return beta * (m->trip[w].a2 + 2.0 * pr * m->trip[w].a1);
}

static double row2_coef(const ct_wait_lp_t *s, size_t w, double beta)
{
    const ct_nona_model_t *m = s->m;
    return m->server_model ? beta * (s->row_linear ? m->trip[w].q : m->trip[w].qr) / (double)m->servers : 0.0;
}

/* A column's server-row coefficient (unscaled, without beta / N) and the
 * row's constant, in the row the LP uses now. */
static double row_q(const ct_wait_lp_t *s, const ct_tripinfo_t *t)
{
    return s->row_linear ? t->q : t->qr;
}

static double row_const(const ct_wait_lp_t *s)
{
    return s->row_linear ? s->m->m2s_local : s->m->m2s_row;
}

/* x as a float no larger than x (the screens' streams must stay bounds). */
static float float_down(double x)
{
    float f = (float)x;
    if ((double)f > x) { /* one step down, without a libm call (this runs for every column) */
        uint32_t u;
        if (f == 0)
            return -0x1p-149f;
        memcpy(&u, &f, sizeof u);
        u = f > 0 ? u - 1 : u + 1;
        memcpy(&f, &u, sizeof f);
    }
    return f;
}

/* A lower bound on M_w at every wait, tight near (phi0, Wp0) and near
 * (phi1, Wp1): a[k] + n[k] phi + r[k] W_part for k = 0, 1. Each is one
 * branch's mean (r: 1 if remote, as ct_nona_triplet_time_lb counts its
 * wait, plus its further first visits) or, with the server model's waits,
 * a group S of remote branches: the model's E[max] is at least that of S
 * with every branch at S's least a, n and w, and the max of |S| of its
 * waits X (0 w.p. 1 - p, else exponential with mean W_part / p) has mean
 * W_part G_|S|, G_k = (1 / p) sum_{j <= k} (1 - (1 - p)^j) / j (1 for
 * one; 8.1 for ten at p = 0.1, where one branch's mean counts 1: at low
 * load many remote parts end far later than any one). S runs over the
 * remote branches longest at the point, the best prefix kept. One pass
 * over the branches and a sort of the remote ones. */
#define SCREEN_GROUP_MAX 64
static void screen_branches(const ct_nona_model_t *m, size_t w, double phi0, double Wp0, double phi1, double Wp1,
                            double a[2], double n[2], double r[2])
{
    const ct_tripinfo_t *t = &m->trip[w];
    const ct_branch_t *br = m->branches + t->branch_start;
    const double ph[2] = { phi0, phi1 }, wp[2] = { Wp0, Wp1 }, p = m->p_wait;
    int group = m->server_model && m->rho_s > 0 && !m->reentry_spread && p > 0 && p <= 1 && t->n_remote >= 2 &&
                t->n_remote <= SCREEN_GROUP_MAX;
    for (int k = 0; k < 2; k++) {
        double best = -INFINITY;
        a[k] = n[k] = r[k] = 0;
        size_t rem_idx[SCREEN_GROUP_MAX], nr = 0;
        double tv[SCREEN_GROUP_MAX];
        for (size_t i = 0; i < t->n_branches; i++) {
            double rem = (br[i].remote ? 1.0 : 0.0) + br[i].w; /* (w: waits counted at their mean) */
            double v = br[i].a + br[i].n * ph[k] + rem * wp[k];
            if (v > best) {
                best = v;
                a[k] = br[i].a;
                n[k] = br[i].n;
                r[k] = rem;
            }
            if (group && br[i].remote && nr < SCREEN_GROUP_MAX) { /* insertion by mean without X, longest first */
                double tvi = br[i].a + br[i].n * ph[k] + br[i].w * wp[k];
                size_t j = nr++;
                for (; j > 0 && tv[j - 1] < tvi; j--) {
                    tv[j] = tv[j - 1];
                    rem_idx[j] = rem_idx[j - 1];
                }
                tv[j] = tvi;
                rem_idx[j] = i;
            }
        }
        double sa = INFINITY, sn = INFINITY, sw = INFINITY, G = 0, q = 1;
        for (size_t j = 0; j < nr; j++) {
            const ct_branch_t *b = &br[rem_idx[j]];
            sa = b->a < sa ? b->a : sa;
            sn = b->n < sn ? b->n : sn;
            sw = b->w < sw ? b->w : sw;
            q *= 1.0 - p;
            G += (1.0 - q) / ((double)(j + 1) * p);
            double v = sa + sn * ph[k] + (sw + G) * wp[k];
            if (v > best) {
                best = v;
                a[k] = sa;
                n[k] = sn;
                r[k] = sw + G;
            }
        }
    }
}

/* What the root waits add to J per unit of sum beta q theta / N,
 * B r_root / (2 (1 - rho_s)), in this formulation (0 when they sit at wo,
 * or without the server model). */
static double root_rate_of(const ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    return s->root_corner || !m->server_model ? 0.0 : ct_nona_root_beta(m) * m->r_root / (2.0 * (1.0 - m->rho_s));
}

/* The last solve's multipliers in model units (nona_columns.c's f): *y1
 * per unit of a2 + 2 phi a1, *y2 per unit of q / N. */
void ct_wait_lp_multipliers(const ct_wait_lp_t *s, double *y1, double *y2)
{
    *y1 = s->y1 * s->beta_sum * s->tscale / s->scale1;
    *y2 = s->m->server_model ? ct_wait_lp_row2_multiplier(s) + root_rate_of(s) : 0;
}

double ct_wait_lp_row2_multiplier(const ct_wait_lp_t *s)
{
    return s->m->server_model ? s->y2 * s->beta_sum * s->tscale / s->scale2 : 0;
}

/* 1 if column v is no worse than column w everywhere in the link model:
 * loads a1, a2 no larger and every branch line of v below one of w's
 * (intercept and slope, so for every phi >= 0: M_v <= M_w, as M is the
 * largest branch mean). Then v's objective and row-1 coefficient never
 * exceed w's, at any waits and any multiplier >= 0. O(branches^2). */
static int link_dominates(const ct_nona_model_t *m, size_t v, size_t w)
{
    const ct_tripinfo_t *tv = &m->trip[v], *tw = &m->trip[w];
    if (!(tv->a1 <= tw->a1 && tv->a2 <= tw->a2))
        return 0;
    const ct_branch_t *bv = m->branches + tv->branch_start, *bw = m->branches + tw->branch_start;
    for (size_t j = 0; j < tv->n_branches; j++) {
        int below = bv[j].a <= 0 && bv[j].n <= 0; /* below M's floor 0 */
        for (size_t i = 0; i < tw->n_branches && !below; i++)
            below = bv[j].a <= bw[i].a && bv[j].n <= bw[i].n;
        if (!below)
            return 0;
    }
    return 1;
}

#define SWEEP_FRONT 16    /* a column is checked against this many undominated ones at most */
#define SWEEP_BRANCHES 16 /* and only when it has no more branches: O(SWEEP_FRONT b^2) per column */

/* Marks keep[i] = 0 for columns of block bl that another column of it
 * dominates (link_dominates), as far as the sweep looks, 1 for the rest.
 * One pass in column order keeps a front of undominated columns: a new
 * column dominated by one of the front is dropped, else it joins the
 * front and drops the front's columns it dominates. Every dropped column
 * is dominated by one kept (dominance is transitive), so the kept ones
 * include a best column of the block at any waits and multipliers; a
 * column the sweep cannot rule out (a full front, many branches) is
 * kept. Identical columns: the first stays. All-local always stays. */
static void block_undominated(const ct_nona_model_t *m, const ct_block_t *bl, unsigned char *keep)
{
    size_t front[SWEEP_FRONT], nf = 0;
    for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
        int dominated = 0, checkable = m->trip[w].n_branches <= SWEEP_BRANCHES;
        keep[w - bl->var_start] = 1;
        if (!checkable)
            continue;
        if (w != bl->local_var)
            for (size_t i = 0; i < nf && !dominated; i++)
                dominated = link_dominates(m, front[i], w);
        if (dominated) {
            keep[w - bl->var_start] = 0;
            continue;
        }
        for (size_t i = 0; i < nf;)
            if (front[i] != bl->local_var && link_dominates(m, w, front[i])) {
                keep[front[i] - bl->var_start] = 0;
                front[i] = front[--nf];
            } else {
                i++;
            }
        if (nf < SWEEP_FRONT)
            front[nf++] = w;
    }
}

/* Each run's least value of stream v (one float per entry) into
 * out[stride x run]. O(entries). */
static void run_minima(const ct_wait_lp_t *s, const float *v, float *out, size_t stride)
{
    const ct_nona_model_t *m = s->m;
    for (size_t b = 0; b < m->n_blocks; b++)
        for (size_t c = s->chstart[b], j = s->kstart[b]; c < s->chstart[b + 1]; c++) {
            size_t end = j + CT_WAIT_CHUNK < s->kstart[b + 1] ? j + CT_WAIT_CHUNK : s->kstart[b + 1];
            float least = INFINITY;
            for (; j < end; j++)
                least = v[j] < least ? v[j] : least;
            out[stride * c] = least;
        }
}

/* The runs' least sq (ct_wait_lp_t.csq) from the entries' sq. O(entries). */
static void chunk_sq(ct_wait_lp_t *s)
{
    run_minima(s, s->sq, s->csq, 1);
}

/* Every run's memory bound with no entry remembered (mc emptied): no
 * memory, and the unremembered entries' screen the whole run's. O(runs). */
static void runs_forgotten(ct_wait_lp_t *s)
{
    size_t nch = s->chstart[s->m->n_blocks];
    for (size_t c = 0; c < nch; c++) {
        s->rmc[3 * c] = INFINITY;
        s->rmc[3 * c + 1] = s->rmc[3 * c + 2] = -INFINITY;
        memcpy(s->ucmin + 4 * c, s->cmin + 6 * c, 4 * sizeof(float));
    }
}

/* The runs' offsets and least values of the fixed streams (cmin), and of
 * sq (csq). O(entries). */
static ct_status_t chunk_init(ct_wait_lp_t *s, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    size_t nch = 0;
    if (!(s->chstart = scratch_get(s, (m->n_blocks + 1) * sizeof(size_t))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t b = 0; b < m->n_blocks; b++) {
        s->chstart[b] = nch;
        nch += (s->kstart[b + 1] - s->kstart[b] + CT_WAIT_CHUNK - 1) / CT_WAIT_CHUNK;
    }
    s->chstart[m->n_blocks] = nch;
    if (!(s->cmin = scratch_get(s, (nch ? nch : 1) * 6 * sizeof(float))) ||
        !(s->csq = scratch_get(s, (nch ? nch : 1) * sizeof(float))) ||
        !(s->rmc = scratch_get(s, (nch ? nch : 1) * 3 * sizeof(double))) ||
        !(s->ucmin = scratch_get(s, (nch ? nch : 1) * 4 * sizeof(float))) ||
        !(s->rdirty = scratch_get_zero(s, nch ? nch : 1, 1)) ||
        !(s->rlist = scratch_get(s, (nch ? nch : 1) * sizeof(size_t))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    s->n_rdirty = 0;
    const float *st[6] = { s->la, s->ln, s->la2, s->ln2, s->sa1, s->sa2 };
    for (int i = 0; i < 6; i++)
        run_minima(s, st[i], s->cmin + i, 6);
    chunk_sq(s);
    runs_forgotten(s);
    return CT_OK;
}

/* The model's cached screens of its columns at these reference points,
 * emptied when the points, p_wait or the branches changed since (NULL:
 * none, out of memory; the caller computes them). The screens of a
 * solve's wait LPs repeat: on bench_nona_family's seed 14 32 LPs saw 12
 * sets of columns (column generation only adds columns), 30 of them at
 * the same points, and the screens were 11% of the solve. O(columns)
 * when emptied, else O(1). */
static ct_screen_entry_t *screens_cache(const ct_nona_model_t *m, double phi0, double Wp0, double phi1, double Wp1)
{
    struct ct_screen_cache *c = m->screens;
    if (!c)
        return NULL;
    const double key[6] = { phi0, Wp0, phi1, Wp1, m->p_wait, (double)m->branch_gen };
    if (c->n != m->n_vars || !c->e) {
        free(c->e);
        c->n = 0;
        if (!(c->e = calloc(m->n_vars ? m->n_vars : 1, sizeof *c->e)))
            return NULL;
        c->n = m->n_vars;
    } else if (memcmp(key, c->key, sizeof key) != 0)
        memset(c->e, 0, c->n * sizeof *c->e);
    memcpy(c->key, key, sizeof key);
    return c->e;
}

/* The block solver's restricted problem (see the file's comment): first
 * the stream entries (the link model's undominated columns; see
 * ct_wait_lp_t), then its arrays, sized by them (the active and packed
 * columns are entries too), every block's all-local column active, the
 * screens' streams (floats rounded down) and each block's least
 * features. O(columns). */
static ct_status_t restricted_init(ct_wait_lp_t *s, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    size_t nb1 = m->n_blocks + 1, nk = 0, nbr = 0;
    double phi_ref = ct_nona_phi_min(m), W_ref, W_hi;
    ct_nona_W_range(m, &W_ref, &W_hi);
    double Wp_ref = m->r_part * W_ref, phi_top = ct_nona_phi_max(m), Wp_top = m->r_part * W_hi;
    unsigned char *keep = scratch_get(s, m->n_vars ? m->n_vars : 1);
    s->kstart = scratch_get(s, nb1 * sizeof(size_t));
    if (!keep || !s->kstart) {
        scratch_put(s, keep);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        /* the link model prices only the columns no other one of the block
         * dominates (most, in fleets of small segments); the server
         * model's M also rides on W, where branch-wise lines do not order
         * it: every column */
        if (!m->server_model)
            block_undominated(m, bl, keep + bl->var_start);
        else
            memset(keep + bl->var_start, 1, bl->n_vars);
        s->kstart[b] = nk;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            if (keep[w]) {
                nk++;
                nbr += m->trip[w].n_branches;
            }
    }
    s->kstart[m->n_blocks] = nk;
    size_t n = nk ? nk : 1;
    nbr = nbr ? nbr : 1;
    s->kcol = scratch_get(s, n * sizeof(size_t));
    s->act = scratch_get(s, n * sizeof(size_t));
    s->cstamp = scratch_get_zero(s, n, sizeof(size_t));
    s->on = scratch_get_zero(s, n, 1);
    s->kc = scratch_get(s, n * sizeof(double));
    s->n_act = scratch_get(s, nb1 * sizeof(size_t));
    s->astart = scratch_get(s, nb1 * sizeof(size_t));
    s->ac = scratch_get(s, n * sizeof(double));
    s->av1 = scratch_get(s, n * sizeof(double));
    s->av2 = scratch_get(s, n * sizeof(double));
    s->ax = scratch_get(s, n * sizeof(double));
    s->tm = scratch_get(s, n * sizeof(double));
    s->mc = scratch_get(s, 3 * n * sizeof(double));
    s->mc_key[0] = NAN; /* (mc_check fills it at the first solve) */
    s->sa1 = scratch_get(s, n * sizeof(float));
    s->sa2 = scratch_get(s, n * sizeof(float));
    s->sq = scratch_get(s, n * sizeof(float));
    s->la = scratch_get(s, n * sizeof(float));
    s->ln = scratch_get(s, n * sizeof(float));
    s->la2 = scratch_get(s, n * sizeof(float));
    s->ln2 = scratch_get(s, n * sizeof(float));
    s->lr = scratch_get(s, 2 * n);
    s->bmin = scratch_get(s, 6 * nb1 * sizeof(double));
    s->bbeta = scratch_get(s, nb1 * sizeof(double));
    s->bshare = scratch_get(s, nb1 * sizeof(double));
    s->cand = scratch_get(s, n * sizeof(size_t));
    s->dcol = scratch_get(s, n * sizeof(size_t));
    s->dinfo = scratch_get(s, n * sizeof(ct_tripinfo_t));
    s->dbr = scratch_get(s, nbr * sizeof(ct_branch_t));
    s->dM = scratch_get(s, n * sizeof(double));
    s->dcol2 = scratch_get(s, n * sizeof(size_t));
    s->dinfo2 = scratch_get(s, n * sizeof(ct_tripinfo_t));
    s->dbr2 = scratch_get(s, nbr * sizeof(ct_branch_t));
    s->dM2 = scratch_get(s, n * sizeof(double));
    s->astart2 = scratch_get(s, nb1 * sizeof(size_t));
    s->dense_stale = 1;
    s->cand_b = scratch_get(s, n * sizeof(size_t));
    s->cand_lin = scratch_get(s, n * sizeof(double));
    s->cand_rc = scratch_get(s, n * sizeof(double));
    s->cand_how = scratch_get(s, n);
    s->pbest = scratch_get(s, nb1 * sizeof(size_t));
    s->pu = scratch_get(s, nb1 * sizeof(double));
    s->ptmin = scratch_get(s, nb1 * sizeof(double));
    s->pbest_rc = scratch_get(s, nb1 * sizeof(double));
    s->pskip = scratch_get(s, nb1);
    s->team_min = CT_WAIT_TEAM_MIN;
    s->price_team_min = CT_WAIT_PRICE_TEAM_MIN;
    s->price_piece_min = CT_WAIT_PRICE_PIECE_MIN;
    s->pfirst = scratch_get(s, SCREEN_PIECES * CT_WAIT_TEAM_MAX * sizeof(size_t));
    s->pcount = scratch_get(s, SCREEN_PIECES * CT_WAIT_TEAM_MAX * sizeof(size_t));
    s->pmem = scratch_get(s, SCREEN_PIECES * CT_WAIT_TEAM_MAX * sizeof(size_t));
    s->mem_skips = 0;
    if (!s->act || !s->cstamp || !s->on || !s->kc || !s->n_act || !s->astart || !s->ac || !s->av1 || !s->av2 || !s->ax ||
        !s->tm || !s->mc || !s->sa1 || !s->sa2 || !s->sq || !s->la || !s->ln || !s->la2 || !s->ln2 || !s->lr || !s->bmin ||
        !s->bbeta || !s->bshare || !s->dcol || !s->dinfo || !s->dbr || !s->dM || !s->dcol2 || !s->dinfo2 ||
        !s->dbr2 || !s->dM2 || !s->astart2 || !s->cand || !s->cand_b ||
        !s->cand_lin || !s->cand_rc || !s->cand_how || !s->pbest || !s->pu || !s->ptmin || !s->pbest_rc || !s->kcol || !s->pskip ||
        !s->pfirst || !s->pcount || !s->pmem) {
        scratch_put(s, keep);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    float *la = s->la, *ln = s->ln, *la2 = s->la2, *ln2 = s->ln2, *sa1 = s->sa1, *sa2 = s->sa2, *sq = s->sq;
    unsigned char *lrs = s->lr;
    ct_screen_entry_t *cache = screens_cache(m, phi_ref, Wp_ref, phi_top, Wp_top);
    size_t k = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        s->n_act[b] = 1; /* all-local, the block's first active column (below) */
        s->astart[b] = s->kstart[b]; /* the allocation's offsets: every entry */
        double beta = m->beta[bl->cls], *mn = s->bmin + 6 * b;
        for (int i = 0; i < 6; i++)
            mn[i] = INFINITY; /* no column but all-local: never priced */
        double a1max = s->a1max, a2max = s->a2max, qmax = s->qmax;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            /* the rows' scales from every column, dominated or not */
            double q = row2_coef(s, w, beta), b1 = beta * m->trip[w].a1, b2 = beta * m->trip[w].a2, a[2], nn[2], r[2];
            a1max = b1 > a1max ? b1 : a1max;
            a2max = b2 > a2max ? b2 : a2max;
            qmax = fabs(q) > qmax ? fabs(q) : qmax;
            if (!keep[w])
                continue;
            s->kcol[k] = w;
            if (w == bl->local_var) {
                s->act[s->kstart[b]] = k;
                s->on[k] = 1;
            }
            ct_screen_entry_t e;
            if (cache && cache[w].valid)
                e = cache[w];
            else {
                screen_branches(m, w, phi_ref, Wp_ref, phi_top, Wp_top, a, nn, r);
                e = (ct_screen_entry_t){ .a = { float_down(a[0]), float_down(a[1]) },
                                         .n = { float_down(nn[0]), float_down(nn[1]) },
                                         /* r in eighths rounded down (a lower bound still), up to 255 */
                                         .r = { (unsigned char)fmin(255.0, floor(8.0 * r[0])),
                                                (unsigned char)fmin(255.0, floor(8.0 * r[1])) },
                                         .valid = 1 };
                if (cache)
                    cache[w] = e;
            }
            /* each stream written once, from locals (the stores would
             * otherwise make the compiler reload every stream's pointer) */
            const float v[7] = { e.a[0], e.n[0], e.a[1], e.n[1], float_down(b1), float_down(b2), float_down(q) };
            const unsigned char lr[2] = { e.r[0], e.r[1] };
            la[k] = v[0];
            ln[k] = v[1];
            la2[k] = v[2];
            ln2[k] = v[3];
            sa1[k] = v[4];
            sa2[k] = v[5];
            sq[k] = v[6];
            lrs[2 * k] = lr[0];
            lrs[2 * k++ + 1] = lr[1];
            if (w == bl->local_var)
                continue;
            const double f[6] = { v[0], v[1], 0.125 * lr[0], v[4], v[5], v[6] };
            for (int i = 0; i < 6; i++)
                mn[i] = f[i] < mn[i] ? f[i] : mn[i];
        }
        s->a1max = a1max;
        s->a2max = a2max;
        s->qmax = qmax;
        s->bbeta[b] = beta;
        s->bshare[b] = beta / s->beta_sum;
    }
    s->astart[m->n_blocks] = nk;
    scratch_put(s, keep);
    ct_status_t st = chunk_init(s, err);
    return st != CT_OK ? st : ct_block_lp_alloc_scratch(&s->blp, m->n_blocks, s->astart, m->scratch, err);
}

ct_status_t ct_wait_lp_init(ct_wait_lp_t *s, const ct_nona_model_t *m, ct_nona_lp_t which, ct_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    size_t n = m->n_vars ? m->n_vars : 1;
    for (size_t j = 0; j < m->n_classes; j++) {
        s->constant += m->beta[j] * m->classes[j].base;
        s->beta_sum += m->beta[j];
    }
    ct_status_t st;
    if (which == CT_NONA_LP_BLOCK)
        return restricted_init(s, err);
    s->c = scratch_get(s, n * sizeof(double)); /* GLPK's: its objective, rows, solution and scaled rows */
    s->cols = scratch_get(s, n * sizeof(size_t));
    s->vals = scratch_get(s, n * sizeof(double));
    s->x = scratch_get(s, n * sizeof(double));
    s->v1 = scratch_get(s, n * sizeof(double));
    s->v2 = scratch_get(s, n * sizeof(double));
    if (!s->c || !s->cols || !s->vals || !s->x || !s->v1 || !s->v2)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
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

/* The block solver's server-row screens (sq, bmin's entry 5, qmax) of the
 * row the LP uses now, from the model. */
static void row_screens(ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    double qmax = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls], mn = INFINITY;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            qmax = fmax(qmax, fabs(row2_coef(s, w, beta)));
        for (size_t j = s->kstart[b]; j < s->kstart[b + 1]; j++) {
            size_t w = s->kcol[j];
            s->sq[j] = float_down(row2_coef(s, w, beta));
            if (w != bl->local_var)
                mn = s->sq[j] < mn ? s->sq[j] : mn;
        }
        s->bmin[6 * b + 5] = mn;
    }
    s->qmax = qmax;
    chunk_sq(s);
}

void ct_wait_lp_refresh_row(ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    if (!s->blp)
        return; /* GLPK's rows are set from the model at every solve */
    if (s->packed)
        for (size_t k = 0; k < s->n_dense; k++)
            s->dinfo[k].qr = m->trip[s->dcol[k]].qr;
    if (s->row_linear) { /* the cut's screens are the spare ones: recompute them in place */
        ct_wait_lp_use_row(s, 0);
        row_screens(s);
        ct_wait_lp_use_row(s, 1);
    } else {
        row_screens(s);
    }
}

void ct_wait_lp_use_row(ct_wait_lp_t *s, int linear)
{
    const ct_nona_model_t *m = s->m;
    linear = linear != 0;
    if (linear == s->row_linear)
        return;
    s->row_linear = linear;
    if (!s->blp)
        return;
    if (!s->sq_alt) { /* first switch: the other row's screens, from the model */
        if (!(s->sq_alt = scratch_get(s, (s->kstart[m->n_blocks] ? s->kstart[m->n_blocks] : 1) * sizeof(float))) ||
            !(s->bmin_alt = scratch_get(s, (m->n_blocks + 1) * sizeof(double))) ||
            !(s->csq_alt = scratch_get(s, (s->chstart[m->n_blocks] ? s->chstart[m->n_blocks] : 1) * sizeof(float)))) {
            scratch_put(s, s->sq_alt); /* out of memory: the LP keeps its row (either row gives valid bounds) */
            scratch_put(s, s->bmin_alt);
            s->sq_alt = NULL;
            s->bmin_alt = NULL;
            s->row_linear = !linear;
            return;
        }
        float *t = s->sq;
        s->sq = s->sq_alt;
        s->sq_alt = t;
        t = s->csq;
        s->csq = s->csq_alt;
        s->csq_alt = t;
        for (size_t b = 0; b < m->n_blocks; b++)
            s->bmin_alt[b] = s->bmin[6 * b + 5];
        double qm = s->qmax;
        row_screens(s);
        s->qmax_alt = qm;
        return;
    }
    float *t = s->sq;
    s->sq = s->sq_alt;
    s->sq_alt = t;
    t = s->csq;
    s->csq = s->csq_alt;
    s->csq_alt = t;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double v = s->bmin[6 * b + 5];
        s->bmin[6 * b + 5] = s->bmin_alt[b];
        s->bmin_alt[b] = v;
    }
    double qm = s->qmax;
    s->qmax = s->qmax_alt;
    s->qmax_alt = qm;
}

double ct_wait_lp_row_at(const ct_wait_lp_t *s, int linear)
{
    const ct_nona_model_t *m = s->m;
    double v = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double sum = 0;
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++)
            if (s->ax[k] > 0)
                sum += s->ax[k] * (linear ? s->dinfo[k].q : s->dinfo[k].qr);
        v += s->bbeta[b] * sum;
    }
    return (linear ? m->m2s_local : m->m2s_row) + v / (double)m->servers;
}

void ct_wait_lp_free(ct_wait_lp_t *s)
{
    ct_block_lp_free(s->blp);
    ct_lp_free(s->lp);
    scratch_put(s, s->cols);
    scratch_put(s, s->vals);
    scratch_put(s, s->x);
    scratch_put(s, s->c);
    scratch_put(s, s->v1);
    scratch_put(s, s->v2);
    scratch_put(s, s->act);
    scratch_put(s, s->n_act);
    scratch_put(s, s->astart);
    scratch_put(s, s->cstamp);
    scratch_put(s, s->on);
    scratch_put(s, s->ac);
    scratch_put(s, s->av1);
    scratch_put(s, s->av2);
    scratch_put(s, s->ax);
    scratch_put(s, s->tm);
    scratch_put(s, s->mc);
    scratch_put(s, s->sa1);
    scratch_put(s, s->sa2);
    scratch_put(s, s->sq);
    scratch_put(s, s->sq_alt);
    scratch_put(s, s->bmin_alt);
    scratch_put(s, s->chstart);
    scratch_put(s, s->cmin);
    scratch_put(s, s->csq);
    scratch_put(s, s->csq_alt);
    scratch_put(s, s->rmc);
    scratch_put(s, s->ucmin);
    scratch_put(s, s->rdirty);
    scratch_put(s, s->rlist);
    scratch_put(s, s->la);
    scratch_put(s, s->ln);
    scratch_put(s, s->la2);
    scratch_put(s, s->ln2);
    scratch_put(s, s->lr);
    scratch_put(s, s->bmin);
    scratch_put(s, s->bbeta);
    scratch_put(s, s->bshare);
    scratch_put(s, s->cand);
    scratch_put(s, s->kcol);
    scratch_put(s, s->kc);
    scratch_put(s, s->kstart);
    scratch_put(s, s->dcol);
    scratch_put(s, s->dinfo);
    scratch_put(s, s->dbr);
    scratch_put(s, s->dM);
    scratch_put(s, s->dcol2);
    scratch_put(s, s->dinfo2);
    scratch_put(s, s->dbr2);
    scratch_put(s, s->dM2);
    scratch_put(s, s->astart2);
    scratch_put(s, s->cand_b);
    scratch_put(s, s->cand_lin);
    scratch_put(s, s->cand_rc);
    scratch_put(s, s->cand_how);
    scratch_put(s, s->pbest);
    scratch_put(s, s->pu);
    scratch_put(s, s->ptmin);
    scratch_put(s, s->pbest_rc);
    scratch_put(s, s->pskip);
    scratch_put(s, s->pfirst);
    scratch_put(s, s->pcount);
    scratch_put(s, s->pmem);
    ct_team_free(s->team);
    scratch_put(s, s->ib);
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
static ct_status_t set_wait_row(ct_wait_lp_t *s, size_t r, const double *coef, double rhs, double *v, double *rs,
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

/* Stream entry j's (column kcol[j]'s) scaled objective at this solve's
 * waits (computed once per solve). */
static double cost(ct_wait_lp_t *s, size_t j, double share, double po, double wo)
{
    if (s->cstamp[j] != s->stamp) {
        s->tm[j] = ct_nona_triplet_time(s->m, s->kcol[j], po, wo);
        double *c = s->mc + 3 * j;
        c[0] = s->tm[j];
        c[1] = po;
        c[2] = wo;
        s->kc[j] = share * s->tm[j] * s->inv_t;
        s->cstamp[j] = s->stamp;
    }
    return s->kc[j];
}

/* Entry j of block b is about to be written in mc: its run's bound is
 * recomputed after the pass (runs_remembered). O(1). */
static void mark_run(ct_wait_lp_t *s, size_t b, size_t j)
{
    size_t c = s->chstart[b] + (j - s->kstart[b]) / CT_WAIT_CHUNK;
    if (!s->rdirty[c]) {
        s->rdirty[c] = 1;
        s->rlist[s->n_rdirty++] = c;
    }
}

/* The block of run c: the last one whose first run is <= c (past empty
 * blocks). O(log blocks). */
static size_t run_block(const ct_wait_lp_t *s, size_t c)
{
    size_t nb = s->m->n_blocks, b = 0, hi = nb;
    while (hi > b + 1) {
        size_t mid = b + (hi - b) / 2;
        if (s->chstart[mid] <= c)
            b = mid;
        else
            hi = mid;
    }
    while (b + 1 < nb && s->chstart[b + 1] <= c)
        b++;
    return b;
}

/* rmc of the runs written since the last call, from their entries' mc.
 * O(CT_WAIT_CHUNK) a run. */
static void runs_remembered(ct_wait_lp_t *s)
{
    for (size_t i = 0; i < s->n_rdirty; i++) {
        size_t c = s->rlist[i], b = run_block(s, c);
        size_t j0 = s->kstart[b] + (c - s->chstart[b]) * CT_WAIT_CHUNK;
        size_t end = j0 + CT_WAIT_CHUNK < s->kstart[b + 1] ? j0 + CT_WAIT_CHUNK : s->kstart[b + 1];
        double a0 = INFINITY, a1 = -INFINITY, a2 = -INFINITY;
        float u[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
        for (size_t j = j0; j < end; j++) {
            const double *e = s->mc + 3 * j;
            if (e[1] < INFINITY) {
                a0 = e[0] < a0 ? e[0] : a0;
                a1 = e[1] > a1 ? e[1] : a1;
                a2 = e[2] > a2 ? e[2] : a2;
            } else {
                u[0] = s->la[j] < u[0] ? s->la[j] : u[0];
                u[1] = s->ln[j] < u[1] ? s->ln[j] : u[1];
                u[2] = s->la2[j] < u[2] ? s->la2[j] : u[2];
                u[3] = s->ln2[j] < u[3] ? s->ln2[j] : u[3];
            }
        }
        s->rmc[3 * c] = a0;
        s->rmc[3 * c + 1] = a1;
        s->rmc[3 * c + 2] = a2;
        memcpy(s->ucmin + 4 * c, u, sizeof u);
        s->rdirty[c] = 0;
    }
    s->n_rdirty = 0;
}

/* The pricing's memory of each entry's last M (mc): valid while the
 * model's waits keep their shape (the root share moves r_part between
 * searches); M is nondecreasing in phi and W, so an M priced at waits no
 * larger bounds it below (not with spread waits, whose rounded scales
 * need not be monotone: never read then). */
static void mc_check(ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    s->mc_on = !m->reentry_spread;
    if (s->mc_key[0] == m->r_part && s->mc_key[1] == m->p_wait && s->mc_key[2] == m->rho_s)
        return;
    size_t n = s->kstart[m->n_blocks];
    for (size_t j = 0; j < n; j++)
        s->mc[3 * j + 1] = s->mc[3 * j + 2] = INFINITY;
    runs_forgotten(s);
    for (size_t i = 0; i < s->n_rdirty; i++)
        s->rdirty[s->rlist[i]] = 0;
    s->n_rdirty = 0;
    s->mc_key[0] = m->r_part;
    s->mc_key[1] = m->p_wait;
    s->mc_key[2] = m->rho_s;
}

/* Makes stream entry j of block b active (kept in increasing order). */
static void activate(ct_wait_lp_t *s, size_t b, size_t j)
{
    size_t *a = s->act + s->kstart[b], i = s->n_act[b]++;
    for (; i > 0 && a[i - 1] > j; i--)
        a[i] = a[i - 1];
    a[i] = j;
    s->on[j] = 1;
    s->dense_stale = 1;
}

/* Packs the active columns (see ct_wait_lp_t) into the spare buffers and
 * swaps them in: a block's columns merge its previous packing (streamed,
 * its M of this solve kept) with the columns activated since (fetched
 * from the model; their M from the pricing pass when it computed it).
 * Both lists are in column order. */
static void pack_active(ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    size_t k = 0, nbr = 0;
    int keep_M = s->dstamp == s->stamp; /* the packed M are this solve's */
    for (size_t b = 0; b < m->n_blocks; b++) {
        size_t old = s->packed ? s->astart[b] : 0, old_end = s->packed ? s->astart[b + 1] : 0;
        s->astart2[b] = k;
        for (size_t i = 0; i < s->n_act[b]; i++, k++) {
            size_t j = s->act[s->kstart[b] + i], w = s->kcol[j];
            s->dcol2[k] = w;
            if (old < old_end && s->dcol[old] == w) { /* packed before: stream it */
                const ct_tripinfo_t *t = &s->dinfo[old];
                s->dinfo2[k] = *t;
                s->dinfo2[k].branch_start = nbr;
                for (size_t i2 = 0; i2 < t->n_branches; i2++)
                    s->dbr2[nbr + i2] = s->dbr[t->branch_start + i2];
                nbr += t->n_branches;
                s->dM2[k] = keep_M ? s->dM[old] : NAN;
                old++;
                continue;
            }
            const ct_tripinfo_t *t = &m->trip[w];
            s->dinfo2[k] = *t;
            s->dinfo2[k].branch_start = nbr;
            memcpy(s->dbr2 + nbr, m->branches + t->branch_start, t->n_branches * sizeof(ct_branch_t));
            nbr += t->n_branches;
            s->dM2[k] = s->cstamp[j] == s->stamp ? s->tm[j] : NAN;
        }
    }
    s->astart2[m->n_blocks] = k;
#define SWAP_PTR(a, b)                                                                                                 \
    do {                                                                                                               \
        void *t_ = (void *)(a);                                                                                        \
        (a) = (b);                                                                                                     \
        (b) = t_;                                                                                                      \
    } while (0)
    SWAP_PTR(s->dcol, s->dcol2);
    SWAP_PTR(s->dinfo, s->dinfo2);
    SWAP_PTR(s->dbr, s->dbr2);
    SWAP_PTR(s->dM, s->dM2);
    SWAP_PTR(s->astart, s->astart2);
#undef SWAP_PTR
    s->n_dense = k;
    s->packed = 1;
    s->dstamp = s->stamp;
    s->dense_stale = 0;
}

/* The restricted problem over the active columns, in compact arrays, with
 * the block solver's offsets. */
static ct_status_t compact(ct_wait_lp_t *s, double po, double wo, double pr, ct_error_t *err)
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
            s->av1[k] = k1 * (t->a2 + 2.0 * pr * t->a1);
            s->av2[k] = k2 * row_q(s, t);
            s->ac[k] = share * s->dM[k] * s->inv_t + s->root_c * s->av2[k];
        }
    }
    return ct_block_lp_set_blocks(s->blp, s->astart, err);
}

/* An infeasible restricted problem: the least row 2 that row 1 allows,
 * min av2 . x s.t. av1 . x <= r1 (always feasible: all-local is active),
 * priced over every column at its multiplier z (no objective needed).
 * Returns the columns added; 0 proves the full LP infeasible too. */
static ct_status_t price_feasibility(ct_wait_lp_t *s, double pr, size_t *added, double *least, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    const double *A[1] = { s->av1 };
    ct_block_lp_result_t aux;
    ct_status_t st = ct_block_lp_solve(s->blp, 1, s->av2, A, &s->r1, s->ax, &aux, err);
    *added = 0;
    if (st != CT_OK || aux.result != CT_LP_OPTIMAL)
        return st;
    if (least)
        *least = aux.obj;
    double z = aux.y[0];
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double beta = m->beta[bl->cls], u = INFINITY, best_key;
        size_t best = SIZE_MAX;
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++)
            u = fmin(u, s->av2[k] + z * s->av1[k]);
        best_key = u - 1e-12 * fabs(u);
        /* the screen's streams (rounded down) first: an entry whose key
         * they already put at best_key or above is not taken (the model's
         * triplets are read only for the rest) */
        double i1 = z / s->scale1, i2 = 1.0 / s->scale2, p2 = 2.0 * pr;
        for (size_t j = s->kstart[b]; j < s->kstart[b + 1]; j++) { /* a dominated column's loads are no smaller */
            if (s->on[j] || s->sq[j] * i2 + i1 * ((double)s->sa2[j] + p2 * s->sa1[j]) >= best_key)
                continue;
            size_t w = s->kcol[j];
            double key = row2_coef(s, w, beta) / s->scale2 + z * row1_coef(m, w, beta, pr) / s->scale1;
            if (key < best_key) {
                best_key = key;
                best = j;
            }
        }
        if (best != SIZE_MAX) {
            activate(s, b, best);
            ++*added;
        }
    }
    return CT_OK;
}

/* Pricing's first pass is cut into pieces of consecutive runs (across
 * blocks) that a team may run side by side: a piece writes its survivors
 * into the candidate arrays from its own first entry on (a piece never
 * keeps more than it reads), and the caller closes the gaps in piece
 * order, so the candidates are the same, in the same order, for any number
 * of threads. */
typedef struct {
    ct_wait_lp_t *s;
    double po, wo, Wp0, k1, k2, p2; /* the solve's waits and multipliers (scaled units) */
    size_t per;                     /* runs per piece */
} screen_ctx_t;

/* Piece p: streams its runs through the screen (a run whose least terms
 * already lose is skipped whole), then drops the survivors that a bound
 * this search found at waits no larger rules out (M or its bound there;
 * most of them where the screen is loose: 95% on bench_nona_family's seed
 * 7), reading only their own entries, so that pass 2 fetches the model's
 * data for the rest alone. Reads the solve's shared state, writes only
 * its own entries of cand, cand_b, cand_lin and pfirst[p], pcount[p]. */
static void screen_piece(size_t p, void *ctx)
{
    const screen_ctx_t *sc = ctx;
    ct_wait_lp_t *s = sc->s;
    const ct_nona_model_t *m = s->m;
    size_t c0 = p * sc->per, nch = s->chstart[m->n_blocks], c1 = c0 + sc->per < nch ? c0 + sc->per : nch;
    size_t b = run_block(s, c0);
    size_t first = s->kstart[b] + (c0 - s->chstart[b]) * CT_WAIT_CHUNK, nc = first, mem_skips = 0;
    double po = sc->po, Wp0 = sc->Wp0, k1 = sc->k1, k2 = sc->k2, p2 = sc->p2;
    const float *sa1 = s->sa1, *sa2 = s->sa2, *la = s->la, *ln = s->ln, *la2 = s->la2, *ln2 = s->ln2;
    for (size_t c = c0; c < c1; c++) {
        while (c >= s->chstart[b + 1])
            b++;
        if (s->pskip[b])
            continue;
        double u = s->pu[b], sh = s->bshare[b] * s->inv_t;
        /* the run's least terms first (every factor >= 0; k2 may only be
         * < 0 by round-off of the root's term: then no run is skipped) */
        const float *cm = s->cmin + 6 * c;
        double c1v = cm[0] + cm[1] * po, c2v = cm[2] + cm[3] * po;
        double lin_min = k1 * ((double)cm[5] + p2 * cm[4]) + (k2 != 0 ? k2 * s->csq[c] : 0.0);
        if (k2 >= 0 && sh * (c1v > c2v ? c1v : c2v) + lin_min >= u)
            continue;
        /* then what pricing remembers of the run's entries (pass 2's
         * test, for all of them at once) and the screen of the others */
        if (k2 >= 0 && s->mc_on) {
            const double *rm = s->rmc + 3 * c;
            const float *uc = s->ucmin + 4 * c;
            double u1 = uc[0] + uc[1] * po, u2 = uc[2] + uc[3] * po;
            int mem = rm[1] == -INFINITY || (po >= rm[1] && sc->wo >= rm[2] && sh * rm[0] + lin_min >= u),
                scr = uc[0] == INFINITY || sh * (u1 > u2 ? u1 : u2) + lin_min >= u;
            if (mem && scr) {
                mem_skips++;
                continue;
            }
        }
        size_t j0 = s->kstart[b] + (c - s->chstart[b]) * CT_WAIT_CHUNK;
        size_t end = j0 + CT_WAIT_CHUNK < s->kstart[b + 1] ? j0 + CT_WAIT_CHUNK : s->kstart[b + 1];
        for (size_t j = j0; j < end; j++) {
            /* without server waits (k2 = Wp0 = 0) the server streams are not read */
            double lin = k1 * ((double)sa2[j] + p2 * sa1[j]) + (k2 != 0 ? k2 * s->sq[j] : 0.0);
            double m1 = la[j] + ln[j] * po, m2 = la2[j] + ln2[j] * po;
            if (Wp0 != 0) {
                m1 += 0.125 * s->lr[2 * j] * Wp0;
                m2 += 0.125 * s->lr[2 * j + 1] * Wp0;
            }
            /* written always, kept when it passes: no branch to
             * mispredict (nc <= j: inside this piece's entries) */
            s->cand[nc] = j;
            s->cand_b[nc] = b;
            s->cand_lin[nc] = lin;
            nc += !(sh * (m1 > m2 ? m1 : m2) + lin >= u) & !s->on[j];
        }
    }
    if (s->mc_on) {
        size_t kept = first;
        for (size_t i = first; i < nc; i++) {
            size_t j = s->cand[i], cb = s->cand_b[i];
            const double *c = s->mc + 3 * j;
            double lin = s->cand_lin[i];
            int out = s->cstamp[j] != s->stamp && po >= c[1] && sc->wo >= c[2] &&
                      s->bshare[cb] * s->inv_t * c[0] + lin >= s->pu[cb];
            s->cand[kept] = j;
            s->cand_b[kept] = cb;
            s->cand_lin[kept] = lin;
            kept += !out;
        }
        nc = kept;
    }
    s->pfirst[p] = first;
    s->pcount[p] = nc - first;
    s->pmem[p] = mem_skips;
}

/* Pricing's second pass over survivors [p per, (p + 1) per) (see
 * restricted_solve): a survivor not priced at this solve's waits yet is
 * bounded first (that bound kept in mc when it rules the survivor out; its
 * M when it is priced: cost), else priced. Writes only its survivors'
 * entries (of cand_rc, cand_how, and mc, tm, kc, cstamp at their columns,
 * each column once a pass), so pieces run side by side, and the caller
 * takes the results in column order: the same for any number of threads. */
typedef struct {
    ct_wait_lp_t *s;
    double po, wo;
    size_t nc, per;
} price_ctx_t;

static void price_piece(size_t p, void *ctx)
{
    const price_ctx_t *pc = ctx;
    ct_wait_lp_t *s = pc->s;
    const ct_nona_model_t *m = s->m;
    size_t i0 = p * pc->per, i1 = i0 + pc->per < pc->nc ? i0 + pc->per : pc->nc;
    for (size_t i = i0; i < i1; i++) {
        if (i + 8 < i1)
            CT_PREFETCH(&m->trip[s->kcol[s->cand[i + 8]]]);
        if (i + 4 < i1)
            CT_PREFETCH(&m->branches[m->trip[s->kcol[s->cand[i + 4]]].branch_start]);
        size_t j = s->cand[i], w = s->kcol[j], b = s->cand_b[i];
        double share = s->bshare[b], lin = s->cand_lin[i];
        unsigned char how = CAND_PRICED;
        if (s->cstamp[j] != s->stamp) {
            /* the bound here (the one found before was dropped in pass 1),
             * kept for later */
            double *c = s->mc + 3 * j, k = share * s->inv_t;
            double lo = ct_nona_triplet_time_lb(m, w, pc->po, pc->wo);
            how = CAND_BOUNDED_PRICED;
            if (k * lo + lin >= s->pu[b]) {
                c[0] = lo;
                c[1] = pc->po;
                c[2] = pc->wo;
                s->cand_how[i] = CAND_BOUNDED_OUT;
                continue;
            }
        }
        s->cand_rc[i] = cost(s, j, share, pc->po, pc->wo) + lin;
        s->cand_how[i] = how;
    }
}

/* The block solver's LP at objective waits (po, wo), rows at pr: column
 * generation over the active columns (see ct_wait_lp_t) until no column
 * prices out. *ok = 0 when infeasible; else s->ax (packed), *y1, *y2
 * (scaled multipliers) and *L (the Lagrangian value over every column,
 * scaled). rhs1, rhs2: the rows' unscaled bounds. */
static ct_status_t restricted_solve(ct_wait_lp_t *s, double po, double wo, double pr, double rhs1, double rhs2, int *ok,
                                    double *y1, double *y2, double *L, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    size_t rows = m->server_model ? 2 : 1;
    ct_status_t st;
    *ok = 0;
    /* this solve's costs: scaled by the largest active M (all-local among them) */
    s->stamp++;
    mc_check(s);
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
    /* the root term per unit of av2: k (model units) over the scales */
    s->root_c = root_rate_of(s) * s->scale2 / (s->beta_sum * s->tscale);
    const double r[2] = { s->r1, s->r2 }, *A[2] = { s->av1, s->av2 };
    /* the boxes of the search are near each other: start from the last multiplier */
    double y2_hint = s->y2_last * s->scale2 / (s->beta_sum * s->tscale);
    for (;;) {
        ct_block_lp_result_t res;
        size_t added = 0;
        if ((st = compact(s, po, wo, pr, err)) != CT_OK ||
            (st = ct_block_lp_solve_within(s->blp, rows, s->ac, A, r, y2_hint, s->rel_tol, s->ax, &res, err)) != CT_OK)
            return st;
        if (res.result != CT_LP_OPTIMAL) {
            if ((st = price_feasibility(s, pr, &added, NULL, err)) != CT_OK || !added)
                return st;
            continue;
        }
        double Y1 = res.y[0], Y2 = rows > 1 ? res.y[1] : 0.0, Lsum = 0, p2 = 2.0 * pr;
        /* a column's row terms Y . A_w = k1 (sa2 + 2 pr sa1) + k2 sq; its
         * objective's screen sh (la + ln po + lr Wp0), sh its block's */
        double k1 = Y1 / s->scale1, k2 = rows > 1 ? (Y2 + s->root_c) / s->scale2 : 0.0, Wp0 = m->r_part * wo;
        if (!(m->server_model && m->rho_s > 0 && Wp0 > 0))
            Wp0 = 0;
        /* Pass 1 streams every column through the screen (screen_piece,
         * on a team where the stream is long); the few that pass it
         * (scattered in memory) are gathered, then bounded and priced in
         * pass 2 with their data fetched ahead. tmin[b]: the
         * least reduced cost over block b's columns (one skipped by a bound
         * has one >= u[b]); best[b]: the column to add, below u[b] by more
         * than round-off. */
        for (size_t b = 0; b < m->n_blocks; b++) {
            double u = INFINITY, sh = s->bshare[b] * s->inv_t;
            for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
                double rc = s->ac[k] + Y1 * s->av1[k] + Y2 * s->av2[k];
                u = rc < u ? rc : u;
            }
            s->pu[b] = s->ptmin[b] = u;
            s->pbest_rc[b] = u - 1e-12 * fabs(u);
            s->pbest[b] = SIZE_MAX;
            const double *mn = s->bmin + 6 * b; /* every multiplier >= 0: a bound for the whole block */
            s->pskip[b] = sh * (mn[0] + mn[1] * po + mn[2] * Wp0) + k1 * (mn[4] + p2 * mn[3]) + k2 * mn[5] >= u;
        }
        screen_ctx_t sc = { s, po, wo, Wp0, k1, k2, p2, 0 };
        size_t nch = s->chstart[m->n_blocks], np = 1, nc = 0;
        if (s->threads > 1 && !s->team && s->kstart[m->n_blocks] >= s->team_min) {
            unsigned th = s->threads < CT_WAIT_TEAM_MAX ? s->threads : CT_WAIT_TEAM_MAX;
            ct_error_t e; /* no team, no harm: the same pass in this thread */
            if (ct_team_alloc(th, &s->team, &e) != CT_OK)
                s->threads = 1;
        }
        if (s->team && s->kstart[m->n_blocks] >= s->team_min)
            np = SCREEN_PIECES * ct_team_size(s->team);
        sc.per = (nch + np - 1) / np;
        np = sc.per ? (nch + sc.per - 1) / sc.per : 0;
        ct_team_run(np > 1 ? s->team : NULL, np, screen_piece, &sc);
        /* the pieces' survivors, in column order whatever ran them */
        for (size_t p = 0; p < np; p++) {
            size_t from = s->pfirst[p], k = s->pcount[p];
            s->mem_skips += s->pmem[p];
            if (from != nc) {
                memmove(s->cand + nc, s->cand + from, k * sizeof *s->cand);
                memmove(s->cand_b + nc, s->cand_b + from, k * sizeof *s->cand_b);
                memmove(s->cand_lin + nc, s->cand_lin + from, k * sizeof *s->cand_lin);
            }
            nc += k;
        }
        /* pass 2: each survivor's bound, then its reduced cost (the
         * costly part, in pieces on the team where there are many), then
         * in column order what the pass keeps of them */
        price_ctx_t pc = { s, po, wo, nc, nc };
        size_t npp = 1;
        if (s->team && nc >= s->price_team_min && nc > 1) {
            size_t most = nc / (s->price_piece_min > 1 ? s->price_piece_min : 1);
            npp = SCREEN_PIECES * ct_team_size(s->team);
            npp = npp < most ? npp : most > 1 ? most : 1;
            pc.per = (nc + npp - 1) / npp;
            npp = (nc + pc.per - 1) / pc.per;
            s->price_team_runs += npp > 1;
        }
        ct_team_run(npp > 1 ? s->team : NULL, nc ? npp : 0, price_piece, &pc);
        for (size_t i = 0; i < nc; i++) {
            size_t b = s->cand_b[i];
            if (s->cand_how[i] != CAND_PRICED)
                mark_run(s, b, s->cand[i]);
            if (s->cand_how[i] == CAND_BOUNDED_OUT)
                continue;
            double rc = s->cand_rc[i];
            if (rc < s->ptmin[b])
                s->ptmin[b] = rc;
            if (rc < s->pbest_rc[b]) {
                s->pbest_rc[b] = rc;
                s->pbest[b] = s->cand[i];
            }
        }
        runs_remembered(s);
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
        *L = Lsum - Y1 * s->r1 - Y2 * s->r2;
        *ok = 1;
        return CT_OK;
    }
}

/* ct_nona_theta_clean on the block solver's packed solution (each block's
 * active columns are its only nonzero ones, in column order). */
static void clean_packed(ct_wait_lp_t *s, double threshold)
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
void ct_wait_lp_theta(const ct_wait_lp_t *s, double *theta)
{
    memset(theta, 0, s->m->n_vars * sizeof(double));
    for (size_t k = 0; k < s->n_dense; k++)
        theta[s->dcol[k]] = s->ax[k];
}

/* 1 if the block solver's packed solution is theta (the search finds the
 * incumbent again and again: no need to evaluate it). Blocks sum to 1 on
 * both sides, so equal active entries leave theta no others (cleaned
 * entries are 0 or >= 1e-12). */
int ct_wait_lp_is(const ct_wait_lp_t *s, const double *theta)
{
    for (size_t k = 0; k < s->n_dense; k++)
        if (theta[s->dcol[k]] != s->ax[k])
            return 0;
    return 1;
}

ct_status_t ct_wait_lp_least_wait(ct_wait_lp_t *s, double pr, double *W, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    double rhs1 = 2.0 * pr * (1.0 - m->rho_bg) - m->m2_bg;
    *W = INFINITY;
    if (!s->blp || !m->server_model)
        return ct_error_set(err, CT_EINPUT, "least wait: the block solver and the server model only");
    if (rhs1 < 0)
        return CT_OK; /* below phi_lo: no theta */
    s->scale1 = wait_row_scale(rhs1, s->a2max + 2.0 * pr * s->a1max);
    s->scale2 = s->qmax > 0 ? s->qmax : 1;
    s->r1 = rhs1 / s->scale1;
    double i1 = 1.0 / s->scale1, i2 = 1.0 / ((double)m->servers * s->scale2), least = 0;
    for (size_t added = 1; added;) {
        if (s->dense_stale)
            pack_active(s);
        for (size_t b = 0; b < m->n_blocks; b++)
            for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
                const ct_tripinfo_t *t = &s->dinfo[k];
                s->av1[k] = s->bbeta[b] * i1 * (t->a2 + 2.0 * pr * t->a1);
                s->av2[k] = s->bbeta[b] * i2 * row_q(s, t);
            }
        ct_status_t st = ct_block_lp_set_blocks(s->blp, s->astart, err);
        if (st == CT_OK)
            st = price_feasibility(s, pr, &added, &least, err);
        if (st != CT_OK)
            return st;
    }
    *W = ct_nona_server_wait(m, row_const(s) + least * s->scale2);
    return CT_OK;
}

/* The branch line of a triplet that an interval's bound uses on [pa, pb]:
 * the longest branch at pa, ties (within 1e-12 of the longest, so that
 * round-off cannot pick the wrong side of a kink at pa) to the steeper,
 * which is the longest just above pa; (0, 0) when no branch is positive,
 * as M = max(0, branches). Its value at pa is >= (1 - 1e-12) M_w(pa), and
 * it is below M_w at every phi. */
static void interval_line(const ct_tripinfo_t *t, const ct_branch_t *br, double pa, double *a, double *n)
{
    double vmax = 0;
    for (size_t i = 0; i < t->n_branches; i++) {
        double v = br[i].a + br[i].n * pa;
        vmax = v > vmax ? v : vmax;
    }
    double floor_v = vmax - 1e-12 * vmax, steepest = -INFINITY;
    *a = *n = 0;
    for (size_t i = 0; i < t->n_branches; i++)
        if (br[i].a + br[i].n * pa >= floor_v && br[i].n > steepest) {
            steepest = br[i].n;
            *a = br[i].a;
            *n = br[i].n;
        }
}

/* An interval's terms, per column: f0 at pa (multiplier ya), fh at pb (yb,
 * a1's row term at pe; see ct_wait_lp_interval_bound). */
typedef struct {
    double pa, pb, ya, yb, pe;
    int need0;              /* f0's minimum is wanted (no Lagrangian bound of the LP at pa) */
} interval_t;

/* Lowers u[2 i] and u[2 i + 1], interval i's least f0 and fh (i < n), by
 * one column's terms. */
static void interval_terms(const interval_t *iv, size_t n, const ct_tripinfo_t *t, const ct_branch_t *br,
                           double beta, double *u)
{
    for (size_t i = 0; i < n; i++) {
        double la, ln;
        interval_line(t, br, iv[i].pa, &la, &ln);
        double f0 = beta * (la + ln * iv[i].pa + iv[i].ya * (t->a2 + 2.0 * iv[i].pa * t->a1));
        double fh = beta * (la + ln * iv[i].pb + iv[i].yb * (t->a2 + 2.0 * iv[i].pe * t->a1));
        u[2 * i] = f0 < u[2 * i] ? f0 : u[2 * i];
        u[2 * i + 1] = fh < u[2 * i + 1] ? fh : u[2 * i + 1];
    }
}

ct_status_t ct_wait_lp_interval_bound(ct_wait_lp_t *s, size_t n, const ct_wait_interval_t *in, double *bound,
                                      ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    interval_t iv[CT_WAIT_INTERVALS];
    double R1 = 2.0 * (1.0 - m->rho_bg), G0[CT_WAIT_INTERVALS], Gh[CT_WAIT_INTERVALS];
    if (m->server_model || n < 1 || n > CT_WAIT_INTERVALS)
        return ct_error_set(err, CT_EINPUT, "interval bound: the link model, one or two intervals only");
    for (size_t i = 0; i < n; i++) {
        const ct_wait_interval_t *x = &in[i];
        if (!(x->pb >= x->pa) || !(x->ya >= 0) || !(x->yb >= 0))
            return ct_error_set(err, CT_EINPUT, "interval bound: expected pa <= pb and multipliers >= 0");
        double h = x->pb - x->pa;
        /* y(phi) linear from ya to yb: y A_w(phi) gains (yb - ya) 2 a1 t^2 / h
         * (t = phi - pa), dropped when >= 0 (yb > ya: a2 at yb, a1 at pe);
         * - y R(phi) gains -(yb - ya) R1 t^2 / h, dropped when >= 0 (ya > yb:
         * the constant below). What is left of every column's term is linear
         * or concave in phi. */
        iv[i] = (interval_t){ x->pa, x->pb, x->ya, x->yb, x->yb > x->ya ? x->pa + x->ya / x->yb * h : x->pb,
                              isnan(x->La) };
        /* with La: at the LP's own multiplier ya every column's term at pa
         * is >= (1 - 1e-12) its reduced cost there, whose sum La holds */
        G0[i] = iv[i].need0 ? s->constant - x->ya * (R1 * x->pa - m->m2_bg)
                            : x->La - 1e-12 * fabs(x->La - s->constant + x->ya * (R1 * x->pa - m->m2_bg));
        Gh[i] = s->constant - x->yb * (R1 * x->pb - m->m2_bg) - (x->ya > x->yb ? (x->ya - x->yb) * R1 * h : 0.0);
    }
    if (!s->blp) { /* GLPK's path: every column, exactly */
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            double beta = m->beta[bl->cls], u[2 * CT_WAIT_INTERVALS];
            for (size_t k = 0; k < 2 * n; k++)
                u[k] = INFINITY;
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
                interval_terms(iv, n, &m->trip[w], m->branches + m->trip[w].branch_start, beta, u);
            for (size_t i = 0; i < n; i++) {
                G0[i] += iv[i].need0 ? u[2 * i] : 0.0;
                Gh[i] += u[2 * i + 1];
            }
        }
        goto out;
    }
    if (s->dense_stale)
        pack_active(s); /* every active column packed: the pass below skips them */
    if (!s->ib && !(s->ib = scratch_get(s, 4 * CT_WAIT_INTERVALS * (m->n_blocks + 1) * sizeof(double))))
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    size_t nc = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        /* u[2 i]: interval i's least f0, u[2 i + 1]: its least fh; u[2 n ..
         * 4 n): the same over the survivors' screen values */
        double beta = m->beta[bl->cls], *u = s->ib + 4 * n * b, *us = u + 2 * n;
        for (size_t k = 0; k < 4 * n; k++)
            u[k] = INFINITY;
        /* the active columns first (the cheapest, as a rule; packed, so
         * streamed): they set the screens' thresholds */
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++)
            interval_terms(iv, n, &s->dinfo[k], s->dbr + s->dinfo[k].branch_start, beta, u);
        /* Screen: a column's line at pa and at pb is >= (1 - 1e-12) M_w(pa)
         * (n >= 0), and M_w(pa) >= either stored branch's mean there (floats
         * rounded down, as the loads); first for the whole block from its
         * least features */
        const double sl = beta * (1.0 - 1e-12), *mn = s->bmin + 6 * b;
        int open = 0;
        for (size_t i = 0; i < n; i++) {
            double mb = sl * (mn[0] + mn[1] * iv[i].pa);
            open |= (iv[i].need0 && mb + iv[i].ya * (mn[4] + 2.0 * iv[i].pa * mn[3]) < u[2 * i]) ||
                    mb + iv[i].yb * (mn[4] + 2.0 * iv[i].pe * mn[3]) < u[2 * i + 1];
        }
        if (!open)
            continue;
        for (size_t j = s->kstart[b]; j < s->kstart[b + 1]; j++) {
            if (s->on[j])
                continue; /* done above */
            double a1 = s->sa1[j], a2 = s->sa2[j];
            int below = 0;
            for (size_t i = 0; i < n; i++) {
                double m1 = s->la[j] + s->ln[j] * iv[i].pa, m2 = s->la2[j] + s->ln2[j] * iv[i].pa;
                double ms = sl * (m1 > m2 ? m1 : m2);
                double f0 = iv[i].need0 ? ms + iv[i].ya * (a2 + 2.0 * iv[i].pa * a1) : INFINITY;
                double fh = ms + iv[i].yb * (a2 + 2.0 * iv[i].pe * a1);
                below |= f0 < u[2 * i] || fh < u[2 * i + 1];
                us[2 * i] = f0 < us[2 * i] ? f0 : us[2 * i];
                us[2 * i + 1] = fh < us[2 * i + 1] ? fh : us[2 * i + 1];
            }
            if (below) {
                s->cand[nc] = j;
                s->cand_b[nc++] = b;
            }
        }
    }
    /* The survivors, scattered: exactly, their data fetched ahead; when
     * they are many (more than one per block and 4096: a wide interval,
     * where the screen is loose and the bound first order anyway), their
     * screen values stand instead */
    if (nc > m->n_blocks && nc > 4096) {
        for (size_t b = 0; b < m->n_blocks; b++) {
            double *u = s->ib + 4 * n * b;
            for (size_t k = 0; k < 2 * n; k++)
                u[k] = u[2 * n + k] < u[k] ? u[2 * n + k] : u[k];
        }
        nc = 0;
    }
    for (size_t c = 0; c < nc; c++) {
        if (c + 8 < nc)
            CT_PREFETCH(&m->trip[s->kcol[s->cand[c + 8]]]);
        if (c + 4 < nc)
            CT_PREFETCH(&m->branches[m->trip[s->kcol[s->cand[c + 4]]].branch_start]);
        size_t w = s->kcol[s->cand[c]], b = s->cand_b[c];
        interval_terms(iv, n, &m->trip[w], m->branches + m->trip[w].branch_start, m->beta[m->blocks[b].cls],
                       s->ib + 4 * n * b);
    }
    for (size_t b = 0; b < m->n_blocks; b++)
        for (size_t i = 0; i < n; i++) {
            G0[i] += iv[i].need0 ? s->ib[4 * n * b + 2 * i] : 0.0;
            Gh[i] += s->ib[4 * n * b + 2 * i + 1];
        }
out:
    /* Every column's term is linear or concave in phi, so are their least
     * per block and the sum F: F >= its chord between the ends. The link
     * row's term dropped above when ya > yb, Q tau^2 (tau = t / h, Q =
     * (ya - yb) R1 h: convex), is outside the minima, so it is added back to
     * the chord: the bound is the least of chord + Q tau^2 over [0, 1]. */
    for (size_t i = 0; i < n; i++) {
        double Q = iv[i].ya > iv[i].yb ? (iv[i].ya - iv[i].yb) * R1 * (iv[i].pb - iv[i].pa) : 0.0;
        double d = G0[i] - Gh[i], b = G0[i] < Gh[i] ? G0[i] : Gh[i];
        if (Q > 0 && d > 0) /* the chord falls towards pb: its least with Q tau^2 */
            b = d >= 2.0 * Q ? Gh[i] + Q : G0[i] - d * d / (4.0 * Q);
        bound[i] = b;
    }
    return CT_OK;
}

/* Solves the LP with the objective at (po, wo) and the rows at (pr, wr).
 * *feasible = 0 when no theta has waits <= (pr, wr). Otherwise theta (may
 * be NULL) receives the LP's cleaned minimiser, *value its objective at
 * (po, wo) in J units (the root waits at theta's own W), *bound (may be NULL) the
 * Lagrangian lower bound in J units. */
ct_status_t ct_wait_lp_solve(ct_wait_lp_t *s, double po, double wo, double pr, double wr, int *feasible,
                                 double *value, double *bound, double *theta, ct_error_t *err)
{
    const ct_nona_model_t *m = s->m;
    *feasible = 0;
    double rhs1 = 2.0 * pr * (1.0 - m->rho_bg) - m->m2_bg;
    if (rhs1 < 0)
        return CT_OK; /* below phi_lo: even all-local waits longer */
    double rhs2 = m->server_model ? 2.0 * wr * (1.0 - m->rho_s) - row_const(s) : 1.0;
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
        double kr = root_rate_of(s) / (s->beta_sum * tscale); /* per unit of row 2's coefficient */
        for (size_t b = 0; b < m->n_blocks; b++) {
            const ct_block_t *bl = &m->blocks[b];
            double share = m->beta[bl->cls] / s->beta_sum;
            for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
                s->c[w] = share * s->c[w] / tscale + kr * row2_coef(s, w, m->beta[bl->cls]);
                if ((st = ct_lp_set_obj(s->lp, w, s->c[w], err)) != CT_OK)
                    return st;
                s->v1[w] = row1_coef(m, w, m->beta[bl->cls], pr);
                s->v2[w] = row2_coef(s, w, m->beta[bl->cls]);
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
    double c0 = s->constant + (s->root_corner ? ct_nona_root_beta(m) * m->r_root * (m->server_model ? wo : 0.0)
                                              : root_rate_of(s) * row_const(s)); /* the root waits' constant */
    s->y1 = y1 = y1 > 0 ? y1 : 0;
    s->y2 = y2 = y2 > 0 ? y2 : 0;
    s->y2_last = ct_wait_lp_row2_multiplier(s); /* the block solver's next hint */
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
        *bound = c0 + s->beta_sum * s->tscale * L;
    /* The objective from the cleaned theta, in the model's own units. */
    double v = c0;
    if (s->blp) { /* the solution stays packed: the same operations, in the same order */
        clean_packed(s, 1e-12);
        for (size_t k = 0; k < s->n_dense; k++)
            if (s->ax[k] > 0)
                v += s->beta_sum * s->tscale * s->ac[k] * s->ax[k];
        if (theta)
            ct_wait_lp_theta(s, theta);
    } else {
        ct_nona_theta_clean(m, s->x, 1e-12); /* simplex round-off */
        for (size_t w = 0; w < m->n_vars; w++)
            if (s->x[w] > 0)
                v += s->beta_sum * s->tscale * s->c[w] * s->x[w];
        if (theta)
            memcpy(theta, s->x, m->n_vars * sizeof(double));
    }
    *value = v;
    s->last_po = po;
    s->last_v = v;
    return CT_OK;
}

ct_status_t ct_nona_lp_value(const ct_nona_model_t *m, ct_nona_lp_t lp, double phi, double W, double *value,
                             double *theta, ct_error_t *err)
{
    ct_wait_lp_t s;
    int feasible;
    if (lp != CT_NONA_LP_BLOCK && lp != CT_NONA_LP_GLPK)
        return ct_error_set(err, CT_EINPUT, "lp: unknown LP solver %d", (int)lp);
    ct_status_t st = ct_wait_lp_init(&s, m, lp, err);
    if (st == CT_OK)
        st = ct_wait_lp_solve(&s, phi, W, phi, W, &feasible, value, NULL, theta, err);
    if (st == CT_OK && !feasible)
        *value = INFINITY;
    ct_wait_lp_free(&s);
    return st;
}

/* J of the block solver's last solution, kept packed (streaming:
 * ct_nona_evaluate's reads are scattered): with exact = 0 a lower bound,
 * each triplet's M bounded without exponentials
 * (ct_nona_tripinfo_time_lb). Sums in another order than
 * ct_nona_evaluate: equal to round-off. */
int ct_wait_lp_waits(const ct_wait_lp_t *s, double *phi, double *W)
{
    const ct_nona_model_t *m = s->m;
    double rho = m->rho_bg, m2 = m->m2_bg, m2s = m->m2s_local;
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
        return 0;
    *phi = m2 / (2.0 * (1.0 - rho));
    *W = ct_nona_server_wait_visits(m, m2s, m->reentry ? ct_nona_pieces_m2(m, s->ax, s->astart, s->dinfo) : 0.0);
    return 1;
}

double ct_wait_lp_J_at(const ct_wait_lp_t *s, double phi, double W, int exact)
{
    const ct_nona_model_t *m = s->m;
    double J = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        J += m->beta[j] * (m->classes[j].base + ct_nona_class_root_wait(m, j, W));
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

double ct_wait_lp_J(const ct_wait_lp_t *s, int exact)
{
    double phi, W;
    return ct_wait_lp_waits(s, &phi, &W) ? ct_wait_lp_J_at(s, phi, W, exact) : INFINITY;
}

double ct_wait_lp_J_floor(const ct_wait_lp_t *s)
{
    const ct_nona_model_t *m = s->m;
    if (!s->blp || m->server_model)
        return -INFINITY;
    double A1 = 0, A2 = 0, S = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        double beta = s->bbeta[b];
        for (size_t k = s->astart[b]; k < s->astart[b + 1]; k++) {
            double th = s->ax[k];
            if (th > 0) {
                const ct_tripinfo_t *t = &s->dinfo[k];
                A1 += beta * th * t->a1;
                A2 += beta * th * t->a2;
                S += beta * th * (double)t->n_crossing;
            }
        }
    }
    double rho = m->rho_bg + A1;
    if (!(rho < 1.0))
        return INFINITY; /* as ct_wait_lp_J: the link is overloaded */
    double phi = (m->m2_bg + A2) / (2.0 * (1.0 - rho));
    return s->last_v - (s->last_po > phi ? (s->last_po - phi) * S : 0.0);
}

/* The spread of a box at theta (the last solve's solution, at the box's
 * lower corner (p0, w0)): what moving phi to p1, then W to w1, adds to the
 * objective (without the roots' wait). The block solver's positive columns
 * are packed: its pass streams through them; theta is then unused. */
void ct_wait_lp_spread(const ct_wait_lp_t *s, const double *theta, double p0, double p1, double w0, double w1,
                       double *dphi, double *dW)
{
    const ct_nona_model_t *m = s->m;
    *dphi = *dW = 0;
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
                *dphi += bt * (ct_nona_tripinfo_time(m, t, br, p1, w0) - M0);
                *dW += bt * (ct_nona_tripinfo_time(m, t, br, p0, w1) - M0);
            }
        }
        return;
    }
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *bl = &m->blocks[bi];
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            if (theta[w] <= 0)
                continue;
            double M0 = ct_nona_triplet_time(m, w, p0, w0), bt = m->beta[bl->cls] * theta[w];
            *dphi += bt * (ct_nona_triplet_time(m, w, p1, w0) - M0);
            *dW += bt * (ct_nona_triplet_time(m, w, p0, w1) - M0);
        }
    }
}
