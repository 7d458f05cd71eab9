/*
 * ct_json.h - the one place libcontend touches cJSON's parser and printer.
 *
 * Parsing reports a syntax error with its line and column; the getters check
 * the type of every field before reading it and name "FILE: ITEM.FIELD" in
 * their messages; rendering returns a malloc'd string (what cJSON printed is
 * released with cJSON_free here, never by callers).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_JSON_H
#define CT_JSON_H

#include "ct_base.h"
#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parses text[0..len) as one JSON value with nothing after it; text[len]
 *  must be the NUL terminator. */
ct_status_t ct_json_parse(const char *text, size_t len, const char *label, cJSON **out, ct_error_t *err);
/** Reads and parses a whole file. */
ct_status_t ct_json_load_file(const char *path, cJSON **out, ct_error_t *err);

/** A file that is either JSON ({"KEY": [...]}) or text (CSV), told apart
 *  by its first non-blank byte. On success *text holds the file (caller
 *  frees it); for JSON *root is the parsed document (caller deletes it) and
 *  *arr its array under key, else both are NULL. On error nothing is left
 *  to free. */
ct_status_t ct_json_or_text_load(const char *path, const char *key, char **text, cJSON **root, const cJSON **arr,
                                 ct_error_t *err);

/** A field of a record file (ct_records_load) and where it lives in the
 *  caller's struct: its name in a JSON object and as a CSV column, its kind
 *  (text: a char * the struct owns; number: a double; count: a uint32_t,
 *  whole in 1 .. 1e6), whether each form must give it, a number's value
 *  when it is absent (text is then ""), and its offset in the struct. */
typedef enum { CT_FIELD_TEXT, CT_FIELD_NUMBER, CT_FIELD_COUNT } ct_field_kind_t;
typedef struct {
    const char *json, *csv;
    ct_field_kind_t kind;
    int json_required, csv_required;
    double absent;
    size_t offset;
} ct_field_t;

/** Reads the records of a file that is JSON ({"KEY": [{...}, ...]}) or CSV
 *  with a header (told apart as ct_json_or_text_load does) into a new
 *  array of *n structs of size bytes each (caller frees it and the text
 *  fields; other members zero). Errors name the file and the line (CSV) or
 *  the item and field (JSON); on error nothing is left to free. Time
 *  O(file size). */
ct_status_t ct_records_load(const char *path, const char *key, const ct_field_t *fields, size_t n_fields,
                            size_t size, void **items, size_t *n, ct_error_t *err);
/** Frees the text fields of n structs at items and the array itself (what
 *  ct_records_load allocated); NULL items is a no-op. */
void ct_records_free(const ct_field_t *fields, size_t n_fields, size_t size, void *items, size_t n);
/** Writes n structs of size bytes at items to path as {"KEY": [...]}, an
 *  object a struct with the fields under their JSON names in their order
 *  (NULL text as ""), safely (ct_json_write_file). */
ct_status_t ct_records_write(const char *path, const char *key, const ct_field_t *fields, size_t n_fields,
                             size_t size, const void *items, size_t n, ct_error_t *err);

/** obj[key] as a string. If absent: CT_EINPUT when required, else CT_OK with
 *  *out unchanged. item names obj in messages ("tasks[3]"; may be ""). */
ct_status_t ct_json_get_string(const cJSON *obj, const char *key, int required, const char *label,
                               const char *item, const char **out, ct_error_t *err);
/** obj[key] as a number (finite or not: the caller checks its range). */
ct_status_t ct_json_get_number(const cJSON *obj, const char *key, int required, const char *label,
                               const char *item, double *out, ct_error_t *err);

/** A number item that prints in the shortest form that reads back as the
 *  same double (cJSON's own printer rounds to 15 digits: 0.30000000000000004
 *  would come back as 0.3). Non-finite values print as null. NULL on OOM. */
cJSON *ct_json_number(double v);
/** Replaces every number in the tree by its ct_json_number form, so a
 *  document parsed back prints as it was written. 0, or -1 on OOM. */
int ct_json_canonical_numbers(cJSON *root);
/** Adds item to obj under key (an array when key is NULL); 0 on success,
 *  -1 (item freed) when item is NULL or cannot be added. Lets a builder
 *  chain additions and test one flag at the end. */
int ct_json_put(cJSON *obj, const char *key, cJSON *item);
/** Adds ct_json_number(v) under key; returns 0 on success. */
int ct_json_add_number(cJSON *obj, const char *key, double v);

/** A new object {"KEY": []}: *root (caller deletes) and *arr inside it.
 *  CT_ENOMEM (nothing to free) on failure. */
ct_status_t ct_json_new_list(const char *key, cJSON **root, cJSON **arr, ct_error_t *err);

/** Prints formatted JSON into a malloc'd string, with a final newline. */
ct_status_t ct_json_render(const cJSON *root, char **text, ct_error_t *err);
/** Renders and writes atomically to path ("-" = stdout). */
ct_status_t ct_json_write_file(const cJSON *root, const char *path, ct_error_t *err);

/**
 * A streaming JSON writer whose output is byte for byte what cJSON_Print
 * gives for the same tree built with ct_json_number's numbers: a document
 * of hundreds of thousands of values (a 1000-class table) written without
 * a cJSON node each. depth indents it as a value nested that deep (0: a
 * whole document). Calls after a failure do nothing; ct_jw_finish reports
 * it. Keys are NULL inside arrays and for the top value. Time O(output).
 */
#define CT_JW_MAX_LEVELS 32
typedef struct {
    char *buf;                                /* owned until ct_jw_finish; NUL-terminated */
    size_t len, cap;
    unsigned depth;                           /* cJSON's print depth: the indentation of members */
    unsigned level;                           /* containers open */
    unsigned char is_object[CT_JW_MAX_LEVELS];
    size_t count[CT_JW_MAX_LEVELS];           /* values written in each open container */
    int oom;                                  /* a failure: out of memory or misuse */
} ct_jw_t;

void ct_jw_init(ct_jw_t *w, unsigned depth);
void ct_jw_object(ct_jw_t *w, const char *key);   /**< opens an object */
void ct_jw_array(ct_jw_t *w, const char *key);    /**< opens an array */
void ct_jw_end(ct_jw_t *w);                       /**< closes the innermost one */
void ct_jw_string(ct_jw_t *w, const char *key, const char *s);
/** As ct_json_number prints it (null when not finite). */
void ct_jw_number(ct_jw_t *w, const char *key, double v);
void ct_jw_true(ct_jw_t *w, const char *key);
/** A cJSON tree as cJSON_Print would print it at this depth, its numbers
 *  as ct_json_number's (raw items verbatim). O(its size), recursive. */
void ct_jw_item(ct_jw_t *w, const char *key, const cJSON *item);
/** The text (caller frees it) and its length; CT_ENOMEM on a failure or
 *  an open container (the buffer freed). */
ct_status_t ct_jw_finish(ct_jw_t *w, char **text, size_t *len, ct_error_t *err);
/** The text so far with its containers left open (a document's head,
 *  whose items are joined after it as text), as ct_jw_finish gives it;
 *  the writer is done after it. */
ct_status_t ct_jw_take(ct_jw_t *w, char **text, size_t *len, ct_error_t *err);
/** Frees what the writer holds (after a failure elsewhere). */
void ct_jw_discard(ct_jw_t *w);

#ifdef __cplusplus
}
#endif
#endif
