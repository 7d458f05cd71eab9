/*
 * json.c - defensive cJSON helpers (see ct_json.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_json.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cJSON's parser records its last error in a global, written at every
 * parse: parses on several threads (a scenario's DAG files) take turns. */
static pthread_mutex_t parse_mu = PTHREAD_MUTEX_INITIALIZER;

ct_status_t ct_json_parse(const char *text, size_t len, const char *label, cJSON **out, ct_error_t *err)
{
    const char *end = NULL;
    *out = NULL;
    /* text[len] is a NUL (ct_read_text_file guarantees it). cJSON's
     * whitespace skipper steps back one byte when it reaches the end of the
     * buffer, so trailing whitespace fails the "nothing after the value"
     * check unless the terminator is part of the buffer: include it. */
    if (text[len] != '\0')
        return ct_error_set(err, CT_EINTERNAL, "%s: JSON text is not NUL-terminated", label);
    if (memchr(text, '\0', len))
        return ct_error_set(err, CT_EINPUT, "%s: a NUL byte inside the JSON text", label);
    pthread_mutex_lock(&parse_mu);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    pthread_mutex_unlock(&parse_mu);
    if (!root) {
        /* cJSON leaves end at the failing byte; turn it into line:column. */
        size_t line = 1, col = 1;
        if (end && end >= text && end <= text + len)
            for (const char *p = text; p < end; p++) {
                if (*p == '\n') {
                    line++;
                    col = 1;
                } else
                    col++;
            }
        return ct_error_set(err, CT_EINPUT, "%s:%zu:%zu: malformed JSON%s", label, line, col,
                            end && end >= text + len ? " (unexpected end of file)" : "");
    }
    *out = root;
    return CT_OK;
}

ct_status_t ct_json_load_file(const char *path, cJSON **out, ct_error_t *err)
{
    char *text;
    size_t len;
    *out = NULL;
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return st;
    st = ct_json_parse(text, len, path, out, err);
    free(text);
    return st;
}

static ct_status_t missing_or_type(const cJSON *v, const char *key, const char *label, const char *item,
                                   const char *want, ct_error_t *err)
{
    return ct_error_set(err, CT_EINPUT, "%s: %s%s%s: %s", label, item, item[0] ? "." : "", key,
                        v ? want : "missing");
}

ct_status_t ct_json_get_string(const cJSON *obj, const char *key, int required, const char *label,
                               const char *item, const char **out, ct_error_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && !required)
        return CT_OK;
    if (!cJSON_IsString(v) || !v->valuestring)
        return missing_or_type(v, key, label, item, "expected a string", err);
    *out = v->valuestring;
    return CT_OK;
}

ct_status_t ct_json_get_number(const cJSON *obj, const char *key, int required, const char *label,
                               const char *item, double *out, ct_error_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && !required)
        return CT_OK;
    if (!cJSON_IsNumber(v))
        return missing_or_type(v, key, label, item, "expected a number", err);
    *out = v->valuedouble;
    return CT_OK;
}

int ct_json_put(cJSON *obj, const char *key, cJSON *item)
{
    if (!item)
        return -1;
    int ok = key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item);
    if (!ok) {
        cJSON_Delete(item);
        return -1;
    }
    return 0;
}

/* v in the shortest of 15-17 significant digits that reads back as v
 * (whole numbers under 1e15 without a fraction); 0 when not finite. */
