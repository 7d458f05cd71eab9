/*
 * dag_io.c - reading and writing DAG files: the JSON DAG format and the
 * PipeDream profiler graph.txt format (both described in ct_dag.h and
 * docs/formats.md).
 *
 * Every loader reports the first problem as "FILE: ITEM: reason" and leaves
 * the DAG empty on failure. cJSON is used defensively: parse with an explicit
 * length, case-sensitive getters, a type check before every read.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_dag.h"
#include "ct_json.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_dag_load_params_init(ct_dag_load_params_t *p)
{
    p->format = CT_DAG_FORMAT_AUTO;
    p->keep_input_time = 0;
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */

static ct_status_t parse_members(ct_dag_t *dag, const cJSON *tasks, const char *label, ct_error_t *err)
{
    size_t n = dag->n_tasks, total = 0, i = 0;
    int any = 0;
    const cJSON *t;
    /* Walk the lists (cJSON_GetArrayItem is linear: quadratic in a loop). */
    cJSON_ArrayForEach(t, tasks) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(t, "members");
        if (!m)
            total += 1;
        else if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) == 0)
            return ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].members: expected a non-empty array of task ids",
                                label, i);
        else {
            any = 1;
            total += (size_t)cJSON_GetArraySize(m);
        }
        i++;
    }
    if (!any)
        return CT_OK;
    dag->member_start = malloc((n + 1) * sizeof(size_t));
    dag->members = calloc(total, sizeof(char *));
    if (!dag->member_start || !dag->members)
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory", label);
    /* Consistent for ct_dag_destroy at every step (unset members are NULL). */
    memset(dag->member_start, 0, (n + 1) * sizeof(size_t));
    dag->member_start[n] = total;
    ct_strmap_t seen;
    ct_strmap_init(&seen);
    ct_status_t st = CT_OK;
    size_t k = 0;
    i = 0;
    cJSON_ArrayForEach(t, tasks) {
        if (st != CT_OK || i >= n)
            break;
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(t, "members");
        size_t cnt = m ? (size_t)cJSON_GetArraySize(m) : 1;
        const cJSON *s = m ? m->child : NULL;
        for (size_t j = 0; j < cnt && st == CT_OK; j++, s = s ? s->next : NULL) {
            const char *id = dag->ids[i];
            if (m) {
                if (!cJSON_IsString(s) || !s->valuestring[0]) {
                    st = ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].members[%zu]: expected a non-empty string",
                                      label, i, j);
                    break;
                }
                id = s->valuestring;
            }
            ct_status_t ps = ct_strmap_put(&seen, id, i);
            if (ps == CT_EINPUT)
                st = ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].members[%zu]: original task '%s' is listed twice",
                                  label, i, j, id);
            else if (ps != CT_OK)
                st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", label);
            else if (!(dag->members[k] = ct_strdup(id, err)))
                st = CT_ENOMEM;
            else
                k++;
        }
        if (st == CT_OK)
            dag->member_start[i + 1] = k;
        i++;
    }
    ct_strmap_destroy(&seen);
    return st;
}

