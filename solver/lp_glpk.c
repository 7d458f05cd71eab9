/*
 * lp_glpk.c - GLPK behind ct_lp.h.
 *
 * GLPK reports internal errors by calling the error hook and then aborting.
 * The hook here longjmps back to the adapter call that was running; GLPK's
 * environment is then unusable and is freed (glp_free_env), which also frees
 * the problem object, so the ct_lp_t is marked dead and every later call on
 * it fails with CT_ESOLVER.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_lp.h"

#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>

struct ct_lp {
    glp_prob *P;        /* NULL once GLPK has failed */
    size_t rows, cols;
    int is_mip;
    int warm;           /* a previous basis exists */
    double tm_lim;      /* branch-and-cut time limit, seconds (0: none) */
    double relax;       /* objective of the last continuous relaxation */
    jmp_buf jb;
    int *ind;           /* 1-based scratch */
    double *val;
};

static void glpk_hook(void *info)
{
    struct ct_lp *lp = info;
    longjmp(lp->jb, 1);
}

/* Enters a guarded region; on a GLPK failure control returns here with 1. */
#define GUARD(lp, err)                                                                                   \
    do {                                                                                                 \
        if (!(lp)->P)                                                                                    \
            return ct_error_set(err, CT_ESOLVER, "GLPK: the problem was lost after an earlier failure"); \
        glp_error_hook(glpk_hook, (lp));                                                                 \
        if (setjmp((lp)->jb)) {                                                                          \
            glp_error_hook(NULL, NULL);                                                                  \
            glp_free_env();                                                                              \
            (lp)->P = NULL;                                                                              \
            return ct_error_set(err, CT_ESOLVER, "GLPK reported an internal error");                    \
        }                                                                                                \
    } while (0)
#define UNGUARD() glp_error_hook(NULL, NULL)

void ct_lp_thread_exit(void)
{
    glp_free_env();
}

ct_status_t ct_lp_alloc(ct_lp_t **out, size_t rows, size_t cols, ct_error_t *err)
{
    *out = NULL;
    struct ct_lp *lp = calloc(1, sizeof *lp);
    if (!lp)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    size_t n = (rows > cols ? rows : cols) + 1;
    lp->ind = malloc(n * sizeof(int));
    lp->val = malloc(n * sizeof(double));
    if (!lp->ind || !lp->val || rows > 100000000 || cols > 100000000) {
        free(lp->ind);
        free(lp->val);
        free(lp);
        return ct_error_set(err, CT_ENOMEM, "out of memory for an LP of %zu x %zu", rows, cols);
    }
    lp->rows = rows;
    lp->cols = cols;
    glp_term_out(GLP_OFF);
    glp_error_hook(glpk_hook, lp);
    if (setjmp(lp->jb)) {
        glp_error_hook(NULL, NULL);
        glp_free_env();
        free(lp->ind);
        free(lp->val);
        free(lp);
        return ct_error_set(err, CT_ESOLVER, "GLPK reported an internal error creating an LP");
    }
    lp->P = glp_create_prob();
    glp_set_obj_dir(lp->P, GLP_MIN);
    if (rows)
        glp_add_rows(lp->P, (int)rows);
    if (cols)
        glp_add_cols(lp->P, (int)cols);
    for (size_t c = 1; c <= cols; c++)
        glp_set_col_bnds(lp->P, (int)c, GLP_LO, 0.0, 0.0);
    UNGUARD();
    *out = lp;
    return CT_OK;
}

void ct_lp_free(ct_lp_t *lp)
{
    if (!lp)
        return;
    if (lp->P)
        glp_delete_prob(lp->P);
    free(lp->ind);
    free(lp->val);
    free(lp);
}

ct_status_t ct_lp_set_row(ct_lp_t *lp, size_t r, size_t n, const size_t *cols, const double *vals, ct_lp_row_t type,
                          double rhs, ct_error_t *err)
{
    if (r >= lp->rows || n > lp->cols)
        return ct_error_set(err, CT_EINTERNAL, "LP row %zu out of range", r);
    for (size_t i = 0; i < n; i++) {
        if (cols[i] >= lp->cols || !isfinite(vals[i]))
            return ct_error_set(err, CT_EINTERNAL, "LP row %zu: bad entry %zu", r, i);
        lp->ind[i + 1] = (int)cols[i] + 1;
        lp->val[i + 1] = vals[i];
    }
    if (!isfinite(rhs))
        return ct_error_set(err, CT_EINTERNAL, "LP row %zu: non-finite bound", r);
    GUARD(lp, err);
    glp_set_mat_row(lp->P, (int)r + 1, (int)n, lp->ind, lp->val);
    int t = type == CT_LP_EQ ? GLP_FX : type == CT_LP_LE ? GLP_UP : GLP_LO;
    glp_set_row_bnds(lp->P, (int)r + 1, t, rhs, rhs);
    UNGUARD();
    return CT_OK;
}

ct_status_t ct_lp_set_obj(ct_lp_t *lp, size_t c, double coef, ct_error_t *err)
{
    if (c >= lp->cols || !isfinite(coef))
        return ct_error_set(err, CT_EINTERNAL, "LP objective: bad column %zu or coefficient", c);
    GUARD(lp, err);
    glp_set_obj_coef(lp->P, (int)c + 1, coef);
    UNGUARD();
    return CT_OK;
}

