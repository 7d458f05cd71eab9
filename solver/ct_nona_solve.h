/*
 * ct_nona_solve.h - solvers for Nona's placement problem: choose theta (a
 * distribution over triplets per class and segment) minimising
 * J(theta) = sum_j beta_j tau_j (see ct_nona.h).
 *
 * exact (spec s.7 and s.11): for fixed waits (phi on the link, W at the
 *   servers) the problem is an LP with two wait rows, solved by the block
 *   LP solver (or GLPK, params.lp); J* = min over
 *   (phi, W) of its value. A best-first branch-and-bound over boxes of
 *   (phi, W) proves the answer: for a box, the LP with branch times at its
 *   lower corner and wait rows at its upper corner bounds from below every
 *   theta whose waits lie in the box; the bound is computed from the LP's
 *   duals as a Lagrangian value (valid for any multipliers, so GLPK's
 *   tolerances cannot make it too high). Every LP's theta, evaluated
 *   exactly, is a candidate; boxes whose bound reaches the incumbent are
 *   pruned; the search stops at relative gap <= params.gap (default 1e-9)
 *   or after params.max_lps LPs, and reports the gap it proved. With the
 *   link model (one wait, phi) and every segment enumerated, the search is
 *   over points instead (params.point_search): LPs at points of phi, each
 *   interval between two bounded by a Lagrangian whose multiplier moves
 *   linearly between the two LPs' (exact to second order in the interval's
 *   width, where the box bound loses first order), split at the kinks of
 *   the incumbent's branch times.
 * grid (the 1-D search of earlier versions, link-only model): a phi grid,
 *   GSL Brent on the best cell, polish; no certificate. Kept for benchmarks.
 * penalty (the paper's approach, as a baseline): theta = softmax(x) per
 *   block, J plus a quadratic penalty on rho >= 1, minimised by GSL's BFGS
 *   from several starts (uniform, all-local, random).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_SOLVE_H
#define CT_NONA_SOLVE_H

#include "ct_nona.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CT_NONA_EXACT, CT_NONA_PENALTY, CT_NONA_GRID } ct_nona_method_t;

/** The LP at fixed waits: the block solver (ct_block_lp.h: exact, shaped
 *  like the problem, the default) or GLPK's general simplex (the reference,
 *  and the place for extra constraints). */
typedef enum { CT_NONA_LP_BLOCK, CT_NONA_LP_GLPK } ct_nona_lp_t;

/** The wait LP's server row with job-first waits (see
 *  ct_nona_model_set_server_row): the pieces cut, the linearised row, or
 *  (auto, the default) the cut with merged visits and the linearised row
 *  otherwise. */
typedef enum { CT_NONA_ROW_PIECES, CT_NONA_ROW_LINEAR, CT_NONA_ROW_AUTO } ct_nona_row_t;

/** What an exact solve reports as it goes (ct_nona_solve_params_t's
 *  progress): after a search's first LPs and after each of its steps (a
 *  split: one LP in the point search, up to four in the box search). A
 *  solve runs one search, or several: per root-share iteration, and with
 *  column generation per round whose new triplets the table at its own
 *  waits does not settle (the LPs of those re-solves are the solution's
 *  lp_solves but no search's). */
typedef struct {
    size_t search;          /**< the searches this solve has started, from 1 */
    size_t lps;             /**< LPs of the current search so far */
    size_t max_lps;         /**< its budget (params.max_lps) */
    double mean_jct;        /**< the incumbent's predicted mean JCT, s */
    double gap;             /**< the gap proven so far, (J - least open bound) / J (>= the final one) */
} ct_nona_progress_t;