ct_status_t ct_dag_parse_json(ct_dag_t *dag, const char *text, size_t len, const char *label,
                              ct_error_t *err)
{
    ct_status_t st = CT_OK;
    ct_dag_destroy(dag);
    cJSON *root = NULL;
    if ((st = ct_json_parse(text, len, label, &root, err)) != CT_OK)
        return st;
    if (!cJSON_IsObject(root)) {
        st = ct_error_set(err, CT_EINPUT, "%s: expected a JSON object with \"tasks\" and \"edges\"", label);
        goto done;
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (name && !cJSON_IsString(name)) {
        st = ct_error_set(err, CT_EINPUT, "%s: name: expected a string", label);
        goto done;
    }
    if (name && (st = ct_dag_set_name(dag, name->valuestring, err)) != CT_OK)
        goto done;
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks");
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(root, "edges");
    if (!cJSON_IsArray(tasks)) {
        st = ct_error_set(err, CT_EINPUT, "%s: tasks: %s", label, tasks ? "expected an array" : "missing");
        goto done;
    }
    if (edges && !cJSON_IsArray(edges)) {
        st = ct_error_set(err, CT_EINPUT, "%s: edges: expected an array", label);
        goto done;
    }
    /* Limits first, before anything is allocated for the DAG. */
    if ((size_t)cJSON_GetArraySize(tasks) > CT_MAX_TASKS || (edges && (size_t)cJSON_GetArraySize(edges) > CT_MAX_EDGES)) {
        st = ct_error_set(err, CT_ELIMIT, "%s: %s: %d entries, over the limit of %u", label,
                          (size_t)cJSON_GetArraySize(tasks) > CT_MAX_TASKS ? "tasks" : "edges",
                          (size_t)cJSON_GetArraySize(tasks) > CT_MAX_TASKS ? cJSON_GetArraySize(tasks)
                                                                           : cJSON_GetArraySize(edges),
                          (size_t)cJSON_GetArraySize(tasks) > CT_MAX_TASKS ? CT_MAX_TASKS : CT_MAX_EDGES);
        goto done;
    }
    size_t i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tasks) {
        char item[64];
        snprintf(item, sizeof item, "tasks[%zu]", i);
        const char *id;
        double time;
        if (!cJSON_IsObject(t)) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: expected an object", label, item);
            goto done;
        }
        if ((st = ct_json_get_string(t, "id", 1, label, item, &id, err)) != CT_OK ||
            (st = ct_json_get_number(t, "time", 1, label, item, &time, err)) != CT_OK)
            goto done;
        if (!id[0]) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s.id: empty task id", label, item);
            goto done;
        }
        if (!isfinite(time) || time < 0 || time > CT_MAX_SECONDS) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s.time: task '%s' has %s time %g s", label, item, id,
                              !isfinite(time) ? "non-finite" : time < 0 ? "negative" : "an implausible (over 1e9 s)",
                              time);
            goto done;
        }
        if (ct_dag_add_task(dag, id, time, NULL, err) != CT_OK) {
            st = ct_error_prefix(err, "%s: %s.id: ", label, item);
            goto done;
        }
        i++;
    }
    i = 0;
    cJSON_ArrayForEach(t, edges) {
        char item[64];
        snprintf(item, sizeof item, "edges[%zu]", i);
        const char *from, *to;
        double bytes;
        size_t u, v;
        if (!cJSON_IsObject(t)) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: expected an object", label, item);
            goto done;
        }
        if ((st = ct_json_get_string(t, "from", 1, label, item, &from, err)) != CT_OK ||
            (st = ct_json_get_string(t, "to", 1, label, item, &to, err)) != CT_OK ||
            (st = ct_json_get_number(t, "bytes", 1, label, item, &bytes, err)) != CT_OK)
            goto done;
        if (!ct_dag_find(dag, from, &u)) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s.from: unknown task id '%s'", label, item, from);
            goto done;
        }
        if (!ct_dag_find(dag, to, &v)) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s.to: unknown task id '%s'", label, item, to);
            goto done;
        }
        if ((st = ct_dag_add_edge(dag, u, v, bytes, err)) != CT_OK) {
            ct_error_prefix(err, "%s: %s.bytes: ", label, item);
            goto done;
        }
        i++;
    }
    if ((st = parse_members(dag, tasks, label, err)) != CT_OK)
        goto done;
    st = ct_dag_validate(dag, label, err);
done:
    cJSON_Delete(root);
    if (st != CT_OK)
        ct_dag_destroy(dag);
    return st;
}

