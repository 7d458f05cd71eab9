/*
 * nona_model.c - building and evaluating the Nona model (see ct_nona.h).
 *
 * Branch rule (spec s.6), for a crossing edge e with S = bytes / bandwidth:
 *   source -> sink (direct)  its own branch: S + phi
 *   t -> sink                the branch of t's part (it is not part l)
 *   anything else            the branch of the target's part (incoming)
 * An edge of zero bytes never uses the link, so it never "crosses" here
 * (the virtual source / sink edges are such edges).
 *
 * Server queueing (ct_nona.h): per triplet the squares of its server pieces
 * (q_w) and which branches are remote parts; E[max] of the branches with
 * their random server waits is an integral over z = exp(-mu u) of a
 * polynomial of degree (remote parts - 1), done exactly by Gauss-Legendre.
 *
 * The phi bound with server queueing: if theta has phi(theta) > phi_hi,
 * making every crossing triplet local raises no branch (local segment times
 * are <= phi_hi, every crossing triplet waits >= phi), saves at least
 * (phi - phi_hi) per unit c of crossing rate, and raises the root waits by
 * at most c B r_root Qmax / (2 N (1 - rho_s)) (B = sum beta, Qmax = the
 * largest -q_w); past phi_hi plus that, theta is beaten.
 *
 * Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
 */
#include "ct_contract.h"
#include "ct_nona.h"
#include "ct_parallel.h"

#include <gsl/gsl_integration.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GL_POINTS 32 /* exact for up to 64 remote parts */

/* Gauss-Legendre on [0, 1] (m->gl): nodes and weights. */
typedef struct {
    double z[GL_POINTS], w[GL_POINTS];
} gl_nodes_t;

void ct_nona_model_params_init(ct_nona_model_params_t *p)
{
    *p = (ct_nona_model_params_t){ .large = 1, .server_model = 1,
                                   .root_choices = 2, /* pooled roots; 1 is the paper's uniform rule */
                                   .dependent_parts = 1, .reentry_waits = CT_NONA_WAITS_DEFAULT,
                                   .late_waits = CT_NONA_LATE_WAITS_DEFAULT,
                                   .late_first = CT_NONA_LATE_FIRST_DEFAULT,
                                   .root_wait_all = CT_NONA_ROOT_WAIT_ALL_DEFAULT,
                                   .transfers_task = CT_NONA_TRANSFERS_TASK_DEFAULT,
                                   .finite_servers = CT_NONA_SAMPLING_AUTO,
                                   .late_hold = 1, .threads = 1 };
    ct_partition_params_init(&p->partition);
}

/* Late intrusions (ct_nona.h): a busy server takes a newly bound late part
 * when every sampled server is busy (p_busy; held idle ones do not take
 * it: rho_s / u of them, as for the waits); the share of the work in late
 * parts is later_share, and the older half of those go before the next
 * task of the part it runs. The branches hold cont_factor x c in a, moved
 * here when the factor changes (a share of the solver's fixed point), so
 * that every reader of a branch sees it without knowing of it. */
static void set_intrusions(ct_nona_model_t *m)
{
    double u = m->rho_s + m->held_share,
           cf = m->late_intrusions && u > 0 ? CT_NONA_INTRUSION * m->p_busy * m->rho_s / u * m->later_share : 0.0;
    if (cf == m->cont_factor)
        return;
    for (size_t i = 0; i < m->n_branches; i++)
        m->branches[i].a += (cf - m->cont_factor) * m->branches[i].c;
    m->cont_factor = cf;
    m->branch_gen++;
}

/* Mean-field wait factors at per-server load rho when a share a of the
 * arrivals picks the least loaded of d servers and the rest a uniform one:
 * the fraction of servers with >= i tasks solves s_0 = 1,
 * s_i = rho (a s_{i-1}^d + (1 - a) s_{i-1}) (a = 1: rho^((d^i-1)/(d-1))). */
static void root_factors(unsigned d, double rho, double a, double *r_root, double *r_part)
{
    *r_root = *r_part = 1.0;
    if (d <= 1 || !(rho > 0))
        return;
    double L1 = rho / (1.0 - rho), sum_d = 0, sum_1 = 0, si = 1.0;
    for (int i = 1; i < 100000; i++) {
        si = rho * (a * pow(si, (double)d) + (1.0 - a) * si);
        sum_1 += si;
        sum_d += pow(si, (double)d);
        if (si < 1e-18)
            break;
    }
    *r_root = sum_d / L1;
    *r_part = sum_1 / L1;
}

/* The chance that d servers sampled (with replacement) out of N are all
 * busy when the busy count B is Normal(rho N, D rho N), capped at N: E[min(1,
 * B/N)^d] (D = 1 and N large: rho^d). A job's parallel parts keep several
 * servers busy at once, so B spreads wider than Poisson, and with d large
 * the few moments with hardly a server idle are when a sample finds none
 * (on a generated ensemble at load 0.7 with d = 32: rho^d is 1e-5, the
 * simulator's parts waited in about 5% of jobs). Trapezoids over +-8 sd. */
static double busy_all_d(double rho, double N, double D, unsigned d)
{
    double mu = rho * N, sd = sqrt(D * mu), sum = 0, wsum = 0;
    if (!(sd > 0))
        return pow(rho, (double)d);
    for (int i = -400; i <= 400; i++) {
        double z = i / 50.0, w = exp(-0.5 * z * z), b = (mu + sd * z) / N;
        b = b < 0 ? 0 : b > 1 ? 1 : b;
        sum += w * pow(b, (double)d);
        wsum += w;
    }
    return sum / wsum;
}

void ct_nona_model_set_root_share(ct_nona_model_t *m, double a)
{
    m->root_share = m->late_parts ? 1.0 : a < 0 ? 0 : a > 1 ? 1 : a;
    root_factors(m->root_choices, m->rho_s, m->root_share, &m->r_root, &m->r_part);
    /* finite servers: a sampled placement waits when every sampled server is
     * busy or held (p_busy) and the one it takes is busy, not held idle
     * (rho_s / u of them), where the mean field has rho^d; its mean wait
     * scales so. Probes go to the first of the d to free up: about 1/d of
     * one's residual (least-of-d's waits priced probes at load 0.9 1.2-1.3x
     * the simulator's) */
    double pm = pow(m->rho_s, (double)m->root_choices), p_eff = pm;
    m->p_busy = pm;
    if (m->finite_servers && m->root_choices > 1 && m->rho_s > 0 && pm > 0) {
        double u = m->rho_s + m->held_share;
        m->p_busy = busy_all_d(u, (double)m->servers, m->dispersion, m->root_choices);
        p_eff = m->p_busy * m->rho_s / u;
        m->r_root *= p_eff / pm / (m->late_probes ? (double)m->root_choices : 1.0);
    }
    if (m->late_parts) /* a remote part binds as the root does */
        m->r_part = m->r_root;
    /* X's shape: a part bound to the least loaded of d waits only when all d
     * are busy, and then longer, its mean kept */
    m->p_wait = m->late_parts && m->late_waits && m->root_choices > 1 ? p_eff : m->rho_s;
    /* job-first: older jobs' later visits overtake a remote part's first
     * task (ct_nona.h); aged waits with late parts stretch each part's first
     * wait by its own age instead (aged_first) */
    if (m->reentry && !(m->reentry_aged && m->late_parts))
        m->r_part /= 1.0 - m->rho_s * m->later_share;
    set_intrusions(m);
}

void ct_nona_model_set_busy(ct_nona_model_t *m, double D, double h)
{
    m->dispersion = D > 1 ? D : 1.0;
    m->held_share = h > 0 ? fmin(h, 1.0 - m->rho_s) : 0.0;
    ct_nona_model_set_root_share(m, m->root_share);
}

double ct_nona_held_share(const ct_nona_model_t *m, const double *theta)
{
    double held = 0;
    if (!m->late_hold || !(m->servers > 0))
        return 0.0;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            held += m->beta[b->cls] * theta[w] * m->trip[w].hold;
    }
    return fmax(0.0, fmin(held / (double)m->servers, 1.0 - m->rho_s));
}

double ct_nona_dispersion(const ct_nona_model_t *m, const double *theta)
{
    double mean = m->rho_s * (double)m->servers, var = mean;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            var += m->beta[b->cls] * theta[w] * m->trip[w].overlap;
    }
    return mean > 0 ? fmax(1.0, var / mean) : 1.0;
}

void ct_nona_model_set_later_share(ct_nona_model_t *m, double s)
{
    m->later_share = s < 0 ? 0 : s > 1 ? 1 : s;
    ct_nona_model_set_root_share(m, m->root_share);
}

/* The share of the work whose part stays on its source's server. */
static double source_share(const ct_nona_model_t *m, const double *theta)
{
    double all = 0, remote = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        all += m->beta[j] * m->classes[j].work;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            remote += m->beta[b->cls] * theta[w] * m->trip[w].remote_work;
    }
    return all > 0 ? 1.0 - remote / all : 1.0;
}

double ct_nona_root_share(const ct_nona_model_t *m, const double *theta)
{
    return m->late_parts ? 1.0 : source_share(m, theta);
}

void ct_nona_model_free(ct_nona_model_t *m)
{
    if (!m)
        return;
    for (size_t j = 0; j < m->n_classes; j++) {
        if (m->classes)
            ct_split_free(&m->classes[j].split);
        if (m->class_names)
            free(m->class_names[j]);
        if (m->classes)
            free(m->classes[j].reentry_at);
    }
    for (size_t b = 0; m->blocks && b < m->n_blocks; b++) {
        ct_partitions_free(&m->blocks[b].parts);
        free(m->blocks[b].in_start);
        free(m->blocks[b].in_edge);
    }
    free(m->classes);
    free(m->class_names);
    free(m->beta);
    free(m->blocks);
    ct_big_free(m->trip);
    ct_big_free(m->branches);
    free(m->gl);
    ct_scratch_free(m->scratch);
    if (m->screens)
        free(m->screens->e);
    free(m->screens);
    memset(m, 0, sizeof *m);
}

/* A crossing edge's time on its branch: S, and with batched transfers
 * (FIFO link, batch arrivals, M^X/G/1; the batch waits phi) also half the
 * other members of its batch (batch: the sender's batch total), the wait
 * for those ahead of it on average over their order. */
static double transfer_time(const ct_nona_model_t *m, double S, double batch)
{
    return m->link_batches ? S + 0.5 * (batch - S) : S;
}

/* The longest chain of b's inner tasks (their compute, s; inner tasks are
 * in topological order), or NAN out of memory. O(inner tasks + edges). */
static double longest_chain(const ct_dag_t *g, const ct_segment_t *seg, const ct_block_t *b, double speed)
{
    double *end = malloc((seg->n_inner ? seg->n_inner : 1) * sizeof(double)), chain = 0;
    if (!end)
        return NAN;
    for (size_t t = 0; t < seg->n_inner; t++) {
        end[t] = 0;
        for (size_t e = b->in_start[t]; e < b->in_start[t + 1]; e++) {
            size_t u = seg->loc_from[b->in_edge[e]];
            if (u != CT_SEG_SOURCE && end[u] > end[t])
                end[t] = end[u];
        }
        end[t] += g->time[seg->inner[t]] / speed;
        chain = fmax(chain, end[t]);
    }
    free(end);
    return chain;
}

/* Late intrusions on the paper's branches (one per part, no part feeding
 * another): c, the runs before each task of a part that goes on from its
 * part's last one (part k's first from the source), and their wait in a.
 * Out of triplet_eval's loop: the pricing's hot path without them. */
static void part_intrusions(const ct_nona_model_t *m, const ct_dag_t *g, const ct_segment_t *seg,
                            const uint8_t *assign, size_t q, size_t k, ct_branch_t *br)
{
    double prev_run[256];
    for (size_t i = 0; i < q; i++)
        prev_run[i] = i == k ? g->time[seg->source] / m->speed : 0.0;
    for (size_t t = 0; t < seg->n_inner; t++) {
        br[assign[t]].c += prev_run[assign[t]];
        prev_run[assign[t]] = g->time[seg->inner[t]] / m->speed;
    }
    for (size_t i = 0; i < q; i++)
        br[i].a += m->cont_factor * br[i].c;
}

/* Dependent parts: a set of paths, at most CT_NONA_PATHS terms a + n phi
 * (+ X when remote) whose max is a time. A term that another bounds for
 * every phi and X is dropped (and for every late intrusions' factor the
 * model can take, 0 .. CT_NONA_INTRUSION: a holds cf c, linear in the
 * factor, so both ends suffice; cf the model's now); past the limit, the
 * two least are folded into one that bounds both. */
static int path_bounds(int intrusions, double cf, const ct_branch_t *s, const ct_branch_t *x)
{
    if (!(s->a >= x->a && s->n >= x->n && s->remote >= x->remote && s->w >= x->w && s->r >= x->r))
        return 0;
    double hi = CT_NONA_INTRUSION - cf;
    return !intrusions || s->c == x->c ||
           (s->a - cf * s->c >= x->a - cf * x->c && s->a + hi * s->c >= x->a + hi * x->c);
}

