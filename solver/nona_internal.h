/*
 * nona_internal.h - what the two Nona solver files share (not installed).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_NONA_INTERNAL_H
#define CT_NONA_INTERNAL_H

#include "ct_nona_solve.h"

/* The penalty method; sol->theta and sol->tau are allocated by the caller. */
ct_status_t ct_nona_solve_penalty(const ct_nona_model_t *m, const ct_nona_solve_params_t *p, ct_nona_solution_t *sol,
                                  ct_error_t *err);

#endif
