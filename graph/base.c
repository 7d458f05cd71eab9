/*
 * base.c - error records, the string map, atomic file output, large
 * blocks on huge pages (ct_big_*) and the scratch-buffer cache.
 *
 * The string map uses open addressing with linear probing and a load factor
 * kept under 1/2; keys are copied, values are indices (the DAG loaders map
 * task ids to task numbers with it).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _GNU_SOURCE /* realpath, fopencookie */
#include "ct_base.h"

#include <gsl/gsl_errno.h>
#include <pthread.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
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
    case CT_EOUTPUT: return "output error";
    case CT_ENOMEM: return "out of memory";
    case CT_ESOLVER: return "solver failure";
    case CT_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

int ct_csv_next(char **cursor, size_t *line, char **cells, size_t max, size_t *ncells)
{
    /* By hand, not with strtok_r: it merges blank lines. */
    for (char *ln = *cursor, *next; ln && *ln; ln = next) {
        ++*line;
        next = strchr(ln, '\n');
        if (next)
            *next++ = '\0';
        size_t L = strlen(ln);
        if (L && ln[L - 1] == '\r')
            ln[--L] = '\0';
        if (L == 0)
            continue;
        size_t nc = 0;
        for (char *p = ln, *q; nc < max; p = q + 1) {
            cells[nc++] = p;
            if (*p == '"') { /* RFC 4180: a quoted cell, quotes doubled inside; unquoted in place */
                char *w = p, *r = p + 1;
                for (; *r; r++) {
                    if (*r == '"' && r[1] == '"')
                        r++;
                    else if (*r == '"') {
                        r++;
                        break;
                    }
                    *w++ = *r;
                }
                q = strchr(r, ',');
                *w = '\0';
                if (!q)
                    break;
                continue;
            }
            if (!(q = strchr(p, ',')))
                break;
            *q = '\0';
        }
        *ncells = nc;
        *cursor = next;
        return 1;
    }
    *cursor = NULL;
    return 0;
}

char *ct_csv_quote(const char *s)
{
    size_t n = strlen(s), extra = 0;
    if (strcspn(s, ",\"\r\n") == n)
        return strdup(s);
    for (const char *p = s; *p; p++)
        extra += *p == '"';
    char *out = malloc(n + extra + 3), *w = out;
    if (!out)
        return NULL;
    *w++ = '"';
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            *w++ = '"';
        *w++ = *p;
    }
    *w++ = '"';
    *w = '\0';
    return out;
}