ct_status_t ct_lp_set_bounds(ct_lp_t *lp, size_t c, double lo, double hi, ct_error_t *err)
{
    if (c >= lp->cols)
        return ct_error_set(err, CT_EINTERNAL, "LP bounds: bad column %zu", c);
    GUARD(lp, err);
    int t = isfinite(hi) ? (lo == hi ? GLP_FX : GLP_DB) : GLP_LO;
    glp_set_col_bnds(lp->P, (int)c + 1, t, lo, isfinite(hi) ? hi : 0.0);
    UNGUARD();
    return CT_OK;
}

ct_status_t ct_lp_set_integer(ct_lp_t *lp, size_t c, ct_error_t *err)
{
    if (c >= lp->cols)
        return ct_error_set(err, CT_EINTERNAL, "LP integer: bad column %zu", c);
    GUARD(lp, err);
    glp_set_col_kind(lp->P, (int)c + 1, GLP_IV);
    lp->is_mip = 1;
    UNGUARD();
    return CT_OK;
}

ct_status_t ct_lp_solve(ct_lp_t *lp, ct_lp_result_t *res, double *obj, double *x, ct_error_t *err)
{
    GUARD(lp, err);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_OFF; /* keeps the basis for warm starts */
    parm.tol_bnd = 1e-10;    /* rows met to 1e-10 of their bound: with GLPK's 1e-7 a theta whose
                              * true wait is a hair above its row keeps a 1e-9 certificate open */
    if (!lp->warm)
        glp_adv_basis(lp->P, 0);
    int rc = glp_simplex(lp->P, &parm);
    if (rc == GLP_EBADB || rc == GLP_EFAIL || rc == GLP_ESING || rc == GLP_ECOND) {
        /* A warm basis went bad: start over from a standard basis. */
        glp_std_basis(lp->P);
        rc = glp_simplex(lp->P, &parm);
    }
    if (rc != 0) {
        UNGUARD();
        lp->warm = 0;
        return ct_error_set(err, CT_ESOLVER, "GLPK simplex failed (code %d)", rc);
    }
    lp->warm = 1;
    int status = glp_get_status(lp->P);
    lp->relax = status == GLP_OPT ? glp_get_obj_val(lp->P) : NAN;
    if (status == GLP_NOFEAS || status == GLP_INFEAS) {
        *res = CT_LP_INFEASIBLE;
        UNGUARD();
        return CT_OK;
    }
    if (status == GLP_UNBND) {
        *res = CT_LP_UNBOUNDED;
        UNGUARD();
        return CT_OK;
    }
    if (status != GLP_OPT) {
        UNGUARD();
        return ct_error_set(err, CT_ESOLVER, "GLPK simplex ended without an optimum (status %d)", status);
    }
    if (lp->is_mip) {
        glp_iocp ip;
        glp_init_iocp(&ip);
        ip.msg_lev = GLP_MSG_OFF;
        if (lp->tm_lim > 0)
            ip.tm_lim = lp->tm_lim >= 2e6 ? INT_MAX : (int)ceil(lp->tm_lim * 1000.0);
        rc = glp_intopt(lp->P, &ip);
        if (rc == GLP_ETMLIM) {
            /* Stopped by the limit: an incumbent if one was found, else none. */
            status = glp_mip_status(lp->P);
            *obj = status == GLP_FEAS || status == GLP_OPT ? glp_mip_obj_val(lp->P) : NAN;
            if (x)
                for (size_t c = 0; c < lp->cols; c++)
                    x[c] = isnan(*obj) ? NAN : glp_mip_col_val(lp->P, (int)c + 1);
            *res = CT_LP_TIME_LIMIT;
            UNGUARD();
            return CT_OK;
        }
        if (rc == GLP_ENOPFS) {
            *res = CT_LP_INFEASIBLE;
            UNGUARD();
            return CT_OK;
        }
        if (rc != 0) {
            UNGUARD();
            return ct_error_set(err, CT_ESOLVER, "GLPK branch-and-cut failed (code %d)", rc);
        }
        status = glp_mip_status(lp->P);
        if (status == GLP_NOFEAS) {
            *res = CT_LP_INFEASIBLE;
            UNGUARD();
            return CT_OK;
        }
        if (status != GLP_OPT) {
            UNGUARD();
            return ct_error_set(err, CT_ESOLVER, "GLPK branch-and-cut ended without an optimum (status %d)", status);
        }
        *obj = glp_mip_obj_val(lp->P);
        if (x)
            for (size_t c = 0; c < lp->cols; c++)
                x[c] = glp_mip_col_val(lp->P, (int)c + 1);
    } else {
        *obj = glp_get_obj_val(lp->P);
        if (x)
            for (size_t c = 0; c < lp->cols; c++)
                x[c] = glp_get_col_prim(lp->P, (int)c + 1);
    }
    *res = CT_LP_OPTIMAL;
    UNGUARD();
    return CT_OK;
}

void ct_lp_set_time_limit(ct_lp_t *lp, double seconds)
{
    lp->tm_lim = seconds > 0 ? seconds : 0;
}

double ct_lp_relaxation(const ct_lp_t *lp)
{
    return lp->relax;
}

double ct_lp_row_dual(const ct_lp_t *lp, size_t r)
{
    return r < lp->rows ? glp_get_row_dual(lp->P, (int)r + 1) : 0.0;
}
