/*
 * cmd_train.c - `contend train`: workload, run, sweep (the online
 * training-cluster simulator with LWF-kappa / AdaDUAL / Ada-SRSF), and the
 * GPU-sharing schedulers of SJF-BSBF: fit, share-workload, run --policy,
 * table.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_share.h"
#include "ct_stats.h"
#include "ct_train.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void train_usage(FILE *out)
{
    fprintf(out,
            "usage: contend train workload [--seed N] [--scale S] -o JOBS.json\n"
            "       contend train workload --jobs N [--load L] [--cluster C.json] [--seed N] -o JOBS.json\n"
            "       contend train run JOBS [--cluster C.json] [--placement lwf|ff|ls|rand] [--kappa K]\n"
            "                         [--admission adadual|srsf] [--srsf-n N] [--gpu-mode shared|exclusive]\n"
            "                         [--compat] [--seed S] [-o per-job.csv] [--json]\n"
            "       contend train sweep JOBS... [--cluster C.json] [--accounting exact|compat|both] -o results.csv\n"
            "       contend train fit POLLUX_DIR [--mem-static F] [-o apps.json]\n"
            "       contend train share-workload [--apps A.json] [--jobs N] [--seed N] -o WORKLOAD.csv\n"
            "       contend train run WORKLOAD.csv --policy sjf-bsbf|sjf-ffs|fifo|sjf|tiresias [--apps A.json]\n"
            "                         [--xi X|LO:HI|low|high] [--restart-seconds S] [--tiresias-queues H,...]\n"
            "                         [--ffs-batch full|fit] [--fifo strict|backfill] [--interval S]\n"
            "                         [-o per-job.csv] [--json]\n"
            "       contend train table WORKLOAD.csv... [--policies P,...] [--xi X|LO:HI|low|high]\n"
            "                         [--reference LABEL=summary.json]... [-o table.csv]\n"
            "\n"
            "Simulates a GPU training cluster online: jobs arrive, are placed (LWF-kappa, FF, LS,\n"
            "RAND), compute forward and backward on their GPUs, and all-reduce over a contended\n"
            "network when they span servers, admitted by AdaDUAL or SRSF(n). Ada-SRSF is\n"
            "--placement lwf --kappa 1 --admission adadual (the default).\n"
            "\n"
            "workload: the paper's 160 jobs for a seed (--scale 100 divides iterations and the\n"
            "  arrival window, as the authors' traces do); --jobs N: a generated trace with\n"
            "  Philly-like sizes and durations (GPUs 1/2/4/8/16 at 70/10/10/7/3%%, log-normal\n"
            "  iterations around 20) and Poisson arrivals offering --load of the cluster's GPU\n"
            "  time (default 0.8; above 1 the queue grows)\n"
            "run: mean / median / p95 JCT, makespan, GPU utilisation; -o writes one row per job.\n"
            "  JOBS: the JSON job format or the authors' trace CSV. --compat reproduces the\n"
            "  authors' accounting (a queried transfer gets 1 ms of free progress per query)\n"
            "sweep: every job file x (LWF-1, FF, LS, RAND) x (AdaDUAL, SRSF(1), SRSF(2), SRSF(3))\n"
            "  x accounting, one CSV row each; prints the mean JCT per policy and accounting over\n"
            "  the files (the paper's Tables IV and V)\n"
            "\n"
            "Units: ms, MB. Cluster (JSON, every field optional): servers 16, gpus_per_server 4,\n"
            "gpu_memory 32768, a 0, b 0.856, eta 0.235, lwf_comm 7.8125, gpu_mode \"shared\".\n"
            "\n"
            "GPU sharing (SJF-BSBF paper): jobs of fitted applications (--apps, default\n"
            "data/share/apps.json) run at 1 / t_iter iterations/s, two at most per GPU, slowed\n"
            "by xi while they share. fit: least-squares time models from Pollux's traces.\n"
            "share-workload: N jobs (default 240) over 8 h from the apps' job mix.\n"
            "--xi: interference ratio, one value or uniform LO:HI per application pair, or the\n"
            "  paper's injected ranges low (1:1.25) and high (1.5:2) (default: the apps file's,\n"
            "  else high). --restart-seconds: no progress after\n"
            "  each (re)start (default 30, Pollux's). --tiresias-queues: queue thresholds in\n"
            "  GPU-hours (default 16). --ffs-batch fit: SJF-FFS halves the micro-batch until it\n"
            "  fits beside the running job (default full: the spec's, skips GPUs without room).\n"
            "  --fifo backfill: FIFO starts later jobs that fit past a blocked head (default\n"
            "  strict). --interval S: schedule only every S seconds (Pollux's simulator: 60; default 0,\n"
            "  at every arrival and completion).\n"
            "  table: every policy on every workload, mean JCT and\n"
            "  queueing in hours, all / large (> 4 GPUs) / small jobs, averaged over the files;\n"
            "  --reference adds the per-job JCTs another simulator published for the same\n"
            "  workload files (Pollux's summary.json: jcts[workload-N][job], s).\n");
}

typedef struct {
    ct_share_params_t sp;
    int share;              /* --policy given: the sharing simulator */
    const char *apps, *policies;
    const char *refs[4];    /* --reference LABEL=summary.json */
    size_t nrefs;
    double xi_lo, xi_hi, mem_static;
    size_t njobs;
    int njobs_set;
    double load;            /* workload --jobs: offered load */
    ct_train_params_t tp;
    ct_sweep_params_t sweep;    /* sweep, table: -j, --shard */
    ct_train_cluster_t c;
    const char *cluster, *output, *accounting;
    uint64_t seed;
    double scale;
    int json, gpu_mode_set;
    ct_gpu_mode_t gpu_mode;
} train_opts_t;

