#pragma once
// Shared by the spec loader tests: literals in, literals out.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "spec/load.h"

namespace spec_test {

/// A minimal valid experiment taking lines 1-5, so text appended to it starts at line 6.
inline const std::string kHead =
    "name: t\n"
    "matrix:\n"
    "  batch: [16, 32]\n"
    "workload:\n"
    "  command: run {{batch}}\n";

/// The full message ("x.yaml:L:C: ...") of the invalid_experiment error loading `yaml` throws.
inline std::string load_error(const std::string& yaml, const std::vector<sweep::spec::Override>& overrides = {}) {
  try {
    sweep::spec::load_text(yaml, "x.yaml", overrides);
  } catch (const sweep::Error& e) {
    CHECK(e.kind() == sweep::ErrorKind::invalid_experiment);
    return e.what();
  }
  return "no error";
}

inline sweep::spec::Experiment load(const std::string& yaml, const std::vector<sweep::spec::Override>& overrides = {}) {
  return sweep::spec::load_text(yaml, "x.yaml", overrides);
}

/// An experiment whose `metrics:` entries start at line 5: `entries` are appended after it.
inline const std::string kMetricsHead = "name: t\nmatrix: {n: [1]}\nworkload: {command: x}\nmetrics:\n";

/// The experiment kMetricsHead + `entries`, and the error loading it throws.
inline sweep::spec::Experiment load_metrics(const std::string& entries) { return load(kMetricsHead + entries); }
inline std::string metrics_error(const std::string& entries) { return load_error(kMetricsHead + entries); }

}  // namespace spec_test
