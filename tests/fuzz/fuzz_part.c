/* fuzz_part.c - the part-file reader of `contend merge` (ct_sweep.h): the
 * input is one part file, merged alone (a one-shard sweep) or, when its
 * first byte is odd, beside a fixed valid shard 1/2. */
#include "fuzz.h"
#include "ct_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *p = fuzz_file(data + 1, size - 1, ".part");
    if (!p)
        return 0;
    char path[256], other[300];
    snprintf(path, sizeof path, "%s", p);
    snprintf(other, sizeof other, "%s.other", path);
    static const char shard1[] = "contend-part/1\nkind sim-sweep\npoints 3\nshard 1 2\npoint 1 3\nabc\n";
    FILE *fp = fopen(other, "wb");
    if (fp) {
        fwrite(shard1, 1, sizeof shard1 - 1, fp);
        fclose(fp);
    }
    char *paths[2] = { path, other };
    char *kind = NULL, **texts = NULL;
    size_t n = 0;
    ct_error_t err;
    if (ct_sweep_read_parts(paths, data[0] & 1 ? 2 : 1, &kind, &n, &texts, &err) == CT_OK) {
        ct_sweep_texts_free(texts, n);
        free(kind);
    }
    unlink(other);
    unlink(path);
    return 0;
}
