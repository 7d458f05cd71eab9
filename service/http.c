/*
 * http.c - the placement service over HTTP (libmicrohttpd): a thread pool
 * of epoll loops, each request's body gathered up to ct_service_max_body
 * (a larger Content-Length is answered 413 at once and the connection
 * closed, the body never read), handed to ct_service_handle, the answer
 * sent with keep-alive. Idle connections close after 10 s; at most 4096 at
 * once and 128 per client address (ct_http_params_t), and a body that has
 * not arrived whole 10 s after its headers drops the connection, so a
 * client trickling bytes holds neither the slots nor a request forever. The library never prints: a
 * caller that wants a log passes a function that gets each answered
 * request (ct_http_params_t.log). Connections opened and closed are told
 * to the service for its /metrics.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ct_http {
    struct MHD_Daemon *d;
    ct_service_t *svc;
    uint16_t port;
    ct_http_params_t p;
};

typedef struct {
    char *body;
    size_t n, cap;
    size_t received;    /* body bytes seen, kept or not */
    int too_large;
    struct timespec t0; /* headers received */
} req_t;

void ct_http_params_init(ct_http_params_t *p)
{
    *p = (ct_http_params_t){ .threads = 2, .max_connections = 4096, .max_per_client = 128, .request_seconds = 10 };
}

static void log_request(const struct ct_http *h, struct MHD_Connection *conn, const char *method, const char *url,
                        const req_t *rq, int status, size_t bytes_out)
{
    if (!h->p.log)
        return;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    char client[INET_ADDRSTRLEN] = "";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, client,
                  sizeof client);
    ct_http_event_t ev = { method, url, client, status,
                           (double)(t1.tv_sec - rq->t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - rq->t0.tv_nsec),
                           rq->received, bytes_out };
    h->p.log(h->p.log_ctx, &ev);
}

static enum MHD_Result reply(struct MHD_Connection *conn, int status, char *body, size_t len, const char *allow,
                             const char *type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    if (status == 405 && allow) /* RFC 9110: a 405 names the methods that work */
        MHD_add_response_header(r, "Allow", allow);
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)version;
    struct ct_http *h = cls;
    req_t *rq = *con_cls;
    if (!rq) { /* headers only: set up the body */
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        clock_gettime(CLOCK_MONOTONIC, &rq->t0);
        *con_cls = rq;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > ct_service_max_body(url)) {
            /* Answer now: the body is never read (the connection closes after). */
            char *out;
            size_t outlen;
            int status = ct_service_handle(h->svc, method, url, NULL, ct_service_max_body(url) + 1, &out, &outlen);
            log_request(h, conn, method, url, rq, status, status ? outlen : 0);
            if (!status)
                return MHD_NO;
            return reply(conn, status, out, outlen, ct_service_allow(url), ct_service_content_type(url, status));
        }
        return MHD_YES;
    }
    if (*upload_size) { /* a piece of the body */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - rq->t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - rq->t0.tv_nsec) >
            h->p.request_seconds)
            return MHD_NO; /* the whole-request deadline: drop the connection */
        rq->received += *upload_size;
        if (!rq->too_large && rq->n + *upload_size > ct_service_max_body(url))
            rq->too_large = 1;
        if (!rq->too_large) {
            if (rq->n + *upload_size + 1 > rq->cap) {
                size_t cap = rq->cap ? rq->cap : 1024;
                while (cap < rq->n + *upload_size + 1)
                    cap *= 2;
                char *b = realloc(rq->body, cap);
                if (!b)
                    return MHD_NO;
                rq->body = b;
                rq->cap = cap;
            }
            memcpy(rq->body + rq->n, upload, *upload_size);
            rq->n += *upload_size;
            rq->body[rq->n] = '\0';
        }
        *upload_size = 0;
        return MHD_YES;
    }
    char *out;
    size_t outlen;
    int status = ct_service_handle(h->svc, method, url, rq->body, rq->too_large ? ct_service_max_body(url) + 1 : rq->n,
                                   &out, &outlen);
    log_request(h, conn, method, url, rq, status, status ? outlen : 0);
    if (!status)
        return MHD_NO; /* out of memory: drop the connection */
    return reply(conn, status, out, outlen, ct_service_allow(url), ct_service_content_type(url, status));
}

static void connection(void *cls, struct MHD_Connection *conn, void **socket_ctx, enum MHD_ConnectionNotificationCode toe)
{
    (void)conn;
    (void)socket_ctx;
    struct ct_http *h = cls;
    ct_service_connections(h->svc, toe == MHD_CONNECTION_NOTIFY_STARTED ? 1 : -1);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    req_t *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

int ct_http_start(ct_service_t *svc, const char *listen, const ct_http_params_t *p, ct_http_t **out, char *errbuf,
                  size_t errlen)
{
    *out = NULL;
    char host[64];
    unsigned port;
    const char *colon = strrchr(listen, ':');
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    char *end = NULL;
    unsigned long pl = colon && colon[1] >= '0' && colon[1] <= '9' ? strtoul(colon + 1, &end, 10) : 70000;
    port = (unsigned)(pl > 65535 ? 70000 : pl);
    if (!colon || (size_t)(colon - listen) >= sizeof host || !end || *end || port > 65535) {
        snprintf(errbuf, errlen, "--listen: expected HOST:PORT (IPv4, port 0 .. 65535), got '%s'", listen);
        return -1;
    }
    memcpy(host, listen, (size_t)(colon - listen));
    host[colon - listen] = '\0';
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        snprintf(errbuf, errlen, "--listen: '%s' is not an IPv4 address", host);
        return -1;
    }
    addr.sin_port = htons((uint16_t)port);
    struct ct_http *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }
    h->svc = svc;
    if (p)
        h->p = *p;
    else
        ct_http_params_init(&h->p);
    unsigned threads = h->p.threads < 1 ? 1 : h->p.threads;
    h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO, (uint16_t)port, NULL,
                            NULL, handler, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                            MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                            MHD_OPTION_CONNECTION_LIMIT, h->p.max_connections,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, h->p.max_per_client,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, h,
                            MHD_OPTION_NOTIFY_CONNECTION, connection, h, MHD_OPTION_END);
    if (!h->d) {
        snprintf(errbuf, errlen, "%s: cannot listen (address in use, or not permitted)", listen);
        free(h);
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : (uint16_t)port;
    *out = h;
    return 0;
}

uint16_t ct_http_port(const ct_http_t *h)
{
    return h->port;
}

void ct_http_stop(ct_http_t *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    free(h);
}