/* The default of ct_nona_solve_params_t.stall_lps: 125 since 2026-11-30
 * (250 from 2026-11-29, 1000 from 2026-11-27: `--stall 250`, `--stall
 * 1000`). A search that stalls ends after twice this many LPs: issue #27's
 * mixed fleet solves in 0.024 / 0.26 / 3.7 s at 10 / 100 / 1000 classes
 * against 0.032 / 0.48 / 6.5 s with 250, the same tables; on the families
 * the documentation quotes 24 of 360 layered points get other tables (10
 * better by the model, by up to 12%, 14 worse, by at most 0.44%), every
 * other point keeps its own (docs/nona-model.md, "Stalls"). */
#define CT_NONA_STALL_LPS 125

/** Large models: CT_NONA_LARGE_BLOCKS blocks (classes x segments) or
 *  more, whose LPs cost milliseconds each (issue #27's 1000-class fleet:
 *  about 10 ms). Pilot searches (params.pilot_lps) and the stall rule's
 *  large-model checks (params.stall_lps_large) apply from there. */
#define CT_NONA_LARGE_BLOCKS 1000

/** The stall rule on large models (params.stall_lps_large, since
 *  2026-12-01; 0: stall_lps there too, the rule before, `--stall-large
 *  0`): the first check comes after this many LPs, where stall_lps is
 *  larger. On issue #27's mixed fleet a search finds its table in its
 *  first 40 LPs or so and the rest proves the bound, which approaches the
 *  relaxation's floor (a gap of about 10% that more LPs do not pass); with
 *  the checks at 32 and 64 LPs instead of 125 and 250 the 20-scale lookup
 *  (`-j 2`) took 40 s instead of 76 s at 1000 classes and 2.8 s instead
 *  of 5.2 s at 100, the same table at 15 and 19 of 20 scales, 4 worse by
 *  up to 0.56% (scale 1.0) and 1 better by 0.1% at 1000 classes, 1 worse
 *  by 1.2e-4 at 100, every one within its certified gap. On small models
 *  (the 10-class fleet: 3 of 20 tables up to 0.78% worse) the LPs cost
 *  little, hence the threshold. */
#define CT_NONA_STALL_LPS_LARGE 32

/** The stall rule's levels. params.stall_close (since 2026-11-30; 0.1
 *  before, `--stall-close 0.1`): at each check (at stall_lps LPs, then at
 *  every doubling) a search whose gap closed less than a quarter since the
 *  last one stops (boxes that only get narrower close it by half, or at
 *  worst 29%, per doubling: closing less, the search approaches the
 *  relaxation's floor). On issue #27's mixed fleet at 100 classes the
 *  20-scale lookup solves in 8.0 s instead of 14.2 s, the same table at
 *  every scale (low loads spent 2,000-6,000 LPs closing a gap of 1-3%
 *  10-25% per doubling); on the layered family of `sim check`'s seed 2000
 *  8 of 120 tables change, 0.02% better by the model (geometric mean).
 *  params.stall_gap (default 0: an option): a gap within this share of J
 *  is enough at a check. 0.01 (with a tenth per doubling) took the random
 *  family of `bench_nona_family` from 6.7 s to 5.5 s but moved 31 of the
 *  seed-2000 family's 120 tables, 0.08% worse (up to 2.5%), and with the
 *  quarter left the lookup as it was (docs/nona-model.md, "Stalls"). */
#define CT_NONA_STALL_GAP 0.0
#define CT_NONA_STALL_CLOSE 0.25

/** Pilot searches (params.pilot_lps, since 2026-12-01; 0 the rule before,
 *  `--pilot 0`): on a model of CT_NONA_PILOT_BLOCKS blocks (classes x
 *  segments) or more, once the root shares' fixed point has reversed, each
 *  search until the shares settle gets this many LPs (a quarter of the
 *  stall rule's), then one full search at the settled shares. On issue
 *  #27's mixed fleet of 1000 classes the searches of a scale whose shares
 *  swing between a split table and all-local stall at about 250 LPs each:
 *  the 20-scale lookup (`-j 2`) took 68 s instead of 90 s, scale 1.6 10.5 s
 *  instead of 22.6 s, 19 of 20 tables the same and scale 1.5's 0.1% better
 *  by the model. On small models a pilot's table steers the shares less
 *  well (the layered family of `sim check`'s seed 2000: 17 of 120 tables
 *  changed, 7 worse by up to 2.4%, 10 better by up to 1.4%, and no faster),
 *  hence the threshold. */
