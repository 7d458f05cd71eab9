/*
 * ct_onnx.h - import an ONNX model as a task DAG, with a roofline cost model.
 *
 * The model is read with protobuf-c from ONNX's own onnx.proto (Debian's
 * libonnx-dev; the C code is generated at build time, see the Makefile).
 * A build without protobuf-c keeps the API: ct_onnx_supported() returns 0
 * and the import fails with CT_EINPUT saying what to install.
 *
 * Mapping (docs/formats.md, "ONNX import"):
 *  - one task per node of the main graph; Constant nodes, and nodes whose
 *    inputs are all weights (what constant folding left), are weights, not
 *    tasks; a task "input" (0 s) stands for the request's data when graph
 *    inputs that are not initializers feed nodes;
 *  - an edge per producer -> consumer pair, bytes = the sum over the tensors
 *    between them (each once) of elements x element size (shapes from the graph's
 *    input, output and value_info); weights are present on every server,
 *    not transfers; Shape and Size read metadata only (0 bytes);
 *  - task time = max(FLOPs / peak, bytes moved / memory bandwidth) (a
 *    roofline: a lower bound), bytes moved = every input (weights included)
 *    and output; peak = fp16_flops_per_s for 16- and 8-bit outputs;
 *    views (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout, Shape,
 *    Size) cost 0 s; ops without a FLOP formula are costed as one FLOP per
 *    output element (memory-bound; counted in ct_onnx_info_t);
 *  - a symbolic leading dimension takes params.batch; any other symbolic or
 *    unknown dimension is refused, naming the tensor;
 *  - control flow (If, Loop, Scan, any graph-valued attribute), model-local
 *    functions, sequence / map / sparse types and string tensors are refused.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_ONNX_H
#define CT_ONNX_H

#include "ct_dag.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Cost-model and limit options; fill with ct_onnx_params_init(). */
typedef struct {
    double flops_per_s;       /**< peak for 32- and 64-bit tensors, FLOP/s (default: A100, 19.5e12) */
    double fp16_flops_per_s;  /**< peak for 16- and 8-bit tensors (default: A100 tensor cores, 312e12) */
    double mem_bytes_per_s;   /**< memory bandwidth, bytes/s (default: A100, 2.039e12) */
    size_t batch;             /**< value of a symbolic leading dimension (default 1) */
    size_t max_nodes;         /**< refuse graphs with more nodes (CT_ELIMIT; default 1,000,000) */
} ct_onnx_params_t;

void ct_onnx_params_init(ct_onnx_params_t *p);

/** What an import found (for the command's summary line). */
typedef struct {
    int64_t ir_version, opset;   /**< the model's IR version and default-domain opset */
    size_t nodes;                /**< nodes in the main graph */
    size_t constants;            /**< Constant nodes and nodes of weights alone, taken as weights */
    size_t generic;              /**< nodes costed without a FLOP formula */
    char generic_ops[160];       /**< their op types, comma-separated (truncated with "...") */
    int symbolic_batch;          /**< 1 if a symbolic leading dimension took params.batch */
    double flops;                /**< total FLOPs */
    double time;                 /**< total task time, seconds */
} ct_onnx_info_t;

/** 1 if this build reads ONNX (protobuf-c was found), else 0. */
int ct_onnx_supported(void);

/**
 * Imports the serialized ModelProto buf[0..len) into dag (reset first) and
 * validates it. label (a file name) starts every message. info may be NULL.
 * Errors: CT_EINPUT (not a model, refused constructs, missing shapes: the
 * message names the node or tensor), CT_ELIMIT (nodes, nesting deeper than
 * 32 messages, a tensor over 2^62 elements), CT_ENOMEM.
 * Time O(bytes + nodes + tensors).
 */
ct_status_t ct_onnx_import(ct_dag_t *dag, const void *buf, size_t len, const char *label,
                           const ct_onnx_params_t *p, ct_onnx_info_t *info, ct_error_t *err);

/** Reads path (at most CT_MAX_FILE_BYTES) and imports it. */
ct_status_t ct_onnx_load(ct_dag_t *dag, const char *path, const ct_onnx_params_t *p, ct_onnx_info_t *info,
                         ct_error_t *err);

/**
 * Sets p's peaks and bandwidth from the preset `name` in a device file
 * (JSON: {"devices": [{"name", "fp32_flops", "fp16_flops",
 * "mem_bandwidth", ...}]}, e.g. data/onnx/devices.json). CT_EINPUT names
 * the known devices when name is not among them.
 */
ct_status_t ct_onnx_device_load(const char *path, const char *name, ct_onnx_params_t *p, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
