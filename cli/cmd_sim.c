/*
 * cmd_sim.c - `contend sim` (one policy at one load) and `contend sim sweep`
 * (policies x loads or bandwidths, CSV plus a table of ratios to nona).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cmd_sim.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_usage(FILE *out)
{
    fprintf(out,
            "usage: contend sim SCENARIO [--policy P] [--load L] [OPTIONS]\n"
            "       contend sim sweep SCENARIO --loads A:B:STEP [--policies P,Q,...] -o results.csv\n"
            "       contend sim sweep SCENARIO --bandwidths A:B:STEP [--load L] [--policies ...] -o results.csv\n"
            "\n"
            "Simulates the scenario's cluster (servers, one bottleneck link) under a placement\n"
            "policy, with Poisson arrivals of every class plus background compute and transfer\n"
            "jobs, and reports job completion times (JCT, seconds).\n"
            "\n"
            "policies: nona (the Nona table solved for the simulated load), nona-late (the same\n"
            "  with late-bound parts: the table splits the job, and each part that leaves its\n"
            "  source's server is bound when first needed to the least loaded of D sampled\n"
            "  servers, as roots are; the table is solved for that), nona-star (one table\n"
            "  solved at load 0.5 used at every load), random (every task on a uniform server),\n"
            "  opportunistic (a segment's parallel branches on different servers, one with its\n"
            "  source), local (whole job on its root's server), fair (central ready queue: an idle\n"
            "  server takes a task of the job with the fewest running tasks), fair-delay (fair\n"
            "  with Spark's delay scheduling: a job passes on a server that holds none of its\n"
            "  ready tasks' largest inputs until its locality wait runs out), sparrow (batch\n"
            "  sampling with late binding: the m tasks of a job that become ready together\n"
            "  probe D x m uniform servers, each task runs on the first probed server to ask),\n"
            "  sparrow-local (the same, each task's first probe on the server holding its\n"
            "  largest input, and a server that asks takes the task with most input there),\n"
            "  nona-file (a lookup file you solved, --table FILE: at each point the entry\n"
            "  nearest the simulated rates, as contend serve picks it; not solved again)\n"
            "\n"
            "options:\n"
            "  --policy P            sim: the policy (default nona)\n"
            "  --policies P,Q,...    sweep: policies (default all but nona-late, fair-delay,\n"
            "                        sparrow, sparrow-local and nona-file; with --table, nona-file\n"
            "                        too)\n"
            "  --table FILE          nona-file: the lookup file (contend nona solve -o or nona\n"
            "                        sweep -o); sim: the policy then defaults to nona-file\n"
            "  --load L              compute load sum(rate x job compute) / servers, [0.001, 1) (0.5)\n"
            "  --loads A:B:STEP      sweep over loads, e.g. 0.1:0.9:0.1\n"
            "  --bandwidths A:B:STEP sweep over link bandwidths, bytes/s, at --load\n"
            "  --reps N              replications (default 5)\n"
            "  --jobs N              measured inference jobs per replication (100 .. 1e9; 20000)\n"
            "  --warmup F            warm-up, a fraction of the measured span (0 .. 10; 0.2)\n"
            "  --seed N              replication r uses seed + r (default 1)\n"
            "  --link fifo|ps        link discipline (default fifo)\n"
            "  --bg-ratio R          inference : background arrival ratio (>= 1; default 100; 0: none)\n"
            "  --server-queue Q      job-first (default: a server runs the ready task of the\n"
            "                        earliest-arriving job, a job's own in readiness order; what\n"
            "                        the Nona model assumes), job-first-chains (the same, but a task\n"
            "                        whose one input is the task just run there, its one successor,\n"
            "                        goes first among its job's: a chain runs through, as the DAG's\n"
            "                        contraction takes it) or fifo (tasks in readiness order; each\n"
            "                        task re-queues at the back)\n"
            "  --locality-wait X     fair-delay: the wait in mean task times (> 0; default 5)\n"
            "  --probes D            sparrow, sparrow-local: probes per ready task (1..64;\n"
            "                        default 2, Sparrow's)\n"
            "  --rtt S               round trip scheduler <-> server, seconds (default 0): a sampled\n"
            "                        root or part (queue lengths of D servers) is placed one\n"
            "                        round trip later; a probe lands one later and the server\n"
            "                        reaching it waits one more for its task; a central launch\n"
            "                        (fair, fair-delay) one; stateless tables none. Nona tables\n"
            "                        are solved for it (a sampled root and part start one later)\n"
            "  --table-rtt S         nona tables: the round trip they are solved for (default: the\n"
            "                        --rtt simulated; 0: none, the tables before 2026-11-29)\n"
            "  --exp-service         task times exponential with the class's time as the mean\n"
            "                        (queueing-theory checks; default: as given)\n"
            "  --fair-pick P         fair's idle server: recent (default, the most recently\n"
            "                        freed) or random (a uniform idle server)\n"
            "  --root-choices D      nona, nona-late, nona-star: put a job's root (nona-late: and\n"
            "                        its parts) on the least loaded of D\n"
            "                        sampled servers (default 2; 1: uniform, the paper's rule)\n"
            "  --model link|servers  nona tables: the paper's link-only model, or with server\n"
            "                        queueing (default servers)\n"
            "  --parts dependent|independent\n"
            "                        nona tables: parts wait for the parts that feed them\n"
            "                        (default), or the paper's independent branches\n"
            "  --late-bind ready-hold|ready|first-input|probes\n"
            "                        nona-late: a part binds when one of its tasks has every\n"
            "                        input sent (inputs for a part not bound yet wait at their\n"
            "                        senders) and its server counts it as a task while it waits\n"
            "                        for a later one (ready-hold, default), only until its first\n"
            "                        task (ready), or it binds when its first input is sent\n"
            "                        (first-input, the rule before 2026-11-29); probes: the\n"
            "                        root's part and the parts needed at once leave reservations\n"
            "                        on D servers each and the first free one takes a part\n"
            "                        (Sparrow's late binding; production: contend serve's /bind\n"
            "                        with \"rule\": \"probes\")\n"
            "  --sampling auto|finite|mean-field\n"
            "                        nona-late tables: the chance that all D sampled servers are busy\n"
            "                        from the busy count's spread among the N servers and the\n"
            "                        servers held for late parts (finite) or rho^D (mean-field, the\n"
            "                        model before 2026-11-30); auto (default): finite from D = 8,\n"
            "                        not for probes\n"
            "  --late-waits uniform|least-of-d\n"
            "                        nona-late tables: a late part waits with probability rho^D\n"
            "                        (least-of-d, default: all D sampled servers busy, and then\n"
            "                        longer) or rho (uniform, the earlier default); the same mean\n"
            "                        wait (contend nona --help)\n"
            "  --late-first root|aged\n"
            "                        nona-late tables: a late part's first task waits as a root does\n"
            "                        and a part's later tasks wait for older jobs' late parts bound\n"
            "                        to their server (root, default), or its first wait is stretched\n"
            "                        by its age (aged, the model before 2026-11-29)\n"
            "  --virtual-root job|part\n"
            "                        nona-late tables, several source tasks: every task waits the\n"
            "                        root's wait (job, default) or the root's part's only (part)\n"
            "  --transfers part|task\n"
            "                        nona tables, dependent parts: a transfer from another part's\n"
            "                        task delays the receiving part (part, default) or only the\n"
            "                        task it feeds (task)\n"
            "  --waits job-first|job-first-spread|job-first-merged|job-first-aged|stretched|pieces\n"
            "                        nona tables, server model: job-first-aged (default: every task\n"
            "                        that rejoins a server waits, more the younger its job: residual /\n"
            "                        (1 - load of tasks later in their jobs); first visits wait behind\n"
            "                        older jobs' later ones; a part's visits are one piece of W),\n"
            "                        job-first (the residual alone; the default before 2026-11-28),\n"
            "                        job-first-spread (job-first with those waits random along a\n"
            "                        path, a join takes the latest), job-first-merged (aged without\n"
            "                        the age; with --server-row pieces), stretched\n"
            "                        (the first version: re-entries wait / (1 - rho_s) more) or the\n"
            "                        earlier model's piece waits\n"
            "  --gap G               nona tables: the certified solver's relative gap (0 .. 0.5;\n"
            "                        default: the solver's, 1e-9)\n"
            "  --stall N             nona tables: the solver's stall rule (default 125; 0: never,\n"
            "                        the earlier search; see contend nona --help)\n"
            "  --stall-gap G, --stall-close F\n"
            "                        nona tables: the stall rule's levels (defaults 0 and 0.25;\n"
            "                        --stall-close 0.1: the rule before; see contend nona --help)\n"
            "  --stall-large N       nona tables: the stall rule's first check on 1000 blocks or\n"
            "                        more (default 32; 0: --stall there too, the rule before; see\n"
            "                        contend nona --help)\n"
            "  --pilot N             nona tables: LPs per search while the root shares swing, on\n"
            "                        1000 blocks or more (default 31; 0: the rule before; see\n"
            "                        contend nona --help)\n"
            "  --pilot-swing N       nona tables: LPs per search once the shares swing, where fewer\n"
            "                        than --pilot's (default 16; 0: the rule before; see contend\n"
            "                        nona --help)\n"
            "  --pilot-first 0|1     nona tables: the first search a pilot too, on 1000 blocks or\n"
            "                        more (default 1; 0: the rule before; see contend nona --help)\n"
            "  --stall-gap-large G   nona tables: the stall rule's enough-gap on 1000 blocks or\n"
            "                        more (default 0.01; 0: the rule before; see contend nona --help)\n"
            "  --box-pairs 0|1       nona tables: a split box's halves side by side, on 1000 blocks\n"
            "                        or more (default 1; 0: the rule before; see contend nona --help)\n"
            "  --search-warm 0|1     nona tables: each search of the shares from the last one's\n"
            "                        table, on 1000 blocks or more (default 1; 0: the rule before)\n"
            "  --server-row auto|pieces|linear\n"
            "                        nona tables: the solver's server row (default auto; see\n"
            "                        contend nona --help)\n"
            "  --bound lp|class-dual nona tables: how the solver bounds its boxes (default lp;\n"
            "                        see contend nona --help)\n"
            "  --price-spread        nona tables: column generation also searches for triplets at a\n"
            "                        spread of waits, not only the solution's (slower; finds splits\n"
            "                        that pay only when every job splits)\n"
            "  --spread-gap G        nona tables: search at the spread only where the column gap\n"
            "                        is above G x J (contend nona --help; default 0.007; 0: never)\n"
            "  --chase F             nona tables: column generation's chase after a search that\n"
            "                        left its gap open (contend nona --help; default 0.5; 0: always)\n"
            "  -o, --output FILE     sweep: CSV, one row per policy x point x class (class all)\n"
            "  --json                sim: JSON summary\n"
            "  --by-task             sim: per task of every class, its mean wait for a server (from\n"
            "                        the moment its inputs are there) and its mean end since the job\n"
            "                        arrived, s, and for nona tables the model's mean end (a task\n"
            "                        merged by the DAG's contraction: at its last member) (with\n"
            "                        --json: a \"tasks\" array per class)\n"
            "  -j, --threads N       points simulated at once (sweep), or replications (one run)\n"
            "                        (default: the cores; 1: in order); the output is the same for any N\n"
            "  --shard I/N           sweep: simulate only the points i with i %% N == I and write a\n"
            "                        part file; contend merge joins the parts\n"
            "\n"
            "contend sim check: the model against the simulator over scenarios and generated\n"
            "families (contend sim check --help).\n"
            "contend sim compare: every policy over scenarios and generated families, the best\n"
            "stateless and stateful policy per load (contend sim compare --help).\n");
}

enum { OPT_POLICY = 256, OPT_POLICIES, OPT_LOAD, OPT_LOADS, OPT_BWS, OPT_REPS, OPT_JOBS, OPT_WARM, OPT_SEED,
       OPT_LINK, OPT_BG, OPT_JSON, OPT_QUEUE, OPT_FAIR, OPT_ROOT, OPT_MODEL, OPT_THREADS, OPT_SHARD, OPT_PARTS,
       OPT_LATE_WAITS, OPT_LATE_FIRST, OPT_VROOT, OPT_XFER, OPT_LATE_BIND, OPT_SAMPLING, OPT_GENERATE, OPT_GEN_SEED,
       OPT_STAGES, OPT_GBPS, OPT_WAITS, OPT_BYTASK, OPT_SAVE, OPT_LWAIT, OPT_PROBES, OPT_FAMILY, OPT_EXP, OPT_RTT,
       OPT_TABLE_RTT, OPT_TABLE };

int sim_parse(int argc, char **argv, sim_opts_t *o)
{
    static const struct option longopts[] = {
        { "policy", required_argument, NULL, OPT_POLICY }, { "policies", required_argument, NULL, OPT_POLICIES },
        { "load", required_argument, NULL, OPT_LOAD }, { "loads", required_argument, NULL, OPT_LOADS },
        { "bandwidths", required_argument, NULL, OPT_BWS }, { "reps", required_argument, NULL, OPT_REPS },
        { "jobs", required_argument, NULL, OPT_JOBS }, { "warmup", required_argument, NULL, OPT_WARM },
        { "seed", required_argument, NULL, OPT_SEED }, { "link", required_argument, NULL, OPT_LINK },
        { "bg-ratio", required_argument, NULL, OPT_BG }, { "output", required_argument, NULL, 'o' },
        { "json", no_argument, NULL, OPT_JSON }, { "help", no_argument, NULL, 'h' },
        { "server-queue", required_argument, NULL, OPT_QUEUE }, { "fair-pick", required_argument, NULL, OPT_FAIR },
        { "locality-wait", required_argument, NULL, OPT_LWAIT },
        { "probes", required_argument, NULL, OPT_PROBES }, { "rtt", required_argument, NULL, OPT_RTT },
        { "table-rtt", required_argument, NULL, OPT_TABLE_RTT }, { "table", required_argument, NULL, OPT_TABLE },
        { "exp-service", no_argument, NULL, OPT_EXP },
        { "root-choices", required_argument, NULL, OPT_ROOT }, { "model", required_argument, NULL, OPT_MODEL },
        { "parts", required_argument, NULL, OPT_PARTS }, { "late-waits", required_argument, NULL, OPT_LATE_WAITS }, { "late-first", required_argument, NULL, OPT_LATE_FIRST }, { "virtual-root", required_argument, NULL, OPT_VROOT }, { "transfers", required_argument, NULL, OPT_XFER }, { "late-bind", required_argument, NULL, OPT_LATE_BIND }, { "sampling", required_argument, NULL, OPT_SAMPLING }, { "generate", required_argument, NULL, OPT_GENERATE },
        { "gen-seed", required_argument, NULL, OPT_GEN_SEED }, { "stages", required_argument, NULL, OPT_STAGES },
        { "gbps", required_argument, NULL, OPT_GBPS }, CLI_SOLVE_LONGOPTS,
        { "waits", required_argument, NULL, OPT_WAITS }, { "by-task", no_argument, NULL, OPT_BYTASK },
        { "save", required_argument, NULL, OPT_SAVE }, { "family", required_argument, NULL, OPT_FAMILY },
        { "threads", required_argument, NULL, 'j' }, { "shard", required_argument, NULL, OPT_SHARD },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    o->policy = "nona";
    ct_eval_params_init(&o->ev); /* sweeps: threads in o->sweep (0: the cores) */
    ct_scenario_gen_params_init(&o->gen);
    o->gen_seed = 1;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:hj:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_POLICY:
            o->policy = optarg;
            o->policy_set = 1;
            break;
        case OPT_TABLE: o->ev.table_path = optarg; break;
        case OPT_POLICIES:
            free(o->policies);
            o->policies = strdup(optarg);
            break;
        case OPT_LOAD:
            if (cli_parse_double(optarg, &o->ev.load) || !(o->ev.load >= 0.001 && o->ev.load < 1))
                return cli_usage("sim", "--load: expected a number in [0.001, 1), got '%s'", optarg);
            break;
        case OPT_LOADS:
            free(o->loads);
            if (cli_parse_range(optarg, &o->loads, &o->n_loads) || o->loads[0] < 0.001 || o->loads[o->n_loads - 1] >= 1 ||
                o->n_loads > 1000)
                return cli_usage("sim", "--loads: expected A:B:STEP with 0.001 <= A <= B < 1, at most 1000 points, got '%s'",
                                 optarg);
            break;
        case OPT_BWS:
            free(o->bws);
            if (cli_parse_range(optarg, &o->bws, &o->n_bws) || o->bws[0] <= 0 || o->bws[o->n_bws - 1] > 1e15 ||
                o->n_bws > 1000)
                return cli_usage("sim", "--bandwidths: expected A:B:STEP in bytes/s with 0 < A <= B <= 1e15, at most 1000 "
                                 "points, got '%s'", optarg);
            break;
        case OPT_REPS:
            if (cli_parse_size(optarg, &o->ev.run.reps) || o->ev.run.reps < 1 || o->ev.run.reps > 1000)
                return cli_usage("sim", "--reps: expected 1..1000, got '%s'", optarg);
            break;
        case OPT_JOBS:
            if (cli_parse_size(optarg, &o->ev.run.jobs) || o->ev.run.jobs < 100 || o->ev.run.jobs > 1000000000)
                return cli_usage("sim", "--jobs: expected an integer in 100 .. 1e9, got '%s'", optarg);
            break;
        case OPT_WARM:
            if (cli_parse_double(optarg, &o->ev.run.warmup) || o->ev.run.warmup < 0 || o->ev.run.warmup > 10)
                return cli_usage("sim", "--warmup: expected a fraction of the span in 0 .. 10, got '%s'", optarg);
            break;
        case OPT_SEED:
        {
            unsigned long long seed;
            if (cli_parse_u64(optarg, &seed))
                return cli_usage("sim", "--seed: expected a non-negative integer, got '%s'", optarg);
            o->ev.run.seed = seed;
            break;
        }
        case OPT_LINK:
            if (!strcmp(optarg, "fifo"))
                o->ev.link = CT_LINK_FIFO;
            else if (!strcmp(optarg, "ps"))
                o->ev.link = CT_LINK_PS;
            else
                return cli_usage("sim", "--link: expected fifo or ps, got '%s'", optarg);
            break;
        case OPT_BG:
            if (cli_parse_double(optarg, &o->ev.bg_ratio) || (o->ev.bg_ratio != 0 && o->ev.bg_ratio < 1))
                return cli_usage("sim", "--bg-ratio: expected 0 (no background) or a ratio >= 1, got '%s'", optarg);
            break;
        case OPT_QUEUE:
            if (!strcmp(optarg, "job-first"))
                o->ev.server_queue = CT_QUEUE_JOB_FIRST;
            else if (!strcmp(optarg, "fifo"))
                o->ev.server_queue = CT_QUEUE_FIFO;
            else if (!strcmp(optarg, "job-first-chains"))
                o->ev.server_queue = CT_QUEUE_JOB_FIRST_CHAINS;
            else
                return cli_usage("sim", "--server-queue: expected job-first, job-first-chains or fifo, got '%s'",
                                 optarg);
            break;
        case OPT_LWAIT:
            if (cli_parse_double(optarg, &o->ev.locality_wait) || !(o->ev.locality_wait > 0) ||
                !(o->ev.locality_wait <= 1e6))
                return cli_usage("sim", "--locality-wait: expected a number of mean task times in (0, 1e6], got '%s'",
                                 optarg);
            break;
        case OPT_PROBES: {
            size_t v;
            if (cli_parse_size(optarg, &v) || v < 1 || v > 64)
                return cli_usage("sim", "--probes: expected 1..64, got '%s'", optarg);
            o->ev.probes = (unsigned)v;
            break;
        }
        case OPT_EXP: o->ev.exp_service = 1; break;
        case OPT_RTT:
        case OPT_TABLE_RTT:
            if (cli_parse_rtt("sim", c == OPT_RTT ? "--rtt" : "--table-rtt", optarg,
                              c == OPT_RTT ? &o->ev.rtt : &o->ev.table_rtt))
                return 2;
            break;
        case OPT_FAIR:
            if (!strcmp(optarg, "recent"))
                o->ev.fair_pick = CT_FAIR_RECENT;
            else if (!strcmp(optarg, "random"))
                o->ev.fair_pick = CT_FAIR_RANDOM;
            else
                return cli_usage("sim", "--fair-pick: expected recent or random, got '%s'", optarg);
            break;
        case OPT_ROOT:
            if (cli_parse_root_choices("sim", optarg, &o->ev.root_choices))
                return 2;
            break;
        case OPT_MODEL:
            if (cli_parse_server_model("sim", optarg, &o->ev.server_model))
                return 2;
            break;
        case OPT_PARTS:
            if (cli_parse_parts("sim", optarg, &o->ev.dependent_parts))
                return 2;
            break;
        case OPT_LATE_BIND:
            if (cli_parse_late_bind("sim", optarg, &o->ev.late_bind))
                return 2;
            break;
        case OPT_SAMPLING:
            if (cli_parse_sampling("sim", optarg, &o->ev.finite_servers))
                return 2;
            break;
        case OPT_VROOT:
            if (cli_parse_virtual_root("sim", optarg, &o->ev.root_wait_all))
                return 2;
            break;
        case OPT_XFER:
            if (cli_parse_transfers("sim", optarg, &o->ev.transfers_task))
                return 2;
            break;
        case OPT_LATE_FIRST:
            if (cli_parse_late_first("sim", optarg, &o->ev.late_first))
                return 2;
            break;
        case OPT_LATE_WAITS:
            if (cli_parse_late_waits("sim", optarg, &o->ev.late_waits))
                return 2;
            break;
        case OPT_BYTASK: o->by_task = 1; break;
        case OPT_SAVE: o->save = optarg; break;
        case OPT_WAITS:
            if (cli_parse_waits("sim", optarg, &o->ev.job_first_waits))
                return 2;
            break;
        case OPT_GENERATE:
            if (cli_parse_size(optarg, &o->generate) || o->generate > 100000)
                return cli_usage("sim", "--generate: expected 0 .. 100000 scenarios, got '%s'", optarg);
            break;
        case OPT_GEN_SEED:
            if (cli_parse_u64(optarg, &o->gen_seed))
                return cli_usage("sim", "--gen-seed: expected a non-negative integer, got '%s'", optarg);
            break;
        case OPT_FAMILY:
            if (ct_gen_shape_parse(optarg, &o->gen.shape) != CT_OK)
                return cli_usage("sim", "--family: expected layered, ensemble or pipeline, got '%s'", optarg);
            break;
        case OPT_STAGES:
        {
            unsigned a, b;
            char tail;
            if (sscanf(optarg, "%u:%u%c", &a, &b, &tail) != 2 || a < 1 || a > b || b > 64)
                return cli_usage("sim", "--stages: expected MIN:MAX with 1 <= MIN <= MAX <= 64, got '%s'", optarg);
            o->gen.stages_min = a;
            o->gen.stages_max = b;
            break;
        }
        case OPT_GBPS:
        {
            o->gen.n_bandwidths = 0;
            char *dup = strdup(optarg), *save = NULL;
            int bad = !dup;
            for (char *tok = dup ? strtok_r(dup, ",", &save) : NULL; tok && !bad; tok = strtok_r(NULL, ",", &save)) {
                double g;
                if (o->gen.n_bandwidths == CT_GEN_MAX_BANDWIDTHS || cli_parse_double(tok, &g) || !(g > 0 && g <= 1e6))
                    bad = 1;
                else
                    o->gen.bandwidths[o->gen.n_bandwidths++] = g * 1.25e8; /* Gbit/s -> bytes/s */
            }
            free(dup);
            if (bad || !o->gen.n_bandwidths)
                return cli_usage("sim", "--gbps: expected 1 to %d link speeds in Gbit/s (0, 1e6], e.g. 10,100, got '%s'",
                                 CT_GEN_MAX_BANDWIDTHS, optarg);
            break;
        }
        case 'o': o->output = optarg; break;
        case OPT_JSON: o->json = 1; break;
        case 'j':
        case OPT_SHARD: /* -j N, --shard I/N */
            if (cli_parse_sweep_option("sim", c == 'j', optarg, &o->sweep))
                return 2;
            break;
        case 'h': sim_usage(stdout); return -1;
        default:
            if (c >= CLI_OPT_SOLVE && c < CLI_OPT_SOLVE_END) {
                if (cli_parse_solve_option("sim", c, optarg, &o->ev.solve))
                    return 2;
                break;
            }
            return cli_usage("sim", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    return 0;
}

