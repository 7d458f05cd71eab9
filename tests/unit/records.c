/*
 * records.c - record files (ct_records_load / _write / _free, the job
 * files of SJF-BCO and the training simulator): JSON and CSV forms into
 * a struct through the field table, absent optional fields, every kind of
 * bad input with its message, and a write read back; the streaming JSON
 * writer (ct_jw_t) against cJSON_Print on trees of every kind of value.
 */
#include "ct_json.h"
#include "ct_test.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    double x;
    char *id;
    uint32_t n;
    char *note;
    double y;
} rec_t;

static const ct_field_t fields[] = {
    { "id", "name", CT_FIELD_TEXT, 1, 1, 0, offsetof(rec_t, id) },
    { "note", "note", CT_FIELD_TEXT, 0, 0, 0, offsetof(rec_t, note) },
    { "n", "count", CT_FIELD_COUNT, 1, 1, 0, offsetof(rec_t, n) },
    { "x", "x", CT_FIELD_NUMBER, 1, 1, 0, offsetof(rec_t, x) },
    { "y", "y", CT_FIELD_NUMBER, 0, 0, 7, offsetof(rec_t, y) },
};
enum { NF = sizeof fields / sizeof fields[0] };

static char path_json[64], path_csv[64];

/* Loads text (written to a .json or .csv file) and returns the status. */
static ct_status_t load(const char *text, int csv, rec_t **r, size_t *n, ct_error_t *err)
{
    const char *p = csv ? path_csv : path_json;
    ct_test_write(p, text);
    return ct_records_load(p, "recs", fields, NF, sizeof(rec_t), (void **)r, n, err);
}

static void expect_error(const char *text, int csv, const char *needle)
{
    rec_t *r = (rec_t *)1;
    size_t n = 99;
    ct_error_t err;
    CHECK(load(text, csv, &r, &n, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, needle);
    CHECK(r == NULL && n == 0);
}

/* A tree with every kind of value: nested and empty containers, strings
 * needing each escape, raw numbers as ct_json_number prints them, and
 * cJSON's own numbers (which the writer prints as ct_json_number does). */
static cJSON *sample_tree_leaf(int seed)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "n", cJSON_CreateNumber(seed + 0.1)); /* (cJSON's own number) */
    cJSON_AddItemToObject(o, "raw", cJSON_CreateRaw("12.5"));
    return o;
}

static cJSON *sample_tree(int seed)
{
    cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray(), *inner = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "name", cJSON_CreateString("q\"uo\\te\b\f\n\r\t\x01\x1f\x7f caf\xc3\xa9"));
    cJSON_AddItemToObject(o, "empty_object", cJSON_CreateObject());
    cJSON_AddItemToObject(o, "empty_array", cJSON_CreateArray());
    cJSON_AddItemToObject(o, "", cJSON_CreateString(""));
    for (int i = 0; i < 5 + seed; i++) {
        double v = (i - 2) * 0.1 * (seed + 1) + (i == 3 ? 1e-300 : 0);
        cJSON_AddItemToArray(a, ct_json_number(v));
        cJSON_AddItemToArray(a, ct_json_number(i * 1000.0 - 7));
    }
    cJSON_AddItemToArray(a, ct_json_number(NAN));
    cJSON_AddItemToArray(a, cJSON_CreateTrue());
    cJSON_AddItemToArray(a, cJSON_CreateFalse());
    cJSON_AddItemToArray(a, cJSON_CreateNull());
    cJSON_AddItemToArray(a, cJSON_CreateObject());
    cJSON_AddItemToArray(a, cJSON_CreateArray());
    cJSON *nest = cJSON_CreateArray();
    cJSON_AddItemToArray(nest, cJSON_CreateString("x"));
    cJSON_AddItemToArray(nest, ct_json_number(-0.0));
    cJSON_AddItemToArray(a, nest);
    cJSON_AddItemToObject(o, "values", a);
    cJSON_AddItemToObject(inner, "k\tey", ct_json_number(123456789012345.0));
    cJSON_AddItemToObject(inner, "big", ct_json_number(1e15));
    cJSON_AddItemToObject(inner, "deep", sample_tree_leaf(seed));
    cJSON_AddItemToObject(o, "inner", inner);
    return o;
}