#define CT_NONA_PILOT_LPS 31
#define CT_NONA_PILOT_BLOCKS CT_NONA_LARGE_BLOCKS

/** The pilots while the shares swing (params.swing_lps, since 2026-12-02,
 *  late; 0 the rule before, `--pilot-swing 0`: params.pilot_lps): on the
 *  same models, once the shares have reversed, each search until they
 *  settle gets this many LPs; the first search keeps params.pilot_lps
 *  (its table sets the shares the rest start from). A pilot there only
 *  tells which side a share sends the table to. On issue #27's 1000-class
 *  fleet at 1.45-1.65x its rates (the scales whose shares swing between a
 *  split table and all-local): 300 / 353 / 405 / 301 LPs against 405 /
 *  449 / 398 / 409 at 1.5 / 1.6 / 1.45 / 1.65x, the tables the same or
 *  better by the model (1.5x 0.59%, 1.45x 0.76%); its 20-scale lookup
 *  23.2 s against 24.8 s, 19 of 20 tables the same and 1.5 better; the
 *  100-class fleet's lookups at 10 and 100 Gbps and the 1000-class one's
 *  at 100 Gbps the same tables. 12 LPs took more searches (about 590 LPs
 *  at 1.5x), 24 a worse table there (docs/nona-model.md, "Pooled roots"). */
#define CT_NONA_SWING_LPS 16

/** The first search a pilot too (params.pilot_first, since 2026-12-01,
 *  late; 0 the rule before, `--pilot-first 0`): on a model of
 *  CT_NONA_PILOT_BLOCKS blocks or more whose shares are iterated, the
 *  first search, at the start shares (root share 1, later share 0), only
 *  steers the shares (its bound stands in only where they do not settle),
 *  and finds its table within a pilot's LPs (issue #27's 1000-class fleet:
 *  at LP 30 of 69); it gets params.pilot_lps. A share that settles after
 *  it is searched again in full, as after the tenth. On the fleet the
 *  20-scale lookup (`-j 2`) took 36 s instead of 47 s and the solve at
 *  its rates 105 LPs instead of 140 (x0.76 the time), the same table; 13
 *  of 20 tables the same to 1e-5, scale 1.5's 0.69% worse and 0.3's 0.17%
 *  worse by the model, within their gaps (docs/nona-model.md, "Pooled
 *  roots"). */
#define CT_NONA_PILOT_FIRST 1

/** A split box's halves bounded side by side on large models
 *  (params.box_pairs, since 2026-12-02; 0 the rule before, `--box-pairs
 *  0`): on CT_NONA_LARGE_BLOCKS blocks or more the box search bounds the
 *  two halves of the box it splits each on its own wait LP, from the search
 *  as it stood, and merges their incumbents and boxes after both, the lower
 *  half's first; on two threads when the solve has them (the LPs there
 *  cost milliseconds and leave the second core idle: the LP's own team
 *  gains nothing at that size). The same search on any number of threads,
 *  not the same as one half after the other: tables move within their
 *  gaps (issue #27's 1000-class fleet's 20-scale lookup: geometric mean
 *  +0.009% by the model, 100 classes -0.007%). Its solves at 0.5-1.5x its
 *  rates on two cores 12.6 s in all against 15.5 s (at 1.0 2.6 s against
 *  2.2 s: a third search; docs/nona-model.md, "Stalls"). */
#define CT_NONA_BOX_PAIRS 1

