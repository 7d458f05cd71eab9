/*
 * extender_args.c - ExtenderArgs read in one pass (extender_args.h).
 *
 * Design: kube-scheduler sends the whole ExtenderArgs to /prioritize: a
 * Pod and either the candidates' names or their full Node objects (some
 * 13 KB each). Of all that the service needs three labels and the names.
 * A recursive-descent validator (RFC 8259, strict: whitespace, numbers,
 * escapes, paired surrogates) walks the body once; each value carries a
 * role, the path it sits at (root, Pod, Pod.metadata, ...), and only the
 * values at the few paths that matter are decoded, into one arena no
 * larger than the body. Nothing else is allocated: cJSON's tree cost a
 * malloc per value, as much as the rest of the answer (bench_serve). The
 * first of duplicate keys counts and a field of the wrong type is absent,
 * as with cJSON_GetObjectItemCaseSensitive; tests/unit/service.c checks
 * the two agree on generated bodies.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "extender_args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Where a value sits, and so what is kept of it. */
typedef enum {
    R_NONE,      /* validated only */
    R_ROOT,      /* ExtenderArgs */
    R_POD,       /* .Pod */
    R_POD_META,  /* .Pod.metadata */
    R_LABELS,    /* .Pod.metadata.labels */
    R_CLS,       /* .Pod.metadata.labels["contend.io/class"] (and the two below) */
    R_JOB,
    R_TASK,
    R_NAMES,     /* .NodeNames */
    R_NAME,      /* .NodeNames[i] */
    R_NODES,     /* .Nodes */
    R_ITEMS,     /* .Nodes.items */
    R_ITEM,      /* .Nodes.items[i] */
    R_ITEM_META, /* .Nodes.items[i].metadata */
    R_ITEM_NAME  /* .Nodes.items[i].metadata.name */
} role_t;

/* The keys that lead somewhere, per object role. */
typedef struct {
    role_t parent;
    const char *key;
    role_t child;
} edge_t;

static const edge_t edges[] = {
    { R_ROOT, "Pod", R_POD },
    { R_ROOT, "NodeNames", R_NAMES },
    { R_ROOT, "Nodes", R_NODES },
    { R_POD, "metadata", R_POD_META },
    { R_POD_META, "labels", R_LABELS },
    { R_LABELS, "contend.io/class", R_CLS },
    { R_LABELS, "contend.io/job", R_JOB },
    { R_LABELS, "contend.io/task", R_TASK },
    { R_NODES, "items", R_ITEMS },
    { R_ITEM, "metadata", R_ITEM_META },
    { R_ITEM_META, "name", R_ITEM_NAME },
};
#define N_EDGES (sizeof edges / sizeof *edges)
#define KEY_MAX 24 /* longer than any key above: such keys lead nowhere */

typedef struct {
    const unsigned char *p, *end;
    ct_extender_args_t *a;
    size_t used; /* bytes of a->strings taken */
    int nomem;
} scan_t;

enum { T_OBJECT, T_ARRAY, T_STRING, T_OTHER, T_ERROR = -1 };

static void ws(scan_t *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int hex4(const unsigned char *p, uint32_t *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
        if (d > 15)
            return 0;
        *v = *v << 4 | d;
    }
    return 1;
}

