/*
 * nona_columns.c - pricing for column generation: segments with too many
 * triplets to enumerate (ct_nona.h, "generated" blocks).
 *
 * At fixed waits (phi, W) and the wait LP's multipliers, a triplet w of
 * block b enters the Lagrangian with, per job of b's class,
 *   f(w) = M_w(phi, W) + Y1 (a2_w + 2 pr a1_w) + Y2 q_w / N,
 * (pr = phi, or a box's upper link wait in the branch-and-bound),
 * Y1, Y2 >= 0 the link and server rows' multipliers in model units. A
 * triplet whose f is below the block's current least f lowers the LP's
 * value: column generation adds it and solves again. Pricing finds a
 * triplet of least f:
 *   exactly, streaming every triplet (restricted growth strings, then k, l)
 *     when the segment has at most exact_limit of them: a round of column
 *     generation prices at up to 19 points, so one stream serves them all
 *     (a triplet's data, the costly part, built once), and a triplet whose
 *     time floor (its latest branch without the waits' spread) already
 *     loses at a point skips the spread's exp calls there; the result is
 *     the same first least f as pricing each point alone; a solve keeps a
 *     screen per segment (ct_nona_price_screen_t: a few floats per
 *     triplet, rounded down, recorded by its first stream), so that its
 *     later rounds build a triplet's data only where that bound does not
 *     lose at every point (most lose: the stream costs a pass over the
 *     screen instead of a triplet's model data each); a long stream runs
 *     in ranges on threads, each with its own best, merged in stream
 *     order (the same result for any number of threads);
 *   otherwise by search: from the block's current triplets and from
 *     communication-aware list schedules onto q = 2..16, 24, ..., 255
 *     servers (at most the segment's tasks), a local
 *     search moves single tasks between parts (or to a new part) and
 *     re-chooses the source's and sink's parts, within `evals`
 *     evaluations (0: exact pricing only); and a lower bound on f over all triplets bounds how much
 *     the search can have missed.
 * The bound, per number of parts q (every term a lower bound of its part
 * of f for any q-part triplet, so their sum bounds f; its least over q
 * bounds every triplet):
 *   q = 1: the all-local triplet's own f;
 *   q >= 2: M >= max(t_max, (C + d (q - 1)) / q), since the source's part
 *     runs P_k, every other part P_i plus at least one incoming transfer
 *     (its first task's inputs come from other parts) and, with server
 *     queueing, a mean remote wait: d = phi + S_min (+ W_part), 0 if the
 *     segment has an edge of zero bytes; C the segment's compute, t_max its
 *     longest task; and M >= t_min + phi + S_min + E[max of q - 1 remote
 *     waits], every remote part running at least its least task after an
 *     inbound transfer; with dependent parts also M >= the schedule floor
 *     (schedule_floor: the longest chain of inner tasks' compute, raised
 *     where an input on the task's part runs on the same timeline and an
 *     input from another part moves that timeline on by its transfer and
 *     the wait of the task's re-entry or first visit, and at the sink by
 *     the crossing edges into it), and M >= E[max(that floor, t_min + phi +
 *     S_min + X_1 .. X_{q-2})], the other remote parts' waits beside the
 *     floor's branch (ct_nona_time_floor: these time terms);
 *     a2 + 2 pr a1 >= its q - c cheapest positive-byte edges' S^2 + 2 pr S,
 *     c the components those edges make of the segment
 *     (ct_nona_crossing_floor; without the link row's multiplier the term
 *     is 0);
 *     q_w >= the least sum of squared pieces with q parts minus the job's
 *     work squared: tasks whole and the root's work an item
 *     (ct_nona_pieces_floor) with the linearised server row, divisible
 *     under the pieces cut (whose row is not q_w itself);
 *   and, with that row, M and the pieces together (chain_split_floor):
 *     cutting an edge may raise the schedule floor (to its cut floor,
 *     ct_nona_cut_floor); with p* the highest cut floor over the edges a
 *     triplet cuts, M >= p* and every edge of a higher cut floor is local,
 *     its tasks in one piece, so the least over p* of both together bounds
 *     every triplet (splits that keep M at the chain are uneven).
 * It is weak where tasks differ much in size; the gap it leaves is reported
 * per segment, never hidden.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "nona_internal.h"
#include "ct_parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST_PARTS 255
/* Part counts of the list schedules: every one up to 16, then sparser. */
static const size_t list_parts[] = { 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 32, 48, 64, 96, 128, 192, 255 };

typedef struct {
    const ct_nona_model_t *m;
    ct_nona_candidate_t cand;
    const ct_segment_t *seg;
    const ct_dag_t *g;
    double phi, W, pr, y1, y2; /* objective waits (phi, W), link row at pr */
    size_t n, evals, budget;
    uint8_t *trial;         /* n: a move being tried */
    size_t *map;            /* 256: part renumbering */
} pricer_t;

/* A pricer for block at (phi, W) with the link row at pr (no multipliers,
 * no scratch). */
static void pricer_set(pricer_t *P, const ct_nona_model_t *m, size_t block, double phi, double W, double pr)
{
    const ct_block_t *b = &m->blocks[block];
    const ct_model_class_t *mc = &m->classes[b->cls];
    memset(P, 0, sizeof *P);
    P->m = m;
    P->seg = &mc->split.segments[b->segment];
    P->g = &mc->split.dag;
    P->n = P->seg->n_inner;
    P->phi = phi;
    P->W = W;
    P->pr = pr;
}

/* f of a triplet with model data ti and segment time M. */
static double price_of(const ct_nona_model_t *m, const ct_tripinfo_t *ti, double M, double pr, double y1, double y2)
{
    double f = M + y1 * (ti->a2 + 2.0 * pr * ti->a1);
    return m->server_model ? f + y2 * ti->qr / (double)m->servers : f;
}

static double f_value(pricer_t *P, const uint8_t *assign, size_t q, size_t k, size_t l)
{
    const ct_nona_model_t *m = P->m;
    P->evals++;
    ct_nona_candidate_eval(m, &P->cand, assign, q, k, l);
    return price_of(m, &P->cand.info, ct_nona_candidate_time(m, &P->cand, P->phi, P->W), P->pr, P->y1, P->y2);
}

/* Renumbers the parts of a (some may be empty) by first appearance; k and
 * l follow their parts, or take part `fallback`'s number if theirs emptied.
 * Returns the part count. */
static size_t canonical(pricer_t *P, uint8_t *a, size_t *k, size_t *l, size_t fallback)
{
    size_t next = 0;
    for (size_t i = 0; i < 256; i++)
        P->map[i] = 256;
    for (size_t t = 0; t < P->n; t++) {
        if (P->map[a[t]] == 256)
            P->map[a[t]] = next++;
        a[t] = (uint8_t)P->map[a[t]];
    }
    *k = P->map[*k] != 256 ? P->map[*k] : P->map[fallback];
    *l = P->map[*l] != 256 ? P->map[*l] : P->map[fallback];
    return next;
}

typedef struct {
    uint8_t *a;
    size_t q, k, l;
    double f;
} point_t;

static void point_copy(point_t *to, const point_t *from, size_t n)
{
    memcpy(to->a, from->a, n);
    to->q = from->q;
    to->k = from->k;
    to->l = from->l;
    to->f = from->f;
}

/* Best (k, l) for partition a: all q^2 choices (up to 16 parts; beyond,
 * k and l among the first 16 parts). */
