#include "convert.hpp"

namespace graphveil::bind {

void register_stats(py::module_& /*m*/) {}

}  // namespace graphveil::bind