/** Each search of the shares' fixed point from the last one's table on
 *  large models (params.search_warm, since 2026-12-02; 0 the rule before,
 *  `--search-warm 0`): on CT_NONA_LARGE_BLOCKS blocks or more, until the
 *  shares first reverse, a search after a move of the shares takes the
 *  last search's table (polished at the new shares) as its incumbent
 *  before its first box, instead of all-local's. A better table at the
 *  new shares settles them sooner (issue #27's 1000-class fleet at its
 *  rates: two searches of 102 LPs instead of three of 170, 1.6 s against
 *  2.7 s, J 0.37% lower); the search stops by the stall rule, not at its
 *  gap, so its table moves within the gap, either way (the fleet's
 *  20-scale lookup: geometric mean +0.07% by the model, the worst scale
 *  +1.2%). Once the shares swing, each side's table would steer the other
 *  side's search: none is warm then. Smaller models: a search there is
 *  cheap and the tables moved more (the 10-class fleet's lookup up to
 *  +1.05%, no faster). */
#define CT_NONA_SEARCH_WARM 1

/** The stall rule's enough-gap on large models (params.stall_gap_large,
 *  since 2026-12-01, late; 0: stall_gap there too, the rule before,
 *  `--stall-gap-large 0`): on CT_NONA_LARGE_BLOCKS blocks or more a search
 *  whose gap is within this share of J at a check stops. At 10 ms an LP a
 *  search there that still closes its gap by a quarter per doubling spends
 *  seconds on the last fraction of a percent (the fleet's lookup at scale
 *  0.1: 586 LPs, 7.2 s, from 0.72% to 0.43%, the same table). Smaller
 *  models keep stall_gap (0: a gap within 1% moved tables there by up to
 *  2.5%). */
#define CT_NONA_STALL_GAP_LARGE 0.01

/** The default spread gap (params.spread_gap): a round of column
 *  generation that finds nothing at a search's waits while the triplets
 *  never generated could still save more than 1% of J prices once more at
 *  a spread of waits. Since 2026-11-28: it finds the splits that pay only
 *  when every job splits (stateless tables that lost to random on layered
 *  DAGs win with it, docs/baselines.md) for x1.2-1.5 the solve time on the
 *  generated families; 0 (never), the default before. 0.007 since
 *  2026-11-30 (night), 0.01 before: pricing's bound then took the waits,
 *  whole tasks and the link's components, so the same segments report
 *  column gaps 4-70% smaller; 0.007 keeps every bench_nona_family table,
 *  at 0.01 seed 14 stopped 0.16% worse. */
#define CT_NONA_SPREAD_GAP 0.007

/** The default chase (params.chase): after a search that left its gap
 *  open (stalled at the wait LP's floor, or at its budget), a round of
 *  column generation adds its new triplets, and so brings on another
 *  search, only if what they could lower the LP's Lagrangian by (at each
 *  pricing point's multipliers, the most one find undercuts its segment's
 *  columns, summed over segments with the class's rate) is at least this
 *  share of the open gap, the gap taken as at most 1e-3 of J; smaller
 *  savings stay in the column gap the solve reports (after a search of
 *  the shares' tenth that its budget stopped every find is taken: another
 *  search follows anyway). Since 2026-11-30:
 *  on the random family of `bench_nona_family` 7.9-8.0 s in all instead
 *  of 9.5 s, seed 14 1.6 s instead of 3.1 s (6 searches instead of 16),
 *  three tables 2e-5 to 2e-4 of J worse by the model and one 6e-5 better
 *  (docs/nona-model.md, "Rounds"); 0: every find is added (the rule
 *  before). */
#define CT_NONA_CHASE 0.5

