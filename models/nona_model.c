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

#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GL_POINTS 32 /* exact for up to 64 remote parts */

void ct_nona_model_params_init(ct_nona_model_params_t *p)
{
    ct_partition_params_init(&p->partition);
    p->server_model = 1;
    p->root_choices = 2; /* pooled roots; 1 is the paper's uniform rule */
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

void ct_nona_model_set_root_share(ct_nona_model_t *m, double a)
{
    m->root_share = a < 0 ? 0 : a > 1 ? 1 : a;
    root_factors(m->root_choices, m->rho_s, m->root_share, &m->r_root, &m->r_part);
}

double ct_nona_root_share(const ct_nona_model_t *m, const double *theta)
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

void ct_nona_model_free(ct_nona_model_t *m)
{
    if (!m)
        return;
    for (size_t j = 0; j < m->n_classes; j++) {
        if (m->classes)
            ct_split_free(&m->classes[j].split);
        if (m->class_names)
            free(m->class_names[j]);
    }
    for (size_t b = 0; m->blocks && b < m->n_blocks; b++)
        ct_partitions_free(&m->blocks[b].parts);
    free(m->classes);
    free(m->class_names);
    free(m->beta);
    free(m->blocks);
    free(m->trip);
    free(m->branches);
    if (m->gl)
        gsl_integration_glfixed_table_free(m->gl);
    memset(m, 0, sizeof *m);
}

/* Appends the branches of triplet w (global variable number) of block b.
 * pre / sink_post: the job's work before the segment's parts (root and
 * earlier segments) and from its sink on; work: the whole job's. */
static void triplet_data(ct_nona_model_t *m, const ct_dag_t *g, const ct_segment_t *seg, const ct_block_t *b,
                         size_t w, ct_branch_t *scratch, double *batch, double pre, double sink_post, double work)
{
    const ct_partitions_t *pt = &b->parts;
    const ct_triplet_t *tr = &pt->triplets[w - b->var_start];
    size_t q = pt->n_parts[tr->partition], nb = q;
    ct_tripinfo_t *ti = &m->trip[w];
    for (size_t i = 0; i < q; i++)
        scratch[i] = (ct_branch_t){ 0.0, 0.0, i != tr->k };
    for (size_t k = 0; k < seg->n_inner; k++)
        scratch[pt->assign[(size_t)tr->partition * seg->n_inner + k]].a += g->time[seg->inner[k]] / m->speed;
    /* Server pieces (only parts, before any transfer time is added). */
    ti->q = 0.0;
    ti->remote_work = 0.0;
    ti->n_remote = q > 1 ? q - 1 : 0;
    if (q > 1) {
        double sq = (pre + scratch[tr->k].a) * (pre + scratch[tr->k].a) + sink_post * sink_post;
        for (size_t i = 0; i < q; i++)
            if (i != tr->k) {
                sq += scratch[i].a * scratch[i].a;
                ti->remote_work += scratch[i].a;
            }
        ti->q = sq - work * work;
    }
    ti->a1 = ti->a2 = 0.0;
    ti->n_crossing = 0;
    /* Transfers leave in batches: every crossing edge out of one task joins
     * the link queue when that task ends (batch[u]: their total time, u =
     * inner index, n_inner = the source). */
    for (size_t u = 0; u <= seg->n_inner; u++)
        batch[u] = 0.0;
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = g->bytes[seg->edges[j]];
        if (bytes > 0 && ct_triplet_crosses(seg, pt, tr, j))
            batch[seg->loc_from[j] == CT_SEG_SOURCE ? seg->n_inner : seg->loc_from[j]] += bytes / m->bandwidth;
    }
    for (size_t j = 0; j < seg->n_edges; j++) {
        double bytes = g->bytes[seg->edges[j]];
        if (bytes <= 0 || !ct_triplet_crosses(seg, pt, tr, j))
            continue;
        double S = bytes / m->bandwidth;
        size_t from = seg->loc_from[j] == CT_SEG_SOURCE ? seg->n_inner : seg->loc_from[j];
        size_t lf = seg->loc_from[j], lt = seg->loc_to[j], branch;
        if (lf == CT_SEG_SOURCE && lt == CT_SEG_SINK) {
            scratch[nb] = (ct_branch_t){ 0.0, 0.0, 0 };
            branch = nb++;
        } else if (lt == CT_SEG_SINK) {
            branch = ct_triplet_part(pt, tr, lf);
        } else {
            branch = ct_triplet_part(pt, tr, lt);
        }
        /* FIFO link, batch arrivals (M^X/G/1): the batch waits phi, and a
         * transfer also waits for the batch members ahead of it: half the
         * others on average over their order. */
        if (m->link_batches) {
            scratch[branch].a += S + 0.5 * (batch[from] - S);
        } else {
            scratch[branch].a += S;
            ti->a2 += S * S;
        }
        scratch[branch].n += 1.0;
        ti->a1 += S;
        ti->n_crossing++;
    }
    if (m->link_batches) /* the PK numerator counts each batch's squared total */
        for (size_t u = 0; u <= seg->n_inner; u++)
            ti->a2 += batch[u] * batch[u];
    ti->branch_start = m->n_branches;
    ti->n_branches = nb;
    memcpy(m->branches + m->n_branches, scratch, nb * sizeof(ct_branch_t));
    m->n_branches += nb;
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
    /* Pass 1: contract, split, count blocks; check the compute load. */
    double compute_load = 0; /* servers kept busy by compute alone */
    for (size_t j = 0; j < s->n_classes; j++) {
        const ct_class_t *c = &s->classes[j];
        ct_model_class_t *mc = &m->classes[j];
        ct_dag_t contracted;
        m->beta[j] = c->rate;
        if (!(m->class_names[j] = ct_strdup(c->name, err))) {
            ct_nona_model_free(m);
            return CT_ENOMEM;
        }
        if ((st = ct_dag_contract(&c->dag, &contracted, NULL, err)) != CT_OK) {
            ct_error_prefix(err, "%s: class '%s': ", label, c->name);
            ct_nona_model_free(m);
            return st;
        }
        st = ct_split_compute(&contracted, &mc->split, err);
        ct_dag_destroy(&contracted);
        if (st != CT_OK) {
            ct_error_prefix(err, "%s: class '%s': ", label, c->name);
            ct_nona_model_free(m);
            return st;
        }
        const ct_split_t *sp = &mc->split;
        mc->base = sp->dag.time[sp->bottlenecks[0]] / s->speed;
        for (size_t i = 0; i < sp->n_segments; i++)
            mc->base += sp->dag.time[sp->segments[i].sink] / s->speed;
        double work = 0;
        for (size_t v = 0; v < sp->dag.n_tasks; v++)
            work += sp->dag.time[v] / s->speed;
        mc->work = work;
        compute_load += c->rate * work;
        mc->block_start = m->n_blocks;
        mc->n_blocks = sp->n_segments;
        m->n_blocks += sp->n_segments;
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
    m->root_choices = p->root_choices;
    m->rho_s = s->rho_bg_s + compute_load / (double)s->servers;
    m->m2_bg_s = s->m2_bg_s;
    m->m2s_local = s->m2_bg_s;
    for (size_t j = 0; j < s->n_classes; j++)
        m->m2s_local += s->classes[j].rate * m->classes[j].work * m->classes[j].work / (double)s->servers;
    ct_nona_model_set_root_share(m, 1.0);
    if (!(m->gl = gsl_integration_glfixed_table_alloc(GL_POINTS))) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    /* Pass 2: enumerate triplets per block. */
    m->blocks = calloc(m->n_blocks ? m->n_blocks : 1, sizeof(ct_block_t));
    if (!m->blocks) {
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory");
    }
    size_t max_inner = 0, nbr = 0;
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
            b->var_start = m->n_vars;
            if ((st = ct_partitions_enumerate(seg->n_inner, &p->partition, seglabel, &b->parts, err)) != CT_OK) {
                m->n_blocks = mc->block_start + i; /* free only what exists */
                ct_nona_model_free(m);
                return st;
            }
            b->n_vars = b->parts.n_triplets;
            b->local_var = b->var_start; /* first partition is "all in part 0", first (k, l) is (0, 0) */
            m->n_vars += b->n_vars;
            if (seg->n_inner > max_inner)
                max_inner = seg->n_inner;
            for (size_t t = 0; t < b->n_vars; t++)
                nbr += (size_t)b->parts.n_parts[b->parts.triplets[t].partition] + 1;
        }
    }
    m->trip = calloc(m->n_vars ? m->n_vars : 1, sizeof(ct_tripinfo_t));
    m->branches = malloc((nbr ? nbr : 1) * sizeof(ct_branch_t));
    ct_branch_t *scratch = malloc((max_inner + 2) * sizeof(ct_branch_t));
    double *batch = malloc((max_inner + 1) * sizeof(double));
    if (!m->trip || !m->branches || !scratch || !batch) {
        free(scratch);
        free(batch);
        ct_nona_model_free(m);
        return ct_error_set(err, CT_ENOMEM, "out of memory for %zu triplets", m->n_vars);
    }
    for (size_t j = 0; j < m->n_classes; j++) {
        const ct_model_class_t *mc = &m->classes[j];
        const ct_split_t *sp = &mc->split;
        double pre = sp->dag.time[sp->bottlenecks[0]] / s->speed;
        for (size_t i = 0; i < mc->n_blocks; i++) {
            const ct_block_t *b = &m->blocks[mc->block_start + i];
            const ct_segment_t *seg = &sp->segments[b->segment];
            double inner = 0;
            for (size_t k = 0; k < seg->n_inner; k++)
                inner += sp->dag.time[seg->inner[k]] / s->speed;
            double sink_post = mc->work - pre - inner;
            for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
                triplet_data(m, &sp->dag, seg, b, w, scratch, batch, pre, sink_post, mc->work);
            pre += inner + sp->dag.time[seg->sink] / s->speed;
        }
    }
    free(scratch);
    free(batch);
    return CT_OK;
}

