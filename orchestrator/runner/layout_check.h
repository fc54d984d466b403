#pragma once
// The layout check of a bundled program (trainbench) at each point, before anything is written or
// submitted: by `sweep run` on every executor (runner::CampaignPlan) and by `sweep plan`. A point is
// refused when the program's layout options (dp x tp x pp) differ from the ranks its resources give,
// or when the program would refuse to start with its args (spec::BundledProgram::refusals: the
// program's own rules, such as heads per tensor slice). Pure.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "matrix/expand.h"
#include "spec/bundled.h"
#include "spec/experiment.h"
#include "templating/render.h"
#include "util/error.h"
#include "util/value.h"

namespace sweep::runner {

class LayoutCheck {
 public:
  /// Compiles the bundled args of each workload entry of `experiment` and its rank resources (ntasks,
  /// nodes, ntasks-per-node), for points with `schema`. Keeps no reference to either.
  LayoutCheck(const spec::Experiment& experiment, const matrix::Schema& schema);

  /// Throws Error(invalid_experiment) at the args of workload entry `workload` (a bundled program with a
  /// layout or refusals; any other entry passes) when, at the point with schema-order `values`:
  /// - a layout option is not a positive integer, or their product differs from the ranks the
  ///   resources give (ntasks, else nodes x ntasks-per-node; neither check when the resources give
  ///   none of them, or give one that is not a count: that is the resources' check);
  /// - the program would refuse to start: the message names the point, every reason in the program's
  ///   words, and an `exclude` entry that pins the values feeding the options at fault (or, when no
  ///   parameter feeds them, says that every point fails).
  void check(std::span<const Value> values, std::size_t workload) const;

  /// The bundled program of workload entry `workload` and its args rendered at the point (a run
  /// variable's value unknown: nullopt); nullopt for an entry that runs no bundled program.
  std::optional<std::pair<std::string, spec::BundledValues>> bundled_args(std::span<const Value> values,
                                                                         std::size_t workload) const;

 private:
  /// One `args` entry; `value` is unset for a flag.
  struct Arg {
    std::string name;
    std::optional<templating::Template> value;
    std::optional<bool> flag;
    bool per_run = false;  // refers to a run variable, so its value is unknown before the run
  };
  /// One workload entry; `program` is null for a command, `checked` false when there is nothing to check.
  struct Entry {
    const spec::BundledProgram* program = nullptr;
    SourceLocation where;
    std::vector<Arg> args;
    bool checked = false;
  };

  spec::BundledValues rendered_args(const Entry& entry, const templating::Variables& vars) const;
  void check_ranks(const Entry& entry, const spec::BundledValues& args, std::span<const Value> values,
                   const templating::Variables& vars) const;
  /// The resource `key` rendered with `vars`, or nullopt when the experiment does not set it.
  std::optional<std::string> resource(std::string_view key, const templating::Variables& vars) const;
  /// The suggestion that ends a refusal: an `exclude` entry over the values feeding the options at
  /// fault, or that none does.
  std::string exclusion_hint(const Entry& entry, const std::vector<spec::BundledRefusal>& refusals,
                             std::span<const Value> values) const;

  matrix::Schema schema_;
  std::vector<Entry> entries_;  // experiment.workloads[i]
  std::vector<std::pair<std::string, templating::Template>> resources_;  // the rank resources, compiled
};

/// LayoutCheck at every point of `expansion` without a CampaignPlan (which checks each of its points
/// itself, for `sweep plan` and `sweep run`), with the workload entry it runs
/// (runner/workload_choice.h), streamed in constant memory; stops at the first point refused and
/// throws its Error. Visits no point when no workload entry is a bundled program with a layout or
/// refusals.
void check_layouts(const spec::Experiment& experiment, const matrix::Expansion& expansion);

}  // namespace sweep::runner
