/*
 * ct_contract.h - DAG contraction (Nona's Technique 1; spec nona.md s.2).
 *
 * An edge (a, b) qualifies when every other input of b is an input of a and
 * every other output of a is an output of b. Each round contracts every
 * qualifying edge at once (each connected component of qualifying edges
 * becomes one task); rounds repeat until no edge qualifies.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_CONTRACT_H
#define CT_CONTRACT_H

#include "ct_dag.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a contraction did. */
typedef struct {
    size_t tasks_before, edges_before;
    size_t tasks_after, edges_after;
    size_t rounds;          /**< rounds that contracted at least one edge */
} ct_contract_info_t;

/** Contraction options; fill with ct_contract_params_init(). */
typedef struct {
    int single_edge;        /**< contract one qualifying edge per round (the
                                 slow reference order; same end graph) */
} ct_contract_params_t;

void ct_contract_params_init(ct_contract_params_t *p);

/** ct_dag_contract with options (p may be NULL for the defaults). */
ct_status_t ct_dag_contract_ex(const ct_dag_t *in, const ct_contract_params_t *p, ct_dag_t *out,
                               ct_contract_info_t *info, ct_error_t *err);

/**
 * Contracts in into out (initialised by this call; the caller destroys it).
 * A merged task's time is the sum of its members' times, its id is the id of
 * its first member in topological order, and its "members" list every
 * original task it stands for (in topological order). Parallel edges that
 * result are merged by summing bytes; self-loops vanish.
 * \param info  out, may be NULL.
 * \return CT_OK, CT_ENOMEM, or CT_EINPUT if in is not a valid DAG.
 * Time: O(R * E * d) for R rounds and maximum degree d; igraph finds the
 * components. Memory O(V + E).
 */
ct_status_t ct_dag_contract(const ct_dag_t *in, ct_dag_t *out, ct_contract_info_t *info, ct_error_t *err);

/** One round's test, exposed for tests: 1 if edge e of dag qualifies. */
int ct_contract_edge_qualifies(const ct_dag_t *dag, size_t e);

/** Makes igraph report errors as return codes (its default aborts). Called
 *  by every libcontend entry that uses igraph; idempotent. */
void ct_igraph_quiet(void);
/** igraph calls take turns under one lock when igraph keeps global state
 *  (IGRAPH_THREAD_SAFE 0); the contraction takes it around its igraph
 *  calls only (the components of a round), so contractions of several
 *  DAGs run side by side (a model's classes are built on the cores). */
void ct_igraph_lock(void);
void ct_igraph_unlock(void);

#ifdef __cplusplus
}
#endif
#endif
