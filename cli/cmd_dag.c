/*
 * cmd_dag.c - `contend dag ...`: import, contract, split, partitions, zoo.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "ct_contract.h"
#include "ct_dag.h"
#include "ct_json.h"
#include "ct_onnx.h"
#include "ct_split.h"
#include "ct_zoo.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dag_usage(FILE *out)
{
    fprintf(out,
            "usage: contend dag SUBCOMMAND [OPTIONS] FILE\n"
            "\n"
            "subcommands:\n"
            "  import pipedream FILE -o DAG.json   convert a PipeDream profiler graph.txt\n"
            "  import onnx MODEL.onnx -o DAG.json  one task per ONNX node, edges with the bytes\n"
            "                                      of the tensors between them, times from a\n"
            "                                      roofline (docs/formats.md, \"ONNX import\")\n"
            "  check FILE                          validate a DAG file and print its size\n"
            "  contract FILE [-o OUT.json]         contract the DAG (Nona technique 1)\n"
            "  split FILE                          bottleneck tasks and each segment's tasks\n"
            "  partitions FILE [--segment I]       every placement triplet of each segment\n"
            "  zoo NAME [-o FILE]                  generate a model DAG (alexnet, vgg16,\n"
            "                                      resnet18, densenet121, gpt2)\n"
            "\n"
            "options:\n"
            "  --format json|pipedream  input format (default: detected; JSON starts with '{')\n"
            "  --keep-input-time        PipeDream: keep the Input node's data-loading time\n"
            "                           (default: 0 s, it is not compute)\n"
            "  -o, --output FILE        output file ('-' = stdout); written atomically\n"
            "  --json                   machine-readable output on stdout\n"
            "  --raw                    split/partitions: do not contract first\n"
            "  --segment I              partitions: only segment I (0-based)\n"
            "  --max-triplets N         partitions: refuse segments needing more than N\n"
            "                           triplets (default 100000)\n"
            "  onnx: --device NAME      roofline preset from data/onnx/devices.json: a100\n"
            "                           (default), h100, v100, t4, xeon-8380\n"
            "       --flops F           peak FLOP/s for 32/64-bit tensors (overrides the device)\n"
            "       --fp16-flops F      peak FLOP/s for 16/8-bit tensors (overrides the device)\n"
            "       --mem-bw B          memory bandwidth, bytes/s (overrides the device)\n"
            "       --batch N           size of a symbolic batch dimension (default 1)\n"
            "  import: --scenario FILE  also write a one-class scenario for the DAG, ready for\n"
            "                           'contend nona solve': --servers N (default 8),\n"
            "                           --link-bandwidth B bytes/s (default 1.25e9, 10 Gbit/s),\n"
            "                           and --rate R jobs/s or --load L, the servers' busy\n"
            "                           fraction (default 0.5: R = L x N / the DAG's total time)\n"
            "  zoo: --batch N           batch size (default 1)\n"
            "       --flops F           reference compute throughput, FLOP/s (default 1e13)\n"
            "       --mem-bw B          reference memory bandwidth, bytes/s (default 5e11)\n"
            "       --seq-len L         gpt2: tokens per query (default 128)\n"
            "\n"
            "Times are seconds on the reference server; bytes are what the target task\n"
            "needs from the source task.\n");
}

typedef struct {
    ct_dag_load_params_t load;
    const char *output;
    int json, raw;
    size_t segment;
    int have_segment;
    ct_partition_params_t part;
    ct_zoo_params_t zoo;
    const char *device;          /* onnx: preset name (NULL: a100) */
    double fp16_flops;           /* onnx: 0 = the device's */
    int have_flops, have_membw, have_batch;
    const char *scenario;        /* import: also write a scenario here */
    size_t servers;
    double link_bw, rate, busy;   /* busy: --load, the servers' busy fraction */
} dag_opts_t;

enum { OPT_FORMAT = 256, OPT_KEEP, OPT_JSON, OPT_RAW, OPT_SEGMENT, OPT_MAXT, OPT_BATCH, OPT_FLOPS, OPT_MEMBW, OPT_SEQ, OPT_DEVICE, OPT_FP16, OPT_SCENARIO, OPT_SERVERS, OPT_LINK, OPT_RATE, OPT_LOAD };

