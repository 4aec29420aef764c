#include "graphveil/maxvar_dual.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "graphveil/interrupt.hpp"

namespace graphveil {

namespace {

// Newton counts as converged at this residual when rounding stops it short of QpOptions::tol.
constexpr double kNewtonFloor = 1e-8;

inline double clip01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// y = (w A_F A_F^T + diag(shift)) x over the free pairs (fu[k], fv[k]).
template <class Index>
void apply(const std::vector<Index>& fu, const std::vector<Index>& fv, double w, const std::vector<double>& shift,
           const std::vector<double>& x, std::vector<double>& y) {
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = shift[i] * x[i];
    for (std::size_t k = 0; k < fu.size(); ++k) {
        const double t = w * (x[fu[k]] + x[fv[k]]);
        y[fu[k]] += t;
        y[fv[k]] += t;
    }
}

// Jacobi-preconditioned CG for (w A_F A_F^T + diag(shift)) x = b, from x = 0, stopping at
// ||residual||_2 <= abs_tol. diag = w * free_degree + shift. Returns the iterations used.
template <class Index>
std::int64_t pcg(const std::vector<Index>& fu, const std::vector<Index>& fv, double w, const std::vector<double>& shift,
                 const std::vector<double>& diag, const std::vector<double>& b, double abs_tol, std::int64_t max_iter,
                 std::vector<double>& x) {
    const std::size_t n = b.size();
    x.assign(n, 0.0);
    std::vector<double> res(b), z(n), dir(n), q(n);
    for (std::size_t i = 0; i < n; ++i) z[i] = res[i] / diag[i];
    dir = z;
    double rz = dot(res, z);
    if (std::sqrt(dot(res, res)) <= abs_tol) return 0;
    std::int64_t it = 0;
    while (it < max_iter) {
        ++it;
        interrupt::check();  // an iteration is O(pairs)
        apply(fu, fv, w, shift, dir, q);
        const double dq = dot(dir, q);
        if (!(dq > 0.0)) break;  // breakdown: keep the iterate found so far
        const double alpha = rz / dq;
        double rr = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            x[i] += alpha * dir[i];
            res[i] -= alpha * q[i];
            rr += res[i] * res[i];
        }
        if (std::sqrt(rr) <= abs_tol) break;
        double rz_new = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            z[i] = res[i] / diag[i];
            rz_new += res[i] * z[i];
        }
        const double beta = rz_new / rz;
        rz = rz_new;
        for (std::size_t i = 0; i < n; ++i) dir[i] = z[i] + beta * dir[i];
    }
    return it;
}

// CG preconditioned by symmetric Gauss-Seidel with Eisenstat's trick, for the bipartite step:
// B = D + L + L^T with L the strictly lower part of w A_F A_F^T (w on every free pair) and D its
// diagonal (1 where a node has no free pair: its right-hand side is 0, so its unknown stays 0).
// CG runs on D^(1/2) (D + L)^-1 B (D + L^T)^-1 D^(1/2), whose product with a vector costs one
// forward and one backward sweep over the free pairs, as much as one product with B: about half
// the work of Jacobi-preconditioned CG for the same accuracy on these Laplacian-like systems.
// Stops when the preconditioned residual falls to rel_tol of its start. Returns the iterations.
struct SweepCsr {
    std::vector<std::int64_t> lower_start, upper_start;
    std::vector<std::int64_t> lower, upper;
    std::vector<double> sqrt_diag, y, res, dir, q, t, u;
};

