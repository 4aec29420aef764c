#include "graphveil/analyst.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "graphveil/parallel.hpp"

namespace graphveil {

namespace {

// Nodes per block of every pass: floating partial sums are kept per block and added in block
// order, so a sum does not depend on the thread count.
constexpr std::int64_t kBlock = 4096;

std::int64_t block_count(std::int64_t n) { return (n + kBlock - 1) / kBlock; }

double ordered_sum(const std::vector<double>& parts) {
    double total = 0.0;
    for (const double part : parts) total += part;
    return total;
}

void check_graph(const std::int64_t* indptr, std::int64_t n) {
    if (n < 0) throw std::invalid_argument("n must be non-negative");
    if (n > 0 && indptr[0] != 0) throw std::invalid_argument("indptr must start at 0");
}

// Row v of A x, summed in row order from 0 (scipy's csr_matvec with unit weights).
template <class Index>
inline double row_sum(const std::int64_t* indptr, const Index* indices, std::int64_t v, const double* x) {
    double sum = 0.0;
    for (std::int64_t k = indptr[v]; k < indptr[v + 1]; ++k) sum += x[indices[k]];
    return sum;
}

}  // namespace

// ------------------------------------------------------------------------------------ PageRank

template <class Index>
PageRankResult pagerank(const std::int64_t* indptr, const Index* indices, std::int64_t n, double damping, double tol,
                        std::int64_t max_iter, int threads) {
    check_graph(indptr, n);
    PageRankResult out;
    if (n == 0) return out;
    const double nd = static_cast<double>(n);
    const double base = (1.0 - damping) / nd;
    std::vector<double> inv(static_cast<std::size_t>(n)), last(static_cast<std::size_t>(n), 1.0 / nd);
    std::vector<double> x(static_cast<std::size_t>(n)), scaled(static_cast<std::size_t>(n));
    std::vector<double> next_scaled(static_cast<std::size_t>(n));
    const std::int64_t blocks = block_count(n);
    std::vector<double> dangling_parts(static_cast<std::size_t>(blocks)),
        change_parts(static_cast<std::size_t>(blocks));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        double dangling = 0.0;
        for (std::int64_t v = begin; v < end; ++v) {
            const std::int64_t d = indptr[v + 1] - indptr[v];
            inv[v] = d > 0 ? 1.0 / static_cast<double>(d) : 0.0;
            scaled[v] = last[v] * inv[v];
            if (d == 0) dangling += last[v];
        }
        dangling_parts[static_cast<std::size_t>(block)] = dangling;
    });
    for (std::int64_t it = 0; it < max_iter; ++it) {
        const double spread = ordered_sum(dangling_parts) / nd;
        // Each row is written by one thread, from `scaled` (read only here): x and the next
        // step's x / d, row by row.
        parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
            double dangling = 0.0, change = 0.0;
            for (std::int64_t v = begin; v < end; ++v) {
                x[v] = damping * (row_sum(indptr, indices, v, scaled.data()) + spread) + base;
                next_scaled[v] = x[v] * inv[v];
                change += std::abs(x[v] - last[v]);
                if (inv[v] == 0.0) dangling += x[v];
            }
            dangling_parts[static_cast<std::size_t>(block)] = dangling;
            change_parts[static_cast<std::size_t>(block)] = change;
        });
        out.iterations = it + 1;
        std::swap(x, last);
        std::swap(scaled, next_scaled);
        if (ordered_sum(change_parts) < tol) break;
    }
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        double sum = 0.0;
        for (std::int64_t v = begin; v < end; ++v) sum += last[v];
        change_parts[static_cast<std::size_t>(block)] = sum;
    });
    const double total = ordered_sum(change_parts);
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t v = begin; v < end; ++v) last[v] /= total;
    });
    out.rank = std::move(last);
    return out;
}

// ------------------------------------------------------------------------ eigenvector (Lanczos)

namespace {

// The Lanczos recurrence w = A v_j - beta_j v_{j-1} - alpha_j v_j, v_{j+1} = w / beta_{j+1}, one
// step at a time. Pass 1 computes alpha and beta; pass 2 is handed them and repeats the same
// operations, so it walks through the same vectors bit for bit.
template <class Index>
class Lanczos {
public:
    Lanczos(const std::int64_t* indptr, const Index* indices, std::int64_t n, int threads)
        : indptr_(indptr),
          indices_(indices),
          n_(n),
          threads_(threads),
          prev_(static_cast<std::size_t>(n), 0.0),
          cur_(static_cast<std::size_t>(n), 1.0 / std::sqrt(double(n))),
          next_(static_cast<std::size_t>(n)),
          parts_(static_cast<std::size_t>(block_count(n))) {}

