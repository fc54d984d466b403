#include "templating/render.h"

#include <fmt/core.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <kainjow/mustache.hpp>
#include <iterator>
#include <sstream>

#include "templating/tags.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::templating {

namespace {

using Data = kainjow::mustache::data;

/// Looks names up verbatim in one object: no dotted paths, no context stack (every value is a string
/// or a boolean, so sections never introduce names of their own), no partials.
class FlatContext final : public kainjow::mustache::basic_context<std::string> {
 public:
  explicit FlatContext(const Data& root) : root_(root) {}
  void push(const Data*) override {}
  void pop() override {}
  const Data* get(const std::string& name) const override { return root_.get(name); }
  const Data* get_partial(const std::string&) const override { return nullptr; }

 private:
  const Data& root_;
};

/// The escape applied to each {{name}}, by Escape; raw tags are never escaped.
struct EscapeRow {
  Escape escape;
  std::string (*apply)(const std::string&);
};

constexpr std::array<EscapeRow, 2> kEscapes{{
    {Escape::shell, [](const std::string& s) { return shell_quote(s); }},
    {Escape::none, [](const std::string& s) { return s; }},
}};

/// A section renders when its value is non-empty and not "false" or "0".
bool truthy(std::string_view value) { return !value.empty() && value != "false" && value != "0"; }

std::vector<std::string> keys_of(const Variables& vars) {
  std::vector<std::string> keys;
  keys.reserve(vars.size());
  for (const auto& [key, value] : vars) keys.push_back(key);
  return keys;
}

}  // namespace

Template::Template(std::string text, SourceLocation where) : text_(std::move(text)), where_(std::move(where)) {
  const Scan scanned = scan(text_, where_);
  kainjow::mustache::mustache engine(scanned.engine_text);
  if (!engine.is_valid()) fail_at(where_, fmt::format("template: {}", engine.error_message()));
  names_ = scanned.names;
}

void Template::check_names(const std::vector<std::string>& available) const {
  for (const std::string& name : names_)
    if (std::find(available.begin(), available.end(), name) == available.end())
      fail_at(where_, fmt::format("unknown template variable \"{}\"{}", name, did_you_mean(name, available)));
}

std::string Template::render(const Variables& vars, Escape escape) const {
  for (const std::string& name : names_)
    if (vars.find(name) == vars.end())
      fail_at(where_, fmt::format("unknown template variable \"{}\"{}", name, did_you_mean(name, keys_of(vars))));
  const Scan scanned = scan(text_, where_);  // re-scanned (microseconds) so a Template stays a plain value
  Data data(Data::type::object);
  for (const std::string& name : scanned.names) data.set(name, Data(vars.find(name)->second));
  for (const std::string& name : scanned.section_names)
    data.set(std::string(kSectionPrefix) + name,
             Data(truthy(vars.find(name)->second) ? Data::type::bool_true : Data::type::bool_false));
  kainjow::mustache::mustache engine(scanned.engine_text);
  for (const EscapeRow& row : kEscapes)
    if (row.escape == escape) engine.set_custom_escape(row.apply);
  FlatContext context(data);
  std::ostringstream out;
  engine.render(context, out);
  if (!engine.is_valid())
    throw Error(ErrorKind::internal, "template rendering failed: " + engine.error_message(), where_);
  return std::move(out).str();
}

Template load_template_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxTemplateBytes);
  } catch (const Error& e) {
    throw Error(ErrorKind::io, fmt::format("cannot read template file \"{}\": {} (a regular file of at most 1 MiB is expected)",
                                           path, e.what()));
  }
  return Template(std::move(text), SourceLocation{path, 1, 1});
}

}  // namespace sweep::templating
