/*
 * bench_serve.c - the placement service over loopback against a static
 * baseline server run beside it in the same process and run: wrk-like
 * closed loops (1, 8 and 64 keep-alive connections from one epoll thread,
 * each sending its next request when the answer arrives) give throughput
 * and p99 of POST /place and POST /prioritize, printed as ratios to a
 * server that answers the same bytes without computing them: libmicrohttpd
 * with the service's settings (always), and nginx's `return 200` (when
 * nginx is installed; its master and 2 workers). Then the open-loop
 * latency runs at fixed rates, 64 client threads, one client back to back,
 * and ct_service_handle alone (no HTTP) with a TCP echo as floors.
 */
#define _DEFAULT_SOURCE
#include "bench_util.h"
#include "ct_http.h"
#include "ct_json.h"
#include "ct_nona_table.h"
#include "ct_service.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* The bench's POST of body to path, in req (its length). */
static int format_request(char *req, size_t size, const char *to_path, const char *to_body)
{
    return snprintf(req, size,
                    "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    "%zu\r\n\r\n%s",
                    to_path, strlen(to_body), to_body);
}

/* A TCP connection to 127.0.0.1:to_port with Nagle off, or -1. */
static int connect_local(uint16_t to_port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(to_port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* 1 when the answer read so far (resp, NUL-terminated, got bytes) is
 * whole: its headers, then Content-Length bytes of body; *hdr_end and
 * *need carry what was found between calls (start with NULL). */
static int answer_whole(char *resp, size_t got, char **hdr_end, size_t *need)
{
    if (!*hdr_end && (*hdr_end = strstr(resp, "\r\n\r\n"))) {
        char *cl = strstr(resp, "Content-Length: ");
        if (!cl)
            cl = strstr(resp, "content-length: ");
        *need = (size_t)(*hdr_end + 4 - resp) + (cl ? strtoul(cl + 16, NULL, 10) : 0);
    }
    return *hdr_end && got >= *need;
}

static void *client(void *arg)
{
    client_t *c = arg;
    int fd = connect_local(port);
    if (fd < 0) {
        c->errors = c->n;
        return NULL;
    }
    char req[4096], resp[8192];
    int len = format_request(req, sizeof req, path, body);
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
            if (answer_whole(resp, got, &hdr_end, &need))
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

typedef struct {
    double p50, p99, p999, rate;
    int errors;
} stats_t;

/* Drives nconn keep-alive connections to port from one epoll thread, each
 * sending path/body per_conn times on a fixed schedule of rate requests a
 * second over all (rate 0: closed loop, the next request as soon as the
 * answer is in, like wrk). */
static stats_t drive(uint16_t to_port, const char *to_path, const char *to_body, int nconn, int per_conn,
                     double rate)
{
    stats_t st = { 0, 0, 0, 0, 0 };
    conn_t *c = calloc((size_t)nconn, sizeof(conn_t));
    double *lat = malloc(sizeof(double) * (size_t)nconn * (size_t)per_conn);
    int ep = epoll_create1(0), done_total = 0, errors = 0, nlat = 0;
    char req[4096];
    int len = format_request(req, sizeof req, to_path, to_body);
    double gap = rate > 0 ? (double)nconn / rate : 0, start = bench_now() + 0.01;
    int *count = calloc((size_t)nconn, sizeof(int));
    for (int k = 0; k < nconn; k++) {
        if ((c[k].fd = connect_local(to_port)) < 0)
            errors++;
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)k };
        epoll_ctl(ep, EPOLL_CTL_ADD, c[k].fd, &ev);
        c[k].next = start + gap * k / nconn;
    }
    double t0 = bench_now();
    int started = 0; /* closed loop: connections that sent their first request */
    while (done_total < nconn * per_conn && !errors) {
        double now = bench_now(), wake = 1e300;
        /* Open loop: send what is due. Closed loop (gap 0): every connection
         * once here, then each sends again as its answer arrives (below), so
         * the client's work per request does not grow with the connections. */
        for (int k = 0; k < nconn && (gap > 0 || started < nconn); k++) {
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
                started += gap == 0 && count[k] == 0;
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
            if (answer_whole(x->resp, x->got, &x->hdr_end, &x->need)) {
                lat[nlat++] = bench_now() - x->sent;
                if (strncmp(x->resp, "HTTP/1.1 200", 12))
                    errors++;
                x->busy = 0;
                count[evs[e].data.u32]++;
                done_total++;
                if (gap == 0 && count[evs[e].data.u32] < per_conn) { /* closed loop: the next request now */
                    x->sent = bench_now();
                    if (write(x->fd, req, (size_t)len) != len)
                        errors++;
                    x->busy = 1;
                    x->got = 0;
                    x->hdr_end = NULL;
                }
            }
        }
    }
    double wall = bench_now() - t0;
    qsort(lat, (size_t)nlat, sizeof(double), cmp);
    if (nlat) {
        st.p50 = lat[nlat / 2];
        st.p99 = lat[(size_t)(0.99 * nlat)];
        st.p999 = lat[(size_t)(0.999 * nlat)];
        st.rate = (double)nlat / wall;
    }
    st.errors = errors || nlat < nconn * per_conn;
    for (int k = 0; k < nconn; k++)
        close(c[k].fd);
    close(ep);
    free(count);
    free(lat);
    free(c);
    return st;
}

static void run_epoll(const char *label, int nconn, int per_conn, double rate)
{
    stats_t st = drive(port, path, body, nconn, per_conn, rate);
    printf("  %-30s %8.1f us %8.1f us %8.1f us %9.0f/s %7.2fx %s\n", label, 1e6 * st.p50, 1e6 * st.p99,
           1e6 * st.p999, st.rate, st.p99 > 0 ? 100e-6 / st.p99 : 0, st.errors ? "ERRORS" : "");
}

/* ------------------------------------------------------------------------ */
/* Static baselines: the same answer bytes, nothing computed.                */

typedef struct {
    char *body;
    size_t len;
} static_answer_t;

/* libmicrohttpd with the service's settings (service/http.c), answering a
 * fixed body after reading the request's. */
static enum MHD_Result static_handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                      const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    (void)url;
    (void)method;
    (void)version;
    (void)upload;
    const static_answer_t *a = cls;
    if (!*con_cls) {
        *con_cls = conn;
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(a->len, a->body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", "application/json");
    enum MHD_Result ok = MHD_queue_response(conn, 200, r);
    MHD_destroy_response(r);
    return ok;
}

static struct MHD_Daemon *static_mhd_start(static_answer_t *a, uint16_t *out_port)
{
    struct sockaddr_in addr = { .sin_family = AF_INET };
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO, 0, NULL, NULL, static_handler, a,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, 2u,
        MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_CONNECTION_LIMIT, 4096u, MHD_OPTION_END);
    const union MHD_DaemonInfo *info = d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    *out_port = info ? info->port : 0;
    return d;
}

/* A free loopback port (bound, then released for nginx to take). */
static uint16_t free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof a;
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || getsockname(fd, (struct sockaddr *)&a, &len))
        a.sin_port = 0;
    close(fd);
    return ntohs(a.sin_port);
}

