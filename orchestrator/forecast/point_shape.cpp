#include "forecast/point_shape.h"

#include <charconv>
#include <string_view>

#include "spec/time_limit.h"

namespace sweep::forecast {
namespace {

const std::string* find(const std::vector<sched::Resource>& rs, std::string_view key) {
  for (const auto& r : rs)
    if (r.key == key) return &r.value;
  return nullptr;
}

/// The count at the end of "4", "a100:4", "gpu:a100:4"; nullopt when there is none.
std::optional<int> trailing_count(std::string_view text) {
  const auto colon = text.rfind(':');
  const std::string_view digits = colon == std::string_view::npos ? text : text.substr(colon + 1);
  int n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n < 0) return std::nullopt;
  return n;
}

/// GPUs per run from the first key that gives them (point_shape's order), per run or times `per`.
int gpus_of(const std::vector<sched::Resource>& rs, int nodes) {
  struct Row {
    std::string_view key;
    std::string_view multiplier;  // "" = per run, "nodes", or a count key
  };
  static constexpr Row kRows[] = {{"gpus", ""}, {"gpus-per-node", "nodes"}, {"gres", "nodes"}, {"gpus-per-task", "ntasks"}};
  for (const Row& row : kRows) {
    const std::string* v = find(rs, row.key);
    if (!v) continue;
    if (row.key == "gres" && v->rfind("gpu", 0) != 0) continue;
    const auto n = trailing_count(*v);
    if (!n) continue;
    if (row.multiplier.empty()) return *n;
    if (row.multiplier == "nodes") return *n * nodes;
    const std::string* m = find(rs, row.multiplier);
    return *n * (m ? trailing_count(*m).value_or(1) : 1);
  }
  return 0;
}

}  // namespace

PointShape point_shape(const std::vector<sched::Resource>& rs) {
  PointShape s;
  if (const std::string* n = find(rs, "nodes")) s.nodes = trailing_count(*n).value_or(1);
  s.gpus = gpus_of(rs, s.nodes);
  const std::string* ntasks = find(rs, "ntasks");
  const std::string* per_node = find(rs, "ntasks-per-node");
  s.ranks = ntasks ? trailing_count(*ntasks).value_or(1) : s.nodes * (per_node ? trailing_count(*per_node).value_or(1) : 1);
  if (const std::string* t = find(rs, "time")) s.time_limit_s = spec::parse_time_limit(*t).seconds;
  return s;
}

}  // namespace sweep::forecast