static void paths_add(ct_branch_t *set, uint8_t *cnt, ct_branch_t x, int intrusions, double cf)
{
    for (size_t i = 0; i < *cnt; i++)
        if (path_bounds(intrusions, cf, &set[i], &x))
            return;
    ct_branch_t tmp[CT_NONA_PATHS + 1]; /* set has room for CT_NONA_PATHS only: the fold happens here */
    size_t keep = 0;
    for (size_t i = 0; i < *cnt; i++)
        if (!path_bounds(intrusions, cf, &x, &set[i]))
            tmp[keep++] = set[i];
    tmp[keep++] = x;
    if (keep > CT_NONA_PATHS) {
        size_t lo = 0, lo2;
        for (size_t i = 1; i < keep; i++)
            if (tmp[i].a < tmp[lo].a)
                lo = i;
        lo2 = lo == 0 ? 1 : 0;
        for (size_t i = 0; i < keep; i++)
            if (i != lo && tmp[i].a < tmp[lo2].a)
                lo2 = i;
        tmp[lo2] = (ct_branch_t){ fmax(tmp[lo].a, tmp[lo2].a), fmax(tmp[lo].n, tmp[lo2].n),
                                  tmp[lo].remote | tmp[lo2].remote, fmax(tmp[lo].w, tmp[lo2].w),
                                  fmax(tmp[lo].r, tmp[lo2].r), fmax(tmp[lo].c, tmp[lo2].c) };
        tmp[lo] = tmp[--keep];
    }
    memcpy(set, tmp, keep * sizeof(ct_branch_t));
    *cnt = (uint8_t)keep;
}

double ct_nona_reentry_wait_at(const ct_nona_model_t *m, size_t j, size_t v)
{
    const double *r = m->classes[j].reentry_at;
    return r ? r[v] : m->reentry_wait;
}

static double reentry_wait_at(const ct_nona_model_t *m, const ct_block_t *b, size_t v)
{
    return ct_nona_reentry_wait_at(m, b->cls, v);
}

/* A re-entry's wait w into a late part's server (held: the part has run a
 * task there and has more to come; late_hold) is what the d rule put there
 * meanwhile. */
static double held_wait(const ct_nona_model_t *m, double w, int held)
{
    return held ? w * m->hold_factor : w;
}

/* Aged waits with late parts: the first wait of a remote part whose first
 * task is v is W_part / (1 - sigma_v), sigma_v as for re-entries into v (older
 * jobs' later tasks overtake it, younger jobs' wait behind): the stretch
 * beyond W_part, in units of W_part (a branch's w). 0 otherwise. */
/* The root's wait on the paths through the root's part, in units of
 * W_part (= r_root W with late parts): 1 in a class's first segment when
 * its root is virtual and inside (ct_model_class_t.root_inside), else 0. */
static double root_w_of(const ct_nona_model_t *m, const ct_block_t *b)
{
    const ct_model_class_t *mc = &m->classes[b->cls];
    return mc->root_inside && b == &m->blocks[mc->block_start] ? 1.0 : 0.0;
}

static double aged_first(const ct_nona_model_t *m, const ct_block_t *b, size_t v)
{
    const double *r = m->classes[b->cls].reentry_at;
    if (!m->reentry_aged || !m->late_parts || m->late_intrusions || !r || !(m->reentry_wait > 0))
        return 0.0;
    return r[v] / m->reentry_wait - 1.0;
}

/* What q parts add to the variance of the busy servers' count: 2 sum over
 * pairs of their busy time side by side, each part's compute work[i]
 * spread evenly over its span [from[i], to[i]) (its first task's start to
 * its last one's end at the branches' constant times). O(q^2). */
static double parts_overlap(const double *work, const double *from, const double *to, size_t q)
{
    double x = 0.0;
    for (size_t i = 0; i < q; i++)
        for (size_t j = i + 1; j < q; j++) {
            double both = fmin(to[i], to[j]) - fmax(from[i], from[j]);
            if (both > 0)
                x += 2.0 * both * (work[i] / fmax(to[i] - from[i], work[i])) *
                     (work[j] / fmax(to[j] - from[j], work[j]));
        }
    return x;
}

/* The latest constant time in a set of paths (-inf when empty). */
static double paths_max_a(const ct_branch_t *set, uint8_t cnt)
{
    double x = -INFINITY;
    for (size_t i = 0; i < cnt; i++)
        x = fmax(x, set[i].a);
    return x;
}

static void paths_shift(ct_branch_t *set, uint8_t cnt, double a, double n, double r)
{
    for (size_t i = 0; i < cnt; i++) {
        set[i].a += a;
        set[i].n += n;
        set[i].r += r;
    }
}

/* Replaces the branches of a triplet whose parts feed each other (some
 * edge joins inner tasks of two parts) by the parts' timelines (ct_nona.h,
 * "Dependent parts"); returns the branch count, or 0 when no edge joins two
 * parts' inner tasks (the paper's branches are then exact). paths: room
 * for (n_inner + q) x CT_NONA_PATHS, n_paths for n_inner + q. *hold: the
 * late parts' held time (ct_tripinfo_t.hold) and *overlap their compute side
 * by side (ct_tripinfo_t.overlap), set when the count is not 0. */
static size_t dependent_branches(const ct_nona_model_t *m, const ct_dag_t *g, const ct_segment_t *seg,
                                 const ct_block_t *b, const uint8_t *assign, size_t q, size_t k, size_t l,
                                 const double *batch, ct_branch_t *br, ct_branch_t *paths, uint8_t *n_paths,
                                 double *hold, double *overlap)
{
    int joined = 0;
    for (size_t j = 0; j < seg->n_edges && !joined; j++)
        joined = seg->loc_from[j] != CT_SEG_SOURCE && seg->loc_to[j] != CT_SEG_SINK &&
                 assign[seg->loc_from[j]] != assign[seg->loc_to[j]];
    if (!joined)
        return 0;
    size_t n = seg->n_inner;
    ct_branch_t *part = paths + n * CT_NONA_PATHS; /* per part: its timeline so far */
    uint8_t *n_part = n_paths + n;
    uint8_t started[256] = { 0 }, to_sink[256] = { 0 }; /* per part: a task placed; a re-entry into the sink */
    for (size_t p = 0; p < q; p++) {
        part[p * CT_NONA_PATHS] = (ct_branch_t){ p != k ? m->rtt_part : 0.0, 0.0, p != k, 0.0, 0.0, 0.0 };
        n_part[p] = 1;
    }
    double rw = root_w_of(m, b);
    for (size_t t = 0; t < n && rw > 0; t++) /* the root's part waits for the root's server (if it runs a task) */
        if (assign[t] == k) {
            part[k * CT_NONA_PATHS].a = m->rtt_root;
            part[k * CT_NONA_PATHS].w = rw;
            break;
        }
    uint8_t seen[256] = { 0 };
    for (size_t t = 0; t < n; t++) { /* a remote part's first task: its age */
        size_t p = assign[t];
        if (p != k && !seen[p]) {
            seen[p] = 1;
            part[p * CT_NONA_PATHS].w = aged_first(m, b, seg->inner[t]);
        }
    }
    started[k] = 1; /* part k continues the source's visit */
    double prev_run[256]; /* per part: its last task's run (late intrusions) */
    for (size_t p = 0; p < q && m->late_intrusions; p++)
        prev_run[p] = p == k ? g->time[seg->source] / m->speed : 0.0;
    ct_branch_t direct = { 0.0, 0.0, 0, 0.0, 0.0, 0.0 };
    int has_direct = 0;
    double held = 0.0, work_p[256], from_p[256], to_p[256];
    for (size_t p = 0; p < q; p++)
        work_p[p] = 0.0;
    for (size_t t = 0; t <= n; t++) { /* inner tasks in topological order, then the sink */
        int reenter = 0;
        /* (held: a late part bound for t waits for its inputs (bind_in);
         * one that ran a task waits from its timeline's end (own) for the
         * latest input from another part (up)) */
        size_t pt0 = t == n ? l : assign[t];
        int late = m->late_hold && pt0 != k, fresh = late && !started[pt0]; /* (only where used: a hot loop) */
        double own = late && started[pt0] ? paths_max_a(part + pt0 * CT_NONA_PATHS, n_part[pt0]) : 0.0,
               up = -INFINITY, bind_in = 0.0;
        for (size_t e = b->in_start[t]; e < b->in_start[t + 1]; e++) {
            size_t j = b->in_edge[e], lf = seg->loc_from[j];
            double bytes = g->bytes[seg->edges[j]], S = bytes / m->bandwidth;
            size_t from = lf == CT_SEG_SOURCE ? n : lf, pf = ct_assign_part(assign, k, l, lf),
                   pt = t == n ? l : assign[t];
            double c = transfer_time(m, S, batch[from]);
            if (pf == pt)
                continue;
            if (t == n) { /* to the sink: after the sender's part (the direct edge: its own branch) */
                if (bytes <= 0)
                    continue;
                if (lf == CT_SEG_SOURCE) {
                    /* (to part l, away from the source: bound first) */
                    double r = held_wait(m, reentry_wait_at(m, b, seg->sink), l != k && started[l]);
                    direct = (ct_branch_t){ m->rtt_part + c + r, 1.0, 0, 0.0, 0.0, 0.0 };
                    has_direct = 1;
                } else {
                    paths_shift(part + pf * CT_NONA_PATHS, n_part[pf], c, 1.0, 0.0);
                    if (!to_sink[pf]) { /* the sink re-enters its server once per sending part */
                        paths_shift(part + pf * CT_NONA_PATHS, n_part[pf],
                                    held_wait(m, reentry_wait_at(m, b, seg->sink), l != k && started[l]), 0.0, 0.0);
                        to_sink[pf] = 1;
                    }
                }
                continue;
            }
            ct_branch_t *set = part + pt * CT_NONA_PATHS;
            if (fresh)
                bind_in = fmax(bind_in, c);
            else if (late && lf != CT_SEG_SOURCE)
                up = fmax(up, paths_max_a(paths + lf * CT_NONA_PATHS, n_paths[lf]) + c);
            /* (--transfers task: an inner edge's transfer delays the paths
             * through its upstream task only, not the part's own timeline) */
            int own_shift = !m->transfers_task || lf == CT_SEG_SOURCE;
            if (lf != CT_SEG_SOURCE) /* wait for the upstream task */
                for (size_t i = 0; i < n_paths[lf]; i++) {
                    ct_branch_t x = paths[lf * CT_NONA_PATHS + i];
                    if (!own_shift && bytes > 0)
                        x.a += c, x.n += 1.0;
                    if (pt != k && !started[pt]) /* the part is bound first */
                        x.a += m->rtt_part;
                    if (m->reentry && pt != k && !started[pt]) { /* the part's first task then waits X */
                        if (x.remote)
                            x.w += 1.0;
                        else
                            x.remote = 1;
                        x.w += aged_first(m, b, seg->inner[t]);
                    }
                    paths_add(set, &n_part[pt], x, m->late_intrusions, m->cont_factor);
                }
            if (bytes > 0 && own_shift)
                paths_shift(set, n_part[pt], c, 1.0, 0.0);
            reenter |= lf != CT_SEG_SOURCE; /* fed from another part's task: the task joins its server anew */
        }
        if (t < n && fresh)
            held += bind_in;
        else if (t < n && late && reenter)
            held += fmax(0.0, up - own);
        if (t < n) {
            size_t p = assign[t];
            if (reenter && started[p]) /* a part's first task waits X (remote) or continues the source */
                paths_shift(part + p * CT_NONA_PATHS, n_part[p],
                            held_wait(m, reentry_wait_at(m, b, seg->inner[t]), p != k), 0.0,
                            m->reentry_spread ? 1.0 : 0.0);
            double run = g->time[seg->inner[t]] / m->speed;
            if (m->late_intrusions) {
                if (started[p] && !reenter) /* it continues the part's run */
                    for (size_t i = 0; i < n_part[p]; i++) {
                        part[p * CT_NONA_PATHS + i].a += m->cont_factor * prev_run[p];
                        part[p * CT_NONA_PATHS + i].c += prev_run[p];
                    }
                prev_run[p] = run;
            }
            if (m->finite_servers) {
                double at = paths_max_a(part + p * CT_NONA_PATHS, n_part[p]);
                if (work_p[p] == 0.0)
                    from_p[p] = at;
                work_p[p] += run;
                to_p[p] = at + run;
            }
            started[p] = 1;
            paths_shift(part + p * CT_NONA_PATHS, n_part[p], run, 0.0, 0.0);
            memcpy(paths + t * CT_NONA_PATHS, part + p * CT_NONA_PATHS, n_part[p] * sizeof(ct_branch_t));
            n_paths[t] = n_part[p];
        }
    }
    if (m->late_hold && l != k && started[l]) { /* part l waits for the sink's inputs */
        double last = has_direct ? direct.a : -INFINITY;
        for (size_t p = 0; p < q; p++)
            if (p != l)
                last = fmax(last, paths_max_a(part + p * CT_NONA_PATHS, n_part[p]));
        held += fmax(0.0, last - paths_max_a(part + l * CT_NONA_PATHS, n_part[l]));
    }
    *hold = held;
    for (size_t p = 0; p < q; p++)
        if (work_p[p] == 0.0) /* (a part of zero-time tasks, or none) */
            from_p[p] = to_p[p] = 0.0;
    *overlap = m->finite_servers ? parts_overlap(work_p, from_p, to_p, q) : 0.0; /* (O(q^2): only where used) */
    size_t nb = 0;
    for (size_t p = 0; p < q; p++)
        for (size_t i = 0; i < n_part[p]; i++)
            br[nb++] = part[p * CT_NONA_PATHS + i];
    if (has_direct)
        br[nb++] = direct;
    return nb;
}