static void writer_matches_cjson(void)
{
    ct_error_t err;
    for (int seed = 0; seed < 3; seed++) {
        cJSON *tree = sample_tree(seed);
        char *ref = cJSON_Print(tree), *text = NULL;
        size_t len = 0;
        ct_jw_t w;
        ct_jw_init(&w, 0);
        ct_jw_item(&w, NULL, tree);
        CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_OK);
        CHECK_MSG(ref && text && len == strlen(ref) && !strcmp(text, ref), "writer:\n%s\ncJSON:\n%s", text, ref);
        free(text);
        /* nested two deep (an entry in a document's array): the same as
         * cJSON prints it there */
        cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray();
        cJSON_AddItemToObject(doc, "s", arr);
        cJSON_AddItemToArray(arr, cJSON_Duplicate(tree, 1));
        char *whole = cJSON_Print(doc);
        ct_jw_init(&w, 2);
        ct_jw_item(&w, NULL, tree);
        CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_OK);
        CHECK(whole && text && strstr(whole, text) && strlen(whole) == strlen("{\n\t\"s\":\t[]\n}") + len);
        free(text);
        cJSON_free(whole);
        cJSON_Delete(doc);
        cJSON_free(ref);
        cJSON_Delete(tree);
    }
    /* by hand, the calls a table writer makes */
    cJSON *ref_tree = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    cJSON_AddItemToObject(ref_tree, "p", ct_json_number(0.30000000000000004));
    cJSON_AddItemToObject(ref_tree, "flag", cJSON_CreateTrue());
    cJSON_AddItemToArray(arr, cJSON_CreateString("a"));
    cJSON_AddItemToArray(arr, cJSON_CreateObject());
    cJSON_AddItemToObject(ref_tree, "list", arr);
    char *ref = cJSON_Print(ref_tree), *text = NULL;
    size_t len;
    ct_jw_t w;
    ct_jw_init(&w, 0);
    ct_jw_object(&w, NULL);
    ct_jw_number(&w, "p", 0.30000000000000004);
    ct_jw_true(&w, "flag");
    ct_jw_array(&w, "list");
    ct_jw_string(&w, NULL, "a");
    ct_jw_object(&w, NULL);
    ct_jw_end(&w);
    ct_jw_end(&w);
    ct_jw_end(&w);
    CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_OK && !strcmp(text, ref));
    free(text);
    cJSON_free(ref);
    cJSON_Delete(ref_tree);
    /* misuse: a container left open, or one closed too many */
    ct_jw_init(&w, 0);
    ct_jw_array(&w, NULL);
    CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_ENOMEM && text == NULL);
    ct_jw_init(&w, 0);
    ct_jw_end(&w);
    CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_ENOMEM && text == NULL);
    ct_jw_init(&w, 0);
    ct_jw_end(&w);
    CHECK(ct_jw_take(&w, &text, &len, &err) == CT_ENOMEM && text == NULL);
    /* a document's head taken with its array open, an item written two
     * deep joined after it, and the tail: cJSON's print of the document */
    ct_jw_init(&w, 0);
    ct_jw_object(&w, NULL);
    ct_jw_string(&w, "format", "x/1");
    ct_jw_array(&w, "items");
    char *head = NULL;
    size_t hl = 0;
    CHECK(ct_jw_take(&w, &head, &hl, &err) == CT_OK && head && hl == strlen(head));
    ct_jw_init(&w, 2);
    ct_jw_object(&w, NULL);
    ct_jw_number(&w, "n", 1.5);
    ct_jw_end(&w);
    CHECK(ct_jw_finish(&w, &text, &len, &err) == CT_OK);
    cJSON *d = cJSON_CreateObject(), *items = cJSON_CreateArray(), *item = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "format", "x/1");
    cJSON_AddItemToObject(item, "n", ct_json_number(1.5));
    cJSON_AddItemToArray(items, item);
    cJSON_AddItemToObject(d, "items", items);
    char *whole = cJSON_Print(d);
    CHECK_MSG(whole && head && text && strlen(whole) == hl + len + 3 && !strncmp(whole, head, hl) &&
                  !strncmp(whole + hl, text, len) && !strcmp(whole + hl + len, "]\n}"),
              "head:\n%s\nitem:\n%s\ncJSON:\n%s", head, text, whole);
    free(head);
    free(text);
    cJSON_free(whole);
    cJSON_Delete(d);
}

