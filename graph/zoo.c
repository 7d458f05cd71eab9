/*
 * zoo.c - model DAG generators (see ct_zoo.h for the cost assumptions).
 *
 * A small builder tracks each task's output tensor shape (per sample, as
 * channels x height x width, or a flat element count for transformers),
 * derives FLOPs and bytes moved per layer, and adds edges whose size is the
 * source's output. Task ids follow PyTorch module names
 * ("layer2.0.downsample.0", "features.denseblock1.denselayer3.conv2", ...).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_zoo.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void ct_zoo_params_init(ct_zoo_params_t *p)
{
    *p = (ct_zoo_params_t){ .batch = 1, .flops_per_s = 1e13, .mem_bytes_per_s = 5e11, .seq_len = 128 };
}

static const char *const zoo_names[] = { "alexnet", "vgg16", "resnet18", "densenet121", "gpt2", NULL };

const char *const *ct_zoo_models(void)
{
    return zoo_names;
}

/* ------------------------------------------------------------------------ */

#define ZB_MAX 4096

typedef struct {
    size_t c, h, w;      /* per-sample shape; flat tensors use c = elements, h = w = 1 */
} shape_t;

typedef struct {
    ct_dag_t *d;
    const ct_zoo_params_t *p;
    ct_error_t *err;
    ct_status_t st;
    shape_t shape[ZB_MAX];
    double act[ZB_MAX];  /* output activation bytes for the whole batch */
} zb_t;

static size_t elems(shape_t s)
{
    return s.c * s.h * s.w;
}

/* Adds a task. flops and param_bytes are per query (whole batch) and per
 * model; free_op marks layers that move no data (Size, View, Dropout). */
static size_t zb_node(zb_t *b, const char *name, const size_t *in, size_t nin, shape_t out, double flops,
                      double param_bytes, int free_op, double fixed_out_bytes)
{
    if (b->st != CT_OK)
        return 0;
    if (b->d->n_tasks >= ZB_MAX) {
        b->st = ct_error_set(b->err, CT_EINTERNAL, "zoo: model too large");
        return 0;
    }
    double batch = (double)b->p->batch;
    double out_bytes = fixed_out_bytes > 0 ? fixed_out_bytes : 4.0 * batch * (double)elems(out);
    double moved = out_bytes + param_bytes;
    for (size_t i = 0; i < nin; i++)
        moved += b->act[in[i]];
    double t = free_op ? 0.0 : batch * flops / b->p->flops_per_s + moved / b->p->mem_bytes_per_s;
    size_t v;
    if ((b->st = ct_dag_add_task(b->d, name, t, &v, b->err)) != CT_OK)
        return 0;
    b->shape[v] = out;
    b->act[v] = out_bytes;
    for (size_t i = 0; i < nin && b->st == CT_OK; i++)
        b->st = ct_dag_add_edge(b->d, in[i], v, b->act[in[i]], b->err);
    return v;
}

