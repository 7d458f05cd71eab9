/*
 * split_partition.c - bottleneck split and triplet enumeration: counts
 * (1, 5, 22, 99), distinctness, crossing edges by hand, limits; the
 * bottlenecks of random DAGs (one or several sources and sinks, tasks
 * added in shuffled order) are the sink's dominators by igraph's
 * dominator tree.
 */
#include "ct_split.h"
#include "ct_test.h"

#include <igraph.h>
#include <stdio.h>
#include <stdlib.h>

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

static unsigned long long lcg_state;

static size_t lcg(size_t n)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)((lcg_state >> 33) % n);
}

/* The sink's dominators from the source, sink first, by igraph (the
 * implementation before 2026-12-03); their count, 0 on failure. */
static size_t igraph_chain(const ct_dag_t *d, size_t root, size_t sink, size_t *chain)
{
    igraph_vector_int_t edges, dom;
    igraph_t g;
    size_t nb = 0;
    if (igraph_vector_int_init(&edges, (igraph_integer_t)(2 * d->n_edges)) != IGRAPH_SUCCESS)
        return 0;
    for (size_t e = 0; e < d->n_edges; e++) {
        VECTOR(edges)[2 * e] = (igraph_integer_t)d->from[e];
        VECTOR(edges)[2 * e + 1] = (igraph_integer_t)d->to[e];
    }
    if (igraph_vector_int_init(&dom, 0) == IGRAPH_SUCCESS) {
        if (igraph_create(&g, &edges, (igraph_integer_t)d->n_tasks, IGRAPH_DIRECTED) == IGRAPH_SUCCESS) {
            if (igraph_dominator_tree(&g, (igraph_integer_t)root, &dom, NULL, NULL, IGRAPH_OUT) == IGRAPH_SUCCESS)
                for (size_t v = sink; nb < d->n_tasks;) {
                    chain[nb++] = v;
                    if (v == root || VECTOR(dom)[v] < 0)
                        break;
                    v = (size_t)VECTOR(dom)[v];
                }
            igraph_destroy(&g);
        }
        igraph_vector_int_destroy(&dom);
    }
    igraph_vector_int_destroy(&edges);
    return nb;
}

static void dominators_agree(void)
{
    int agree = 1, cases = 0, chains = 0;
    for (unsigned seed = 1; seed <= 400; seed++) {
        lcg_state = seed;
        size_t n = 2 + lcg(29), perm[32];
        int several = seed % 4 == 0; /* (some with several sources and sinks: virtual ones added) */
        for (size_t i = 0; i < n; i++)
            perm[i] = i;
        for (size_t i = n - 1; i > 0; i--) { /* insertion order shuffled: ids need not be topological */
            size_t j = lcg(i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        ct_dag_t d;
        ct_dag_init(&d);
        char id[24];
        for (size_t i = 0; i < n; i++) {
            snprintf(id, sizeof id, "t%zu", perm[i]);
            add(&d, id);
        }
        size_t span = 1 + lcg(5); /* edges reach up to span tasks on (some jump far) */
        for (size_t i = 0; i + 1 < n; i++) {
            int has_out = 0;
            for (size_t j = i + 1; j < n; j++)
                if ((j - i <= span && lcg(2)) || lcg(8 * n) == 0) {
                    char a[24], b[24];
                    snprintf(a, sizeof a, "t%zu", i);
                    snprintf(b, sizeof b, "t%zu", j);
                    edge(&d, a, b, 1.0);
                    has_out = 1;
                }
            if (!has_out && !(several && lcg(3) == 0)) {
                char a[24], b[24];
                snprintf(a, sizeof a, "t%zu", i);
                snprintf(b, sizeof b, "t%zu", i + 1 + lcg(n - i - 1));
                edge(&d, a, b, 1.0);
            }
        }
        ct_split_t sp;
        ct_error_t err;
        if (ct_split_compute(&d, &sp, &err) == CT_OK) {
            size_t chain[64], nb = igraph_chain(&sp.dag, sp.bottlenecks[0], sp.bottlenecks[sp.n_bottlenecks - 1], chain);
            int same = nb == sp.n_bottlenecks;
            for (size_t k = 0; same && k < nb; k++)
                same = chain[k] == sp.bottlenecks[nb - 1 - k];
            if (!same) {
                fprintf(stderr, "seed %u: %zu tasks, %zu bottlenecks, igraph %zu\n", seed, n, sp.n_bottlenecks, nb);
                agree = 0;
            }
            chains += nb > 2;
            cases++;
            ct_split_free(&sp);
        }
        ct_dag_destroy(&d);
    }
    CHECK(cases == 400);
    CHECK(chains > 40); /* (not only source and sink: inner bottlenecks were compared) */
    CHECK(agree);
}

int main(void)
{
    split_cases();
    counts();
    dominators_agree();
    return ct_test_end();
}
