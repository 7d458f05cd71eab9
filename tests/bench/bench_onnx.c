/*
 * bench_onnx.c - the ONNX import against its size: a stack of residual MLP
 * blocks (MatMul, Add bias, Relu, Add skip: four nodes a block) of 1,000
 * and 10,000 nodes with full value_info, weights as shapes without values
 * (as a stripped export; the import never reads them). The model is built
 * and packed with protobuf-c's generated code. Side by side: loading the
 * JSON DAG the import writes (the baseline), and the goal of issue #30
 * (1,000 nodes under 100 ms).
 */
#include "bench_util.h"
#include "ct_onnx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CT_HAVE_ONNX
int main(void)
{
    printf("ONNX import: skipped (built without protobuf-c)\n");
    return 0;
}
#else
#include "onnx.pb-c.h"

static int64_t DIMS[2] = { 1, 512 }, WDIMS[2] = { 512, 512 };

static Onnx__ValueInfoProto *value(const char *name)
{
    Onnx__ValueInfoProto *v = calloc(1, sizeof *v);
    Onnx__TypeProto *t = calloc(1, sizeof *t);
    Onnx__TypeProto__Tensor *tt = calloc(1, sizeof *tt);
    Onnx__TensorShapeProto *sh = calloc(1, sizeof *sh);
    onnx__value_info_proto__init(v);
    onnx__type_proto__init(t);
    onnx__type_proto__tensor__init(tt);
    onnx__tensor_shape_proto__init(sh);
    sh->n_dim = 2;
    sh->dim = calloc(2, sizeof *sh->dim);
    for (int i = 0; i < 2; i++) {
        sh->dim[i] = calloc(1, sizeof **sh->dim);
        onnx__tensor_shape_proto__dimension__init(sh->dim[i]);
        sh->dim[i]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        sh->dim[i]->dim_value = DIMS[i];
    }
    tt->has_elem_type = 1;
    tt->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    tt->shape = sh;
    t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    t->tensor_type = tt;
    v->name = strdup(name);
    v->type = t;
    return v;
}