/* Appends code point cp as UTF-8 to out (room for 4 more bytes). */
static size_t utf8_put(unsigned char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xc0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xe0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (unsigned char)(0xf0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string at s->p (its opening quote). With out, decodes it there, NUL-
 * terminated, keeping at most cap bytes and the length in *n (more than
 * cap: it did not fit). 0, or -1 when malformed. The decoded form is never
 * longer than the encoded one. */
static int string(scan_t *s, unsigned char *out, size_t cap, size_t *n)
{
    size_t k = 0;
    unsigned char tmp[4];
    s->p++;
    for (;;) {
        if (s->p >= s->end)
            return -1;
        unsigned c = *s->p;
        const unsigned char *piece = s->p;
        size_t len = 1;
        if (c == '"') {
            s->p++;
            break;
        }
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (s->end - s->p < 2)
                return -1;
            unsigned e = s->p[1];
            s->p += 2;
            piece = tmp;
            if (e == 'u') {
                uint32_t cp, lo;
                if (s->end - s->p < 4 || !hex4(s->p, &cp))
                    return -1;
                s->p += 4;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return -1; /* a low surrogate alone */
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' || !hex4(s->p + 2, &lo) ||
                        lo < 0xdc00 || lo > 0xdfff)
                        return -1;
                    s->p += 6;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                len = utf8_put(tmp, cp);
            } else {
                static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
                const char *f = e ? strchr(from, (int)e) : NULL;
                if (!f)
                    return -1;
                tmp[0] = (unsigned char)to[f - from];
            }
        } else
            s->p++;
        if (out) {
            if (k + len <= cap)
                memcpy(out + k, piece, len);
            k += len;
        }
    }
    if (out) {
        if (k < cap)
            out[k] = '\0';
        *n = k;
    }
    return 0;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(scan_t *s)
{
    const unsigned char *p = s->p, *e = s->end;
#define DIGIT(q) ((q) < e && *(q) >= '0' && *(q) <= '9')
    if (p < e && *p == '-')
        p++;
    if (p < e && *p == '0')
        p++;
    else if (DIGIT(p))
        while (DIGIT(p))
            p++;
    else
        return -1;
    if (p < e && *p == '.') {
        if (!DIGIT(p + 1))
            return -1;
        for (p++; DIGIT(p); p++)
            ;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (!DIGIT(p))
            return -1;
        while (DIGIT(p))
            p++;
    }
#undef DIGIT
    s->p = p;
    return 0;
}

/* Appends name (NULL: not a string) to list i. */
static void list_push(scan_t *s, int i, const char *name)
{
    ct_extender_args_t *a = s->a;
    if (a->n[i] == a->cap[i]) {
        int cap = a->cap[i] ? 2 * a->cap[i] : 64;
        const char **l = realloc(a->lists[i], (size_t)cap * sizeof *l);
        if (!l) {
            s->nomem = 1;
            return;
        }
        a->lists[i] = l;
        a->cap[i] = cap;
    }
    a->lists[i][a->n[i]++] = name;
}

static int value(scan_t *s, role_t role, int depth);

/* After a member of an object or array: 1 at a comma (another follows),
 * 0 at the closing bracket, -1 otherwise; either consumed. */
static int after_member(scan_t *s, char close)
{
    ws(s);
    if (s->p < s->end && (*s->p == ',' || *s->p == close))
        return *s->p++ == ',';
    return -1;
}

static int object(scan_t *s, role_t role, int depth)
{
    unsigned seen = 0; /* edges taken in this object: the first of duplicate keys counts */
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return T_OBJECT;
    }
    for (;;) {
        ws(s);
        if (s->p >= s->end || *s->p != '"')
            return T_ERROR;
        unsigned char key[KEY_MAX + 1];
        size_t kn;
        role_t child = R_NONE;
        if (string(s, role == R_NONE ? NULL : key, KEY_MAX, &kn) != 0)
            return T_ERROR;
        if (role != R_NONE && kn < KEY_MAX)
            for (size_t e = 0; e < N_EDGES; e++)
                if (edges[e].parent == role && !(seen & 1u << e) && !strcmp((const char *)key, edges[e].key)) {
                    seen |= 1u << e;
                    child = edges[e].child;
                    break;
                }
        ws(s);
        if (s->p >= s->end || *s->p != ':')
            return T_ERROR;
        s->p++;
        if (value(s, child, depth + 1) == T_ERROR)
            return T_ERROR;
        int next = after_member(s, '}');
        if (next <= 0)
            return next ? T_ERROR : T_OBJECT;
    }
}

