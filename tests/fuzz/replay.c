/*
 * replay.c - runs a fuzz harness over files (the committed regression and
 * seed corpus) without libFuzzer, so `make test` (and asan, valgrind)
 * replays them. Usage: fuzz_NAME FILE_OR_DIR... ; prints "N inputs".
 */
#define _DEFAULT_SOURCE
#include "fuzz.h"

#include <dirent.h>
#include <sys/stat.h>

static int run_file(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + len, 1, cap - len, fp)) > 0;) {
        len += r;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(fp);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    (*n)++;
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: missing\n", argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i], &n);
            continue;
        }
        DIR *d = opendir(argv[i]);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            bad |= run_file(p, &n);
        }
        if (d)
            closedir(d);
    }
    printf("%zu inputs\n", n);
    return bad;
}
