/*
 * sampler.c - the online sampler against tables the solver writes:
 * triplet frequencies (chi-square at a fixed seed), placement rules,
 * determinism, nearest-scenario choice, validation of bad files, and the
 * scenario-by-scenario reading against the whole document's.
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

/* Late-bound parts: the same table as "late" gives the parts away from the
 * root slots (one per part, shared by its tasks; the sink with part l, on
 * its slot), part k the root's server; the root follows the loads. */
static void late_slots(void)
{
    const char *t = "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"model\": "
                    "{\"root_choices\": 2, \"part_binding\": \"late\"}, \"classes\": [{"
                    "\"name\": \"c\", \"arrival_rate\": 1, \"tasks\": [\"r\", \"a\", \"b\", \"c\", \"z\"],"
                    "\"root\": [\"r\"], \"segments\": [{\"source\": [\"r\"], \"sink\": [\"z\"], \"triplets\": ["
                    "{\"probability\": 1, \"k\": 1, \"l\": 2, \"parts\": [[\"a\"], [\"b\"], [\"c\"]]}]}]}]}]}";
    ct_sampler_t *s;
    char msg[256];
    CHECK(ct_sampler_load_text(t, strlen(t), "late", &s, msg, sizeof msg) == 0);
    CHECK(ct_sampler_late_parts(s, 0) == 1 && ct_sampler_root_choices(s, 0) == 2 && ct_sampler_late_probes(s, 0) == 0);
    ct_rng_t rng;
    ct_rng_seed(&rng, 5);
    uint32_t p[5], loads[4] = { 3, 3, 0, 3 };
    int ok = 1, idle = 0;
    for (int i = 0; i < 4000; i++) {
        CHECK(ct_sampler_place_late(s, 0, 0, 4, loads, 2, &rng, p, NULL) == 0);
        ok &= p[0] < 4 && p[2] == p[0] && p[1] == (CT_SAMPLER_LATE | 0) && p[3] == (CT_SAMPLER_LATE | 1) &&
              p[4] == p[3];
        idle += p[0] == 2;
    }
    CHECK(ok);
    CHECK_MSG(fabs(idle / 4000.0 - 0.4375) < 0.03, "the root on the idle server %d / 4000 times", idle);
    uint32_t least = 0;
    for (int i = 0; i < 4000; i++)
        least += ct_sampler_least_loaded(4, loads, 2, &rng) == 2;
    CHECK_MSG(fabs(least / 4000.0 - 0.4375) < 0.03, "least loaded of 2: the idle server %u / 4000 times", least);
    ct_sampler_free(s);
    /* Early (absent or "early") tables give servers; anything else is refused. */
    char bad[1024];
    const char *at = strstr(t, "\"late\"");
    snprintf(bad, sizeof bad, "%.*s\"later\"%s", (int)(at - t), t, at + 6);
    CHECK(ct_sampler_load_text(bad, strlen(bad), "bad", &s, msg, sizeof msg) != 0);
    CHECK_MSG(strstr(bad, "\"later\"") != NULL, "%s", bad);
    CHECK_MSG(strstr(msg, "part_binding") != NULL, "%s", msg);
    /* A table solved for probes says so (model.late_bind); only "probes",
     * only with late parts */
    static const char *const lb[] = { "\"probes\"", "\"least-loaded\"", "1" };
    for (int i = 0; i < 3; i++) {
        const char *m = strstr(t, "\"part_binding\"");
        snprintf(bad, sizeof bad, "%.*s\"late_bind\": %s, %s", (int)(m - t), t, lb[i], m);
        int rc = ct_sampler_load_text(bad, strlen(bad), "probes", &s, msg, sizeof msg);
        CHECK_MSG(i == 0 ? rc == 0 : rc != 0 && strstr(msg, "late_bind") != NULL, "%s: %s", lb[i], msg);
        if (i == 0) {
            CHECK(ct_sampler_late_probes(s, 0) == 1 && ct_sampler_late_parts(s, 0) == 1);
            ct_sampler_free(s);
        }
    }
    const char *m = strstr(t, "\"part_binding\"");
    snprintf(bad, sizeof bad, "%.*s\"late_bind\": \"probes\", \"part_binding\": \"early\"%s", (int)(m - t), t,
             m + strlen("\"part_binding\": \"late\""));
    CHECK_MSG(ct_sampler_load_text(bad, strlen(bad), "early", &s, msg, sizeof msg) != 0 && strstr(msg, "late_bind"),
              "probes on an early table: %s", msg);
}

