#pragma once
// Descriptive statistics of a sample (the repetitions of one point). Pure.
#include <cstddef>
#include <span>

namespace sweep::stats {

struct Summary {
  std::size_t n = 0;
  double mean = 0;
  double sd = 0;      // sample standard deviation (n - 1 in the denominator); 0 when n < 2
  double min = 0;
  double max = 0;
  double median = 0;
};

/// Summarises `values`; an empty sample gives n = 0 and zeros. Non-finite values are the caller's
/// business (the parsers never store them).
Summary summarize(std::span<const double> values);

}  // namespace sweep::stats