/* Job-first waits: a segment's server visits under a triplet (ct_nona.h,
 * "Pieces"). A visit is a run of a part's tasks in topological order, cut
 * where a task is fed by another part's inner task (it re-enters). The
 * job's open piece (on the source's server) takes part k's first run
 * (vh_head); unless the segment stays in it (one part and no re-entry: it
 * also takes the sink), the piece closes there, the segment's other runs
 * are closed pieces (vh_sq: their squares), and a new open piece starts
 * with the sink's visit (vh_tail: the sink alone when it re-enters, else
 * part l's last run and the sink). */
static void visit_pieces(const ct_nona_model_t *m, const ct_dag_t *g, const ct_segment_t *seg, const ct_block_t *b,
                         const uint8_t *assign, size_t q, size_t k, size_t l, ct_tripinfo_t *ti)
{
    double cur[256] = { 0 }, first_k = -1, sq = 0, early = 0;
    uint8_t started[256] = { 0 }, cut[256] = { 0 }, from_source[256] = { 0 }; /* cut: the part's first run has ended */
    int sink_reenters = 0, sink_fed_by_others = 0;
    for (size_t t = 0; t <= seg->n_inner; t++) {
        size_t p = t < seg->n_inner ? assign[t] : l;
        int re = 0;
        for (size_t e = b->in_start[t]; e < b->in_start[t + 1]; e++) {
            size_t lf = seg->loc_from[b->in_edge[e]];
            if (ct_assign_part(assign, k, l, lf) != p && (lf != CT_SEG_SOURCE || t == seg->n_inner))
                re = 1;
        }
        if (t == seg->n_inner) {
            sink_reenters = re && !m->reentry_merged;
            sink_fed_by_others = re;
            break;
        }
        if (started[p] && re && !m->reentry_merged) { /* the run so far is a visit of its own */
            if (p == k && first_k < 0)
                first_k = cur[p];
            else
                sq += cur[p] * cur[p];
            if (!cut[p] && from_source[p])
                early += cur[p];
            cur[p] = 0;
            cut[p] = 1;
        }
        if (!started[p])
            from_source[p] = p != k && !re; /* a remote part whose first task needs only the source */
        started[p] = 1;
        cur[p] += g->time[seg->inner[t]] / m->speed;
    }
    double sink = g->time[seg->sink] / m->speed;
    if (m->reentry_merged && q > 1 && l == k) { /* merged: part k and the sink stay the open piece */
        double early_m = 0, sq_m = 0;
        for (size_t p = 0; p < q; p++)
            if (p != k) {
                sq_m += cur[p] * cur[p];
                early_m += from_source[p] ? cur[p] : 0.0;
            }
        ti->vh_close = 0;
        ti->vh_head = cur[k] + sink;
        ti->vh_sq = sq_m;
        ti->vh_tail = 0;
        ti->vh_early = early_m;
        return;
    }
    ti->vh_close = !(q == 1 && !sink_reenters && first_k < 0);
    if (!ti->vh_close) { /* all local: the open piece takes the segment */
        ti->vh_head = cur[0] + sink;
        ti->vh_sq = 0;
        ti->vh_tail = 0;
        ti->vh_early = 0;
        return;
    }
    /* (part l's last run goes on with the sink: a later visit; not when the
     * sink is fed by other parts too, where the sink waits for them and
     * only merged visits run it on with part l's piece: that run is still
     * its part's first visit. Counted as later, it stretched every remote
     * part's first wait on fork-joins, 11-14% pessimistic at load 0.7.) */
    for (size_t p = 0; p < q; p++)
        if (!cut[p] && from_source[p] && !(p == l && !sink_fed_by_others))
            early += cur[p];
    ti->vh_early = early;
    if (first_k < 0) { /* part k ran once: that run is the head */
        first_k = cur[k];
        cur[k] = 0;
        if (!started[k])
            first_k = 0;
    }
    double tail = sink;
    if (!sink_reenters) { /* the sink continues part l's last run */
        tail += cur[l];
        cur[l] = 0;
    }
    for (size_t p = 0; p < q; p++)
        sq += cur[p] * cur[p];
    ti->vh_head = first_k;
    ti->vh_sq = sq;
    ti->vh_tail = tail;
}

/* E[sum of a job's pieces squared] under job-first waits, its segments'
 * triplets drawn independently (as the sampler draws them): the open
 * piece's first two moments (o1, o2) and the closed pieces' squares (c)
 * carried through the segments in order. Per segment the sums over its
 * positive columns (pieces_column), then the step (pieces_segment). */
typedef struct {
    double o1, o2, closed;           /* open piece: E[L], E[L^2]; closed pieces: E[sum of squares] */
    double sn, hn1, hn2, sq;         /* the segment's columns that keep the piece open: theta, theta h, theta h^2,
                                        theta (their other visits' squares: merged visits only) */
    double sc, hc1, hc2, t1, t2;     /* those that close it: theta, theta h, theta (h^2 + sq), theta t, theta t^2 */
    double rp, re, early, ce;        /* the root piece: P(still open), E[its length; open]; the work that starts
                                        with the job (the root piece's, first-segment parts'); theta early */
} pieces_t;

static void pieces_start(pieces_t *a, double root)
{
    memset(a, 0, sizeof *a);
    a->o1 = a->re = root;
    a->o2 = root * root;
    a->rp = 1;
}

static void pieces_column(pieces_t *a, double th, const ct_tripinfo_t *t)
{
    if (!t->vh_close) {
        a->sn += th;
        a->hn1 += th * t->vh_head;
        a->hn2 += th * t->vh_head * t->vh_head;
        a->sq += th * t->vh_sq;
    } else {
        a->sc += th;
        a->hc1 += th * t->vh_head;
        a->hc2 += th * (t->vh_head * t->vh_head + t->vh_sq);
        a->t1 += th * t->vh_tail;
        a->t2 += th * t->vh_tail * t->vh_tail;
    }
    a->ce += th * t->vh_early;
}

/* The step over one segment; first: the job's first segment (its parts fed
 * by the source start with the job). */
static void pieces_segment(pieces_t *a, int first)
{
    double o1 = a->o1, o2 = a->o2;
    a->closed += a->sc * o2 + 2 * a->hc1 * o1 + a->hc2 + a->sq;
    a->o1 = a->sn * o1 + a->hn1 + a->t1;
    a->o2 = a->sn * o2 + 2 * a->hn1 * o1 + a->hn2 + a->t2;
    a->early += a->sc * a->re + a->rp * a->hc1 + (first ? a->ce : 0);
    a->re = a->sn * a->re + a->rp * a->hn1;
    a->rp *= a->sn;
    a->sn = a->hn1 = a->hn2 = a->sq = a->sc = a->hc1 = a->hc2 = a->t1 = a->t2 = a->ce = 0;
}

/* One class's pieces under theta (as ct_nona_pieces_m2 reads it). */
static void pieces_class(const ct_nona_model_t *m, size_t j, const double *theta, const size_t *col_start,
                         const ct_tripinfo_t *info, pieces_t *a)
{
    const ct_model_class_t *mc = &m->classes[j];
    const ct_split_t *sp = &mc->split;
    pieces_start(a, sp->dag.time[sp->bottlenecks[0]] / m->speed);
    for (size_t bi = mc->block_start; bi < mc->block_start + mc->n_blocks; bi++) {
        size_t lo = col_start ? col_start[bi] : m->blocks[bi].var_start,
               hi = col_start ? col_start[bi + 1] : m->blocks[bi].var_start + m->blocks[bi].n_vars;
        for (size_t x = lo; x < hi; x++)
            if (theta[x] > 0)
                pieces_column(a, theta[x], info ? &info[x] : &m->trip[x]);
        pieces_segment(a, bi == mc->block_start);
    }
}

const char *ct_nona_waits_name(const ct_nona_model_t *m)
{
    return !m->reentry              ? "pieces"
           : m->reentry_stretched   ? "stretched"
           : m->reentry_spread      ? "job-first-spread"
           : m->reentry_aged        ? "job-first-aged"
           : m->reentry_merged      ? "job-first-merged"
                                    : "job-first";
}

int ct_nona_params_finite(const ct_nona_model_params_t *p)
{
    return p->server_model && p->late_parts &&
           (p->finite_servers == 1 || (p->finite_servers == CT_NONA_SAMPLING_AUTO &&
                                       p->root_choices >= CT_NONA_FINITE_D && !p->late_probes));
}

const char *ct_nona_sampling_name(const ct_nona_model_t *m)
{
    return m->finite_servers ? "finite" : "mean-field";
}

const char *ct_nona_late_first_name(const ct_nona_model_t *m)
{
    return m->late_parts && m->reentry_aged ? (m->late_intrusions ? "root" : "aged") : NULL;
}

const char *ct_nona_virtual_root_name(const ct_nona_model_t *m)
{
    return m->virtual_root_part ? "part" : NULL;
}

const char *ct_nona_transfers_name(const ct_nona_model_t *m)
{
    return m->transfers_task && m->dependent_parts ? "task" : NULL;
}

const char *ct_nona_late_waits_name(const ct_nona_model_t *m)
{
    return m->late_waits ? "least-of-d" : "uniform";
}

double ct_nona_later_share(const ct_nona_model_t *m, const double *theta)
{
    if (m->late_intrusions) /* the late parts' share of the work */
        return 1.0 - source_share(m, theta);
    double early = 0, all = 0;
    for (size_t j = 0; j < m->n_classes; j++) {
        pieces_t a;
        pieces_class(m, j, theta, NULL, NULL, &a);
        early += m->beta[j] * (a.early + a.re); /* (a root piece still open at the end is the whole job) */
        all += m->beta[j] * m->classes[j].work;
    }
    return all > 0 ? fmax(0.0, fmin(1.0, 1.0 - early / all)) : 0.0;
}

double ct_nona_pieces_m2(const ct_nona_model_t *m, const double *theta, const size_t *col_start,
                         const ct_tripinfo_t *info)
{
    double m2v = m->m2_bg_s;
    for (size_t j = 0; j < m->n_classes; j++) {
        pieces_t a;
        pieces_class(m, j, theta, col_start, info, &a);
        m2v += m->beta[j] * (a.closed + a.o2) / (double)m->servers;
    }
    return m2v;
}

/* The model data of one triplet given as an assignment of the segment's
 * inner tasks to q parts with the source in part k and the sink in part l:
 * fills *ti (but branch_start) and br[0 .. returned count) (room for
 * n_inner + 2). pre / sink_post: the job's work before the segment's parts
 * (root and earlier segments) and from its sink on; work: the whole job's.
 * batch: room for n_inner + 1. */