ct_status_t ct_dag_to_json_text(const ct_dag_t *dag, char **text, ct_error_t *err)
{
    *text = NULL;
    cJSON *root = cJSON_CreateObject(), *tasks, *edges;
    int ok = root != NULL;
    if (ok && dag->name)
        ok = cJSON_AddStringToObject(root, "name", dag->name) != NULL;
    ok = ok && (tasks = cJSON_AddArrayToObject(root, "tasks")) != NULL;
    ok = ok && (edges = cJSON_AddArrayToObject(root, "edges")) != NULL;
    for (size_t i = 0; ok && i < dag->n_tasks; i++) {
        cJSON *t = cJSON_CreateObject();
        ok = t && cJSON_AddItemToArray(tasks, t);
        ok = ok && cJSON_AddStringToObject(t, "id", dag->ids[i]);
        ok = ok && ct_json_add_number(t, "time", dag->time[i]) == 0;
        if (ok && dag->members) {
            cJSON *m = cJSON_AddArrayToObject(t, "members");
            ok = m != NULL;
            for (size_t j = 0; ok && j < ct_dag_member_count(dag, i); j++) {
                cJSON *s = cJSON_CreateString(ct_dag_member(dag, i, j));
                ok = s && cJSON_AddItemToArray(m, s);
            }
        }
    }
    for (size_t e = 0; ok && e < dag->n_edges; e++) {
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(edges, o);
        ok = ok && cJSON_AddStringToObject(o, "from", dag->ids[dag->from[e]]);
        ok = ok && cJSON_AddStringToObject(o, "to", dag->ids[dag->to[e]]);
        ok = ok && ct_json_add_number(o, "bytes", dag->bytes[e]) == 0;
    }
    ct_status_t st = CT_OK;
    if (ok)
        st = ct_json_render(root, text, err);
    else
        st = ct_error_set(err, CT_ENOMEM, "out of memory rendering a DAG");
    cJSON_Delete(root);
    return st;
}

ct_status_t ct_dag_write_json(const ct_dag_t *dag, const char *path, ct_error_t *err)
{
    char *text;
    ct_status_t st = ct_dag_to_json_text(dag, &text, err);
    if (st != CT_OK)
        return st;
    st = ct_write_text_file(path, text, err);
    free(text);
    return st;
}

/* ------------------------------------------------------------------------ */
/* PipeDream graph.txt                                                       */

/* Finds "key=" in a "k=v, k=v" list and parses its value; a "[a; b]" value
 * sums. Returns 0 on success. */
static int pd_field(const char *fields, const char *key, double *out)
{
    size_t kl = strlen(key);
    for (const char *p = fields; (p = strstr(p, key)) != NULL; p += kl) {
        if ((p != fields && p[-1] != ' ' && p[-1] != ',') || p[kl] != '=')
            continue;
        const char *v = p + kl + 1;
        char *end;
        if (*v == '[') {
            double sum = 0;
            v++;
            for (;;) {
                while (*v == ' ')
                    v++;
                errno = 0;
                double x = strtod(v, &end);
                if (end == v || errno == ERANGE)
                    return -1;
                sum += x;
                v = end;
                while (*v == ' ')
                    v++;
                if (*v == ';') {
                    v++;
                    continue;
                }
                if (*v == ']')
                    break;
                return -1;
            }
            *out = sum;
            return 0;
        }
        errno = 0;
        *out = strtod(v, &end);
        if (end == v || errno == ERANGE || (*end && *end != ',' && !isspace((unsigned char)*end)))
            return -1;
        return 0;
    }
    return -1;
}

