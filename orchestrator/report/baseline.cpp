#include "report/baseline.h"

#include <fmt/core.h>

#include <algorithm>
#include <unordered_map>

#include "report/points_view.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> matched_names(const spec::Baseline& b) {
  std::vector<std::string> out;
  for (const auto& [name, value] : b.match) out.push_back(name);
  return out;
}

bool is_candidate(const store::PointRecord& p, const spec::Baseline& b) {
  return std::all_of(b.match.begin(), b.match.end(), [&](const auto& kv) {
    const auto* pr = find_param(p, kv.first);
    return pr && pr->value == kv.second;
  });
}

/// What a point shares with its baseline point: its non-derived parameters, less the matched and the
/// ignored ones, as "name=value" entries.
std::string shared_key(const store::PointRecord& p, const std::vector<std::string>& matched, const spec::Baseline& b) {
  std::string key;
  for (const auto& pr : p.params)
    if (!pr.derived && !contains(matched, pr.name) && !contains(b.ignore, pr.name)) key += pr.name + '=' + pr.value + '\0';
  return key;
}

/// The point a conflict is reported for: the first that is not itself a candidate, else the first.
std::size_t contested_point(const std::vector<std::string>& keys, const std::string& key,
                            const std::vector<bool>& candidate) {
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] != key) continue;
    if (!candidate[i]) return i;
    if (!first) first = i;
  }
  return first.value_or(0);
}

}  // namespace

BaselineMatches match_baselines(const PointsView& points, const spec::Baseline& baseline) {
  const std::vector<PointResult>& results = points.results;
  BaselineMatches out;
  if (results.empty()) return out;
  std::vector<std::string> named = matched_names(baseline);
  const std::vector<std::string> matched = named;
  named.insert(named.end(), baseline.ignore.begin(), baseline.ignore.end());
  require_known(named, points.params, "baseline parameter");
  std::vector<std::string> keys;
  std::vector<bool> candidate;
  std::unordered_map<std::string, std::size_t> bases;
  for (const auto& r : results) {
    keys.push_back(shared_key(*r.point, matched, baseline));
    candidate.push_back(is_candidate(*r.point, baseline));
  }
  for (std::size_t j = 0; j < results.size(); ++j) {
    if (!candidate[j]) continue;
    const auto [it, fresh] = bases.try_emplace(keys[j], j);
    if (!fresh) {
      out.conflict = BaselineConflict{contested_point(keys, keys[j], candidate), it->second, j};
      return out;
    }
  }
  out.of.resize(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    if (const auto it = bases.find(keys[i]); it != bases.end()) out.of[i] = it->second;
  return out;
}

std::vector<std::optional<std::size_t>> baseline_indices(const PointsView& points, const spec::Baseline& baseline) {
  const std::vector<PointResult>& results = points.results;
  BaselineMatches m = match_baselines(points, baseline);
  if (!m.conflict) return std::move(m.of);
  const auto label = [&](std::size_t i) { return point_label(*results[i].point); };
  throw Error(ErrorKind::usage,
              fmt::format("baseline {} is ambiguous: points \"{}\" and \"{}\" could both be the baseline of \"{}\"; "
                          "add the parameter that tells them apart to \"match\", take it out of \"ignore\", "
                          "or run only one of them (an exclude in the matrix)",
                          describe(baseline), label(m.conflict->first), label(m.conflict->second),
                          label(m.conflict->point)));
}

std::optional<std::size_t> baseline_index(const std::vector<PointResult>& results, std::size_t i,
                                          const spec::Baseline& baseline) {
  return baseline_indices(results, baseline).at(i);
}

std::vector<const PointResult*> baselines_of(const std::vector<PointResult>& selected, const PointsView& view,
                                             const spec::Baseline& baseline) {
  const std::vector<PointResult>& all = view.results;
  const auto bases = baseline_indices(view, baseline);
  std::unordered_map<const store::PointRecord*, const PointResult*> base_of;
  for (std::size_t j = 0; j < all.size(); ++j) base_of[all[j].point] = bases[j] ? &all[*bases[j]] : nullptr;
  std::vector<const PointResult*> out;
  for (const auto& r : selected) {
    const auto it = base_of.find(r.point);
    out.push_back(it == base_of.end() ? nullptr : it->second);
  }
  return out;
}

std::string describe(const spec::Baseline& baseline) {
  std::vector<std::string> values;
  for (const auto& [name, value] : baseline.match) values.push_back(name + ": " + value);
  std::string out = "{" + join(values, ", ") + "}";
  if (!baseline.ignore.empty()) out += " ignoring [" + join(baseline.ignore, ", ") + "]";
  return out;
}

const SourceLocation& where_of(const spec::Baseline& baseline, const SourceLocation& owner) {
  return baseline.at.line > 0 || !baseline.at.file.empty() ? baseline.at : owner;
}

}  // namespace sweep::report