/** Solver options; fill with ct_nona_solve_params_init(). */
typedef struct {
    ct_nona_method_t method;
    double gap;             /**< exact: stop at this relative gap (default 1e-9; 0 .. 0.5) */
    size_t max_lps;         /**< exact: give up a search after this many LPs, reporting the gap (default 20000;
                                 >= 1; the root share's searches get a tenth while the share moves) */
    size_t stall_lps;       /**< exact, box search: from this many LPs on, stop a search whose gap closed
                                 less than stall_close since it had half its LPs (narrower boxes close it
                                 by half or at worst 29% per doubling: a floor of the relaxation, which
                                 more LPs approach but do not pass) or is within stall_gap of J, reporting
                                 the gap (default CT_NONA_STALL_LPS; 0: never, the earlier search) */
    double stall_gap;       /**< the stall rule: at a check, a gap within this share of J is enough
                                 (default CT_NONA_STALL_GAP, 0: none; 0 .. 0.5) */
    double stall_close;     /**< the stall rule: the share of its gap a search must close per doubling
                                 of its LPs to go on (default CT_NONA_STALL_CLOSE; 0 .. 1; 0.1 the rule
                                 before) */
    size_t stall_lps_large; /**< exact, box search, on CT_NONA_LARGE_BLOCKS blocks or more: the stall rule's
                                 first check at this many LPs where stall_lps is larger (default
                                 CT_NONA_STALL_LPS_LARGE; 0: stall_lps there too, the rule before) */
    size_t pilot_lps;       /**< exact, with a root-share fixed point on CT_NONA_PILOT_BLOCKS blocks or more:
                                 the LPs of each search after the shares first reverse, until they settle
                                 (default CT_NONA_PILOT_LPS; 0: the tenth of max_lps, the rule before) */
    size_t swing_lps;       /**< exact, the same models: the LPs of each search after the shares first reverse,
                                 until they settle, where smaller than pilot_lps (default CT_NONA_SWING_LPS;
                                 0: pilot_lps, the rule before) */
    int pilot_first;        /**< 1: with pilot_lps, the first search of the shares' fixed point gets pilot_lps
                                 too, on the same models (default CT_NONA_PILOT_FIRST; 0: the tenth of
                                 max_lps, the rule before) */
    int box_pairs;          /**< 1: on CT_NONA_LARGE_BLOCKS blocks or more the box search bounds a split box's
                                 halves side by side (default CT_NONA_BOX_PAIRS; 0: one after the other on
                                 one LP, the rule before) */
    int search_warm;        /**< 1: on CT_NONA_LARGE_BLOCKS blocks or more each search of the shares' fixed
                                 point, until they reverse, starts from the last one's table (default
                                 CT_NONA_SEARCH_WARM; 0: from all-local's, the rule before) */
    double stall_gap_large; /**< exact, box search, on CT_NONA_LARGE_BLOCKS blocks or more: the stall rule's
                                 enough-gap where stall_gap is smaller (default CT_NONA_STALL_GAP_LARGE;
                                 0 .. 0.5; 0: stall_gap there too, the rule before) */
    double time_limit;      /**< exact: wall-clock seconds for the whole solve (0, the default: none); past
                                 it every search stops as at its LP budget and no further column-generation
                                 round or root-share move starts: the incumbent and the gap proven so far
                                 are the answer (time_limited set) */
    size_t grid;            /**< grid: phi grid points (default 48; 4 .. 100000) */
    size_t max_polish;      /**< exact (its box search), grid: polishing rounds per incumbent (default 50; <= 10000) */
    size_t starts;          /**< penalty: BFGS starts (default 6) */
    size_t max_iter;        /**< penalty: BFGS iterations per start (default 400) */
    unsigned long long seed;/**< penalty: random starts (default 1) */
    double prune;           /**< drop probabilities below this from the result (default 1e-9) */
    ct_nona_lp_t lp;        /**< exact, grid: the LP solver (default CT_NONA_LP_BLOCK) */
    size_t cg_rounds;       /**< generated segments: at most this many rounds of pricing (default 200; >= 1) */
    size_t price_exact;     /**< price a segment exactly when it has at most this many triplets (default 500000) */
    size_t price_evals;     /**< otherwise search, with about this many evaluations per segment and round (default 20000; >= 100) */
    unsigned threads;       /**< exact pricing's streams of a segment's triplets (from 65,536 triplets) run in
                                 this many ranges at once; the results do not depend on it (default 1; 0:
                                 the cores) */
    int price_spread;       /**< 1: search also at a spread of waits, not only the solution's (slower, often better; default 0) */
    double chase;           /**< generated segments: a round's finds after a search whose gap stayed open
                                 are added only if they could save at least chase x that gap (at most
                                 1e-3 of J) (default CT_NONA_CHASE; 0 .. 1; 0: always, the rule before
                                 2026-11-30) */
    double spread_gap;      /**< > 0 (and price_spread 0): a round that finds nothing at a search's waits
                                 while the column gap there is above spread_gap x J prices once more at
                                 the spread of waits (the price_spread points) (default
                                 CT_NONA_SPREAD_GAP; 0.01 before 2026-11-30); 0: never (the default before 2026-11-28) */
    ct_nona_row_t server_row; /**< exact, server model with job-first waits: the wait LP's server row
                                 (ct_nona_model_set_server_row): CT_NONA_ROW_AUTO (default) the pieces
                                 cut with merged visits (reentry_merged), else the linearised row;
                                 CT_NONA_ROW_LINEAR the linearised row; CT_NONA_ROW_PIECES the pieces cut, tuned at the search's
                                 incumbent whenever it moves (tighter certificates where jobs split
                                 several segments, but there it finds splits the model prices too low:
                                 not the default until the model's W for split jobs is right) */
    int class_dual;         /**< exact, box search, server model with job-first waits: 1: once the wait
                                 LP's bounds stop closing the gap (a quarter or less per doubling of LPs),
                                 a box the LP does not prune is bounded again by the class dual
                                 (nona_class_dual.c: the wait rows relaxed with multipliers over each
                                 class's pure placements, W's pieces exact), which has no floor where
                                 jobs split several segments but costs a pass over every column per box;
                                 0 (default): the wait LP alone */
    int point_search;       /**< exact, link model with every segment enumerated: 1 (default) split the phi
                                 range at LPs solved at points, each interval bounded from its ends'
                                 multipliers (exact to second order); 0: the server model's boxes (an LP
                                 per box, bound from its corners: first order) */
    /** exact: called after each step of a search (see ct_nona_progress_t;
     *  NULL, the default: not called); it must not call the solver. The library itself never
     *  prints: the CLI draws a status line from it. */
    void (*progress)(const ct_nona_progress_t *p, void *ctx);
    void *progress_ctx;
} ct_nona_solve_params_t;

