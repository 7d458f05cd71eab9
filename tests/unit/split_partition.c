/*
 * split_partition.c - bottleneck split and triplet enumeration: counts
 * (1, 5, 22, 99), distinctness, crossing edges by hand, limits.
 */
#include "ct_split.h"
#include "ct_test.h"

static void add(ct_dag_t *d, const char *id)
{
    ct_error_t err;
    CHECK(ct_dag_add_task(d, id, 1.0, NULL, &err) == CT_OK);
}

static void edge(ct_dag_t *d, const char *a, const char *b, double bytes)
{
    size_t u, v;
    ct_error_t err;
    CHECK(ct_dag_find(d, a, &u) && ct_dag_find(d, b, &v));
    CHECK(ct_dag_add_edge(d, u, v, bytes, &err) == CT_OK);
}

static const char *id_of(const ct_split_t *sp, size_t v)
{
    return sp->dag.ids[v];
}

static void split_cases(void)
{
    ct_dag_t d;
    ct_split_t sp;
    ct_error_t err;
    /* s -> {x, y} -> m -> {p, q} -> t, plus s -> m direct. */
    ct_dag_init(&d);
    const char *ids[] = { "s", "x", "y", "m", "p", "q", "t" };
    for (size_t i = 0; i < 7; i++)
        add(&d, ids[i]);
    edge(&d, "s", "x", 1);
    edge(&d, "s", "y", 2);
    edge(&d, "x", "m", 3);
    edge(&d, "y", "m", 4);
    edge(&d, "s", "m", 5);
    edge(&d, "m", "p", 6);
    edge(&d, "m", "q", 7);
    edge(&d, "p", "t", 8);
    edge(&d, "q", "t", 9);
    CHECK(ct_split_compute(&d, &sp, &err) == CT_OK);
    CHECK(sp.n_bottlenecks == 3 && sp.n_segments == 2);
    CHECK(!strcmp(id_of(&sp, sp.bottlenecks[0]), "s") && !strcmp(id_of(&sp, sp.bottlenecks[1]), "m") &&
          !strcmp(id_of(&sp, sp.bottlenecks[2]), "t"));
    CHECK(sp.segments[0].n_inner == 2 && sp.segments[0].n_edges == 5);
    CHECK(sp.segments[1].n_inner == 2 && sp.segments[1].n_edges == 4);
    CHECK(!sp.virtual_source && !sp.virtual_sink);
    /* Every edge in exactly one segment. */
    size_t total = 0;
    for (size_t i = 0; i < sp.n_segments; i++)
        total += sp.segments[i].n_edges;
    CHECK(total == sp.dag.n_edges);

    /* Crossing edges of segment 0 by hand. Inner tasks x, y (topological
     * order x then y). Triplets: partition {x y} (k=l=0) and {x}{y}
     * with (k, l) in {0,1}^2. */
    ct_partitions_t pt;
    CHECK(ct_partitions_enumerate(2, NULL, "seg", &pt, &err) == CT_OK);
    CHECK(pt.n_triplets == 5);
    const ct_segment_t *s0 = &sp.segments[0];
    for (size_t t = 0; t < pt.n_triplets; t++) {
        const ct_triplet_t *tr = &pt.triplets[t];
        int together = pt.n_parts[tr->partition] == 1;
        size_t x_part = pt.assign[tr->partition * 2 + 0], y_part = pt.assign[tr->partition * 2 + 1];
        CHECK(strcmp(id_of(&sp, s0->inner[0]), "x") == 0 || strcmp(id_of(&sp, s0->inner[0]), "y") == 0);
        for (size_t j = 0; j < s0->n_edges; j++) {
            size_t e = s0->edges[j];
            const char *a = id_of(&sp, sp.dag.from[e]), *b = id_of(&sp, sp.dag.to[e]);
            size_t xp = !strcmp(id_of(&sp, s0->inner[0]), "x") ? x_part : y_part;
            size_t yp = !strcmp(id_of(&sp, s0->inner[0]), "x") ? y_part : x_part;
            int want;
            if (!strcmp(a, "s") && !strcmp(b, "m"))
                want = tr->k != tr->l; /* direct edge */
            else if (!strcmp(a, "s"))
                want = (!strcmp(b, "x") ? xp : yp) != tr->k;
            else
                want = (!strcmp(a, "x") ? xp : yp) != tr->l;
            CHECK_MSG(ct_triplet_crosses(s0, &pt, tr, j) == want, "triplet %zu edge %s->%s", t, a, b);
        }
        if (together)
            CHECK(tr->k == 0 && tr->l == 0);
    }
    ct_partitions_free(&pt);
    ct_split_free(&sp);
    ct_dag_destroy(&d);

    /* Two roots, two sinks: virtual source and sink are added. */
    ct_dag_init(&d);
    add(&d, "a");
    add(&d, "b");
    add(&d, "c");
    add(&d, "d");
    edge(&d, "a", "c", 1);
    edge(&d, "b", "c", 1);
    edge(&d, "c", "d", 1);
    add(&d, "e");
    edge(&d, "c", "e", 1);
    CHECK(ct_split_compute(&d, &sp, &err) == CT_OK);
    CHECK(sp.virtual_source && sp.virtual_sink);
    CHECK(sp.dag.n_tasks == 7);
    CHECK(sp.n_bottlenecks == 3); /* __source__, c, __sink__ */
    CHECK(!strcmp(id_of(&sp, sp.bottlenecks[1]), "c"));
    CHECK(ct_dag_member_count(&sp.dag, sp.bottlenecks[0]) == 0);
    CHECK(ct_dag_member_count(&sp.dag, sp.bottlenecks[1]) == 1);
    ct_split_free(&sp);
    ct_dag_destroy(&d);

    /* A single task: one bottleneck, no segment. */
    ct_dag_init(&d);
    add(&d, "only");
    CHECK(ct_split_compute(&d, &sp, &err) == CT_OK);
    CHECK(sp.n_bottlenecks == 1 && sp.n_segments == 0);
    ct_split_free(&sp);
    ct_dag_destroy(&d);
}

