/*
 * nona_wait_lp.h - the Nona wait LP at fixed waits, as the exact solver's
 * search uses it (not installed; see nona_wait_lp.c for the method).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_WAIT_LP_H
#define CT_NONA_WAIT_LP_H

#include "ct_block_lp.h"
#include "ct_lp.h"
#include "ct_nona.h"
#include "ct_nona_solve.h"
#include "ct_parallel.h"

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
    double last_po, last_v; /* and its objective's link wait and its value there (J units; block solver) */
    double constant;        /* sum_j beta_j base_j */
    double root_c;          /* the root waits' part that theta moves, per unit of av2 (scaled; 0: link
                             * model, or root_corner) */
    int root_corner;        /* 1: the root waits at the objective's wo (a box's other bound) instead */
    double rel_tol;         /* block solver: the two-row search may end this close to the LP's optimum
                             * (relative; 0, as set by init: exact); value, theta and bound stay valid */
    double beta_sum;
    size_t solves;
    /* The block solver works on a restricted problem (column generation at
     * fixed waits) over the stream entries below (the columns pricing must
     * see): block b's are kcol[kstart[b] .. kstart[b + 1]), in column
     * order, entry j for column kcol[j]. The link model leaves out the
     * columns another of its block dominates, as far as a sweep looks
     * (loads and branch lines no smaller: never cheaper, at any waits and
     * multipliers, so the LP's optimum, its Lagrangian bound and the
     * interval bound keep their values); the server model keeps them all. Block b's active entries
     * are act[kstart[b] + i], i < n_act[b], in increasing order, the
     * all-local column always among them (so row 1 is always met). A solve
     * prices every other entry against its block's least reduced cost
     * (first a bound without exponentials, then exactly) and adds the
     * cheapest that prices out, until none does: then the restricted
     * optimum is the full LP's, and its bound is over every column. The
     * active sets persist from solve to solve. ac, av1, av2, ax, astart:
     * the compact problem; cstamp[j] == stamp when kc[j] and tm[j] are this
     * solve's. */
    size_t *kcol, *kstart;
    size_t *act, *n_act, *astart, *cstamp, stamp;
    unsigned char *on;      /* on[j]: entry j is active */
    double *ac, *av1, *av2, *ax;
    double *tm, *kc;        /* tm[j]: M at this solve's objective waits; kc[j]: the scaled objective */
    double *mc;             /* mc[3 j ..]: entry j's last exact M and its (phi, W) in this search, a
                             * lower bound at waits no smaller (mc_check; phi = INFINITY: none) */
    double mc_key[3];       /* r_part, p_wait, rho_s when mc was filled (NAN: to be reset) */
    int mc_on;              /* mc is read (not with spread waits) */
    /* Pricing's first screen, one stream per term (memory-bound, so in
     * floats rounded down: the screen stays a lower bound), entry j:
     * its loads (beta a1, beta a2, beta q / N) and two branches' means
     * la + ln phi + r W_part, each <= M (r: lr[2 j], lr[2 j + 1] in
     * eighths): tight at the bottom and at the top of the search range
     * (screen_branches) */
    float *sa1, *sa2, *sq, *la, *ln, *la2, *ln2;
    unsigned char *lr;
    /* The same screen for runs of CT_WAIT_CHUNK entries of a block (block
     * b's runs from chstart[b]; the last one may be shorter): each stream's
     * least value over the run, 6 per run in cmin (la, ln, la2, ln2, sa1,
     * sa2) and csq (sq, swapped with the server row as sq is), so a run
     * whose least terms already lose is skipped whole */
    size_t *chstart;
    float *cmin, *csq, *csq_alt;
    /* The pricing memory's bound per run: over its entries with an mc,
     * the least M and the largest phi and W it was priced at (rmc; INFINITY
     * and -INFINITY: none has one), and over those without, the least la,
     * ln, la2, ln2 (ucmin, 4 a run; INFINITY: none), so a run whose every
     * entry already loses, by its memory or by its screen, is skipped
     * whole before its entries' streams are read. Recomputed after each
     * pass for the runs whose entries it wrote (rdirty, rlist: n_rdirty of
     * them). */
    double *rmc;
    float *ucmin;
    unsigned char *rdirty;
    size_t *rlist, n_rdirty;
    double *bbeta, *bshare; /* per block: its class's beta, beta / beta_sum */
    double inv_t;           /* 1 / tscale */
    double y2_last;         /* the last solve's row-2 multiplier in model units: the next one's hint */
    double *bmin;           /* per block, 6 entries: the least la, ln, lr, sa1, sa2, sq over
                             * its columns but all-local (a screen for the whole block) */
    /* The active columns packed in block order (astart: the blocks'
     * offsets), with copies of their triplets and branches so that a
     * solve's pass over them streams through memory: dcol[k] the column,
     * dinfo[k] its triplet (branch_start into dbr), dM[k] its M at this
     * solve's (po, wo). Rebuilt when columns are added (dense_stale). */
    size_t *dcol, n_dense, dstamp;
    ct_tripinfo_t *dinfo;
    ct_branch_t *dbr;
    double *dM;
    int dense_stale, packed; /* packed: astart/dcol/dinfo/dbr/dM hold a packing */
    size_t *dcol2, *astart2; /* the spare buffers the next packing fills */
    ct_tripinfo_t *dinfo2;
    ct_branch_t *dbr2;
    double *dM2;
    size_t *cand, *cand_b, *pbest; /* pricing: the screen's survivors, their blocks; per block */
    double *cand_lin, *pu, *ptmin, *pbest_rc;
    double *cand_rc;        /* pass 2, per survivor: its reduced cost (where cand_how says it was priced) */
    unsigned char *cand_how; /* pass 2, per survivor: CAND_* (nona_wait_lp.c), written by its piece */
    double a1max, a2max;    /* max beta a1, max beta a2: bound row 1's scale */
    double qmax;            /* max |row 2 coefficient| */
    int row_linear;         /* 1: the server row is the linearised one (q, m2s_local) whatever the model's
                             * cut; 0 (default): the model's (qr, m2s_row) */
    float *sq_alt;          /* the other row's screens (sq, bmin's entry 5 per block, qmax), swapped in
                             * by ct_wait_lp_use_row (allocated at its first switch) */
    double *bmin_alt, qmax_alt;
    double *ib;             /* ct_wait_lp_interval_bound's per-block minima (4 per block; allocated there) */
    /* A solve's first pricing pass runs in pieces (SCREEN_PIECES per
     * thread) on a team when the stream has team_min entries or more, and
     * its second where it has price_team_min survivors or more; the
     * candidates and columns added are the same for any number of threads. */
    unsigned threads;       /* set by the caller after init (0, 1: this thread alone) */
    size_t team_min;        /* CT_WAIT_TEAM_MIN after init (the tests lower it) */
    size_t price_team_min;  /* pass 2 runs in pieces on the team from this many survivors, pieces of at
                             * least price_piece_min (CT_WAIT_PRICE_TEAM_MIN, CT_WAIT_PRICE_PIECE_MIN after
                             * init; the tests lower them); the survivors' results are the same either way */
    size_t price_piece_min;
    size_t price_team_runs; /* pass 2 runs in pieces on the team since ct_wait_lp_init */
    ct_team_t *team;        /* started at the first long pass (at most CT_WAIT_TEAM_MAX threads); owned */
    unsigned char *pskip;   /* per block: its whole-block screen loses at this pass's multipliers */
    size_t *pfirst, *pcount; /* per piece: its survivors' first slot in cand and their count */
    size_t *pmem;           /* per piece: its runs skipped by their memory bound (rmc, ucmin) */
    size_t mem_skips;       /* runs skipped by their memory bound since ct_wait_lp_init */
} ct_wait_lp_t;

