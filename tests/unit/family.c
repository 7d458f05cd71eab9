/*
 * family.c - the summaries of sim check and sim compare (ct_family.h) on
 * small cases worked by hand: the median, the 10% / 20% counts and the
 * worst ratio with a point that did not settle; each policy's geometric
 * means against the best per scenario, its wins, and the best stateless
 * and stateful policies with a scenario one of them did not carry.
 */
#include "ct_family.h"
#include "ct_test.h"

#include <math.h>

int main(void)
{
    /* check: sorted 0.85 1.0 1.05 1.3 (NAN left out): median 1.025;
     * within 10%: 1.05, 1.0; within 20%: also 0.85; worst 1.3 */
    const double r[5] = { 1.05, NAN, 0.85, 1.3, 1.0 };
    double scratch[5];
    ct_check_summary_t s;
    ct_check_summarize(r, 5, scratch, &s);
    CHECK(s.points == 5 && s.carried == 4);
    CHECK_CLOSE(s.median, 1.025, 1e-12);
    CHECK(s.within10 == 2 && s.within20 == 3);
    CHECK(s.worst == 1.3);
    const double none[2] = { NAN, NAN };
    ct_check_summarize(none, 2, scratch, &s);
    CHECK(s.carried == 0 && isnan(s.median) && s.worst == 1.0);

    /* compare: policies a, b (stateless), c (stateful) on two scenarios.
     *   scenario 0: mean a 2, b 4, c 1 (best 1); p99 4, 8, 2 (best 2)
     *   scenario 1: mean a 3, b -, c 6 (best 3); p99 6, -, 3 (best 3)
     * a: mean ratios 2 and 1 -> sqrt 2; p99 2 and 2 -> 2; best once (1)
     * b: 4 -> 4; p99 4; never best
     * c: 1 and 2 -> sqrt 2; p99 1 and 1 -> 1; best once (0)
     * best stateless a (two scenarios beat b's one), stateful c; a over c:
     * mean 2 and 0.5 -> 1, p99 2 and 2 -> 2, over both scenarios. */
    const double mean[6] = { 2, 4, 1, 3, NAN, 6 }, p99[6] = { 4, 8, 2, 6, NAN, 3 };
    const int stateful[3] = { 0, 0, 1 };
    ct_compare_policy_t per[3];
    ct_compare_best_t best;
    ct_compare_summarize(mean, p99, 2, 3, stateful, per, &best);
    CHECK(per[0].carried == 2 && per[1].carried == 1 && per[2].carried == 2);
    CHECK_CLOSE(per[0].mean_ratio, sqrt(2.0), 1e-12);
    CHECK_CLOSE(per[0].p99_ratio, 2.0, 1e-12);
    CHECK_CLOSE(per[1].mean_ratio, 4.0, 1e-12);
    CHECK_CLOSE(per[1].p99_ratio, 4.0, 1e-12);
    CHECK_CLOSE(per[2].mean_ratio, sqrt(2.0), 1e-12);
    CHECK_CLOSE(per[2].p99_ratio, 1.0, 1e-12);
    CHECK(per[0].best_at == 1 && per[1].best_at == 0 && per[2].best_at == 1);
    CHECK(best.best[0] == 0 && best.best[1] == 2 && best.both == 2);
    CHECK_CLOSE(best.mean_ratio, 1.0, 1e-12);
    CHECK_CLOSE(best.p99_ratio, 2.0, 1e-12);
    /* On equal counts the lower geometric mean wins: b carrying both, at
     * ratios 1.5 and 1 (mean 1.22), beats a's sqrt 2. */
    const double mean2[6] = { 2, 1.5, 1, 3, 3, 6 }, p2[6] = { 4, 8, 2, 6, 6, 3 };
    ct_compare_summarize(mean2, p2, 2, 3, stateful, per, &best);
    CHECK(best.best[0] == 1);
    /* No stateful policy carried anything: no ratio. */
    const double mean3[6] = { 2, 4, NAN, 3, NAN, NAN };
    ct_compare_summarize(mean3, p99, 2, 3, stateful, per, &best);
    CHECK(best.best[0] == 0 && best.best[1] == -1 && best.both == 0 && isnan(best.mean_ratio));
    return ct_test_end();
}