/* The least loaded of d draws, against a step-by-step reading of its rule
 * with the same generator: past d = 2 on up to 4096 servers, four draws to
 * an output (its 16-bit lanes, low lane first, each n * lane >> 16 unless
 * its low half is below 2^16 mod n, then a whole bounded draw), else one
 * bounded draw each; the first of the least loaded wins. Then the law: a
 * draw on equal loads is uniform (3000 servers reject 4% of lanes), and a
 * single idle server among 80 wins 1 - (79/80)^32 of d = 32 draws. */
static uint32_t ref_least(ct_rng_t *rng, uint32_t n, const uint32_t *loads, uint32_t d)
{
    uint32_t cur = 0, best = 0, thresh = (65536 - n) % n;
    uint64_t x = 0;
    for (uint32_t i = 0; i < (d ? d : 1); i++) {
        uint32_t v;
        if (d > 2 && n <= 4096) {
            if (i % 4 == 0)
                x = ct_rng_next(rng);
            uint32_t m = (uint32_t)((x >> (16 * (i % 4))) & 0xFFFF) * n;
            v = (m & 0xFFFF) < thresh ? (uint32_t)ct_rng_below(rng, n) : m >> 16;
        } else
            v = (uint32_t)ct_rng_below(rng, n);
        if (i == 0 || loads[v] < best) {
            cur = v;
            best = loads[v];
        }
    }
    return cur;
}

static void least_loaded_draws(void)
{
    static const uint32_t ns[] = { 1, 5, 80, 3000, 4096, 4097, 9000 };
    static uint32_t loads[9000];
    ct_rng_t rng, ref, gen;
    ct_rng_seed(&gen, 11);
    int same = 1, calls = 0;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (uint32_t d = 0; d <= 40; d++) {
            uint32_t n = ns[k];
            for (uint32_t v = 0; v < n; v++)
                loads[v] = (uint32_t)ct_rng_below(&gen, d % 3 ? 4 : 0xFFFFFFFFu);
            ct_rng_seed(&rng, 100 + d);
            ct_rng_seed(&ref, 100 + d);
            for (int t = 0; t < 200; t++, calls++)
                same &= ct_sampler_least_loaded(n, loads, d, &rng) == ref_least(&ref, n, loads, d);
            same &= ct_rng_next(&rng) == ct_rng_next(&ref); /* the same outputs consumed */
        }
    CHECK_MSG(same, "least loaded: the library and the rule read step by step differ (%d calls)", calls);
    /* equal loads: the first draw, uniform; chi-square over 10 residues */
    memset(loads, 0, sizeof loads);
    uint32_t bins[10] = { 0 };
    const int N = 200000;
    ct_rng_seed(&rng, 12);
    for (int t = 0; t < N; t++)
        bins[ct_sampler_least_loaded(3000, loads, 7, &rng) % 10]++;
    double chi = 0;
    for (int b = 0; b < 10; b++)
        chi += (bins[b] - N / 10.0) * (bins[b] - N / 10.0) / (N / 10.0);
    CHECK_MSG(chi < 27.9, "least loaded of 7 on equal loads: chi-square %.1f over 9 degrees (p = 0.001 at 27.9)", chi);
    for (uint32_t v = 0; v < 80; v++)
        loads[v] = v == 37 ? 0 : 1 + v % 3;
    int idle = 0;
    for (int t = 0; t < N; t++)
        idle += ct_sampler_least_loaded(80, loads, 32, &rng) == 37;
    double p = 1 - pow(79.0 / 80.0, 32), sd = sqrt(p * (1 - p) / N);
    CHECK_MSG(fabs((double)idle / N - p) < 4 * sd, "least loaded of 32: the idle server %d / %d times, expected %.4f", idle,
              N, p);
}

/* Probe targets: k distinct servers, every server equally often (each is
 * in a k-subset with probability k / n), perm still a permutation, and k
 * above n gives every server. */
