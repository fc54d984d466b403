#include "matrix/expand.h"

#include <fmt/core.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "util/sha256.h"

namespace sweep::matrix {

namespace {

bool same_value(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return a.as_number() == b.as_number();
  return a == b;
}

std::size_t slot_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

Expansion::Expansion(const spec::Experiment& experiment) : derived_(experiment.derived) {
  schema_.names = experiment.parameter_names();
  schema_.parameter_count = schema_.names.size() - derived_.size();
  for (auto& d : derived_) d.expr.bind(schema_.names);

  // Each axis becomes a unit unless it belongs to a zip group, whose axes form one unit placed at
  // the position of the group's first axis.
  std::vector<bool> zipped(experiment.matrix.size(), false);
  for (std::size_t a = 0; a < experiment.matrix.size(); ++a) {
    if (zipped[a]) continue;
    const spec::Axis& axis = experiment.matrix[a];
    std::vector<const spec::Axis*> members{&axis};
    for (const auto& group : experiment.zip) {
      if (std::find(group.keys.begin(), group.keys.end(), axis.key) == group.keys.end()) continue;
      for (std::size_t b = a + 1; b < experiment.matrix.size(); ++b)
        if (std::find(group.keys.begin(), group.keys.end(), experiment.matrix[b].key) != group.keys.end()) {
          members.push_back(&experiment.matrix[b]);
          zipped[b] = true;
        }
    }
    Unit unit;
    for (const auto* m : members) {
      unit.label += (unit.label.empty() ? "" : "+") + m->key;
      for (const auto& name : m->param_names) unit.slots.push_back(slot_of(schema_.names, name));
    }
    unit.rows.resize(axis.choices.size());
    for (std::size_t row = 0; row < axis.choices.size(); ++row)
      for (const auto* m : members)
        for (const auto& p : m->choices[row].params) unit.rows[row].push_back(p.value);
    units_.push_back(std::move(unit));
  }

  for (const auto& rule : experiment.exclude) {
    Exclude ex;
    for (const auto& p : rule.match) ex.match.emplace_back(slot_of(schema_.names, p.name), p.value);
    if (rule.where) {
      ex.where = *rule.where;
      ex.where->bind(schema_.names);
    }
    excludes_.push_back(std::move(ex));
  }
}

std::uint64_t Expansion::combinations() const {
  std::uint64_t n = 1;
  for (const auto& u : units_) {
    if (u.rows.empty()) return 0;
    if (n > std::numeric_limits<std::uint64_t>::max() / u.rows.size()) return std::numeric_limits<std::uint64_t>::max();
    n *= u.rows.size();
  }
  return n;
}

std::vector<std::pair<std::string, std::uint64_t>> Expansion::unit_sizes() const {
  std::vector<std::pair<std::string, std::uint64_t>> sizes;
  for (const auto& u : units_) sizes.emplace_back(u.label, u.rows.size());
  return sizes;
}

void Expansion::evaluate_derived(std::vector<Value>& values) const {
  for (std::size_t i = 0; i < derived_.size(); ++i)
    values[schema_.parameter_count + i] = derived_[i].expr.eval(values);
}

bool Expansion::excluded(std::span<const Value> values) const {
  for (const auto& ex : excludes_) {
    if (ex.where) {
      const Value verdict = ex.where->eval(values);
      if (!verdict.is_bool())
        fail_at(ex.where->where(), fmt::format("exclude expression must be true or false, got {} \"{}\"",
                                               type_name(verdict.type()), verdict.text()));
      if (verdict.as_bool()) return true;
      continue;
    }
    if (std::all_of(ex.match.begin(), ex.match.end(),
                    [&](const auto& m) { return same_value(values[m.first], m.second); }))
      return true;
  }
  return false;
}

void Expansion::for_each(const std::function<bool(const PointView&)>& fn, const std::atomic<bool>* cancel) const {
  std::vector<Value> values(schema_.names.size());
  std::vector<std::size_t> position(units_.size(), 0);
  const auto assign = [&](std::size_t u) {
    const Unit& unit = units_[u];
    for (std::size_t k = 0; k < unit.slots.size(); ++k) values[unit.slots[k]] = unit.rows[position[u]][k];
  };
  for (std::size_t u = 0; u < units_.size(); ++u) assign(u);

  std::uint64_t ordinal = 0;
  for (std::uint64_t combination = 1;; ++combination) {
    if (cancel && combination % 4096 == 0 && cancel->load()) return;
    try {
      evaluate_derived(values);
      if (!excluded(values) && !fn(PointView{values, ordinal++})) return;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::invalid_experiment || e.message().find(" (at point ") != std::string::npos) throw;
      throw Error(e.kind(), fmt::format("{} (at point {})", e.message(), describe_point(schema_, values)), e.where());
    }
    // Advance the odometer: the last unit varies fastest.
    std::size_t u = units_.size();
    while (u > 0) {
      --u;
      if (++position[u] < units_[u].rows.size()) {
        assign(u);
        break;
      }
      position[u] = 0;
      assign(u);
      if (u == 0) return;
    }
    if (units_.empty()) return;
  }
}

std::vector<Point> Expansion::points() const {
  std::vector<Point> out;
  for_each([&](const PointView& p) {
    out.push_back(Point{point_id(schema_, p.values), p.ordinal, {p.values.begin(), p.values.end()}});
    return true;
  });
  return out;
}

std::string point_id(const Schema& schema, std::span<const Value> values) {
  std::vector<std::size_t> order(schema.parameter_count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return schema.names[a] < schema.names[b]; });
  std::string canonical;
  for (std::size_t i : order) {
    canonical += schema.names[i];
    canonical += '\x1f';
    canonical += type_name(values[i].type());
    canonical += '\x1f';
    canonical += values[i].text();
    canonical += '\x1e';
  }
  return sha256_hex(canonical).substr(0, 16);
}

std::string describe_point(const Schema& schema, std::span<const Value> values) {
  std::string out;
  for (std::size_t i = 0; i < schema.parameter_count; ++i) {
    if (i) out += ", ";
    out += schema.names[i] + "=" + values[i].text();
  }
  return out;
}

}  // namespace sweep::matrix
