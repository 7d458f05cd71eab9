/*
 * cli.h - what the contend subcommands share: error reporting with exit
 * codes, number parsing for options, and a progress bar on stderr.
 *
 * Exit codes: 0 success; 2 bad input or usage (malformed files, invalid
 * values, unstable load, limits, missing files); 1 anything else.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_CLI_H
#define CT_CLI_H

#include "ct_base.h"
#include "ct_json.h"
#include "ct_nona_solve.h"
#include "ct_sim.h"
#include "ct_sweep.h"
#include <stddef.h>
#include <stdio.h>

/** Prints "contend: MESSAGE" and returns the exit code for err->code. */
int cli_fail(const ct_error_t *err);

/* Creates the folder dir (its parent must exist) unless it is there; 0, or
 * CT_EOUTPUT in *err naming it. */
int cli_make_dir(const char *dir, ct_error_t *err);
/** Prints "contend: " + formatted usage error + a --help hint; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Strict number parsers for option values: 0 on success. */
int cli_parse_double(const char *s, double *out);
int cli_parse_size(const char *s, size_t *out);
int cli_parse_u64(const char *s, unsigned long long *out);

/** The Nona model options shared by `nona` and `sim`: --model servers|link
 *  (1 or 0) and --root-choices D (1..64). Print the usage error for cmd and
 *  return 2 on a bad value, else 0. */
int cli_parse_server_model(const char *cmd, const char *s, int *server_model);
/** --parts dependent|independent (the Nona model's dependent_parts). */
int cli_parse_parts(const char *cmd, const char *s, int *dependent);
/** --late-waits least-of-d|uniform into *least_of_d (ct_nona_model_params_t.late_waits); 2 (usage
 *  printed) on a bad value. */
int cli_parse_late_waits(const char *cmd, const char *s, int *least_of_d);
/** --late-first root|aged into *aged (ct_nona_model_params_t.late_first); 2 (usage printed) on a
 *  bad value. */
int cli_parse_late_first(const char *cmd, const char *s, int *aged);
/** --virtual-root job|part into *all (ct_nona_model_params_t.root_wait_all); 2 (usage printed)
 *  on a bad value. */
int cli_parse_virtual_root(const char *cmd, const char *s, int *all);
/** --transfers part|task into *task (ct_nona_model_params_t.transfers_task); 2 (usage printed) on
 *  a bad value. */
int cli_parse_transfers(const char *cmd, const char *s, int *task);
/** --sampling auto|finite|mean-field into *finite (ct_nona_model_params_t.finite_servers); 2 (usage
 *  printed) on a bad value. */
int cli_parse_sampling(const char *cmd, const char *s, int *finite);
/** --late-bind ready-hold|ready|first-input|probes into *rule; 2 (usage printed) on a bad value. */
int cli_parse_late_bind(const char *cmd, const char *s, ct_late_bind_t *rule);
/** --server-row auto|pieces|linear into *row; 2 (usage printed) on a bad value. */
int cli_parse_server_row(const char *cmd, const char *s, ct_nona_row_t *row);
/** --bound class-dual|lp into *class_dual (1 / 0); 2 (usage printed) on a bad value. */
int cli_parse_bound(const char *cmd, const char *s, int *class_dual);
/** --waits job-first|job-first-spread|job-first-merged|job-first-aged|stretched|pieces into *job_first
 *  (1|3|4|5|2|0, ct_nona_model_params_t.reentry_waits); 2 (usage printed) on a bad value. */
int cli_parse_waits(const char *cmd, const char *s, int *job_first);
int cli_parse_root_choices(const char *cmd, const char *s, unsigned *d);
/** --spread-gap G (a share of J, 0 .. 1e9); 2 (usage printed) on a bad value. */
int cli_parse_spread_gap(const char *cmd, const char *s, double *gap);
/** --chase F (a share of the open gap, 0 .. 1); 2 (usage printed) on a bad value. */
int cli_parse_chase(const char *cmd, const char *s, double *chase);
/* The solver options of `contend nona` and of `contend sim`'s nona tables,
 * parsed in one place: a command lists CLI_SOLVE_LONGOPTS in its getopt_long
 * table (it needs <getopt.h>) and hands every code in [CLI_OPT_SOLVE,
 * CLI_OPT_SOLVE_END) to cli_parse_solve_option. Its own codes stay below
 * CLI_OPT_SOLVE. */