static void probe_servers(void)
{
    enum { N = 80 };
    uint32_t perm[N], hits[N] = { 0 }, seen[N];
    ct_rng_t rng;
    ct_rng_seed(&rng, 21);
    ct_sampler_perm_init(N, perm);
    int distinct = 1, is_perm = 1;
    const int T = 20000;
    for (int t = 0; t < T; t++) {
        uint32_t k = ct_sampler_probe_servers(N, 12, perm, &rng);
        CHECK(k == 12);
        memset(seen, 0, sizeof seen);
        for (uint32_t p = 0; p < k; p++) {
            distinct &= perm[p] < N && !seen[perm[p]];
            seen[perm[p]] = 1;
            hits[perm[p]]++;
        }
    }
    CHECK_MSG(distinct, "probe targets: a server drawn twice in one batch");
    double chi = 0, e = T * 12.0 / N;
    for (int v = 0; v < N; v++)
        chi += (hits[v] - e) * (hits[v] - e) / e;
    CHECK_MSG(chi < 124.8, "probe targets: chi-square %.1f over 79 degrees (p = 0.001 at 124.8)", chi);
    CHECK(ct_sampler_probe_servers(N, 500, perm, &rng) == N);
    memset(seen, 0, sizeof seen);
    for (int v = 0; v < N; v++) {
        is_perm &= perm[v] < N && !seen[perm[v]];
        seen[perm[v]] = 1;
    }
    CHECK_MSG(is_perm, "probe targets: perm is no longer a permutation");
}

/* The placement program merges the tasks of fixed segments (one triplet of
 * one part) into the runs around them. Against a step-by-step reading of the
 * rules with the same generator: the same servers and choices for a seed,
 * on a chain where fixed segments lead, follow and sit between drawn ones,
 * with tasks listed out of order (runs that are not contiguous). */
static uint32_t ref_distinct(ct_rng_t *rng, uint32_t n_servers, uint32_t *chosen, uint32_t n)
{
    uint32_t r = (uint32_t)ct_rng_below(rng, n_servers - n), i = 0;
    while (i < n && chosen[i] <= r) {
        r++;
        i++;
    }
    memmove(chosen + i + 1, chosen + i, (n - i) * sizeof(uint32_t));
    chosen[i] = r;
    return r;
}

