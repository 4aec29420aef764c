#include "convert.hpp"

namespace graphveil::bind {

void register_privacy(py::module_& /*m*/) {}

}  // namespace graphveil::bind