double ct_nona_server_wait(const ct_nona_model_t *m, double m2s)
{
    if (m2s < m->m2_bg_s)
        m2s = m->m2_bg_s;
    return m->server_model ? m2s / (2.0 * (1.0 - m->rho_s)) : 0.0;
}

double ct_nona_triplet_time(const ct_nona_model_t *m, size_t w, double phi, double W)
{
    const ct_tripinfo_t *ti = &m->trip[w];
    const ct_branch_t *br = m->branches + ti->branch_start;
    double amax = 0.0;
    for (size_t i = 0; i < ti->n_branches; i++) {
        double t = br[i].a + br[i].n * phi;
        if (t > amax)
            amax = t;
    }
    double Wp = m->r_part * W, rho = m->rho_s;
    if (!m->server_model || ti->n_remote == 0 || !(Wp > 0) || !(rho > 0))
        return amax;
    /* Each remote branch i ends at t_i + X_i, X_i = 0 w.p. 1 - rho, else
     * Exp(mu), mu = rho / Wp. With c_i = rho exp(-mu (amax - t_i)),
     * E[max] = amax + (1/mu) int_0^1 (1 - prod_i (1 - c_i z)) / z dz.
     * The integrand is a polynomial of degree k - 1 (k remote branches):
     * with e_j the elementary symmetric polynomials of the c_i, the
     * integral is sum_j (-1)^(j+1) e_j / j, exact. Its alternating terms
     * stay small for k <= 6 (e_j <= 20); beyond, Gauss-Legendre on 32
     * points, also exact for k <= 64 and stable for any k. */
    double mu = rho / Wp, integral = 0;
    if (ti->n_remote <= 6) {
        double e[7] = { 1, 0, 0, 0, 0, 0, 0 };
        size_t k = 0;
        for (size_t i = 0; i < ti->n_branches; i++)
            if (br[i].remote) {
                double ci = rho * exp(-mu * (amax - br[i].a - br[i].n * phi));
                k++;
                for (size_t j = k; j > 0; j--)
                    e[j] += ci * e[j - 1];
            }
        for (size_t j = k; j > 0; j--)
            integral += (j % 2 ? e[j] : -e[j]) / (double)j;
        return amax + integral / mu;
    }
    const gsl_integration_glfixed_table *gl = m->gl;
    for (size_t g = 0; g < GL_POINTS; g++) {
        double z, wt;
        gsl_integration_glfixed_point(0.0, 1.0, g, &z, &wt, gl);
        double prod = 1.0;
        for (size_t i = 0; i < ti->n_branches; i++)
            if (br[i].remote)
                prod *= 1.0 - rho * exp(-mu * (amax - br[i].a - br[i].n * phi)) * z;
        integral += wt * (1.0 - prod) / z;
    }
    return amax + integral / mu;
}

