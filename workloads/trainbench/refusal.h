#pragma once
// Why trainbench refuses to start: the reason it prints, and the options the reason is about, so that
// a caller other than trainbench (sweep at plan time) can point at the values that broke the rule.
#include <string>
#include <string_view>
#include <vector>

namespace sweep::trainbench {

struct Refusal {
  std::string message;  // as trainbench prints it after "error: ", naming the options and their values
  /// The options whose values break the rule, without "--" ("tp", "heads"). A shape value that the
  /// model's preset gives is named "model" by start_refusals() (layout_options.h).
  std::vector<std::string_view> options;

  friend bool operator==(const Refusal&, const Refusal&) = default;
};

}  // namespace sweep::trainbench