static size_t triplet_eval(const ct_nona_model_t *m, const ct_dag_t *g, const ct_segment_t *seg, const ct_block_t *b,
                           const uint8_t *assign, size_t q, size_t k, size_t l, ct_tripinfo_t *ti, ct_branch_t *br,
                           double *batch, ct_branch_t *paths, uint8_t *n_paths, double pre, double sink_post,
                           double work)
{
    size_t nb = q;
    double rw = root_w_of(m, b);
    for (size_t i = 0; i < q; i++)
        br[i] = (ct_branch_t){ 0.0, 0.0, i != k, -1.0, 0.0, 0.0 }; /* (w < 0: first task not seen yet) */
    for (size_t t = 0; t < seg->n_inner; t++) {
        ct_branch_t *x = &br[assign[t]];
        x->a += g->time[seg->inner[t]] / m->speed;
        if (x->w < 0)
            x->w = assign[t] != k ? aged_first(m, b, seg->inner[t]) : rw;
    }
    for (size_t i = 0; i < q; i++)
        if (br[i].w < 0)
            br[i].w = 0.0;
    /* Server pieces (only parts, before any transfer time is added). */
    ti->q = 0.0;
    ti->remote_work = 0.0;
    ti->n_remote = q > 1 ? q - 1 : 0;
    if (q > 1) {
        double sq = (pre + br[k].a) * (pre + br[k].a) + sink_post * sink_post;
        for (size_t i = 0; i < q; i++)
            if (i != k) {
                sq += br[i].a * br[i].a;
                ti->remote_work += br[i].a;
            }
        ti->q = sq - work * work;
    }
    double work_p[256], from_p[256], to_p[256]; /* per part: compute, its span (below) */
    for (size_t i = 0; i < q; i++)
        work_p[i] = br[i].a;
    for (size_t i = 0; i < q; i++) /* (after the pieces: a round trip is not server work) */
        if (i != k)
            br[i].a += m->rtt_part;
        else if (rw > 0 && br[k].w > 0) /* (the root's part ran a task: it waited for the root's server) */
            br[k].a += m->rtt_root;
    if (m->late_intrusions) /* (nor a wait) */
        part_intrusions(m, g, seg, assign, q, k, br);
    ti->a1 = ti->a2 = 0.0;
    ti->n_crossing = 0;
    uint8_t sink_wait[256 + 2] = { 0 }; /* per branch: the sink's re-entry wait added */
    int l_inner = 0; /* (part l away from the source runs inner tasks first: held for the sink) */
    for (size_t t = 0; t < seg->n_inner && m->late_hold && l != k && !l_inner; t++)
        l_inner = assign[t] == l;
    /* Transfers leave in batches: every crossing edge out of one task joins
     * the link queue when that task ends (batch[u]: their total time, u =
     * inner index, n_inner = the source). */
    for (size_t u = 0; u <= seg->n_inner; u++)
        batch[u] = 0.0;
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = g->bytes[seg->edges[j]];
        if (bytes > 0 && ct_assign_part(assign, k, l, seg->loc_from[j]) != ct_assign_part(assign, k, l, seg->loc_to[j]))
            batch[seg->loc_from[j] == CT_SEG_SOURCE ? seg->n_inner : seg->loc_from[j]] += bytes / m->bandwidth;
    }
    double bind_in[256]; /* per part away from the source: its inputs' transfer (held) */
    for (size_t i = 0; i < q; i++)
        bind_in[i] = 0.0;
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = g->bytes[seg->edges[j]];
        size_t lf = seg->loc_from[j], lt = seg->loc_to[j], branch;
        if (bytes <= 0 || ct_assign_part(assign, k, l, lf) == ct_assign_part(assign, k, l, lt))
            continue;
        double S = bytes / m->bandwidth;
        size_t from = lf == CT_SEG_SOURCE ? seg->n_inner : lf;
        if (lf == CT_SEG_SOURCE && lt == CT_SEG_SINK) {
            br[nb] = (ct_branch_t){ m->rtt_part, 0.0, 0, 0.0, 0.0, 0.0 }; /* to part l != k: bound first */
            branch = nb++;
        } else if (lt == CT_SEG_SINK) {
            branch = ct_assign_part(assign, k, l, lf);
        } else {
            branch = ct_assign_part(assign, k, l, lt);
        }
        br[branch].a += transfer_time(m, S, batch[from]);
        if (m->late_hold && lt != CT_SEG_SINK && branch != k)
            bind_in[branch] = fmax(bind_in[branch], transfer_time(m, S, batch[from]));
        if (lt == CT_SEG_SINK && m->reentry_wait > 0 && !sink_wait[branch]) {
            /* the sink joins its server anew (once per sending branch) */
            br[branch].a += held_wait(m, reentry_wait_at(m, b, seg->sink), l != k && l_inner);
            sink_wait[branch] = 1;
        }
        if (!m->link_batches)
            ti->a2 += S * S;
        br[branch].n += 1.0;
        ti->a1 += S;
        ti->n_crossing++;
    }
    if (m->link_batches) /* the PK numerator counts each batch's squared total */
        for (size_t u = 0; u <= seg->n_inner; u++)
            ti->a2 += batch[u] * batch[u];
    ti->hold = 0.0; /* late parts wait for their inputs bound, part l for the sink's */
    for (size_t i = 0; i < q; i++) {
        ti->hold += i != k ? bind_in[i] : 0.0;
        from_p[i] = i != k ? m->rtt_part + bind_in[i] : 0.0; /* (part k goes on from the source) */
        to_p[i] = from_p[i] + work_p[i];
    }
    ti->overlap = m->finite_servers ? parts_overlap(work_p, from_p, to_p, q) : 0.0; /* (O(q^2): only where used) */
    if (m->late_hold && l_inner) {
        double last = 0.0;
        for (size_t i = 0; i < nb; i++)
            if (i != l)
                last = fmax(last, br[i].a);
        ti->hold += fmax(0.0, last - br[l].a);
    }
    if (m->reentry)
        visit_pieces(m, g, seg, b, assign, q, k, l, ti);
    else
        ti->vh_close = 0, ti->vh_head = ti->vh_sq = ti->vh_tail = 0;
    if (m->dependent_parts && q > 1) {
        double held = 0.0, overlap = 0.0;
        size_t nd = dependent_branches(m, g, seg, b, assign, q, k, l, batch, br, paths, n_paths, &held, &overlap);
        if (nd) {
            ti->hold = held;
            ti->overlap = overlap;
            nb = nd;
            ti->n_remote = 0;
            for (size_t i = 0; i < nb; i++)
                ti->n_remote += br[i].remote != 0;
        }
    }
    ti->n_branches = nb;
    return nb;
}

/* A triplet's coefficient in the wait LP's server row (see
 * ct_nona_model_set_server_row): q, or with the pieces cut its visits'
 * squares plus the cut's weights on its forward piece F, backward piece B
 * and on staying open. */
double ct_nona_server_coef(const ct_nona_model_t *m, size_t block, double q, int close, double head, double sq,
                           double tail)
{
    const ct_block_t *b = &m->blocks[block];
    if (!m->server_cut)
        return q;
    if (!close) /* the segment stays in the open piece: F = B = its work */
        return head * head + sq + 2.0 * ((b->cut_f + b->cut_b) * head + b->cut_z) - b->cut_s;
    return head * head + sq + tail * tail + 2.0 * (b->cut_f * tail + b->cut_b * head) - b->cut_s;
}

static double row_coef(const ct_nona_model_t *m, const ct_block_t *b, const ct_tripinfo_t *t)
{
    return ct_nona_server_coef(m, (size_t)(b - m->blocks), t->q, t->vh_close, t->vh_head, t->vh_sq, t->vh_tail);
}

/* (Re)computes every triplet's data from the blocks' triplet lists: the
 * variable numbering, trip and branches. Called by the build and whenever
 * column generation adds triplets. */
static ct_status_t fill_triplets(ct_nona_model_t *m, ct_error_t *err)
{
    size_t max_inner = 0, nbr = 0;
    m->n_vars = 0;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        ct_block_t *b = &m->blocks[bi];
        b->var_start = m->n_vars;
        b->n_vars = b->parts.n_triplets;
        b->local_var = b->var_start; /* first partition is "all in part 0", first (k, l) is (0, 0) */
        m->n_vars += b->n_vars;
        if (b->parts.n_inner > max_inner)
            max_inner = b->parts.n_inner;
        for (size_t t = 0; t < b->n_vars; t++)
            nbr += (size_t)b->parts.n_parts[b->parts.triplets[t].partition] * (m->dependent_parts ? CT_NONA_PATHS : 1) +
                   1;
    }
    ct_big_free(m->trip);
    ct_big_free(m->branches);
    m->n_branches = 0;
    m->trip = ct_big_calloc(m->n_vars ? m->n_vars : 1, sizeof(ct_tripinfo_t));
    m->branches = ct_big_calloc(nbr ? nbr : 1, sizeof(ct_branch_t));
    double *batch = malloc((max_inner + 1) * sizeof(double));
    ct_branch_t *paths = malloc((2 * max_inner + 1) * CT_NONA_PATHS * sizeof(ct_branch_t));
    uint8_t *n_paths = malloc(2 * max_inner + 1);
    if (!m->trip || !m->branches || !batch || !paths || !n_paths) {
        free(batch);
        free(paths);
        free(n_paths);
        return ct_error_set(err, CT_ENOMEM, "out of memory for %zu triplets", m->n_vars);
    }
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        ct_block_t *b = &m->blocks[bi];
        const ct_model_class_t *mc = &m->classes[b->cls];
        const ct_segment_t *seg = &mc->split.segments[b->segment];
        const ct_partitions_t *pt = &b->parts;
        b->q_floor = 0;
        if (b->generated && seg->n_inner > 1) {
            /* every task its own part, the work spread evenly: no triplet
             * has a smaller sum of squared pieces */
            double C = 0, n = (double)seg->n_inner, L, sq;
            for (size_t t = 0; t < seg->n_inner; t++)
                C += mc->split.dag.time[seg->inner[t]] / m->speed;
            L = (b->pre + C) / n;
            sq = L >= b->pre ? n * L * L : b->pre * b->pre + C * C / (n - 1);
            b->q_floor = fmin(0.0, sq + b->post * b->post - mc->work * mc->work);
        }
        for (size_t t = 0; t < b->n_vars; t++) {
            const ct_triplet_t *tr = &pt->triplets[t];
            ct_tripinfo_t *ti = &m->trip[b->var_start + t];
            ti->branch_start = m->n_branches;
            m->n_branches += triplet_eval(m, &mc->split.dag, seg, b, pt->assign + (size_t)tr->partition * pt->n_inner,
                                          pt->n_parts[tr->partition], tr->k, tr->l, ti, m->branches + m->n_branches,
                                          batch, paths, n_paths, b->pre, b->post, mc->work);
            ti->qr = row_coef(m, b, ti);
            if (ti->q < b->q_floor)
                b->q_floor = ti->q;
        }
    }
    free(batch);
    free(paths);
    free(n_paths);
    return CT_OK;
}

/* The screens cache keeps its entries with their columns: n invalid ones
 * at column at (dropped whole if it cannot grow: it is only a cache). */
static void screens_insert(ct_nona_model_t *m, size_t at, size_t n)
{
    struct ct_screen_cache *c = m->screens;
    if (!c || !c->n)
        return;
    ct_screen_entry_t *e = c->n == m->n_vars ? realloc(c->e, (c->n + n) * sizeof *e) : NULL;
    if (!e) {
        free(c->e);
        c->e = NULL;
        c->n = 0;
        return;
    }
    memmove(e + at + n, e + at, (c->n - at) * sizeof *e);
    memset(e + at, 0, n * sizeof *e);
    c->e = e;
    c->n += n;
}

/* fill_triplets after the last n triplets of block bi were appended to
 * its list: only they are evaluated; the later blocks' variables move up
 * by n, and the new branches go at the end of m->branches (every reader
 * finds a triplet's branches by branch_start). The same model data as
 * fill_triplets, without re-evaluating every triplet per added column. */
static ct_status_t fill_added(ct_nona_model_t *m, size_t bi, size_t n, ct_error_t *err)
{
    ct_block_t *b = &m->blocks[bi];
    const ct_model_class_t *mc = &m->classes[b->cls];
    const ct_segment_t *seg = &mc->split.segments[b->segment];
    const ct_partitions_t *pt = &b->parts;
    size_t ni = pt->n_inner, nbr = 0, at = b->var_start + b->n_vars;
    for (size_t t = b->n_vars; t < b->n_vars + n; t++)
        nbr += (size_t)pt->n_parts[pt->triplets[t].partition] * (m->dependent_parts ? CT_NONA_PATHS : 1) + 1;
    ct_tripinfo_t *trip = ct_big_realloc(m->trip, (m->n_vars + n) * sizeof(ct_tripinfo_t));
    if (trip)
        m->trip = trip;
    ct_branch_t *br = trip ? ct_big_realloc(m->branches, (m->n_branches + nbr) * sizeof(ct_branch_t)) : NULL;
    if (br)
        m->branches = br;
    double *batch = malloc((ni + 1) * sizeof(double));
    ct_branch_t *paths = malloc((2 * ni + 1) * CT_NONA_PATHS * sizeof(ct_branch_t));
    uint8_t *n_paths = malloc(2 * ni + 1);
    if (!trip || !br || !batch || !paths || !n_paths) {
        free(batch);
        free(paths);
        free(n_paths);
        return ct_error_set(err, CT_ENOMEM, "out of memory for %zu triplets", m->n_vars + n);
    }
    memmove(m->trip + at + n, m->trip + at, (m->n_vars - at) * sizeof(ct_tripinfo_t));
    screens_insert(m, at, n);
    for (size_t t = b->n_vars; t < b->n_vars + n; t++) {
        const ct_triplet_t *tr = &pt->triplets[t];
        ct_tripinfo_t *ti = &m->trip[b->var_start + t];
        memset(ti, 0, sizeof *ti);
        ti->branch_start = m->n_branches;
        m->n_branches += triplet_eval(m, &mc->split.dag, seg, b, pt->assign + (size_t)tr->partition * ni,
                                      pt->n_parts[tr->partition], tr->k, tr->l, ti, m->branches + m->n_branches, batch,
                                      paths, n_paths, b->pre, b->post, mc->work);
        ti->qr = row_coef(m, b, ti);
        if (ti->q < b->q_floor)
            b->q_floor = ti->q;
    }
    b->n_vars += n;
    m->n_vars += n;
    for (size_t j = bi + 1; j < m->n_blocks; j++) {
        m->blocks[j].var_start += n;
        m->blocks[j].local_var = m->blocks[j].var_start;
    }
    free(batch);
    free(paths);
    free(n_paths);
    return CT_OK;
}

/* Labels each inner task of seg by its weakly connected component among
 * the inner tasks, parts numbered by first appearance; returns the count. */
static size_t branch_labels(const ct_segment_t *seg, uint8_t *label, size_t *parent)
{
    size_t n = seg->n_inner;
    for (size_t i = 0; i < n; i++)
        parent[i] = i;
    for (size_t j = 0; j < seg->n_edges; j++) {
        size_t u = seg->loc_from[j], v = seg->loc_to[j];
        if (u >= n || v >= n) /* source or sink end */
            continue;
        while (parent[u] != u)
            u = parent[u];
        while (parent[v] != v)
            v = parent[v];
        if (u != v)
            parent[u > v ? u : v] = u < v ? u : v;
    }
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = i;
        while (parent[r] != r)
            r = parent[r];
        label[i] = r == i ? (uint8_t)(next < 255 ? next++ : 254) : label[r];
    }
    return next;
}

/* The starting triplets of a segment too large to enumerate: all-local
 * first (the model's local_var), then its branches as parts with source and
 * sink in part 0 (the opportunistic placement). Column generation adds the
 * rest. */
