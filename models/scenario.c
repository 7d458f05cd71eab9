/*
 * scenario.c - loading, validating, scaling and hashing Nona scenarios
 * (format in ct_scenario.h). A scenario of many classes loads their DAG
 * files on the cores (ct_parallel_for: the same scenario and the same
 * first error on any number of threads).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_json.h"
#include "ct_parallel.h"
#include "ct_scenario.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>


cJSON *ct_scenario_to_json(const ct_scenario_t *s)
{
    cJSON *in = cJSON_CreateObject(), *cl = cJSON_CreateObject(), *bg = cJSON_CreateObject(),
          *classes = cJSON_CreateArray();
    int bad = !in || !cl || !bg || !classes;
    bad |= ct_json_put(cl, "servers", ct_json_number((double)s->servers)) |
           ct_json_put(cl, "link_bandwidth", ct_json_number(s->link_bandwidth)) | ct_json_put(cl, "speed", ct_json_number(s->speed));
    bad |= ct_json_put(bg, "link_load", ct_json_number(s->rho_bg)) | ct_json_put(bg, "link_second_moment", ct_json_number(s->m2_bg));
    if (s->rho_bg_s > 0 || s->m2_bg_s > 0)
        bad |= ct_json_put(bg, "server_load", ct_json_number(s->rho_bg_s)) |
               ct_json_put(bg, "server_second_moment", ct_json_number(s->m2_bg_s));
    for (size_t j = 0; !bad && j < s->n_classes; j++) {
        cJSON *c = cJSON_CreateObject();
        bad |= ct_json_put(classes, NULL, c);
        bad |= ct_json_put(c, "name", cJSON_CreateString(s->classes[j].name));
        bad |= ct_json_put(c, "dag", cJSON_CreateString(s->classes[j].dag_path));
        bad |= ct_json_put(c, "arrival_rate", ct_json_number(s->classes[j].rate));
    }
    bad |= ct_json_put(in, "cluster", cl);
    cl = NULL;
    bad |= ct_json_put(in, "background", bg);
    bg = NULL;
    bad |= ct_json_put(in, "classes", classes);
    classes = NULL;
    if (bad) {
        cJSON_Delete(in);
        return NULL;
    }
    return in;
}

/* The first class before j that names j's DAG file (j if none). */
static size_t first_sharing(const ct_scenario_t *s, size_t j)
{
    for (size_t i = 0; i < j; i++)
        if (!strcmp(s->classes[i].dag_path, s->classes[j].dag_path))
            return i;
    return j;
}

/* Whether classes i and j hold the same DAG (as the file would say). */
static ct_status_t same_dag(const ct_scenario_t *s, size_t i, size_t j, int *same, ct_error_t *err)
{
    char *a = NULL, *b = NULL;
    ct_status_t st = ct_dag_to_json_text(&s->classes[i].dag, &a, err);
    if (st == CT_OK)
        st = ct_dag_to_json_text(&s->classes[j].dag, &b, err);
    *same = st == CT_OK && !strcmp(a, b);
    free(a);
    free(b);
    return st;
}

ct_status_t ct_scenario_save(const ct_scenario_t *s, const char *dir, const char *name, ct_error_t *err)
{
    char path[4096];
    ct_status_t st = CT_OK;
    /* Classes may share a DAG file (one model, several rates), but only
     * with the same DAG: the file holds one, and the scenario read back
     * must be the one saved. Checked before anything is written. */
    for (size_t j = 0; j < s->n_classes && st == CT_OK; j++) {
        size_t i = first_sharing(s, j);
        int same = 1;
        if (i != j && (st = same_dag(s, i, j, &same, err)) == CT_OK && !same)
            st = ct_error_set(err, CT_EINPUT, "%s/%s: classes %s and %s both name DAG file '%s' but hold different DAGs",
                              dir, name, s->classes[i].name, s->classes[j].name, s->classes[j].dag_path);
    }
    for (size_t j = 0; j < s->n_classes && st == CT_OK; j++) {
        if (first_sharing(s, j) != j)
            continue; /* written already, the same DAG */
        if (snprintf(path, sizeof path, "%s/%s", dir, s->classes[j].dag_path) >= (int)sizeof path)
            return ct_error_set(err, CT_EINPUT, "%s: path too long", dir);
        st = ct_dag_write_json(&s->classes[j].dag, path, err);
    }
    if (st != CT_OK)
        return st;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ct_error_set(err, CT_EINPUT, "%s: path too long", dir);
    cJSON *doc = ct_scenario_to_json(s);
    if (!doc)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    st = ct_json_write_file(doc, path, err);
    cJSON_Delete(doc);
    return st;
}