/* nginx, when installed: a master and 2 workers in a scratch directory,
 * `return 200` with each answer's bytes at its path. Returns its pid (0
 * when nginx is absent or does not start) and the port. */
static pid_t nginx_start(const char *dir, const static_answer_t *place_a, const static_answer_t *prio_a,
                         uint16_t *out_port)
{
    const char *bin = access("/usr/sbin/nginx", X_OK) == 0 ? "/usr/sbin/nginx" : NULL;
    if (!bin || mkdir(dir, 0700) != 0)
        return 0;
    uint16_t p = free_port();
    char conf[600];
    snprintf(conf, sizeof conf, "%s/nginx.conf", dir);
    FILE *f = fopen(conf, "w");
    if (!f || !p) {
        if (f)
            fclose(f);
        return 0;
    }
    /* nginx's return takes a quoted string: the answers are JSON, so their
     * double quotes go inside single quotes; none has a single quote. */
    fprintf(f,
            "worker_processes 2;\ndaemon off;\npid %s/nginx.pid;\nerror_log %s/error.log;\n"
            "events { worker_connections 1024; }\n"
            "http {\n  access_log off;\n  client_body_temp_path %s;\n  proxy_temp_path %s;\n"
            "  fastcgi_temp_path %s;\n  uwsgi_temp_path %s;\n  scgi_temp_path %s;\n"
            "  keepalive_requests 1000000;\n"
            "  server {\n    listen 127.0.0.1:%u;\n    default_type application/json;\n"
            "    location = /place { return 200 '%.*s'; }\n"
            "    location = /prioritize { return 200 '%.*s'; }\n  }\n}\n",
            dir, dir, dir, dir, dir, dir, dir, p, (int)place_a->len, place_a->body, (int)prio_a->len, prio_a->body);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execl(bin, bin, "-c", conf, "-p", dir, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 100; i++) { /* wait until it accepts */
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(p) };
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
        int fd = socket(AF_INET, SOCK_STREAM, 0), ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok) {
            *out_port = p;
            return pid;
        }
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return 0;
        struct timespec ts = { 0, 20000000 };
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    return 0;
}