static ct_status_t seed_partitions(const ct_segment_t *seg, ct_partitions_t *pt, ct_error_t *err)
{
    size_t n = seg->n_inner;
    memset(pt, 0, sizeof *pt);
    pt->n_inner = n;
    pt->assign = calloc(2 * n, 1);
    pt->n_parts = malloc(2);
    pt->triplets = malloc(2 * sizeof(ct_triplet_t));
    size_t *parent = malloc(n * sizeof(size_t));
    if (!pt->assign || !pt->n_parts || !pt->triplets || !parent) {
        free(parent);
        ct_partitions_free(pt);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    pt->n_parts[0] = 1;
    pt->triplets[0] = (ct_triplet_t){ 0, 0, 0 };
    pt->n_partitions = pt->n_triplets = 1;
    size_t q = branch_labels(seg, pt->assign + n, parent);
    free(parent);
    if (q > 1 && q < 255) {
        pt->n_parts[1] = (uint8_t)q;
        pt->triplets[1] = (ct_triplet_t){ 1, 0, 0 };
        pt->n_partitions = pt->n_triplets = 2;
    }
    return CT_OK;
}

typedef struct {
    double start, load; /* a task's earliest start in its job, s; its share of a server's time */
} aged_task_t;

static int aged_cmp(const void *x, const void *y)
{
    double a = ((const aged_task_t *)x)->start, b = ((const aged_task_t *)y)->start;
    return (a > b) - (a < b);
}

/* Aged waits (reentry_waits 5, ct_nona.h): a re-entry into a task that
 * starts at age tau of its job (earliest start, no waits or transfers) goes
 * after the older jobs' later tasks and before every younger job's, so it
 * waits R / (1 - sigma(tau)), sigma(tau) the servers' load from tasks that
 * start at ages above tau (over every class). Sets each class's reentry_at.
 * O(T log T + E), T tasks and E edges over the classes. */
static ct_status_t aged_waits(ct_nona_model_t *m, double speed, double servers, ct_error_t *err)
{
    size_t n = 0, e_max = 0, at = 0;
    for (size_t j = 0; j < m->n_classes; j++) {
        n += m->classes[j].split.dag.n_tasks;
        if (m->classes[j].split.dag.n_edges > e_max)
            e_max = m->classes[j].split.dag.n_edges;
    }
    aged_task_t *all = malloc((n ? n : 1) * sizeof *all);
    double *est = malloc((n ? n : 1) * sizeof *est), *above = malloc((n + 1) * sizeof *above);
    size_t *order = malloc((n ? n : 1) * sizeof *order), *pos = malloc((n ? n : 1) * sizeof *pos);
    size_t *by_from = malloc((e_max ? e_max : 1) * sizeof *by_from);
    ct_status_t st = CT_OK;
    if (!all || !est || !above || !order || !pos || !by_from) {
        st = ct_error_set(err, CT_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t j = 0; j < m->n_classes && st == CT_OK; j++) {
        ct_model_class_t *mc = &m->classes[j];
        const ct_dag_t *g = &mc->split.dag;
        if (!(mc->reentry_at = malloc((g->n_tasks ? g->n_tasks : 1) * sizeof(double)))) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        if ((st = ct_dag_topo_order(g, order, m->class_names[j], err)) != CT_OK)
            break;
        /* Edges by their source's topological position (a counting sort),
         * then relaxed in that order: every task's start is final before it
         * is read. */
        for (size_t i = 0; i < g->n_tasks; i++)
            pos[order[i]] = i;
        size_t *cnt = calloc(g->n_tasks + 1, sizeof(size_t));
        if (!cnt) {
            st = ct_error_set(err, CT_ENOMEM, "out of memory");
            break;
        }
        for (size_t x = 0; x < g->n_edges; x++)
            cnt[pos[g->from[x]] + 1]++;
        for (size_t i = 0; i < g->n_tasks; i++)
            cnt[i + 1] += cnt[i];
        for (size_t x = 0; x < g->n_edges; x++)
            by_from[cnt[pos[g->from[x]]]++] = x;
        free(cnt);
        double *e = est + at;
        for (size_t v = 0; v < g->n_tasks; v++)
            e[v] = 0;
        for (size_t i = 0; i < g->n_edges; i++) {
            size_t x = by_from[i], u = g->from[x];
            if (e[g->to[x]] < e[u] + g->time[u] / speed)
                e[g->to[x]] = e[u] + g->time[u] / speed;
        }
        for (size_t v = 0; v < g->n_tasks; v++)
            all[at + v] = (aged_task_t){ e[v], m->beta[j] * g->time[v] / speed / servers };
        at += g->n_tasks;
    }
    if (st != CT_OK)
        goto done;
    qsort(all, n, sizeof *all, aged_cmp);
    above[n] = 0; /* above[i]: the load of all[i..n) */
    for (size_t i = n; i > 0; i--)
        above[i - 1] = above[i] + all[i - 1].load;
    at = 0;
    for (size_t j = 0; j < m->n_classes; j++) {
        ct_model_class_t *mc = &m->classes[j];
        for (size_t v = 0; v < mc->split.dag.n_tasks; v++) {
            size_t lo = 0, hi = n; /* the first task starting later than this one */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (all[mid].start > est[at + v])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            double sigma = above[lo] < 1 ? above[lo] : 1 - 1e-9;
            mc->reentry_at[v] = m->reentry_wait / (1.0 - sigma);
        }
        at += mc->split.dag.n_tasks;
    }
done:
    free(all);
    free(est);
    free(above);
    free(order);
    free(pos);
    free(by_from);
    return st;
}

/* From this many classes on, pass 1 of the build runs on params.threads. */
#define CLASS_BUILD_PARALLEL 64

typedef struct {
    const ct_scenario_t *s;
    ct_nona_model_t *m;
    const char *label; /* the scenario's, for messages */
} class_build_ctx_t;

/* Class j's name, contraction and split, its base and work (any thread:
 * it writes only class j's). */
static ct_status_t class_build_point(size_t j, void *arg, ct_error_t *err)
{
    const class_build_ctx_t *cb = arg;
    const ct_class_t *c = &cb->s->classes[j];
    ct_model_class_t *mc = &cb->m->classes[j];
    double speed = cb->s->speed;
    ct_dag_t contracted;
    if (!(cb->m->class_names[j] = ct_strdup(c->name, err)))
        return CT_ENOMEM;
    ct_status_t st = ct_dag_contract(&c->dag, &contracted, NULL, err);
    if (st == CT_OK) {
        st = ct_split_compute(&contracted, &mc->split, err);
        ct_dag_destroy(&contracted);
    }
    if (st != CT_OK) {
        ct_error_prefix(err, "%s: class '%s': ", cb->label, c->name);
        return st;
    }
    const ct_split_t *sp = &mc->split;
    mc->base = sp->dag.time[sp->bottlenecks[0]] / speed;
    for (size_t i = 0; i < sp->n_segments; i++)
        mc->base += sp->dag.time[sp->segments[i].sink] / speed;
    double work = 0;
    for (size_t v = 0; v < sp->dag.n_tasks; v++)
        work += sp->dag.time[v] / speed;
    mc->work = work;
    return CT_OK;
}

ct_status_t ct_nona_model_build(const ct_scenario_t *s, const ct_nona_model_params_t *p, ct_nona_model_t *m,
                                ct_error_t *err)
{
    ct_nona_model_params_t defaults;
    if (!p) {
        ct_nona_model_params_init(&defaults);
        p = &defaults;
    }
    memset(m, 0, sizeof *m);
    const char *label = s->path ? s->path : "scenario";
    ct_status_t st = ct_scenario_validate(s, label, err);
    if (st != CT_OK)
        return st;
    m->rho_bg = s->rho_bg;
    m->m2_bg = s->m2_bg;
    m->bandwidth = s->link_bandwidth;
    m->speed = s->speed;
    m->servers = s->servers;
    m->n_classes = s->n_classes;
    m->beta = calloc(s->n_classes, sizeof(double));
    m->class_names = calloc(s->n_classes, sizeof(char *));
    m->classes = calloc(s->n_classes, sizeof(ct_model_class_t));
    if (!m->beta || !m->class_names || !m->classes) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < s->n_classes; j++)
        ct_dag_init(&m->classes[j].split.dag);
    /* Pass 1: contract, split (each class on its own, on threads), count
     * blocks; check the compute load. */
    class_build_ctx_t cb = { s, m, label };
    if ((st = ct_parallel_for(s->n_classes, s->n_classes >= CLASS_BUILD_PARALLEL ? p->threads : 1, class_build_point,
                              &cb, NULL, NULL, err)) != CT_OK) {
        ct_nona_model_free(m);
        return st;
    }
    double compute_load = 0; /* servers kept busy by compute alone */
    for (size_t j = 0; j < s->n_classes; j++) {
        ct_model_class_t *mc = &m->classes[j];
        m->beta[j] = s->classes[j].rate;
        compute_load += s->classes[j].rate * mc->work;
        mc->block_start = m->n_blocks;
        mc->n_blocks = mc->split.n_segments;
        m->n_blocks += mc->n_blocks;
    }
    if (compute_load + s->rho_bg_s * (double)s->servers >= (double)s->servers) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_EUNSTABLE,
                            "%s: classes: unstable: compute alone needs %.4g servers busy on average, the cluster has %zu "
                            "(lower the arrival rates or raise cluster.speed/servers)",
                            label, compute_load + s->rho_bg_s * (double)s->servers, s->servers);
    }
    if (p->root_choices < 1 || p->root_choices > 64) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_EINPUT, "%s: root choices: expected 1..64 (got %u)", label, p->root_choices);
    }
    m->server_model = p->server_model != 0;
    m->link_batches = m->server_model; /* the paper's link model: one transfer at a time */
    m->dependent_parts = p->dependent_parts != 0;
    m->root_choices = p->root_choices;
    if (!(p->rtt >= 0 && p->rtt <= 10)) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_EINPUT, "%s: round trip: expected 0 .. 10 s (got %g)", label, p->rtt);
    }
    m->rho_s = s->rho_bg_s + compute_load / (double)s->servers;
    m->m2_bg_s = s->m2_bg_s;
    m->m2s_local = s->m2_bg_s;
    for (size_t j = 0; j < s->n_classes; j++)
        m->m2s_local += s->classes[j].rate * m->classes[j].work * m->classes[j].work / (double)s->servers;
    /* Re-entries (ct_nona.h): the mean residual of the task in service on a
     * uniform server, R = (1/N) sum_j beta_j sum_t s_t^2 / 2 over original tasks. */
    m->reentry = m->server_model && p->reentry_waits;
    m->late_parts = m->server_model && p->late_parts;
    m->late_waits = m->late_parts && p->late_waits;
    /* (early parts go to uniform servers, only roots are sampled: at d = 2 the
     * mean field predicts them as well, and its tables simulated 1.02-1.07x
     * faster at loads 0.7-0.9 on the generated ensembles) */
    m->finite_servers = m->late_parts && ct_nona_params_finite(p);
    /* (held servers' capacity is the finite model's: the mean field keeps the model before) */
    m->late_hold = m->late_parts && m->finite_servers && p->late_hold;
    m->dispersion = 1.0;
    m->held_share = 0.0;
    /* Round trips: what a sampled placement hears back before its task can
     * start (the simulator's --rtt). Constants on the paths that pass
     * through the placement: every job's root, every late part's first task;
     * one for the d queue lengths, two for a probe. */
    m->late_probes = m->late_parts && p->late_probes;
    double trips = m->late_probes ? 2.0 : 1.0; /* a probe lands, then its server asks */
    m->rtt = p->rtt;
    int sampled = m->root_choices > 1 || m->late_probes; /* (a probe goes out whatever d) */
    m->rtt_root = sampled ? trips * p->rtt : 0.0;
    m->rtt_part = m->late_parts && sampled ? trips * p->rtt : 0.0;
    /* A virtual root (several source tasks) runs nothing: in the simulator
     * the root's part's tasks wait for its server, a late part fed by the
     * source alone binds when the job arrives and waits for its own. */
    m->virtual_root_part = m->late_parts && !p->root_wait_all;
    m->transfers_task = p->transfers_task;
    for (size_t j = 0; j < m->n_classes; j++) {
        m->classes[j].root_inside = m->virtual_root_part && m->classes[j].split.virtual_source;
        if (!m->classes[j].root_inside)
            m->classes[j].base += m->rtt_root;
    }
    m->reentry_stretched = m->reentry && p->reentry_waits == 2;
    m->m2s_task = s->m2_bg_s;
    for (size_t j = 0; j < s->n_classes; j++) {
        const ct_dag_t *g = &s->classes[j].dag;
        for (size_t v = 0; v < g->n_tasks; v++)
            m->m2s_task += s->classes[j].rate * (g->time[v] / s->speed) * (g->time[v] / s->speed) / (double)s->servers;
    }
    m->m2s_floor = m->reentry ? m->m2s_task : m->m2_bg_s;
    m->reentry_wait = !m->reentry ? 0.0 /* the oldest job's task: no one else goes first */
                      : m->reentry_stretched ? 0.5 * m->m2s_task / (1.0 - m->rho_s) : 0.5 * m->m2s_task;
    ct_nona_model_set_root_share(m, 1.0);
    /* A held server takes another task only when every sampled one is busy
     * (mean field: (s1^d - s2^d) / (s1 - s2) of the arrivals a server sees,
     * s1 = rho, s2 = rho s1^d, about rho^(d-1)). Taken at dispersion 1: the
     * triplets' branches keep it as a constant */
    m->hold_factor = m->late_hold && m->rho_s > 0 ? fmin(1.0, m->p_busy / m->rho_s) : 1.0;
    m->m2s_row = m->m2s_local; /* the linearised server row until a solver tunes the cut */
    m->reentry_spread = m->reentry && p->reentry_waits == 3;
    m->reentry_merged = m->reentry && (p->reentry_waits == 4 || p->reentry_waits == 5);
    m->reentry_aged = m->reentry && p->reentry_waits == 5;
    m->late_intrusions = m->late_parts && m->reentry_aged && !p->late_first;
    gsl_integration_glfixed_table *glt = gsl_integration_glfixed_table_alloc(GL_POINTS);
    gl_nodes_t *gl = malloc(sizeof *gl);
    if (!glt || !gl) {
        if (glt)
            gsl_integration_glfixed_table_free(glt);
        free(gl);
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t g = 0; g < GL_POINTS; g++) {
        gsl_integration_glfixed_point(0.0, 1.0, g, &gl->z[g], &gl->w[g], glt);
    }
    gsl_integration_glfixed_table_free(glt);
    m->gl = gl;
    m->scratch = ct_scratch_alloc(); /* (NULL, out of memory: the LPs allocate as without it) */
    m->screens = calloc(1, sizeof *m->screens); /* (NULL: the LPs compute every screen) */
    /* Pass 2: enumerate triplets per block. */
    m->blocks = calloc(m->n_blocks ? m->n_blocks : 1, sizeof(ct_block_t));
    if (!m->blocks) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < s->n_classes; j++) {
        ct_model_class_t *mc = &m->classes[j];
        for (size_t i = 0; i < mc->n_blocks; i++) {
            ct_block_t *b = &m->blocks[mc->block_start + i];
            const ct_segment_t *seg = &mc->split.segments[i];
            char seglabel[512];
            snprintf(seglabel, sizeof seglabel, "%s: class '%s': segment %zu (%s -> %s)", label, s->classes[j].name, i,
                     mc->split.dag.ids[seg->source], mc->split.dag.ids[seg->sink]);
            b->cls = j;
            b->segment = i;
            double want = ct_partition_triplet_count(seg->n_inner);
            if (p->large && (want > (double)p->partition.max_triplets || seg->n_inner > 250)) {
                st = seed_partitions(seg, &b->parts, err); /* column generation adds the rest */
                b->generated = 1;
            } else {
                st = ct_partitions_enumerate(seg->n_inner, &p->partition, seglabel, &b->parts, err);
            }
            if (st != CT_OK) {
                m->n_blocks = mc->block_start + i; /* free only what exists */
                ct_nona_model_free(m);
                return st;
            }
            /* The segment's edges grouped by target (inner tasks, then the sink). */
            b->in_start = calloc(seg->n_inner + 2, sizeof(size_t));
            b->in_edge = malloc((seg->n_edges ? seg->n_edges : 1) * sizeof(size_t));
            if (!b->in_start || !b->in_edge) {
                m->n_blocks = mc->block_start + i + 1;
                ct_nona_model_free(m);
                return ct_error_set(err, CT_ENOMEM, "out of memory");
            }
            for (size_t e = 0; e < seg->n_edges; e++)
                b->in_start[(seg->loc_to[e] == CT_SEG_SINK ? seg->n_inner : seg->loc_to[e]) + 1]++;
            for (size_t t = 0; t <= seg->n_inner; t++)
                b->in_start[t + 1] += b->in_start[t];
            for (size_t e = 0; e < seg->n_edges; e++) {
                size_t t = seg->loc_to[e] == CT_SEG_SINK ? seg->n_inner : seg->loc_to[e];
                b->in_edge[b->in_start[t]++] = e;
            }
            for (size_t t = seg->n_inner + 1; t > 0; t--) /* the fill advanced each start to the next */
                b->in_start[t] = b->in_start[t - 1];
            b->in_start[0] = 0;
            b->chain = longest_chain(&mc->split.dag, seg, b, s->speed);
            if (isnan(b->chain)) {
                m->n_blocks = mc->block_start + i + 1;
                ct_nona_model_free(m);
                return ct_error_set(err, CT_ENOMEM, "out of memory");
            }
        }
    }
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        const ct_split_t *sp = &mc->split;
        double pre = sp->dag.time[sp->bottlenecks[0]] / s->speed;
        for (size_t i = 0; i < mc->n_blocks; i++) {
            ct_block_t *b = &m->blocks[mc->block_start + i];
            const ct_segment_t *seg = &sp->segments[b->segment];
            double inner = 0;
            for (size_t k = 0; k < seg->n_inner; k++)
                inner += sp->dag.time[seg->inner[k]] / s->speed;
            b->pre = pre;
            b->post = mc->work - pre - inner;
            pre += inner + sp->dag.time[seg->sink] / s->speed;
        }
    }
    if (m->reentry_aged && (st = aged_waits(m, s->speed, (double)s->servers, err)) != CT_OK) {
        ct_nona_model_free(m);
        return st;
    }
    if ((st = fill_triplets(m, err)) != CT_OK) {
        ct_nona_model_free(m);
        return st;
    }
    return CT_OK;
}

