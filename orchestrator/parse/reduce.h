#pragma once
// How the matches of one regex or json rule within one run become its value (`reduce:` in a `metrics`
// entry, docs/metrics-format.md#reduce). Pure. spec/metric_reductions.h holds the same names for the
// loader; tests/unit/runner/metric_parsers_test.cpp checks that both agree.
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parse/extract.h"

namespace sweep::parse {

/// `each` keeps every match as its own index (0, 1, ...), as a parser's rows; the others fold the
/// matches into one value at index 0.
enum class Reduce { last, first, mean, min, max, sum, each };

/// Every name `reduce:` takes, in documentation order: last, first, mean, min, max, sum, each.
std::vector<std::string> reduction_names();

/// The reduction called `name`, or nullopt.
std::optional<Reduce> reduction_named(std::string_view name);

/// The one value `how` makes of `values` (in match order). Precondition: `values` is not empty and
/// `how` is not Reduce::each.
double reduce(Reduce how, std::span<const double> values);

/// Marks an observation that no rule made (a metric line, a built-in parser's row).
inline constexpr std::size_t kNoRule = std::numeric_limits<std::size_t>::max();

/// Folds the observations of every rule whose reduction is given (and not `each`) into one
/// observation at the place and index of its first (index 0 when the rule is its metric's only
/// producer, as the loader ensures among rules), and counts every regex and json rule's
/// observations. `producer[i]` is the index in `rules` of the rule that made `observations[i]`, or
/// kNoRule; `how[r]` is rule r's reduction (nullopt: none given). Returns one entry per regex or json
/// rule, in declaration order, its count taken before folding.
std::vector<RuleMatches> fold_matches(const std::vector<Rule>& rules, const std::vector<std::optional<Reduce>>& how,
                                      std::vector<Observation>& observations, const std::vector<std::size_t>& producer);

/// Why the run cannot count when a rule without `reduce` matched more than once, naming the rule, its
/// count, its source and the fix at the rule's place; nullopt when every rule matched at most once or
/// says how to reduce. The first such rule in declaration order is named.
std::optional<std::string> unreduced_matches(const std::vector<RuleMatches>& matches);

}  // namespace sweep::parse
