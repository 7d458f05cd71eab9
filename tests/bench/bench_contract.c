/*
 * bench_contract.c - contraction speed: all qualifying edges per round
 * (contend's method) against one edge per round (the reference order, same
 * end graph), on the zoo models and on large generated DAGs (1000+ tasks).
 */
#include "bench_util.h"
#include "ct_contract.h"
#include "ct_zoo.h"

#include <stdio.h>
#include <stdlib.h>

/* A DenseNet-like DAG with `layers` dense layers: long chains and many
 * residual-style joins, like the real profiles but bigger. */
static void big_dag(ct_dag_t *d, size_t blocks, size_t layers)
{
    ct_error_t err;
    char id[64];
    size_t prev, x;
    ct_dag_init(d);
    ct_dag_add_task(d, "input", 0, &prev, &err);
    for (size_t b = 0; b < blocks; b++)
        for (size_t l = 0; l < layers; l++) {
            size_t y = prev;
            for (int k = 0; k < 6; k++) {
                snprintf(id, sizeof id, "b%zu.l%zu.op%d", b, l, k);
                ct_dag_add_task(d, id, 1e-5, &x, &err);
                ct_dag_add_edge(d, y, x, 1e5, &err);
                y = x;
            }
            snprintf(id, sizeof id, "b%zu.l%zu.cat", b, l);
            ct_dag_add_task(d, id, 1e-6, &x, &err);
            ct_dag_add_edge(d, prev, x, 2e5, &err);
            ct_dag_add_edge(d, y, x, 5e4, &err);
            if (l % 4 == 3) { /* a two-branch block that stays */
                size_t a, c, j;
                snprintf(id, sizeof id, "b%zu.l%zu.a", b, l);
                ct_dag_add_task(d, id, 1e-5, &a, &err);
                snprintf(id, sizeof id, "b%zu.l%zu.c", b, l);
                ct_dag_add_task(d, id, 1e-5, &c, &err);
                snprintf(id, sizeof id, "b%zu.l%zu.j", b, l);
                ct_dag_add_task(d, id, 1e-6, &j, &err);
                ct_dag_add_edge(d, x, a, 1e5, &err);
                ct_dag_add_edge(d, x, c, 1e5, &err);
                ct_dag_add_edge(d, a, j, 1e5, &err);
                ct_dag_add_edge(d, c, j, 1e5, &err);
                x = j;
            }
            prev = x;
        }
}

static void run(const char *name, const ct_dag_t *d)
{
    ct_dag_t out;
    ct_error_t err;
    ct_contract_info_t info;
    ct_contract_params_t single;
    ct_contract_params_init(&single);
    single.single_edge = 1;
    double t_all, t_one;
    int reps = d->n_tasks > 2000 ? 1 : 5;
    BENCH_MIN(t_all, reps, {
        if (ct_dag_contract(d, &out, &info, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        ct_dag_destroy(&out);
    });
    BENCH_MIN(t_one, reps, {
        if (ct_dag_contract_ex(d, &single, &out, NULL, &err) != CT_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        ct_dag_destroy(&out);
    });
    printf("  %-22s %6zu -> %4zu tasks %3zu rounds  %9.3f ms  %11.3f ms  %8.1fx\n", name, info.tasks_before,
           info.tasks_after, info.rounds, 1e3 * t_all, 1e3 * t_one, t_one / t_all);
}

int main(void)
{
    printf("contraction: all qualifying edges per round vs one edge per round (same end graph)\n");
    printf("  %-22s %-34s %9s  %11s  %9s\n", "DAG", "", "contend", "one-by-one", "speed-up");
    const char *models[] = { "alexnet", "vgg16", "resnet18", "densenet121", "gpt2" };
    for (size_t i = 0; i < 5; i++) {
        ct_dag_t d;
        ct_error_t err;
        ct_dag_init(&d);
        if (ct_zoo_build(models[i], NULL, &d, &err) != CT_OK)
            return 1;
        run(models[i], &d);
        ct_dag_destroy(&d);
    }
    size_t sizes[][2] = { { 4, 40 }, { 8, 60 } };
    for (size_t i = 0; i < 2; i++) {
        ct_dag_t d;
        char name[48];
        big_dag(&d, sizes[i][0], sizes[i][1]);
        snprintf(name, sizeof name, "generated %zu tasks", d.n_tasks);
        run(name, &d);
        ct_dag_destroy(&d);
    }
    return 0;
}