void ct_scenario_init(ct_scenario_t *s)
{
    memset(s, 0, sizeof *s);
}

void ct_scenario_destroy(ct_scenario_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_classes; i++) {
        free(s->classes[i].name);
        free(s->classes[i].dag_path);
        ct_dag_destroy(&s->classes[i].dag);
    }
    free(s->classes);
    free(s->path);
    memset(s, 0, sizeof *s);
}

/* background.WHAT_load in [0, 1) and background.WHAT_second_moment >= 0. */
static ct_status_t background_check(const char *label, const char *what, const char *who, double load, double m2,
                                    ct_error_t *err)
{
    if (!isfinite(load) || load < 0)
        return ct_error_set(err, CT_EINPUT, "%s: background.%s_load: must be >= 0 (got %g)", label, what, load);
    if (load >= 1)
        return ct_error_set(err, CT_EUNSTABLE, "%s: background.%s_load: %g >= 1: %s saturated before any job runs",
                            label, what, load, who);
    if (!isfinite(m2) || m2 < 0)
        return ct_error_set(err, CT_EINPUT, "%s: background.%s_second_moment: must be >= 0 s (got %g)", label, what,
                            m2);
    return CT_OK;
}

ct_status_t ct_scenario_validate(const ct_scenario_t *s, const char *label, ct_error_t *err)
{
    if (s->servers < 1)
        return ct_error_set(err, CT_EINPUT, "%s: cluster.servers: must be at least 1", label);
    if (!isfinite(s->link_bandwidth) || s->link_bandwidth <= 0)
        return ct_error_set(err, CT_EINPUT, "%s: cluster.link_bandwidth: must be a positive number of bytes/s (got %g)",
                            label, s->link_bandwidth);
    if (!isfinite(s->speed) || s->speed <= 0)
        return ct_error_set(err, CT_EINPUT, "%s: cluster.speed: must be positive (got %g)", label, s->speed);
    ct_status_t st = background_check(label, "link", "the link is", s->rho_bg, s->m2_bg, err);
    if (st != CT_OK)
        return st;
    if ((st = background_check(label, "server", "servers are", s->rho_bg_s, s->m2_bg_s, err)) != CT_OK)
        return st;
    if (s->n_classes == 0)
        return ct_error_set(err, CT_EINPUT, "%s: classes: at least one job class is needed", label);
    for (size_t i = 0; i < s->n_classes; i++) {
        const ct_class_t *c = &s->classes[i];
        if (!isfinite(c->rate) || c->rate <= 0)
            return ct_error_set(err, CT_EINPUT, "%s: classes[%zu].arrival_rate: class '%s' needs a positive rate in "
                                "jobs/s (got %g)", label, i, c->name, c->rate);
    }
    size_t dup;
    st = ct_first_duplicate(s->classes, sizeof s->classes[0], offsetof(ct_class_t, name), s->n_classes, &dup, err);
    if (st == CT_OK && dup < s->n_classes)
        st = ct_error_set(err, CT_EINPUT, "%s: classes[%zu].name: duplicate class name '%s'", label, dup,
                          s->classes[dup].name);
    return st;
}

/* Directory part of path, with a trailing slash ("" for none). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* From this many classes on, their DAG files load on the cores. */
#define DAG_LOAD_PARALLEL 64

typedef struct {
    ct_scenario_t *s;
    char *const *fulls; /* class i's DAG file, the scenario's folder prefixed */
    const char *path;   /* the scenario file */
} dag_load_ctx_t;

/* Loads class i's DAG (any thread: it writes only class i's). */
static ct_status_t dag_load_point(size_t i, void *arg, ct_error_t *err)
{
    const dag_load_ctx_t *c = arg;
    ct_status_t st = ct_dag_load(&c->s->classes[i].dag, c->fulls[i], NULL, err);
    if (st != CT_OK)
        ct_error_prefix(err, "%s: classes[%zu].dag: ", c->path, i);
    return st;
}