static const char *nm(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static const char *nm(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return buf;
}

static size_t conv(zb_t *b, const char *name, size_t x, size_t cout, size_t k, size_t s, size_t pad, int bias)
{
    shape_t i = b->shape[x];
    shape_t o = { cout, (i.h + 2 * pad - k) / s + 1, (i.w + 2 * pad - k) / s + 1 };
    double flops = 2.0 * (double)(i.c * k * k) * (double)elems(o);
    double params = 4.0 * (double)(i.c * k * k * cout + (bias ? cout : 0));
    return zb_node(b, name, &x, 1, o, flops, params, 0, 0);
}

static size_t unary(zb_t *b, const char *name, size_t x, double flops_per_elem, double param_bytes)
{
    shape_t s = b->shape[x];
    return zb_node(b, name, &x, 1, s, flops_per_elem * (double)elems(s), param_bytes, 0, 0);
}

static size_t bn(zb_t *b, const char *name, size_t x)
{
    return unary(b, name, x, 2.0, 4.0 * 4.0 * (double)b->shape[x].c);
}

static size_t relu(zb_t *b, const char *name, size_t x)
{
    return unary(b, name, x, 1.0, 0);
}

static size_t pool(zb_t *b, const char *name, size_t x, size_t k, size_t s, size_t pad)
{
    shape_t i = b->shape[x];
    shape_t o = { i.c, (i.h + 2 * pad - k) / s + 1, (i.w + 2 * pad - k) / s + 1 };
    return zb_node(b, name, &x, 1, o, (double)(k * k) * (double)elems(o), 0, 0, 0);
}

static size_t global_pool(zb_t *b, const char *name, size_t x)
{
    shape_t i = b->shape[x];
    shape_t o = { i.c, 1, 1 };
    return zb_node(b, name, &x, 1, o, (double)elems(i), 0, 0, 0);
}

static size_t add2(zb_t *b, const char *name, size_t x, size_t y)
{
    size_t in[2] = { x, y };
    return zb_node(b, name, in, 2, b->shape[x], (double)elems(b->shape[x]), 0, 0, 0);
}

static size_t concat2(zb_t *b, const char *name, size_t x, size_t y)
{
    size_t in[2] = { x, y };
    shape_t o = { b->shape[x].c + b->shape[y].c, b->shape[x].h, b->shape[x].w };
    return zb_node(b, name, in, 2, o, 0, 0, 0, 0);
}

/* x.view(x.size(0), -1): a Size task reading `sized`, a View task reading
 * the tensor and the size. */
static size_t flatten(zb_t *b, const char *prefix, size_t x, size_t sized)
{
    char buf[128];
    shape_t one = { 1, 1, 1 };
    size_t sz = zb_node(b, nm(buf, sizeof buf, "%ssize", prefix), &sized, 1, one, 0, 0, 1, 4.0);
    size_t in[2] = { x, sz };
    shape_t flat = { elems(b->shape[x]), 1, 1 };
    return zb_node(b, nm(buf, sizeof buf, "%sview", prefix), in, 2, flat, 0, 0, 1, 0);
}

static size_t linear(zb_t *b, const char *name, size_t x, size_t out)
{
    size_t in = elems(b->shape[x]);
    shape_t o = { out, 1, 1 };
    return zb_node(b, name, &x, 1, o, 2.0 * (double)in * (double)out, 4.0 * (double)(in * out + out), 0, 0);
}

static size_t dropout(zb_t *b, const char *name, size_t x)
{
    return zb_node(b, name, &x, 1, b->shape[x], 0, 0, 1, 0);
}

static size_t input_image(zb_t *b)
{
    shape_t img = { 3, 224, 224 };
    return zb_node(b, "input", NULL, 0, img, 0, 0, 1, 0);
}

/* ------------------------------------------------------------------------ */

static void build_alexnet(zb_t *b)
{
    size_t x = input_image(b);
    x = conv(b, "features.0", x, 64, 11, 4, 2, 1);
    x = relu(b, "features.1", x);
    x = pool(b, "features.2", x, 3, 2, 0);
    x = conv(b, "features.3", x, 192, 5, 1, 2, 1);
    x = relu(b, "features.4", x);
    x = pool(b, "features.5", x, 3, 2, 0);
    x = conv(b, "features.6", x, 384, 3, 1, 1, 1);
    x = relu(b, "features.7", x);
    x = conv(b, "features.8", x, 256, 3, 1, 1, 1);
    x = relu(b, "features.9", x);
    x = conv(b, "features.10", x, 256, 3, 1, 1, 1);
    x = relu(b, "features.11", x);
    x = pool(b, "features.12", x, 3, 2, 0);
    x = flatten(b, "", x, x);
    x = dropout(b, "classifier.0", x);
    x = linear(b, "classifier.1", x, 4096);
    x = relu(b, "classifier.2", x);
    x = dropout(b, "classifier.3", x);
    x = linear(b, "classifier.4", x, 4096);
    x = relu(b, "classifier.5", x);
    linear(b, "classifier.6", x, 1000);
}

static void build_vgg16(zb_t *b)
{
    static const int cfg[] = { 64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0 };
    char buf[64];
    size_t x = input_image(b), idx = 0;
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        if (cfg[i] == 0) {
            x = pool(b, nm(buf, sizeof buf, "features.%zu", idx++), x, 2, 2, 0);
            continue;
        }
        x = conv(b, nm(buf, sizeof buf, "features.%zu", idx++), x, (size_t)cfg[i], 3, 1, 1, 1);
        x = relu(b, nm(buf, sizeof buf, "features.%zu", idx++), x);
    }
    x = flatten(b, "", x, x);
    x = linear(b, "classifier.0", x, 4096);
    x = relu(b, "classifier.1", x);
    x = dropout(b, "classifier.2", x);
    x = linear(b, "classifier.3", x, 4096);
    x = relu(b, "classifier.4", x);
    x = dropout(b, "classifier.5", x);
    linear(b, "classifier.6", x, 1000);
}

