#include "spec/load_baseline.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>

namespace sweep::spec {
namespace {

constexpr std::string_view kBaselineExample = "a non-empty map of parameter values, e.g. {nodes: 1, gpus_per_node: 1}";

/// The second form is chosen by its shape: parameter values are scalars, `match` and `ignore` are not.
bool is_long_form(const std::vector<Field>& fields) {
  return std::any_of(fields.begin(), fields.end(), [](const Field& e) { return e.value.IsMap() || e.value.IsSequence(); });
}

std::vector<std::string> ignored_at(const Field& f, const Source& src) {
  std::vector<std::string> out;
  const std::vector<Field> items = f.value.IsSequence() ? list_items(f, src) : std::vector<Field>{f};
  for (const Field& item : items) {
    const std::string name = scalar_text(item, src, "a parameter name");
    if (!is_identifier(name)) fail_expected(item, src, "a parameter name");
    out.push_back(name);
  }
  return out;
}

void check_disjoint(const Baseline& b, const Field& ignore, const Source& src) {
  for (const auto& [name, value] : b.match)
    if (std::find(b.ignore.begin(), b.ignore.end(), name) != b.ignore.end())
      fail_at(location(ignore, src), fmt::format("\"{}\" names \"{}\", which \"match\" gives a value; a baseline "
                                                 "parameter is matched or ignored, not both",
                                                 ignore.path, name));
}

}  // namespace

ParamMatch param_match_at(const Field& f, const Source& src) {
  ParamMatch out;
  for (const Field& e : map_fields(f, src)) out.emplace_back(key_name(e), scalar_value(e, src).text());
  return out;
}

Baseline baseline_at(const Field& f, const Source& src) {
  Baseline b;
  b.at = location(f, src);
  const std::vector<Field> fields = map_fields(f, src);
  if (!is_long_form(fields)) {
    b.match = param_match_at(f, src);
    if (b.match.empty()) fail_expected(f, src, kBaselineExample);
    return b;
  }
  constexpr std::array<std::string_view, 2> kKeys{"match", "ignore"};
  check_keys(fields, kKeys, src);
  const Field* match = find_field(fields, "match");
  if (!match) fail_at(b.at, fmt::format("\"{}\" needs \"match\", {}", f.path, kBaselineExample));
  b.match = param_match_at(*match, src);
  if (b.match.empty()) fail_expected(*match, src, kBaselineExample);
  if (const Field* ignore = find_field(fields, "ignore")) {
    b.ignore = ignored_at(*ignore, src);
    check_disjoint(b, *ignore, src);
  }
  return b;
}

}  // namespace sweep::spec
