/*
 * service.c - the placement service without sockets: /healthz, /place
 * (nearest scenario, names or a count, pooled roots, the draws' spread
 * against the sampler's own), the Kubernetes extender (one consistent draw
 * per job, scores, the cache's eviction, kube-scheduler's request shapes
 * with realistic Node objects in both cache modes, rotating candidate
 * subsets), /metrics, /reload while 4 threads place,
 * and hostile or malformed requests (4xx, never a crash).
 */
#define _DEFAULT_SOURCE
#include "ct_sampler.h"
#include "ct_service.h"
#include "ct_test.h"
#include "ct_test_lookup.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <unistd.h>

static char lookup_path[64];

static int call(ct_service_t *s, const char *method, const char *path, const char *body, char **out)
{
    size_t n;
    int st = ct_service_handle(s, method, path, body, body ? strlen(body) : 0, out, &n);
    CHECK(*out && strlen(*out) == n);
    return st;
}

/* One request: its status is want and its answer holds needle (NULL: any). */
static void expect_answer(ct_service_t *s, const char *method, const char *path, const char *body, int want,
                          const char *needle)
{
    char *o;
    int st = call(s, method, path, body, &o);
    CHECK_MSG(st == want && (!needle || strstr(o, needle)), "%s %s: %d %s", method, path, st, o ? o : "(null)");
    free(o);
}

/* Writes text (malloc'd; freed here) to path. */
static void write_text(const char *path, char *text)
{
    ct_test_write(path, text);
    free(text);
}

static void write_lookup(const double *rates, size_t n)
{
    write_text(lookup_path, make_lookup(rates, n));
}

static void basics(ct_service_t *s)
{
    char *o;
    CHECK(call(s, "GET", "/healthz", NULL, &o) == 200 && strstr(o, "\"scenarios\": 2") && strstr(o, "\"classes\": 1"));
    free(o);
    /* any prefix (kube-scheduler's urlPrefix may carry a path), HEAD as GET,
     * a query string ignored; Allow for a 405 */
    expect_answer(s, "HEAD", "/healthz", NULL, 200, NULL);
    expect_answer(s, "GET", "/contend/v1/healthz?verbose=1", NULL, 200, "\"scenarios\": 2");
    /* a pod that is not ours (no contend.io/class; kube-scheduler sends every
     * pod without managedResources): 200, the same score on every node */
    expect_answer(s, "POST", "/prioritize",
                  "{\"Pod\": {\"metadata\": {\"name\": \"web\", \"labels\": {\"app\": \"web\"}}}, \"Nodes\": null, "
                  "\"NodeNames\": [\"a\", \"b\"]}",
                  200, "[{\"Host\": \"a\", \"Score\": 0}, {\"Host\": \"b\", \"Score\": 0}]\n");
    expect_answer(s, "POST", "/prioritize",
                  "{\"Pod\": {\"metadata\": {\"name\": \"web\"}}, \"NodeNames\": null, "
                  "\"Nodes\": {\"items\": [{\"metadata\": {\"name\": \"n1\"}}]}}",
                  200, "[{\"Host\": \"n1\", \"Score\": 0}]\n");
    CHECK(!strcmp(ct_service_allow("/healthz"), "GET, HEAD") && !strcmp(ct_service_allow("/contend/prioritize"), "POST") &&
          !strcmp(ct_service_allow("/reload?x"), "POST") && !ct_service_allow("/nope") && !ct_service_allow(""));
    /* Nearest scenario by rates; names come back as given. */
    CHECK(call(s, "POST", "/place", "{\"class\": \"fig1\", \"servers\": 80, \"rates\": {\"fig1\": 440}}", &o) == 200);
    CHECK(strstr(o, "\"scenario\": 1") != NULL);
    free(o);
    CHECK(call(s, "POST", "/place", "{\"class\": \"fig1\", \"servers\": [\"a\", \"b\", \"c\", \"d\"]}", &o) == 200);
    CHECK(strstr(o, "\"scenario\": 0") && strstr(o, "\"sum\": \"") && !strstr(o, "\"sum\": 0"));
    free(o);
    /* Pooled roots: with one empty server among loaded ones the root (sum,
     * the first task) lands there when the table samples d > 1; at least
     * the request is accepted and placed on a named server. */
    CHECK(call(s, "POST", "/place",
               "{\"class\": \"fig1\", \"servers\": [\"a\", \"b\", \"c\"], \"queue_lengths\": [5, 0, 5]}", &o) == 200);
    free(o);
    static const struct {
        const char *method, *path, *body;
        int status;
        const char *needle;
    } bad[] = {
        { "POST", "/place", "{\"class\": \"fig1\"", 400, "malformed JSON" },
        { "POST", "/place", "", 400, "(empty)" },
        { "POST", "/place", "[1, 2]", 400, "expected a JSON object" },
        { "POST", "/place", "{\"class\": 3, \"servers\": 4}", 400, "class: expected a string" },
        { "POST", "/place", "{\"class\": \"nope\", \"servers\": 4}", 400, "class: unknown 'nope'" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 0}", 400, "servers" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 2.5}", 400, "servers" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": [1, 2]}", 400, "array of strings" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 4, \"rates\": {\"x\": 1}}", 400, "unknown class 'x'" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 4, \"rates\": {\"fig1\": -1}}", 400, "rates.fig1" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 2, \"queue_lengths\": [1]}", 400, "queue_lengths" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 4} trailing", 400, "data after" },
        { "POST", "/place", "{\"class\": \"fig1\", \"servers\": 1}", 422, "fewer than" },
        { "GET", "/place", NULL, 405, "use POST" },
        { "POST", "/healthz", "{}", 405, "use GET" },
        { "GET", "/x", NULL, 404, "no such endpoint" },
        { "GET", "/contend/nope?x=1", NULL, 404, "/contend/nope?x=1: no such endpoint" },
        { "GET", "/contend/place", NULL, 405, "use POST" },
        { "POST", "/prioritize", "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\"}}}, "
          "\"NodeNames\": [\"a\"]}", 400, "needs contend.io/job" },
        { "POST", "/prioritize", "[]", 400, "expected a JSON object" },
        { "POST", "/prioritize",
          "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"j\", "
          "\"contend.io/task\": \"sum\"}}}, \"NodeNames\": []}",
          400, "candidate nodes" },
        { "POST", "/prioritize",
          "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"j\", "
          "\"contend.io/task\": \"nope\"}}}, \"NodeNames\": [\"a\"]}",
          400, "no task 'nope'" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int st = call(s, bad[k].method, bad[k].path, bad[k].body, &o);
        CHECK_MSG(st == bad[k].status && strstr(o, "\"error\"") && strstr(o, bad[k].needle), "case %zu: %d %s", k,
                  st, o);
        free(o);
    }
    /* Nesting deep enough to exhaust a naive parser is refused cleanly. */
    char deep[20001];
    memset(deep, '[', 20000);
    deep[20000] = '\0';
    CHECK(call(s, "POST", "/place", deep, &o) == 400);
    free(o);
    size_t n;
    CHECK(ct_service_handle(s, "POST", "/place", "{}", CT_SERVICE_MAX_BODY + 1, &o, &n) == 413);
    free(o);
}