ct_status_t ct_nona_model_add_triplets(ct_nona_model_t *m, size_t block, size_t n, const uint8_t *assign,
                                       const uint8_t *k, const uint8_t *l, ct_error_t *err)
{
    if (block >= m->n_blocks || !m->blocks[block].generated)
        return ct_error_set(err, CT_EINPUT, "block %zu: not a generated block", block);
    ct_partitions_t *pt = &m->blocks[block].parts;
    size_t ni = pt->n_inner, np = pt->n_partitions, nt = pt->n_triplets;
    uint8_t *parts = malloc(n ? n : 1);
    if (!parts)
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) { /* canonical: parts numbered by first appearance */
        size_t next = 0;
        for (size_t t = 0; t < ni; t++) {
            if (assign[i * ni + t] > next || (t == 0 && assign[i * ni] != 0)) {
                free(parts);
                return ct_error_set(err, CT_EINPUT, "block %zu: triplet %zu: parts not numbered by first appearance",
                                    block, i);
            }
            if (assign[i * ni + t] == next)
                next++;
        }
        parts[i] = (uint8_t)(ni ? next : 0);
        if (ni == 0 || k[i] >= parts[i] || l[i] >= parts[i]) {
            free(parts);
            return ct_error_set(err, CT_EINPUT, "block %zu: triplet %zu: k or l is not a part", block, i);
        }
    }
    uint8_t *na = realloc(pt->assign, (np + n) * ni), *nq = NULL;
    ct_triplet_t *ntr = NULL;
    if (na)
        pt->assign = na;
    if (na && (nq = realloc(pt->n_parts, np + n)) != NULL)
        pt->n_parts = nq;
    if (nq && (ntr = realloc(pt->triplets, (nt + n) * sizeof(ct_triplet_t))) != NULL)
        pt->triplets = ntr;
    if (!ntr) {
        free(parts);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    memcpy(pt->assign + np * ni, assign, n * ni);
    for (size_t i = 0; i < n; i++) {
        pt->n_parts[np + i] = parts[i];
        pt->triplets[nt + i] = (ct_triplet_t){ (uint32_t)(np + i), k[i], l[i] };
    }
    pt->n_partitions += n;
    pt->n_triplets += n;
    free(parts);
    return fill_added(m, block, n, err);
}