static Onnx__NodeProto *node(const char *op, const char *name, const char *a, const char *b, const char *out)
{
    Onnx__NodeProto *n = calloc(1, sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = strdup(op);
    n->name = strdup(name);
    n->n_input = b ? 2 : 1;
    n->input = calloc(2, sizeof(char *));
    n->input[0] = strdup(a);
    if (b)
        n->input[1] = strdup(b);
    n->n_output = 1;
    n->output = calloc(1, sizeof(char *));
    n->output[0] = strdup(out);
    return n;
}

/* A packed model of `blocks` blocks; *len its size. */
static uint8_t *build(size_t blocks, size_t *len)
{
    Onnx__ModelProto *m = calloc(1, sizeof *m);
    Onnx__GraphProto *g = calloc(1, sizeof *g);
    Onnx__OperatorSetIdProto *op = calloc(1, sizeof *op);
    onnx__model_proto__init(m);
    onnx__graph_proto__init(g);
    onnx__operator_set_id_proto__init(op);
    op->has_version = 1;
    op->version = 13;
    m->has_ir_version = 1;
    m->ir_version = 7;
    m->n_opset_import = 1;
    m->opset_import = &op;
    m->graph = g;
    g->name = strdup("mlp");
    g->n_node = 4 * blocks;
    g->node = calloc(g->n_node, sizeof *g->node);
    g->n_value_info = 4 * blocks - 1;
    g->value_info = calloc(g->n_value_info, sizeof *g->value_info);
    g->n_initializer = 2 * blocks;
    g->initializer = calloc(g->n_initializer, sizeof *g->initializer);
    g->n_input = g->n_output = 1;
    g->input = calloc(1, sizeof *g->input);
    g->output = calloc(1, sizeof *g->output);
    g->input[0] = value("x0");
    char prev[32] = "x0", w[32], bias[32], mm[32], ad[32], re[32], out[32], nm[32];
    size_t vi = 0;
    for (size_t i = 0; i < blocks; i++) {
        snprintf(w, sizeof w, "w%zu", i);
        snprintf(bias, sizeof bias, "b%zu", i);
        for (int k = 0; k < 2; k++) {
            Onnx__TensorProto *t = calloc(1, sizeof *t);
            onnx__tensor_proto__init(t);
            t->name = strdup(k ? bias : w);
            t->n_dims = k ? 1 : 2;
            t->dims = malloc(2 * sizeof(int64_t));
            memcpy(t->dims, k ? DIMS + 1 : WDIMS, t->n_dims * sizeof(int64_t));
            t->has_data_type = 1;
            t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
            g->initializer[2 * i + k] = t;
        }
        snprintf(mm, sizeof mm, "mm%zu", i);
        snprintf(ad, sizeof ad, "ad%zu", i);
        snprintf(re, sizeof re, "re%zu", i);
        snprintf(out, sizeof out, "x%zu", i + 1);
        snprintf(nm, sizeof nm, "matmul%zu", i);
        g->node[4 * i] = node("MatMul", nm, prev, w, mm);
        snprintf(nm, sizeof nm, "bias%zu", i);
        g->node[4 * i + 1] = node("Add", nm, mm, bias, ad);
        snprintf(nm, sizeof nm, "relu%zu", i);
        g->node[4 * i + 2] = node("Relu", nm, ad, NULL, re);
        snprintf(nm, sizeof nm, "skip%zu", i);
        g->node[4 * i + 3] = node("Add", nm, re, prev, out);
        g->value_info[vi++] = value(mm);
        g->value_info[vi++] = value(ad);
        g->value_info[vi++] = value(re);
        if (i + 1 < blocks)
            g->value_info[vi++] = value(out);
        memcpy(prev, out, sizeof prev);
    }
    g->output[0] = value(prev);
    *len = onnx__model_proto__get_packed_size(m);
    uint8_t *buf = malloc(*len);
    onnx__model_proto__pack(m, buf);
    m->n_opset_import = 0; /* op was not malloc'd as an array */
    m->opset_import = NULL;
    onnx__model_proto__free_unpacked(m, NULL); /* every field was malloc'd */
    free(op);
    return buf;
}

static double median_of(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n / 2];
}

int main(void)
{
    printf("ONNX import: residual MLP blocks (4 nodes each), median of 9 runs; baseline: loading the JSON DAG it writes\n");
    printf("  %8s %10s | %12s %12s %8s | %s\n", "nodes", "bytes", "ONNX import", "JSON load", "ratio", "goal");
    const size_t blocks[] = { 250, 2500 };
    for (size_t s = 0; s < 2; s++) {
        size_t len;
        uint8_t *buf = build(blocks[s], &len);
        ct_dag_t d;
        ct_error_t err;
        ct_dag_init(&d);
        double ti[9], tj[9];
        char *json = NULL;
        for (int r = 0; r < 9; r++) {
            double t0 = bench_now();
            if (ct_onnx_import(&d, buf, len, "bench", NULL, NULL, &err) != CT_OK) {
                fprintf(stderr, "bench_onnx: %s\n", err.msg);
                return 1;
            }
            ti[r] = bench_now() - t0;
            if (!json && ct_dag_to_json_text(&d, &json, &err) != CT_OK)
                return 1;
            t0 = bench_now();
            if (ct_dag_parse_json(&d, json, strlen(json), "bench.json", &err) != CT_OK)
                return 1;
            tj[r] = bench_now() - t0;
        }
        double a = median_of(ti, 9), b = median_of(tj, 9);
        printf("  %8zu %10zu | %9.2f ms %9.2f ms %7.2fx | %s\n", 4 * blocks[s], len, 1e3 * a, 1e3 * b, a / b,
               s == 0 ? (a < 0.1 ? "under 100 ms: met" : "under 100 ms: NOT met") : "");
        free(json);
        ct_dag_destroy(&d);
        free(buf);
    }
    return 0;
}
#endif