static int parse_opts(int argc, char **argv, dag_opts_t *o)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, OPT_FORMAT },
        { "keep-input-time", no_argument, NULL, OPT_KEEP },
        { "output", required_argument, NULL, 'o' },
        { "json", no_argument, NULL, OPT_JSON },
        { "raw", no_argument, NULL, OPT_RAW },
        { "segment", required_argument, NULL, OPT_SEGMENT },
        { "max-triplets", required_argument, NULL, OPT_MAXT },
        { "batch", required_argument, NULL, OPT_BATCH },
        { "flops", required_argument, NULL, OPT_FLOPS },
        { "mem-bw", required_argument, NULL, OPT_MEMBW },
        { "mem-bandwidth", required_argument, NULL, OPT_MEMBW },
        { "device", required_argument, NULL, OPT_DEVICE },
        { "fp16-flops", required_argument, NULL, OPT_FP16 },
        { "scenario", required_argument, NULL, OPT_SCENARIO },
        { "servers", required_argument, NULL, OPT_SERVERS },
        { "link-bandwidth", required_argument, NULL, OPT_LINK },
        { "rate", required_argument, NULL, OPT_RATE },
        { "load", required_argument, NULL, OPT_LOAD },
        { "seq-len", required_argument, NULL, OPT_SEQ },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    memset(o, 0, sizeof *o);
    ct_dag_load_params_init(&o->load);
    ct_partition_params_init(&o->part);
    ct_zoo_params_init(&o->zoo);
    o->servers = 8;
    o->link_bw = 1.25e9;
    o->busy = 0.5;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT:
            if (!strcmp(optarg, "json"))
                o->load.format = CT_DAG_FORMAT_JSON;
            else if (!strcmp(optarg, "pipedream"))
                o->load.format = CT_DAG_FORMAT_PIPEDREAM;
            else
                return cli_usage("dag", "--format: expected json or pipedream, got '%s'", optarg);
            break;
        case OPT_KEEP: o->load.keep_input_time = 1; break;
        case 'o': o->output = optarg; break;
        case OPT_JSON: o->json = 1; break;
        case OPT_RAW: o->raw = 1; break;
        case OPT_SEGMENT:
            if (cli_parse_size(optarg, &o->segment))
                return cli_usage("dag", "--segment: expected a segment number, got '%s'", optarg);
            o->have_segment = 1;
            break;
        case OPT_MAXT:
            if (cli_parse_size(optarg, &o->part.max_triplets) || o->part.max_triplets == 0)
                return cli_usage("dag", "--max-triplets: expected a positive integer, got '%s'", optarg);
            break;
        case OPT_BATCH:
            if (cli_parse_size(optarg, &o->zoo.batch) || o->zoo.batch == 0)
                return cli_usage("dag", "--batch: expected a positive integer, got '%s'", optarg);
            o->have_batch = 1;
            break;
        case OPT_FLOPS:
            if (cli_parse_double(optarg, &o->zoo.flops_per_s) || o->zoo.flops_per_s <= 0)
                return cli_usage("dag", "--flops: expected a positive FLOP/s value, got '%s'", optarg);
            o->have_flops = 1;
            break;
        case OPT_MEMBW:
            if (cli_parse_double(optarg, &o->zoo.mem_bytes_per_s) || o->zoo.mem_bytes_per_s <= 0)
                return cli_usage("dag", "--mem-bw: expected a positive bytes/s value, got '%s'", optarg);
            o->have_membw = 1;
            break;
        case OPT_DEVICE: o->device = optarg; break;
        case OPT_SCENARIO: o->scenario = optarg; break;
        case OPT_SERVERS:
            if (cli_parse_size(optarg, &o->servers) || o->servers == 0 || o->servers > 1000000)
                return cli_usage("dag", "--servers: expected 1 .. 1000000, got '%s'", optarg);
            break;
        case OPT_LINK:
            if (cli_parse_double(optarg, &o->link_bw) || !(o->link_bw > 0))
                return cli_usage("dag", "--link-bandwidth: expected a positive bytes/s value, got '%s'", optarg);
            break;
        case OPT_RATE:
            if (cli_parse_double(optarg, &o->rate) || !(o->rate > 0))
                return cli_usage("dag", "--rate: expected a positive jobs/s value, got '%s'", optarg);
            break;
        case OPT_LOAD:
            if (cli_parse_double(optarg, &o->busy) || !(o->busy > 0 && o->busy < 1))
                return cli_usage("dag", "--load: expected a fraction in (0, 1), got '%s'", optarg);
            break;
        case OPT_FP16:
            if (cli_parse_double(optarg, &o->fp16_flops) || !(o->fp16_flops > 0))
                return cli_usage("dag", "--fp16-flops: expected a positive FLOP/s value, got '%s'", optarg);
            break;
        case OPT_SEQ:
            if (cli_parse_size(optarg, &o->zoo.seq_len) || o->zoo.seq_len == 0)
                return cli_usage("dag", "--seq-len: expected a positive integer, got '%s'", optarg);
            break;
        case 'h': dag_usage(stdout); return -1;
        default: return cli_usage("dag", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    return 0;
}