enum { OPT_SEED = 256, OPT_SCALE, OPT_CLUSTER, OPT_PLACEMENT, OPT_KAPPA, OPT_ADMISSION, OPT_SRSF_N, OPT_GPU_MODE,
       OPT_COMPAT, OPT_JSON, OPT_ACCOUNTING, OPT_POLICY, OPT_POLICIES, OPT_APPS, OPT_XI, OPT_RESTART, OPT_QUEUES,
       OPT_JOBS, OPT_MEM_STATIC, OPT_FFS_BATCH, OPT_REFERENCE, OPT_INTERVAL, OPT_FIFO, OPT_SHARD, OPT_LOAD };

static int parse(int argc, char **argv, train_opts_t *o)
{
    static const struct option longopts[] = {
        { "seed", required_argument, NULL, OPT_SEED }, { "scale", required_argument, NULL, OPT_SCALE },
        { "cluster", required_argument, NULL, OPT_CLUSTER }, { "placement", required_argument, NULL, OPT_PLACEMENT },
        { "kappa", required_argument, NULL, OPT_KAPPA }, { "admission", required_argument, NULL, OPT_ADMISSION },
        { "srsf-n", required_argument, NULL, OPT_SRSF_N }, { "gpu-mode", required_argument, NULL, OPT_GPU_MODE },
        { "compat", no_argument, NULL, OPT_COMPAT }, { "json", no_argument, NULL, OPT_JSON },
        { "accounting", required_argument, NULL, OPT_ACCOUNTING }, { "output", required_argument, NULL, 'o' },
        { "policy", required_argument, NULL, OPT_POLICY }, { "policies", required_argument, NULL, OPT_POLICIES },
        { "apps", required_argument, NULL, OPT_APPS }, { "xi", required_argument, NULL, OPT_XI },
        { "restart-seconds", required_argument, NULL, OPT_RESTART },
        { "tiresias-queues", required_argument, NULL, OPT_QUEUES }, { "jobs", required_argument, NULL, OPT_JOBS },
        { "mem-static", required_argument, NULL, OPT_MEM_STATIC },
        { "ffs-batch", required_argument, NULL, OPT_FFS_BATCH },
        { "reference", required_argument, NULL, OPT_REFERENCE },
        { "interval", required_argument, NULL, OPT_INTERVAL }, { "fifo", required_argument, NULL, OPT_FIFO },
        { "threads", required_argument, NULL, 'j' }, { "shard", required_argument, NULL, OPT_SHARD },
        { "load", required_argument, NULL, OPT_LOAD },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_train_params_init(&o->tp);
    o->seed = 1;
    o->scale = 1;
    o->accounting = "both";
    ct_share_params_init(&o->sp);
    o->apps = NULL; /* the default: data/share/apps.json here, else the installed copy */
    o->policies = "fifo,sjf,tiresias,sjf-ffs,sjf-bsbf";
    o->mem_static = 0.25;
    o->njobs = 240;
    o->load = 0.8;
    optind = 1;
    opterr = 0;
    int ch;
    unsigned long long u;
    while ((ch = getopt_long(argc, argv, "o:hj:", longopts, NULL)) != -1) {
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
        case OPT_POLICY:
            if (ct_share_policy_parse(optarg, &o->sp.policy) != CT_OK)
                return cli_usage("train", "--policy: expected sjf-bsbf, sjf-ffs, fifo, sjf or tiresias, got '%s'", optarg);
            o->share = 1;
            break;
        case OPT_POLICIES: o->policies = optarg; break;
        case OPT_APPS: o->apps = optarg; break;
        case OPT_XI: {
            /* Presets: the ranges the SJF-BSBF paper injects (Fig. 6b). */
            const char *v = !strcmp(optarg, "low") ? "1:1.25" : !strcmp(optarg, "high") ? "1.5:2" : optarg;
            char buf[64];
            snprintf(buf, sizeof buf, "%s", v);
            char *colon = strchr(buf, ':');
            if (colon)
                *colon = '\0';
            int bad = strlen(v) >= sizeof buf || cli_parse_double(buf, &o->xi_lo) ||
                      (colon && cli_parse_double(colon + 1, &o->xi_hi));
            if (!colon)
                o->xi_hi = o->xi_lo;
            if (bad || !(o->xi_lo >= 1 && o->xi_hi >= o->xi_lo && o->xi_hi <= 1e6))
                return cli_usage("train", "--xi: expected X, LO:HI with 1 <= LO <= HI, low or high, got '%s'", optarg);
            break;
        }
        case OPT_RESTART:
            if (cli_parse_double(optarg, &o->sp.restart) || !(o->sp.restart >= 0 && o->sp.restart <= 1e9))
                return cli_usage("train", "--restart-seconds: expected seconds >= 0, got '%s'", optarg);
            break;
        case OPT_QUEUES: {
            size_t nv = 0;
            char *tok, *save = NULL, *copy = strdup(optarg);
            int bad = !copy;
            for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !bad; tok = strtok_r(NULL, ",", &save)) {
                double h;
                if (nv >= CT_TIRESIAS_MAX_QUEUES - 1 || cli_parse_double(tok, &h) || !(h > 0 && h < 1e9) ||
                    (nv && 3600 * h <= o->sp.thresholds[nv - 1]))
                    bad = 1;
                else
                    o->sp.thresholds[nv++] = 3600 * h;
            }
            free(copy);
            if (bad || !nv)
                return cli_usage("train", "--tiresias-queues: expected up to %d increasing GPU-hours, got '%s'",
                                 CT_TIRESIAS_MAX_QUEUES - 1, optarg);
            o->sp.n_thresholds = nv;
            break;
        }
        case OPT_JOBS: {
            size_t nj;
            if (cli_parse_size(optarg, &nj) || nj < 1 || nj > 1000000)
                return cli_usage("train", "--jobs: expected 1 .. 1000000, got '%s'", optarg);
            o->njobs = nj;
            o->njobs_set = 1;
            break;
        }
        case OPT_LOAD:
            if (cli_parse_double(optarg, &o->load) || !(o->load > 0 && o->load <= 1e6))
                return cli_usage("train", "--load: expected a number in (0, 1e6], got '%s'", optarg);
            break;
        case OPT_MEM_STATIC:
            if (cli_parse_double(optarg, &o->mem_static) || !(o->mem_static >= 0 && o->mem_static < 1))
                return cli_usage("train", "--mem-static: expected a fraction in [0, 1), got '%s'", optarg);
            break;
        case OPT_FFS_BATCH:
            if (strcmp(optarg, "full") && strcmp(optarg, "fit"))
                return cli_usage("train", "--ffs-batch: expected full or fit, got '%s'", optarg);
            o->sp.ffs_fit = !strcmp(optarg, "fit");
            break;
        case 'j':
        case OPT_SHARD: /* -j N, --shard I/N */
            if (cli_parse_sweep_option("train", ch == 'j', optarg, &o->sweep))
                return 2;
            break;
        case OPT_FIFO:
            if (strcmp(optarg, "strict") && strcmp(optarg, "backfill"))
                return cli_usage("train", "--fifo: expected strict or backfill, got '%s'", optarg);
            o->sp.fifo_backfill = !strcmp(optarg, "backfill");
            break;
        case OPT_INTERVAL:
            /* Below a millisecond the rounds outnumber any trace's events by far: refused. */
            if (cli_parse_double(optarg, &o->sp.interval) ||
                !(o->sp.interval == 0 || (o->sp.interval >= 1e-3 && o->sp.interval <= 1e9)))
                return cli_usage("train", "--interval: expected 0 or seconds in [0.001, 1e9], got '%s'", optarg);
            break;
        case OPT_REFERENCE:
            if (o->nrefs == 4 || !strchr(optarg, '=') || optarg[0] == '=')
                return cli_usage("train", "--reference: expected LABEL=summary.json, at most 4, got '%s'", optarg);
            o->refs[o->nrefs++] = optarg;
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
    if (o->njobs_set && o->scale != 1)
        return cli_usage("train", "workload: --jobs (a generated trace) and --scale (the paper's 160 jobs) exclude each other");
    if (o->njobs_set ? ct_train_workload_trace(o->seed, o->njobs, &o->c, o->load, &j, &err) != CT_OK
                     : ct_train_workload(o->seed, o->scale, &j, &err) != CT_OK)
        return cli_fail(&err);
    int rc = 0;
    if (ct_train_jobs_write(&j, o->output, &err) != CT_OK)
        rc = cli_fail(&err);
    else if (o->njobs_set)
        printf("wrote %s (%zu jobs, Philly-like sizes and durations, load %g on %zu GPUs, seed %llu)\n", o->output, j.n,
               o->load, (size_t)o->c.n_servers * o->c.gpus_per_server, (unsigned long long)o->seed);
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

/* train sweep: point = (file, accounting, placement x admission). */
enum { NM = 16 }; /* every placement x (AdaDUAL, SRSF(1), SRSF(2), SRSF(3)) */

typedef struct {
    const train_opts_t *o;
    char **files;
    const ct_train_jobs_t *jobs;    /* one per file */
    int accs[2], nacc;
} tsweep_ctx_t;

static ct_status_t tsweep_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const tsweep_ctx_t *c = arg;
    size_t f = i / ((size_t)c->nacc * NM), rest = i % ((size_t)c->nacc * NM), m = rest % NM;
    int acc = c->accs[rest / NM];
    ct_train_params_t p = c->o->tp;
    p.place = (ct_place_t)(m / 4);
    p.kappa = 1;
    p.admit = m % 4 == 0 ? CT_ADMIT_ADADUAL : CT_ADMIT_SRSF;
    p.srsf_n = m % 4 ? (uint32_t)(m % 4) : 1;
    p.compat = acc;
    p.progress = NULL;
    ct_train_result_t r;
    ct_status_t st = ct_train_run(&c->o->c, &c->jobs[f], &p, &r, err);
    if (st != CT_OK)
        return st;
    char label[64], row[1024], *file = ct_csv_quote(c->files[f]);
    if (file)
        snprintf(row, sizeof row, "%s,%s,%s,%.9g,%.9g,%.9g,%.9g,%.6g\n", file,
                 policy_label(&p, label, sizeof label), acc ? "compat" : "exact", r.mean_jct, r.median_jct, r.p95_jct,
                 r.makespan, r.utilization);
    ct_train_result_free(&r);
    free(file);
    return file && (*text = strdup(row)) ? CT_OK : ct_error_set(err, CT_ENOMEM, "out of memory");
}

enum { TM = 7 }; /* train table's columns: jct all/large/small, queued all/large/small, makespan (h) */

/* Adds the points' CSV rows to m: the label in column `label`, values
 * from column `first` (n of them, m->n_cols wide: into column `at` when
 * n is 1, else in order); an empty or non-numeric cell is no value. */
static ct_status_t means_add_rows(ct_means_t *m, char *const *texts, size_t n_texts, size_t label, size_t first,
                                  size_t n, size_t (*at)(const char *const *cells), ct_error_t *err)
{
    for (size_t i = 0; i < n_texts; i++) {
        char *copy = texts[i] ? strdup(texts[i]) : NULL, *cur = copy, *cells[32];
        size_t line = 0, nc;
        if (texts[i] && !copy)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        while (copy && ct_csv_next(&cur, &line, cells, 32, &nc)) {
            double v[TM];
            for (size_t j = 0; j < m->n_cols; j++)
                v[j] = NAN;
            for (size_t j = 0; j < n && first + j < nc; j++) {
                double x;
                if (ct_csv_number(cells[first + j], &x))
                    v[n == 1 && at ? at((const char *const *)cells) : j] = x;
            }
            ct_status_t st = label < nc ? ct_means_add(m, cells[label], v, err) : CT_OK;
            if (st != CT_OK) {
                free(copy);
                return st;
            }
        }
        free(copy);
    }
    return CT_OK;
}

static size_t sweep_accounting(const char *const *cells)
{
    return strcmp(cells[2], "exact") != 0; /* exact 0, compat 1 */
}

static int do_sweep(int nfiles, char **files, train_opts_t *o)
{
    ct_error_t err;
    if (!o->output)
        return cli_usage("train", "sweep: -o results.csv is required");
    int rc = load_cluster(o);
    if (rc)
        return rc;
    tsweep_ctx_t c = { o, files, NULL, { 0, 1 }, 0 };
    ct_means_t means;
    ct_means_init(&means, 2);
    if (strcmp(o->accounting, "compat"))
        c.accs[c.nacc++] = 0;
    if (strcmp(o->accounting, "exact"))
        c.accs[c.nacc++] = 1;
    ct_train_jobs_t *jobs = calloc((size_t)nfiles, sizeof(ct_train_jobs_t));
    size_t total = (size_t)nfiles * (size_t)c.nacc * NM;
    char **texts = calloc(total, sizeof(char *));
    int loaded = 0;
    if (!jobs || !texts) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    for (; loaded < nfiles; loaded++)
        if (ct_train_jobs_load(&jobs[loaded], files[loaded], &err) != CT_OK) {
            rc = cli_fail(&err);
            goto done;
        }
    c.jobs = jobs;
    if (cli_sweep_run("runs", "train-sweep", o->output, total, tsweep_point, &c, &o->sweep, texts, &rc))
        goto done;
    if (!(rc = cli_sweep_write("train-sweep", o->output, total, &o->sweep, texts)))
        printf("wrote %s (%zu runs%s)\n", o->output, total, ct_sweep_where());
    /* the paper's Tables IV and V: mean JCT per policy over the files, a
     * column per accounting (file,policy,accounting,mean_jct_ms,...) */
    if (means_add_rows(&means, texts, total, 1, 3, 1, sweep_accounting, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    printf("mean JCT over the %d file%s, ms\n%-16s %12s %12s\n", nfiles, nfiles == 1 ? "" : "s", "policy", "exact",
           "compat");
    for (size_t k = 0; k < means.n_rows; k++) {
        printf("%-16s", means.labels[k]);
        for (size_t a = 0; a < 2; a++) {
            double x = ct_means_get(&means, k, a);
            if (isfinite(x))
                printf(" %12.1f", x);
            else
                printf(" %12s", "-");
        }
        printf("\n");
    }
done:
    ct_means_free(&means);
    for (int f = 0; jobs && f < loaded; f++)
        ct_train_jobs_free(&jobs[f]);
    free(jobs);
    ct_sweep_texts_free(texts, total);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* GPU sharing (SJF-BSBF).                                                   */

static int apply_xi(const train_opts_t *o, ct_apps_t *a);

static int load_apps(const train_opts_t *o, ct_apps_t *a)
{
    ct_error_t err;
    const char *path = o->apps ? o->apps : cli_data_file("data/share/apps.json");
    if (ct_apps_load(a, path, &err) != CT_OK) {
        if (err.code == CT_EIO && !o->apps) { /* say where the default comes from, on the same line */
            size_t k = strlen(err.msg);
            snprintf(err.msg + k, sizeof err.msg - k, " (give --apps FILE: the source tree and an installed copy "
                                                      "bundle data/share/apps.json; 'contend train fit' makes one)");
        }
        return cli_fail(&err);
    }
    return apply_xi(o, a);
}

/* --xi, else the file's, else 1.5:2.0 per pair. Frees a on error. */
static int apply_xi(const train_opts_t *o, ct_apps_t *a)
{
    ct_error_t err;
    int all_one = 1;
    for (size_t k = 0; k < a->n * a->n; k++)
        all_one &= a->xi[k] == 1;
    double lo = o->xi_lo, hi = o->xi_hi;
    if (lo == 0 && all_one)
        lo = 1.5, hi = 2.0;
    if (lo > 0 && ct_apps_set_xi(a, lo, hi, o->seed, &err) != CT_OK) {
        ct_apps_free(a);
        return cli_fail(&err);
    }
    return 0;
}

/* A workload for the sharing simulator with its applications: a Pollux
 * CSV against the apps file, or the online simulator's jobs converted with
 * applications of their own. On success the caller frees *a and *j; on
 * failure nothing is left to free. */
static int load_workload(const char *path, const train_opts_t *o, ct_apps_t *a, ct_share_jobs_t *j)
{
    ct_error_t err;
    int rc;
    if (ct_workload_kind(path) == CT_WORKLOAD_TRAIN) {
        ct_train_jobs_t tj;
        if (ct_train_jobs_load(&tj, path, &err) != CT_OK)
            return cli_fail(&err);
        ct_status_t st = ct_share_from_train(&o->c, &tj, a, j, &err);
        ct_train_jobs_free(&tj);
        if (st != CT_OK)
            return cli_fail(&err);
        if ((rc = apply_xi(o, a))) /* frees a */
            ct_share_jobs_free(j);
        return rc;
    }
    if ((rc = load_apps(o, a)))
        return rc;
    if (ct_share_jobs_load(j, a, path, &err) != CT_OK) {
        ct_apps_free(a);
        return cli_fail(&err);
    }
    return 0;
}

static int do_fit(const char *dir, const train_opts_t *o)
{
    ct_apps_t a;
    ct_error_t err;
    if (ct_apps_fit_dir(dir, o->mem_static, &a, &err) != CT_OK)
        return cli_fail(&err);
    printf("%-12s %10s %12s %5s %10s %10s %10s %10s %6s %7s %5s %9s\n", "app", "comp_a_s", "comp_b_s", "R2",
           "net1_a_s", "net1_b_s", "netN_a_s", "netN_b_s", "delta", "rmslog", "rows", "local");
    for (size_t i = 0; i < a.n; i++) {
        const ct_app_t *p = &a.apps[i];
        printf("%-12s %10.5g %12.5g %5.3f %10.4g %10.4g %10.4g %10.4g %6.2f %7.3f %5zu %4g-%-4g\n", p->name,
               p->comp_alpha, p->comp_beta, p->fit_r2_comp, p->comm_alpha[0], p->comm_beta[0], p->comm_alpha[1],
               p->comm_beta[1], p->delta, p->fit_rms_log_step, p->fit_rows_step, p->local_min, p->local_max);
    }
    printf("t_comp(b) = comp_a + comp_b b; t_net(R) = net_a + net_b (R - 2) on one server (net1) or several "
           "(netN);\nstep = (t_comp^delta + t_net^delta)^(1/delta); rmslog: RMS of log(predicted / measured step) "
           "over the multi-GPU rows\n");
    int rc = 0;
    if (o->output) {
        if (ct_apps_write(&a, o->output, &err) != CT_OK)
            rc = cli_fail(&err);
        else
            printf("wrote %s (%zu applications, %zu job configurations)\n", o->output, a.n, a.n_configs);
    }
    ct_apps_free(&a);
    return rc;
}

static int do_share_workload(const train_opts_t *o)
{
    ct_apps_t a;
    ct_share_jobs_t j;
    ct_error_t err;
    if (!o->output)
        return cli_usage("train", "share-workload: -o WORKLOAD.csv is required");
    int rc = load_apps(o, &a);
    if (rc)
        return rc;
    if (ct_share_workload(&a, o->seed, o->njobs, &j, &err) != CT_OK)
        rc = cli_fail(&err);
    else {
        if (ct_share_jobs_write(&j, &a, o->output, &err) != CT_OK)
            rc = cli_fail(&err);
        else
            printf("wrote %s (%zu jobs, seed %llu)\n", o->output, j.n, (unsigned long long)o->seed);
        ct_share_jobs_free(&j);
    }
    ct_apps_free(&a);
    return rc;
}

static int do_share_run(const char *path, train_opts_t *o)
{
    ct_apps_t a;
    ct_share_jobs_t j;
    ct_train_result_t r;
    ct_error_t err;
    int rc = load_cluster(o);
    if (rc || (rc = load_workload(path, o, &a, &j)))
        return rc;
    cli_progress_t bar;
    cli_progress_start(&bar, "jobs done", j.n);
    o->sp.progress = progress_cb;
    o->sp.progress_ctx = &bar;
    ct_status_t st = ct_share_run(&o->c, &a, &j, &o->sp, &r, &err);
    cli_progress_end(&bar);
    if (st != CT_OK)
        rc = cli_fail(&err);
    else {
        if (o->output && ct_train_write_results_csv(&r, o->output, &err) != CT_OK)
            rc = cli_fail(&err);
        else if (o->json) {
            static const char *const keys[] = { "mean_jct_ms", "median_jct_ms", "p95_jct_ms", "makespan_ms",
                                                "utilization", "mean_queued_ms", "mean_jct_small_ms",
                                                "mean_jct_large_ms", "mean_queued_small_ms", "mean_queued_large_ms",
                                                "seconds" };
            const double v[] = { r.mean_jct, r.median_jct, r.p95_jct, r.makespan, r.utilization, r.mean_queued,
                                 r.mean_jct_small, r.mean_jct_large, r.mean_queued_small, r.mean_queued_large,
                                 r.seconds };
            printf("{\"policy\": \"%s\", \"jobs\": %zu, \"small_jobs\": %zu, \"events\": %zu",
                   ct_share_policy_name(o->sp.policy), j.n, r.n_small, r.events);
            for (size_t k = 0; k < sizeof v / sizeof *v; k++) { /* no large (or small) jobs: null */
                if (isfinite(v[k]))
                    printf(", \"%s\": %.17g", keys[k], v[k]);
                else
                    printf(", \"%s\": null", keys[k]);
            }
            printf("}\n");
        } else {
            char v[6][16];
            const double ms[6] = { r.mean_jct, r.mean_jct_large, r.mean_jct_small, r.mean_queued, r.mean_queued_large,
                                   r.mean_queued_small };
            for (int k = 0; k < 6; k++) { /* no large (or small) jobs: "-" */
                if (isfinite(ms[k]))
                    snprintf(v[k], sizeof v[k], "%.4g", ms[k] / 3.6e6);
                else
                    strcpy(v[k], "-");
            }
            printf("%s: %zu jobs: mean JCT %s h (large %s, small %s), queueing %s h (large %s, small %s), makespan "
                   "%.4g h, GPU utilisation %.3f; %zu events in %.1f ms\n",
                   ct_share_policy_name(o->sp.policy), j.n, v[0], v[1], v[2], v[3], v[4], v[5], r.makespan / 3.6e6,
                   r.utilization, r.events, 1e3 * r.seconds);
        }
        ct_train_result_free(&r);
    }
    ct_share_jobs_free(&j);
    ct_apps_free(&a);
    return rc;
}

/* The workload key of a file: its name without folders and ".csv". */
static void workload_key(const char *path, char *key, size_t n)
{
    const char *b = strrchr(path, '/');
    snprintf(key, n, "%s", b ? b + 1 : path);
    size_t len = strlen(key);
    if (len > 4 && !strcmp(key + len - 4, ".csv"))
        key[len - 4] = '\0';
}


/* train table: point = (file, policy or published reference); its text is
 * the CSV row. */
typedef struct {
    const train_opts_t *o;
    char **files;
    ct_apps_t **apps;           /* per file (shared for Pollux files) */
    ct_share_jobs_t *jobs;      /* per file */
    const ct_share_policy_t *pols;
    size_t np;
    char (*labels)[64];         /* per policy, then per reference */
} table_ctx_t;

static ct_status_t table_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const table_ctx_t *c = arg;
    size_t per = c->np + c->o->nrefs, f = i / per, k = i % per;
    double v[TM];
    if (k < c->np) {
        ct_share_params_t sp = c->o->sp;
        sp.policy = c->pols[k];
        sp.progress = NULL;
        ct_train_result_t r;
        ct_status_t st = ct_share_run(&c->o->c, c->apps[f], &c->jobs[f], &sp, &r, err);
        if (st != CT_OK)
            return st;
        double w[TM] = { r.mean_jct, r.mean_jct_large, r.mean_jct_small, r.mean_queued, r.mean_queued_large,
                         r.mean_queued_small, r.makespan };
        memcpy(v, w, sizeof v);
        ct_train_result_free(&r);
    } else {
        char key[256];
        double mean[3];
        workload_key(c->files[f], key, sizeof key);
        ct_status_t st = ct_share_reference_jct(strchr(c->o->refs[k - c->np], '=') + 1, key, &c->jobs[f], mean, err);
        if (st != CT_OK)
            return st;
        for (int m = 0; m < TM; m++)
            v[m] = m < 3 ? 1e3 * mean[m] : NAN;
    }
    char *file = ct_csv_quote(c->files[f]);
    size_t cap = (file ? strlen(file) : 0) + strlen(c->labels[k]) + 256;
    char *row = file ? malloc(cap) : NULL;
    if (!row) {
        free(file);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    size_t len = (size_t)snprintf(row, cap, "%s,%s,%zu", file, c->labels[k], c->jobs[f].n);
    free(file);
    for (int m = 0; m < TM; m++) /* no value (no large jobs, a reference's queueing): empty */
        len += isfinite(v[m]) ? (size_t)snprintf(row + len, cap - len, ",%.6g", v[m] / 3.6e6)
                              : (size_t)snprintf(row + len, cap - len, ",");
    snprintf(row + len, cap - len, "\n");
    *text = row;
    return CT_OK;
}

static int do_table(int nfiles, char **files, train_opts_t *o)
{
    ct_share_policy_t pols[8];
    size_t np = 0;
    char *copy = strdup(o->policies), *save = NULL;
    if (!copy)
        return cli_usage("train", "out of memory");
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (np == 8 || ct_share_policy_parse(t, &pols[np]) != CT_OK) {
            free(copy);
            return cli_usage("train", "--policies: expected up to 8 of sjf-bsbf, sjf-ffs, fifo, sjf, tiresias");
        }
        np++;
    }
    free(copy);
    if (!np)
        return cli_usage("train", "--policies: empty");
    if (o->sweep.shards > 1 && !o->output)
        return cli_usage("train", "table --shard: -o PART is required");
    for (size_t k = 0; k < o->nrefs; k++)
        if (memchr(o->refs[k], ',', (size_t)(strchr(o->refs[k], '=') - o->refs[k])))
            return cli_usage("train", "--reference: the label may not contain ','");
    ct_error_t err;
    int rc = load_cluster(o);
    if (rc)
        return rc;
    char labels[12][64];
    ct_means_t means;
    ct_means_init(&means, TM);
    for (size_t k = 0; k < np; k++)
        snprintf(labels[k], sizeof labels[k], "%s", ct_share_policy_name(pols[k]));
    for (size_t k = 0; k < o->nrefs; k++)
        snprintf(labels[np + k], sizeof labels[np + k], "%.*s (published)",
                 (int)(strchr(o->refs[k], '=') - o->refs[k]) > 40 ? 40 : (int)(strchr(o->refs[k], '=') - o->refs[k]),
                 o->refs[k]);
    double none[TM];
    for (int m = 0; m < TM; m++)
        none[m] = NAN;
    for (size_t k = 0; k < np + o->nrefs; k++) /* the rows in this order, even one without values */
        if (ct_means_add(&means, labels[k], none, &err) != CT_OK)
            return cli_fail(&err);
    /* Every workload first (Pollux files share the apps file; the online
     * simulator's files bring their own), then the points. */
    ct_apps_t shared, **apps = calloc((size_t)nfiles, sizeof(ct_apps_t *));
    ct_share_jobs_t *jobs = calloc((size_t)nfiles, sizeof(ct_share_jobs_t));
    size_t per = np + o->nrefs, total = (size_t)nfiles * per;
    char **texts = calloc(total, sizeof(char *));
    int have_shared = 0, f = 0;
    if (!apps || !jobs || !texts) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    for (; f < nfiles; f++) {
        if (ct_workload_kind(files[f]) == CT_WORKLOAD_TRAIN) {
            if (!(apps[f] = calloc(1, sizeof(ct_apps_t)))) {
                ct_error_set(&err, CT_ENOMEM, "out of memory");
                rc = cli_fail(&err);
                goto done;
            }
            if ((rc = load_workload(files[f], o, apps[f], &jobs[f]))) {
                free(apps[f]);
                apps[f] = NULL;
                goto done;
            }
        } else {
            if (!have_shared && (rc = load_apps(o, &shared)))
                goto done;
            have_shared = 1;
            apps[f] = &shared;
            if (ct_share_jobs_load(&jobs[f], &shared, files[f], &err) != CT_OK) {
                rc = cli_fail(&err);
                goto done;
            }
        }
    }
    table_ctx_t c = { o, files, apps, jobs, pols, np, labels };
    if (cli_sweep_run("runs", "train-table", o->output, total, table_point, &c, &o->sweep, texts, &rc))
        goto done;
    /* workload,policy,jobs, then the TM values */
    if (means_add_rows(&means, texts, total, 1, 3, TM, NULL, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    printf("%d workload file%s; hours, mean over the files%s\n", nfiles, nfiles == 1 ? "" : "s", ct_sweep_where());
    printf("%-22s %8s %8s %8s   %8s %8s %8s   %8s\n", "policy", "JCT", "large", "small", "queued", "large", "small",
           "makespan");
    for (size_t k = 0; k < means.n_rows; k++) {
        printf("%-22s", means.labels[k]);
        for (size_t m = 0; m < TM; m++) {
            const char *sep = m == 3 || m == 6 ? "   " : " ";
            double x = ct_means_get(&means, k, m);
            if (isfinite(x))
                printf("%s%8.3f", sep, x);
            else
                printf("%s%8s", sep, "-");
        }
        printf("\n");
    }
    if (o->output && !(rc = cli_sweep_write("train-table", o->output, total, &o->sweep, texts)))
        printf("wrote %s\n", o->output);
done:
    for (int k = 0; k < f && jobs; k++) {
        ct_share_jobs_free(&jobs[k]);
        if (apps[k] && apps[k] != &shared) {
            ct_apps_free(apps[k]);
            free(apps[k]);
        }
    }
    if (have_shared)
        ct_apps_free(&shared);
    free(apps);
    free(jobs);
    ct_sweep_texts_free(texts, total);
    ct_means_free(&means);
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
    if (!strcmp(sub, "workload")) {
        if (nargs != 0)
            return cli_usage("train", "workload takes no file arguments");
        return (rc = load_cluster(&o)) ? rc : do_workload(&o);
    }
    if (!strcmp(sub, "run")) {
        if (nargs != 1)
            return cli_usage("train", "run: expected one JOBS file");
        if (!o.share && ct_workload_kind(args[0]) == CT_WORKLOAD_POLLUX)
            return cli_usage("train", "%s: a Pollux workload: --placement and --admission need per-iteration forward, "
                                      "backward and all-reduce sizes; give --policy sjf-bsbf|sjf-ffs|fifo|sjf|tiresias",
                             args[0]);
        return o.share ? do_share_run(args[0], &o) : do_run(args[0], &o);
    }
    if (!strcmp(sub, "fit"))
        return nargs == 1 ? do_fit(args[0], &o) : cli_usage("train", "fit: expected the Pollux simulator directory");
    if (!strcmp(sub, "share-workload"))
        return nargs == 0 ? do_share_workload(&o) : cli_usage("train", "share-workload takes no file arguments");
    if (!strcmp(sub, "table"))
        return nargs >= 1 ? do_table(nargs, args, &o) : cli_usage("train", "table: expected WORKLOAD files");
    if (!strcmp(sub, "sweep"))
        return nargs >= 1 ? do_sweep(nargs, args, &o) : cli_usage("train", "sweep: expected JOBS files");
    return cli_usage("train", "unknown subcommand '%s'", sub);
}
