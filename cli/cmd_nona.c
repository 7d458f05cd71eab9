/*
 * cmd_nona.c - `contend nona solve` and `contend nona sweep`.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_sweep.h"
#include "ct_nona_table.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void nona_usage(FILE *out)
{
    fprintf(out,
            "usage: contend nona solve SCENARIO [-o TABLE.json] [--json] [--details D] [--method exact|penalty|grid]\n"
            "       contend nona sweep SCENARIO --scale A:B:STEP -o LOOKUP.json [--json]\n"
            "\n"
            "solve: turns a scenario (cluster, background traffic, job classes with DAGs and\n"
            "  arrival rates) into a placement probability table, and prints per class the\n"
            "  predicted mean job completion time and the chosen triplets (--details).\n"
            "sweep: one table per arrival-rate scale factor (every class's rate multiplied),\n"
            "  all in one lookup file for the online sampler; unstable scales are reported\n"
            "  and skipped.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE       table / lookup file (format contend-table/1), atomic\n"
            "  --json                  print a JSON summary on stdout\n"
            "  --details D             solve: what the printed summary shows: segments (every\n"
            "                          class's segments and chosen triplets), classes (a line\n"
            "                          per class), totals (the scenario's lines and the classes'\n"
            "                          spread); auto (default): segments up to 16 classes, else\n"
            "                          totals (the table, -o, and --json hold every class)\n"
            "  --method M              exact (default): branch-and-bound over the link and\n"
            "                          server waits, certified to --gap; penalty: the paper's\n"
            "                          softmax + penalty, GSL BFGS; grid: the older 1-D phi\n"
            "                          search (link model only, no certificate)\n"
            "  --model servers|link    servers (default): link and server queueing (job-first\n"
            "                          servers); link: the paper's link-only model\n"
            "  --waits job-first|job-first-spread|job-first-merged|job-first-aged|stretched|pieces\n"
            "                          server model: job-first-aged (default): a task that rejoins\n"
            "                          a server (a sink fed by other parts, a task fed by another\n"
            "                          part's task) waits the residual of the task in service /\n"
            "                          (1 - the load of tasks later in their jobs than its own),\n"
            "                          a job's first visits wait behind older jobs' later visits,\n"
            "                          a part's visits to its server are one piece of W (and with\n"
            "                          --binding late a remote part's first task waits by its age\n"
            "                          too); job-first: the residual alone, visits cut at\n"
            "                          re-entries (the default before 2026-11-28);\n"
            "                          job-first-spread: job-first with those waits random along a\n"
            "                          path before a join takes the latest (closer on deep DAGs,\n"
            "                          but it over-prices some splits); job-first-merged: aged\n"
            "                          without the age (use with --server-row pieces); stretched:\n"
            "                          the residual /\n"
            "                          (1 - rho_s), the first version; pieces: the earlier model\n"
            "                          (only a job's root and its remote parts' first tasks wait,\n"
            "                          as M/G/1 pieces)\n"            "  --parts dependent|independent\n"
            "                          dependent (default): a part that receives an inner task's\n"
            "                          output waits for it; independent: the paper's branches,\n"
            "                          every part in parallel (exact only for fork-join segments)\n"
            "  --root-choices D        roots on the least loaded of D sampled servers (1..64;\n"
            "                          default 2; 1: uniform, the paper's rule); the table records D\n"
            "  --binding early|late    server model: parts away from the root's server are placed\n"
            "                          when the job arrives, on distinct uniform servers (early,\n"
            "                          default, the paper's rule), or bound when first needed to\n"
            "                          the least loaded of D sampled servers (late: the scheduler\n"
            "                          binds them, see ct_sampler_place_late); the table records it\n"
            "  --sampling auto|finite|mean-field\n"
            "                          --binding late, D > 1: the chance that all D sampled servers\n"
            "                          are busy, from the busy count's spread among the N servers\n"
            "                          (finite: a job's parallel parts keep several busy at once, a\n"
            "                          part's server held for it counts busy, and the solver prices\n"
            "                          both), or rho^D as for infinitely many servers (mean-field, the\n"
            "                          model before 2026-11-30; early tables always); auto (default):\n"
            "                          finite from D = 8 (least loaded), mean-field below and for\n"
            "                          probes\n"
            "  --late-waits uniform|least-of-d\n"
            "                          --binding late: a late part waits for its server with\n"
            "                          probability rho^D, the chance that all D sampled servers are\n"
            "                          busy, and then longer (least-of-d, default since 2026-11-28),\n"
            "                          or with probability rho as on a uniform server (uniform, the\n"
            "                          earlier default); the mean wait is the same\n"
            "  --late-first root|aged  --binding late: a late part's first task waits as a root\n"
            "                          does, and a part's later tasks wait for older jobs' late\n"
            "                          parts bound to their server meanwhile (root, default since\n"
            "                          2026-11-29), or its first wait is stretched by its age and\n"
            "                          later tasks wait nothing (aged, the model before)\n"
            "  --virtual-root job|part --binding late, a DAG with several source tasks: every\n"
            "                          task waits the root's wait (job, default), or only the\n"
            "                          root's part's, as the simulator has it (part: a late part\n"
            "                          fed by the source alone waits for its own server; not the\n"
            "                          default, docs/model-checks.md); part is recorded\n"
            "  --transfers part|task   dependent parts: a transfer from another part's task\n"
            "                          delays the receiving part's whole timeline (part, default,\n"
            "                          the paper's branch) or only the task it feeds, which\n"
            "                          starts at the later of the two (task, as the simulator's\n"
            "                          link has it; not the default, docs/model-checks.md); task is\n"
            "                          recorded\n"
            "  --rtt S                 the round trip scheduler <-> servers, seconds (default 0):\n"
            "                          with D > 1 a root starts one later (the queue lengths come\n"
            "                          back first), with --binding late so does each part bound\n"
            "                          away from its source; the table records it (round_trip)\n"
            "  --late-bind ready-hold|ready|first-input|probes\n"
            "                          --binding late: how the scheduler binds (contend sim --help);\n"
            "                          probes: by reservations on D servers, the first free takes\n"
            "                          the part (two round trips a root and a part with --rtt); the\n"
            "                          table records probes (late_bind); the others bind to the\n"
            "                          least loaded of D (the default); ready-hold (default) and\n"
            "                          probes hold a part's server between its tasks, which\n"
            "                          --sampling finite models\n"
            "  --scale A:B:STEP        sweep: scale factors, e.g. 0.25:2.0:0.25\n"
            "  -j, --threads N         sweep: scales solved at once; solve: threads for exact\n"
            "                          pricing's streams over a segment's triplets, the\n"
            "                          wait LPs' pricing passes and, from 64 classes, loading\n"
            "                          and splitting the classes' DAGs (default: the cores;\n"
            "                          the output does not depend on it)\n"
            "  --shard I/N             sweep: solve only the scales i with i %% N == I and write a\n"
            "                          part file; contend merge joins the parts\n"
            "  --max-triplets N        enumerate segments of up to N triplets (100000); larger\n"
            "                          ones start from a few and the solver generates the rest\n"
            "  --large generate|refuse segments over --max-triplets: column generation (default),\n"
            "                          or refuse them (the earlier behaviour)\n"
            "  --price-evals N         generated segments too large to price exactly (over 500000\n"
            "                          triplets): search with N evaluations per round (20000)\n"
            "  --price-spread          and search at a spread of waits too (slower, often better)\n"
            "  --spread-gap G          search at the spread of waits only when a round finds\n"
            "                          nothing at the table's waits while the column gap there is\n"
            "                          above G x J (default 0.007; 0.01 before 2026-11-30; 0: never)\n"
            "  --chase F               after a search that left its gap open, add a round's new\n"
            "                          triplets (and search again) only if they could save at\n"
            "                          least F x that gap (taken as at most 1e-3 of J); smaller\n"
            "                          savings stay in the reported column gap (default 0.5;\n"
            "                          0: always, the rule before 2026-11-30)\n"
            "  --gap G                 exact: stop at relative gap G (0 .. 0.5; default 1e-9)\n"
            "  --max-lps N             exact: stop after N LPs and report the gap (20000)\n"
            "  --time-limit S          exact: stop the whole solve after S seconds (wall clock) with\n"
            "                          the best table found and the gap proven by then (0: none)\n"
            "  --stall N               exact, server model: from N LPs on, at N and every doubling,\n"
            "                          stop a search whose gap is within --stall-gap of J or closed\n"
            "                          less than --stall-close while its LPs doubled (a floor of the\n"
            "                          bound, not of the search) and report the gap (default 125;\n"
            "                          0: never, the earlier search)\n"
            "  --stall-gap G           the stall rule's gap that is enough, a share of J (default\n"
            "                          0: none; 0.01 solves faster, tables up to 2.5%% worse)\n"
            "  --stall-close F         the share of its gap a search must close per doubling of its\n"
            "                          LPs to go on (default 0.25; 0.1: the rule before)\n"
            "  --stall-large N         exact, 1000 blocks (classes x segments) or more: the stall\n"
            "                          rule's checks from N LPs on where --stall is larger (their\n"
            "                          LPs cost milliseconds; default 32; 0: --stall there too, the\n"
            "                          rule before 2026-12-01)\n"
            "  --pilot N               exact, 1000 blocks (classes x segments) or more: once the root\n"
            "                          shares' fixed point reverses, N LPs per search until they\n"
            "                          settle (--pilot-swing's where fewer), then a full search\n"
            "                          there (default 31; 0: the rule before 2026-12-01, a tenth\n"
            "                          of --max-lps)\n"
            "  --pilot-swing N         exact, the same models: once the shares swing, N LPs per\n"
            "                          search where fewer than --pilot's (default 16; 0: --pilot's,\n"
            "                          the rule before 2026-12-02)\n"
            "  --pilot-first 0|1       exact, the same models: 1 (default): the first search, at the\n"
            "                          start shares, gets --pilot LPs too (it mostly steers the\n"
            "                          shares); 0: a tenth of --max-lps, the rule before\n"
            "  --stall-gap-large G     exact, 1000 blocks or more: the stall rule's enough-gap where\n"
            "                          --stall-gap is smaller (default 0.01; 0: --stall-gap there\n"
            "                          too, the rule before)\n"
            "  --box-pairs 0|1         exact, 1000 blocks or more: 1 (default): the box search bounds\n"
            "                          a split box's two halves side by side, each on its own LP,\n"
            "                          on two threads when -j allows (the same tables on any -j);\n"
            "                          0: one after the other, the rule before 2026-12-02\n"
            "  --search-warm 0|1       exact, 1000 blocks or more: 1 (default): until the shares'\n"
            "                          fixed point reverses, each search starts from the last\n"
            "                          one's table; 0: from all-local's, the rule before 2026-12-02\n"
            "  --search points|boxes   exact, link model: points (default): LPs at points of phi,\n"
            "                          each interval bounded from its ends' multipliers; boxes:\n"
            "                          the server model's search (an LP per box, first order)\n"
            "  --server-row auto|pieces|linear\n"
            "                          exact, server model with job-first waits: the LP's bound on\n"
            "                          the server wait; linear: the linearised one (it can fall to\n"
            "                          the floor where jobs split several segments: weak\n"
            "                          certificates there); pieces: a cut of the pieces' second\n"
            "                          moment tuned at the incumbent (tighter certificates); auto\n"
            "                          (default): pieces with merged and aged waits, else linear\n"
            "  --bound lp|class-dual   exact, server model with job-first waits: lp (default): the\n"
            "                          wait LP bounds each box; class-dual: once the LP's bounds\n"
            "                          stop closing the gap, boxes are bounded again with each\n"
            "                          class's pieces exact (no floor where jobs split several\n"
            "                          segments: gaps and tables better there, each box slower)\n"
            "  --lp block|glpk         exact, grid: the LP at fixed waits; block (default): the\n"
            "                          exact solver shaped like the problem; glpk: GLPK's simplex\n"
            "                          (the reference; same optimum, slower)\n"
            "  --grid N                grid: phi grid points (4 .. 100000; 48)\n"
            "  --starts N              penalty: BFGS starts (1 .. 1000; 6)\n"
            "  --seed N                penalty: seed of the random starts (1)\n"
            "\n"
            "Units: times in seconds, link_bandwidth in bytes/s, arrival rates in jobs/s.\n");
}

/* What `nona solve` prints per class (--details). */
typedef enum { DETAILS_AUTO, DETAILS_SEGMENTS, DETAILS_CLASSES, DETAILS_TOTALS } details_t;

