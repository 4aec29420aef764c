#include "graphveil/edgelist.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>

#include "graphveil/bits.hpp"
#include "graphveil/parallel.hpp"

namespace graphveil {

namespace {

// Nominal chunk of text parsed by one task; real boundaries move forward to the next '\n'.
constexpr std::size_t kParseChunk = std::size_t{1} << 20;
// Pairs formatted by one task when writing.
constexpr std::int64_t kFormatBlock = std::int64_t{1} << 16;

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_separator(char c) { return is_blank(c) || c == ','; }

// A token quoted in an error message: printable ASCII only (the message becomes a Python str),
// and short.
std::string quote(const char* begin, const char* end) {
    constexpr std::ptrdiff_t kMax = 40;
    std::string out = "'";
    for (const char* p = begin; p < end && p - begin < kMax; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (end - begin > kMax) out += "...";
    out += "'";
    return out;
}

// Parses [begin, end) as a whole signed 64-bit integer; on failure returns the reason.
bool parse_id(const char* begin, const char* end, std::int64_t& out, std::string& error) {
    const char* start = begin;
    if (end - start >= 2 && *start == '+' && start[1] >= '0' && start[1] <= '9') ++start;
    const auto [ptr, ec] = std::from_chars(start, end, out);
    if (ptr == end && ec == std::errc::result_out_of_range) {
        error = "node id " + quote(begin, end) + " is beyond the signed 64-bit integer range";
        return false;
    }
    if (ptr != end || ec != std::errc()) {
        error = "non-integer token " + quote(begin, end) + " (node ids must be integers)";
        return false;
    }
    return true;
}

inline bool ends_token(const char* p, const char* end) { return p == end || is_separator(*p) || *p == '\n'; }

// Reads the id token at p (p is not at a separator or line end) and moves p past it. Up to 18
// digits cannot overflow and take the fast path; anything else goes through from_chars.
inline bool read_id(const char*& p, const char* end, std::int64_t& out, std::string& error) {
    const char* q = p;
    const bool negative = *q == '-';
    if (*q == '-' || *q == '+') ++q;
    const char* digits = q;
    std::uint64_t acc = 0;
    while (q < end && static_cast<unsigned char>(*q - '0') < 10) acc = acc * 10 + static_cast<unsigned>(*q++ - '0');
    const std::ptrdiff_t count = q - digits;
    if (count > 0 && count <= 18 && ends_token(q, end)) {
        out = negative ? -static_cast<std::int64_t>(acc) : static_cast<std::int64_t>(acc);
        p = q;
        return true;
    }
    while (!ends_token(q, end)) ++q;
    if (!parse_id(p, q, out, error)) return false;
    p = q;
    return true;
}

// Reads the float token at p (p is not at a separator or line end) and moves p past it. The
// value is the correctly rounded double of the decimal text (std::from_chars), the same double
// Python's float() and numpy.loadtxt give; an optional leading '+' is accepted as they accept it.
inline bool read_float(const char*& p, const char* end, double& out, std::string& error) {
    const char* q = p;
    while (!ends_token(q, end)) ++q;
    const char* start = p;
    if (q - start >= 2 && *start == '+' && start[1] != '-' && start[1] != '+') ++start;
    const auto [ptr, ec] = std::from_chars(start, q, out, std::chars_format::general);
    if (ptr != q || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
        error = "non-numeric probability " + quote(p, q) + " (the third column must be a number)";
        return false;
    }
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves `out` unchanged here; strtod's answer (+-inf, or a denormal/zero) is
        // what float() gives
        out = std::strtod(std::string(start, q).c_str(), nullptr);
    }
    p = q;
    return true;
}

inline const char* skip_blanks(const char* p, const char* end) {
    while (p < end && is_blank(*p)) ++p;
    return p;
}

// Past the next '\n' (or end).
inline const char* next_line(const char* p, const char* end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    return nl == nullptr ? end : static_cast<const char*>(nl) + 1;
}

struct ChunkResult {
    std::int64_t lines = 0;        // physical lines starting in the chunk
    std::int64_t pairs = 0;        // edge lines parsed
    std::int64_t error_line = -1;  // 0-based line within the chunk of the first error
    std::string error;
};

template <class T>
void shrink_if_wasteful(std::vector<T>& values) {
    if (values.capacity() > values.size() + values.size() / 8 + 1024) values.shrink_to_fit();
}

int digits10(std::int64_t x) {
    std::uint64_t mag = x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
    int d = 1;
    while (mag >= 10) {
        mag /= 10;
        ++d;
    }
    return d + (x < 0 ? 1 : 0);
}

}  // namespace

namespace {

// The parser of both formats: with a std::vector<double> for `p`, every line must hold exactly a
// third column, a number; with nullptr, further columns are ignored.
EdgeListPairs parse_pairs(const char* data, std::size_t size, int threads, std::vector<double>* weights) {
    // Chunk boundaries: the first byte after the first '\n' at or after each multiple of the
    // nominal chunk size. They depend on the content only, never on the thread count.
    std::vector<std::size_t> bounds{0};
    for (std::size_t k = 1; k * kParseChunk < size; ++k) {
        std::size_t at = std::max(k * kParseChunk, bounds.back());
        if (at >= size) break;
        const void* nl = std::memchr(data + at, '\n', size - at);
        if (nl == nullptr) break;
        const std::size_t next = static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1;
        if (next > bounds.back() && next < size) bounds.push_back(next);
    }
    bounds.push_back(size);
    const auto n_chunks = static_cast<std::int64_t>(bounds.size() - 1);
    std::vector<ChunkResult> chunks(static_cast<std::size_t>(n_chunks));

    // Pass 1: lines per chunk, so every chunk can write its pairs into its own slice.
    parallel_blocks(n_chunks, threads, [&](std::int64_t c) {
        const char* begin = data + bounds[c];
        const char* end = data + bounds[c + 1];
        std::int64_t lines = std::count(begin, end, '\n');
        if (end > begin && end[-1] != '\n') ++lines;  // a last line without '\n'
        chunks[c].lines = lines;
    });
    std::vector<std::int64_t> first_line(static_cast<std::size_t>(n_chunks) + 1, 0);
    for (std::int64_t c = 0; c < n_chunks; ++c) first_line[c + 1] = first_line[c] + chunks[c].lines;

    EdgeListPairs out;
    out.lines = first_line[n_chunks];
    out.u.resize(static_cast<std::size_t>(out.lines));
    out.v.resize(static_cast<std::size_t>(out.lines));
    if (weights != nullptr) weights->resize(static_cast<std::size_t>(out.lines));

    // Pass 2: parse. Errors are recorded, not thrown, so the first one in file order wins.
    parallel_blocks(n_chunks, threads, [&](std::int64_t c) {
        ChunkResult& res = chunks[c];
        const char* p = data + bounds[c];
        const char* end = data + bounds[c + 1];
        std::int64_t* u = out.u.data() + first_line[c];
        std::int64_t* v = out.v.data() + first_line[c];
        double* w = weights != nullptr ? weights->data() + first_line[c] : nullptr;
        std::int64_t line = 0;
        auto fail = [&](std::string what) {
            if (!what.empty()) res.error = std::move(what);
            res.error_line = line;
        };
        while (p < end) {
            p = skip_blanks(p, end);
            if (p == end) break;
            if (*p == '\n' || *p == '#' || *p == '%') {  // blank line or comment
                p = next_line(p, end);
                ++line;
                continue;
            }
            if (*p == ',') return fail("the line starts with ',' (an empty first column)");
            std::int64_t a = 0, b = 0;
            if (!read_id(p, end, a, res.error)) return fail({});
            p = skip_blanks(p, end);
            bool comma = false;
            if (p < end && *p == ',') {
                comma = true;
                p = skip_blanks(p + 1, end);
            }
            if (p == end || *p == '\n') return fail("only one column; an edge line needs two node ids");
            if (*p == ',')
                return fail(comma ? "an empty second column (two commas in a row)" : "an empty second column");
            if (!read_id(p, end, b, res.error)) return fail({});
            if (w != nullptr) {
                p = skip_blanks(p, end);
                if (p < end && *p == ',') p = skip_blanks(p + 1, end);
                if (p == end || *p == '\n' || *p == ',')
                    return fail("no third column; a line needs two node ids and a probability");
                double q = 0.0;
                if (!read_float(p, end, q, res.error)) return fail({});
                p = skip_blanks(p, end);
                if (p < end && *p != '\n' && *p != '#')  // a trailing '# comment' is fine
                    return fail("more than three columns (expected 'u v p')");
                w[res.pairs] = q;
            }
            u[res.pairs] = a;
            v[res.pairs] = b;
            ++res.pairs;
            p = next_line(p, end);  // further columns are ignored (weighted: none are left)
            ++line;
        }
    });
    for (std::int64_t c = 0; c < n_chunks; ++c) {
        if (chunks[c].error_line >= 0)
            throw std::invalid_argument("line " + std::to_string(first_line[c] + chunks[c].error_line + 1) + ": " +
                                        chunks[c].error);
    }

    // Close the gaps left by comment and blank lines.
    std::int64_t kept = 0;
    for (std::int64_t c = 0; c < n_chunks; ++c) {
        const std::int64_t pairs = chunks[c].pairs;
        if (kept != first_line[c] && pairs > 0) {
            std::memmove(out.u.data() + kept, out.u.data() + first_line[c], sizeof(std::int64_t) * pairs);
            std::memmove(out.v.data() + kept, out.v.data() + first_line[c], sizeof(std::int64_t) * pairs);
            if (weights != nullptr)
                std::memmove(weights->data() + kept, weights->data() + first_line[c], sizeof(double) * pairs);
        }
        kept += pairs;
    }
    out.u.resize(static_cast<std::size_t>(kept));
    out.v.resize(static_cast<std::size_t>(kept));
    shrink_if_wasteful(out.u);
    shrink_if_wasteful(out.v);
    if (weights != nullptr) {
        weights->resize(static_cast<std::size_t>(kept));
        shrink_if_wasteful(*weights);
    }
    return out;
}

}  // namespace

EdgeListPairs parse_edgelist(const char* data, std::size_t size, int threads) {
    return parse_pairs(data, size, threads, nullptr);
}

WeightedPairs parse_weighted_edgelist(const char* data, std::size_t size, int threads) {
    WeightedPairs out;
    out.pairs = parse_pairs(data, size, threads, &out.p);
    return out;
}

std::vector<std::int64_t> relabel_ascending(std::int64_t* u, std::int64_t* v, std::int64_t count,
                                            const std::int64_t* extra, std::int64_t extra_count, int threads) {
    const std::int64_t total = 2 * count + extra_count;
    if (total == 0) return {};
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const auto* arr : {u, v}) {
        for (std::int64_t i = 0; i < count; ++i) {
            lo = std::min(lo, arr[i]);
            hi = std::max(hi, arr[i]);
        }
    }
    for (std::int64_t i = 0; i < extra_count; ++i) {
        lo = std::min(lo, extra[i]);
        hi = std::max(hi, extra[i]);
    }
    // Unsigned arithmetic: the span of two int64 values can exceed INT64_MAX.
    const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    const std::uint64_t dense_limit = 16 * static_cast<std::uint64_t>(total) + (std::uint64_t{1} << 16);
    const std::int64_t block = std::int64_t{1} << 16;