static void program_matches_rules(void)
{
    const char *t =
        "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, \"classes\": [{\"name\": \"c\", "
        "\"arrival_rate\": 1, \"tasks\": [\"s4\", \"a\", \"r\", \"f2\", \"c\", \"s0\", \"b\", \"f3\", \"s2\", \"e\", "
        "\"f1\", \"s3\", \"d\", \"s1\"], \"root\": [\"r\"], \"segments\": ["
        "{\"source\": [\"r\"], \"sink\": [\"s0\"], \"triplets\": [{\"probability\": 1, \"k\": 0, \"l\": 0, "
        "\"parts\": [[\"f1\"]]}]},"
        "{\"source\": [\"s0\"], \"sink\": [\"s1\"], \"triplets\": ["
        "{\"probability\": 0.3, \"k\": 0, \"l\": 0, \"parts\": [[\"a\", \"b\"]]},"
        "{\"probability\": 0.7, \"k\": 0, \"l\": 1, \"parts\": [[\"a\"], [\"b\"]]}]},"
        "{\"source\": [\"s1\"], \"sink\": [\"s2\"], \"triplets\": [{\"probability\": 1, \"k\": 0, \"l\": 0, "
        "\"parts\": [[\"f2\"]]}]},"
        "{\"source\": [\"s2\"], \"sink\": [\"s3\"], \"triplets\": [{\"probability\": 1, \"k\": 0, \"l\": 0, "
        "\"parts\": [[\"f3\"]]}]},"
        "{\"source\": [\"s3\"], \"sink\": [\"s4\"], \"triplets\": ["
        "{\"probability\": 0.5, \"k\": 0, \"l\": 0, \"parts\": [[\"c\", \"d\", \"e\"]]},"
        "{\"probability\": 0.5, \"k\": 1, \"l\": 2, \"parts\": [[\"c\"], [\"d\"], [\"e\"]]}]}]}]}]}";
    /* Per segment and triplet: k, l and the parts' tasks ("" ends a part). */
    static const struct {
        int k, l;
        const char *parts[4][4];
    } trip[5][2] = {
        { { 0, 0, { { "f1" } } } },
        { { 0, 0, { { "a", "b" } } }, { 0, 1, { { "a" }, { "b" } } } },
        { { 0, 0, { { "f2" } } } },
        { { 0, 0, { { "f3" } } } },
        { { 0, 0, { { "c", "d", "e" } } }, { 1, 2, { { "c" }, { "d" }, { "e" } } } },
    };
    static const char *sinks[5] = { "s0", "s1", "s2", "s3", "s4" };
    ct_sampler_t *s;
    char msg[256];
    CHECK(ct_sampler_load_text(t, strlen(t), "chain", &s, msg, sizeof msg) == 0);
    if (!s)
        return;
    size_t n = ct_sampler_task_count(s, 0);
    CHECK(n == 14 && ct_sampler_segment_count(s, 0, 0) == 5);
    ct_rng_t r1, r2;
    ct_rng_seed(&r1, 11);
    ct_rng_seed(&r2, 11);
    int same = 1, drawn[2] = { 0, 0 };
    for (int it = 0; it < 5000; it++) {
        uint32_t got[14], gch[5], want[14], wch[5], chosen[8];
        CHECK(ct_sampler_place(s, 0, 0, 6, &r1, got, gch) == 0);
        uint32_t cur = (uint32_t)ct_rng_below(&r2, 6);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(ct_sampler_task_id(s, 0, i), "r"))
                want[i] = cur;
        for (size_t g = 0; g < 5; g++) {
            uint32_t i = ct_sampler_draw_triplet(s, 0, 0, g, &r2), nch = 1, part_server[4] = { 0 };
            wch[g] = i;
            chosen[0] = cur;
            for (int p = 0; p < 4 && trip[g][i].parts[p][0]; p++) {
                part_server[p] = p == trip[g][i].k ? cur : ref_distinct(&r2, 6, chosen, nch++);
                for (int q = 0; q < 4 && trip[g][i].parts[p][q]; q++)
                    for (size_t x = 0; x < n; x++)
                        if (!strcmp(ct_sampler_task_id(s, 0, x), trip[g][i].parts[p][q]))
                            want[x] = part_server[p];
            }
            cur = part_server[trip[g][i].l];
            for (size_t x = 0; x < n; x++)
                if (!strcmp(ct_sampler_task_id(s, 0, x), sinks[g]))
                    want[x] = cur;
        }
        same &= !memcmp(got, want, sizeof got) && !memcmp(gch, wch, sizeof gch);
        drawn[0] |= gch[1] == 1;
        drawn[1] |= gch[4] == 1;
    }
    CHECK(same);
    CHECK(drawn[0] && drawn[1]);
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

/* The same sampler: scenarios, classes, tasks, triplets and their
 * probabilities. */
static int same_tables(const ct_sampler_t *a, const ct_sampler_t *b)
{
    if (!a || !b || ct_sampler_scenario_count(a) != ct_sampler_scenario_count(b) ||
        ct_sampler_class_count(a) != ct_sampler_class_count(b))
        return 0;
    for (size_t sc = 0; sc < ct_sampler_scenario_count(a); sc++)
        for (size_t c = 0; c < ct_sampler_class_count(a); c++) {
            if (ct_sampler_scenario_scale(a, sc) != ct_sampler_scenario_scale(b, sc) ||
                ct_sampler_scenario_rate(a, sc, c) != ct_sampler_scenario_rate(b, sc, c) ||
                ct_sampler_task_count(a, c) != ct_sampler_task_count(b, c) ||
                ct_sampler_segment_count(a, sc, c) != ct_sampler_segment_count(b, sc, c))
                return 0;
            for (size_t g = 0; g < ct_sampler_segment_count(a, sc, c); g++) {
                if (ct_sampler_triplet_count(a, sc, c, g) != ct_sampler_triplet_count(b, sc, c, g))
                    return 0;
                for (size_t t = 0; t < ct_sampler_triplet_count(a, sc, c, g); t++)
                    if (ct_sampler_triplet_probability(a, sc, c, g, t) !=
                        ct_sampler_triplet_probability(b, sc, c, g, t))
                        return 0;
            }
        }
    return 1;
}

static ct_sampler_t *load_str(const char *text, char *msg, size_t n)
{
    ct_sampler_t *s = NULL;
    msg[0] = '\0';
    ct_sampler_load_text(text, strlen(text), "t.json", &s, msg, n);
    return s;
}

