/*
 * scenario_gen.c - the seeded layered-workload generator (ct_scenario_gen.h)
 * and the Nona model against the simulator on a small generated family;
 * scenarios saved and read back (100 classes: their DAGs loaded on the
 * cores, the first class's error reported; its model built on the cores
 * the same as on one thread).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "ct_eval.h"
#include "ct_json.h"
#include "ct_nona.h"
#include "ct_sampler.h"
#include "ct_scenario_gen.h"
#include "ct_test.h"
#include "ct_test_fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stage of a generated task id "sI_tJ". */
static unsigned stage_of(const char *id)
{
    return (unsigned)strtoul(id + 1, NULL, 10);
}

/* Every scenario of 60 seeds within the documented ranges; one seed, one
 * scenario; different seeds, different scenarios. */
static void shape(void)
{
    ct_scenario_gen_params_t p;
    ct_scenario_gen_params_init(&p);
    ct_error_t err;
    size_t distinct_classes[4] = { 0 }, bw[2] = { 0 };
    for (uint64_t seed = 1; seed <= 60; seed++) {
        ct_scenario_t s, again;
        CHECK(ct_scenario_gen_layered(&p, seed, &s, &err) == CT_OK);
        CHECK(ct_scenario_gen_layered(&p, seed, &again, &err) == CT_OK);
        char h1[17], h2[17];
        ct_scenario_hash(&s, h1, sizeof h1);
        ct_scenario_hash(&again, h2, sizeof h2);
        CHECK(!strcmp(h1, h2));
        ct_scenario_destroy(&again);
        if (seed > 1) { /* the seed before differs */
            ct_scenario_t prev;
            char h0[17];
            CHECK(ct_scenario_gen_layered(&p, seed - 1, &prev, &err) == CT_OK);
            ct_scenario_hash(&prev, h0, sizeof h0);
            CHECK(strcmp(h0, h1) != 0);
            ct_scenario_destroy(&prev);
        }
        CHECK(s.n_classes >= 1 && s.n_classes <= 3 && s.servers == 80);
        distinct_classes[s.n_classes]++;
        CHECK(s.link_bandwidth == 1.25e9 || s.link_bandwidth == 1.25e10);
        bw[s.link_bandwidth == 1.25e10]++;
        for (size_t c = 0; c < s.n_classes; c++) {
            const ct_dag_t *g = &s.classes[c].dag;
            CHECK(s.classes[c].rate >= 0.5 && s.classes[c].rate <= 2.0);
            unsigned stages = 0, width[64] = { 0 }, fanin[4096] = { 0 }, fed[4096] = { 0 };
            CHECK(g->n_tasks <= 4096);
            for (size_t t = 0; t < g->n_tasks; t++) {
                unsigned st = stage_of(g->ids[t]);
                CHECK(st < 64);
                width[st]++;
                stages = st + 1 > stages ? st + 1 : stages;
                CHECK(g->time[t] >= p.time_min && g->time[t] <= p.time_max);
            }
            CHECK(stages >= p.stages_min && stages <= p.stages_max);
            for (unsigned st = 0; st < stages; st++)
                CHECK(width[st] >= 1 && width[st] <= p.width_max);
            for (size_t e = 0; e < g->n_edges; e++) {
                CHECK(stage_of(g->ids[g->to[e]]) == stage_of(g->ids[g->from[e]]) + 1);
                CHECK(g->bytes[e] >= p.bytes_min && g->bytes[e] <= p.bytes_max);
                fanin[g->to[e]]++;
                fed[g->from[e]]++;
            }
            for (size_t t = 0; t < g->n_tasks; t++) {
                unsigned st = stage_of(g->ids[t]);
                CHECK(st == 0 ? fanin[t] == 0 : fanin[t] >= 1); /* (an unfed task's extra edge may pass fanin_max) */
                CHECK(st + 1 == stages || fed[t] >= 1);           /* only the last stage ends the job */
            }
        }
        ct_scenario_destroy(&s);
    }
    CHECK(distinct_classes[1] && distinct_classes[2] && distinct_classes[3]);
    CHECK(bw[0] && bw[1]);
    /* Ranges are checked. */
    p.stages_min = 5;
    p.stages_max = 4;
    ct_scenario_t s;
    CHECK(ct_scenario_gen_layered(&p, 1, &s, &err) == CT_EINPUT && strstr(err.msg, "stages"));
    ct_scenario_gen_params_init(&p);
    p.bytes_min = -1;
    CHECK(ct_scenario_gen_layered(&p, 1, &s, &err) == CT_EINPUT && strstr(err.msg, "edge bytes"));
}