/* The spread of a job's tasks (distinct servers) from the service against
 * the sampler's own draws, both over 20000 jobs on 16 servers. */
static void distribution(ct_service_t *s)
{
    char msg[256];
    ct_sampler_t *smp;
    CHECK(ct_sampler_load(lookup_path, &smp, msg, sizeof msg) == 0);
    ct_rng_t rng;
    ct_rng_seed(&rng, 99);
    double hs[5] = { 0 }, hd[5] = { 0 };
    const int N = 20000;
    for (int i = 0; i < N; i++) {
        uint32_t out[4];
        CHECK(ct_sampler_place(smp, 0, 0, 16, &rng, out, NULL) == 0);
        int d = 0;
        for (int a = 0; a < 4; a++) {
            int seen = 0;
            for (int b = 0; b < a; b++)
                seen |= out[a] == out[b];
            d += !seen;
        }
        hd[d]++;
        char *o;
        CHECK(call(s, "POST", "/place", "{\"class\": \"fig1\", \"servers\": 16}", &o) == 200);
        unsigned v[4];
        CHECK(sscanf(strstr(o, "\"placement\""), "\"placement\": {\"sum\": %u, \"det\": %u, \"det_sparse\": %u, \"add\": %u",
                     &v[0], &v[1], &v[2], &v[3]) == 4);
        d = 0;
        for (int a = 0; a < 4; a++) {
            int seen = 0;
            for (int b = 0; b < a; b++)
                seen |= v[a] == v[b];
            d += !seen;
        }
        hs[d]++;
        free(o);
    }
    for (int d = 1; d <= 4; d++) /* 5 sigma of a binomial */
        CHECK_MSG(fabs(hs[d] - hd[d]) <= 5 * sqrt(2 * fmax(hd[d], 25) * (1 - hd[d] / N)) + 1, "%d: %g vs %g", d, hs[d],
                  hd[d]);
    ct_sampler_free(smp);
}

