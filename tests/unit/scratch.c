/*
 * scratch.c - the scratch-buffer cache (ct_scratch_t, ct_base.h): buffers
 * handed out again after they are put back, but not much larger ones;
 * zeroed on request; a full cache frees its smallest; a NULL cache acts as
 * malloc and free; large blocks (ct_big_*) zeroed and kept as they grow;
 * and a certified Nona solve whose wait LPs draw from the
 * model's cache gives the same table, bound and LP count as one without
 * it (a generated layered workload with column generation: its LPs grow
 * between rounds). The model's screens cache (ct_nona_model_t.screens):
 * its entries move with their columns when triplets are added to a block
 * before others, the added ones are computed at the next wait LP, every
 * entry kept equals a fresh computation, and a solve without the cache
 * gives the same table, bound and LP count. Mid-size buffers carved from
 * slabs: writable, apart, handed out again.
 */
#include "ct_nona_solve.h"
#include "ct_scenario_gen.h"
#include "ct_test.h"
#include "nona_wait_lp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void cache_rules(void)
{
    ct_scratch_t *c = ct_scratch_alloc();
    CHECK(c != NULL);
    /* handed out again: the same block, its pages already touched */
    unsigned char *a = ct_scratch_get(c, 100000, 0);
    CHECK(a != NULL);
    memset(a, 0xAB, 100000);
    ct_scratch_put(c, a);
    unsigned char *b = ct_scratch_get(c, 100000, 0);
    CHECK(b == a);
    /* a large fresh one has an eighth to spare: a request a few columns
     * larger fits it */
    ct_scratch_put(c, b);
    unsigned char *g = ct_scratch_get(c, 110000, 1);
    CHECK(g == a);
    int zero = 1;
    for (size_t i = 0; i < 110000; i++)
        zero &= g[i] == 0;
    CHECK(zero);
    /* not for a small request: it would hold the large one up */
    ct_scratch_put(c, g);
    unsigned char *s = ct_scratch_get(c, 100, 0);
    CHECK(s != NULL && s != a);
    /* nor too small for a larger one */
    unsigned char *big = ct_scratch_get(c, 200000, 0);
    CHECK(big != NULL && big != a);
    memset(big, 1, 200000);
    ct_scratch_put(c, s);
    ct_scratch_put(c, big);
    /* best fit: of two that fit, the smaller */
    unsigned char *f = ct_scratch_get(c, 90000, 0);
    CHECK(f == a);
    ct_scratch_put(c, f);
    /* full: the smallest goes, the rest stay (leak checks see the frees) */
    void *many[CT_SCRATCH_KEEP + 8];
    for (size_t i = 0; i < CT_SCRATCH_KEEP + 8; i++) {
        many[i] = ct_scratch_get(c, 64 + i, 0);
        CHECK(many[i] != NULL);
    }
    for (size_t i = 0; i < CT_SCRATCH_KEEP + 8; i++)
        ct_scratch_put(c, many[i]);
    unsigned char *again = ct_scratch_get(c, 200000, 0);
    CHECK(again == big); /* the largest was kept */
    ct_scratch_put(c, again);
    /* overflowing sizes are refused, not wrapped */
    CHECK(ct_scratch_get(c, SIZE_MAX - 8, 0) == NULL);
    ct_scratch_free(c);
    /* no cache: malloc and free */
    unsigned char *m = ct_scratch_get(NULL, 1000, 1);
    CHECK(m != NULL && m[0] == 0 && m[999] == 0);
    ct_scratch_put(NULL, m);
    ct_scratch_put(NULL, NULL);
    ct_scratch_free(NULL);
}

/* Large blocks (ct_big_*): zeroed, their contents kept when they grow
 * (in place while there is room, moved past it, from malloc's small ones
 * to mapped large ones), each byte writable up to the size asked; the
 * scratch cache's large buffers are such blocks and go back to the cache
 * and out of it whole. */
