/*
 * ct_http.h - the placement service's HTTP front (libmicrohttpd): listens
 * on an IPv4 address and answers every request with ct_service_handle.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_HTTP_H
#define CT_HTTP_H

#include "ct_service.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_http ct_http_t;

/** One answered request, for a log. Strings live for the call only. */
typedef struct {
    const char *method, *path;
    const char *client;     /**< the peer's IPv4 address ("" when unknown) */
    int status;             /**< HTTP status sent (0: the connection was dropped, out of memory) */
    double seconds;         /**< from the request's headers to the answer queued */
    size_t bytes_in, bytes_out;
} ct_http_event_t;

typedef struct {
    unsigned threads;       /**< event loops (default 2) */
    unsigned max_connections; /**< open connections at most (default 4096; more are refused) */
    unsigned max_per_client;  /**< and from one client address (default 128) */
    double request_seconds;   /**< a body not whole this long after its headers drops the connection (default 10) */
    /** Called once per answered request from the event loop's thread (so
     *  concurrently from several); NULL: nothing is logged (default). */
    void (*log)(void *ctx, const ct_http_event_t *ev);
    void *log_ctx;
} ct_http_params_t;

void ct_http_params_init(ct_http_params_t *p);

/** Starts serving svc on listen ("127.0.0.1:8080"; port 0 picks a free
 *  one); p NULL takes the defaults. svc must outlive the server. 0, or -1
 *  with a one-line message. */
int ct_http_start(ct_service_t *svc, const char *listen, const ct_http_params_t *p, ct_http_t **out, char *errbuf,
                  size_t errlen);
/** The port actually bound. */
uint16_t ct_http_port(const ct_http_t *h);
/** Stops accepting, finishes the requests in flight, frees. */
void ct_http_stop(ct_http_t *h);

#ifdef __cplusplus
}
#endif
#endif