/* The model against the simulator on a small family of shallow layered
 * workloads (2-4 stages, seeds 2, 5 and 6: their certified solves take
 * milliseconds) at loads 0.3 and 0.6: every point
 * within 20% of the simulated mean, give or take the simulation's own 95%
 * interval (the bar of issue #32; `contend sim check --generate` runs
 * larger families, docs/model-checks.md quotes them). CT_TEST_QUICK (make valgrind):
 * one workload at one load. The piece waits are shown beside. */
static void model_vs_sim(void)
{
    ct_scenario_gen_params_t p;
    ct_scenario_gen_params_init(&p);
    p.stages_min = 2;
    p.stages_max = 4;
    double loads[2] = { 0.3, 0.6 };
    int quick = getenv("CT_TEST_QUICK") != NULL;
    size_t nl = quick ? 1 : 2;
    static const uint64_t seed_list[3] = { 2, 5, 6 };
    size_t seeds = quick ? 1 : 3;
    const char *pol[1] = { "nona" };
    ct_eval_params_t ev;
    ct_eval_params_init(&ev);
    ev.run.reps = 2;
    ev.run.jobs = quick ? 2000 : 5000;
    ev.solve.gap = 1e-3;
    ct_error_t err;
    size_t points = 0, within = 0, within_old = 0;
    for (size_t si = 0; si < seeds; si++) {
        uint64_t seed = seed_list[si];
        ct_scenario_t s;
        CHECK(ct_scenario_gen_layered(&p, seed, &s, &err) == CT_OK);
        for (int old = 0; old < (quick ? 1 : 2); old++) {
            ev.job_first_waits = !old;
            ct_eval_result_t r;
            CHECK_MSG(ct_eval_sweep(&s, loads, nl, 0, pol, 1, &ev, NULL, NULL, &r, &err) == CT_OK, "%s", err.msg);
            for (size_t i = 0; i < r.n_points; i++) {
                const ct_eval_point_t *pt = &r.points[i];
                CHECK(!pt->unstable);
                double sim = pt->sum.mean[r.n_classes], ci = pt->sum.ci95[r.n_classes], mod = pt->model_mean_jct;
                int ok = fabs(sim - mod) <= 0.2 * mod + ci;
                if (old)
                    within_old += ok;
                else {
                    points++;
                    within += ok;
                    CHECK_MSG(ok, "seed %llu load %g: simulated %.4g +- %.2g s, model %.4g s",
                              (unsigned long long)seed, pt->load, sim, ci, mod);
                }
            }
            ct_eval_result_free(&r);
        }
        ct_scenario_destroy(&s);
    }
    fflush(stdout);
    printf("model vs simulation, %zu generated workloads x %zu loads: job-first waits %zu of %zu within 20%%, piece "
           "waits %zu\n", seeds, nl, within, points, within_old);
    CHECK(points == seeds * nl);
}

/* Dependent parts: no triplet's parts end before the segment's longest
 * chain of compute (ct_block_t.chain), for every triplet listed on deep
 * generated workloads; a path set that overflowed its part's room once
 * overwrote the next part's first path and lost the chain (1.15x optimistic
 * on layered-1011). Both wait models. */
