/*
 * nona_exact.c - the exact Nona solver: a certified branch-and-bound over
 * the waits (phi on the link, W at the servers) of wait LPs, and
 * the older 1-D grid search (see ct_nona_solve.h, spec s.7 and s.11).
 *
 * Each box of the search solves the wait LP (nona_wait_lp.c) with the
 * objective at the box's lower corner and the rows at its upper corner:
 * its Lagrangian value bounds every theta whose waits lie in the box; the
 * box with the least bound is split until every bound is within the gap
 * of the best J found. The link model (one wait) with every segment
 * enumerated searches points of phi instead (see "Point search" below):
 * the box bound loses first order in a box's width (each remote
 * transfer's wait is bilinear in theta and phi), which cost hundreds of
 * boxes to close a gap of 1e-9; the interval bound loses second order.
 * With job-first waits W rides on the expected squares of each job's
 * pieces, which is multilinear in its segments' thetas (not linear): the
 * LP's server row is a linear cut of it (ct_nona_model_set_server_row),
 * exact where the incumbent's segments are pure, tuned there whenever the
 * incumbent moves. The linearised row of earlier versions (params
 * server_row) falls to the floor where jobs split several segments, and
 * the search then stalled at gaps of a few percent.
 *
 * On large models (params.box_pairs) a split box's two halves are bounded
 * as a pair, each on its own wait LP from a copy of the search as it
 * stood, merged after both in a fixed order: the search is a function of
 * the model alone, and the pair runs on two threads where the solve has
 * them (an LP there costs milliseconds, the LP's own team gains nothing).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_parallel.h"
#include "nona_class_dual.h"
#include "nona_internal.h"
#include "nona_wait_lp.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ct_nona_solve_params_init(ct_nona_solve_params_t *p)
{
    *p = (ct_nona_solve_params_t){ .method = CT_NONA_EXACT, .gap = 1e-9, .max_lps = 20000, .grid = 48,
                                   .max_polish = 50, .starts = 6, .max_iter = 400, .seed = 1, .prune = 1e-9,
                                   .lp = CT_NONA_LP_BLOCK, .cg_rounds = 200, .price_exact = 500000,
                                   .price_evals = 20000, .threads = 1, .point_search = 1,
                                   .server_row = CT_NONA_ROW_AUTO, .class_dual = 0, .stall_lps = CT_NONA_STALL_LPS,
                                   .stall_gap = CT_NONA_STALL_GAP, .stall_close = CT_NONA_STALL_CLOSE,
                                   .spread_gap = CT_NONA_SPREAD_GAP, .chase = CT_NONA_CHASE,
                                   .stall_lps_large = CT_NONA_STALL_LPS_LARGE, .pilot_lps = CT_NONA_PILOT_LPS,
                                   .swing_lps = CT_NONA_SWING_LPS,
                                   .pilot_first = CT_NONA_PILOT_FIRST, .stall_gap_large = CT_NONA_STALL_GAP_LARGE,
                                   .box_pairs = CT_NONA_BOX_PAIRS, .search_warm = CT_NONA_SEARCH_WARM };
}

ct_status_t ct_nona_solve_params_check(const ct_nona_solve_params_t *p, const char *pre, ct_error_t *err)
{
    if (p->method != CT_NONA_EXACT && p->method != CT_NONA_PENALTY && p->method != CT_NONA_GRID)
        return ct_error_set(err, CT_EINPUT, "%smethod: unknown method %d", pre, (int)p->method);
    if (!(p->gap >= 0 && p->gap <= 0.5))
        return ct_error_set(err, CT_EINPUT, "%sgap: expected 0 .. 0.5 (got %g)", pre, p->gap);
    if (p->max_lps < 1)
        return ct_error_set(err, CT_EINPUT, "%smax-lps: expected at least 1", pre);
    if (p->threads > 1024)
        return ct_error_set(err, CT_EINPUT, "%sthreads: expected 0 .. 1024 (got %u)", pre, p->threads);
    if (!(p->time_limit >= 0 && p->time_limit <= 1e9))
        return ct_error_set(err, CT_EINPUT, "%stime-limit: expected 0 .. 1e9 seconds (got %g)", pre, p->time_limit);
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
    if (!(p->spread_gap >= 0 && p->spread_gap <= 1e9))
        return ct_error_set(err, CT_EINPUT, "%sspread-gap: expected 0 .. 1e9 of J (got %g)", pre, p->spread_gap);
    if (!(p->stall_gap >= 0 && p->stall_gap <= 0.5))
        return ct_error_set(err, CT_EINPUT, "%sstall-gap: expected 0 .. 0.5 of J (got %g)", pre, p->stall_gap);
    if (!(p->stall_close >= 0 && p->stall_close <= 1))
        return ct_error_set(err, CT_EINPUT, "%sstall-close: expected 0 .. 1 of the gap (got %g)", pre, p->stall_close);
    if (p->stall_lps_large > 1000000000)
        return ct_error_set(err, CT_EINPUT, "%sstall-large: expected 0 .. 1e9 LPs (got %zu)", pre,
                            p->stall_lps_large);
    if (p->pilot_lps > 1000000000)
        return ct_error_set(err, CT_EINPUT, "%spilot: expected 0 .. 1e9 LPs (got %zu)", pre, p->pilot_lps);
    if (p->swing_lps > 1000000000)
        return ct_error_set(err, CT_EINPUT, "%spilot-swing: expected 0 .. 1e9 LPs (got %zu)", pre, p->swing_lps);
    if (p->box_pairs != 0 && p->box_pairs != 1)
        return ct_error_set(err, CT_EINPUT, "%sbox-pairs: expected 0 or 1 (got %d)", pre, p->box_pairs);
    if (p->search_warm != 0 && p->search_warm != 1)
        return ct_error_set(err, CT_EINPUT, "%ssearch-warm: expected 0 or 1 (got %d)", pre, p->search_warm);
    if (p->pilot_first != 0 && p->pilot_first != 1)
        return ct_error_set(err, CT_EINPUT, "%spilot-first: expected 0 or 1 (got %d)", pre, p->pilot_first);
    if (!(p->stall_gap_large >= 0 && p->stall_gap_large <= 0.5))
        return ct_error_set(err, CT_EINPUT, "%sstall-gap-large: expected 0 .. 0.5 of J (got %g)", pre,
                            p->stall_gap_large);
    if (!(p->chase >= 0 && p->chase <= 1))
        return ct_error_set(err, CT_EINPUT, "%schase: expected 0 .. 1 of the open gap (got %g)", pre, p->chase);
    if (p->price_evals < 100)
        return ct_error_set(err, CT_EINPUT, "%sprice-evals: expected at least 100 (got %zu)", pre, p->price_evals);
    if (p->server_row != CT_NONA_ROW_PIECES && p->server_row != CT_NONA_ROW_LINEAR && p->server_row != CT_NONA_ROW_AUTO)
        return ct_error_set(err, CT_EINPUT, "%sserver-row: unknown server row %d", pre, (int)p->server_row);
    if (p->class_dual != 0 && p->class_dual != 1)
        return ct_error_set(err, CT_EINPUT, "%sclass-dual: expected 0 or 1 (got %d)", pre, p->class_dual);
    if (p->point_search != 0 && p->point_search != 1)
        return ct_error_set(err, CT_EINPUT, "%spoint-search: expected 0 or 1 (got %d)", pre, p->point_search);
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

/* All-local is always feasible: the starting incumbent of both searches.
 * Fills best with it, records its J in sol->J_local and returns it. */
/* The server row a search uses: the pieces cut (asked for, or by default
 * with merged visits, whose W the linearised row bounds loosely). */
int ct_nona_solve_row_pieces(const ct_nona_model_t *m, const ct_nona_solve_params_t *p)
{
    return p->server_row == CT_NONA_ROW_PIECES || (p->server_row == CT_NONA_ROW_AUTO && m->reentry_merged);
}

/* The threads a solve's long passes use (params threads, 0: the cores). */
static unsigned solve_threads(const ct_nona_solve_params_t *p)
{
    return p->threads ? p->threads : ct_parallel_cores();
}

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
    double y2;              /* its LP's server-row multiplier (J per unit of sum beta q theta / N) */
    double y0, y1;          /* point search: the link multipliers of the LPs at p0 and p1 (NAN: no
                               theta waits that little) */
    double L0;              /* and the Lagrangian bound of the one at p0 (NAN: none) */
    double cy1, cg;         /* the class dual's multipliers at its best (of this box, or inherited from
                               its parent; else its LP's: the next class dual's start; NAN: none yet) */
    int cd_done;            /* its bound includes the class dual's */
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
    ct_wait_lp_t lp;
    double *theta, *best, *work;
    double best_J;
    box_t *heap;
    size_t n, cap;
    const ct_nona_solve_params_t *p;
    cg_pending_t *pending;  /* NULL: no generated segment small enough to price in boxes */
    /* Server model: each box's bound with the root waits exact, at w0, or
     * both (the higher); which one wins, over the boxes that had both */
    size_t boxes, both, wins_corner;
    double dropped;         /* the least bound of the boxes dropped: pruned (within the gap of the
                               incumbent then) or too small to split */
    /* Point search: the incumbent's link wait, and the kinks of its
     * triplets' M (in no order; gathered again when the incumbent
     * changes). A triplet's kinks depend on it alone: each is walked once
     * a search, into kpool[kink_at[w] .. kink_at[w] + kink_n[w]) (kink_n
     * UINT32_MAX: not walked yet) */
    double best_phi, *kinks, *kpool;
    size_t n_kinks, cap_kinks, n_kpool, cap_kpool, kink_vars;
    size_t *kink_at;
    uint32_t *kink_n;
    int kinks_stale;
    size_t search;          /* this search's number in the solve (params.progress) */
    ct_nona_model_t *mm;    /* the model, to tune its server row (the LP's m) */
    int row_stale;          /* the incumbent moved since the server row was tuned at it */
    size_t stall_at;        /* params.stall_lps's next check (LPs), and the gap (J units) at the last one */
    double stall_last;
    int stalled;
    double deadline;        /* params.time_limit: the solve's end (monotonic s; INFINITY: none) */
    int timed_out;
    ct_class_dual_t *cd;    /* params.class_dual's workspace (NULL: the wait LP's bounds alone) */
    int cd_on;              /* the class dual is in use: the LPs' bounds stopped closing the gap */
    size_t cd_at;           /* the next check of that (LPs), and the gap (J units) at the last one */
    double cd_gap;
    /* params.box_pairs on a large model: a split box's halves are bounded
     * side by side, the lower on lp, the upper on lp2 (each its own
     * buffers), on pair_team's two threads when the solve has them */
    int pairs;
    ct_wait_lp_t lp2;
    double *theta2, *best2, *work2;
    ct_team_t *pair_team;   /* NULL: the halves one after the other in this thread */
    box_t *out;             /* a pair's worker (a copy of the search): its box goes here, not to the heap */
    int out_set;
} bnb_t;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The search's time is up (params.time_limit); sets timed_out. */
static int out_of_time(bnb_t *s)
{
    if (s->deadline < INFINITY && now_seconds() >= s->deadline)
        s->timed_out = 1;
    return s->timed_out;
}

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
        ct_wait_lp_multipliers(&s->lp, &y1, &y2);
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