static void extender(ct_service_t *s)
{
    static const char *const tasks[] = { "sum", "det", "det_sparse", "add" };
    char body[1024], *o, drawn[4][16];
    /* Four pods of one job, candidates in different orders: every task's
     * pod gets exactly one node with 10, and the draw is the job's. */
    for (int t = 0; t < 4; t++) {
        snprintf(body, sizeof body,
                 "{\"Pod\": {\"metadata\": {\"name\": \"p%d\", \"labels\": {\"contend.io/class\": \"fig1\", "
                 "\"contend.io/job\": \"job-1\", \"contend.io/task\": \"%s\"}}}, \"Nodes\": {\"items\": ["
                 "{\"metadata\": {\"name\": \"%s\"}}, {\"metadata\": {\"name\": \"n2\"}}, {\"metadata\": {\"name\": "
                 "\"n3\"}}, {\"metadata\": {\"name\": \"%s\"}}]}}",
                 t, tasks[t], t % 2 ? "n4" : "n1", t % 2 ? "n1" : "n4");
        CHECK(call(s, "POST", "/prioritize", body, &o) == 200);
        int tens = 0;
        for (char *p = o; (p = strstr(p, "\"Score\": 10")); p++)
            tens++;
        CHECK(tens == 1);
        char *p = strstr(o, "\"Score\": 10");
        /* The host of that entry precedes it. */
        char *h = p;
        while (h > o && strncmp(h, "\"Host\": \"", 9))
            h--;
        CHECK(sscanf(h, "\"Host\": \"%15[^\"]", drawn[t]) == 1);
        free(o);
    }
    /* Asking again (another attempt for the same pod) gives the same node. */
    snprintf(body, sizeof body,
             "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"job-1\", "
             "\"contend.io/task\": \"det\"}}}, \"NodeNames\": [\"n1\", \"n2\", \"n3\", \"n4\"]}");
    CHECK(call(s, "POST", "/prioritize", body, &o) == 200);
    char want[64];
    snprintf(want, sizeof want, "{\"Host\": \"%s\", \"Score\": 10}", drawn[1]);
    CHECK(strstr(o, want) != NULL);
    free(o);
}

/* A kube-scheduler answer decodes as a HostPriorityList: one {"Host",
 * "Score"} per candidate, in order, scores whole numbers 0 .. 10; returns
 * how many score 10 and that host in top (cap bytes). */
static int host_priority_list(const char *answer, char *const *cand, int nn, char *top, size_t cap)
{
    cJSON *a = cJSON_Parse(answer);
    int tens = 0, ok = cJSON_IsArray(a) && cJSON_GetArraySize(a) == nn, i = 0;
    for (const cJSON *x = ok ? a->child : NULL; x && ok; x = x->next, i++) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(x, "Host"), *sc = cJSON_GetObjectItemCaseSensitive(x, "Score");
        ok = cJSON_IsObject(x) && cJSON_GetArraySize(x) == 2 && cJSON_IsString(h) && !strcmp(h->valuestring, cand[i]) &&
             cJSON_IsNumber(sc) && sc->valuedouble >= 0 && sc->valuedouble <= 10 &&
             sc->valuedouble == (double)(int)sc->valuedouble;
        if (ok && sc->valuedouble == 10) {
            tens++;
            snprintf(top, cap, "%s", h->valuestring);
        }
    }
    cJSON_Delete(a);
    CHECK_MSG(ok, "not a HostPriorityList of %d candidates: %.200s", nn, answer);
    return ok ? tens : -1;
}

/* ExtenderArgs as kube-scheduler sends them: Pod (labels, or none), and
 * either NodeNames (nodeCacheCapable) with Nodes null, or Nodes.items of
 * realistic Node objects (labels, capacity, conditions, 50 images: about
 * 13 kB each) with NodeNames null. */
static char *extender_args(const char *job, const char *task, char *const *cand, int nn, int full)
{
    size_t cap = 4096 + (size_t)nn * (full ? 16384 : 64), n = 0;
    char *b = malloc(cap);
    if (!b)
        return NULL;
#define ADD(...) (n += (size_t)snprintf(b + n, cap - n, __VA_ARGS__))
    ADD("{\"Pod\": {\"metadata\": {\"name\": \"%s-%s\", \"namespace\": \"default\"", job ? job : "web", task ? task : "x");
    if (job)
        ADD(", \"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"%s\", \"contend.io/task\": \"%s\"}",
            job, task);
    ADD("}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"registry.example/model:1\"}]}}, ");
    if (!full) {
        ADD("\"Nodes\": null, \"NodeNames\": [");
        for (int i = 0; i < nn; i++)
            ADD("%s\"%s\"", i ? ", " : "", cand[i]);
        ADD("]}");
        return b;
    }
    ADD("\"NodeNames\": null, \"Nodes\": {\"metadata\": {}, \"items\": [");
    for (int i = 0; i < nn; i++) {
        ADD("%s{\"metadata\": {\"name\": \"%s\", \"uid\": \"0f8e%04d-1c2b-4d5e-8f90-a1b2c3d4e5f6\", "
            "\"labels\": {\"kubernetes.io/hostname\": \"%s\", \"node.kubernetes.io/instance-type\": \"gpu-8x\", "
            "\"topology.kubernetes.io/zone\": \"zone-a\"}}, \"spec\": {\"podCIDR\": \"10.244.%d.0/24\"}, "
            "\"status\": {\"capacity\": {\"cpu\": \"96\", \"memory\": \"792Gi\", \"nvidia.com/gpu\": \"8\"}, "
            "\"conditions\": [{\"type\": \"Ready\", \"status\": \"True\", \"reason\": \"KubeletReady\"}], \"images\": [",
            i ? ", " : "", cand[i], i, cand[i], i % 250);
        for (int k = 0; k < 50; k++)
            ADD("%s{\"names\": [\"registry.example/team-%02d/serving-image@sha256:%064d\", "
                "\"registry.example/team-%02d/serving-image:v%d.%d\", \"registry.example/team-%02d/serving-image:latest\"], "
                "\"sizeBytes\": %d}",
                k ? ", " : "", k, k * 7919 + i, k, k, i % 10, k, 100000000 + k * 1000 + i);
        ADD("]}}");
    }
    ADD("]}}");
#undef ADD
    CHECK(n < cap);
    return b;
}

