/*
 * cmd_serve.c - `contend serve`: the placement service over HTTP until
 * SIGINT or SIGTERM; SIGHUP reloads the lookup file (as POST /reload).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_http.h"
#include "ct_service.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void serve_usage(FILE *out)
{
    fprintf(out,
            "usage: contend serve LOOKUP.json [--listen HOST:PORT] [--threads N] [--seed S] [--job-cache N]\n"
            "\n"
            "Answers placement requests from a lookup file over HTTP (JSON):\n"
            "  GET  /healthz     status, classes, scenarios, reloads\n"
            "  POST /place       {\"class\": NAME, \"servers\": N or [names], \"rates\": {class: jobs/s},\n"
            "                     \"queue_lengths\": [...]} -> {\"placement\": {task: server}, ...}\n"
            "  POST /reload      re-reads LOOKUP.json (also on SIGHUP); requests in flight finish\n"
            "                    on the old table\n"
            "  POST /prioritize  the Kubernetes scheduler-extender verb: pods labelled\n"
            "                    contend.io/class, contend.io/job, contend.io/task score 10 on the\n"
            "                    node their job's draw gives their task, 0 elsewhere\n"
            "--listen: IPv4 address and port (default 127.0.0.1:8080; port 0: any free one, printed).\n"
            "--threads: event loops (default 2). --job-cache: jobs remembered for the extender\n"
            "(default 65536, oldest dropped first). Bodies over 1 MiB: 413. Stops on SIGINT/SIGTERM.\n");
}

enum { OPT_LISTEN = 256, OPT_THREADS, OPT_SEED, OPT_CACHE };

int cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "listen", required_argument, NULL, OPT_LISTEN }, { "threads", required_argument, NULL, OPT_THREADS },
        { "seed", required_argument, NULL, OPT_SEED }, { "job-cache", required_argument, NULL, OPT_CACHE },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    const char *listen = "127.0.0.1:8080";
    size_t threads = 2;
    ct_service_params_t p;
    ct_service_params_init(&p);
    unsigned long long u;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_LISTEN: listen = optarg; break;
        case OPT_THREADS:
            if (cli_parse_size(optarg, &threads) || threads < 1 || threads > 256)
                return cli_usage("serve", "--threads: expected 1 .. 256, got '%s'", optarg);
            break;
        case OPT_SEED:
            if (cli_parse_u64(optarg, &u))
                return cli_usage("serve", "--seed: expected a non-negative integer, got '%s'", optarg);
            p.seed = u;
            break;
        case OPT_CACHE:
            if (cli_parse_size(optarg, &p.job_cache) || p.job_cache < 1 || p.job_cache > 100000000)
                return cli_usage("serve", "--job-cache: expected 1 .. 100000000, got '%s'", optarg);
            break;
        case 'h': serve_usage(stdout); return 0;
        default: return cli_usage("serve", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage("serve", "expected one LOOKUP.json");
    /* Block the signals before any thread starts, so only sigwait sees them. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    char err[512];
    ct_service_t *svc;
    if (ct_service_open(argv[optind], &p, &svc, err, sizeof err) != 0) {
        fprintf(stderr, "contend: %s\n", err);
        return 2;
    }
    ct_http_t *h;
    if (ct_http_start(svc, listen, (unsigned)threads, &h, err, sizeof err) != 0) {
        fprintf(stderr, "contend: %s\n", err);
        ct_service_free(svc);
        return strncmp(err, "--listen", 8) ? 1 : 2;
    }
    char host[64];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen, ':') - listen), listen);
    printf("contend serve: listening on http://%s:%u (lookup %s)\n", host, ct_http_port(h), argv[optind]);
    fflush(stdout);
    for (;;) {
        int sig;
        if (sigwait(&set, &sig) != 0)
            continue;
        if (sig == SIGHUP) {
            if (ct_service_reload(svc, err, sizeof err) != 0)
                fprintf(stderr, "contend: reload failed, the previous table stays: %s\n", err);
            continue;
        }
        break;
    }
    ct_http_stop(h);
    ct_service_free(svc);
    return 0;
}