static int number_text(double v, char buf[40])
{
    if (!isfinite(v))
        return 0;
    if (v == floor(v) && fabs(v) < 1e15) { /* ("%.0f" by hand: a table's many counts) */
        unsigned long long u = (unsigned long long)fabs(v);
        char digits[24], *d = digits + sizeof digits;
        *--d = '\0';
        do
            *--d = (char)('0' + u % 10);
        while ((u /= 10) != 0);
        if (signbit(v))
            *--d = '-';
        memcpy(buf, d, (size_t)(digits + sizeof digits - d));
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(buf, 40, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
    return 1;
}

cJSON *ct_json_number(double v)
{
    char buf[40];
    return number_text(v, buf) ? cJSON_CreateRaw(buf) : cJSON_CreateNull();
}

int ct_json_canonical_numbers(cJSON *root)
{
    for (cJSON *x = root ? root->child : NULL, *next; x; x = next) {
        next = x->next;
        if (cJSON_IsNumber(x)) {
            cJSON *n = ct_json_number(x->valuedouble);
            cJSON_bool ok = n && (x->string ? cJSON_ReplaceItemInObjectCaseSensitive(root, x->string, n)
                                            : cJSON_ReplaceItemViaPointer(root, x, n));
            if (!ok) {
                cJSON_Delete(n);
                return -1;
            }
        } else if ((cJSON_IsObject(x) || cJSON_IsArray(x)) && ct_json_canonical_numbers(x) != 0)
            return -1;
    }
    return 0;
}

int ct_json_add_number(cJSON *obj, const char *key, double v)
{
    cJSON *n = ct_json_number(v);
    if (!n)
        return -1;
    if (!cJSON_AddItemToObject(obj, key, n)) {
        cJSON_Delete(n);
        return -1;
    }
    return 0;
}

ct_status_t ct_json_render(const cJSON *root, char **text, ct_error_t *err)
{
    *text = NULL;
    char *printed = cJSON_Print(root);
    if (!printed)
        return ct_error_set(err, CT_ENOMEM, "out of memory printing JSON");
    size_t n = strlen(printed);
    char *copy = malloc(n + 2);
    if (!copy) {
        cJSON_free(printed);
        return ct_error_set(err, CT_ENOMEM, "out of memory printing JSON");
    }
    memcpy(copy, printed, n);
    copy[n] = '\n';
    copy[n + 1] = '\0';
    cJSON_free(printed);
    *text = copy;
    return CT_OK;
}

ct_status_t ct_json_write_file(const cJSON *root, const char *path, ct_error_t *err)
{
    char *text;
    ct_status_t st = ct_json_render(root, &text, err);
    if (st != CT_OK)
        return st;
    st = ct_write_text_file(path, text, err);
    free(text);
    return st;
}

ct_status_t ct_json_or_text_load(const char *path, const char *key, char **text, cJSON **root, const cJSON **arr,
                                 ct_error_t *err)
{
    size_t len;
    *root = NULL;
    *arr = NULL;
    ct_status_t st = ct_read_text_file(path, text, &len, err);
    if (st != CT_OK)
        return st;
    if ((*text)[strspn(*text, " \t\r\n")] != '{')
        return CT_OK;
    if ((st = ct_json_parse(*text, len, path, root, err)) == CT_OK) {
        *arr = cJSON_GetObjectItemCaseSensitive(*root, key);
        if (!cJSON_IsArray(*arr))
            st = ct_error_set(err, CT_EINPUT, "%s: %s: %s", path, key, *arr ? "expected an array" : "missing");
    }
    if (st != CT_OK) {
        cJSON_Delete(*root);
        free(*text);
        *root = NULL;
        *arr = NULL;
        *text = NULL;
    }
    return st;
}

/* Records being read: an array of structs that grows, and what reads them. */
typedef struct {
    const ct_field_t *fields;
    size_t n_fields, size, n, cap;
    unsigned char *items;
} records_t;

void ct_records_free(const ct_field_t *fields, size_t n_fields, size_t size, void *items, size_t n)
{
    unsigned char *p = items;
    for (size_t i = 0; p && i < n; i++)
        for (size_t f = 0; f < n_fields; f++)
            if (fields[f].kind == CT_FIELD_TEXT)
                free(*(char **)(p + i * size + fields[f].offset));
    free(items);
}

/* Room for one more item (zeroed): the new one is items[n - 1]. */
static ct_status_t records_grow(records_t *r, ct_error_t *err)
{
    if (r->n == r->cap) {
        size_t ncap = r->cap ? 2 * r->cap : 64;
        unsigned char *p = realloc(r->items, ncap * r->size);
        if (!p)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        r->items = p;
        r->cap = ncap;
    }
    memset(r->items + r->n * r->size, 0, r->size);
    r->n++;
    return CT_OK;
}

/* Field f of the last item from s (text) or v; CT_EINPUT when a count is
 * not whole in 1 .. 1e6. */
static ct_status_t records_set(records_t *r, size_t f, const char *s, double v, ct_error_t *err)
{
    const ct_field_t *fd = &r->fields[f];
    unsigned char *m = r->items + (r->n - 1) * r->size + fd->offset;
    switch (fd->kind) {
    case CT_FIELD_TEXT: return (*(char **)m = ct_strdup(s ? s : "", err)) ? CT_OK : CT_ENOMEM;
    case CT_FIELD_COUNT:
        if (!(v >= 1 && v <= 1e6 && v == floor(v)))
            return CT_EINPUT;
        *(uint32_t *)m = (uint32_t)v;
        return CT_OK;
    default: *(double *)m = v; return CT_OK;
    }
}

static const char *records_expected(const ct_field_t *fd)
{
    return fd->kind == CT_FIELD_COUNT ? "a whole number >= 1" : "a number";
}

static ct_status_t records_csv(records_t *r, char *text, const char *path, ct_error_t *err)
{
    size_t line = 0, nc, header = 0, nf = r->n_fields;
    int col[32];
    char *cells[32], *cur = text;
    const char *names[32];
    for (size_t f = 0; f < nf; f++)
        names[f] = r->fields[f].csv;
    while (ct_csv_next(&cur, &line, cells, 32, &nc)) {
        if (!header++) {
            ct_csv_columns(cells, nc, names, nf, col);
            for (size_t f = 0; f < nf; f++)
                if (col[f] < 0 && r->fields[f].csv_required)
                    return ct_error_set(err, CT_EINPUT, "%s:%zu: header lacks the column '%s'", path, line, names[f]);
            continue;
        }
        ct_status_t st = records_grow(r, err);
        for (size_t f = 0; f < nf && st == CT_OK; f++) {
            const ct_field_t *fd = &r->fields[f];
            double v = fd->absent;
            const char *cell = col[f] < 0 ? NULL : (size_t)col[f] < nc ? cells[col[f]] : "";
            if (cell && fd->kind != CT_FIELD_TEXT && !ct_csv_number(cell, &v))
                st = CT_EINPUT;
            if (st == CT_OK)
                st = records_set(r, f, cell, v, err);
            if (st == CT_EINPUT)
                return ct_error_set(err, CT_EINPUT, "%s:%zu: %s: expected %s", path, line, fd->csv, records_expected(fd));
        }
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

static ct_status_t records_json(records_t *r, const cJSON *arr, const char *path, const char *key, ct_error_t *err)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        char item[48];
        snprintf(item, sizeof item, "%s[%zu]", key, r->n);
        if (!cJSON_IsObject(it))
            return ct_error_set(err, CT_EINPUT, "%s: %s: expected an object", path, item);
        ct_status_t st = records_grow(r, err);
        for (size_t f = 0; f < r->n_fields && st == CT_OK; f++) {
            const ct_field_t *fd = &r->fields[f];
            const char *s = "";
            double v = fd->absent;
            st = fd->kind == CT_FIELD_TEXT ? ct_json_get_string(it, fd->json, fd->json_required, path, item, &s, err)
                                           : ct_json_get_number(it, fd->json, fd->json_required, path, item, &v, err);
            if (st == CT_OK && (st = records_set(r, f, s, v, err)) == CT_EINPUT)
                st = ct_error_set(err, CT_EINPUT, "%s: %s.%s: expected %s", path, item, fd->json, records_expected(fd));
        }
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

ct_status_t ct_records_load(const char *path, const char *key, const ct_field_t *fields, size_t n_fields,
                            size_t size, void **items, size_t *n, ct_error_t *err)
{
    records_t r = { fields, n_fields, size, 0, 0, NULL };
    char *text;
    cJSON *root;
    const cJSON *arr;
    *items = NULL;
    *n = 0;
    if (n_fields == 0 || n_fields > 32)
        return ct_error_set(err, CT_EINPUT, "%s: records of %zu fields", path, n_fields);
    ct_status_t st = ct_json_or_text_load(path, key, &text, &root, &arr, err);
    if (st != CT_OK)
        return st;
    st = root ? records_json(&r, arr, path, key, err) : records_csv(&r, text, path, err);
    cJSON_Delete(root);
    free(text);
    if (st != CT_OK) {
        ct_records_free(fields, n_fields, size, r.items, r.n);
        return st;
    }
    if (!r.items && !(r.items = calloc(1, size))) /* no record: still an array to free */
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    *items = r.items;
    *n = r.n;
    return CT_OK;
}

/* One struct as a JSON object appended to arr; 0, or -1 on OOM. */
static int records_put(cJSON *arr, const ct_field_t *fields, size_t n_fields, const void *item)
{
    cJSON *o = cJSON_CreateObject();
    if (ct_json_put(arr, NULL, o))
        return -1;
    int bad = 0;
    for (size_t f = 0; f < n_fields; f++) {
        const unsigned char *m = (const unsigned char *)item + fields[f].offset;
        const char *s = fields[f].kind == CT_FIELD_TEXT ? *(char *const *)m : NULL;
        bad |= fields[f].kind == CT_FIELD_TEXT ? ct_json_put(o, fields[f].json, cJSON_CreateString(s ? s : ""))
               : ct_json_add_number(o, fields[f].json,
                                    fields[f].kind == CT_FIELD_COUNT ? *(const uint32_t *)m : *(const double *)m);
    }
    return bad ? -1 : 0;
}

ct_status_t ct_records_write(const char *path, const char *key, const ct_field_t *fields, size_t n_fields,
                             size_t size, const void *items, size_t n, ct_error_t *err)
{
    cJSON *r, *arr;
    if (ct_json_new_list(key, &r, &arr, err) != CT_OK)
        return CT_ENOMEM;
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = records_put(arr, fields, n_fields, (const unsigned char *)items + i * size);
    ct_status_t st = bad ? ct_error_set(err, CT_ENOMEM, "out of memory") : ct_json_write_file(r, path, err);
    cJSON_Delete(r);
    return st;
}

ct_status_t ct_json_new_list(const char *key, cJSON **root, cJSON **arr, ct_error_t *err)
{
    *root = cJSON_CreateObject();
    *arr = cJSON_CreateArray();
    if (!*root || !*arr || !cJSON_AddItemToObject(*root, key, *arr)) {
        cJSON_Delete(*root);
        cJSON_Delete(*arr);
        *root = *arr = NULL;
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* The streaming writer (ct_jw_t): cJSON_Print's layout, byte for byte.      */

static void jw_put(ct_jw_t *w, const char *s, size_t n)
{
    if (w->oom)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *b = realloc(w->buf, cap);
        if (!b) {
            w->oom = 1;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void jw_tabs(ct_jw_t *w, unsigned n)
{
    static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    for (; n > 16; n -= 16)
        jw_put(w, tabs, 16);
    jw_put(w, tabs, n);
}

/* A string as cJSON escapes it: quote, backslash and the short control
 * escapes, other bytes under 0x20 as \u00xx, the rest verbatim. */
static void jw_quoted(ct_jw_t *w, const char *s)
{
    jw_put(w, "\"", 1);
    const char *run = s;
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        jw_put(w, run, (size_t)(s - run));
        char e[8];
        switch (c) {
        case '"': jw_put(w, "\\\"", 2); break;
        case '\\': jw_put(w, "\\\\", 2); break;
        case '\b': jw_put(w, "\\b", 2); break;
        case '\f': jw_put(w, "\\f", 2); break;
        case '\n': jw_put(w, "\\n", 2); break;
        case '\r': jw_put(w, "\\r", 2); break;
        case '\t': jw_put(w, "\\t", 2); break;
        default:
            snprintf(e, sizeof e, "\\u%04x", c);
            jw_put(w, e, 6);
        }
        run = s + 1;
    }
    if (run)
        jw_put(w, run, strlen(run));
    jw_put(w, "\"", 1);
}

/* Before a value: in an object its separator, indentation and key; in an
 * array its separator. */
static void jw_member(ct_jw_t *w, const char *key)
{
    if (w->level == 0) /* (the top value) */
        return;
    unsigned i = w->level - 1;
    int first = !w->count[i]++;
    if (w->is_object[i]) {
        jw_put(w, first ? "" : ",\n", first ? 0 : 2);
        jw_tabs(w, w->depth);
        jw_quoted(w, key);
        jw_put(w, ":\t", 2);
    } else if (!first)
        jw_put(w, ", ", 2);
}

void ct_jw_init(ct_jw_t *w, unsigned depth)
{
    memset(w, 0, sizeof *w);
    w->depth = depth;
}

static void jw_open(ct_jw_t *w, const char *key, int object)
{
    jw_member(w, key);
    if (w->level >= CT_JW_MAX_LEVELS) {
        w->oom = 1; /* (deeper than any document written here) */
        return;
    }
    w->is_object[w->level] = (unsigned char)object;
    w->count[w->level++] = 0;
    w->depth++;
    jw_put(w, object ? "{\n" : "[", object ? 2 : 1);
}

void ct_jw_object(ct_jw_t *w, const char *key)
{
    jw_open(w, key, 1);
}

void ct_jw_array(ct_jw_t *w, const char *key)
{
    jw_open(w, key, 0);
}

void ct_jw_end(ct_jw_t *w)
{
    if (w->level == 0 || w->oom) {
        w->oom = 1;
        return;
    }
    unsigned i = --w->level;
    if (w->is_object[i]) {
        if (w->count[i])
            jw_put(w, "\n", 1);
        jw_tabs(w, w->depth - 1);
        jw_put(w, "}", 1);
    } else
        jw_put(w, "]", 1);
    w->depth--;
}

void ct_jw_string(ct_jw_t *w, const char *key, const char *s)
{
    jw_member(w, key);
    jw_quoted(w, s);
}

void ct_jw_number(ct_jw_t *w, const char *key, double v)
{
    char buf[40];
    jw_member(w, key);
    if (number_text(v, buf))
        jw_put(w, buf, strlen(buf));
    else
        jw_put(w, "null", 4);
}

void ct_jw_true(ct_jw_t *w, const char *key)
{
    jw_member(w, key);
    jw_put(w, "true", 4);
}

void ct_jw_item(ct_jw_t *w, const char *key, const cJSON *item)
{
    if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
        int object = cJSON_IsObject(item) != 0;
        jw_open(w, key, object);
        for (const cJSON *c = item->child; c && !w->oom; c = c->next)
            ct_jw_item(w, object ? (c->string ? c->string : "") : NULL, c);
        ct_jw_end(w);
        return;
    }
    jw_member(w, key);
    if (cJSON_IsString(item))
        jw_quoted(w, item->valuestring);
    else if (cJSON_IsRaw(item) && item->valuestring)
        jw_put(w, item->valuestring, strlen(item->valuestring));
    else if (cJSON_IsNumber(item)) {
        char buf[40];
        if (number_text(item->valuedouble, buf))
            jw_put(w, buf, strlen(buf));
        else
            jw_put(w, "null", 4);
    } else if (cJSON_IsTrue(item))
        jw_put(w, "true", 4);
    else if (cJSON_IsFalse(item))
        jw_put(w, "false", 5);
    else
        jw_put(w, "null", 4);
}

ct_status_t ct_jw_take(ct_jw_t *w, char **text, size_t *len, ct_error_t *err)
{
    *text = NULL;
    *len = 0;
    if (!w->buf)
        jw_put(w, "", 0);
    if (w->oom) {
        free(w->buf);
        w->buf = NULL;
        return ct_error_set(err, CT_ENOMEM, "out of memory writing JSON");
    }
    *text = w->buf;
    *len = w->len;
    w->buf = NULL;
    return CT_OK;
}

ct_status_t ct_jw_finish(ct_jw_t *w, char **text, size_t *len, ct_error_t *err)
{
    if (w->level != 0) /* (misuse: a container left open) */
        w->oom = 1;
    return ct_jw_take(w, text, len, err);
}

void ct_jw_discard(ct_jw_t *w)
{
    free(w->buf);
    w->buf = NULL;
}