static void chain_bound(void)
{
    ct_scenario_gen_params_t p;
    ct_scenario_gen_params_init(&p);
    p.stages_min = 6;
    ct_error_t err;
    size_t triplets = 0;
    for (int jf = 0; jf < 2; jf++)
        for (uint64_t seed = 1000; seed < 1016; seed++) {
            ct_scenario_t s;
            CHECK(ct_scenario_gen_layered(&p, seed, &s, &err) == CT_OK);
            ct_nona_model_params_t mp;
            ct_nona_model_params_init(&mp);
            mp.reentry_waits = jf;
            mp.partition.max_triplets = 20000;
            ct_nona_model_t m;
            CHECK_MSG(ct_nona_model_build(&s, &mp, &m, &err) == CT_OK, "%s", err.msg);
            ct_rng_t rng;
            ct_rng_seed(&rng, seed);
            for (size_t bi = 0; bi < m.n_blocks; bi++) {
                const ct_block_t *b = &m.blocks[bi];
                size_t n = b->parts.n_inner;
                ct_nona_candidate_t cand;
                CHECK(ct_nona_candidate_alloc(&m, bi, &cand, &err) == CT_OK);
                for (int r = 0; r < 300 && n > 1; r++) { /* random triplets of up to 8 parts, numbered by first use */
                    uint8_t assign[256], map[8];
                    size_t q = 0;
                    memset(map, 0xff, sizeof map);
                    for (size_t t = 0; t < n; t++) {
                        size_t x = (size_t)ct_rng_below(&rng, 8);
                        if (map[x] == 0xff)
                            map[x] = (uint8_t)q++;
                        assign[t] = map[x];
                    }
                    size_t k = (size_t)ct_rng_below(&rng, q), l = (size_t)ct_rng_below(&rng, q);
                    ct_nona_candidate_eval(&m, &cand, assign, q, k, l);
                    double amax = 0;
                    for (size_t i = 0; i < cand.info.n_branches; i++)
                        amax = fmax(amax, cand.branches[i].a);
                    CHECK_MSG(amax >= b->chain * (1 - 1e-12), "seed %llu block %zu, a random triplet: longest branch "
                              "%.6g s, chain %.6g s", (unsigned long long)seed, bi, amax, b->chain);
                    triplets++;
                }
                ct_nona_candidate_free(&cand);
                for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
                    double amax = 0;
                    for (size_t i = 0; i < m.trip[w].n_branches; i++)
                        amax = fmax(amax, m.branches[m.trip[w].branch_start + i].a);
                    CHECK_MSG(amax >= b->chain * (1 - 1e-12), "seed %llu block %zu triplet %zu: longest branch %.6g s, "
                              "chain %.6g s", (unsigned long long)seed, bi, w - b->var_start, amax, b->chain);
                    triplets++;
                }
            }
            ct_nona_model_free(&m);
            ct_scenario_destroy(&s);
        }
    CHECK(triplets > 10000);
}

/* The ensemble and pipeline families within their documented ranges
 * (ct_scenario_gen.h) over 40 seeds, deterministic, named by family. */
static void families(void)
{
    ct_scenario_gen_params_t p;
    ct_scenario_gen_params_init(&p);
    ct_error_t err;
    size_t widths[7] = { 0 }, long_chain = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        ct_scenario_t s, again;
        p.shape = CT_GEN_ENSEMBLE;
        CHECK(ct_scenario_gen_layered(&p, seed, &s, &err) == CT_OK);
        CHECK(ct_scenario_gen_layered(&p, seed, &again, &err) == CT_OK);
        char h1[17], h2[17], name[32];
        ct_scenario_hash(&s, h1, sizeof h1);
        ct_scenario_hash(&again, h2, sizeof h2);
        CHECK(!strcmp(h1, h2));
        snprintf(name, sizeof name, "ensemble-%llu", (unsigned long long)seed);
        CHECK(!strcmp(s.path, name));
        for (size_t c = 0; c < s.n_classes; c++) {
            const ct_dag_t *g = &s.classes[c].dag;
            size_t m = g->n_tasks - 2; /* decode, m models, vote */
            CHECK(m >= 2 && m <= 6 && g->n_edges == 2 * m);
            widths[m < 7 ? m : 0]++;
            CHECK(!strcmp(g->ids[0], "decode") && g->time[0] >= 0.001 && g->time[0] <= 0.005);
            CHECK(!strcmp(g->ids[g->n_tasks - 1], "vote") && g->time[g->n_tasks - 1] == 0.0005);
            for (size_t t = 1; t + 1 < g->n_tasks; t++)
                CHECK(g->time[t] >= 0.010 && g->time[t] <= 0.100);
            for (size_t e = 0; e < g->n_edges; e++)
                if (g->from[e] == 0)
                    CHECK(g->bytes[e] >= 1e5 && g->bytes[e] <= 1e7);
                else
                    CHECK(g->to[e] == g->n_tasks - 1 && g->bytes[e] >= 1e3 && g->bytes[e] <= 1e5);
        }
        ct_scenario_destroy(&s);
        ct_scenario_destroy(&again);
        p.shape = CT_GEN_PIPELINE;
        CHECK(ct_scenario_gen_layered(&p, seed, &s, &err) == CT_OK);
        snprintf(name, sizeof name, "pipeline-%llu", (unsigned long long)seed);
        CHECK(!strcmp(s.path, name));
        for (size_t c = 0; c < s.n_classes; c++) {
            const ct_dag_t *g = &s.classes[c].dag;
            CHECK(g->n_tasks >= 5 && g->n_tasks <= 10 && g->n_edges == g->n_tasks - 1);
            long_chain += g->n_tasks >= 8;
            for (size_t e = 0; e < g->n_edges; e++)
                CHECK(g->to[e] == g->from[e] + 1 && stage_of(g->ids[g->to[e]]) == stage_of(g->ids[g->from[e]]) + 1);
        }
        ct_scenario_destroy(&s);
    }
    CHECK(widths[2] && widths[6] && long_chain);
    p.shape = (ct_gen_shape_t)7;
    ct_scenario_t s;
    CHECK(ct_scenario_gen_layered(&p, 1, &s, &err) == CT_EINPUT && strstr(err.msg, "shape"));
    ct_gen_shape_t sh;
    CHECK(ct_gen_shape_parse("pipeline", &sh) == CT_OK && sh == CT_GEN_PIPELINE);
    CHECK(ct_gen_shape_parse("tree", &sh) == CT_EINPUT);
}

