// spec::load_file / load_text: the table of top-level keys, the order they are read in, and --set.
#include "spec/load.h"

#include <fmt/core.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <array>
#include <climits>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "spec/load_sections.h"
#include "util/names.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 5> kKeywords{"and", "or", "not", "true", "false"};

void read_format(const Field& f, const Source& src, LoadState&) {
  if (!f.value.IsScalar() || f.value.Scalar() != std::to_string(kExperimentFormatVersion))
    fail_at(location(f, src), fmt::format("unsupported \"format\" {} (this build reads format {})", describe(f.value),
                                          kExperimentFormatVersion));
}

void read_name(const Field& f, const Source& src, LoadState& st) {
  const std::string name = scalar_text(f, src, "a name");
  try {
    require_safe_name(name, "name");
  } catch (const Error& e) {
    fail_at(location(f, src), e.message());
  }
  st.exp.name = name;
}

void read_description(const Field& f, const Source& src, LoadState& st) {
  st.exp.description = scalar_text(f, src, "a string");
}

/// Readers run in table order: phase 1, then the --set overrides, then phase 2 (which reads what
/// phase 1 and the overrides produced), then phase 3 (which reads the derived values of phase 2).
struct TopKey {
  std::string_view name;
  int phase;
  bool required;
  bool overridable;  // by --set name=value
  Reader read;
};

constexpr std::array<TopKey, 25> kTopKeys{{
    {"format", 1, false, false, read_format},
    {"name", 1, true, true, read_name},
    {"description", 1, false, true, read_description},
    {"matrix", 1, true, false, read_matrix},
    {"repetitions", 1, false, true, read_repetitions},
    {"workload", 3, true, false, read_workload},  // after derived: a list entry's `when` may use them
    {"resources", 1, false, false, read_resources},
    {"metrics", 1, false, false, read_metrics},
    {"executor", 1, false, true, read_executor},
    {"workdir", 1, false, true, read_workdir},
    {"order", 1, false, true, read_order},
    {"retries", 1, false, false, read_retries},
    {"escalate", 2, false, false, read_escalate},  // after retries: it names retried classes
    {"thresholds", 3, false, false, read_thresholds},  // after metrics and derived: it names both
    {"references", 3, false, false, read_references},  // after derived: `where` reads them
    {"env", 1, false, false, read_env},
    {"setup", 1, false, false, read_setup},
    {"network", 1, false, false, read_network},
    {"telemetry", 1, false, true, read_telemetry},
    {"container", 1, false, false, read_container},
    {"report", 1, false, false, read_report},  // validated here; read by `sweep report` (spec/load_report.h)
    {"zip", 2, false, false, read_zip},
    {"derived", 2, false, false, read_derived},
    {"exclude", 2, false, false, read_exclude},  // after derived: `where` may use derived values
    {"success", 2, false, false, read_success},  // after metrics
}};

std::vector<std::string_view> top_key_names(bool overridable_only) {
  std::vector<std::string_view> out;
  for (const TopKey& k : kTopKeys)
    if (!overridable_only || k.overridable) out.push_back(k.name);
  return out;
}

void run_phase(int phase, const std::vector<Field>& fields, const Source& src, LoadState& st) {
  for (const TopKey& k : kTopKeys)
    if (k.phase == phase)
      if (const Field* f = find_field(fields, k.name)) k.read(*f, src, st);
}

void check_required(const std::vector<Field>& fields, const Source& src) {
  for (const TopKey& k : kTopKeys)
    if (k.required && !find_field(fields, k.name))
      fail_at(SourceLocation{src.file, 1, 1}, fmt::format("missing required key \"{}\"", k.name));
}

YAML::Node parse_override_value(const Override& o, const Source& src) {
  try {
    return YAML::Load(o.value);
  } catch (const YAML::Exception& e) {
    fail_at(SourceLocation{src.file}, fmt::format("cannot read the value: {}", e.msg));
  }
}

[[noreturn]] void fail_unknown_override(const Override& o, const Source& src, const Experiment& exp) {
  for (const Axis& a : exp.matrix)
    if (std::find(a.param_names.begin(), a.param_names.end(), o.key) != a.param_names.end())
      fail_at(SourceLocation{src.file}, fmt::format("cannot --set \"{}\": it is a field of map axis \"{}\", and a map "
                                                    "axis cannot be --set",
                                                    o.key, a.key));
  std::vector<std::string> top;
  for (std::string_view k : top_key_names(true)) top.emplace_back(k);
  std::vector<std::string> keys = top;
  for (const Axis& a : exp.matrix) keys.push_back(a.key);
  const std::string hint = did_you_mean(o.key, keys);
  fail_at(SourceLocation{src.file},
          hint.empty() ? fmt::format("unknown key \"{}\" for --set (expected a matrix key or one of: {})", o.key,
                                     join(top, ", "))
                       : fmt::format("unknown key \"{}\" for --set{}", o.key, hint));
}

