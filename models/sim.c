/*
 * sim.c - the inference-cluster event simulator (see ct_sim.h).
 *
 * State: a pool of job slots (reused: memory follows jobs in flight), one
 * heap of ready tasks per server (PLACE policies; keyed by readiness order
 * for FIFO, by (job arrival, readiness order) for job-first), a ring of transfers
 * waiting for the link (FIFO) or a heap of active transfers keyed by their
 * virtual finish time (processor sharing: the link's virtual time advances at
 * 1/n per second with n transfers active), and for CENTRAL policies a list of
 * jobs with ready tasks and a list of idle servers. SAMPLE (Sparrow) keeps
 * the servers' heaps, whose entries are then reservations (task RESERVATION)
 * that bind one of their job's unbound ready tasks when they reach the head;
 * a job stops counting in flight when it ends, but its slot is freed only
 * when no reservation of it is left in any queue (so a stale reservation
 * never meets a reused slot).
 *
 * Events: a class arrival, a background compute or transfer arrival, a
 * server finishing its task, the link finishing a transfer. A stale PS
 * completion (the active set changed since it was scheduled) carries an
 * old generation number and is ignored. With a round trip (cfg.rtt) the
 * answers a decision waits for are events too: a sampled root's or late
 * part's queue lengths, a probe landing, the answer to a server's request
 * (it idles meanwhile, `asking`), a central launch, a probing job's
 * cancel (its reservations queued before it are dropped unasked).
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_evq.h"
#include "ct_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* EV_PLACE .. EV_LAUNCH: the answers a decision waits for, one round trip
 * (ct_sim_config_t.rtt) after it is taken */
enum { EV_ARRIVAL, EV_BG_COMPUTE, EV_BG_COMM, EV_TASK_DONE, EV_LINK_DONE, EV_DISPATCH, EV_PLACE, EV_BIND, EV_LAND,
       EV_ASK, EV_LAUNCH, EV_CANCEL };

#define NO_JOB UINT32_MAX
#define BG_CLASS UINT32_MAX

typedef struct {
    uint32_t cls;          /* class, or BG_CLASS for a background compute job */
    uint32_t remaining;    /* tasks not finished */
    uint32_t running;      /* CENTRAL: tasks fetching or running */
    uint32_t n_ready;      /* CENTRAL: entries in ready[] */
    uint32_t next_free;
    uint32_t probes_out;   /* SAMPLE: its reservations still in servers' queues */
    uint64_t cancel_seq;   /* late_probes with rtt: its reservations queued with a seq below this are cancelled */
    int counted, in_ready_list;
    double arrival, bg_time;
    double local_since;    /* CENTRAL with a locality wait: its last launch on a preferred server (or arrival) */
    uint32_t *server;      /* per task (UINT32_MAX: not placed yet) */
    uint32_t *pending;     /* PLACE: inputs not yet here; CENTRAL: predecessors not done */
    uint32_t *ready;       /* CENTRAL, SAMPLE: ready tasks not yet on a server */
    double *ready_at;      /* per task: when it became ready (by-task waits) */
    uint32_t *slot;        /* late-bound parts: per task its slot, or NO_SLOT */
    uint32_t *slot_server; /* per slot: its server (NO_SLOT: not bound yet), | SLOT_RESERVED while the
                              bound server counts the part's first task ahead of time */
    uint32_t *due;         /* late-bound parts: per task its predecessors not finished, | TASK_DONE once it
                              has finished (an input for a part not bound yet waits at its sender) */
    uint32_t *slot_togo;   /* late_hold: per slot its tasks not queued yet */
    uint32_t *slot_on;     /* late_hold: per slot its tasks queued or running */
} job_t;

#define NO_SLOT UINT32_MAX
#define RESERVATION UINT32_MAX /* SAMPLE: a server-queue entry that is a job's reservation, not a task */
#define SLOT_RESERVED 0x80000000u
#define SLOT_DEFER (NO_SLOT - 1) /* slot_server while task_finished defers its binding to the event's end */
#define TASK_DONE 0x80000000u
#define SLOT_PROBE (RESERVATION - 1) /* late_probes: a server-queue entry that is a reservation for a job's parts */
#define SLOT_PROBING (NO_SLOT - 2) /* late_probes: slot_server while its reservations wait in queues */
#define SLOT_ASKING (NO_SLOT - 3) /* rtt: slot_server while the d servers' queue lengths are on their way */

typedef struct {
    uint32_t job, task;    /* job NO_JOB: a background transfer */
    double bytes, enq;
    double vfinish;        /* PS only */
} transfer_t;

typedef struct {
    double key;            /* job arrival (job-first) or 0 (FIFO) */
    uint64_t seq;          /* readiness order: ties and FIFO */
    uint64_t v;            /* job << 32 | task */
} ready_t;

typedef struct {
    ready_t *q;            /* binary heap of ready tasks */
    size_t n, cap;
    int busy;
    uint32_t cur_job, cur_task, fetching;
    uint32_t held_job, held_slot; /* late_probes: held (idle, taking nothing) for that job's part until its
                                     first task is ready (held_job NO_JOB: not held) */
    uint32_t wait_job, wait_slot; /* late_probes: a part of wait_job ran here and waits for a later task (none
                                     queued); parts_probe offers such a server a part last (NO_JOB: none) */
    int asking;            /* rtt: a reservation reached the head; the server, idle, waits for its task or cancel */
    double busy_since, busy_window;
} server_t;

struct ct_sim {
    ct_sim_config_t cfg;
    ct_evq_t evq;
    ct_rng_t rng;
    double now, t0, t1;
    int windowed;
    size_t max_tasks;
    job_t *jobs;
    size_t n_slots, cap_slots;
    uint32_t free_head;
    size_t in_flight, max_in_flight;
    double backlog_area[4], backlog_last; /* integral of in_flight over each window quarter */
    uint64_t arrived, ready_seq;
    server_t *srv;
    uint32_t *loads;       /* per server: tasks queued or running */
    uint32_t *perm;        /* SAMPLE, late_probes: a permutation of the servers (partial shuffles draw probes) */
    uint32_t *perm_pos;    /* SAMPLE: perm's inverse (perm[perm_pos[v]] == v; late_probes keeps no inverse) */
    /* link */
    transfer_t *lq;        /* FIFO ring, or PS heap */
    size_t lq_head, lq_n, lq_cap;
    int link_busy;
    transfer_t link_cur;
    double link_since, link_window;
    double ps_v, ps_last;
    uint64_t ps_gen;
    uint32_t start_job;    /* FIFO: the job (or NO_JOB) and submission time of the transfer started last: */
    double start_enq;      /*   one of the same job and time continues its batch (contiguous in the ring) */
    double head_wait_sum;  /* FIFO, in the window: waits of job transfers that head their batch (phi's wait) */
    uint64_t head_wait_n;
    /* central */
    uint32_t *ready_jobs, *idle;
    size_t n_ready_jobs, cap_ready_jobs, n_idle;
    double wake_at;        /* delay scheduling: the dispatch already scheduled for then */
    /* results */
    ct_stats_t *jct, bg_compute, bg_comm, link_wait;
    size_t *task_off;      /* n_classes + 1 offsets into the by-task sums */
    double *task_wait, *task_finish; /* per (class, task) of counted jobs: sums of ready -> start, arrival -> end */
    uint64_t *task_n;
    uint64_t events;
    ct_status_t st;        /* first failure inside event handling */
    ct_error_t err;
};

/* ------------------------------------------------------------------------ */
/* Classes.                                                                  */

void ct_sim_classes_free(ct_sim_class_t *cs, size_t n)
{
    if (!cs)
        return;
    for (size_t c = 0; c < n; c++) {
        for (size_t t = 0; cs[c].ids && t < cs[c].n_tasks; t++)
            free(cs[c].ids[t]);
        free(cs[c].ids);
        free(cs[c].name);
        free(cs[c].time);
        free(cs[c].succ_start);
        free(cs[c].succ);
        free(cs[c].succ_bytes);
        free(cs[c].pred_start);
        free(cs[c].pred);
        free(cs[c].pred_bytes);
    }
    free(cs);
}

