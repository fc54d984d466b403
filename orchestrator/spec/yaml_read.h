#pragma once
// Private to spec/load*.cpp: typed, located access to yaml-cpp nodes. Not part of the module interface;
// yaml-cpp must not leak into headers that other modules include.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"
#include "util/value.h"

namespace sweep::spec {

/// Where nodes come from: the experiment file (marks give line:column) or a `--set` override, whose
/// errors name the override instead of a line.
struct Source {
  std::string file;
  std::string_view text;  // the parsed text (used to find where block scalars' content starts)
  bool has_lines = true;
};

/// One value with the key it came from (null for list items and overrides) and its path for messages,
/// e.g. "workload.launcher" or "metrics[0].name".
struct Field {
  std::string path;
  YAML::Node key;
  YAML::Node value;
};

/// The node's 1-based line:column; {file} for override sources or nodes without a mark.
SourceLocation location(const YAML::Node& n, const Source& src);
/// The value's location, or the key's when the value is null (yaml-cpp marks null values oddly).
SourceLocation location(const Field& f, const Source& src);
/// Where a scalar's content begins: past an opening quote, or on the first content line of a block
/// scalar (| or >). Expression and template columns are counted from here.
SourceLocation content_location(const Field& f, const Source& src);

/// For messages: "a map", "a list", "null", or the scalar in quotes.
std::string describe(const YAML::Node& n);
/// Throws `"PATH" must be EXPECTED, got DESCRIPTION` at the field.
[[noreturn]] void fail_expected(const Field& f, const Source& src, std::string_view expected);

/// The entries of a map field in file order (paths "parent.key"). Throws unless the value is a map.
std::vector<Field> map_fields(const Field& f, const Source& src);
/// The items of a list field in order (paths "parent[i]"). Throws unless the value is a list.
std::vector<Field> list_items(const Field& f, const Source& src);
/// Throws `unknown key "x" (did you mean "y"?)` (or listing the valid keys) for a key not in `allowed`.
void check_keys(const std::vector<Field>& fields, std::span<const std::string_view> allowed, const Source& src);
/// The entry named `key`, or nullptr.
const Field* find_field(const std::vector<Field>& fields, std::string_view key);
/// The key of a map entry as written.
std::string key_name(const Field& f);

/// A non-null scalar's text; otherwise throws saying `expected` was wanted.
std::string scalar_text(const Field& f, const Source& src, std::string_view expected);
/// A scalar as a typed Value: plain true/false -> bool, plain decimal integer -> integer, plain YAML
/// 1.2 float -> real, anything else (quoted, block, !!str, other words) -> string. Null, lists and
/// maps throw.
Value scalar_value(const Field& f, const Source& src);
/// A plain integer scalar within [lo, hi]; otherwise throws saying `expected`.
std::int64_t integer_in(const Field& f, const Source& src, std::int64_t lo, std::int64_t hi, std::string_view expected);
/// [A-Za-z_][A-Za-z0-9_]*: the names expressions and templates can refer to.
bool is_identifier(std::string_view name);

/// Whole-document checks run before any interpretation: every map key is a scalar and appears once
/// (`duplicate key "x" (first defined at line N)` at the second), and alias expansion stays bounded.
void check_document(const YAML::Node& root, const Source& src);
/// Refuses text over 16 MiB, NUL bytes and invalid UTF-8 (at the first bad byte's line:column).
void check_text(std::string_view text, const std::string& file);

inline constexpr std::size_t kMaxExperimentBytes = 16u << 20;

/// The text of a file the user names (an experiment, a site file, an interconnect file): a regular
/// file of at most kMaxExperimentBytes, read no further (util/safe_files.h read_input_file). A FIFO,
/// a device such as /dev/zero, or a larger file is Error(io) "cannot read <what> "<path>": <why>".
std::string read_spec_file(const std::string& path, std::string_view what);

}  // namespace sweep::spec