/* A path's file name without its folder and the extension ext. */
static void file_stem(const char *path, const char *ext, char *out, size_t n)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(base), el = strlen(ext);
    if (len > el && !strcmp(base + len - el, ext))
        len -= el;
    snprintf(out, n, "%.*s", (int)(len < n - 1 ? len : n - 1), base);
}

/* `dag import --scenario`: one class of the DAG just written to o->output
 * (named in the scenario relative to the scenario's folder, or absolute). */
static ct_status_t write_scenario(const ct_dag_t *d, const dag_opts_t *o, ct_error_t *err)
{
    double total = 0;
    for (size_t i = 0; i < d->n_tasks; i++)
        total += d->time[i];
    double rate = o->rate > 0 ? o->rate : total > 0 ? o->busy * (double)o->servers / total : 0;
    if (!(rate > 0) || !isfinite(rate))
        return ct_error_set(err, CT_EINPUT, "%s: the DAG's tasks take no time: give --rate", o->output);
    char *dag_path = NULL, *sdir = strdup(o->scenario), *ddir = strdup(o->output);
    if (!sdir || !ddir) {
        free(sdir);
        free(ddir);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    char *ss = strrchr(sdir, '/'), *ds = strrchr(ddir, '/');
    if (ss)
        ss[1] = '\0';
    else
        sdir[0] = '\0';
    if (ds)
        ds[1] = '\0';
    else
        ddir[0] = '\0';
    if (!strcmp(sdir, ddir))
        dag_path = strdup(o->output + strlen(ddir));
    else if (o->output[0] == '/')
        dag_path = strdup(o->output);
    else
        dag_path = realpath(o->output, NULL);
    free(sdir);
    free(ddir);
    if (!dag_path)
        return ct_error_set(err, CT_EOUTPUT, "%s: cannot name it from the scenario", o->output);
    cJSON *root = cJSON_CreateObject(), *cl = cJSON_CreateObject(), *classes = cJSON_CreateArray(),
          *c = cJSON_CreateObject();
    int bad = !root || !cl || !classes || !c;
    bad |= ct_json_add_number(cl, "servers", (double)o->servers);
    bad |= ct_json_add_number(cl, "link_bandwidth", o->link_bw);
    char fallback[256]; /* an unnamed DAG: the class is named after its file */
    file_stem(o->output, ".json", fallback, sizeof fallback);
    bad |= ct_json_put(c, "name", cJSON_CreateString(d->name && d->name[0] ? d->name : fallback[0] ? fallback : "model"));
    bad |= ct_json_put(c, "dag", cJSON_CreateString(dag_path));
    bad |= ct_json_add_number(c, "arrival_rate", rate);
    bad |= ct_json_put(classes, NULL, c); /* classes owns c, or c is freed */
    c = NULL;
    bad |= ct_json_put(root, "cluster", cl);
    cl = NULL;
    bad |= ct_json_put(root, "classes", classes);
    classes = NULL;
    free(dag_path);
    ct_status_t st = bad ? ct_error_set(err, CT_ENOMEM, "out of memory") : ct_json_write_file(root, o->scenario, err);
    cJSON_Delete(root);
    return st;
}

/* `dag import onnx`: the device preset, then the overrides; a note on
 * stderr for ops costed without a FLOP formula. */
static int do_import_onnx(const char *path, const dag_opts_t *o)
{
    ct_onnx_params_t p;
    ct_onnx_info_t info;
    ct_error_t err;
    ct_onnx_params_init(&p);
    if (ct_onnx_device_load(cli_data_file("data/onnx/devices.json"), o->device ? o->device : "a100", &p, &err) != CT_OK)
        return cli_fail(&err);
    if (o->have_flops)
        p.flops_per_s = o->zoo.flops_per_s;
    if (o->fp16_flops > 0)
        p.fp16_flops_per_s = o->fp16_flops;
    if (o->have_membw)
        p.mem_bytes_per_s = o->zoo.mem_bytes_per_s;
    p.batch = o->zoo.batch;
    ct_dag_t d;
    ct_dag_init(&d);
    if (ct_onnx_load(&d, path, &p, &info, &err) != CT_OK)
        return cli_fail(&err);
    /* named after the file: exporters name every graph alike ("torch_jit", "main_graph") */
    char name[256];
    file_stem(path, ".onnx", name, sizeof name);
    if (name[0] && ct_dag_set_name(&d, name, &err) != CT_OK) {
        ct_dag_destroy(&d);
        return cli_fail(&err);
    }
    if (o->have_batch && !info.symbolic_batch) {
        ct_dag_destroy(&d);
        fprintf(stderr, "contend: %s: --batch: the model has no symbolic batch dimension (its shapes are static; "
                "export it with a dynamic batch axis)\n", path);
        return 2;
    }
    ct_status_t st = ct_dag_write_json(&d, o->output, &err);
    if (st == CT_OK && o->scenario && write_scenario(&d, o, &err) != CT_OK) {
        ct_dag_destroy(&d);
        return cli_fail(&err);
    }
    if (st == CT_OK) {
        fprintf(stderr, "%s: %zu nodes (opset %lld) -> %zu tasks, %zu edges; %.4g GFLOP, %.6g s of compute\n", path,
                info.nodes, (long long)info.opset, d.n_tasks, d.n_edges, info.flops / 1e9, info.time);
        if (info.constants)
            fprintf(stderr, "  %zu nodes taken as weights (Constant, or computed from weights alone)\n", info.constants);
        if (info.generic)
            fprintf(stderr, "  note: %zu nodes costed as memory-bound (no FLOP formula): %s\n", info.generic,
                    info.generic_ops);
    }
    ct_dag_destroy(&d);
    return st == CT_OK ? 0 : cli_fail(&err);
}

/* Loads FILE and, unless raw, contracts it. */
static int load_maybe_contracted(const char *path, const dag_opts_t *o, int contract, ct_dag_t *out,
                                 ct_contract_info_t *info)
{
    ct_error_t err;
    ct_dag_t dag;
    ct_dag_init(&dag);
    if (ct_dag_load(&dag, path, &o->load, &err) != CT_OK)
        return cli_fail(&err);
    if (!contract) {
        *out = dag;
        return 0;
    }
    ct_status_t st = ct_dag_contract(&dag, out, info, &err);
    ct_dag_destroy(&dag);
    return st == CT_OK ? 0 : cli_fail(&err);
}

static void print_task(FILE *fp, const ct_dag_t *d, size_t v)
{
    size_t nm = ct_dag_member_count(d, v);
    fprintf(fp, "%s", d->ids[v]);
    if (nm == 0)
        fprintf(fp, " (virtual)");
    else if (nm > 1)
        fprintf(fp, " (%zu tasks: %s .. %s)", nm, ct_dag_member(d, v, 0), ct_dag_member(d, v, nm - 1));
}

static cJSON *members_json(const ct_dag_t *d, size_t v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t j = 0; a && j < ct_dag_member_count(d, v); j++)
        cJSON_AddItemToArray(a, cJSON_CreateString(ct_dag_member(d, v, j)));
    return a;
}

