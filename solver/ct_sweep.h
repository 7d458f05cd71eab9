/*
 * ct_sweep.h - sweeps over independent points, on threads, in shards, or
 * over MPI ranks, always giving the file a single serial run gives.
 *
 * A sweep is n points; point i renders its own output (CSV rows, or one
 * JSON item) into a text. Texts are joined in point order by the sweep's
 * writer, so the order points were computed in never shows. Where the
 * points run:
 *   threads   ct_parallel_for over the points this process owns;
 *   shards    --shard I/N: this process owns the points i with i % N == I
 *             and writes a part file; `contend merge` joins the parts;
 *   MPI       (make MPI=1, run under mpirun) ranks take points from a
 *             shared counter on rank 0 (dynamic: points differ in cost) and
 *             send their texts to rank 0, which writes the file.
 *
 * Part file (text): the line "contend-part/1", then "kind KIND", "points
 * N", "shard I S", then for every owned point "point I LENGTH" and LENGTH
 * bytes of text and a newline. A point with no output has length 0.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SWEEP_H
#define CT_SWEEP_H

#include "ct_base.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Renders point i into *text (malloc'd, may be ""); thread-safe. */
typedef ct_status_t (*ct_sweep_point_fn)(size_t i, void *ctx, char **text, ct_error_t *err);

typedef struct {
    unsigned threads;       /**< points at once in this process (0: the cores; default 0) */
    size_t shard, shards;   /**< own the points i % shards == shard (shards 0 or 1: all; default 0) */
    void (*progress)(size_t done, size_t total, void *ctx); /**< finished points of this process (may be NULL) */
    void *progress_ctx;
    uint64_t run;           /**< the run's identity (inputs and options) in part files; merge refuses parts
                                 whose runs differ (0: none, the default) */
} ct_sweep_params_t;

void ct_sweep_params_init(ct_sweep_params_t *p);

/** Parses "I/N" (0 <= I < N <= 100000) into p. CT_EINPUT otherwise. */
ct_status_t ct_sweep_parse_shard(const char *s, ct_sweep_params_t *p, ct_error_t *err);

/** 1 if this process writes the sweep's output (not an MPI rank > 0). */
int ct_sweep_is_writer(void);
/** "" or " (MPI: R ranks)", for messages. */
const char *ct_sweep_where(void);

/**
 * Computes the points this process owns into texts[i] (texts has n slots,
 * zeroed by the caller; owned points get a text, others stay NULL). Under
 * MPI with several ranks every rank must call it; rank 0 ends with every
 * point's text, the others with none (they write nothing).
 */
ct_status_t ct_sweep_run(size_t n, ct_sweep_point_fn fn, void *ctx, const ct_sweep_params_t *p, char **texts,
                         ct_error_t *err);

/** Writes the owned texts of a sharded run as a part file. */
ct_status_t ct_sweep_write_part(const char *path, const char *kind, size_t n, const ct_sweep_params_t *p,
                                char *const *texts, ct_error_t *err);

/**
 * Reads part files of one sweep: the same kind, points and run identity
 * (when they carry one), shards 0..S-1 each exactly once. *kind (caller frees) and *n receive the sweep's, and
 * *texts (caller frees each and the array) every point's text.
 */
ct_status_t ct_sweep_read_parts(char *const *paths, size_t nparts, char **kind, size_t *n, char ***texts,
                                ct_error_t *err);

/** Frees n texts and the array. */
void ct_sweep_texts_free(char **texts, size_t n);

#ifdef __cplusplus
}
#endif
#endif
