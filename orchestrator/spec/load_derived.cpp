// Reader of `derived`: parsing, name checks and the topological order.
#include <fmt/core.h>

#include <algorithm>

#include "spec/load_sections.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

struct Pending {
  Derived d;
  std::vector<std::size_t> deps;  // indices of the derived values it reads
  bool placed = false;
};

std::vector<std::string> matrix_params(const Experiment& exp) {
  std::vector<std::string> out;
  for (const Axis& a : exp.matrix) out.insert(out.end(), a.param_names.begin(), a.param_names.end());
  return out;
}

Derived read_one(const Field& f, const Source& src, const std::vector<std::string>& params) {
  const std::string name = key_name(f);
  const SourceLocation at = location(f.key, src);
  check_param_name(name, at, "derived name");
  if (std::find(params.begin(), params.end(), name) != params.end())
    fail_at(at, fmt::format("derived value \"{}\" has the same name as a matrix parameter", name));
  if (!f.value.IsScalar() || f.value.Scalar().empty())
    fail_expected(f, src, "an expression (a string such as \"tp * pp\", or a number)");
  return Derived{name, Expr::parse(f.value.Scalar(), content_location(f, src)), at};
}

/// `a -> b -> a`: follows unplaced dependencies from `start` until one repeats.
std::string describe_cycle(const std::vector<Pending>& all, std::size_t start) {
  std::vector<std::size_t> path{start};
  while (true) {
    const Pending& p = all[path.back()];
    const std::size_t next = *std::find_if(p.deps.begin(), p.deps.end(), [&](std::size_t d) { return !all[d].placed; });
    const auto seen = std::find(path.begin(), path.end(), next);
    if (seen != path.end()) {
      std::vector<std::string> names;
      for (auto it = seen; it != path.end(); ++it) names.push_back(all[*it].d.name);
      names.push_back(all[next].d.name);
      return join(names, " -> ");
    }
    path.push_back(next);
  }
}

bool ready(const std::vector<Pending>& all, const Pending& p) {
  return std::all_of(p.deps.begin(), p.deps.end(), [&](std::size_t d) { return all[d].placed; });
}

/// Repeatedly places the first (in file order) entry whose dependencies are all placed, so independent
/// entries keep their file order.
std::vector<Derived> topological(std::vector<Pending> all) {
  std::vector<Derived> out;
  while (out.size() < all.size()) {
    const auto next =
        std::find_if(all.begin(), all.end(), [&](const Pending& p) { return !p.placed && ready(all, p); });
    if (next == all.end()) {
      const auto stuck = std::find_if(all.begin(), all.end(), [](const Pending& p) { return !p.placed; });
      fail_at(stuck->d.where, fmt::format("derived values form a cycle: {}",
                                          describe_cycle(all, static_cast<std::size_t>(stuck - all.begin()))));
    }
    next->placed = true;
    out.push_back(next->d);
  }
  return out;
}

}  // namespace

void read_derived(const Field& f, const Source& src, LoadState& st) {
  const std::vector<std::string> params = matrix_params(st.exp);
  std::vector<Pending> all;
  for (const Field& entry : map_fields(f, src)) all.push_back(Pending{read_one(entry, src, params), {}});

  std::vector<std::string> symbols = params;  // unknown names fail at their exact column
  for (const Pending& p : all) symbols.push_back(p.d.name);
  for (Pending& p : all) {
    p.d.expr.bind(symbols);
    for (const std::string& name : p.d.expr.names()) {
      const auto it = std::find(symbols.begin() + static_cast<std::ptrdiff_t>(params.size()), symbols.end(), name);
      if (it != symbols.end()) p.deps.push_back(static_cast<std::size_t>(it - symbols.begin()) - params.size());
    }
  }
  st.exp.derived = topological(std::move(all));
  const std::vector<std::string> final_symbols = st.exp.parameter_names();
  for (Derived& d : st.exp.derived) d.expr.bind(final_symbols);
}

}  // namespace sweep::spec