    if (span < dense_limit) {
        // Bitmap of present ids plus the number of set bits before each word: a rank is one
        // table read and one popcount. Memory: span / 4 bytes.
        const auto offset = static_cast<std::uint64_t>(lo);
        const std::size_t words = static_cast<std::size_t>(span / 64) + 1;
        std::vector<std::uint64_t> bits(words, 0);
        auto mark = [&](std::int64_t id) {
            const std::uint64_t x = static_cast<std::uint64_t>(id) - offset;
            bits[x >> 6] |= std::uint64_t{1} << (x & 63);
        };
        for (std::int64_t i = 0; i < count; ++i) {
            mark(u[i]);
            mark(v[i]);
        }
        for (std::int64_t i = 0; i < extra_count; ++i) mark(extra[i]);
        std::vector<std::int64_t> before(words + 1, 0);
        for (std::size_t w = 0; w < words; ++w) before[w + 1] = before[w] + bits::popcount64(bits[w]);
        std::vector<std::int64_t> labels(static_cast<std::size_t>(before[words]));
        for (std::size_t w = 0, k = 0; w < words; ++w) {
            for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
                labels[k++] = static_cast<std::int64_t>(offset + 64 * w + static_cast<unsigned>(bits::ctz64(word)));
        }
        auto rank = [&](std::int64_t id) {
            const std::uint64_t x = static_cast<std::uint64_t>(id) - offset;
            const std::uint64_t below = bits[x >> 6] & ((std::uint64_t{1} << (x & 63)) - 1);
            return before[x >> 6] + bits::popcount64(below);
        };
        parallel_ranges(count, block, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
            for (std::int64_t i = begin; i < end; ++i) {
                u[i] = rank(u[i]);
                v[i] = rank(v[i]);
            }
        });
        return labels;
    }

    // Sparse ids: sort a copy in two halves in parallel, merge, deduplicate.
    std::vector<std::int64_t> labels(static_cast<std::size_t>(total));
    std::copy_n(u, count, labels.begin());
    std::copy_n(v, count, labels.begin() + count);
    std::copy_n(extra, extra_count, labels.begin() + 2 * count);
    const auto mid = labels.begin() + total / 2;
    parallel_blocks(2, threads, [&](std::int64_t half) {
        if (half == 0)
            std::sort(labels.begin(), mid);
        else
            std::sort(mid, labels.end());
    });
    std::inplace_merge(labels.begin(), mid, labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    labels.shrink_to_fit();

    // Rank lookup through an open-addressing table (load <= 1/2, Fibonacci hashing, linear
    // probing): about one cache miss per id whatever the id distribution, where a binary search
    // would cost log2(n). Memory: 16 bytes x 2..4 n.
    struct Slot {
        std::int64_t key;
        std::int64_t rank;  // -1: empty
    };
    const auto n_labels = static_cast<std::uint64_t>(labels.size());
    int bits = 4;
    while ((std::uint64_t{1} << bits) < 2 * n_labels) ++bits;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::vector<Slot> table(static_cast<std::size_t>(mask) + 1, Slot{0, -1});
    auto home = [&](std::int64_t id) {
        return (static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
    };
    for (std::uint64_t r = 0; r < n_labels; ++r) {
        std::uint64_t slot = home(labels[r]);
        while (table[slot].rank >= 0) slot = (slot + 1) & mask;
        table[slot] = Slot{labels[r], static_cast<std::int64_t>(r)};
    }
    auto rank = [&](std::int64_t id) {
        std::uint64_t slot = home(id);
        while (table[slot].key != id || table[slot].rank < 0) slot = (slot + 1) & mask;
        return table[slot].rank;
    };
    parallel_ranges(count, block, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t) {
        for (std::int64_t i = begin; i < end; ++i) {
            u[i] = rank(u[i]);
            v[i] = rank(v[i]);
        }
    });
    return labels;
}