ct_status_t ct_dag_parse_pipedream(ct_dag_t *dag, const char *text, const char *label,
                                   int keep_input_time, ct_error_t *err)
{
    ct_dag_destroy(dag);
    ct_status_t st = CT_OK;
    double *act = NULL; /* activation_size per task (bytes) */
    size_t act_cap = 0, lineno = 0;
    char *line = NULL;
    const char *p = text;
    while (*p && st == CT_OK) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        free(line);
        line = malloc(n + 1);
        if (!line) {
            st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", label);
            break;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        /* Advance past the raw line before trimming it: trimming first
         * shortened n and a final "\r" without "\n" never got consumed. */
        p = nl ? nl + 1 : p + n;
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        size_t lead = strspn(line, " \t");
        if (line[lead] == '\0')
            continue;
        char *sep = strstr(line, " -- ");
        if (!sep) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: expected 'ID -- DESCRIPTION -- FIELDS' or a TAB and 'SRC -- DST'",
                              label, lineno);
            break;
        }
        if (line[0] == '\t') { /* edge line */
            *sep = '\0';
            const char *src = line + lead, *dst = sep + 4;
            size_t u, v;
            if (strstr(dst, " -- ")) {
                st = ct_error_set(err, CT_EINPUT, "%s:%zu: edge line has more than two fields", label, lineno);
            } else if (!ct_dag_find(dag, src, &u)) {
                st = ct_error_set(err, CT_EINPUT, "%s:%zu: edge source: unknown task id '%s'", label, lineno, src);
            } else if (!ct_dag_find(dag, dst, &v)) {
                st = ct_error_set(err, CT_EINPUT, "%s:%zu: edge target: unknown task id '%s'", label, lineno, dst);
            } else {
                st = ct_dag_add_edge(dag, u, v, act[u], err);
            }
            continue;
        }
        /* node line: the description may itself contain " -- " in theory;
         * the fields are after the last separator. */
        *sep = '\0';
        const char *id = line;
        char *desc = sep + 4, *last = strstr(desc, " -- "), *fields = NULL;
        while (last) {
            fields = last;
            last = strstr(last + 4, " -- ");
        }
        if (!fields) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: node '%s': missing the field list", label, lineno, id);
            break;
        }
        *fields = '\0';
        fields += 4;
        double fwd, a;
        if (pd_field(fields, "forward_compute_time", &fwd) != 0) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: node '%s': forward_compute_time: missing or not a number",
                              label, lineno, id);
            break;
        }
        if (pd_field(fields, "activation_size", &a) != 0) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: node '%s': activation_size: missing or not a number",
                              label, lineno, id);
            break;
        }
        if (!isfinite(fwd) || fwd < 0) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: node '%s': forward_compute_time: negative or non-finite (%g ms)",
                              label, lineno, id, fwd);
            break;
        }
        if (!isfinite(a) || a < 0) {
            st = ct_error_set(err, CT_EINPUT, "%s:%zu: node '%s': activation_size: negative or non-finite (%g bytes)",
                              label, lineno, id, a);
            break;
        }
        double time = fwd / 1000.0;
        if (strcmp(desc, "Input") == 0 && !keep_input_time)
            time = 0.0;
        size_t idx;
        if (ct_dag_add_task(dag, id, time, &idx, err) != CT_OK) {
            st = ct_error_prefix(err, "%s:%zu: ", label, lineno);
            break;
        }
        if (idx >= act_cap) {
            size_t nc = act_cap ? 2 * act_cap : 64;
            double *na = realloc(act, nc * sizeof(double));
            if (!na) {
                st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", label);
                break;
            }
            act = na;
            act_cap = nc;
        }
        act[idx] = a;
    }
    free(line);
    free(act);
    if (st == CT_OK)
        st = ct_dag_validate(dag, label, err);
    if (st != CT_OK)
        ct_dag_destroy(dag);
    return st;
}

ct_status_t ct_dag_load(ct_dag_t *dag, const char *path, const ct_dag_load_params_t *p, ct_error_t *err)
{
    ct_dag_load_params_t defaults;
    if (!p) {
        ct_dag_load_params_init(&defaults);
        p = &defaults;
    }
    char *text;
    size_t len;
    ct_dag_destroy(dag);
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return st;
    ct_dag_format_t fmt = p->format;
    if (fmt == CT_DAG_FORMAT_AUTO) {
        size_t k = strspn(text, " \t\r\n");
        fmt = text[k] == '{' || text[k] == '[' ? CT_DAG_FORMAT_JSON : CT_DAG_FORMAT_PIPEDREAM;
    }
    if (fmt == CT_DAG_FORMAT_JSON)
        st = ct_dag_parse_json(dag, text, len, path, err);
    else if (strlen(text) != len)
        st = ct_error_set(err, CT_EINPUT, "%s: a NUL byte in a text file", path);
    else
        st = ct_dag_parse_pipedream(dag, text, path, p->keep_input_time, err);
    free(text);
    return st;
}
