#pragma once
// Small string helpers shared by every module. Pure.
#include <string>
#include <string_view>
#include <vector>

namespace sweep {

/// Levenshtein distance between a and b.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if it is close enough to be a plausible typo
/// (distance <= max(2, |word|/3)), else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean \"x\"?)" when closest_match finds x, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// Joins with a separator: join({"a","b"}, ", ") == "a, b".
std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// Splits on a single character, keeping empty fields.
std::vector<std::string> split(std::string_view text, char sep);

/// Strips ASCII whitespace at both ends.
std::string_view trim(std::string_view text);

}  // namespace sweep
