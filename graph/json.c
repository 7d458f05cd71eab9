/*
 * json.c - defensive cJSON helpers (see ct_json.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
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

cJSON *ct_json_number(double v)
{
    char buf[40];
    if (!isfinite(v))
        return cJSON_CreateNull();
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", v);
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
    return cJSON_CreateRaw(buf);
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