enum { CLI_OPT_SOLVE = 1024, CLI_OPT_GAP = CLI_OPT_SOLVE, CLI_OPT_ROW, CLI_OPT_BOUND, CLI_OPT_STALL, CLI_OPT_PSPREAD,
       CLI_OPT_SGAP, CLI_OPT_CHASE, CLI_OPT_STALL_GAP, CLI_OPT_STALL_CLOSE, CLI_OPT_PILOT, CLI_OPT_PILOT_SWING, CLI_OPT_STALL_LARGE,
       CLI_OPT_PILOT_FIRST, CLI_OPT_STALL_GAP_LARGE, CLI_OPT_BOX_PAIRS, CLI_OPT_SEARCH_WARM,
       CLI_OPT_SOLVE_END };
#define CLI_SOLVE_LONGOPTS                                                                                          \
    { "gap", required_argument, NULL, CLI_OPT_GAP }, { "server-row", required_argument, NULL, CLI_OPT_ROW },       \
        { "bound", required_argument, NULL, CLI_OPT_BOUND }, { "stall", required_argument, NULL, CLI_OPT_STALL },  \
        { "price-spread", no_argument, NULL, CLI_OPT_PSPREAD },                                                    \
        { "spread-gap", required_argument, NULL, CLI_OPT_SGAP }, { "chase", required_argument, NULL, CLI_OPT_CHASE }, \
        { "stall-gap", required_argument, NULL, CLI_OPT_STALL_GAP },                                               \
        { "stall-close", required_argument, NULL, CLI_OPT_STALL_CLOSE },                                           \
        { "pilot", required_argument, NULL, CLI_OPT_PILOT },                                                       \
        { "pilot-swing", required_argument, NULL, CLI_OPT_PILOT_SWING },                                           \
        { "stall-large", required_argument, NULL, CLI_OPT_STALL_LARGE },                                           \
        { "pilot-first", required_argument, NULL, CLI_OPT_PILOT_FIRST },                                           \
        { "stall-gap-large", required_argument, NULL, CLI_OPT_STALL_GAP_LARGE },                                   \
        { "box-pairs", required_argument, NULL, CLI_OPT_BOX_PAIRS },                                               \
        { "search-warm", required_argument, NULL, CLI_OPT_SEARCH_WARM }
/** A solver option (code opt in [CLI_OPT_SOLVE, CLI_OPT_SOLVE_END), value arg, NULL for a flag)
 *  into *sp; 2 (usage printed for cmd) on a bad value, else 0. O(length of arg). */
int cli_parse_solve_option(const char *cmd, int opt, const char *arg, ct_nona_solve_params_t *sp);
/** A double in 0 .. max into *v (option --opt, a share of what); 2 (usage printed) on a bad value. */
int cli_parse_share(const char *cmd, const char *opt, const char *s, double max, const char *what, double *v);
/** A round trip in seconds (0 .. 10) for option opt (e.g. "--rtt"); 2 (usage printed) on a bad value. */
int cli_parse_rtt(const char *cmd, const char *opt, const char *s, double *rtt);

/** -j N / --threads N: points computed at once (1 .. 1024; 0 = the cores).
 *  Prints the usage error for cmd and returns 2 on a bad value, else 0. */
int cli_parse_threads(const char *cmd, const char *s, unsigned *threads);

/* Sweeps (ct_sweep.h): -j N, --shard I/N, and their output. */

/** The CSV header of a sweep kind ("sim-sweep", "train-sweep",
 *  "train-table", "bco-sweep"), or NULL (nona-sweep writes JSON). */
const char *cli_sweep_header(const char *kind);
/** Writes a sweep's output: under --shard a part file; else the header
 *  (CSV kinds) and every point's text in point order, or the lookup
 *  document (nona-sweep). Nothing on MPI ranks other than 0. 0 or the exit
 *  code. */
