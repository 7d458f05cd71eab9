/* fuzz_training.c - the training loaders, the first input byte choosing
 * which: bit 2 the online simulator's (ct_train.h) else SJF-BCO's
 * (ct_rar.h); bit 1 the cluster, else the jobs; bit 0 a .csv name. */
#include "fuzz.h"
#include "ct_rar.h"
#include "ct_train.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = fuzz_file(data + 1, size - 1, data[0] & 1 ? ".csv" : ".json");
    if (!path)
        return 0;
    ct_error_t err;
    if (data[0] & 4) { /* the online training simulator's files */
        if (data[0] & 2) {
            ct_train_cluster_t c;
            (void)ct_train_cluster_load(&c, path, &err);
        } else {
            ct_train_jobs_t j;
            if (ct_train_jobs_load(&j, path, &err) == CT_OK)
                ct_train_jobs_free(&j);
        }
    } else if (data[0] & 2) {
        ct_rar_cluster_t c;
        if (ct_rar_cluster_load(&c, path, &err) == CT_OK)
            ct_rar_cluster_free(&c);
    } else {
        ct_rar_jobs_t j;
        if (ct_rar_jobs_load(&j, path, &err) == CT_OK)
            ct_rar_jobs_free(&j);
    }
    unlink(path);
    return 0;
}