ct_status_t ct_scenario_load(ct_scenario_t *s, const char *path, ct_error_t *err)
{
    ct_scenario_destroy(s);
    cJSON *root = NULL;
    char *dir = NULL, **fulls = NULL;
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    if (!(s->path = ct_strdup(path, err)) || !(dir = dir_of(path))) {
        st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        st = ct_error_set(err, CT_EINPUT, "%s: expected a JSON object with \"cluster\" and \"classes\"", path);
        goto done;
    }
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(root, "cluster");
    if (!cJSON_IsObject(cl)) {
        st = ct_error_set(err, CT_EINPUT, "%s: cluster: %s", path, cl ? "expected an object" : "missing");
        goto done;
    }
    double servers = 0;
    s->speed = 1.0;
    if ((st = ct_json_get_number(cl, "servers", 1, path, "cluster", &servers, err)) != CT_OK ||
        (st = ct_json_get_number(cl, "link_bandwidth", 1, path, "cluster", &s->link_bandwidth, err)) != CT_OK ||
        (st = ct_json_get_number(cl, "speed", 0, path, "cluster", &s->speed, err)) != CT_OK)
        goto done;
    if (!(servers >= 1 && servers <= 1e9 && servers == floor(servers))) {
        st = ct_error_set(err, CT_EINPUT, "%s: cluster.servers: expected a whole number >= 1 (got %g)", path, servers);
        goto done;
    }
    s->servers = (size_t)servers;
    const cJSON *bg = cJSON_GetObjectItemCaseSensitive(root, "background");
    if (bg) {
        if (!cJSON_IsObject(bg)) {
            st = ct_error_set(err, CT_EINPUT, "%s: background: expected an object", path);
            goto done;
        }
        if ((st = ct_json_get_number(bg, "link_load", 0, path, "background", &s->rho_bg, err)) != CT_OK ||
            (st = ct_json_get_number(bg, "link_second_moment", 0, path, "background", &s->m2_bg, err)) != CT_OK ||
            (st = ct_json_get_number(bg, "server_load", 0, path, "background", &s->rho_bg_s, err)) != CT_OK ||
            (st = ct_json_get_number(bg, "server_second_moment", 0, path, "background", &s->m2_bg_s, err)) != CT_OK)
            goto done;
    }
    const cJSON *classes = cJSON_GetObjectItemCaseSensitive(root, "classes");
    if (!cJSON_IsArray(classes)) {
        st = ct_error_set(err, CT_EINPUT, "%s: classes: %s", path, classes ? "expected an array" : "missing");
        goto done;
    }
    size_t n = (size_t)cJSON_GetArraySize(classes);
    if (n > CT_MAX_CLASSES) {
        st = ct_error_set(err, CT_ELIMIT, "%s: classes: %zu classes, over the limit of %u", path, n, CT_MAX_CLASSES);
        goto done;
    }
    s->classes = calloc(n ? n : 1, sizeof(ct_class_t));
    if (!s->classes) {
        st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        ct_dag_init(&s->classes[i].dag);
    s->n_classes = n;
    if (!(fulls = calloc(n ? n : 1, sizeof(char *)))) {
        st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    /* The classes' fields first, up to the first bad one (its error kept
     * for after the DAGs before it, as if read one after the other) */
    size_t i = 0;
    ct_status_t meta_st = CT_OK;
    ct_error_t meta_err;
    ct_error_clear(&meta_err);
    const cJSON *c;
    cJSON_ArrayForEach(c, classes) {
        char item[48];
        const char *name, *dag;
        ct_class_t *k = &s->classes[i];
        snprintf(item, sizeof item, "classes[%zu]", i);
        if (!cJSON_IsObject(c)) {
            meta_st = ct_error_set(&meta_err, CT_EINPUT, "%s: %s: expected an object", path, item);
            break;
        }
        if ((meta_st = ct_json_get_string(c, "name", 1, path, item, &name, &meta_err)) != CT_OK ||
            (meta_st = ct_json_get_string(c, "dag", 1, path, item, &dag, &meta_err)) != CT_OK ||
            (meta_st = ct_json_get_number(c, "arrival_rate", 1, path, item, &k->rate, &meta_err)) != CT_OK)
            break;
        if (!name[0]) {
            meta_st = ct_error_set(&meta_err, CT_EINPUT, "%s: %s.name: empty class name", path, item);
            break;
        }
        if (!(k->name = ct_strdup(name, &meta_err)) || !(k->dag_path = ct_strdup(dag, &meta_err))) {
            meta_st = CT_ENOMEM;
            break;
        }
        size_t fl = strlen(dir) + strlen(dag) + 1;
        if (!(fulls[i] = malloc(fl))) {
            meta_st = ct_error_set(&meta_err, CT_ENOMEM, "%s: out of memory", path);
            break;
        }
        snprintf(fulls[i], fl, "%s%s", dag[0] == '/' ? "" : dir, dag);
        i++;
    }
    /* Then the DAGs, on the cores when there are many (a fleet's 1000
     * small files: reading and building them is most of the load); the
     * error reported is the first class's, whatever the threads */
    dag_load_ctx_t ctx = { s, fulls, path };
    if ((st = ct_parallel_for(i, i >= DAG_LOAD_PARALLEL ? 0 : 1, dag_load_point, &ctx, NULL, NULL, err)) != CT_OK)
        goto done;
    if ((st = meta_st) != CT_OK) {
        if (err)
            *err = meta_err;
        goto done;
    }
    st = ct_scenario_validate(s, path, err);
done:
    cJSON_Delete(root);
    free(dir);
    for (size_t k = 0; fulls && k < s->n_classes; k++)
        free(fulls[k]);
    free(fulls);
    if (st != CT_OK)
        ct_scenario_destroy(s);
    return st;
}

ct_status_t ct_scenario_scaled(const ct_scenario_t *s, double scale, ct_scenario_t *out, ct_error_t *err)
{
    ct_scenario_init(out);
    *out = *s;
    out->path = NULL;
    out->classes = NULL;
    out->n_classes = 0;
    if (!(out->path = ct_strdup(s->path ? s->path : "scenario", err)))
        return CT_ENOMEM;
    out->classes = calloc(s->n_classes, sizeof(ct_class_t));
    if (!out->classes) {
        ct_scenario_destroy(out);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < s->n_classes; i++) {
        ct_class_t *d = &out->classes[i];
        const ct_class_t *c = &s->classes[i];
        ct_dag_init(&d->dag);
        out->n_classes = i + 1;
        d->rate = c->rate * scale;
        if (!(d->name = ct_strdup(c->name, err)) || !(d->dag_path = ct_strdup(c->dag_path, err)) ||
            ct_dag_copy(&d->dag, &c->dag, err) != CT_OK) {
            ct_scenario_destroy(out);
            return err ? err->code : CT_ENOMEM;
        }
    }
    return CT_OK;
}

static unsigned long long mix(unsigned long long h, const void *p, size_t n)
{
    return ct_hash64(p, n, h);
}

void ct_scenario_hash(const ct_scenario_t *s, char *buf, size_t len)
{
    unsigned long long h = 0x636f6e74656e64ULL; /* "contend" */
    unsigned long long nserv = s->servers;
    h = mix(h, &nserv, sizeof nserv);
    h = mix(h, &s->link_bandwidth, sizeof(double));
    h = mix(h, &s->speed, sizeof(double));
    h = mix(h, &s->rho_bg, sizeof(double));
    h = mix(h, &s->m2_bg, sizeof(double));
    if (s->rho_bg_s > 0 || s->m2_bg_s > 0) { /* absent: the hash of older scenarios is unchanged */
        h = mix(h, &s->rho_bg_s, sizeof(double));
        h = mix(h, &s->m2_bg_s, sizeof(double));
    }
    for (size_t i = 0; i < s->n_classes; i++) {
        const ct_class_t *c = &s->classes[i];
        const ct_dag_t *d = &c->dag;
        h = mix(h, c->name, strlen(c->name) + 1);
        h = mix(h, &c->rate, sizeof(double));
        for (size_t v = 0; v < d->n_tasks; v++) {
            h = mix(h, d->ids[v], strlen(d->ids[v]) + 1);
            h = mix(h, &d->time[v], sizeof(double));
        }
        for (size_t e = 0; e < d->n_edges; e++) {
            unsigned long long ft[2] = { d->from[e], d->to[e] };
            h = mix(h, ft, sizeof ft);
            h = mix(h, &d->bytes[e], sizeof(double));
        }
    }
    snprintf(buf, len, "%016llx", h);
}
