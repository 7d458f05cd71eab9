/*
 * onnx_import.c - an ONNX model as a task DAG (see ct_onnx.h).
 *
 * Design: protobuf-c unpacks the whole ModelProto with the code protoc-c
 * generates from ONNX's onnx.proto (never a hand-written decoder). Before
 * that, a walk over the wire format guided by the same generated
 * descriptors bounds the nesting of messages (subgraphs and types nest
 * without limit in the schema, and protobuf-c unpacks them recursively: a
 * crafted file must not exhaust the stack). The import then maps tensor
 * names to their shapes (graph input, output, value_info, initializers,
 * Constant nodes) and to their producers, adds a task per node and an edge
 * per producer -> consumer pair (bytes summed over the tensors between
 * them), and prices each node with a roofline. Weights are never
 * transfers. Everything the protobuf allocated is freed on every path.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_onnx.h"
#include "ct_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ct_onnx_params_init(ct_onnx_params_t *p)
{
    *p = (ct_onnx_params_t){ .flops_per_s = 19.5e12, .fp16_flops_per_s = 312e12, .mem_bytes_per_s = 2.039e12,
                             .batch = 1, .max_nodes = 1000000 };
}

ct_status_t ct_onnx_load(ct_dag_t *dag, const char *path, const ct_onnx_params_t *p, ct_onnx_info_t *info,
                         ct_error_t *err)
{
    char *buf;
    size_t len;
    ct_dag_destroy(dag);
    ct_status_t st = ct_read_text_file(path, &buf, &len, err);
    if (st != CT_OK)
        return st;
    st = ct_onnx_import(dag, buf, len, path, p, info, err);
    free(buf);
    return st;
}

ct_status_t ct_onnx_device_load(const char *path, const char *name, ct_onnx_params_t *p, ct_error_t *err)
{
    cJSON *root;
    ct_status_t st = ct_json_load_file(path, &root, err);
    if (st != CT_OK)
        return st;
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
    char known[256] = "";
    size_t kn = 0;
    if (!cJSON_IsArray(devs)) {
        st = ct_error_set(err, CT_EINPUT, "%s: devices: missing or not an array", path);
        goto done;
    }
    size_t i = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, devs) {
        char item[32];
        snprintf(item, sizeof item, "devices[%zu]", i++);
        const char *dn = NULL;
        if ((st = ct_json_get_string(d, "name", 1, path, item, &dn, err)) != CT_OK)
            goto done;
        if (kn < sizeof known - 1)
            kn += (size_t)snprintf(known + kn, sizeof known - kn, "%s%s", kn ? ", " : "", dn);
        if (kn >= sizeof known)
            kn = sizeof known - 1;
        if (strcmp(dn, name) != 0)
            continue;
        double f32 = 0, f16 = 0, bw = 0;
        if ((st = ct_json_get_number(d, "fp32_flops", 1, path, item, &f32, err)) != CT_OK ||
            (st = ct_json_get_number(d, "fp16_flops", 1, path, item, &f16, err)) != CT_OK ||
            (st = ct_json_get_number(d, "mem_bandwidth", 1, path, item, &bw, err)) != CT_OK)
            goto done;
        if (!(f32 > 0 && isfinite(f32)) || !(f16 > 0 && isfinite(f16)) || !(bw > 0 && isfinite(bw))) {
            st = ct_error_set(err, CT_EINPUT, "%s: %s: fp32_flops, fp16_flops and mem_bandwidth must be positive",
                              path, item);
            goto done;
        }
        p->flops_per_s = f32;
        p->fp16_flops_per_s = f16;
        p->mem_bytes_per_s = bw;
        st = CT_OK;
        goto done;
    }
    st = ct_error_set(err, CT_EINPUT, "%s: no device named '%s' (known: %s)", path, name, known);
done:
    cJSON_Delete(root);
    return st;
}

#ifndef CT_HAVE_ONNX

int ct_onnx_supported(void)
{
    return 0;
}

ct_status_t ct_onnx_import(ct_dag_t *dag, const void *buf, size_t len, const char *label,
                           const ct_onnx_params_t *p, ct_onnx_info_t *info, ct_error_t *err)
{
    (void)buf;
    (void)len;
    (void)p;
    (void)info;
    ct_dag_destroy(dag);
    return ct_error_set(err, CT_EINPUT,
                        "%s: this build reads no ONNX: install protobuf-c-compiler, libprotobuf-c-dev and "
                        "libonnx-dev ('sh .ci/install-deps') and rebuild",
                        label);
}

#else /* CT_HAVE_ONNX */