/* Classes up to which --details auto prints every segment: the bundled
 * scenarios' (at most 10) in full, a fleet's thousand (21,000 lines) not. */
#define DETAILS_AUTO_CLASSES 16

typedef struct {
    const char *output;
    int json;
    details_t details;
    double *scales;
    size_t n_scales;
    ct_nona_model_params_t model;
    ct_nona_solve_params_t solve;
    ct_sweep_params_t sweep; /* -j, --shard */
} nona_opts_t;

enum { OPT_JSON = 256, OPT_METHOD, OPT_SCALE, OPT_MAXT, OPT_GRID, OPT_STARTS, OPT_SEED, OPT_MODEL, OPT_ROOT,
       OPT_MAXLP, OPT_SHARD, OPT_LP, OPT_LARGE, OPT_PEVALS, OPT_PARTS, OPT_WAITS, OPT_SEARCH, OPT_BINDING,
       OPT_TLIMIT, OPT_LATE_WAITS, OPT_DETAILS, OPT_LATE_FIRST, OPT_VROOT, OPT_XFER, OPT_RTT, OPT_LATE_BIND, OPT_SAMPLING };

static int parse(int argc, char **argv, nona_opts_t *o)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' }, { "json", no_argument, NULL, OPT_JSON },
        { "details", required_argument, NULL, OPT_DETAILS },
        { "method", required_argument, NULL, OPT_METHOD }, { "scale", required_argument, NULL, OPT_SCALE },
        { "max-triplets", required_argument, NULL, OPT_MAXT }, { "grid", required_argument, NULL, OPT_GRID },
        { "starts", required_argument, NULL, OPT_STARTS }, { "seed", required_argument, NULL, OPT_SEED },
        { "model", required_argument, NULL, OPT_MODEL }, { "root-choices", required_argument, NULL, OPT_ROOT },
        { "parts", required_argument, NULL, OPT_PARTS }, { "waits", required_argument, NULL, OPT_WAITS },
        { "max-lps", required_argument, NULL, OPT_MAXLP },
        { "threads", required_argument, NULL, 'j' }, { "shard", required_argument, NULL, OPT_SHARD },
        { "lp", required_argument, NULL, OPT_LP }, { "large", required_argument, NULL, OPT_LARGE },
        { "search", required_argument, NULL, OPT_SEARCH }, { "binding", required_argument, NULL, OPT_BINDING },
        { "late-waits", required_argument, NULL, OPT_LATE_WAITS },
        { "late-first", required_argument, NULL, OPT_LATE_FIRST },
        { "virtual-root", required_argument, NULL, OPT_VROOT },
        { "transfers", required_argument, NULL, OPT_XFER },
        { "rtt", required_argument, NULL, OPT_RTT },
        { "late-bind", required_argument, NULL, OPT_LATE_BIND },
        { "sampling", required_argument, NULL, OPT_SAMPLING },
        { "time-limit", required_argument, NULL, OPT_TLIMIT },
        { "price-evals", required_argument, NULL, OPT_PEVALS }, CLI_SOLVE_LONGOPTS,
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_nona_model_params_init(&o->model);
    ct_nona_solve_params_init(&o->solve);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:hj:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case 'j':
        case OPT_SHARD: /* -j N, --shard I/N */
            if (cli_parse_sweep_option("nona", c == 'j', optarg, &o->sweep))
                return 2;
            break;
        case OPT_JSON: o->json = 1; break;
        case OPT_DETAILS:
            if (!strcmp(optarg, "auto"))
                o->details = DETAILS_AUTO;
            else if (!strcmp(optarg, "segments"))
                o->details = DETAILS_SEGMENTS;
            else if (!strcmp(optarg, "classes"))
                o->details = DETAILS_CLASSES;
            else if (!strcmp(optarg, "totals"))
                o->details = DETAILS_TOTALS;
            else
                return cli_usage("nona", "--details: expected auto, segments, classes or totals, got '%s'", optarg);
            break;
        case OPT_METHOD:
            if (!strcmp(optarg, "exact"))
                o->solve.method = CT_NONA_EXACT;
            else if (!strcmp(optarg, "penalty"))
                o->solve.method = CT_NONA_PENALTY;
            else if (!strcmp(optarg, "grid"))
                o->solve.method = CT_NONA_GRID;
            else
                return cli_usage("nona", "--method: expected exact, penalty or grid, got '%s'", optarg);
            break;
        case OPT_LP:
            if (!strcmp(optarg, "block"))
                o->solve.lp = CT_NONA_LP_BLOCK;
            else if (!strcmp(optarg, "glpk"))
                o->solve.lp = CT_NONA_LP_GLPK;
            else
                return cli_usage("nona", "--lp: expected block or glpk, got '%s'", optarg);
            break;
        case OPT_SEARCH:
            if (!strcmp(optarg, "points") || !strcmp(optarg, "boxes"))
                o->solve.point_search = !strcmp(optarg, "points");
            else
                return cli_usage("nona", "--search: expected points or boxes, got '%s'", optarg);
            break;
        case OPT_TLIMIT:
            if (cli_parse_double(optarg, &o->solve.time_limit) || !(o->solve.time_limit >= 0 && o->solve.time_limit <= 1e9))
                return cli_usage("nona", "--time-limit: expected 0 .. 1e9 seconds, got '%s'", optarg);
            break;
        case OPT_PEVALS:
            if (cli_parse_size(optarg, &o->solve.price_evals) || o->solve.price_evals < 100)
                return cli_usage("nona", "--price-evals: expected an integer >= 100, got '%s'", optarg);
            break;
        case OPT_LARGE:
            if (!strcmp(optarg, "generate") || !strcmp(optarg, "refuse"))
                o->model.large = !strcmp(optarg, "generate");
            else
                return cli_usage("nona", "--large: expected generate or refuse, got '%s'", optarg);
            break;
        case OPT_MODEL:
            if (cli_parse_server_model("nona", optarg, &o->model.server_model))
                return 2;
            break;
        case OPT_PARTS:
            if (cli_parse_parts("nona", optarg, &o->model.dependent_parts))
                return 2;
            break;
        case OPT_WAITS:
            if (cli_parse_waits("nona", optarg, &o->model.reentry_waits))
                return 2;
            break;
        case OPT_ROOT:
            if (cli_parse_root_choices("nona", optarg, &o->model.root_choices))
                return 2;
            break;
        case OPT_BINDING:
            if (strcmp(optarg, "early") && strcmp(optarg, "late"))
                return cli_usage("nona", "--binding: expected early or late, got '%s'", optarg);
            o->model.late_parts = !strcmp(optarg, "late");
            break;
        case OPT_RTT:
            if (cli_parse_rtt("nona", "--rtt", optarg, &o->model.rtt))
                return 2;
            break;
        case OPT_LATE_BIND: {
            ct_late_bind_t rule;
            if (cli_parse_late_bind("nona", optarg, &rule))
                return 2;
            o->model.late_probes = rule == CT_LATE_BIND_PROBES;
            o->model.late_hold = rule == CT_LATE_BIND_PROBES || rule == CT_LATE_BIND_READY_HOLD;
            break;
        }
        case OPT_SAMPLING:
            if (cli_parse_sampling("nona", optarg, &o->model.finite_servers))
                return 2;
            break;
        case OPT_VROOT:
            if (cli_parse_virtual_root("nona", optarg, &o->model.root_wait_all))
                return 2;
            break;
        case OPT_XFER:
            if (cli_parse_transfers("nona", optarg, &o->model.transfers_task))
                return 2;
            break;
        case OPT_LATE_FIRST:
            if (cli_parse_late_first("nona", optarg, &o->model.late_first))
                return 2;
            break;
        case OPT_LATE_WAITS:
            if (cli_parse_late_waits("nona", optarg, &o->model.late_waits))
                return 2;
            break;
        case OPT_MAXLP:
            if (cli_parse_size(optarg, &o->solve.max_lps) || !o->solve.max_lps)
                return cli_usage("nona", "--max-lps: expected a positive integer, got '%s'", optarg);
            break;
        case OPT_SCALE:
            free(o->scales);
            if (cli_parse_range(optarg, &o->scales, &o->n_scales) || o->scales[0] <= 0 ||
                o->scales[o->n_scales - 1] > 1e6 || o->n_scales > 10000)
                return cli_usage("nona", "--scale: expected A:B:STEP with 0 < A <= B <= 1e6, STEP > 0, at most 10000 "
                                 "scales, got '%s'", optarg);
            break;
        case OPT_MAXT:
            if (cli_parse_size(optarg, &o->model.partition.max_triplets) || !o->model.partition.max_triplets)
                return cli_usage("nona", "--max-triplets: expected a positive integer, got '%s'", optarg);
            break;
        case OPT_GRID:
            if (cli_parse_size(optarg, &o->solve.grid) || o->solve.grid < 4 || o->solve.grid > 100000)
                return cli_usage("nona", "--grid: expected an integer in 4 .. 100000, got '%s'", optarg);
            break;
        case OPT_STARTS:
            if (cli_parse_size(optarg, &o->solve.starts) || !o->solve.starts || o->solve.starts > 1000)
                return cli_usage("nona", "--starts: expected an integer in 1 .. 1000, got '%s'", optarg);
            break;
        case OPT_SEED:
            if (cli_parse_u64(optarg, &o->solve.seed))
                return cli_usage("nona", "--seed: expected a non-negative integer, got '%s'", optarg);
            break;
        case 'h': nona_usage(stdout); return -1;
        default:
            if (c >= CLI_OPT_SOLVE && c < CLI_OPT_SOLVE_END) {
                if (cli_parse_solve_option("nona", c, optarg, &o->solve))
                    return 2;
                break;
            }
            return cli_usage("nona", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (o->model.late_probes && !o->model.late_parts)
        return cli_usage("nona", "--late-bind probes: the parts bind late only with --binding late");
    return 0;
}

