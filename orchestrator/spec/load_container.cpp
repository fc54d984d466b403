// Reader of `container` (the experiment's and the site file's): `container: none`, or a map of runtime,
// image, mounts, gpus, env and args (spec/container.h, docs/containers.md).
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "spec/load_sections.h"
#include "util/secrets.h"

namespace sweep::spec {
namespace {

constexpr std::string_view kForms = "none, or a map {runtime, image, mounts, gpus, env, args} (docs/containers.md)";

/// `text` as read, refused when it holds a line break: the check reads the container's output line by
/// line, and provenance/container and container_env are one value a line (a line break would forge lines).
std::string one_line(std::string text, const Field& f, const Source& src) {
  if (text.find_first_of("\n\r") != std::string::npos)
    fail_at(content_location(f, src),
            fmt::format("\"{}\" holds a line break: a container value must be one line (it is written one to a "
                        "line in the run's provenance)",
                        f.path));
  return text;
}

std::string template_text(const Field& f, const Source& src, std::string_view expected) {
  const std::string text = scalar_text(f, src, expected);
  if (text.empty() || text.find('\0') != std::string::npos) fail_expected(f, src, expected);
  return one_line(text, f, src);
}

/// `text` split at each ':' outside a Mustache tag ({{name}} holds none, but a tag's text is not split).
std::vector<std::string> split_mount(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "{{") == 0) ++depth;
    if (text.compare(i, 2, "}}") == 0 && depth > 0) --depth;
    if (text[i] == ':' && depth == 0) parts.emplace_back();
    else parts.back() += text[i];
  }
  return parts;
}

void read_runtime(const Field& f, const Source& src, Container& c) {
  check_in_table(f, src, kContainerRuntimes, "container runtime");
  c.runtime = f.value.Scalar();
  c.runtime_where = location(f, src);
}

void read_image(const Field& f, const Source& src, Container& c) {
  c.image = template_text(f, src, "an image: a path, or a reference such as docker://... (a template)");
  c.image_where = content_location(f, src);
}

/// A mount's path is absolute, or starts with a template (ContainerPlan refuses it if it renders
/// relative): podman reads a relative source as a named volume, the others a path relative to where the
/// job runs. Nothing is shell-expanded: `~/x` or `$HOME/x` would stay as written.
void refuse_relative_mount(const std::string& path, bool source, const Field& item, const Source& src) {
  if (path.front() == '/' || path.rfind("{{", 0) == 0) return;
  fail_at(location(item, src),
          fmt::format("the mount's {} \"{}\" is not an absolute path (podman would take a relative source for a "
                      "named volume; mounts are not shell-expanded, so ~ and $VARIABLES stay as written): write "
                      "/path, or a parameter such as {{{{scratch}}}} that holds one",
                      source ? "source" : "destination", path));
}

void read_mounts(const Field& f, const Source& src, Container& c) {
  constexpr std::string_view kMount = "a mount SRC[:DST[:ro]] (a template)";
  if (!f.value.IsSequence()) fail_expected(f, src, "a list of mounts such as [\"/scratch\", \"/data:/data:ro\"]");
  for (const Field& item : list_items(f, src)) {
    const std::vector<std::string> parts = split_mount(template_text(item, src, kMount));
    const bool empty_part = std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
    if (parts.size() > 3 || empty_part || (parts.size() == 3 && parts[2] != "ro"))
      fail_expected(item, src, "a mount SRC, SRC:DST or SRC:DST:ro (a template)");
    for (std::size_t i = 0; i < parts.size() && i < 2; ++i) refuse_relative_mount(parts[i], i == 0, item, src);
    c.mounts.push_back({parts[0], parts.size() > 1 ? parts[1] : "", parts.size() == 3, content_location(item, src)});
  }
}

void read_gpus(const Field& f, const Source& src, Container& c) {
  const Value v = scalar_value(f, src);
  if (!v.is_bool()) fail_expected(f, src, "true or false");
  c.gpus = v.as_bool();
  c.gpus_where = location(f, src);
}

