// Readers of `env` (variables exported for the workload) and `setup` (shell lines run before it).
#include <fmt/core.h>

#include <array>

#include "spec/load_sections.h"
#include "util/secrets.h"

namespace sweep::spec {
namespace {

constexpr std::string_view kReservedPrefix = "SWEEP_";

void check_env_name(const Field& f, const Source& src) {
  const std::string name = key_name(f);
  if (!is_identifier(name))
    fail_at(location(f.key, src), fmt::format("\"{}\" is not a variable name: use letters, digits and _, not "
                                              "starting with a digit",
                                              f.path));
  if (name.compare(0, kReservedPrefix.size(), kReservedPrefix) == 0)
    fail_at(location(f.key, src), fmt::format("\"{}\": variables starting with {} are set by sweep itself", f.path,
                                              kReservedPrefix));
}

constexpr std::array<std::string_view, 4> kEntryKeys = {"from_env", "from_file", "value", "secret"};
constexpr std::string_view kEntryForms =
    "a value, {from_env: VARIABLE}, {from_file: PATH} or {value: TEXT, secret: true} (docs/experiment-format.md#secrets)";

std::string text_of(const Field& v, const Source& src) {
  const std::string value = scalar_text(v, src, "a single value (string or number)");
  if (value.find('\0') != std::string::npos) fail_expected(v, src, "text without NUL bytes");
  return value;
}

/// `NAME: {from_env: X}`, `NAME: {from_file: P}` or `NAME: {value: V, secret: true|false}`.
EnvVar read_env_entry(const Field& v, const Source& src) {
  const std::vector<Field> fields = map_fields(v, src);
  check_keys(fields, kEntryKeys, src);
  EnvVar e{key_name(v), "", location(v, src)};
  const Field* from_env = find_field(fields, "from_env");
  const Field* from_file = find_field(fields, "from_file");
  const Field* value = find_field(fields, "value");
  if ((from_env != nullptr) + (from_file != nullptr) + (value != nullptr) != 1)
    fail_expected(v, src, kEntryForms);
  const Field& given = from_env ? *from_env : from_file ? *from_file : *value;
  e.value = text_of(given, src);
  e.where = content_location(given, src);
  e.value_at = location(given, src);
  e.source = from_env ? EnvVar::Source::environment : from_file ? EnvVar::Source::file : EnvVar::Source::literal;
  if (from_env && !is_identifier(e.value)) fail_expected(*from_env, src, "a variable name");
  e.secret = e.source != EnvVar::Source::literal || secret_name(e.name);
  if (const Field* secret = find_field(fields, "secret")) {
    const Value marked = scalar_value(*secret, src);
    if (!marked.is_bool()) fail_expected(*secret, src, "true or false");
    if (!marked.as_bool() && e.source != EnvVar::Source::literal)
      fail_at(location(*secret, src), fmt::format("\"{}.secret\": a reference is always secret", v.path));
    e.secret = marked.as_bool();
  }
  return e;
}

}  // namespace

std::string shown_value(const EnvVar& v) {
  switch (v.source) {
    case EnvVar::Source::environment:
      return "{from_env: " + v.value + "}";
    case EnvVar::Source::file:
      return "{from_file: " + v.value + "}";
    case EnvVar::Source::literal:
      break;
  }
  return v.secret ? std::string(kMask) : v.value;
}

std::string shown_setup(const std::string& line) {
  return replace_assignments(line, secret_assignments(line), [](std::size_t) { return std::string(kMask); });
}

std::vector<EnvVar> read_env_map(const Field& f, const Source& src) {
  std::vector<EnvVar> out;
  for (const Field& v : map_fields(f, src)) {
    check_env_name(v, src);
    if (v.value.IsMap()) {
      out.push_back(read_env_entry(v, src));
      continue;
    }
    const std::string value = text_of(v, src);
    out.push_back({key_name(v), value, content_location(v, src), EnvVar::Source::literal, secret_name(key_name(v)),
                   location(v, src)});
  }
  return out;
}

std::vector<SetupLine> read_setup_list(const Field& f, const Source& src) {
  if (!f.value.IsSequence())
    fail_expected(f, src, "a list of shell lines such as [\"module load cuda\", \"source venv/bin/activate\"]");
  std::vector<SetupLine> out;
  for (const Field& item : list_items(f, src)) {
    const std::string text = scalar_text(item, src, "a shell line (a string)");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
      fail_at(location(item, src), fmt::format("\"{}\" must not be empty", item.path));
    out.push_back({text, content_location(item, src)});
  }
  return out;
}

void read_env(const Field& f, const Source& src, LoadState& st) { st.exp.env = read_env_map(f, src); }

void read_setup(const Field& f, const Source& src, LoadState& st) {
  st.exp.setup = read_setup_list(f, src);
}

}  // namespace sweep::spec