/* 1 when segment block w of the table is split over servers with positive
 * probability (a chosen triplet of more than one part). */
static int segment_splits(const ct_nona_model_t *m, const ct_nona_solution_t *sol, size_t w)
{
    const ct_block_t *b = &m->blocks[w];
    for (size_t t = 0; t < b->n_vars; t++)
        if (sol->theta[b->var_start + t] > 0 && b->parts.n_parts[b->parts.triplets[t].partition] > 1)
            return 1;
    return 0;
}

typedef struct {
    double tau;
    size_t j;
} class_time_t;

/* Slowest first; ties in class order (the same lines on every run). */
static int class_time_cmp(const void *a, const void *b)
{
    const class_time_t *x = a, *y = b;
    if (x->tau != y->tau)
        return x->tau > y->tau ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* The classes in two lines (--details totals): the spread of their
 * predicted mean JCT, the segments the table splits, the slowest five. */
static void print_totals(const ct_nona_model_t *m, const ct_nona_solution_t *sol)
{
    size_t n = m->n_classes, blocks = 0, split = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m->classes[j].n_blocks; i++, blocks++)
            split += (size_t)segment_splits(m, sol, m->classes[j].block_start + i);
    class_time_t *by = n ? malloc(n * sizeof *by) : NULL;
    if (by) {
        for (size_t j = 0; j < n; j++)
            by[j] = (class_time_t){ sol->tau[j], j };
        qsort(by, n, sizeof *by, class_time_cmp);
        printf("%zu classes: predicted mean JCT %.6g .. %.6g s (median %.6g s);", n, by[n - 1].tau, by[0].tau,
               (by[(n - 1) / 2].tau + by[n / 2].tau) / 2);
    } else {
        printf("%zu classes:", n);
    }
    printf(" %zu of %zu segments split over servers\n", split, blocks);
    if (by) {
        printf("slowest:");
        for (size_t r = 0; r < n && r < 5; r++)
            printf("%s %s %.6g s", r ? "," : "", m->class_names[by[r].j], by[r].tau);
        printf("; every class: --details classes or segments, the table (-o) or --json\n");
    }
    free(by);
}

