/*
 * cmd_merge.c - `contend merge`: joins the part files of a sharded sweep
 * (--shard I/N) into the file a single run writes.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "ct_sweep.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void merge_usage(FILE *out)
{
    fprintf(out, "usage: contend merge PART... -o OUT\n"
                 "\n"
                 "Joins the parts of a sweep run with --shard I/N (nona sweep, sim sweep, bco sweep,\n"
                 "train sweep, train table) into exactly the file one run without --shard writes.\n"
                 "Every shard 0..N-1 must be given once, all from the same sweep.\n");
}

int cmd_merge(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    const char *output = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'h': merge_usage(stdout); return 0;
        default: return cli_usage("merge", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (!output)
        return cli_usage("merge", "-o OUT is required");
    if (argc - optind < 1)
        return cli_usage("merge", "expected PART files");
    char *kind, **texts;
    size_t n;
    ct_error_t err;
    if (ct_sweep_read_parts(argv + optind, (size_t)(argc - optind), &kind, &n, &texts, &err) != CT_OK)
        return cli_fail(&err);
    int rc;
    if (!cli_sweep_header(kind) && strcmp(kind, "nona-sweep"))
        rc = cli_usage("merge", "%s: unknown sweep kind '%s'", argv[optind], kind);
    else if (!(rc = cli_sweep_write(kind, output, n, NULL, texts)))
        printf("wrote %s (%s, %zu points from %d parts)\n", output, kind, n, argc - optind);
    ct_sweep_texts_free(texts, n);
    free(kind);
    return rc;
}
