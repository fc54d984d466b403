#include "spec/load_interconnects.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "spec/load_sections.h"

namespace sweep::spec {
namespace {

double number_at(const Field& f, const Source& src, double min, bool inclusive, std::string_view expected) {
  const Value v = scalar_value(f, src);
  if (!v.is_number()) fail_expected(f, src, expected);
  const double x = v.as_number();
  if (!std::isfinite(x) || x < min || (!inclusive && x == min)) fail_expected(f, src, expected);
  return x;
}

}  // namespace

model::Interconnect read_interconnect(const Field& item, const Source& src) {
  const auto fields = map_fields(item, src);
  constexpr std::array<std::string_view, 5> kKeys{"name", "label", "bandwidth", "latency_us", "source"};
  check_keys(fields, kKeys, src);
  model::Interconnect e;
  const Field* name = find_field(fields, "name");
  const Field* bandwidth = find_field(fields, "bandwidth");
  if (!name || !bandwidth) fail_at(location(item, src), fmt::format("\"{}\" needs \"name\" and \"bandwidth\"", item.path));
  e.name = scalar_text(*name, src, "a name such as our-ib");
  e.bandwidth = number_at(*bandwidth, src, 0, false, "a bandwidth in GB/s above 0");
  if (const Field* f = find_field(fields, "label")) e.label = scalar_text(*f, src, "a label");
  if (const Field* f = find_field(fields, "latency_us")) e.latency_us = number_at(*f, src, 0, true, "a latency in µs, 0 or more");
  if (const Field* f = find_field(fields, "source")) e.source = scalar_text(*f, src, "where the figures come from");
  if (e.label.empty()) e.label = e.name;
  if (e.source.empty()) e.source = src.file;
  return e;
}

std::string read_text_file(const std::string& path, std::string_view what) {
  if (!std::filesystem::exists(path)) throw Error(ErrorKind::not_found, fmt::format("{} \"{}\" does not exist", what, path));
  return read_spec_file(path, what);
}

YAML::Node read_yaml_map_file(const std::string& path, std::string_view what, std::string& text) {
  text = read_text_file(path, what);
  return read_yaml_map(text, path, what);
}

YAML::Node read_yaml_map(const std::string& text, const std::string& path, std::string_view what) {
  check_text(text, path);
  const Source src{path, text, true};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail_at(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (!root.IsMap()) fail_at(SourceLocation{path, 1, 1}, fmt::format("the {} must be a map of keys", what));
  check_document(root, src);
  return root;
}

std::vector<model::Interconnect> load_interconnects(const std::string& path) {
  std::string text;
  const YAML::Node root = read_yaml_map_file(path, "interconnect file", text);
  const Source src{path, text, true};
  const auto fields = map_fields(Field{"", YAML::Node(), root}, src);
  constexpr std::array<std::string_view, 2> kTop{"version", "interconnects"};
  check_keys(fields, kTop, src);
  const Field* version = find_field(fields, "version");
  const Field* list = find_field(fields, "interconnects");
  if (!version || !list) fail_at(SourceLocation{path, 1, 1}, "the file needs \"version: 1\" and \"interconnects\"");
  integer_in(*version, src, 1, 1, "1 (the only version of this format)");
  std::vector<model::Interconnect> out;
  for (const Field& item : list_items(*list, src)) out.push_back(read_interconnect(item, src));
  return out;
}

}  // namespace sweep::spec