static void progress_cb(size_t done, size_t total, void *ctx)
{
    cli_progress_update(ctx, done);
    (void)total;
}

static void fmt(char *buf, size_t n, double v)
{
    if (isfinite(v))
        snprintf(buf, n, "%.9g", v);
    else
        buf[0] = '\0';
}

/* One point's CSV rows (a row per class, then "all"). */
static char *point_rows(const ct_eval_point_t *p, char *const *names, size_t nc)
{
    size_t cap = 256 * (nc + 1) + 64, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t k = 0; k <= nc; k++) {
        char *cls = ct_csv_quote(k < nc ? names[k] : "all");
        if (!cls) {
            free(out);
            return NULL;
        }
        int w;
        if (p->unstable)
            w = snprintf(out + len, cap - len, "%s,%.6g,%.9g,%s,,,,,,,,,,unstable\n", p->policy, p->load, p->bandwidth,
                         cls);
        else {
            char f[7][32], mj[32];
            fmt(f[0], 32, p->sum.mean[k]);
            fmt(f[1], 32, p->sum.ci95[k]);
            fmt(f[2], 32, p->sum.p50[k]);
            fmt(f[3], 32, p->sum.p95[k]);
            fmt(f[4], 32, p->sum.p99[k]);
            fmt(f[5], 32, p->sum.link_util);
            fmt(f[6], 32, p->sum.server_util);
            fmt(mj, 32, k == nc ? p->model_mean_jct : NAN);
            w = snprintf(out + len, cap - len, "%s,%.6g,%.9g,%s,%s,%s,%s,%s,%s,%llu,%s,%s,%s,ok\n", p->policy, p->load,
                         p->bandwidth, cls, f[0], f[1], f[2], f[3], f[4], (unsigned long long)p->sum.jobs[k], f[5],
                         f[6], mj);
        }
        free(cls);
        if (w < 0 || (size_t)w >= cap - len) { /* a class name too long for the estimate: grow and retry */
            cap = 2 * cap + (w > 0 ? (size_t)w : 0);
            char *b = realloc(out, cap);
            if (!b) {
                free(out);
                return NULL;
            }
            out = b;
            k--;
            continue;
        }
        len += (size_t)w;
    }
    return out;
}

