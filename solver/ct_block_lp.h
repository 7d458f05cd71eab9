/*
 * ct_block_lp.h - an exact solver for LPs shaped like Nona's wait LP: the
 * columns fall into blocks, each block's variables form a simplex (they are
 * >= 0 and sum to 1), and one or two coupling rows tie the blocks together:
 *
 *   min  c . x   s.t.  sum_{w in b} x_w = 1 (every block b),  A_k . x <= r_k  (k < rows <= 2),  x >= 0.
 *
 * Method (Lagrangian, no general simplex). Pricing row k by a multiplier
 * y_k >= 0 splits the problem: each block takes its cheapest column under
 * c + y . A, and the dual g(y) = sum_b min_w (c_w + y . A_w) - y . r is
 * concave and piecewise linear; its maximum is the LP's optimum.
 *   One row: each block's lower envelope of the lines c_w + y A_w (y >= 0)
 *     is built by gift wrapping; its breakpoints, where the block moves to
 *     a column with a smaller A_w, are collected, and a weighted selection
 *     finds the y* at which the total A . x first falls to r. The blocks
 *     whose breakpoint sits at y* move in turn, the last one by a fraction:
 *     the solution mixes at most one block, and g(y*) equals c . x.
 *   Two rows: h(y2) = max over y1 of g(y1, y2) is concave in y2, and an
 *     exact one-row solve at y2 gives h(y2) and the slope A2 . x - r2. A
 *     monotone search keeps a point on each side of the maximum and jumps
 *     to where their lines cross (Newton's method for piecewise-linear
 *     functions: it ends after finitely many steps, in practice a handful);
 *     when h at the crossing reaches the lines, the two sides' solutions,
 *     mixed so that row 2 is met with equality, are optimal. A last pass
 *     (purification) moves along directions that keep both rows and do not
 *     raise the cost until at most two variables beyond one per block are
 *     positive: a vertex, mixing at most two blocks.
 * The result carries its multipliers and the certificate g(y) <= optimum
 * <= c . x with their difference within 1e-11 of the objective's scale.
 *
 * Time: O(n h) per one-row solve (n columns, h the longest envelope, a few
 * columns in practice), times the search's steps for two rows. Memory:
 * O(n), allocated once in the workspace.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_BLOCK_LP_H
#define CT_BLOCK_LP_H

#include "ct_lp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_block_lp ct_block_lp_t;

/** The outcome of a solve. */
typedef struct {
    ct_lp_result_t result;  /**< CT_LP_OPTIMAL or CT_LP_INFEASIBLE */
    double obj;             /**< c . x at the solution */
    double bound;           /**< g(y): a lower bound on the optimum from the multipliers */
    double y[2];            /**< multipliers of the coupling rows (>= 0; 0 for a slack row) */
    size_t steps;           /**< one-row solves used */
} ct_block_lp_result_t;

/**
 * Allocates a workspace for n_blocks blocks; block b holds the columns
 * start[b] .. start[b + 1] - 1 (start has n_blocks + 1 nondecreasing
 * entries, start[0] = 0, every block nonempty). The workspace copies start.
 * Fails with CT_EINPUT for an empty block, CT_ENOMEM.
 * Time and memory O(columns).
 */
ct_status_t ct_block_lp_alloc(ct_block_lp_t **w, size_t n_blocks, const size_t *start, ct_error_t *err);
/** ct_block_lp_alloc with the arrays taken from the cache `scratch` (NULL:
 *  malloc) and given back to it by ct_block_lp_free: for workspaces set up
 *  over and over (ct_scratch_t). */
ct_status_t ct_block_lp_alloc_scratch(ct_block_lp_t **w, size_t n_blocks, const size_t *start, ct_scratch_t *scratch,
                                      ct_error_t *err);
void ct_block_lp_free(ct_block_lp_t *w);
/**
 * Gives the workspace new block offsets for the next solves: the same
 * number of blocks, start[n_blocks] at most the column count it was
 * allocated for (a solve over a subset of the columns, as column
 * generation's restricted problem is). Fails with CT_EINPUT as alloc does,
 * or when the columns exceed the allocation; the workspace then keeps its
 * offsets. O(n_blocks).
 */
ct_status_t ct_block_lp_set_blocks(ct_block_lp_t *w, const size_t *start, ct_error_t *err);

/**
 * Solves min c . x over the blocks' simplices with rows (1 or 2) coupling
 * rows A[k] . x <= r[k]. c and every A[k] have one entry per column and
 * must be finite. On CT_LP_OPTIMAL, x (one entry per column) is an optimal
 * vertex: each block sums to 1 and at most `rows` variables beyond one per
 * block are positive. On CT_LP_INFEASIBLE x is untouched. Fails with
 * CT_EINPUT for rows outside 1..2 or a value that is not finite, and with
 * CT_ESOLVER if the two-row search does not settle (not seen; a guard).
 */
ct_status_t ct_block_lp_solve(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A, const double *r,
                              double *x, ct_block_lp_result_t *res, ct_error_t *err);

/**
 * ct_block_lp_solve with a hint for row 2's multiplier (rows = 2; ignored
 * unless > 0): the search starts at it, so a sequence of nearby problems
 * (a branch-and-bound's boxes) takes a few one-row solves each instead of
 * a dozen. The optimum is the same; among several optimal vertices, the
 * one found may differ.
 */
ct_status_t ct_block_lp_solve_from(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A,
                                   const double *r, double y2_hint, double *x, ct_block_lp_result_t *res,
                                   ct_error_t *err);

/**
 * ct_block_lp_solve_from that may end early: once the two-row search has
 * the optimum within rel_tol (relative, >= 0; 0: exact, as
 * ct_block_lp_solve_from), it returns the sides' mix that meets row 2 (a
 * feasible point of cost at most the optimum x (1 + rel_tol), the vertex
 * purification leads to) and the multipliers of the highest dual value it
 * met: res->bound <= optimum <= res->obj, their difference within rel_tol
 * of the objective. A branch-and-bound that needs its bounds to a fraction
 * of its gap so far saves the search's last steps (on h's many small pieces
 * near its maximum they gain 1e-7 of the objective each).
 */
ct_status_t ct_block_lp_solve_within(ct_block_lp_t *w, size_t rows, const double *c, const double *const *A,
                                     const double *r, double y2_hint, double rel_tol, double *x,
                                     ct_block_lp_result_t *res, ct_error_t *err);
#ifdef __cplusplus
}
#endif
#endif
