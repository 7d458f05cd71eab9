/*
 * cmd_bco.c - `contend bco`: workload, schedule, sweep, validate.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_bco.h"
#include "ct_sampler.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void bco_usage(FILE *out)
{
    fprintf(out,
            "usage: contend bco workload [--seed N] [--servers S] [--jobs N] [--calibration paper|best] -o DIR\n"
            "       contend bco schedule CLUSTER JOBS [--policy sjf-bco|ff|ls|rand] [--kappa K] [--lambda L]\n"
            "                            [--faffp pack|least-u] [--search scan|bisect] [--horizon T|auto]\n"
            "                            [--resim work-conserving|planned] [-o SCHEDULE.json] [--json]\n"
            "       contend bco sweep CLUSTER JOBS --vary kappa|servers|lambda -o results.csv [schedule options]\n"
            "       contend bco validate CLUSTER JOBS [schedule options] [--ilp-seconds S] [--json] [--strict]\n"
            "       contend bco validate --random N [--family tiny|identical|hetero|all] [--seed S]\n"
            "                            [--ilp-seconds S] [-o instances.csv] [--save-counterexamples DIR] [--strict]\n"
            "\n"
            "Schedules ring-all-reduce training jobs (gang-scheduled GPUs, no preemption) to\n"
            "minimise the makespan under communication contention (SJF-BCO), with the FF, LS and\n"
            "RAND baselines, and checks the paper's approximation bounds.\n"
            "\n"
            "workload: the paper's job mix (160 jobs; --jobs keeps its shares) and a 20-server\n"
            "  cluster for a seed: DIR/cluster.json and DIR/jobs.json. --calibration paper\n"
            "  (default): contention and overhead within 15%% of the actual time at any placement;\n"
            "  best: 15%% of a best-placement iteration (spreading can double a job's time)\n"
            "schedule: the schedule (per job: GPUs, re-simulated start and completion, the planned\n"
            "  start and estimated completion beside them), makespan, mean JCT, theta_u, kappa.\n"
            "  --search scan (default) brackets theta_u and scans; bisect is the paper's search.\n"
            "  --horizon overrides the cluster's T (auto: no limit). --resim planned also holds\n"
            "  each job until its planned start and every job planned before it has started\n"
            "sweep: makespan against kappa (SJF-BCO), against the number of servers 10..20\n"
            "  (every policy, horizon at least 1500), or against lambda in {1, 2, 4, 8} (SJF-BCO,\n"
            "  kappa 1 as in the paper's Fig. 7 unless --kappa is given)\n"
            "validate: n_g, phi, u/l, W_max, theta_u~ and the makespan, then each claim with its\n"
            "  numbers: Lemma 3 (re-simulated makespan <= n_g W_max), Lemma 4 (theta_u~ <= phi\n"
            "  (u/l) theta_u*, theta_u* by a GLPK ILP within --ilp-seconds, default 10), Theorem 5\n"
            "  (makespan <= n_g phi (u/l) T*, T* exact on tiny instances, else bracketed). A claim\n"
            "  holds, is VIOLATED, or is undecided when the bracket does not settle it.\n"
            "  --random N draws N instances of a family (all: in turn) and reports the counts,\n"
            "  the worst makespan / T*, and the smallest counterexample of each claim.\n"
            "  Exit status 0 once the report is printed; --strict: 1 if a claim is violated.\n"
            "\n"
            "Units: time in slots, sizes in gradient units, bandwidths in units per slot.\n");
}

typedef struct {
    ct_bco_params_t bp;
    ct_rar_workload_params_t wp;
    ct_bco_validate_params_t vp;
    ct_bco_family_t family;
    const char *output, *vary, *save;
    uint64_t seed;
    size_t random;
    int json, strict, kappa_set;
    ct_sweep_params_t sweep; /* sweep: -j, --shard */
} bco_opts_t;

enum {
    OPT_SEED = 256, OPT_SERVERS, OPT_POLICY, OPT_KAPPA, OPT_LAMBDA, OPT_FAFFP, OPT_JSON, OPT_VARY, OPT_RANDOM,
    OPT_JOBS, OPT_CALIBRATION, OPT_SEARCH, OPT_HORIZON, OPT_RESIM, OPT_FAMILY, OPT_ILP_SECONDS, OPT_SAVE, OPT_STRICT,
    OPT_SHARD
};

