/*
 * dag_load.c - every loader error the JSON and PipeDream readers report, and
 * exact round trips.
 */
#include "ct_dag.h"
#include "ct_test.h"

static ct_status_t parse(const char *json, ct_error_t *err)
{
    ct_dag_t d;
    ct_dag_init(&d);
    ct_status_t st = ct_dag_parse_json(&d, json, strlen(json), "f.json", err);
    if (st != CT_OK)
        CHECK(d.n_tasks == 0 && d.n_edges == 0); /* nothing half-loaded */
    ct_dag_destroy(&d);
    return st;
}

static ct_status_t parse_pd(const char *text, ct_error_t *err)
{
    ct_dag_t d;
    ct_dag_init(&d);
    ct_status_t st = ct_dag_parse_pipedream(&d, text, "g.txt", 0, err);
    ct_dag_destroy(&d);
    return st;
}

#define T2 "{\"id\":\"a\",\"time\":1},{\"id\":\"b\",\"time\":2}"

static void json_errors(void)
{
    ct_error_t err;
    parse("{\"tasks\": [", &err);
    CHECK_ERR(err, CT_EINPUT, "f.json:1:");
    CHECK_ERR(err, CT_EINPUT, "malformed JSON");
    parse("{\n \"tasks\": [}\n", &err);
    CHECK_ERR(err, CT_EINPUT, "f.json:2:");
    parse("{\"tasks\": []} trailing", &err);
    CHECK_ERR(err, CT_EINPUT, "malformed JSON");
    parse("[1, 2]", &err);
    CHECK_ERR(err, CT_EINPUT, "expected a JSON object");
    parse("{\"edges\": []}", &err);
    CHECK_ERR(err, CT_EINPUT, "f.json: tasks: missing");
    parse("{\"tasks\": {}}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks: expected an array");
    parse("{\"tasks\": [], \"edges\": []}", &err);
    CHECK_ERR(err, CT_EINPUT, "f.json: tasks: the graph is empty");
    parse("{\"tasks\": [{\"id\": 5, \"time\": 1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[0].id: expected a string");
    parse("{\"tasks\": [{\"id\": \"a\", \"time\": \"1\"}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[0].time: expected a number");
    parse("{\"tasks\": [{\"id\": \"a\"}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[0].time: missing");
    parse("{\"tasks\": [" T2 ",{\"id\":\"c\",\"time\":-0.5}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[2].time: task 'c' has negative time");
    parse("{\"tasks\": [{\"id\":\"a\",\"time\":1e999}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[0].time: task 'a' has non-finite time");
    parse("{\"tasks\": [{\"id\":\"\",\"time\":1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[0].id: empty task id");
    parse("{\"tasks\": [" T2 ",{\"id\":\"a\",\"time\":3}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "tasks[2].id: duplicate task id 'a'");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"zz\",\"bytes\":1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0].to: unknown task id 'zz'");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"q\",\"to\":\"b\",\"bytes\":1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0].from: unknown task id 'q'");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"b\",\"bytes\":-1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0].bytes: edge a -> b has negative size");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"b\",\"bytes\":-1e400}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0].bytes: edge a -> b has non-finite size");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"b\"}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0].bytes: missing");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"a\",\"bytes\":1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges[0]: self-loop on task 'a'");
    parse("{\"tasks\": [" T2 "], \"edges\": [{\"from\":\"a\",\"to\":\"b\",\"bytes\":1},"
          "{\"from\":\"a\",\"to\":\"b\",\"bytes\":2}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "duplicate edge a -> b");
    parse("{\"tasks\": [" T2 ",{\"id\":\"c\",\"time\":0}], \"edges\": ["
          "{\"from\":\"a\",\"to\":\"b\",\"bytes\":1},{\"from\":\"b\",\"to\":\"c\",\"bytes\":1},"
          "{\"from\":\"c\",\"to\":\"a\",\"bytes\":1}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "the graph has a cycle");
    /* The cycle is named in order, starting and ending at the same task. */
    CHECK(strstr(err.msg, "a -> b -> c -> a") || strstr(err.msg, "b -> c -> a -> b") ||
          strstr(err.msg, "c -> a -> b -> c"));
    parse("{\"tasks\": [" T2 "], \"edges\": 3}", &err);
    CHECK_ERR(err, CT_EINPUT, "edges: expected an array");
    parse("{\"name\": 3, \"tasks\": [" T2 "]}", &err);
    CHECK_ERR(err, CT_EINPUT, "name: expected a string");
    parse("{\"tasks\": [{\"id\":\"a\",\"time\":1,\"members\":[\"x\",\"x\"]}]}", &err);
    CHECK_ERR(err, CT_EINPUT, "original task 'x' is listed twice");
    /* Unknown fields are accepted. */
    CHECK(parse("{\"tasks\": [{\"id\":\"a\",\"time\":1,\"flops\":3}], \"comment\": \"x\"}", &err) == CT_OK);
}

static void pipedream_errors(void)
{
    ct_error_t err;
    const char *ok = "node1 -- Input -- forward_compute_time=635.9, backward_compute_time=0.0, "
                     "activation_size=100.0, parameter_size=0.0\n"
                     "node2 -- ReLU() -- forward_compute_time=2.5, backward_compute_time=1, "
                     "activation_size=[10.0; 5.5], parameter_size=0.0\n"
                     "\tnode1 -- node2\n";
    ct_dag_t d;
    ct_dag_init(&d);
    CHECK(ct_dag_parse_pipedream(&d, ok, "g.txt", 0, &err) == CT_OK);
    CHECK(d.n_tasks == 2 && d.n_edges == 1);
    CHECK(d.time[0] == 0.0);               /* Input: data loading, not compute */
    CHECK_CLOSE(d.time[1], 0.0025, 1e-15); /* ms -> s */
    CHECK(d.bytes[0] == 100.0);            /* source's activation */
    CHECK(ct_dag_parse_pipedream(&d, ok, "g.txt", 1, &err) == CT_OK);
    CHECK_CLOSE(d.time[0], 0.6359, 1e-15);
    ct_dag_destroy(&d);
    parse_pd("node1 -- Input\n", &err);
    CHECK_ERR(err, CT_EINPUT, "g.txt:1: node 'node1': missing the field list");
    parse_pd("garbage\n", &err);
    CHECK_ERR(err, CT_EINPUT, "g.txt:1: expected");
    parse_pd("n1 -- X -- forward_compute_time=abc, activation_size=1\n", &err);
    CHECK_ERR(err, CT_EINPUT, "g.txt:1: node 'n1': forward_compute_time");
    parse_pd("n1 -- X -- forward_compute_time=1, activation_size=-4\n", &err);
    CHECK_ERR(err, CT_EINPUT, "activation_size: negative");
    parse_pd("n1 -- X -- forward_compute_time=1, activation_size=4\n\tn1 -- n9\n", &err);
    CHECK_ERR(err, CT_EINPUT, "g.txt:2: edge target: unknown task id 'n9'");
    parse_pd("n1 -- X -- forward_compute_time=1, activation_size=4\n"
             "n1 -- X -- forward_compute_time=1, activation_size=4\n", &err);
    CHECK_ERR(err, CT_EINPUT, "g.txt:2: duplicate task id 'n1'");
    parse_pd("", &err);
    CHECK_ERR(err, CT_EINPUT, "the graph is empty");
}

static void round_trip(void)
{
    ct_error_t err;
    ct_dag_t d, e;
    ct_dag_init(&d);
    ct_dag_init(&e);
    const char *j = "{\"name\":\"x\",\"tasks\":[{\"id\":\"a\",\"time\":0.1},{\"id\":\"b\",\"time\":0.30000000000000004,"
                    "\"members\":[\"b1\",\"b2\"]}],\"edges\":[{\"from\":\"a\",\"to\":\"b\",\"bytes\":802816}]}";
    CHECK(ct_dag_parse_json(&d, j, strlen(j), "rt", &err) == CT_OK);
    CHECK(ct_dag_member_count(&d, 0) == 1 && !strcmp(ct_dag_member(&d, 0, 0), "a"));
    CHECK(ct_dag_member_count(&d, 1) == 2 && !strcmp(ct_dag_member(&d, 1, 1), "b2"));
    char *text;
    CHECK(ct_dag_to_json_text(&d, &text, &err) == CT_OK);
    CHECK(ct_dag_parse_json(&e, text, strlen(text), "rt2", &err) == CT_OK);
    CHECK(e.n_tasks == 2 && e.time[1] == d.time[1] && e.bytes[0] == 802816.0);
    CHECK(!strcmp(e.name, "x") && ct_dag_member_count(&e, 1) == 2);
    free(text);
    ct_dag_destroy(&d);
    ct_dag_destroy(&e);
    /* Missing files. */
    ct_dag_init(&d);
    CHECK(ct_dag_load(&d, "/nonexistent/dag.json", NULL, &err) == CT_EIO);
    CHECK_ERR(err, CT_EIO, "/nonexistent/dag.json: cannot open");
    ct_dag_destroy(&d);
}

int main(void)
{
    json_errors();
    pipedream_errors();
    round_trip();
    return ct_test_end();
}
