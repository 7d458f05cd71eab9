/*
 * sweep.c - sweeps on threads, in shards and over MPI ranks (ct_sweep.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_lp.h"
#include "ct_parallel.h"
#include "ct_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CT_MPI
#include <mpi.h>
#endif

void ct_sweep_params_init(ct_sweep_params_t *p)
{
    memset(p, 0, sizeof *p);
}

ct_status_t ct_sweep_parse_shard(const char *s, ct_sweep_params_t *p, ct_error_t *err)
{
    unsigned long i, n;
    char tail;
    if (sscanf(s, "%lu/%lu%c", &i, &n, &tail) != 2 || n < 1 || n > 100000 || i >= n)
        return ct_error_set(err, CT_EINPUT, "--shard: expected I/N with 0 <= I < N <= 100000, got '%s'", s);
    p->shard = i;
    p->shards = n;
    return CT_OK;
}

void ct_sweep_texts_free(char **texts, size_t n)
{
    for (size_t i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
}

/* ------------------------------------------------------------------------ */
/* In this process: the owned points on threads.                             */

typedef struct {
    ct_sweep_point_fn fn;
    void *ctx;
    char **texts;
    size_t shard, shards;
} owned_t;

static ct_status_t owned_point(size_t k, void *arg, ct_error_t *err)
{
    const owned_t *o = arg;
    size_t i = o->shard + k * o->shards;
    return o->fn(i, o->ctx, &o->texts[i], err);
}

static ct_status_t run_local(size_t n, ct_sweep_point_fn fn, void *ctx, const ct_sweep_params_t *p, char **texts,
                             ct_error_t *err)
{
    size_t shards = p->shards > 1 ? p->shards : 1, shard = p->shards > 1 ? p->shard : 0;
    owned_t o = { fn, ctx, texts, shard, shards };
    size_t owned = n > shard ? (n - shard + shards - 1) / shards : 0;
    return ct_parallel_for_ex(owned, p->threads, owned_point, &o, p->progress, p->progress_ctx, ct_lp_thread_exit,
                              err);
}

#ifdef CT_MPI
/* ------------------------------------------------------------------------ */
/* MPI: a shared counter on rank 0 (one-sided fetch-and-add), every rank     */
/* computing; texts travel to rank 0 at the end as (index, length, bytes).   */