template <class Index>
std::int64_t pcg_eisenstat(const std::vector<Index>& fu, const std::vector<Index>& fv, double w,
                           const std::vector<double>& diag, const std::vector<double>& b, double rel_tol,
                           std::int64_t max_iter, SweepCsr& s, std::vector<double>& x) {
    const std::size_t n = b.size();
    s.lower_start.assign(n + 1, 0);
    s.upper_start.assign(n + 1, 0);
    for (std::size_t k = 0; k < fu.size(); ++k) {
        const auto hi = static_cast<std::size_t>(std::max(fu[k], fv[k]));
        const auto lo = static_cast<std::size_t>(std::min(fu[k], fv[k]));
        ++s.lower_start[hi + 1];
        ++s.upper_start[lo + 1];
    }
    for (std::size_t i = 0; i < n; ++i) {
        s.lower_start[i + 1] += s.lower_start[i];
        s.upper_start[i + 1] += s.upper_start[i];
    }
    s.lower.resize(fu.size());
    s.upper.resize(fu.size());
    {
        std::vector<std::int64_t> lf(s.lower_start.begin(), s.lower_start.end() - 1);
        std::vector<std::int64_t> uf(s.upper_start.begin(), s.upper_start.end() - 1);
        for (std::size_t k = 0; k < fu.size(); ++k) {
            const std::int64_t hi = std::max<std::int64_t>(fu[k], fv[k]), lo = std::min<std::int64_t>(fu[k], fv[k]);
            s.lower[static_cast<std::size_t>(lf[static_cast<std::size_t>(hi)]++)] = lo;
            s.upper[static_cast<std::size_t>(uf[static_cast<std::size_t>(lo)]++)] = hi;
        }
    }
    // (D + L) z = v, forward; (D + L^T) z = v, backward.
    auto forward = [&](const std::vector<double>& v, std::vector<double>& z) {
        for (std::size_t i = 0; i < n; ++i) {
            double acc = v[i];
            for (std::int64_t j = s.lower_start[i]; j < s.lower_start[i + 1]; ++j)
                acc -= w * z[static_cast<std::size_t>(s.lower[static_cast<std::size_t>(j)])];
            z[i] = acc / diag[i];
        }
    };
    auto backward = [&](const std::vector<double>& v, std::vector<double>& z) {
        for (std::size_t i = n; i-- > 0;) {
            double acc = v[i];
            for (std::int64_t j = s.upper_start[i]; j < s.upper_start[i + 1]; ++j)
                acc -= w * z[static_cast<std::size_t>(s.upper[static_cast<std::size_t>(j)])];
            z[i] = acc / diag[i];
        }
    };
    s.sqrt_diag.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.sqrt_diag[i] = std::sqrt(diag[i]);
    s.y.assign(n, 0.0);
    s.res.resize(n);
    s.dir.resize(n);
    s.q.resize(n);
    s.t.resize(n);
    s.u.resize(n);
    forward(b, s.res);
    for (std::size_t i = 0; i < n; ++i) s.res[i] *= s.sqrt_diag[i];
    s.dir = s.res;
    double rr = dot(s.res, s.res);
    const double stop = rel_tol * rel_tol * rr;
    std::int64_t it = 0;
    while (rr > stop && it < max_iter) {
        ++it;
        interrupt::check();  // an iteration is O(pairs)
        // q = D^(1/2) [t + (D + L)^-1 (D^(1/2) dir - D t)], t = (D + L^T)^-1 D^(1/2) dir.
        for (std::size_t i = 0; i < n; ++i) s.u[i] = s.sqrt_diag[i] * s.dir[i];
        backward(s.u, s.t);
        for (std::size_t i = 0; i < n; ++i) s.u[i] -= diag[i] * s.t[i];
        forward(s.u, s.q);
        for (std::size_t i = 0; i < n; ++i) s.q[i] = s.sqrt_diag[i] * (s.t[i] + s.q[i]);
        const double dq = dot(s.dir, s.q);
        if (!(dq > 0.0)) break;  // breakdown: keep the iterate found so far
        const double alpha = rr / dq;
        double rr_new = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            s.y[i] += alpha * s.dir[i];
            s.res[i] -= alpha * s.q[i];
            rr_new += s.res[i] * s.res[i];
        }
        const double beta = rr_new / rr;
        rr = rr_new;
        for (std::size_t i = 0; i < n; ++i) s.dir[i] = s.res[i] + beta * s.dir[i];
    }
    for (std::size_t i = 0; i < n; ++i) s.u[i] = s.sqrt_diag[i] * s.y[i];
    x.resize(n);
    backward(s.u, x);
    return it;
}

// r = d - A p; returns max |r_u|.
template <class Index>
double residual(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                const double* p, std::vector<double>& r) {
    r.assign(degree, degree + n);
    for (std::int64_t e = 0; e < np; ++e) {
        r[pu[e]] -= p[e];
        r[pv[e]] -= p[e];
    }
    double worst = 0.0;
    for (std::int64_t u = 0; u < n; ++u) worst = std::max(worst, std::abs(r[u]));
    return worst;
}

