/*
 * bench_serve.c - the placement service over loopback: 64 concurrent
 * clients, each on a keep-alive connection, send POST /place (and then
 * POST /prioritize) as fast as answers come; per-request latency p50 /
 * p99 / p99.9 and requests per second, against the goal of 100 us at
 * p99. Beside it, the same requests through ct_service_handle alone (no
 * HTTP), the floor the transport adds to.
 */
#define _DEFAULT_SOURCE
#include "bench_util.h"
#include "ct_http.h"
#include "ct_json.h"
#include "ct_nona_table.h"
#include "ct_service.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { CLIENTS = 64, PER_CLIENT = 200, MAX_CLIENTS = 64 };
static int n_clients = CLIENTS, per_client = PER_CLIENT;

static uint16_t port;
static const char *body;
static const char *path;
static double pace; /* seconds between one client's requests; 0: back to back */

typedef struct {
    double *lat;
    int n, errors, index;
} client_t;

static void *client(void *arg)
{
    client_t *c = arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        c->errors = c->n;
        close(fd);
        return NULL;
    }
    char req[4096], resp[8192];
    int len = snprintf(req, sizeof req,
                       "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                       "%zu\r\n\r\n%s",
                       path, strlen(body), body);
    double next = bench_now() + pace * c->index / n_clients; /* staggered starts */
    for (int i = 0; i < c->n; i++) {
        if (pace > 0) { /* open loop: wait for this request's slot */
            double now = bench_now();
            if (next > now) {
                struct timespec ts = { (time_t)(next - now), (long)(1e9 * ((next - now) - (double)(time_t)(next - now))) };
                nanosleep(&ts, NULL);
            }
            next += pace;
        }
        double t0 = bench_now();
        if (write(fd, req, (size_t)len) != len) {
            c->errors++;
            break;
        }
        /* Read the headers, then Content-Length bytes of body. */
        size_t got = 0, need = 0;
        char *hdr_end = NULL;
        for (;;) {
            ssize_t r = read(fd, resp + got, sizeof resp - 1 - got);
            if (r <= 0) {
                c->errors++;
                goto out;
            }
            got += (size_t)r;
            resp[got] = '\0';
            if (!hdr_end && (hdr_end = strstr(resp, "\r\n\r\n"))) {
                char *cl = strstr(resp, "Content-Length: ");
                if (!cl)
                    cl = strstr(resp, "content-length: ");
                need = (size_t)(hdr_end + 4 - resp) + (cl ? strtoul(cl + 16, NULL, 10) : 0);
            }
            if (hdr_end && got >= need)
                break;
        }
        c->lat[i] = bench_now() - t0;
        if (strncmp(resp, "HTTP/1.1 200", 12))
            c->errors++;
    }
out:
    close(fd);
    return NULL;
}

static int cmp(const void *a, const void *b);

/* The floor: a TCP echo over loopback, one client, back to back (a
 * thread wake-up on each side, as for an HTTP request). */
static int echo_fd;

static void *echo_server(void *arg)
{
    (void)arg;
    int fd = accept(echo_fd, NULL, NULL), one = 1;
    char b[256];
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (ssize_t r; (r = read(fd, b, sizeof b)) > 0;)
        if (write(fd, b, (size_t)r) != r)
            break;
    close(fd);
    return NULL;
}

static void echo_floor(double *p50, double *p99)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof a;
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    echo_fd = socket(AF_INET, SOCK_STREAM, 0);
    bind(echo_fd, (struct sockaddr *)&a, sizeof a);
    listen(echo_fd, 1);
    getsockname(echo_fd, (struct sockaddr *)&a, &len);
    pthread_t th;
    pthread_create(&th, NULL, echo_server, NULL);
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    static double lat[5000];
    char b = 'x';
    if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        for (int i = 0; i < 5000; i++) {
            double t0 = bench_now();
            if (write(fd, &b, 1) != 1 || read(fd, &b, 1) != 1)
                break;
            lat[i] = bench_now() - t0;
        }
    close(fd);
    pthread_join(th, NULL);
    close(echo_fd);
    qsort(lat, 5000, sizeof(double), cmp);
    *p50 = lat[2500];
    *p99 = lat[4950];
}

/* A load generator like wrk's: one thread drives all 64 keep-alive
 * connections with epoll, each sending on its own fixed schedule (open
 * loop), so the clients do not compete with the server for the two cores
 * the way 64 client threads do (real clients run on other machines). */
typedef struct {
    int fd;
    double next, sent;
    int busy;
    size_t got, need;
    char *hdr_end;
    char resp[8192];
} conn_t;

