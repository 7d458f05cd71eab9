/*
 * nona_internal.h - what the two Nona solver files share (not installed).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_INTERNAL_H
#define CT_NONA_INTERNAL_H

#include "ct_nona_solve.h"

/* The penalty method; sol->theta and sol->tau are allocated by the caller. */
ct_status_t ct_nona_solve_penalty(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                                  ct_error_t *err);

/* Column generation (nona_columns.c). f(w) = M_w(phi, W) + y1 (a2_w + 2 pr
 * a1_w) + y2 q_w / N per job of the block's class. */
typedef struct {
    uint8_t *assign;        /* the best triplet found: n_inner part numbers (canonical) */
    size_t q, k, l;
    double value;           /* its f */
    double bound;           /* a lower bound on f over every triplet of the segment */
    int exact;              /* 1: every triplet was priced (bound = value) */
    size_t evals;           /* triplets whose model data was built (a screen skips some) */
} ct_nona_priced_t;

/* Prices exactly when the segment has at most exact_limit triplets, else
 * searches with about `evals` evaluations (0: does not; value = +inf). */
ct_status_t ct_nona_price_block(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1,
                                double y2, size_t exact_limit, size_t evals, ct_nona_priced_t *out, ct_error_t *err);
/* Where a pricing pass looks: objective waits (phi, W), the link row at
 * pr, the wait LP's multipliers y1, y2 (see ct_nona_price_block). */
typedef struct {
    double phi, W, pr, y1, y2;
} ct_nona_price_point_t;
/* The exact stream's screen: per block, a lower bound of every triplet's
 * f in the stream's order (a few floats each, rounded down), recorded by
 * the block's first stream and read by the later ones of the same solve,
 * which then build a triplet's model data only where its bound does not
 * already lose at every point. A triplet's data does not depend on the
 * waits, the multipliers, the shares or the server row's cut (those enter
 * the bound when it is read), so the screen stays valid while a solve
 * adds columns and moves its shares. At most max_bytes in all; a block
 * beyond is streamed as without a screen. The results are the same. */
typedef struct ct_nona_price_screen ct_nona_price_screen_t;
ct_status_t ct_nona_price_screen_alloc(const ct_nona_model_t *m, size_t max_bytes, ct_nona_price_screen_t **out,
                                       ct_error_t *err);
void ct_nona_price_screen_free(ct_nona_price_screen_t *s);
/* Exact pricing streams of at least this many triplets run in ranges on
 * the solve's threads (ct_nona_solve_params_t.threads): a recording
 * stream builds each triplet's data, about 1 us each; a shorter one would
 * spend as much starting threads as it saves. */
#define CT_NONA_STREAM_RANGE_MIN 65536
/* ct_nona_price_block at each of n points into out[0 .. n): the same
 * results, but a segment priced exactly is streamed once for all of them
 * (each triplet's model data built once, its time taken at every point;
 * screen: NULL, or the solve's screen, filled or read for this block).
 * cut: NULL, or per point an f the caller needs a triplet to beat (the
 * block's least f over its current triplets: ct_nona_block_price); the
 * exact stream then skips from its first triplet on what cannot beat it,
 * and where no triplet's f is below cut[i], out[i] has value = bound =
 * cut[i] (the exact least when the block's own triplets reach it) and the
 * all-local assignment, which the caller does not add (not below the
 * cut). threads > 1: the exact stream runs in that many ranges at once
 * (the same results; worth it from CT_NONA_STREAM_RANGE_MIN triplets). On
 * error every out[] is empty. */
ct_status_t ct_nona_price_block_points(const ct_nona_model_t *m, size_t block, size_t n,
                                       const ct_nona_price_point_t *pts, const double *cut, size_t exact_limit,
                                       size_t evals, unsigned threads, ct_nona_price_screen_t *screen,
                                       ct_nona_priced_t *out, ct_error_t *err);
/* The screen's lower bound of the f of the index-th triplet in block's
 * stream order at pt (for tests); NAN when the block has none recorded. */
double ct_nona_price_screen_lb(const ct_nona_model_t *m, const ct_nona_price_screen_t *s, size_t block, size_t index,
                               const ct_nona_price_point_t *pt);
/* The same for the run of triplets the index-th belongs to (its members'
 * least record; the stream skips a run whose bound loses at every point). */
double ct_nona_price_screen_run_lb(const ct_nona_model_t *m, const ct_nona_price_screen_t *s, size_t block,
                                   size_t index, const ct_nona_price_point_t *pt);
void ct_nona_priced_free(ct_nona_priced_t *r);
/* The least sum of squares of q pieces that n items (sizes s[0 .. n),
 * sorted largest first, >= 0) can be split into, each item whole (a lower
 * bound on it: pieces may be fractional past the largest items). A
 * triplet's pieces are its parts' work, the root's work joining its
 * source's part, so this with the inner tasks and the root's work as
 * items bounds q_w. q in 1 .. n. O(n). */
double ct_nona_pieces_floor(const double *s, size_t n, size_t q);
/* The link row's floor per part count for block (a generated segment or
 * not): fills cost[i] (room for the segment's edges + 1) with the least
 * sum of a2 + 2 pr a1 over i of its positive-byte edges crossing, and
 * returns c, the components those edges make of the inner tasks, source
 * and sink (up: scratch for inner tasks + 2); *n_pos the positive-byte
 * edges. Every triplet of q parts has at least min(q - c, n_pos) of them
 * crossing, so its a2 + 2 pr a1 >= cost[that] (a batch's square is at
 * least its edges'). O(E log E). */
size_t ct_nona_crossing_floor(const ct_nona_model_t *m, size_t block, double pr, double *cost, size_t *up,
                              size_t *n_pos);
/* The pricing bound's floor of M_w(phi, W) over every triplet of block
 * with q >= 2 parts (see solver/nona_columns.c: the longest task, the
 * schedule floor with dependent parts, the compute shared by q parts, and
 * the remote parts' waits beside the least remote branch or the floor's).
 * O(V 2^fan-in + q). */
double ct_nona_time_floor(const ct_nona_model_t *m, size_t block, double phi, double W, size_t q);
/* With dependent parts, the schedule floor of block at (phi, W): a floor
 * of M_w over every triplet w (the return value), and pen[j] (one per
 * segment edge) a floor over the triplets where edge j crosses (its
 * target's part is not its sender's, the source's part for the source's
 * edges), for each edge into an inner task; NAN for the edges into the
 * sink. Pricing's bound joins the tasks of the edges a triplet keeps
 * local where cutting one would raise M (solver/nona_columns.c). O(E
 * 2^fan-in). */
double ct_nona_cut_floor(const ct_nona_model_t *m, size_t block, double phi, double W, double *pen);
/* Pricing's bound per part count for block at (phi, W), the link row at
 * pr and multipliers y1, y2 (solver/nona_columns.c): lbq[q], q = 2 ..
 * min(n_inner, 255), bounds f over every triplet of q parts; plain (else
 * NULL) the same without joining the tasks of edges kept local
 * (ct_nona_cut_floor). Both sized n_inner + 1. Returns 0, -1 out of
 * memory. O(E (log E + V q) + V 2^fan-in). */
int ct_nona_part_floors(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1, double y2,
                        double *lbq, double *plain);
/* The least f over the block's current triplets. */
double ct_nona_block_price(const ct_nona_model_t *m, size_t block, double phi, double W, double pr, double y1,
                           double y2);

#endif
