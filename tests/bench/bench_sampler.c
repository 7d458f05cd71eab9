/*
 * bench_sampler.c - online sampler throughput: placements per second for a
 * resnet18 job (table of the bundled five-model scenario) and for the Fig. 1
 * example at a mixing load, and alias draws per second against a linear
 * CDF scan (the baseline) on a 99-triplet segment.
 */
#include "bench_util.h"
#include "ct_nona_table.h"
#include "ct_sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes every segment of class cls draw: beside its triplet a second one,
 * equally likely, that moves the part's first task to a server of its own
 * (a resnet18-sized job whose every segment is drawn and split). */
static void force_splits(cJSON *doc, const char *cls)
{
    cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
                              cJSON_GetObjectItemCaseSensitive(doc, "scenarios"), 0), "classes"))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring, cls) != 0)
            continue;
        cJSON *seg;
        cJSON_ArrayForEach(seg, cJSON_GetObjectItemCaseSensitive(c, "segments")) {
            cJSON *trips = cJSON_GetObjectItemCaseSensitive(seg, "triplets");
            cJSON *t0 = cJSON_GetArrayItem(trips, 0), *t1 = cJSON_Duplicate(t0, 1);
            cJSON_ReplaceItemInObjectCaseSensitive(t0, "probability", cJSON_CreateNumber(0.5));
            cJSON_ReplaceItemInObjectCaseSensitive(t1, "probability", cJSON_CreateNumber(0.5));
            cJSON *parts = cJSON_GetObjectItemCaseSensitive(t1, "parts"), *own = cJSON_CreateArray();
            cJSON_AddItemToArray(own, cJSON_DetachItemFromArray(cJSON_GetArrayItem(parts, 0), 0));
            cJSON_AddItemToArray(parts, own);
            cJSON_AddItemToArray(trips, t1);
        }
    }
}