    const std::vector<double>& current() const { return cur_; }

    // w = A v_j - beta_j v_{j-1}; returns <w, v_j>.
    double multiply(double beta) {
        parallel_ranges(n_, kBlock, threads_, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
            double dot = 0.0;
            for (std::int64_t v = begin; v < end; ++v) {
                next_[v] = row_sum(indptr_, indices_, v, cur_.data()) - beta * prev_[v];
                dot += next_[v] * cur_[v];
            }
            parts_[static_cast<std::size_t>(block)] = dot;
        });
        return ordered_sum(parts_);
    }

    // w -= alpha v_j; returns ||w||.
    double orthogonalise(double alpha) {
        parallel_ranges(n_, kBlock, threads_, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
            double sq = 0.0;
            for (std::int64_t v = begin; v < end; ++v) {
                next_[v] -= alpha * cur_[v];
                sq += next_[v] * next_[v];
            }
            parts_[static_cast<std::size_t>(block)] = sq;
        });
        return std::sqrt(ordered_sum(parts_));
    }

    // v_{j-1} <- v_j, v_j <- w / beta; also y += weight v_j (the new v_j) when y is given.
    void advance(double beta, double weight, std::vector<double>* y) {
        std::swap(prev_, cur_);
        parallel_ranges(n_, kBlock, threads_, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
            for (std::int64_t v = begin; v < end; ++v) {
                cur_[v] = next_[v] / beta;
                if (y != nullptr) (*y)[v] += weight * cur_[v];
            }
        });
    }

private:
    const std::int64_t* indptr_;
    const Index* indices_;
    std::int64_t n_;
    int threads_;
    std::vector<double> prev_, cur_, next_, parts_;
};

// Number of eigenvalues of the symmetric tridiagonal (alpha, beta) below x (Sturm sequence).
std::int64_t count_below(const std::vector<double>& alpha, const std::vector<double>& beta, double x) {
    std::int64_t count = 0;
    double q = 1.0;
    const double tiny = std::numeric_limits<double>::min();
    for (std::size_t i = 0; i < alpha.size(); ++i) {
        q = (alpha[i] - x) - (i > 0 ? beta[i] * beta[i] / q : 0.0);
        if (q == 0.0) q = -tiny;
        if (q < 0.0) ++count;
    }
    return count;
}

// The largest eigenvalue of the tridiagonal with diagonal alpha and off-diagonal beta[1..k-1]
// (beta[i] joins i - 1 and i), by bisection to the last bit.
double top_eigenvalue(const std::vector<double>& alpha, const std::vector<double>& beta) {
    const std::size_t k = alpha.size();
    double lo = alpha[0], hi = alpha[0];
    for (std::size_t i = 0; i < k; ++i) {
        const double radius = (i > 0 ? std::abs(beta[i]) : 0.0) + (i + 1 < k ? std::abs(beta[i + 1]) : 0.0);
        lo = std::min(lo, alpha[i] - radius);
        hi = std::max(hi, alpha[i] + radius);
    }
    const auto all = static_cast<std::int64_t>(k);
    for (int it = 0; it < 200; ++it) {
        const double mid = lo + (hi - lo) / 2.0;
        if (mid <= lo || mid >= hi) break;
        if (count_below(alpha, beta, mid) < all)
            lo = mid;  // the largest is at or above mid
        else
            hi = mid;
    }
    return hi;
}