ct_status_t ct_nona_candidate_alloc(const ct_nona_model_t *m, size_t block, ct_nona_candidate_t *c, ct_error_t *err)
{
    memset(c, 0, sizeof *c);
    size_t n = m->blocks[block].parts.n_inner;
    c->block = block;
    c->branches = malloc((n * CT_NONA_PATHS + 2) * sizeof(ct_branch_t));
    c->batch = malloc((n + 1) * sizeof(double));
    c->paths = malloc((2 * n + 1) * CT_NONA_PATHS * sizeof(ct_branch_t));
    c->n_paths = malloc(2 * n + 1);
    if (!c->branches || !c->batch || !c->paths || !c->n_paths) {
        ct_nona_candidate_free(c);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    return CT_OK;
}

void ct_nona_candidate_free(ct_nona_candidate_t *c)
{
    free(c->branches);
    free(c->batch);
    free(c->paths);
    free(c->n_paths);
    memset(c, 0, sizeof *c);
}

void ct_nona_candidate_eval(const ct_nona_model_t *m, ct_nona_candidate_t *c, const uint8_t *assign, size_t q, size_t k,
                            size_t l)
{
    const ct_block_t *b = &m->blocks[c->block];
    const ct_model_class_t *mc = &m->classes[b->cls];
    triplet_eval(m, &mc->split.dag, &mc->split.segments[b->segment], b, assign, q, k, l, &c->info, c->branches, c->batch,
                 c->paths, c->n_paths, b->pre, b->post, mc->work);
    c->info.qr = row_coef(m, b, &c->info);
}

double ct_nona_server_wait_visits(const ct_nona_model_t *m, double m2s, double m2v)
{
    return ct_nona_server_wait(m, m->reentry && m2v > m2s ? m2v : m2s);
}

double ct_nona_server_wait(const ct_nona_model_t *m, double m2s)
{
    if (m2s < m->m2s_floor)
        m2s = m->m2s_floor;
    return m->server_model ? m2s / (2.0 * (1.0 - m->rho_s)) : 0.0;
}

/* Most branches a triplet has: CT_NONA_PATHS per part (255 parts) and a direct edge's. */
#define MAX_BRANCHES (CT_NONA_PATHS * 255 + 4)
#define LB_REMOTE_MAX 16 /* ct_nona_tripinfo_time_lb's sum: C(16, 8) = 12870 at most in e_j */

/* Spread waits beyond this ratio of scales are taken at their mean. */
#define SPREAD_MAX_RATIO 64

/* z^n for n >= 1 by squaring. */
static double pow_int(double z, unsigned n)
{
    double r = 1.0;
    for (; n; n >>= 1, z *= z)
        if (n & 1)
            r *= z;
    return r;
}

/* M_w with spread waits (reentry_spread, --waits job-first-spread; see
 * branches_time): branch i ends at C_i + V_i, C_i its constant part (a
 * without its re-entries' means, plus n phi), V_i the sum of its r
 * re-entries (each 0 w.p. 1 - rho, else exponential with mean R / rho),
 * its X when remote and its w further first visits (like X), all
 * independent, with mean mu and variance v. V_i is taken as the member of
 * X's family with that mean and variance: 0 w.p. 1 - p, else exponential
 * with mean s (p = 2 mu^2 / (v + mu^2), s = (v + mu^2) / (2 mu): exact for
 * one wait, and for several at low load), or mu - sd plus an exponential
 * with mean sd (p = 1, when V varies less than an exponential: several
 * waits at high load). With s_max the largest scale, scales are rounded
 * to s_max / n (integer n, the mean kept), so over z = e^{-u / s_max} the
 * integrand of E[max] = amax + s_max int_0^1 (1 - prod_i (1 - c_i z^n_i))
 * / z dz, c_i = p_i e^{-(amax - L_i) / s_i}, is a polynomial: Gauss-Legendre
 * on 32 points. A wait whose scale is below s_max / SPREAD_MAX_RATIO counts
 * at its mean. O(branches x 32). */
static double spread_time(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                          double Wp, double rho)
{
    double R = m->reentry_wait, vX = Wp * Wp * (2.0 / m->p_wait - 1.0), vR = R * R * (2.0 / rho - 1.0);
    double L[MAX_BRANCHES], pr[MAX_BRANCHES], sc[MAX_BRANCHES], amax = 0.0, smax = 0.0;
    size_t nb = ti->n_branches < MAX_BRANCHES ? ti->n_branches : MAX_BRANCHES;
    for (size_t i = 0; i < nb; i++) {
        double x = (br[i].remote ? 1.0 : 0.0) + br[i].w, mu = x * Wp + br[i].r * R, v = x * vX + br[i].r * vR;
        double c0 = br[i].a - br[i].r * R + br[i].n * phi;
        pr[i] = 0.0;
        L[i] = c0 + (mu > 0 ? mu : 0.0);
        if (mu > 0 && v > 0) {
            if (v >= mu * mu) { /* a mass at 0 and an exponential */
                pr[i] = 2.0 * mu * mu / (v + mu * mu);
                sc[i] = (v + mu * mu) / (2.0 * mu);
                L[i] = c0;
            } else { /* a shifted exponential */
                pr[i] = 1.0;
                sc[i] = sqrt(v);
                L[i] = c0 + mu - sc[i];
            }
            if (sc[i] > smax)
                smax = sc[i];
        }
    }
    if (!(smax > 0) || !(smax < INFINITY)) {
        for (size_t i = 0; i < nb; i++)
            if (L[i] + (pr[i] > 0 ? pr[i] * sc[i] : 0.0) > amax)
                amax = L[i] + (pr[i] > 0 ? pr[i] * sc[i] : 0.0);
        return amax;
    }
    unsigned n[MAX_BRANCHES];
    for (size_t i = 0; i < nb; i++) {
        if (pr[i] > 0) {
            double ratio = smax / sc[i];
            if (ratio > SPREAD_MAX_RATIO) { /* a small wait: its mean */
                L[i] += pr[i] * sc[i];
                pr[i] = 0.0;
            } else {
                n[i] = (unsigned)(ratio + 0.5);
                double s2 = smax / n[i], p2 = pr[i] * sc[i] / s2; /* the same mean at scale s2 */
                if (p2 > 1.0) {
                    L[i] += pr[i] * sc[i] - s2;
                    p2 = 1.0;
                }
                pr[i] = p2;
                sc[i] = s2;
            }
        }
        if (L[i] > amax)
            amax = L[i];
    }
    double c[MAX_BRANCHES];
    unsigned cn[MAX_BRANCHES];
    size_t k = 0;
    for (size_t i = 0; i < nb; i++)
        if (pr[i] > 0) {
            c[k] = pr[i] * exp(-fmax(0.0, amax - L[i]) / sc[i]);
            cn[k++] = n[i];
        }
    const gl_nodes_t *gl = m->gl;
    double integral = 0.0;
    for (size_t g = 0; g < GL_POINTS; g++) {
        double prod = 1.0, z = gl->z[g];
        for (size_t i = 0; i < k; i++)
            prod *= 1.0 - c[i] * (cn[i] == 1 ? z : pow_int(z, cn[i]));
        integral += gl->w[g] * (1.0 - prod) / z;
    }
    return amax + smax * integral;
}

/* E[max] of a triplet's branches with their server waits, M_w(phi, W).
 * Each remote branch i ends at t_i + X_i, X_i = 0 w.p. 1 - p, else
 * Exp(mu), mu = p / Wp (p = p_wait: rho_s, or rho_s^d for late parts bound
 * to the least loaded of d). With c_i = p exp(-mu (amax - t_i)),
 * E[max] = amax + (1/mu) int_0^1 (1 - prod_i (1 - c_i z)) / z dz.
 * The integrand is a polynomial of degree k - 1 (k remote branches):
 * with e_j the elementary symmetric polynomials of the c_i, the
 * integral is sum_j (-1)^(j+1) e_j / j, exact. Its alternating terms
 * stay small for k <= 6 (e_j <= 20); beyond, Gauss-Legendre on 32
 * points, also exact for k <= 64 and stable for any k. Branches with
 * re-entries or further first visits count those at their means, or with
 * reentry_spread take spread_time. */
static double branches_time(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                            double W)
{
    double amax = 0.0, Wp = m->r_part * W, rho = m->rho_s;
    int spread = 0;
    for (size_t i = 0; i < ti->n_branches; i++) {
        double t = br[i].a + br[i].n * phi + br[i].w * Wp;
        if (t > amax)
            amax = t;
        spread |= br[i].r > 0 || br[i].w > 0;
    }
    if (!m->server_model || !(rho > 0))
        return amax;
    if (spread && m->reentry_spread && rho < 1)
        return spread_time(m, ti, br, phi, Wp > 0 ? Wp : 0.0, rho);
    if (ti->n_remote == 0 || !(Wp > 0))
        return amax;
    double p = m->p_wait, mu = p / Wp, integral = 0;
    if (!(mu < INFINITY)) /* a wait too small to represent its rate: it adds nothing */
        return amax;
    if (ti->n_remote <= 6) {
        double e[7] = { 1, 0, 0, 0, 0, 0, 0 };
        size_t k = 0;
        for (size_t i = 0; i < ti->n_branches; i++)
            if (br[i].remote) {
                /* amax - t_i >= 0 but for round-off, which a large mu (a tiny
                 * wait) would blow up into exp(+large) */
                double ci = p * exp(-mu * fmax(0.0, amax - br[i].a - br[i].n * phi - br[i].w * Wp));
                k++;
                for (size_t j = k; j > 0; j--)
                    e[j] += ci * e[j - 1];
            }
        for (size_t j = k; j > 0; j--)
            integral += (j % 2 ? e[j] : -e[j]) / (double)j;
        return amax + integral / mu;
    }
    /* c_i once per branch */
    double c[MAX_BRANCHES];
    size_t k = 0;
    for (size_t i = 0; i < ti->n_branches && k < MAX_BRANCHES; i++)
        if (br[i].remote)
            c[k++] = p * exp(-mu * fmax(0.0, amax - br[i].a - br[i].n * phi - br[i].w * Wp));
    const gl_nodes_t *gl = m->gl;
    for (size_t g = 0; g < GL_POINTS; g++) {
        double prod = 1.0, z = gl->z[g];
        for (size_t i = 0; i < k; i++)
            prod *= 1.0 - c[i] * z;
        integral += gl->w[g] * (1.0 - prod) / z;
    }
    return amax + integral / mu;
}

static double busy_price(const ct_nona_model_t *m, const ct_tripinfo_t *ti)
{
    return m->price_hold * ti->hold + m->price_overlap * ti->overlap;
}

double ct_nona_triplet_time(const ct_nona_model_t *m, size_t w, double phi, double W)
{
    return branches_time(m, &m->trip[w], m->branches + m->trip[w].branch_start, phi, W) + busy_price(m, &m->trip[w]);
}

double ct_nona_tripinfo_time(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                             double W)
{
    return branches_time(m, ti, br, phi, W) + busy_price(m, ti);
}

double ct_nona_triplet_time_lb(const ct_nona_model_t *m, size_t w, double phi, double W)
{
    return ct_nona_tripinfo_time_lb(m, &m->trip[w], m->branches + m->trip[w].branch_start, phi, W);
}

double ct_nona_tripinfo_time_lb(const ct_nona_model_t *m, const ct_tripinfo_t *ti, const ct_branch_t *br, double phi,
                                double W)
{
    double Wp = m->r_part * W, x = 0.0, amax = 0.0, tmax = 0.0;
    /* the same test as branches_time: no wait term where it uses none */
    if (m->server_model && ti->n_remote > 0 && Wp > 0 && m->rho_s > 0)
        x = Wp; /* X = 0 w.p. 1 - p_wait, else Exp with mean W_part / p_wait */
    for (size_t i = 0; i < ti->n_branches; i++) {
        double t = br[i].a + br[i].n * phi + br[i].w * Wp;
        if (t > tmax)
            tmax = t;
        if (br[i].remote)
            t += x;
        if (t > amax)
            amax = t;
    }
    double mu = x > 0 ? m->p_wait / x : INFINITY;
    if (!(x > 0) || ti->n_remote > LB_REMOTE_MAX || !(mu < INFINITY) || (m->reentry_spread && m->rho_s < 1))
        return amax;
    /* Tighter: branches_time's sum with each c_i = p e^{-mu d_i} taken at
     * p (1 - mu d_i / 8)^8 <= it (0 beyond mu d_i = 8): E[max] grows with
     * every c_i, so this is a lower bound too, without exponentials (Jensen's
     * above loses most with many remote parts at low load: 7-11 of them,
     * waiting w.p. 0.1, end about 6 W_part later, not 1). The alternating
     * sum over e_j (all terms >= 0, computed to (k + 1) eps of themselves)
     * is taken down by its round-off's bound. */
    double e[LB_REMOTE_MAX + 1] = { 1 }, integral = 0.0, mag = 0.0;
    size_t k = 0;
    for (size_t i = 0; i < ti->n_branches; i++)
        if (br[i].remote) {
            double y = 1.0 - 0.125 * mu * (tmax - br[i].a - br[i].n * phi - br[i].w * Wp), ci;
            if (!(y > 0))
                continue;
            y *= y;
            y *= y;
            ci = m->p_wait * y * y;
            k++;
            for (size_t j = k; j > 0; j--)
                e[j] += ci * e[j - 1];
        }
    for (size_t j = k; j > 0; j--) {
        integral += (j % 2 ? e[j] : -e[j]) / (double)j;
        mag += e[j] / (double)j;
    }
    integral -= (double)(2 * k + 4) * DBL_EPSILON * mag;
    double lb = tmax + integral / mu;
    return lb > amax ? lb : amax;
}

double ct_nona_candidate_time(const ct_nona_model_t *m, const ct_nona_candidate_t *c, double phi, double W)
{
    return branches_time(m, &c->info, c->branches, phi, W) + busy_price(m, &c->info);
}

double ct_nona_candidate_time_floor(const ct_nona_model_t *m, const ct_nona_candidate_t *c, double phi, double W)
{
    if (m->reentry_spread)
        return -INFINITY;
    /* branches_time's amax: what it returns, or that plus E[max] - max >= 0 */
    double amax = 0.0, Wp = m->r_part * W;
    for (size_t i = 0; i < c->info.n_branches; i++) {
        const ct_branch_t *b = &c->branches[i];
        double t = b->a + b->n * phi + b->w * Wp;
        if (t > amax)
            amax = t;
    }
    return amax;
}

void ct_nona_triplet_grad(const ct_nona_model_t *m, size_t w, double phi, double W, double *d_phi, double *d_W)
{
    double M = ct_nona_triplet_time(m, w, phi, W);
    double hp = 1e-7 * (phi > 1e-9 ? phi : 1e-9), hw = 1e-7 * (W > 1e-9 ? W : 1e-9);
    *d_phi = (ct_nona_triplet_time(m, w, phi + hp, W) - M) / hp;
    *d_W = m->server_model ? (ct_nona_triplet_time(m, w, phi, W + hw) - M) / hw : 0.0;
}

/* Fetches ahead what evaluating block b's positive columns reads: their
 * triplets (branches = 0), or their branches (1, the triplets fetched
 * earlier). A placement uses few, scattered columns: memory-bound. */
static void prefetch_positive(const ct_nona_model_t *m, const double *theta, size_t b, int branches)
{
    if (b >= m->n_blocks)
        return;
    for (size_t w = m->blocks[b].var_start; w < m->blocks[b].var_start + m->blocks[b].n_vars; w++)
        if (theta[w] > 0) {
            if (branches)
                CT_PREFETCH(&m->branches[m->trip[w].branch_start]);
            else
                CT_PREFETCH(&m->trip[w]);
        }
}

void ct_nona_evaluate(const ct_nona_model_t *m, const double *theta, ct_nona_eval_t *out, double *tau)
{
    double rho = m->rho_bg, m2 = m->m2_bg, beta_sum = 0, m2s = m->m2s_local;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        double beta = m->beta[b->cls];
        prefetch_positive(m, theta, bi + 8, 0);
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
            if (theta[w] == 0)
                continue; /* most are: skip their triplets' memory */
            rho += beta * theta[w] * m->trip[w].a1;
            m2 += beta * theta[w] * m->trip[w].a2;
            m2s += beta * theta[w] * m->trip[w].q / (double)m->servers;
        }
    }
    out->rho = rho;
    out->m2 = m2;
    out->rho_s = m->rho_s;
    out->W = ct_nona_server_wait_visits(m, m2s, m->reentry ? ct_nona_pieces_m2(m, theta, NULL, NULL) : 0.0);
    out->W_root = m->r_root * out->W;
    for (size_t j = 0; j < m->n_classes; j++)
        beta_sum += m->beta[j];
    if (rho >= 1.0) {
        out->phi = out->J = out->mean_jct = INFINITY;
        out->W = out->W_root = INFINITY;
        if (tau)
            for (size_t j = 0; j < m->n_classes; j++)
                tau[j] = INFINITY;
        return;
    }
    double phi = m2 / (2.0 * (1.0 - rho)), J = 0;
    out->phi = phi;
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        double t = mc->base + ct_nona_class_root_wait(m, j, out->W);
        for (size_t bi = mc->block_start; bi < mc->block_start + mc->n_blocks; bi++) {
            const ct_block_t *b = &m->blocks[bi];
            prefetch_positive(m, theta, bi + 8, 0);
            prefetch_positive(m, theta, bi + 4, 1);
            for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
                if (theta[w] > 0)
                    t += theta[w] * ct_nona_triplet_time(m, w, phi, out->W);
        }
        if (tau)
            tau[j] = t;
        J += m->beta[j] * t;
    }
    out->J = J;
    out->mean_jct = J / beta_sum;
}

void ct_nona_segment_ends(const ct_nona_model_t *m, const double *theta, double *ends)
{
    ct_nona_eval_t e;
    ct_nona_evaluate(m, theta, &e, NULL);
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        const ct_split_t *sp = &mc->split;
        double t = sp->dag.time[sp->bottlenecks[0]] / m->speed + (mc->root_inside ? 0.0 : m->rtt_root) +
                   ct_nona_class_root_wait(m, j, e.W);
        for (size_t i = 0; i < mc->n_blocks; i++) {
            const ct_block_t *b = &m->blocks[mc->block_start + i];
            for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
                if (theta[w] > 0)
                    t += theta[w] * ct_nona_triplet_time(m, w, e.phi, e.W);
            t += sp->dag.time[sp->segments[i].sink] / m->speed;
            ends[mc->block_start + i] = t;
        }
    }
}

/* E[max] of a set of paths as branches_time takes a triplet's branches. */
static double paths_time(const ct_nona_model_t *m, const ct_branch_t *set, size_t n, double phi, double W)
{
    ct_tripinfo_t t;
    memset(&t, 0, sizeof t);
    t.n_branches = n;
    for (size_t i = 0; i < n; i++)
        t.n_remote += set[i].remote != 0;
    return branches_time(m, &t, set, phi, W);
}