static void build_resnet18(zb_t *b)
{
    char buf[64];
    size_t x = input_image(b);
    x = conv(b, "conv1", x, 64, 7, 2, 3, 0);
    x = bn(b, "bn1", x);
    x = relu(b, "relu", x);
    x = pool(b, "maxpool", x, 3, 2, 1);
    size_t width = 64;
    for (int layer = 1; layer <= 4; layer++) {
        size_t cout = 64u << (layer - 1);
        for (int blk = 0; blk < 2; blk++) {
            size_t stride = (layer > 1 && blk == 0) ? 2 : 1, id = x;
            size_t y = conv(b, nm(buf, sizeof buf, "layer%d.%d.conv1", layer, blk), x, cout, 3, stride, 1, 0);
            y = bn(b, nm(buf, sizeof buf, "layer%d.%d.bn1", layer, blk), y);
            y = relu(b, nm(buf, sizeof buf, "layer%d.%d.relu1", layer, blk), y);
            y = conv(b, nm(buf, sizeof buf, "layer%d.%d.conv2", layer, blk), y, cout, 3, 1, 1, 0);
            y = bn(b, nm(buf, sizeof buf, "layer%d.%d.bn2", layer, blk), y);
            if (stride != 1 || width != cout) {
                id = conv(b, nm(buf, sizeof buf, "layer%d.%d.downsample.0", layer, blk), x, cout, 1, stride, 0, 0);
                id = bn(b, nm(buf, sizeof buf, "layer%d.%d.downsample.1", layer, blk), id);
            }
            y = add2(b, nm(buf, sizeof buf, "layer%d.%d.add", layer, blk), y, id);
            x = relu(b, nm(buf, sizeof buf, "layer%d.%d.relu2", layer, blk), y);
            width = cout;
        }
    }
    x = global_pool(b, "avgpool", x);
    x = flatten(b, "", x, x);
    linear(b, "fc", x, 1000);
}

static void build_densenet121(zb_t *b)
{
    static const int blocks[] = { 6, 12, 24, 16 };
    const size_t growth = 32, bn_size = 4;
    char buf[96];
    size_t x = input_image(b);
    x = conv(b, "features.conv0", x, 64, 7, 2, 3, 0);
    x = bn(b, "features.norm0", x);
    x = relu(b, "features.relu0", x);
    x = pool(b, "features.pool0", x, 3, 2, 1);
    for (int bi = 0; bi < 4; bi++) {
        for (int li = 1; li <= blocks[bi]; li++) {
            const char *p = nm(buf, sizeof buf, "features.denseblock%d.denselayer%d", bi + 1, li);
            char pre[64];
            snprintf(pre, sizeof pre, "%s", p);
            size_t y = bn(b, nm(buf, sizeof buf, "%s.norm1", pre), x);
            y = relu(b, nm(buf, sizeof buf, "%s.relu1", pre), y);
            y = conv(b, nm(buf, sizeof buf, "%s.conv1", pre), y, bn_size * growth, 1, 1, 0, 0);
            y = bn(b, nm(buf, sizeof buf, "%s.norm2", pre), y);
            y = relu(b, nm(buf, sizeof buf, "%s.relu2", pre), y);
            y = conv(b, nm(buf, sizeof buf, "%s.conv2", pre), y, growth, 3, 1, 1, 0);
            x = concat2(b, nm(buf, sizeof buf, "%s.cat", pre), x, y);
        }
        if (bi < 3) {
            size_t c = b->shape[x].c / 2;
            x = bn(b, nm(buf, sizeof buf, "features.transition%d.norm", bi + 1), x);
            x = relu(b, nm(buf, sizeof buf, "features.transition%d.relu", bi + 1), x);
            x = conv(b, nm(buf, sizeof buf, "features.transition%d.conv", bi + 1), x, c, 1, 1, 0, 0);
            x = pool(b, nm(buf, sizeof buf, "features.transition%d.pool", bi + 1), x, 2, 2, 0);
        }
    }
    size_t features = bn(b, "features.norm5", x);
    /* forward(): out = relu(features); out = avg_pool(out, 7);
     * out.view(features.size(0), -1) -- the size is read off `features`. */
    size_t y = relu(b, "relu", features);
    y = global_pool(b, "avgpool", y);
    y = flatten(b, "", y, features);
    linear(b, "classifier", y, 1000);
}

