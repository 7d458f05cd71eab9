/*
 * records.c - record files (ct_records_load / _write / _free, the job
 * files of SJF-BCO and the training simulator): JSON and CSV forms into
 * a struct through the field table, absent optional fields, every kind of
 * bad input with its message, and a write read back.
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
    return ct_test_end();
}