// The unit eigenvector of the tridiagonal for eigenvalue theta, by inverse iteration: solve
// (T - theta I) s = s a few times with Gaussian elimination and partial pivoting (a zero pivot
// replaced by a tiny one, as theta is an eigenvalue to the last bit).
std::vector<double> tridiagonal_vector(const std::vector<double>& alpha, const std::vector<double>& beta,
                                       double theta) {
    const std::size_t k = alpha.size();
    double scale = 0.0;
    for (std::size_t i = 0; i < k; ++i) scale = std::max(scale, std::abs(alpha[i]) + std::abs(beta[i]));
    const double tiny = std::max(scale, 1.0) * std::numeric_limits<double>::epsilon();
    std::vector<double> s(k, 1.0), diag(k), upper(k), upper2(k), lower(k);
    std::vector<char> swapped(k, 0);
    // LU of T - theta I with row swaps between neighbours: row i holds (diag, upper, upper2).
    diag[0] = alpha[0] - theta;
    upper[0] = k > 1 ? beta[1] : 0.0;
    for (std::size_t i = 1; i < k; ++i) {
        double sub = beta[i], d = alpha[i] - theta, u = i + 1 < k ? beta[i + 1] : 0.0, u2 = 0.0;
        if (std::abs(sub) > std::abs(diag[i - 1])) {  // swap rows i - 1 and i
            std::swap(sub, diag[i - 1]);
            std::swap(d, upper[i - 1]);
            std::swap(u, upper2[i - 1]);
            swapped[i] = 1;
        }
        if (diag[i - 1] == 0.0) diag[i - 1] = tiny;
        lower[i] = sub / diag[i - 1];
        diag[i] = d - lower[i] * upper[i - 1];
        upper[i] = u - lower[i] * upper2[i - 1];
        upper2[i] = u2;
    }
    if (diag[k - 1] == 0.0) diag[k - 1] = tiny;
    for (int round = 0; round < 3; ++round) {
        for (std::size_t i = 1; i < k; ++i) {
            if (swapped[i]) std::swap(s[i - 1], s[i]);
            s[i] -= lower[i] * s[i - 1];
        }
        for (std::size_t i = k; i-- > 0;) {
            double r = s[i];
            if (i + 1 < k) r -= upper[i] * s[i + 1];
            if (i + 2 < k) r -= upper2[i] * s[i + 2];
            s[i] = r / diag[i];
        }
        double norm = 0.0;
        for (const double value : s) norm += value * value;
        norm = std::sqrt(norm);
        for (double& value : s) value /= norm;
    }
    return s;
}

}  // namespace

template <class Index>
EigenResult top_eigenvector(const std::int64_t* indptr, const Index* indices, std::int64_t n, double tol,
                            std::int64_t max_steps, int threads) {
    check_graph(indptr, n);
    EigenResult out;
    if (n == 0) return out;
    // Pass 1: alpha[j], beta[j] (beta[0] = 0) until the top Ritz pair's residual is small.
    std::vector<double> alpha, beta{0.0}, s;
    double theta = 0.0;
    {
        Lanczos<Index> lanczos(indptr, indices, n, threads);
        for (std::int64_t j = 0; j < max_steps; ++j) {
            alpha.push_back(lanczos.multiply(beta.back()));
            const double next = lanczos.orthogonalise(alpha.back());
            theta = top_eigenvalue(alpha, beta);
            s = tridiagonal_vector(alpha, beta, theta);
            out.steps = j + 1;
            // An invariant subspace (next ~ 0) holds the pair exactly; else the residual.
            if (next <= tol * std::abs(theta) || next * std::abs(s.back()) <= tol * std::abs(theta)) {
                out.converged = true;
                break;
            }
            beta.push_back(next);
            lanczos.advance(next, 0.0, nullptr);
        }
    }
    out.value = theta;
    if (!out.converged) return out;
    // Pass 2: the same steps again, y = sum_j s_j v_j.
    std::vector<double> y(static_cast<std::size_t>(n));
    Lanczos<Index> lanczos(indptr, indices, n, threads);
    const auto& v0 = lanczos.current();
    for (std::int64_t v = 0; v < n; ++v) y[v] = s[0] * v0[v];
    for (std::int64_t j = 0; j + 1 < out.steps; ++j) {
        lanczos.multiply(beta[j]);
        lanczos.orthogonalise(alpha[j]);
        lanczos.advance(beta[j + 1], s[j + 1], &y);
    }
    std::vector<double> parts(static_cast<std::size_t>(block_count(n)));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        double sq = 0.0;
        for (std::int64_t v = begin; v < end; ++v) sq += y[v] * y[v];
        parts[static_cast<std::size_t>(block)] = sq;
    });
    const double norm = std::sqrt(ordered_sum(parts));
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t v = begin; v < end; ++v) y[v] /= norm;
    });
    // The residual of the vector returned, measured rather than estimated.
    parallel_ranges(n, kBlock, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t block) {
        double sq = 0.0;
        for (std::int64_t v = begin; v < end; ++v) {
            const double r = row_sum(indptr, indices, v, y.data()) - theta * y[v];
            sq += r * r;
        }
        parts[static_cast<std::size_t>(block)] = sq;
    });
    out.residual = std::sqrt(ordered_sum(parts)) / std::abs(theta);
    out.vector = std::move(y);
    return out;
}

// --------------------------------------------------------------------- independent cascade

