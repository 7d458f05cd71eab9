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

/** Starts serving svc on listen ("127.0.0.1:8080"; port 0 picks a free
 *  one) with threads event loops. svc must outlive the server. 0, or -1
 *  with a one-line message. */
int ct_http_start(ct_service_t *svc, const char *listen, unsigned threads, ct_http_t **out, char *errbuf,
                  size_t errlen);
/** The port actually bound. */
uint16_t ct_http_port(const ct_http_t *h);
/** Stops accepting, finishes the requests in flight, frees. */
void ct_http_stop(ct_http_t *h);

#ifdef __cplusplus
}
#endif
#endif