static cJSON *task_json(const ct_dag_t *d, size_t v)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "id", d->ids[v]);
    ct_json_add_number(t, "time", d->time[v]);
    cJSON_AddItemToObject(t, "members", members_json(d, v));
    return t;
}

static int do_contract(const char *path, const dag_opts_t *o)
{
    ct_dag_t c;
    ct_contract_info_t info;
    ct_error_t err;
    int rc = load_maybe_contracted(path, o, 1, &c, &info);
    if (rc)
        return rc;
    if (o->output && ct_dag_write_json(&c, o->output, &err) != CT_OK) {
        ct_dag_destroy(&c);
        return cli_fail(&err);
    }
    if (o->json) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "tasks_before", (double)info.tasks_before);
        cJSON_AddNumberToObject(r, "edges_before", (double)info.edges_before);
        cJSON_AddNumberToObject(r, "tasks_after", (double)info.tasks_after);
        cJSON_AddNumberToObject(r, "edges_after", (double)info.edges_after);
        cJSON_AddNumberToObject(r, "rounds", (double)info.rounds);
        rc = cli_print_json(r);
    } else if (!o->output || strcmp(o->output, "-") != 0) {
        printf("%s: %zu tasks, %zu edges -> %zu tasks, %zu edges in %zu rounds\n", path, info.tasks_before,
               info.edges_before, info.tasks_after, info.edges_after, info.rounds);
        if (!o->output)
            for (size_t v = 0; v < c.n_tasks; v++) {
                printf("  ");
                print_task(stdout, &c, v);
                printf("  %.6g s\n", c.time[v]);
            }
    }
    ct_dag_destroy(&c);
    return rc;
}