namespace {

inline std::uint64_t splitmix(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// The jump from slot `pos` to the next live slot: Geometric(p) from one uniform in (0, 1]
// hashed from (salt, pos); log_q = log(1 - p), -inf for p = 1 (every slot live).
inline std::int64_t gap(std::uint64_t salt, std::int64_t pos, double log_q) {
    if (std::isinf(log_q)) return 1;
    const std::uint64_t h = splitmix(static_cast<std::uint64_t>(pos) + 1u + salt);
    const double uniform = (static_cast<double>(h >> 11) + 1.0) * 0x1p-53;
    const double jump = 1.0 + std::floor(std::log(uniform) / log_q);
    return static_cast<std::int64_t>(std::min(jump, 0x1p62));
}

}  // namespace

template <class Index>
std::int64_t influence_reach(const std::int64_t* indptr, const Index* indices, std::int64_t n,
                             const std::int64_t* seeds, std::int64_t n_seeds, double p, std::int64_t runs,
                             std::uint64_t seed, int threads) {
    check_graph(indptr, n);
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in [0, 1]");
    for (std::int64_t i = 0; i < n_seeds; ++i)
        if (seeds[i] < 0 || seeds[i] >= n) throw std::out_of_range("seeds must be node ids in 0..n-1");
    if (runs <= 0 || n == 0) return 0;
    const double log_q = p < 1.0 ? std::log1p(-p) : -std::numeric_limits<double>::infinity();
    // A stamp per node per worker: 4 bytes a node, workers capped at about 1 GiB in all.
    const std::int64_t cap = std::max<std::int64_t>(1, (std::int64_t{1} << 28) / n);
    const int workers = static_cast<int>(std::min({static_cast<std::int64_t>(resolve_threads(threads)), runs, cap}));
    std::vector<std::int64_t> reached(static_cast<std::size_t>(workers), 0);
    std::atomic<std::int64_t> next_run{0};
    // Each worker claims whole runs and adds up their counts: a run's count depends on its salt
    // alone, and integers add up alike in any order.
    parallel_blocks(workers, workers, [&](std::int64_t worker) {
        std::vector<std::uint32_t> stamp(static_cast<std::size_t>(n), 0);
        std::vector<std::int64_t> queue;
        std::uint32_t mark = 0;
        interrupt::Every<> every;
        for (std::int64_t r; (r = next_run.fetch_add(1)) < runs;) {
            if (++mark == 0) {  // stamps wrapped: clear them
                std::fill(stamp.begin(), stamp.end(), 0u);
                mark = 1;
            }
            const std::uint64_t salt = splitmix(static_cast<std::uint64_t>(r) * 0x9E3779B97F4A7C15ULL + seed);
            queue.clear();
            for (std::int64_t i = 0; i < n_seeds; ++i)
                if (stamp[static_cast<std::size_t>(seeds[i])] != mark) {
                    stamp[static_cast<std::size_t>(seeds[i])] = mark;
                    queue.push_back(seeds[i]);
                }
            for (std::size_t head = 0; p > 0.0 && head < queue.size(); ++head) {
                every.step();
                const std::int64_t node = queue[head], stop = indptr[node + 1];
                for (std::int64_t pos = indptr[node] - 1;;) {
                    pos += gap(salt, pos, log_q);
                    if (pos >= stop) break;
                    const std::int64_t target = indices[pos];
                    if (stamp[static_cast<std::size_t>(target)] != mark) {
                        stamp[static_cast<std::size_t>(target)] = mark;
                        queue.push_back(target);
                    }
                }
            }
            reached[static_cast<std::size_t>(worker)] += static_cast<std::int64_t>(queue.size());
        }
    });
    std::int64_t total = 0;
    for (const auto count : reached) total += count;
    return total;
}

#define GRAPHVEIL_INSTANTIATE(Index)                                                                                   \
    template PageRankResult pagerank<Index>(const std::int64_t*, const Index*, std::int64_t, double, double,           \
                                            std::int64_t, int);                                                        \
    template EigenResult top_eigenvector<Index>(const std::int64_t*, const Index*, std::int64_t, double, std::int64_t, \
                                                int);                                                                  \
    template std::int64_t influence_reach<Index>(const std::int64_t*, const Index*, std::int64_t, const std::int64_t*, \
                                                 std::int64_t, double, std::int64_t, std::uint64_t, int);

GRAPHVEIL_INSTANTIATE(std::int32_t)
GRAPHVEIL_INSTANTIATE(std::int64_t)
#undef GRAPHVEIL_INSTANTIATE

}  // namespace graphveil