static void kube_shapes(void)
{
    enum { NN = 200 };
    char *cand[NN], *o, top[64];
    for (int i = 0; i < NN; i++) {
        cand[i] = malloc(32);
        snprintf(cand[i], 32, "gpu-node-%03d.zone-a.example", (i * 37) % NN);
    }
    for (int full = 0; full < 2; full++) {
        ct_service_t *s;
        char msg[256];
        CHECK(ct_service_open(lookup_path, NULL, &s, msg, sizeof msg) == 0);
        /* a pod that is not ours, then every task of a job: one 10 each */
        char *b = extender_args(NULL, NULL, cand, NN, full);
        CHECK(b && (!full || strlen(b) > (size_t)NN * 12800)); /* as kube-scheduler sends them */
        CHECK(call(s, "POST", "/prioritize", b ? b : "", &o) == 200);
        CHECK(host_priority_list(o, cand, NN, top, sizeof top) == 0);
        free(o);
        free(b);
        static const char *const tasks[] = { "sum", "det", "det_sparse", "add" };
        for (int t = 0; t < 4; t++) {
            b = extender_args("job-7", tasks[t], cand, NN, full);
            CHECK(call(s, "POST", "/prioritize", b ? b : "", &o) == 200);
            CHECK(host_priority_list(o, cand, NN, top, sizeof top) == 1);
            free(o);
            free(b);
        }
        ct_service_free(s);
    }
    /* over the cap of the full form: 413, named */
    char *b = extender_args("job-8", "sum", cand, NN, 1);
    CHECK(b != NULL);
    ct_service_t *s;
    char msg[256];
    size_t n;
    CHECK(ct_service_open(lookup_path, NULL, &s, msg, sizeof msg) == 0);
    CHECK(ct_service_handle(s, "POST", "/prioritize", b, CT_SERVICE_MAX_PRIORITIZE_BODY + 1, &o, &n) == 413);
    free(o);
    CHECK(ct_service_handle(s, "POST", "/place", b, CT_SERVICE_MAX_BODY + 1, &o, &n) == 413);
    free(o);
    ct_service_free(s);
    free(b);
    for (int i = 0; i < NN; i++)
        free(cand[i]);
}

/* The node a job's task scores 10 on among cand (NodeNames). */
static void node_of(ct_service_t *s, const char *job, const char *task, char *const *cand, int nn, char *node,
                    size_t cap)
{
    char *b = extender_args(job, task, cand, nn, 0), *o;
    CHECK(call(s, "POST", "/prioritize", b ? b : "", &o) == 200);
    CHECK(host_priority_list(o, cand, nn, node, cap) == 1);
    free(o);
    free(b);
}

/* kube-scheduler scores a rotating subset of a large cluster: a pod whose
 * candidates exclude its task's node moves that node's tasks of the job
 * to a candidate the job does not use; the rest of the job stays. */
static void rotating_subsets(void)
{
    ct_service_t *s;
    char msg[256], *all[8], *rest[7], node[4][32], moved[32], again[32];
    static const char *const tasks[] = { "sum", "det", "det_sparse", "add" };
    CHECK(ct_service_open(lookup_path, NULL, &s, msg, sizeof msg) == 0);
    static char names[8][16];
    for (int i = 0; i < 8; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        all[i] = names[i];
    }
    for (int t = 0; t < 4; t++)
        node_of(s, "rot", tasks[t], all, 8, node[t], sizeof node[t]);
    int k = 0;
    for (int i = 0; i < 8; i++)
        if (strcmp(all[i], node[1]))
            rest[k++] = all[i];
    CHECK(k == 7);
    node_of(s, "rot", "det", rest, 7, moved, sizeof moved);
    CHECK(strcmp(moved, node[1]) != 0);
    for (int t = 0; t < 4; t++) { /* the job's other parts are elsewhere */
        if (strcmp(node[t], node[1]))
            CHECK_MSG(strcmp(moved, node[t]) != 0, "moved onto %s, where %s runs", moved, tasks[t]);
    }
    for (int t = 0; t < 4; t++) { /* tasks on the old node follow; the others stay */
        node_of(s, "rot", tasks[t], all, 8, again, sizeof again);
        CHECK_MSG(!strcmp(again, strcmp(node[t], node[1]) ? node[t] : moved), "%s: %s", tasks[t], again);
    }
    expect_answer(s, "GET", "/metrics", NULL, 200, "\ncontend_prioritize_rebinds_total 1\n");
    ct_service_free(s);
}

/* The cache is bounded in bytes as well as jobs: long node names fill
 * it fast; the oldest jobs go, the newest always stays and answers as
 * before. A job's tasks on one node hold its name once. */
