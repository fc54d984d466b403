#pragma once
// Which top-level sections of two experiment texts differ: `sweep reparse --from` accepts a new file
// only when the sections that differ from the stored experiment are the ones it may change (metrics).
#include <string>
#include <vector>

namespace sweep::spec {

/// The top-level keys of `a` and `b` (YAML mappings) whose values differ once parsed, comments and
/// layout ignored, in the order they first appear (a's keys, then b's new ones); a key present in one
/// text only counts as differing. Error(invalid_experiment) naming `b_path` (or "the stored experiment"
/// for `a`) when a text is not a YAML mapping. Pure.
std::vector<std::string> differing_sections(const std::string& a, const std::string& b, const std::string& b_path);

}  // namespace sweep::spec