static int do_split(const char *path, const dag_opts_t *o, int with_triplets)
{
    ct_dag_t d;
    ct_split_t sp;
    ct_error_t err;
    int rc = load_maybe_contracted(path, o, !o->raw, &d, NULL);
    if (rc)
        return rc;
    ct_status_t st = ct_split_compute(&d, &sp, &err);
    ct_dag_destroy(&d);
    if (st != CT_OK)
        return cli_fail(&err);
    if (o->have_segment && o->segment >= sp.n_segments) { /* before printing anything */
        ct_error_set(&err, CT_EINPUT, "%s: --segment: no segment %zu (the DAG has %zu)", path, o->segment,
                     sp.n_segments);
        ct_split_free(&sp);
        return cli_fail(&err);
    }
    const ct_dag_t *g = &sp.dag;
    cJSON *root = o->json ? cJSON_CreateObject() : NULL, *segs = NULL;
    if (o->json) {
        cJSON_AddBoolToObject(root, "virtual_source", sp.virtual_source != 0);
        cJSON_AddBoolToObject(root, "virtual_sink", sp.virtual_sink != 0);
        cJSON *b = cJSON_AddArrayToObject(root, "bottlenecks");
        for (size_t i = 0; i < sp.n_bottlenecks; i++)
            cJSON_AddItemToArray(b, task_json(g, sp.bottlenecks[i]));
        segs = cJSON_AddArrayToObject(root, "segments");
    } else {
        printf("%s: %zu tasks, %zu bottlenecks, %zu segments%s%s\n", path, g->n_tasks, sp.n_bottlenecks,
               sp.n_segments, sp.virtual_source ? ", virtual source added" : "",
               sp.virtual_sink ? ", virtual sink added" : "");
        printf("bottlenecks:");
        for (size_t i = 0; i < sp.n_bottlenecks; i++)
            printf(" %s", g->ids[sp.bottlenecks[i]]);
        printf("\n");
    }
    for (size_t i = 0; i < sp.n_segments && rc == 0; i++) {
        if (o->have_segment && o->segment != i)
            continue;
        const ct_segment_t *s = &sp.segments[i];
        char label[512];
        snprintf(label, sizeof label, "%s: segment %zu (%s -> %s)", path, i, g->ids[s->source], g->ids[s->sink]);
        cJSON *js = NULL;
        if (o->json) {
            js = cJSON_CreateObject();
            cJSON_AddItemToArray(segs, js);
            cJSON_AddNumberToObject(js, "index", (double)i);
            cJSON_AddStringToObject(js, "source", g->ids[s->source]);
            cJSON_AddStringToObject(js, "sink", g->ids[s->sink]);
            cJSON *ts = cJSON_AddArrayToObject(js, "tasks");
            for (size_t k = 0; k < s->n_inner; k++)
                cJSON_AddItemToArray(ts, task_json(g, s->inner[k]));
            cJSON_AddNumberToObject(js, "triplet_count", ct_partition_triplet_count(s->n_inner));
        } else {
            printf("segment %zu: %s -> %s, %zu intermediate tasks, %.0f triplets\n", i, g->ids[s->source],
                   g->ids[s->sink], s->n_inner, ct_partition_triplet_count(s->n_inner));
            for (size_t k = 0; k < s->n_inner; k++) {
                printf("  ");
                print_task(stdout, g, s->inner[k]);
                printf("\n");
            }
        }
        if (!with_triplets)
            continue;
        ct_partitions_t pt;
        if (ct_partitions_enumerate(s->n_inner, &o->part, label, &pt, &err) != CT_OK) {
            rc = cli_fail(&err);
            break;
        }
        cJSON *jt = js ? cJSON_AddArrayToObject(js, "triplets") : NULL;
        for (size_t t = 0; t < pt.n_triplets; t++) {
            const ct_triplet_t *tr = &pt.triplets[t];
            size_t q = pt.n_parts[tr->partition];
            cJSON *o1 = NULL, *parts = NULL, *work = NULL, *cross = NULL;
            if (jt) {
                o1 = cJSON_CreateObject();
                cJSON_AddItemToArray(jt, o1);
                parts = cJSON_AddArrayToObject(o1, "parts");
                cJSON_AddNumberToObject(o1, "k", tr->k);
                cJSON_AddNumberToObject(o1, "l", tr->l);
                work = cJSON_AddArrayToObject(o1, "work");
                cross = cJSON_AddArrayToObject(o1, "crossing");
            } else {
                printf("  #%zu k=%u l=%u parts:", t, tr->k, tr->l);
            }
            for (size_t p = 0; p < q; p++) {
                double w = 0;
                cJSON *part = jt ? cJSON_CreateArray() : NULL;
                if (!jt)
                    printf(" {");
                for (size_t k = 0, first = 1; k < s->n_inner; k++) {
                    if (pt.assign[tr->partition * s->n_inner + k] != p)
                        continue;
                    w += g->time[s->inner[k]];
                    if (part)
                        cJSON_AddItemToArray(part, cJSON_CreateString(g->ids[s->inner[k]]));
                    else
                        printf(first ? "%s" : " %s", g->ids[s->inner[k]]);
                    first = 0;
                }
                if (part) {
                    cJSON_AddItemToArray(parts, part);
                    cJSON_AddItemToArray(work, ct_json_number(w));
                } else
                    printf("}");
            }
            if (!jt)
                printf(" crossing:");
            size_t nc = 0;
            for (size_t j = 0; j < s->n_edges; j++) {
                if (!ct_triplet_crosses(s, &pt, tr, j))
                    continue;
                size_t e = s->edges[j];
                nc++;
                if (cross) {
                    cJSON *ce = cJSON_CreateObject();
                    cJSON_AddStringToObject(ce, "from", g->ids[g->from[e]]);
                    cJSON_AddStringToObject(ce, "to", g->ids[g->to[e]]);
                    ct_json_add_number(ce, "bytes", g->bytes[e]);
                    cJSON_AddItemToArray(cross, ce);
                } else
                    printf(" %s->%s", g->ids[g->from[e]], g->ids[g->to[e]]);
            }
            if (!jt)
                printf("%s\n", nc ? "" : " none");
        }
        ct_partitions_free(&pt);
    }
    ct_split_free(&sp);
    if (root) {
        if (rc) {
            cJSON_Delete(root);
            return rc;
        }
        return cli_print_json(root);
    }
    return rc;
}

