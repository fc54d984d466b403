#pragma once
// The accumulator of one extraction: observations, per-metric running indexes and capped warnings.
// Internal to parse/. Not thread-safe; each extract() call owns one.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/extract.h"
#include "parse/number.h"
#include "parse/reduce.h"

namespace sweep::parse {

/// `text` with control and non-ASCII bytes (and '"', '\\') written as \xNN, so warnings stay one
/// printable line.
std::string printable(std::string_view text);

/// Maps byte offsets of one source text to 1-based line numbers. Offsets passed to line_of() must not
/// decrease between calls (each call scans only the text since the previous one).
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  std::size_t line_of(std::size_t offset);

 private:
  std::string_view text_;
  std::size_t offset_ = 0;
  std::size_t line_ = 1;
};

class Collector {
 public:
  /// At most this many warnings are kept; the rest are counted into one final "... N more warnings".
  static constexpr std::size_t kMaxWarnings = 100;

  /// Adds an observation made by rule number `rule` of the extractor (kNoRule: a metric line or a
  /// built-in parser). Without `index` it gets the next running index for this name. Every
  /// observation of a name advances that name's running count, explicit index or not. Past
  /// kMaxObservations, or for a name past the first kMaxMetricNames, it is dropped and counted (one
  /// warning per limit from finish()).
  void add(const std::string& name, std::optional<std::size_t> index, double value, std::string unit,
           std::string better, std::size_t rule = kNoRule);

  /// Records "<source>:<line>: <message>" (or "<source>: <message>" when line is 0).
  void warn(std::string_view source, std::size_t line, std::string_view message);

  /// True while another warning would still be kept; lets callers skip formatting work.
  bool wants_warnings() const { return out_.warnings.size() < kMaxWarnings; }

  /// Parses `text` as the value of metric `name`; warns and returns false when it is not a finite
  /// number.
  bool number(std::string_view text, std::string_view source, std::size_t line, const std::string& name, double& value);

  /// Warns that `text`, the value of metric `name`, failed to parse with `status`.
  void bad_number(std::string_view text, NumberStatus status, std::string_view source, std::size_t line,
                  const std::string& name);

  /// Folds and counts the rules' observations (parse/reduce.h, fold_matches); call once, before finish().
  void fold(const std::vector<Rule>& rules, const std::vector<std::optional<Reduce>>& how);

  /// Hands over the result, appending the "... N more warnings" line when warnings were dropped.
  Extraction finish();

 private:
  Extraction out_;
  std::vector<std::size_t> producer_;  // per observation, the rule that made it, or kNoRule
  std::map<std::string, std::size_t, std::less<>> counts_;
  std::size_t dropped_warnings_ = 0;
  std::size_t over_names_ = 0;         // observations dropped: their name was past the first kMaxMetricNames
  std::size_t over_observations_ = 0;  // observations dropped past kMaxObservations
};

}  // namespace sweep::parse
