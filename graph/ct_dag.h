/*
 * ct_dag.h - the task DAG of one inference job class, its file formats and
 * its validation.
 *
 * JSON DAG format ("contend-dag", documented in docs/formats.md):
 *   {"name": "resnet18",                         optional
 *    "tasks": [{"id": "conv1", "time": 0.0123,   seconds at reference speed
 *               "members": ["conv1", "bn1"]}],   optional: original task ids
 *    "edges": [{"from": "conv1", "to": "relu1", "bytes": 802816}]}
 * Unknown fields are accepted and ignored. "members" is written by
 * `contend dag contract` so that contracted DAGs still name original tasks.
 *
 * PipeDream profiler graphs (graph.txt) are imported: node time =
 * forward_compute_time (ms -> s), the Input node's time counts as 0 unless
 * keep_input_time is set (it is data loading, not compute); edge bytes = the
 * source node's activation_size (a "[a; b]" list sums).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_DAG_H
#define CT_DAG_H

#include "ct_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A task DAG. Invariants (checked by ct_dag_validate):
 *  - n_tasks >= 1; ids non-empty and unique;
 *  - time[i] finite and >= 0 (seconds at reference speed);
 *  - from[e] != to[e], both < n_tasks; no two edges with the same (from, to);
 *  - bytes[e] finite and >= 0;
 *  - no directed cycle;
 *  - members == NULL (each task is its own original task), or
 *    member_start[0] == 0, member_start non-decreasing, and task i stands for
 *    the original tasks members[member_start[i] .. member_start[i+1]-1].
 */
typedef struct {
    char *name;            /**< may be NULL */
    size_t n_tasks, cap_tasks;
    char **ids;
    double *time;
    size_t n_edges, cap_edges;
    size_t *from, *to;
    double *bytes;
    size_t *member_start;  /**< NULL, or n_tasks + 1 offsets */
    char **members;        /**< NULL, or member_start[n_tasks] original ids */
    ct_strmap_t index;     /**< id -> task number */
} ct_dag_t;

/** Initialises an empty DAG (no allocation). */
void ct_dag_init(ct_dag_t *dag);
/** Frees everything the DAG owns; leaves it empty and reusable. */
void ct_dag_destroy(ct_dag_t *dag);

/** Sets the DAG's name (copied; NULL clears it). */
ct_status_t ct_dag_set_name(ct_dag_t *dag, const char *name, ct_error_t *err);

/**
 * Appends a task. Returns CT_EINPUT on a duplicate id.
 * \param idx  out: the new task's number (may be NULL).  Amortised O(1).
 */
ct_status_t ct_dag_add_task(ct_dag_t *dag, const char *id, double time, size_t *idx,
                            ct_error_t *err);
/** Appends an edge between existing task numbers (not checked here:
 *  ct_dag_validate checks). Amortised O(1). */
ct_status_t ct_dag_add_edge(ct_dag_t *dag, size_t from, size_t to, double bytes,
                            ct_error_t *err);
/** Task number of an id; returns 1 if found. O(1). */
int ct_dag_find(const ct_dag_t *dag, const char *id, size_t *idx);

/** Number of original tasks task i stands for (1 when members == NULL). */
size_t ct_dag_member_count(const ct_dag_t *dag, size_t i);
/** The j-th original task id of task i. */
const char *ct_dag_member(const ct_dag_t *dag, size_t i, size_t j);

/**
 * Checks every invariant above. label (a file name) starts the message.
 * A cycle is reported with its tasks, e.g. "cycle a -> b -> c -> a".
 * Time O(V + E log E).
 */
ct_status_t ct_dag_validate(const ct_dag_t *dag, const char *label, ct_error_t *err);

/**
 * Topological order (Kahn's algorithm, smallest task number first among
 * ready tasks, so the order is deterministic). order must hold n_tasks.
 * Returns CT_EINPUT naming a cycle if there is one. Time O(V log V + E).
 */
ct_status_t ct_dag_topo_order(const ct_dag_t *dag, size_t *order, const char *label,
                              ct_error_t *err);

/** Deep copy into dst (initialised by this call). */
ct_status_t ct_dag_copy(ct_dag_t *dst, const ct_dag_t *src, ct_error_t *err);

/** Which on-disk format a DAG file is in. */
typedef enum { CT_DAG_FORMAT_AUTO = 0, CT_DAG_FORMAT_JSON, CT_DAG_FORMAT_PIPEDREAM } ct_dag_format_t;

/** Options of the loaders; fill with ct_dag_load_params_init(). */
typedef struct {
    ct_dag_format_t format;  /**< AUTO: JSON if the first non-blank byte is '{' */
    int keep_input_time;     /**< PipeDream: keep the Input node's load time */
} ct_dag_load_params_t;

void ct_dag_load_params_init(ct_dag_load_params_t *p);

/**
 * Loads and validates a DAG file. dag must be initialised (it is reset).
 * On error dag is left empty and err names the file, the item and the reason.
 */
ct_status_t ct_dag_load(ct_dag_t *dag, const char *path, const ct_dag_load_params_t *p,
                        ct_error_t *err);
/** Parses JSON text (label names it in messages) and validates. */
ct_status_t ct_dag_parse_json(ct_dag_t *dag, const char *text, size_t len, const char *label,
                              ct_error_t *err);
/** Parses PipeDream graph.txt text and validates. */
ct_status_t ct_dag_parse_pipedream(ct_dag_t *dag, const char *text, const char *label,
                                   int keep_input_time, ct_error_t *err);

/** Renders the DAG as JSON text (caller frees with free()). Numbers are
 *  written with 17 significant digits so a round trip is exact. */
ct_status_t ct_dag_to_json_text(const ct_dag_t *dag, char **text, ct_error_t *err);
/** Writes the DAG as JSON to path atomically ("-" = stdout). */
ct_status_t ct_dag_write_json(const ct_dag_t *dag, const char *path, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