typedef struct {
    const ct_eval_plan_t *pl;
    char *const *names;
    size_t nc;
} sweep_ctx_t;

static ct_status_t sweep_point(size_t i, void *arg, char **text, ct_error_t *err)
{
    const sweep_ctx_t *c = arg;
    ct_eval_point_t pt;
    ct_status_t st = ct_eval_plan_point(c->pl, i, &pt, err);
    if (st == CT_OK && !(*text = point_rows(&pt, c->names, c->nc)))
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
    ct_eval_point_free(&pt);
    return st;
}

/* The tables people read, from the points' "all" rows (the last row of
 * each point's text): mean JCT of all jobs as a ratio to nona's (col 0),
 * then the p99 JCT likewise (col 4: mean, ci95, p50, p95, p99). */
static void print_ratio_table(char *const *texts, size_t n, int bw_sweep, const char *const *pols, size_t np,
                              int col, const char *what)
{
    printf("%-12s", bw_sweep ? "bandwidth" : "load");
    for (size_t j = 0; j < np; j++)
        printf(" %13s", pols[j]);
    printf("   (%s of all jobs; in brackets: / nona)\n", what);
    for (size_t i = 0; i < n; i += np) {
        double val[16], x = NAN, base = NAN;
        int unstable[16];
        for (size_t j = 0; j < np && i + j < n; j++) {
            const char *t = texts[i + j] ? texts[i + j] : "", *last = t;
            for (const char *q = t; *q; q++)
                if (*q == '\n' && q[1])
                    last = q + 1;
            double f[9]; /* policy, load, bandwidth, class, then the five; empty fields NAN */
            const char *q = last;
            for (int k = 0; k < 9; k++) {
                char *end;
                f[k] = strtod(q, &end);
                if (end == q || (*end != ',' && *end != '\n' && *end))
                    f[k] = NAN;
                q = strchr(q, ',');
                q = q ? q + 1 : "";
            }
            unstable[j] = strstr(last, ",unstable") != NULL;
            if (isfinite(f[1]) && isfinite(f[2]))
                x = bw_sweep ? f[2] : f[1];
            val[j] = f[4 + col];
            if (!strcmp(pols[j], "nona") && !unstable[j]) /* ratios against nona, early-bound */
                base = val[j];
        }
        printf(bw_sweep ? "%-12.4g" : "%-12.2f", x);
        for (size_t j = 0; j < np && i + j < n; j++) {
            char cell[40];
            if (unstable[j])
                snprintf(cell, sizeof cell, "unstable");
            else if (isfinite(base) && base > 0)
                snprintf(cell, sizeof cell, "%.3gs[%.3g]", val[j], val[j] / base);
            else
                snprintf(cell, sizeof cell, "%.3gs", val[j]);
            printf(" %13s", cell);
        }
        printf("\n");
    }
}

