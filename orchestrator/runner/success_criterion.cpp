#include "runner/success_criterion.h"

#include <fmt/core.h>

#include <map>
#include <set>

#include "util/strings.h"

namespace sweep::runner {
namespace {

/// Per metric the expression reads: its values by index.
using Series = std::map<std::size_t, double>;

/// The value at `index` (the only value, for a metric with one), or nullopt when it has none there.
std::optional<double> value_at(const Series& s, std::size_t index) {
  if (s.size() == 1) return s.begin()->second;  // one value for the whole run
  const auto it = s.find(index);
  return it == s.end() ? std::nullopt : std::optional<double>(it->second);
}

/// "" when the expression holds at `index`; otherwise why not, with the values it read.
std::string check_index(const spec::Expr& e, const std::vector<std::string>& names,
                        const std::vector<Series>& series, std::size_t index) {
  std::vector<Value> slots;
  std::vector<std::string> shown;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::optional<double> v = value_at(series[k], index);
    if (!v) return fmt::format("metric \"{}\" has no value at index {}", names[k], index);
    slots.emplace_back(*v);
    shown.push_back(names[k] + "=" + Value(*v).text());
  }
  const std::string values = join(shown, ", ");
  try {
    const Value result = e.eval(slots);
    if (!result.is_bool()) return fmt::format("gives {} (not true or false) with {}", result.text(), values);
    return result.as_bool() ? "" : "is false with " + values;
  } catch (const Error& err) {
    return fmt::format("cannot be evaluated with {}: {}", values, err.what());
  }
}

}  // namespace

std::optional<std::string> criterion_failure(const spec::Expr& criterion,
                                             const std::vector<parse::Observation>& observations) {
  const std::vector<std::string> names = criterion.names();
  std::vector<Series> series(names.size());
  std::set<std::size_t> indexes;
  for (const parse::Observation& o : observations)
    for (std::size_t k = 0; k < names.size(); ++k)
      if (o.name == names[k]) series[k][o.index] = o.value;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (series[k].empty()) return fmt::format("success.where \"{}\": metric \"{}\" not found", criterion.text(), names[k]);
    if (series[k].size() > 1)
      for (const auto& entry : series[k]) indexes.insert(entry.first);
  }
  if (indexes.empty()) indexes.insert(0);
  std::string first;
  std::size_t first_index = 0, failures = 0;
  for (const std::size_t index : indexes) {
    std::string why = check_index(criterion, names, series, index);
    if (why.empty()) continue;
    if (failures++ == 0) first = std::move(why), first_index = index;
  }
  if (failures == 0) return std::nullopt;
  const std::string at = indexes.size() > 1 ? fmt::format(" at index {}", first_index) : "";
  const std::string more = failures > 1 ? fmt::format(" (and at {} other index{})", failures - 1, failures > 2 ? "es" : "") : "";
  return fmt::format("success.where \"{}\"{} {}{}", criterion.text(), at, first, more);
}

}  // namespace sweep::runner
