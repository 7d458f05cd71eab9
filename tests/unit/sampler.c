/*
 * sampler.c - the online sampler against tables the solver writes:
 * triplet frequencies (chi-square at a fixed seed), placement rules,
 * determinism, nearest-scenario choice, and validation of bad files.
 */
#include "ct_sampler.h"
#include "ct_test.h"
#include "ct_test_lookup.h"

static void statistics_and_rules(void)
{
    static const double rates[] = { 100, 450 };
    char *text = make_lookup(rates, 2), msg[512];
    ct_sampler_t *s = NULL;
    CHECK(text && ct_sampler_load_text(text, strlen(text), "fig1.lookup", &s, msg, sizeof msg) == 0);
    free(text);
    if (!s) {
        fprintf(stderr, "%s\n", msg);
        CHECK(0);
        return;
    }
    CHECK(ct_sampler_scenario_count(s) == 2 && ct_sampler_class_count(s) == 1);
    CHECK(ct_sampler_class_index(s, "fig1") == 0 && ct_sampler_class_index(s, "nope") == -1);
    CHECK(ct_sampler_task_count(s, 0) == 4);
    CHECK(!strcmp(ct_sampler_task_id(s, 0, 0), "sum") && !strcmp(ct_sampler_task_id(s, 0, 3), "add"));
    /* Nearest scenario. */
    double r = 120;
    CHECK(ct_sampler_nearest(s, &r) == 0);
    r = 400;
    CHECK(ct_sampler_nearest(s, &r) == 1);
    /* At 450 jobs/s the table mixes two triplets. */
    size_t sc = 1;
    CHECK(ct_sampler_segment_count(s, sc, 0) == 1);
    size_t nt = ct_sampler_triplet_count(s, sc, 0, 0);
    CHECK(nt == 2);
    /* Chi-square goodness of fit of drawn triplets, fixed seed. */
    ct_rng_t rng;
    ct_rng_seed(&rng, 42);
    enum { DRAWS = 200000 };
    size_t count[8] = { 0 };
    uint32_t place[4], choice[1];
    int rules_ok = 1;
    for (size_t i = 0; i < DRAWS; i++) {
        CHECK(ct_sampler_place(s, sc, 0, 80, &rng, place, choice) == 0);
        count[choice[0]]++;
        for (int t = 0; t < 4; t++)
            rules_ok &= place[t] < 80;
        /* sum is the root and the source; add is the sink. */
        int split = place[1] != place[2];
        if (!split)
            rules_ok &= place[0] == place[1] && place[3] == place[0];
        else
            rules_ok &= (place[0] == place[1] || place[0] == place[2]) && (place[3] == place[1] || place[3] == place[2]);
    }
    CHECK(rules_ok);
    double chi2 = 0;
    for (size_t t = 0; t < nt; t++) {
        double e = DRAWS * ct_sampler_triplet_probability(s, sc, 0, 0, t);
        chi2 += (count[t] - e) * (count[t] - e) / e;
    }
    /* df = 1: the 0.999 quantile of chi-square is 10.83. */
    CHECK_MSG(chi2 < 10.83, "chi2 = %g", chi2);
    /* Root servers are uniform: chi-square over 10 bins of 8 servers. */
    ct_rng_seed(&rng, 7);
    size_t bins[10] = { 0 };
    for (size_t i = 0; i < 100000; i++) {
        ct_sampler_place(s, 0, 0, 80, &rng, place, NULL);
        bins[place[0] / 8]++;
    }
    chi2 = 0;
    for (int b = 0; b < 10; b++)
        chi2 += (bins[b] - 10000.0) * (bins[b] - 10000.0) / 10000.0;
    CHECK_MSG(chi2 < 27.88, "root chi2 = %g (df 9, 0.999 quantile 27.88)", chi2);
    /* Deterministic for a seed; different for another. */
    uint32_t a[4], b[4], same = 1, differ = 0;
    ct_rng_t r1, r2, r3;
    ct_rng_seed(&r1, 5);
    ct_rng_seed(&r2, 5);
    ct_rng_seed(&r3, 6);
    for (int i = 0; i < 100; i++) {
        ct_sampler_place(s, sc, 0, 80, &r1, a, NULL);
        ct_sampler_place(s, sc, 0, 80, &r2, b, NULL);
        same &= !memcmp(a, b, sizeof a);
        ct_sampler_place(s, sc, 0, 80, &r3, b, NULL);
        differ |= memcmp(a, b, sizeof a) != 0;
    }
    CHECK(same && differ);
    /* Two servers are enough (two parts); one is not when a split is drawn. */
    int failed = 0;
    ct_rng_seed(&rng, 1);
    for (int i = 0; i < 200; i++) {
        CHECK(ct_sampler_place(s, sc, 0, 2, &rng, place, NULL) == 0);
        failed |= ct_sampler_place(s, sc, 0, 1, &rng, place, choice) != 0;
    }
    CHECK(failed);
    ct_sampler_free(s);
}