static void print_ratios(char *const *texts, size_t n, int bw_sweep, const char *const *pols, size_t np)
{
    print_ratio_table(texts, n, bw_sweep, pols, np, 0, "mean JCT");
    print_ratio_table(texts, n, bw_sweep, pols, np, 4, "p99 JCT");
}

/* sim sweep: the points on threads, shards or ranks (ct_sweep.h). */
static int run_sweep(const ct_scenario_t *s, sim_opts_t *o, const char *const *pols, size_t np)
{
    ct_error_t err;
    int bw_sweep = o->n_bws > 0;
    const double *xs = bw_sweep ? o->bws : o->loads;
    size_t nx = bw_sweep ? o->n_bws : o->n_loads, n = nx * np;
    ct_eval_plan_t *pl;
    o->ev.rep_threads = 1; /* a sweep's threads take points; a point's replications run in order */
    if (ct_eval_plan_make(s, xs, nx, bw_sweep, pols, np, &o->ev, &pl, &err) != CT_OK)
        return cli_fail(&err);
    char **names = calloc(s->n_classes ? s->n_classes : 1, sizeof(char *)), **texts = calloc(n ? n : 1, sizeof(char *));
    int rc = 0;
    if (!names || !texts) {
        ct_error_set(&err, CT_ENOMEM, "out of memory");
        rc = cli_fail(&err);
        goto done;
    }
    for (size_t c = 0; c < s->n_classes; c++)
        names[c] = s->classes[c].name;
    sweep_ctx_t ctx = { pl, names, s->n_classes };
    if (cli_sweep_run("simulating", "sim-sweep", o->output, n, sweep_point, &ctx, &o->sweep, texts, &rc))
        goto done;
    if (!(rc = cli_sweep_write("sim-sweep", o->output, n, &o->sweep, texts))) {
        print_ratios(texts, n, bw_sweep, pols, np);
        printf("wrote %s%s\n", o->output, ct_sweep_where());
    }
done:
    ct_sweep_texts_free(texts, n);
    free(names);
    ct_eval_plan_free(pl);
    return rc;
}