#include "onnx.pb-c.h"

int ct_onnx_supported(void)
{
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Nesting bound on the wire format, guided by the generated descriptors.   */

#define MAX_DEPTH 32

static int read_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *pp < end; shift += 7) {
        uint8_t b = *(*pp)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

/* 1: within the bound, or malformed (protobuf-c then says so); 0: nested
 * deeper than MAX_DEPTH. Each byte is visited once per enclosing level. */
static int depth_ok(const uint8_t *p, const uint8_t *end, const ProtobufCMessageDescriptor *d, int depth)
{
    if (depth > MAX_DEPTH)
        return 0;
    while (p < end) {
        uint64_t key, n;
        if (!read_varint(&p, end, &key))
            return 1;
        switch (key & 7) {
        case 0:
            if (!read_varint(&p, end, &n))
                return 1;
            break;
        case 1:
            if (end - p < 8)
                return 1;
            p += 8;
            break;
        case 5:
            if (end - p < 4)
                return 1;
            p += 4;
            break;
        case 2: {
            if (!read_varint(&p, end, &n) || n > (uint64_t)(end - p))
                return 1;
            const ProtobufCFieldDescriptor *f =
                key >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)(key >> 3)) : NULL;
            if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
                !depth_ok(p, p + n, (const ProtobufCMessageDescriptor *)f->descriptor, depth + 1))
                return 0;
            p += n;
            break;
        }
        default:
            return 1; /* groups and invalid wire types: protobuf-c refuses them */
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Tensors: name -> shape, element type and producer.                       */

typedef struct {
    const char *name;     /* borrowed from the unpacked model */
    int elem;             /* TensorProto.DataType, 0 if unknown */
    int known;            /* shape known (every dimension resolved) */
    int weight;           /* initializer or Constant output: not a transfer */
    int graph_input;      /* a graph input that is not an initializer */
    size_t producer;      /* task number, or SIZE_MAX */
    double elems;         /* elements (exact below 2^53; bounded by 2^62) */
    size_t ndims;
    const char *why;      /* when !known: what is missing (for the message) */
    int64_t dims[8];      /* the first 8 dimensions (for the FLOP formulas) */
} tensor_t;

typedef struct {
    const char *label;
    const ct_onnx_params_t *p;
    ct_onnx_info_t *info;
    ct_error_t *err;
    ct_strmap_t index;    /* name -> tensors[] */
    tensor_t *t;
    size_t n, cap;
} tmap_t;

static size_t elem_size(int type)
{
    switch (type) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
        return 1;
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
        return 2;
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
        return 4;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    case ONNX__TENSOR_PROTO__DATA_TYPE__COMPLEX64:
        return 8;
    case ONNX__TENSOR_PROTO__DATA_TYPE__COMPLEX128:
        return 16;
    default:
        return 0; /* UNDEFINED, STRING, unknown codes */
    }
}

static tensor_t *tensor_get(tmap_t *m, const char *name)
{
    size_t k;
    return ct_strmap_get(&m->index, name, &k) ? &m->t[k] : NULL;
}

/* The entry for name, created empty if new; NULL on OOM (err set). */
static tensor_t *tensor_at(tmap_t *m, const char *name)
{
    tensor_t *x = tensor_get(m, name);
    if (x)
        return x;
    if (m->n == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 64;
        tensor_t *nt = realloc(m->t, nc * sizeof *nt);
        if (!nt)
            goto oom;
        m->t = nt;
        m->cap = nc;
    }
    if (ct_strmap_put(&m->index, name, m->n) != CT_OK)
        goto oom;
    x = &m->t[m->n++];
    memset(x, 0, sizeof *x);
    x->name = name;
    x->producer = SIZE_MAX;
    x->why = "no shape in the graph's input, output or value_info";
    return x;
oom:
    ct_error_set(m->err, CT_ENOMEM, "%s: out of memory", m->label);
    return NULL;
}