/* Prints the human summary of one solved scenario, per class as `details`
 * says. */
static void print_summary(const ct_scenario_t *s, const ct_nona_model_t *m, const ct_nona_solution_t *sol,
                          details_t details)
{
    char hash[24];
    ct_scenario_hash(s, hash, sizeof hash);
    double beta_sum = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        beta_sum += m->beta[j];
    printf("scenario %s (inputs %s): %zu classes, %.6g jobs/s, %zu servers, link %.6g bytes/s\n", s->path, hash,
           m->n_classes, beta_sum, m->servers, m->bandwidth);
    printf("method %s: mean JCT %.6g s (all-local %.6g s), link rho %.4f phi %.6g s, servers rho %.4f W %.6g s "
           "(root %.6g s, d = %u%s), %zu %s, %.3f ms",
           ct_nona_method_name(sol->method), sol->eval.mean_jct, sol->J_local / beta_sum, sol->eval.rho,
           sol->eval.phi, sol->eval.rho_s, sol->eval.W, sol->eval.W_root, m->root_choices,
           m->rtt_root <= 0   ? ""
           : m->late_probes   ? ", probes: two round trips a root and a late part"
           : m->rtt_part > 0  ? ", a round trip a root and a late part"
                              : ", a round trip a root",
           sol->lp_solves,
           sol->method == CT_NONA_PENALTY ? "evaluations" : "LPs", 1e3 * sol->seconds);
    if (isfinite(sol->gap))
        printf(", certified gap %.2g%s%s", sol->gap, sol->stalled ? " (the stall rule stopped the search: --stall)" : "",
               sol->time_limited ? " (--time-limit reached)" : "");
    if (sol->shares_unsettled)
        printf(" (shares not settled: the searches' table of least J at its own shares, with the bound at root "
               "share 1, later share 0)");
    printf("%s\n", m->server_model ? "" : " [link-only model]");
    if (m->finite_servers && m->root_choices > 1)
        printf("sampling finite: all %u sampled servers busy with probability %.4g (the busy count's dispersion "
               "%.3g, %.3g%% of the servers held for late parts)\n",
               m->root_choices, m->p_busy, m->dispersion, 100.0 * m->held_share);
    if (sol->segment_gap)
        printf("column generation: %zu triplets generated in %zu rounds; at the solution's waits the missing "
               "triplets could lower J by at most %.2g (relative)\n",
               sol->columns_added, sol->cg_rounds, sol->eval.J > 0 ? sol->column_gap / sol->eval.J : 0.0);
    if (details == DETAILS_AUTO)
        details = m->n_classes <= DETAILS_AUTO_CLASSES ? DETAILS_SEGMENTS : DETAILS_TOTALS;
    if (details == DETAILS_TOTALS) {
        print_totals(m, sol);
        return;
    }
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        const ct_dag_t *g = &mc->split.dag;
        size_t split = 0;
        for (size_t i = 0; details == DETAILS_CLASSES && i < mc->n_blocks; i++)
            split += (size_t)segment_splits(m, sol, mc->block_start + i);
        printf("class %s (%.6g jobs/s): predicted mean JCT %.6g s, %zu segments", m->class_names[j], m->beta[j],
               sol->tau[j], mc->n_blocks);
        if (details == DETAILS_CLASSES) {
            printf(", %zu split over servers\n", split);
            continue;
        }
        printf("\n");
        for (size_t i = 0; i < mc->n_blocks; i++) {
            const ct_block_t *b = &m->blocks[mc->block_start + i];
            const ct_segment_t *seg = &mc->split.segments[i];
            printf("  segment %zu %s -> %s (%zu tasks, %zu triplets", i, g->ids[seg->source], g->ids[seg->sink],
                   seg->n_inner, b->n_vars);
            if (b->generated && sol->segment_gap)
                printf(" generated of %.3g; gap at most %.3g s of the class's mean JCT", ct_partition_triplet_count(seg->n_inner),
                       sol->segment_gap[mc->block_start + i]);
            printf(")\n");
            for (size_t t = 0; t < b->n_vars; t++) {
                size_t w = b->var_start + t;
                if (sol->theta[w] <= 0)
                    continue;
                const ct_triplet_t *tr = &b->parts.triplets[t];
                printf("    p=%.4f k=%u l=%u M=%.6g s:", sol->theta[w], tr->k, tr->l,
                       ct_nona_triplet_time(m, w, sol->eval.phi, sol->eval.W));
                for (size_t p = 0; p < b->parts.n_parts[tr->partition]; p++) {
                    printf(" {");
                    for (size_t k = 0, first = 1; k < seg->n_inner; k++)
                        if (b->parts.assign[tr->partition * seg->n_inner + k] == p) {
                            printf(first ? "%s" : " %s", g->ids[seg->inner[k]]);
                            first = 0;
                        }
                    printf("}");
                }
                printf("\n");
            }
        }
    }
}

