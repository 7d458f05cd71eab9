/*
 * onnx_import.c - `contend dag import onnx` on the small models of
 * data/onnx (make_models.py): structure, bytes and roofline times worked by
 * hand, symbolic batches, the refusals, and crafted protobufs (garbage,
 * truncation, nesting that would exhaust the stack).
 */
#include "ct_onnx.h"
#include "ct_test.h"

#include <stdlib.h>
#include <string.h>

static size_t task(const ct_dag_t *d, const char *id)
{
    size_t i = SIZE_MAX;
    CHECK_MSG(ct_dag_find(d, id, &i), "no task %s", id);
    return i;
}

static double edge_bytes(const ct_dag_t *d, const char *from, const char *to)
{
    size_t u = task(d, from), v = task(d, to);
    for (size_t e = 0; e < d->n_edges; e++)
        if (d->from[e] == u && d->to[e] == v)
            return d->bytes[e];
    return -1;
}

static ct_status_t load(const char *name, const ct_onnx_params_t *p, ct_dag_t *d, ct_onnx_info_t *info,
                        ct_error_t *err)
{
    char path[256];
    snprintf(path, sizeof path, "data/onnx/%s.onnx", name);
    return ct_onnx_load(d, path, p, info, err);
}

static void residual(void)
{
    ct_onnx_params_t p;
    ct_onnx_info_t info;
    ct_error_t err;
    ct_dag_t d;
    ct_onnx_params_init(&p);
    ct_dag_init(&d);
    CHECK(load("residual", &p, &d, &info, &err) == CT_OK);
    /* five nodes and the request's input; the skip edge input -> add */
    CHECK(d.n_tasks == 6 && d.n_edges == 6 && info.nodes == 5 && info.opset == 13);
    const double act = 1.0 * 16 * 56 * 56 * 4; /* [1, 16, 56, 56] fp32 */
    CHECK(edge_bytes(&d, "input", "conv1") == act);
    CHECK(edge_bytes(&d, "input", "add") == act);
    CHECK(edge_bytes(&d, "conv2", "add") == act);
    CHECK(edge_bytes(&d, "relu2", "input") == -1);
    /* conv 3x3, 16 -> 16 channels: 2 x out elements x 16 x 9 FLOPs, compute-bound on the A100 */
    double conv = 2.0 * 16 * 56 * 56 * 16 * 9;
    CHECK_REL(d.time[task(&d, "conv1")], conv / 19.5e12, 1e-12);
    /* relu: memory-bound, in + out */
    CHECK_REL(d.time[task(&d, "relu1")], 2 * act / 2.039e12, 1e-12);
    CHECK_REL(d.time[task(&d, "add")], 3 * act / 2.039e12, 1e-12);
    CHECK(d.time[task(&d, "input")] == 0);
    CHECK_REL(info.flops, 2 * conv + 3 * 16 * 56 * 56, 1e-12);
    CHECK(info.generic == 0 && info.constants == 0 && !info.symbolic_batch);
    CHECK(d.name && !strcmp(d.name, "residual"));

    /* another device: the same structure, times scale with its roofline */
    CHECK(ct_onnx_device_load("data/onnx/devices.json", "t4", &p, &err) == CT_OK);
    CHECK(p.flops_per_s == 8.1e12 && p.mem_bytes_per_s == 0.32e12);
    CHECK(load("residual", &p, &d, &info, &err) == CT_OK);
    CHECK_REL(d.time[task(&d, "conv1")], conv / 8.1e12, 1e-12);
    CHECK(ct_onnx_device_load("data/onnx/devices.json", "tpu", &p, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "no device named 'tpu' (known: a100, h100");

    /* the node limit */
    ct_onnx_params_init(&p);
    p.max_nodes = 4;
    CHECK(load("residual", &p, &d, &info, &err) == CT_ELIMIT);
    CHECK_ERR(err, CT_ELIMIT, "5 nodes, over the limit of 4");
    CHECK(d.n_tasks == 0);
    ct_dag_destroy(&d);
}

static void branches_and_attention(void)
{
    ct_onnx_info_t info;
    ct_error_t err;
    ct_dag_t d;
    ct_dag_init(&d);
    CHECK(load("branches", NULL, &d, &info, &err) == CT_OK);
    CHECK(d.n_tasks == 9 && d.n_edges == 10);
    CHECK(edge_bytes(&d, "input", "branch1_matmul") == 8 * 32 * 4);
    CHECK(edge_bytes(&d, "branch2_relu", "concat") == 8 * 128 * 4);
    CHECK(edge_bytes(&d, "concat", "head") == 8 * 224 * 4);
    /* MatMul [8, 32] x [32, 64]: 2 x 8 x 64 x 32 FLOPs; memory-bound here */
    double mm = 2.0 * 8 * 64 * 32, moved = (8 * 32 + 32 * 64 + 8 * 64) * 4.0;
    double want = mm / 19.5e12 > moved / 2.039e12 ? mm / 19.5e12 : moved / 2.039e12;
    CHECK_REL(d.time[task(&d, "branch1_matmul")], want, 1e-12);
    CHECK(d.time[task(&d, "concat")] > 0); /* a copy: memory time, no FLOPs */

    CHECK(load("attention", NULL, &d, &info, &err) == CT_OK);

    CHECK(d.n_tasks == info.nodes + 1 - info.constants && info.generic == 0);
    ct_dag_destroy(&d);
}

static void batch_and_refusals(void)
{
    ct_onnx_params_t p;
    ct_onnx_info_t info;
    ct_error_t err;
    ct_dag_t d;
    ct_onnx_params_init(&p);
    ct_dag_init(&d);
    CHECK(load("dynamic", &p, &d, &info, &err) == CT_OK && info.symbolic_batch);
    CHECK(edge_bytes(&d, "input", "conv1") == 16 * 56 * 56 * 4);
    p.batch = 4;
    CHECK(load("dynamic", &p, &d, &info, &err) == CT_OK);
    CHECK(edge_bytes(&d, "input", "conv1") == 4 * 16 * 56 * 56 * 4);

    CHECK(load("no_shapes", NULL, &d, &info, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "data/onnx/no_shapes.onnx: tensor 'm0' (output of node 0 'branch0_matmul', MatMul)");
    CHECK_ERR(err, CT_EINPUT, "shape inference");
    CHECK(load("control_flow", NULL, &d, &info, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "('branch', If): control flow");
    CHECK(load("missing", NULL, &d, &info, &err) == CT_EIO);
    CHECK(d.n_tasks == 0);
    ct_dag_destroy(&d);
}

#ifdef CT_HAVE_ONNX
#include "onnx.pb-c.h"

/* A tensor a node reads twice (Mul(x, x), as a decomposed LayerNorm
 * squares) crosses once: input x [1, 4] float -> Mul(x, x) -> y. */
static void read_twice(void)
{
    int64_t dims[2] = { 1, 4 };
    Onnx__TensorShapeProto__Dimension d0 = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT, d1 = d0;
    d0.value_case = d1.value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    d0.dim_value = dims[0];
    d1.dim_value = dims[1];
    Onnx__TensorShapeProto__Dimension *dv[2] = { &d0, &d1 };
    Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
    shape.n_dim = 2;
    shape.dim = dv;
    Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
    tt.has_elem_type = 1;
    tt.elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    tt.shape = &shape;
    Onnx__TypeProto ty = ONNX__TYPE_PROTO__INIT;
    ty.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    ty.tensor_type = &tt;
    Onnx__ValueInfoProto in = ONNX__VALUE_INFO_PROTO__INIT, out = ONNX__VALUE_INFO_PROTO__INIT;
    in.name = "x";
    in.type = &ty;
    out.name = "y";
    out.type = &ty;
    Onnx__ValueInfoProto *ins[1] = { &in }, *outs[1] = { &out };
    char *ni[2] = { "x", "x" }, *no[1] = { "y" };
    Onnx__NodeProto node = ONNX__NODE_PROTO__INIT;
    node.name = "square";
    node.op_type = "Mul";
    node.n_input = 2;
    node.input = ni;
    node.n_output = 1;
    node.output = no;
    Onnx__NodeProto *nodes[1] = { &node };
    Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
    g.name = "sq";
    g.n_node = 1;
    g.node = nodes;
    g.n_input = g.n_output = 1;
    g.input = ins;
    g.output = outs;
    Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
    m.graph = &g;
    size_t len = onnx__model_proto__get_packed_size(&m);
    uint8_t *buf = malloc(len);
    onnx__model_proto__pack(&m, buf);
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    CHECK(ct_onnx_import(&d, buf, len, "sq", NULL, NULL, &err) == CT_OK);
    CHECK(d.n_tasks == 2 && d.n_edges == 1 && edge_bytes(&d, "input", "square") == 16);
    ct_dag_destroy(&d);
    free(buf);
}
#endif

/* Appends field `num` (length-delimited) holding in[0..n) to out. */
static size_t wrap(unsigned char *out, unsigned num, const unsigned char *in, size_t n)
{
    size_t k = 0;
    out[k++] = (unsigned char)(num << 3 | 2);
    size_t v = n;
    do {
        out[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    memmove(out + k, in, n);
    return k + n;
}

static void crafted(void)
{
    ct_dag_t d;
    ct_error_t err;
    ct_dag_init(&d);
    const char junk[] = "this is not a protobuf at all \xff\xff\xff\xff";
    CHECK(ct_onnx_import(&d, junk, sizeof junk - 1, "junk", NULL, NULL, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "junk: not an ONNX model");
    CHECK(ct_onnx_import(&d, "", 0, "empty", NULL, NULL, &err) == CT_EINPUT);
    CHECK_ERR(err, CT_EINPUT, "empty: no graph");

    /* every prefix of a real model: an error or a DAG, never a crash */
    FILE *f = fopen("data/onnx/attention.onnx", "rb");
    CHECK(f != NULL);
    if (f) {
        unsigned char *buf = malloc(1 << 20);
        size_t n = fread(buf, 1, 1 << 20, f);
        fclose(f);
        size_t ok = 0;
        for (size_t len = 0; len < n; len += 97)
            ok += ct_onnx_import(&d, buf, len, "prefix", NULL, NULL, &err) == CT_OK;
        CHECK(ok < n / 97); /* most prefixes are refused */
        CHECK(ct_onnx_import(&d, buf, n, "whole", NULL, NULL, &err) == CT_OK);
        free(buf);
    }

    /* graph.node.attribute.g nested 40 times: refused before protobuf-c recurses */
    unsigned char *a = calloc(1, 4096), *b = calloc(1, 4096);
    size_t n = 0;
    for (int level = 0; level < 40; level++) {
        n = wrap(b, 6, a, n); /* AttributeProto.g */
        n = wrap(a, 5, b, n); /* NodeProto.attribute */
        n = wrap(b, 1, a, n); /* GraphProto.node */
        memcpy(a, b, n);
    }
    n = wrap(b, 7, a, n); /* ModelProto.graph */
    CHECK(ct_onnx_import(&d, b, n, "deep", NULL, NULL, &err) == CT_ELIMIT);
    CHECK_ERR(err, CT_ELIMIT, "deep: messages nested deeper than 32 levels");
    free(a);
    free(b);
    ct_dag_destroy(&d);
}

int main(void)
{
    if (!ct_onnx_supported()) {
        ct_dag_t d;
        ct_error_t err;
        ct_dag_init(&d);
        CHECK(ct_onnx_load(&d, "data/onnx/residual.onnx", NULL, NULL, &err) == CT_EINPUT);
        CHECK_ERR(err, CT_EINPUT, "install protobuf-c-compiler");
        return ct_test_failed ? ct_test_end() : ct_test_skip("built without protobuf-c (sh .ci/install-deps installs it)");
    }
    residual();
    branches_and_attention();
    batch_and_refusals();
    crafted();
#ifdef CT_HAVE_ONNX
    read_twice();
#endif
    return ct_test_end();
}
