// Seeded random streams. One 64-bit seed comes from Python; every task (a block of work,
// never a thread) derives its own stream from (seed, task id), so results do not depend
// on how many threads run the tasks.
#pragma once
#include <cmath>
#include <cstdint>

#include "graphveil/bits.hpp"

namespace graphveil {

// SplitMix64 (Steele, Lea, Flood 2014): used to expand a seed into stream states.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// xoshiro256** (Blackman, Vigna 2018): fast, 256-bit state, good statistical quality.
class Rng {
public:
    Rng(std::uint64_t seed, std::uint64_t stream) {
        std::uint64_t sm = seed ^ (0xD1B54A32D192ED03ULL * (stream + 1));
        for (auto& word : s_) word = splitmix64(sm);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform double in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Uniform integer in [0, bound) without modulo bias (Lemire 2019): the high half of the
    // 128-bit product draw * bound, redrawn while the low half falls below 2^64 mod bound.
    std::uint64_t below(std::uint64_t bound) {
        if (bound == 0) return 0;
        std::uint64_t draw = next();
        std::uint64_t low = draw * bound;  // the low half of the product
        if (low < bound) {
            const std::uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                draw = next();
                low = draw * bound;
            }
        }
        return bits::mulhi64(draw, bound);
    }

    // Standard normal by the polar Box-Muller method (one value kept, one discarded:
    // keeping no cached state makes streams simpler to reason about).
    double normal() {
        double x, y, r2;
        do {
            x = 2.0 * uniform() - 1.0;
            y = 2.0 * uniform() - 1.0;
            r2 = x * x + y * y;
        } while (r2 >= 1.0 || r2 == 0.0);
        return x * std::sqrt(-2.0 * std::log(r2) / r2);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

}  // namespace graphveil