static int run(const char *path, sim_opts_t *o, int sweep)
{
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, path, &err) != CT_OK)
        return cli_fail(&err);
    const char *defaults[] = { "nona", "nona-star", "random", "opportunistic", "local", "fair" };
    const char *pols[16];
    size_t np = 0;
    int rc = 0;
    if (!sweep) {
        pols[np++] = o->ev.table_path && !o->policy_set ? "nona-file" : o->policy;
    } else if (o->policies) {
        for (char *save = NULL, *tok = strtok_r(o->policies, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (np == 16) {
                ct_scenario_destroy(&s);
                return cli_usage("sim", "--policies: at most 16");
            }
            for (size_t k = 0; k < np; k++)
                if (!strcmp(pols[k], tok)) {
                    ct_scenario_destroy(&s);
                    return cli_usage("sim", "--policies: '%s' is listed twice", tok);
                }
            pols[np++] = tok;
        }
        if (np == 0) { /* ",,," or "": a header-only CSV would look like a finished sweep */
            ct_scenario_destroy(&s);
            return cli_usage("sim", "--policies: expected one or more policies, comma-separated");
        }
    } else {
        for (size_t i = 0; i < 6; i++)
            pols[np++] = defaults[i];
        if (o->ev.table_path)
            pols[np++] = "nona-file";
    }
    int file_pol = 0;
    for (size_t k = 0; k < np; k++)
        file_pol |= !strcmp(pols[k], "nona-file");
    if (o->ev.table_path && !file_pol) { /* (a file given and not simulated: a mistake, not a no-op) */
        ct_scenario_destroy(&s);
        return sweep ? cli_usage("sim", "--table %s: --policies does not list nona-file", o->ev.table_path)
                     : cli_usage("sim", "--table %s: the policy is %s, not nona-file", o->ev.table_path, pols[0]);
    }
    if (sweep) {
        rc = run_sweep(&s, o, pols, np);
        ct_scenario_destroy(&s);
        return rc;
    }
    o->ev.rep_threads = o->sweep.threads; /* one point: -j runs its replications at once */
    int bw_sweep = 0;
    double one = o->ev.load, *xs = &one;
    size_t nx = 1;
    ct_eval_result_t res;
    cli_progress_t bar;
    cli_progress_start(&bar, "simulating", nx * np);
    ct_status_t st = ct_eval_sweep(&s, xs, nx, bw_sweep, pols, np, &o->ev, progress_cb, &bar, &res, &err);
    cli_progress_end(&bar);
    ct_sim_class_t *cls = NULL; /* task ids in the simulator's order, for --by-task */
    size_t ncls = 0;
    if (st == CT_OK && o->by_task && (st = ct_sim_classes_build(&s, 1.0, &cls, &ncls, &err)) != CT_OK)
        ct_eval_result_free(&res);
    ct_scenario_destroy(&s);
    if (st != CT_OK)
        return cli_fail(&err);
    {
        const ct_eval_point_t *p = &res.points[0];
        if (!p->unstable && p->sum.undecided)
            fprintf(stderr, "contend: warning: %llu jobs are too few to judge stability (the backlog rose %.3g%% of "
                            "the arrivals); kept as stable: use --jobs %d or more to decide\n",
                    (unsigned long long)o->ev.run.jobs, 100 * p->sum.growth, CT_SIM_JUDGE_JOBS);
        if (p->unstable) {
            const double *q = p->sum.backlog;
            if (o->json) /* scripts still get a document: the verdict and the backlog's trend */
                printf("{\"policy\": \"%s\", \"load\": %.17g, \"stable\": false, \"classes\": [], "
                       "\"backlog\": [%.17g, %.17g, %.17g, %.17g], \"growth\": %.17g}\n",
                       p->policy, p->load, q[0], q[1], q[2], q[3], p->sum.growth);
            ct_error_set(&err, CT_EUNSTABLE,
                         "%s: policy %s is unstable at load %g: jobs in flight kept rising, from %.4g on average in "
                         "the window's first quarter to %.4g in its last",
                         path, p->policy, p->load, q[0], q[3]);
            rc = cli_fail(&err);
        } else if (o->json) {
            printf("{\"policy\": \"%s\", \"load\": %.17g, \"stable\": true, \"classes\": [", p->policy, p->load);
            for (size_t k = 0; k <= res.n_classes; k++) {
                printf("%s{\"name\": ", k ? ", " : "");
                cli_print_json_string(stdout, k < res.n_classes ? res.class_names[k] : "all");
                if (cls && k < res.n_classes) {
                    printf(", \"tasks\": [");
                    for (size_t t = 0; t < cls[k].n_tasks; t++) {
                        size_t x = p->sum.task_offset[k] + t;
                        printf("%s{\"id\": ", t ? ", " : "");
                        cli_print_json_string(stdout, cls[k].ids[t]);
                        printf(", \"time\": %.17g, \"mean_wait\": %.17g, \"mean_end\": %.17g", cls[k].time[t],
                               isfinite(p->sum.task_wait[x]) ? p->sum.task_wait[x] : -1.0,
                               isfinite(p->sum.task_finish[x]) ? p->sum.task_finish[x] : -1.0);
                        if (p->model_task_end && isfinite(p->model_task_end[x]))
                            printf(", \"model_end\": %.17g", p->model_task_end[x]);
                        printf("}");
                    }
                    printf("]");
                }
                printf(", \"mean_jct\": %.17g, \"mean_jct_ci95\": %.17g, \"p50_jct\": %.17g, \"p95_jct\": %.17g, "
                       "\"p99_jct\": %.17g, \"jobs\": %llu}",
                       p->sum.mean[k], isfinite(p->sum.ci95[k]) ? p->sum.ci95[k] : 0.0, p->sum.p50[k], p->sum.p95[k],
                       p->sum.p99[k], (unsigned long long)p->sum.jobs[k]);
            }
            printf("], \"link_util\": %.17g, \"server_util\": %.17g, \"link_wait\": %.17g, \"link_head_wait\": %.17g, "
                   "\"model_mean_jct\": %.17g, \"model_link_wait\": %.17g, \"backlog\": [%.17g, %.17g, %.17g, %.17g], "
                   "\"growth\": %.17g, \"events\": %llu, \"seconds\": %.17g",
                   p->sum.link_util, p->sum.server_util, p->sum.link_wait,
                   isfinite(p->sum.link_head_wait) ? p->sum.link_head_wait : -1.0,
                   isfinite(p->model_mean_jct) ? p->model_mean_jct : -1.0,
                   isfinite(p->model_link_wait) ? p->model_link_wait : -1.0, p->sum.backlog[0], p->sum.backlog[1],
                   p->sum.backlog[2], p->sum.backlog[3], p->sum.growth, (unsigned long long)p->sum.events,
                   p->sum.seconds);
            if (isfinite(p->table_scale))
                printf(", \"table_scale\": %.17g", p->table_scale);
            printf("}\n");
        } else {
            printf("policy %s, load %.3g, %zu replications: link busy %.1f%%, servers busy %.1f%%, mean link wait "
                   "%.4g s\n",
                   p->policy, p->load, o->ev.run.reps, 100 * p->sum.link_util, 100 * p->sum.server_util,
                   p->sum.link_wait);
            printf("%-14s %10s %10s %10s %10s %10s %9s\n", "class", "mean JCT", "+-95%", "p50", "p95", "p99", "jobs");
            for (size_t k = 0; k <= res.n_classes; k++)
                printf("%-14s %10.4g %10.2g %10.4g %10.4g %10.4g %9llu\n",
                       k < res.n_classes ? res.class_names[k] : "all", p->sum.mean[k], p->sum.ci95[k], p->sum.p50[k],
                       p->sum.p95[k], p->sum.p99[k], (unsigned long long)p->sum.jobs[k]);
            if (isfinite(p->table_scale))
                printf("table: %s, its entry at scale %.4g (the nearest the simulated rates)\n", o->ev.table_path,
                       p->table_scale);
            if (isfinite(p->model_mean_jct))
                printf("model's predicted mean JCT: %.4g s\n", p->model_mean_jct);
            if (isfinite(p->model_link_wait)) { /* (its own line: scripts read the one above by its last fields) */
                printf("model's link wait: %.4g s (a batch's, at the head of the link; the simulated mean above is "
                       "per transfer", p->model_link_wait);
                if (isfinite(p->sum.link_head_wait)) /* the like of phi: the first of a job's batch */
                    printf(", at a batch's head %.4g s", p->sum.link_head_wait);
                printf(")\n");
            }
            for (size_t k = 0; cls && k < ncls; k++) {
                printf("class %s by task (s): time, mean wait for its server, mean end since arrival%s\n",
                       cls[k].name, p->model_task_end ? ", the model's mean end" : "");
                for (size_t t = 0; t < cls[k].n_tasks; t++) {
                    size_t x = p->sum.task_offset[k] + t;
                    printf("  %-24s %10.4g %10.4g %10.4g", cls[k].ids[t], cls[k].time[t], p->sum.task_wait[x],
                           p->sum.task_finish[x]);
                    if (p->model_task_end && isfinite(p->model_task_end[x]))
                        printf(" %10.4g", p->model_task_end[x]);
                    printf("\n");
                }
            }
            printf("%llu events in %.3f s (%.2f M events/s); jobs in flight by window quarter %.4g %.4g %.4g %.4g\n",
                   (unsigned long long)p->sum.events, p->sum.seconds, 1e-6 * (double)p->sum.events / p->sum.seconds,
                   p->sum.backlog[0], p->sum.backlog[1], p->sum.backlog[2], p->sum.backlog[3]);
        }
    }
    ct_eval_result_free(&res);
    ct_sim_classes_free(cls, ncls);
    return rc;
}

int cmd_sim(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        sim_usage(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return cmd_sim_check(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "compare"))
        return cmd_sim_compare(argc - 1, argv + 1);
    int sweep = argc >= 2 && !strcmp(argv[1], "sweep");
    sim_opts_t o;
    int rc = sim_parse(argc - sweep, argv + sweep, &o);
    if (rc == 0) {
        int nargs = argc - sweep - optind;
        if (nargs != 1)
            rc = cli_usage("sim", "expected exactly one SCENARIO file");
        else if (sweep && !o.output)
            rc = cli_usage("sim", "sweep: -o results.csv is required");
        else if (sweep && !o.n_loads == !o.n_bws)
            rc = cli_usage("sim", "sweep: give exactly one of --loads and --bandwidths");
        else
            rc = run(argv[sweep + optind], &o, sweep);
    }
    free(o.loads);
    free(o.bws);
    free(o.policies);
    return rc < 0 ? 0 : rc;
}