/* Queues box b, or drops it when its bound is within the gap of the
 * incumbent (the bound still counts in the gap reported). */
static ct_status_t queue_box(bnb_t *s, const box_t *b, ct_error_t *err)
{
    if (s->out) { /* (a pair's worker: queued when the pair is merged) */
        *s->out = *b;
        s->out_set = 1;
        return CT_OK;
    }
    if (b->lb < s->best_J * (1 - s->p->gap))
        return heap_push(s, b, err);
    s->dropped = fmin(s->dropped, b->lb);
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

static ct_status_t consider_theta(bnb_t *s, size_t polish, int from_lp, ct_error_t *err);

/* theta (in s->theta, or the block solver's packed solution) is feasible:
 * keep it if better, then polish it by re-solving at its own waits while
 * J drops (each step cannot raise J), at most `polish` times. */
static ct_status_t consider(bnb_t *s, size_t polish, ct_error_t *err)
{
    return consider_theta(s, polish, 1, err);
}

/* As consider, with the candidate in s->theta already (from_lp = 0). */
static ct_status_t consider_theta(bnb_t *s, size_t polish, int from_lp, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    ct_nona_eval_t e;
    if (s->lp.blp && from_lp) {
        /* the incumbent again, or not better (beyond round-off): spare the
         * full theta and the scattered exact evaluation */
        double phi, W, cut = s->best_J * (1 + 1e-12);
        if (ct_wait_lp_is(&s->lp, s->best) || ct_wait_lp_J_floor(&s->lp) > cut || !ct_wait_lp_waits(&s->lp, &phi, &W) ||
            ct_wait_lp_J_at(&s->lp, phi, W, 0) > cut ||
            (m->server_model && ct_wait_lp_J_at(&s->lp, phi, W, 1) > cut)) /* else the bound is J */
            return CT_OK;
        ct_wait_lp_theta(&s->lp, s->theta);
    }
    ct_nona_evaluate(m, s->theta, &e, NULL);
    if (!(e.J < s->best_J))
        return CT_OK;
    s->best_J = e.J;
    s->best_phi = e.phi;
    s->kinks_stale = 1;
    s->row_stale = 1;
    memcpy(s->best, s->theta, m->n_vars * sizeof(double));
    for (size_t r = 0; r < polish; r++) {
        int feasible;
        double v;
        ct_status_t st = ct_wait_lp_solve(&s->lp, e.phi, e.W, e.phi, e.W, &feasible, &v, NULL, s->work, err);
        if (st != CT_OK)
            return st;
        if (!feasible)
            break;
        ct_nona_evaluate(m, s->work, &e, NULL);
        if (!(e.J < s->best_J * (1 - 1e-15)))
            break;
        s->best_J = e.J;
        s->best_phi = e.phi;
        memcpy(s->best, s->work, m->n_vars * sizeof(double));
    }
    return CT_OK;
}

/* The box's spread along each side at theta (the last solve's, at the
 * box's lower corner): what moving phi, then W, to the upper corner adds
 * to the LP's objective. Picks the side to split. */
static void box_spread(const ct_wait_lp_t *s, const double *theta, box_t *b)
{
    ct_wait_lp_spread(s, theta, b->p0, b->p1, b->w0, b->w1, &b->dphi, &b->dW);
}

/* The first check of whether the LPs' bounds still close the gap (LPs). */
#define CD_FIRST_CHECK 32

/* Which bounds a box gets (server model): 0 both, 1 the exact root term
 * only, 2 the root waits at w0 only. Both until 32 boxes have had both;
 * then one, if the other won fewer than 1 in 16, with both again every
 * 32nd box. Any of them is a valid bound: this only saves LPs. With
 * generated segments priced in the boxes, the exact term only (price_box
 * prices at the last solve's multipliers). */
static int root_mode(bnb_t *s)
{
    if (!s->lp.m->server_model || s->pending)
        return 1;
    if (s->boxes++ % 32 == 0 || s->both < 32)
        return 0;
    if (s->wins_corner * 16 < s->both)
        return 1;
    if ((s->both - s->wins_corner) * 16 < s->both)
        return 2;
    return 0;
}

static double open_gap(const bnb_t *s);

/* The box's LP with the root waits exact (corner = 0) or at w0 (1):
 * *bound = the lower of its Lagrangian bound and its value; the LP keeps
 * its solution and multipliers. */
static ct_status_t box_solve(bnb_t *s, const box_t *b, int corner, int *feasible, double *bound, ct_error_t *err)
{
    double v, lb;
    s->lp.root_corner = corner;
    /* A box's bound need not be closer than a small part of the gap still
     * open: the LP's search may end within a thousandth of it (its bound
     * and theta stay valid; the last steps on h's small pieces gain little) */
    s->lp.rel_tol = s->best_J > 0 && s->best_J < INFINITY ? fmin(1e-3 * open_gap(s) / s->best_J, 1e-4) : 0.0;
    /* the block solver's solution stays packed (see consider) */
    ct_status_t st =
        ct_wait_lp_solve(&s->lp, b->p0, b->w0, b->p1, b->w1, feasible, &v, &lb, s->lp.blp ? NULL : s->theta, err);
    s->lp.root_corner = 0;
    s->lp.rel_tol = 0;
    *bound = lb < v ? lb : v;
    return st;
}

/* The class dual's bound of box b (nona_class_dual.c), when its LPs'
 * does not prune it: the LPs' server row is linear in theta, the pieces
 * are not. Starts from the box's multipliers (its parent's class dual's,
 * nearer than its LP's, which had the linear row); its minimiser, every
 * class on one triplet per segment, is a candidate too. */
static ct_status_t box_class_dual(bnb_t *s, box_t *b, ct_error_t *err)
{
    double lbd, y2d;
    b->cd_done = 1;
    if (!(b->lb < s->best_J * (1 - s->p->gap)))
        return CT_OK;
    s->cd->team = s->lp.team; /* (the wait LP's, once it started one: lent for the classes' passes) */
    ct_status_t st = ct_class_dual_bound(s->cd, b->p0, b->w0, b->p1, b->w1, b->cy1, b->cg,
                                         s->best_J * (1 - s->p->gap), &lbd, &y2d, &b->cy1, &b->cg, s->theta, err);
    if (st != CT_OK)
        return st;
    if (lbd > b->lb) {
        b->lb = lbd;
        b->y2 = y2d;
    }
    return consider_theta(s, s->p->max_polish, 0, err);
}

/* Bounds a box with the root bounds `mode` (root_mode); pushes it unless
 * it is infeasible or pruned. */
static ct_status_t box_process_mode(bnb_t *s, box_t b, int mode, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    int feasible;
    ct_status_t st = box_solve(s, &b, mode == 2, &feasible, &b.lb, err);
    if (st != CT_OK)
        return st;
    if (!feasible) {
        double none = NAN;
        return s->pending ? price_box(s, &b, &none, err) : CT_OK;
    }
    b.y2 = ct_wait_lp_row2_multiplier(&s->lp); /* what tightening row 2 costs */
    if (s->pending && (st = price_box(s, &b, &b.lb, err)) != CT_OK)
        return st;
    /* The LP took the model's server row (the pieces cut where the search
     * took one). The linearised row is a lower bound of m2_s too, and the
     * tighter one where jobs split few segments: when it cuts this LP's
     * theta off, solve the box under it as well and keep the higher bound
     * with its own multiplier (the LP then holds that solve's solution). */
    if (m->server_cut && s->lp.blp &&
        ct_wait_lp_row_at(&s->lp, 1) > 2.0 * b.w1 * (1.0 - m->rho_s) * (1 + 1e-12)) {
        double lb2, y2;
        if ((st = consider(s, 0, err)) != CT_OK) /* (this LP's theta, a candidate, before it is replaced) */
            return st;
        ct_wait_lp_use_row(&s->lp, 1);
        st = box_solve(s, &b, mode == 2, &feasible, &lb2, err);
        ct_wait_lp_use_row(&s->lp, 0);
        if (st != CT_OK)
            return st;
        if (!feasible) { /* no theta waits in the box */
            double none = NAN;
            return s->pending ? price_box(s, &b, &none, err) : CT_OK;
        }
        y2 = ct_wait_lp_row2_multiplier(&s->lp);
        if (s->pending && (st = price_box(s, &b, &lb2, err)) != CT_OK)
            return st;
        if (lb2 > b.lb) {
            b.lb = lb2;
            b.y2 = y2;
        }
    }
    if (b.p1 > b.p0 && b.w1 > b.w0) /* the side to split, when there are two */
        box_spread(&s->lp, s->theta, &b);
    if ((st = consider(s, s->p->max_polish, err)) != CT_OK)
        return st;
    if (mode == 0 && b.lb < s->best_J * (1 - s->p->gap)) {
        /* The exact root term also rewards thetas that wait less at the
         * servers than the box allows (the row bounds W from above only):
         * the bound with the root waits at w0, what a box's theta waits at
         * least, can be higher. Keep the higher, with its multiplier; its
         * theta is a candidate too. */
        double lb2;
        if ((st = box_solve(s, &b, 1, &feasible, &lb2, err)) != CT_OK)
            return st;
        s->both++;
        if (feasible && lb2 > b.lb) {
            b.lb = lb2;
            b.y2 = ct_wait_lp_row2_multiplier(&s->lp);
            s->wins_corner++;
        }
        if (feasible && (st = consider(s, s->p->max_polish, err)) != CT_OK)
            return st;
    }
    if (s->cd && !(isfinite(b.cy1) && isfinite(b.cg))) /* the class dual's start, until it has its own */
        ct_wait_lp_multipliers(&s->lp, &b.cy1, &b.cg);
    b.cd_done = 0;
    if (s->cd_on && (st = box_class_dual(s, &b, err)) != CT_OK)
        return st;
    return queue_box(s, &b, err);
}

static ct_status_t box_process(bnb_t *s, box_t b, ct_error_t *err)
{
    return box_process_mode(s, b, root_mode(s), err);
}

/* A pair of halves (params.box_pairs): two copies of the search as it
 * stands, each with its own wait LP, buffers and incumbent. */
typedef struct {
    bnb_t w[2];
    box_t box[2], out[2];
    int mode[2], run[2];
    ct_status_t st[2];
    ct_error_t err[2];
} pair_t;

static void pair_piece(size_t i, void *ctx)
{
    pair_t *P = ctx;
    P->st[i] = P->run[i] ? box_process_mode(&P->w[i], P->box[i], P->mode[i], &P->err[i]) : CT_OK;
}

/* Bounds the halves lo (unless !lo_run: pruned) and hi of a split box side
 * by side: each from the search as it stands (its incumbent, counts and
 * gap), lo on the search's wait LP, hi on the second (each LP warm from
 * its own last solve). Merged after both, lo's first: the incumbent, the
 * counts, the boxes queued. The same on one thread as on two. */
static ct_status_t pair_process(bnb_t *s, const box_t *lo, int lo_run, const box_t *hi, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    pair_t *P = malloc(sizeof *P);
    if (!P)
        return ct_error_set(err, CT_ENOMEM, "out of memory (box pair)");
    P->box[0] = *lo;
    P->box[1] = *hi;
    P->run[0] = lo_run;
    P->run[1] = 1;
    P->mode[0] = lo_run ? root_mode(s) : 0;
    P->mode[1] = root_mode(s);
    memcpy(s->best2, s->best, m->n_vars * sizeof(double)); /* (the upper half's incumbent, its own copy) */
    for (int i = 0; i < 2; i++) {
        P->w[i] = *s;
        P->w[i].out = &P->out[i];
        P->w[i].out_set = 0;
        ct_error_clear(&P->err[i]);
    }
    P->w[1].lp = s->lp2;
    P->w[1].theta = s->theta2;
    P->w[1].best = s->best2;
    P->w[1].work = s->work2;
    ct_team_run(s->pair_team, 2, pair_piece, P);
    s->lp = P->w[0].lp; /* (the LPs' own fields: counts, multipliers, packing) */
    s->lp2 = P->w[1].lp;
    s->lp.solves += s->lp2.solves;
    s->lp2.solves = 0;
    ct_status_t st = CT_OK;
    size_t both = s->both, wins = s->wins_corner;
    for (int i = 0; i < 2 && st == CT_OK; i++) {
        bnb_t *w = &P->w[i];
        if ((st = P->st[i]) != CT_OK) {
            *err = P->err[i];
            break;
        }
        s->both += w->both - both;
        s->wins_corner += w->wins_corner - wins;
        s->dropped = fmin(s->dropped, w->dropped);
        if (w->best_J < s->best_J) {
            s->best_J = w->best_J;
            s->best_phi = w->best_phi;
            if (w->best != s->best)
                memcpy(s->best, w->best, m->n_vars * sizeof(double));
            s->kinks_stale = s->row_stale = 1;
        }
    }
    for (int i = 0; i < 2 && st == CT_OK; i++)
        if (P->w[i].out_set)
            st = queue_box(s, &P->out[i], err);
    free(P);
    return st;
}

/* Splits [a, b] at its middle, geometric when it spans decades (the
 * optimum's waits often sit near the bottom of the range). */
static double split_point(double a, double b)
{
    if (a > 0 && b > 8 * a)
        return sqrt(a * b);
    return 0.5 * (a + b);
}

/* The least bound of the boxes dropped or left open: what the search has
 * proven. */
static double proven_bound(const bnb_t *s)
{
    double proven = s->dropped;
    for (size_t i = 0; i < s->n; i++)
        if (s->heap[i].lb < proven)
            proven = s->heap[i].lb;
    return proven < s->best_J ? proven : s->best_J;
}

/* The gap proven so far, J units: the least open bound is the heap's top. */
static double open_gap(const bnb_t *s)
{
    double proven = s->n > 0 && s->heap[0].lb < s->dropped ? s->heap[0].lb : s->dropped;
    return proven < s->best_J ? s->best_J - proven : 0.0;
}

/* The stall rule's check with the open gap `gap` (J units): 2 if the gap
 * is within params.stall_gap of J (enough), 1 if (from the second check)
 * it closed less than params.stall_close since the last one (a floor), 0
 * to go on. */
static int stall_fails(const bnb_t *s, double gap)
{
    const ct_nona_solve_params_t *p = s->p;
    if (p->stall_gap > 0 && gap <= p->stall_gap * s->best_J)
        return 2;
    return s->stall_at > p->stall_lps && gap > (1.0 - p->stall_close) * s->stall_last;
}

/* params.progress after an LP. */
static void report(const bnb_t *s)
{
    const ct_nona_solve_params_t *p = s->p;
    if (!p->progress)
        return;
    ct_nona_progress_t r = { s->search, s->lp.solves, p->max_lps, s->best_J / s->lp.beta_sum,
                             s->best_J > 0 ? open_gap(s) / s->best_J : 0 };
    p->progress(&r, p->progress_ctx);
}

/* The box search over (phi, W) from box root (see the file's comment);
 * the boxes it drops count in s->dropped. */
/* The server row's pieces cut is exact where the incumbent's segments
 * sit on one triplet each: tune it there once the incumbent moved. Every
 * cut is valid, so the bounds queued before stand. */
static void tune_row(bnb_t *s)
{
    const ct_nona_model_t *m = s->lp.m;
    if (s->row_stale && m->server_model && m->reentry && ct_nona_solve_row_pieces(m, s->p)) {
        ct_nona_model_set_server_row(s->mm, s->best, NULL);
        ct_wait_lp_refresh_row(&s->lp);
        if (s->pairs && s->lp2.m) /* (set up once the least wait is known: solve_exact) */
            ct_wait_lp_refresh_row(&s->lp2);
        s->row_stale = 0;
    }
}

static ct_status_t search_boxes(bnb_t *s, box_t root, ct_error_t *err)
{
    const ct_nona_solve_params_t *p = s->p;
    const ct_nona_model_t *m = s->lp.m;
    ct_status_t st = box_process(s, root, err);
    if (st != CT_OK)
        return st;
    report(s);
    while (s->n > 0) {
        if (s->heap[0].lb >= s->best_J * (1 - p->gap)) /* every box left is pruned */
            break;
        if (s->lp.solves >= p->max_lps || out_of_time(s)) {
            /* (at its budget within 1% of the stall rule's next check,
             * which it already fails: the stall rule's stop, a few LPs
             * early; a search with a larger budget would stop there) */
            if (!s->timed_out && p->stall_lps && (double)s->stall_at <= 1.01 * (double)s->lp.solves &&
                stall_fails(s, open_gap(s)))
                s->stalled = 1;
            break;
        }
        if (s->pending && s->pending->n > 0)
            break; /* triplets to add: the caller adds them and searches again */
        tune_row(s);
        box_t b = heap_pop(s);
        if (s->cd_on && !b.cd_done) {
            /* bounded before the class dual came in: bound it again first,
             * and split it only if it is still the least */
            if ((st = box_class_dual(s, &b, err)) != CT_OK)
                return st;
            if (s->n > 0 && s->heap[0].lb < b.lb) {
                if ((st = queue_box(s, &b, err)) != CT_OK)
                    return st;
                continue;
            }
            if (b.lb >= s->best_J * (1 - p->gap)) {
                s->dropped = fmin(s->dropped, b.lb);
                continue;
            }
        }
        int can_phi = b.p1 - b.p0 > 1e-15 * (b.p1 > 0 ? b.p1 : 1);
        int can_W = b.w1 - b.w0 > 1e-15 * (b.w1 > 0 ? b.w1 : 1);
        if (!can_phi && !can_W) { /* as small as doubles allow: its bound is final */
            s->dropped = fmin(s->dropped, b.lb);
            continue;
        }
        int on_phi = can_phi && (!can_W || b.dphi >= b.dW);
        box_t lo_box = b, hi_box = b;
        /* A part [w0, w] of the box has the same objective or a higher one
         * (its lower corner is not lower) and a tighter server row: at the
         * box's multipliers its Lagrangian bound is at least the box's plus
         * y2 times what the row's bound loses, 2 (w1 - w) (1 - rho_s). Up
         * to the w where that reaches the incumbent, it is pruned without an
         * LP (no incumbent is sought there): the box is cut there when that
         * is past its middle, else halved as usual. */
        double need = s->best_J * (1 - p->gap) - b.lb, cut = b.w0;
        if (!on_phi && m->server_model && b.y2 > 0 && need > 0)
            cut = b.w1 - need * (1 + 1e-9) / (2.0 * b.y2 * (1.0 - m->rho_s));
        if (on_phi)
            lo_box.p1 = hi_box.p0 = split_point(b.p0, b.p1);
        else {
            double mid = split_point(b.w0, b.w1);
            lo_box.w1 = hi_box.w0 = cut > mid && cut < b.w1 ? cut : mid;
        }
        double lo_lb = b.lb + b.y2 * 2.0 * (b.w1 - lo_box.w1) * (1.0 - m->rho_s);
        int lo_pruned = !on_phi && m->server_model && lo_lb >= s->best_J * (1 - p->gap);
        if (lo_pruned)
            s->dropped = fmin(s->dropped, lo_lb);
        if (s->pairs)
            st = pair_process(s, &lo_box, !lo_pruned, &hi_box, err);
        else if (!lo_pruned)
            st = box_process(s, lo_box, err);
        if (st == CT_OK && !s->pairs)
            st = box_process(s, hi_box, err);
        if (st != CT_OK)
            return st;
        report(s);
        if (s->cd && !s->cd_on && s->lp.solves >= s->cd_at) {
            /* The class dual costs a pass over every column per box; it is
             * brought in once the LPs' bounds close the gap by less than a
             * quarter while the LPs double (boxes that only get narrower
             * close it by a half, or at worst 29%): their floor */
            double gap = open_gap(s);
            if (s->cd_at > CD_FIRST_CHECK && gap > 0.75 * s->cd_gap) {
                s->cd_on = 1;
                s->stall_at = p->stall_lps > 2 * s->lp.solves ? p->stall_lps : 2 * s->lp.solves;
                s->stall_last = INFINITY; /* (the stall rule starts over with the new bounds) */
            }
            s->cd_gap = gap;
            s->cd_at = 2 * s->lp.solves;
        }
        if (p->stall_lps && s->lp.solves >= s->stall_at) {
            /* the gap at doubling LP counts: a search whose boxes only get
             * narrower closes it like 1 / LPs (half per doubling) or at
             * worst 1 / sqrt(LPs) (29%); under a quarter (stall_close) is
             * a floor of the relaxation itself (its bound at the waits'
             * own box), which more boxes approach but do not pass. With
             * stall_gap, a gap within it of J is enough (an option: faster,
             * tables up to 2.5% worse by the model) */
            double gap = open_gap(s);
            int why = stall_fails(s, gap);
            if (why) {
                if (why == 1 && s->cd && !s->cd_on) { /* the class dual first */
                    s->cd_on = 1;
                    s->stall_last = INFINITY;
                    s->stall_at = 2 * s->lp.solves;
                    continue;
                }
                s->stalled = 1;
                break;
            }
            s->stall_last = gap;
            s->stall_at = 2 * s->lp.solves;
        }
    }
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* Point search (link model): the 1-D problem min_phi V(phi), V(phi) the LP
 * at phi. Each interval [p0, p1] has the LPs at its ends solved (their
 * thetas are candidates) and is bounded by ct_wait_lp_interval_bound from
 * their link multipliers: where no positive triplet's longest branch
 * changes inside, the bound is exact to second order in p1 - p0, where
 * the box bound above (objective at p0, row at p1) loses first order (the
 * remote transfers' waits). An interval is split by one more LP: at the
 * kink of the incumbent's triplets nearest its wait, when one lies inside
 * (the optimum often sits on one: there V has a corner and the intervals
 * beside it are exact only once it is an end), else at the incumbent's
 * wait, else in the middle. */

/* Appends n doubles to *a (size *len, capacity *cap), growing it. */
static ct_status_t kinks_push(double **a, size_t *len, size_t *cap, const double *v, size_t n, ct_error_t *err)
{
    if (*len + n > *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        while (nc < *len + n)
            nc *= 2;
        double *na = realloc(*a, nc * sizeof(double));
        if (!na)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        *a = na;
        *cap = nc;
    }
    memcpy(*a + *len, v, n * sizeof(double));
    *len += n;
    return CT_OK;
}

/* The waits phi > 0 where triplet w changes its longest branch, walking
 * its branches' upper envelope from phi = 0 (O(branches^2)), appended to
 * s->kpool and recorded in s->kink_at / s->kink_n. */
static ct_status_t triplet_kinks(bnb_t *s, size_t w, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    const ct_tripinfo_t *t = &m->trip[w];
    const ct_branch_t *br = m->branches + t->branch_start;
    size_t top = SIZE_MAX, start = s->n_kpool; /* the longest at phi = 0, ties to the steepest */
    for (size_t i = 0; i < t->n_branches; i++)
        if (top == SIZE_MAX || br[i].a > br[top].a || (br[i].a == br[top].a && br[i].n > br[top].n))
            top = i;
    double at = 0;
    while (top != SIZE_MAX) {
        size_t next = SIZE_MAX;
        double cross = INFINITY;
        for (size_t j = 0; j < t->n_branches; j++) {
            if (!(br[j].n > br[top].n))
                continue;
            double pc = (br[top].a - br[j].a) / (br[j].n - br[top].n);
            if (pc < at)
                pc = at;
            if (pc < cross || (pc == cross && br[j].n > br[next].n)) {
                cross = pc;
                next = j;
            }
        }
        if (next == SIZE_MAX)
            break;
        ct_status_t st;
        if (cross > 0 && (st = kinks_push(&s->kpool, &s->n_kpool, &s->cap_kpool, &cross, 1, err)) != CT_OK)
            return st;
        at = cross;
        top = next;
    }
    s->kink_at[w] = start;
    s->kink_n[w] = (uint32_t)(s->n_kpool - start); /* (at most one a branch) */
    return CT_OK;
}

/* The kinks of the incumbent's positive triplets into s->kinks (each
 * triplet walked at most once a search: incumbents share most of theirs).
 * O(n_vars) a call, plus O(branches^2) for each triplet new to the search. */
static ct_status_t incumbent_kinks(bnb_t *s, ct_error_t *err)
{
    const ct_nona_model_t *m = s->lp.m;
    ct_status_t st;
    if (!s->kink_n || s->kink_vars != m->n_vars) { /* (a search's columns stay; checked all the same) */
        size_t n = m->n_vars ? m->n_vars : 1;
        free(s->kink_at);
        free(s->kink_n);
        s->kink_at = malloc(n * sizeof(size_t));
        s->kink_n = malloc(n * sizeof(uint32_t));
        if (!s->kink_at || !s->kink_n)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        for (size_t w = 0; w < m->n_vars; w++)
            s->kink_n[w] = UINT32_MAX;
        s->kink_vars = m->n_vars;
        s->n_kpool = 0;
    }
    s->n_kinks = 0;
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            if (!(s->best[w] > 0) || w == bl->local_var) /* all-local: no transfers, no kink (and its
                                                            triplet need not be fetched) */
                continue;
            if (s->kink_n[w] == UINT32_MAX && (st = triplet_kinks(s, w, err)) != CT_OK)
                return st;
            if (s->kink_n[w] &&
                (st = kinks_push(&s->kinks, &s->n_kinks, &s->cap_kinks, s->kpool + s->kink_at[w], s->kink_n[w],
                                 err)) != CT_OK)
                return st;
        }
    }
    s->kinks_stale = 0;
    return CT_OK;
}

/* Where to split [p0, p1] (bound lb): the kink of the incumbent's
 * triplets nearest its wait ph within half the interval, else ph, each
 * when at least 1/50 of the interval from both ends (a wide interval
 * whose bound is weak far from ph is halved instead of being shaved near
 * ph); else, when ph is an end and the bound within 1e-3 of the
 * incumbent, at the width from ph where the bound, closing as the square
 * of the width there, should reach the gap (1/64 .. 1/2 of the interval);
 * else the middle (not geometric, as the box search: the LPs near phi_lo,
 * where the link row is tight, take many pricing rounds). */
static ct_status_t point_split(bnb_t *s, double p0, double p1, double lb, double *at, ct_error_t *err)
{
    double h = p1 - p0, lo = p0 + h / 50, hi = p1 - h / 50, ph = s->best_phi;
    ct_status_t st;
    if (s->kinks_stale && (st = incumbent_kinks(s, err)) != CT_OK)
        return st;
    /* the kinks inside nearest ph from below and from above: the greatest
     * <= min(ph, hi) and the least >= max(ph, lo) (one pass: a search
     * splits about once per incumbent, so sorting them does not pay) */
    double best = NAN, d = 0.5 * h;
    const double target[2] = { ph < hi ? ph : hi, ph > lo ? ph : lo };
    double near[2] = { -INFINITY, INFINITY };
    for (size_t i = 0; i < s->n_kinks; i++) {
        double k = s->kinks[i];
        if (k <= target[0] && k > near[0])
            near[0] = k;
        if (k >= target[1] && k < near[1])
            near[1] = k;
    }
    for (int side = 0; side < 2; side++)
        if (near[side] > lo && near[side] < hi && fabs(near[side] - ph) < d) {
            d = fabs(near[side] - ph);
            best = near[side];
        }
    if (isnan(best) && ph > lo && ph < hi)
        best = ph;
    int at_end = fabs(ph - p0) <= 1e-9 * h ? -1 : fabs(ph - p1) <= 1e-9 * h ? 1 : 0;
    if (isnan(best) && at_end && lb < s->best_J && s->best_J - lb <= 1e-3 * s->best_J) {
        double r = sqrt(0.25 * s->p->gap * s->best_J / (s->best_J - lb));
        r = r < 1.0 / 64 ? 1.0 / 64 : r > 0.5 ? 0.5 : r;
        best = at_end < 0 ? p0 + r * h : p1 - r * h;
    }
    *at = !isnan(best) ? best : 0.5 * (p0 + p1);
    return CT_OK;
}

/* The LP at link wait p (objective and row there): *y its link multiplier
 * (model units) and *L its Lagrangian bound, NAN when no theta waits that
 * little; its theta is a candidate (not polished: the search splits at
 * the incumbent's wait next, which is the same LP). */
static ct_status_t point_lp(bnb_t *s, double p, double *y, double *L, ct_error_t *err)
{
    int feasible;
    double v, y2;
    *y = *L = NAN;
    ct_status_t st = ct_wait_lp_solve(&s->lp, p, 0, p, 0, &feasible, &v, L, s->lp.blp ? NULL : s->theta, err);
    if (st != CT_OK || !feasible)
        return st;
    ct_wait_lp_multipliers(&s->lp, y, &y2);
    return consider(s, 0, err);
}

/* Bounds intervals b[0 .. n) (n <= 2; p0 < p1, y0 and y1 set; lb on
 * entry: their parent's bound, which holds for them too) in one pass and
 * queues those that are neither pruned nor empty. */
static ct_status_t point_boxes(bnb_t *s, box_t *b, size_t n, ct_error_t *err)
{
    ct_wait_interval_t iv[2];
    box_t *kept[2];
    double lb[2];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(b[i].y1)) /* no theta waits <= p1: none in the interval (the row only loosens with phi) */
            continue;
        iv[k] = (ct_wait_interval_t){ b[i].p0, b[i].p1, isnan(b[i].y0) ? b[i].y1 : b[i].y0, b[i].y1, b[i].L0 };
        kept[k++] = &b[i];
    }
    ct_status_t st = k ? ct_wait_lp_interval_bound(&s->lp, k, iv, lb, err) : CT_OK;
    for (size_t i = 0; i < k && st == CT_OK; i++) {
        kept[i]->lb = fmax(kept[i]->lb, lb[i]);
        st = queue_box(s, kept[i], err);
    }
    return st;
}