void check_counts(std::int64_t n, std::int64_t np) {
    if (n < 0 || np < 0) throw std::invalid_argument("node and pair counts must be non-negative");
}

// Directed parts (the bipartite QP of out- and in-copies, side[u] = +1 or -1): the Newton step.
// Every pair joins a +1 node to a -1 node, so on each component C of the free pairs the vector
// z_C = side (on C, 0 elsewhere) moves no free pair of C: it is a null vector of A_F A_F^T, and
// only the clipped pairs leaving C feel it. Shifting every part of the step by a Levenberg-Marquardt
// term (as the undirected step does) is ruinous there: components joined by a few free pairs make
// A_F A_F^T nearly singular too, the shift then decides the step along them, and Newton crawls
// (160 iterations on a web-NotreDame part). Instead the residual's part along each z_C is taken
// out, the rest solved with a vanishing shift to a tight CG tolerance (pcg_eisenstat), the step's
// part along each z_C removed again (the preconditioner does not keep it out), and each component
// moved along z_C as far as the dual rises along z_C alone (component_moves). Component labels are
// union-find roots (deterministic). Returns the CG iterations used.
struct BipartiteWork {
    std::vector<std::int64_t> parent, first, fill;
    std::vector<double> size, zr, zd, move, rp, diag, entry;
    SweepCsr sweeps;
};

inline std::int64_t find_root(std::vector<std::int64_t>& parent, std::int64_t u) {
    while (parent[u] != u) {
        parent[u] = parent[parent[u]];
        u = parent[u];
    }
    return u;
}

constexpr double kBipartiteShift = 1e-10;   // keeps the CG system definite off the null vectors
constexpr double kBipartiteForcing = 1e-3;  // CG stops at this relative residual

// The dual along z_C alone, from h (h_e = c_e + (lambda_u + lambda_v) / 2): its slope is
// zr_C = z_C . r, and only the pairs leaving C change, all clipped (a free pair joins two nodes of
// one component). Moving C by c sign(zr_C) moves such a pair's h by c / 2 towards the box or away
// from it; one moving in enters at c = 2 dist(h, [0, 1]) and adds curvature 1/2 until it crosses
// the box, 2 further on. So |slope| = |zr_C| - (1/2) sum_e clip(c - entry_e, 0, 2): the move is its
// first zero (or the last crossing, if the pairs cannot absorb zr_C), found by a sweep over the
// sorted entries. Writes w.move per component root.
template <class Index>
void component_moves(std::int64_t np, const Index* pu, const Index* pv, const double* side,
                     const std::vector<double>& h, BipartiteWork& w) {
    const std::size_t N = w.parent.size();
    w.first.assign(N + 1, 0);
    auto entering = [&](std::int64_t x, double he, double& entry) {
        const std::int64_t c = w.parent[x];
        const double direction = (w.zr[c] > 0.0 ? 1.0 : -1.0) * side[x];
        if (w.zr[c] == 0.0 || (direction > 0.0 ? he > 0.0 : he < 1.0)) return false;
        entry = direction > 0.0 ? -2.0 * he : 2.0 * (he - 1.0);
        return true;
    };
    double entry = 0.0;
    for (int pass = 0; pass < 2; ++pass) {
        for (std::int64_t e = 0; e < np; ++e) {
            const std::int64_t a = pu[e], b = pv[e];
            if (w.parent[a] == w.parent[b]) continue;
            for (const std::int64_t x : {a, b}) {
                if (!entering(x, h[e], entry)) continue;
                const auto c = static_cast<std::size_t>(w.parent[x]);
                if (pass == 0)
                    ++w.first[c + 1];
                else
                    w.entry[static_cast<std::size_t>(w.fill[c]++)] = entry;
            }
        }
        if (pass == 0) {
            for (std::size_t c = 0; c < N; ++c) w.first[c + 1] += w.first[c];
            w.entry.resize(static_cast<std::size_t>(w.first[N]));
            w.fill.assign(w.first.begin(), w.first.end() - 1);
        }
    }
    w.move.assign(N, 0.0);
    for (std::size_t c = 0; c < N; ++c) {
        const auto lo = w.entry.begin() + w.first[c], hi = w.entry.begin() + w.first[c + 1];
        if (lo == hi) continue;
        std::sort(lo, hi);
        // Sweep the events: entries (curvature + 1/2) and exits at entry + 2 (curvature - 1/2).
        double slope = std::abs(w.zr[c]), curvature = 0.0, at = 0.0;
        auto in = lo, out = lo;
        while (out != hi) {
            const bool entering_next = in != hi && *in <= *out + 2.0;
            const double next = entering_next ? *in : *out + 2.0;
            if (curvature > 0.0 && slope - curvature * (next - at) <= 0.0) break;
            slope -= curvature * (next - at);
            at = next;
            if (entering_next) {
                curvature += 0.5;
                ++in;
            } else {
                curvature -= 0.5;
                ++out;
            }
        }
        const double distance = out == hi ? at : at + slope / curvature;
        w.move[c] = w.zr[c] > 0.0 ? distance : -distance;
    }
}