static int parse(int argc, char **argv, bco_opts_t *o)
{
    static const struct option longopts[] = {
        { "seed", required_argument, NULL, OPT_SEED }, { "servers", required_argument, NULL, OPT_SERVERS },
        { "policy", required_argument, NULL, OPT_POLICY }, { "kappa", required_argument, NULL, OPT_KAPPA },
        { "lambda", required_argument, NULL, OPT_LAMBDA }, { "faffp", required_argument, NULL, OPT_FAFFP },
        { "json", no_argument, NULL, OPT_JSON }, { "vary", required_argument, NULL, OPT_VARY },
        { "random", required_argument, NULL, OPT_RANDOM }, { "output", required_argument, NULL, 'o' },
        { "jobs", required_argument, NULL, OPT_JOBS }, { "calibration", required_argument, NULL, OPT_CALIBRATION },
        { "search", required_argument, NULL, OPT_SEARCH }, { "horizon", required_argument, NULL, OPT_HORIZON },
        { "resim", required_argument, NULL, OPT_RESIM }, { "family", required_argument, NULL, OPT_FAMILY },
        { "ilp-seconds", required_argument, NULL, OPT_ILP_SECONDS },
        { "save-counterexamples", required_argument, NULL, OPT_SAVE }, { "strict", no_argument, NULL, OPT_STRICT },
        { "threads", required_argument, NULL, 'j' }, { "shard", required_argument, NULL, OPT_SHARD },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_bco_params_init(&o->bp);
    ct_rar_workload_params_init(&o->wp);
    ct_bco_validate_params_init(&o->vp);
    o->family = CT_BCO_FAMILY_ALL;
    o->seed = 1;
    optind = 1;
    opterr = 0;
    int c;
    unsigned long long u;
    while ((c = getopt_long(argc, argv, "o:hj:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SEED:
            if (cli_parse_u64(optarg, &u))
                return cli_usage("bco", "--seed: expected a non-negative integer, got '%s'", optarg);
            o->seed = o->bp.seed = u;
            break;
        case OPT_SERVERS:
            if (cli_parse_size(optarg, &o->wp.n_servers) || o->wp.n_servers < 1 || o->wp.n_servers > 100000)
                return cli_usage("bco", "--servers: expected an integer in 1 .. 100000, got '%s'", optarg);
            break;
        case OPT_JOBS:
            if (cli_parse_size(optarg, &o->wp.n_jobs) || o->wp.n_jobs < 1 || o->wp.n_jobs > 1000000)
                return cli_usage("bco", "--jobs: expected an integer in 1 .. 1000000, got '%s'", optarg);
            break;
        case OPT_CALIBRATION:
            if (ct_rar_calibration_parse(optarg, &o->wp.calibration) != CT_OK)
                return cli_usage("bco", "--calibration: expected paper or best, got '%s'", optarg);
            break;
        case OPT_SEARCH:
            if (ct_bco_search_parse(optarg, &o->bp.search) != CT_OK)
                return cli_usage("bco", "--search: expected scan or bisect, got '%s'", optarg);
            break;
        case OPT_RESIM:
            if (ct_rar_resim_parse(optarg, &o->bp.resim) != CT_OK)
                return cli_usage("bco", "--resim: expected work-conserving or planned, got '%s'", optarg);
            break;
        case OPT_HORIZON:
            if (!strcmp(optarg, "auto"))
                o->bp.horizon = CT_BCO_HORIZON_AUTO;
            else if (cli_parse_u64(optarg, &u) || u < 1 || u > 1000000000)
                return cli_usage("bco", "--horizon: expected auto or an integer in 1 .. 1000000000 slots, got '%s'",
                                 optarg);
            else
                o->bp.horizon = (long)u;
            break;
        case OPT_FAMILY:
            if (ct_bco_family_parse(optarg, &o->family) != CT_OK)
                return cli_usage("bco", "--family: expected tiny, identical, hetero or all, got '%s'", optarg);
            break;
        case OPT_ILP_SECONDS:
            if (cli_parse_double(optarg, &o->vp.ilp_seconds) || !(o->vp.ilp_seconds >= 0) ||
                o->vp.ilp_seconds > 86400)
                return cli_usage("bco", "--ilp-seconds: expected 0 (no limit) .. 86400, got '%s'", optarg);
            break;
        case OPT_SAVE: o->save = optarg; break;
        case OPT_STRICT: o->strict = 1; break;
        case OPT_POLICY:
            if (ct_bco_policy_parse(optarg, &o->bp.policy) != CT_OK)
                return cli_usage("bco", "--policy: expected sjf-bco, ff, ls or rand, got '%s'", optarg);
            break;
        case OPT_KAPPA:
            if (cli_parse_u64(optarg, &u) || u < 1 || u > 1000000)
                return cli_usage("bco", "--kappa: expected an integer in 1 .. 1000000, got '%s'", optarg);
            o->bp.kappa = (long)u;
            o->kappa_set = 1;
            break;
        case OPT_LAMBDA:
            if (cli_parse_double(optarg, &o->bp.lambda) || o->bp.lambda < 1)
                return cli_usage("bco", "--lambda: expected a number >= 1, got '%s'", optarg);
            break;
        case OPT_FAFFP:
            if (!strcmp(optarg, "pack"))
                o->bp.faffp = CT_FAFFP_PACK;
            else if (!strcmp(optarg, "least-u"))
                o->bp.faffp = CT_FAFFP_LEAST_U;
            else
                return cli_usage("bco", "--faffp: expected pack or least-u, got '%s'", optarg);
            break;
        case OPT_JSON: o->json = 1; break;
        case OPT_VARY: o->vary = optarg; break;
        case OPT_RANDOM:
            if (cli_parse_size(optarg, &o->random) || o->random < 1 || o->random > 100000)
                return cli_usage("bco", "--random: expected an integer in 1 .. 100000, got '%s'", optarg);
            break;
        case 'o': o->output = optarg; break;
        case 'j':
        case OPT_SHARD: /* -j N, --shard I/N */
            if (cli_parse_sweep_option("bco", c == 'j', optarg, &o->sweep))
                return 2;
            break;
        case 'h': bco_usage(stdout); return -1;
        default: return cli_usage("bco", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    return 0;
}

static int load_inputs(const char *cpath, const char *jpath, ct_rar_cluster_t *c, ct_rar_jobs_t *j)
{
    ct_error_t err;
    if (ct_rar_cluster_load(c, cpath, &err) != CT_OK)
        return cli_fail(&err);
    if (ct_rar_jobs_load(j, jpath, &err) != CT_OK) {
        ct_rar_cluster_free(c);
        return cli_fail(&err);
    }
    return 0;
}

/* Writes DIR/PREFIXcluster.json and DIR/PREFIXjobs.json (DIR created if
 * needed). On success returns 0 with the two paths in *cp and *jp (the
 * caller prints and frees them); else reports and returns the exit code. */
static int write_instance(const char *dir, const char *prefix, const ct_rar_cluster_t *c, const ct_rar_jobs_t *j,
                          char **cp, char **jp)
{
    ct_error_t err;
    *cp = *jp = NULL;
    if (cli_make_dir(dir, &err) != 0)
        return cli_fail(&err);
    size_t n = strlen(dir) + strlen(prefix) + 16;
    *cp = malloc(n);
    *jp = malloc(n);
    if (!*cp || !*jp)
        ct_error_set(&err, CT_ENOMEM, "out of memory");
    else {
        snprintf(*cp, n, "%s/%scluster.json", dir, prefix);
        snprintf(*jp, n, "%s/%sjobs.json", dir, prefix);
        if (ct_rar_cluster_write(c, *cp, &err) == CT_OK && ct_rar_jobs_write(j, *jp, &err) == CT_OK)
            return 0;
    }
    free(*cp);
    free(*jp);
    *cp = *jp = NULL;
    return cli_fail(&err);
}

static int do_workload(const bco_opts_t *o)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    char *cp, *jp;
    if (!o->output)
        return cli_usage("bco", "workload: -o DIR is required");
    if (ct_rar_workload(o->seed, &o->wp, &c, &j, &err) != CT_OK)
        return cli_fail(&err);
    int rc = write_instance(o->output, "", &c, &j, &cp, &jp);
    if (rc == 0)
        printf("wrote %s (%zu servers, %u GPUs) and %s (%zu jobs), seed %llu, calibration %s\n", cp, c.n_servers,
               c.n_gpus, jp, j.n, (unsigned long long)o->seed, ct_rar_calibration_name(o->wp.calibration));
    free(cp);
    free(jp);
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
}

/* obj[key] = [a, b]; 0 on success. */
static int add_pair(cJSON *obj, const char *key, double a, double b)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, key);
    return !(arr && cJSON_AddItemToArray(arr, ct_json_number(a)) && cJSON_AddItemToArray(arr, ct_json_number(b)));
}

static int do_schedule(const char *cpath, const char *jpath, const bco_opts_t *o)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    ct_bco_result_t r;
    int rc = load_inputs(cpath, jpath, &c, &j);
    if (rc)
        return rc;
    if (ct_bco_schedule(&c, &j, &o->bp, &r, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    if (o->output && ct_bco_write_schedule(&c, &j, &o->bp, &r, o->output, &err) != CT_OK) {
        rc = cli_fail(&err);
        ct_bco_result_free(&r);
        goto done;
    }
    if (o->json) {
        /* Schema bco-schedule-json-v1; a non-finite number is null. */
        cJSON *js = cJSON_CreateObject();
        int ok = js && cJSON_AddStringToObject(js, "policy", ct_bco_policy_name(o->bp.policy)) &&
                 cJSON_AddStringToObject(js, "search", ct_bco_search_name(o->bp.search)) &&
                 !ct_json_add_number(js, "makespan", r.makespan) &&
                 !ct_json_add_number(js, "makespan_estimate", r.makespan_est) &&
                 !ct_json_add_number(js, "mean_jct", r.mean_jct) &&
                 !ct_json_add_number(js, "theta_u", (double)r.theta_u) &&
                 !add_pair(js, "theta_range", (double)r.theta_lo, (double)r.theta_hi) &&
                 !ct_json_add_number(js, "horizon", (double)r.horizon) &&
                 !ct_json_add_number(js, "kappa", (double)r.kappa) && !ct_json_add_number(js, "W_max", r.W_max) &&
                 !ct_json_add_number(js, "runs", (double)r.runs) && !ct_json_add_number(js, "seconds", r.seconds);
        if (!ok) {
            cJSON_Delete(js);
            js = NULL;
        }
        rc = cli_print_json_line(js);
    } else
        printf("%s: %zu jobs on %zu servers (%u GPUs): makespan %.1f slots (estimate %.1f), mean JCT %.1f slots, "
               "theta_u %ld (searched %ld..%ld, horizon %ld), kappa %ld, %zu placement passes, %.1f ms\n",
               ct_bco_policy_name(o->bp.policy), j.n, c.n_servers, c.n_gpus, r.makespan, r.makespan_est, r.mean_jct,
               r.theta_u, r.theta_lo, r.theta_hi, r.horizon, r.kappa, r.runs, 1e3 * r.seconds);
    ct_bco_result_free(&r);
done:
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
}

/* bco sweep: point = (value, policy); kappa and lambda concern SJF-BCO
 * only. Each point loads its own cluster (the servers sweep changes it).
 * Its text is the CSV row; the console line is printed from it. */
typedef struct {
    const bco_opts_t *o;
    const char *cpath;
    const ct_rar_jobs_t *jobs;
    const double *values;
    int npol;
} bsweep_ctx_t;

static ct_status_t bsweep_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const bsweep_ctx_t *x = arg;
    const bco_opts_t *o = x->o;
    size_t v = i / (size_t)x->npol;
    int pol = (int)(i % (size_t)x->npol);
    ct_rar_cluster_t c;
    ct_status_t st = ct_rar_cluster_load(&c, x->cpath, err);
    if (st != CT_OK)
        return st;
    ct_bco_params_t bp = o->bp;
    bp.policy = (ct_bco_policy_t)pol;
    if (!strcmp(o->vary, "kappa"))
        bp.kappa = (long)x->values[v];
    if (!strcmp(o->vary, "lambda")) {
        bp.lambda = x->values[v];
        if (!o->kappa_set)
            bp.kappa = 1; /* Fig. 7 fixes kappa = 1: every multi-GPU job goes through LBSGF */
    }
    if (!strcmp(o->vary, "servers")) {
        c.n_servers = (size_t)x->values[v];
        c.horizon = c.horizon > 1500 ? c.horizon : 1500; /* the paper's T for this sweep */
        if ((st = ct_rar_cluster_index(&c, err)) != CT_OK) {
            ct_rar_cluster_free(&c);
            return st;
        }
    }
    ct_bco_result_t r;
    char row[256];
    st = ct_bco_schedule(&c, x->jobs, &bp, &r, err);
    if (st == CT_EINPUT || st == CT_ELIMIT) { /* infeasible at this point: an empty row */
        snprintf(row, sizeof row, "%s,%g,%s,,,,,\n", o->vary, x->values[v], ct_bco_policy_name(bp.policy));
        st = CT_OK;
    } else if (st == CT_OK) {
        snprintf(row, sizeof row, "%s,%g,%s,%.9g,%.9g,%.9g,%ld,%ld\n", o->vary, x->values[v],
                 ct_bco_policy_name(bp.policy), r.makespan, r.makespan_est, r.mean_jct, r.theta_u, r.kappa);
        ct_bco_result_free(&r);
    }
    ct_rar_cluster_free(&c);
    if (st == CT_OK && !(*text = strdup(row)))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    return st;
}

static int do_sweep(const char *cpath, const char *jpath, const bco_opts_t *o)
{
    if (!o->vary || (strcmp(o->vary, "kappa") && strcmp(o->vary, "servers") && strcmp(o->vary, "lambda")))
        return cli_usage("bco", "sweep: --vary kappa, servers or lambda is required");
    if (!o->output)
        return cli_usage("bco", "sweep: -o results.csv is required");
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    int rc = load_inputs(cpath, jpath, &c, &j);
    if (rc)
        return rc;
    uint32_t max_g = 0;
    for (size_t i = 0; i < j.n; i++)
        if (j.jobs[i].gpus > max_g)
            max_g = j.jobs[i].gpus;
    double values[64];
    size_t nv = 0;
    if (!strcmp(o->vary, "kappa"))
        for (uint32_t k = 1; k <= max_g && nv < 64; k++)
            values[nv++] = k;
    else if (!strcmp(o->vary, "lambda"))
        for (int k = 1; k <= 8; k *= 2)
            values[nv++] = k;
    else
        for (size_t s = 10; s <= 20 && s <= c.n_servers; s++)
            values[nv++] = (double)s;
    bsweep_ctx_t x = { o, cpath, &j, values, !strcmp(o->vary, "servers") ? 4 : 1 };
    size_t total = nv * (size_t)x.npol;
    char **texts = calloc(total ? total : 1, sizeof(char *));
    if (!texts) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    if (cli_sweep_run("points", "bco-sweep", o->output, total, bsweep_point, &x, &o->sweep, texts, &rc))
        goto done;
    printf("%-8s %-8s %10s %10s %10s\n", o->vary, "policy", "makespan", "estimate", "mean JCT");
    for (size_t i = 0; i < total; i++) { /* the console table, from the rows */
        char vary[16], pol[16];
        double value, mk, est, mj;
        int k = sscanf(texts[i], "%15[^,],%lf,%15[^,],%lf,%lf,%lf", vary, &value, pol, &mk, &est, &mj);
        if (k == 6)
            printf("%-8g %-8s %10.1f %10.1f %10.1f\n", value, pol, mk, est, mj);
        else if (k >= 3)
            printf("%-8g %-8s %10s\n", value, pol, "infeasible");
    }
    if (!(rc = cli_sweep_write("bco-sweep", o->output, total, &o->sweep, texts)))
        printf("wrote %s%s\n", o->output, ct_sweep_where());
done:
    ct_sweep_texts_free(texts, total);
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
}

static void print_bounds(const char *name, const ct_bco_bounds_t *b)
{
    double ul = b->phi * b->u_over_l;
    printf("%s: n_g %g, phi %.4g, u/l %.4g, W_max %.4g, theta_u~ %ld, makespan %.1f (estimate %.1f)\n", name, b->n_g,
           b->phi, b->u_over_l, b->W_max, b->theta_tilde, b->makespan, b->makespan_est);
    printf("  Lemma 3: makespan %.1f <= n_g W_max = %.1f (whole slots per job: W %.4g): %s (the estimate %.1f <= "
           "%.1f: %s)\n",
           b->makespan, b->n_g * b->W_slots, b->W_slots, ct_claim_name(b->lemma3), b->makespan_est, b->n_g * b->W_max,
           ct_claim_name(b->lemma3_est));
    if (b->theta_status == CT_THETA_EXACT)
        printf("  theta_u* = %.4g (GLPK ILP, optimal)\n", b->theta_lo);
    else if (b->theta_lo == b->theta_hi)
        printf("  theta_u* = %.4g (a lower bound meets this schedule's W_max; the ILP %s)\n", b->theta_lo,
               b->theta_status == CT_THETA_TIME_LIMIT ? "hit its time limit" : "was too large to run");
    else
        printf("  theta_u* in [%.4g, %.4g] (%s)\n", b->theta_lo, b->theta_hi,
               b->theta_status == CT_THETA_TIME_LIMIT ? "ILP not proven within the time limit: bound, incumbent"
                                                      : "too large for the ILP: simple bound, this schedule's W_max");
    printf("  Lemma 4: theta_u~ %ld <= phi (u/l) theta_u* + 1 = %.4g%s: %s\n", b->theta_tilde, ul * b->theta_hi + 1,
           b->theta_lo < b->theta_hi ? " at most" : "", ct_claim_name(b->lemma4));
    if (b->have_T_exact)
        printf("  T* = %.4g (exhaustive)", b->T_lo);
    else
        printf("  T* in [%.4g, %.4g] (lower bounds, best known schedule)", b->T_lo, b->T_hi);
    printf("; Theorem 5: makespan %.1f <= n_g phi (u/l) T* = %.4g%s: %s; makespan / T* %s %.4g\n", b->makespan,
           b->n_g * ul * b->T_hi, b->T_lo < b->T_hi ? " at most" : "", ct_claim_name(b->theorem5),
           b->T_lo < b->T_hi ? ">=" : "=", b->ratio_lo);
}

static int claims_violated(const ct_bco_bounds_t *b)
{
    return b->lemma3 == CT_CLAIM_VIOLATED || b->lemma4 == CT_CLAIM_VIOLATED || b->theorem5 == CT_CLAIM_VIOLATED;
}

/* Describes an instance on one line: servers' GPUs and jobs' GPUs x best time. */
static void describe_instance(const ct_rar_cluster_t *c, const ct_rar_jobs_t *j)
{
    printf("    servers [");
    for (size_t v = 0; v < c->n_servers; v++)
        printf("%s%u", v ? ", " : "", c->gpus[v]);
    printf("] GPUs; jobs (GPUs x best-case slots):");
    for (size_t i = 0; i < j->n; i++) {
        double best, worst;
        ct_rar_exec_bounds(c, &j->jobs[i], &best, &worst);
        printf(" %ux%.4g", j->jobs[i].gpus, best);
    }
    printf("\n");
}

static int validate_one(const char *cpath, const char *jpath, const bco_opts_t *o)
{
    ct_error_t err;
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_bco_result_t r;
    ct_bco_bounds_t b;
    int rc = load_inputs(cpath, jpath, &c, &j);
    if (rc)
        return rc;
    if (ct_bco_schedule(&c, &j, &o->bp, &r, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    if (ct_bco_validate(&c, &j, &r, &o->vp, &b, &err) != CT_OK)
        rc = cli_fail(&err);
    else if (o->json) {
        /* Schema bco-validate-json-v1: theta_star's upper end -1 when unbounded. */
        cJSON *js = cJSON_CreateObject();
        int ok = js && !ct_json_add_number(js, "n_g", b.n_g) && !ct_json_add_number(js, "phi", b.phi) &&
                 !ct_json_add_number(js, "u_over_l", b.u_over_l) && !ct_json_add_number(js, "W_max", b.W_max) &&
                 !ct_json_add_number(js, "theta_tilde", (double)b.theta_tilde) &&
                 !ct_json_add_number(js, "makespan", b.makespan) &&
                 !ct_json_add_number(js, "makespan_estimate", b.makespan_est) &&
                 !add_pair(js, "theta_star", b.theta_lo, isfinite(b.theta_hi) ? b.theta_hi : -1) &&
                 !add_pair(js, "T_star", b.T_lo, b.T_hi) &&
                 cJSON_AddStringToObject(js, "lemma3", ct_claim_name(b.lemma3)) &&
                 cJSON_AddStringToObject(js, "lemma4", ct_claim_name(b.lemma4)) &&
                 cJSON_AddStringToObject(js, "theorem5", ct_claim_name(b.theorem5));
        if (!ok) {
            cJSON_Delete(js);
            js = NULL;
        }
        rc = cli_print_json_line(js);
    }
    else
        print_bounds(jpath, &b);
    if (!rc && o->strict && claims_violated(&b))
        rc = 1;
    ct_bco_result_free(&r);
done:
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
}

static int validate_random(const bco_opts_t *o)
{
    ct_error_t err;
    ct_bco_claims_params_t cp;
    ct_bco_claims_params_init(&cp);
    cp.instances = o->random ? o->random : 50;
    cp.seed = o->seed;
    cp.family = o->family;
    cp.schedule = o->bp;
    cp.validate = o->vp;
    ct_bco_claims_t cs;
    ct_bco_claims_init(&cs, &cp);
    size_t N = cp.instances;
    ct_outfile_t out;
    int rc = 0, have_out = 0;
    if (o->output) {
        if (ct_outfile_open(&out, o->output, &err) != CT_OK)
            return cli_fail(&err);
        have_out = 1;
        fprintf(out.fp, "instance,family,servers,gpus,jobs,n_g,phi,W_max,theta_tilde,theta_star_lo,theta_star_hi,"
                        "makespan,makespan_estimate,T_lo,T_hi,lemma3,lemma4,theorem5\n");
    }
    cli_progress_t bar;
    cli_progress_start(&bar, "instances", N);
    for (size_t i = 0; i < N && rc == 0; i++) {
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        ct_bco_bounds_t b;
        ct_bco_family_t f;
        memset(&c, 0, sizeof c);
        memset(&j, 0, sizeof j);
        if (ct_bco_claims_iterate(&cs, &c, &j, &f, &b, &err) != CT_OK)
            rc = cli_fail(&err);
        else if (have_out)
            fprintf(out.fp, "%zu,%s,%zu,%u,%zu,%g,%.9g,%.9g,%ld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%s,%s,%s\n", i,
                    ct_bco_family_name(f), c.n_servers, c.n_gpus, j.n, b.n_g, b.phi, b.W_max, b.theta_tilde,
                    b.theta_lo, b.theta_hi, b.makespan, b.makespan_est, b.T_lo, b.T_hi, ct_claim_name(b.lemma3),
                    ct_claim_name(b.lemma4), ct_claim_name(b.theorem5));
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
        cli_progress_update(&bar, i + 1);
    }
    cli_progress_end(&bar);
    if (rc) {
        if (have_out)
            ct_outfile_abort(&out);
        return rc;
    }
    if (have_out && ct_outfile_commit(&out, &err) != CT_OK)
        return cli_fail(&err);
    static const char *const claim[] = { "Lemma 3", "Lemma 4", "Theorem 5" };
    size_t(*tally)[3] = cs.tally;
    const ct_bco_counterexample_t *ce = cs.ce;
    double worst = cs.worst, worst_exact = cs.worst_exact;
    if (o->json) {
        /* Schema bco-validate-random-json-v1. */
        static const char *const key[] = { "lemma3", "lemma4", "theorem5" };
        cJSON *js = cJSON_CreateObject();
        int ok = js && !ct_json_add_number(js, "instances", (double)N) &&
                 !ct_json_add_number(js, "worst_ratio_at_least", worst) &&
                 !ct_json_add_number(js, "worst_ratio_exact_T", worst_exact);
        for (int k = 0; k < 3 && ok; k++) {
            cJSON *t = cJSON_AddObjectToObject(js, key[k]);
            ok = t && !ct_json_add_number(t, "holds", (double)tally[k][0]) &&
                 !ct_json_add_number(t, "violated", (double)tally[k][1]) &&
                 !ct_json_add_number(t, "undecided", (double)tally[k][2]);
        }
        if (!ok) {
            cJSON_Delete(js);
            js = NULL;
        }
        if ((rc = cli_print_json_line(js)) != 0)
            return rc;
    } else {
        printf("%zu random instances (tiny %zu, identical %zu, hetero %zu), seed %llu:\n", N, cs.count[0],
               cs.count[1], cs.count[2], (unsigned long long)o->seed);
        for (int k = 0; k < 3; k++)
            printf("  %-9s holds %zu, VIOLATED %zu, undecided %zu\n", claim[k], tally[k][0], tally[k][1], tally[k][2]);
        printf("  worst makespan / T*: %.4g where T* is known exactly, at least %.4g over all\n", worst_exact, worst);
    }
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (!ce[k].have)
            continue;
        const ct_bco_bounds_t *b = &ce[k].b;
        double ul = b->phi * b->u_over_l;
        if (!o->json) {
            printf("smallest %s counterexample: instance %zu (%s)\n", claim[k], ce[k].index,
                   ct_bco_family_name(ce[k].family));
            if (k == 0)
                printf("    makespan %.1f > n_g W_max = %g x %.4g = %.1f (W in whole slots per job)\n", b->makespan,
                       b->n_g, b->W_slots, b->n_g * b->W_slots);
            else if (k == 1)
                printf("    theta_u~ %ld > phi (u/l) theta_u* + 1 = %.4g x %.4g + 1 = %.4g\n", b->theta_tilde, ul,
                       b->theta_hi, ul * b->theta_hi + 1);
            else
                printf("    makespan %.1f > n_g phi (u/l) T* = %g x %.4g x %.4g = %.4g\n", b->makespan, b->n_g, ul,
                       b->T_hi, b->n_g * ul * b->T_hi);
        }
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        if (ct_bco_claims_counterexample(&cs, k, &c, &j, &err) != CT_OK)
            return cli_fail(&err);
        if (!o->json)
            describe_instance(&c, &j);
        if (o->save) {
            static const char *const prefix[] = { "lemma3-", "lemma4-", "theorem5-" };
            char *cpath, *jpath;
            if ((rc = write_instance(o->save, prefix[k], &c, &j, &cpath, &jpath)) == 0)
                fprintf(o->json ? stderr : stdout, "    saved as %s and %s\n", cpath, jpath);
            free(cpath);
            free(jpath);
        }
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
    }
    if (rc == 0 && o->strict && (tally[0][1] || tally[1][1] || tally[2][1]))
        rc = 1;
    return rc;
}

static int do_validate(int nargs, char **args, const bco_opts_t *o)
{
    if (nargs == 2) {
        if (o->random)
            return cli_usage("bco", "validate: give CLUSTER JOBS or --random N, not both");
        return validate_one(args[0], args[1], o);
    }
    return validate_random(o);
}

int cmd_bco(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        bco_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    bco_opts_t o;
    int rc = parse(argc - 1, argv + 1, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    int nargs = argc - 1 - optind;
    char **args = argv + 1 + optind;
    if (!strcmp(sub, "workload"))
        return nargs == 0 ? do_workload(&o) : cli_usage("bco", "workload takes no file arguments");
    if (!strcmp(sub, "schedule"))
        return nargs == 2 ? do_schedule(args[0], args[1], &o) : cli_usage("bco", "schedule: expected CLUSTER JOBS");
    if (!strcmp(sub, "sweep"))
        return nargs == 2 ? do_sweep(args[0], args[1], &o) : cli_usage("bco", "sweep: expected CLUSTER JOBS");
    if (!strcmp(sub, "validate"))
        return nargs == 0 || nargs == 2 ? do_validate(nargs, args, &o)
                                        : cli_usage("bco", "validate: expected CLUSTER JOBS, or none with --random N");
    return cli_usage("bco", "unknown subcommand '%s'", sub);
}
