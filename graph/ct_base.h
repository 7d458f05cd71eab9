/*
 * ct_base.h - the shared base of libcontend: status codes, the error record
 * every fallible call fills, a string -> index map, and atomic file output.
 *
 * Design: every fallible library call returns a ct_status_t and, when it is
 * not CT_OK, leaves a one-line message in the caller's ct_error_t of the form
 * "FILE: FIELD: reason" (the CLI prints it verbatim). The library never
 * prints, exits or aborts; it reports and lets the caller decide.
 *
 * Output files are written to "PATH.tmp.XXXXXX" in the same directory and
 * renamed over PATH only when complete, so a failed run never leaves a
 * half-written file behind.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_BASE_H
#define CT_BASE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits on input, checked before memory is committed (docs/limits.md).
 * A file larger than CT_MAX_FILE_BYTES is refused before it is read. */
#define CT_MAX_FILE_BYTES ((size_t)1 << 30) /* 1 GiB */
#define CT_MAX_TASKS 10000000u               /* tasks per DAG */
#define CT_MAX_EDGES 50000000u               /* edges per DAG */
#define CT_MAX_ID_BYTES 1024u                /* a task id or class name */
#define CT_MAX_CLASSES 10000u                /* job classes per scenario */
#define CT_MAX_GPUS 10000000u                /* GPUs of a training cluster: ids are 32-bit, workspaces tens of bytes each */
/* Values: a finite number can still overflow what is computed from it
 * (1e308 s of compute gives inf loads and nan waits), so inputs are
 * bounded far beyond any real workload. */
#define CT_MAX_SECONDS 1e9                   /* a task's time, a job's arrival (about 31 years) */
#define CT_MAX_BYTES 1e18                    /* an edge's bytes */
#define CT_MAX_COUNT 1e12                    /* iterations, batch sizes */

/** Status codes. The CLI maps CT_EINPUT, CT_ELIMIT and CT_EUNSTABLE to exit
 *  status 2 (the user's input is at fault), everything else to 1. */
typedef enum {
    CT_OK = 0,
    CT_EINPUT,     /**< malformed or invalid input data */
    CT_ELIMIT,     /**< a configured size limit would be exceeded */
    CT_EUNSTABLE,  /**< the offered load cannot be carried (rho >= 1) */
    CT_EIO,        /**< an input file could not be read */
    CT_ENOMEM,     /**< out of memory */
    CT_ESOLVER,    /**< a numerical library failed or did not converge */
    CT_EINTERNAL,  /**< a broken internal invariant (a bug: please report) */
    CT_EOUTPUT     /**< an output could not be created or written (ENOSPC, EPIPE, ...) */
} ct_status_t;

/** The error record. msg is always NUL-terminated; empty when code == CT_OK. */
typedef struct {
    ct_status_t code;
    char msg[512];
} ct_error_t;

/** Clears an error record (safe on NULL). */
void ct_error_clear(ct_error_t *err);

/**
 * Records an error and returns its code, so callers can write
 * `return ct_error_set(err, CT_EINPUT, "%s: tasks[%zu].time: negative", f, i);`.
 * err may be NULL (the message is then dropped).
 */