static cJSON *summary_json(const ct_nona_model_t *m, const ct_nona_solve_params_t *sp, const ct_nona_solution_t *sol,
                           double scale)
{
    cJSON *r = cJSON_CreateObject(), *cls = cJSON_CreateArray();
    if (!r || !cls) {
        cJSON_Delete(r);
        cJSON_Delete(cls);
        return NULL;
    }
    double beta_sum = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        beta_sum += m->beta[j];
    ct_json_add_number(r, "scale", scale);
    ct_json_add_number(r, "objective", sol->eval.J);
    ct_json_add_number(r, "mean_jct", sol->eval.mean_jct);
    ct_json_add_number(r, "local_mean_jct", sol->J_local / beta_sum);
    ct_json_add_number(r, "rho", sol->eval.rho);
    ct_json_add_number(r, "phi", sol->eval.phi);
    ct_json_add_number(r, "rho_servers", sol->eval.rho_s);
    ct_json_add_number(r, "server_wait", sol->eval.W);
    ct_json_add_number(r, "root_wait", sol->eval.W_root);
    ct_json_add_number(r, "root_choices", m->root_choices);
    if (m->late_probes)
        cJSON_AddStringToObject(r, "late_bind", "probes");
    if (m->rtt_root > 0)
        ct_json_add_number(r, "round_trip", m->rtt);
    cJSON_AddStringToObject(r, "binding", m->late_parts ? "late" : "early");
    if (m->late_parts)
        cJSON_AddStringToObject(r, "late_waits", ct_nona_late_waits_name(m));
    if (ct_nona_late_first_name(m))
        cJSON_AddStringToObject(r, "late_first", ct_nona_late_first_name(m));
    if (ct_nona_virtual_root_name(m))
        cJSON_AddStringToObject(r, "virtual_root", ct_nona_virtual_root_name(m));
    if (ct_nona_transfers_name(m))
        cJSON_AddStringToObject(r, "transfers", ct_nona_transfers_name(m));
    if (m->late_parts && m->root_choices > 1) {
        cJSON_AddStringToObject(r, "sampling", ct_nona_sampling_name(m));
        ct_json_add_number(r, "all_sampled_busy", m->p_busy);
    }
    if (m->finite_servers && m->root_choices > 1) {
        ct_json_add_number(r, "busy_dispersion", m->dispersion);
        ct_json_add_number(r, "held_share", m->held_share);
    }
    cJSON_AddStringToObject(r, "model", m->server_model ? "servers" : "link");
    cJSON_AddStringToObject(r, "parts", m->dependent_parts ? "dependent" : "independent");
    if (m->server_model)
        cJSON_AddStringToObject(r, "waits", ct_nona_waits_name(m));
    if (m->server_model && m->reentry && sol->method == CT_NONA_EXACT)
        cJSON_AddStringToObject(r, "server_row", ct_nona_solve_row_pieces(m, sp) ? "pieces" : "linear");
    if (m->server_model && m->reentry && sol->method == CT_NONA_EXACT)
        cJSON_AddStringToObject(r, "bound", sp->class_dual ? "class-dual" : "lp");
    if (isfinite(sol->gap)) {
        ct_json_add_number(r, "gap", sol->gap);
        ct_json_add_number(r, "lower_bound", sol->lower_bound);
        cJSON_AddBoolToObject(r, "stalled", sol->stalled != 0);
        cJSON_AddBoolToObject(r, "shares_settled", sol->shares_unsettled == 0);
        cJSON_AddBoolToObject(r, "time_limited", sol->time_limited != 0);
    }
    cJSON_AddStringToObject(r, "method", ct_nona_method_name(sol->method));
    ct_json_add_number(r, "solve_seconds", sol->seconds);
    ct_json_add_number(r, "iterations", (double)sol->lp_solves);
    if (sol->segment_gap) {
        ct_json_add_number(r, "columns_generated", (double)sol->columns_added);
        ct_json_add_number(r, "column_rounds", (double)sol->cg_rounds);
        ct_json_add_number(r, "column_gap", sol->eval.J > 0 ? sol->column_gap / sol->eval.J : 0.0);
    }
    for (size_t j = 0; j < m->n_classes; j++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddItemToArray(cls, c);
        cJSON_AddStringToObject(c, "name", m->class_names[j]);
        ct_json_add_number(c, "predicted_mean_jct", sol->tau[j]);
    }
    cJSON_AddItemToObject(r, "classes", cls);
    return r;
}

