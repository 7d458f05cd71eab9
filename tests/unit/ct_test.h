/*
 * ct_test.h - a minimal check library for contend's unit tests.
 *
 * CHECK(cond) records a failure with file and line and keeps going, so one
 * run shows every broken check. A test program returns ct_test_end(): 0 when
 * all checks passed, 1 otherwise; 77 (ct_test_skip) means skipped, as in
 * automake. tests/run.sh counts programs, not checks.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_TEST_H
#define CT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ct_test_checks, ct_test_failed;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        ct_test_checks++;                                                                           \
        if (!(cond)) {                                                                              \
            ct_test_failed++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                \
        }                                                                                           \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                        \
    do {                                                                                            \
        ct_test_checks++;                                                                           \
        if (!(cond)) {                                                                              \
            ct_test_failed++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                \
            fprintf(stderr, __VA_ARGS__);                                                           \
            fputc('\n', stderr);                                                                    \
        }                                                                                           \
    } while (0)

/* |a - b| <= tol * max(1, |a|, |b|): relative above 1, absolute below (for
 * exact results; for measured ones below 1, seconds or utilisations, use
 * CHECK_REL). */
#define CHECK_CLOSE(a, b, tol)                                                                      \
    do {                                                                                            \
        double ct_a_ = (a), ct_b_ = (b);                                                            \
        double ct_s_ = fmax(1.0, fmax(fabs(ct_a_), fabs(ct_b_)));                                   \
        CHECK_MSG(fabs(ct_a_ - ct_b_) <= (tol) * ct_s_, "%.17g vs %.17g", ct_a_, ct_b_);            \
    } while (0)

/* |a - b| <= rel * |b|: relative at any scale (b is the reference). */
#define CHECK_REL(a, b, rel)                                                                        \
    do {                                                                                            \
        double ct_a_ = (a), ct_b_ = (b);                                                            \
        CHECK_MSG(fabs(ct_a_ - ct_b_) <= (rel) * fabs(ct_b_), "%.17g vs %.17g (relative %.3g)", ct_a_, ct_b_, \
                  ct_b_ != 0 ? fabs(ct_a_ - ct_b_) / fabs(ct_b_) : INFINITY);                          \
    } while (0)

/* The error message contains a substring. */
#define CHECK_ERR(err, status, needle)                                                              \
    CHECK_MSG((err).code == (status) && strstr((err).msg, (needle)) != NULL,                        \
              "code %d, message '%s', wanted '%s'", (int)(err).code, (err).msg, (needle))

static inline int ct_test_end(void)
{
    fprintf(stderr, "%d checks, %d failed\n", ct_test_checks, ct_test_failed);
    return ct_test_failed ? 1 : 0;
}

static inline int ct_test_skip(const char *why)
{
    printf("SKIP: %s\n", why);
    return 77;
}

/* Writes text to path (a check fails when it cannot). */
static inline void ct_test_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && text != NULL);
    if (f && text)
        fputs(text, f);
    if (f)
        fclose(f);
}

/* Where ../shared is (the CT_SHARED environment variable, or ../shared). */
static inline const char *ct_test_shared(void)
{
    const char *s = getenv("CT_SHARED");
    return s && *s ? s : "../shared";
}

#endif