/* The DAGs of a scenario, as files would hold them, are the same. */
static int same_dags(const ct_scenario_t *a, const ct_scenario_t *b)
{
    ct_error_t err;
    int same = a->n_classes == b->n_classes;
    for (size_t c = 0; same && c < a->n_classes; c++) {
        char *x = NULL, *y = NULL;
        same = ct_dag_to_json_text(&a->classes[c].dag, &x, &err) == CT_OK &&
               ct_dag_to_json_text(&b->classes[c].dag, &y, &err) == CT_OK && !strcmp(x, y) &&
               a->classes[c].rate == b->classes[c].rate;
        free(x);
        free(y);
    }
    return same;
}

/* Removes what the tests below saved in dir (the DAG files of n classes,
 * c0.json ..., and two scenario files), then dir. */
static void remove_saved(const char *dir, size_t n, const char *a, const char *b)
{
    char path[128];
    for (size_t c = 0; c < n; c++) {
        snprintf(path, sizeof path, "%s/c%zu.json", dir, c);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/%s", dir, a);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, b);
    unlink(path);
    CHECK(rmdir(dir) == 0);
}

/* ct_scenario_save reads back as saved: classes with their own DAGs, and
 * classes sharing one file with one DAG (written once); two DAGs under
 * one file name are refused before anything is written (the fleet helper
 * once named every class's DAG "generated", and a saved fleet came back
 * as one DAG 1000 times). */
static void save_and_read_back(const ct_scenario_t *s, const char *dir, const char *name, ct_scenario_t *back)
{
    char path[96];
    ct_error_t err;
    CHECK_MSG(ct_scenario_save(s, dir, name, &err) == CT_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK_MSG(ct_scenario_load(back, path, &err) == CT_OK, "%s", err.msg);
    CHECK(same_dags(s, back));
}

/* A mixed fleet of n classes in a new folder dir (a mkdtemp template),
 * saved as name and read back into back. */
static void saved_fleet(char *dir, size_t n, const char *name, ct_scenario_t *s, ct_scenario_t *back)
{
    CHECK(mkdtemp(dir) != NULL);
    ct_test_fleet_mixed(s, n, 1.0);
    ct_scenario_init(back);
    save_and_read_back(s, dir, name, back);
}

static void save_round_trip(void)
{
    char dir[] = "/tmp/ct-save-XXXXXX", path[96];
    ct_scenario_t s, back;
    ct_error_t err;
    saved_fleet(dir, 3, "fleet.json", &s, &back);
    /* one DAG file for two classes with the same DAG */
    free(s.classes[1].dag_path);
    s.classes[1].dag_path = ct_strdup(s.classes[0].dag_path, &err);
    ct_dag_destroy(&s.classes[1].dag);
    CHECK(ct_dag_copy(&s.classes[1].dag, &s.classes[0].dag, &err) == CT_OK);
    save_and_read_back(&s, dir, "shared.json", &back);
    /* one file name, two DAGs: refused, naming both classes, nothing written */
    free(s.classes[2].dag_path);
    s.classes[2].dag_path = ct_strdup(s.classes[0].dag_path, &err);
    CHECK(ct_scenario_save(&s, dir, "clash.json", &err) == CT_EINPUT);
    CHECK_MSG(strstr(err.msg, "classes c0 and c2") != NULL, "message: %s", err.msg);
    snprintf(path, sizeof path, "%s/clash.json", dir);
    CHECK(access(path, F_OK) != 0);
    ct_scenario_destroy(&back);
    ct_scenario_destroy(&s);
    remove_saved(dir, 3, "fleet.json", "shared.json");
}

/* A scenario of 100 classes loads its DAG files on the cores: read back
 * as saved; with files missing, malformed and a class's field missing,
 * the error is the first class's in file order, as if one after the
 * other: the DAG of class 70 (missing) before the malformed one of 90
 * and the missing rate of 95; then 90's; then 95's. */
static void many_classes_load(void)
{
    char dir[] = "/tmp/ct-many-XXXXXX", path[128];
    ct_scenario_t s, back;
    ct_error_t err;
    saved_fleet(dir, 100, "big.json", &s, &back);
    /* its model built on the cores (pass 1: each class contracted and
     * split on a thread) is the model built one class after the other */
    ct_nona_model_params_t mp;
    ct_nona_model_params_init(&mp);
    ct_nona_model_t m1, m0;
    CHECK(ct_nona_model_build(&back, &mp, &m1, &err) == CT_OK);
    mp.threads = 0;
    CHECK(ct_nona_model_build(&back, &mp, &m0, &err) == CT_OK);
    int same = m1.n_vars == m0.n_vars && m1.n_blocks == m0.n_blocks && m1.n_branches == m0.n_branches &&
               m1.rho_s == m0.rho_s;
    for (size_t j = 0; same && j < m1.n_classes; j++)
        same = !strcmp(m1.class_names[j], m0.class_names[j]) && m1.classes[j].work == m0.classes[j].work &&
               m1.classes[j].base == m0.classes[j].base && m1.classes[j].block_start == m0.classes[j].block_start &&
               m1.classes[j].split.dag.n_tasks == m0.classes[j].split.dag.n_tasks;
    for (size_t w = 0; same && w < m1.n_vars; w++)
        same = m1.trip[w].a1 == m0.trip[w].a1 && m1.trip[w].a2 == m0.trip[w].a2 && m1.trip[w].q == m0.trip[w].q &&
               m1.trip[w].branch_start == m0.trip[w].branch_start;
    for (size_t i = 0; same && i < m1.n_branches; i++)
        same = m1.branches[i].a == m0.branches[i].a && m1.branches[i].n == m0.branches[i].n;
    CHECK(same && m1.n_classes == 100 && m1.n_blocks == 1000);
    ct_nona_model_free(&m1);
    ct_nona_model_free(&m0);
    cJSON *root = NULL;
    snprintf(path, sizeof path, "%s/big.json", dir);
    CHECK(ct_json_load_file(path, &root, &err) == CT_OK);
    cJSON *c95 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "classes"), 95);
    CHECK(cJSON_IsObject(c95));
    cJSON_DeleteItemFromObjectCaseSensitive(c95, "arrival_rate");
    snprintf(path, sizeof path, "%s/bad.json", dir);
    CHECK(ct_json_write_file(root, path, &err) == CT_OK);
    cJSON_Delete(root);
    char c70[128], c90[128];
    snprintf(c70, sizeof c70, "%s/c70.json", dir);
    snprintf(c90, sizeof c90, "%s/c90.json", dir);
    CHECK(unlink(c70) == 0);
    CHECK(ct_write_text_file(c90, "{\"tasks\": [", &err) == CT_OK);
    for (int round = 0; round < 3; round++) {
        CHECK(ct_scenario_load(&back, path, &err) != CT_OK);
        const char *want[] = { "classes[70].dag: ", "classes[90].dag: ", "classes[95]" };
        CHECK_MSG(strstr(err.msg, want[round]) != NULL && strstr(err.msg, "bad.json") != NULL, "round %d: %s", round,
                  err.msg);
        CHECK(back.n_classes == 0 && back.classes == NULL); /* (nothing half-loaded left) */
        if (round == 0) /* the missing file back, then the malformed one mended */
            CHECK(ct_scenario_save(&s, dir, "big.json", &err) == CT_OK);
        if (round == 0)
            CHECK(ct_write_text_file(c90, "{\"tasks\": [", &err) == CT_OK);
        if (round == 1)
            CHECK(ct_scenario_save(&s, dir, "big.json", &err) == CT_OK);
    }
    ct_scenario_destroy(&back);
    ct_scenario_destroy(&s);
    remove_saved(dir, 100, "big.json", "bad.json");
}

int main(void)
{
    save_round_trip();
    many_classes_load();
    families();
    shape();
    chain_bound();
    model_vs_sim();
    return ct_test_end();
}