static int array(scan_t *s, role_t role, int depth)
{
    int list = role == R_NAMES ? 0 : role == R_ITEMS ? 1 : -1;
    role_t child = list == 0 ? R_NAME : list == 1 ? R_ITEM : R_NONE;
    if (list >= 0)
        s->a->is_array[list] = 1;
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return T_ARRAY;
    }
    for (;;) {
        if (list == 1)
            list_push(s, 1, NULL); /* its name, if it has one, fills the slot */
        if (value(s, child, depth + 1) == T_ERROR)
            return T_ERROR;
        int next = after_member(s, ']');
        if (next <= 0)
            return next ? T_ERROR : T_ARRAY;
    }
}

static int value(scan_t *s, role_t role, int depth)
{
    if (depth > CT_EA_MAX_DEPTH)
        return T_ERROR;
    ws(s);
    if (s->p >= s->end)
        return T_ERROR;
    ct_extender_args_t *a = s->a;
    int t;
    switch (*s->p) {
    case '{':
        t = object(s,
                   role == R_ROOT || role == R_POD || role == R_POD_META || role == R_LABELS || role == R_NODES ||
                           role == R_ITEM || role == R_ITEM_META
                       ? role
                       : R_NONE,
                   depth);
        break;
    case '[':
        t = array(s, role == R_NAMES || role == R_ITEMS ? role : R_NONE, depth);
        break;
    case '"': {
        int keep = role == R_CLS || role == R_JOB || role == R_TASK || role == R_NAME || role == R_ITEM_NAME;
        char *out = keep ? a->strings + s->used : NULL;
        size_t n = 0;
        if (string(s, (unsigned char *)out, SIZE_MAX, &n) != 0)
            return T_ERROR;
        if (keep) {
            s->used += n + 1;
            if (role == R_CLS)
                a->cls = out;
            else if (role == R_JOB)
                a->job = out;
            else if (role == R_TASK)
                a->task = out;
            else if (role == R_NAME)
                list_push(s, 0, out);
            else if (a->n[1] > 0)
                a->lists[1][a->n[1] - 1] = out; /* the item pushed by array() */
        }
        return T_STRING;
    }
    case 't':
    case 'f':
    case 'n': {
        const char *lit = *s->p == 't' ? "true" : *s->p == 'f' ? "false" : "null";
        size_t n = strlen(lit);
        if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n))
            return T_ERROR;
        s->p += n;
        t = T_OTHER;
        break;
    }
    default:
        if (number(s) != 0)
            return T_ERROR;
        t = T_OTHER;
    }
    if (role == R_NAME && t != T_ERROR) /* a candidate that is not a string */
        list_push(s, 0, NULL);
    return t;
}

int ct_extender_args_parse(const char *body, size_t len, ct_extender_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->ncand = -1;
    /* Decoded strings are no longer than their encoding, quotes included. */
    if (!(a->strings = malloc(len + 1)))
        return CT_EA_NOMEM;
    scan_t s = { (const unsigned char *)body, (const unsigned char *)body + len, a, 0, 0 };
    if (len >= 3 && !memcmp(body, "\xef\xbb\xbf", 3)) /* a byte-order mark, as cJSON skips it */
        s.p += 3;
    int t = value(&s, R_ROOT, 1);
    if (s.nomem)
        return CT_EA_NOMEM;
    if (t == T_ERROR)
        return CT_EA_MALFORMED;
    ws(&s);
    if (s.p != s.end)
        return CT_EA_TRAILING;
    if (t != T_OBJECT)
        return CT_EA_NOT_OBJECT;
    int l = a->is_array[0] ? 0 : a->is_array[1] ? 1 : -1;
    if (l >= 0) {
        a->cand = a->lists[l];
        a->ncand = a->n[l];
    }
    return CT_EA_OK;
}

void ct_extender_args_free(ct_extender_args_t *a)
{
    free(a->strings);
    free(a->lists[0]);
    free(a->lists[1]);
    memset(a, 0, sizeof *a);
    a->ncand = -1;
}
