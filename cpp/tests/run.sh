#!/bin/sh
# Build and run the C++ tests of the core (no Python needed), warnings as errors.
set -e
cd "$(dirname "$0")/../.."
cmake -S . -B build/ctest -DGRAPHVEIL_BUILD_TESTS=ON -DGRAPHVEIL_BUILD_PYTHON=OFF -DGRAPHVEIL_WERROR=ON
cmake --build build/ctest -j 2
ctest --test-dir build/ctest --output-on-failure
