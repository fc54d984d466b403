#include "report/point_identity.h"

#include <algorithm>
#include <set>

#include <fmt/core.h>

#include "report/points_view.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// Each parameter's values over `results`, by name, names in the order first seen.
struct ParamValues {
  std::vector<std::string> names;
  std::vector<std::set<std::string>> values;  // parallel to names

  void add(const store::ParamRecord& p) {
    const auto it = std::find(names.begin(), names.end(), p.name);
    if (it != names.end()) {
      values[static_cast<std::size_t>(it - names.begin())].insert(p.value);
      return;
    }
    names.push_back(p.name);
    values.push_back({p.value});
  }
  const std::set<std::string>* find(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? nullptr : &values[static_cast<std::size_t>(it - names.begin())];
  }
};

ParamValues values_of(const std::vector<PointResult>& results) {
  ParamValues out;
  for (const auto& r : results)
    for (const auto& p : r.point->params)
      if (!p.derived) out.add(p);
  return out;
}

std::string quoted_values(const std::set<std::string>& values) {
  return join(std::vector<std::string>(values.begin(), values.end()), ", ");
}

}  // namespace

PointIdentity point_identity(const std::vector<const std::vector<PointResult>*>& groups, const std::string& ignore) {
  ParamValues all;
  for (const auto* g : groups)
    for (const auto& r : *g)
      for (const auto& p : r.point->params)
        if (!p.derived && p.name != ignore) all.add(p);
  PointIdentity out;
  for (std::size_t i = 0; i < all.names.size(); ++i)
    (all.values[i].size() > 1 ? out.params : out.constant).push_back(all.names[i]);
  return out;
}

std::string identity_key(const store::PointRecord& p, const PointIdentity& identity) {
  return param_text(p, identity.params, " ");
}

Alignment align(const std::vector<PointResult>& baseline, const std::vector<PointResult>& candidate) {
  Alignment out{point_identity({&baseline, &candidate}), {}};
  const ParamValues b = values_of(baseline), c = values_of(candidate);
  std::vector<std::string> only_b, only_c, differing;
  for (const auto& name : out.identity.params) {
    const auto *vb = b.find(name), *vc = c.find(name);
    if (!vc) only_b.push_back(name);
    else if (!vb) only_c.push_back(name);
    else if (vb->size() == 1 && vc->size() == 1) {
      differing.push_back(name);
      out.differences.push_back(
          fmt::format("`{}` is {} in the baseline, {} in the candidate", name, *vb->begin(), *vc->begin()));
    }
  }
  for (std::size_t i = 0; i < std::max(only_b.size(), only_c.size()); ++i) {
    if (i < only_b.size() && i < only_c.size())
      out.differences.push_back(fmt::format("the baseline has axis `{}` ({}), the candidate `{}` ({})", only_b[i],
                                            quoted_values(*b.find(only_b[i])), only_c[i], quoted_values(*c.find(only_c[i]))));
    else if (i < only_b.size())
      out.differences.push_back(
          fmt::format("the baseline has axis `{}` ({}), the candidate has not", only_b[i], quoted_values(*b.find(only_b[i]))));
    else
      out.differences.push_back(
          fmt::format("the candidate has axis `{}` ({}), the baseline has not", only_c[i], quoted_values(*c.find(only_c[i]))));
  }
  differing.insert(differing.end(), only_b.begin(), only_b.end());
  differing.insert(differing.end(), only_c.begin(), only_c.end());
  std::erase_if(out.identity.params, [&](const std::string& n) { return std::find(differing.begin(), differing.end(), n) != differing.end(); });
  return out;
}

void rename_params(std::vector<store::PointRecord>& points, const std::vector<std::pair<std::string, std::string>>& map) {
  for (const auto& [from, to] : map) {
    bool found = false;
    for (auto& p : points) {
      if (find_param(p, to) && from != to)
        throw Error(ErrorKind::usage, fmt::format("--map {}={}: the baseline has a parameter `{}` already", from, to, to));
      for (auto& param : p.params)
        if (param.name == from) {
          param.name = to;
          found = true;
        }
    }
    if (!found && !points.empty())
      throw Error(ErrorKind::usage, fmt::format("--map {}={}: the baseline has no parameter `{}`", from, to, from));
  }
}

}  // namespace sweep::report