/* GPT-2 small: 12 blocks, d = 768, 12 heads, vocabulary 50257, context L. */
static void build_gpt2(zb_t *b)
{
    const double L = (double)b->p->seq_len, d = 768, V = 50257, H = 12;
    char buf[64];
    shape_t tok = { (size_t)L, 1, 1 }, hid = { (size_t)(L * d), 1, 1 }, att = { (size_t)(H * L * L), 1, 1 };
    shape_t qkv = { (size_t)(3 * L * d), 1, 1 }, mlp = { (size_t)(4 * L * d), 1, 1 };
    size_t ids = zb_node(b, "input_ids", NULL, 0, tok, 0, 0, 1, 8.0 * L * (double)b->p->batch);
    size_t wte = zb_node(b, "wte", &ids, 1, hid, 0, 4.0 * L * d, 0, 0); /* gathers L rows */
    size_t wpe = zb_node(b, "wpe", &ids, 1, hid, 0, 4.0 * L * d, 0, 0);
    size_t in2[2] = { wte, wpe };
    size_t x = zb_node(b, "embed.add", in2, 2, hid, L * d, 0, 0, 0);
    x = dropout(b, "drop", x);
    for (int i = 0; i < 12; i++) {
        size_t ln1 = zb_node(b, nm(buf, sizeof buf, "h.%d.ln_1", i), &x, 1, hid, 5 * L * d, 8 * d, 0, 0);
        size_t ca = zb_node(b, nm(buf, sizeof buf, "h.%d.attn.c_attn", i), &ln1, 1, qkv, 2 * L * d * 3 * d,
                            4 * (d * 3 * d + 3 * d), 0, 0);
        /* q, k, v are views of c_attn's output (split + head reshapes), as in
         * a module-level trace: the attention products read c_attn itself. */
        size_t s = zb_node(b, nm(buf, sizeof buf, "h.%d.attn.scores", i), &ca, 1, att, 2 * L * L * d, 0, 0, 0);
        s = zb_node(b, nm(buf, sizeof buf, "h.%d.attn.softmax", i), &s, 1, att, 5 * H * L * L, 0, 0, 0);
        s = dropout(b, nm(buf, sizeof buf, "h.%d.attn.attn_dropout", i), s);
        size_t sv[2] = { s, ca };
        size_t a = zb_node(b, nm(buf, sizeof buf, "h.%d.attn.context", i), sv, 2, hid, 2 * L * L * d, 0, 0, 0);
        a = zb_node(b, nm(buf, sizeof buf, "h.%d.attn.c_proj", i), &a, 1, hid, 2 * L * d * d, 4 * (d * d + d), 0, 0);
        a = dropout(b, nm(buf, sizeof buf, "h.%d.attn.resid_dropout", i), a);
        size_t r1[2] = { x, a };
        size_t h1 = zb_node(b, nm(buf, sizeof buf, "h.%d.add1", i), r1, 2, hid, L * d, 0, 0, 0);
        size_t ln2 = zb_node(b, nm(buf, sizeof buf, "h.%d.ln_2", i), &h1, 1, hid, 5 * L * d, 8 * d, 0, 0);
        size_t f = zb_node(b, nm(buf, sizeof buf, "h.%d.mlp.c_fc", i), &ln2, 1, mlp, 2 * L * d * 4 * d,
                           4 * (4 * d * d + 4 * d), 0, 0);
        f = zb_node(b, nm(buf, sizeof buf, "h.%d.mlp.act", i), &f, 1, mlp, 8 * 4 * L * d, 0, 0, 0);
        f = zb_node(b, nm(buf, sizeof buf, "h.%d.mlp.c_proj", i), &f, 1, hid, 2 * L * 4 * d * d,
                    4 * (4 * d * d + d), 0, 0);
        f = dropout(b, nm(buf, sizeof buf, "h.%d.mlp.dropout", i), f);
        size_t r2[2] = { h1, f };
        x = zb_node(b, nm(buf, sizeof buf, "h.%d.add2", i), r2, 2, hid, L * d, 0, 0, 0);
    }
    x = zb_node(b, "ln_f", &x, 1, hid, 5 * L * d, 8 * d, 0, 0);
    shape_t logits = { (size_t)(L * V), 1, 1 };
    zb_node(b, "lm_head", &x, 1, logits, 2 * L * d * V, 4 * d * V, 0, 0);
}

ct_status_t ct_zoo_build(const char *name, const ct_zoo_params_t *p, ct_dag_t *dag, ct_error_t *err)
{
    ct_zoo_params_t defaults;
    if (!p) {
        ct_zoo_params_init(&defaults);
        p = &defaults;
    }
    ct_dag_destroy(dag);
    void (*build)(zb_t *) = NULL;
    if (!strcmp(name, "alexnet"))
        build = build_alexnet;
    else if (!strcmp(name, "vgg16"))
        build = build_vgg16;
    else if (!strcmp(name, "resnet18"))
        build = build_resnet18;
    else if (!strcmp(name, "densenet121"))
        build = build_densenet121;
    else if (!strcmp(name, "gpt2"))
        build = build_gpt2;
    else
        return ct_error_set(err, CT_EINPUT, "zoo: unknown model '%s' (known: alexnet, vgg16, resnet18, "
                            "densenet121, gpt2)", name);
    zb_t *b = calloc(1, sizeof *b); /* shape tables are large: heap, not stack */
    if (!b)
        return ct_error_set(err, CT_ENOMEM, "zoo: out of memory");
    b->d = dag;
    b->p = p;
    b->err = err;
    b->st = ct_dag_set_name(dag, name, err);
    build(b);
    ct_status_t st = b->st;
    free(b);
    if (st == CT_OK)
        st = ct_dag_validate(dag, name, err);
    if (st != CT_OK)
        ct_dag_destroy(dag);
    return st;
}