ct_status_t ct_error_set(ct_error_t *err, ct_status_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Puts a formatted prefix in front of the message already in err and
 *  returns err->code (used to add the file name to a lower-level message). */
ct_status_t ct_error_prefix(ct_error_t *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Asks the processor to fetch *p ahead of use (a hint; nothing without
 *  GCC's builtin): loops over scattered data are memory-bound. */
#if defined(__GNUC__)
#define CT_PREFETCH(p) __builtin_prefetch(p)
#else
#define CT_PREFETCH(p) ((void)(p))
#endif

/** Human name of a status code ("invalid input", ...). Never NULL. */
const char *ct_status_name(ct_status_t code);

/** strdup that reports CT_ENOMEM through err; returns NULL on failure. */
char *ct_strdup(const char *s, ct_error_t *err);

/** Splits the next non-blank line of a CSV text in place (a field in double
 *  quotes may hold commas and doubled quotes, RFC 4180, not line breaks):
 *  *cursor walks the text, *line counts lines from 1 (blank lines count,
 *  so messages name the real line), cells receives up to max cells. A
 *  final \r is dropped. Returns 0 at the end of the text. */
int ct_csv_next(char **cursor, size_t *line, char **cells, size_t max, size_t *ncells);
/** A CSV cell as a number: the whole cell, finite. 1 on success. */
int ct_csv_number(const char *cell, double *out);
/** s as one CSV field (RFC 4180): quoted, quotes doubled, when it holds a
 *  comma, a quote or a line break; else a copy. malloc'd (NULL: out of
 *  memory). ct_csv_next reads such fields back (within one line). */
char *ct_csv_quote(const char *s);
/** Writes s to f as ct_csv_quote gives it. */
void ct_csv_put(FILE *f, const char *s);
/** The same for the n bytes at s (not NUL-terminated; a NUL byte is quoted). */
void ct_csv_put_n(FILE *f, const char *s, size_t n);
/** For each of names[0..n), its column among cells[0..nc) (or -1) in col. */
void ct_csv_columns(char *const *cells, size_t nc, const char *const *names, size_t n, int *col);

/** In an array of n records of `size` bytes, each holding a string
 *  pointer at byte `offset` (offsetof(T, name)): the first record whose
 *  string repeats an earlier one's (n if none), in O(n log n). CT_ENOMEM
 *  leaves *dup unset. */
ct_status_t ct_first_duplicate(const void *records, size_t size, size_t offset, size_t n, size_t *dup,
                               ct_error_t *err);

/** Index of name in names[0..n), or -1: how the enum parsers read their
 *  option names. */
int ct_name_index(const char *const *names, int n, const char *name);

/** Defines an enum's name and parse functions over a static table of its
 *  names (one per value, in order): const char *NAME_FN(TYPE) and
 *  ct_status_t PARSE_FN(const char *, TYPE *), CT_EINPUT for a name not in
 *  the table (*out unchanged). */
#define CT_ENUM_NAMES(TYPE, NAME_FN, PARSE_FN, NAMES)                                 \
    const char *NAME_FN(TYPE v) { return NAMES[v]; }                                  \
    ct_status_t PARSE_FN(const char *name, TYPE *out)                                 \
    {                                                                                 \
        int i_ = ct_name_index(NAMES, (int)(sizeof NAMES / sizeof NAMES[0]), name);   \
        if (i_ < 0)                                                                   \
            return CT_EINPUT;                                                         \
        *out = (TYPE)i_;                                                              \
        return CT_OK;                                                                 \
    }

/* ------------------------------------------------------------------------ */
/* String map: string -> size_t, open addressing, keys copied.              */

typedef struct {
    size_t cap;      /* power of two, or 0 before the first insert */
    size_t count;
    char **keys;     /* NULL = empty slot */
    size_t *vals;
} ct_strmap_t;

void ct_strmap_init(ct_strmap_t *m);
void ct_strmap_destroy(ct_strmap_t *m);
/** Inserts key -> val. Returns CT_OK, or CT_EINPUT if key already exists
 *  (the map is unchanged), or CT_ENOMEM. Amortised O(1). */
ct_status_t ct_strmap_put(ct_strmap_t *m, const char *key, size_t val);
/** Looks key up; returns 1 and sets *val when found, else 0. O(1). */
int ct_strmap_get(const ct_strmap_t *m, const char *key, size_t *val);

/* ------------------------------------------------------------------------ */
/* Atomic output.                                                           */

/** An output being written. For a regular file (new, existing, or behind a
 *  symlink) fp writes to a temporary beside it, renamed over it on commit.
 *  "-" is stdout; an existing path that is not a regular file (a device, a
 *  FIFO, a socket, or a link to one) is opened and written directly, never
 *  replaced (direct = 1). */
typedef struct {
    FILE *fp;
    char *path;      /* the rename's destination (a link's target), or NULL */
    char *tmp_path;  /* NULL when direct */
    int direct;
    void *sink;      /* private: remembers the first write error */
    int pending;     /* private: 1 + the slot tracking tmp_path for ct_outfile_unlink_pending, or 0 */
} ct_outfile_t;

/** Opens an output for path (see ct_outfile_t). Errors: CT_EOUTPUT with
 *  "PATH: reason", CT_ENOMEM. */
ct_status_t ct_outfile_open(ct_outfile_t *out, const char *path, ct_error_t *err);
/** Flushes, closes and renames over path. On failure (ENOSPC, EPIPE, EIO,
 *  ...) the temporary is removed, a regular path is untouched, and the
 *  error is CT_EOUTPUT "PATH: write failed: reason". Always releases out. */
ct_status_t ct_outfile_commit(ct_outfile_t *out, ct_error_t *err);
/** Discards the temporary (use on any error path). Safe to call twice. */
void ct_outfile_abort(ct_outfile_t *out);
/** Removes every temporary still open (async-signal-safe: a program's
 *  SIGINT / SIGTERM / SIGHUP handler calls it before dying, so an
 *  interrupted write leaves nothing behind; after SIGKILL, which no
 *  handler sees, PATH.tmp.XXXXXX remains). The first 64 open at once are
 *  tracked, with paths under 4096 bytes. */
void ct_outfile_unlink_pending(void);

/** Writes a whole string to path atomically ("-" = stdout). */
ct_status_t ct_write_text_file(const char *path, const char *text, ct_error_t *err);

/** Reads a whole file into a NUL-terminated heap buffer (*len excludes the
 *  NUL). The caller frees *text. */
ct_status_t ct_read_text_file(const char *path, char **text, size_t *len, ct_error_t *err);

/** Turns GSL's abort-on-error handler off, once per process (safe from any
 *  thread: sweeps run solvers on several). Every GSL user calls it. */
void ct_gsl_quiet(void);

/** FNV-1a 64-bit hash of a byte string, for the scenario input hashes. */
unsigned long long ct_hash64(const void *data, size_t len, unsigned long long seed);

/** A zeroed array of n entries of `size` bytes for large data (a model's
 *  triplets): from 4 MiB on it is mapped on its own with transparent huge
 *  pages advised (their first touch costs a fraction of 4 KiB pages',
 *  much less on virtual machines), below that it comes from calloc. Grow
 *  it with ct_big_realloc, free it with ct_big_free (never free). NULL
 *  when out of memory or when n x size overflows. */
void *ct_big_calloc(size_t n, size_t size);
/** p (from ct_big_calloc or ct_big_realloc, or NULL) with room for `bytes`:
 *  its contents kept, the rest not zeroed; p itself when it has the room.
 *  NULL when out of memory (p is then untouched). O(bytes) when it moves. */
void *ct_big_realloc(void *p, size_t bytes);
/** Frees p (from ct_big_calloc or ct_big_realloc, or NULL). */
void ct_big_free(void *p);

/** A cache of freed scratch buffers, for workspaces that are set up and
 *  torn down over and over with about the same sizes (a solve's wait LPs:
 *  one per search, polish and pricing round). Freed large blocks go back to
 *  the system and come back as fresh pages, each faulted in on first touch
 *  (a tenth of the random family's solve time, `bench_nona_family`); a
 *  buffer put here is handed out again, its pages already mapped. Threads
 *  may share a cache (a mutex guards it: a large model's search bounds two
 *  boxes at once, each on its own wait LP). Holds at most CT_SCRATCH_KEEP
 *  buffers. */
typedef struct ct_scratch ct_scratch_t;
#define CT_SCRATCH_KEEP 128

/** A new, empty cache, or NULL when out of memory (a NULL cache works:
 *  get and put then act as malloc and free). */
ct_scratch_t *ct_scratch_alloc(void);
/** Frees the cache and every buffer it holds (not those handed out). */
void ct_scratch_free(ct_scratch_t *c);
/** A buffer of at least `bytes` bytes (malloc-aligned), from the cache when
 *  it holds one of fitting size (at most 4x plus 64 KiB larger), else
 *  freshly allocated (as ct_big_calloc's: 4 MiB or more on huge pages;
 *  64 KiB up to 4 MiB carved from the cache's own slabs on huge pages,
 *  returned to the system with the cache); zeroed when `zero`. NULL when
 *  out of memory. Release it with ct_scratch_put to this cache (never
 *  free). O(CT_SCRATCH_KEEP). */
void *ct_scratch_get(ct_scratch_t *c, size_t bytes, int zero);
/** Returns p (from ct_scratch_get of cache c, or NULL) to cache c; when
 *  the cache is full its smallest buffer not carved from a slab is freed
 *  (a slab's buffer is only dropped, its memory held until
 *  ct_scratch_free). O(CT_SCRATCH_KEEP). */
void ct_scratch_put(ct_scratch_t *c, void *p);

#ifdef __cplusplus
}
#endif
#endif