#define MAX_ELEMS 4611686018427387904.0 /* 2^62 */

/* Shape from dimensions; sym[i] non-NULL marks a symbolic dimension. */
static ct_status_t set_dims(tmap_t *m, tensor_t *x, size_t nd, const int64_t *val, const char *const *sym,
                            const int *unset)
{
    double e = 1;
    x->known = 0;
    x->ndims = nd;
    for (size_t i = 0; i < nd; i++) {
        int64_t v;
        if (unset && unset[i]) {
            x->why = "a dimension with neither a value nor a name";
            return CT_OK;
        } else if (sym && sym[i]) {
            if (i != 0) {
                x->why = "a symbolic dimension other than the first (batch)";
                return CT_OK;
            }
            v = (int64_t)m->p->batch;
            if (m->info)
                m->info->symbolic_batch = 1;
        } else {
            v = val[i];
        }
        if (v < 0)
            return ct_error_set(m->err, CT_EINPUT, "%s: tensor '%s': dimension %zu is negative (%lld)", m->label,
                                x->name, i, (long long)v);
        if (i < 8)
            x->dims[i] = v;
        e *= (double)v;
        if (e > MAX_ELEMS)
            return ct_error_set(m->err, CT_ELIMIT, "%s: tensor '%s': more than 2^62 elements", m->label,
                                x->name);
    }
    x->elems = e;
    x->known = 1;
    return CT_OK;
}

static ct_status_t add_value_info(tmap_t *m, const Onnx__ValueInfoProto *vi, const char *where)
{
    if (!vi->name || !vi->name[0])
        return ct_error_set(m->err, CT_EINPUT, "%s: graph %s: a value without a name", m->label, where);
    tensor_t *x = tensor_at(m, vi->name);
    if (!x)
        return CT_ENOMEM;
    const Onnx__TypeProto *tp = vi->type;
    if (!tp)
        return CT_OK;
    if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
        return ct_error_set(m->err, CT_EINPUT, "%s: tensor '%s' (graph %s): not a dense tensor (sequence, map, "
                            "optional and sparse types are not supported)", m->label, vi->name, where);
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    if (tt->has_elem_type) {
        if (elem_size(tt->elem_type) == 0)
            return ct_error_set(m->err, CT_EINPUT, "%s: tensor '%s': element type %d has no fixed size "
                                "(string or unknown)", m->label, vi->name, (int)tt->elem_type);
        x->elem = tt->elem_type;
    }
    if (!tt->shape)
        return CT_OK; /* rank unknown */
    size_t nd = tt->shape->n_dim;
    int64_t val[64];
    const char *sym[64];
    int unset[64];
    if (nd > 64)
        return ct_error_set(m->err, CT_EINPUT, "%s: tensor '%s': %zu dimensions (at most 64)", m->label,
                            vi->name, nd);
    for (size_t i = 0; i < nd; i++) {
        const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
        val[i] = 0;
        sym[i] = NULL;
        unset[i] = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE__NOT_SET;
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            val[i] = d->dim_value;
        else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
            sym[i] = d->dim_param ? d->dim_param : "?";
    }
    return set_dims(m, x, nd, val, sym, unset);
}

