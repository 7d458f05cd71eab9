/*
 * cli.c - shared CLI helpers (see cli.h).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_json.h"
#include "ct_nona_table.h"
#include "ct_parallel.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_fail(const ct_error_t *err)
{
    fprintf(stderr, "contend: %s\n", err->msg[0] ? err->msg : ct_status_name(err->code));
    switch (err->code) {
    case CT_OK:
        return 0;
    case CT_EINPUT:
    case CT_ELIMIT:
    case CT_EUNSTABLE:
    case CT_EIO: /* an input that cannot be read */
        return 2;
    default:
        return 1;
    }
}

int cli_make_dir(const char *dir, ct_error_t *err)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    if (errno == EEXIST)
        errno = ENOTDIR;
    ct_error_set(err, CT_EOUTPUT, "%s: cannot create the folder: %s", dir, strerror(errno));
    return -1;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fputs("contend: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'contend %s --help')\n", cmd);
    return 2;
}

int cli_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (*s == '-' || *s == '\0')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_size(const char *s, size_t *out)
{
    unsigned long long v;
    if (cli_parse_u64(s, &v) != 0 || v > (unsigned long long)(size_t)-1)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* A two-way option: on for `yes`, off for `no`, else a usage error. */
static int parse_switch(const char *cmd, const char *opt, const char *s, const char *yes, const char *no, int *on)
{
    if (!strcmp(s, yes) || !strcmp(s, no)) {
        *on = !strcmp(s, yes);
        return 0;
    }
    return cli_usage(cmd, "%s: expected %s or %s, got '%s'", opt, yes, no, s);
}

int cli_parse_server_model(const char *cmd, const char *s, int *server_model)
{
    return parse_switch(cmd, "--model", s, "servers", "link", server_model);
}

int cli_parse_parts(const char *cmd, const char *s, int *dependent)
{
    return parse_switch(cmd, "--parts", s, "dependent", "independent", dependent);
}

int cli_parse_late_waits(const char *cmd, const char *s, int *least_of_d)
{
    return parse_switch(cmd, "--late-waits", s, "least-of-d", "uniform", least_of_d);
}

int cli_parse_late_first(const char *cmd, const char *s, int *aged)
{
    return parse_switch(cmd, "--late-first", s, "aged", "root", aged);
}

int cli_parse_virtual_root(const char *cmd, const char *s, int *all)
{
    return parse_switch(cmd, "--virtual-root", s, "job", "part", all);
}

int cli_parse_transfers(const char *cmd, const char *s, int *task)
{
    return parse_switch(cmd, "--transfers", s, "task", "part", task);
}

int cli_parse_sampling(const char *cmd, const char *s, int *finite)
{
    if (!strcmp(s, "auto")) {
        *finite = CT_NONA_SAMPLING_AUTO;
        return 0;
    }
    if (!strcmp(s, "finite") || !strcmp(s, "mean-field")) {
        *finite = !strcmp(s, "finite");
        return 0;
    }
    return cli_usage(cmd, "--sampling: expected auto, finite or mean-field, got '%s'", s);
}

int cli_parse_late_bind(const char *cmd, const char *s, ct_late_bind_t *rule)
{
    static const char *const names[] = { "first-input", "ready", "ready-hold", "probes" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *rule = (ct_late_bind_t)i;
            return 0;
        }
    return cli_usage(cmd, "--late-bind: expected ready-hold, ready, first-input or probes, got '%s'", s);
}

int cli_parse_waits(const char *cmd, const char *s, int *job_first)
{
    if (!strcmp(s, "stretched")) { /* job-first with the first version's re-entry wait (ct_nona.h) */
        *job_first = 2;
        return 0;
    }
    if (!strcmp(s, "job-first-spread")) { /* job-first with spread waits inside a part (ct_nona.h) */
        *job_first = 3;
        return 0;
    }
    if (!strcmp(s, "job-first-merged")) { /* job-first with a part's visits one piece of W (ct_nona.h) */
        *job_first = 4;
        return 0;
    }
    if (!strcmp(s, "job-first-aged")) { /* merged, and a re-entry waits by its task's age (ct_nona.h) */
        *job_first = 5;
        return 0;
    }
    if (!strcmp(s, "job-first") || !strcmp(s, "pieces")) {
        *job_first = !strcmp(s, "job-first");
        return 0;
    }
    return cli_usage(cmd, "--waits: expected job-first, job-first-spread, job-first-merged, job-first-aged, stretched or "
                     "pieces, got '%s'",
                     s);
}

int cli_parse_bound(const char *cmd, const char *s, int *class_dual)
{
    if (!strcmp(s, "class-dual") || !strcmp(s, "lp")) {
        *class_dual = !strcmp(s, "class-dual");
        return 0;
    }
    return cli_usage(cmd, "--bound: expected class-dual or lp, got '%s'", s);
}

int cli_parse_server_row(const char *cmd, const char *s, ct_nona_row_t *row)
{
    if (!strcmp(s, "pieces") || !strcmp(s, "linear") || !strcmp(s, "auto")) {
        *row = !strcmp(s, "pieces") ? CT_NONA_ROW_PIECES : !strcmp(s, "linear") ? CT_NONA_ROW_LINEAR : CT_NONA_ROW_AUTO;
        return 0;
    }
    return cli_usage(cmd, "--server-row: expected auto, pieces or linear, got '%s'", s);
}

int cli_parse_root_choices(const char *cmd, const char *s, unsigned *d)
{
    size_t v;
    if (cli_parse_size(s, &v) || v < 1 || v > 64)
        return cli_usage(cmd, "--root-choices: expected 1..64, got '%s'", s);
    *d = (unsigned)v;
    return 0;
}

int cli_parse_spread_gap(const char *cmd, const char *s, double *gap)
{
    if (cli_parse_double(s, gap) || !(*gap >= 0 && *gap <= 1e9))
        return cli_usage(cmd, "--spread-gap: expected a share of J >= 0, got '%s'", s);
    return 0;
}

int cli_parse_share(const char *cmd, const char *opt, const char *s, double max, const char *what, double *v)
{
    if (cli_parse_double(s, v) || !(*v >= 0 && *v <= max))
        return cli_usage(cmd, "--%s: expected %s, 0 .. %g, got '%s'", opt, what, max, s);
    return 0;
}

int cli_parse_chase(const char *cmd, const char *s, double *chase)
{
    return cli_parse_share(cmd, "chase", s, 1, "a share of the open gap", chase);
}

int cli_parse_solve_option(const char *cmd, int opt, const char *arg, ct_nona_solve_params_t *sp)
{
    switch (opt) {
    case CLI_OPT_GAP:
        if (cli_parse_double(arg, &sp->gap) || !(sp->gap >= 0 && sp->gap <= 0.5))
            return cli_usage(cmd, "--gap: expected a relative gap in 0 .. 0.5, got '%s'", arg);
        return 0;
    case CLI_OPT_ROW: return cli_parse_server_row(cmd, arg, &sp->server_row);
    case CLI_OPT_BOUND: return cli_parse_bound(cmd, arg, &sp->class_dual);
    case CLI_OPT_STALL:
        if (cli_parse_size(arg, &sp->stall_lps))
            return cli_usage(cmd, "--stall: expected an integer >= 0, got '%s'", arg);
        return 0;
    case CLI_OPT_PSPREAD: sp->price_spread = 1; return 0;
    case CLI_OPT_SGAP: return cli_parse_spread_gap(cmd, arg, &sp->spread_gap);
    case CLI_OPT_CHASE: return cli_parse_chase(cmd, arg, &sp->chase);
    case CLI_OPT_STALL_GAP: return cli_parse_share(cmd, "stall-gap", arg, 0.5, "a share of J", &sp->stall_gap);
    case CLI_OPT_STALL_CLOSE: return cli_parse_share(cmd, "stall-close", arg, 1, "a share of the gap", &sp->stall_close);
    case CLI_OPT_PILOT:
    case CLI_OPT_PILOT_SWING:
    case CLI_OPT_STALL_LARGE: { /* (the solver's LP counts) */
        size_t *v = opt == CLI_OPT_PILOT ? &sp->pilot_lps : opt == CLI_OPT_PILOT_SWING ? &sp->swing_lps
                                                                                      : &sp->stall_lps_large;
        const char *name = opt == CLI_OPT_PILOT ? "pilot" : opt == CLI_OPT_PILOT_SWING ? "pilot-swing" : "stall-large";
        if (cli_parse_size(arg, v) || *v > 1000000000)
            return cli_usage(cmd, "--%s: expected LPs 0 .. 1e9, got '%s'", name, arg);
        return 0;
    }
    case CLI_OPT_PILOT_FIRST:
    case CLI_OPT_BOX_PAIRS:
    case CLI_OPT_SEARCH_WARM: { /* (the solver's 0|1 switches) */
        static const struct {
            int opt;
            const char *name;
        } flags[] = { { CLI_OPT_PILOT_FIRST, "pilot-first" },
                      { CLI_OPT_BOX_PAIRS, "box-pairs" },
                      { CLI_OPT_SEARCH_WARM, "search-warm" } };
        int *const vals[] = { &sp->pilot_first, &sp->box_pairs, &sp->search_warm };
        size_t k = 0;
        while (flags[k].opt != opt)
            k++;
        if (strcmp(arg, "0") && strcmp(arg, "1"))
            return cli_usage(cmd, "--%s: expected 0 or 1, got '%s'", flags[k].name, arg);
        *vals[k] = arg[0] == '1';
        return 0;
    }
    case CLI_OPT_STALL_GAP_LARGE:
        return cli_parse_share(cmd, "stall-gap-large", arg, 0.5, "a share of J", &sp->stall_gap_large);
    default: return cli_usage(cmd, "internal: option code %d is not a solver option", opt);
    }
}

int cli_parse_rtt(const char *cmd, const char *opt, const char *s, double *rtt)
{
    if (cli_parse_double(s, rtt) || !(*rtt >= 0 && *rtt <= 10))
        return cli_usage(cmd, "%s: expected a round trip in seconds, 0 .. 10, got '%s'", opt, s);
    return 0;
}

/* Digits after the decimal point of a number as written ("0.25" 2,
 * "2.5e-3" 4, "3" 0); -1 where it has no such finite count. */
static int decimals_of(const char *s)
{
    const char *dot = strchr(s, '.'), *e = strpbrk(s, "eE");
    int d = 0;
    if (strpbrk(s, "xXpP")) /* (hexadecimal: no decimal grid) */
        return -1;
    if (dot && (!e || dot < e))
        d = (int)((e ? e : s + strlen(s)) - dot - 1);
    if (e) {
        char *end;
        long x = strtol(e + 1, &end, 10);
        if (*end || x > 400 || x < -400)
            return -1;
        d -= (int)x;
    }
    return d < 0 ? 0 : d;
}

int cli_parse_range(const char *s, double **vals, size_t *n)
{
    double a, b, step;
    char buf[128];
    *vals = NULL;
    *n = 0;
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *p1 = strchr(buf, ':'), *p2 = p1 ? strchr(p1 + 1, ':') : NULL;
    if (!p1 || !p2)
        return -1;
    *p1 = *p2 = '\0';
    if (cli_parse_double(buf, &a) || cli_parse_double(p1 + 1, &b) || cli_parse_double(p2 + 1, &step))
        return -1;
    if (step <= 0 || b < a || (b - a) / step > 1e6)
        return -1;
    size_t cnt = (size_t)floor((b - a) / step + 1e-9) + 1;
    double *v = malloc(cnt * sizeof(double));
    if (!v)
        return -1;
    /* Each point on the decimal grid its text spells (0.1:0.7:0.2 gives
     * 0.3 as --load 0.3 does, not 0.30000000000000004): a + i step rounded
     * to the digits after the point of a and step. */
    int da = decimals_of(buf), ds = decimals_of(p2 + 1), digits = da > ds ? da : ds;
    double unit = da >= 0 && ds >= 0 && digits <= 15 ? pow(10.0, (double)digits) : 0.0;
    for (size_t i = 0; i < cnt; i++) {
        v[i] = a + (double)i * step;
        if (unit > 0 && fabs(v[i]) * unit < 1e15)
            v[i] = round(v[i] * unit) / unit;
    }
    *vals = v;
    *n = cnt;
    return 0;
}

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "1h02m", "3m05s", "12s" */
static void fmt_duration(char *buf, size_t n, double s)
{
    long t = s > 0 && s < 1e9 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

void cli_progress_start(cli_progress_t *p, const char *what, size_t total)
{
    p->what = what;
    p->total = total;
    const char *off = getenv("CONTEND_NO_PROGRESS"); /* opt-out, for logs that want none */
    p->enabled = total == 0 || (off && *off && strcmp(off, "0")) ? 0 : isatty(STDERR_FILENO) ? 1 : 2;
    p->start = p->last = monotonic_seconds();
    if (p->enabled == 1)
        cli_progress_update(p, 0);
}

void cli_progress_update(cli_progress_t *p, size_t done)
{
    if (!p->enabled)
        return;
    double now = monotonic_seconds(), el = now - p->start;
    if (p->enabled == 2 && (now - p->last < 30 || done >= p->total))
        return; /* logs: a line every 30 s at most; the end says itself */
    p->last = now;
    char e[32], r[32] = "?";
    fmt_duration(e, sizeof e, el);
    if (done > 0)
        fmt_duration(r, sizeof r, el * (double)(p->total - done) / (double)done);
    if (p->enabled == 2) {
        fprintf(stderr, "%s: %zu/%zu (%.0f%%), %s elapsed, about %s left\n", p->what, done, p->total,
                100.0 * (double)done / (double)p->total, e, r);
        fflush(stderr);
        return;
    }
    int width = 30, fill = (int)((double)width * (double)done / (double)p->total);
    fprintf(stderr, "\r%s [", p->what);
    for (int i = 0; i < width; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu, %s elapsed%s%s%s\033[K", done, p->total, e, done ? ", about " : "", done ? r : "",
            done ? " left" : "");
    fflush(stderr);
}

void cli_progress_end(cli_progress_t *p)
{
    if (p->enabled == 1)
        fputc('\n', stderr);
}

void cli_status_start(cli_status_t *st)
{
    st->enabled = isatty(STDERR_FILENO);
    st->drawn = 0;
    st->last = monotonic_seconds();
}

void cli_status_update(cli_status_t *st, const char *fmt, ...)
{
    if (!st->enabled)
        return;
    double now = monotonic_seconds();
    if (now - st->last < 0.2) /* (the first draw too: quick work shows none) */
        return;
    st->last = now;
    va_list ap;
    va_start(ap, fmt);
    fputc('\r', stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\033[K", stderr); /* erase what a longer line left */
    fflush(stderr);
    st->drawn = 1;
}

void cli_status_end(cli_status_t *st)
{
    if (st->enabled && st->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

int cli_print_json(cJSON *root)
{
    ct_error_t err;
    if (!root) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        return cli_fail(&err);
    }
    ct_status_t st = ct_json_write_file(root, "-", &err);
    cJSON_Delete(root);
    return st == CT_OK ? 0 : cli_fail(&err);
}

int cli_print_json_line(cJSON *root)
{
    ct_error_t err;
    char *text = root ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        return cli_fail(&err);
    }
    size_t n = strlen(text);
    char *line = malloc(n + 2);
    ct_status_t st = CT_ENOMEM;
    if (line) {
        memcpy(line, text, n);
        memcpy(line + n, "\n", 2);
        st = ct_write_text_file("-", line, &err); /* reports a failed write to stdout */
    } else
        ct_error_set(&err, CT_ENOMEM, "out of memory");
    free(line);
    cJSON_free(text);
    return st == CT_OK ? 0 : cli_fail(&err);
}

void cli_print_json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

int cli_parse_threads(const char *cmd, const char *s, unsigned *threads)
{
    size_t n;
    if (cli_parse_size(s, &n) || n > 1024)
        return cli_usage(cmd, "-j/--threads: expected 0 (the cores) .. 1024, got '%s'", s);
    *threads = (unsigned)n;
    return 0;
}

static const struct {
    const char *kind, *header;
} sweep_kinds[] = {
    { "sim-sweep", "policy,load,bandwidth,class,mean_jct,mean_jct_ci95,p50_jct,p95_jct,p99_jct,jobs,link_util,"
                   "server_util,model_mean_jct,status\n" },
    { "train-sweep", "jobs,policy,accounting,mean_jct_ms,median_jct_ms,p95_jct_ms,makespan_ms,utilization\n" },
    { "train-table", "workload,policy,jobs,mean_jct_h,mean_jct_large_h,mean_jct_small_h,mean_queued_h,"
                     "mean_queued_large_h,mean_queued_small_h,makespan_h\n" },
    { "bco-sweep", "vary,value,policy,makespan,makespan_estimate,mean_jct,theta_u,kappa\n" },
    { "sim-check", "scenario,classes,depth,tasks,bandwidth,load,sim_mean_jct,sim_ci95,model_mean_jct,"
                   "sim_over_model,status\n" },
    { "sim-compare", "scenario,classes,depth,tasks,bandwidth,load,policy,mean_jct,mean_jct_ci95,p99_jct,status\n" },
    { "nona-sweep", NULL },
};

const char *cli_sweep_header(const char *kind)
{
    for (size_t k = 0; k < sizeof sweep_kinds / sizeof *sweep_kinds; k++)
        if (!strcmp(sweep_kinds[k].kind, kind))
            return sweep_kinds[k].header;
    return NULL;
}

int cli_parse_sweep_option(const char *cmd, int threads, const char *s, ct_sweep_params_t *sp)
{
    ct_error_t err;
    if (threads)
        return cli_parse_threads(cmd, s, &sp->threads);
    if (ct_sweep_parse_shard(s, sp, &err) != CT_OK)
        return cli_usage(cmd, "%s", err.msg);
    return 0;
}

/* A nona sweep's points are read back from their texts (see cmd_nona.c:
 * a small JSON object, then the entry's text as the lookup file prints
 * it), on the sweep's threads; the lookup document is then written as the
 * entries' texts joined, never built as one tree (a 1000-class fleet's 20
 * scales are 60 MB of text, 420 MB of cJSON). */
typedef struct {
    char *const *texts;
    cli_lookup_point_t *pts;
} lookup_read_t;

static ct_status_t lookup_read_point(size_t i, void *arg, ct_error_t *err)
{
    lookup_read_t *c = arg;
    cli_lookup_point_t *pt = &c->pts[i];
    const char *text = c->texts[i], *end = NULL;
    pt->mean_jct = pt->gap = pt->iterations = pt->seconds = NAN;
    if (!text)
        return CT_OK;
    size_t len = strlen(text);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 0);
    if (!root || !end || (*end != '\0' && *end != '\n')) {
        cJSON_Delete(root);
        if (ct_json_parse(text, len, "sweep point", &root, err) != CT_OK) /* (its message) */
            return err->code;
        cJSON_Delete(root);
        return ct_error_set(err, CT_EINPUT, "sweep point: unexpected text after its object");
    }
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(root, "message");
    const cJSON *mj = cJSON_GetObjectItemCaseSensitive(root, "mean_jct");
    /* (parts of builds before 2026-12-02, late: the entry inside the object) */
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(root, "entry");
    ct_status_t st = CT_OK;
    pt->ok = cJSON_IsString(status) && !strcmp(status->valuestring, "ok");
    if (cJSON_IsNumber(mj))
        pt->mean_jct = mj->valuedouble;
    /* (absent from parts of builds before 2026-12-04) */
    const cJSON *gap = cJSON_GetObjectItemCaseSensitive(root, "gap"),
                *its = cJSON_GetObjectItemCaseSensitive(root, "iterations"),
                *secs = cJSON_GetObjectItemCaseSensitive(root, "solve_seconds");
    if (cJSON_IsNumber(gap))
        pt->gap = gap->valuedouble;
    if (cJSON_IsNumber(its) && cJSON_IsNumber(secs)) {
        pt->iterations = its->valuedouble;
        pt->seconds = secs->valuedouble;
    }
    if (cJSON_IsString(msg) && !(pt->message = strdup(msg->valuestring)))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    pt->summary = cJSON_DetachItemFromObjectCaseSensitive(root, "summary");
    if (st == CT_OK && pt->ok && *end == '\n') {
        pt->entry_len = len - (size_t)(end + 1 - text);
        if ((pt->entry = malloc(pt->entry_len + 1)))
            memcpy(pt->entry, end + 1, pt->entry_len + 1);
        else
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
    } else if (st == CT_OK && pt->ok && cJSON_IsObject(entry)) {
        ct_jw_t w;
        ct_jw_init(&w, 2); /* (as the document nests it; numbers as the table writer prints them) */
        ct_jw_item(&w, NULL, entry);
        st = ct_jw_finish(&w, &pt->entry, &pt->entry_len, err);
    }
    cJSON_Delete(root);
    return st;
}

int cli_lookup_read(size_t n, char *const *texts, unsigned threads, cli_lookup_point_t **pts)
{
    ct_error_t err;
    *pts = calloc(n ? n : 1, sizeof **pts);
    if (!*pts) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        return cli_fail(&err);
    }
    lookup_read_t c = { texts, *pts };
    if (ct_parallel_for(n, threads, lookup_read_point, &c, NULL, NULL, &err) != CT_OK) {
        cli_lookup_points_free(*pts, n);
        *pts = NULL;
        return cli_fail(&err);
    }
    return 0;
}

void cli_lookup_points_free(cli_lookup_point_t *pts, size_t n)
{
    for (size_t i = 0; pts && i < n; i++) {
        free(pts[i].message);
        cJSON_Delete(pts[i].summary);
        free(pts[i].entry);
    }
    free(pts);
}

int cli_lookup_write(const char *path, size_t n, const cli_lookup_point_t *pts)
{
    ct_error_t err;
    const char **texts = malloc((n ? n : 1) * sizeof *texts);
    size_t *lens = malloc((n ? n : 1) * sizeof *lens), m = 0;
    int rc = 0;
    ct_outfile_t out;
    if (!texts || !lens) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (pts[i].entry) {
            texts[m] = pts[i].entry;
            lens[m++] = pts[i].entry_len;
        }
    if (!m) {
        ct_error_set(&err, CT_EUNSTABLE, "%s: every scale in the sweep is unstable: no lookup file written", path);
        rc = cli_fail(&err);
        goto done;
    }
    if (ct_outfile_open(&out, path, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    if (ct_nona_table_write(out.fp, texts, lens, m, &err) != CT_OK) {
        ct_outfile_abort(&out);
        rc = cli_fail(&err);
    } else if (ct_outfile_commit(&out, &err) != CT_OK)
        rc = cli_fail(&err);
done:
    free(texts);
    free(lens);
    return rc;
}

/* The lookup file of merged parts: the "entry" of every point whose
 * "status" is "ok". */
static int write_lookup(const char *path, size_t n, char *const *texts)
{
    cli_lookup_point_t *pts;
    int rc = cli_lookup_read(n, texts, 0, &pts);
    if (rc)
        return rc;
    rc = cli_lookup_write(path, n, pts);
    cli_lookup_points_free(pts, n);
    return rc;
}

#ifndef CT_DATADIR
#define CT_DATADIR "/usr/local/share/contend"
#endif

const char *cli_data_file(const char *rel)
{
    static char installed[4096];
    struct stat st;
    if (stat(rel, &st) == 0)
        return rel;
    /* Beside the executable first (relocatable: DESTDIR staging, a moved
     * prefix; or the source tree of an uninstalled build/contend), then
     * where the build said it would be installed. */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            int w = snprintf(installed, sizeof installed, "%.3000s/../share/contend/%.1000s", exe, rel);
            if (w > 0 && (size_t)w < sizeof installed && stat(installed, &st) == 0)
                return installed;
            w = snprintf(installed, sizeof installed, "%.3000s/../%.1000s", exe, rel);
            if (w > 0 && (size_t)w < sizeof installed && stat(installed, &st) == 0)
                return installed;
        }
    }
    snprintf(installed, sizeof installed, "%s/%s", CT_DATADIR, rel);
    return stat(installed, &st) == 0 ? installed : rel;
}

static int cli_argc;
static char **cli_argv;

void cli_set_args(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
}

/* A run's identity for its part files: the command line without what may
 * differ between the shards of one sweep (--shard, -o/--output, -j/--threads
 * and their values), and the bytes of every argument that names a regular
 * file (the scenario, jobs, cluster...; files those name are not read). */
static uint64_t run_identity(void)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 1; i < cli_argc; i++) {
        const char *a = cli_argv[i];
        if (!strcmp(a, "--shard") || !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "-j") ||
            !strcmp(a, "--threads")) {
            i++;
            continue;
        }
        if (!strncmp(a, "--shard=", 8) || !strncmp(a, "--output=", 9) || !strncmp(a, "--threads=", 10) ||
            (a[0] == '-' && a[1] == 'j' && a[2]) || (a[0] == '-' && a[1] == 'o' && a[2]))
            continue;
        h = ct_hash64(a, strlen(a) + 1, h);
        struct stat st;
        char *text;
        size_t len;
        ct_error_t err;
        if (stat(a, &st) == 0 && S_ISREG(st.st_mode) && ct_read_text_file(a, &text, &len, &err) == CT_OK) {
            h = ct_hash64(text, len, h);
            free(text);
        }
    }
    return h ? h : 1;
}

