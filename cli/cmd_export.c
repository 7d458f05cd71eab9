/*
 * cmd_export.c - `contend export`: a lookup file as a flat CSV (one row per
 * triplet of every segment, class and scenario) or as a Kubernetes
 * ConfigMap manifest that carries it to the placement service.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_json.h"
#include "ct_sampler.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIGMAP_MAX ((size_t)1 << 20) /* Kubernetes' limit on a ConfigMap */

static void export_usage(FILE *out)
{
    fprintf(out,
            "usage: contend export LOOKUP.json --format csv|configmap [--name NAME] [-o OUT]\n"
            "\n"
            "csv: one row per placement triplet: scenario,scale,class,arrival_rate,segment,\n"
            "  source,sink,triplet,probability,k,l,parts,predicted_time_s (task lists joined by\n"
            "  '|', parts by ';').\n"
            "configmap: a Kubernetes ConfigMap manifest (YAML) named NAME (default\n"
            "  contend-lookup) with the file under data.lookup.json, for `contend serve`\n"
            "  (at most 1 MiB, Kubernetes' limit). -o: default standard output.\n");
}

/* Prints a JSON array of task ids joined by sep. */
static void put_list(FILE *f, const cJSON *arr, const char *sep)
{
    int first = 1;
    for (const cJSON *x = cJSON_IsArray(arr) ? arr->child : NULL; x; x = x->next)
        if (cJSON_IsString(x)) {
            fprintf(f, "%s%s", first ? "" : sep, x->valuestring);
            first = 0;
        }
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int write_csv(FILE *f, const cJSON *root)
{
    fprintf(f, "scenario,scale,class,arrival_rate,segment,source,sink,triplet,probability,k,l,parts,predicted_time_s\n");
    size_t si = 0;
    const cJSON *scen = cJSON_GetObjectItemCaseSensitive(root, "scenarios");
    for (const cJSON *sc = cJSON_IsArray(scen) ? scen->child : NULL; sc; sc = sc->next, si++) {
        const cJSON *classes = cJSON_GetObjectItemCaseSensitive(sc, "classes");
        for (const cJSON *c = cJSON_IsArray(classes) ? classes->child : NULL; c; c = c->next) {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
            const cJSON *segs = cJSON_GetObjectItemCaseSensitive(c, "segments");
            size_t gi = 0;
            for (const cJSON *g = cJSON_IsArray(segs) ? segs->child : NULL; g; g = g->next, gi++) {
                const cJSON *trs = cJSON_GetObjectItemCaseSensitive(g, "triplets");
                size_t ti = 0;
                for (const cJSON *t = cJSON_IsArray(trs) ? trs->child : NULL; t; t = t->next, ti++) {
                    fprintf(f, "%zu,%.17g,%s,%.17g,%zu,", si, num(sc, "scale"),
                            cJSON_IsString(name) ? name->valuestring : "", num(c, "arrival_rate"), gi);
                    put_list(f, cJSON_GetObjectItemCaseSensitive(g, "source"), "|");
                    fputc(',', f);
                    put_list(f, cJSON_GetObjectItemCaseSensitive(g, "sink"), "|");
                    fprintf(f, ",%zu,%.17g,%.17g,%.17g,", ti, num(t, "probability"), num(t, "k"), num(t, "l"));
                    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(t, "parts");
                    int first = 1;
                    for (const cJSON *p = cJSON_IsArray(parts) ? parts->child : NULL; p; p = p->next) {
                        fputs(first ? "" : ";", f);
                        put_list(f, p, "|");
                        first = 0;
                    }
                    fprintf(f, ",%.17g\n", num(t, "predicted_time"));
                }
            }
        }
    }
    return 0;
}

static int valid_name(const char *s)
{ /* a DNS subdomain, as Kubernetes requires of object names */
    size_t n = strlen(s);
    if (n < 1 || n > 253 || s[0] == '-' || s[0] == '.' || s[n - 1] == '-' || s[n - 1] == '.')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, 'f' }, { "name", required_argument, NULL, 'n' },
        { "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    const char *format = NULL, *name = "contend-lookup", *output = "-";
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'n': name = optarg; break;
        case 'o': output = optarg; break;
        case 'h': export_usage(stdout); return 0;
        default: return cli_usage("export", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage("export", "expected one LOOKUP.json");
    if (!format || (strcmp(format, "csv") && strcmp(format, "configmap")))
        return cli_usage("export", "--format: expected csv or configmap");
    if (!valid_name(name))
        return cli_usage("export", "--name: expected lower-case letters, digits, '-' and '.' (a Kubernetes name), "
                                   "got '%s'",
                         name);
    const char *path = argv[optind];
    /* Validate the file as the service will load it. */
    char msg[512];
    ct_sampler_t *smp;
    if (ct_sampler_load(path, &smp, msg, sizeof msg) != 0) {
        fprintf(stderr, "contend: %s\n", msg);
        return 2;
    }
    ct_sampler_free(smp);
    ct_error_t err;
    char *text;
    size_t len;
    if (ct_read_text_file(path, &text, &len, &err) != CT_OK)
        return cli_fail(&err);
    int rc = 0;
    cJSON *root = NULL;
    if (!strcmp(format, "configmap") && len > CONFIGMAP_MAX) {
        fprintf(stderr, "contend: %s: %zu bytes, over a ConfigMap's 1 MiB: mount the file from a volume instead\n",
                path, len);
        free(text);
        return 2;
    }
    if (!strcmp(format, "csv") && ct_json_parse(text, len, path, &root, &err) != CT_OK) {
        free(text);
        return cli_fail(&err);
    }
    ct_outfile_t out;
    if (ct_outfile_open(&out, output, &err) != CT_OK) {
        cJSON_Delete(root);
        free(text);
        return cli_fail(&err);
    }
    if (root)
        write_csv(out.fp, root);
    else {
        fprintf(out.fp,
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  labels:\n    app.kubernetes.io/name: contend\n"
                "    app.kubernetes.io/component: placement-table\ndata:\n  lookup.json: |\n",
                name);
        for (char *line = text, *nl; *line; line = nl + 1) { /* a literal block: every line indented */
            nl = strchr(line, '\n');
            if (!nl) {
                fprintf(out.fp, "    %s\n", line);
                break;
            }
            fprintf(out.fp, "    %.*s\n", (int)(nl - line), line);
        }
    }
    if (ct_outfile_commit(&out, &err) != CT_OK)
        rc = cli_fail(&err);
    cJSON_Delete(root);
    free(text);
    return rc;
}