static void best_kl(pricer_t *P, point_t *x)
{
    size_t qk = x->q < 16 ? x->q : 16;
    for (size_t k = 0; k < qk; k++)
        for (size_t l = 0; l < qk; l++) {
            if (P->evals >= P->budget)
                return;
            double f = f_value(P, x->a, x->q, k, l);
            if (f < x->f) {
                x->f = f;
                x->k = k;
                x->l = l;
            }
        }
}

/* First-improvement local search: move one task to another part or a new
 * one; then re-choose (k, l); until no move helps or the budget ends. */
static void local_search(pricer_t *P, point_t *x)
{
    int improved = 1;
    while (improved && P->evals < P->budget) {
        improved = 0;
        for (size_t t = 0; t < P->n && P->evals < P->budget; t++) {
            size_t from = x->a[t];
            for (size_t to = 0; to <= x->q && to < 255 && P->evals < P->budget; to++) {
                if (to == from)
                    continue;
                memcpy(P->trial, x->a, P->n);
                P->trial[t] = (uint8_t)to;
                size_t k = x->k, l = x->l, q = canonical(P, P->trial, &k, &l, to);
                if (q == x->q && to == x->q)
                    continue; /* t alone moved to a new part: the same partition */
                double f = f_value(P, P->trial, q, k, l);
                if (f < x->f * (1 - 1e-13) - 1e-300) {
                    memcpy(x->a, P->trial, P->n);
                    x->q = q;
                    x->k = k;
                    x->l = l;
                    x->f = f;
                    improved = 1;
                    break;
                }
            }
        }
        double before = x->f;
        best_kl(P, x);
        if (x->f < before)
            improved = 1;
    }
}

/* A list schedule onto q parts: tasks in topological order, each to the
 * part where it would finish first counting its inputs from other parts
 * (each waits phi plus its transfer); the source and sink in part 0. */
static void list_schedule(pricer_t *P, size_t q, uint8_t *a, double *load, double *in)
{
    const ct_segment_t *seg = P->seg;
    const ct_nona_model_t *m = P->m;
    for (size_t p = 0; p < q; p++)
        load[p] = 0;
    for (size_t t = 0; t < P->n; t++) {
        for (size_t p = 0; p < q; p++)
            in[p] = 0;
        double all_in = 0;
        for (size_t j = 0; j < seg->n_edges; j++) {
            if (seg->loc_to[j] != t || P->g->bytes[seg->edges[j]] <= 0)
                continue;
            size_t u = seg->loc_from[j], pu = u == CT_SEG_SOURCE ? 0 : a[u];
            double cost = P->phi + P->g->bytes[seg->edges[j]] / m->bandwidth;
            in[pu] += cost; /* saved when t joins pu */
            all_in += cost;
        }
        size_t best = 0;
        double best_t = INFINITY, time = P->g->time[seg->inner[t]] / m->speed;
        for (size_t p = 0; p < q; p++) {
            double finish = load[p] + time + (all_in - in[p]);
            if (finish < best_t) {
                best_t = finish;
                best = p;
            }
        }
        a[t] = (uint8_t)best;
        load[best] += time;
    }
}

/* One task's inputs, as the schedule floor reads them (see below). */
#define FLOOR_FANIN 10
typedef struct {
    size_t deg;
    int sink, src[FLOOR_FANIN];
    double Fu[FLOOR_FANIN], tu[FLOOR_FANIN], c[FLOOR_FANIN];
    double rw, first; /* the task's re-entry wait (held), a first visit's */
} floor_in_t;

/* The least over the sets X of crossing inputs that hold `must` of the
 * task's end before its own compute (see schedule_floor). */
static double floor_least(const ct_nona_model_t *m, const floor_in_t *in, unsigned must)
{
    double least = INFINITY;
    for (unsigned X = 0; X < (1u << in->deg); X++) {
        if ((X & must) != must)
            continue;
        double own = 0, r = INFINITY, work = 0, cs = 0, g;
        int in_cross = 0; /* an input crosses from an inner task */
        for (size_t i = 0; i < in->deg; i++)
            if (!(X >> i & 1)) { /* on v's part */
                own = fmax(own, in->Fu[i]);
                if (!in->src[i]) {
                    r = fmin(r, in->Fu[i] - in->tu[i]);
                    work += in->tu[i];
                }
            } else {
                in_cross |= !in->src[i];
                if (!in->sink && (!m->transfers_task || in->src[i]))
                    cs += in->c[i];
            }
        if (isfinite(r))
            own = fmax(own, r + work);
        g = own + cs;
        double tail = 0; /* (part semantics: the crossings from j on) */
        for (size_t i = in->deg; i-- > 0;)
            if (X >> i & 1) {
                tail += !m->transfers_task || in->src[i] ? in->c[i] : 0.0;
                g = fmax(g, in->Fu[i] + (m->transfers_task || in->sink ? in->c[i] : tail) + (in->sink ? in->rw : 0.0));
            }
        /* fed from another part's task, t waits: a re-entry where its
         * part ran an input (r finite), else that or a first visit */
        if (in_cross && !in->sink)
            g += isfinite(r) ? in->rw : fmin(in->rw, in->first);
        least = fmin(least, g);
    }
    return least;
}

/* With dependent parts, a lower bound on the latest inner task's end over
 * every triplet (see the top): the longest chain, and where a task's
 * inputs come from. F(v) bounds v's end in any triplet: each input u is
 * on v's part (then the part ran u before v: its timeline is past F(u),
 * and past the least start r(u) = F(u) - t(u) of those inputs plus all
 * their compute) or crosses (its transfer S + phi, 0 for an edge of no
 * bytes); a crossing edge moves the part's whole timeline on in the
 * block's edge order (with --transfers task only its own path, by its
 * transfer), so
 *   F(v) >= t(v) + min over the crossing inputs X of
 *          max(own(X) + sum_X c, max_{j in X} (F(u_j) + sum_{i in X, i >= j} c_i)) + w(X)
 * (task: max(own(X) + c_source, max_j (F(u_j) + c_j)) + w(X)). w(X): a
 * task fed from another part's task joins its server again, after its
 * inputs: a re-entry's wait (times the hold factor, at most 1) where an
 * input ran on its part, else that or a first visit's mean X (W_part, on
 * every path into a remote part's first task), whichever is less; 0 when
 * only the source's edges cross. The sink (a task of no time) takes the
 * same with each crossing edge moving its sender on by its transfer and
 * the sink's re-entry wait. Every wait, round trip and batch only adds to
 * a branch, and M is at least its latest branch's mean. Tasks with more
 * than FLOOR_FANIN inputs take the chain's t(v) + max F(u).
 * With pen (seg->n_edges entries, else NULL) also the floor over the
 * triplets where edge j crosses, for each edge into an inner task: the
 * same min over the X that hold j, at j's target, then the longest chain
 * of compute on from it (tail: every task ends at least its input's end
 * plus its own compute), at least the floor itself; NAN for the others.
 * Returns b->chain where it cannot allocate (pen all NAN). O(V 2^fan-in),
 * with pen O(E 2^fan-in). */
