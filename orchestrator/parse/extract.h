#pragma once
// Metric extraction from a run's output (the only user of PCRE2 and, with matrix/, nlohmann-json). Pure:
// the caller reads the files and passes their text.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace sweep::parse {

/// The `source` of a rule that reads stdout, then stderr.
inline constexpr std::string_view kBothStreams = "both";

/// One declared metric, or one built-in parser (mirrors spec::MetricRule; the runner converts).
struct Rule {
  enum class Kind { regex, json, parser };
  std::string name;             // "" for a parser, which names its own metrics
  std::string unit;
  std::string better;           // "higher" | "lower"
  Kind kind = Kind::regex;
  std::string pattern;          // regex: a named group "value" or one named like the metric; json: the key;
                                // parser: its name (builtin_parser_names())
  std::string source = "stdout";  // "stdout", "stderr", kBothStreams or a file relative to the run directory
  SourceLocation where;         // where the rule was declared, for compile errors
  std::string reduce;           // regex and json: how its matches in one run reduce (parse/reduce.h);
                                // "" = not given, so more than one match makes the run fail
};

/// Limits on what one run's output may cost (docs/metrics-format.md#limits). Past each, the rest is
/// skipped and counted in a warning, as the runner's cap on the bytes read (runner/ingest.h).
inline constexpr std::size_t kMaxJsonLineBytes = 1u << 20;  // a longer JSON line is not parsed
inline constexpr std::size_t kMaxMetricNameBytes = 256;     // a metric line's longer name is refused
inline constexpr std::size_t kMaxMetricNames = 10'000;      // distinct metric names per run
inline constexpr std::size_t kMaxObservations = 1'000'000;  // values per run, all names together

/// The names a `parser` rule can take: {"nccl-tests", "osu"}.
std::vector<std::string> builtin_parser_names();

/// One extracted value. `index` counts the matches of that metric in order, from 0.
struct Observation {
  std::string name;
  std::size_t index = 0;
  double value = 0;
  std::string unit;
  std::string better;  // "higher", "lower" or "" (metric line without a direction)
};

/// How many values one regex or json rule found in one run (before its `reduce`).
struct RuleMatches {
  std::string name;
  std::size_t count = 0;
  std::string reduce;  // the rule's, "" when not given
  std::string source;
  SourceLocation where;
};

struct Extraction {
  std::vector<Observation> observations;
  std::vector<std::string> warnings;  // e.g. "stdout:12: metric \"x\": value \"abc\" is not a number"
  std::vector<RuleMatches> matches;   // one per regex or json rule, in declaration order
};

/// Compiled rules. Construction compiles every regex (PCRE2 with JIT when available) and throws
/// Error(invalid_experiment) at the rule's location for a pattern that does not compile or lacks the
/// named group, for an unknown parser name, or for an unknown `reduce` (or one on a parser).
/// Thread-safe for concurrent extract() calls.
class Extractor {
 public:
  explicit Extractor(std::vector<Rule> rules);
  ~Extractor();
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  /// The rules, as given.
  const std::vector<Rule>& rules() const { return rules_; }

  /// Source names extract() reads, each once: "stdout" and "stderr" always (metric lines), then every
  /// other source a rule reads (files relative to the run directory), in declaration order.
  std::vector<std::string> sources() const;

  /// Applies the rules to `sources` (source name -> full text). A source that is absent is skipped.
  /// Regex rules and built-in parsers run first, in declaration order; then json rules and metric lines
  /// (docs/metrics-format.md) from "stdout" and "stderr". Values that are not finite numbers are skipped
  /// with a warning. Then each rule with a `reduce` other than `each` has its values folded into one
  /// (parse/reduce.h); `matches` counts every regex and json rule's values. Never throws on any input
  /// text; whether a rule matched too often to count is unreduced_matches()'s to say.
  Extraction extract(const std::map<std::string, std::string_view>& sources) const;

 private:
  struct Compiled;
  std::vector<Rule> rules_;
  std::vector<Compiled*> compiled_;
};

}  // namespace sweep::parse
