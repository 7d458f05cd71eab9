/*
 * extender_args.c - the one-pass ExtenderArgs reader against cJSON: on
 * seeded generated bodies (keys in any order, duplicated, escaped, fields
 * of the wrong type, junk values, both candidate forms) both must find the
 * same labels and candidates; on mutants of them, whatever the reader
 * accepts cJSON must accept with the same fields; and the reader must
 * reject what RFC 8259 rejects (it is stricter than cJSON, never laxer).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_test.h"
#include "extender_args.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* The fields as service.c read them with cJSON before the reader. */
typedef struct {
    int ok; /* parsed, one value, nothing after it, an object */
    const char *cls, *job, *task;
    int ncand;
    const char *cand[64];
} ref_t;

static const char *label(const cJSON *labels, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(labels, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static cJSON *reference(const char *body, size_t len, ref_t *r)
{
    memset(r, 0, sizeof *r);
    const char *end = NULL;
    cJSON *req = cJSON_ParseWithLengthOpts(body, len, &end, 0);
    if (!req)
        return NULL;
    while (end < body + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
        end++;
    if (end != body + len || !cJSON_IsObject(req))
        return req;
    r->ok = 1;
    const cJSON *labels = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(req, "Pod"), "metadata"), "labels");
    r->cls = label(labels, "contend.io/class");
    r->job = label(labels, "contend.io/job");
    r->task = label(labels, "contend.io/task");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(req, "NodeNames");
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(req, "Nodes"), "items");
    const cJSON *list = cJSON_IsArray(names) ? names : cJSON_IsArray(items) ? items : NULL;
    r->ncand = list ? 0 : -1;
    for (const cJSON *x = list ? list->child : NULL; x && r->ncand < 64; x = x->next) {
        const cJSON *nm = list == names ? x
                                        : cJSON_GetObjectItemCaseSensitive(
                                              cJSON_GetObjectItemCaseSensitive(x, "metadata"), "name");
        r->cand[r->ncand++] = cJSON_IsString(nm) ? nm->valuestring : NULL;
    }
    return req;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The reader's fields equal the reference's. */
static int agree(const ct_extender_args_t *a, const ref_t *r)
{
    if (!same_str(a->cls, r->cls) || !same_str(a->job, r->job) || !same_str(a->task, r->task) ||
        a->ncand != r->ncand)
        return 0;
    for (int i = 0; i < a->ncand; i++)
        if (!same_str(a->cand[i], r->cand[i]))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Generated bodies.                                                         */

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static unsigned pick(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

typedef struct {
    char b[16384];
    size_t n;
} out_t;

static void add(out_t *o, const char *s)
{
    size_t k = strlen(s);
    if (o->n + k < sizeof o->b) {
        memcpy(o->b + o->n, s, k);
        o->n += k;
        o->b[o->n] = '\0';
    }
}

static void sp(out_t *o)
{
    static const char *const w[] = { "", "", "", " ", "\n  ", "\t", "\r\n" };
    add(o, w[pick(7)]);
}

/* A key, sometimes with an escape that decodes to the same text. */
static void key(out_t *o, const char *k)
{
    add(o, "\"");
    if (pick(4) == 0 && k[0]) {
        char e[8];
        snprintf(e, sizeof e, "\\u%04x", (unsigned char)k[0]);
        add(o, e);
        add(o, k + 1);
    } else
        add(o, k);
    add(o, "\"");
    sp(o);
    add(o, ":");
    sp(o);
}

/* A string value with escapes of every kind now and then. */
static void str(out_t *o, const char *base)
{
    static const char *const tails[] = { "", "", "", "-\\u00e9", "\\n", "\\/x", "\\ud83d\\ude00", "\\\"q\\\"",
                                         "\\\\", "\xc3\xa9" };
    add(o, "\"");
    add(o, base);
    add(o, tails[pick(10)]);
    add(o, "\"");
}

static void junk(out_t *o, int depth)
{
    static const char *const lits[] = { "0", "-0.5e+3", "12", "1E9", "true", "false", "null", "\"x\"", "3.25" };
    unsigned k = depth > 2 ? 0 : pick(5);
    if (k < 3)
        add(o, lits[pick(9)]);
    else if (k == 3) {
        add(o, "[");
        for (unsigned i = 0, n = pick(3); i < n; i++) {
            if (i)
                add(o, ",");
            sp(o);
            junk(o, depth + 1);
        }
        add(o, "]");
    } else {
        add(o, "{");
        for (unsigned i = 0, n = pick(3); i < n; i++) {
            if (i)
                add(o, ",");
            key(o, i ? "other" : "name");
            junk(o, depth + 1);
        }
        add(o, "}");
    }
}

/* Junk once in `odds`, else a string: prefix and a number below range. */
static void name_or_junk(out_t *o, unsigned odds, const char *prefix, unsigned range)
{
    if (pick(odds) == 0) {
        junk(o, 1);
        return;
    }
    char v[32];
    snprintf(v, sizeof v, "%s%u", prefix, pick(range));
    str(o, v);
}

static void labels(out_t *o)
{
    static const char *const ks[] = { "contend.io/class", "contend.io/job", "contend.io/task", "app" };
    add(o, "{");
    for (unsigned i = 0, n = pick(6); i < n; i++) {
        if (i)
            add(o, ",");
        sp(o);
        key(o, ks[pick(4)]);
        name_or_junk(o, 6, "v", 100);
    }
    add(o, "}");
}

static void pod(out_t *o)
{
    if (pick(8) == 0) {
        junk(o, 1);
        return;
    }
    add(o, "{");
    key(o, "metadata");
    if (pick(8) == 0)
        junk(o, 1);
    else {
        add(o, "{");
        key(o, "name");
        str(o, "p");
        add(o, ",");
        key(o, "labels");
        if (pick(8) == 0)
            junk(o, 1);
        else
            labels(o);
        add(o, "}");
    }
    add(o, ", \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}}");
}

static void name_list(out_t *o)
{
    add(o, "[");
    for (unsigned i = 0, n = pick(6); i < n; i++) {
        if (i)
            add(o, ",");
        sp(o);
        name_or_junk(o, 10, "node-", 50);
    }
    add(o, "]");
}

static void nodes(out_t *o)
{
    if (pick(6) == 0) {
        junk(o, 1);
        return;
    }
    add(o, "{");
    key(o, "kind");
    str(o, "NodeList");
    add(o, ",");
    key(o, "items");
    if (pick(6) == 0)
        junk(o, 1);
    else {
        add(o, "[");
        for (unsigned i = 0, n = pick(5); i < n; i++) {
            if (i)
                add(o, ",");
            if (pick(10) == 0) {
                junk(o, 1);
                continue;
            }
            add(o, "{");
            key(o, "metadata");
            add(o, "{");
            for (unsigned j = 0, m = 1 + pick(2); j < m; j++) { /* sometimes a duplicate name */
                if (j)
                    add(o, ",");
                key(o, "name");
                name_or_junk(o, 8, "n", 50);
            }
            add(o, "}, \"status\": {\"images\": [{\"names\": [\"a\", \"b\"], \"sizeBytes\": 123}]}}");
        }
        add(o, "]");
    }
    add(o, "}");
}

static void body(out_t *o)
{
    o->n = 0;
    o->b[0] = '\0';
    sp(o);
    add(o, "{");
    for (unsigned i = 0, n = pick(6); i < n; i++) {
        if (i)
            add(o, ",");
        sp(o);
        switch (pick(5)) {
        case 0:
            key(o, "Pod");
            pod(o);
            break;
        case 1:
            key(o, "NodeNames");
            if (pick(4) == 0)
                add(o, "null");
            else
                name_list(o);
            break;
        case 2:
            key(o, "Nodes");
            if (pick(4) == 0)
                add(o, "null");
            else
                nodes(o);
            break;
        default:
            key(o, pick(2) ? "Extra" : "nodenames");
            junk(o, 0);
        }
        sp(o);
    }
    add(o, "}");
    sp(o);
}

int main(void)
{
    out_t o;
    ct_extender_args_t a;
    ref_t r;
    int generated = 0, ours = 0, mutants_accepted = 0;
    for (int it = 0; it < 3000; it++) {
        body(&o);
        cJSON *req = reference(o.b, o.n, &r);
        int rc = ct_extender_args_parse(o.b, o.n, &a);
        CHECK_MSG(rc == CT_EA_OK && r.ok && agree(&a, &r), "body %d: %s", it, o.b);
        generated++;
        ours += a.cls != NULL && a.ncand > 0;
        ct_extender_args_free(&a);
        cJSON_Delete(req);
        /* Mutants: what the reader accepts, cJSON accepts alike. */
        for (int m = 0; m < 8; m++) {
            char b[sizeof o.b];
            size_t n = o.n;
            memcpy(b, o.b, n);
            size_t at = pick((unsigned)n);
            static const char bytes[] = "{}[]\",:\\ a0-.eu";
            switch (pick(3)) {
            case 0:
                n = at; /* cut short */
                break;
            case 1:
                b[at] = bytes[pick(sizeof bytes - 1)];
                break;
            default:
                memmove(b + at, b + at + 1, n - at - 1);
                n--;
            }
            rc = ct_extender_args_parse(b, n, &a);
            req = reference(b, n, &r);
            if (rc == CT_EA_OK) {
                mutants_accepted++;
                CHECK_MSG(r.ok && agree(&a, &r), "mutant %.*s", (int)n, b);
            } else if (rc == CT_EA_NOT_OBJECT || rc == CT_EA_TRAILING)
                CHECK_MSG(req != NULL, "mutant %.*s: cJSON rejects what the reader parsed", (int)n, b);
            ct_extender_args_free(&a);
            cJSON_Delete(req);
        }
    }
    CHECK(ours > 100 && mutants_accepted > 100); /* the generator reaches the interesting cases */
    printf("%d generated bodies (%d with a class and candidates) agree with cJSON; %d mutants accepted alike\n",
           generated, ours, mutants_accepted);

    /* Not JSON (RFC 8259): rejected, whatever cJSON would say. */
    static const char *const bad[] = { "", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "{,}", "tru", "nul",
                                       "1.", "-", ".5", "+1", "1e", "\"\\ud800\"", "\"\\udc00x\"",
                                       "\"\\ud800\\u0041\"", "\"\\x\"", "\"abc", "\"a\x01\"", "{\"a\" 1}",
                                       "{\"a\":1 \"b\":2}", "[1 2]", "\f{}" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_MSG(ct_extender_args_parse(bad[i], strlen(bad[i]), &a) == CT_EA_MALFORMED, "'%s'", bad[i]);
        ct_extender_args_free(&a);
    }
    static const struct {
        const char *body;
        int rc;
    } other[] = { { "{} x", CT_EA_TRAILING }, { "{}{}", CT_EA_TRAILING }, { "01", CT_EA_TRAILING }, { "[]", CT_EA_NOT_OBJECT },
                  { " \"s\" ", CT_EA_NOT_OBJECT }, { "-0.0e-0", CT_EA_NOT_OBJECT }, { "\xef\xbb\xbf{}", CT_EA_OK } };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        CHECK_MSG(ct_extender_args_parse(other[i].body, strlen(other[i].body), &a) == other[i].rc, "'%s'",
                  other[i].body);
        ct_extender_args_free(&a);
    }
    /* Escapes decode as cJSON decodes them; NodeNames wins over Nodes. */
    const char *esc = "{\"Nodes\": {\"items\": [{\"metadata\": {\"name\": \"x\"}}]}, \"\\u0050od\": {\"metadata\": "
                      "{\"labels\": {\"contend.io/class\": \"a\\u00e9\\ud83d\\ude00\\t\", \"contend.io/class\": "
                      "\"second\"}}}, \"NodeNames\": [\"n\\/1\", 7]}";
    CHECK(ct_extender_args_parse(esc, strlen(esc), &a) == CT_EA_OK &&
          !strcmp(a.cls, "a\xc3\xa9\xf0\x9f\x98\x80\t") && a.ncand == 2 && !strcmp(a.cand[0], "n/1") && !a.cand[1]);
    ct_extender_args_free(&a);
    /* Nesting: as deep as cJSON allows, and no deeper. */
    static char deep[2 * CT_EA_MAX_DEPTH + 8];
    for (int d = CT_EA_MAX_DEPTH; d <= CT_EA_MAX_DEPTH + 1; d++) {
        memset(deep, '[', (size_t)d);
        memset(deep + d, ']', (size_t)d);
        CHECK(ct_extender_args_parse(deep, 2 * (size_t)d, &a) == (d <= CT_EA_MAX_DEPTH ? CT_EA_NOT_OBJECT : CT_EA_MALFORMED));
        ct_extender_args_free(&a);
    }
    return ct_test_end();
}