/* Stream entries from which a pricing pass is worth a team: a pass reads
 * about 5 ns an entry it does not skip, a team run costs a few us. */
#define CT_WAIT_TEAM_MIN 16384
/* Pricing's second pass on the team from this many survivors (each costs
 * a bound and most an M, 0.1-0.3 us; a team run a few us), in pieces of at
 * least CT_WAIT_PRICE_PIECE_MIN of them. */
#define CT_WAIT_PRICE_TEAM_MIN 256
#define CT_WAIT_PRICE_PIECE_MIN 64
#define CT_WAIT_TEAM_MAX 64

/* Entries per run of the pricing screen's run minima (ct_wait_lp_t.cmin). */
#define CT_WAIT_CHUNK 32

/* Sets up the LP for model m with the block solver or GLPK; *s is then
 * freed with ct_wait_lp_free (also after a failure; it also takes a
 * zeroed one). O(columns). */
ct_status_t ct_wait_lp_init(ct_wait_lp_t *s, const ct_nona_model_t *m, ct_nona_lp_t which, ct_error_t *err);
/* After ct_nona_model_set_server_row changed the model's server row: the
 * block solver's copies of it (screens, packed columns, scales) follow.
 * O(columns). */
void ct_wait_lp_refresh_row(ct_wait_lp_t *s);
/* Block solver: the server row the next solves use, the linearised one
 * (linear = 1) or the model's (0: its cut, or the linearised one when it
 * took none). Both are lower bounds of m2_s, so every bound stays one.
 * O(blocks) (O(columns) the first time). */
void ct_wait_lp_use_row(ct_wait_lp_t *s, int linear);
/* m2_s by the linearised row (linear = 1) or the model's at the block
 * solver's last solution. O(active columns). */
double ct_wait_lp_row_at(const ct_wait_lp_t *s, int linear);
void ct_wait_lp_free(ct_wait_lp_t *s);

