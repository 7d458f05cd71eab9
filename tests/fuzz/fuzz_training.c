/* fuzz_training.c - the training loaders, the first input byte choosing
 * which: bit 3 the sharing simulator's (ct_share.h: bit 1 the apps file,
 * else a workload against a fixed app list), else bit 2 the online
 * simulator's (ct_train.h) else SJF-BCO's (ct_rar.h); bit 1 the cluster,
 * else the jobs; bit 0 a .csv name. */
#include "fuzz.h"
#include "ct_rar.h"
#include "ct_share.h"
#include "ct_train.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = fuzz_file(data + 1, size - 1, data[0] & 1 ? ".csv" : ".json");
    if (!path)
        return 0;
    ct_error_t err;
    if (data[0] & 8) { /* the sharing simulator's files */
        ct_apps_t a;
        if (data[0] & 2) {
            if (ct_apps_load(&a, path, &err) == CT_OK)
                ct_apps_free(&a);
        } else {
            static ct_app_t app = { .name = "bert", .comp_beta = 1, .delta = 1, .init_batch = 1, .local_min = 1,
                                    .local_max = 4, .n_iters = 1, .iters_batch = { 1 }, .iters = { 10 } };
            static double xi = 1;
            ct_apps_t fixed = { .n = 1, .apps = &app, .xi = &xi };
            ct_share_jobs_t j;
            if (ct_share_jobs_load(&j, &fixed, path, &err) == CT_OK)
                ct_share_jobs_free(&j);
        }
    } else if (data[0] & 4) { /* the online training simulator's files */
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
