/*
 * ct_sampler.h - the online side of Nona: draw a placement for an arriving
 * job from a lookup file ("contend-table/1", written by `contend nona`).
 *
 * Depends on cJSON only (no igraph, GSL or GLPK), so production schedulers
 * can link it cheaply: pkg-config --cflags --libs contend-sampler.
 *
 * Per arriving job of a class (spec nona.md s.9): the root's server is
 * uniform over the N servers; per segment in order a triplet is drawn from
 * the table (alias method, O(1)); part k goes on the segment source's
 * server, the other parts on distinct servers drawn uniformly from the rest;
 * the sink goes with part l. The result is a server for every original task.
 * Deterministic for a given seed. Loaded samplers are read-only: one sampler
 * can serve many threads, each with its own ct_rng_t.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SAMPLER_H
#define CT_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** xoshiro256** state; seed with ct_rng_seed. */
typedef struct {
    uint64_t s[4];
} ct_rng_t;

void ct_rng_seed(ct_rng_t *r, uint64_t seed);
uint64_t ct_rng_next(ct_rng_t *r);
/** Uniform in [0, 1) with 53 random bits. */
double ct_rng_uniform(ct_rng_t *r);
/** Uniform integer in [0, n), n >= 1, without modulo bias. */
uint64_t ct_rng_below(ct_rng_t *r, uint64_t n);

typedef struct ct_sampler ct_sampler_t;

/**
 * Loads and validates a lookup file. Returns 0, or -1 with a one-line
 * "FILE: FIELD: reason" message in errbuf. Validation: the format tag,
 * every class lists the same tasks in every scenario, each segment's
 * probabilities are >= 0 and sum to 1, k and l name parts, and root, parts
 * and sinks place every task exactly once.
 */
int ct_sampler_load(const char *path, ct_sampler_t **out, char *errbuf, size_t errlen);
/** The same from text (text[len] must be NUL); label names it in messages. */
int ct_sampler_load_text(const char *text, size_t len, const char *label, ct_sampler_t **out, char *errbuf,
                         size_t errlen);
void ct_sampler_free(ct_sampler_t *s);

/** A 64-bit FNV-1a digest of the loaded file's bytes (the same file, the
 *  same digest): tells which table a service runs. O(1). */
uint64_t ct_sampler_digest(const ct_sampler_t *s);
size_t ct_sampler_scenario_count(const ct_sampler_t *s);
/** The arrival-rate scale factor a scenario was solved for. */
double ct_sampler_scenario_scale(const ct_sampler_t *s, size_t scenario);
/** Arrival rate (jobs/s) of class c in a scenario. */
double ct_sampler_scenario_rate(const ct_sampler_t *s, size_t scenario, size_t c);

/** The model's predicted mean JCT of class c in a scenario, seconds (0 when
 *  the file does not give one). */
double ct_sampler_predicted_jct(const ct_sampler_t *s, size_t scenario, size_t c);
size_t ct_sampler_class_count(const ct_sampler_t *s);
const char *ct_sampler_class_name(const ct_sampler_t *s, size_t c);
/** Class number of a name, or -1. */
long ct_sampler_class_index(const ct_sampler_t *s, const char *name);
/** Original tasks of class c, in the table's (topological) order. */
size_t ct_sampler_task_count(const ct_sampler_t *s, size_t c);
const char *ct_sampler_task_id(const ct_sampler_t *s, size_t c, size_t t);

/** The scenario whose rates are nearest the measured ones (rates[c] for
 *  every class, jobs/s): least sum of squared relative differences. */
size_t ct_sampler_nearest(const ct_sampler_t *s, const double *rates);

/** Segments of class c, triplets of one segment and their probabilities
 *  (for checks and statistics). */
size_t ct_sampler_segment_count(const ct_sampler_t *s, size_t scenario, size_t c);
size_t ct_sampler_triplet_count(const ct_sampler_t *s, size_t scenario, size_t c, size_t seg);
double ct_sampler_triplet_probability(const ct_sampler_t *s, size_t scenario, size_t c, size_t seg, size_t t);

/** One triplet of segment seg drawn by its table probability (the alias
 *  method: one 64-bit random number). O(1). */
uint32_t ct_sampler_draw_triplet(const ct_sampler_t *s, size_t scenario, size_t c, size_t seg, ct_rng_t *rng);

/**
 * Places one job of class c using scenario's table on servers 0..n_servers-1.
 * servers[t] receives the server of task t (ct_sampler_task_count entries);
 * choices (may be NULL) the triplet drawn per segment. The root's server is
 * uniform. Returns 0, or -1 (nothing drawn) if the scenario has a triplet
 * with more parts than there are servers (ct_sampler_max_parts).
 * O(tasks + parts^2).
 */
int ct_sampler_place(const ct_sampler_t *s, size_t scenario, size_t c, uint32_t n_servers, ct_rng_t *rng,
                     uint32_t *servers, uint32_t *choices);