static void big_blocks(void)
{
    const size_t sizes[] = { 0, 1, 1000, (size_t)1 << 20, ((size_t)4 << 20) - 64, (size_t)5 << 20,
                             ((size_t)9 << 20) + 7 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        unsigned char *p = ct_big_calloc(n, 1);
        CHECK(p != NULL);
        int zero = 1;
        for (size_t k = 0; k < n; k++)
            zero &= p[k] == 0;
        CHECK(zero);
        for (size_t k = 0; k < n; k++)
            p[k] = (unsigned char)(k * 7 + i);
        /* grows to three times the size (at least 2 MiB: past malloc's
         * blocks into mapped ones), the first n bytes kept */
        size_t m = 3 * n > ((size_t)2 << 20) ? 3 * n : (size_t)2 << 20;
        unsigned char *q = ct_big_realloc(p, m);
        CHECK(q != NULL);
        int kept = 1;
        for (size_t k = 0; k < n; k++)
            kept &= q[k] == (unsigned char)(k * 7 + i);
        CHECK(kept);
        memset(q, 0x5A, m);
        /* no smaller: the same block */
        CHECK(ct_big_realloc(q, m / 2) == q);
        ct_big_free(q);
    }
    CHECK(ct_big_calloc(SIZE_MAX / 4, 8) == NULL); /* n x size overflows */
    CHECK(ct_big_calloc(SIZE_MAX - 8, 1) == NULL);
    ct_big_free(NULL);
    double *d = ct_big_realloc(NULL, 3 * sizeof(double));
    CHECK(d != NULL && d[0] == 0 && d[2] == 0);
    ct_big_free(d);
    /* the cache's large buffers: handed out again whole, zeroed on request */
    ct_scratch_t *c = ct_scratch_alloc();
    CHECK(c != NULL);
    size_t n = ((size_t)6 << 20) + 100;
    unsigned char *a = ct_scratch_get(c, n, 1);
    CHECK(a != NULL && a[0] == 0 && a[n - 1] == 0);
    memset(a, 0xCD, n);
    ct_scratch_put(c, a);
    unsigned char *b = ct_scratch_get(c, n - 1000, 1);
    CHECK(b == a && b[0] == 0 && b[n - 1001] == 0);
    ct_scratch_put(c, b);
    ct_scratch_free(c);
    unsigned char *f = ct_scratch_get(NULL, n, 0); /* no cache: freed at once */
    CHECK(f != NULL);
    f[n - 1] = 1;
    ct_scratch_put(NULL, f);
}

/* Mid-size buffers (64 KiB up to the 4 MiB of large blocks; carved one
 * after the other from huge-page slabs where blocks are mapped): each
 * writable to its size, zeroed on request, none overlapping another
 * across several slabs; put back (more than the cache holds) they are
 * handed out again. */
static void slab_blocks(void)
{
    ct_scratch_t *c = ct_scratch_alloc();
    CHECK(c != NULL);
    enum { N = CT_SCRATCH_KEEP + 32 };
    unsigned char *p[N];
    size_t len[N];
    int ok = 1, zero = 1;
    for (size_t i = 0; i < N; i++) {
        len[i] = ((size_t)64 << 10) + (i * 37 % 23) * 20000 + i;
        p[i] = ct_scratch_get(c, len[i], (int)(i % 2));
        ok &= p[i] != NULL;
        if (!p[i])
            continue;
        if (i % 2)
            zero &= p[i][0] == 0 && p[i][len[i] / 2] == 0 && p[i][len[i] - 1] == 0;
        memset(p[i], (int)(i & 0xFF), len[i]);
    }
    CHECK(ok);
    CHECK(zero);
    int kept = 1; /* (a carving that overlapped would have overwritten another's) */
    for (size_t i = 0; ok && i < N; i++)
        for (size_t k = 0; k < len[i]; k += 997)
            kept &= p[i][k] == (unsigned char)(i & 0xFF) && p[i][len[i] - 1] == (unsigned char)(i & 0xFF);
    CHECK(kept);
    for (size_t i = 0; i < N; i++)
        ct_scratch_put(c, p[i]);
    int again = 1;
    for (size_t r = 0; r < 3; r++) {
        unsigned char *q = ct_scratch_get(c, len[N - 1 - r], 0);
        int held = 0;
        for (size_t i = 0; i < N; i++)
            held |= q == p[i];
        again &= held;
        memset(q, 0x11, len[N - 1 - r]);
        ct_scratch_put(c, q);
    }
    CHECK(again);
    ct_scratch_free(c);
}

/* Entries a[i] and b[i] equal field by field for i < n (not memcmp: padding). */
static int entries_equal(const ct_screen_entry_t *a, const ct_screen_entry_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(a[i].a, b[i].a, sizeof a[i].a) || memcmp(a[i].n, b[i].n, sizeof a[i].n) || a[i].r[0] != b[i].r[0] ||
            a[i].r[1] != b[i].r[1] || a[i].valid != b[i].valid)
            return 0;
    return 1;
}

/* One wait LP set up and freed on m: its screens go to the model's cache. */
static void init_lp(const ct_nona_model_t *m)
{
    ct_wait_lp_t lp;
    ct_error_t err;
    CHECK_MSG(ct_wait_lp_init(&lp, m, CT_NONA_LP_BLOCK, &err) == CT_OK, "%s", err.msg);
    ct_wait_lp_free(&lp);
}

