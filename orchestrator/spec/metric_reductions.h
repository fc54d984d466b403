#pragma once
// The names a `metrics` entry's `reduce` takes (docs/metrics-format.md#reduce): how a regex or json
// rule's matches within one run become its value. parse/ implements them (parse/reduce.h);
// tests/unit/runner/metric_parsers_test.cpp checks that both agree.
#include <array>
#include <string_view>

namespace sweep::spec {

inline constexpr std::array<std::string_view, 7> kMetricReductions{"last", "first", "mean", "min", "max", "sum", "each"};

}  // namespace sweep::spec