/* The point search over [lo, hi]; the intervals it drops count in
 * s->dropped. */
static ct_status_t search_points(bnb_t *s, double lo, double hi, ct_error_t *err)
{
    const ct_nona_solve_params_t *p = s->p;
    box_t root = { lo, hi, 0, 0, -INFINITY, 0, 0, 0, NAN, NAN, NAN, NAN, NAN, 0 };
    double L1;
    ct_status_t st;
    if ((st = point_lp(s, hi, &root.y1, &L1, err)) != CT_OK ||
        (st = point_boxes(s, &root, 1, err)) != CT_OK)
        return st;
    report(s);
    while (s->n > 0) {
        if (s->heap[0].lb >= s->best_J * (1 - p->gap) || s->lp.solves >= p->max_lps || out_of_time(s))
            break;
        box_t b = heap_pop(s);
        if (!(b.p1 - b.p0 > 1e-15 * (b.p1 > 0 ? b.p1 : 1))) { /* as small as doubles allow */
            s->dropped = fmin(s->dropped, b.lb);
            continue;
        }
        double c, yc, Lc;
        if ((st = point_split(s, b.p0, b.p1, b.lb, &c, err)) != CT_OK || (st = point_lp(s, c, &yc, &Lc, err)) != CT_OK)
            return st;
        box_t half[2] = { b, b };
        half[0].p1 = half[1].p0 = c;
        half[0].y1 = half[1].y0 = yc;
        half[1].L0 = Lc;
        if ((st = point_boxes(s, half, 2, err)) != CT_OK)
            return st;
        report(s);
    }
    return CT_OK;
}

