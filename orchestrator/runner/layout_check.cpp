#include "runner/layout_check.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "runner/workload_choice.h"
#include "sched/resources.h"
#include "util/escape.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

// The resources that give a point's ranks.
constexpr std::array<std::string_view, 3> kRankResources{"ntasks", "nodes", "ntasks-per-node"};

bool refers_to_run(const templating::Template& t) {
  return std::any_of(t.names().begin(), t.names().end(), [](const std::string& name) {
    return std::find(spec::kRunVariables.begin(), spec::kRunVariables.end(), name) != spec::kRunVariables.end();
  });
}

// `v` as a literal of the expression language (docs/experiment-format.md).
std::string expr_literal(const Value& v) {
  if (!v.is_string()) return v.text();
  std::string out = "'";
  for (const char c : v.as_string()) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

bool at_fault(std::string_view option, const std::vector<spec::BundledRefusal>& refusals) {
  return std::any_of(refusals.begin(), refusals.end(), [&](const spec::BundledRefusal& r) {
    return std::find(r.options.begin(), r.options.end(), option) != r.options.end();
  });
}

// Whether the program named by a workload has anything to check at a point.
const spec::BundledProgram* checked_program(const spec::Workload& w) {
  const spec::BundledProgram* program = spec::find_bundled(w.program);
  return program && (!program->layout.empty() || program->refusals) ? program : nullptr;
}

}  // namespace

LayoutCheck::LayoutCheck(const spec::Experiment& experiment, const matrix::Schema& schema) : schema_(schema) {
  for (const spec::Workload& w : experiment.workloads) {
    Entry entry;
    if (const spec::BundledProgram* program = spec::find_bundled(w.program))
      entry = {program, w.command_where, {}, checked_program(w) != nullptr};
    for (const spec::BundledArg& a : w.args) {
      if (!entry.program) break;
      Arg arg{a.name, std::nullopt, a.flag};
      if (!a.flag) arg.value.emplace(a.value, w.command_where);
      arg.per_run = arg.value && refers_to_run(*arg.value);
      entry.args.push_back(std::move(arg));
    }
    entries_.push_back(std::move(entry));
  }
  for (const spec::Resource& r : experiment.resources)
    if (std::find(kRankResources.begin(), kRankResources.end(), r.key) != kRankResources.end())
      resources_.emplace_back(r.key, templating::Template(r.value, r.where));
}

void LayoutCheck::check(std::span<const Value> values, std::size_t workload) const {
  const Entry& entry = entries_.at(workload);
  if (!entry.checked) return;
  const templating::Variables vars = point_variables(schema_, values);
  const spec::BundledValues args = rendered_args(entry, vars);
  if (!entry.program->layout.empty()) check_ranks(entry, args, values, vars);
  if (!entry.program->refusals) return;
  const std::vector<spec::BundledRefusal> refusals = entry.program->refusals(args);
  if (refusals.empty()) return;
  std::vector<std::string> reasons;
  for (const spec::BundledRefusal& r : refusals) reasons.push_back(r.message);
  fail_at(entry.where, fmt::format("{} would refuse point {}: {}; {}", entry.program->name, point_text(schema_, values),
                                   join(reasons, "; "), exclusion_hint(entry, refusals, values)));
}

std::optional<std::pair<std::string, spec::BundledValues>> LayoutCheck::bundled_args(std::span<const Value> values,
                                                                                    std::size_t workload) const {
  const Entry& entry = entries_.at(workload);
  if (!entry.program) return std::nullopt;
  return std::pair{std::string(entry.program->name), rendered_args(entry, point_variables(schema_, values))};
}

spec::BundledValues LayoutCheck::rendered_args(const Entry& entry, const templating::Variables& vars) const {
  spec::BundledValues out;
  for (const Arg& a : entry.args) {
    if (a.flag) out[a.name] = *a.flag ? "true" : "false";
    else if (a.per_run) out[a.name] = std::nullopt;
    else out[a.name] = a.value->render(vars, templating::Escape::none);
  }
  return out;
}

void LayoutCheck::check_ranks(const Entry& entry, const spec::BundledValues& args, std::span<const Value> values,
                              const templating::Variables& vars) const {
  const auto ntasks = resource("ntasks", vars), nodes = resource("nodes", vars),
             per_node = resource("ntasks-per-node", vars);
  if (!ntasks && !nodes && !per_node) return;
  for (const auto& r : {ntasks, nodes, per_node})
    if (r && !sched::is_count(*r)) return;
  const long ranks = ntasks ? std::stol(*ntasks) : std::stol(nodes.value_or("1")) * std::stol(per_node.value_or("1"));
  const std::string given = ntasks ? "ntasks " + *ntasks
                                   : fmt::format("nodes {} x ntasks-per-node {}", nodes.value_or("1"), per_node.value_or("1"));
  long product = 1;
  std::vector<std::string> factors;
  for (const std::string_view option : entry.program->layout) {
    const auto arg = args.find(option);
    if (arg != args.end() && !arg->second) return;  // known only at run time
    const std::string value = arg == args.end() ? "1" : *arg->second;
    if (!sched::is_count(value))
      fail_at(entry.where, fmt::format("{} --{} must be a positive integer, got \"{}\" at point {}", entry.program->name,
                                       option, value, point_text(schema_, values)));
    product *= std::stol(value);
    factors.push_back(fmt::format("{} {}", option, value));
  }
  if (product != ranks)
    fail_at(entry.where, fmt::format("{}'s {} = {} ranks, but the resources give {} = {} at point {}",
                                     entry.program->name, join(factors, " x "), product, given, ranks,
                                     point_text(schema_, values)));
}

std::optional<std::string> LayoutCheck::resource(std::string_view key, const templating::Variables& vars) const {
  for (const auto& [name, value] : resources_)
    if (name == key) return value.render(vars, templating::Escape::none);
  return std::nullopt;
}

std::string LayoutCheck::exclusion_hint(const Entry& entry, const std::vector<spec::BundledRefusal>& refusals,
                                        std::span<const Value> values) const {
  std::vector<std::string> names, options, pins;
  for (const spec::BundledRefusal& r : refusals)
    for (const std::string& o : r.options)
      if (std::find(options.begin(), options.end(), o) == options.end()) options.push_back(o);
  for (const Arg& a : entry.args)
    if (a.value && at_fault(a.name, refusals))
      for (const std::string& n : a.value->names())
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  if (names.empty())  // literal args, or the program's defaults
    return fmt::format("no parameter feeds {}, so every point fails the same way: change \"args\"", join(options, ", "));
  for (std::size_t i = 0; i < schema_.names.size(); ++i)
    if (std::find(names.begin(), names.end(), schema_.names[i]) != names.end())
      pins.push_back(fmt::format("{} == {}", schema_.names[i], expr_literal(values[i])));
  return fmt::format("to leave such points out, add {{where: {}}} to \"exclude\"", json_string(join(pins, " and ")));
}

void check_layouts(const spec::Experiment& experiment, const matrix::Expansion& expansion) {
  if (std::none_of(experiment.workloads.begin(), experiment.workloads.end(), checked_program)) return;
  const LayoutCheck check(experiment, expansion.schema());
  std::optional<Error> refused;  // thrown after for_each, which would add the point's parameters again
  expansion.for_each([&](const matrix::PointView& p) {
    try {
      check.check(p.values, choose_workload(experiment, expansion.schema(), p.values));
      return true;
    } catch (const Error& e) {
      refused = e;
      return false;
    }
  });
  if (refused) throw *refused;
}

}  // namespace sweep::runner