void ct_nona_solve_params_init(ct_nona_solve_params_t *p);

/** 1 when an exact solve of model m under p uses the pieces cut as its
 *  server row (CT_NONA_ROW_PIECES, or CT_NONA_ROW_AUTO with merged
 *  visits), 0 for the linearised row. O(1). */
int ct_nona_solve_row_pieces(const ct_nona_model_t *m, const ct_nona_solve_params_t *p);

/** A solution. theta and tau are owned (free with ct_nona_solution_free). */
typedef struct {
    ct_nona_method_t method;
    double *theta;          /**< model->n_vars probabilities */
    double *tau;            /**< per class predicted mean JCT, s */
    ct_nona_eval_t eval;    /**< J, mean JCT, rho, phi at theta */
    double phi_lo, phi_hi;  /**< exact: the bracket searched */
    double W_lo, W_hi;      /**< exact: the server-wait range searched */
    double lower_bound;     /**< exact: proven lower bound on J* (J - bound <= gap J) */
    double gap;             /**< exact: proven relative gap (J - bound) / J; NAN for the others */
    int stalled;            /**< exact: a search stopped at params.stall_lps's rule (the gap had stopped closing,
                                 or was within params.stall_gap of J) */
    int time_limited;       /**< exact: params.time_limit ran out (the gap is what was proven by then) */
    int shares_unsettled;   /**< server model: the shares' fixed point (root, later; with finite sampling
                                 the busy count's dispersion and the held share) did not settle in
                                 its eight moves (two shares whose solutions send each other back): the
                                 solution is the searches' one with the least J at its own shares (the
                                 model is left at them), and the bound is the first search's, at root
                                 share 1 and later share 0, where every wait is least */
    double price_hold;      /**< finite sampling: the prices the last search ran with (its objective adds
                                 price_hold x hold + price_overlap x overlap to every triplet's time;
                                 the model is left with them at 0, eval and gap are the table's J, the
                                 bound the search's less its table's price); 0 otherwise */
    double price_overlap;
    double J_local;         /**< J with every job entirely local */
    size_t lp_solves;       /**< exact: LPs solved; penalty: function evaluations */
    double seconds;         /**< wall time of the solve */
    /* Column generation (models with generated segments; else 0 / NULL). */
    size_t cg_rounds;       /**< 1 + rounds that added triplets (each re-solves the table at its waits;
                                 a search follows only where that does not settle it: docs/nona-model.md) */
    size_t columns_added;   /**< triplets generated beyond the seeds */
    double *segment_gap;    /**< per block (NULL without generated blocks): at the solution's waits and
                                 multipliers, how much lower, at most, its class's mean JCT could be with
                                 every triplet of the segment, s; 0 for enumerated segments and exactly
                                 priced ones */
    double column_gap;      /**< sum over blocks of beta x segment_gap: J units, a bound at these waits */
} ct_nona_solution_t;

