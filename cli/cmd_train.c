/*
 * cmd_train.c - `contend train`: workload, run, sweep (the online
 * training-cluster simulator with LWF-kappa / AdaDUAL / Ada-SRSF).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_train.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void train_usage(FILE *out)
{
    fprintf(out,
            "usage: contend train workload [--seed N] [--scale S] -o JOBS.json\n"
            "       contend train run JOBS [--cluster C.json] [--placement lwf|ff|ls|rand] [--kappa K]\n"
            "                         [--admission adadual|srsf] [--srsf-n N] [--gpu-mode shared|exclusive]\n"
            "                         [--compat] [--seed S] [-o per-job.csv] [--json]\n"
            "       contend train sweep JOBS... [--cluster C.json] [--accounting exact|compat|both] -o results.csv\n"
            "\n"
            "Simulates a GPU training cluster online: jobs arrive, are placed (LWF-kappa, FF, LS,\n"
            "RAND), compute forward and backward on their GPUs, and all-reduce over a contended\n"
            "network when they span servers, admitted by AdaDUAL or SRSF(n). Ada-SRSF is\n"
            "--placement lwf --kappa 1 --admission adadual (the default).\n"
            "\n"
            "workload: the paper's 160 jobs for a seed (--scale 100 divides iterations and the\n"
            "  arrival window, as the authors' traces do)\n"
            "run: mean / median / p95 JCT, makespan, GPU utilisation; -o writes one row per job.\n"
            "  JOBS: the JSON job format or the authors' trace CSV. --compat reproduces the\n"
            "  authors' accounting (a queried transfer gets 1 ms of free progress per query)\n"
            "sweep: every job file x (LWF-1, FF, LS, RAND) x (AdaDUAL, SRSF(1), SRSF(2), SRSF(3))\n"
            "  x accounting, one CSV row each\n"
            "\n"
            "Units: ms, MB. Cluster (JSON, every field optional): servers 16, gpus_per_server 4,\n"
            "gpu_memory 32768, a 0, b 0.856, eta 0.235, lwf_comm 7.8125, gpu_mode \"shared\".\n");
}

typedef struct {
    ct_train_params_t tp;
    ct_train_cluster_t c;
    const char *cluster, *output, *accounting;
    uint64_t seed;
    double scale;
    int json, gpu_mode_set;
    ct_gpu_mode_t gpu_mode;
} train_opts_t;

enum { OPT_SEED = 256, OPT_SCALE, OPT_CLUSTER, OPT_PLACEMENT, OPT_KAPPA, OPT_ADMISSION, OPT_SRSF_N, OPT_GPU_MODE,
       OPT_COMPAT, OPT_JSON, OPT_ACCOUNTING };

static int parse(int argc, char **argv, train_opts_t *o)
{
    static const struct option longopts[] = {
        { "seed", required_argument, NULL, OPT_SEED }, { "scale", required_argument, NULL, OPT_SCALE },
        { "cluster", required_argument, NULL, OPT_CLUSTER }, { "placement", required_argument, NULL, OPT_PLACEMENT },
        { "kappa", required_argument, NULL, OPT_KAPPA }, { "admission", required_argument, NULL, OPT_ADMISSION },
        { "srsf-n", required_argument, NULL, OPT_SRSF_N }, { "gpu-mode", required_argument, NULL, OPT_GPU_MODE },
        { "compat", no_argument, NULL, OPT_COMPAT }, { "json", no_argument, NULL, OPT_JSON },
        { "accounting", required_argument, NULL, OPT_ACCOUNTING }, { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_train_params_init(&o->tp);
    o->seed = 1;
    o->scale = 1;
    o->accounting = "both";
    optind = 1;
    opterr = 0;
    int ch;
    unsigned long long u;
    while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_SEED:
            if (cli_parse_u64(optarg, &u))
                return cli_usage("train", "--seed: expected a non-negative integer, got '%s'", optarg);
            o->seed = o->tp.seed = u;
            break;
        case OPT_SCALE:
            if (cli_parse_double(optarg, &o->scale) || !(o->scale >= 1 && o->scale <= 1e6))
                return cli_usage("train", "--scale: expected a number in 1 .. 1e6, got '%s'", optarg);
            break;
        case OPT_CLUSTER: o->cluster = optarg; break;
        case OPT_PLACEMENT:
            if (ct_place_parse(optarg, &o->tp.place) != CT_OK)
                return cli_usage("train", "--placement: expected lwf, ff, ls or rand, got '%s'", optarg);
            break;
        case OPT_KAPPA:
            if (cli_parse_u64(optarg, &u) || u < 1 || u > 1000000)
                return cli_usage("train", "--kappa: expected an integer in 1 .. 1000000, got '%s'", optarg);
            o->tp.kappa = (uint32_t)u;
            break;
        case OPT_ADMISSION:
            if (ct_admit_parse(optarg, &o->tp.admit) != CT_OK)
                return cli_usage("train", "--admission: expected adadual or srsf, got '%s'", optarg);
            break;
        case OPT_SRSF_N:
            if (cli_parse_u64(optarg, &u) || u < 1 || u > 1000000)
                return cli_usage("train", "--srsf-n: expected an integer in 1 .. 1000000, got '%s'", optarg);
            o->tp.srsf_n = (uint32_t)u;
            break;
        case OPT_GPU_MODE:
            if (!strcmp(optarg, "shared"))
                o->gpu_mode = CT_GPU_SHARED;
            else if (!strcmp(optarg, "exclusive"))
                o->gpu_mode = CT_GPU_EXCLUSIVE;
            else
                return cli_usage("train", "--gpu-mode: expected shared or exclusive, got '%s'", optarg);
            o->gpu_mode_set = 1;
            break;
        case OPT_COMPAT: o->tp.compat = 1; break;
        case OPT_JSON: o->json = 1; break;
        case OPT_ACCOUNTING:
            if (strcmp(optarg, "exact") && strcmp(optarg, "compat") && strcmp(optarg, "both"))
                return cli_usage("train", "--accounting: expected exact, compat or both, got '%s'", optarg);
            o->accounting = optarg;
            break;
        case 'o': o->output = optarg; break;
        case 'h': train_usage(stdout); return -1;
        default: return cli_usage("train", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    return 0;
}

static int load_cluster(train_opts_t *o)
{
    ct_error_t err;
    if (o->cluster) {
        if (ct_train_cluster_load(&o->c, o->cluster, &err) != CT_OK)
            return cli_fail(&err);
    } else
        ct_train_cluster_init(&o->c);
    if (o->gpu_mode_set)
        o->c.mode = o->gpu_mode;
    return 0;
}

static int do_workload(const train_opts_t *o)
{
    ct_train_jobs_t j;
    ct_error_t err;
    if (!o->output)
        return cli_usage("train", "workload: -o JOBS.json is required");
    if (ct_train_workload(o->seed, o->scale, &j, &err) != CT_OK)
        return cli_fail(&err);
    int rc = 0;
    if (ct_train_jobs_write(&j, o->output, &err) != CT_OK)
        rc = cli_fail(&err);
    else
        printf("wrote %s (%zu jobs, seed %llu, scale %g)\n", o->output, j.n, (unsigned long long)o->seed, o->scale);
    ct_train_jobs_free(&j);
    return rc;
}

static const char *policy_label(const ct_train_params_t *p, char *buf, size_t n)
{
    char place[32];
    if (p->place == CT_PLACE_LWF)
        snprintf(place, sizeof place, "lwf%u", p->kappa);
    else
        snprintf(place, sizeof place, "%s", ct_place_name(p->place));
    if (p->admit == CT_ADMIT_SRSF)
        snprintf(buf, n, "%s+srsf%u", place, p->srsf_n);
    else
        snprintf(buf, n, "%s+adadual", place);
    return buf;
}

static void progress_cb(size_t done, size_t total, void *ctx)
{
    (void)total;
    cli_progress_update(ctx, done);
}

static int do_run(const char *path, train_opts_t *o)
{
    ct_train_jobs_t j;
    ct_error_t err;
    ct_train_result_t r;
    int rc = load_cluster(o);
    if (rc)
        return rc;
    if (ct_train_jobs_load(&j, path, &err) != CT_OK)
        return cli_fail(&err);
    cli_progress_t bar;
    cli_progress_start(&bar, "jobs done", j.n);
    o->tp.progress = progress_cb;
    o->tp.progress_ctx = &bar;
    ct_status_t st = ct_train_run(&o->c, &j, &o->tp, &r, &err);
    cli_progress_end(&bar);
    if (st != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    if (o->output && ct_train_write_jobs_csv(&j, &r, o->output, &err) != CT_OK)
        rc = cli_fail(&err);
    else {
        char label[64];
        policy_label(&o->tp, label, sizeof label);
        if (o->json)
            printf("{\"policy\": \"%s\", \"accounting\": \"%s\", \"jobs\": %zu, \"mean_jct_ms\": %.17g, "
                   "\"median_jct_ms\": %.17g, \"p95_jct_ms\": %.17g, \"makespan_ms\": %.17g, \"utilization\": %.17g, "
                   "\"free_mb\": %.17g, \"network_mb\": %.17g, \"events\": %zu, \"seconds\": %.17g}\n",
                   label, o->tp.compat ? "compat" : "exact", j.n, r.mean_jct, r.median_jct, r.p95_jct, r.makespan,
                   r.utilization, r.free_mb, r.total_mb, r.events, r.seconds);
        else
            printf("%s (%s): %zu jobs: mean JCT %.1f ms, median %.1f, p95 %.1f, makespan %.1f ms, GPU utilisation "
                   "%.3f; %zu events in %.1f ms\n",
                   label, o->tp.compat ? "compat" : "exact", j.n, r.mean_jct, r.median_jct, r.p95_jct, r.makespan,
                   r.utilization, r.events, 1e3 * r.seconds);
    }
    ct_train_result_free(&r);
done:
    ct_train_jobs_free(&j);
    return rc;
}

static int do_sweep(int nfiles, char **files, train_opts_t *o)
{
    ct_error_t err;
    if (!o->output)
        return cli_usage("train", "sweep: -o results.csv is required");
    int rc = load_cluster(o);
    if (rc)
        return rc;
    ct_outfile_t out;
    if (ct_outfile_open(&out, o->output, &err) != CT_OK)
        return cli_fail(&err);
    fprintf(out.fp, "jobs,policy,accounting,mean_jct_ms,median_jct_ms,p95_jct_ms,makespan_ms,utilization\n");
    enum { NM = 16 }; /* every placement x (AdaDUAL, SRSF(1), SRSF(2), SRSF(3)) */
    size_t total = (size_t)nfiles * NM * (strcmp(o->accounting, "both") ? 1 : 2), k = 0;
    cli_progress_t bar;
    cli_progress_start(&bar, "runs", total);
    for (int f = 0; f < nfiles && rc == 0; f++) {
        ct_train_jobs_t j;
        if (ct_train_jobs_load(&j, files[f], &err) != CT_OK) {
            rc = cli_fail(&err);
            break;
        }
        for (int acc = 0; acc < 2 && rc == 0; acc++) {
            if ((acc == 0 && !strcmp(o->accounting, "compat")) || (acc == 1 && !strcmp(o->accounting, "exact")))
                continue;
            for (size_t m = 0; m < NM && rc == 0; m++) {
                ct_train_params_t p = o->tp;
                p.place = (ct_place_t)(m / 4);
                p.kappa = 1;
                p.admit = m % 4 == 0 ? CT_ADMIT_ADADUAL : CT_ADMIT_SRSF;
                p.srsf_n = m % 4 ? (uint32_t)(m % 4) : 1;
                p.compat = acc;
                ct_train_result_t r;
                if (ct_train_run(&o->c, &j, &p, &r, &err) != CT_OK) {
                    rc = cli_fail(&err);
                    break;
                }
                char label[64];
                fprintf(out.fp, "%s,%s,%s,%.9g,%.9g,%.9g,%.9g,%.6g\n", files[f], policy_label(&p, label, sizeof label),
                        acc ? "compat" : "exact", r.mean_jct, r.median_jct, r.p95_jct, r.makespan, r.utilization);
                ct_train_result_free(&r);
                cli_progress_update(&bar, ++k);
            }
        }
        ct_train_jobs_free(&j);
    }
    cli_progress_end(&bar);
    if (rc)
        ct_outfile_abort(&out);
    else if (ct_outfile_commit(&out, &err) != CT_OK)
        rc = cli_fail(&err);
    else
        printf("wrote %s (%zu runs)\n", o->output, total);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        train_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    train_opts_t o;
    int rc = parse(argc - 1, argv + 1, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    int nargs = argc - 1 - optind;
    char **args = argv + 1 + optind;
    if (!strcmp(sub, "workload"))
        return nargs == 0 ? do_workload(&o) : cli_usage("train", "workload takes no file arguments");
    if (!strcmp(sub, "run"))
        return nargs == 1 ? do_run(args[0], &o) : cli_usage("train", "run: expected one JOBS file");
    if (!strcmp(sub, "sweep"))
        return nargs >= 1 ? do_sweep(nargs, args, &o) : cli_usage("train", "sweep: expected JOBS files");
    return cli_usage("train", "unknown subcommand '%s'", sub);
}