static void byte_bound(void)
{
    ct_service_params_t p;
    ct_service_params_init(&p);
    p.job_cache = 1000;
    p.job_cache_bytes = 4096;
    ct_service_t *s;
    char msg[256], *o, *first = NULL, body[8192], names[4][1100];
    CHECK(ct_service_open(lookup_path, &p, &s, msg, sizeof msg) == 0);
    for (int i = 0; i < 4; i++) {
        memset(names[i], 'a' + i, 1000);
        names[i][1000] = '\0';
    }
    for (int j = 0; j < 30; j++) {
        snprintf(body, sizeof body,
                 "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"b%d\", "
                 "\"contend.io/task\": \"det\"}}}, \"NodeNames\": [\"%s\", \"%s\", \"%s\", \"%s\"]}",
                 j, names[0], names[1], names[2], names[3]);
        CHECK(call(s, "POST", "/prioritize", body, &o) == 200 && strstr(o, "\"Score\": 10"));
        if (j == 29)
            first = o;
        else
            free(o);
    }
    CHECK(call(s, "POST", "/prioritize", body, &o) == 200 && first && !strcmp(o, first)); /* the newest stays */
    free(o);
    free(first);
    CHECK(call(s, "GET", "/metrics", NULL, &o) == 200);
    unsigned long jobs = 0, bytes = 0;
    const char *a = strstr(o, "\ncontend_job_cache_jobs "), *b = strstr(o, "\ncontend_job_cache_bytes ");
    CHECK(a && b && sscanf(a, "\ncontend_job_cache_jobs %lu", &jobs) == 1 &&
          sscanf(b, "\ncontend_job_cache_bytes %lu", &bytes) == 1);
    CHECK_MSG(jobs >= 1 && jobs <= 3 && bytes <= 4096, "%lu jobs, %lu bytes", jobs, bytes);
    free(o);
    ct_service_free(s);
}

static void eviction(void)
{
    ct_service_params_t p;
    ct_service_params_init(&p);
    p.job_cache = 3;
    ct_service_t *s;
    char msg[256], body[512], *o;
    CHECK(ct_service_open(lookup_path, &p, &s, msg, sizeof msg) == 0);
    /* 50 jobs through a 3-entry cache: every answer is well formed, and a
     * job still cached answers as before. */
    for (int j = 0; j < 50; j++) {
        snprintf(body, sizeof body,
                 "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": \"j%d\", "
                 "\"contend.io/task\": \"add\"}}}, \"NodeNames\": [\"a\", \"b\", \"c\", \"d\", \"e\"]}",
                 j % 7);
        CHECK(call(s, "POST", "/prioritize", body, &o) == 200 && strstr(o, "\"Score\": 10"));
        char *again;
        CHECK(call(s, "POST", "/prioritize", body, &again) == 200 && !strcmp(o, again));
        free(again);
        free(o);
    }
    ct_service_free(s);
}

typedef struct {
    ct_service_t *s;
    int ok, n;
} worker_t;

static void *worker(void *arg)
{
    worker_t *w = arg;
    for (int i = 0; i < w->n; i++) {
        char *o;
        size_t len;
        const char *b = "{\"class\": \"fig1\", \"servers\": 8}";
        int st = ct_service_handle(w->s, "POST", "/place", b, strlen(b), &o, &len);
        w->ok += st == 200 && o && strstr(o, "\"placement\"");
        free(o);
    }
    return NULL;
}

static void reload_under_load(ct_service_t *s)
{
    worker_t w[4];
    pthread_t th[4];
    for (int k = 0; k < 4; k++) {
        w[k] = (worker_t){ s, 0, 3000 };
        CHECK(pthread_create(&th[k], NULL, worker, &w[k]) == 0);
    }
    /* Swap tables back and forth while they place: one and three scenarios. */
    static const double one[] = { 100 }, three[] = { 100, 300, 500 };
    char *text[2] = { make_lookup(three, 3), make_lookup(one, 1) }, *o;
    for (int r = 0; r < 20; r++) {
        ct_test_write(lookup_path, text[r % 2]);
        CHECK(call(s, "POST", "/reload", "", &o) == 200);
        free(o);
    }
    free(text[0]);
    free(text[1]);
    for (int k = 0; k < 4; k++) {
        pthread_join(th[k], NULL);
        CHECK(w[k].ok == w[k].n); /* no request dropped or failed */
    }
    CHECK(call(s, "GET", "/healthz", NULL, &o) == 200 && strstr(o, "\"scenarios\": 1") && strstr(o, "\"reloads\": 20"));
    free(o);
    /* A broken file: 500, and the previous table keeps serving. */
    ct_test_write(lookup_path, "{\"format\": \"contend-table/1\"");
    CHECK(call(s, "POST", "/reload", "", &o) == 500 && strstr(o, "previous table stays"));
    free(o);
    CHECK(call(s, "POST", "/place", "{\"class\": \"fig1\", \"servers\": 8}", &o) == 200);
    free(o);
}