static void nginx_stop(pid_t pid, const char *dir)
{
    if (pid > 0) {
        kill(pid, SIGQUIT); /* graceful: the master stops its workers */
        waitpid(pid, NULL, 0);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_serve: could not remove %s\n", dir);
}

/* The same requests against the service and the baselines, closed loop,
 * at 1, 8 and 64 connections: throughput and p99 with their ratios
 * (service / baseline: throughput above 1 is better, p99 below 1). */
/* /prioritize with whole Node objects (nodeCacheCapable: false): 50 nodes
 * of ~9.5 KB, 50 image entries each, against building cJSON's tree of
 * the same body and freeing it (what the service did before it read the
 * body in one pass). */
static void full_nodes(ct_service_t *svc)
{
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap), *o;
    if (!b)
        return;
    n += (size_t)snprintf(b + n, cap - n,
                          "{\"Pod\": {\"metadata\": {\"name\": \"p\", \"labels\": {\"contend.io/class\": \"fig1\", "
                          "\"contend.io/job\": \"full-1\", \"contend.io/task\": \"det\"}}, \"spec\": {}}, "
                          "\"NodeNames\": null, \"Nodes\": {\"items\": [");
    for (int i = 0; i < 50; i++) {
        n += (size_t)snprintf(b + n, cap - n,
                              "%s{\"metadata\": {\"name\": \"node-%d\", \"labels\": {\"kubernetes.io/hostname\": "
                              "\"node-%d\"}}, \"status\": {\"images\": [",
                              i ? ", " : "", i, i);
        for (int k = 0; k < 50; k++)
            n += (size_t)snprintf(b + n, cap - n,
                                  "%s{\"names\": [\"registry.example.com/team/image-%d@sha256:0123456789abcdef"
                                  "0123456789abcdef0123456789abcdef0123456789abcdef\", "
                                  "\"registry.example.com/team/image-%d:v1.2.%d\"], \"sizeBytes\": %d}",
                                  k ? ", " : "", k, k, k, 100000 + k);
        n += (size_t)snprintf(b + n, cap - n, "]}}");
    }
    n += (size_t)snprintf(b + n, cap - n, "]}}");
    size_t olen;
    double t, tc;
    BENCH_MIN(t, 5, {
        for (int i = 0; i < 20; i++) {
            ct_service_handle(svc, "POST", "/prioritize", b, n, &o, &olen);
            free(o);
        }
    });
    BENCH_MIN(tc, 5, {
        for (int i = 0; i < 20; i++)
            cJSON_Delete(cJSON_ParseWithLengthOpts(b, n, NULL, 0));
    });
    printf("/prioritize with 50 whole Node objects (%zu KB): %.3f ms a call, %.2fx the time of building and\n"
           "freeing cJSON's tree of the body alone (%.3f ms)\n",
           n >> 10, 1e3 * t / 20, t / tc, 1e3 * tc / 20);
    free(b);
}

#define VS_REPS 15 /* rounds per setting in versus_static (odd: a middle value) */