static double schedule_floor(const pricer_t *P, const ct_block_t *b, double *pen)
{
    const ct_nona_model_t *m = P->m;
    const ct_segment_t *seg = P->seg;
    size_t n = P->n;
    double *F = malloc((n ? n : 1) * sizeof(double)), best = 0;
    double *tail = pen ? calloc(n ? n : 1, sizeof(double)) : NULL;
    for (size_t j = 0; pen && j < seg->n_edges; j++)
        pen[j] = NAN;
    if (!F || (pen && !tail)) {
        free(F);
        free(tail);
        return b->chain;
    }
    for (size_t t = n; pen && t-- > 0;) /* the longest compute after t, backwards (topological order) */
        for (size_t e = b->in_start[t]; e < b->in_start[t + 1]; e++) {
            size_t u = seg->loc_from[b->in_edge[e]];
            if (u != CT_SEG_SOURCE)
                tail[u] = fmax(tail[u], P->g->time[seg->inner[t]] / m->speed + tail[t]);
        }
    floor_in_t in;
    /* a remote part's first visit: X (mean W_part) on every path in */
    in.first = m->reentry && m->server_model && m->rho_s > 0 && P->W > 0 ? m->r_part * P->W : 0.0;
    for (size_t t = 0; t <= n; t++) { /* inner tasks, then the sink (t = n) */
        size_t e0 = b->in_start[t], deg = b->in_start[t + 1] - e0;
        double tv = t < n ? P->g->time[seg->inner[t]] / m->speed : 0.0, low = 0;
        in.sink = t == n;
        in.deg = deg;
        /* a re-entry's wait (held or not) into t's part: after its inputs */
        in.rw = m->hold_factor * ct_nona_reentry_wait_at(m, b->cls, in.sink ? seg->sink : seg->inner[t]);
        for (size_t e = e0; e < e0 + deg; e++) {
            size_t u = seg->loc_from[b->in_edge[e]];
            if (u != CT_SEG_SOURCE && F[u] > low)
                low = F[u];
        }
        if (deg > 0 && deg <= FLOOR_FANIN) {
            for (size_t i = 0; i < deg; i++) {
                size_t j = b->in_edge[e0 + i], u = seg->loc_from[j];
                double bytes = P->g->bytes[seg->edges[j]];
                in.src[i] = u == CT_SEG_SOURCE;
                in.Fu[i] = in.src[i] ? 0.0 : F[u];
                in.tu[i] = in.src[i] ? 0.0 : P->g->time[seg->inner[u]] / m->speed;
                in.c[i] = bytes > 0 ? bytes / m->bandwidth + P->phi : 0.0;
            }
            if (pen && !in.sink)
                for (size_t i = 0; i < deg; i++)
                    pen[b->in_edge[e0 + i]] = fmax(low, floor_least(m, &in, 1u << i)) + tv + tail[t];
            low = fmax(low, floor_least(m, &in, 0));
        }
        if (in.sink)
            best = fmax(best, low);
        else
            best = fmax(best, F[t] = low + tv);
    }
    for (size_t j = 0; pen && j < seg->n_edges; j++)
        if (pen[j] < best) /* (NAN stays) */
            pen[j] = best;
    free(F);
    free(tail);
    return best;
}

static int by_size_down(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a < c) - (a > c);
}

double ct_nona_pieces_floor(const double *s, size_t n, size_t q)
{
    /* Whatever the split, its j largest pieces hold at least the j largest
     * items, so the least is the items above the water level each alone
     * and the rest level: x = (s_1 .. s_j, L .. L), L = (rest) / (q - j),
     * the first j with s_{j+1} <= L. */
    double T = 0, big = 0, sq = 0;
    for (size_t i = 0; i < n; i++)
        T += s[i];
    for (size_t j = 0; j < q; j++) {
        double L = (T - big) / (double)(q - j);
        if (j >= n || s[j] <= L)
            return sq + (double)(q - j) * L * L;
        big += s[j];
        sq += s[j] * s[j];
    }
    return sq; /* (not reached: at j = q - 1, L is the rest, at least s[q - 1]) */
}

static size_t root_of(size_t *up, size_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

static int by_size_up(const void *x, const void *y)
{
    return by_size_down(y, x);
}

size_t ct_nona_crossing_floor(const ct_nona_model_t *m, size_t block, double pr, double *cost, size_t *up,
                              size_t *n_pos)
{
    /* The positive-byte edges join the inner tasks, source and sink into c
     * components; q parts, each with an inner task, cut them into at least
     * q pieces, and a component in p pieces has at least p - 1 crossing
     * edges. */
    const ct_block_t *b = &m->blocks[block];
    const ct_model_class_t *mc = &m->classes[b->cls];
    const ct_segment_t *seg = &mc->split.segments[b->segment];
    const ct_dag_t *g = &mc->split.dag;
    size_t n = seg->n_inner, c = n + 2, k = 0;
    for (size_t x = 0; x < n + 2; x++)
        up[x] = x;
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = g->bytes[seg->edges[j]];
        if (!(bytes > 0))
            continue;
        double S = bytes / m->bandwidth;
        cost[k++] = S * S + 2.0 * pr * S;
        size_t a = seg->loc_from[j] == CT_SEG_SOURCE ? n : seg->loc_from[j],
               z = seg->loc_to[j] == CT_SEG_SINK ? n + 1 : seg->loc_to[j];
        a = root_of(up, a);
        z = root_of(up, z);
        if (a != z) {
            up[a] = z;
            c--;
        }
    }
    qsort(cost, k, sizeof(double), by_size_up);
    for (size_t i = k; i > 0; i--) /* prefix sums, shifted: cost[i] = the i cheapest */
        cost[i] = cost[i - 1];
    cost[0] = 0;
    for (size_t i = 1; i <= k; i++)
        cost[i] += cost[i - 1];
    *n_pos = k;
    return c;
}

/* The bound's time terms (see the top), set once per pricing call. */
typedef struct {
    double tmax, C, d, a_min, crit; /* longest task, compute, a part's least extra, least remote branch, floor */
    double smin;                    /* the least positive-byte edge's transfer, s (0 with an edge of no bytes) */
    int zero;                       /* an edge of no bytes */
    double rho, mu;                 /* p_wait and X's rate given a wait (0: no waits) */
    double lead, p_lead;            /* max(crit, a_min), p_wait e^{-mu (lead - a_min)} (0: not used) */
} time_floor_t;

static void time_floor_init(const pricer_t *P, const ct_block_t *b, time_floor_t *tf)
{
    const ct_nona_model_t *m = P->m;
    const ct_segment_t *seg = P->seg;
    double tmin = INFINITY;
    memset(tf, 0, sizeof *tf);
    tf->smin = INFINITY;
    for (size_t t = 0; t < P->n; t++) {
        double x = P->g->time[seg->inner[t]] / m->speed;
        tf->C += x;
        tf->tmax = fmax(tf->tmax, x);
        tmin = fmin(tmin, x);
    }
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = P->g->bytes[seg->edges[j]];
        if (bytes <= 0)
            tf->zero = 1;
        else if (bytes / m->bandwidth < tf->smin)
            tf->smin = bytes / m->bandwidth;
    }
    if (tf->zero || !isfinite(tf->smin))
        tf->smin = 0;
    tf->d = tf->zero ? 0 : P->phi + tf->smin;
    if (m->server_model && P->W > 0 && m->rho_s > 0)
        tf->d += m->r_part * P->W;
    /* With dependent parts no part ends before the longest chain of inner
     * tasks has run (a task starts after its inputs, local or not). */
    tf->crit = m->dependent_parts ? schedule_floor(P, b, NULL) : 0;
    /* E[max of j remote waits] = (1/mu) sum_{i<=j} (1 - (1 - p)^i) / i
     * (p = p_wait, mu = p / W_part): the remote parts' waits alone, each
     * part at least its least task and an inbound transfer later. */
    tf->rho = m->p_wait;
    tf->mu = m->server_model && P->W > 0 && tf->rho > 0 ? tf->rho / (m->r_part * P->W) : 0;
    tf->a_min = tmin + (tf->zero ? 0 : P->phi + tf->smin);
    /* The floor's branch (mean at least crit) and the other remote parts'
     * branches, each at least a_min before its wait X (independent, the
     * floor's own X, if any, at its mean by Jensen): M >= E[max(c, a_min +
     * X_1 .. X_{q-2})], c = max(crit, a_min), = c + (1/mu) sum_{i <= q-2}
     * (1 - (1 - p')^i) / i with p' = p_wait e^{-mu (c - a_min)}. (Not with
     * --waits job-first-spread, whose waits take other shapes.) */
    tf->lead = fmax(tf->crit, tf->a_min);
    if (tf->crit > 0 && tf->mu > 0 && !(m->reentry_spread && m->rho_s < 1))
        tf->p_lead = tf->rho * exp(-tf->mu * (tf->lead - tf->a_min));
}

