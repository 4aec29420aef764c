// A minimal test harness for the C++ core (no framework dependency): CHECK records a failure
// with its location and goes on; run_tests() runs every registered test and returns the exit
// code ctest reads.
#pragma once
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace graphveil::test {

inline int& failures() {
    static int count = 0;
    return count;
}

inline std::vector<std::pair<std::string, std::function<void()>>>& registry() {
    static std::vector<std::pair<std::string, std::function<void()>>> tests;
    return tests;
}

struct Register {
    Register(const char* name, std::function<void()> fn) { registry().emplace_back(name, std::move(fn)); }
};

inline void fail(const char* file, int line, const std::string& what) {
    ++failures();
    std::fprintf(stderr, "%s:%d: FAILED %s\n", file, line, what.c_str());
}

inline int run_tests() {
    for (const auto& [name, fn] : registry()) {
        const int before = failures();
        fn();
        std::printf("%s %s\n", failures() == before ? "ok    " : "FAILED", name.c_str());
    }
    std::printf("%zu tests, %d failed checks\n", registry().size(), failures());
    return failures() == 0 ? 0 : 1;
}

// Whether f() throws an Error: CHECK(throws<std::invalid_argument>([&] { ... })).
template <class Error, class F>
bool throws(F&& f) {
    try {
        f();
    } catch (const Error&) {
        return true;
    }
    return false;
}

}  // namespace graphveil::test

#define GV_CONCAT2(a, b) a##b
#define GV_CONCAT(a, b) GV_CONCAT2(a, b)
#define TEST(name)                                                                                                     \
    static void name();                                                                                                \
    static const graphveil::test::Register GV_CONCAT(register_, name)(#name, &name);                                   \
    static void name()
#define CHECK(cond) ((cond) ? void(0) : graphveil::test::fail(__FILE__, __LINE__, #cond))
#define CHECK_NEAR(a, b, tol)                                                                                          \
    (std::fabs((a) - (b)) <= (tol)                                                                                     \
         ? void(0)                                                                                                     \
         : graphveil::test::fail(__FILE__, __LINE__,                                                                   \
                                 std::string(#a " ~ " #b ": ") + std::to_string(a) + " vs " + std::to_string(b)))
