/*
 * extender_args.h - reads the fields /prioritize needs from a Kubernetes
 * ExtenderArgs body in one pass, without building a tree (internal to the
 * service library).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_EXTENDER_ARGS_H
#define CT_EXTENDER_ARGS_H

#include <stddef.h>

/* What ct_extender_args_parse returns. */
enum {
    CT_EA_OK = 0,
    CT_EA_MALFORMED,  /* not one JSON value (RFC 8259), or nested deeper than CT_EA_MAX_DEPTH */
    CT_EA_TRAILING,   /* one JSON value, then more than whitespace */
    CT_EA_NOT_OBJECT, /* a JSON value, but not an object */
    CT_EA_NOMEM
};

#define CT_EA_MAX_DEPTH 1000 /* as cJSON's nesting limit */

/* The fields, as cJSON_GetObjectItemCaseSensitive would find them: the
 * first of duplicate keys counts; a field of the wrong type is absent. */
typedef struct {
    const char *cls, *job, *task; /* Pod.metadata.labels["contend.io/class" | "job" | "task"] when
                                     strings, else NULL */
    const char **cand;            /* the candidates' names: NodeNames when it is an array, else
                                     Nodes.items[].metadata.name when that is an array (NULL for an
                                     element without a string name), else none */
    int ncand;                    /* their count; -1 when neither is an array */
    /* owned (ct_extender_args_free): */
    char *strings;                /* decoded strings, NUL-terminated, at most the body's length */
    const char **lists[2];        /* NodeNames, Nodes.items names */
    int n[2], cap[2], is_array[2];
} ct_extender_args_t;

/**
 * Reads an ExtenderArgs body (UTF-8, as the service checked before).
 *
 * \param body, len  the request body (need not be NUL-terminated)
 * \param a          filled on CT_EA_OK; free it with ct_extender_args_free
 *                   whatever the return
 * \return CT_EA_OK or a CT_EA_* reason.
 *
 * Time: O(len); memory: O(len), two allocations and the candidate lists.
 */
int ct_extender_args_parse(const char *body, size_t len, ct_extender_args_t *a);

void ct_extender_args_free(ct_extender_args_t *a);

#endif
