/*
 * base.c - error records, the string map and atomic file output.
 *
 * The string map uses open addressing with linear probing and a load factor
 * kept under 1/2; keys are copied, values are indices (the DAG loaders map
 * task ids to task numbers with it).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

void ct_error_clear(ct_error_t *err)
{
    if (!err)
        return;
    err->code = CT_OK;
    err->msg[0] = '\0';
}

ct_status_t ct_error_set(ct_error_t *err, ct_status_t code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* Keep the promise of one line: fold any newline a caller let in. */
        for (char *p = err->msg; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        err->code = code;
    }
    return code;
}

ct_status_t ct_error_prefix(ct_error_t *err, const char *fmt, ...)
{
    if (!err)
        return CT_EINTERNAL;
    char prefix[256], old[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    size_t np = strlen(prefix), no = strlen(old), cap = sizeof err->msg - 1;
    if (np > cap)
        np = cap;
    if (no > cap - np)
        no = cap - np;
    memcpy(err->msg, prefix, np);
    memcpy(err->msg + np, old, no);
    err->msg[np + no] = '\0';
    return err->code;
}

const char *ct_status_name(ct_status_t code)
{
    switch (code) {
    case CT_OK: return "ok";
    case CT_EINPUT: return "invalid input";
    case CT_ELIMIT: return "limit exceeded";
    case CT_EUNSTABLE: return "unstable load";
    case CT_EIO: return "i/o error";
    case CT_ENOMEM: return "out of memory";
    case CT_ESOLVER: return "solver failure";
    case CT_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

char *ct_strdup(const char *s, ct_error_t *err)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d) {
        ct_error_set(err, CT_ENOMEM, "out of memory copying a string of %zu bytes", n);
        return NULL;
    }
    memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------------------ */

unsigned long long ct_hash64(const void *data, size_t len, unsigned long long seed)
{
    const unsigned char *p = data;
    unsigned long long h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void ct_strmap_init(ct_strmap_t *m)
{
    memset(m, 0, sizeof *m);
}

void ct_strmap_destroy(ct_strmap_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static size_t strmap_slot(const ct_strmap_t *m, const char *key)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)ct_hash64(key, strlen(key), 0) & mask;
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

static ct_status_t strmap_grow(ct_strmap_t *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    ct_strmap_t n = { ncap, 0, calloc(ncap, sizeof(char *)), calloc(ncap, sizeof(size_t)) };
    if (!n.keys || !n.vals) {
        free(n.keys);
        free(n.vals);
        return CT_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t s = strmap_slot(&n, m->keys[i]);
        n.keys[s] = m->keys[i];
        n.vals[s] = m->vals[i];
        n.count++;
    }
    free(m->keys);
    free(m->vals);
    *m = n;
    return CT_OK;
}

ct_status_t ct_strmap_put(ct_strmap_t *m, const char *key, size_t val)
{
    if (2 * (m->count + 1) > m->cap && strmap_grow(m) != CT_OK)
        return CT_ENOMEM;
    size_t s = strmap_slot(m, key);
    if (m->keys[s])
        return CT_EINPUT;
    size_t n = strlen(key) + 1;
    m->keys[s] = malloc(n);
    if (!m->keys[s])
        return CT_ENOMEM;
    memcpy(m->keys[s], key, n);
    m->vals[s] = val;
    m->count++;
    return CT_OK;
}

int ct_strmap_get(const ct_strmap_t *m, const char *key, size_t *val)
{
    if (m->cap == 0)
        return 0;
    size_t s = strmap_slot(m, key);
    if (!m->keys[s])
        return 0;
    if (val)
        *val = m->vals[s];
    return 1;
}

/* ------------------------------------------------------------------------ */

ct_status_t ct_outfile_open(ct_outfile_t *out, const char *path, ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        out->fp = stdout;
        return CT_OK;
    }
    size_t n = strlen(path);
    out->path = malloc(n + 1);
    out->tmp_path = malloc(n + 16);
    if (!out->path || !out->tmp_path) {
        ct_outfile_abort(out);
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
    }
    memcpy(out->path, path, n + 1);
    /* O_EXCL with mode 0666: the kernel applies the umask, as for any new
     * file, and an existing file is never reused. */
    static unsigned long counter;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        unsigned long tag = ((unsigned long)getpid() * 2654435761UL) ^ (++counter * 40503UL) ^ (unsigned long)attempt;
        snprintf(out->tmp_path, n + 16, "%s.tmp.%06lx", path, tag & 0xffffffUL);
        fd = open(out->tmp_path, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(out->tmp_path);
        out->tmp_path = NULL;
        ct_outfile_abort(out);
        return ct_error_set(err, CT_EIO, "%s: cannot create output: %s", path, strerror(e));
    }
    out->fp = fdopen(fd, "w");
    if (!out->fp) {
        int e = errno;
        close(fd);
        ct_outfile_abort(out);
        return ct_error_set(err, CT_EIO, "%s: cannot open output: %s", path, strerror(e));
    }
    return CT_OK;
}

void ct_outfile_abort(ct_outfile_t *out)
{
    if (out->fp && out->fp != stdout)
        fclose(out->fp);
    if (out->tmp_path)
        unlink(out->tmp_path);
    free(out->tmp_path);
    free(out->path);
    memset(out, 0, sizeof *out);
}

ct_status_t ct_outfile_commit(ct_outfile_t *out, ct_error_t *err)
{
    if (out->fp == stdout) {
        int bad = fflush(stdout) != 0;
        memset(out, 0, sizeof *out);
        return bad ? ct_error_set(err, CT_EIO, "-: cannot write to standard output") : CT_OK;
    }
    int bad = ferror(out->fp) != 0;
    bad |= fclose(out->fp) != 0;
    out->fp = NULL;
    if (bad) {
        ct_status_t st = ct_error_set(err, CT_EIO, "%s: write failed", out->path);
        ct_outfile_abort(out);
        return st;
    }
    if (rename(out->tmp_path, out->path) != 0) {
        ct_status_t st = ct_error_set(err, CT_EIO, "%s: cannot rename output into place: %s",
                                      out->path, strerror(errno));
        ct_outfile_abort(out);
        return st;
    }
    free(out->tmp_path);
    out->tmp_path = NULL;
    ct_outfile_abort(out);
    return CT_OK;
}

ct_status_t ct_write_text_file(const char *path, const char *text, ct_error_t *err)
{
    ct_outfile_t out;
    ct_status_t st = ct_outfile_open(&out, path, err);
    if (st != CT_OK)
        return st;
    fputs(text, out.fp);
    return ct_outfile_commit(&out, err);
}

ct_status_t ct_read_text_file(const char *path, char **text, size_t *len, ct_error_t *err)
{
    *text = NULL;
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return ct_error_set(err, CT_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(fp);
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
    }
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(fp);
                return ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return ct_error_set(err, CT_EIO, "%s: read error", path);
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CT_OK;
}
