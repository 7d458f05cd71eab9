/*
 * ct_service.h - the placement service: answers placement requests from a
 * lookup file (contend-table/1 sweeps), for `contend serve` and for any
 * program that embeds it. Transport-free: a request is (method, path,
 * body), the answer an HTTP status and a JSON body, so the HTTP layer
 * (service/http.c) stays thin and the logic is tested without sockets.
 *
 * Endpoints:
 *   GET  /healthz      {"status": "ok", "classes", "scenarios", "reloads", "lookup"}
 *   POST /place        {"class": NAME, "servers": N | [names], "rates": {class: jobs/s},
 *                       "queue_lengths": [per server]} -> {"class", "scenario", "scale",
 *                       "placement": {task id: server}}
 *   GET  /metrics      Prometheus text format 0.0.4: requests by endpoint and code,
 *                       /place and /prioritize latency histograms, draws by class and
 *                       scenario, the table's path, digest and age, reloads and failed
 *                       reloads, open connections, the job cache
 *   POST /reload       re-reads the lookup file; the swap is atomic: requests in
 *                       flight finish on the old table, later ones use the new
 *   POST /prioritize   the Kubernetes scheduler-extender verb: ExtenderArgs
 *                       (Pod with labels contend.io/class, contend.io/job,
 *                       contend.io/task; Nodes.items[].metadata.name or NodeNames)
 *                       -> HostPriorityList [{"Host", "Score"}]: 10 for the node
 *                       the job's draw gave the pod's task, 0 for the others.
 *                       A job is drawn once, over its first pod's candidate
 *                       nodes sorted by name, and remembered (a bounded cache,
 *                       oldest first out), so its tasks get one consistent draw;
 *                       its root by the table's rule (least loaded of d), loads
 *                       being the tasks of jobs drawn less than their class's
 *                       predicted mean JCT ago.
 *                       A later pod whose candidates exclude its task's node
 *                       (a rotating subset of a large cluster) moves the job's
 *                       tasks on that node to a candidate the job does not use.
 *
 * Thread-safe: any number of threads may call ct_service_handle at once;
 * each thread draws from its own random stream.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_SERVICE_H
#define CT_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CT_SERVICE_MAX_BODY ((size_t)1 << 20) /* request bodies above this: 413 */
/* /prioritize without nodeCacheCapable carries whole Node objects (about
 * 13 kB each with 50 images): up to 8 MiB, some 600 such nodes. */
#define CT_SERVICE_MAX_PRIORITIZE_BODY ((size_t)8 << 20)

/** The largest body a request to path may carry (a larger one: 413). */
size_t ct_service_max_body(const char *path);

typedef struct ct_service ct_service_t;

typedef struct {
    uint64_t seed;          /**< random streams derive from it (default 1) */
    size_t job_cache;       /**< jobs remembered for the extender (default 65536) */
    size_t job_cache_bytes; /**< and the heap bytes they may hold (default 64 MiB; oldest jobs dropped first,
                                 the newest always kept) */
    double (*clock)(void *ctx); /**< seconds for /prioritize's measured rates (default NULL: CLOCK_MONOTONIC;
                                     tests set their own) */
    void *clock_ctx;        /**< clock's argument */
} ct_service_params_t;

void ct_service_params_init(ct_service_params_t *p);

/** Loads the lookup file and makes a service. 0, or -1 with a one-line
 *  message in errbuf. */
int ct_service_open(const char *lookup_path, const ct_service_params_t *p, ct_service_t **out, char *errbuf,
                    size_t errlen);
void ct_service_free(ct_service_t *s);

/** Re-reads the lookup file and swaps it in atomically (the old table is
 *  freed when its last request ends). 0, or -1 (the old table stays). */
int ct_service_reload(ct_service_t *s, char *errbuf, size_t errlen);

/** The methods an endpoint accepts, for a 405's Allow header ("GET, HEAD"
 *  or "POST"), or NULL for a path that names none. Static strings. */
const char *ct_service_allow(const char *path);

/** The answer's Content-Type for a request to path answered with status:
 *  Prometheus text for /metrics' 200, JSON otherwise. Static strings. */
const char *ct_service_content_type(const char *path, int status);

/** Tells the service a client connection opened (+1) or closed (-1), for
 *  /metrics; the transport calls it. Thread-safe. */
void ct_service_connections(ct_service_t *s, int delta);

/**
 * Answers one request. The endpoint is the path's last segment (any
 * prefix before it is accepted; HEAD is answered as GET). body may be NULL when len is 0. *out receives a
 * malloc'd NUL-terminated JSON body (the caller frees it; *outlen its
 * length). Returns the HTTP status: 200, 400 (malformed or invalid, with
 * {"error": "..."}), 404, 405, 413, 422 (valid but unplaceable: too few
 * servers), 500 (reload failed), or 0 when out of memory (*out NULL).
 */
int ct_service_handle(ct_service_t *s, const char *method, const char *path, const char *body, size_t len, char **out,
                      size_t *outlen);

#ifdef __cplusplus
}
#endif
#endif
