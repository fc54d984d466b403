#pragma once
// A compiled regex metric rule (PCRE2, JIT when available). Internal to parse/.
#include <memory>
#include <string_view>

#include "parse/collector.h"
#include "parse/extract.h"

namespace sweep::parse {

class RegexRule {
 public:
  /// Compiles rule.pattern with PCRE2_MULTILINE (no UTF mode, so any bytes match safely) and JIT when
  /// available. The value is the group named "value", else the one named like the metric, else the
  /// pattern's only capturing group when it has exactly one, unnamed. Throws Error(invalid_experiment)
  /// at rule.where when the pattern does not compile or no group is the value by these rules.
  explicit RegexRule(const Rule& rule);
  ~RegexRule();
  RegexRule(RegexRule&&) noexcept;
  RegexRule& operator=(RegexRule&&) = delete;
  RegexRule(const RegexRule&) = delete;
  RegexRule& operator=(const RegexRule&) = delete;

  /// Adds one observation per match of the pattern in `text`, in order, as made by rule number
  /// `rule_index` (Collector::add). Matching errors (e.g. a backtracking limit) stop this rule with a
  /// warning. Thread-safe: match state is per call.
  void apply(const Rule& rule, std::size_t rule_index, std::string_view source, std::string_view text,
             Collector& out) const;

 private:
  struct Code;
  std::unique_ptr<Code> code_;
};

}  // namespace sweep::parse