static void distinct_servers(void)
{
    /* A hand-written table: 3 parts must land on 3 distinct servers, part
     * k on the root's server, the sink with part l. */
    const char *t = "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{"
                    "\"name\": \"c\", \"arrival_rate\": 1, \"tasks\": [\"r\", \"a\", \"b\", \"c\", \"z\"],"
                    "\"root\": [\"r\"], \"segments\": [{\"source\": [\"r\"], \"sink\": [\"z\"], \"triplets\": ["
                    "{\"probability\": 1, \"k\": 1, \"l\": 2, \"parts\": [[\"a\"], [\"b\"], [\"c\"]]}]}]}]}]}";
    ct_sampler_t *s;
    char msg[256];
    CHECK(ct_sampler_load_text(t, strlen(t), "hand", &s, msg, sizeof msg) == 0);
    ct_rng_t rng;
    ct_rng_seed(&rng, 3);
    uint32_t p[5];
    int ok = 1;
    size_t hits[3] = { 0 };
    for (int i = 0; i < 30000; i++) {
        CHECK(ct_sampler_place(s, 0, 0, 3, &rng, p, NULL) == 0);
        ok &= p[2] == p[0] && p[1] != p[2] && p[3] != p[2] && p[1] != p[3] && p[4] == p[3];
        hits[p[1]]++;
    }
    CHECK(ok);
    for (int k = 0; k < 3; k++)
        CHECK_MSG(hits[k] > 9000 && hits[k] < 11000, "server %d: %zu", k, hits[k]);
    CHECK(ct_sampler_place(s, 0, 0, 2, &rng, p, NULL) == -1);
    ct_sampler_free(s);
}

static void bad_files(void)
{
    static const struct {
        const char *text, *needle;
    } cases[] = {
        { "{\"format\": \"other/1\", \"scenarios\": []}", "format: expected \"contend-table/1\"" },
        { "{\"format\": \"contend-table/1\"", "malformed JSON" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": []}", "scenarios: expected a non-empty array" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
          "\"arrival_rate\": 1, \"tasks\": [\"a\", \"b\"], \"root\": [\"a\"], \"segments\": []}]}]}",
          "task 'b' is placed by no segment" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
          "\"arrival_rate\": 1, \"tasks\": [\"a\", \"b\", \"z\"], \"root\": [\"a\"], \"segments\": [{\"source\": [\"a\"], "
          "\"sink\": [\"z\"], \"triplets\": [{\"probability\": 0.5, \"k\": 0, \"l\": 0, \"parts\": [[\"b\"]]}]}]}]}]}",
          "probabilities sum to 0.5" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
          "\"arrival_rate\": 1, \"tasks\": [\"a\", \"b\", \"z\"], \"root\": [\"a\"], \"segments\": [{\"source\": [\"a\"], "
          "\"sink\": [\"z\"], \"triplets\": [{\"probability\": 1, \"k\": 1, \"l\": 0, \"parts\": [[\"b\"]]}]}]}]}]}",
          "k = 1, l = 0 do not name parts of 1" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
          "\"arrival_rate\": 1, \"tasks\": [\"a\", \"z\"], \"root\": [\"a\"], \"segments\": [{\"source\": [\"a\"], "
          "\"sink\": [\"a\"], \"triplets\": [{\"probability\": 1, \"k\": 0, \"l\": 0, \"parts\": []}]}]}]}]}",
          "task 'a' is placed twice" },
        { "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
          "\"arrival_rate\": 1, \"tasks\": [\"a\", \"z\"], \"root\": [\"q\"], \"segments\": []}]}]}",
          "task 'q' is not in the class's task list" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ct_sampler_t *s = NULL;
        char msg[512] = "";
        int rc = ct_sampler_load_text(cases[i].text, strlen(cases[i].text), "t.json", &s, msg, sizeof msg);
        CHECK_MSG(rc == -1 && !s && strstr(msg, cases[i].needle) && !strncmp(msg, "t.json: ", 8),
                  "case %zu: '%s'", i, msg);
    }
    ct_sampler_t *s = NULL;
    char msg[256];
    CHECK(ct_sampler_load("/nonexistent/lookup.json", &s, msg, sizeof msg) == -1);
    CHECK(strstr(msg, "/nonexistent/lookup.json: cannot open") != NULL);
}

int main(void)
{
    statistics_and_rules();
    distinct_servers();
    bad_files();
    return ct_test_end();
}