/* /prioritize's scenario follows the jobs it sees: new jobs per second over
 * the last minute (a test clock), the nearest scenario, both in /healthz. */
static double fake_now;
static double fake_clock(void *ctx)
{
    (void)ctx;
    return fake_now;
}

static void measured_rates(void)
{
    ct_service_params_t p;
    ct_service_t *s;
    char msg[256], body[512];
    ct_service_params_init(&p);
    p.clock = fake_clock;
    fake_now = 5000.5;
    CHECK(ct_service_open(lookup_path, &p, &s, msg, sizeof msg) == 0);
    expect_answer(s, "GET", "/healthz", NULL, 200, "\"measured_rates\": {\"fig1\": 0}, \"prioritize_scenario\": 0}");
    for (int j = 0; j < 240; j++) { /* 240 new jobs in two seconds: 120 / s, nearer 100 than 450 (relative) */
        fake_now = 5000.5 + (j >= 120);
        snprintf(body, sizeof body,
                 "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": "
                 "\"r%d\", \"contend.io/task\": \"sum\"}}}, \"NodeNames\": [\"a\", \"b\", \"c\", \"d\"]}",
                 j);
        expect_answer(s, "POST", "/prioritize", body, 200, "\"Score\": 10");
        if (j < 3) /* a job's later pods do not count */
            expect_answer(s, "POST", "/prioritize", body, 200, "\"Score\": 10");
    }
    expect_answer(s, "GET", "/healthz", NULL, 200, "\"fig1\": 120}, \"prioritize_scenario\": 0}");
    for (int j = 240; j < 840; j++) { /* 600 more in the second after: 840 / 3 s = 280 / s, nearer 450 */
        fake_now = 5002.5;
        snprintf(body, sizeof body,
                 "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": "
                 "\"r%d\", \"contend.io/task\": \"sum\"}}}, \"NodeNames\": [\"a\", \"b\", \"c\", \"d\"]}",
                 j);
        expect_answer(s, "POST", "/prioritize", body, 200, "\"Score\": 10");
    }
    expect_answer(s, "GET", "/healthz", NULL, 200, "\"prioritize_scenario\": 1}");
    fake_now = 5100; /* a minute without jobs: the rates fall back to 0 */
    expect_answer(s, "GET", "/healthz", NULL, 200, "\"fig1\": 0}, \"prioritize_scenario\": 0}");
    ct_service_free(s);
}

/* The table's root rule in /prioritize (d = 2 here): with the clock held
 * (every job still in flight) each new job's root goes to the less loaded
 * of two candidates, loads being the tasks of the jobs drawn before, so
 * the tasks spread more evenly than with uniform roots (the same jobs with
 * the clock moved past each job's predicted JCT: nothing in flight).
 * Returns the variance of the tasks per node over 8 nodes. */
static double task_spread(int hold_clock)
{
    ct_service_params_t p;
    ct_service_t *s;
    char msg[256], body[512], *o;
    static const char *const tasks[] = { "sum", "det", "det_sparse", "add" };
    ct_service_params_init(&p);
    p.clock = fake_clock;
    fake_now = 7000;
    CHECK(ct_service_open(lookup_path, &p, &s, msg, sizeof msg) == 0);
    int count[8] = { 0 };
    for (int j = 0; j < 160; j++) {
        if (!hold_clock)
            fake_now += 10; /* every earlier job done */
        for (int t = 0; t < 4; t++) {
            snprintf(body, sizeof body,
                     "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"fig1\", \"contend.io/job\": "
                     "\"rr%d\", \"contend.io/task\": \"%s\"}}}, \"NodeNames\": [\"n0\", \"n1\", \"n2\", \"n3\", \"n4\", "
                     "\"n5\", \"n6\", \"n7\"]}",
                     j, tasks[t]);
            CHECK(call(s, "POST", "/prioritize", body, &o) == 200);
            const char *ten = strstr(o, "\"Score\": 10"), *h = ten;
            while (h && h > o && strncmp(h, "\"Host\": \"n", 10))
                h--;
            if (h && ten)
                count[h[10] - '0']++;
            free(o);
        }
    }
    ct_service_free(s);
    double mean = 4 * 160 / 8.0, var = 0;
    for (int k = 0; k < 8; k++)
        var += (count[k] - mean) * (count[k] - mean) / 8;
    return var;
}

/* A table solved for late-bound parts (the ensemble splits its three
 * models): /place leaves the parts away from the root's server unbound
 * (null) and lists them; /bind gives the least loaded of the table's d
 * under the queue lengths it is sent (every draw among the emptiest when
 * all but d - 1 servers are full is impossible to tell from uniform: here
 * one empty server out of 4 must win at least as often as with d = 2,
 * 1 - (3/4)^2 = 7/16). */
