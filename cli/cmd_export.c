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
#define KUBECTL_APPLY_MAX ((size_t)240 << 10) /* the last-applied annotation's 256 KiB, less the manifest around it */

static void export_usage(FILE *out)
{
    fprintf(out,
            "usage: contend export LOOKUP.json --format csv|configmap [--name NAME] [-o OUT]\n"
            "\n"
            "csv: one row per placement triplet: scenario,scale,class,arrival_rate,segment,\n"
            "  source,sink,triplet,probability,k,l,parts,predicted_time_s (task lists joined by\n"
            "  '|', parts by ';'; fields with commas or quotes quoted as RFC 4180 says).\n"
            "configmap: a Kubernetes ConfigMap manifest (YAML) named NAME (default\n"
            "  contend-lookup) with the file under data.lookup.json, for `contend serve`\n"
            "  (at most 1 MiB, Kubernetes' limit; over 240 KiB a warning: client-side\n"
            "  'kubectl apply' refuses it, use --server-side). NAME: a DNS-1123 subdomain.\n"
            "  -o: default standard output.\n");
}

/* Appends a JSON array's strings joined by sep to f (a field being built). */
static void put_list(FILE *f, const cJSON *arr, const char *sep)
{
    int first = 1;
    for (const cJSON *x = cJSON_IsArray(arr) ? arr->child : NULL; x; x = x->next)
        if (cJSON_IsString(x)) {
            fprintf(f, "%s%s", first ? "" : sep, x->valuestring);
            first = 0;
        }
}

/* A field assembled in memory (fb, then ct_csv_put_n). */
typedef struct {
    char *b;
    size_t n;
    FILE *m;
} field_t;

static FILE *field_open(field_t *fd)
{
    fd->b = NULL;
    fd->n = 0;
    return fd->m = open_memstream(&fd->b, &fd->n);
}

static int field_put(field_t *fd, FILE *f)
{
    if (!fd->m || fclose(fd->m) != 0 || !fd->b) {
        free(fd->b);
        return -1;
    }
    ct_csv_put_n(f, fd->b, fd->n);
    free(fd->b);
    return 0;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int write_csv(FILE *f, const cJSON *root)
{
    field_t fd;
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
                    const char *cn = cJSON_IsString(name) ? name->valuestring : "";
                    fprintf(f, "%zu,%.17g,", si, num(sc, "scale"));
                    ct_csv_put(f, cn);
                    fprintf(f, ",%.17g,%zu,", num(c, "arrival_rate"), gi);
                    if (!field_open(&fd))
                        return -1;
                    put_list(fd.m, cJSON_GetObjectItemCaseSensitive(g, "source"), "|");
                    if (field_put(&fd, f) || !field_open(&fd))
                        return -1;
                    fputc(',', f);
                    put_list(fd.m, cJSON_GetObjectItemCaseSensitive(g, "sink"), "|");
                    if (field_put(&fd, f) || !field_open(&fd))
                        return -1;
                    fprintf(f, ",%zu,%.17g,%.17g,%.17g,", ti, num(t, "probability"), num(t, "k"), num(t, "l"));
                    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(t, "parts");
                    int first = 1;
                    for (const cJSON *p = cJSON_IsArray(parts) ? parts->child : NULL; p; p = p->next) {
                        fputs(first ? "" : ";", fd.m);
                        put_list(fd.m, p, "|");
                        first = 0;
                    }
                    if (field_put(&fd, f))
                        return -1;
                    fprintf(f, ",%.17g\n", num(t, "predicted_time"));
                }
            }
        }
    }
    return 0;
}

static int alnum_lower(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static int valid_name(const char *s)
{ /* a DNS-1123 subdomain, as Kubernetes requires of object names: at most 253
   * characters, labels of 1-63 lower-case letters, digits and '-' separated
   * by '.', each starting and ending with a letter or digit */
    size_t n = strlen(s);
    if (n < 1 || n > 253)
        return 0;
    for (const char *l = s; l <= s + n;) {
        size_t k = strcspn(l, ".");
        if (k < 1 || k > 63 || !alnum_lower(l[0]) || !alnum_lower(l[k - 1]))
            return 0;
        for (size_t i = 0; i < k; i++)
            if (!alnum_lower(l[i]) && l[i] != '-')
                return 0;
        l += k + 1;
    }
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
    if (root && write_csv(out.fp, root) != 0) {
        ct_outfile_abort(&out);
        cJSON_Delete(root);
        free(text);
        fprintf(stderr, "contend: export: out of memory\n");
        return 1;
    }
    if (!root) {
        /* The literal block's chomping keeps the file's own end: "|-" without
         * a final newline, "|" with one, "|+" with more; the indentation
         * indicator (2) in case the file starts with spaces. */
        size_t nl_end = 0;
        while (nl_end < len && text[len - 1 - nl_end] == '\n')
            nl_end++;
        fprintf(out.fp,
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  labels:\n    app.kubernetes.io/name: contend\n"
                "    app.kubernetes.io/component: placement-table\ndata:\n  lookup.json: |2%s\n",
                name, nl_end == 0 ? "-" : nl_end == 1 ? "" : "+");
        if (len > KUBECTL_APPLY_MAX)
            fprintf(stderr,
                    "contend: warning: %s: %zu bytes: 'kubectl apply' (client-side) keeps a copy in an annotation "
                    "capped at 256 KiB and will refuse it; use 'kubectl apply --server-side' or 'kubectl create' / "
                    "'replace'\n",
                    path, len);
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