int cli_sweep_write(const char *kind, const char *path, size_t n, const ct_sweep_params_t *sp, char *const *texts)
{
    ct_error_t err;
    if (!ct_sweep_is_writer())
        return 0;
    if (sp && sp->shards > 1) {
        ct_sweep_params_t q = *sp;
        q.run = run_identity();
        return ct_sweep_write_part(path, kind, n, &q, texts, &err) == CT_OK ? 0 : cli_fail(&err);
    }
    const char *header = cli_sweep_header(kind);
    if (!header)
        return write_lookup(path, n, texts);
    ct_outfile_t out;
    if (ct_outfile_open(&out, path, &err) != CT_OK)
        return cli_fail(&err);
    fputs(header, out.fp);
    for (size_t i = 0; i < n; i++)
        if (texts[i])
            fputs(texts[i], out.fp);
    return ct_outfile_commit(&out, &err) == CT_OK ? 0 : cli_fail(&err);
}

static void sweep_progress(size_t done, size_t total, void *bar)
{
    (void)total;
    cli_progress_update(bar, done);
}

int cli_sweep_run(const char *what, const char *kind, const char *path, size_t n, ct_sweep_point_fn fn, void *ctx,
                  const ct_sweep_params_t *sp, char **texts, int *rc)
{
    ct_error_t err;
    cli_progress_t bar;
    cli_progress_start(&bar, what, n);
    ct_sweep_params_t p = *sp;
    p.progress = sweep_progress;
    p.progress_ctx = &bar;
    ct_status_t st = ct_sweep_run(n, fn, ctx, &p, texts, &err);
    cli_progress_end(&bar);
    *rc = 0;
    if (st != CT_OK) {
        *rc = cli_fail(&err);
        return 1;
    }
    if (!ct_sweep_is_writer())
        return 1;
    if (sp->shards > 1) {
        if (!(*rc = cli_sweep_write(kind, path, n, sp, texts)))
            printf("wrote %s: part %zu/%zu of %zu points (join the parts with contend merge)\n", path, sp->shard,
                   sp->shards, n);
        return 1;
    }
    return 0;
}
