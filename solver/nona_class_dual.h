/*
 * nona_class_dual.h - the class dual bound of a box of waits (not
 * installed; see nona_class_dual.c for the method).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_CLASS_DUAL_H
#define CT_NONA_CLASS_DUAL_H

#include "ct_nona.h"
#include "ct_parallel.h"

#include <stdint.h>

/* One state of a class's pass over its segments: the open piece o, the
 * Lagrangian cost so far c, and where it came from (the triplet and the
 * previous segment's state) for the backtrack, which also adds up the
 * path's closed pieces' squares and link load. */
typedef struct {
    double o, c;
    uint32_t w, from;
} ct_class_dual_state_t;

/* One pass's scratch: a piece of a team run has its own. */
typedef struct {
    ct_class_dual_state_t *cur, *next, *next2; /* a segment's states; the next one's fronts (next_cap each) */
    size_t next_cap;
    uint32_t *pick, *from;  /* per (segment of the class, state): the kept states' triplet and parent */
    int capped;             /* a class of this piece merged states */
    ct_status_t st;         /* its classes' outcome (a run's pieces cannot fail on their own) */
    ct_error_t err;
} ct_class_dual_scratch_t;

/* The workspace, kept across boxes (ct_class_dual_alloc / _free). */
typedef struct {
    const ct_nona_model_t *m;
    double *cost;           /* per column: beta M(p0, w0) of the box being bounded, or a lower bound of it
                               (exact[w] = 0: the largest branch's mean, until a pass picks the column) */
    unsigned char *exact;
    size_t *chosen;         /* per block: the last pass's minimiser's column */
    double *cv, *cl, *cp;   /* per class: the last pass's minimum, link load and pieces (one allocation) */
    size_t n_alloc;         /* columns cost, row1 and exact have room for */
    double *row1;           /* per column: beta (a2 + 2 p1 a1) */
    size_t cap;             /* states kept per segment */
    size_t *order;          /* per block from var_start: its closing columns by tail, then the others */
    size_t *n_close;        /* per block: its closing columns */
    size_t ordered;         /* n_vars when order and line were built (0: not yet) */
    double *line;           /* per column: a, n, c of one branch line a + n phi + c W_part (M's bound) */
    size_t max_blocks;      /* most segments of a class */
    ct_class_dual_scratch_t *sc; /* n_sc scratches: one per piece of a team run (sc[0] alone without) */
    size_t n_sc;
    ct_team_t *team;        /* borrowed, set by the caller (NULL: passes in this thread); the passes'
                             * results do not depend on it */
    size_t team_classes;    /* classes from which a pass runs on the team (CT_CLASS_DUAL_TEAM_CLASSES
                             * after alloc; the tests lower it) */
    int capped;             /* the last pass merged states (its value is still a bound; its config
                               and slopes approximate) */
    size_t evals;           /* passes so far (statistics) */
} ct_class_dual_t;

/* Classes from which a pass is worth a team run (a class's pass takes
 * microseconds, a run a few). */
#define CT_CLASS_DUAL_TEAM_CLASSES 64

/* 1 when the bound applies to model m: the server model with job-first
 * waits (W >= the pieces' m2_s). O(1). */
int ct_class_dual_applies(const ct_nona_model_t *m);

/* Allocates the workspace for model m (its columns may grow later:
 * ct_class_dual_bound reallocates). NULL when out of memory. */
ct_class_dual_t *ct_class_dual_alloc(const ct_nona_model_t *m);
void ct_class_dual_free(ct_class_dual_t *d);

/* A lower bound on J over every theta whose waits lie in the box
 * [p0, p1] x [w0, w1], from the Lagrangian of the link row and the pieces'
 * server row over each class's pure placements (see nona_class_dual.c),
 * its multipliers searched from the hint (y1: per unit of sum beta (a2 +
 * 2 p1 a1) theta; g: per unit of the pieces' m2_s, the root waits' part
 * included), until the bound reaches `target` or stops rising. *bound in J
 * units (-INFINITY when no pass ran); *y2 the server row's own multiplier
 * at the best point (J per unit of m2_s, >= 0: what lowering w1 adds),
 * *y1_at and *g_at that point (a neighbouring box's hint);
 * theta (may be NULL): the placement that minimises the Lagrangian there,
 * every segment on one triplet. O(passes x columns x states). */
ct_status_t ct_class_dual_bound(ct_class_dual_t *d, double p0, double w0, double p1, double w1, double y1_hint,
                                double g_hint, double target, double *bound, double *y2, double *y1_at,
                                double *g_at, double *theta, ct_error_t *err);

#endif