static void run_epoll(const char *label, int nconn, int per_conn, double rate)
{
    conn_t *c = calloc((size_t)nconn, sizeof(conn_t));
    double *lat = malloc(sizeof(double) * (size_t)nconn * (size_t)per_conn);
    int ep = epoll_create1(0), done_total = 0, errors = 0, nlat = 0;
    char req[4096];
    int len = snprintf(req, sizeof req,
                       "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                       "%zu\r\n\r\n%s",
                       path, strlen(body), body);
    double gap = (double)nconn / rate, start = bench_now() + 0.01;
    int *count = calloc((size_t)nconn, sizeof(int));
    for (int k = 0; k < nconn; k++) {
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
        int one = 1;
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
        c[k].fd = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(c[k].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(c[k].fd, (struct sockaddr *)&a, sizeof a) != 0)
            errors++;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)k };
        epoll_ctl(ep, EPOLL_CTL_ADD, c[k].fd, &ev);
        c[k].next = start + gap * k / nconn;
    }
    double t0 = bench_now();
    while (done_total < nconn * per_conn && !errors) {
        double now = bench_now(), wake = 1e300;
        for (int k = 0; k < nconn; k++) { /* send what is due */
            if (!c[k].busy && count[k] < per_conn && c[k].next <= now) {
                c[k].sent = bench_now();
                if (write(c[k].fd, req, (size_t)len) != len) {
                    errors++;
                    break;
                }
                c[k].busy = 1;
                c[k].got = 0;
                c[k].hdr_end = NULL;
                c[k].next += gap;
            }
            if (!c[k].busy && count[k] < per_conn && c[k].next < wake)
                wake = c[k].next;
        }
        int timeout = wake >= 1e299 ? 100 : (int)((wake - bench_now()) * 1e3);
        struct epoll_event evs[64];
        /* Spin briefly rather than sleep past a send that is due within 1 ms. */
        int n = epoll_wait(ep, evs, 64, timeout > 0 ? timeout - 1 > 0 ? timeout - 1 : 0 : 0);
        for (int e = 0; e < n; e++) {
            conn_t *x = &c[evs[e].data.u32];
            ssize_t r = read(x->fd, x->resp + x->got, sizeof x->resp - 1 - x->got);
            if (r <= 0) {
                errors++;
                continue;
            }
            x->got += (size_t)r;
            x->resp[x->got] = '\0';
            if (!x->hdr_end && (x->hdr_end = strstr(x->resp, "\r\n\r\n"))) {
                char *cl = strstr(x->resp, "Content-Length: ");
                if (!cl)
                    cl = strstr(x->resp, "content-length: ");
                x->need = (size_t)(x->hdr_end + 4 - x->resp) + (cl ? strtoul(cl + 16, NULL, 10) : 0);
            }
            if (x->hdr_end && x->got >= x->need) {
                lat[nlat++] = bench_now() - x->sent;
                if (strncmp(x->resp, "HTTP/1.1 200", 12))
                    errors++;
                x->busy = 0;
                count[evs[e].data.u32]++;
                done_total++;
            }
        }
    }
    double wall = bench_now() - t0;
    qsort(lat, (size_t)nlat, sizeof(double), cmp);
    if (nlat) {
        double p99 = lat[(size_t)(0.99 * nlat)];
        printf("  %-30s %8.1f us %8.1f us %8.1f us %9.0f/s %7.2fx %s\n", label, 1e6 * lat[nlat / 2], 1e6 * p99,
               1e6 * lat[(size_t)(0.999 * nlat)], (double)nlat / wall, 100e-6 / p99, errors ? "ERRORS" : "");
    }
    for (int k = 0; k < nconn; k++)
        close(c[k].fd);
    close(ep);
    free(count);
    free(lat);
    free(c);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run(const char *label)
{
    static client_t c[MAX_CLIENTS];
    pthread_t th[MAX_CLIENTS];
    double *all = malloc(sizeof(double) * (size_t)n_clients * (size_t)per_client);
    double t0 = bench_now();
    for (int k = 0; k < n_clients; k++) {
        c[k] = (client_t){ all + k * per_client, per_client, 0, k };
        pthread_create(&th[k], NULL, client, &c[k]);
    }
    int errors = 0;
    for (int k = 0; k < n_clients; k++) {
        pthread_join(th[k], NULL);
        errors += c[k].errors;
    }
    double wall = bench_now() - t0;
    size_t n = (size_t)n_clients * (size_t)per_client;
    qsort(all, n, sizeof(double), cmp);
    double p99 = all[(size_t)(0.99 * (double)n)];
    printf("  %-30s %8.1f us %8.1f us %8.1f us %9.0f/s %7.2fx %s\n", label, 1e6 * all[n / 2], 1e6 * p99,
           1e6 * all[(size_t)(0.999 * (double)n)], (double)n / wall, 100e-6 / p99, errors ? "ERRORS" : "");
    free(all);
}