/* The least wait (on lp) and the pair's second LP's setup (lp2), side by
 * side on the pair's threads: neither writes what the other reads (the
 * model's server row is tuned before; each LP has its own arrays, and the
 * scratch cache takes a mutex). lp2 is set up from the model as it stands,
 * as it would be after a refresh of the row (tune_row). */
typedef struct {
    bnb_t *s;
    double pr, W;
    ct_status_t st[2];
    ct_error_t err[2];
} beside_t;

static void beside_piece(size_t i, void *ctx)
{
    beside_t *B = ctx;
    bnb_t *s = B->s;
    B->st[i] = i == 0 ? ct_wait_lp_least_wait(&s->lp, B->pr, &B->W, &B->err[0])
                      : ct_wait_lp_init(&s->lp2, s->mm, s->p->lp, &B->err[1]);
}

static ct_status_t setup_beside(bnb_t *s, double pr, double *W, ct_error_t *err)
{
    beside_t B = { .s = s, .pr = pr, .W = INFINITY, .st = { CT_OK, CT_OK } };
    ct_error_clear(&B.err[0]);
    ct_error_clear(&B.err[1]);
    ct_team_run(s->pair_team, 2, beside_piece, &B);
    *W = B.W;
    for (int i = 0; i < 2; i++)
        if (B.st[i] != CT_OK) {
            *err = B.err[i];
            return B.st[i];
        }
    return CT_OK;
}