/* The floor of M over the triplets of q parts; called for q = 2, 3, ... in
 * turn, the sums (zero before q = 2) carried in s[3]. */
static double time_floor_next(const time_floor_t *tf, size_t q, double *s)
{
    if (tf->mu > 0) { /* one more remote part: s[0] E[max] of q - 1 waits, s[1] (1 - p)^(q - 1) */
        s[1] = q == 2 ? 1 - tf->rho : s[1] * (1 - tf->rho);
        s[0] += (1 - s[1]) / (double)(q - 1) / tf->mu;
    }
    double M = fmax(fmax(fmax(tf->tmax, tf->crit), (tf->C + tf->d * (double)(q - 1)) / (double)q), tf->a_min + s[0]);
    if (tf->p_lead > 0 && q > 2) { /* q - 2 remote parts' waits beside the floor's branch */
        s[2] += (1 - pow(1 - tf->p_lead, (double)(q - 2))) / (double)(q - 2);
        M = fmax(M, tf->lead + s[2] / tf->mu);
    }
    return M;
}

double ct_nona_time_floor(const ct_nona_model_t *m, size_t block, double phi, double W, size_t q)
{
    pricer_t P;
    pricer_set(&P, m, block, phi, W, phi);
    const ct_block_t *b = &m->blocks[block];
    time_floor_t tf;
    time_floor_init(&P, b, &tf);
    double s[3] = { 0, 0, 0 }, M = 0;
    for (size_t k = 2; k <= q; k++)
        M = time_floor_next(&tf, k, s);
    return M;
}

double ct_nona_cut_floor(const ct_nona_model_t *m, size_t block, double phi, double W, double *pen)
{
    pricer_t P;
    pricer_set(&P, m, block, phi, W, phi);
    return schedule_floor(&P, &m->blocks[block], pen);
}

/* Items for the pieces' floor from the union-find's groups (up, wsum over
 * n + 1 nodes), largest first; returns their count. */
static size_t group_items(const size_t *up, const double *wsum, size_t n, double *items)
{
    size_t g = 0;
    for (size_t x = 0; x <= n; x++)
        if (up[x] == x)
            items[g++] = wsum[x];
    qsort(items, g, sizeof(double), by_size_down);
    return g;
}

/* The pieces' squares and M together, per q (lbq[q] for q = 2 .. qmax;
 * Mq, sq: the time and pieces floors it was built from; k2 the server
 * row's weight). An edge whose crossing raises the schedule floor to p
 * (schedule_floor's pen) is either cut, and M >= p, or local, and its
 * tasks (the source's: the root's work) sit in one piece. Take p* the
 * largest pen over the edges a triplet cuts (none: the floor): M >= p*,
 * and every edge of pen above p* is local, its tasks joined into one item
 * of the pieces' floor. The least over p* of the two together bounds every
 * triplet: splits that keep M at the floor's chain are uneven, which the
 * even pieces' floor alone missed. O(E (log E + V qmax)). Out of memory:
 * lbq unchanged. */
static void chain_split_floor(const pricer_t *P, const ct_block_t *b, double crit, size_t qmax, const double *Mq,
                              const double *sq, double k2, double *lbq)
{
    const ct_nona_model_t *m = P->m;
    const ct_segment_t *seg = P->seg;
    size_t n = P->n, E = seg->n_edges, k = 0;
    double *pen = malloc((E ? E : 1) * sizeof(double)), *wsum = malloc((n + 1) * sizeof(double)),
           *items = malloc((n + 1) * sizeof(double)), *least = malloc((qmax + 1) * sizeof(double));
    size_t *up = malloc((n + 1) * sizeof(size_t)), *order = malloc((E ? E : 1) * sizeof(size_t));
    if (!pen || !wsum || !items || !least || !up || !order || qmax < 2)
        goto done;
    schedule_floor(P, b, pen);
    for (size_t j = 0; j < E; j++)
        if (pen[j] > crit) /* (NAN: not into an inner task) */
            order[k++] = j;
    for (size_t i = 1; i < k; i++) { /* by pen, largest first (insertion: a segment's few edges) */
        size_t j = order[i], z = i;
        for (; z > 0 && pen[order[z - 1]] < pen[j]; z--)
            order[z] = order[z - 1];
        order[z] = j;
    }
    for (size_t x = 0; x <= n; x++) {
        up[x] = x;
        wsum[x] = x < n ? P->g->time[seg->inner[x]] / m->speed : b->pre;
    }
    for (size_t q = 2; q <= qmax; q++)
        least[q] = INFINITY;
    for (size_t i = 0; i <= k;) {
        /* p* = p (i = k: no edge of pen above the floor cut), the edges
         * above it joined */
        double p = i < k ? pen[order[i]] : crit;
        size_t g = group_items(up, wsum, n, items);
        for (size_t q = 2; q <= qmax; q++) {
            double lb = lbq[q] + k2 * (ct_nona_pieces_floor(items, g, q) - sq[q]) + (p > Mq[q] ? p - Mq[q] : 0.0);
            if (lb < least[q])
                least[q] = lb;
        }
        if (i == k)
            break;
        for (; i < k && pen[order[i]] == p; i++) { /* join the level's edges */
            size_t a = seg->loc_from[order[i]], z = seg->loc_to[order[i]];
            a = root_of(up, a == CT_SEG_SOURCE ? n : a);
            z = root_of(up, z);
            if (a != z) {
                up[a] = z;
                wsum[z] += wsum[a];
            }
        }
    }
    for (size_t q = 2; q <= qmax; q++)
        if (least[q] > lbq[q])
            lbq[q] = least[q];
done:
    free(pen);
    free(wsum);
    free(items);
    free(least);
    free(up);
    free(order);
}

/* The bound per part count (see the top): lbq[q] for q = 2 .. min(n,
 * 255) bounds f over the triplets of q parts; plain (else NULL) the same
 * without chain_split_floor. Returns 0, -1 out of memory. */
