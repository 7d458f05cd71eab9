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
            "usage: contend bco workload [--seed N] [--servers S] -o DIR\n"
            "       contend bco schedule CLUSTER JOBS [--policy sjf-bco|ff|ls|rand] [--kappa K]\n"
            "                            [--lambda L] [--faffp pack|least-u] [-o SCHEDULE.json] [--json]\n"
            "       contend bco sweep CLUSTER JOBS --vary kappa|servers|lambda -o results.csv\n"
            "       contend bco validate [CLUSTER JOBS] [--random N] [--seed S] [--json]\n"
            "\n"
            "Schedules ring-all-reduce training jobs (gang-scheduled GPUs, no preemption) to\n"
            "minimise the makespan under communication contention (SJF-BCO), with the FF, LS and\n"
            "RAND baselines, and checks the paper's approximation bounds.\n"
            "\n"
            "workload: the paper's 160-job mix and a 20-server cluster for a seed:\n"
            "  DIR/cluster.json and DIR/jobs.json (--servers overrides 20)\n"
            "schedule: the schedule (per job: GPUs per server, start slot, expected and\n"
            "  re-simulated completion), makespan, mean JCT, final theta_u and kappa\n"
            "sweep: makespan against kappa (SJF-BCO), against the number of servers 10..20\n"
            "  (every policy, horizon at least 1500), or against lambda in {1, 2, 4, 8}\n"
            "validate: n_g, phi, u/l, W_max, theta_u~, the makespan; Lemma 3; theta_u* by an\n"
            "  exact GLPK ILP (Problem 14) and Lemma 4 where small enough; exhaustive T* on tiny\n"
            "  instances; Theorem 5. --random N checks N random tiny instances (2 servers x 2\n"
            "  GPUs, 3 jobs) and reports the worst makespan / T* next to the bound.\n"
            "\n"
            "Units: time in slots, sizes in gradient units, bandwidths in units per slot.\n");
}

typedef struct {
    ct_bco_params_t bp;
    const char *output, *vary;
    uint64_t seed;
    size_t servers, random;
    int json;
} bco_opts_t;

enum { OPT_SEED = 256, OPT_SERVERS, OPT_POLICY, OPT_KAPPA, OPT_LAMBDA, OPT_FAFFP, OPT_JSON, OPT_VARY, OPT_RANDOM };