/* The exact solver's progress as a status line (a long search: the LP
 * budget it may use, the gap proven so far). */
static void solve_progress(const ct_nona_progress_t *r, void *ctx)
{
    cli_status_update(ctx, "solving: search %zu, %zu of at most %zu LPs, mean JCT %.9g s, gap %.2g", r->search,
                      r->lps, r->max_lps, r->mean_jct, r->gap);
}

/* What a sweep's console line says of a scale's solve. */
typedef struct {
    double mean_jct; /* seconds */
    double gap;      /* the certified relative gap; NAN when the method gives none */
    size_t lps;      /* LPs (exact, grid) or evaluations (penalty) */
    double seconds;  /* the solve's own time */
} solve_stats_t;

/* Solves one scenario into a table entry's text (ct_nona_table_entry_text;
 * and a summary and the sweep line's figures when wanted). */
static ct_status_t solve_one(const ct_scenario_t *s, double scale, const nona_opts_t *o, char **entry,
                             size_t *entry_len, cJSON **summary, int print, solve_stats_t *stats, ct_error_t *err)
{
    ct_nona_model_t m;
    ct_nona_solution_t sol;
    ct_status_t st = ct_nona_model_build(s, &o->model, &m, err);
    if (st != CT_OK)
        return st;
    st = ct_nona_solve(&m, &o->solve, &sol, err);
    if (o->solve.progress == solve_progress)
        cli_status_end(o->solve.progress_ctx); /* before the summary prints */
    if (st != CT_OK) {
        ct_nona_model_free(&m);
        return st;
    }
    if (print)
        print_summary(s, &m, &sol, o->details);
    if (stats)
        *stats = (solve_stats_t){ sol.eval.mean_jct, isfinite(sol.gap) ? sol.gap : NAN, sol.lp_solves, sol.seconds };
    st = entry ? ct_nona_table_entry_text(s, scale, &m, &sol, entry, entry_len, err) : CT_OK;
    if (st == CT_OK && summary && !(*summary = summary_json(&m, &o->solve, &sol, scale)))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    ct_nona_solution_free(&sol);
    ct_nona_model_free(&m);
    return st;
}