template <class Index>
std::int64_t bipartite_direction(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* side,
                                 const std::vector<Index>& fu, const std::vector<Index>& fv,
                                 const std::vector<double>& free_degree, const std::vector<double>& r,
                                 const std::vector<double>& h, std::int64_t max_cg, BipartiteWork& w,
                                 std::vector<double>& delta) {
    const auto N = static_cast<std::size_t>(n);
    w.parent.resize(N);
    for (std::size_t u = 0; u < N; ++u) w.parent[u] = static_cast<std::int64_t>(u);
    for (std::size_t k = 0; k < fu.size(); ++k) {
        const std::int64_t a = find_root(w.parent, fu[k]), b = find_root(w.parent, fv[k]);
        if (a != b) w.parent[std::max(a, b)] = std::min(a, b);
    }
    for (std::size_t u = 0; u < N; ++u) w.parent[u] = find_root(w.parent, static_cast<std::int64_t>(u));
    w.size.assign(N, 0.0);
    w.zr.assign(N, 0.0);
    w.zd.assign(N, 0.0);
    for (std::size_t u = 0; u < N; ++u) {
        w.size[w.parent[u]] += 1.0;
        w.zr[w.parent[u]] += side[u] * r[u];
    }
    w.rp.resize(N);
    w.diag.resize(N);
    for (std::size_t u = 0; u < N; ++u) {
        const std::int64_t c = w.parent[u];
        w.rp[u] = r[u] - side[u] * w.zr[c] / w.size[c];
        w.diag[u] = free_degree[u] == 0.0 ? 1.0 : 0.5 * free_degree[u] + kBipartiteShift;
    }
    const std::int64_t cg = pcg_eisenstat(fu, fv, 0.5, w.diag, w.rp, kBipartiteForcing, max_cg, w.sweeps, delta);
    component_moves(np, pu, pv, side, h, w);
    for (std::size_t u = 0; u < N; ++u) w.zd[w.parent[u]] += side[u] * delta[u];
    for (std::size_t u = 0; u < N; ++u) {
        const std::int64_t c = w.parent[u];
        delta[u] += side[u] * (w.move[c] - w.zd[c] / w.size[c]);
    }
    return cg;
}