static int parse(int argc, char **argv, bco_opts_t *o)
{
    static const struct option longopts[] = {
        { "seed", required_argument, NULL, OPT_SEED }, { "servers", required_argument, NULL, OPT_SERVERS },
        { "policy", required_argument, NULL, OPT_POLICY }, { "kappa", required_argument, NULL, OPT_KAPPA },
        { "lambda", required_argument, NULL, OPT_LAMBDA }, { "faffp", required_argument, NULL, OPT_FAFFP },
        { "json", no_argument, NULL, OPT_JSON }, { "vary", required_argument, NULL, OPT_VARY },
        { "random", required_argument, NULL, OPT_RANDOM }, { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_bco_params_init(&o->bp);
    o->seed = 1;
    optind = 1;
    opterr = 0;
    int c, ok;
    unsigned long long u;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SEED:
            if (cli_parse_u64(optarg, &u))
                return cli_usage("bco", "--seed: expected a non-negative integer, got '%s'", optarg);
            o->seed = o->bp.seed = u;
            break;
        case OPT_SERVERS:
            if (cli_parse_size(optarg, &o->servers) || o->servers < 1 || o->servers > 100000)
                return cli_usage("bco", "--servers: expected an integer in 1 .. 100000, got '%s'", optarg);
            break;
        case OPT_POLICY:
            o->bp.policy = ct_bco_policy_parse(optarg, &ok);
            if (!ok)
                return cli_usage("bco", "--policy: expected sjf-bco, ff, ls or rand, got '%s'", optarg);
            break;
        case OPT_KAPPA:
            if (cli_parse_u64(optarg, &u) || u < 1 || u > 1000000)
                return cli_usage("bco", "--kappa: expected an integer in 1 .. 1000000, got '%s'", optarg);
            o->bp.kappa = (long)u;
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

static int do_workload(const bco_opts_t *o)
{
    ct_rar_cluster_t c;
    ct_rar_jobs_t j;
    ct_error_t err;
    if (!o->output)
        return cli_usage("bco", "workload: -o DIR is required");
    if (mkdir(o->output, 0777) != 0 && errno != EEXIST) {
        ct_error_set(&err, CT_EOUTPUT, "%s: cannot create the folder: %s", o->output, strerror(errno));
        return cli_fail(&err);
    }
    if (ct_rar_workload(o->seed, o->servers, &c, &j, &err) != CT_OK)
        return cli_fail(&err);
    size_t n = strlen(o->output) + 16;
    char *cp = malloc(n), *jp = malloc(n);
    int rc = 0;
    if (!cp || !jp) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
    } else {
        snprintf(cp, n, "%s/cluster.json", o->output);
        snprintf(jp, n, "%s/jobs.json", o->output);
        if (ct_rar_cluster_write(&c, cp, &err) != CT_OK || ct_rar_jobs_write(&j, jp, &err) != CT_OK)
            rc = cli_fail(&err);
        else
            printf("wrote %s (%zu servers, %u GPUs) and %s (%zu jobs), seed %llu\n", cp, c.n_servers, c.n_gpus, jp, j.n,
                   (unsigned long long)o->seed);
    }
    free(cp);
    free(jp);
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
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
    if (o->json)
        printf("{\"policy\": \"%s\", \"makespan\": %.17g, \"makespan_estimate\": %.17g, \"mean_jct\": %.17g, "
               "\"theta_u\": %ld, \"kappa\": %ld, \"W_max\": %.17g, \"runs\": %zu, \"seconds\": %.17g}\n",
               ct_bco_policy_name(o->bp.policy), r.makespan, r.makespan_est, r.mean_jct, r.theta_u, r.kappa, r.W_max,
               r.runs, r.seconds);
    else
        printf("%s: %zu jobs on %zu servers (%u GPUs): makespan %.1f slots (estimate %.1f), mean JCT %.1f slots, "
               "theta_u %ld, kappa %ld, %zu placement passes, %.1f ms\n",
               ct_bco_policy_name(o->bp.policy), j.n, c.n_servers, c.n_gpus, r.makespan, r.makespan_est, r.mean_jct,
               r.theta_u, r.kappa, r.runs, 1e3 * r.seconds);
    ct_bco_result_free(&r);
done:
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
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
    ct_outfile_t out;
    if (ct_outfile_open(&out, o->output, &err) != CT_OK) {
        rc = cli_fail(&err);
        goto done;
    }
    fprintf(out.fp, "vary,value,policy,makespan,makespan_estimate,mean_jct,theta_u,kappa\n");
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
    int servers = !strcmp(o->vary, "servers");
    size_t saved_n = c.n_servers;
    long saved_h = c.horizon;
    printf("%-8s %-8s %10s %10s %10s\n", o->vary, "policy", "makespan", "estimate", "mean JCT");
    for (size_t v = 0; v < nv && rc == 0; v++) {
        for (int pol = 0; pol < 4 && rc == 0; pol++) {
            if (!servers && pol > 0)
                break; /* kappa and lambda concern SJF-BCO */
            ct_bco_params_t bp = o->bp;
            bp.policy = (ct_bco_policy_t)pol;
            if (!strcmp(o->vary, "kappa"))
                bp.kappa = (long)values[v];
            if (!strcmp(o->vary, "lambda"))
                bp.lambda = values[v];
            if (servers) {
                c.n_servers = (size_t)values[v];
                c.horizon = saved_h > 1500 ? saved_h : 1500;
                ct_rar_cluster_index(&c, &err);
            }
            ct_bco_result_t r;
            ct_status_t st = ct_bco_schedule(&c, &j, &bp, &r, &err);
            if (st == CT_EINPUT || st == CT_ELIMIT) {
                fprintf(out.fp, "%s,%g,%s,,,,,\n", o->vary, values[v], ct_bco_policy_name(bp.policy));
                printf("%-8g %-8s %10s\n", values[v], ct_bco_policy_name(bp.policy), "infeasible");
                continue;
            }
            if (st != CT_OK) {
                rc = cli_fail(&err);
                break;
            }
            fprintf(out.fp, "%s,%g,%s,%.9g,%.9g,%.9g,%ld,%ld\n", o->vary, values[v], ct_bco_policy_name(bp.policy),
                    r.makespan, r.makespan_est, r.mean_jct, r.theta_u, r.kappa);
            printf("%-8g %-8s %10.1f %10.1f %10.1f\n", values[v], ct_bco_policy_name(bp.policy), r.makespan,
                   r.makespan_est, r.mean_jct);
            ct_bco_result_free(&r);
        }
    }
    c.n_servers = saved_n;
    c.horizon = saved_h;
    ct_rar_cluster_index(&c, &err);
    if (rc)
        ct_outfile_abort(&out);
    else if (ct_outfile_commit(&out, &err) != CT_OK)
        rc = cli_fail(&err);
    else
        printf("wrote %s\n", o->output);
done:
    ct_rar_cluster_free(&c);
    ct_rar_jobs_free(&j);
    return rc;
}

static void print_bounds(const char *name, const ct_bco_bounds_t *b)
{
    printf("%s: n_g %g, phi %.4g, u/l %.4g, W_max %.4g, theta_u~ %ld, makespan %.1f (estimate %.1f)\n", name, b->n_g,
           b->phi, b->u_over_l, b->W_max, b->theta_tilde, b->makespan, b->makespan_est);
    printf("  Lemma 3: makespan estimate %.1f <= n_g W_max = %.1f: %s\n", b->makespan_est, b->n_g * b->W_max,
           b->lemma3 ? "holds" : "VIOLATED");
    if (b->have_theta_star)
        printf("  theta_u* = %.4g (GLPK ILP); Lemma 4: theta_u~ %ld <= phi (u/l) theta_u* = %.4g (+1 for the integer "
               "bisection): %s\n",
               b->theta_star, b->theta_tilde, b->phi * b->u_over_l * b->theta_star, b->lemma4 ? "holds" : "VIOLATED");
    else
        printf("  theta_u*: instance too large for the exact ILP\n");
    printf("  T* %s %.4g%s; Theorem 5: makespan %.1f <= n_g phi (u/l) T* = %.4g: %s (ratio %.4g)\n",
           b->have_T_exact ? "=" : ">=", b->T_star, b->have_T_exact ? " (exhaustive)" : " (lower bound)", b->makespan,
           b->bound, b->theorem5 ? "holds" : "VIOLATED", b->makespan / b->T_star);
}

/* A random tiny instance: 2 servers x 2 GPUs, 3 jobs of 1-2 GPUs. */
static ct_status_t random_instance(ct_rng_t *rng, ct_rar_cluster_t *c, ct_rar_jobs_t *j, ct_error_t *err)
{
    memset(c, 0, sizeof *c);
    memset(j, 0, sizeof *j);
    c->n_servers = 2;
    c->gpus = malloc(2 * sizeof(uint32_t));
    j->jobs = calloc(3, sizeof(ct_rar_job_t));
    if (!c->gpus || !j->jobs)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    c->gpus[0] = c->gpus[1] = 2;
    c->b_intra = 1000;
    c->b_inter = 50 + 200 * ct_rng_uniform(rng);
    c->reduction = 2000;
    c->xi1 = 1;
    c->xi2 = 0.001;
    c->alpha = ct_rng_uniform(rng);
    c->horizon = 4000;
    ct_status_t st = ct_rar_cluster_index(c, err);
    for (size_t i = 0; i < 3 && st == CT_OK; i++) {
        ct_rar_job_t *x = &j->jobs[i];
        char id[32];
        snprintf(id, sizeof id, "r%zu", i);
        if (!(x->id = ct_strdup(id, err)))
            return CT_ENOMEM;
        j->n = i + 1;
        x->gpus = 1 + (uint32_t)ct_rng_below(rng, 2);
        x->iterations = 500 + (double)ct_rng_below(rng, 1500);
        x->batch = 32;
        x->fwd = 0.0001 + 0.001 * ct_rng_uniform(rng);
        x->bwd = 2 * x->fwd * x->batch;
        x->grad = 1 + 20 * ct_rng_uniform(rng);
        x->lambda = 1;
    }
    return st;
}

static int do_validate(int nargs, char **args, const bco_opts_t *o)
{
    ct_error_t err;
    ct_bco_validate_params_t vp;
    ct_bco_validate_params_init(&vp);
    if (nargs == 2) {
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        ct_bco_result_t r;
        ct_bco_bounds_t b;
        int rc = load_inputs(args[0], args[1], &c, &j);
        if (rc)
            return rc;
        if (ct_bco_schedule(&c, &j, &o->bp, &r, &err) != CT_OK || ct_bco_validate(&c, &j, &r, &vp, &b, &err) != CT_OK)
            rc = cli_fail(&err);
        else
            print_bounds(args[1], &b);
        if (!rc && (!b.lemma3 || (b.have_theta_star && !b.lemma4) || !b.theorem5))
            rc = 1;
        ct_bco_result_free(&r);
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
        return rc;
    }
    size_t N = o->random ? o->random : 50;
    ct_rng_t rng;
    ct_rng_seed(&rng, o->seed);
    double worst = 0, worst_bound = 0;
    size_t viol3 = 0, viol4 = 0, viol5 = 0;
    cli_progress_t bar;
    cli_progress_start(&bar, "instances", N);
    for (size_t i = 0; i < N; i++) {
        ct_rar_cluster_t c;
        ct_rar_jobs_t j;
        ct_bco_result_t r;
        ct_bco_bounds_t b;
        if (random_instance(&rng, &c, &j, &err) != CT_OK || ct_bco_schedule(&c, &j, &o->bp, &r, &err) != CT_OK) {
            cli_progress_end(&bar);
            ct_rar_cluster_free(&c);
            ct_rar_jobs_free(&j);
            return cli_fail(&err);
        }
        if (ct_bco_validate(&c, &j, &r, &vp, &b, &err) != CT_OK) {
            cli_progress_end(&bar);
            ct_bco_result_free(&r);
            ct_rar_cluster_free(&c);
            ct_rar_jobs_free(&j);
            return cli_fail(&err);
        }
        double ratio = b.makespan / b.T_star;
        if (ratio > worst) {
            worst = ratio;
            worst_bound = b.n_g * b.phi * b.u_over_l;
        }
        viol3 += !b.lemma3;
        viol4 += b.have_theta_star && !b.lemma4;
        viol5 += !b.theorem5;
        ct_bco_result_free(&r);
        ct_rar_cluster_free(&c);
        ct_rar_jobs_free(&j);
        cli_progress_update(&bar, i + 1);
    }
    cli_progress_end(&bar);
    if (o->json)
        printf("{\"instances\": %zu, \"worst_ratio\": %.17g, \"its_bound\": %.17g, \"lemma3_violations\": %zu, "
               "\"lemma4_violations\": %zu, \"theorem5_violations\": %zu}\n",
               N, worst, worst_bound, viol3, viol4, viol5);
    else
        printf("%zu random instances (2 servers x 2 GPUs, 3 jobs, exhaustive T*): worst makespan / T* = %.4g, its bound "
               "n_g phi (u/l) = %.4g; violations: Lemma 3 %zu, Lemma 4 %zu, Theorem 5 %zu\n",
               N, worst, worst_bound, viol3, viol4, viol5);
    return viol3 || viol4 || viol5 ? 1 : 0;
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
