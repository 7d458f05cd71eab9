/* fuzz_pipedream.c - the PipeDream profiler-graph loader. */
#include "fuzz.h"
#include "ct_dag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    ct_dag_parse_pipedream(&d, text, "fuzz", size & 1, &err);
    ct_dag_destroy(&d);
    free(text);
    return 0;
}