// Maximises the dual of  min sum_e (x_e - c_e)^2  s.t. A x = d, 0 <= x <= 1  (c = 0 when center
// is null: the MaxVar objective; c = a point to project otherwise) from the multipliers in lam.
// x_e(lambda) = clip(c_e + (lambda_u + lambda_v) / 2, 0, 1). Returns max_u |r_u| at the end.
template <class Index>
double newton_dual(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                   const double* center, const double* side, std::vector<double>& lam, const QpOptions& options,
                   QpStats& stats) {
    const auto N = static_cast<std::size_t>(n);
    std::vector<double> pairs_at(N, 0.0);
    for (std::int64_t e = 0; e < np; ++e) {
        pairs_at[pu[e]] += 1.0;
        pairs_at[pv[e]] += 1.0;
    }
    std::vector<double> r(N), ap(N), trial(N), delta, shift(N), diag(N), free_degree(N);
    auto c = [center](std::int64_t e) { return center ? center[e] : 0.0; };

    // Dual value g and gradient r = d - A x(lambda); returns max |r|.
    auto evaluate = [&](const std::vector<double>& l, double& g, double& r2) {
        ++stats.evaluations;
        std::fill(ap.begin(), ap.end(), 0.0);
        g = 0.0;
        for (std::int64_t e = 0; e < np; ++e) {
            const double s = l[pu[e]] + l[pv[e]];
            const double ce = c(e);
            const double xe = clip01(ce + 0.5 * s);
            ap[pu[e]] += xe;
            ap[pv[e]] += xe;
            g += (xe - ce) * (xe - ce) - s * xe;
        }
        double worst = 0.0;
        r2 = 0.0;
        for (std::size_t u = 0; u < N; ++u) {
            g += l[u] * degree[u];
            r[u] = degree[u] - ap[u];
            r2 += r[u] * r[u];
            worst = std::max(worst, std::abs(r[u]));
        }
        return worst;
    };

    double g = 0.0, r2 = 0.0;
    double worst = evaluate(lam, g, r2);
    std::vector<Index> fu, fv;
    std::vector<double> r_old, h_all;
    BipartiteWork work;
    std::int64_t iterations = 0;
    while (worst > options.tol && iterations < options.max_newton) {
        ++iterations;
        interrupt::check();
        fu.clear();
        fv.clear();
        std::fill(free_degree.begin(), free_degree.end(), 0.0);
        if (side) h_all.resize(static_cast<std::size_t>(np));
        for (std::int64_t e = 0; e < np; ++e) {
            const double h = c(e) + 0.5 * (lam[pu[e]] + lam[pv[e]]);
            if (side) h_all[static_cast<std::size_t>(e)] = h;
            if (h > 0.0 && h < 1.0) {
                fu.push_back(pu[e]);
                fv.push_back(pv[e]);
                free_degree[pu[e]] += 1.0;
                free_degree[pv[e]] += 1.0;
            }
        }
        if (side) {
            stats.cg_iterations +=
                bipartite_direction(n, np, pu, pv, side, fu, fv, free_degree, r, h_all, options.max_cg, work, delta);
        } else {
            const double rnorm = std::sqrt(r2);
            // Levenberg-Marquardt shift: vanishes with the residual (fast local convergence),
            // keeps the system positive definite. A node whose pairs are all clipped gets the
            // curvature it would have if they were free, so its step has the right scale.
            const double mu = std::min(1e-2, rnorm) + 1e-12;
            for (std::size_t u = 0; u < N; ++u) {
                shift[u] = mu + (free_degree[u] == 0.0 ? 0.5 * pairs_at[u] : 0.0);
                diag[u] = 0.5 * free_degree[u] + shift[u];
            }
            const double eta = std::min(0.1, std::sqrt(rnorm));
            stats.cg_iterations += pcg(fu, fv, 0.5, shift, diag, r, eta * rnorm, options.max_cg, delta);
        }
        const double slope = dot(r, delta);
        if (!(slope > 0.0)) break;
        // Backtracking on g (Armijo). Near the solution the change of g drowns in rounding (g is
        // a sum over all pairs), so there only a step that shrinks the residual norm counts.
        r_old = r;
        double t = 1.0, g_new = 0.0, r2_new = 0.0, worst_new = 0.0;
        bool accepted = false;
        for (int k = 0; k < 30; ++k) {
            for (std::size_t u = 0; u < N; ++u) trial[u] = lam[u] + t * delta[u];
            worst_new = evaluate(trial, g_new, r2_new);
            const bool g_reliable = slope * t > 1e-12 * (1.0 + std::abs(g));
            if ((g_reliable && g_new >= g + 1e-4 * t * slope) || r2_new <= (1.0 - 1e-4 * t) * r2) {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if (!accepted) {
            r = r_old;
            break;
        }
        lam.swap(trial);
        g = g_new;
        r2 = r2_new;
        worst = worst_new;
        // Below 1e-8 a heavily shortened step means rounding, not curvature, limits progress
        // (r sums up to max-degree many terms); the repair step takes it from here.
        if (worst <= kNewtonFloor && t < 1e-3) break;
    }
    stats.iterations += iterations;
    stats.dual_objective = g;
    return worst;
}

// Least-norm moves of the pairs strictly inside the box, each shortened to keep the box.
// Returns max_u |r_u| after the last round.
template <class Index>
double free_pair_rounds(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                        double* p, double tol, std::int64_t max_rounds, std::int64_t max_cg, QpStats& stats) {
    std::vector<double> r;
    double worst = residual(n, np, pu, pv, degree, p, r);
    std::vector<Index> fu, fv;
    std::vector<std::int64_t> free_ids;
    std::vector<double> free_degree(static_cast<std::size_t>(n)), shift(static_cast<std::size_t>(n)),
        diag(static_cast<std::size_t>(n)), y, rhs, delta, saved;
    for (std::int64_t round = 0; round < max_rounds && worst > tol; ++round) {
        fu.clear();
        fv.clear();
        free_ids.clear();
        std::fill(free_degree.begin(), free_degree.end(), 0.0);
        for (std::int64_t e = 0; e < np; ++e)
            if (p[e] > 0.0 && p[e] < 1.0) {
                free_ids.push_back(e);
                fu.push_back(pu[e]);
                fv.push_back(pv[e]);
                free_degree[pu[e]] += 1.0;
                free_degree[pv[e]] += 1.0;
            }
        if (free_ids.empty()) break;
        // A node without free pairs cannot move: pin its unknown to 0 (identity row, zero rhs).
        // The tiny shift regularises bipartite components, whose signless Laplacian is singular;
        // its null vectors z satisfy A_F^T z = 0 and so never reach the pair update.
        rhs = r;
        for (std::int64_t u = 0; u < n; ++u) {
            if (free_degree[u] == 0.0) {
                shift[u] = 1.0;
                rhs[u] = 0.0;
            } else {
                shift[u] = 1e-14 * free_degree[u];
            }
            diag[u] = free_degree[u] + shift[u];
        }
        stats.cg_iterations += pcg(fu, fv, 1.0, shift, diag, rhs, 0.1 * tol, max_cg, y);
        double alpha = 1.0;
        delta.resize(free_ids.size());
        for (std::size_t k = 0; k < free_ids.size(); ++k) {
            const double dlt = y[fu[k]] + y[fv[k]];
            delta[k] = dlt;
            const double pe = p[free_ids[k]];
            if (dlt > 0.0) alpha = std::min(alpha, (1.0 - pe) / dlt);
            if (dlt < 0.0) alpha = std::min(alpha, -pe / dlt);
        }
        saved.resize(free_ids.size());
        for (std::size_t k = 0; k < free_ids.size(); ++k) {
            double& pe = p[free_ids[k]];
            saved[k] = pe;
            // Only rounding can carry pe past a bound here; it lands on the bound.
            pe = clip01(pe + alpha * delta[k]);
        }
        const double next = residual(n, np, pu, pv, degree, p, r);
        if (!(next < worst)) {  // no progress: undo the round and stop
            for (std::size_t k = 0; k < free_ids.size(); ++k) p[free_ids[k]] = saved[k];
            break;
        }
        const bool slow = next > 0.5 * worst;
        worst = next;
        ++stats.repair_iterations;
        if (slow) break;  // pairs keep hitting bounds: leave it to the caller's projection
    }
    return worst;
}

// The constraints alone force some pairs: a node whose remaining degree equals its number of
// undecided pairs needs all of them at 1 (the box caps each at 1), a node with remaining degree
// 0 needs all at 0. Fixing them changes the neighbours' remaining degrees, so this peels in
// rounds (a queue). Exact for any objective, so it serves the MaxVar solve and the repair's
// projection alike. In MaxVar it fixes every edge at a node without potential edges.
// The reduced problem keeps only undecided pairs and the nodes they touch, relabelled.
template <class Index>
struct Reduced {
    std::vector<double> fixed;           // per original pair: 0, 1, or -1 (undecided)
    std::vector<std::int64_t> pair_id;   // reduced pair -> original pair
    std::vector<std::int64_t> node_id;   // reduced node -> original node
    std::vector<Index> pu, pv;           // reduced pairs in reduced node ids
    std::vector<double> degree, center;  // reduced right-hand side (and centre, if any)
    double fixed_ones = 0.0;             // number of pairs fixed at 1
};

template <class Index>
Reduced<Index> presolve(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                        const double* center) {
    Reduced<Index> out;
    const auto N = static_cast<std::size_t>(n);
    std::vector<std::int64_t> start(N + 1, 0);
    for (std::int64_t e = 0; e < np; ++e) {
        ++start[pu[e] + 1];
        ++start[pv[e] + 1];
    }
    for (std::size_t u = 0; u < N; ++u) start[u + 1] += start[u];
    std::vector<std::int64_t> at(static_cast<std::size_t>(start[N]));
    {
        std::vector<std::int64_t> fill(start);
        for (std::int64_t e = 0; e < np; ++e) {
            at[fill[pu[e]]++] = e;
            at[fill[pv[e]]++] = e;
        }
    }
    std::vector<double> remaining(degree, degree + n), open(N);
    for (std::size_t u = 0; u < N; ++u) open[u] = static_cast<double>(start[u + 1] - start[u]);
    out.fixed.assign(static_cast<std::size_t>(np), -1.0);
    auto decided = [&](std::size_t u) { return open[u] > 0 && (remaining[u] == open[u] || remaining[u] == 0.0); };
    std::vector<std::size_t> queue;
    for (std::size_t u = 0; u < N; ++u)
        if (decided(u)) queue.push_back(u);
    while (!queue.empty()) {
        const std::size_t u = queue.back();
        queue.pop_back();
        if (!decided(u)) continue;
        const double value = remaining[u] == 0.0 ? 0.0 : 1.0;
        for (std::int64_t j = start[u]; j < start[u + 1]; ++j) {
            const std::int64_t e = at[j];
            if (out.fixed[e] >= 0.0) continue;
            out.fixed[e] = value;
            out.fixed_ones += value;
            const auto w = static_cast<std::size_t>(pu[e] == static_cast<Index>(u) ? pv[e] : pu[e]);
            open[u] -= 1.0;
            open[w] -= 1.0;
            remaining[u] -= value;
            remaining[w] -= value;
            if (decided(w)) queue.push_back(w);
        }
    }
    // Reduced ids: nodes in order of first appearance among the undecided pairs.
    std::vector<std::int64_t> new_id(N, -1);
    std::int64_t next_id = 0;
    for (std::int64_t e = 0; e < np; ++e) {
        if (out.fixed[e] >= 0.0) continue;
        const auto a = static_cast<std::size_t>(pu[e]), b = static_cast<std::size_t>(pv[e]);
        if (new_id[a] < 0) new_id[a] = next_id++;
        if (new_id[b] < 0) new_id[b] = next_id++;
    }
    out.node_id.resize(static_cast<std::size_t>(next_id));
    out.degree.resize(static_cast<std::size_t>(next_id));
    for (std::size_t x = 0; x < N; ++x)
        if (new_id[x] >= 0) {
            out.node_id[new_id[x]] = static_cast<std::int64_t>(x);
            out.degree[new_id[x]] = remaining[x];
        }
    for (std::int64_t e = 0; e < np; ++e) {
        if (out.fixed[e] >= 0.0) continue;
        out.pair_id.push_back(e);
        out.pu.push_back(static_cast<Index>(new_id[static_cast<std::size_t>(pu[e])]));
        out.pv.push_back(static_cast<Index>(new_id[static_cast<std::size_t>(pv[e])]));
        if (center) out.center.push_back(center[e]);
    }
    return out;
}

// Solves min sum (x - c)^2 (c = 0 without centre) over the feasible set: presolve, semismooth
// Newton on the reduced dual from lam0 (per original node, may be null: then the uniform-share
// start), and x written for every pair (in the box by construction). Returns max |r| of the
// reduced problem at the end.
template <class Index>
double solve_exact(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                   const double* center, const double* side, double* x, const QpOptions& options, QpStats& stats) {
    Reduced<Index> red = presolve(n, np, pu, pv, degree, center);
    const auto n2 = static_cast<std::int64_t>(red.node_id.size());
    const auto np2 = static_cast<std::int64_t>(red.pair_id.size());
    std::vector<double> red_side;
    if (side)
        for (std::int64_t id : red.node_id) red_side.push_back(side[id]);
    std::vector<double> lam(static_cast<std::size_t>(n2), 0.0);
    if (!center) {
        // Start where every undecided pair at u carries the same share of u's remaining degree.
        std::vector<double> pairs_at(static_cast<std::size_t>(n2), 0.0);
        for (std::int64_t e = 0; e < np2; ++e) {
            pairs_at[red.pu[e]] += 1.0;
            pairs_at[red.pv[e]] += 1.0;
        }
        for (std::int64_t u = 0; u < n2; ++u) lam[u] = red.degree[u] / pairs_at[u];
    }
    const double worst =
        newton_dual(n2, np2, red.pu.data(), red.pv.data(), red.degree.data(), center ? red.center.data() : nullptr,
                    side ? red_side.data() : nullptr, lam, options, stats);
    stats.dual_objective += red.fixed_ones;  // the fixed pairs' share of sum x^2 (c = 0)
    for (std::int64_t e = 0; e < np; ++e)
        if (red.fixed[e] >= 0.0) x[e] = red.fixed[e];
    for (std::int64_t k = 0; k < np2; ++k) {
        const double ce = center ? red.center[k] : 0.0;
        x[red.pair_id[k]] = clip01(ce + 0.5 * (lam[red.pu[k]] + lam[red.pv[k]]));
    }
    return worst;
}

}  // namespace

template <class Index>
void repair_equalities(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                       double* p, double tol, std::int64_t max_rounds, std::int64_t max_cg, QpStats& stats) {
    check_counts(n, np);
    std::vector<double> r;
    stats.raw_eq_residual = residual(n, np, pu, pv, degree, p, r);
    double box = 0.0;
    for (std::int64_t e = 0; e < np; ++e) {
        if (!(p[e] == p[e])) throw std::invalid_argument("the QP solution holds NaN");
        box = std::max({box, -p[e], p[e] - 1.0});
        p[e] = clip01(p[e]);
    }
    stats.raw_box_residual = box;
    // The last bits (a solver's rounding): least-norm moves of the free pairs. Anything larger,
    // or what those moves cannot cancel, gets the exact projection of the clipped point.
    double worst = residual(n, np, pu, pv, degree, p, r);
    if (worst <= kNewtonFloor) worst = free_pair_rounds(n, np, pu, pv, degree, p, tol, max_rounds, max_cg, stats);
    if (worst > tol) {
        // Some residual needs a pair to leave a bound. Project the clipped point onto the
        // feasible set exactly: the projection dual has the same form with centre c = p,
        // and its x(lambda) lies in the box by construction. Then polish as before.
        std::vector<double> center(p, p + np);
        QpOptions options;
        options.tol = std::max(tol, 1e-10);  // Newton's rounding floor; the rounds below polish
        options.max_cg = max_cg;
        QpStats projection;
        solve_exact(n, np, pu, pv, degree, center.data(), nullptr, p, options, projection);
        stats.projection_iterations += projection.iterations;
        stats.cg_iterations += projection.cg_iterations;
        worst = free_pair_rounds(n, np, pu, pv, degree, p, tol, max_rounds, max_cg, stats);
    }
    stats.eq_residual = worst;
    double box_after = 0.0, objective = 0.0;
    for (std::int64_t e = 0; e < np; ++e) {
        box_after = std::max({box_after, -p[e], p[e] - 1.0});
        objective += p[e] * p[e];
    }
    stats.box_residual = box_after;
    stats.objective = objective;
}

template <class Index>
QpStats maxvar_dual_solve(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                          double* p, const QpOptions& options, const double* side) {
    check_counts(n, np);
    QpStats stats;
    const double worst = solve_exact<Index>(n, np, pu, pv, degree, nullptr, side, p, options, stats);
    const bool newton_converged = worst <= std::max(options.tol, kNewtonFloor);
    repair_equalities(n, np, pu, pv, degree, p, options.repair_tol, options.max_repair, options.max_cg, stats);
    stats.converged = newton_converged && stats.eq_residual <= 1e-6 && stats.box_residual == 0.0;
    return stats;
}

#define GRAPHVEIL_INSTANTIATE(Index)                                                                                   \
    template QpStats maxvar_dual_solve(std::int64_t, std::int64_t, const Index*, const Index*, const double*, double*, \
                                       const QpOptions&, const double*);                                               \
    template void repair_equalities(std::int64_t, std::int64_t, const Index*, const Index*, const double*, double*,    \
                                    double, std::int64_t, std::int64_t, QpStats&);

GRAPHVEIL_INSTANTIATE(std::int32_t)
GRAPHVEIL_INSTANTIATE(std::int64_t)
#undef GRAPHVEIL_INSTANTIATE

}  // namespace graphveil