static void counts(void)
{
    static const double want[] = { 1, 1, 5, 22, 99, 471, 2386, 12867, 73681 };
    ct_error_t err;
    for (size_t n = 0; n < sizeof want / sizeof want[0]; n++) {
        CHECK(ct_partition_triplet_count(n) == want[n]);
        ct_partitions_t pt;
        CHECK(ct_partitions_enumerate(n, NULL, "seg", &pt, &err) == CT_OK);
        CHECK_MSG(pt.n_triplets == (size_t)want[n], "n=%zu: %zu triplets", n, pt.n_triplets);
        /* Every triplet distinct: partitions are distinct as set partitions
         * (canonical restricted growth strings, so distinct strings) and
         * (k, l) distinct within a partition. */
        for (size_t a = 0; a < pt.n_partitions; a++) {
            uint8_t mx = 0;
            for (size_t i = 0; i < n; i++) {
                uint8_t v = pt.assign[a * n + i];
                CHECK(i == 0 ? v == 0 : v <= mx + 1);
                if (v > mx)
                    mx = v;
            }
            if (n)
                CHECK(pt.n_parts[a] == mx + 1);
            for (size_t b = a + 1; b < pt.n_partitions && n <= 5; b++)
                CHECK(memcmp(pt.assign + a * n, pt.assign + b * n, n) != 0);
        }
        for (size_t t = 1; t < pt.n_triplets; t++) {
            const ct_triplet_t *p = &pt.triplets[t - 1], *q = &pt.triplets[t];
            CHECK(p->partition < q->partition || (p->partition == q->partition && (p->k < q->k ||
                                                  (p->k == q->k && p->l < q->l))));
        }
        ct_partitions_free(&pt);
    }
    /* Over the limit: a clear error naming the segment and the count. */
    ct_partition_params_t p;
    ct_partition_params_init(&p);
    p.max_triplets = 1000;
    ct_partitions_t pt;
    CHECK(ct_partitions_enumerate(6, &p, "m.json: segment 2 (a -> b)", &pt, &err) == CT_ELIMIT);
    CHECK_ERR(err, CT_ELIMIT, "m.json: segment 2 (a -> b): 6 intermediate tasks need 2386 placement triplets");
    CHECK(pt.triplets == NULL);
}

int main(void)
{
    split_cases();
    counts();
    return ct_test_end();
}