int main(void)
{
    /* A lookup file: fig1 at two rates. */
    ct_error_t err;
    ct_scenario_t base, s;
    ct_scenario_init(&base);
    if (ct_scenario_load(&base, "data/scenarios/fig1.json", &err) != CT_OK) {
        fprintf(stderr, "bench_serve: %s\n", err.msg);
        return 1;
    }
    cJSON *entries[2], *doc;
    for (int i = 0; i < 2; i++) {
        ct_nona_model_t m;
        ct_nona_solution_t sol;
        double scale = i ? 4.5 : 1;
        if (ct_scenario_scaled(&base, scale, &s, &err) != CT_OK || ct_nona_model_build(&s, NULL, &m, &err) != CT_OK ||
            ct_nona_solve(&m, NULL, &sol, &err) != CT_OK ||
            ct_nona_table_entry(&s, scale, &m, &sol, &entries[i], &err) != CT_OK)
            return 1;
        ct_nona_solution_free(&sol);
        ct_nona_model_free(&m);
        ct_scenario_destroy(&s);
    }
    ct_scenario_destroy(&base);
    char path_buf[64];
    snprintf(path_buf, sizeof path_buf, "/tmp/ct-bench-serve-%d.json", (int)getpid());
    if (ct_nona_table_document(entries, 2, &doc, &err) != CT_OK || ct_json_write_file(doc, path_buf, &err) != CT_OK)
        return 1;
    cJSON_Delete(doc);
    ct_service_t *svc;
    ct_http_t *h;
    char msg[256];
    if (ct_service_open(path_buf, NULL, &svc, msg, sizeof msg) != 0 ||
        ct_http_start(svc, "127.0.0.1:0", NULL, &h, msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_serve: %s\n", msg);
        return 1;
    }
    port = ct_http_port(h);
    static const char place[] = "{\"class\": \"fig1\", \"servers\": 80, \"rates\": {\"fig1\": 450}}";
    static const char prio[] =
        "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"job-1\", "
        "\"contend.io/task\": \"det\"}}}, \"NodeNames\": [\"n1\", \"n2\", \"n3\", \"n4\", \"n5\", \"n6\", \"n7\", "
        "\"n8\"]}";
    /* The floor: the same requests without HTTP, one thread. */
    double t;
    char *o;
    size_t olen;
    BENCH_MIN(t, 5, {
        for (int i = 0; i < 10000; i++) {
            ct_service_handle(svc, "POST", "/place", place, sizeof place - 1, &o, &olen);
            free(o);
        }
    });
    printf("placement service: %d keep-alive loopback connections, %d requests each, 2 server threads\n"
           "(goal: p99 under 100 us); ct_service_handle alone: %.2f us a /place. \"1 thread\": one epoll\n"
           "thread drives the 64 connections, each on a fixed schedule (open loop, like wrk); \"paced\":\n"
           "64 client threads on the same schedule, sharing the cores with the server; \"back to back\":\n"
           "64 threads each sending when its answer arrives (latency = 64 / rate, Little's law).\n",
           CLIENTS, PER_CLIENT, 1e6 * t / 10000);
    printf("  %-30s %11s %11s %11s %11s %8s\n", "request", "p50", "p99", "p99.9", "rate", "vs goal");
    /* 64 connections from one epoll thread, paced: the headline. */
    static const double rates[] = { 2000, 10000 };
    for (int k = 0; k < 2; k++) {
        char label[48];
        body = place;
        path = "/place";
        snprintf(label, sizeof label, "/place, %g/s, 1 thread", rates[k]);
        run_epoll(label, CLIENTS, PER_CLIENT, rates[k]);
        body = prio;
        path = "/prioritize";
        snprintf(label, sizeof label, "/prioritize, %g/s, 1 thread", rates[k]);
        run_epoll(label, CLIENTS, PER_CLIENT, rates[k]);
    }
    static const struct {
        const char *label, *path, *body;
        double pace;
    } runs[] = { { "/place, paced", "/place", place, CLIENTS / 2000.0 },
                 { "/prioritize, paced", "/prioritize", prio, CLIENTS / 2000.0 },
                 { "/place, back to back", "/place", place, 0 },
                 { "/prioritize, back to back", "/prioritize", prio, 0 } };
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        body = runs[k].body;
        path = runs[k].path;
        pace = runs[k].pace;
        run(runs[k].label);
    }
    /* One client back to back, and the raw TCP floor beside it. */
    n_clients = 1;
    per_client = 5000;
    body = place;
    path = "/place";
    pace = 0;
    run("/place, 1 client");
    double e50, e99;
    echo_floor(&e50, &e99);
    printf("  %-30s %8.1f us %8.1f us   (baseline: a TCP echo, the same path without HTTP)\n", "tcp echo, 1 client",
           1e6 * e50, 1e6 * e99);
    ct_http_stop(h);
    ct_service_free(svc);
    unlink(path_buf);
    return 0;
}