static int mpi_size(void)
{
    int init = 0, fin = 0, size = 1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

static int mpi_rank(void)
{
    int rank = 0;
    if (mpi_size() > 1)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int ct_sweep_is_writer(void)
{
    return mpi_rank() == 0;
}

const char *ct_sweep_where(void)
{
    static char buf[48];
    int size = mpi_size();
    if (size <= 1)
        return "";
    snprintf(buf, sizeof buf, " (MPI: %d ranks)", size);
    return buf;
}

static ct_status_t run_mpi(size_t n, ct_sweep_point_fn fn, void *ctx, const ct_sweep_params_t *p, char **texts,
                           ct_error_t *err)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long *counter = NULL;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(long long) : 0, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &counter, &win);
    if (rank == 0)
        *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    ct_status_t st = CT_OK;
    size_t done = 0;
    long long mine_failed = -1;
    for (;;) {
        long long one = 1, i;
        MPI_Fetch_and_op(&one, &i, MPI_LONG_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        if (i < 0 || (size_t)i >= n)
            break;
        if ((st = fn((size_t)i, ctx, &texts[i], err)) != CT_OK) {
            mine_failed = i;
            break;
        }
        if (p->progress && rank == 0)
            p->progress(++done, n, p->progress_ctx);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    /* The lowest failing point wins, on every rank. */
    long long fail_min = mine_failed < 0 ? (long long)n : mine_failed, global;
    MPI_Allreduce(&fail_min, &global, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (global < (long long)n) {
        int owner = mine_failed == global ? rank : size, who;
        MPI_Allreduce(&owner, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ct_error_t e = err ? *err : (ct_error_t){ 0 };
        MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, who, MPI_COMM_WORLD);
        if (err)
            *err = e;
        return e.code != CT_OK ? e.code : CT_EINTERNAL;
    }
    /* Gather: each rank > 0 sends one buffer of (index, length, bytes). */
    if (rank > 0) {
        size_t len = 0;
        for (size_t i = 0; i < n; i++)
            if (texts[i])
                len += 2 * sizeof(unsigned long long) + strlen(texts[i]);
        char *buf = malloc(len ? len : 1), *q = buf;
        if (!buf)
            MPI_Abort(MPI_COMM_WORLD, 1); /* cannot report otherwise: rank 0 waits for it */
        for (size_t i = 0; i < n; i++)
            if (texts[i]) {
                unsigned long long hdr[2] = { i, strlen(texts[i]) };
                memcpy(q, hdr, sizeof hdr);
                memcpy(q + sizeof hdr, texts[i], hdr[1]);
                q += sizeof hdr + hdr[1];
                free(texts[i]);
                texts[i] = NULL;
            }
        unsigned long long total = len;
        MPI_Send(&total, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD);
        MPI_Send(buf, (int)len, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        free(buf);
        return CT_OK;
    }
    for (int r = 1; r < size; r++) {
        unsigned long long total;
        MPI_Recv(&total, 1, MPI_UNSIGNED_LONG_LONG, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        char *buf = malloc(total ? total : 1);
        if (!buf)
            return ct_error_set(err, CT_ENOMEM, "out of memory gathering rank %d's points", r);
        MPI_Recv(buf, (int)total, MPI_BYTE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (size_t off = 0; off < total && st == CT_OK;) {
            unsigned long long hdr[2];
            memcpy(hdr, buf + off, sizeof hdr);
            off += sizeof hdr;
            if (hdr[0] >= n || texts[hdr[0]] || !(texts[hdr[0]] = malloc(hdr[1] + 1)))
                st = ct_error_set(err, CT_EINTERNAL, "MPI: a malformed result from rank %d", r);
            else {
                memcpy(texts[hdr[0]], buf + off, hdr[1]);
                texts[hdr[0]][hdr[1]] = '\0';
            }
            off += hdr[1];
        }
        free(buf);
    }
    return st;
}
#else
int ct_sweep_is_writer(void)
{
    return 1;
}

const char *ct_sweep_where(void)
{
    return "";
}
#endif

ct_status_t ct_sweep_run(size_t n, ct_sweep_point_fn fn, void *ctx, const ct_sweep_params_t *p, char **texts,
                         ct_error_t *err)
{
    ct_sweep_params_t defaults;
    if (!p) {
        ct_sweep_params_init(&defaults);
        p = &defaults;
    }
#ifdef CT_MPI
    if (mpi_size() > 1 && p->shards <= 1)
        return run_mpi(n, fn, ctx, p, texts, err);
#endif
    return run_local(n, fn, ctx, p, texts, err);
}

/* ------------------------------------------------------------------------ */
/* Part files.                                                               */

ct_status_t ct_sweep_write_part(const char *path, const char *kind, size_t n, const ct_sweep_params_t *p,
                                char *const *texts, ct_error_t *err)
{
    ct_outfile_t out;
    ct_status_t st = ct_outfile_open(&out, path, err);
    if (st != CT_OK)
        return st;
    size_t shards = p->shards > 1 ? p->shards : 1, shard = p->shards > 1 ? p->shard : 0;
    fprintf(out.fp, "contend-part/1\nkind %s\npoints %zu\nshard %zu %zu\n", kind, n, shard, shards);
    if (p->run) /* optional (parts from before it carry none) */
        fprintf(out.fp, "run %016llx\n", (unsigned long long)p->run);
    for (size_t i = shard; i < n; i += shards) {
        const char *t = texts[i] ? texts[i] : "";
        size_t len = strlen(t);
        fprintf(out.fp, "point %zu %zu\n", i, len);
        fwrite(t, 1, len, out.fp);
        fputc('\n', out.fp);
    }
    return ct_outfile_commit(&out, err);
}

/* Part files are parsed strictly: numbers are unsigned decimals that fit
 * size_t (sscanf's %zu would take "-1" as SIZE_MAX), lengths are checked
 * against what is left, and nothing may follow the last point. */
typedef struct {
    const char *p, *end;
} cursor_t;

/* Consumes `lit` at the cursor; 0 if the text differs. */
static int cur_lit(cursor_t *c, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n))
        return 0;
    c->p += n;
    return 1;
}

/* Consumes an unsigned decimal of at most 19 digits (no sign, no space). */
static int cur_size(cursor_t *c, size_t *v)
{
    size_t x = 0, d = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && d < 20) {
        x = x * 10 + (size_t)(*c->p++ - '0');
        d++;
    }
    *v = x;
    return d >= 1 && d <= 19;
}

/* Consumes a word of 1 .. cap - 1 characters up to a newline, into w. */
static int cur_word(cursor_t *c, char *w, size_t cap)
{
    size_t n = 0;
    while (c->p < c->end && *c->p != '\n' && *c->p != ' ' && n + 1 < cap)
        w[n++] = *c->p++;
    w[n] = '\0';
    return n >= 1;
}

/* One part: header fields and its points into texts (allocated on the first part). */
/* "run HEX\n" at c, or 0 (and c unmoved) when the part has none. */
static unsigned long long cur_run(cursor_t *c)
{
    if ((size_t)(c->end - c->p) < 21 || memcmp(c->p, "run ", 4) != 0 || c->p[20] != '\n')
        return 0;
    unsigned long long v = 0;
    for (int i = 4; i < 20; i++) {
        char ch = c->p[i];
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (d < 0)
            return 0;
        v = v << 4 | (unsigned long long)d;
    }
    c->p += 21;
    return v;
}

static ct_status_t read_part(const char *path, const char **first, unsigned long long *run, char **kind, size_t *n,
                             size_t *shards, unsigned char **seen, char ***texts, ct_error_t *err)
{
    char *text;
    size_t len;
    ct_status_t st = ct_read_text_file(path, &text, &len, err);
    if (st != CT_OK)
        return st;
    char k[64];
    size_t pn, sh, shs;
    cursor_t c = { text, text + len };
    if (!cur_lit(&c, "contend-part/1\nkind ") || !cur_word(&c, k, sizeof k) || !cur_lit(&c, "\npoints ") ||
        !cur_size(&c, &pn) || !cur_lit(&c, "\nshard ") || !cur_size(&c, &sh) || !cur_lit(&c, " ") ||
        !cur_size(&c, &shs) || !cur_lit(&c, "\n")) {
        free(text);
        return ct_error_set(err, CT_EINPUT, "%s: not a contend part file (contend-part/1, from --shard I/N)", path);
    }
    unsigned long long r = cur_run(&c);
    if (!*first) {
        *first = path;
        *run = r;
    } else if (r != *run) {
        free(text);
        return ct_error_set(err, CT_EINPUT,
                            "%s: run %016llx, %s's is %016llx: parts of different sweeps (inputs or options differ)",
                            path, r, *first, *run);
    }
    if (pn > 100000000 || shs < 1 || shs > 100000 || sh >= shs) {
        free(text);
        return ct_error_set(err, CT_EINPUT, "%s: points %zu, shard %zu %zu: expected at most 100000000 points and "
                                            "shard I N with 0 <= I < N <= 100000", path, pn, sh, shs);
    }
    if (!*kind) {
        if (!(*kind = ct_strdup(k, err)) || !(*texts = calloc(pn ? pn : 1, sizeof(char *))) ||
            !(*seen = calloc(shs, 1))) {
            free(text);
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        }
        *n = pn;
        *shards = shs;
    } else if (strcmp(*kind, k) || *n != pn || *shards != shs) {
        free(text);
        return ct_error_set(err, CT_EINPUT, "%s: a part of another sweep (%s, %zu points, %zu shards; the first part: "
                                            "%s, %zu points, %zu shards)",
                            path, k, pn, shs, *kind, *n, *shards);
    }
    if ((*seen)[sh]) {
        free(text);
        return ct_error_set(err, CT_EINPUT, "%s: shard %zu/%zu given twice", path, sh, shs);
    }
    (*seen)[sh] = 1;
    for (size_t i = sh; i < pn && st == CT_OK; i += shs) {
        size_t idx, plen;
        if (!cur_lit(&c, "point ") || !cur_size(&c, &idx) || idx != i || !cur_lit(&c, " ") || !cur_size(&c, &plen) ||
            !cur_lit(&c, "\n") || plen >= (size_t)(c.end - c.p) || c.p[plen] != '\n') {
            st = ct_error_set(err, CT_EINPUT, "%s: point %zu missing or truncated", path, i);
            break;
        }
        if (!((*texts)[i] = malloc(plen + 1))) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        memcpy((*texts)[i], c.p, plen);
        (*texts)[i][plen] = '\0';
        c.p += plen + 1;
    }
    if (st == CT_OK && c.p != c.end)
        st = ct_error_set(err, CT_EINPUT, "%s: %zu bytes after the last point", path, (size_t)(c.end - c.p));
    free(text);
    return st;
}

ct_status_t ct_sweep_read_parts(char *const *paths, size_t nparts, char **kind, size_t *n, char ***texts,
                                ct_error_t *err)
{
    *kind = NULL;
    *n = 0;
    *texts = NULL;
    unsigned char *seen = NULL;
    size_t shards = 0;
    ct_status_t st = CT_OK;
    const char *first = NULL;
    unsigned long long run = 0;
    for (size_t k = 0; k < nparts && st == CT_OK; k++)
        st = read_part(paths[k], &first, &run, kind, n, &shards, &seen, texts, err);
    for (size_t s = 0; st == CT_OK && s < shards; s++)
        if (!seen[s])
            st = ct_error_set(err, CT_EINPUT, "shard %zu/%zu is missing", s, shards);
    free(seen);
    if (st != CT_OK) {
        ct_sweep_texts_free(*texts, *n);
        free(*kind);
        *kind = NULL;
        *texts = NULL;
        *n = 0;
    }
    return st;
}
