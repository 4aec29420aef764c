// The MaxVar quadratic program of one part (Section 4.3 of the paper):
//     minimise sum_e p_e^2  subject to  0 <= p_e <= 1,  sum_{e at u} p_e = d_u  for every node u,
// over the pairs e = {u, v} of the part (its edges and its potential edges).
//
// Exact dual: with one multiplier lambda_u per node the Lagrangian is minimised over the box by
//     p_e(lambda) = clip((lambda_u + lambda_v) / 2, 0, 1),
// and the dual g(lambda) = sum_e [p_e^2 - (lambda_u + lambda_v) p_e] + sum_u lambda_u d_u is
// concave, piecewise quadratic, with gradient r(lambda) = d - A p(lambda) (A = node-pair incidence).
// We maximise g by semismooth Newton: the generalized negative Hessian is (1/2) A D A^T with
// D_e = 1 on pairs strictly inside the box, a signless Laplacian of the free pairs, solved by
// Jacobi-preconditioned conjugate gradients with a Levenberg-Marquardt shift, and an Armijo
// line search on g. p(lambda) is inside the box by construction; a final repair step then
// removes the last equality residual without leaving the box.
#pragma once
#include <cstdint>

namespace graphveil {

struct QpOptions {
    double tol = 1e-10;             // stop Newton when max_u |r_u| <= tol
    std::int64_t max_newton = 200;  // Newton iterations
    std::int64_t max_cg = 2000;     // CG iterations per linear solve
    double repair_tol = 1e-12;      // target of the repair step (max_u |r_u|)
    std::int64_t max_repair = 20;   // repair rounds
};

struct QpStats {
    std::int64_t iterations = 0;             // Newton iterations (dual) or solver iterations (OSQP)
    std::int64_t cg_iterations = 0;          // conjugate-gradient iterations, all Newton steps
    std::int64_t repair_iterations = 0;      // repair rounds that moved p
    std::int64_t evaluations = 0;            // dual evaluations (one per line-search trial)
    std::int64_t projection_iterations = 0;  // Newton iterations of the repair's exact projection
    double raw_eq_residual = 0;              // max_u |A p - d|_u before clipping and repair
    double raw_box_residual = 0;             // largest distance of a p_e outside [0, 1] before clipping
    double eq_residual = 0;                  // max_u |A p - d|_u of the returned p
    double box_residual = 0;                 // of the returned p: 0 unless something is badly wrong
    double objective = 0;                    // sum p_e^2 of the returned p
    double dual_objective = 0;               // g(lambda) at the last multipliers (dual solver only)
    bool converged = false;                  // Newton reached tol (dual) / returned p meets 1e-6 (both)
};

// Solves one part. n nodes 0..n-1, np pairs (pu[e], pv[e]), pu[e] != pv[e]; degree[u] = d_u.
// Writes p[0..np). Deterministic, single-threaded (parallelism is across parts).
// side (optional): a bipartite part, side[u] = +1 or -1 and every pair joining a +1 node to a -1
// node (a directed part's out- and in-copies). Newton then takes out the null directions of the
// free pairs' components instead of shifting its system (see bipartite_direction).
template <class Index>
QpStats maxvar_dual_solve(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                          double* p, const QpOptions& options, const double* side = nullptr);

// The repair step shared by both backends: clip first, then repair the equalities inside the box.
// After clipping p into [0, 1]: if the residual is only rounding (max_u |r_u| <= 1e-8), p moves
// by the least-norm change on the pairs strictly inside the box that cancels it, shortened so
// that no p_e leaves the box (a pair reaching a bound stops there and is frozen next round).
// A larger residual, or one only a pair at a bound could cancel (a node whose pairs were all
// clipped), gets the exact projection of the clipped p onto {A p = d, 0 <= p <= 1}: the dual of
// min ||p - c||^2 has the same form as MaxVar's with centre c, its iterates lie in the box by
// construction, and the least-norm rounds polish its last bits. The box holds exactly at every
// step. Fills the residual, repair and objective fields of stats.
template <class Index>
void repair_equalities(std::int64_t n, std::int64_t np, const Index* pu, const Index* pv, const double* degree,
                       double* p, double tol, std::int64_t max_rounds, std::int64_t max_cg, QpStats& stats);

}  // namespace graphveil