namespace {

template <class Index>
std::int64_t count_directed_pairs_impl(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                                       int threads) {
    // Bucket the heads by tail (a counting sort), then count distinct heads per row.
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t i = 0; i < count; ++i)
        if (u[i] != v[i]) ++offsets[static_cast<std::size_t>(u[i]) + 1];
    for (std::int64_t r = 0; r < n; ++r) offsets[r + 1] += offsets[r];
    std::vector<Index> heads(static_cast<std::size_t>(offsets[n]));
    {
        std::vector<std::int64_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::int64_t i = 0; i < count; ++i)
            if (u[i] != v[i]) heads[static_cast<std::size_t>(fill[u[i]]++)] = static_cast<Index>(v[i]);
    }
    const std::int64_t block = 4096;
    std::vector<std::int64_t> distinct(static_cast<std::size_t>((n + block - 1) / block), 0);
    parallel_ranges(n, block, threads, [&](std::int64_t begin, std::int64_t end, std::int64_t b) {
        std::int64_t d = 0;
        for (std::int64_t r = begin; r < end; ++r) {
            Index* first = heads.data() + offsets[r];
            Index* last = heads.data() + offsets[r + 1];
            std::sort(first, last);
            d += std::unique(first, last) - first;
        }
        distinct[b] = d;
    });
    std::int64_t total = 0;
    for (const std::int64_t d : distinct) total += d;
    return total;
}

}  // namespace

