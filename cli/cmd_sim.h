/*
 * cmd_sim.h - what `contend sim`, `sim sweep`, `sim check` and `sim
 * compare` share: the options and their parser (cmd_sim.c); `sim check`
 * and `sim compare` (families of scenarios) are in cmd_sim_check.c.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#ifndef CT_CMD_SIM_H
#define CT_CMD_SIM_H

#include "ct_eval.h"
#include "ct_scenario_gen.h"
#include "ct_sweep.h"

#include <stdio.h>

typedef struct {
    const char *policy, *output;
    int policy_set;          /* --policy given (else --table makes it nona-file) */
    char *policies;
    double *loads, *bws;
    size_t n_loads, n_bws;
    int json;
    int by_task;             /* sim: per task, the mean wait and end */
    ct_eval_params_t ev;
    ct_sweep_params_t sweep; /* sweep: -j, --shard */
    /* check */
    size_t generate;         /* generated scenarios (--generate N) */
    unsigned long long gen_seed; /* the first one's seed (--gen-seed; default 1) */
    ct_scenario_gen_params_t gen;
    const char *save;        /* write the generated scenarios there (--save DIR) */
} sim_opts_t;

void sim_usage(FILE *out);
/** Parses the options of every sim form; 0 ok, -1 --help printed, else the exit code. */
int sim_parse(int argc, char **argv, sim_opts_t *o);
int cmd_sim_check(int argc, char **argv);
int cmd_sim_compare(int argc, char **argv);

#endif