int cli_sweep_write(const char *kind, const char *path, size_t n, const ct_sweep_params_t *sp, char *const *texts);
/** A nona sweep's point read back from its text (compact JSON, cmd_nona.c). */
typedef struct {
    int ok;            /* "status" is "ok" */
    char *message;     /* owned; NULL when the text has none */
    double mean_jct;   /* seconds; NAN when absent */
    double gap;        /* the certified relative gap; NAN when absent */
    double iterations; /* the solve's LPs (evaluations with penalty); NAN when absent */
    double seconds;    /* the solve's own time; NAN when absent */
    cJSON *summary;    /* owned; NULL when the text has none */
    char *entry;       /* owned: the "entry" as the lookup file prints it; NULL unless ok */
    size_t entry_len;  /* bytes of entry */
} cli_lookup_point_t;

/** Reads a nona sweep's n texts (NULL ones: not ok) on `threads` threads
 *  (0: the cores) into *pts (free with cli_lookup_points_free). 0 or the
 *  exit code (the error reported; *pts NULL). */
int cli_lookup_read(size_t n, char *const *texts, unsigned threads, cli_lookup_point_t **pts);
void cli_lookup_points_free(cli_lookup_point_t *pts, size_t n);
/** Writes the lookup document of the ok points (a table file, format
 *  contend-table/1) to path, atomically. 0 or the exit code. */
int cli_lookup_write(const char *path, size_t n, const cli_lookup_point_t *pts);
/** A sweep option into sp: -j N (threads 1) or --shard I/N (threads 0).
 *  2 (usage printed) on a bad value, else 0. */
int cli_parse_sweep_option(const char *cmd, int threads, const char *s, ct_sweep_params_t *sp);

/** Runs a sweep's points (ct_sweep_run) under a progress bar titled what,
 *  then: on failure reports it; on an MPI rank other than 0 does nothing
 *  more; under --shard writes the part file to path and says so. Returns 1
 *  when the caller is done (*rc: its exit code), 0 when texts hold every
 *  point and the caller presents and writes the result. */
int cli_sweep_run(const char *what, const char *kind, const char *path, size_t n, ct_sweep_point_fn fn, void *ctx,
                  const ct_sweep_params_t *sp, char **texts, int *rc);

/** Parses "A:B:STEP" into a list of values (caller frees *vals). */
int cli_parse_range(const char *s, double **vals, size_t *n);

/** Progress on stderr with the elapsed time and an estimate of what is
 *  left: a bar redrawn in place on a terminal; on a log (stderr not a
 *  terminal) a line at most every 30 s, so long runs show they move. */
typedef struct {
    const char *what;
    size_t total;
    int enabled;            /* 1: terminal bar; 2: log lines */
    double start, last;     /* monotonic seconds: started, last log line */
} cli_progress_t;

void cli_progress_start(cli_progress_t *p, const char *what, size_t total);
void cli_progress_update(cli_progress_t *p, size_t done);
void cli_progress_end(cli_progress_t *p);

/** A status line on stderr for work of unknown length, drawn only when
 *  stderr is a terminal, redrawn at most five times a second; its end
 *  erases it. */
typedef struct {
    int enabled, drawn;
    double last;            /* when it was last drawn, s (monotonic) */
} cli_status_t;

void cli_status_start(cli_status_t *st);
void cli_status_update(cli_status_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_status_end(cli_status_t *st);

/** Prints s as a JSON string literal (quotes, escapes). */
void cli_print_json_string(FILE *fp, const char *s);

/** Prints root on stdout and frees it (NULL: out of memory); returns the
 *  exit code, 0 on success. */
int cli_print_json(cJSON *root);
/** A bundled data file: rel (e.g. "data/share/apps.json") when it exists
 *  from here (the source tree), else the installed copy under CT_DATADIR
 *  (PREFIX/share/contend/), so an installed contend works from any
 *  directory. Static storage for the installed path. */
const char *cli_data_file(const char *rel);
/** The command line, for the run identity sweeps write into part files. */
void cli_set_args(int argc, char **argv);
/** The same on one line (the summaries scripts read line by line). */
int cli_print_json_line(cJSON *root);

/* Subcommands. */
int cmd_dag(int argc, char **argv);
int cmd_nona(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_bco(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