static int do_zoo(const char *name, const dag_opts_t *o)
{
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    if (ct_zoo_build(name, &o->zoo, &d, &err) != CT_OK)
        return cli_fail(&err);
    ct_status_t st = ct_dag_write_json(&d, o->output ? o->output : "-", &err);
    if (st == CT_OK && o->output && strcmp(o->output, "-"))
        fprintf(stderr, "contend: wrote %s (%zu tasks, %zu edges)\n", o->output, d.n_tasks, d.n_edges);
    ct_dag_destroy(&d);
    return st == CT_OK ? 0 : cli_fail(&err);
}

static int do_check(const char *path, const dag_opts_t *o)
{
    ct_dag_t d;
    int rc = load_maybe_contracted(path, o, 0, &d, NULL);
    if (rc)
        return rc;
    double total = 0, bytes = 0;
    for (size_t v = 0; v < d.n_tasks; v++)
        total += d.time[v];
    for (size_t e = 0; e < d.n_edges; e++)
        bytes += d.bytes[e];
    if (o->json) {
        /* The same facts as the text line (schema dag-check-json-v1). */
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "file", path);
        if (d.name)
            cJSON_AddStringToObject(r, "name", d.name);
        cJSON_AddNumberToObject(r, "tasks", (double)d.n_tasks);
        cJSON_AddNumberToObject(r, "edges", (double)d.n_edges);
        ct_json_add_number(r, "compute_seconds", total);
        ct_json_add_number(r, "edge_bytes", bytes);
        ct_dag_destroy(&d);
        return cli_print_json(r);
    }
    printf("%s: valid DAG%s%s, %zu tasks, %zu edges, %.6g s of compute, %.6g bytes on edges\n", path,
           d.name ? " " : "", d.name ? d.name : "", d.n_tasks, d.n_edges, total, bytes);
    ct_dag_destroy(&d);
    return 0;
}

