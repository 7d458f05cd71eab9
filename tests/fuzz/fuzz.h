/*
 * fuzz.h - what the fuzz harnesses share. Each harness defines
 * LLVMFuzzerTestOneInput for one loader; built with clang and libFuzzer by
 * `make fuzz`, or with replay.c (a plain main over corpus files) inside
 * `make test`, so the committed regression corpus runs under every build.
 *
 * Loaders that take a path get the input through a private temporary file.
 */
#ifndef CT_FUZZ_H
#define CT_FUZZ_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The temporaries fuzz_file made (one per suffix), removed at exit. */
static char fuzz_made[8][256];

static inline void fuzz_cleanup(void)
{
    for (int i = 0; i < 8; i++)
        if (fuzz_made[i][0])
            unlink(fuzz_made[i]);
}

/* Writes data to a per-process temporary file named with suffix; returns
 * its path (static storage) or NULL. The file goes when the process exits. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[256];
    static int registered;
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/contend-fuzz-%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(), suffix);
    if (!registered)
        registered = atexit(fuzz_cleanup) == 0;
    for (int i = 0; i < 8; i++) {
        if (!strcmp(fuzz_made[i], path))
            break;
        if (!fuzz_made[i][0]) {
            snprintf(fuzz_made[i], sizeof fuzz_made[i], "%s", path);
            break;
        }
    }
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return NULL;
    size_t w = fwrite(data, 1, size, fp);
    if (fclose(fp) != 0 || w != size)
        return NULL;
    return path;
}

/* A NUL-terminated copy of the input (loaders of text need one). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (t) {
        memcpy(t, data, size);
        t[size] = '\0';
    }
    return t;
}

#endif
