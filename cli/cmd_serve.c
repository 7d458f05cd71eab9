/*
 * cmd_serve.c - `contend serve`: the placement service over HTTP until
 * SIGINT or SIGTERM; SIGHUP reloads the lookup file (as POST /reload).
 * With --log, one line per event on stderr: text, or one JSON object a
 * line (start, each request, reload, failed reload, stop), each written
 * with one stdio call so lines of concurrent requests never interleave.
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
#include <time.h>
#include <unistd.h>

enum { LOG_NONE, LOG_TEXT, LOG_JSON };

/* A log line: JSON {"time", "event", ...fields of obj} or text; frees obj. */
static void log_line(int mode, const char *event, cJSON *obj, const char *text)
{
    if (mode == LOG_NONE) {
        cJSON_Delete(obj);
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[64];
    snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000));
    if (mode == LOG_TEXT) {
        fprintf(stderr, "%s %s %s\n", when, event, text);
        cJSON_Delete(obj);
        return;
    }
    cJSON *line = cJSON_CreateObject();
    char *s = NULL;
    if (line && cJSON_AddStringToObject(line, "time", when) && cJSON_AddStringToObject(line, "event", event)) {
        for (cJSON *x = obj ? obj->child : NULL; x; x = x->next)
            cJSON_AddItemReferenceToObject(line, x->string, x);
        s = cJSON_PrintUnformatted(line);
    }
    if (s)
        fprintf(stderr, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(line);
    cJSON_Delete(obj);
}

static void log_request(void *ctx, const ct_http_event_t *ev)
{
    int mode = *(const int *)ctx;
    char text[600];
    snprintf(text, sizeof text, "%s %.300s %d %.3f ms %zu B in %zu B out %s", ev->method, ev->path, ev->status,
             1e3 * ev->seconds, ev->bytes_in, ev->bytes_out, ev->client);
    cJSON *o = mode == LOG_JSON ? cJSON_CreateObject() : NULL;
    if (o) {
        cJSON_AddStringToObject(o, "method", ev->method);
        cJSON_AddStringToObject(o, "path", ev->path);
        cJSON_AddNumberToObject(o, "status", ev->status);
        ct_json_add_number(o, "seconds", ev->seconds);
        cJSON_AddNumberToObject(o, "bytes_in", (double)ev->bytes_in);
        cJSON_AddNumberToObject(o, "bytes_out", (double)ev->bytes_out);
        cJSON_AddStringToObject(o, "client", ev->client);
    }
    log_line(mode, "request", o, text);
}

/* A log line with one string field (key: value) or none. */
static void log_event(int mode, const char *event, const char *key, const char *value)
{
    cJSON *o = mode == LOG_JSON ? cJSON_CreateObject() : NULL;
    if (o && key)
        cJSON_AddStringToObject(o, key, value);
    log_line(mode, event, o, key ? value : "");
}

static void serve_usage(FILE *out)
{
    fprintf(out,
            "usage: contend serve LOOKUP.json [--listen HOST:PORT] [--threads N] [--seed S] [--job-cache N]\n"
            "                     [--job-cache-bytes B] [--max-connections N] [--max-client-connections N]\n"
            "                     [--request-timeout S] [--log none|text|json]\n"
            "\n"
            "Answers placement requests from a lookup file over HTTP (JSON):\n"
            "  GET  /healthz     status, classes, scenarios, reloads\n"
            "  POST /place       {\"class\": NAME, \"servers\": N or [names], \"rates\": {class: jobs/s},\n"
            "                     \"queue_lengths\": [...]} -> {\"placement\": {task: server}, ...}; a\n"
            "                    table solved for late-bound parts answers null for their tasks\n"
            "                    and lists them in \"late_parts\"\n"
            "  POST /bind        {\"servers\": ..., \"queue_lengths\": [...], \"scenario\": K} ->\n"
            "                    {\"server\": S}: where a late-bound part runs, asked when it is first\n"
            "                    needed (the least loaded of the table's d sampled servers)\n"
            "  POST /reload      re-reads LOOKUP.json (also on SIGHUP); requests in flight finish\n"
            "                    on the old table\n"
            "  POST /prioritize  the Kubernetes scheduler-extender verb: pods labelled\n"
            "                    contend.io/class, contend.io/job, contend.io/task score 10 on the\n"
            "                    node their job's draw gives their task, 0 elsewhere\n"
            "  GET  /metrics     Prometheus text format: requests, latency, draws, table, reloads\n"
            "--listen: IPv4 address and port (default 127.0.0.1:8080; port 0: any free one, printed).\n"
            "--threads: event loops (default 2). --job-cache: jobs remembered for the extender\n"
            "(default 65536, oldest dropped first) and the bytes they may hold (--job-cache-bytes,\n"
            "default 67108864). --log none|text|json: one line per request,\n"
            "reload and start/stop on stderr (default none; json: one object a line with time,\n"
            "event, method, path, status, seconds, bytes_in, bytes_out, client).\n"
            "--max-connections (default 4096) and --max-client-connections (per client address,\n"
            "default 128) bound open connections; a body not whole --request-timeout seconds\n"
            "(default 10) after its headers drops its connection. Bodies over 1 MiB (8 MiB for /prioritize): 413 at once, unread.\n"
            "Stops on SIGINT/SIGTERM.\n");
}

