#pragma once
// Why a required metric was not found in a run's output, and what to change: the rule that should
// have produced it (with its file:line:column), whether it matches on the other standard stream (a
// Python program's `logging` prints on stderr), else the line that came closest. Pure.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/extract.h"

namespace sweep::parse {

/// A line of a source that nearly matched a rule: it holds `needle` (the rule's literal prefix or the
/// metric's name, case-insensitively) but not the pattern.
struct NearLine {
  std::size_t line = 0;  // 1-based
  std::string text;      // at most kNearLineBytes bytes of it
  std::string needle;    // what it holds
};
inline constexpr std::size_t kNearLineBytes = 200;

/// The literal text a regex starts with, up to its first metacharacter, without a leading ^ and
/// trailing blanks ("throughput: (?<value>\\d+)" -> "throughput:"); "" when it starts with none.
std::string literal_prefix(std::string_view pattern);

/// The first line of `text` that holds one of `needles` (tried in order, case-insensitively, each
/// needle of 3 bytes or more); nullopt when none does.
std::optional<NearLine> closest_line(std::string_view text, const std::vector<std::string>& needles);

/// Lines ("  "-indented, one fact each, the last saying what to change) on why the required metric
/// `metric` is missing from `sources` (source name -> text, as Extractor::extract takes them), given
/// the experiment's `rules`. Text from the output is quoted as it is; printing it is the sink's.
std::string explain_missing(const std::vector<Rule>& rules, std::string_view metric,
                            const std::map<std::string, std::string_view>& sources);

}  // namespace sweep::parse