static void late_parts(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/ct-service-late-%d.json", (int)getpid());
    double rate = 1000;
    write_text(path, make_lookup_of("data/scenarios/ensemble.json", &rate, 1, 1));
    ct_service_t *s;
    char msg[256], *o;
    CHECK(ct_service_open(path, NULL, &s, msg, sizeof msg) == 0);
    CHECK(call(s, "POST", "/place", "{\"class\": \"ensemble\", \"servers\": [\"a\", \"b\", \"c\", \"d\"]}", &o) == 200);
    cJSON *j = cJSON_Parse(o);
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(j, "placement");
    const cJSON *lp = cJSON_GetObjectItemCaseSensitive(j, "late_parts");
    const cJSON *bc = cJSON_GetObjectItemCaseSensitive(j, "bind_choices");
    CHECK_MSG(cJSON_IsArray(lp) && cJSON_GetArraySize(lp) == 2 && cJSON_IsNumber(bc) && bc->valuedouble == 2, "%s", o);
    int nulls = 0, listed = 0;
    for (const cJSON *x = pl ? pl->child : NULL; x; x = x->next)
        nulls += cJSON_IsNull(x);
    for (const cJSON *part = lp ? lp->child : NULL; part; part = part->next)
        for (const cJSON *t = part->child; t; t = t->next) {
            listed++;
            CHECK(cJSON_IsString(t) && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(pl, t->valuestring)));
        }
    CHECK_MSG(nulls == 2 && listed == 2, "%s", o);
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(pl, "decode")));
    cJSON_Delete(j);
    free(o);
    int empty = 0;
    for (int k = 0; k < 400; k++) {
        CHECK(call(s, "POST", "/bind", "{\"servers\": [\"a\", \"b\", \"c\", \"d\"], \"queue_lengths\": [5, 5, 0, 5]}",
                   &o) == 200);
        CHECK(strstr(o, "\"choices\": 2"));
        empty += strstr(o, "\"server\": \"c\"") != NULL;
        free(o);
    }
    CHECK_MSG(empty > 400 * 7 / 16 - 40, "/bind chose the one empty server %d of 400 times", empty);
    expect_answer(s, "POST", "/bind", "{\"servers\": 4}", 400, "queue_lengths: required");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"queue_lengths\": [1, 2]}", 400, "queue_lengths: expected");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"queue_lengths\": [1, 2, 3, 4], \"scenario\": 3}", 400,
                  "scenario: expected");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"queue_lengths\": [1, 0, 3, 4], \"scenario\": 0}", 200,
                  "\"server\": ");
    expect_answer(s, "GET", "/bind", NULL, 405, NULL);
    /* probes: d x m distinct servers of those named, all if fewer; no
     * queue lengths needed; a bad rule or parts refused */
    int each[4] = { 0 }, distinct = 1;
    for (int k = 0; k < 400; k++) {
        CHECK(call(s, "POST", "/bind", "{\"servers\": [\"a\", \"b\", \"c\", \"d\"], \"rule\": \"probes\"}", &o) == 200);
        cJSON *a = cJSON_Parse(o);
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(a, "probes");
        CHECK_MSG(cJSON_GetArraySize(pr) == 2, "%s", o);
        int seen[4] = { 0 };
        for (const cJSON *x = pr ? pr->child : NULL; x; x = x->next)
            if (cJSON_IsString(x) && x->valuestring[0] >= 'a' && x->valuestring[0] <= 'd' && !x->valuestring[1]) {
                distinct &= !seen[x->valuestring[0] - 'a'];
                seen[x->valuestring[0] - 'a'] = 1;
                each[x->valuestring[0] - 'a']++;
            } else {
                distinct = 0;
            }
        cJSON_Delete(a);
        free(o);
    }
    CHECK_MSG(distinct, "/bind probes: a repeated or unknown server");
    for (int v = 0; v < 4; v++)
        CHECK_MSG(each[v] > 400 / 2 - 60 && each[v] < 400 / 2 + 60, "/bind probes: server %d in %d of 400", v, each[v]);
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"rule\": \"probes\", \"parts\": 9}", 200,
                  "\"probes\": [");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"rule\": \"fastest\"}", 400, "rule: expected");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"rule\": \"probes\", \"parts\": 0}", 400, "parts: expected");
    expect_answer(s, "POST", "/bind", "{\"servers\": 4, \"parts\": 2, \"queue_lengths\": [1, 0, 3, 4]}", 400,
                  "parts: expected");
    /* A table solved for probes (model.late_bind): /bind answers probes by
     * default, the least loaded of d when asked for it */
    char ppath[64];
    snprintf(ppath, sizeof ppath, "/tmp/ct-service-probes-%d.json", (int)getpid());
    write_text(ppath, make_lookup_of("data/scenarios/ensemble.json", &rate, 1, 2));
    ct_service_t *sp;
    CHECK(ct_service_open(ppath, NULL, &sp, msg, sizeof msg) == 0);
    expect_answer(sp, "POST", "/bind", "{\"servers\": 4, \"parts\": 2}", 200, "\"probes\": [");
    expect_answer(sp, "POST", "/bind", "{\"servers\": 4, \"queue_lengths\": [1, 0, 3, 4]}", 200, "\"probes\": [");
    expect_answer(sp, "POST", "/bind",
                  "{\"servers\": 4, \"rule\": \"least-loaded\", \"queue_lengths\": [1, 0, 3, 4]}", 200,
                  "\"server\": ");
    expect_answer(sp, "POST", "/bind", "{\"servers\": 4, \"rule\": \"least-loaded\"}", 400,
                  "queue_lengths: required");
    ct_service_free(sp);
    unlink(ppath);

    /* The extender binds a late part at its first pod, not at the job's,
     * among that pod's candidates: the job's root pod scores its drawn node
     * among six; a late part's first pod, whose candidates are m4 and m5
     * (kube-scheduler's subset), binds there without a rebind (bound at the
     * root pod, it would land outside them 2 times in 3 and move); every
     * later pod of the part scores the same node; over 40 jobs both. */
    static const char *const nodes6 = "\"m0\", \"m1\", \"m2\", \"m3\", \"m4\", \"m5\"";
    char *late_task[2] = { NULL, NULL };
    CHECK(call(s, "POST", "/place", "{\"class\": \"ensemble\", \"servers\": 6}", &o) == 200);
    j = cJSON_Parse(o);
    lp = cJSON_GetObjectItemCaseSensitive(j, "late_parts");
    for (int i = 0; i < 2 && lp && cJSON_GetArrayItem(lp, i); i++)
        late_task[i] = strdup(cJSON_GetArrayItem(cJSON_GetArrayItem(lp, i), 0)->valuestring);
    cJSON_Delete(j);
    free(o);
    CHECK(late_task[0] && late_task[1]);
    int seen[6] = { 0 };
    for (int job = 0; job < 40 && late_task[0] && late_task[1]; job++) {
        char body[1024], first[3][8] = { "", "", "" };
        for (int rep = 0; rep < 2; rep++)
            for (int k = 0; k < 3; k++) {
                const char *task = k == 0 ? "decode" : late_task[k - 1];
                snprintf(body, sizeof body,
                         "{\"Pod\": {\"metadata\": {\"labels\": {\"contend.io/class\": \"ensemble\", "
                         "\"contend.io/job\": \"late-%d\", \"contend.io/task\": \"%s\"}}}, \"NodeNames\": [%s]}",
                         job, task, k > 0 && rep == 0 ? "\"m4\", \"m5\"" : nodes6);
                CHECK(call(s, "POST", "/prioritize", body, &o) == 200);
                char *ten = strstr(o, "\"Score\": 10"), *h = ten;
                int tens = 0;
                for (char *q = o; (q = strstr(q, "\"Score\": 10")); q++)
                    tens++;
                CHECK_MSG(tens == 1, "%s: %s", task, o);
                while (h && h > o && strncmp(h, "\"Host\": \"", 9))
                    h--;
                char host[8] = "";
                CHECK(h && sscanf(h, "\"Host\": \"%7[^\"]", host) == 1);
                if (rep == 0)
                    snprintf(first[k], sizeof first[k], "%s", host);
                else
                    CHECK_MSG(!strcmp(first[k], host), "%s moved from %s to %s", task, first[k], host);
                if (k > 0 && host[0] == 'm' && host[1] >= '0' && host[1] <= '5')
                    seen[host[1] - '0'] = 1;
                free(o);
            }
    }
    CHECK_MSG(seen[4] && seen[5] && !seen[0] && !seen[1] && !seen[2] && !seen[3], "late parts bound to m0-m5: %d %d %d %d %d %d",
              seen[0], seen[1], seen[2], seen[3], seen[4], seen[5]);
    expect_answer(s, "GET", "/metrics", NULL, 200, "\ncontend_prioritize_rebinds_total 0\n");
    free(late_task[0]);
    free(late_task[1]);
    ct_service_free(s);
    unlink(path);
}