void read_container_env(const Field& f, const Source& src, Container& c) {
  for (const Field& v : map_fields(f, src)) {
    const std::string name = key_name(v);
    if (!is_identifier(name))
      fail_at(location(v.key, src), fmt::format("\"{}\" is not a variable name: use letters, digits and _, not "
                                                "starting with a digit",
                                                v.path));
    if (name.rfind("SWEEP_", 0) == 0)
      fail_at(location(v.key, src),
              fmt::format("\"{}\": variables starting with SWEEP_ are set by sweep itself", v.path));
    // The value is written into the job script; a secret belongs in the top-level env, whose secrets
    // reach the job through its process environment (and the container from there).
    if (secret_name(name))
      fail_at(location(v.key, src),
              fmt::format("\"{}\" looks like a secret, and container.env is written into the job "
                          "script: put it in the top-level env (docs/experiment-format.md#secrets), "
                          "which reaches the container from the job's environment",
                          v.path));
    if (!v.value.IsScalar()) fail_expected(v, src, "a value (a template)");
    c.env.push_back({name, one_line(scalar_text(v, src, "a value (a template)"), v, src), content_location(v, src)});
  }
}

/// The first variable an argument sets to a literal whose name looks like a secret (`--set-env=HF_TOKEN=x`,
/// `HF_TOKEN=x` after `-e`): an upper-case name ([A-Z_][A-Z0-9_]*) right before an `=` with text after
/// it; "" when none. Options' own names (`--authfile=...`) are lower case and never match.
std::string secret_in_arg(std::string_view arg) {
  for (std::size_t eq = arg.find('='); eq != std::string_view::npos; eq = arg.find('=', eq + 1)) {
    std::size_t begin = eq;
    while (begin > 0 && (std::isupper(static_cast<unsigned char>(arg[begin - 1])) ||
                         std::isdigit(static_cast<unsigned char>(arg[begin - 1])) || arg[begin - 1] == '_'))
      --begin;
    const std::string_view name = arg.substr(begin, eq - begin);
    if (!name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) && eq + 1 < arg.size() && secret_name(name))
      return std::string(name);
  }
  return "";
}

void read_args(const Field& f, const Source& src, Container& c) {
  if (!f.value.IsSequence()) fail_expected(f, src, "a list of the runtime's arguments such as [\"--writable-tmpfs\"]");
  for (const Field& item : list_items(f, src)) {
    std::string text = template_text(item, src, "an argument (a template)");
    // As container.env: an argument is written into the job script and the stored experiment.
    if (const std::string name = secret_in_arg(text); !name.empty())
      fail_at(content_location(item, src),
              fmt::format("container.args sets {}, which looks like a secret, and an argument is written into the job "
                          "script and the database: put it in the top-level env (docs/experiment-format.md#secrets), "
                          "which reaches the container from the job's environment",
                          name));
    c.args.push_back({std::move(text), content_location(item, src)});
  }
}

using ContainerReader = void (*)(const Field&, const Source&, Container&);
constexpr std::array<std::pair<std::string_view, ContainerReader>, 6> kContainerKeys{{
    {"runtime", read_runtime},
    {"image", read_image},
    {"mounts", read_mounts},
    {"gpus", read_gpus},
    {"env", read_container_env},
    {"args", read_args},
}};

}  // namespace

Container read_container_value(const Field& f, const Source& src, bool none_allowed) {
  Container c;
  c.where = location(f, src);
  if (f.value.IsScalar() && none_allowed && f.value.Scalar() == "none") {
    c.none = true;
    return c;
  }
  if (!f.value.IsMap()) fail_expected(f, src, none_allowed ? kForms : kForms.substr(kForms.find("a map")));
  std::array<std::string_view, kContainerKeys.size()> names;
  std::transform(kContainerKeys.begin(), kContainerKeys.end(), names.begin(), [](const auto& k) { return k.first; });
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, names, src);
  for (const auto& [key, read] : kContainerKeys)
    if (const Field* field = find_field(fields, key)) read(*field, src, c);
  return c;
}

void read_container(const Field& f, const Source& src, LoadState& st) {
  st.exp.container = read_container_value(f, src, true);
}

}  // namespace sweep::spec