static ct_status_t add_weight(tmap_t *m, const char *name, const Onnx__TensorProto *t)
{
    tensor_t *x = tensor_at(m, name);
    if (!x)
        return CT_ENOMEM;
    x->weight = 1;
    x->graph_input = 0;
    if (!t)
        return CT_OK;
    if (t->has_data_type && elem_size(t->data_type))
        x->elem = t->data_type;
    if (t->n_dims > 64)
        return ct_error_set(m->err, CT_EINPUT, "%s: weight '%s': %zu dimensions (at most 64)", m->label, name,
                            t->n_dims);
    return set_dims(m, x, t->n_dims, t->dims, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* Cost model.                                                              */

static int op_is(const char *op, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(op, *list))
            return 1;
    return 0;
}

static const char *const VIEWS[] = { "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout",
                                     "Shape", "Size", NULL };
static const char *const COPIES[] = { "Transpose", "Concat", "Slice", "Gather", "GatherElements", "GatherND",
                                      "Split", "Pad", "Cast", "Expand", "Tile", "Resize", "Upsample",
                                      "DepthToSpace", "SpaceToDepth", "ScatterND", "ScatterElements",
                                      "ConstantOfShape", "Range", "NonZero", "TopK", "ArgMax", "ArgMin", NULL };
static const char *const ELEMENTWISE[] = {
    "Relu", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
    "Softplus", "Softsign", "Gelu", "Erf", "Exp", "Log", "Sqrt", "Reciprocal", "Neg", "Abs", "Pow", "Sin",
    "Cos", "Floor", "Ceil", "Round", "Sign", "Clip", "Add", "Sub", "Mul", "Div", "Mod", "Min", "Max", "Sum",
    "Mean", "Where", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Not", "And", "Or", "Xor",
    "IsNaN", "IsInf", "QuantizeLinear", "DequantizeLinear", "BitShift", "Trilu", "Mish", NULL
};
static const char *const NORMS[] = { "BatchNormalization", "InstanceNormalization", "LayerNormalization",
                                     "GroupNormalization", "LpNormalization", "MeanVarianceNormalization",
                                     "LRN", NULL };
static const char *const SOFTMAX[] = { "Softmax", "LogSoftmax", "Hardmax", NULL };
static const char *const REDUCE[] = { "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                                      "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
                                      "ReduceSumSquare", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool",
                                      "CumSum", NULL };
static const char *const POOLS[] = { "MaxPool", "AveragePool", "LpPool", NULL };
static const char *const CONTROL[] = { "If", "Loop", "Scan", NULL };

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *nd, const char *name)
{
    for (size_t i = 0; i < nd->n_attribute; i++)
        if (nd->attribute[i]->name && !strcmp(nd->attribute[i]->name, name))
            return nd->attribute[i];
    return NULL;
}

static int64_t attr_int(const Onnx__NodeProto *nd, const char *name, int64_t dflt)
{
    const Onnx__AttributeProto *a = attr(nd, name);
    return a && a->has_i ? a->i : dflt;
}

/* Product of a weight's dimensions from index `from` on (kernel sizes). */
static double dims_from(const tensor_t *w, size_t from)
{
    double e = 1;
    for (size_t i = from; i < w->ndims && i < 8; i++)
        e *= (double)w->dims[i];
    return e;
}

/* Input i of the node, or NULL (absent or optional and empty). */
static tensor_t *node_in(tmap_t *m, const Onnx__NodeProto *nd, size_t i)
{
    return i < nd->n_input && nd->input[i] && nd->input[i][0] ? tensor_get(m, nd->input[i]) : NULL;
}

/* FLOPs of a node; *generic = 1 when no formula applies. in0/out0 have known
 * shapes (checked by the caller) or are NULL. */
static double node_flops(tmap_t *m, const Onnx__NodeProto *nd, const tensor_t *out0, int *generic)
{
    const char *op = nd->op_type;
    double o = out0 ? out0->elems : 0;
    const tensor_t *a = node_in(m, nd, 0), *w = node_in(m, nd, 1);
    *generic = 0;
    if (op_is(op, VIEWS) || op_is(op, COPIES))
        return 0;
    if (!strcmp(op, "Conv") || !strcmp(op, "ConvInteger") || !strcmp(op, "QLinearConv")) {
        w = node_in(m, nd, !strcmp(op, "QLinearConv") ? 3 : 1);
        if (w && w->known && w->ndims >= 2)
            return 2 * o * (double)w->dims[1] * dims_from(w, 2);
    } else if (!strcmp(op, "ConvTranspose")) { /* W: [C_in, M / group, kernel...] */
        if (w && w->known && w->ndims >= 2 && a && a->known)
            return 2 * a->elems * (double)w->dims[1] * dims_from(w, 2);
    } else if (!strcmp(op, "MatMul") || !strcmp(op, "MatMulInteger") || !strcmp(op, "QLinearMatMul")) {
        if (a && a->known && a->ndims >= 1 && a->ndims <= 8)
            return 2 * o * (double)a->dims[a->ndims - 1];
    } else if (!strcmp(op, "Gemm")) {
        if (a && a->known && a->ndims == 2)
            return 2 * o * (double)a->dims[attr_int(nd, "transA", 0) ? 0 : 1] + (nd->n_input > 2 ? o : 0);
    } else if (op_is(op, POOLS)) {
        const Onnx__AttributeProto *k = attr(nd, "kernel_shape");
        double ke = 1;
        for (size_t i = 0; k && i < k->n_ints; i++)
            ke *= (double)(k->ints[i] > 0 ? k->ints[i] : 1);
        return o * ke;
    } else if (op_is(op, ELEMENTWISE)) {
        return o;
    } else if (op_is(op, NORMS)) {
        return 5 * o;
    } else if (op_is(op, SOFTMAX)) {
        return 5 * o;
    } else if (op_is(op, REDUCE)) {
        return a && a->known ? a->elems : o;
    }
    *generic = 1;
    return o;
}