void ct_nona_triplet_grad(const ct_nona_model_t *m, size_t w, double phi, double W, double *d_phi, double *d_W)
{
    double M = ct_nona_triplet_time(m, w, phi, W);
    double hp = 1e-7 * (phi > 1e-9 ? phi : 1e-9), hw = 1e-7 * (W > 1e-9 ? W : 1e-9);
    *d_phi = (ct_nona_triplet_time(m, w, phi + hp, W) - M) / hp;
    *d_W = m->server_model ? (ct_nona_triplet_time(m, w, phi, W + hw) - M) / hw : 0.0;
}

void ct_nona_evaluate(const ct_nona_model_t *m, const double *theta, ct_nona_eval_t *out, double *tau)
{
    double rho = m->rho_bg, m2 = m->m2_bg, beta_sum = 0, m2s = m->m2s_local;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        double beta = m->beta[b->cls];
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++) {
            rho += beta * theta[w] * m->trip[w].a1;
            m2 += beta * theta[w] * m->trip[w].a2;
            m2s += beta * theta[w] * m->trip[w].q / (double)m->servers;
        }
    }
    out->rho = rho;
    out->m2 = m2;
    out->rho_s = m->rho_s;
    out->W = ct_nona_server_wait(m, m2s);
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
        double t = mc->base + out->W_root;
        for (size_t bi = mc->block_start; bi < mc->block_start + mc->n_blocks; bi++) {
            const ct_block_t *b = &m->blocks[bi];
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
    for (size_t w = 0; w < m->n_vars; w++)
        if (-m->trip[w].q > qmax)
            qmax = -m->trip[w].q;
    for (size_t j = 0; j < m->n_classes; j++)
        B += m->beta[j];
    return hi + B * m->r_root * qmax / (2.0 * (double)m->servers * (1.0 - m->rho_s));
}

void ct_nona_W_range(const ct_nona_model_t *m, double *lo, double *hi)
{
    double m2s = m->m2s_local;
    for (size_t bi = 0; bi < m->n_blocks; bi++) {
        const ct_block_t *b = &m->blocks[bi];
        double qmin = 0;
        for (size_t w = b->var_start; w < b->var_start + b->n_vars; w++)
            if (m->trip[w].q < qmin)
                qmin = m->trip[w].q;
        m2s += m->beta[b->cls] * qmin / (double)m->servers;
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
            /* Canonical labels: parts numbered by first appearance. */
            size_t next = 0;
            for (size_t i = 0; i < n; i++) {
                size_t r = i;
                while (parent[r] != r)
                    r = parent[r];
                label[i] = r == i ? (uint8_t)next++ : label[r];
            }
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