void apply_override(const Override& o, LoadState& st) {
  // The place every message names, and every location of the value's items copies: a long value is cut
  // to its first 60 bytes there, so that a list of n items costs O(n), not n copies of the whole list.
  std::size_t shown_bytes = std::min<std::size_t>(o.value.size(), 60);
  while (shown_bytes < o.value.size() && (static_cast<unsigned char>(o.value[shown_bytes]) & 0xC0) == 0x80) --shown_bytes;
  const std::string shown = o.value.substr(0, shown_bytes) + (shown_bytes < o.value.size() ? "..." : "");
  const Source src{fmt::format("--set {}={}", o.key, shown), o.value, false};
  if (o.key.empty()) fail_at(SourceLocation{src.file}, "--set needs key=value with a non-empty key");
  const Field f{o.key, YAML::Node(), parse_override_value(o, src)};
  for (Axis& axis : st.exp.matrix)
    if (axis.key == o.key) return override_axis(axis, f, src, st);
  for (const TopKey& k : kTopKeys)
    if (k.overridable && k.name == o.key) return k.read(f, src, st);
  fail_unknown_override(o, src, st.exp);
}

/// Records where a document's first event is. Nothing else of the events is kept.
struct FirstMark : YAML::EventHandler {
  std::optional<YAML::Mark> first;
  void note(const YAML::Mark& m) {
    if (!first) first = m;
  }
  void OnDocumentStart(const YAML::Mark& m) override { note(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}
};

/// Refuses a text of more than one document, walking at most two. yaml-cpp 0.7's LoadAll never returns
/// (allocating as it goes) on text its parser cannot consume, such as ",": the parser hands out the
/// same broken document again and again. Here a document that starts where the previous one did is
/// reported as the syntax error it is.
void check_single_document(const std::string& text, const Source& src) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  std::optional<YAML::Mark> previous;
  for (int i = 0; i < 2; ++i) {
    FirstMark doc;
    if (!parser.HandleNextDocument(doc) || !doc.first) return;
    const YAML::Mark& at = *doc.first;
    const SourceLocation where{src.file, at.line + 1, at.column + 1};
    if (previous && at.pos <= previous->pos) {
      const char c = at.pos >= 0 && static_cast<std::size_t>(at.pos) < text.size() ? text[static_cast<std::size_t>(at.pos)] : ' ';
      fail_at(where, fmt::format("the YAML cannot be parsed from here: '{}' cannot start a value or a key", c));
    }
    if (previous) fail_at(where, "the file holds more than one YAML document; an experiment is one document");
    previous = at;
  }
}

YAML::Node parse_document(const std::string& text, const Source& src) {
  YAML::Node doc;
  try {
    check_single_document(text, src);
    doc = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {  // its message reads "bad file" in yaml-cpp 0.7
    fail_at(SourceLocation{src.file, e.mark.line + 1, e.mark.column + 1},
            fmt::format("the YAML is nested too deeply (more than {} levels)", e.depth() - 1));
  } catch (const YAML::Exception& e) {
    fail_at(SourceLocation{src.file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (doc.IsNull())
    fail_at(SourceLocation{src.file, 1, 1},
            "the experiment is empty; it needs at least \"name\", \"matrix\" and "
            "\"workload\"");
  if (!doc.IsMap())
    fail_at(location(doc, src), fmt::format("the top level must be a map of keys (name, matrix, workload, "
                                            "...), got {}",
                                            describe(doc)));
  return doc;
}

}  // namespace

void check_param_name(const std::string& name, const SourceLocation& at, std::string_view what) {
  if (!is_identifier(name))
    fail_at(at, fmt::format("{} \"{}\" must be a name of letters, digits and _ that does not start with a digit", what,
                            name));
  if (std::find(kKeywords.begin(), kKeywords.end(), name) != kKeywords.end())
    fail_at(at, fmt::format("{} \"{}\" is a keyword of the expression language; choose another name", what, name));
  if (std::find(kRunVariables.begin(), kRunVariables.end(), name) != kRunVariables.end())
    fail_at(at, fmt::format("{} \"{}\" is reserved for a run variable; choose another name", what, name));
}

Experiment load_text(const std::string& text, const std::string& path, const std::vector<Override>& overrides) {
  check_text(text, path);
  const Source src{path, text, true};
  const YAML::Node root = parse_document(text, src);
  check_document(root, src);

  Experiment exp;
  exp.path = path;
  exp.text = text;
  LoadState st{exp, {}, {}};
  const std::vector<Field> fields = map_fields(Field{"", YAML::Node(), root}, src);
  const std::vector<std::string_view> names = top_key_names(false);
  check_keys(fields, names, src);
  check_required(fields, src);
  run_phase(1, fields, src, st);
  for (const Override& o : overrides) apply_override(o, st);
  run_phase(2, fields, src, st);
  run_phase(3, fields, src, st);
  return exp;
}

Experiment load_file(const std::string& path, const std::vector<Override>& overrides) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status))
    throw Error(ErrorKind::not_found, fmt::format("experiment file \"{}\" does not exist", path));
  if (std::filesystem::is_directory(status))
    throw Error(ErrorKind::io, fmt::format("experiment file \"{}\" is a directory", path));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxExperimentBytes)
    fail_at(SourceLocation{path}, fmt::format("the file is {} bytes; experiment files are limited to 16 MiB", size));
  return load_text(read_spec_file(path, "experiment file"), path, overrides);
}

std::string overrides_text(const std::vector<Override>& overrides) {
  std::string out;
  for (const auto& o : overrides) out += o.key + "=" + o.value + "\n";
  return out;
}

std::vector<Override> parse_overrides_text(const std::string& text) {
  std::vector<Override> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos) out.push_back({line.substr(0, eq), line.substr(eq + 1)});
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

Experiment load_stored(const std::string& text, const std::string& path, const std::string& overrides) {
  return load_text(text, path, parse_overrides_text(overrides));
}

}  // namespace sweep::spec
