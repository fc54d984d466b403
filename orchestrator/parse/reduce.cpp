#include "parse/reduce.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <numeric>

namespace sweep::parse {
namespace {

struct Reduction {
  std::string_view name;
  Reduce how;
};

constexpr std::array<Reduction, 7> kReductions{{
    {"last", Reduce::last},
    {"first", Reduce::first},
    {"mean", Reduce::mean},
    {"min", Reduce::min},
    {"max", Reduce::max},
    {"sum", Reduce::sum},
    {"each", Reduce::each},
}};

bool folds(const std::optional<Reduce>& how) { return how && *how != Reduce::each; }

}  // namespace

std::vector<std::string> reduction_names() {
  std::vector<std::string> out;
  for (const Reduction& r : kReductions) out.emplace_back(r.name);
  return out;
}

std::optional<Reduce> reduction_named(std::string_view name) {
  for (const Reduction& r : kReductions)
    if (r.name == name) return r.how;
  return std::nullopt;
}

double reduce(Reduce how, std::span<const double> values) {
  switch (how) {
    case Reduce::first:
      return values.front();
    case Reduce::mean:
      return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    case Reduce::min:
      return *std::min_element(values.begin(), values.end());
    case Reduce::max:
      return *std::max_element(values.begin(), values.end());
    case Reduce::sum:
      return std::accumulate(values.begin(), values.end(), 0.0);
    case Reduce::last:
    case Reduce::each:
      break;
  }
  return values.back();
}

std::vector<RuleMatches> fold_matches(const std::vector<Rule>& rules, const std::vector<std::optional<Reduce>>& how,
                                      std::vector<Observation>& observations, const std::vector<std::size_t>& producer) {
  std::vector<std::vector<double>> values(rules.size());
  std::vector<std::size_t> first(rules.size(), kNoRule);
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const std::size_t r = producer[i];
    if (r == kNoRule) continue;
    if (first[r] == kNoRule) first[r] = i;
    values[r].push_back(observations[i].value);
  }
  std::vector<Observation> kept;
  kept.reserve(observations.size());
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const std::size_t r = producer[i];
    if (r == kNoRule || !folds(how[r])) kept.push_back(std::move(observations[i]));
    else if (first[r] == i) kept.push_back({std::move(observations[i].name), observations[i].index,
                                            reduce(*how[r], values[r]), std::move(observations[i].unit),
                                            std::move(observations[i].better)});
  }
  observations = std::move(kept);
  std::vector<RuleMatches> out;
  for (std::size_t r = 0; r < rules.size(); ++r)
    if (rules[r].kind != Rule::Kind::parser)
      out.push_back({rules[r].name, values[r].size(), rules[r].reduce, rules[r].source, rules[r].where});
  return out;
}

std::optional<std::string> unreduced_matches(const std::vector<RuleMatches>& matches) {
  for (const RuleMatches& m : matches) {
    if (!m.reduce.empty() || m.count < 2) continue;
    return fmt::format("metric \"{}\" matched {} times in this run's {}; say reduce: last (or first, mean, min, max, "
                       "sum; each keeps every match as its own index) in its rule at {}",
                       m.name, m.count, m.source, m.where.str());
  }
  return std::nullopt;
}

}  // namespace sweep::parse
