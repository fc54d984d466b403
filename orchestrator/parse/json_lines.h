#pragma once
// Line-oriented JSON reading shared by json rules and metric lines. Internal to parse/.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace sweep::parse {

/// Called with the 1-based line number and the line's text; the parsed object is null-typed
/// (is_discarded()) when the line is not valid JSON.
using JsonLineVisitor = std::function<void(std::size_t line, std::string_view text, const nlohmann::json& object)>;

/// Called instead of the visitor for a candidate line longer than the limit, with its length in bytes.
using LongLineVisitor = std::function<void(std::size_t line, std::size_t bytes)>;

/// Calls `visit` for every line of `text` whose first non-blank character is '{' and that contains at
/// least one of `needles` verbatim (a cheap filter, so that only plausible lines are parsed). Each such
/// line is parsed once, without exceptions. Lines that parse to something other than an object are
/// passed as discarded. A candidate line longer than `max_bytes` is never parsed (parsing costs many
/// times its size): `too_long` is called for it instead.
void for_each_json_line(std::string_view text, const std::vector<std::string>& needles, const JsonLineVisitor& visit,
                        std::size_t max_bytes = SIZE_MAX, const LongLineVisitor& too_long = {});

/// The needle that a line holding `key` must contain: `<last dotted component>"`, or "" (no filter)
/// when the key has characters JSON may escape.
std::string needle_for_key(std::string_view key);

/// The value under `key` in `object`: the top-level member named exactly `key` if there is one, else the
/// path of its dot-separated components through nested objects. Null when absent.
const nlohmann::json* find_key(const nlohmann::json& object, const std::string& key,
                               const std::vector<std::string>& path);

}  // namespace sweep::parse
