// The one home of compiler-specific bit tricks: population count, leading and trailing zero
// counts, the high half of a 64x64-bit product, and a cache prefetch hint.
//
// Each operation has a standard C++17 fallback in `bits::portable` that returns exactly the
// same bits as the intrinsic (prefetch is only a hint, a no-op there). GCC and Clang use their
// builtins and `unsigned __int128`; MSVC uses its intrinsics; anything else takes the fallback.
// Defining GRAPHVEIL_PORTABLE_FALLBACKS (CMake option of the same name) forces the fallbacks
// everywhere, so CI exercises the path that compilers without the extensions take.
#pragma once
#include <cstdint>

#if !defined(GRAPHVEIL_PORTABLE_FALLBACKS) && defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#if defined(GRAPHVEIL_PORTABLE_FALLBACKS)
#define GRAPHVEIL_BITS_GNU 0
#define GRAPHVEIL_BITS_MSVC 0
#elif defined(__GNUC__) || defined(__clang__)
#define GRAPHVEIL_BITS_GNU 1
#define GRAPHVEIL_BITS_MSVC 0
#elif defined(_MSC_VER)
#define GRAPHVEIL_BITS_GNU 0
#define GRAPHVEIL_BITS_MSVC 1
#else
#define GRAPHVEIL_BITS_GNU 0
#define GRAPHVEIL_BITS_MSVC 0
#endif

namespace graphveil::bits {

// True when this build uses the standard fallbacks for every operation below.
constexpr bool kPortableFallbacks = !GRAPHVEIL_BITS_GNU && !GRAPHVEIL_BITS_MSVC;

namespace portable {

// SWAR population count (Hacker's Delight 5-2): branch-free, no table.
constexpr int popcount64(std::uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

// Trailing zeros of x != 0: isolate the lowest set bit, count the ones below it.
constexpr int ctz64(std::uint64_t x) { return popcount64((x & (0 - x)) - 1); }

// Leading zeros of x != 0: smear the highest set bit downwards, count the zeros left.
constexpr int clz64(std::uint64_t x) {
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return 64 - popcount64(x);
}

// High 64 bits of the exact 128-bit product a * b, by 32-bit schoolbook multiplication. Every
// partial product fits in 64 bits and `mid` is below 3 * 2^32, so nothing is lost.
constexpr std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t a_lo = a & 0xFFFFFFFFULL, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFULL, b_hi = b >> 32;
    const std::uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    const std::uint64_t mid = (p0 >> 32) + (p1 & 0xFFFFFFFFULL) + (p2 & 0xFFFFFFFFULL);
    return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

}  // namespace portable

inline int popcount64(std::uint64_t x) {
#if GRAPHVEIL_BITS_GNU
    return __builtin_popcountll(x);
#else
    // MSVC's __popcnt64 needs the POPCNT instruction at run time; the SWAR form does not.
    return portable::popcount64(x);
#endif
}

inline int ctz64(std::uint64_t x) {  // x != 0
#if GRAPHVEIL_BITS_GNU
    return __builtin_ctzll(x);
#elif GRAPHVEIL_BITS_MSVC && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long index;
    _BitScanForward64(&index, x);
    return static_cast<int>(index);
#else
    return portable::ctz64(x);
#endif
}

inline int clz64(std::uint64_t x) {  // x != 0
#if GRAPHVEIL_BITS_GNU
    return __builtin_clzll(x);
#elif GRAPHVEIL_BITS_MSVC && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long index;
    _BitScanReverse64(&index, x);
    return 63 - static_cast<int>(index);
#else
    return portable::clz64(x);
#endif
}

// floor(a * b / 2^64): with a = a uniform 64-bit draw this maps it to [0, b) (Lemire 2019).
inline std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if GRAPHVEIL_BITS_GNU && defined(__SIZEOF_INT128__)
    // __extension__ keeps -Wpedantic quiet about the GCC/Clang 128-bit integer.
    __extension__ typedef unsigned __int128 uint128;
    return static_cast<std::uint64_t>((static_cast<uint128>(a) * b) >> 64);
#elif GRAPHVEIL_BITS_MSVC && (defined(_M_X64) || defined(_M_ARM64))
    return __umulh(a, b);
#else
    return portable::mulhi64(a, b);
#endif
}

// Hint that `address` is about to be read; never changes a result.
inline void prefetch(const void* address) {
#if GRAPHVEIL_BITS_GNU
    __builtin_prefetch(address);
#elif GRAPHVEIL_BITS_MSVC && defined(_M_X64)
    _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
    (void)address;
#endif
}

}  // namespace graphveil::bits
