// Entry point of the C++ tests: every TEST in the linked files registers itself.
#include "check.hpp"

int main() { return graphveil::test::run_tests(); }
