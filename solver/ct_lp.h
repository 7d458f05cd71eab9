/*
 * ct_lp.h - the one adapter between libcontend and GLPK.
 *
 * A small LP/ILP interface: rows and columns are 0-based here (GLPK's are
 * 1-based), columns are >= 0 unless bounded otherwise, the objective is
 * minimised. GLPK's terminal output is off; its error hook jumps back here
 * so a GLPK failure becomes CT_ESOLVER instead of an abort; every solve
 * checks glp_get_status / glp_mip_status (a 0 return is not optimality).
 * Consecutive solves of the same LP warm-start from the previous basis.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_LP_H
#define CT_LP_H

#include "ct_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_lp ct_lp_t;

typedef enum { CT_LP_EQ, CT_LP_LE, CT_LP_GE } ct_lp_row_t;
/** CT_LP_TIME_LIMIT: branch-and-cut stopped at the time limit; *obj is the
 *  incumbent (NAN when none was found) and ct_lp_relaxation() a bound. */
typedef enum { CT_LP_OPTIMAL, CT_LP_INFEASIBLE, CT_LP_UNBOUNDED, CT_LP_TIME_LIMIT } ct_lp_result_t;

/** Allocates an LP with the given rows and columns (all columns >= 0,
 *  continuous, objective 0). */
ct_status_t ct_lp_alloc(ct_lp_t **lp, size_t rows, size_t cols, ct_error_t *err);
void ct_lp_free(ct_lp_t *lp);
/** Frees the calling thread's solver environment (GLPK keeps one per
 *  thread); a worker thread calls it before it ends, after freeing its
 *  LPs. Harmless when the thread made none. */
void ct_lp_thread_exit(void);

/** Sets row r to sum vals[i] x[cols[i]] (type) rhs. */
ct_status_t ct_lp_set_row(ct_lp_t *lp, size_t r, size_t n, const size_t *cols, const double *vals, ct_lp_row_t type,
                          double rhs, ct_error_t *err);
/** Sets the objective coefficient of column c. */
ct_status_t ct_lp_set_obj(ct_lp_t *lp, size_t c, double coef, ct_error_t *err);
/** Bounds column c to [lo, hi] (hi = INFINITY for none). */
ct_status_t ct_lp_set_bounds(ct_lp_t *lp, size_t c, double lo, double hi, ct_error_t *err);
/** Makes column c integer (the problem becomes a MIP). */
ct_status_t ct_lp_set_integer(ct_lp_t *lp, size_t c, ct_error_t *err);

/**
 * Solves (simplex; then branch-and-cut if any column is integer). On
 * CT_LP_OPTIMAL fills *obj and x (cols values, may be NULL); on
 * CT_LP_TIME_LIMIT the incumbent's (NAN without one). Returns CT_ESOLVER if GLPK fails or stops without a verdict.
 */
ct_status_t ct_lp_solve(ct_lp_t *lp, ct_lp_result_t *res, double *obj, double *x, ct_error_t *err);

/** Limits branch-and-cut to `seconds` of wall time (0: no limit). */
void ct_lp_set_time_limit(ct_lp_t *lp, double seconds);
/** The objective of the last continuous relaxation solved (NAN if it had no
 *  optimum): a lower bound on a MIP's optimum. */
double ct_lp_relaxation(const ct_lp_t *lp);
/** After an optimal continuous solve: the dual value (shadow price) of row
 *  r (for a <= row of a minimisation it is <= 0). */
double ct_lp_row_dual(const ct_lp_t *lp, size_t r);

#ifdef __cplusplus
}
#endif
#endif