static int write_doc(const char *entry, size_t len, const char *path)
{
    ct_error_t err;
    ct_outfile_t out;
    if (ct_outfile_open(&out, path, &err) != CT_OK)
        return cli_fail(&err);
    if (ct_nona_table_write(out.fp, &entry, &len, 1, &err) != CT_OK) {
        ct_outfile_abort(&out);
        return cli_fail(&err);
    }
    return ct_outfile_commit(&out, &err) == CT_OK ? 0 : cli_fail(&err);
}

static int do_solve(const char *path, const nona_opts_t *o)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, path, &err) != CT_OK)
        return cli_fail(&err);
    char *entry = NULL;
    size_t entry_len = 0;
    cJSON *summary = NULL;
    nona_opts_t so = *o;
    cli_status_t line;
    cli_status_start(&line);
    so.solve.progress = solve_progress;
    so.solve.progress_ctx = &line;
    so.solve.threads = o->sweep.threads; /* (0: the cores; a sweep's scales take one each) */
    so.model.threads = o->sweep.threads; /* (pass 1 of the build of a model of many classes) */
    ct_status_t st = solve_one(&s, 1.0, &so, o->output ? &entry : NULL, &entry_len, o->json ? &summary : NULL,
                               !o->json, NULL, &err);
    ct_scenario_destroy(&s);
    if (st != CT_OK) {
        free(entry);
        cJSON_Delete(summary);
        return cli_fail(&err);
    }
    int rc = 0;
    if (entry)
        rc = write_doc(entry, entry_len, o->output);
    free(entry);
    if (summary)
        rc = rc ? (cJSON_Delete(summary), rc) : cli_print_json(summary);
    return rc;
}

/* One scale of a sweep, on any thread or rank: its text is a compact JSON
 * object {"scale", "status": "ok" | "unstable", "message", "mean_jct",
 * "summary": the --json summary} and, when ok, a newline and the lookup
 * file's scenario as the file prints it (ct_nona_table_entry_text; parts
 * of builds before 2026-12-02, late, carry it as the object's "entry" instead:
 * cli_lookup_read takes both), so shards and ranks carry everything the
 * output and the console need, and the writer only joins the entries. */
typedef struct {
    const ct_scenario_t *s;
    const nona_opts_t *o;
} sweep_ctx_t;