std::int64_t count_directed_pairs(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                                  int threads) {
    if (n <= std::numeric_limits<std::int32_t>::max())
        return count_directed_pairs_impl<std::int32_t>(n, u, v, count, threads);
    return count_directed_pairs_impl<std::int64_t>(n, u, v, count, threads);
}

std::vector<std::uint8_t> format_edgelist(const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                                          char delimiter, int threads) {
    // Two passes over fixed blocks: exact byte counts first, then every block writes its own
    // slice, so the output is assembled in place with no second copy.
    const std::int64_t n_blocks = (count + kFormatBlock - 1) / kFormatBlock;
    std::vector<std::int64_t> start(static_cast<std::size_t>(n_blocks) + 1, 0);
    parallel_blocks(n_blocks, threads, [&](std::int64_t b) {
        const std::int64_t end = std::min(count, (b + 1) * kFormatBlock);
        std::int64_t bytes = 0;
        for (std::int64_t i = b * kFormatBlock; i < end; ++i) bytes += digits10(u[i]) + digits10(v[i]) + 2;
        start[b + 1] = bytes;
    });
    for (std::int64_t b = 0; b < n_blocks; ++b) start[b + 1] += start[b];
    std::vector<std::uint8_t> out(static_cast<std::size_t>(start[n_blocks]));
    parallel_blocks(n_blocks, threads, [&](std::int64_t b) {
        const std::int64_t end = std::min(count, (b + 1) * kFormatBlock);
        char* p = reinterpret_cast<char*>(out.data()) + start[b];
        char* const limit = reinterpret_cast<char*>(out.data()) + start[b + 1];
        for (std::int64_t i = b * kFormatBlock; i < end; ++i) {
            p = std::to_chars(p, limit, u[i]).ptr;
            *p++ = delimiter;
            p = std::to_chars(p, limit, v[i]).ptr;
            *p++ = '\n';
        }
    });
    return out;
}

}  // namespace graphveil