static void root_rule(void)
{
    double held = task_spread(1), uniform = task_spread(0);
    fprintf(stderr, "root rule: tasks' variance over 8 nodes %.3g with 160 jobs in flight, %.3g with none\n", held,
            uniform);
    CHECK_MSG(held < 0.5 * uniform, "tasks' variance over 8 nodes: %.3g with jobs in flight, %.3g without", held,
              uniform);
}

int main(void)
{
    snprintf(lookup_path, sizeof lookup_path, "/tmp/ct-service-%d.json", (int)getpid());
    static const double rates[] = { 100, 450 };
    write_lookup(rates, 2);
    ct_service_t *s;
    char msg[256];
    CHECK(ct_service_open("/nonexistent/x.json", NULL, &s, msg, sizeof msg) == -1 && strstr(msg, "cannot open"));
    CHECK(ct_service_open(lookup_path, NULL, &s, msg, sizeof msg) == 0);
    basics(s);
    distribution(s);
    extender(s);
    eviction();
    byte_bound();
    kube_shapes();
    rotating_subsets();
    reload_under_load(s);
    ct_service_free(s);
    write_lookup(rates, 2); /* the reload test left a broken one */
    measured_rates();
    root_rule();
    late_parts();
    unlink(lookup_path);
    return ct_test_end();
}