/* The median of n values (reordered in place). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static void versus_static(const char *place, const char *prio, ct_service_t *svc)
{
    static_answer_t ans[2];
    const char *bodies[2] = { place, prio }, *paths[2] = { "/place", "/prioritize" };
    for (int k = 0; k < 2; k++) { /* the service's own answer, as the baselines' fixed body */
        size_t n;
        ct_service_handle(svc, "POST", paths[k], bodies[k], strlen(bodies[k]), &ans[k].body, &n);
        ans[k].len = n;
    }
    uint16_t mhd_port = 0, ngx_port = 0;
    struct MHD_Daemon *d = static_mhd_start(&ans[0], &mhd_port);
    struct MHD_Daemon *d2 = NULL;
    uint16_t mhd_port2 = 0;
    d2 = static_mhd_start(&ans[1], &mhd_port2);
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/ct-bench-nginx-%d", (int)getpid());
    pid_t ngx = nginx_start(dir, &ans[0], &ans[1], &ngx_port);
    printf("\nversus a static server (same answer bytes, nothing computed), closed loop like wrk, one epoll\n"
           "client thread, %d rounds each running every server back to back; rates and p99 are medians over\n"
           "the rounds, ratios (contend / baseline) the median of the ratios within a round (throughput:\n"
           "higher is better; p99: lower is better; goal: throughput within 0.8x of the static server):\n",
           VS_REPS);
    if (!ngx)
        printf("  (nginx is not installed or did not start: the libmicrohttpd baseline only)\n");
    printf("  %-12s %5s %10s %9s | %10s %9s %6s %6s | %10s %9s %6s %6s\n", "request", "conns", "contend/s", "p99 us",
           "mhd/s", "p99 us", "tput", "p99", "nginx/s", "p99 us", "tput", "p99");
    static const int conns[] = { 1, 8, 64 };
    for (int k = 0; k < 2; k++)
        for (size_t c = 0; c < sizeof conns / sizeof *conns; c++) {
            int per = conns[c] == 1 ? 2000 : 8000 / conns[c];
            /* VS_REPS rounds, each running the servers back to back in a
             * rotating order: a round's runs share the machine's weather (a
             * 2-core VM that the client shares, connections spread over the
             * servers' threads anew), so the ratios are taken within a round
             * and their median reported, beside each server's median rate
             * and p99. */
            double rate[3][VS_REPS], p99[3][VS_REPS], tput[2][VS_REPS], lat[2][VS_REPS];
            int errors = 0;
            const uint16_t ports[3] = { port, k ? mhd_port2 : mhd_port, ngx_port };
            for (int rep = 0; rep < VS_REPS; rep++) {
                for (int j = 0; j < 3; j++) {
                    int w = (rep + j) % 3;
                    if (w == 2 && !ngx) {
                        rate[w][rep] = p99[w][rep] = 1;
                        continue;
                    }
                    stats_t x = drive(ports[w], paths[k], bodies[k], conns[c], per, 0);
                    rate[w][rep] = x.rate;
                    p99[w][rep] = x.p99;
                    errors |= x.errors;
                }
                for (int b = 0; b < 2; b++) {
                    tput[b][rep] = rate[0][rep] / rate[b + 1][rep];
                    lat[b][rep] = p99[0][rep] / p99[b + 1][rep];
                }
            }
            stats_t a = { 0, median(p99[0], VS_REPS), 0, median(rate[0], VS_REPS), 0 };
            stats_t m = { 0, median(p99[1], VS_REPS), 0, median(rate[1], VS_REPS), 0 };
            stats_t g = { 0, median(p99[2], VS_REPS), 0, median(rate[2], VS_REPS), 0 };
            printf("  %-12s %5d %10.0f %9.1f | %10.0f %9.1f %5.2fx %5.2fx", paths[k], conns[c], a.rate, 1e6 * a.p99,
                   m.rate, 1e6 * m.p99, median(tput[0], VS_REPS), median(lat[0], VS_REPS));
            if (ngx)
                printf(" | %10.0f %9.1f %5.2fx %5.2fx", g.rate, 1e6 * g.p99, median(tput[1], VS_REPS),
                       median(lat[1], VS_REPS));
            printf("%s\n", errors ? " ERRORS" : "");
        }
    nginx_stop(ngx, dir);
    MHD_stop_daemon(d);
    MHD_stop_daemon(d2);
    free(ans[0].body);
    free(ans[1].body);
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
    versus_static(place, prio, svc);
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
    double tp;
    BENCH_MIN(tp, 5, {
        for (int i = 0; i < 10000; i++) {
            ct_service_handle(svc, "POST", "/prioritize", prio, sizeof prio - 1, &o, &olen);
            free(o);
        }
    });
    printf("placement service: %d keep-alive loopback connections, %d requests each, 2 server threads\n"
           "(goal: p99 under 100 us); ct_service_handle alone: %.2f us a /place, %.2f us a /prioritize.\n"
           "\"1 thread\": one epoll thread drives the 64 connections, each on a fixed schedule (open loop,\n"
           "like wrk); \"paced\": "
"64 client threads on the same schedule, sharing the cores with the server; \"back to back\":\n"
           "64 threads each sending when its answer arrives (latency = 64 / rate, Little's law).\n",
           CLIENTS, PER_CLIENT, 1e6 * t / 10000, 1e6 * tp / 10000);
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
    full_nodes(svc);
    ct_http_stop(h);
    ct_service_free(svc);
    unlink(path_buf);
    return 0;
}
