#include "convert.hpp"

namespace graphveil::bind {

void register_sampling(py::module_& /*m*/) {}

}  // namespace graphveil::bind
