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

}  // namespace spec_test
