/*
 * bench_scale.c - a DAG's load (JSON), contraction and bottleneck split
 * against its size: a chain of diamonds of 10,000, 100,000 and 1,000,000
 * tasks; time per task should stay flat (linear growth), and the peak
 * resident memory is printed after the largest.
 */
#include "bench_util.h"
#include "ct_contract.h"
#include "ct_split.h"
#include "ct_test_diamonds.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>


int main(void)
{
    printf("DAG scale: load (JSON) + contract + split of a chain of diamonds (linear: flat time per task)\n");
    printf("  %10s %10s %10s %10s %10s %14s\n", "tasks", "load", "contract", "split", "total", "per task");
    double first = 0;
    const size_t sizes[] = { 10000, 100000, 1000000 };
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *text = ct_test_diamonds(sizes[i], &len);
        ct_dag_t d, c;
        ct_split_t sp;
        ct_error_t err;
        ct_dag_init(&d);
        double t0 = bench_now();
        if (ct_dag_parse_json(&d, text, len, "diamonds", &err) != CT_OK)
            return 1;
        double t1 = bench_now();
        if (ct_dag_contract(&d, &c, NULL, &err) != CT_OK)
            return 1;
        double t2 = bench_now();
        if (ct_split_compute(&d, &sp, &err) != CT_OK)
            return 1;
        double t3 = bench_now(), per = (t3 - t0) / (double)d.n_tasks;
        if (i == 0)
            first = per;
        printf("  %10zu %8.3f s %8.3f s %8.3f s %8.3f s %9.2f us (x%.2f)\n", d.n_tasks, t1 - t0, t2 - t1, t3 - t2,
               t3 - t0, 1e6 * per, per / first);
        ct_split_free(&sp);
        ct_dag_destroy(&c);
        ct_dag_destroy(&d);
        free(text);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  peak resident memory %.0f MB (the 1,000,000-task input text is %.0f MB)\n", ru.ru_maxrss / 1024.0,
           1e-6 * 102.0e6);
    return 0;
}