void ct_csv_put_n(FILE *f, const char *s, size_t n)
{
    size_t plain = 0;
    while (plain < n && !strchr(",\"\r\n", s[plain]) && s[plain])
        plain++;
    if (plain == n) {
        fwrite(s, 1, n, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}

void ct_csv_put(FILE *f, const char *s)
{
    ct_csv_put_n(f, s, strlen(s));
}

int ct_csv_number(const char *cell, double *out)
{
    char *end;
    *out = strtod(cell, &end);
    return end != cell && *end == '\0' && isfinite(*out);
}

void ct_csv_columns(char *const *cells, size_t nc, const char *const *names, size_t n, int *col)
{
    for (size_t f = 0; f < n; f++) {
        col[f] = -1;
        for (size_t k = 0; k < nc; k++)
            if (!strcmp(cells[k], names[f]))
                col[f] = (int)k;
    }
}

typedef struct {
    const char *name;
    size_t index;
} named_t;

static int cmp_named(const void *a, const void *b)
{
    const named_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

ct_status_t ct_first_duplicate(const void *records, size_t size, size_t offset, size_t n, size_t *dup,
                               ct_error_t *err)
{
    named_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        v[i].index = i;
        memcpy(&v[i].name, (const char *)records + i * size + offset, sizeof v[i].name);
    }
    qsort(v, n, sizeof *v, cmp_named);
    *dup = n; /* equal names sit together, in index order: each later one repeats */
    for (size_t i = 1; i < n; i++)
        if (!strcmp(v[i].name, v[i - 1].name) && v[i].index < *dup)
            *dup = v[i].index;
    free(v);
    return CT_OK;
}

int ct_name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
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

/* Where the temporary goes: beside the final regular file. A symlink to a
 * regular file is resolved, so the rename replaces its target and the link
 * stays a link. */
static char *outfile_target(const char *path, ct_error_t *err)
{
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = realpath(path, NULL);
        if (real)
            return real;
        /* A dangling link: writing through it creates its target. */
        if (errno != ENOENT) {
            ct_error_set(err, CT_EOUTPUT, "%s: cannot resolve the link: %s", path, strerror(errno));
            return NULL;
        }
    }
    return ct_strdup(path, err);
}

/* Output streams remember the errno of their first failed write: stdio keeps
 * only an error flag, and errno is long overwritten by the time the caller
 * commits, so "write failed: Broken pipe" would otherwise be unknowable. */
typedef struct {
    int fd;
    int err;
} outfile_sink_t;

#ifdef __GLIBC__
static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    outfile_sink_t *k = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(k->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!k->err)
                k->err = w < 0 ? errno : EIO;
            return (ssize_t)done; /* fopencookie: 0 on error, never negative */
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int sink_close(void *cookie)
{
    outfile_sink_t *k = cookie;
    int rc = close(k->fd);
    if (rc != 0 && !k->err)
        k->err = errno;
    return rc;
}
#endif

/* Wraps fd in a stream (taking it over); NULL with errno on failure, fd
 * still open. */
static FILE *outfile_stream(ct_outfile_t *out, int fd)
{
#ifdef __GLIBC__
    outfile_sink_t *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->fd = fd;
    cookie_io_functions_t io = { .read = NULL, .write = sink_write, .seek = NULL, .close = sink_close };
    FILE *fp = fopencookie(k, "w", io);
    if (!fp) {
        free(k);
        return NULL;
    }
    out->sink = k;
    return fp;
#else
    (void)out;
    return fdopen(fd, "w");
#endif
}

/* Temporaries open now, for ct_outfile_unlink_pending: a slot's state is
 * 0 free, 1 being filled or emptied, 2 holding a path a handler may
 * unlink. The paths are copies in static storage, so a signal handler
 * never reads memory that free() is returning. */
enum { PENDING_SLOTS = 64, PENDING_PATH = 4096 };
static char pending_path[PENDING_SLOTS][PENDING_PATH];
static atomic_int pending_state[PENDING_SLOTS];

static int pending_add(const char *tmp)
{
    if (strlen(tmp) >= PENDING_PATH)
        return -1;
    for (int i = 0; i < PENDING_SLOTS; i++) {
        int want = 0;
        if (atomic_compare_exchange_strong(&pending_state[i], &want, 1)) {
            strcpy(pending_path[i], tmp);
            atomic_store(&pending_state[i], 2);
            return i;
        }
    }
    return -1;
}

static void pending_drop(int slot)
{
    if (slot >= 0 && slot < PENDING_SLOTS)
        atomic_store(&pending_state[slot], 0);
}

void ct_outfile_unlink_pending(void)
{
    for (int i = 0; i < PENDING_SLOTS; i++)
        if (atomic_load(&pending_state[i]) == 2)
            unlink(pending_path[i]);
}

ct_status_t ct_outfile_open(ct_outfile_t *out, const char *path, ct_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        out->fp = stdout;
        out->direct = 1;
        return CT_OK;
    }
    out->path = ct_strdup(path, err);
    if (!out->path)
        return CT_ENOMEM;
    /* An existing path that is not a regular file (a device, a FIFO, a
     * socket, or a link to one) belongs to someone else: write into it,
     * never rename over it. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            ct_outfile_abort(out);
            return ct_error_set(err, CT_EOUTPUT, "%s: cannot write output: is a directory", path);
        }
        int fd = open(path, O_WRONLY | O_NOCTTY);
        if (fd < 0 || !(out->fp = outfile_stream(out, fd))) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            ct_outfile_abort(out);
            return ct_error_set(err, CT_EOUTPUT, "%s: cannot open output: %s", path, strerror(e));
        }
        out->direct = 1;
        return CT_OK;
    }
    char *target = outfile_target(path, err);
    if (!target) {
        ct_outfile_abort(out);
        return err ? err->code : CT_ENOMEM;
    }
    size_t n = strlen(target);
    out->tmp_path = malloc(n + 16);
    if (!out->tmp_path) {
        free(target);
        ct_outfile_abort(out);
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
    }
    /* O_EXCL with mode 0666: the kernel applies the umask, as for any new
     * file, and an existing file is never reused. */
    static unsigned long counter;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        unsigned long tag = ((unsigned long)getpid() * 2654435761UL) ^ (++counter * 40503UL) ^ (unsigned long)attempt;
        snprintf(out->tmp_path, n + 16, "%s.tmp.%06lx", target, tag & 0xffffffUL);
        /* Tracked before it exists: a signal between the two finds it. */
        out->pending = pending_add(out->tmp_path) + 1;
        fd = open(out->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0666);
        if (fd < 0) {
            int e = errno;
            pending_drop(out->pending - 1);
            out->pending = 0;
            errno = e;
            if (e != EEXIST)
                break;
        }
    }
    free(out->path);
    out->path = target; /* the rename's destination */
    if (fd < 0) {
        int e = errno;
        free(out->tmp_path);
        out->tmp_path = NULL;
        ct_outfile_abort(out);
        return ct_error_set(err, CT_EOUTPUT, "%s: cannot create output: %s", path, strerror(e));
    }
    out->fp = outfile_stream(out, fd);
    if (!out->fp) {
        int e = errno;
        close(fd);
        ct_outfile_abort(out);
        return ct_error_set(err, CT_EOUTPUT, "%s: cannot open output: %s", path, strerror(e));
    }
    return CT_OK;
}