int cmd_dag(int argc, char **argv)
{
    if (argc < 2) {
        dag_usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        dag_usage(stdout);
        return 0;
    }
    dag_opts_t o;
    int rc = parse_opts(argc - 1, argv + 1, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    int nargs = argc - 1 - optind;
    char **args = argv + 1 + optind;
    if (!strcmp(sub, "import")) {
        if (nargs != 2 || (strcmp(args[0], "pipedream") && strcmp(args[0], "onnx")))
            return cli_usage("dag", "import: expected 'pipedream FILE' or 'onnx MODEL.onnx'");
        if (!o.output)
            return cli_usage("dag", "import: -o DAG.json is required");
        if (o.scenario && !strcmp(o.output, "-"))
            return cli_usage("dag", "import: --scenario names the DAG file: -o must be a file, not '-'");
        if (!strcmp(args[0], "onnx"))
            return do_import_onnx(args[1], &o);
        o.load.format = CT_DAG_FORMAT_PIPEDREAM;
        ct_dag_t d;
        ct_error_t err;
        ct_dag_init(&d);
        if (ct_dag_load(&d, args[1], &o.load, &err) != CT_OK)
            return cli_fail(&err);
        ct_status_t st = ct_dag_write_json(&d, o.output, &err);
        if (st == CT_OK && o.scenario)
            st = write_scenario(&d, &o, &err);
        ct_dag_destroy(&d);
        return st == CT_OK ? 0 : cli_fail(&err);
    }
    if (nargs != 1)
        return cli_usage("dag", "%s: expected exactly one %s", sub, !strcmp(sub, "zoo") ? "model name" : "FILE");
    if (!strcmp(sub, "check"))
        return do_check(args[0], &o);
    if (!strcmp(sub, "contract"))
        return do_contract(args[0], &o);
    if (!strcmp(sub, "split"))
        return do_split(args[0], &o, 0);
    if (!strcmp(sub, "partitions"))
        return do_split(args[0], &o, 1);
    if (!strcmp(sub, "zoo"))
        return do_zoo(args[0], &o);
    return cli_usage("dag", "unknown subcommand '%s'", sub);
}
