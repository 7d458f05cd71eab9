/* fuzz_service.c - the placement service's request handler (it faces the
 * network): the input's first byte picks the method and endpoint, the
 * rest is the body. Every answer must be a known status and valid JSON
 * (or Prometheus text for /metrics); the job cache is kept small, so
 * inputs also exercise its eviction and rebinding. */
#include "fuzz.h"
#include "ct_service.h"

#include <cjson/cJSON.h>

/* A fig1 lookup (tests/fuzz/corpus/lookup/fig1.json). */
static const char lookup[] =
    "{\n"
    "\t\"format\":\t\"contend-table/1\",\n"
    "\t\"generator\":\t\"contend 0.1.0\",\n"
    "\t\"scenarios\":\t[{\n"
    "\t\t\t\"scale\":\t1,\n"
    "\t\t\t\"hash\":\t\"0e3c7dabccb8cae0\",\n"
    "\t\t\t\"inputs\":\t{\n"
    "\t\t\t\t\"cluster\":\t{\n"
    "\t\t\t\t\t\"servers\":\t80,\n"
    "\t\t\t\t\t\"link_bandwidth\":\t10000000000,\n"
    "\t\t\t\t\t\"speed\":\t1\n"
    "\t\t\t\t},\n"
    "\t\t\t\t\"background\":\t{\n"
    "\t\t\t\t\t\"link_load\":\t0.05,\n"
    "\t\t\t\t\t\"link_second_moment\":\t1e-06\n"
    "\t\t\t\t},\n"
    "\t\t\t\t\"classes\":\t[{\n"
    "\t\t\t\t\t\t\"name\":\t\"fig1\",\n"
    "\t\t\t\t\t\t\"dag\":\t\"../examples/fig1.json\",\n"
    "\t\t\t\t\t\t\"arrival_rate\":\t100\n"
    "\t\t\t\t\t}]\n"
    "\t\t\t},\n"
    "\t\t\t\"model\":\t{\n"
    "\t\t\t\t\"method\":\t\"exact\",\n"
    "\t\t\t\t\"objective\":\t1.4416002180550247,\n"
    "\t\t\t\t\"mean_jct\":\t0.014416002180550247,\n"
    "\t\t\t\t\"rho\":\t0.26,\n"
    "\t\t\t\t\"phi\":\t0.00027162162162162163,\n"
    "\t\t\t\t\"queueing\":\t\"link+servers\",\n"
    "\t\t\t\t\"root_choices\":\t2,\n"
    "\t\t\t\t\"rho_servers\":\t0.027499999999999997,\n"
    "\t\t\t\t\"server_wait\":\t0.00014267352185089966,\n"
    "\t\t\t\t\"root_wait\":\t3.81626128879636e-06,\n"
    "\t\t\t\t\"gap\":\t0,\n"
    "\t\t\t\t\"phi_bracket\":\t[5.263157894736842e-07, 0.020004503875935428],\n"
    "\t\t\t\t\"local_mean_jct\":\t0.022008320137224223,\n"
    "\t\t\t\t\"solve_seconds\":\t0.0010576189997664187\n"
    "\t\t\t},\n"
    "\t\t\t\"classes\":\t[{\n"
    "\t\t\t\t\t\"name\":\t\"fig1\",\n"
    "\t\t\t\t\t\"arrival_rate\":\t100,\n"
    "\t\t\t\t\t\"predicted_mean_jct\":\t0.014416002180550247,\n"
    "\t\t\t\t\t\"tasks\":\t[\"sum\", \"det\", \"det_sparse\", \"add\"],\n"
    "\t\t\t\t\t\"root\":\t[\"sum\"],\n"
    "\t\t\t\t\t\"segments\":\t[{\n"
    "\t\t\t\t\t\t\t\"source\":\t[\"sum\"],\n"
    "\t\t\t\t\t\t\t\"sink\":\t[\"add\"],\n"
    "\t\t\t\t\t\t\t\"triplets\":\t[{\n"
    "\t\t\t\t\t\t\t\t\t\"probability\":\t1,\n"
    "\t\t\t\t\t\t\t\t\t\"k\":\t0,\n"
    "\t\t\t\t\t\t\t\t\t\"l\":\t1,\n"
    "\t\t\t\t\t\t\t\t\t\"parts\":\t[[\"det\"], [\"det_sparse\"]],\n"
    "\t\t\t\t\t\t\t\t\t\"predicted_time\":\t0.012412185919261451\n"
    "\t\t\t\t\t\t\t\t}]\n"
    "\t\t\t\t\t\t}]\n"
    "\t\t\t\t}]\n"
    "\t\t}]\n"
    "}\n";

static ct_service_t *svc, *svc_late; /* the table, and the same solved for late-bound parts */

static void setup(void)
{
    static const char at[] = "\t\t\t\t\"root_choices\":\t2,\n", late[] = "\t\t\t\t\"part_binding\":\t\"late\",\n";
    const char *cut = strstr(lookup, at);
    char *text = malloc(sizeof lookup + sizeof late);
    if (!cut || !text)
        abort();
    size_t head = (size_t)(cut - lookup) + sizeof at - 1;
    memcpy(text, lookup, head);
    memcpy(text + head, late, sizeof late - 1);
    memcpy(text + head + sizeof late - 1, lookup + head, sizeof lookup - head); /* with the NUL */
    ct_service_params_t p;
    ct_service_params_init(&p);
    p.job_cache = 4;
    p.job_cache_bytes = 2048;
    char msg[256];
    const char *path = fuzz_file((const uint8_t *)lookup, sizeof lookup - 1, ".lookup.json");
    if (!path || ct_service_open(path, &p, &svc, msg, sizeof msg) != 0)
        abort();
    path = fuzz_file((const uint8_t *)text, strlen(text), ".late.json");
    if (!path || ct_service_open(path, &p, &svc_late, msg, sizeof msg) != 0)
        abort();
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!svc)
        setup();
    if (size < 1)
        return 0;
    static const char *const paths[] = { "/prioritize", "/place", "/healthz", "/metrics", "/x/prioritize", "/nope",
                                         "/bind", "/place", "/prioritize", "/bind" }; /* the last 3: late table */
    const char *method = data[0] & 0x80 ? "GET" : "POST";
    size_t which = (data[0] & 0x7f) % (sizeof paths / sizeof *paths);
    const char *path = paths[which];
    ct_service_t *to = which >= 7 ? svc_late : svc;
    char *body = malloc(size);
    if (!body)
        return 0;
    memcpy(body, data + 1, size - 1);
    char *out;
    size_t outlen;
    int st = ct_service_handle(to, method, path, size > 1 ? body : NULL, size - 1, &out, &outlen);
    if (st != 0 && st != 200 && st != 400 && st != 404 && st != 405 && st != 413 && st != 422)
        abort();
    if (st && (!out || strlen(out) != outlen))
        abort();
    if (st && strcmp(path, "/metrics") != 0) { /* every JSON answer parses */
        cJSON *j = cJSON_ParseWithLength(out, outlen);
        if (!j)
            abort();
        cJSON_Delete(j);
    }
    free(out);
    free(body);
    return 0;
}
