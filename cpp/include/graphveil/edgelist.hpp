// Text edge lists (SNAP style): parsing into id pairs, relabelling arbitrary int64 ids to
// 0..n-1, and formatting pairs back into text. The buffers are whole decompressed files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphveil {

struct EdgeListPairs {
    std::vector<std::int64_t> u;  // first id of every edge line, in file order
    std::vector<std::int64_t> v;  // second id
    std::int64_t lines = 0;       // physical lines in the buffer (the last one may lack '\n')
};

// Parses "u v [ignored columns...]" lines. A line is blank, a comment (first non-blank
// character '#' or '%'), or an edge line: two signed 64-bit integers separated by spaces or
// tabs, or by one comma with optional spaces or tabs around it; anything after a further
// separator is ignored; a trailing '\r' is stripped. Throws std::invalid_argument("line L:
// what") for the first malformed line. The buffer is cut at newlines into chunks whose
// boundaries depend only on the content, parsed in parallel, so the output order is the file
// order for any thread count. O(size).
EdgeListPairs parse_edgelist(const char* data, std::size_t size, int threads);

struct WeightedPairs {
    EdgeListPairs pairs;    // ids and physical line count, as parse_edgelist
    std::vector<double> p;  // third column of every edge line
};

// Parses "u v p" lines (a TSV release): as parse_edgelist, but every edge line holds exactly
// three columns, the third a decimal number read as the correctly rounded double (the value of
// Python's float(), numpy.loadtxt; "inf" and "nan" included, left to the caller to refuse).
WeightedPairs parse_weighted_edgelist(const char* data, std::size_t size, int threads);

// Replaces every id in u, v by its rank among the distinct ids of u, v and `extra` (ascending
// order of the original id) and returns those distinct ids, sorted. Dense id ranges use a
// bitmap with rank counts (O(count + range)); others a sort (O(count log count)) and a hash
// table from id to rank.
std::vector<std::int64_t> relabel_ascending(std::int64_t* u, std::int64_t* v, std::int64_t count,
                                            const std::int64_t* extra, std::int64_t extra_count, int threads);

// Number of distinct ordered pairs (u, v) with u != v, ids in [0, n). With the undirected
// edge count this splits merged duplicates into exact repeats and reversed pairs. O(n + count).
std::int64_t count_directed_pairs(std::int64_t n, const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                                  int threads);

// Formats "u<delim>v\n" for every pair, in order, in parallel chunks.
std::vector<std::uint8_t> format_edgelist(const std::int64_t* u, const std::int64_t* v, std::int64_t count,
                                          char delimiter, int threads);

}  // namespace graphveil
