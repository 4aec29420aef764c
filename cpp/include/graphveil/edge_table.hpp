// A hash set (optionally map to int64) of 64-bit pair keys for the sequential kernels
// (EdgeSwitch, the (k, eps)-obfuscation candidate draw).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "graphveil/bits.hpp"

namespace graphveil {

// Open addressing with linear probing and backward-shift deletion (no tombstones, so the
// probe lengths stay short however many switches run). Capacity a power of two, load <= 1/2.
class EdgeTable {
public:
    static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();

    EdgeTable(std::int64_t expected, bool with_values) {
        std::uint64_t cap = 16;
        while (cap < 2 * static_cast<std::uint64_t>(expected)) cap <<= 1;
        mask_ = cap - 1;
        keys_.assign(cap, kEmpty);
        if (with_values) values_.assign(cap, 0);
    }

    bool contains(std::uint64_t key) const { return keys_[find(key)] == key; }
    // Hint the cache about a coming lookup (independent lookups then overlap their misses).
    void prefetch(std::uint64_t key) const { bits::prefetch(&keys_[slot(key)]); }
    std::int64_t value(std::uint64_t key) const { return values_[find(key)]; }

    void insert(std::uint64_t key, std::int64_t value = 0) {
        const std::uint64_t i = find(key);
        keys_[i] = key;
        if (!values_.empty()) values_[i] = value;
    }

    void erase(std::uint64_t key) {
        std::uint64_t i = find(key);
        if (keys_[i] != key) return;
        // Backward shift: move later members of the probe run into the hole when their home
        // slot does not lie cyclically in (hole, j].
        std::uint64_t j = i;
        for (;;) {
            j = (j + 1) & mask_;
            if (keys_[j] == kEmpty) break;
            const std::uint64_t home = slot(keys_[j]);
            const bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (between) continue;
            keys_[i] = keys_[j];
            if (!values_.empty()) values_[i] = values_[j];
            i = j;
        }
        keys_[i] = kEmpty;
    }

private:
    std::uint64_t slot(std::uint64_t key) const {
        std::uint64_t z = key * 0x9E3779B97F4A7C15ULL;
        z ^= z >> 32;
        return z & mask_;
    }
    std::uint64_t find(std::uint64_t key) const {
        std::uint64_t i = slot(key);
        while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask_;
        return i;
    }

    std::uint64_t mask_ = 0;
    std::vector<std::uint64_t> keys_;
    std::vector<std::int64_t> values_;
};

}  // namespace graphveil