static void screens_follow_columns(void)
{
    ct_scenario_gen_params_t gp;
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_gen_params_init(&gp);
    gp.stages_min = 3;
    gp.stages_max = 6;
    int checked = 0, moved = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        CHECK(ct_scenario_gen_layered(&gp, seed, &s, &err) == CT_OK);
        ct_nona_model_t m;
        ct_nona_model_params_t mp;
        ct_nona_model_params_init(&mp);
        mp.partition.max_triplets = 1; /* every segment of 2+ inner tasks generated */
        CHECK_MSG(ct_nona_model_build(&s, &mp, &m, &err) == CT_OK, "%s", err.msg);
        size_t blk = m.n_blocks; /* a generated block with blocks after it */
        for (size_t b = 0; b + 1 < m.n_blocks && blk == m.n_blocks; b++)
            if (m.blocks[b].generated && m.blocks[b].parts.n_inner >= 2)
                blk = b;
        if (blk == m.n_blocks)
            goto next;
        init_lp(&m);
        struct ct_screen_cache *c = m.screens;
        CHECK(c != NULL && c->n == m.n_vars);
        size_t ni = m.blocks[blk].parts.n_inner, at = m.blocks[blk].var_start + m.blocks[blk].n_vars,
               tail = m.n_vars - at;
        ct_screen_entry_t *before = malloc((tail ? tail : 1) * sizeof *before);
        uint8_t assign[2 * 64], k[2] = { 0, 1 }, l[2] = { 1, 0 };
        CHECK(before != NULL && ni <= 64);
        if (!before || ni > 64)
            goto next;
        memcpy(before, c->e + at, tail * sizeof *before);
        for (size_t t = 0; t < ni; t++) { /* the first task alone, the rest together; and alternating */
            assign[t] = t ? 1 : 0;
            assign[ni + t] = (uint8_t)(t % 2);
        }
        CHECK(ct_nona_model_add_triplets(&m, blk, 2, assign, k, l, &err) == CT_OK);
        /* the later blocks' entries moved with their columns; the new ones wait */
        CHECK(c->n == m.n_vars && !c->e[at].valid && !c->e[at + 1].valid);
        CHECK(entries_equal(before, c->e + at + 2, tail));
        moved += tail > 0;
        free(before);
        init_lp(&m);
        ct_screen_entry_t *kept = malloc(m.n_vars * sizeof *kept);
        CHECK(kept != NULL);
        if (!kept)
            goto next;
        memcpy(kept, c->e, m.n_vars * sizeof *kept);
        CHECK(kept[at].valid && kept[at + 1].valid);
        c->key[0] = NAN; /* every entry computed afresh */
        init_lp(&m);
        CHECK(entries_equal(kept, c->e, m.n_vars));
        free(kept);
        checked++;
    next:
        ct_nona_model_free(&m);
        ct_scenario_destroy(&s);
    }
    CHECK_MSG(checked >= 4 && moved >= 4, "screens: %d models checked, %d with columns moved", checked, moved);
}

static void solve_same(void)
{
    ct_scenario_gen_params_t gp;
    ct_scenario_t s;
    ct_error_t err;
    ct_scenario_gen_params_init(&gp);
    gp.stages_min = 2;
    gp.stages_max = 7;
    CHECK(ct_scenario_gen_layered(&gp, 3, &s, &err) == CT_OK);
    ct_nona_solution_t sol[2];
    size_t vars[2] = { 0, 0 };
    for (int v = 0; v < 2; v++) {
        ct_nona_model_t m;
        CHECK_MSG(ct_nona_model_build(&s, NULL, &m, &err) == CT_OK, "%s", err.msg);
        if (v) { /* without the caches */
            ct_scratch_free(m.scratch);
            m.scratch = NULL;
            free(m.screens);
            m.screens = NULL;
        } else {
            CHECK(m.scratch != NULL && m.screens != NULL);
        }
        CHECK_MSG(ct_nona_solve(&m, NULL, &sol[v], &err) == CT_OK, "%s", err.msg);
        vars[v] = m.n_vars;
        ct_nona_model_free(&m);
    }
    CHECK(sol[0].columns_added > 0); /* (the LPs grew between rounds) */
    CHECK(vars[0] == vars[1] && sol[0].lp_solves == sol[1].lp_solves && sol[0].cg_rounds == sol[1].cg_rounds);
    CHECK(sol[0].eval.J == sol[1].eval.J && sol[0].lower_bound == sol[1].lower_bound);
    CHECK(vars[0] == vars[1] && memcmp(sol[0].theta, sol[1].theta, vars[0] * sizeof(double)) == 0);
    ct_nona_solution_free(&sol[0]);
    ct_nona_solution_free(&sol[1]);
    ct_scenario_destroy(&s);
}

int main(void)
{
    cache_rules();
    big_blocks();
    slab_blocks();
    screens_follow_columns();
    solve_same();
    return ct_test_end();
}