static void note_generic(ct_onnx_info_t *info, const char *op)
{
    size_t len = strlen(info->generic_ops), n = strlen(op);
    const char *p = info->generic_ops;
    while ((p = strstr(p, op)) != NULL) { /* listed already? */
        if ((p == info->generic_ops || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return;
        p += n;
    }
    if (len + n + 6 < sizeof info->generic_ops)
        snprintf(info->generic_ops + len, sizeof info->generic_ops - len, "%s%s", len ? ", " : "", op);
    else if (len + 4 < sizeof info->generic_ops && strcmp(info->generic_ops + (len >= 3 ? len - 3 : 0), "..."))
        snprintf(info->generic_ops + len, sizeof info->generic_ops - len, "...");
}

static int low_precision(int elem)
{
    return elem_size(elem) <= 2 && elem != ONNX__TENSOR_PROTO__DATA_TYPE__BOOL && elem != 0;
}

/* A node (not Constant) with inputs, all of them weights: its outputs are
 * weights too (what an exporter's constant folding left in the graph). */
static int from_weights(tmap_t *m, const Onnx__NodeProto *nd)
{
    size_t n = 0;
    for (size_t k = 0; k < nd->n_input; k++) {
        if (!nd->input[k] || !nd->input[k][0])
            continue;
        const tensor_t *x = tensor_get(m, nd->input[k]);
        if (!x || !x->weight)
            return 0;
        n++;
    }
    return n > 0;
}

/* ------------------------------------------------------------------------ */

static const char *node_name(const Onnx__NodeProto *nd)
{
    return nd->name && nd->name[0] ? nd->name : "unnamed";
}

static ct_status_t unproduced(tmap_t *m, const Onnx__NodeProto *nd, size_t i, const char *tensor)
{
    return ct_error_set(m->err, CT_EINPUT, "%s: tensor '%s' (input of node %zu '%s', %s): produced by no node, and "
                        "neither a graph input nor an initializer", m->label, tensor, i, node_name(nd), nd->op_type);
}

static ct_status_t refuse_node(tmap_t *m, const Onnx__NodeProto *nd, size_t i, const char *why)
{
    return ct_error_set(m->err, CT_EINPUT, "%s: node %zu ('%s', %s): %s", m->label, i,
                        node_name(nd), nd->op_type ? nd->op_type : "?", why);
}

static ct_status_t need_shape(tmap_t *m, const Onnx__NodeProto *nd, size_t i, const tensor_t *x, const char *role)
{
    if (x->known && x->elem)
        return CT_OK;
    return ct_error_set(m->err, CT_EINPUT,
                        "%s: tensor '%s' (%s of node %zu '%s', %s): %s; run ONNX's shape inference first "
                        "(python3 -c \"import onnx, sys; onnx.save(onnx.shape_inference.infer_shapes("
                        "onnx.load(sys.argv[1])), sys.argv[1])\" MODEL.onnx)",
                        m->label, x->name, role, i, node_name(nd), nd->op_type,
                        !x->elem && x->known ? "no element type" : x->why);
}

/* A unique task id for node i: its name, else OP_i; "#k" added on clashes. */
static ct_status_t add_task(ct_dag_t *dag, const char *name, const char *op, size_t i, double time, size_t *idx,
                            ct_error_t *err)
{
    char buf[256];
    if (name && name[0])
        snprintf(buf, sizeof buf, "%.200s", name);
    else
        snprintf(buf, sizeof buf, "%.100s_%zu", op, i);
    size_t base = strlen(buf);
    for (unsigned k = 2; ct_dag_find(dag, buf, NULL); k++)
        snprintf(buf + base, sizeof buf - base, "#%u", k);
    return ct_dag_add_task(dag, buf, time, idx, err);
}

/* Adds bytes to edge (u, v), merging with an edge of v added since first_edge. */
static ct_status_t add_bytes(ct_dag_t *dag, size_t first_edge, size_t u, size_t v, double bytes, ct_error_t *err)
{
    for (size_t e = first_edge; e < dag->n_edges; e++)
        if (dag->from[e] == u && dag->to[e] == v) {
            dag->bytes[e] += bytes;
            return CT_OK;
        }
    return ct_dag_add_edge(dag, u, v, bytes, err);
}

static ct_status_t import_graph(tmap_t *m, const Onnx__ModelProto *model, ct_dag_t *dag)
{
    const Onnx__GraphProto *g = model->graph;
    ct_onnx_info_t *info = m->info;
    ct_error_t *err = m->err;
    ct_status_t st;
    if (g->n_node == 0)
        return ct_error_set(err, CT_EINPUT, "%s: the graph has no nodes", m->label);
    if (g->n_node > m->p->max_nodes)
        return ct_error_set(err, CT_ELIMIT, "%s: %zu nodes, over the limit of %zu", m->label, g->n_node,
                            m->p->max_nodes);
    if (g->n_sparse_initializer)
        return ct_error_set(err, CT_EINPUT, "%s: sparse initializers are not supported", m->label);
    info->nodes = g->n_node;

    /* Shapes: values first, then weights (an initializer listed as an input
     * too is a weight with a default, not request data). */
    for (size_t i = 0; i < g->n_input; i++) {
        if ((st = add_value_info(m, g->input[i], "input")) != CT_OK)
            return st;
        tensor_get(m, g->input[i]->name)->graph_input = 1;
    }
    for (size_t i = 0; i < g->n_output; i++)
        if ((st = add_value_info(m, g->output[i], "output")) != CT_OK)
            return st;
    for (size_t i = 0; i < g->n_value_info; i++)
        if ((st = add_value_info(m, g->value_info[i], "value_info")) != CT_OK)
            return st;
    for (size_t i = 0; i < g->n_initializer; i++) {
        const Onnx__TensorProto *t = g->initializer[i];
        if (!t->name || !t->name[0])
            return ct_error_set(err, CT_EINPUT, "%s: initializer %zu has no name", m->label, i);
        if ((st = add_weight(m, t->name, t)) != CT_OK)
            return st;
    }

    /* Refusals and producers. */
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *nd = g->node[i];
        if (!nd->op_type || !nd->op_type[0])
            return refuse_node(m, nd, i, "no op_type");
        if (op_is(nd->op_type, CONTROL))
            return refuse_node(m, nd, i, "control flow (If, Loop, Scan) is not supported; export the model with "
                               "the branch or the unrolled loop you serve");
        for (size_t a = 0; a < nd->n_attribute; a++)
            if (nd->attribute[a]->g || nd->attribute[a]->n_graphs)
                return refuse_node(m, nd, i, "a graph-valued attribute (a subgraph) is not supported");
        for (size_t f = 0; f < model->n_functions; f++) {
            const Onnx__FunctionProto *fn = model->functions[f];
            if (fn->name && !strcmp(fn->name, nd->op_type) &&
                !strcmp(fn->domain ? fn->domain : "", nd->domain ? nd->domain : ""))
                return refuse_node(m, nd, i, "a model-local function is not supported (inline it first)");
        }
        if (nd->n_output == 0)
            return refuse_node(m, nd, i, "no outputs");
        if (!strcmp(nd->op_type, "Constant")) {
            const Onnx__AttributeProto *v = attr(nd, "value");
            if ((st = add_weight(m, nd->output[0], v ? v->t : NULL)) != CT_OK)
                return st;
            info->constants++;
            continue;
        }
        if (from_weights(m, nd)) { /* computed from weights alone: folded into them */
            for (size_t k = 0; k < nd->n_output; k++)
                if (nd->output[k] && nd->output[k][0]) {
                    tensor_t *x = tensor_get(m, nd->output[k]);
                    if (x && (x->producer != SIZE_MAX || x->graph_input))
                        return refuse_node(m, nd, i, "writes a tensor that something else already defines (not SSA)");
                    if ((st = add_weight(m, nd->output[k], NULL)) != CT_OK)
                        return st;
                }
            info->constants++;
            continue;
        }
        for (size_t k = 0; k < nd->n_output; k++) {
            if (!nd->output[k] || !nd->output[k][0])
                continue; /* an optional output left out */
            tensor_t *x = tensor_at(m, nd->output[k]);
            if (!x)
                return CT_ENOMEM;
            if (x->producer != SIZE_MAX || x->weight || x->graph_input)
                return refuse_node(m, nd, i, "writes a tensor that something else already defines (not SSA)");
            x->producer = i; /* node number for now: tasks numbered below */
        }
    }

    /* Tasks and edges, in node order (ONNX requires topological order;
     * ct_dag_validate reports a cycle if it is not). */
    size_t input_task = SIZE_MAX;
    size_t *task_of = malloc(g->n_node * sizeof *task_of);
    if (!task_of)
        return ct_error_set(err, CT_ENOMEM, "%s: out of memory", m->label);
    for (size_t i = 0; i < g->n_node && input_task == SIZE_MAX; i++) /* request data: task 0 */
        for (size_t k = 0; k < g->node[i]->n_input; k++) {
            const char *name = g->node[i]->input[k];
            const tensor_t *x = name && name[0] ? tensor_get(m, name) : NULL;
            if (x && x->graph_input && !x->weight && strcmp(g->node[i]->op_type, "Constant")) {
                if ((st = add_task(dag, "input", "Input", 0, 0, &input_task, err)) != CT_OK)
                    goto out;
                break;
            }
        }
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *nd = g->node[i];
        task_of[i] = SIZE_MAX;
        if (!strcmp(nd->op_type, "Constant"))
            continue;
        tensor_t *out0 = tensor_get(m, nd->output[0]);
        if (out0 && out0->weight)
            continue; /* folded (from_weights) */
        if (nd->output[0][0] == '\0' || !out0) {
            st = refuse_node(m, nd, i, "its first output has no name");
            goto out;
        }
        if ((st = need_shape(m, nd, i, out0, "output")) != CT_OK)
            goto out;
        double moved = 0;
        for (size_t k = 0; k < nd->n_output; k++) {
            tensor_t *x = nd->output[k][0] ? tensor_get(m, nd->output[k]) : NULL;
            if (x && x->known)
                moved += x->elems * (double)elem_size(x->elem);
        }
        for (size_t k = 0; k < nd->n_input; k++) {
            if (!nd->input[k] || !nd->input[k][0])
                continue;
            tensor_t *x = tensor_get(m, nd->input[k]);
            if (!x) {
                st = unproduced(m, nd, i, nd->input[k]);
                goto out;
            }
            if ((st = need_shape(m, nd, i, x, x->weight ? "weight" : "input")) != CT_OK)
                goto out;
            moved += x->elems * (double)elem_size(x->elem);
        }
        int generic;
        double flops = node_flops(m, nd, out0, &generic);
        double peak = low_precision(out0->elem) ? m->p->fp16_flops_per_s : m->p->flops_per_s;
        double time = 0;
        if (!op_is(nd->op_type, VIEWS)) {
            double tc = flops / peak, tm = moved / m->p->mem_bytes_per_s;
            time = tc > tm ? tc : tm;
        }
        if (generic) {
            info->generic++;
            note_generic(info, nd->op_type);
        }
        info->flops += flops;
        info->time += time;
        if ((st = add_task(dag, nd->name, nd->op_type, i, time, &task_of[i], err)) != CT_OK)
            goto out;
    }
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *nd = g->node[i];
        if (task_of[i] == SIZE_MAX)
            continue;
        size_t first = dag->n_edges;
        for (size_t k = 0; k < nd->n_input; k++) {
            if (!nd->input[k] || !nd->input[k][0])
                continue;
            const tensor_t *x = tensor_get(m, nd->input[k]);
            if (x->weight)
                continue;
            int again = 0; /* a tensor read twice (Mul(x, x)) crosses once */
            for (size_t k2 = 0; k2 < k && !again; k2++)
                again = nd->input[k2] && !strcmp(nd->input[k2], nd->input[k]);
            if (again)
                continue;
            /* Shape and Size read a tensor's metadata, not its data */
            int meta = !strcmp(nd->op_type, "Shape") || !strcmp(nd->op_type, "Size");
            double bytes = meta ? 0 : x->elems * (double)elem_size(x->elem);
            size_t u;
            if (x->producer != SIZE_MAX) {
                u = task_of[x->producer];
                if (x->producer >= i) {
                    st = refuse_node(m, nd, i, "reads a tensor produced by a later node (nodes out of "
                                     "topological order, or a cycle)");
                    goto out;
                }
            } else if (x->graph_input && input_task != SIZE_MAX) {
                u = input_task;
            } else {
                st = unproduced(m, nd, i, nd->input[k]);
                goto out;
            }
            if ((st = add_bytes(dag, first, u, task_of[i], bytes, err)) != CT_OK)
                goto out;
        }
    }
    st = CT_OK;
