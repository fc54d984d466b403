// Readers of `env` (variables exported for the workload) and `setup` (shell lines run before it).
#include <fmt/core.h>

#include "spec/load_sections.h"

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

}  // namespace

std::vector<EnvVar> read_env_map(const Field& f, const Source& src) {
  std::vector<EnvVar> out;
  for (const Field& v : map_fields(f, src)) {
    check_env_name(v, src);
    const std::string value = scalar_text(v, src, "a single value (string or number)");
    if (value.find('\0') != std::string::npos) fail_expected(v, src, "text without NUL bytes");
    out.push_back({key_name(v), value, content_location(v, src)});
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