/**
 * The same with pooled roots: with loads (tasks queued or running per
 * server, n_servers entries) the root goes to the least loaded of d uniform
 * draws (ties: the first; d <= 1 or loads NULL: uniform, as
 * ct_sampler_place). Use d = ct_sampler_root_choices(), the rule the table
 * was solved for. O(d + tasks + parts^2).
 */
int ct_sampler_place_loaded(const ct_sampler_t *s, size_t scenario, size_t c, uint32_t n_servers,
                            const uint32_t *loads, uint32_t d, ct_rng_t *rng, uint32_t *servers, uint32_t *choices);

/**
 * Late-bound parts (a table whose model.part_binding is "late"): the root
 * as ct_sampler_place_loaded, and every part that does not continue its
 * source's server gets a slot, servers[t] = CT_SAMPLER_LATE | i (i = 0, 1,
 * ... in draw order; the tasks of one part share it, and a later segment
 * whose source is that part's sink continues on it). The scheduler binds a
 * slot when its part is first needed (one of its tasks has every input
 * sent, or at once for a part fed by the job's source) to
 * ct_sampler_least_loaded(..., d) with the loads of that moment: the rule
 * the table was solved for. Inputs for a part not bound yet wait at their
 * senders until then (binding at the first input instead reserves an idle
 * server between a part's inputs, which the d rule then sees as busy:
 * n-shape at load 0.7, mean JCT 26.0 ms against 23.8 ms). While a bound
 * part has run a task and waits for a later one (fed by another part),
 * count it as one task on its server, so the d rule leaves that server
 * to it (else its next task can wait behind a whole task the server took
 * meanwhile). Those
 * loads count the job's own tasks that became ready at the same moment on
 * bound servers (queue them first): else the server of the job's next
 * task looks idle for an instant, and a part bound there waits behind it
 * (the simulator binds in that order). Same return values. O(d + tasks +
 * parts).
 */
#define CT_SAMPLER_LATE 0x80000000u
int ct_sampler_place_late(const ct_sampler_t *s, size_t scenario, size_t c, uint32_t n_servers,
                          const uint32_t *loads, uint32_t d, ct_rng_t *rng, uint32_t *servers, uint32_t *choices);

/** The least loaded of d uniform draws over n_servers (ties: the first;
 *  loads NULL or d <= 1: one uniform draw). The root rule, and the binding
 *  rule of late parts. O(d). */
uint32_t ct_sampler_least_loaded(uint32_t n_servers, const uint32_t *loads, uint32_t d, ct_rng_t *rng);

/** Probes, Sparrow's late binding (contend sim --late-bind probes): the
 *  parts of a job needed at one moment (m of them; the root's part when
 *  the job arrives, with those fed by the job's source) leave reservations
 *  on k = d x m distinct uniform servers (d = ct_sampler_root_choices();
 *  all servers if fewer); each server that reaches a reservation at the
 *  head of its queue while free asks for the job's earliest-needed part
 *  not taken yet, runs it from its first task to its last (a task of the
 *  part ready as the one before ends runs next, ahead of the queue), and
 *  drops the reservation if none is left. A server idle only because its
 *  part waits for a later task (fed by another part) asks last, a round
 *  trip late, so another idle server takes a new part first and the
 *  waiting part keeps its server. This draws the k servers: perm
 *  holds a permutation of 0 .. n_servers - 1, kept by the caller between
 *  calls (ct_sampler_perm_init fills one); on return its first
 *  min(k, n_servers) entries are a uniform k-subset, in uniform order.
 *  Returns that count. O(k). The simulator draws with it, so a seed gives
 *  the same probes in both. */
uint32_t ct_sampler_probe_servers(uint32_t n_servers, uint32_t k, uint32_t *perm, ct_rng_t *rng);

/** Fills perm with 0 .. n_servers - 1. O(n_servers). */
void ct_sampler_perm_init(uint32_t n_servers, uint32_t *perm);

/** 1 when a scenario's table was solved for late-bound parts
 *  (model.part_binding "late"), else 0 (early: every part placed when the
 *  job arrives, the paper's rule). */
uint32_t ct_sampler_late_parts(const ct_sampler_t *s, size_t scenario);

/** 1 when a scenario's late parts were priced as placed by probes
 *  (model.late_bind "probes": ct_sampler_probe_servers, two round trips a
 *  part), else 0 (the least loaded of d: ct_sampler_least_loaded). */
uint32_t ct_sampler_late_probes(const ct_sampler_t *s, size_t scenario);

/** The root rule a scenario was solved for: d of "least loaded of d" (the
 *  table's model.root_choices; 1 when absent). */
uint32_t ct_sampler_root_choices(const ct_sampler_t *s, size_t scenario);

/** The most parts of any triplet in a scenario: placing needs at least
 *  this many servers. */
uint32_t ct_sampler_max_parts(const ct_sampler_t *s, size_t scenario);

#ifdef __cplusplus
}
#endif
#endif
