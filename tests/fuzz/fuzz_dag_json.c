/* fuzz_dag_json.c - the JSON DAG loader (and contraction and split of what loads). */
#include "fuzz.h"
#include "ct_contract.h"
#include "ct_split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    ct_dag_t d, c;
    ct_error_t err;
    ct_dag_init(&d);
    if (ct_dag_parse_json(&d, text, size, "fuzz", &err) == CT_OK && d.n_tasks <= 2000) {
        ct_split_t sp;
        if (ct_dag_contract(&d, &c, NULL, &err) == CT_OK)
            ct_dag_destroy(&c);
        if (ct_split_compute(&d, &sp, &err) == CT_OK)
            ct_split_free(&sp);
    }
    ct_dag_destroy(&d);
    free(text);
    return 0;
}
