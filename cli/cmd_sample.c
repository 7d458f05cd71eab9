/*
 * cmd_sample.c - `contend sample`: draw placements from a lookup file with
 * the online sampler library (the same code a production scheduler links).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_sampler.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sample_usage(FILE *out)
{
    fprintf(out,
            "usage: contend sample LOOKUP.json --class NAME --servers N [--count K]\n"
            "                      [--rates NAME=R,NAME=R,...] [--queue-lengths Q0,Q1,...] [--seed S] [--json]\n"
            "\n"
            "Draws K placements for jobs of class NAME: one server (0..N-1) per original\n"
            "task. The scenario used is the one whose arrival rates are nearest --rates\n"
            "(jobs/s; classes not listed keep the first scenario's rate); without --rates,\n"
            "the first scenario. The root goes to a uniform server, or with --queue-lengths\n"
            "(tasks queued or running on each of the N servers) to the least loaded of the\n"
            "d sampled servers the table was solved for (its root_choices).\n"
            "Deterministic for a given --seed (default 1).\n"
            "Output: one line per job, 'task=server' pairs; --json for a JSON array.\n");
}

enum { OPT_CLASS = 256, OPT_RATES, OPT_SERVERS, OPT_COUNT, OPT_SEED, OPT_JSON, OPT_QUEUES };

int cmd_sample(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "class", required_argument, NULL, OPT_CLASS }, { "rates", required_argument, NULL, OPT_RATES },
        { "servers", required_argument, NULL, OPT_SERVERS }, { "count", required_argument, NULL, OPT_COUNT },
        { "seed", required_argument, NULL, OPT_SEED }, { "json", no_argument, NULL, OPT_JSON },
        { "queue-lengths", required_argument, NULL, OPT_QUEUES }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *cls = NULL, *rates = NULL, *queues = NULL;
    size_t servers = 0, count = 1;
    unsigned long long seed = 1;
    int json = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_CLASS: cls = optarg; break;
        case OPT_RATES: rates = optarg; break;
        case OPT_QUEUES: queues = optarg; break;
        case OPT_SERVERS:
            if (cli_parse_size(optarg, &servers) || servers == 0 || servers > 0xfffffffeu)
                return cli_usage("sample", "--servers: expected 1 .. 4294967294, got '%s'", optarg);
            break;
        case OPT_COUNT:
            if (cli_parse_size(optarg, &count))
                return cli_usage("sample", "--count: expected a non-negative integer, got '%s'", optarg);
            break;
        case OPT_SEED:
            if (cli_parse_u64(optarg, &seed))
                return cli_usage("sample", "--seed: expected a non-negative integer, got '%s'", optarg);
            break;
        case OPT_JSON: json = 1; break;
        case 'h': sample_usage(stdout); return 0;
        default: return cli_usage("sample", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage("sample", "expected exactly one LOOKUP file");
    if (!cls)
        return cli_usage("sample", "--class NAME is required");
    if (!servers)
        return cli_usage("sample", "--servers N is required");
    char msg[512];
    ct_sampler_t *s;
    if (ct_sampler_load(argv[optind], &s, msg, sizeof msg) != 0) {
        fprintf(stderr, "contend: %s\n", msg);
        return 2;
    }
    int rc = 0;
    long ci = ct_sampler_class_index(s, cls);
    size_t nc = ct_sampler_class_count(s), scenario = 0;
    double *r = calloc(nc, sizeof(double));
    uint32_t *place = malloc((ct_sampler_task_count(s, ci < 0 ? 0 : (size_t)ci) + 1) * sizeof(uint32_t));
    if (!r || !place) {
        fprintf(stderr, "contend: out of memory\n");
        rc = 1;
        goto done;
    }
    if (ci < 0) {
        fprintf(stderr, "contend: %s: --class: no class '%s' in the lookup file\n", argv[optind], cls);
        rc = 2;
        goto done;
    }
    if (rates) {
        for (size_t j = 0; j < nc; j++)
            r[j] = ct_sampler_scenario_rate(s, 0, j);
        char *copy = strdup(rates), *save = NULL, *seen = calloc(nc, 1);
        if (!copy || !seen) {
            free(copy);
            free(seen);
            fprintf(stderr, "contend: out of memory\n");
            rc = 1;
            goto done;
        }
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(tok, '=');
            double v;
            long j = -1;
            if (eq) {
                *eq = '\0';
                j = ct_sampler_class_index(s, tok);
            }
            /* A rate of 0 is a real measurement: a class with no traffic now. */
            const char *why = !eq ? "expected NAME=JOBS_PER_S"
                              : j < 0 ? "no such class in the lookup file"
                              : cli_parse_double(eq + 1, &v) || v < 0 ? "expected a rate >= 0 in jobs/s"
                              : seen[j] ? "class given twice" : NULL;
            if (why) {
                fprintf(stderr, "contend: %s: --rates: '%s%s%s': %s\n", argv[optind], tok, eq ? "=" : "",
                        eq ? eq + 1 : "", why);
                free(copy);
                free(seen);
                rc = 2;
                goto done;
            }
            seen[j] = 1;
            r[j] = v;
        }
        free(copy);
        free(seen);
        scenario = ct_sampler_nearest(s, r);
    }
    if (ct_sampler_max_parts(s, scenario) > servers) { /* before printing anything */
        fprintf(stderr, "contend: %s: --servers: %zu servers are too few: scenario %zu has a triplet with %u parts\n",
                argv[optind], servers, scenario, ct_sampler_max_parts(s, scenario));
        rc = 2;
        goto done;
    }
    uint32_t *loads = NULL;
    if (queues) { /* one non-negative count per server, counted before allocating */
        size_t given = 1;
        for (const char *q = queues; *q; q++)
            given += *q == ',';
        char *copy = given == servers ? strdup(queues) : NULL, *save = NULL;
        loads = copy ? calloc(servers, sizeof(uint32_t)) : NULL;
        size_t k = 0;
        int bad = !loads || !copy;
        for (char *tok = bad ? NULL : strtok_r(copy, ",", &save); tok && !bad; tok = strtok_r(NULL, ",", &save)) {
            unsigned long long q;
            bad = k >= servers || cli_parse_u64(tok, &q) || q > 0xffffffffu;
            if (!bad)
                loads[k++] = (uint32_t)q;
        }
        free(copy);
        if (bad || k != servers) {
            fprintf(stderr, "contend: --queue-lengths: expected %zu non-negative counts (one per server), got '%s'\n",
                    servers, queues);
            free(loads);
            rc = 2;
            goto done;
        }
    }
    ct_rng_t rng;
    ct_rng_seed(&rng, seed);
    size_t nt = ct_sampler_task_count(s, (size_t)ci);
    uint32_t late = ct_sampler_late_parts(s, scenario); /* parts left to bind when needed */
    if (json)
    {
        printf("{\"class\": ");
        cli_print_json_string(stdout, cls);
        printf(", \"scenario\": %zu, \"scale\": %.17g, ", scenario, ct_sampler_scenario_scale(s, scenario));
        if (late)
            printf("\"bind_choices\": %u, ", ct_sampler_root_choices(s, scenario));
        printf("\"placements\": [");
    }
    else
        printf("# class %s, scenario %zu (scale %g), %zu servers%s\n", cls, scenario,
               ct_sampler_scenario_scale(s, scenario), servers,
               !late ? ""
               : ct_sampler_late_probes(s, scenario)
                   ? "; late:i = late-bound part i, bound when needed by probes on the table's d servers a part"
                   : "; late:i = late-bound part i, bound when needed to the least loaded of the table's d");
    for (size_t k = 0; k < count; k++) {
        if ((late ? ct_sampler_place_late : ct_sampler_place_loaded)(s, scenario, (size_t)ci, (uint32_t)servers, loads,
                                                                     ct_sampler_root_choices(s, scenario), &rng, place,
                                                                     NULL) != 0) {
            fprintf(stderr, "contend: --servers: %zu servers are too few for a triplet of class '%s'\n", servers, cls);
            rc = 2;
            break;
        }
        if (json)
            printf("%s{", k ? ", " : "");
        for (size_t t = 0; t < nt; t++) {
            if (json) {
                printf("%s", t ? ", " : "");
                cli_print_json_string(stdout, ct_sampler_task_id(s, (size_t)ci, t));
                if (place[t] & CT_SAMPLER_LATE)
                    printf(": null");
                else
                    printf(": %u", place[t]);
            } else if (place[t] & CT_SAMPLER_LATE) {
                printf("%s%s=late:%u", t ? " " : "", ct_sampler_task_id(s, (size_t)ci, t), place[t] & ~CT_SAMPLER_LATE);
            } else {
                printf("%s%s=%u", t ? " " : "", ct_sampler_task_id(s, (size_t)ci, t), place[t]);
            }
        }
        printf(json ? "}" : "\n");
    }
    if (json)
        printf("]}\n");
    free(loads);
done:
    free(r);
    free(place);
    ct_sampler_free(s);
    return rc;
}