out:
    free(task_of);
    return st;
}

ct_status_t ct_onnx_import(ct_dag_t *dag, const void *buf, size_t len, const char *label,
                           const ct_onnx_params_t *p, ct_onnx_info_t *info, ct_error_t *err)
{
    ct_onnx_params_t defaults;
    ct_onnx_info_t scratch;
    if (!p) {
        ct_onnx_params_init(&defaults);
        p = &defaults;
    }
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    ct_dag_destroy(dag);
    if (!(p->flops_per_s > 0) || !(p->fp16_flops_per_s > 0) || !(p->mem_bytes_per_s > 0) ||
        !isfinite(p->flops_per_s) || !isfinite(p->fp16_flops_per_s) || !isfinite(p->mem_bytes_per_s))
        return ct_error_set(err, CT_EINPUT, "%s: the peaks and the memory bandwidth must be positive", label);
    if (p->batch == 0 || p->batch > ((size_t)1 << 31))
        return ct_error_set(err, CT_EINPUT, "%s: batch must be 1 .. 2^31", label);
    const uint8_t *b = buf;
    if (!depth_ok(b, b + len, &onnx__model_proto__descriptor, 1))
        return ct_error_set(err, CT_ELIMIT, "%s: messages nested deeper than %d levels", label, MAX_DEPTH);
    Onnx__ModelProto *model = onnx__model_proto__unpack(NULL, len, b);
    if (!model)
        return ct_error_set(err, CT_EINPUT, "%s: not an ONNX model (the protobuf does not parse as a ModelProto)",
                            label);
    ct_status_t st;
    tmap_t m = { label, p, info, err, { 0 }, NULL, 0, 0 };
    ct_strmap_init(&m.index);
    if (!model->graph) {
        st = ct_error_set(err, CT_EINPUT, "%s: no graph (not an ONNX model?)", label);
        goto done;
    }
    info->ir_version = model->has_ir_version ? model->ir_version : 0;
    for (size_t i = 0; i < model->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = model->opset_import[i];
        if ((!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) && o->has_version)
            info->opset = o->version;
    }
    if (info->opset && (info->opset < 7 || info->opset > 21)) {
        st = ct_error_set(err, CT_EINPUT, "%s: opset %lld is outside the range this import knows (7 .. 21)", label,
                          (long long)info->opset);
        goto done;
    }
    if ((st = import_graph(&m, model, dag)) != CT_OK)
        goto done;
    if (model->graph->name && model->graph->name[0] && (st = ct_dag_set_name(dag, model->graph->name, err)) != CT_OK)
        goto done;
    st = ct_dag_validate(dag, label, err);
done:
    if (st != CT_OK)
        ct_dag_destroy(dag);
    ct_strmap_destroy(&m.index);
    free(m.t);
    onnx__model_proto__free_unpacked(model, NULL);
    return st;
}

#endif /* CT_HAVE_ONNX */
