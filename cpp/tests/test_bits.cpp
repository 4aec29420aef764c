// The standard fallbacks in bits.hpp give exactly the intrinsics' bits. Built in a normal
// (non-fallback) build by .ci/run: `c++ -std=c++17 -O2 -Icpp/include cpp/tests/test_bits.cpp`.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "graphveil/bits.hpp"
#include "graphveil/rng.hpp"

namespace bits = graphveil::bits;

int main() {
    std::vector<std::uint64_t> inputs = {1, 2, 3, 0x8000000000000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                         0xFFFFFFFFULL, 0x100000000ULL, 0x7FFFFFFFFFFFFFFFULL};
    for (int k = 0; k < 64; ++k) {
        inputs.push_back(std::uint64_t{1} << k);
        inputs.push_back((std::uint64_t{1} << k) - 1 + (k == 0));
        inputs.push_back(~(std::uint64_t{1} << k));
    }
    graphveil::Rng rng(2015, 0);
    for (int i = 0; i < 1000000; ++i) inputs.push_back(rng.next() >> (i % 64));
    long checks = 0, failures = 0;
    auto expect = [&](bool ok, const char* what, std::uint64_t a, std::uint64_t b) {
        ++checks;
        if (!ok && failures++ < 10) std::printf("MISMATCH %s(%llx, %llx)\n", what, (unsigned long long)a, (unsigned long long)b);
    };
    expect(bits::portable::popcount64(0) == 0, "popcount64", 0, 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::uint64_t x = inputs[i], y = inputs[(i * 7919 + 13) % inputs.size()];
        if (x == 0) continue;
        expect(bits::portable::popcount64(x) == bits::popcount64(x), "popcount64", x, 0);
        expect(bits::portable::ctz64(x) == bits::ctz64(x), "ctz64", x, 0);
        expect(bits::portable::clz64(x) == bits::clz64(x), "clz64", x, 0);
        expect(bits::portable::mulhi64(x, y) == bits::mulhi64(x, y), "mulhi64", x, y);
#if defined(__SIZEOF_INT128__)
        __extension__ typedef unsigned __int128 u128;
        expect(bits::portable::mulhi64(x, y) == static_cast<std::uint64_t>((static_cast<u128>(x) * y) >> 64),
               "mulhi64 vs __int128", x, y);
#endif
    }
    std::printf("bits.hpp fallbacks against %s: %ld checks\n",
                bits::kPortableFallbacks ? "themselves (fallback build!)" : "the intrinsics", checks);
    if (bits::kPortableFallbacks) return 1;  // nothing was compared
    return failures == 0 ? 0 : 1;
}
