// METIS k-way partitioning, built in (cpp/third_party/metis): the call pymetis.part_graph makes
// for an unweighted graph with recursive=False, so the two give the same labels.
#include <metis.h>

#ifndef _WIN32
#include <csignal>
#endif

#include <array>
#include <cstdint>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "convert.hpp"

namespace graphveil::bind {

namespace {

static_assert(std::is_same_v<idx_t, std::int64_t>, "METIS must be built with IDXTYPEWIDTH 64, as pymetis builds it");

// The METIS options by name, as pymetis.Options spells them (metis.h's METIS_OPTION_*).
constexpr std::array<std::pair<const char*, int>, 25> kOptions{{
    {"ptype", METIS_OPTION_PTYPE},       {"objtype", METIS_OPTION_OBJTYPE},
    {"ctype", METIS_OPTION_CTYPE},       {"iptype", METIS_OPTION_IPTYPE},
    {"rtype", METIS_OPTION_RTYPE},       {"dbglvl", METIS_OPTION_DBGLVL},
    {"niter", METIS_OPTION_NITER},       {"ncuts", METIS_OPTION_NCUTS},
    {"seed", METIS_OPTION_SEED},         {"no2hop", METIS_OPTION_NO2HOP},
    {"minconn", METIS_OPTION_MINCONN},   {"contig", METIS_OPTION_CONTIG},
    {"compress", METIS_OPTION_COMPRESS}, {"ccorder", METIS_OPTION_CCORDER},
    {"pfactor", METIS_OPTION_PFACTOR},   {"nseps", METIS_OPTION_NSEPS},
    {"ufactor", METIS_OPTION_UFACTOR},   {"numbering", METIS_OPTION_NUMBERING},
    {"help", METIS_OPTION_HELP},         {"tpwgts", METIS_OPTION_TPWGTS},
    {"ncommon", METIS_OPTION_NCOMMON},   {"nooutput", METIS_OPTION_NOOUTPUT},
    {"balance", METIS_OPTION_BALANCE},   {"gtype", METIS_OPTION_GTYPE},
    {"ubvec", METIS_OPTION_UBVEC},
}};

// METIS reseeds the C library's rand() and swaps process signal handlers on every call:
// calls are serialised so two threads never interleave either.
std::mutex metis_mutex;

// METIS reports an error by raising SIGTERM (GKlib's SIGERR) at itself and longjmp-ing out of
// its handler; longjmp does not restore the signal mask, so the calling thread would be left
// with SIGTERM blocked: the process could no longer be terminated, and every child it spawns
// inherits the blocked signal. The thread's mask is saved before the call and put back after.
// (An external SIGTERM that lands during a call is taken by METIS's handler too: the call then
// fails with METIS's error, a RuntimeError, instead of the CLI's exit 143. The window is the
// partitioning itself; SIGINT, which GKlib does not trap, is unaffected.)
class SignalMaskGuard {
   public:
    SignalMaskGuard() {
#ifndef _WIN32
        pthread_sigmask(SIG_SETMASK, nullptr, &saved_);
#endif
    }
    ~SignalMaskGuard() {
#ifndef _WIN32
        pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
#endif
    }
    SignalMaskGuard(const SignalMaskGuard&) = delete;
    SignalMaskGuard& operator=(const SignalMaskGuard&) = delete;

   private:
#ifndef _WIN32
    sigset_t saved_{};
#endif
};

std::string option_names() {
    std::string names;
    for (const auto& [name, index] : kOptions) names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

py::array_t<std::int64_t> metis_part_kway_py(const carray<std::int64_t>& indptr, const carray<std::int64_t>& indices,
                                             std::int64_t parts, const py::dict& options) {
    const auto g = csr_view(indptr, indices);
    if (g.n < 1) throw std::invalid_argument("the graph must have at least one node");
    if (parts < 1) throw std::invalid_argument("parts must be positive");
    std::array<idx_t, METIS_NOPTIONS> opts{};
    METIS_SetDefaultOptions(opts.data());
    for (const auto& [key, value] : options) {
        const auto name = py::cast<std::string>(key);
        std::size_t i = 0;
        while (i < kOptions.size() && name != kOptions[i].first) ++i;
        if (i == kOptions.size())
            throw std::invalid_argument("not a METIS option: " + name + " (the options: " + option_names() + ")");
        opts[static_cast<std::size_t>(kOptions[i].second)] = py::cast<idx_t>(value);
    }
    if (opts[METIS_OPTION_NUMBERING] != -1 && opts[METIS_OPTION_NUMBERING] != 0)
        throw std::invalid_argument("METIS numbering must be 0 (node ids count from 0)");
    idx_t nvtxs = g.n, ncon = 1, nparts = parts, edgecut = 0;
    std::vector<idx_t> part(static_cast<std::size_t>(g.n));
    int status = METIS_OK;
    {
        // Safe: METIS reads the numpy buffers kept alive by the arguments and writes `part`;
        // its process-wide state (rand(), signal handlers) is guarded by metis_mutex.
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(metis_mutex);
        const SignalMaskGuard mask;  // METIS's error path leaves SIGTERM blocked (see above)
        // METIS takes non-const pointers but does not write the graph.
        status = METIS_PartGraphKway(&nvtxs, &ncon, const_cast<idx_t*>(g.indptr), const_cast<idx_t*>(g.indices),
                                     nullptr, nullptr, nullptr, &nparts, nullptr, nullptr, opts.data(), &edgecut,
                                     part.data());
    }
    if (status == METIS_ERROR_MEMORY) throw std::bad_alloc();
    if (status == METIS_ERROR_INPUT) throw std::invalid_argument("METIS_PartGraphKway refused its input");
    if (status != METIS_OK) throw std::runtime_error("METIS_PartGraphKway failed (METIS printed why on stderr)");
    return to_numpy(std::move(part));
}

}  // namespace

void register_metis(py::module_& m) {
    m.def("metis_part_kway", &metis_part_kway_py, py::arg("indptr").noconvert(), py::arg("indices").noconvert(),
          py::arg("parts"), py::arg("options"),
          "METIS_PartGraphKway on an unweighted CSR graph (int64 ids): the part of every node");
    py::tuple names(kOptions.size());
    for (std::size_t i = 0; i < kOptions.size(); ++i) names[i] = kOptions[i].first;
    m.attr("metis_option_names") = names;
}

}  // namespace graphveil::bind
