/* fuzz_scenario.c - the scenario loader (DAG paths resolve against the
 * temporary's folder, so most name no file: the error paths get exercised),
 * and the model of what loads. */
#include "fuzz.h"
#include "ct_nona.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".json");
    if (!path)
        return 0;
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, path, &err) == CT_OK) {
        ct_nona_model_t m;
        if (ct_nona_model_build(&s, NULL, &m, &err) == CT_OK)
            ct_nona_model_free(&m);
    }
    ct_scenario_destroy(&s);
    unlink(path);
    return 0;
}