static ct_status_t sweep_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const sweep_ctx_t *c = arg;
    ct_scenario_t scaled;
    ct_status_t st = ct_scenario_scaled(c->s, c->o->scales[i], &scaled, err);
    if (st != CT_OK)
        return st;
    char *entry = NULL, *head = NULL;
    size_t entry_len = 0;
    cJSON *summary = NULL, *obj = cJSON_CreateObject();
    solve_stats_t stats = { 0, NAN, 0, 0 };
    ct_error_t e;
    ct_error_clear(&e);
    st = solve_one(&scaled, c->o->scales[i], c->o, &entry, &entry_len, c->o->json ? &summary : NULL, 0, &stats, &e);
    ct_scenario_destroy(&scaled);
    if (st != CT_OK && st != CT_EUNSTABLE) {
        cJSON_Delete(obj);
        cJSON_Delete(summary);
        free(entry);
        *err = e;
        return st;
    }
    int bad = !obj || ct_json_add_number(obj, "scale", c->o->scales[i]) ||
              !cJSON_AddStringToObject(obj, "status", st == CT_OK ? "ok" : "unstable") ||
              !cJSON_AddStringToObject(obj, "message", e.msg) || ct_json_add_number(obj, "mean_jct", stats.mean_jct) ||
              (st == CT_OK && (ct_json_add_number(obj, "iterations", (double)stats.lps) ||
                               ct_json_add_number(obj, "solve_seconds", stats.seconds) ||
                               (isfinite(stats.gap) && ct_json_add_number(obj, "gap", stats.gap))));
    if (!bad && summary && (bad = !cJSON_AddItemToObject(obj, "summary", summary)) == 0)
        summary = NULL; /* (obj's now) */
    if (bad || !(head = cJSON_PrintUnformatted(obj))) {
        cJSON_Delete(obj);
        cJSON_Delete(summary);
        free(entry);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    cJSON_Delete(obj);
    size_t hl = strlen(head);
    *text = malloc(hl + (entry ? 1 + entry_len : 0) + 1);
    if (*text) {
        memcpy(*text, head, hl);
        if (entry) {
            (*text)[hl] = '\n';
            memcpy(*text + hl + 1, entry, entry_len);
        }
        (*text)[hl + (entry ? 1 + entry_len : 0)] = '\0';
    }
    cJSON_free(head);
    free(entry);
    return *text ? CT_OK : ct_error_set(err, CT_ENOMEM, "out of memory");
}

static int do_sweep(const char *path, const nona_opts_t *o)
{
    if (!o->n_scales)
        return cli_usage("nona", "sweep: --scale A:B:STEP is required");
    if (!o->output)
        return cli_usage("nona", "sweep: -o LOOKUP.json is required");
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, path, &err) != CT_OK)
        return cli_fail(&err);
    char **texts = calloc(o->n_scales, sizeof(char *));
    cJSON *summaries = cJSON_CreateArray();
    cli_lookup_point_t *pts = NULL;
    int rc = 0;
    if (!texts || !summaries) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    sweep_ctx_t ctx = { &s, o };
    if (cli_sweep_run("sweep", "nona-sweep", o->output, o->n_scales, sweep_point, &ctx, &o->sweep, texts, &rc))
        goto done;
    /* In scale order, whatever order they were computed in. */
    if ((rc = cli_lookup_read(o->n_scales, texts, o->sweep.threads, &pts)) != 0)
        goto done;
    ct_sweep_texts_free(texts, o->n_scales); /* (read: the lookup's pieces hold what is written) */
    texts = NULL;
    size_t n = 0, skipped = 0;
    for (size_t i = 0; i < o->n_scales; i++) {
        if (!pts[i].ok) {
            fprintf(stderr, "contend: scale %g skipped: %s\n", o->scales[i],
                    pts[i].message ? pts[i].message : "unstable");
            skipped++;
        } else {
            n++;
            if (pts[i].summary) {
                cJSON_AddItemToArray(summaries, pts[i].summary);
                pts[i].summary = NULL;
            }
            if (o->json)
                continue;
            printf("scale %-6g mean JCT %.6g s", o->scales[i], pts[i].mean_jct);
            /* (the certificate, as `nona solve` prints it; parts written
             * before 2026-12-04 carry none) */
            if (isfinite(pts[i].gap))
                printf(", certified gap %.2g", pts[i].gap);
            if (isfinite(pts[i].seconds))
                printf(", %.0f %s, %.3f ms", pts[i].iterations,
                       o->solve.method == CT_NONA_PENALTY ? "evaluations" : "LPs", 1e3 * pts[i].seconds);
            printf("\n");
        }
    }
    if ((rc = cli_lookup_write(o->output, o->n_scales, pts)) != 0)
        goto done;
    if (!o->json)
        printf("wrote %s: %zu scenarios, %zu unstable scales skipped%s\n", o->output, n, skipped, ct_sweep_where());
    else {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddItemToObject(r, "scenarios", summaries);
        summaries = NULL;
        ct_json_add_number(r, "skipped", (double)skipped);
        rc = cli_print_json(r);
    }
done:
    cli_lookup_points_free(pts, o->n_scales);
    ct_sweep_texts_free(texts, o->n_scales);
    cJSON_Delete(summaries);
    ct_scenario_destroy(&s);
    return rc;
}

int cmd_nona(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        nona_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *sub = argv[1];
    nona_opts_t o;
    int rc = parse(argc - 1, argv + 1, &o);
    if (rc) {
        free(o.scales);
        return rc < 0 ? 0 : rc;
    }
    if (argc - 1 - optind != 1) {
        free(o.scales);
        return cli_usage("nona", "%s: expected exactly one SCENARIO file", sub);
    }
    const char *path = argv[1 + optind];
    if (!strcmp(sub, "solve"))
        rc = do_solve(path, &o);
    else if (!strcmp(sub, "sweep"))
        rc = do_sweep(path, &o);
    else
        rc = cli_usage("nona", "unknown subcommand '%s'", sub);
    free(o.scales);
    return rc;
}