enum { OPT_LISTEN = 256, OPT_THREADS, OPT_SEED, OPT_CACHE, OPT_CACHE_BYTES, OPT_LOG, OPT_MAXCONN, OPT_MAXCLIENT, OPT_REQTIME };

int cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "listen", required_argument, NULL, OPT_LISTEN }, { "threads", required_argument, NULL, OPT_THREADS },
        { "seed", required_argument, NULL, OPT_SEED }, { "job-cache", required_argument, NULL, OPT_CACHE },
        { "log", required_argument, NULL, OPT_LOG }, { "job-cache-bytes", required_argument, NULL, OPT_CACHE_BYTES },
        { "max-connections", required_argument, NULL, OPT_MAXCONN },
        { "max-client-connections", required_argument, NULL, OPT_MAXCLIENT },
        { "request-timeout", required_argument, NULL, OPT_REQTIME },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    const char *listen = "127.0.0.1:8080";
    size_t threads = 2, conns;
    ct_http_params_t hp;
    ct_http_params_init(&hp);
    static int log_mode = LOG_NONE; /* static: the event loops read it until they stop */
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
        case OPT_CACHE_BYTES:
            if (cli_parse_size(optarg, &p.job_cache_bytes) || p.job_cache_bytes < 1)
                return cli_usage("serve", "--job-cache-bytes: expected a whole number of bytes >= 1, got '%s'", optarg);
            break;
        case OPT_MAXCONN:
        case OPT_MAXCLIENT:
            if (cli_parse_size(optarg, &conns) || conns < 1 || conns > 1000000)
                return cli_usage("serve", "--%s: expected 1 .. 1000000, got '%s'",
                                 c == OPT_MAXCONN ? "max-connections" : "max-client-connections", optarg);
            if (c == OPT_MAXCONN)
                hp.max_connections = (unsigned)conns;
            else
                hp.max_per_client = (unsigned)conns;
            break;
        case OPT_REQTIME:
            if (cli_parse_double(optarg, &hp.request_seconds) || !(hp.request_seconds > 0) ||
                hp.request_seconds > 3600)
                return cli_usage("serve", "--request-timeout: expected seconds in (0, 3600], got '%s'", optarg);
            break;
        case OPT_LOG:
            if (!strcmp(optarg, "none"))
                log_mode = LOG_NONE;
            else if (!strcmp(optarg, "text"))
                log_mode = LOG_TEXT;
            else if (!strcmp(optarg, "json"))
                log_mode = LOG_JSON;
            else
                return cli_usage("serve", "--log: expected none, text or json, got '%s'", optarg);
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
    hp.threads = (unsigned)threads;
    if (log_mode != LOG_NONE) {
        hp.log = log_request;
        hp.log_ctx = &log_mode;
    }
    if (ct_http_start(svc, listen, &hp, &h, err, sizeof err) != 0) {
        fprintf(stderr, "contend: %s\n", err);
        ct_service_free(svc);
        return strncmp(err, "--listen", 8) ? 1 : 2;
    }
    char host[64];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen, ':') - listen), listen);
    printf("contend serve: listening on http://%s:%u (lookup %s)\n", host, ct_http_port(h), argv[optind]);
    fflush(stdout);
    log_event(log_mode, "start", "lookup", argv[optind]);
    for (;;) {
        int sig;
        if (sigwait(&set, &sig) != 0)
            continue;
        if (sig == SIGHUP) {
            if (ct_service_reload(svc, err, sizeof err) != 0) {
                if (log_mode != LOG_JSON) /* JSON logs: every stderr line an object */
                    fprintf(stderr, "contend: reload failed, the previous table stays: %s\n", err);
                log_event(log_mode, "reload_failed", "error", err);
            } else
                log_event(log_mode, "reload", "lookup", argv[optind]);
            continue;
        }
        log_event(log_mode, "stop", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM");
        break;
    }
    ct_http_stop(h);
    ct_service_free(svc);
    return 0;
}