static ct_status_t class_build(const ct_class_t *in, double speed, double scale, ct_sim_class_t *c, ct_error_t *err)
{
    const ct_dag_t *d = &in->dag;
    size_t n = d->n_tasks, m = d->n_edges;
    size_t *order = malloc(n * sizeof(size_t)), *pos = malloc(n * sizeof(size_t));
    c->name = ct_strdup(in->name, err);
    c->n_tasks = n;
    c->ids = calloc(n, sizeof(char *));
    c->time = malloc(n * sizeof(double));
    c->succ_start = calloc(n + 1, sizeof(uint32_t));
    c->pred_start = calloc(n + 1, sizeof(uint32_t));
    c->succ = malloc((m ? m : 1) * sizeof(uint32_t));
    c->pred = malloc((m ? m : 1) * sizeof(uint32_t));
    c->succ_bytes = malloc((m ? m : 1) * sizeof(double));
    c->pred_bytes = malloc((m ? m : 1) * sizeof(double));
    c->rate = in->rate * scale;
    ct_status_t st = CT_OK;
    if (!order || !pos || !c->name || !c->ids || !c->time || !c->succ_start || !c->pred_start || !c->succ ||
        !c->pred || !c->succ_bytes || !c->pred_bytes) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    if ((st = ct_dag_topo_order(d, order, in->name, err)) != CT_OK)
        goto done;
    for (size_t k = 0; k < n; k++) {
        pos[order[k]] = k;
        if (!(c->ids[k] = ct_strdup(d->ids[order[k]], err))) {
            st = CT_ENOMEM;
            goto done;
        }
        c->time[k] = d->time[order[k]] / speed;
        c->work += c->time[k];
    }
    for (size_t e = 0; e < m; e++) {
        c->succ_start[pos[d->from[e]] + 1]++;
        c->pred_start[pos[d->to[e]] + 1]++;
        c->bytes += d->bytes[e];
    }
    for (size_t k = 0; k < n; k++) {
        c->succ_start[k + 1] += c->succ_start[k];
        c->pred_start[k + 1] += c->pred_start[k];
    }
    uint32_t *fs = malloc((n + 1) * sizeof(uint32_t)), *fp = malloc((n + 1) * sizeof(uint32_t));
    if (!fs || !fp) {
        free(fs);
        free(fp);
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(fs, c->succ_start, (n + 1) * sizeof(uint32_t));
    memcpy(fp, c->pred_start, (n + 1) * sizeof(uint32_t));
    for (size_t e = 0; e < m; e++) {
        size_t u = pos[d->from[e]], v = pos[d->to[e]];
        c->succ[fs[u]] = (uint32_t)v;
        c->succ_bytes[fs[u]++] = d->bytes[e];
        c->pred[fp[v]] = (uint32_t)u;
        c->pred_bytes[fp[v]++] = d->bytes[e];
    }
    free(fs);
    free(fp);
done:
    free(order);
    free(pos);
    return st;
}

ct_status_t ct_sim_classes_build(const ct_scenario_t *s, double scale, ct_sim_class_t **classes, size_t *n,
                                 ct_error_t *err)
{
    *classes = calloc(s->n_classes ? s->n_classes : 1, sizeof(ct_sim_class_t));
    *n = 0;
    if (!*classes)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t c = 0; c < s->n_classes; c++) {
        *n = c + 1;
        ct_status_t st = class_build(&s->classes[c], s->speed, scale, &(*classes)[c], err);
        if (st != CT_OK) {
            ct_sim_classes_free(*classes, *n);
            *classes = NULL;
            *n = 0;
            return st;
        }
    }
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* Helpers.                                                                  */

static double exp_draw(ct_rng_t *r, double rate)
{
    double u = ct_rng_uniform(r);
    return -log1p(-u) / rate;
}

static void fail(ct_sim_t *s, ct_status_t code, const char *msg)
{
    if (s->st == CT_OK)
        s->st = ct_error_set(&s->err, code, "%s", msg);
}

static void push(ct_sim_t *s, double t, uint32_t kind, uint32_t a, uint64_t b)
{
    if (ct_evq_push(&s->evq, t, kind, a, b) != CT_OK)
        fail(s, CT_ENOMEM, "out of memory (event queue)");
}

/* Busy time inside the window [t0, t1) of an interval [a, b). */
static double in_window(const ct_sim_t *s, double a, double b)
{
    if (!s->windowed)
        return b - a;
    double lo = a > s->t0 ? a : s->t0, hi = b < s->t1 ? b : s->t1;
    return hi > lo ? hi - lo : 0.0;
}

/* Adds n jobs in flight over [a, b) to the integrals over the window's quarters. */
static void backlog_span(const ct_sim_t *s, double a, double b, double n, double area[4])
{
    double q = 0.25 * (s->t1 - s->t0);
    for (int i = 0; i < 4; i++) {
        double lo = s->t0 + i * q, hi = i == 3 ? s->t1 : s->t0 + (i + 1) * q;
        lo = a > lo ? a : lo;
        hi = b < hi ? b : hi;
        if (hi > lo)
            area[i] += n * (hi - lo);
    }
}

/* Call before in_flight changes. */
static void backlog_update(ct_sim_t *s)
{
    if (s->windowed)
        backlog_span(s, s->backlog_last, s->now, (double)s->in_flight, s->backlog_area);
    s->backlog_last = s->now;
}

static uint32_t slot_alloc(ct_sim_t *s)
{
    if (s->cfg.max_in_flight && s->in_flight >= s->cfg.max_in_flight) {
        if (s->st == CT_OK)
            s->st = ct_error_set(&s->err, CT_EUNSTABLE,
                                 "more than %zu jobs in flight at t = %g s: the load is unstable under policy %s",
                                 s->cfg.max_in_flight, s->now, s->cfg.policy->name);
        return NO_JOB;
    }
    if (s->free_head == NO_JOB) {
        if (s->n_slots == s->cap_slots) {
            size_t nc = s->cap_slots ? 2 * s->cap_slots : 64;
            job_t *nj = realloc(s->jobs, nc * sizeof(job_t));
            if (!nj)
                return NO_JOB;
            s->jobs = nj;
            s->cap_slots = nc;
        }
        job_t *j = &s->jobs[s->n_slots];
        memset(j, 0, sizeof *j);
        j->server = malloc(s->max_tasks * sizeof(uint32_t));
        j->pending = malloc(s->max_tasks * sizeof(uint32_t));
        j->ready = malloc(s->max_tasks * sizeof(uint32_t));
        j->ready_at = malloc(s->max_tasks * sizeof(double));
        if (s->cfg.policy->late_choices) {
            j->slot = malloc(s->max_tasks * sizeof(uint32_t));
            j->slot_server = malloc(s->max_tasks * sizeof(uint32_t));
            j->due = malloc(s->max_tasks * sizeof(uint32_t));
            j->slot_togo = malloc(s->max_tasks * sizeof(uint32_t));
            j->slot_on = malloc(s->max_tasks * sizeof(uint32_t));
        }
        if (!j->server || !j->pending || !j->ready || !j->ready_at ||
            (s->cfg.policy->late_choices && (!j->slot || !j->slot_server || !j->due || !j->slot_togo || !j->slot_on))) {
            free(j->server);
            free(j->pending);
            free(j->ready);
            free(j->ready_at);
            free(j->slot);
            free(j->slot_server);
            free(j->due);
            free(j->slot_togo);
            free(j->slot_on);
            return NO_JOB;
        }
        j->next_free = NO_JOB;
        s->free_head = (uint32_t)s->n_slots++;
    }
    uint32_t id = s->free_head;
    s->free_head = s->jobs[id].next_free;
    backlog_update(s);
    if (++s->in_flight > s->max_in_flight)
        s->max_in_flight = s->in_flight;
    return id;
}

/* A job has ended: it no longer counts in flight (its slot may stay in
 * use a while, see slot_free). */
static void flight_end(ct_sim_t *s)
{
    backlog_update(s);
    s->in_flight--;
}

static void slot_free(ct_sim_t *s, uint32_t id)
{
    s->jobs[id].next_free = s->free_head;
    s->free_head = id;
}

static void slot_release(ct_sim_t *s, uint32_t id)
{
    flight_end(s);
    slot_free(s, id);
}

static int ready_before(const ready_t *a, const ready_t *b)
{
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static int ready_push(server_t *x, ready_t r)
{
    if (x->n == x->cap) {
        size_t nc = x->cap ? 2 * x->cap : 16;
        ready_t *nq = realloc(x->q, nc * sizeof(ready_t));
        if (!nq)
            return -1;
        x->q = nq;
        x->cap = nc;
    }
    size_t i = x->n++;
    while (i > 0 && ready_before(&r, &x->q[(i - 1) / 2])) {
        x->q[i] = x->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    x->q[i] = r;
    return 0;
}

static uint64_t ready_pop(server_t *x)
{
    uint64_t v = x->q[0].v;
    ready_t last = x->q[--x->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= x->n)
            break;
        if (c + 1 < x->n && ready_before(&x->q[c + 1], &x->q[c]))
            c++;
        if (!ready_before(&x->q[c], &last))
            break;
        x->q[i] = x->q[c];
        i = c;
    }
    if (x->n)
        x->q[i] = last;
    return v;
}

static double task_time(const ct_sim_t *s, const job_t *j, uint32_t task)
{
    return j->cls == BG_CLASS ? j->bg_time : s->cfg.classes[j->cls].time[task];
}

/* ------------------------------------------------------------------------ */
/* Servers.                                                                  */

static void server_start(ct_sim_t *s, uint32_t sv, uint32_t job, uint32_t task)
{
    server_t *x = &s->srv[sv];
    const job_t *j = &s->jobs[job];
    if (j->counted && j->cls != BG_CLASS)
        s->task_wait[s->task_off[j->cls] + task] += s->now - j->ready_at[task];
    x->busy = 1;
    x->cur_job = job;
    x->cur_task = task;
    x->busy_since = s->now;
    double t = task_time(s, &s->jobs[job], task);
    if (s->cfg.exp_service && s->jobs[job].cls != BG_CLASS && t > 0) /* drawn at its start: one draw per run */
        t = exp_draw(&s->rng, 1.0 / t);
    push(s, s->now + t, EV_TASK_DONE, sv, 0);
}

/* A job's entries' key in a server's queue: its arrival (job-first), its
 * class (class priority; background last) or 0 (FIFO: readiness order). */
static double queue_key(const ct_sim_t *s, const job_t *j)
{
    return s->cfg.server_queue == CT_QUEUE_JOB_FIRST || s->cfg.server_queue == CT_QUEUE_JOB_FIRST_CHAINS ? j->arrival
           : s->cfg.server_queue == CT_QUEUE_CLASS_PRIORITY ? (j->cls == BG_CLASS ? INFINITY : (double)j->cls)
                                                            : 0.0;
}

static void server_next(ct_sim_t *s, uint32_t sv);

/* A reservation of job (entry RESERVATION or SLOT_PROBE) joins sv's queue,
 * ordered as a task of the job would be. O(log queue). */
static void reservation_queue(ct_sim_t *s, uint32_t sv, uint32_t job, uint32_t entry)
{
    ready_t r = { queue_key(s, &s->jobs[job]), s->ready_seq++, ((uint64_t)job << 32) | entry };
    if (ready_push(&s->srv[sv], r) != 0)
        fail(s, CT_ENOMEM, "out of memory (server queue)");
}

/* SAMPLE, late_probes: a reservation of job in the queues of servers
 * perm[0 .. k) (with rtt: landing a round trip later). O(k log queue). */
static void reserve(ct_sim_t *s, uint32_t job, uint32_t k, uint32_t entry)
{
    for (uint32_t p = 0; p < k && s->st == CT_OK; p++) {
        s->jobs[job].probes_out++;
        if (s->cfg.rtt > 0) /* the probe lands a round trip later (EV_LAND) */
            push(s, s->now + s->cfg.rtt, EV_LAND, s->perm[p], ((uint64_t)job << 32) | entry);
        else
            reservation_queue(s, s->perm[p], job, entry);
    }
}

/* rtt: a probe of job (entry RESERVATION or SLOT_PROBE) lands in sv's
 * queue; an idle server asks at once. */
static void probe_land(ct_sim_t *s, uint32_t sv, uint32_t job, uint32_t entry)
{
    reservation_queue(s, sv, job, entry);
    server_next(s, sv);
}

static void sample_take(ct_sim_t *s, uint32_t sv, uint32_t job);
static void sample_probe(ct_sim_t *s, uint32_t job, uint32_t m);
static void probe_take(ct_sim_t *s, uint32_t sv, uint32_t job);
static size_t central_pick(const ct_sim_t *s, const job_t *j, uint32_t sv, double *local);

/* Free server sv takes reservation v (job << 32 | RESERVATION or
 * SLOT_PROBE): a task (Sparrow) or a part (probes) of the job, or nothing. */
static void reservation_take(ct_sim_t *s, uint32_t sv, uint64_t v)
{
    if ((uint32_t)v == RESERVATION)
        sample_take(s, sv, (uint32_t)(v >> 32));
    else
        probe_take(s, sv, (uint32_t)(v >> 32));
}

/* A server at the head of its queue. With rtt a reservation's request
 * costs a round trip (the server idle, asking); the answer (EV_ASK) takes
 * it, then the server goes on. */
static void server_next(ct_sim_t *s, uint32_t sv)
{
    server_t *x = &s->srv[sv];
    while (!x->busy && !x->asking && x->held_job == NO_JOB && x->n > 0) { /* (a cancel lets the next go) */
        uint64_t seq = x->q[0].seq, v = ready_pop(x);
        uint32_t job = (uint32_t)(v >> 32), e = (uint32_t)v;
        if (e == SLOT_PROBE && seq < s->jobs[job].cancel_seq) { /* cancelled ahead: no request */
            if (--s->jobs[job].probes_out == 0 && s->jobs[job].remaining == 0)
                slot_free(s, job);
        } else if (e != RESERVATION && e != SLOT_PROBE) {
            server_start(s, sv, job, e);
        } else if (s->cfg.rtt > 0) {
            x->asking = 1; /* (a server whose part waits for a later task asks a round trip late: parts_probe's
                              order in time) */
            push(s, s->now + (x->wait_job != NO_JOB && e == SLOT_PROBE ? 2 : 1) * s->cfg.rtt, EV_ASK, sv, v);
        } else {
            reservation_take(s, sv, v);
        }
    }
}

/* PLACE: a task whose inputs are all on its server joins the server's queue. */
static void task_ready(ct_sim_t *s, uint32_t job, uint32_t task)
{
    uint32_t sv = s->jobs[job].server[task];
    server_t *x = &s->srv[sv];
    const job_t *j = &s->jobs[job];
    ready_t r = { queue_key(s, j), s->ready_seq++, ((uint64_t)job << 32) | task };
    if (s->cfg.server_queue == CT_QUEUE_JOB_FIRST_CHAINS && j->cls != BG_CLASS) {
        const ct_sim_class_t *c = &s->cfg.classes[j->cls];
        uint32_t p0 = c->pred_start[task];
        if (c->pred_start[task + 1] == p0 + 1) { /* one input, from u: a chain if u feeds only task */
            uint32_t u = c->pred[p0];
            if (c->succ_start[u + 1] == c->succ_start[u] + 1 && j->server[u] == sv)
                r.seq = 0; /* ahead of its job's other ready tasks (the key orders the jobs) */
        }
    }
    if (j->slot && j->cls != BG_CLASS && j->slot[task] != NO_SLOT) {
        uint32_t i = j->slot[task];
        if (j->slot_server[i] & SLOT_RESERVED) {
            j->slot_server[i] &= ~SLOT_RESERVED; /* the part's task takes its reservation's place */
            s->loads[sv]--;
        }
        j->slot_togo[i]--;
        j->slot_on[i]++;
    }
    s->jobs[job].ready_at[task] = s->now;
    s->loads[sv]++;
    if (x->wait_job == job && j->slot[task] == x->wait_slot)
        x->wait_job = NO_JOB;
    if (x->held_job == job && j->slot[task] == x->held_slot) { /* the part that took the server: it runs now */
        x->held_job = NO_JOB;
        server_start(s, sv, job, task);
        return;
    }
    if (ready_push(x, r) != 0) {
        fail(s, CT_ENOMEM, "out of memory (server queue)");
        return;
    }
    server_next(s, sv);
}

/* ------------------------------------------------------------------------ */
/* The link.                                                                 */

static void link_finish(ct_sim_t *s, const transfer_t *t);

static int ps_before(const transfer_t *a, const transfer_t *b)
{
    return a->vfinish < b->vfinish;
}

static void ps_sift_up(transfer_t *h, size_t i)
{
    transfer_t x = h[i];
    while (i > 0 && ps_before(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static void ps_sift_down(transfer_t *h, size_t n, size_t i)
{
    transfer_t x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ps_before(&h[c + 1], &h[c]))
            c++;
        if (!ps_before(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* PS: advance virtual time to now and (re)schedule the next completion. */
static void ps_update(ct_sim_t *s)
{
    if (s->lq_n)
        s->ps_v += (s->now - s->ps_last) / (double)s->lq_n;
    s->ps_last = s->now;
}

static void ps_schedule(ct_sim_t *s)
{
    s->ps_gen++;
    if (s->lq_n)
        push(s, s->now + (s->lq[0].vfinish - s->ps_v) * (double)s->lq_n, EV_LINK_DONE, 0, s->ps_gen);
}

static void link_start_next(ct_sim_t *s)
{
    if (s->link_busy || s->lq_n == 0)
        return;
    transfer_t t = s->lq[s->lq_head];
    s->lq_head = (s->lq_head + 1) % s->lq_cap;
    s->lq_n--;
    s->link_busy = 1;
    s->link_cur = t;
    s->link_since = s->now;
    if (s->windowed ? (t.enq >= s->t0 && t.enq < s->t1) : 1) {
        if (ct_stats_add(&s->link_wait, s->now - t.enq) != CT_OK)
            fail(s, CT_ENOMEM, "out of memory (statistics)");
        /* A batch (a task's outputs sent, or its inputs fetched, at one
         * instant) is submitted in one go, so it is contiguous here and its
         * first transfer's wait is the batch's. */
        if (t.job != NO_JOB && !(t.job == s->start_job && t.enq == s->start_enq)) {
            s->head_wait_sum += s->now - t.enq;
            s->head_wait_n++;
        }
    }
    s->start_job = t.job;
    s->start_enq = t.enq;
    push(s, s->now + t.bytes / s->cfg.bandwidth, EV_LINK_DONE, 0, 0);
}

static void link_submit(ct_sim_t *s, uint32_t job, uint32_t task, double bytes)
{
    transfer_t t = { job, task, bytes, s->now, 0 };
    if (s->lq_n == s->lq_cap) {
        size_t nc = s->lq_cap ? 2 * s->lq_cap : 64;
        transfer_t *nq = malloc(nc * sizeof(transfer_t));
        if (!nq) {
            fail(s, CT_ENOMEM, "out of memory (link queue)");
            return;
        }
        for (size_t i = 0; i < s->lq_n; i++)
            nq[i] = s->lq[s->cfg.link == CT_LINK_PS ? i : (s->lq_head + i) % s->lq_cap];
        free(s->lq);
        s->lq = nq;
        s->lq_head = 0;
        s->lq_cap = nc;
    }
    if (s->cfg.link == CT_LINK_PS) {
        ps_update(s);
        if (s->lq_n == 0)
            s->link_since = s->now;
        t.vfinish = s->ps_v + bytes / s->cfg.bandwidth;
        s->lq[s->lq_n++] = t;
        ps_sift_up(s->lq, s->lq_n - 1);
        ps_schedule(s);
        return;
    }
    s->lq[(s->lq_head + s->lq_n) % s->lq_cap] = t;
    s->lq_n++;
    link_start_next(s);
}

static void on_link_done(ct_sim_t *s, uint64_t gen)
{
    if (s->cfg.link == CT_LINK_PS) {
        if (gen != s->ps_gen || s->lq_n == 0)
            return; /* stale */
        ps_update(s);
        transfer_t t = s->lq[0];
        s->lq[0] = s->lq[--s->lq_n];
        if (s->lq_n)
            ps_sift_down(s->lq, s->lq_n, 0);
        s->ps_v = t.vfinish; /* exact: no drift from repeated updates */
        if (s->windowed ? (t.enq >= s->t0 && t.enq < s->t1) : 1)
            if (ct_stats_add(&s->link_wait, fmax(0.0, s->now - t.enq - t.bytes / s->cfg.bandwidth)) != CT_OK)
                fail(s, CT_ENOMEM, "out of memory (statistics)");
        if (s->lq_n == 0)
            s->link_window += in_window(s, s->link_since, s->now);
        ps_schedule(s);
        link_finish(s, &t);
        return;
    }
    transfer_t t = s->link_cur;
    s->link_busy = 0;
    s->link_window += in_window(s, s->link_since, s->now);
    link_start_next(s);
    link_finish(s, &t);
}

/* ------------------------------------------------------------------------ */
/* Jobs.                                                                     */

static void record(ct_sim_t *s, ct_stats_t *st, double v)
{
    if (ct_stats_add(st, v) != CT_OK)
        fail(s, CT_ENOMEM, "out of memory (statistics)");
}

static void central_dispatch(ct_sim_t *s);

static void ready_list_add(ct_sim_t *s, uint32_t job)
{
    job_t *j = &s->jobs[job];
    if (j->in_ready_list)
        return;
    if (s->n_ready_jobs == s->cap_ready_jobs) {
        size_t nc = s->cap_ready_jobs ? 2 * s->cap_ready_jobs : 64;
        uint32_t *nr = realloc(s->ready_jobs, nc * sizeof(uint32_t));
        if (!nr) {
            fail(s, CT_ENOMEM, "out of memory (ready jobs)");
            return;
        }
        s->ready_jobs = nr;
        s->cap_ready_jobs = nc;
    }
    j->in_ready_list = 1;
    s->ready_jobs[s->n_ready_jobs++] = job;
}

/* late_probes: the m parts of job needed at this event (j->ready's last m,
 * slots) leave reservations in the queues of late_choices x m distinct
 * uniform servers (all if fewer; Sparrow's batch sampling), ordered as a
 * task of the job would be; idle servers take them at once (probe_take).
 * O(d m log queue). */
static void parts_probe(ct_sim_t *s, uint32_t job, uint32_t m)
{
    job_t *j = &s->jobs[job];
    uint64_t want = (uint64_t)s->cfg.policy->late_choices * m;
    uint32_t k = ct_sampler_probe_servers((uint32_t)s->cfg.servers, want < UINT32_MAX ? (uint32_t)want : UINT32_MAX,
                                          s->perm, &s->rng);
    reserve(s, job, k, SLOT_PROBE);
    /* idle servers ask at once (binding runs no task to its end: perm
     * stays); one whose part waits for a later task asks last, so that
     * part keeps its server unless every other probed one is busy */
    for (uint32_t p = 0; p < k && s->st == CT_OK; p++)
        if (s->srv[s->perm[p]].wait_job == NO_JOB)
            server_next(s, s->perm[p]);
    for (uint32_t p = 0; p < k && s->st == CT_OK && j->n_ready > 0; p++)
        if (s->srv[s->perm[p]].wait_job != NO_JOB)
            server_next(s, s->perm[p]);
}

static void slot_flush(ct_sim_t *s, uint32_t job, uint32_t i);

/* Late-bound parts: binds task's slot (ct_policy_t.late_choices) to sv, or
 * with sv NO_SLOT to the least loaded of late_choices. O(d + tasks). */
static void slot_bind_to(ct_sim_t *s, job_t *j, uint32_t task, uint32_t sv)
{
    uint32_t i = j->slot[task], n = (uint32_t)s->cfg.classes[j->cls].n_tasks;
    if (sv == NO_SLOT)
        sv = ct_sampler_least_loaded((uint32_t)s->cfg.servers, s->loads, s->cfg.policy->late_choices, &s->rng);
    j->slot_server[i] = sv | SLOT_RESERVED;
    s->loads[sv]++;
    j->slot_togo[i] = 0;
    j->slot_on[i] = 0;
    for (uint32_t t = 0; t < n; t++)
        if (j->slot[t] == i) {
            j->server[t] = sv;
            j->slot_togo[i]++;
        }
}

/* rtt: a late part bound to the least loaded of d > 1 waits a round trip
 * for the d queue lengths (one uniform server needs none). */
static int parts_ask(const ct_sim_t *s)
{
    return s->cfg.rtt > 0 && s->cfg.policy->late_choices > 1;
}

static void slot_bind(ct_sim_t *s, uint32_t job, uint32_t task)
{
    job_t *j = &s->jobs[job];
    if (s->cfg.policy->late_probes) { /* probes after the event's others are needed too: parts_probe */
        j->slot_server[j->slot[task]] = SLOT_PROBING;
        j->ready[j->n_ready++] = j->slot[task];
    } else if (parts_ask(s)) { /* the d queue lengths come back a round trip later (EV_BIND) */
        j->slot_server[j->slot[task]] = SLOT_ASKING;
        push(s, s->now + s->cfg.rtt, EV_BIND, job, j->slot[task]);
    } else {
        slot_bind_to(s, j, task, NO_SLOT);
    }
}

/* Late part i of job, needed since a while (its probe taken, or its
 * queue lengths in: rtt), binds to sv (NO_SLOT: the least loaded of d):
 * its tasks without inputs are ready, the inputs held for it at their
 * senders go. O(tasks + edges). */
static void part_bind(ct_sim_t *s, uint32_t job, uint32_t i, uint32_t sv)
{
    job_t *j = &s->jobs[job];
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    uint32_t first = NO_SLOT;
    for (uint32_t t = 0; t < c->n_tasks && first == NO_SLOT; t++)
        if (j->slot[t] == i)
            first = t;
    slot_bind_to(s, j, first, sv);
    for (uint32_t t = 0; t < c->n_tasks; t++)
        if (j->slot[t] == i && c->pred_start[t + 1] == c->pred_start[t])
            task_ready(s, job, t);
    slot_flush(s, job, i);
}

/* late_probes: a reservation of job reached the head of free server sv's
 * queue: it takes the job's earliest-needed part still unbound (sv is held
 * for it until its first task is ready, then runs it: task_ready), or is
 * dropped. A job that has ended goes when its last reservation does. */
static void probe_take(ct_sim_t *s, uint32_t sv, uint32_t job)
{
    job_t *j = &s->jobs[job];
    j->probes_out--;
    if (j->n_ready > 0) {
        uint32_t i = j->ready[0];
        memmove(j->ready, j->ready + 1, (size_t)--j->n_ready * sizeof(uint32_t));
        s->srv[sv].held_job = job;
        s->srv[sv].held_slot = i;
        s->srv[sv].wait_job = NO_JOB; /* (its waiting part, if any, now waits behind this one) */
        if (j->n_ready == 0 && s->cfg.rtt > 0) /* every part needed so far is taken: cancel the rest, which
                                                  have all landed (a part is taken a round trip after) */
            push(s, s->now + s->cfg.rtt, EV_CANCEL, job, s->ready_seq);
        part_bind(s, job, i, sv);
    } else if (j->remaining == 0 && j->probes_out == 0) {
        slot_free(s, job); /* ended earlier: flight_end ran then */
    }
}

/* PLACE: task v of job (on its server) is sent an input of bytes from server sv. */
static void input_send(ct_sim_t *s, uint32_t job, uint32_t v, uint32_t sv, double bytes)
{
    job_t *j = &s->jobs[job];
    if (j->server[v] == sv || bytes <= 0) {
        if (--j->pending[v] == 0)
            task_ready(s, job, v);
    } else {
        link_submit(s, job, v, bytes);
    }
}

/* Task succ[k] of job's class receives its input from the task that has
 * just finished on server sv. */
static void successor_input(ct_sim_t *s, uint32_t sv, uint32_t job, uint32_t k)
{
    job_t *j = &s->jobs[job];
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    uint32_t v = c->succ[k];
    int central = s->cfg.policy->kind == CT_POLICY_CENTRAL;
    if (central || s->cfg.policy->kind == CT_POLICY_SAMPLE) {
        if (--j->pending[v] == 0) {
            j->ready_at[v] = s->now;
            j->ready[j->n_ready++] = v;
            if (central)
                ready_list_add(s, job);
        }
    } else {
        input_send(s, job, v, sv, c->succ_bytes[k]);
    }
}

/* Late parts bound when ready (ct_policy_t.late_bind_ready): slot i has just
 * been bound; the inputs its tasks were due from finished senders outside
 * it, held until now, are sent. O(tasks + edges). */
static void slot_flush(ct_sim_t *s, uint32_t job, uint32_t i)
{
    job_t *j = &s->jobs[job];
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    for (uint32_t t = 0; t < c->n_tasks; t++) {
        if (j->slot[t] != i)
            continue;
        for (uint32_t k = c->pred_start[t]; k < c->pred_start[t + 1]; k++) {
            uint32_t u = c->pred[k];
            if (j->slot[u] != i && (j->due[u] & TASK_DONE))
                input_send(s, job, t, j->server[u], c->pred_bytes[k]);
        }
    }
}

/* A task has finished: release successors, maybe finish the job. */
static void task_finished(ct_sim_t *s, uint32_t sv, uint32_t job, uint32_t task)
{
    job_t *j = &s->jobs[job];
    if (j->cls == BG_CLASS) {
        if (j->counted)
            record(s, &s->bg_compute, s->now - j->arrival);
        slot_release(s, job);
        return;
    }
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    int central = s->cfg.policy->kind == CT_POLICY_CENTRAL, sample = s->cfg.policy->kind == CT_POLICY_SAMPLE;
    uint32_t was_ready = j->n_ready;
    if (j->counted) {
        s->task_finish[s->task_off[j->cls] + task] += s->now - j->arrival;
        s->task_n[s->task_off[j->cls] + task]++;
    }
    if (central)
        j->running--;
    /* Late-bound parts that this task's outputs need now bind after the
     * job's tasks on bound servers are queued: a part bound first saw the
     * server of its own job's next task idle for an instant and could
     * share it (nona-late on a generated ensemble at load 0.1 with d = 8:
     * 1-5% of jobs ran a model after the root's, the p99 1.43x fair's). */
    int deferred = 0, when_ready = s->cfg.policy->late_bind_ready;
    if (j->slot)
        j->due[task] |= TASK_DONE;
    for (uint32_t k = c->succ_start[task]; k < c->succ_start[task + 1]; k++) {
        uint32_t v = c->succ[k];
        if (j->slot)
            j->due[v]--;
        uint32_t vs = j->slot && j->slot[v] != NO_SLOT ? j->slot_server[j->slot[v]] : 0;
        if (j->slot && j->slot[v] != NO_SLOT &&
            (vs == NO_SLOT || vs == SLOT_DEFER || vs == SLOT_PROBING || vs == SLOT_ASKING)) {
            /* (bound when ready: a task of the part still due other inputs
             * holds this one at its sender until the part binds; so does a
             * part whose reservations or queue lengths are on their way) */
            if (vs != SLOT_PROBING && vs != SLOT_ASKING && (!when_ready || (j->due[v] & ~TASK_DONE) == 0)) {
                j->slot_server[j->slot[v]] = SLOT_DEFER;
                deferred = 1;
            }
            continue;
        }
        successor_input(s, sv, job, k);
    }
    if (j->slot && j->slot[task] != NO_SLOT) {
        /* late_hold: a part with tasks still to come keeps its idle server
         * counted busy, so the d rule does not fill the gap before its
         * next input (its re-entry would wait behind what it took) */
        uint32_t i = j->slot[task];
        if (--j->slot_on[i] == 0 && j->slot_togo[i] > 0 && s->cfg.policy->late_hold &&
            !(j->slot_server[i] & SLOT_RESERVED)) {
            j->slot_server[i] |= SLOT_RESERVED;
            s->loads[sv]++;
        }
    }
    for (uint32_t k = c->succ_start[task]; deferred && k < c->succ_start[task + 1]; k++) {
        uint32_t i = j->slot[c->succ[k]];
        if (i == NO_SLOT || j->slot_server[i] != SLOT_DEFER)
            continue;
        slot_bind(s, job, c->succ[k]); /* the part is needed now */
        if (s->cfg.policy->late_probes || parts_ask(s))
            continue; /* its inputs go when a server takes it (probe_take) or the lengths come (part_bind) */
        if (when_ready) {
            slot_flush(s, job, i);
            continue;
        }
        for (uint32_t k2 = k; k2 < c->succ_start[task + 1]; k2++)
            if (j->slot[c->succ[k2]] == i)
                successor_input(s, sv, job, k2);
    }
    if (sample && j->n_ready > was_ready)
        sample_probe(s, job, j->n_ready - was_ready); /* the tasks ready at this event: one batch */
    if (s->cfg.policy->late_probes && j->n_ready > was_ready)
        parts_probe(s, job, j->n_ready - was_ready); /* the parts needed at this event: one batch */
    if (--j->remaining == 0) {
        if (j->counted) {
            record(s, &s->jct[j->cls], s->now - j->arrival);
            record(s, &s->jct[s->cfg.n_classes], s->now - j->arrival);
        }
        flight_end(s);
        if (j->probes_out == 0) /* SAMPLE, late_probes: the last reservation frees the slot */
            slot_free(s, job);
    }
}

static void on_task_done(ct_sim_t *s, uint32_t sv)
{
    server_t *x = &s->srv[sv];
    uint32_t job = x->cur_job, task = x->cur_task;
    x->busy = 0;
    x->busy_window += in_window(s, x->busy_since, s->now);
    if (s->cfg.policy->kind != CT_POLICY_CENTRAL)
        s->loads[sv]--; /* first: a part bound as this task ends sees the server as it now is */
    /* late_probes: a part's task ready as its last ends runs next, ahead of
     * the queue (a part is one unit of work on its server: four-tasks at
     * load 0.7 with d = 32, else an older job's reservation took the root's
     * server between the split and the model it keeps, p99 20.4 ms) */
    const job_t *j = &s->jobs[job];
    int cont = s->cfg.policy->late_probes && j->cls != BG_CLASS && j->slot && j->slot[task] != NO_SLOT;
    uint32_t slot = cont ? j->slot[task] : 0;
    if (cont) {
        x->held_job = job;
        x->held_slot = slot;
    }
    task_finished(s, sv, job, task);
    if (cont && x->held_job == job) {
        x->held_job = NO_JOB; /* none was ready; a part with tasks to come and none queued waits here */
        if (j->slot_togo[slot] > 0 && j->slot_on[slot] == 0) {
            x->wait_job = job;
            x->wait_slot = slot;
        }
    }
    if (s->cfg.policy->kind == CT_POLICY_CENTRAL) {
        s->idle[s->n_idle++] = sv;
        central_dispatch(s);
    } else {
        server_next(s, sv);
    }
}

static void link_finish(ct_sim_t *s, const transfer_t *t)
{
    if (t->job == NO_JOB) {
        if (s->windowed ? (t->enq >= s->t0 && t->enq < s->t1) : 1)
            record(s, &s->bg_comm, s->now - t->enq);
        return;
    }
    job_t *j = &s->jobs[t->job];
    if (s->cfg.policy->kind != CT_POLICY_PLACE) { /* a fetch: the server runs the task when its inputs are in */
        uint32_t sv = j->server[t->task];
        if (--s->srv[sv].fetching == 0)
            server_start(s, sv, t->job, t->task);
        return;
    }
    if (--j->pending[t->task] == 0)
        task_ready(s, t->job, t->task);
}

static void launch_on(ct_sim_t *s, uint32_t job, uint32_t task, uint32_t sv);

/* CENTRAL: task of job starts on sv (a background job's runs at once). */
static void central_start(ct_sim_t *s, uint32_t job, uint32_t task, uint32_t sv)
{
    if (s->jobs[job].cls == BG_CLASS)
        server_start(s, sv, job, 0);
    else
        launch_on(s, job, task, sv);
}

/* CENTRAL: job ready_jobs[bi] starts its ready task ready[pick] on idle
 * server sv (popped from the idle list by the caller): it fetches the
 * inputs that are elsewhere over the link, then runs. */
static void central_launch(ct_sim_t *s, size_t bi, uint32_t sv, size_t pick)
{
    uint32_t job = s->ready_jobs[bi];
    job_t *j = &s->jobs[job];
    uint32_t task = 0;
    if (j->cls == BG_CLASS) { /* a background job: one task, no inputs */
        j->n_ready = 0;
        j->in_ready_list = 0;
        s->ready_jobs[bi] = s->ready_jobs[--s->n_ready_jobs];
        j->running = 1;
    } else {
        task = j->ready[pick];
        j->ready[pick] = j->ready[--j->n_ready];
        if (j->n_ready == 0) {
            j->in_ready_list = 0;
            s->ready_jobs[bi] = s->ready_jobs[--s->n_ready_jobs];
        }
        j->running++;
    }
    if (s->cfg.rtt > 0) /* the server's status and the launch: a round trip (EV_LAUNCH); sv stays off the idle list */
        push(s, s->now + s->cfg.rtt, EV_LAUNCH, sv, ((uint64_t)job << 32) | task);
    else
        central_start(s, job, task, sv);
}

/* CENTRAL, SAMPLE: task of job starts on server sv, free until now: it
 * fetches the inputs that are elsewhere over the link (the server reserved
 * meanwhile), then runs. */
static void launch_on(ct_sim_t *s, uint32_t job, uint32_t task, uint32_t sv)
{
    job_t *j = &s->jobs[job];
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    j->server[task] = sv;
    server_t *x = &s->srv[sv];
    x->busy = 1; /* reserved while fetching */
    x->fetching = 0;
    x->busy_since = s->now;
    for (uint32_t k = c->pred_start[task]; k < c->pred_start[task + 1]; k++)
        if (j->server[c->pred[k]] != sv && c->pred_bytes[k] > 0)
            x->fetching++;
    if (x->fetching == 0) {
        x->busy = 0; /* server_start sets it again */
        server_start(s, sv, job, task);
        return;
    }
    x->cur_job = job;
    x->cur_task = task;
    for (uint32_t k = c->pred_start[task]; k < c->pred_start[task + 1]; k++)
        if (j->server[c->pred[k]] != sv && c->pred_bytes[k] > 0)
            link_submit(s, job, task, c->pred_bytes[k]);
}

/* SAMPLE: swaps positions i and r of perm, keeping its inverse. */
static void perm_swap(ct_sim_t *s, uint32_t i, uint32_t r)
{
    uint32_t a = s->perm[i], b = s->perm[r];
    s->perm[i] = b;
    s->perm[r] = a;
    s->perm_pos[b] = i;
    s->perm_pos[a] = r;
}

/* The server holding the largest input of task of j (ties: the first
 * such edge), or UINT32_MAX for a task without inputs. */
static uint32_t input_holder(const ct_sim_t *s, const job_t *j, uint32_t task)
{
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    uint32_t best = UINT32_MAX;
    double most = -1;
    for (uint32_t k = c->pred_start[task]; k < c->pred_start[task + 1]; k++)
        if (c->pred_bytes[k] > most) {
            most = c->pred_bytes[k];
            best = j->server[c->pred[k]];
        }
    return best;
}

/* SAMPLE: the m tasks of job that just became ready (j->ready's last m)
 * probe probes x m distinct uniform servers (all of them if fewer; with
 * probe_inputs each task's input holder among them first): a reservation
 * in each queue, ordered as a task of the job would be. O(probes m log
 * queue). */
static void sample_probe(ct_sim_t *s, uint32_t job, uint32_t m)
{
    job_t *j = &s->jobs[job];
    uint64_t want = (uint64_t)s->cfg.policy->probes * m, n = s->cfg.servers;
    uint32_t k = (uint32_t)(want < n ? want : n), i = 0;
    for (uint32_t r = j->n_ready - m; s->cfg.policy->probe_inputs && r < j->n_ready && i < k; r++) {
        uint32_t v = input_holder(s, j, j->ready[r]);
        if (v != UINT32_MAX && s->perm_pos[v] >= i)
            perm_swap(s, i++, s->perm_pos[v]);
    }
    for (; i < k; i++) /* a partial shuffle: the rest of the first k of a uniform permutation */
        perm_swap(s, i, i + (uint32_t)ct_rng_below(&s->rng, n - i));
    reserve(s, job, k, RESERVATION);
    for (uint32_t p = 0; p < k && s->st == CT_OK; p++)
        server_next(s, s->perm[p]); /* idle servers ask at once */
}

/* SAMPLE: a reservation of job reached the head of sv's queue (sv free):
 * it binds the job's earliest-ready unbound task to sv, or is cancelled.
 * A job that has ended goes when its last reservation does. */
static void sample_take(ct_sim_t *s, uint32_t sv, uint32_t job)
{
    job_t *j = &s->jobs[job];
    j->probes_out--;
    if (j->n_ready > 0) {
        double local;
        size_t pick = s->cfg.policy->probe_inputs ? central_pick(s, j, sv, &local) : 0;
        uint32_t task = j->ready[pick];
        memmove(j->ready + pick, j->ready + pick + 1, (size_t)(--j->n_ready - pick) * sizeof(uint32_t));
        s->loads[sv]++;
        launch_on(s, job, task, sv);
    } else if (j->remaining == 0 && j->probes_out == 0) {
        slot_free(s, job); /* ended earlier: flight_end ran then */
    }
}

/* The ready task of j with the most input bytes already on sv (the first
 * such; its bytes in *local). */
static size_t central_pick(const ct_sim_t *s, const job_t *j, uint32_t sv, double *local)
{
    if (j->cls == BG_CLASS) {
        *local = 0;
        return 0;
    }
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    size_t pick = 0;
    double pick_local = -1;
    for (size_t r = 0; r < j->n_ready; r++) {
        double loc = 0;
        uint32_t t = j->ready[r];
        for (uint32_t k = c->pred_start[t]; k < c->pred_start[t + 1]; k++)
            if (j->server[c->pred[k]] == sv)
                loc += c->pred_bytes[k];
        if (loc > pick_local) {
            pick_local = loc;
            pick = r;
        }
    }
    *local = pick_local;
    return pick;
}

static int fair_before(const job_t *a, const job_t *b)
{
    return a->running < b->running || (a->running == b->running && a->arrival < b->arrival);
}

/* Delay scheduling: a ready task of j whose preferred server (the one
 * holding its largest input; ties: the lowest id; a task without inputs
 * prefers every server) is sv, or SIZE_MAX. */
static size_t delay_local_task(const ct_sim_t *s, const job_t *j, uint32_t sv)
{
    if (j->cls == BG_CLASS)
        return 0;
    const ct_sim_class_t *c = &s->cfg.classes[j->cls];
    for (size_t r = 0; r < j->n_ready; r++) {
        uint32_t t = j->ready[r], pref = UINT32_MAX;
        double most = -1;
        for (uint32_t k = c->pred_start[t]; k < c->pred_start[t + 1]; k++) {
            uint32_t v = j->server[c->pred[k]];
            if (c->pred_bytes[k] > most || (c->pred_bytes[k] == most && v < pref)) {
                most = c->pred_bytes[k];
                pref = v;
            }
        }
        if (pref == UINT32_MAX || pref == sv)
            return r;
    }
    return SIZE_MAX;
}

/* CENTRAL with a locality wait W (Spark's delay scheduling, spec
 * baselines.md): each idle server, the most recently freed first, is
 * offered to the jobs in fair order; a job takes it for a task that
 * prefers it (and its timer restarts), or for its best other task once W
 * has passed since its last launch at that level; else the offer goes to
 * the next job. When no job takes any idle server, dispatch runs again
 * when the first job's wait runs out. */
static void delay_dispatch(ct_sim_t *s)
{
    double W = s->cfg.policy->locality_wait, wake = INFINITY;
    for (size_t ii = s->n_idle; ii-- > 0 && s->n_ready_jobs;) {
        uint32_t sv = s->idle[ii];
        size_t best = SIZE_MAX, best_pick = 0;
        int best_local = 0;
        for (size_t i = 0; i < s->n_ready_jobs; i++) {
            job_t *j = &s->jobs[s->ready_jobs[i]];
            if (best != SIZE_MAX && !fair_before(j, &s->jobs[s->ready_jobs[best]]))
                continue;
            size_t r = delay_local_task(s, j, sv);
            double loc;
            if (r != SIZE_MAX) {
                best = i;
                best_pick = r;
                best_local = 1;
            } else if (s->now >= j->local_since + W) { /* (the same sum as the wake-up's time) */
                best = i;
                best_pick = central_pick(s, j, sv, &loc);
                best_local = 0;
            } else if (j->local_since + W < wake) {
                wake = j->local_since + W;
            }
        }
        if (best == SIZE_MAX)
            continue;
        if (best_local)
            s->jobs[s->ready_jobs[best]].local_since = s->now;
        s->idle[ii] = s->idle[--s->n_idle]; /* (order among the rest kept but for the moved last) */
        central_launch(s, best, sv, best_pick);
        ii = s->n_idle; /* the job list changed: offer the servers again */
        wake = INFINITY;
    }
    if (s->n_ready_jobs && s->n_idle && isfinite(wake) && !(s->wake_at > s->now && s->wake_at <= wake)) {
        s->wake_at = wake;
        push(s, wake, EV_DISPATCH, 0, 0);
    }
}

/* CENTRAL: while a server is idle and a task is ready, the idle server takes
 * a ready task of the job with the fewest running tasks (oldest first),
 * preferring the task with the most input bytes already on that server. */
static void central_dispatch(ct_sim_t *s)
{
    if (s->cfg.policy->locality_wait > 0) {
        delay_dispatch(s);
        return;
    }
    while (s->n_idle && s->n_ready_jobs) {
        size_t best = 0;
        for (size_t i = 1; i < s->n_ready_jobs; i++)
            if (fair_before(&s->jobs[s->ready_jobs[i]], &s->jobs[s->ready_jobs[best]]))
                best = i;
        if (s->cfg.fair_pick == CT_FAIR_RANDOM && s->n_idle > 1) { /* a uniform idle server goes on top */
            size_t r = (size_t)ct_rng_below(&s->rng, s->n_idle);
            uint32_t t = s->idle[r];
            s->idle[r] = s->idle[s->n_idle - 1];
            s->idle[s->n_idle - 1] = t;
        }
        uint32_t sv = s->idle[--s->n_idle];
        double loc;
        central_launch(s, best, sv, central_pick(s, &s->jobs[s->ready_jobs[best]], sv, &loc));
    }
}

/* late_probes: the tasks placed on servers (the root's part: a table puts
 * them all on the root's server) become slots too, one per server, with
 * numbers the late parts leave free (there are: each such task frees one
 * of the n ids), so they probe as the parts do. slot_server serves as
 * scratch (NO_SLOT on return). O(n x servers used). */
static void probe_root_parts(job_t *j, size_t n)
{
    for (size_t t = 0; t < n; t++)
        if (j->slot[t] != NO_SLOT)
            j->slot_server[j->slot[t]] = 0; /* taken */
    uint32_t next = 0, n_srv = 0, srv[8], slot[8];
    for (size_t t = 0; t < n; t++) {
        if (j->slot[t] != NO_SLOT)
            continue;
        uint32_t k = 0, i = 0;
        while (i < n_srv && srv[i] != j->server[t])
            i++;
        if (i < n_srv) {
            k = slot[i];
        } else {
            for (k = 0; n_srv == 8 && k < n; k++) /* (beyond 8 servers: a slot given to one before) */
                if (j->slot_server[k] == 1 && j->slot_togo[k] == j->server[t])
                    break;
            if (n_srv < 8 || k >= n) {
                while (j->slot_server[next] != NO_SLOT)
                    next++;
                k = next;
                j->slot_server[k] = 1; /* a server's part; slot_togo: its server until bound */
                j->slot_togo[k] = j->server[t];
                if (n_srv < 8) {
                    srv[n_srv] = j->server[t];
                    slot[n_srv++] = k;
                }
            }
        }
        j->slot[t] = k;
        j->server[t] = CT_SAMPLER_LATE | k;
    }
    for (size_t i = 0; i < n; i++)
        j->slot_server[i] = NO_SLOT;
}

static ct_status_t job_place(ct_sim_t *s, uint32_t id, const uint32_t *servers);

static ct_status_t start_job(ct_sim_t *s, size_t cls, const uint32_t *servers)
{
    uint32_t id = slot_alloc(s);
    if (id == NO_JOB)
        return s->st != CT_OK ? s->st : ct_error_set(&s->err, CT_ENOMEM, "out of memory (job slots)");
    job_t *j = &s->jobs[id];
    const ct_sim_class_t *c = &s->cfg.classes[cls];
    j->cls = (uint32_t)cls;
    j->arrival = s->now;
    j->local_since = s->now;
    j->counted = s->windowed ? (s->now >= s->t0 && s->now < s->t1) : 1;
    s->arrived += (uint64_t)j->counted;
    j->remaining = (uint32_t)c->n_tasks;
    j->probes_out = 0;
    j->cancel_seq = 0;
    j->running = 0;
    j->n_ready = 0;
    j->in_ready_list = 0;
    for (size_t t = 0; t < c->n_tasks; t++)
        j->pending[t] = c->pred_start[t + 1] - c->pred_start[t];
    if (s->cfg.policy->kind == CT_POLICY_CENTRAL) {
        for (size_t t = 0; t < c->n_tasks; t++) {
            j->server[t] = UINT32_MAX;
            j->ready_at[t] = s->now;
            if (j->pending[t] == 0)
                j->ready[j->n_ready++] = (uint32_t)t;
        }
        ready_list_add(s, id);
        central_dispatch(s);
        return CT_OK;
    }
    if (s->cfg.policy->kind == CT_POLICY_SAMPLE) {
        j->probes_out = 0;
        for (size_t t = 0; t < c->n_tasks; t++) {
            j->server[t] = UINT32_MAX;
            j->ready_at[t] = s->now;
            if (j->pending[t] == 0)
                j->ready[j->n_ready++] = (uint32_t)t;
        }
        sample_probe(s, id, j->n_ready);
        return CT_OK;
    }
    if (!servers && s->cfg.rtt > 0 && s->cfg.policy->root_sampled && !s->cfg.policy->late_probes) {
        push(s, s->now + s->cfg.rtt, EV_PLACE, id, 0); /* the root's d queue lengths come back then */
        return CT_OK;
    }
    return job_place(s, id, servers);
}

/* PLACE: job id (arrived) is placed (servers, or by its policy) and its
 * tasks without inputs are ready. */
static ct_status_t job_place(ct_sim_t *s, uint32_t id, const uint32_t *servers)
{
    job_t *j = &s->jobs[id];
    size_t cls = j->cls;
    const ct_sim_class_t *c = &s->cfg.classes[cls];
    if (servers)
        memcpy(j->server, servers, c->n_tasks * sizeof(uint32_t));
    else if (s->cfg.policy->place(s->cfg.policy, cls, c->n_tasks, (uint32_t)s->cfg.servers, s->loads, &s->rng,
                                  j->server) != 0)
        return ct_error_set(&s->err, CT_EINPUT, "policy %s could not place a job of class '%s' on %zu servers",
                            s->cfg.policy->name, c->name, s->cfg.servers);
    for (size_t t = 0; j->slot && t < c->n_tasks; t++) { /* late-bound parts: slots, bound when needed */
        j->slot_server[t] = NO_SLOT;
        j->slot[t] = NO_SLOT;
        j->due[t] = c->pred_start[t + 1] - c->pred_start[t];
        if ((j->server[t] & CT_SAMPLER_LATE) && (j->server[t] & ~CT_SAMPLER_LATE) < c->n_tasks)
            j->slot[t] = j->server[t] & ~CT_SAMPLER_LATE;
    }
    if (j->slot && s->cfg.policy->late_probes)
        probe_root_parts(j, c->n_tasks);
    for (size_t t = 0; t < c->n_tasks; t++)
        if (j->server[t] >= s->cfg.servers && !(j->slot && j->slot[t] != NO_SLOT))
            return ct_error_set(&s->err, CT_EINTERNAL, "policy %s placed a task on server %u of %zu",
                                s->cfg.policy->name, j->server[t], s->cfg.servers);
    /* The root's tasks queue first, then late parts needed at once bind
     * (as in task_finished: they see the root's server busy) */
    for (int late = 0; late < (j->slot ? 2 : 1); late++)
        for (size_t t = 0; t < c->n_tasks; t++) {
            if (j->pending[t] != 0 || (j->slot && (j->slot[t] != NO_SLOT) != late))
                continue;
            if (late && j->slot_server[j->slot[t]] == NO_SLOT)
                slot_bind(s, id, (uint32_t)t); /* fed by the job's source: needed at once */
            if (!late || (!s->cfg.policy->late_probes && !parts_ask(s))) /* (else ready in part_bind) */
                task_ready(s, id, (uint32_t)t);
        }
    if (j->slot && s->cfg.policy->late_probes && j->n_ready > 0)
        parts_probe(s, id, j->n_ready); /* the root's part and those fed by the source: one batch */
    return CT_OK;
}

/* ------------------------------------------------------------------------ */
/* Public interface.                                                         */

ct_status_t ct_sim_alloc(const ct_sim_config_t *cfg, ct_sim_t **out, ct_error_t *err)
{
    *out = NULL;
    if (cfg->servers == 0 || cfg->servers > UINT32_MAX - 1 || !(cfg->bandwidth > 0) || !cfg->policy ||
        (cfg->policy->kind == CT_POLICY_PLACE && !cfg->policy->place) ||
        (cfg->policy->kind == CT_POLICY_SAMPLE && cfg->policy->probes < 1))
        return ct_error_set(err, CT_EINPUT, "simulator: need servers >= 1, a positive bandwidth and a policy");
    ct_sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    s->cfg = *cfg;
    ct_evq_init(&s->evq);
    ct_rng_seed(&s->rng, cfg->seed);
    s->free_head = NO_JOB;
    s->start_job = NO_JOB;
    s->max_tasks = 1;
    for (size_t c = 0; c < cfg->n_classes; c++)
        if (cfg->classes[c].n_tasks > s->max_tasks)
            s->max_tasks = cfg->classes[c].n_tasks;
    s->srv = calloc(cfg->servers, sizeof(server_t));
    s->jct = calloc(cfg->n_classes + 1, sizeof(ct_stats_t));
    s->idle = malloc(cfg->servers * sizeof(uint32_t));
    s->loads = calloc(cfg->servers, sizeof(uint32_t));
    for (size_t v = 0; s->srv && v < cfg->servers; v++)
        s->srv[v].held_job = s->srv[v].wait_job = NO_JOB;
    if (cfg->policy->kind == CT_POLICY_SAMPLE || cfg->policy->late_probes) {
        s->perm = malloc(cfg->servers * sizeof(uint32_t));
        s->perm_pos = malloc(cfg->servers * sizeof(uint32_t));
        for (size_t v = 0; s->perm && s->perm_pos && v < cfg->servers; v++)
            s->perm[v] = s->perm_pos[v] = (uint32_t)v;
    }
    s->task_off = calloc(cfg->n_classes + 1, sizeof(size_t));
    if (s->task_off)
        for (size_t c = 0; c < cfg->n_classes; c++)
            s->task_off[c + 1] = s->task_off[c] + cfg->classes[c].n_tasks;
    size_t nt = s->task_off ? s->task_off[cfg->n_classes] : 0;
    s->task_wait = calloc(nt ? nt : 1, sizeof(double));
    s->task_finish = calloc(nt ? nt : 1, sizeof(double));
    s->task_n = calloc(nt ? nt : 1, sizeof(uint64_t));
    if (!s->srv || !s->jct || !s->idle || !s->loads || !s->task_off || !s->task_wait || !s->task_finish || !s->task_n ||
        ((cfg->policy->kind == CT_POLICY_SAMPLE || cfg->policy->late_probes) && (!s->perm || !s->perm_pos))) {
        ct_sim_free(s);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t c = 0; c <= cfg->n_classes; c++)
        ct_stats_init(&s->jct[c]);
    ct_stats_init(&s->bg_compute);
    ct_stats_init(&s->bg_comm);
    ct_stats_init(&s->link_wait);
    for (size_t v = 0; v < cfg->servers; v++)
        s->idle[v] = (uint32_t)(cfg->servers - 1 - v); /* pops server 0 first */
    s->n_idle = cfg->servers;
    *out = s;
    return CT_OK;
}

void ct_sim_free(ct_sim_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_slots; i++) {
        free(s->jobs[i].server);
        free(s->jobs[i].pending);
        free(s->jobs[i].ready);
        free(s->jobs[i].ready_at);
        free(s->jobs[i].slot);
        free(s->jobs[i].slot_server);
        free(s->jobs[i].due);
        free(s->jobs[i].slot_togo);
        free(s->jobs[i].slot_on);
    }
    free(s->jobs);
    free(s->task_off);
    free(s->task_wait);
    free(s->task_finish);
    free(s->task_n);
    for (size_t v = 0; s->srv && v < s->cfg.servers; v++)
        free(s->srv[v].q);
    free(s->srv);
    free(s->lq);
    free(s->ready_jobs);
    free(s->idle);
    free(s->loads);
    free(s->perm);
    free(s->perm_pos);
    for (size_t c = 0; s->jct && c <= s->cfg.n_classes; c++)
        ct_stats_free(&s->jct[c]);
    free(s->jct);
    ct_stats_free(&s->bg_compute);
    ct_stats_free(&s->bg_comm);
    ct_stats_free(&s->link_wait);
    ct_evq_free(&s->evq);
    free(s);
}

void ct_sim_set_window(ct_sim_t *s, double t0, double t1)
{
    s->windowed = 1;
    s->t0 = t0;
    s->t1 = t1;
    for (size_t c = 0; c < s->cfg.n_classes; c++)
        if (s->cfg.classes[c].rate > 0)
            push(s, s->now + exp_draw(&s->rng, s->cfg.classes[c].rate), EV_ARRIVAL, (uint32_t)c, 0);
    if (s->cfg.bg_compute_rate > 0 && s->cfg.bg_compute_time > 0)
        push(s, s->now + exp_draw(&s->rng, s->cfg.bg_compute_rate), EV_BG_COMPUTE, 0, 0);
    if (s->cfg.bg_comm_rate > 0 && s->cfg.bg_comm_bytes > 0)
        push(s, s->now + exp_draw(&s->rng, s->cfg.bg_comm_rate), EV_BG_COMM, 0, 0);
}

ct_status_t ct_sim_inject(ct_sim_t *s, size_t cls, double t, const uint32_t *servers, ct_error_t *err)
{
    if (cls >= s->cfg.n_classes || !(t >= s->now))
        return ct_error_set(err, CT_EINPUT, "simulator: bad injection (class %zu at t = %g, now %g)", cls, t, s->now);
    if (servers && s->cfg.policy->kind != CT_POLICY_PLACE)
        return ct_error_set(err, CT_EINPUT, "simulator: policy %s places tasks itself", s->cfg.policy->name);
    /* Injected jobs travel as arrival events carrying their placement in a
     * job slot reserved now (b = slot + 1; 0 = ask the policy). */
    uint64_t b = 0;
    if (servers) {
        uint32_t id = slot_alloc(s);
        if (id == NO_JOB)
            return ct_error_set(err, CT_ENOMEM, "out of memory");
        memcpy(s->jobs[id].server, servers, s->cfg.classes[cls].n_tasks * sizeof(uint32_t));
        b = (uint64_t)id + 1;
    }
    if (ct_evq_push(&s->evq, t, EV_ARRIVAL, (uint32_t)cls, b | (1ULL << 63)) != CT_OK)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    return CT_OK;
}

ct_status_t ct_sim_run(ct_sim_t *s, double t_max, ct_error_t *err)
{
    ct_event_t ev;
    while (s->st == CT_OK && ct_evq_peek_time(&s->evq) <= t_max && ct_evq_pop(&s->evq, &ev)) {
        s->now = ev.t;
        s->events++;
        switch (ev.kind) {
        case EV_ARRIVAL: {
            int injected = (ev.b >> 63) != 0;
            uint64_t slot = ev.b & ~(1ULL << 63);
            if (!injected && s->now < s->t1)
                push(s, s->now + exp_draw(&s->rng, s->cfg.classes[ev.a].rate), EV_ARRIVAL, ev.a, 0);
            if (!injected && s->now >= s->t1)
                break;
            ct_status_t st;
            if (slot) { /* placement reserved at injection: copy it out, free the slot */
                uint32_t id = (uint32_t)(slot - 1);
                size_t n = s->cfg.classes[ev.a].n_tasks;
                uint32_t *tmp = malloc(n * sizeof(uint32_t));
                if (!tmp) {
                    fail(s, CT_ENOMEM, "out of memory");
                    break;
                }
                memcpy(tmp, s->jobs[id].server, n * sizeof(uint32_t));
                slot_release(s, id);
                st = start_job(s, ev.a, tmp);
                free(tmp);
            } else {
                st = start_job(s, ev.a, NULL);
            }
            if (st != CT_OK && s->st == CT_OK)
                s->st = st; /* message already in s->err */
            break;
        }
        case EV_BG_COMPUTE: {
            if (s->now >= s->t1)
                break;
            push(s, s->now + exp_draw(&s->rng, s->cfg.bg_compute_rate), EV_BG_COMPUTE, 0, 0);
            uint32_t id = slot_alloc(s);
            if (id == NO_JOB) {
                fail(s, CT_ENOMEM, "out of memory (job slots)");
                break;
            }
            job_t *j = &s->jobs[id];
            j->cls = BG_CLASS;
            j->arrival = s->now;
            j->local_since = s->now;
            j->counted = s->now >= s->t0;
            s->arrived += (uint64_t)j->counted;
            j->remaining = 1;
            j->bg_time = exp_draw(&s->rng, 1.0 / s->cfg.bg_compute_time);
            if (s->cfg.policy->kind == CT_POLICY_CENTRAL) {
                /* one more job in the central pool, like any other */
                j->running = 0;
                j->ready[0] = 0;
                j->n_ready = 1;
                j->in_ready_list = 0;
                ready_list_add(s, id);
                central_dispatch(s);
            } else {
                j->server[0] = (uint32_t)ct_rng_below(&s->rng, s->cfg.servers);
                task_ready(s, id, 0);
            }
            break;
        }
        case EV_BG_COMM:
            if (s->now >= s->t1)
                break;
            push(s, s->now + exp_draw(&s->rng, s->cfg.bg_comm_rate), EV_BG_COMM, 0, 0);
            link_submit(s, NO_JOB, 0, s->cfg.bg_comm_bytes * exp_draw(&s->rng, 1.0));
            break;
        case EV_TASK_DONE:
            on_task_done(s, ev.a);
            break;
        case EV_LINK_DONE:
            on_link_done(s, ev.b);
            break;
        case EV_DISPATCH: /* delay scheduling: a job's locality wait ran out */
            central_dispatch(s);
            break;
        case EV_PLACE: { /* rtt: the root's queue lengths are in */
            ct_status_t st = job_place(s, ev.a, NULL);
            if (st != CT_OK && s->st == CT_OK)
                s->st = st;
            break;
        }
        case EV_BIND: /* rtt: a late part's queue lengths are in */
            part_bind(s, ev.a, (uint32_t)ev.b, NO_SLOT);
            break;
        case EV_LAND: /* rtt: a probe reaches its server */
            probe_land(s, ev.a, (uint32_t)(ev.b >> 32), (uint32_t)ev.b);
            break;
        case EV_ASK: /* rtt: the answer to a server's request for a reservation's task */
            s->srv[ev.a].asking = 0;
            reservation_take(s, ev.a, ev.b);
            server_next(s, ev.a);
            break;
        case EV_CANCEL: /* rtt: a job's cancel reaches the servers of its reservations queued before then */
            if (s->jobs[ev.a].cancel_seq < ev.b) /* (a slot reused since holds only later ones) */
                s->jobs[ev.a].cancel_seq = ev.b;
            break;
        case EV_LAUNCH: /* rtt: a central launch reaches its server */
            central_start(s, (uint32_t)(ev.b >> 32), (uint32_t)ev.b, ev.a);
            break;
        }
    }
    if (s->st != CT_OK)
        return ct_error_set(err, s->st, "%s", s->err.msg);
    return CT_OK;
}

void ct_sim_result_get(const ct_sim_t *s, ct_sim_result_t *r)
{
    double span = s->windowed ? s->t1 - s->t0 : s->now;
    double busy = 0;
    for (size_t v = 0; v < s->cfg.servers; v++)
        busy += s->srv[v].busy_window;
    r->n_classes = s->cfg.n_classes;
    r->jct = s->jct;
    r->bg_compute = &s->bg_compute;
    r->bg_comm = &s->bg_comm;
    r->link_wait = &s->link_wait;
    r->link_head_wait = s->cfg.link == CT_LINK_FIFO && s->head_wait_n ? s->head_wait_sum / (double)s->head_wait_n : NAN;
    r->link_util = span > 0 ? s->link_window / span : 0;
    r->server_util = span > 0 ? busy / (span * (double)s->cfg.servers) : 0;
    r->events = s->events;
    r->max_in_flight = s->max_in_flight;
    r->in_flight = s->in_flight;
    r->now = s->now;
    double quarter = s->windowed ? 0.25 * (s->t1 - s->t0) : 0;
    double area[4] = { s->backlog_area[0], s->backlog_area[1], s->backlog_area[2], s->backlog_area[3] };
    if (s->windowed) /* since the last change, if the run stopped inside the window */
        backlog_span(s, s->backlog_last, s->now, (double)s->in_flight, area);
    for (int i = 0; i < 4; i++)
        r->backlog[i] = quarter > 0 ? area[i] / quarter : 0;
    r->arrived = s->arrived;
    r->task_offset = s->task_off;
    r->task_wait_sum = s->task_wait;
    r->task_finish_sum = s->task_finish;
    r->task_count = s->task_n;
}
