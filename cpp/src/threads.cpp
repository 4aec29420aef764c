// The default thread count: GRAPHVEIL_NUM_THREADS, else OMP_NUM_THREADS (the limit Dask and
// joblib workers set), else the CPUs this process may really use, not the machine's count.
// A Dask worker pinned with taskset, or a container given 2 CPUs of a 64-core host, must not
// start 64 threads. The environment and the affinity mask are read on every call (a changed
// GRAPHVEIL_NUM_THREADS or taskset -p is seen at once); the cgroup quota is read once per
// process, because reading /proc costs about 0.5 ms in some sandboxes, too much per kernel call.
// Neither changes a result: output never depends on the thread count.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

#include "graphveil/parallel.hpp"

namespace graphveil {

namespace {

constexpr long kMaxThreads = 65536;

// GRAPHVEIL_NUM_THREADS as a count, 0 when unset or empty; anything else is a user mistake.
int env_threads() {
    const char* raw = std::getenv("GRAPHVEIL_NUM_THREADS");
    if (raw == nullptr) return 0;
    std::string text(raw);
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return 0;
    text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
    const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const long value = digits && text.size() <= 6 ? std::strtol(text.c_str(), nullptr, 10) : -1;
    if (value < 1 || value > kMaxThreads) {
        throw std::invalid_argument("GRAPHVEIL_NUM_THREADS must be a whole number of threads from 1 to " +
                                    std::to_string(kMaxThreads) + ", got '" + raw +
                                    "'; set it to e.g. 4, or unset it to use every CPU this process may use");
    }
    return static_cast<int>(value);
}

#if defined(__linux__)

// CPUs in this process's affinity mask (taskset, numactl, a batch scheduler's pinning).
int affinity_cpus() {
    for (int size = 1024; size <= (1 << 20); size *= 2) {
        cpu_set_t* set = CPU_ALLOC(size);
        if (set == nullptr) return 0;
        const std::size_t bytes = CPU_ALLOC_SIZE(size);
        CPU_ZERO_S(bytes, set);
        if (sched_getaffinity(0, bytes, set) == 0) {
            const int count = CPU_COUNT_S(bytes, set);
            CPU_FREE(set);
            return count;
        }
        CPU_FREE(set);
        if (errno != EINVAL) return 0;  // EINVAL: the mask is wider than `size` CPUs
    }
    return 0;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream stream(text);
    while (std::getline(stream, part, sep)) parts.push_back(part);
    return parts;
}

// A cgroup hierarchy mounted here: its root inside the hierarchy and its mount point.
struct Mount {
    std::string root, point;
};

// CPUs granted by the quota files in `dir` (v2 cpu.max "quota period" or "max period";
// v1 cpu.cfs_quota_us, -1 for none, and cpu.cfs_period_us), rounded up; 0 when unlimited.
int quota_cpus(const std::string& dir, bool v2) {
    double quota = -1, period = 0;
    if (v2) {
        std::ifstream file(dir + "/cpu.max");
        std::string q;
        if (!(file >> q >> period) || q == "max") return 0;
        quota = std::strtod(q.c_str(), nullptr);
    } else {
        std::ifstream q(dir + "/cpu.cfs_quota_us"), p(dir + "/cpu.cfs_period_us");
        if (!(q >> quota) || !(p >> period)) return 0;
    }
    if (quota <= 0 || period <= 0) return 0;
    return static_cast<int>(std::max(1.0, std::ceil(quota / period)));
}

// The tightest quota on the path from this process's cgroup up to the mount point: a
// parent's limit binds its children too.
int hierarchy_cpus(const Mount& mount, const std::string& cgroup_path, bool v2) {
    std::string relative = cgroup_path;
    if (mount.root != "/" && relative.compare(0, mount.root.size(), mount.root) == 0)
        relative = relative.substr(mount.root.size());
    int best = 0;
    for (;;) {
        const int cpus = quota_cpus(mount.point + relative, v2);
        if (cpus > 0) best = best == 0 ? cpus : std::min(best, cpus);
        if (relative.empty() || relative == "/") break;
        const auto slash = relative.find_last_of('/');
        relative = slash == std::string::npos ? std::string() : relative.substr(0, slash);
    }
    return best;
}

// CPUs allowed by cgroup CPU quotas (v2 and v1, as mounted in /proc/self/mountinfo); 0 if none.
int cgroup_cpus() {
    std::vector<Mount> v2_mounts, v1_mounts;
    std::ifstream mountinfo("/proc/self/mountinfo");
    for (std::string line; std::getline(mountinfo, line);) {
        const auto dash = line.find(" - ");
        if (dash == std::string::npos) continue;
        const auto before = split(line.substr(0, dash), ' ');
        const auto after = split(line.substr(dash + 3), ' ');
        if (before.size() < 5 || after.size() < 3) continue;
        const Mount mount{before[3], before[4]};
        if (after[0] == "cgroup2") v2_mounts.push_back(mount);
        if (after[0] == "cgroup") {
            const auto options = split(after[2], ',');
            if (std::find(options.begin(), options.end(), "cpu") != options.end()) v1_mounts.push_back(mount);
        }
    }
    int best = 0;
    auto take = [&best](int cpus) {
        if (cpus > 0) best = best == 0 ? cpus : std::min(best, cpus);
    };
    std::ifstream cgroup("/proc/self/cgroup");
    for (std::string line; std::getline(cgroup, line);) {
        // "hierarchy-id:controller,list:path"; v2 is "0::path".
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            for (const auto& mount : v2_mounts) take(hierarchy_cpus(mount, path, true));
        } else {
            const auto names = split(controllers, ',');
            if (std::find(names.begin(), names.end(), "cpu") == names.end()) continue;
            for (const auto& mount : v1_mounts) take(hierarchy_cpus(mount, path, false));
        }
    }
    return best;
}

#endif  // __linux__

// OMP_NUM_THREADS as the OpenMP runtimes read it: the first entry of the list ("4" or "4,2",
// the outermost level), 0 when unset, empty or not a positive count (they ignore it too).
// Dask's nanny and joblib's loky workers set it (to 1, or to their share of the CPUs) so that
// the libraries a worker calls do not each start one thread per CPU.
int omp_threads() {
    const char* raw = std::getenv("OMP_NUM_THREADS");
    if (raw == nullptr) return 0;
    std::string text(raw);
    text = text.substr(0, text.find(','));
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return 0;
    text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
    const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const long value = digits && text.size() <= 6 ? std::strtol(text.c_str(), nullptr, 10) : 0;
    return value >= 1 && value <= kMaxThreads ? static_cast<int>(value) : 0;
}

}  // namespace

int default_threads() {
    if (const int forced = env_threads(); forced > 0) return forced;
    if (const int omp = omp_threads(); omp > 0) return omp;
    const unsigned hw = std::thread::hardware_concurrency();
    int cpus = hw == 0 ? 1 : static_cast<int>(std::min<unsigned>(hw, kMaxThreads));
#if defined(__linux__)
    if (const int pinned = affinity_cpus(); pinned > 0) cpus = pinned;
    static const int quota = cgroup_cpus();  // thread-safe one-time initialisation (C++11)
    if (quota > 0) cpus = std::min(cpus, quota);
#endif
    return std::max(1, cpus);
}

}  // namespace graphveil