ct_status_t ct_nona_task_ends(const ct_nona_model_t *m, const double *theta, double *ends, ct_error_t *err)
{
    size_t max_inner = 0, off = 0;
    for (size_t bi = 0; bi < m->n_blocks; bi++)
        if (m->blocks[bi].parts.n_inner > max_inner)
            max_inner = m->blocks[bi].parts.n_inner;
    double *batch = malloc((max_inner + 1) * sizeof(double)), *acc = malloc((max_inner + 1) * sizeof(double));
    ct_branch_t *paths = malloc((2 * max_inner + 1) * CT_NONA_PATHS * sizeof(ct_branch_t)),
                *br = malloc((max_inner + 2) * CT_NONA_PATHS * sizeof(ct_branch_t) + sizeof(ct_branch_t));
    uint8_t *n_paths = malloc(2 * max_inner + 1);
    if (!batch || !acc || !paths || !br || !n_paths) {
        free(batch);
        free(acc);
        free(paths);
        free(br);
        free(n_paths);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    ct_nona_eval_t e;
    ct_nona_evaluate(m, theta, &e, NULL);
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        const ct_split_t *sp = &mc->split;
        const ct_dag_t *g = &sp->dag;
        double *out = ends + off;
        for (size_t v = 0; v < g->n_tasks; v++)
            out[v] = NAN;
        double t0 = g->time[sp->bottlenecks[0]] / m->speed + (mc->root_inside ? 0.0 : m->rtt_root) +
                    ct_nona_class_root_wait(m, j, e.W);
        out[sp->bottlenecks[0]] = t0;
        for (size_t i = 0; i < mc->n_blocks; i++) {
            const ct_block_t *b = &m->blocks[mc->block_start + i];
            const ct_segment_t *seg = &sp->segments[i];
            const ct_partitions_t *pt = &b->parts;
            size_t n = seg->n_inner;
            for (size_t t = 0; t < n; t++)
                acc[t] = 0.0;
            double M = 0.0;
            for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
                if (!(theta[w] > 0))
                    continue;
                const ct_triplet_t *tr = &pt->triplets[w - b->var_start];
                const uint8_t *assign = pt->assign + (size_t)tr->partition * n;
                size_t q = pt->n_parts[tr->partition];
                ct_tripinfo_t ti;
                memset(&ti, 0, sizeof ti);
                triplet_eval(m, g, seg, b, assign, q, tr->k, tr->l, &ti, br, batch, paths, n_paths, b->pre, b->post,
                             mc->work);
                M += theta[w] * ct_nona_triplet_time(m, w, e.phi, e.W);
                double held, overlap;
                size_t nd = m->dependent_parts && q > 1
                                ? dependent_branches(m, g, seg, b, assign, q, tr->k, tr->l, batch, br, paths, n_paths,
                                                     &held, &overlap)
                                : 0;
                if (nd) { /* every task's paths so far: its end */
                    for (size_t t = 0; t < n; t++)
                        acc[t] += theta[w] * paths_time(m, paths + t * CT_NONA_PATHS, n_paths[t], e.phi, e.W);
                    continue;
                }
                /* Parts fed by the source alone (or one part): a part's
                 * transfers in from the source come first, then its tasks
                 * in order, as its branch (triplet_eval) counts them. */
                double in_a[256], in_n[256], run[256];
                /* (part k's w is the root's wait inside, if any: triplet_eval) */
                for (size_t p = 0; p < q; p++)
                    in_a[p] = p != tr->k ? m->rtt_part : br[p].w > 0 ? m->rtt_root : 0.0, in_n[p] = 0.0, run[p] = 0.0;
                for (size_t x = 0; x < seg->n_edges; x++) {
                    double bytes = g->bytes[seg->edges[x]];
                    size_t lf = seg->loc_from[x], lt = seg->loc_to[x];
                    if (bytes <= 0 || lf != CT_SEG_SOURCE || lt == CT_SEG_SINK || assign[lt] == tr->k)
                        continue;
                    in_a[assign[lt]] += transfer_time(m, bytes / m->bandwidth, batch[n]);
                    in_n[assign[lt]] += 1.0;
                }
                for (size_t t = 0; t < n; t++) {
                    size_t p = assign[t];
                    run[p] += g->time[seg->inner[t]] / m->speed;
                    ct_branch_t x = { in_a[p] + run[p], in_n[p], p != tr->k, br[p].w, 0.0, 0.0 };
                    acc[t] += theta[w] * paths_time(m, &x, 1, e.phi, e.W);
                }
            }
            for (size_t t = 0; t < n; t++)
                out[seg->inner[t]] = t0 + acc[t];
            t0 += M + g->time[seg->sink] / m->speed;
            out[seg->sink] = t0;
        }
        off += g->n_tasks;
    }
    free(batch);
    free(acc);
    free(paths);
    free(br);
    free(n_paths);
    return CT_OK;
}

void ct_nona_theta_clean(const ct_nona_model_t *m, double *theta, double threshold)
{
    for (size_t b = 0; b < m->n_blocks; b++) {
        const ct_block_t *bl = &m->blocks[b];
        double sum = 0;
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++) {
            if (!(theta[w] >= threshold))
                theta[w] = 0;
            sum += theta[w];
        }
        for (size_t w = bl->var_start; w < bl->var_start + bl->n_vars; w++)
            theta[w] = sum > 0 ? theta[w] / sum : (w == bl->local_var);
    }
}

void ct_nona_theta_local(const ct_nona_model_t *m, double *theta)
{
    memset(theta, 0, m->n_vars * sizeof(double));
    for (size_t bi = 0; bi < m->n_blocks; bi++)
        theta[m->blocks[bi].local_var] = 1.0;
}

double ct_nona_class_root_wait(const ct_nona_model_t *m, size_t j, double W)
{
    return m->classes[j].root_inside ? 0.0 : m->r_root * W;
}

double ct_nona_root_beta(const ct_nona_model_t *m)
{
    double B = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        B += m->classes[j].root_inside ? 0.0 : m->beta[j];
    return B;
}

double ct_nona_phi_min(const ct_nona_model_t *m)
{
    return m->m2_bg / (2.0 * (1.0 - m->rho_bg));
}

double ct_nona_phi_max(const ct_nona_model_t *m)
{
    double hi = 0, qmax = 0, B = 0;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        double t = ct_nona_triplet_time(m, m->blocks[bi].local_var, 0.0, 0.0);
        if (t > hi)
            hi = t;
    }
    if (!m->server_model)
        return hi;
    for (size_t bi = 0; bi < m->n_blocks; bi++) /* every triplet, listed or not */
        if (-m->blocks[bi].q_floor > qmax)
            qmax = -m->blocks[bi].q_floor;
    for (size_t j = 0; j < m->n_classes; j++)
        B += m->beta[j];
    return hi + B * m->r_root * qmax / (2.0 * (double)m->servers * (1.0 - m->rho_s));
}

double ct_nona_server_row(const ct_nona_model_t *m, const double *theta)
{
    double m2s = 0;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        double sum = 0;
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            if (theta[w] != 0)
                sum += theta[w] * m->trip[w].qr;
        m2s += m->beta[b->cls] * sum;
    }
    return m->m2s_row + m2s / (double)m->servers;
}

/* Every triplet's qr from the current cut (or q). */
static void server_row_fill(ct_nona_model_t *m)
{
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            m->trip[w].qr = row_coef(m, b, &m->trip[w]);
    }
}

static void server_row_linear(ct_nona_model_t *m)
{
    m->server_cut = 0;
    m->m2s_row = m->m2s_local;
    for (size_t bi = 0; bi < m->n_blocks; bi++)
        m->blocks[bi].cut_f = m->blocks[bi].cut_b = m->blocks[bi].cut_z = m->blocks[bi].cut_s = 0;
    server_row_fill(m);
}

/* The pieces cut of one class at theta (ct_nona_model_set_server_row): its
 * blocks' weights, and its constant (the root's square and the pairs'
 * constants) as the return value. Segment i = 1 .. S is the class's block
 * i - 1, i = 0 the root (its piece runs forward only and has no choice).
 * Per segment: w its work (the all-local triplet's, which keeps the piece
 * open: F = B = w), Fm and Bm the least F and B over its triplets (0 for
 * a generated segment: unlisted triplets may go lower), EF, EB, Ec the
 * means of F, B and of closing the piece under theta. A pair (i, j) with
 * P the expected closings between them takes the best at theta of
 *   0,
 *   w_j F_i + w_i B_j - w_i w_j (1 + cuts)       (the corner (w_i, w_j)),
 *   Bm_j F_i + Fm_i B_j - Fm_i Bm_j - C cuts     (the corner (Fm_i, Bm_j)),
 * C = w_i Bm_j + Fm_i w_j - Fm_i Bm_j; each is <= F_i B_j prod z at every
 * choice of the segments (F <= w, B <= w; a cut between makes the product
 * 0 and the plane <= 0). Scratch: 7 (S + 2) doubles. */
static double server_cut_class(ct_nona_model_t *m, size_t j, const double *theta, double *scratch)
{
    const ct_model_class_t *mc = &m->classes[j];
    size_t S = mc->n_blocks, n = S + 2;
    double *w = scratch, *Fm = w + n, *Bm = Fm + n, *EF = Bm + n, *EB = EF + n, *Pc = EB + n, *Z = Pc + n;
    double r = mc->split.dag.time[mc->split.bottlenecks[0]] / m->speed, K = 0;
    w[0] = Fm[0] = Bm[0] = EF[0] = EB[0] = r;
    Pc[0] = 0;
    for (size_t i = 1; i <= S; i++) {
        ct_block_t *b = &m->blocks[mc->block_start + i - 1];
        double ef = 0, eb = 0, ec = 0, fm = INFINITY, bm = INFINITY;
        w[i] = m->trip[b->local_var].vh_head;
        for (size_t x = b->var_start; x < b->var_start + b->n_vars; x++) {
            const ct_tripinfo_t *t = &m->trip[x];
            double F = t->vh_close ? t->vh_tail : t->vh_head, B = t->vh_head;
            fm = F < fm ? F : fm;
            bm = B < bm ? B : bm;
            if (theta[x] != 0) {
                ef += theta[x] * F;
                eb += theta[x] * B;
                ec += t->vh_close ? theta[x] : 0.0;
            }
        }
        Fm[i] = b->generated ? 0.0 : fm;
        Bm[i] = b->generated ? 0.0 : bm;
        EF[i] = ef;
        EB[i] = eb;
        Pc[i] = Pc[i - 1] + ec;
        b->cut_f = b->cut_b = 0;
        Z[i] = 0;
    }
    Z[S + 1] = 0;
    double AF0 = 0;
    for (size_t i = 0; i < S; i++)
        for (size_t k = i + 1; k <= S; k++) {
            double P = Pc[k - 1] - Pc[i], cuts = (double)(k - i - 1);
            double v1 = w[k] * EF[i] + w[i] * EB[k] - w[i] * w[k] * (1.0 + P);
            double C = w[i] * Bm[k] + Fm[i] * w[k] - Fm[i] * Bm[k];
            double v2 = Bm[k] * EF[i] + Fm[i] * EB[k] - Fm[i] * Bm[k] - C * P;
            double af, ab, k0, per;
            if (v1 >= v2 && v1 > 0) {
                af = w[k], ab = w[i], k0 = -w[i] * w[k], per = w[i] * w[k];
            } else if (v2 > 0) {
                af = Bm[k], ab = Fm[i], k0 = -Fm[i] * Bm[k], per = C;
            } else {
                continue;
            }
            /* F_i's weight, B_k's, the constant, and per segment between:
             * -per (1 - z_s) = -per + per z_s */
            if (i == 0)
                AF0 += af;
            else
                m->blocks[mc->block_start + i - 1].cut_f += af;
            m->blocks[mc->block_start + k - 1].cut_b += ab;
            K += k0 - per * cuts;
            if (k > i + 1) { /* segments i + 1 .. k - 1 */
                Z[i + 1] += per;
                Z[k] -= per;
            }
        }
    double z = 0;
    for (size_t i = 1; i <= S; i++) {
        z += Z[i];
        m->blocks[mc->block_start + i - 1].cut_z = z;
    }
    return r * r + 2.0 * (K + AF0 * r);
}

void ct_nona_model_set_server_row(ct_nona_model_t *m, const double *theta_ref, int *cut)
{
    if (cut)
        *cut = 0;
    server_row_linear(m);
    if (!theta_ref || !m->server_model || !m->reentry)
        return;
    size_t smax = 0;
    for (size_t j = 0; j < m->n_classes; j++)
        smax = m->classes[j].n_blocks > smax ? m->classes[j].n_blocks : smax;
    double *scratch = malloc(7 * (smax + 2) * sizeof(double));
    if (!scratch) /* the linearised row stands: valid, only weaker */
        return;
    double lin = ct_nona_server_row(m, theta_ref), m2 = m->m2_bg_s;
    for (size_t j = 0; j < m->n_classes; j++)
        m2 += m->beta[j] * server_cut_class(m, j, theta_ref, scratch) / (double)m->servers;
    free(scratch);
    m->server_cut = 1;
    for (size_t bi = 0; bi < m->n_blocks; bi++) { /* all-local's coefficient into the constant */
        ct_block_t *b = &m->blocks[bi];
        b->cut_s = 0;
        b->cut_s = row_coef(m, b, &m->trip[b->local_var]);
        m2 += m->beta[b->cls] * b->cut_s / (double)m->servers;
    }
    m->m2s_row = m2;
    server_row_fill(m);
    if (!(ct_nona_server_row(m, theta_ref) > lin)) {
        server_row_linear(m);
        return;
    }
    if (cut)
        *cut = 1;
}

void ct_nona_W_range(const ct_nona_model_t *m, double *lo, double *hi)
{
    double m2s = m->m2s_local;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        m2s += m->beta[b->cls] * b->q_floor / (double)m->servers; /* every triplet, listed or not */
    }
    *lo = ct_nona_server_wait(m, m2s);
    *hi = ct_nona_server_wait(m, m->m2s_local);
}

/* Opportunistic: per segment, the weakly connected components of its
 * intermediate tasks (branches) are the parts, part 0 with source and sink. */
void ct_nona_theta_branches(const ct_nona_model_t *m, double *theta)
{
    memset(theta, 0, m->n_vars * sizeof(double));
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        const ct_segment_t *seg = &m->classes[b->cls].split.segments[b->segment];
        size_t n = seg->n_inner, *parent = malloc((n ? n : 1) * sizeof(size_t));
        uint8_t *label = malloc(n ? n : 1);
        size_t pick = b->local_var;
        if (parent && label) {
            branch_labels(seg, label, parent);
            for (size_t t = 0; t < b->n_vars; t++) {
                const ct_triplet_t *tr = &b->parts.triplets[t];
                if (tr->k == 0 && tr->l == 0 && !memcmp(b->parts.assign + (size_t)tr->partition * n, label, n)) {
                    pick = b->var_start + t;
                    break;
                }
            }
        }
        free(parent);
        free(label);
        theta[pick] = 1.0;
    }
}