static int part_floors(pricer_t *P, const ct_block_t *b, double *lbq, double *plain)
{
    const ct_nona_model_t *m = P->m;
    const ct_segment_t *seg = P->seg;
    time_floor_t tf;
    time_floor_init(P, b, &tf);
    double C = tf.C, work = m->classes[b->cls].work, sums[3] = { 0, 0, 0 };
    size_t qmax = P->n < 255 ? P->n : 255;
    double k2 = m->server_model ? P->y2 / (double)m->servers : 0.0;
    /* q_w's pieces: with the linearised row (qr = q) tasks count whole
     * (ct_nona_pieces_floor); under the pieces cut divisible, as before */
    int whole = m->server_model && !m->server_cut;
    double *items = malloc((P->n + 1) * sizeof(double)), *Mq = malloc(2 * (qmax + 1) * sizeof(double));
    double *links = P->y1 > 0 ? malloc((seg->n_edges + 1) * sizeof(double)) : NULL, *sqq = Mq ? Mq + qmax + 1 : NULL;
    size_t *up = malloc((P->n + 2) * sizeof(size_t)), comps = 0, n_pos = 0;
    if (!items || !Mq || !up || (P->y1 > 0 && !links)) {
        free(items);
        free(Mq);
        free(links);
        free(up);
        return -1;
    }
    for (size_t t = 0; t < P->n; t++)
        items[t] = P->g->time[seg->inner[t]] / m->speed;
    items[P->n] = b->pre;
    qsort(items, P->n + 1, sizeof(double), by_size_down);
    if (links)
        comps = ct_nona_crossing_floor(m, (size_t)(b - m->blocks), P->pr, links, up, &n_pos);
    free(up);
    for (size_t q = 2; q <= qmax; q++) {
        double M = time_floor_next(&tf, q, sums);
        double lb = M + (links ? P->y1 * links[q > comps ? (q - comps < n_pos ? q - comps : n_pos) : 0] : 0.0);
        double sq = 0;
        if (m->server_model) {
            if (whole) {
                sq = ct_nona_pieces_floor(items, P->n + 1, q);
            } else {
                double L = (b->pre + C) / (double)q;
                sq = L >= b->pre ? (double)q * L * L : b->pre * b->pre + C * C / (double)(q - 1);
            }
            lb += k2 * (sq + b->post * b->post - work * work);
        }
        lbq[q] = lb;
        if (plain)
            plain[q] = lb;
        Mq[q] = M;
        sqq[q] = sq;
    }
    if (whole && k2 > 0 && tf.crit > 0)
        chain_split_floor(P, b, tf.crit, qmax, Mq, sqq, k2, lbq);
    free(items);
    free(Mq);
    free(links);
    return 0;
}

/* The lower bound on f over every triplet of the segment (see the top);
 * -inf out of memory. */
static double lower_bound(pricer_t *P, const ct_block_t *b, double f_local)
{
    size_t qmax = P->n < 255 ? P->n : 255;
    double *lbq = malloc((qmax + 1) * sizeof(double)), best = f_local;
    if (!lbq || part_floors(P, b, lbq, NULL) != 0)
        best = -INFINITY;
    else
        for (size_t q = 2; q <= qmax; q++)
            if (lbq[q] < best)
                best = lbq[q];
    free(lbq);
    return best;
}

int ct_nona_part_floors(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1, double y2,
                        double *lbq, double *plain)
{
    pricer_t P;
    pricer_set(&P, m, block, phi, W, pr);
    P.y1 = y1;
    P.y2 = y2;
    return part_floors(&P, &m->blocks[block], lbq, plain);
}

void ct_nona_priced_free(ct_nona_priced_t *r)
{
    free(r->assign);
    memset(r, 0, sizeof *r);
}

double ct_nona_block_price(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1, double y2)
{
    const ct_block_t *b = &m->blocks[block];
    double best = INFINITY;
    for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
        double f = price_of(m, &m->trip[w], ct_nona_triplet_time(m, w, phi, W), pr, y1, y2);
        if (f < best)
            best = f;
    }
    return best;
}

ct_status_t ct_nona_price_block(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1,
                                double y2, size_t exact_limit, size_t evals, ct_nona_priced_t *out, ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    const ct_block_t *b = &m->blocks[block];
    const ct_model_class_t *mc = &m->classes[b->cls];
    size_t nt = mc->split.segments[b->segment].n_inner;
    if (nt > 0 && ct_partition_triplet_count(nt) <= (double)exact_limit) {
        /* Exact: every triplet, streamed by ct_nona_price_block_points */
        ct_nona_price_point_t at = { phi, W, pr, y1, y2 };
        return ct_nona_price_block_points(m, block, 1, &at, NULL, exact_limit, evals, 1, NULL, out, err);
    }
    pricer_t P;
    pricer_set(&P, m, block, phi, W, pr);
    P.y1 = y1;
    P.y2 = y2;
    P.budget = (size_t)-1;
    size_t n = P.n ? P.n : 1;
    point_t best = { malloc(n), 1, 0, 0, INFINITY }, cur = { malloc(n), 1, 0, 0, INFINITY };
    double *load = malloc((MAX_LIST_PARTS + 1) * sizeof(double)), *in = malloc((MAX_LIST_PARTS + 1) * sizeof(double));
    P.trial = malloc(n);
    P.map = malloc(256 * sizeof(size_t));
    ct_status_t st = ct_nona_candidate_alloc(m, block, &P.cand, err);
    if (st == CT_OK && (!best.a || !cur.a || !load || !in || !P.trial || !P.map))
        st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
    if (st != CT_OK)
        goto done;
    memset(best.a, 0, n);
    best.f = f_value(&P, best.a, P.n ? 1 : 0, 0, 0); /* all-local */
    double f_local = best.f;
    if (P.n > 0 && evals == 0) { /* exact pricing only, and this segment is too large */
        out->bound = -INFINITY;
        best.f = INFINITY;
    } else if (P.n > 0) {
        P.budget = evals;
        /* Starts: the block's current triplets (the best one searched) and
         * list schedules (list_parts); the two best are searched. */
        const ct_partitions_t *pt = &b->parts;
        for (size_t t = 0; t < pt->n_triplets; t++) {
            const ct_triplet_t *tr = &pt->triplets[t];
            const uint8_t *a = pt->assign + (size_t)tr->partition * P.n;
            point_t x = { (uint8_t *)a, pt->n_parts[tr->partition], tr->k, tr->l, 0 };
            x.f = f_value(&P, a, x.q, x.k, x.l);
            if (x.f < best.f)
                point_copy(&best, &x, P.n);
        }
        point_t second = { cur.a, 0, 0, 0, INFINITY };
        for (size_t qi = 0; qi < sizeof list_parts / sizeof list_parts[0] && list_parts[qi] <= P.n; qi++) {
            size_t q = list_parts[qi];
            uint8_t *a = P.trial;
            list_schedule(&P, q, a, load, in);
            size_t k = 0, l = 0, qq = canonical(&P, a, &k, &l, 0);
            point_t x = { a, qq, k, l, INFINITY };
            best_kl(&P, &x);
            if (x.f < best.f) { /* the old best becomes the second start */
                if (best.f < second.f)
                    point_copy(&second, &best, P.n);
                point_copy(&best, &x, P.n);
            } else if (x.f < second.f) {
                point_copy(&second, &x, P.n);
            }
        }
        local_search(&P, &best);
        if (isfinite(second.f)) {
            P.budget = P.evals + evals / 2;
            local_search(&P, &second);
            if (second.f < best.f)
                point_copy(&best, &second, P.n);
        }
        out->bound = fmin(lower_bound(&P, b, f_local), best.f);
    } else {
        out->exact = 1;
        out->bound = best.f;
    }
    /* The caller adds it: canonical numbering. */
    if (P.n > 0)
        best.q = canonical(&P, best.a, &best.k, &best.l, 0);
    out->assign = best.a;
    best.a = NULL;
    out->q = best.q;
    out->k = best.k;
    out->l = best.l;
    out->value = best.f;
    out->evals = P.evals;
done:
    free(best.a);
    free(cur.a);
    free(load);
    free(in);
    free(P.trial);
    free(P.map);
    ct_nona_candidate_free(&P.cand);
    return st;
}