/* Solves the LP with the objective at (po, wo) and the rows at (pr, wr).
 * *feasible = 0 when no theta has waits <= (pr, wr). Otherwise *value is
 * its objective at (po, wo) in J units (the root waits at theta's own W), *bound
 * (may be NULL) the Lagrangian lower bound in J units, and theta (may be
 * NULL) the cleaned minimiser; the block solver keeps it packed as well
 * (ct_wait_lp_theta, _is, _J, _spread read it). */
ct_status_t ct_wait_lp_solve(ct_wait_lp_t *s, double po, double wo, double pr, double wr, int *feasible,
                             double *value, double *bound, double *theta, ct_error_t *err);

/* The least server wait W(theta) over the thetas whose link wait is at
 * most pr (block solver, server model): min sum beta q theta s.t. the
 * link row at pr, by column generation over every column. *W = INFINITY
 * when no theta meets the link row. Each round is O(columns). */
ct_status_t ct_wait_lp_least_wait(ct_wait_lp_t *s, double pr, double *W, ct_error_t *err);

/* An interval of link waits for ct_wait_lp_interval_bound: ya, yb the
 * link multipliers (model units, >= 0) of the LPs solved at pa and pb
 * (objective and row there); La the Lagrangian bound of the one at pa (J
 * units), or NAN when it was not solved (infeasible: ya is then any
 * value >= 0, e.g. yb). */
#define CT_WAIT_INTERVALS 2 /* the most intervals one ct_wait_lp_interval_bound pass takes */
typedef struct {
    double pa, pb, ya, yb, La;
} ct_wait_interval_t;

/* Link model: bound[i], a lower bound on J over every theta whose link
 * wait lies in interval i (n = 1 or 2, computed in one pass). Lagrangian
 * relaxation of the link row with the multiplier moving linearly from ya
 * to yb and phi left free in [pa, pb]: each triplet's M is replaced by one
 * of its branch lines (exact on the interval when its longest branch does
 * not change inside) and the multiplier's quadratic terms that are >= 0
 * are dropped, so every column's term is concave in phi and the bound is
 * the lower of its values at the ends. Valid for any multipliers >= 0;
 * with the LPs' own it is exact to second order in pb - pa where no
 * positive triplet's longest branch changes inside (the box bound of
 * ct_wait_lp_solve at a box's corners loses first order). One pass over
 * every column (screened from the pricing streams; GLPK's path: exactly). */
ct_status_t ct_wait_lp_interval_bound(ct_wait_lp_t *s, size_t n, const ct_wait_interval_t *iv, double *bound,
                                      ct_error_t *err);

/* The last solve's multipliers in model units: *y1 per unit of
 * a2 + 2 phi a1, *y2 per unit of q / N. *y2 is row 2's own multiplier
 * plus the root waits' rate B r_root / (2 (1 - rho_s)) (the objective's
 * root term rides on q too): with it, M + y1 (a2 + 2 pr a1) + y2 q / N
 * prices a column. */
void ct_wait_lp_multipliers(const ct_wait_lp_t *s, double *y1, double *y2);

/* Row 2's own multiplier from the last solve, in model units (J per unit
 * of sum beta q theta / N). */
double ct_wait_lp_row2_multiplier(const ct_wait_lp_t *s);


/* Block solver only, after a feasible solve: its solution as a full theta
 * (O(columns)); 1 if it equals theta; its J (exact = 1) or a lower bound
 * on it without exponentials (exact = 0), from the packed copies. */
void ct_wait_lp_theta(const ct_wait_lp_t *s, double *theta);
int ct_wait_lp_is(const ct_wait_lp_t *s, const double *theta);
double ct_wait_lp_J(const ct_wait_lp_t *s, int exact);
/* ct_wait_lp_J in two steps, so that both J's share one computation of the
 * solution's waits (the pieces' second moment takes a pass over every
 * class): its waits (0 when the link is overloaded: J = inf), then J at
 * them. O(active columns). */
int ct_wait_lp_waits(const ct_wait_lp_t *s, double *phi, double *W);
double ct_wait_lp_J_at(const ct_wait_lp_t *s, double phi, double W, int exact);

/* Block solver, link model, after a feasible solve: a lower bound on
 * ct_wait_lp_J(s, 1) from the packed loads alone (no branch is read).
 * The LP's value is sum beta M_w(po) theta_w at its objective's wait po;
 * each M_w = max of branch lines whose slopes (transfers on a branch)
 * are at most its crossing edges, so at the solution's own wait phi
 *   J >= value - (po - phi)^+ sum beta theta_w n_crossing_w,
 * equal to J (to round-off) where the link row binds (phi = po).
 * -INFINITY with the server model (M depends on W too). O(active columns). */
double ct_wait_lp_J_floor(const ct_wait_lp_t *s);

/* What moving phi from p0 to p1, then W from w0 to w1, adds to the
 * objective at the last solve's solution (theta: that solution, read by
 * the GLPK path only). */
void ct_wait_lp_spread(const ct_wait_lp_t *s, const double *theta, double p0, double p1, double w0, double w1,
                       double *dphi, double *dW);

#endif