int main(void)
{
    snprintf(path_json, sizeof path_json, "/tmp/ct-records-%ld.json", (long)getpid());
    snprintf(path_csv, sizeof path_csv, "/tmp/ct-records-%ld.csv", (long)getpid());
    ct_error_t err;
    rec_t *r;
    size_t n;

    /* JSON: the optional fields absent in the second record. */
    CHECK(load("{\"recs\": [{\"id\": \"a\", \"note\": \"hi\", \"n\": 3, \"x\": 1.5, \"y\": -2},"
               " {\"id\": \"b\", \"n\": 1, \"x\": 0}]}",
               0, &r, &n, &err) == CT_OK);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(!strcmp(r[0].id, "a") && !strcmp(r[0].note, "hi") && r[0].n == 3 && r[0].x == 1.5 && r[0].y == -2);
        CHECK(!strcmp(r[1].id, "b") && !strcmp(r[1].note, "") && r[1].n == 1 && r[1].x == 0 && r[1].y == 7);
    }
    /* Written and read back: the same records. */
    CHECK(ct_records_write(path_json, "recs", fields, NF, sizeof(rec_t), r, n, &err) == CT_OK);
    rec_t *back;
    size_t nb;
    CHECK(ct_records_load(path_json, "recs", fields, NF, sizeof(rec_t), (void **)&back, &nb, &err) == CT_OK);
    CHECK(nb == n);
    for (size_t i = 0; i < n && i < nb; i++)
        CHECK(!strcmp(back[i].id, r[i].id) && !strcmp(back[i].note, r[i].note) && back[i].n == r[i].n &&
              back[i].x == r[i].x && back[i].y == r[i].y);
    ct_records_free(fields, NF, sizeof(rec_t), back, nb);
    ct_records_free(fields, NF, sizeof(rec_t), r, n);

    /* CSV: columns in any order (CSV names), optional columns absent, CRLF. */
    CHECK(load("x,count,name\r\n2.5,4,c\r\n", 1, &r, &n, &err) == CT_OK);
    CHECK(n == 1 && !strcmp(r[0].id, "c") && !strcmp(r[0].note, "") && r[0].n == 4 && r[0].x == 2.5 && r[0].y == 7);
    ct_records_free(fields, NF, sizeof(rec_t), r, n);

    /* No record: an empty array, still one to free. */
    CHECK(load("{\"recs\": []}", 0, &r, &n, &err) == CT_OK && n == 0 && r != NULL);
    ct_records_free(fields, NF, sizeof(rec_t), r, n);
    ct_records_free(fields, NF, sizeof(rec_t), NULL, 0);

    /* Bad input: a message naming the file, the line or item and the field. */
    expect_error("name,count\nc,4\n", 1, "ct-records-");
    expect_error("name,count\nc,4\n", 1, ".csv:1: header lacks the column 'x'");
    expect_error("name,count,x\nc,0,1\n", 1, ".csv:2: count: expected a whole number >= 1");
    expect_error("name,count,x\nc,2,1\nd,2.5,1\n", 1, ".csv:3: count: expected a whole number >= 1");
    expect_error("name,count,x\nc,2,abc\n", 1, ".csv:2: x: expected a number");
    expect_error("name,count,x\nc,2\n", 1, ".csv:2: x: expected a number");
    expect_error("{\"recs\": [{\"id\": \"a\", \"n\": 1, \"x\": 0}, 3]}", 0, "recs[1]: expected an object");
    expect_error("{\"recs\": [{\"id\": \"a\", \"n\": 1e7, \"x\": 0}]}", 0, "recs[0].n: expected a whole number >= 1");
    expect_error("{\"recs\": [{\"id\": \"a\", \"n\": 1}]}", 0, "recs[0]");
    expect_error("{\"recs\": [{\"id\": 5, \"n\": 1, \"x\": 0}]}", 0, "recs[0]");
    expect_error("{\"recs\": {}}", 0, "recs: expected an array");
    remove(path_json);
    remove(path_csv);
    writer_matches_cjson();
    return ct_test_end();
}