/* A search's arrays over the model's variables (theta, the incumbent, a
 * polish's work) from the model's scratch cache: a solve's searches and
 * polishes take them again and again, and fresh ones cost the first touch
 * of their pages each time (seed 14 of bench_nona_family, 73,700
 * variables: 5,700 of its 15,000 page faults). Contents undefined. */
static double *vars_get(const ct_nona_model_t *m)
{
    return ct_scratch_get(m->scratch, (m->n_vars ? m->n_vars : 1) * sizeof(double), 0);
}

static void vars_put(const ct_nona_model_t *m, double *v)
{
    ct_scratch_put(m->scratch, v);
}

static ct_status_t solve_exact(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                               cg_pending_t *pending, const double *warm, size_t *searches, double deadline,
                               ct_error_t *err)
{
    bnb_t s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.search = ++*searches;
    s.dropped = INFINITY;
    for (size_t b = 0; pending && b < m->n_blocks; b++)
        if (m->blocks[b].generated && !generated_over(&m->blocks[b], CG_BOX_EXACT))
            s.pending = pending;
    s.theta = vars_get(m);
    s.best = vars_get(m);
    s.work = vars_get(m);
    ct_status_t st = CT_OK;
    if (!s.theta || !s.best || !s.work) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    s.mm = m;
    s.stall_at = p->stall_lps;
    s.stall_last = INFINITY;
    s.deadline = deadline;
    s.best_J = local_incumbent(m, s.best, sol);
    /* every search starts from the same server row: the one tuned at
     * all-local (then at each new incumbent) */
    ct_nona_model_set_server_row(m, ct_nona_solve_row_pieces(m, p) ? s.best : NULL, NULL);
    double lo = ct_nona_phi_min(m), hi = ct_nona_phi_max(m), wlo, whi;
    s.best_phi = lo; /* all-local's */
    ct_nona_W_range(m, &wlo, &whi);
    sol->phi_lo = lo;
    sol->phi_hi = hi > lo ? hi : lo;
    if (wlo < 1e-12 * whi)
        wlo = 0; /* round-off above 0: splitting geometrically towards it would reach denormal waits */
    sol->W_lo = wlo;
    sol->W_hi = whi;
    sol->lower_bound = s.best_J;
    sol->gap = 0;
    if (m->n_vars == m->n_blocks)
        goto done; /* nothing to decide */
    if ((st = ct_wait_lp_init(&s.lp, m, p->lp, err)) != CT_OK)
        goto done;
    s.lp.threads = solve_threads(p);
    /* params.box_pairs on a large model: the halves of a split box side by
     * side (not with generated segments priced in the boxes, nor with the
     * class dual, nor with GLPK's LP, one object); the pair's two threads
     * instead of the LP's own team */
    s.pairs = p->box_pairs && s.lp.blp && !s.pending && !(p->class_dual && ct_class_dual_applies(m)) &&
              m->n_blocks >= CT_NONA_LARGE_BLOCKS;
    if (s.pairs) { /* (lp2 itself is set up below, beside the least wait) */
        s.theta2 = vars_get(m);
        s.best2 = vars_get(m);
        s.work2 = vars_get(m);
        if (!s.theta2 || !s.best2 || !s.work2) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            goto done;
        }
        s.lp.threads = s.lp2.threads = 1;
        if (solve_threads(p) > 1 && (st = ct_team_alloc(2, &s.pair_team, err)) != CT_OK)
            goto done;
    }
    if (warm) { /* the last round's table (column generation), polished with the new columns; or the
                 * last search's of the shares' fixed point (params.search_warm) */
        memcpy(s.theta, warm, m->n_vars * sizeof(double));
        if ((st = consider_theta(&s, p->max_polish, 0, err)) != CT_OK)
            goto done;
        tune_row(&s);
    }
    s.cd_at = CD_FIRST_CHECK;
    s.cd_gap = INFINITY;
    if (p->class_dual && ct_class_dual_applies(m) && !(s.cd = ct_class_dual_alloc(m))) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory (class dual)");
        goto done;
    }
    int listed = 1; /* every triplet listed: the least wait over them is the least of all */
    for (size_t b = 0; b < m->n_blocks; b++)
        listed &= !m->blocks[b].generated;
    if (m->server_model && listed) {
        /* no theta waits less at the servers than the least its link row
         * allows at the largest phi: the boxes below are infeasible (the
         * block solver finds it; the GLPK search, the reference, searches
         * the same range) */
        ct_wait_lp_t aux, *lw = &s.lp;
        double wmin;
        if (!s.lp.blp && (st = ct_wait_lp_init(lw = &aux, m, CT_NONA_LP_BLOCK, err)) != CT_OK) {
            ct_wait_lp_free(&aux);
            goto done;
        }
        st = s.pairs ? setup_beside(&s, sol->phi_hi, &wmin, err) : ct_wait_lp_least_wait(lw, sol->phi_hi, &wmin, err);
        if (lw == &aux)
            ct_wait_lp_free(&aux);
        if (st != CT_OK)
            goto done;
        if (wmin > wlo + 1e-9 * whi && wmin <= whi) /* not round-off above the old end */
            sol->W_lo = wlo = wmin;
    }
    if (s.pairs && !s.lp2.m && (st = ct_wait_lp_init(&s.lp2, m, p->lp, err)) != CT_OK)
        goto done;
    box_t root = { lo, sol->phi_hi, wlo, whi, 0, 0, 0, 0, NAN, NAN, NAN, NAN, NAN, 0 };
    st = !m->server_model && listed && p->point_search ? search_points(&s, lo, sol->phi_hi, err)
                                                       : search_boxes(&s, root, err);
    if (st != CT_OK)
        goto done;
    sol->stalled = s.stalled;
    sol->time_limited = s.timed_out;
    sol->lower_bound = proven_bound(&s);
    sol->gap = s.best_J > 0 ? (s.best_J - sol->lower_bound) / s.best_J : 0;
done:
    if (st == CT_OK) {
        memcpy(sol->theta, s.best, m->n_vars * sizeof(double));
        sol->lp_solves = s.lp.solves;
    }
    ct_wait_lp_free(&s.lp); /* (zeroed when never initialised) */
    ct_wait_lp_free(&s.lp2);
    ct_team_free(s.pair_team);
    vars_put(m, s.theta2);
    vars_put(m, s.best2);
    vars_put(m, s.work2);
    ct_class_dual_free(s.cd);
    vars_put(m, s.theta);
    vars_put(m, s.best);
    vars_put(m, s.work);
    free(s.heap);
    free(s.kinks);
    free(s.kpool);
    free(s.kink_at);
    free(s.kink_n);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The 1-D grid search of earlier versions (link-only model, no certificate). */