static ct_sampler_t *table_for(const char *file, double scale, const char *split)
{
    ct_scenario_t s, sc;
    ct_nona_model_t m;
    ct_nona_solution_t sol;
    ct_error_t err;
    cJSON *entry, *doc;
    char *text, msg[512];
    ct_sampler_t *smp = NULL;
    ct_scenario_init(&s);
    if (ct_scenario_load(&s, file, &err) != CT_OK || ct_scenario_scaled(&s, scale, &sc, &err) != CT_OK ||
        ct_nona_model_build(&sc, NULL, &m, &err) != CT_OK || ct_nona_solve(&m, NULL, &sol, &err) != CT_OK ||
        ct_nona_table_entry(&sc, scale, &m, &sol, &entry, &err) != CT_OK ||
        ct_nona_table_document(&entry, 1, &doc, &err) != CT_OK || (split && (force_splits(doc, split), 0)) ||
        ct_json_render(doc, &text, &err) != CT_OK) {
        fprintf(stderr, "%s (run from the repository root)\n", err.msg);
        exit(1);
    }
    if (ct_sampler_load_text(text, strlen(text), file, &smp, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        exit(1);
    }
    free(text);
    cJSON_Delete(doc);
    ct_nona_solution_free(&sol);
    ct_nona_model_free(&m);
    ct_scenario_destroy(&sc);
    ct_scenario_destroy(&s);
    return smp;
}

static void placements(const char *file, double scale, const char *cls, int split)
{
    ct_sampler_t *s = table_for(file, scale, split ? cls : NULL);
    long c = ct_sampler_class_index(s, cls);
    uint32_t *place = malloc(ct_sampler_task_count(s, (size_t)c) * sizeof(uint32_t)), sink = 0;
    ct_rng_t rng;
    ct_rng_seed(&rng, 1);
    const int N = 1000000;
    double t;
    BENCH_MIN(t, 7, {
        for (int i = 0; i < N; i++) {
            ct_sampler_place(s, 0, (size_t)c, 80, &rng, place, NULL);
            sink += place[0];
        }
    });
    printf("  %-12s %3zu tasks, %zu segments%s: %12.0f placements/s  (%.1f ns each%s)%s\n", cls,
           ct_sampler_task_count(s, (size_t)c), ct_sampler_segment_count(s, 0, (size_t)c),
           split ? ", each drawn and split" : "", N / t, 1e9 * t / N,
           !strcmp(cls, "resnet18") ? 1e9 * t / N < 30 ? "; goal 30 ns: met" : "; goal 30 ns: NOT met" : "",
           sink == 1 ? " " : "");
    free(place);
    ct_sampler_free(s);
}

/* With queue lengths (the root on the least loaded of d = 2, and of 32,
 * the choice that meets the central schedulers' bars: docs/baselines.md),
 * early, and late (parts get slots; one late part bound per draw, as a
 * scheduler would when it is needed). Goal (#26): under 100 ns for
 * resnet18. */
static void placements_loaded(const char *file, double scale, const char *cls)
{
    ct_sampler_t *s = table_for(file, scale, cls);
    long c = ct_sampler_class_index(s, cls);
    uint32_t *place = malloc(ct_sampler_task_count(s, (size_t)c) * sizeof(uint32_t)), sink = 0, loads[80];
    ct_rng_t rng;
    ct_rng_seed(&rng, 1);
    for (int v = 0; v < 80; v++)
        loads[v] = (uint32_t)ct_rng_below(&rng, 6);
    const int N = 1000000;
    const uint32_t ds[2] = { 2, 32 };
    double t[2][2];
    for (int k = 0; k < 2; k++)
        for (int late = 0; late < 2; late++)
            BENCH_MIN(t[k][late], 7, {
                for (int i = 0; i < N; i++) {
                    (late ? ct_sampler_place_late : ct_sampler_place_loaded)(s, 0, (size_t)c, 80, loads, ds[k], &rng,
                                                                             place, NULL);
                    sink += place[0] + (late ? ct_sampler_least_loaded(80, loads, ds[k], &rng) : 0);
                }
            });
    for (int k = 0; k < 2; k++)
        for (int late = 0; late < 2; late++)
            printf("  %-12s with queue lengths, d = %2u, %s: %12.0f placements/s  (%.1f ns each; goal 100 ns: %s)%s\n",
                   cls, ds[k], late ? "late parts + one bind" : "early parts", N / t[k][late], 1e9 * t[k][late] / N,
                   1e9 * t[k][late] / N < 100 ? "met" : "NOT met", sink == 1 ? " " : "");
    free(place);
    ct_sampler_free(s);
}

/* Loading a lookup file of n tasks: a chain of segments, each with two
 * intermediate tasks (split or together, two triplets) and a sink. The
 * loader must stay linear: seconds per task at 1M tasks against 25k. */
static char *chain_lookup(size_t n_seg)
{
    size_t cap = 256 + n_seg * 300, off = 0; /* a segment: about 250 bytes with its task names */
    char *t = malloc(cap);
    if (!t)
        return NULL;
    off += (size_t)snprintf(t + off, cap - off, "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, "
                            "\"classes\": [{\"name\": \"c\", \"arrival_rate\": 1, \"tasks\": [\"s0\"");
    for (size_t j = 0; j < n_seg; j++)
        off += (size_t)snprintf(t + off, cap - off, ", \"a%zu\", \"b%zu\", \"s%zu\"", j, j, j + 1);
    off += (size_t)snprintf(t + off, cap - off, "], \"root\": [\"s0\"], \"segments\": [");
    for (size_t j = 0; j < n_seg; j++)
        off += (size_t)snprintf(t + off, cap - off,
                                "%s{\"source\": [\"s%zu\"], \"sink\": [\"s%zu\"], \"triplets\": [{\"probability\": 0.5, "
                                "\"k\": 0, \"l\": 0, \"parts\": [[\"a%zu\", \"b%zu\"]]}, {\"probability\": 0.5, \"k\": 0, "
                                "\"l\": 1, \"parts\": [[\"a%zu\"], [\"b%zu\"]]}]}",
                                j ? ", " : "", j, j + 1, j, j, j, j);
    snprintf(t + off, cap - off, "]}]}]}");
    return t;
}

static void loading(void)
{
    static const size_t tasks[] = { 25000, 100000, 1000000 };
    double per[3] = { 0, 0, 0 };
    printf("loading a lookup file (a chain of 2-task segments; linear: the same time per task at every size)\n");
    for (int k = 0; k < 3; k++) {
        size_t n_seg = tasks[k] / 3;
        char *text = chain_lookup(n_seg);
        if (!text)
            return;
        size_t len = strlen(text);
        double t;
        ct_sampler_t *s = NULL;
        char msg[256];
        BENCH_MIN(t, 2, {
            ct_sampler_free(s);
            s = NULL;
            if (ct_sampler_load_text(text, len, "bench", &s, msg, sizeof msg) != 0) {
                fprintf(stderr, "bench_sampler: %s\n", msg);
                break;
            }
        });
        per[k] = t / (double)(3 * n_seg + 1);
        printf("  %8zu tasks, %6.1f MB: %7.3f s, %6.0f ns a task, x%.2f the 25k file's per task\n", 3 * n_seg + 1,
               (double)len / 1e6, t, 1e9 * per[k], per[k] / per[0]);
        ct_sampler_free(s);
        free(text);
    }
}

int main(void)
{
    printf("online sampler\n");
    placements("data/scenarios/five-models.json", 1.0, "resnet18", 0);
    placements("data/scenarios/five-models.json", 1.0, "resnet18", 1);
    placements_loaded("data/scenarios/five-models.json", 1.0, "resnet18");
    placements("data/scenarios/five-models.json", 1.0, "densenet121", 0);
    placements("data/scenarios/fig1.json", 4.5, "fig1", 0);
    loading();

    /* Alias draws vs a linear CDF scan on one 99-triplet segment. */
    const int K = 99;
    char text[65536];
    size_t off = (size_t)snprintf(text, sizeof text, "{\"format\": \"contend-table/1\", \"scenarios\": [{\"scale\": 1, "
                                  "\"classes\": [{\"name\": \"c\", \"arrival_rate\": 1, \"tasks\": [\"r\", \"x\", \"z\"], "
                                  "\"root\": [\"r\"], \"segments\": [{\"source\": [\"r\"], \"sink\": [\"z\"], \"triplets\": [");
    double total = K * (K + 1) / 2.0;
    for (int i = 0; i < K; i++)
        off += (size_t)snprintf(text + off, sizeof text - off,
                                "%s{\"probability\": %.17g, \"k\": 0, \"l\": 0, \"parts\": [[\"x\"]]}", i ? "," : "",
                                (i + 1) / total);
    snprintf(text + off, sizeof text - off, "]}]}]}]}");
    ct_sampler_t *s;
    char msg[256];
    if (ct_sampler_load_text(text, strlen(text), "bench", &s, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    double cdf[99], acc = 0;
    for (int i = 0; i < K; i++)
        cdf[i] = (acc += ct_sampler_triplet_probability(s, 0, 0, 0, (size_t)i));
    ct_rng_t rng;
    ct_rng_seed(&rng, 2);
    const int N = 2000000;
    uint32_t place[3], choice[1];
    unsigned long long sum = 0;
    double t_alias, t_scan;
    double t_place;
    BENCH_MIN(t_alias, 3, {
        for (int i = 0; i < N; i++)
            sum += ct_sampler_draw_triplet(s, 0, 0, 0, &rng);
    });
    BENCH_MIN(t_place, 3, {
        for (int i = 0; i < N; i++) {
            ct_sampler_place(s, 0, 0, 80, &rng, place, choice);
            sum += choice[0];
        }
    });
    /* The previous draw (two random numbers: a bounded index, a double
     * against a double threshold), rebuilt here as the baseline. */
    double *prob = malloc(K * sizeof(double));
    uint32_t *alias = malloc(K * sizeof(uint32_t));
    {
        double p[99];
        uint32_t small[99], large[99], ns = 0, nl = 0;
        for (int i = 0; i < K; i++) {
            p[i] = ct_sampler_triplet_probability(s, 0, 0, 0, (size_t)i) * K;
            if (p[i] < 1)
                small[ns++] = (uint32_t)i;
            else
                large[nl++] = (uint32_t)i;
        }
        while (ns && nl) {
            uint32_t a = small[--ns], b = large[--nl];
            prob[a] = p[a];
            alias[a] = b;
            p[b] = p[b] + p[a] - 1;
            if (p[b] < 1)
                small[ns++] = b;
            else
                large[nl++] = b;
        }
        while (nl) {
            uint32_t b = large[--nl];
            prob[b] = 1;
            alias[b] = b;
        }
        while (ns) {
            uint32_t a = small[--ns];
            prob[a] = 1;
            alias[a] = a;
        }
    }
    double t_two;
    BENCH_MIN(t_two, 3, {
        for (int i = 0; i < N; i++) {
            uint32_t k = (uint32_t)ct_rng_below(&rng, K);
            if (ct_rng_uniform(&rng) >= prob[k])
                k = alias[k];
            sum += k;
        }
    });
    free(prob);
    free(alias);
    BENCH_MIN(t_scan, 3, {
        for (int i = 0; i < N; i++) {
            uint32_t root = (uint32_t)ct_rng_below(&rng, 80);
            double u = ct_rng_uniform(&rng);
            int k = 0;
            while (k < K - 1 && u >= cdf[k])
                k++;
            sum += (unsigned)k + root;
        }
    });
    printf("  99-triplet segment: alias (one 64-bit number) %12.0f draws/s (goal 100 M: %s)\n", N / t_alias,
           N / t_alias >= 1e8 ? "met" : "NOT met");
    printf("                      alias (two numbers, before)  %12.0f draws/s: %.2fx\n", N / t_two, t_two / t_alias);
    printf("                      linear CDF scan              %12.0f draws/s: %.1fx\n", N / t_scan, t_scan / t_alias);
    printf("                      a whole 3-task placement     %12.0f /s%s\n", N / t_place, sum == 0 ? " " : "");
    ct_sampler_free(s);
    return 0;
}
