/*
 * ct_zoo.h - layer-level inference DAGs of well-known models, generated from
 * their architectures (the project ships no third-party profiles).
 *
 * Granularity follows a PyTorch module graph as PipeDream's profiler records
 * it: one task per module call (Conv2d, BatchNorm2d, ReLU, MaxPool2d, Add,
 * Concat, Size, View, Linear, Dropout, ...), so contraction behaves as on the
 * real profiles (alexnet 23, vgg16 41, resnet18 71, densenet121 429 tasks).
 *
 * Assumptions (also in docs/model-zoo.md):
 *  - task time = FLOPs / flops_per_s + bytes moved / mem_bytes_per_s, where
 *    bytes moved = input activations + output activation + weights (a
 *    roofline-style sum: compute-bound and memory-bound layers both cost);
 *    Size, View and Dropout (identity at inference) cost 0 s;
 *  - the Input task costs 0 s (data loading is not compute);
 *  - activations are fp32 (4 bytes) at the given batch size; token ids 8 bytes;
 *  - edge bytes = the source task's output activation (PipeDream's rule);
 *  - a Size task outputs 4 bytes whatever the batch.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_ZOO_H
#define CT_ZOO_H

#include "ct_dag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t batch;            /**< samples per inference query (default 1) */
    double flops_per_s;      /**< reference compute throughput (default 1e13 FLOP/s) */
    double mem_bytes_per_s;  /**< reference memory bandwidth (default 5e11 bytes/s) */
    size_t seq_len;          /**< gpt2 tokens per query (default 128) */
} ct_zoo_params_t;

void ct_zoo_params_init(ct_zoo_params_t *p);

/** Names of the models ct_zoo_build knows, NULL-terminated. */
const char *const *ct_zoo_models(void);

/**
 * Builds model `name` into dag (reset first). CT_EINPUT for an unknown
 * name. Time and memory O(layers).
 */
ct_status_t ct_zoo_build(const char *name, const ct_zoo_params_t *p, ct_dag_t *dag, ct_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