/* A lookup file is read scenario by scenario; whatever that reader finds
 * unusual is read whole, as before: every variant below loads the same
 * tables, and errors keep their messages. */
static void streamed_reading(void)
{
    static const double rates[] = { 100, 300, 450 };
    char *text = make_lookup(rates, 3), msg[512];
    ct_sampler_t *ref = text ? load_str(text, msg, sizeof msg) : NULL;
    CHECK_MSG(ref && ct_sampler_scenario_count(ref) == 3, "%s", msg);
    if (!ref) {
        free(text);
        return;
    }
    size_t n = strlen(text), big = 2 * n + 4096;
    char *v = malloc(big);
    /* a byte order mark */
    snprintf(v, big, "\xEF\xBB\xBF%s", text);
    ct_sampler_t *s = load_str(v, msg, sizeof msg);
    CHECK_MSG(same_tables(ref, s), "BOM: %s", msg);
    ct_sampler_free(s);
    /* the scenarios before the format, a key with an escape, a repeated
     * "scenarios" (the first counts), deep nesting elsewhere: read whole */
    const char *sc = strstr(text, "\"scenarios\":");
    CHECK(sc != NULL);
    if (sc) {
        const char *body = sc + strlen("\"scenarios\":");
        size_t blen = strlen(body) - 2; /* (without the document's closing "\n}\n"'s last two bytes) */
        while (blen > 0 && body[blen - 1] != ']')
            blen--;
        snprintf(v, big, "{\"scenarios\": %.*s, \"format\": \"contend-table/1\"}", (int)blen, body);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(same_tables(ref, s), "scenarios first: %s", msg);
        ct_sampler_free(s);
        snprintf(v, big, "{\"form\\u0061t\": \"contend-table/1\", \"scenarios\": %.*s}", (int)blen, body);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(same_tables(ref, s), "escaped key: %s", msg);
        ct_sampler_free(s);
        snprintf(v, big, "{\"format\": \"contend-table/1\", \"scenarios\": %.*s, \"scenarios\": []}", (int)blen, body);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(same_tables(ref, s), "repeated key: %s", msg);
        ct_sampler_free(s);
        int k = snprintf(v, big, "{\"format\": \"contend-table/1\", \"deep\": ");
        for (int d = 0; d < 300; d++)
            v[k++] = '[';
        for (int d = 0; d < 300; d++)
            v[k++] = ']';
        snprintf(v + k, big - (size_t)k, ", \"scenarios\": %.*s}", (int)blen, body);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(same_tables(ref, s), "deep: %s", msg);
        ct_sampler_free(s);
        /* errors: text after the document, a syntax error in a later
         * scenario (its line), a bad value there (its index) */
        snprintf(v, big, "%s x", text);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(!s && strstr(msg, "malformed JSON"), "%s", msg);
        snprintf(v, big, "{\"format\": \"contend-table/1\", \"scenarios\": %.*s,\n{\"scale\": ]}", (int)(blen - 1), body);
        size_t lines = 1;
        for (const char *p = v; *p && strncmp(p, "{\"scale\": ]", 11); p++)
            lines += *p == '\n';
        char want[64];
        snprintf(want, sizeof want, "line %zu: malformed JSON", lines);
        s = load_str(v, msg, sizeof msg);
        CHECK_MSG(!s && strstr(msg, want), "%s (want %s)", msg, want);
        const char *last = strstr(body, "\"probability\":");
        CHECK(last != NULL);
        if (last) {
            const char *lp = body;
            for (const char *q = last; q; q = strstr(q + 1, "\"probability\":"))
                lp = q;
            snprintf(v, big, "{\"format\": \"contend-table/1\", \"scenarios\": %.*s\"probability\": 7%s",
                     (int)(lp - body), body, strchr(lp, ',') ? strchr(lp, ',') : "");
            s = load_str(v, msg, sizeof msg);
            CHECK_MSG(!s && strstr(msg, "scenarios[2]") && strstr(msg, "not a probability"), "%s", msg);
        }
    }
    free(v);
    ct_sampler_free(ref);
    free(text);
}

int main(void)
{
    statistics_and_rules();
    distinct_servers();
    late_slots();
    least_loaded_draws();
    probe_servers();
    program_matches_rules();
    bad_files();
    streamed_reading();
    return ct_test_end();
}