void ct_nona_solution_free(ct_nona_solution_t *s);

/** Checks every field of p against its documented range; CT_EINPUT names
 *  the field (prefix: the option's name). */
ct_status_t ct_nona_solve_params_check(const ct_nona_solve_params_t *p, const char *prefix, ct_error_t *err);

/** Solves with p->method. Fails with CT_EINPUT for parameters out of range
 *  or the grid method on a server-queueing model, CT_ESOLVER if GLPK or
 *  GSL fail. With pooled roots (d > 1) or job-first waits it solves from a
 *  root share of 1 and a later share of 0, moves the model's shares to the
 *  solution's (ct_nona_root_share, ct_nona_later_share) and solves again
 *  until they settle (both move by less than 1e-3, or, after a search
 *  that left its gap open, a move of less than 0.05 changes J by at most
 *  that gap, taken as at least 1e-4 and at most 1e-3 of J; at most eight
 *  moves, from the second reversal on with half the step;
 *  sol->shares_unsettled says when they did not, and then the solution
 *  is the one of least J at its own shares); the model
 *  keeps them. With finite sampling the dispersion and the held share are
 *  shares too (ct_nona_dispersion, ct_nona_held_share), and each search
 *  after the first minimises J plus their prices (sol->price_hold,
 *  price_overlap): its certificate is for that objective. The certificate is at those shares: where two fixed
 *  points exist the search finds one, not necessarily the one whose J is
 *  lower (docs/nona-model.md, "Certified solver", gives a case). The exact method also leaves the model's server row
 *  (ct_nona_model_set_server_row) as its last search tuned it (every
 *  search starts from the one at all-local, so solves do not depend on
 *  it). */
ct_status_t ct_nona_solve(ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                          ct_error_t *err);

/** The exact method's inner LP: V(phi, W) and its minimiser, solved by
 *  `lp`. *value is +INFINITY when no theta has waits that low. Exposed
 *  for tests and benchmarks. */
ct_status_t ct_nona_lp_value(const ct_nona_model_t *m, ct_nona_lp_t lp, double phi, double W, double *value,
                             double *theta, ct_error_t *err);

const char *ct_nona_method_name(ct_nona_method_t m);

#ifdef __cplusplus
}
#endif
#endif