void ct_outfile_abort(ct_outfile_t *out)
{
    if (out->fp && out->fp != stdout)
        fclose(out->fp);
    if (out->tmp_path)
        unlink(out->tmp_path);
    pending_drop(out->pending - 1);
    free(out->tmp_path);
    free(out->path);
    free(out->sink);
    memset(out, 0, sizeof *out);
}

/* Flushes and closes fp (not stdout, which is only flushed); returns 0, the
 * errno of the first failure, or -1 when an earlier write failed and only
 * the stream's error flag remembers it. sink, when there is one, remembers
 * the errno of the first failed write. */
static int outfile_finish(FILE *fp, const outfile_sink_t *sink)
{
    errno = 0;
    int bad = fflush(fp) != 0;
    int e = bad ? errno : 0;
    bad |= ferror(fp) != 0;
    if (fp != stdout) {
        errno = 0;
        if (fclose(fp) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
    }
    if (!bad)
        return 0;
    if (sink && sink->err)
        return sink->err;
    return e ? e : -1;
}

ct_status_t ct_outfile_commit(ct_outfile_t *out, ct_error_t *err)
{
    const char *name = out->fp == stdout ? "-" : out->path;
    int e = outfile_finish(out->fp, out->sink);
    out->fp = NULL;
    if (e) {
        ct_status_t st = e > 0 ? ct_error_set(err, CT_EOUTPUT, "%s: write failed: %s", name, strerror(e))
                               : ct_error_set(err, CT_EOUTPUT, "%s: write failed", name);
        ct_outfile_abort(out);
        return st;
    }
    if (!out->direct && rename(out->tmp_path, out->path) != 0) {
        /* (a handler racing the rename unlinks the new name's old path: harmless) */
        ct_status_t st = ct_error_set(err, CT_EOUTPUT, "%s: cannot rename output into place: %s",
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
    fputs(text, out.fp); /* a failure leaves the error flag; commit reports it */
    return ct_outfile_commit(&out, err);
}

ct_status_t ct_read_text_file(const char *path, char **text, size_t *len, ct_error_t *err)
{
    *text = NULL;
    *len = 0;
    int is_stdin = !strcmp(path, "-"); /* "-": standard input, read to its end, not closed */
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return ct_error_set(err, CT_EIO, "%s: cannot open: %s", path, strerror(errno));
    ct_status_t st = CT_OK;
    size_t cap = 1 << 16, n = 0;
    char *buf = NULL;
    struct stat sb;
    int regular = fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode);
    if (regular && (unsigned long long)sb.st_size > CT_MAX_FILE_BYTES) {
        st = ct_error_set(err, CT_ELIMIT, "%s: %llu bytes, over the limit of %zu bytes per input file", path,
                          (unsigned long long)sb.st_size, CT_MAX_FILE_BYTES);
        goto done;
    }
    if (regular && !is_stdin) {
        /* its size and the NUL, read at once, past no stdio buffer (a
         * scenario of 1000 classes reads 1000 small DAG files) */
        cap = (size_t)sb.st_size + 2;
        setvbuf(fp, NULL, _IONBF, 0);
    }
    if (!(buf = malloc(cap))) {
        st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    for (;;) {
        if (n + 1 >= cap) { /* grow, but never past the limit + 1 byte (+ the NUL): a pipe stops there */
            size_t ncap = cap * 2 > CT_MAX_FILE_BYTES + 2 ? CT_MAX_FILE_BYTES + 2 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                st = ct_error_set(err, CT_ENOMEM, "%s: out of memory", path);
                goto done;
            }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0)
            break;
        if (n > CT_MAX_FILE_BYTES) { /* a pipe or device that does not end */
            st = ct_error_set(err, CT_ELIMIT, "%s: over the limit of %zu bytes per input file", path,
                              CT_MAX_FILE_BYTES);
            goto done;
        }
    }
    if (ferror(fp))
        st = ct_error_set(err, CT_EIO, "%s: read error", path);
done:
    if (!is_stdin)
        fclose(fp);
    if (st != CT_OK) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CT_OK;
}

static void gsl_quiet_once(void)
{
    gsl_set_error_handler_off();
}

void ct_gsl_quiet(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, gsl_quiet_once);
}

/* ------------------------------------------------------------------------ */
/* Blocks for large arrays (ct_big_*, and the scratch cache's buffers): each
 * carries a header one max_align_t long with its capacity and how it was
 * obtained, so that it goes back to any cache (or is freed) alone. A block
 * of BIG_MIN bytes or more is mapped on its own, aligned to BIG_ALIGN and
 * advised to use transparent huge pages: where page tables are
 * paravirtual (the development machine, a VM) the first touch of each
 * 4 KiB page costs about 10 us, 2.7 ms per MiB, and a huge page's 0.06 ms
 * per MiB, so a 1000-class solve's 170 MB of fresh arrays took a fifth of
 * its CPU time in page faults (docs/benchmarks.md). Elsewhere the advice is a hint the kernel may ignore. Built
 * with AddressSanitizer or CT_BIG_PLAIN (the valgrind target), every block
 * comes from malloc, so that the checkers see its bounds and leaks. */

#if defined(__has_feature) /* (clang's name for -fsanitize=address) */
#if __has_feature(address_sanitizer) && !defined(CT_BIG_PLAIN)
#define CT_BIG_PLAIN 1
#endif
#endif
#if defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__) && !defined(CT_BIG_PLAIN)
#define BIG_MAP 1
#else
#define BIG_MAP 0
#endif
#define BIG_MIN ((size_t)4 << 20)   /* blocks at least this large are mapped */
#define BIG_ALIGN ((size_t)2 << 20) /* a huge page (x86-64; arm64 with 4 KiB pages) */

/* A scratch block carved from its cache's slab (below) has this as `map`. */
#define SLAB_BLOCK SIZE_MAX

typedef union {
    struct {
        size_t cap; /* usable bytes after the header */
        size_t map; /* bytes mapped from the header on (0: from malloc;
                     * SLAB_BLOCK: in a cache's slab, freed with the cache) */
    };
    max_align_t align;
} scratch_head_t;

/* A mapping of `len` bytes (a multiple of BIG_ALIGN) aligned to BIG_ALIGN
 * and advised to use huge pages, or NULL. */
#if BIG_MAP
static void *map_aligned(size_t len)
{
    char *raw = mmap(NULL, len + BIG_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *at = (char *)(((uintptr_t)raw + BIG_ALIGN - 1) & ~(uintptr_t)(BIG_ALIGN - 1));
    if (at > raw)
        munmap(raw, (size_t)(at - raw));
    if (raw + BIG_ALIGN > at)
        munmap(at + len, (size_t)(raw + BIG_ALIGN - at));
    (void)madvise(at, len, MADV_HUGEPAGE); /* (a hint: the block works without) */
    return at;
}
#endif

/* A block of at least `bytes` usable bytes (a mapped one: the rest of its
 * last huge page too), zeroed when `zero` (a fresh mapping is). */
static scratch_head_t *block_new(size_t bytes, int zero)
{
    if (bytes > SIZE_MAX - sizeof(scratch_head_t) - 2 * BIG_ALIGN)
        return NULL;
#if BIG_MAP
    if (bytes >= BIG_MIN) {
        size_t len = (sizeof(scratch_head_t) + bytes + BIG_ALIGN - 1) & ~(BIG_ALIGN - 1);
        void *at = map_aligned(len);
        if (at) {
            scratch_head_t *h = at;
            h->cap = len - sizeof *h;
            h->map = len;
            return h;
        }
    }
#endif
    scratch_head_t *h = zero ? calloc(1, sizeof(scratch_head_t) + (bytes ? bytes : 1))
                             : malloc(sizeof(scratch_head_t) + (bytes ? bytes : 1));
    if (h) {
        h->cap = bytes ? bytes : 1;
        h->map = 0;
    }
    return h;
}

static void block_free(scratch_head_t *h)
{
#if BIG_MAP
    if (h && h->map == SLAB_BLOCK) /* (its slab goes with its cache) */
        return;
    if (h && h->map) {
        munmap(h, h->map);
        return;
    }
#endif
    free(h);
}

void *ct_big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    scratch_head_t *h = block_new(n * size, 1);
    return h ? h + 1 : NULL;
}

void *ct_big_realloc(void *p, size_t bytes)
{
    if (!p)
        return ct_big_calloc(1, bytes);
    scratch_head_t *h = (scratch_head_t *)p - 1;
    if (bytes <= h->cap)
        return p;
    if (!h->map && bytes < BIG_MIN) { /* small: malloc's own */
        scratch_head_t *g = realloc(h, sizeof *g + bytes);
        if (!g)
            return NULL;
        g->cap = bytes;
        return g + 1;
    }
    scratch_head_t *g = block_new(bytes, 0);
    if (!g)
        return NULL;
    memcpy(g + 1, p, h->cap);
    block_free(h);
    return g + 1;
}

void ct_big_free(void *p)
{
    if (p)
        block_free((scratch_head_t *)p - 1);
}

/* ------------------------------------------------------------------------ */
/* Scratch buffers: blocks as above. */

/* A fresh buffer at least this large gets an eighth to spare. */
#define SCRATCH_LARGE ((size_t)64 << 10)

/* Fresh buffers from SCRATCH_LARGE up to BIG_MIN are carved from slabs of
 * SLAB_BYTES on huge pages, one after the other: each on huge pages of its
 * own would leave up to half of each untouched but resident, and from
 * malloc each 4 KiB page faults on its own (a 1000-class solve holds about
 * 120 such buffers of 0.1-3 MB, 80 MB faulted in 4 KiB pages before;
 * docs/benchmarks-log.md). A slab's blocks go back to the cache only (block_free
 * leaves them) and its memory to the system with the cache. */
#define SLAB_BYTES ((size_t)16 << 20)

typedef struct scratch_slab {
    struct scratch_slab *next; /* the cache's earlier slabs */
    size_t used;               /* bytes carved from the slab's start (this header's first) */
} scratch_slab_t;

struct ct_scratch {
    pthread_mutex_t lock;           /* (two wait LPs of a search may take and give on threads) */
    size_t n;                       /* buffers held (n <= CT_SCRATCH_KEEP) */
    scratch_head_t *held[CT_SCRATCH_KEEP];
    scratch_slab_t *slab;           /* the slab blocks are carved from; NULL before the first */
};

ct_scratch_t *ct_scratch_alloc(void)
{
    ct_scratch_t *c = calloc(1, sizeof(ct_scratch_t));
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

void ct_scratch_free(ct_scratch_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        block_free(c->held[i]);
#if BIG_MAP
    for (scratch_slab_t *sl = c->slab, *next; sl; sl = next) {
        next = sl->next;
        munmap(sl, SLAB_BYTES);
    }
#endif
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* A block of `cap` usable bytes carved from c's slab (a new slab when the
 * last has no room), or NULL when none can be mapped. */
static scratch_head_t *slab_carve(ct_scratch_t *c, size_t cap)
{
#if BIG_MAP
    const size_t align = 64; /* (a cache line: blocks never share one) */
    size_t need = (sizeof(scratch_head_t) + cap + align - 1) & ~(align - 1);
    size_t start = (sizeof(scratch_slab_t) + align - 1) & ~(align - 1);
    if (need > SLAB_BYTES - start)
        return NULL;
    if (!c->slab || SLAB_BYTES - c->slab->used < need) {
        scratch_slab_t *sl = map_aligned(SLAB_BYTES);
        if (!sl)
            return NULL;
        sl->next = c->slab;
        sl->used = start;
        c->slab = sl;
    }
    scratch_head_t *h = (scratch_head_t *)(void *)((char *)c->slab + c->slab->used);
    c->slab->used += need;
    h->cap = need - sizeof *h;
    h->map = SLAB_BLOCK;
    return h;
#else
    (void)c;
    (void)cap;
    return NULL;
#endif
}

static void *scratch_take(ct_scratch_t *c, size_t bytes);
static void scratch_give(ct_scratch_t *c, scratch_head_t *h);

void *ct_scratch_get(ct_scratch_t *c, size_t bytes, int zero)
{
    if (c)
        pthread_mutex_lock(&c->lock);
    void *p = scratch_take(c, bytes);
    if (c)
        pthread_mutex_unlock(&c->lock);
    if (p && zero)
        memset(p, 0, bytes);
    return p;
}

void ct_scratch_put(ct_scratch_t *c, void *p)
{
    if (!p)
        return;
    scratch_head_t *h = (scratch_head_t *)p - 1;
    if (!c) {
        block_free(h);
        return;
    }
    pthread_mutex_lock(&c->lock);
    scratch_give(c, h);
    pthread_mutex_unlock(&c->lock);
}

static void *scratch_take(ct_scratch_t *c, size_t bytes)
{
    if (bytes > (SIZE_MAX - sizeof(scratch_head_t) - 2 * BIG_ALIGN) / 9 * 8)
        return NULL;
    size_t best = (size_t)-1;
    for (size_t i = 0; c && i < c->n; i++) {
        size_t cap = c->held[i]->cap;
        /* (not a much larger one: it would be held up while a later
         * request of its own size allocated anew) */
        if (cap >= bytes && cap - bytes <= 3 * bytes + SCRATCH_LARGE &&
            (best == (size_t)-1 || cap < c->held[best]->cap))
            best = i;
    }
    scratch_head_t *h;
    if (best != (size_t)-1) {
        h = c->held[best];
        c->held[best] = c->held[--c->n];
    } else {
        /* (large ones with an eighth to spare: a workspace that grows by a
         * few columns, as column generation's do each round, still fits) */
        size_t cap = c && bytes >= SCRATCH_LARGE ? bytes + bytes / 8 : bytes;
        if (!(c && cap >= SCRATCH_LARGE && cap < BIG_MIN && (h = slab_carve(c, cap))) && !(h = block_new(cap, 0)))
            return NULL;
    }
    return h + 1;
}

static void scratch_give(ct_scratch_t *c, scratch_head_t *h)
{
    if (c->n == CT_SCRATCH_KEEP) { /* full: the smallest goes (this one, if it is) */
        size_t small = 0;
        for (size_t i = 1; i < c->n; i++)
            if (c->held[i]->cap < c->held[small]->cap)
                small = i;
        /* (a slab block that goes is lost to the cache until it is freed:
         * the smallest of those not carved goes first) */
        for (size_t i = 0; i < c->n; i++)
            if (c->held[i]->map != SLAB_BLOCK &&
                (c->held[small]->map == SLAB_BLOCK || c->held[i]->cap < c->held[small]->cap))
                small = i;
        if (c->held[small]->cap >= h->cap || (h->map != SLAB_BLOCK && c->held[small]->map == SLAB_BLOCK)) {
            block_free(h);
            return;
        }
        block_free(c->held[small]);
        c->held[small] = h;
        return;
    }
    c->held[c->n++] = h;
}