/* A screen record: two of the triplet's branches (a, n, w: the latest at
 * the least and at the largest waits of the points that recorded it), up
 * to SCR_REMOTE remote branches (the latest such at the largest waits; a
 * = -inf past the last), its link terms a1, a2 and its server row's data
 * q, vh_head, vh_sq, vh_tail, vh_close; every float rounded down (all but q are >= 0,
 * and f grows with each), so the bound read back is at most the triplet's
 * f. The remote branches' waits enter by Bonferroni's inequality
 * (screen_f_lb): where the server waits are what sets triplets apart, the
 * branches' floor alone kept 11-23% of a 446,620-triplet segment in each
 * later round (issue #27's seed 14), 0.4-0.8% with it. */
#define SCR_REMOTE 3 /* remote branches recorded */
enum {
    SCR_A0, SCR_N0, SCR_W0, SCR_A1, SCR_N1, SCR_W1, SCR_R, /* SCR_R: SCR_REMOTE x (a, n, w) */
    SCR_LA1 = SCR_R + 3 * SCR_REMOTE, SCR_LA2, SCR_Q, SCR_HEAD, SCR_SQ, SCR_TAIL, SCR_CLOSE, SCR_STRIDE
};

/* Runs of SCR_RUN triplets in the stream's order also keep their
 * records' least value of every field: with the least server-row
 * coefficient of its members (run_qr: the cut's weights may take either
 * sign, so that one is not read from the least fields), a record every
 * member's f is at least as large as (f grows with each branch and link
 * field, and a remote branch absent from one member, a = -inf, is absent
 * from the run's too), so a run whose bound loses at every point is
 * skipped without reading its members. */
#define SCR_RUN 16
/* Ranges of a parallel pricing stream, per thread (see ct_nona_price_block_points). */
#define STREAM_CHUNKS 8

typedef struct {
    float *v;     /* count x SCR_STRIDE, in the stream's order; NULL until recorded */
    float *run;   /* ceil(count / SCR_RUN) x SCR_STRIDE: each run's least fields (NULL: none) */
    size_t count; /* triplets recorded (the segment's triplet count) */
    int refused;  /* over the screen's budget: streamed without it */
} screen_block_t;

struct ct_nona_price_screen {
    size_t n_blocks, left; /* bytes still allowed */
    screen_block_t *blocks;
};

ct_status_t ct_nona_price_screen_alloc(const ct_nona_model_t *m, size_t max_bytes, ct_nona_price_screen_t **out,
                                       ct_error_t *err)
{
    *out = NULL;
    ct_nona_price_screen_t *s = calloc(1, sizeof *s);
    if (!s || !(s->blocks = calloc(m->n_blocks ? m->n_blocks : 1, sizeof *s->blocks))) {
        free(s);
        return ct_error_set(err, CT_ENOMEM, "out of memory (pricing screen)");
    }
    s->n_blocks = m->n_blocks;
    s->left = max_bytes;
    *out = s;
    return CT_OK;
}

void ct_nona_price_screen_free(ct_nona_price_screen_t *s)
{
    if (!s)
        return;
    for (size_t b = 0; b < s->n_blocks; b++) {
        ct_big_free(s->blocks[b].v);
        free(s->blocks[b].run);
    }
    free(s->blocks);
    free(s);
}

