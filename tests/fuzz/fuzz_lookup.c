/* fuzz_lookup.c - the online sampler's lookup-file loader (it runs inside
 * production schedulers) and placements drawn from what loads. */
#include "fuzz.h"
#include "ct_sampler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    ct_sampler_t *s;
    char msg[256];
    if (ct_sampler_load_text(text, size, "fuzz", &s, msg, sizeof msg) == 0) {
        ct_rng_t rng;
        ct_rng_seed(&rng, 1);
        uint32_t loads[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
        for (size_t sc = 0; sc < ct_sampler_scenario_count(s); sc++)
            for (size_t c = 0; c < ct_sampler_class_count(s); c++) {
                size_t n = ct_sampler_task_count(s, c);
                uint32_t *pl = malloc((n ? n : 1) * sizeof(uint32_t));
                uint32_t *ch = malloc((ct_sampler_segment_count(s, sc, c) + 1) * sizeof(uint32_t));
                if (pl && ch) {
                    ct_sampler_place(s, sc, c, 16, &rng, pl, ch);
                    ct_sampler_place_loaded(s, sc, c, 16, loads, 2, &rng, pl, ch);
                    if (ct_sampler_place_late(s, sc, c, 16, loads, 2, &rng, pl, ch) == 0)
                        for (size_t t = 0; t < n; t++) /* a slot is a part's, never past the tasks */
                            if ((pl[t] & CT_SAMPLER_LATE) ? (pl[t] & ~CT_SAMPLER_LATE) >= n : pl[t] >= 16)
                                abort();
                }
                free(pl);
                free(ch);
            }
        double rates[64] = { 0 };
        if (ct_sampler_class_count(s) <= 64)
            ct_sampler_nearest(s, rates);
        ct_sampler_free(s);
    }
    free(text);
    return 0;
}