/* The search state: the best true J seen, and its theta. */
typedef struct {
    ct_wait_lp_t lp;
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
    if ((s->st = ct_wait_lp_solve(&s->lp, phi, 0.0, phi, 0.0, &feasible, &v, NULL, s->theta, s->err)) != CT_OK ||
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
    if ((st = ct_wait_lp_init(&s.lp, m, p->lp, err)) != CT_OK)
        goto done;
    s.lp.threads = solve_threads(p);
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
    ct_wait_lp_free(&s.lp); /* (zeroed when never initialised) */
    free(s.theta);
    free(s.best);
    free(grid);
    free(gv);
    return st;
}

static ct_status_t solve_once(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                             cg_pending_t *pending, const double *warm, size_t *searches, double deadline,
                             ct_error_t *err)
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
    st = p->method == CT_NONA_EXACT ? solve_exact(m, p, sol, pending, warm, searches, deadline, err)
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
/* params.chase's open gap, at most this share of J: savings above it are
 * chased whatever the search left open */
#define CG_CHASE_CAP 1e-3
/* The pricing screen's memory (88 bytes a triplet: a segment of 500,000
 * triplets, params.price_exact's default, takes 44 MB); segments beyond
 * are streamed as without one. */
#define PRICE_SCREEN_BYTES ((size_t)128 << 20)

/* The wait LP's multipliers at the solution's own waits, in model units
 * (see nona_columns.c): *y1 per unit of a2 + 2 phi a1, *y2 per unit of
 * q / N. */
static ct_status_t multipliers_at(ct_wait_lp_t *s, double phi, double W, double *y1, double *y2, ct_error_t *err)
{
    ct_status_t st = CT_OK;
    *y1 = *y2 = 0;
    for (int tries = 0; st == CT_OK && tries < 4; tries++) {
        int feasible = 0;
        double v;
        /* the solution's waits, relaxed by round-off if need be */
        double grow = tries ? pow(10.0, -12 + 2 * tries) : 0;
        if ((st = ct_wait_lp_solve(s, phi, W, phi * (1 + grow), W * (1 + grow), &feasible, &v, NULL, NULL, err)) !=
                CT_OK ||
            !feasible)
            continue;
        ct_wait_lp_multipliers(s, y1, y2);
        break;
    }
    return st;
}

/* One pricing round of column generation: at the solution's waits (where
 * each segment's gap is measured, into gap[] and *column_gap), then over a
 * spread of the search range, so that triplets that pay only at other
 * waits get their chance too (searched segments only with spread: 1 every
 * segment, 2 the searched ones alone, the rest left as they are). Adds
 * what lowers the LP's value when `add` and the round's finds could save
 * at least min_saving (J units) in all: the sum over blocks of the
 * class's rate times the most one find undercuts the block's least f at
 * its point, what the finds could lower the LP's Lagrangian by there;
 * *added counts what it added. Every block is priced before any find is
 * added (a block's pricing reads only its own triplets). */
static ct_status_t price_round(ct_nona_model_t *m, const ct_nona_solve_params_t *p, const ct_nona_solution_t *sol,
                               ct_nona_price_screen_t *screen, int add, int spread, double min_saving, double *gap,
                               double *column_gap, size_t *added, ct_error_t *err)
{
    enum { NPT = 1 + 3 * CG_SPREAD };
    double plo = ct_nona_phi_min(m), phi_hi = ct_nona_phi_max(m), wlo, whi, pts[NPT][2];
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
    double saving = 0;
    /* Every point's multipliers from the round's columns, then each block
     * priced at all its points in one pass (a segment priced exactly is
     * streamed once); the finds added afterwards, each block's in the
     * points' order. */
    ct_nona_price_point_t at[NPT];
    size_t nb = m->n_blocks;
    ct_nona_priced_t *pr = calloc(nb * NPT + 1, sizeof *pr);
    double *cut = malloc((nb * NPT + 1) * sizeof(double));
    size_t *np = calloc(nb + 1, sizeof(size_t)); /* (points priced per block; 0: none) */
    if (!pr || !cut || !np) {
        free(pr);
        free(cut);
        free(np);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    ct_wait_lp_t lp;
    ct_status_t st = ct_wait_lp_init(&lp, m, CT_NONA_LP_BLOCK, err);
    for (size_t pi = 0; pi < npts && st == CT_OK; pi++) {
        at[pi] = (ct_nona_price_point_t){ pts[pi][0], pts[pi][1], pts[pi][0], 0, 0 };
        st = multipliers_at(&lp, at[pi].phi, at[pi].W, &at[pi].y1, &at[pi].y2, err);
    }
    ct_wait_lp_free(&lp);
    for (size_t b = 0; b < nb && st == CT_OK; b++) {
        if (!m->blocks[b].generated)
            continue;
        int searched = generated_over(&m->blocks[b], (double)p->price_exact);
        if (spread == 2 && !searched) /* (priced at every point already) */
            continue;
        size_t n = !spread && searched ? 1 : npts;
        ct_nona_priced_t *r = pr + b * NPT;
        double *c = cut + b * NPT;
        /* each point's least f over the block's triplets: what a new one
         * must beat (the exact stream skips what cannot) */
        for (size_t pi = 0; pi < n; pi++)
            c[pi] = ct_nona_block_price(m, b, at[pi].phi, at[pi].W, at[pi].pr, at[pi].y1, at[pi].y2);
        unsigned threads = solve_threads(p);
        if (ct_partition_triplet_count(m->blocks[b].parts.n_inner) < CT_NONA_STREAM_RANGE_MIN)
            threads = 1;
        if ((st = ct_nona_price_block_points(m, b, n, at, c, p->price_exact, p->price_evals, threads, screen, r,
                                             err)) != CT_OK)
            break;
        np[b] = n;
        gap[b] = fmax(0.0, c[0] - r[0].bound);
        *column_gap += m->beta[m->blocks[b].cls] * gap[b];
        double most = 0;
        for (size_t pi = 0; pi < n; pi++)
            most = fmax(most, c[pi] - r[pi].value);
        saving += m->beta[m->blocks[b].cls] * most;
    }
    int adding = st == CT_OK && add && saving >= min_saving;
    for (size_t b = 0; b < nb && adding && st == CT_OK; b++) {
        const ct_nona_priced_t *r = pr + b * NPT;
        for (size_t pi = 0; pi < np[b] && st == CT_OK; pi++) {
            /* (again: the triplets added at the points before count, so
             * that a point's find is added only if it beats them too) */
            const ct_nona_price_point_t *x = &at[pi];
            double fmin = pi ? ct_nona_block_price(m, b, x->phi, x->W, x->pr, x->y1, x->y2) : cut[b * NPT];
            if (r[pi].value < fmin - 1e-12 * fabs(fmin)) {
                uint8_t k = (uint8_t)r[pi].k, l = (uint8_t)r[pi].l;
                st = ct_nona_model_add_triplets(m, b, 1, r[pi].assign, &k, &l, err);
                ++*added;
            }
        }
    }
    for (size_t b = 0; b < nb; b++)
        for (size_t pi = 0; pi < np[b]; pi++)
            ct_nona_priced_free(&pr[b * NPT + pi]);
    free(pr);
    free(cut);
    free(np);
    return st;
}

/* gap_open: the search did not close its gap (NAN counts as open; the
 * gap a closed search reports can exceed params.gap by round-off).
 * cut_short: its LP budget stopped it with the gap open, so one with a
 * larger budget could close more. Not one the stall rule stopped (its
 * check at twice stall_lps comes before the budget's): a search with the
 * whole budget would stop there too. */
static int gap_open(const ct_nona_solution_t *sol, const ct_nona_solve_params_t *p)
{
    return !(sol->gap <= p->gap * (1 + 1e-6));
}

static int cut_short(const ct_nona_solution_t *sol, const ct_nona_solve_params_t *p)
{
    return sol->lp_solves >= p->max_lps && !sol->stalled && gap_open(sol, p);
}

/* The last round's table in the model's variables after triplets were
 * added (each block's new ones after its old ones, at 0): *out, owned by
 * the caller. start[b]: block b's first variable before (start[n_blocks]:
 * the variables before). */
static ct_status_t warm_theta(const ct_nona_model_t *m, const size_t *start, const double *theta, double **out,
                              ct_error_t *err)
{
    *out = calloc(m->n_vars ? m->n_vars : 1, sizeof(double));
    if (!*out)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t b = 0; b < m->n_blocks; b++) {
        memcpy(*out + m->blocks[b].var_start, theta + start[b], (start[b + 1] - start[b]) * sizeof(double));
    }
    return CT_OK;
}

/* The restricted master at fixed waits: theta (the last table, in the
 * model's variables with the new columns at 0) re-solved at its own waits
 * while J drops, as a search polishes its incumbents; into sol (theta,
 * eval, tau; its bound is the last search's, over fewer columns). *lps
 * counts the LPs. */
static ct_status_t polish_table(ct_nona_model_t *m, const ct_nona_solve_params_t *p, const double *theta,
                                ct_nona_solution_t *sol, size_t *lps, ct_error_t *err)
{
    bnb_t s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.mm = m;
    s.best_J = INFINITY;
    size_t n = m->n_vars ? m->n_vars : 1;
    double *keep = malloc(n * sizeof(double));
    s.theta = vars_get(m);
    s.best = vars_get(m);
    s.work = vars_get(m);
    ct_status_t st = CT_OK;
    if (!keep || !s.theta || !s.best || !s.work) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(s.theta, theta, m->n_vars * sizeof(double));
    /* (the server row tuned at the table, as a search tunes it at its incumbents) */
    ct_nona_model_set_server_row(m, ct_nona_solve_row_pieces(m, p) ? s.theta : NULL, NULL);
    if ((st = ct_wait_lp_init(&s.lp, m, p->lp, err)) != CT_OK)
        goto done;
    s.lp.threads = solve_threads(p);
    if ((st = consider_theta(&s, p->max_polish, 0, err)) != CT_OK)
        goto done;
    *lps += s.lp.solves;
    free(sol->theta);
    sol->theta = keep;
    keep = NULL;
    memcpy(sol->theta, s.best, m->n_vars * sizeof(double));
    ct_nona_theta_clean(m, sol->theta, p->prune);
    ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
done:
    ct_wait_lp_free(&s.lp);
    free(keep);
    vars_put(m, s.theta);
    vars_put(m, s.best);
    vars_put(m, s.work);
    return st;
}

/* solve_once, then column generation for generated segments: add the
 * triplets that priced out inside the search, or else those a pricing
 * round finds, re-solve the table at its waits with them (polish_table)
 * and price again; search again, from that table, once a round adds
 * nothing or its triplets do not lower J at those waits; until a search's
 * table prices out with nothing to add (or cg_rounds). The last round's
 * gaps go into the solution. provisional: the caller searches again in
 * any case when this search is cut short (the shares' tenth), so none
 * follows here then. from: the first search's incumbent before its first
 * box (NULL: all-local's), in the model's variables. */
static ct_status_t solve_columns(ct_nona_model_t *m, const ct_nona_solve_params_t *p, int provisional,
                                 const double *from, ct_nona_solution_t *sol, ct_nona_price_screen_t *screen,
                                 size_t *searches, double deadline, ct_error_t *err)
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
    ct_status_t st = solve_once(m, p, sol, any ? &pend : NULL, from, searches, deadline, err);
    if (st != CT_OK || !any) {
        pending_free(&pend);
        return st;
    }
    double seconds = sol->seconds, *gap = calloc(m->n_blocks, sizeof(double)), *warm = NULL;
    size_t lps = sol->lp_solves, added = 0, rounds = 1, *start = malloc((m->n_blocks + 1) * sizeof(size_t));
    int searched = 1; /* (the table is a search's over every column; else polished since columns were added) */
    if (!gap || !start)
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    while (st == CT_OK) {
        for (size_t b = 0; b < m->n_blocks; b++)
            start[b] = m->blocks[b].var_start;
        start[m->n_blocks] = m->n_vars;
        if (sol->time_limited) { /* no time for another round: the columns' gap is unknown */
            sol->column_gap = NAN;
            break;
        }
        double t0 = now_seconds(), column_gap = 0;
        size_t added_now = 0;
        /* (a provisional search, the shares' tenth, cut short: the caller
         * searches again in any case, with these columns) */
        int again = !provisional || !cut_short(sol, p);
        if (pend.n > 0 && rounds < p->cg_rounds) { /* priced out inside the search */
            for (size_t i = 0; i < pend.n && st == CT_OK; i++)
                st = ct_nona_model_add_triplets(m, pend.v[i].block, 1, pend.v[i].assign, &pend.v[i].k, &pend.v[i].l,
                                                err);
            added_now = pend.n;
        } else {
            /* After a search that left its gap open, finds that could save
             * less than params.chase of that gap (taken as at most
             * CG_CHASE_CAP of J) are not chased: another search, against a
             * floor it cannot pass, would hardly tell them from its own
             * slack (bench_nona_family's seed 14: 6 searches of about 500
             * LPs instead of 16, most of those after a find of 1e-5 to
             * 4e-4 of J); they stay in the column gap reported. (Where
             * the caller searches again anyway, every find is taken.) */
            double min_saving = 0.0;
            if (searched && again && gap_open(sol, p) && isfinite(sol->gap))
                min_saving = p->chase * fmin(sol->gap, CG_CHASE_CAP) * sol->eval.J;
            st = price_round(m, p, sol, screen, rounds < p->cg_rounds, p->price_spread == 1, min_saving, gap,
                             &column_gap, &added_now, err);
            /* Nothing found at a search's waits, yet what the triplets never
             * generated could save there is above spread_gap of J: price at
             * the spread of waits too, where a split that pays only when
             * every job splits shows (layered-305 at 0.3: all-local, 1.07
             * of J unproven, 0.323 s; after, 0.254 s). The column gap
             * stays the one measured at the table's waits. */
            if (st == CT_OK && p->spread_gap > 0 && !p->price_spread && !added_now && searched &&
                rounds < p->cg_rounds && column_gap > p->spread_gap * sol->eval.J) {
                double unused;
                st = price_round(m, p, sol, screen, 1, 2, min_saving, gap, &unused, &added_now, err);
            }
        }
        pending_free(&pend);
        seconds += now_seconds() - t0;
        if (st != CT_OK)
            break;
        if (!added_now && (searched || !again)) {
            sol->segment_gap = gap;
            sol->column_gap = column_gap;
            gap = NULL;
            break;
        }
        added += added_now;
        rounds += added_now > 0;
        free(warm);
        if ((st = warm_theta(m, start, sol->theta, &warm, err)) != CT_OK)
            break;
        if (added_now) {
            /* New columns: the table re-solved at its waits with them (an
             * LP or a few), and priced again there; a search only once
             * pricing finds nothing at the table's waits (each search of a
             * round cut short by its budget otherwise added a column or
             * two worth 1e-5 of J: on issue #27's seed 14, 17 searches of
             * 2,000 LPs) */
            double J_before = sol->eval.J;
            t0 = now_seconds();
            st = polish_table(m, p, warm, sol, &lps, err);
            seconds += now_seconds() - t0;
            searched = 0;
            /* (no better at these waits: the columns pay at other waits,
             * which only a search reaches) */
            if (st != CT_OK || sol->eval.J < J_before * (1 - 1e-12))
                continue;
            memcpy(warm, sol->theta, m->n_vars * sizeof(double)); /* (polished: no better, maybe cleaned) */
        }
        /* the search starts from the last table (its J can only fall) */
        ct_nona_solution_free(sol);
        if ((st = solve_once(m, p, sol, &pend, warm, searches, deadline, err)) != CT_OK)
            break;
        searched = 1;
        seconds += sol->seconds;
        lps += sol->lp_solves;
    }
    pending_free(&pend);
    free(gap);
    free(warm);
    free(start);
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

/* A deep copy of src (n_vars and n_classes of model m) into *dst. */
static ct_status_t solution_copy(const ct_nona_model_t *m, const ct_nona_solution_t *src, ct_nona_solution_t *dst,
                                 ct_error_t *err)
{
    *dst = *src;
    dst->theta = malloc((m->n_vars ? m->n_vars : 1) * sizeof(double));
    dst->tau = malloc((m->n_classes ? m->n_classes : 1) * sizeof(double));
    dst->segment_gap = src->segment_gap ? malloc((m->n_blocks ? m->n_blocks : 1) * sizeof(double)) : NULL;
    if (!dst->theta || !dst->tau || (src->segment_gap && !dst->segment_gap)) {
        ct_nona_solution_free(dst);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    memcpy(dst->theta, src->theta, m->n_vars * sizeof(double));
    memcpy(dst->tau, src->tau, m->n_classes * sizeof(double));
    if (src->segment_gap)
        memcpy(dst->segment_gap, src->segment_gap, m->n_blocks * sizeof(double));
    return CT_OK;
}

/* The shares the model's waits depend on: root share a, later share L, the
 * busy servers' dispersion D and the held share h. */
static void set_shares(ct_nona_model_t *m, double a, double L, double D, double h)
{
    ct_nona_model_set_root_share(m, a);
    ct_nona_model_set_later_share(m, L);
    ct_nona_model_set_busy(m, D, h);
}

/* The solution's J under shares a, L, D and h. Leaves the model's shares
 * as they were. */
static double J_at_shares(ct_nona_model_t *m, const ct_nona_solution_t *sol, double a, double L, double D, double h)
{
    double a0 = m->root_share, L0 = m->later_share, D0 = m->dispersion, h0 = m->held_share;
    double ph = m->price_hold, po = m->price_overlap;
    ct_nona_eval_t e;
    m->price_hold = m->price_overlap = 0;
    set_shares(m, a, L, D, h);
    ct_nona_evaluate(m, sol->theta, &e, NULL);
    set_shares(m, a0, L0, D0, h0);
    m->price_hold = ph;
    m->price_overlap = po;
    return e.J;
}

/* Finite servers: what a triplet's hold and overlap cost the other jobs.
 * The held share and the dispersion are shares of the fixed point: a
 * search takes them as given, so a table that holds servers idle (a sink
 * on a part that ends early) or runs wide splits at once would not see
 * what that costs everyone's sampled waits (on the generated layered
 * families at load 0.7 such tables simulated 1.11x slower, geometric
 * mean). Their marginal costs at the current shares and theta, dJ/dh / N
 * and dJ/dD / (rho_s N), price each triplet's hold and overlap
 * (busy_price in nona_model.c); the reported J is without them. */
static void set_prices(ct_nona_model_t *m, const double *theta)
{
    m->price_hold = m->price_overlap = 0;
    if (!m->finite_servers || m->root_choices < 2 || !(m->rho_s > 0))
        return;
    double D = m->dispersion, h = m->held_share, N = (double)m->servers, eh = 1e-3, eD = 1e-3 * D;
    ct_nona_eval_t e0, e1, e2;
    ct_nona_evaluate(m, theta, &e0, NULL);
    if (h + eh > 1.0 - m->rho_s)
        eh = -eh;
    ct_nona_model_set_busy(m, D, h + eh);
    ct_nona_evaluate(m, theta, &e1, NULL);
    ct_nona_model_set_busy(m, D + eD, h);
    ct_nona_evaluate(m, theta, &e2, NULL);
    ct_nona_model_set_busy(m, D, h);
    if (isfinite(e0.J) && isfinite(e1.J) && isfinite(e2.J)) {
        m->price_hold = fmax(0.0, (e1.J - e0.J) / eh / N);
        m->price_overlap = fmax(0.0, (e2.J - e0.J) / eD / (m->rho_s * N));
    }
}

static ct_status_t solve_shares(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                                ct_nona_price_screen_t *screen, ct_error_t *err)
{
    ct_nona_solve_params_t defaults, large, tenth, pilot;
    if (!p) {
        ct_nona_solve_params_init(&defaults);
        p = &defaults;
    }
    /* On a large model a search that stalls has found its table in its
     * first few dozen LPs, and each LP costs milliseconds: the stall rule
     * checks from params.stall_lps_large on (every search of the solve),
     * and a gap within params.stall_gap_large of J is enough there */
    int early_checks = p->stall_lps_large > 0 && p->stall_lps_large < p->stall_lps,
        enough = p->stall_gap_large > p->stall_gap;
    if (p->stall_lps && (early_checks || enough) && m->n_blocks >= CT_NONA_LARGE_BLOCKS) {
        large = *p;
        if (early_checks)
            large.stall_lps = p->stall_lps_large;
        if (enough)
            large.stall_gap = p->stall_gap_large;
        p = &large;
    }
    /* Start the fixed point from the same share every time, so a solve does
     * not depend on what was evaluated on the model before it. */
    set_shares(m, 1.0, 0.0, 1.0, 0.0);
    size_t searches = 0; /* (params.progress numbers them) */
    int fixed_point = m->server_model && (m->root_choices > 1 || m->reentry);
    /* While the share may still move, the exact search gets a tenth of
     * its LP budget (one that closes the gap sooner is the same search);
     * a share that settled after a search the tenth cut short is solved
     * again with the whole budget, which every later search keeps. */
    int full = !fixed_point || p->method != CT_NONA_EXACT;
    tenth = *p;
    tenth.max_lps = p->max_lps / 10 > 0 ? p->max_lps / 10 : 1;
    /* Once the shares have reversed (two tables sending each other back),
     * the searches until they settle only steer the shares: on a model of
     * CT_NONA_LARGE_BLOCKS blocks or more, whose LPs cost milliseconds,
     * each gets params.pilot_lps LPs (its table a candidate still), and
     * the full search comes after they settle, as after the tenth */
    pilot = tenth;
    if (p->pilot_lps > 0 && p->pilot_lps < pilot.max_lps && m->n_blocks >= CT_NONA_LARGE_BLOCKS)
        pilot.max_lps = p->pilot_lps;
    /* The first search, at the start shares, mostly steers them (its bound
     * stands in only where they do not settle): on those models a pilot
     * too, with params.pilot_first */
    int pilots = pilot.max_lps < tenth.max_lps;
    /* Once they swing, a pilot only tells which side a share sends the
     * table to: params.swing_lps there (a search that stalls has found
     * its table in its first dozen LPs, see ct_nona_solve.h) */
    ct_nona_solve_params_t swing = pilot;
    if (pilots && p->swing_lps > 0 && p->swing_lps < pilot.max_lps)
        swing.max_lps = p->swing_lps;
    const ct_nona_solve_params_t *used = full ? p : pilots && p->pilot_first ? &pilot : &tenth,
                                 *first_used = used; /* (the last search's, the first's) */
    double deadline = p->time_limit > 0 ? now_seconds() + p->time_limit : INFINITY;
    ct_status_t st = solve_columns(m, used, !full, NULL, sol, screen, &searches, deadline, err);
    if (st != CT_OK || !fixed_point)
        return st;
    /* The first search, kept while a later one at its shares would repeat
     * it: the first move that reverses (a split table's shares give the
     * all-local table, whose own shares are the start) comes back to them
     * with the model as it was (the same columns and prices), and a search
     * its budget (the tenth, or a pilot's) did not cut short is the one
     * the whole budget gives. */
    ct_nona_solution_t first = { 0 };
    size_t first_vars = m->n_vars;
    double first_ph = m->price_hold, first_po = m->price_overlap;
    if ((full || !cut_short(sol, used)) && !sol->time_limited && (st = solution_copy(m, sol, &first, err)) != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    /* The root rule's benefit depends on how much work it steers: iterate
     * the shares to a fixed point (settled: both move by less than 1e-3,
     * or, after a search that left its gap open, a move of less than 0.05
     * changes its solution's J by at most that gap, taken as at least 1e-4
     * and at most 1e-3 of J; at most eight moves). From the second
     * reversal on, each move that reverses the last one halves the step (a
     * first search often overshoots once): two shares whose solutions send each other back
     * (the fixed point a mix between them) otherwise swing until the cap,
     * ending at whichever share came last; halved, the searches close in on
     * the shares where both solutions tie. Where they still do not settle,
     * the solution is the searches' one whose J at its own shares is least,
     * reported at those shares, with the first search's bound: at root
     * share 1 and later share 0 every wait is least, so no table's J at its
     * own shares is below that bound. */
    double total = sol->seconds, last_da = 0, last_dL = 0, last_dD = 0, last_dh = 0, step = 1, bound0 = sol->lower_bound;
    /* (bound0 holds for the columns there were then; once more are
     * generated, a table may use them and cost less than it: then the
     * least bound any search proved stands in) */
    double bound_min = sol->lower_bound;
    size_t vars0 = m->n_vars;
    double best_J = INFINITY, best_a = 1.0, best_L = 0.0, best_D = 1.0, best_h = 0.0;
    ct_nona_solution_t best = { 0 }; /* (the least J at its own shares so far; owned) */
    /* (each block's first variable when best was solved, and the variables
     * then: columns generated later come after each block's old ones) */
    size_t *best_start = malloc((m->n_blocks + 1) * sizeof(size_t));
    if (!best_start)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    int unsettled = 0, reversals = 0;
    /* params.search_warm on a large model: each search while the shares
     * have not reversed starts from the last one's table, its incumbent
     * before the first box (a better table at the new shares settles them
     * sooner; once they swing, a search from the other side's table would
     * carry it along) */
    int warm = p->search_warm && m->n_blocks >= CT_NONA_LARGE_BLOCKS;
    double *prev = NULL; /* (the last search's table, in prev_vars variables) */
    size_t prev_vars = 0;
    size_t lps = sol->lp_solves, rounds = sol->cg_rounds, added = sol->columns_added;
    for (int moves = 0;;) {
        double a = m->root_choices > 1 ? ct_nona_root_share(m, sol->theta) : m->root_share,
               L = m->reentry ? ct_nona_later_share(m, sol->theta) : m->later_share,
               D = m->finite_servers && m->root_choices > 1 ? ct_nona_dispersion(m, sol->theta) : m->dispersion,
               h = m->finite_servers && m->root_choices > 1 ? ct_nona_held_share(m, sol->theta) : m->held_share;
        /* (D is >= 1 and unbounded: its moves count relative to it) */
        double da = a - m->root_share, dL = L - m->later_share, dD = (D - m->dispersion) / D, dh = h - m->held_share,
               own = J_at_shares(m, sol, a, L, D, h);
        /* (with finite sampling's prices sol->eval.J has them: the move's
         * effect is the unpriced J's, at the shares it was solved at) */
        double cur = m->price_hold != 0 || m->price_overlap != 0
                         ? J_at_shares(m, sol, m->root_share, m->later_share, m->dispersion, m->held_share)
                         : sol->eval.J;
        /* (a search that left its gap open cannot tell small moves whose
         * effect on J is inside that gap; up to 1e-3 of J they count as
         * settled, and below 1e-4 of J, far below what the model can tell,
         * whatever the gap: after a search the tenth cut short the move is
         * still made, for the full search. Not large ones: a jump to another
         * table's shares may cost as little there and still lead to a
         * worse fixed point) */
        int open = gap_open(sol, p) && isfinite(sol->gap);
        int near = fabs(da) < 1e-3 && fabs(dL) < 1e-3 && fabs(dD) < 1e-3 && fabs(dh) < 1e-3;
        int inside = !near && open && fabs(da) < 0.05 && fabs(dL) < 0.05 && fabs(dD) < 0.05 && fabs(dh) < 0.05 &&
                     fabs(own - cur) <= fmin(fmax(sol->gap, 1e-4), 1e-3) * cur;
        int far = !near && !inside, move = far && moves < 8;
        int is_best = own < best_J;
        if (is_best) {
            best_J = own;
            best_a = a;
            best_L = L;
            best_D = D;
            best_h = h;
        }
        /* (a search of a tenth its budget stopped with the gap open) */
        int short_ = !full && cut_short(sol, used);
        if ((!move && !short_) || sol->time_limited) {
            unsettled = far;
            int rebound = unsettled; /* (the table is reported at its own shares, with the first search's bound) */
            /* (a best solved before columns were generated is placed in
             * today's columns, the new ones at 0: a search with more columns
             * can end at a worse fixed point than an earlier one (with
             * --spread-gap, layered-3022 at load 0.7: 9% above the
             * all-local table the first search proved). Shares settled
             * inside an open gap: an earlier search's table may cost less at
             * its own shares than the last search found at these) */
            if ((unsettled || inside) && !is_best && best.theta) { /* the least J at its own shares */
                if (best_start[m->n_blocks] != m->n_vars) {
                    double *th;
                    if ((st = warm_theta(m, best_start, best.theta, &th, err)) != CT_OK)
                        break;
                    free(best.theta);
                    best.theta = th;
                }
                ct_nona_solution_free(sol);
                *sol = best;
                memset(&best, 0, sizeof best);
                set_shares(m, best_a, best_L, best_D, best_h);
                ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
                rebound = 1;
            } else if (unsettled) {
                set_shares(m, a, L, D, h);
                ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
            }
            if (rebound) {
                sol->lower_bound = fmin(m->n_vars == vars0 ? bound0 : bound_min, sol->eval.J);
                sol->gap = sol->eval.J > 0 ? (sol->eval.J - sol->lower_bound) / sol->eval.J : 0.0;
            }
            break;
        }
        /* A full search its budget cut short left a gap open; a move whose
         * effect on its solution is inside that gap cannot be told from the
         * search's own slack, and the next full search would mostly spend
         * its budget moving the share back (on issue #27's mixed fleet aged
         * waits swing between two shares). So stop there: the solution and
         * its certificate stay those of the share it was solved at. */
        if (move && full && sol->lp_solves >= p->max_lps && isfinite(sol->gap) &&
            fabs(own - cur) <= sol->gap * cur)
            break;
        if (inside && short_ && moves < 8)
            move = 1;
        if (move) {
            int reverses = da * last_da < 0 || dL * last_dL < 0 || dD * last_dD < 0 || dh * last_dh < 0;
            reversals += reverses;
            if (reverses && reversals > 1)
                step /= 2;
            da *= step;
            dL *= step;
            dD *= step;
            dh *= step;
            a = m->root_share + da;
            L = m->later_share + dL;
            D = m->dispersion + dD * D;
            h = m->held_share + dh;
            last_da = da;
            last_dL = dL;
            last_dD = dD;
            last_dh = dh;
            set_shares(m, a, L, D, h);
            set_prices(m, sol->theta);
            moves++;
        }
        full = full || !move || inside;
        if (warm && reversals == 0) { /* (the table the next search starts from) */
            if (!prev || prev_vars != m->n_vars) { /* (the first, or columns added since) */
                double *t = realloc(prev, (m->n_vars ? m->n_vars : 1) * sizeof(double));
                if (!t) {
                    st = ct_error_set(err, CT_ENOMEM, "out of memory");
                    break;
                }
                prev = t;
            }
            memcpy(prev, sol->theta, m->n_vars * sizeof(double));
            prev_vars = m->n_vars;
        }
        if (is_best) { /* keep it: a later search may not settle */
            ct_nona_solution_free(&best);
            best = *sol;
            for (size_t b = 0; b < m->n_blocks; b++)
                best_start[b] = m->blocks[b].var_start;
            best_start[m->n_blocks] = m->n_vars;
            memset(sol, 0, sizeof *sol);
        } else
            ct_nona_solution_free(sol);
        /* (back at the start up to round-off: the moves add and subtract
         * shares, and all-local's later share comes out as 1e-16) */
        if (first.theta && m->n_vars == first_vars && fabs(m->root_share - 1.0) <= 1e-12 &&
            fabs(m->later_share) <= 1e-12 && fabs(m->dispersion - 1.0) <= 1e-12 && fabs(m->held_share) <= 1e-12 &&
            m->price_hold == first_ph && m->price_overlap == first_po) {
            if ((st = solution_copy(m, &first, sol, err)) != CT_OK)
                break;
            used = first_used;
            continue; /* (its LPs and time counted once) */
        }
        used = full ? p : reversals > 0 ? &swing : &tenth;
        /* (params.search_warm: from the last search's table while the
         * shares have not reversed, and no column was added since) */
        const double *from = warm && reversals == 0 && prev_vars == m->n_vars ? prev : NULL;
        if ((st = solve_columns(m, used, !full, from, sol, screen, &searches, deadline, err)) != CT_OK)
            break;
        total += sol->seconds;
        lps += sol->lp_solves;
        bound_min = fmin(bound_min, sol->lower_bound);
        rounds += sol->cg_rounds;
        added += sol->columns_added;
    }
    ct_nona_solution_free(&best);
    ct_nona_solution_free(&first);
    free(best_start);
    free(prev);
    if (st != CT_OK) {
        ct_nona_solution_free(sol);
        return st;
    }
    sol->price_hold = m->price_hold;
    sol->price_overlap = m->price_overlap;
    if (m->price_hold != 0 || m->price_overlap != 0) { /* (reported: the model's J, without the prices) */
        double Jp = sol->eval.J;
        m->price_hold = m->price_overlap = 0;
        ct_nona_evaluate(m, sol->theta, &sol->eval, sol->tau);
        sol->lower_bound -= Jp - sol->eval.J;
    }
    sol->seconds = total;
    sol->lp_solves = lps;
    sol->cg_rounds = rounds;
    sol->columns_added = added;
    sol->shares_unsettled = unsettled;
    return CT_OK;
}

ct_status_t ct_nona_solve(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                          ct_error_t *err)
{
    /* Every search of the solve (rounds of column generation, the shares'
     * fixed point) streams the same exactly priced segments: their screen
     * is kept for the whole solve. */
    ct_nona_price_screen_t *screen;
    memset(sol, 0, sizeof *sol); /* (empty on every failure, as after the searches' own) */
    ct_status_t st = ct_nona_price_screen_alloc(m, PRICE_SCREEN_BYTES, &screen, err);
    if (st != CT_OK)
        return st;
    st = solve_shares(m, p, sol, screen, err);
    ct_nona_price_screen_free(screen);
    return st;
}