static float down(double x)
{
    float f = (float)x;
    return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

/* The index of the branch latest at waits (phi, Wp) (without X's spread). */
static size_t latest_branch(const ct_nona_candidate_t *c, double phi, double Wp)
{
    size_t best = 0;
    double tmax = -INFINITY;
    for (size_t i = 0; i < c->info.n_branches; i++) {
        double t = c->branches[i].a + c->branches[i].n * phi + c->branches[i].w * Wp;
        if (t > tmax)
            tmax = t, best = i;
    }
    return best;
}

static void screen_record(float *r, const ct_nona_candidate_t *c, double phi0, double Wp0, double phi1, double Wp1)
{
    for (int e = 0; e < 2; e++) {
        const ct_branch_t *br = &c->branches[latest_branch(c, e ? phi1 : phi0, e ? Wp1 : Wp0)];
        r[e ? SCR_A1 : SCR_A0] = down(br->a);
        r[e ? SCR_N1 : SCR_N0] = down(br->n);
        r[e ? SCR_W1 : SCR_W0] = down(br->w);
    }
    /* the SCR_REMOTE remote branches latest at the largest waits, latest
     * first (a = -inf past the last) */
    size_t rb[SCR_REMOTE], nr = 0;
    for (size_t i = 0; i < c->info.n_branches; i++) {
        const ct_branch_t *br = &c->branches[i];
        if (!br->remote)
            continue;
        double t = br->a + br->n * phi1 + br->w * Wp1;
        size_t at = nr < SCR_REMOTE ? nr++ : SCR_REMOTE;
        while (at > 0) {
            const ct_branch_t *o = &c->branches[rb[at - 1]];
            if (!(t > o->a + o->n * phi1 + o->w * Wp1))
                break;
            if (at < SCR_REMOTE)
                rb[at] = rb[at - 1];
            at--;
        }
        if (at < SCR_REMOTE)
            rb[at] = i;
    }
    for (size_t j = 0; j < SCR_REMOTE; j++) {
        float *x = r + SCR_R + 3 * j;
        x[0] = j < nr ? down(c->branches[rb[j]].a) : -INFINITY;
        x[1] = j < nr ? down(c->branches[rb[j]].n) : 0.0f;
        x[2] = j < nr ? down(c->branches[rb[j]].w) : 0.0f;
    }
    r[SCR_LA1] = down(c->info.a1);
    r[SCR_LA2] = down(c->info.a2);
    r[SCR_Q] = down(c->info.q);
    r[SCR_HEAD] = down(c->info.vh_head);
    r[SCR_SQ] = down(c->info.vh_sq);
    r[SCR_TAIL] = down(c->info.vh_tail);
    r[SCR_CLOSE] = c->info.vh_close ? 1.0f : 0.0f;
}

/* The recorded triplet r's server-row coefficient per job, qr / N. */
static double screen_qr(const ct_nona_model_t *m, size_t block, const float *r)
{
    return m->server_model ? ct_nona_server_coef(m, block, r[SCR_Q], r[SCR_CLOSE] != 0.0f, r[SCR_HEAD], r[SCR_SQ],
                                                 r[SCR_TAIL]) /
                                 (double)m->servers
                           : 0.0;
}

/* A lower bound of the recorded triplet r's f at point x (Wp = r_part W),
 * qr its screen_qr; once the branches' floor alone is above cut it
 * returns that (the waits' term only raises it). The remote waits enter
 * by Bonferroni's inequality over the recorded remote branches S (|S| =
 * nr): P(max > s) >= (1 - (nr - 1) p / 2) sum_i P(t_i + X_i > s), so
 * E[max] >= T + that factor x sum_i W_part e^{-mu (T - t_i)} for any T up
 * to the latest branch (here the latest recorded one), with e^{-x} >= (1
 * - x / 8)^8; every recorded time is rounded down, which only lowers it. */
static double screen_f_lb(const ct_nona_model_t *m, const float *r, double qr, const ct_nona_price_point_t *x,
                          double Wp, double cut)
{
    double t0 = r[SCR_A0] + r[SCR_N0] * x->phi + r[SCR_W0] * Wp, t1 = r[SCR_A1] + r[SCR_N1] * x->phi + r[SCR_W1] * Wp;
    double t = t0 > t1 ? t0 : t1, lin = x->y1 * (r[SCR_LA2] + 2.0 * x->pr * r[SCR_LA1]) + x->y2 * qr;
    /* (branches_time adds the remote waits only with server waits) */
    if (t + lin > cut || !(m->server_model && m->rho_s > 0 && m->p_wait > 0 && Wp > 0))
        return t + lin;
    size_t nr = 0;
    while (nr < SCR_REMOTE && r[SCR_R + 3 * nr] > -INFINITY)
        nr++;
    double bonf = 1.0 - 0.5 * (double)(nr ? nr - 1 : 0) * m->p_wait;
    if (!nr || !(bonf > 0))
        return t + lin;
    double tr[SCR_REMOTE], T = t, mu = m->p_wait / Wp, sum = 0;
    for (size_t j = 0; j < nr; j++) {
        const float *b = r + SCR_R + 3 * j;
        tr[j] = b[0] + b[1] * x->phi + b[2] * Wp;
        T = tr[j] > T ? tr[j] : T;
    }
    for (size_t j = 0; j < nr; j++) {
        double y = 1.0 - 0.125 * mu * (T - tr[j]);
        if (y > 0) {
            y *= y;
            y *= y;
            sum += y * y;
        }
    }
    return T + bonf * Wp * sum * (1 - 1e-12) + lin;
}

/* Whether a record r with server-row coefficient qr loses at every point:
 * its f's lower bound above the point's best so far, with the stream's
 * margin. Wp[i] = r_part W. */
static int loses_everywhere(const ct_nona_model_t *m, const float *r, double qr, size_t n,
                            const ct_nona_price_point_t *pts, const double *Wp, const point_t *best)
{
    for (size_t i = 0; i < n; i++) {
        double cut = best[i].f + 1e-9 * fabs(best[i].f);
        if (!(screen_f_lb(m, r, qr, &pts[i], Wp[i], cut) > cut))
            return 0;
    }
    return 1;
}

/* Whether the recorded triplet r loses at every point. */
static int screen_loses(const ct_nona_model_t *m, size_t block, const float *r, size_t n,
                        const ct_nona_price_point_t *pts, const double *Wp, const point_t *best)
{
    return loses_everywhere(m, r, screen_qr(m, block, r), n, pts, Wp, best);
}

/* The least server-row coefficient (screen_qr) of the run's members
 * from stream index `first`. */
static double run_qr(const ct_nona_model_t *m, size_t block, const screen_block_t *sb, size_t first)
{
    size_t end = first + SCR_RUN < sb->count ? first + SCR_RUN : sb->count;
    double qr = INFINITY;
    for (size_t i = first; i < end; i++)
        qr = fmin(qr, screen_qr(m, block, sb->v + i * SCR_STRIDE));
    return qr;
}

/* Whether every triplet of the run starting at stream index `first`
 * (count triplets recorded) loses at every point: the bound of its least
 * record, with the least server-row coefficient of its members. */
static int run_loses(const ct_nona_model_t *m, size_t block, const screen_block_t *sb, size_t first, size_t n,
                     const ct_nona_price_point_t *pts, const double *Wp, const point_t *best)
{
    return loses_everywhere(m, sb->run + (first / SCR_RUN) * SCR_STRIDE, run_qr(m, block, sb, first), n, pts, Wp,
                            best);
}

double ct_nona_price_screen_run_lb(const ct_nona_model_t *m, const ct_nona_price_screen_t *s, size_t block,
                                   size_t index, const ct_nona_price_point_t *pt)
{
    if (!s || block >= s->n_blocks || !s->blocks[block].v || !s->blocks[block].run || index >= s->blocks[block].count)
        return NAN;
    const screen_block_t *sb = &s->blocks[block];
    size_t first = index - index % SCR_RUN;
    return screen_f_lb(m, sb->run + (first / SCR_RUN) * SCR_STRIDE, run_qr(m, block, sb, first), pt,
                       m->r_part * pt->W, INFINITY);
}

double ct_nona_price_screen_lb(const ct_nona_model_t *m, const ct_nona_price_screen_t *s, size_t block, size_t index,
                               const ct_nona_price_point_t *pt)
{
    if (!s || block >= s->n_blocks || !s->blocks[block].v || index >= s->blocks[block].count)
        return NAN;
    const float *r = s->blocks[block].v + index * SCR_STRIDE;
    return screen_f_lb(m, r, screen_qr(m, block, r), pt, m->r_part * pt->W, INFINITY);
}

/* One range [lo, hi) of a block's exact stream (stream indices; lo a
 * multiple of SCR_RUN, so a run of the screen belongs to one range): its
 * own candidate, walk of the assignments and best per point, so ranges
 * run on threads sharing nothing mutable but the screen's records of
 * their own triplets and runs. The last range's hi is SIZE_MAX: it walks
 * the whole stream, and its count is the stream's length. */
typedef struct {
    size_t lo, hi;
    size_t count;  /* the stream index where the range's walk stopped */
    size_t built;  /* triplets whose model data it built */
    point_t *best; /* n: per point the range's first triplet of least f (f = cut, all-local, where none beats it) */
} stream_range_t;

typedef struct {
    const ct_nona_model_t *m;
    size_t block, nt, n;
    const ct_nona_price_point_t *pts;
    const double *cut, *Wp;                  /* Wp: NULL unless reading or recording */
    screen_block_t *sb;                      /* NULL: no screen */
    int reading, recording;
    double phi0, Wp0, phi1, Wp1;             /* the points' range (recording) */
    stream_range_t *r;
} stream_t;

static ct_status_t stream_range(size_t ri, void *arg, ct_error_t *err)
{
    const stream_t *S = arg;
    stream_range_t *R = &S->r[ri];
    const ct_nona_model_t *m = S->m;
    const ct_nona_price_point_t *pts = S->pts;
    const double *Wp = S->Wp;
    screen_block_t *sb = S->sb;
    size_t nt = S->nt, n = S->n, block = S->block;
    int reading = S->reading, recording = S->recording;
    point_t *best = R->best;
    ct_nona_candidate_t cand;
    uint8_t *a = calloc(nt, 1), *mx = calloc(nt + 1, 1);
    ct_status_t st = ct_nona_candidate_alloc(m, block, &cand, err);
    if (st == CT_OK && (!a || !mx))
        st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
    size_t count = 0, built = 0, skip_to = 0;
    for (size_t i = 0; i < n; i++)
        best[i].f = S->cut ? S->cut[i] : INFINITY; /* (its assignment all-local until a triplet beats it) */
    while (st == CT_OK) {
        size_t q = (size_t)mx[nt - 1] + 1;
        if (count + q * q <= R->lo) /* (before the range: walked, not built) */
            count += q * q;
        else
            for (size_t k = 0; k < q && count < R->hi; k++)
                for (size_t l = 0; l < q && count < R->hi; l++, count++) {
                    if (count < R->lo)
                        continue;
                    /* one that loses at every point is skipped, and a run
                     * whose least record does */
                    if (reading && count < sb->count) {
                        if (count % SCR_RUN == 0 && run_loses(m, block, sb, count, n, pts, Wp, best))
                            skip_to = count + SCR_RUN;
                        if (count < skip_to || screen_loses(m, block, sb->v + count * SCR_STRIDE, n, pts, Wp, best))
                            continue;
                    }
                    ct_nona_candidate_eval(m, &cand, a, q, k, l);
                    built++;
                    if (recording && count < sb->count) {
                        float *r = sb->v + count * SCR_STRIDE, *g = sb->run + (count / SCR_RUN) * SCR_STRIDE;
                        screen_record(r, &cand, S->phi0, S->Wp0, S->phi1, S->Wp1);
                        for (size_t f = 0; f < SCR_STRIDE; f++)
                            g[f] = r[f] < g[f] ? r[f] : g[f];
                    }
                    for (size_t i = 0; i < n; i++) {
                        const ct_nona_price_point_t *x = &pts[i];
                        /* most triplets lose already on the floor of their
                         * time, before the waits' spread (its exp calls) is
                         * taken; the margin covers that term's round-off */
                        double lb = price_of(m, &cand.info, ct_nona_candidate_time_floor(m, &cand, x->phi, x->W),
                                             x->pr, x->y1, x->y2);
                        if (lb > best[i].f + 1e-9 * fabs(best[i].f))
                            continue;
                        double f = price_of(m, &cand.info, ct_nona_candidate_time(m, &cand, x->phi, x->W), x->pr,
                                            x->y1, x->y2);
                        if (f < best[i].f) {
                            point_t y = { a, q, k, l, f };
                            point_copy(&best[i], &y, nt);
                        }
                    }
                }
        if (count >= R->hi || !ct_partition_next(a, mx, nt))
            break;
    }
    R->count = count;
    R->built = built;
    free(a);
    free(mx);
    ct_nona_candidate_free(&cand);
    return st;
}

ct_status_t ct_nona_price_block_points(const ct_nona_model_t *m, size_t block, size_t n,
                                       const ct_nona_price_point_t *pts, const double *cut, size_t exact_limit,
                                       size_t evals, unsigned threads, ct_nona_price_screen_t *screen,
                                       ct_nona_priced_t *out, ct_error_t *err)
{
    for (size_t i = 0; i < n; i++)
        memset(&out[i], 0, sizeof out[i]);
    const ct_block_t *b = &m->blocks[block];
    const ct_segment_t *seg = &m->classes[b->cls].split.segments[b->segment];
    size_t nt = seg->n_inner;
    ct_status_t st = CT_OK;
    if (nt == 0 || ct_partition_triplet_count(nt) > (double)exact_limit) {
        /* nothing to share: a search prices each point on its own */
        for (size_t i = 0; i < n && st == CT_OK; i++)
            st = ct_nona_price_block(m, block, pts[i].phi, pts[i].W, pts[i].pr, pts[i].y1, pts[i].y2, exact_limit,
                                     evals, &out[i], err);
        goto done;
    }
    /* Exact at every point: one stream of the triplets (restricted growth
     * strings, then k, l), each triplet's data built once; per point the
     * first triplet of least f in the stream's order, as
     * ct_nona_price_block finds it. With threads, the stream is cut into
     * that many ranges, each with its own best; per point the least over
     * the ranges, the earliest range on a tie, is the stream's first least
     * (a range skips only what loses to its own best, which is no lower
     * than the stream's), so the results do not depend on threads. The
     * ranges are STREAM_CHUNKS a thread, handed out as threads free up:
     * triplets late in the stream have more parts and cost more (seed 14's
     * 446,620-triplet first stream: 0.30 s and 0.43 s in two halves). */
    double count = ct_partition_triplet_count(nt);
    size_t total = (size_t)count, parts = threads > 1 ? STREAM_CHUNKS * (size_t)threads : 1;
    if (parts > total / SCR_RUN)
        parts = total / SCR_RUN > 0 ? total / SCR_RUN : 1;
    pricer_t P;
    memset(&P, 0, sizeof P);
    P.m = m;
    P.n = nt;
    P.map = malloc(256 * sizeof(size_t));
    stream_range_t *R = calloc(parts, sizeof *R);
    if (!P.map || !R)
        st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
    for (size_t ri = 0; ri < parts && st == CT_OK; ri++) {
        if (!(R[ri].best = calloc(n, sizeof(point_t))))
            st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
        for (size_t i = 0; i < n && st == CT_OK; i++)
            if (!(R[ri].best[i].a = calloc(nt, 1)))
                st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
        R[ri].lo = total / parts * ri / SCR_RUN * SCR_RUN;
        R[ri].hi = SIZE_MAX;
        if (ri > 0)
            R[ri - 1].hi = R[ri].lo;
    }
    /* The screen (not with spread waits, whose time has no floor): read
     * when this block's stream was recorded, else recorded now if the
     * budget allows. */
    screen_block_t *sb = screen && !m->reentry_spread && block < screen->n_blocks ? &screen->blocks[block] : NULL;
    int reading = sb && sb->v, recording = 0;
    double phi0 = INFINITY, phi1 = 0, Wp0 = INFINITY, Wp1 = 0, *Wp = NULL;
    if (st == CT_OK && sb && !sb->v && !sb->refused) {
        double runs = ceil(count / SCR_RUN), bytes = (count + runs) * SCR_STRIDE * sizeof(float);
        if (bytes <= (double)screen->left && (sb->v = ct_big_calloc((size_t)count * SCR_STRIDE, sizeof(float))) != NULL &&
            (sb->run = malloc((size_t)(runs * SCR_STRIDE * sizeof(float)))) != NULL) {
            recording = 1;
            sb->count = total;
            screen->left -= (size_t)bytes;
            for (size_t i = 0; i < (size_t)runs * SCR_STRIDE; i++)
                sb->run[i] = INFINITY;
        } else {
            ct_big_free(sb->v);
            sb->v = NULL;
            sb->refused = 1;
        }
    }
    if (st == CT_OK && (reading || recording) && !(Wp = malloc(n * sizeof(double))))
        st = ct_error_set(err, CT_ENOMEM, "out of memory (pricing)");
    for (size_t i = 0; st == CT_OK && Wp && i < n; i++) {
        Wp[i] = m->r_part * pts[i].W;
        phi0 = fmin(phi0, pts[i].phi), phi1 = fmax(phi1, pts[i].phi);
        Wp0 = fmin(Wp0, Wp[i]), Wp1 = fmax(Wp1, Wp[i]);
    }
    if (st == CT_OK) {
        stream_t S = { m, block, nt, n, pts, cut, Wp, sb, reading, recording, phi0, Wp0, phi1, Wp1, R };
        unsigned nth = threads < parts ? threads : (unsigned)parts;
        st = parts > 1 ? ct_parallel_for(parts, nth, stream_range, &S, NULL, NULL, err) : stream_range(0, &S, err);
    }
    if (st == CT_OK) {
        if (recording && R[parts - 1].count != sb->count) { /* (the count is the stream's; a guard) */
            screen->left += (sb->count + (sb->count + SCR_RUN - 1) / SCR_RUN) * SCR_STRIDE * sizeof(float);
            ct_big_free(sb->v);
            free(sb->run);
            sb->v = NULL;
            sb->run = NULL;
            sb->refused = 1;
        }
        size_t built = 0;
        for (size_t ri = 0; ri < parts; ri++)
            built += R[ri].built;
        for (size_t i = 0; i < n; i++) {
            size_t w = 0;
            for (size_t ri = 1; ri < parts; ri++)
                if (R[ri].best[i].f < R[w].best[i].f)
                    w = ri;
            point_t *x = &R[w].best[i];
            x->q = canonical(&P, x->a, &x->k, &x->l, 0);
            out[i] = (ct_nona_priced_t){ .assign = x->a, .q = x->q, .k = x->k, .l = x->l, .value = x->f,
                                         .bound = x->f, .exact = 1, .evals = built };
            x->a = NULL;
        }
    }
    for (size_t ri = 0; R && ri < parts; ri++) {
        for (size_t i = 0; R[ri].best && i < n; i++)
            free(R[ri].best[i].a);
        free(R[ri].best);
    }
    free(R);
    free(Wp);
    free(P.map);
done:
    if (st != CT_OK)
        for (size_t i = 0; i < n; i++)
            ct_nona_priced_free(&out[i]);
    return st;
}
