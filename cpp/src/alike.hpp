// Scoring each distinct input once. The matching kernels score many nodes whose scoring reads the
// same few things (the images of their matched neighbours; on a web graph the pages of a site link
// to the same hubs): first_alike groups them exactly, so that each group is scored once and the
// result handed to the others. Internal to the kernels (cpp/src).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace graphveil::detail {

// splitmix64's finaliser: a hash step.
inline std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// For each item i < n: same[i] = the first item j <= i alike it (j = i when none is before it).
// Items i and j are alike when hash[i] == hash[j], their values[begin[i], end[i]) and
// values[begin[j], end[j]) are equal, and extra(i, j) holds; an item with grouped(i) false is
// alone. Open addressing on the hashes; equal hashes are compared in full, so the grouping is
// exact whatever the hash.
template <class T, class Grouped, class Extra>
void first_alike(std::int64_t n, const std::uint64_t* hash, const T* values, const std::int64_t* begin,
                 const std::int64_t* end, Grouped&& grouped, Extra&& extra, std::vector<std::int64_t>& same) {
    same.resize(static_cast<std::size_t>(n));
    std::size_t capacity = 16;
    while (capacity < 2 * static_cast<std::size_t>(n)) capacity *= 2;
    std::vector<std::int64_t> table(capacity, -1);
    const std::size_t mask = capacity - 1;
    for (std::int64_t i = 0; i < n; ++i) {
        same[i] = i;
        if (!grouped(i)) continue;
        std::size_t s = static_cast<std::size_t>(hash[i]) & mask;
        for (;; s = (s + 1) & mask) {
            const std::int64_t j = table[s];
            if (j < 0) {
                table[s] = i;
                break;
            }
            if (hash[j] == hash[i] && std::equal(values + begin[i], values + end[i], values + begin[j], values + end[j]) &&
                extra(i, j)) {
                same[i] = j;
                break;
            }
        }
    }
}

}  // namespace graphveil::detail
