// G0's signature index: the score against it equals the two-graph score, its classes equal
// signature_classes, and signatures G0 lacks form classes of their own (classes_g).
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "graphveil/csr.hpp"
#include "graphveil/signatures.hpp"

namespace {

graphveil::Csr<std::int32_t> graph(std::int64_t n, const std::vector<std::int64_t>& u,
                                   const std::vector<std::int64_t>& v) {
    graphveil::CsrBuildCounts counts;
    return graphveil::build_csr<std::int32_t>(n, u.data(), v.data(), static_cast<std::int64_t>(u.size()), 1, counts);
}

graphveil::CsrView<std::int32_t> view(const graphveil::Csr<std::int32_t>& g) {
    return {g.n, g.indptr.data(), g.indices.data()};
}

}  // namespace

TEST(signature_index_scores_equal_the_two_graph_scores) {
    using graphveil::SignatureHash;
    using graphveil::SignatureKind;
    // G0 the path 0-1-2-3-4 (H2_open sets {2} {1,2} {2} {1,2} {2}); g a star on 0 plus edge 1-2.
    const auto g0 = graph(5, {0, 1, 2, 3}, {1, 2, 3, 4});
    const auto g = graph(5, {0, 0, 0, 0, 1}, {1, 2, 3, 4, 2});
    for (const auto kind : {SignatureKind::degree, SignatureKind::neighbour_degree_set}) {
        for (const auto hash : {SignatureHash::strong, SignatureHash::weak}) {
            const auto idx = graphveil::signature_index(view(g0), kind, 1, hash);
            CHECK(idx.cls == graphveil::signature_classes(view(g0), kind, 1, hash));
            CHECK(idx.rep_ptr.size() == idx.key.size() + 1);
            const auto a = graphveil::reidentification_score(graphveil::index_view(idx), view(g), kind, 2, hash);
            const auto b = graphveil::reidentification_score(view(g0), view(g), kind, 1, hash);
            CHECK(a.score == b.score && a.matched == b.matched);
            CHECK(a.classes_g0 == b.classes_g0 && a.classes_g == b.classes_g);
            const auto self = graphveil::reidentification_score(graphveil::index_view(idx), view(g0), kind, 1, hash);
            CHECK(self.score == static_cast<double>(idx.key.size()));
        }
    }
    // H1: path degrees 1 2 2 2 1 (2 classes); star degrees 4 2 2 1 1: degree 4 is new.
    const auto h1 = graphveil::signature_index(view(g0), SignatureKind::degree, 1);
    const auto r = graphveil::reidentification_score(graphveil::index_view(h1), view(g), SignatureKind::degree, 1);
    CHECK(r.classes_g0 == 2 && r.classes_g == 3);
    // node 4 keeps degree 1 (class of 2 in g), nodes 1 and 2 keep degree 2 (class of 2 in g)
    CHECK(r.matched == 3 && r.score == 1.5);
}

TEST(signature_index_rejects_an_inconsistent_index) {
    const auto g0 = graph(3, {0, 1}, {1, 2});
    auto idx = graphveil::signature_index(view(g0), graphveil::SignatureKind::neighbour_degree_set, 1);
    idx.cls[0] = static_cast<std::int64_t>(idx.key.size());  // out of range
    CHECK(graphveil::test::throws<std::invalid_argument>([&] {
        graphveil::reidentification_score(graphveil::index_view(idx), view(g0),
                                          graphveil::SignatureKind::neighbour_degree_set, 1);
    }));
}
