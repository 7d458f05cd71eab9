/*
 * contend.c - the `contend` command: dispatches to subcommands.
 *
 * The CLI is thin: each subcommand parses its options, calls libcontend and
 * maps errors to exit codes (see cli.h). All computation lives in the
 * libraries.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#ifdef CT_MPI
#include <mpi.h>
#endif

#ifndef CT_VERSION
#define CT_VERSION "0.1.0"
#endif

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand_t;

static const subcommand_t commands[] = {
    { "dag", cmd_dag, "task DAGs: import, contract, split, enumerate placements, generate model DAGs" },
    { "nona", cmd_nona, "Nona: solve a scenario into a placement table; sweep arrival-rate scales" },
    { "sample", cmd_sample, "draw job placements from a lookup file (the online sampler)" },
    { "bco", cmd_bco, "SJF-BCO: schedule ring-all-reduce training jobs; baselines; bound validation" },
    { "train", cmd_train, "online training cluster: LWF-kappa / AdaDUAL / Ada-SRSF, GPU sharing (SJF-BSBF); workloads" },
    { "merge", cmd_merge, "join the part files of a sharded sweep (--shard I/N) into one run's file" },
    { "export", cmd_export, "a lookup file as a flat CSV or a Kubernetes ConfigMap for the placement service" },
    { "serve", cmd_serve, "placement service over HTTP: /place, /bind, /reload, /healthz, Kubernetes extender /prioritize" },
    { "sim", cmd_sim, "simulate the cluster under placement policies; sweep loads or bandwidths" },
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: contend COMMAND [ARGS]\n"
            "\n"
            "Precomputes scheduling policies for GPU clusters where jobs contend for the\n"
            "network. Results are files for production schedulers.\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "options:\n"
            "  -h, --help     this help; 'contend COMMAND --help' for a command\n"
            "  --version      print the version\n"
            "\n"
            "Units: dag, nona, sample, sim: seconds, bytes, bytes/s, jobs/s; bco: slots;\n"
            "train: ms and MB. Exit status: 0 success, 2 bad input or usage (the message\n"
            "names file, field and reason), 1 other errors.\n");
}

/* Everything printed to stdout must have reached it: a full disk or a closed
 * pipe is an error (exit 1), not a silent success. */
static int finish_stdout(int rc)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    int e = errno;
    if (flushed && !ferror(stdout))
        return rc;
    if (rc != 0) /* the command already reported its error */
        return rc;
    if (!flushed && e)
        fprintf(stderr, "contend: -: write failed: %s\n", strerror(e));
    else
        fprintf(stderr, "contend: -: write failed\n");
    return 1;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("contend %s\n", CT_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "contend: unknown command '%s' (see 'contend --help')\n", argv[1]);
    return 2;
}

#ifdef CT_MPI
/* Under mpirun (make MPI=1) the sweeps spread their points over the ranks
 * (ct_sweep.h); any other command runs on rank 0 alone. */
static int is_sweep(int argc, char **argv)
{
    return argc >= 3 && ((!strcmp(argv[2], "sweep") && (!strcmp(argv[1], "nona") || !strcmp(argv[1], "sim") ||
                                                         !strcmp(argv[1], "bco") || !strcmp(argv[1], "train"))) ||
                         (!strcmp(argv[1], "train") && !strcmp(argv[2], "table")));
}
#endif

/* SIGINT, SIGTERM, SIGHUP: remove the outputs' temporaries, then die of
 * the signal as before (the shell sees the same status). contend serve
 * blocks these signals and waits for them itself. */
static void on_fatal_signal(int sig)
{
    ct_outfile_unlink_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    /* A closed pipe is reported as EPIPE with the path, not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    cli_set_args(argc, argv);
#ifdef CT_MPI
    MPI_Init(&argc, &argv);
    int rank = 0, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 || is_sweep(argc, argv))
        rc = finish_stdout(dispatch(argc, argv));
    MPI_Finalize();
    return rc;
#else
    return finish_stdout(dispatch(argc, argv));
#endif
}
