/* fuzz_onnx.c - the ONNX import (protobuf-c unpack, nesting bound, shapes, costs). */
#include "fuzz.h"
#include "ct_onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_onnx_params_t p;
    ct_dag_t d;
    ct_error_t err;
    ct_onnx_params_init(&p);
    p.batch = size & 1 ? 3 : 1;
    ct_dag_init(&d);
    ct_onnx_import(&d, data, size, "fuzz", &p, NULL, &err);
    ct_dag_destroy(&d);
    return 0;
}
