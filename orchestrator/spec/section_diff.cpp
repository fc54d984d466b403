#include <fmt/core.h>

#include "spec/section_diff.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

#include "util/error.h"

namespace sweep::spec {
namespace {

/// Whether two parsed nodes hold the same data: style (flow or block, quoting) and comments ignored,
/// a mapping's keys in any order.
bool same_data(const YAML::Node& a, const YAML::Node& b) {
  if (a.Type() != b.Type()) return false;
  if (a.IsScalar()) return a.Scalar() == b.Scalar();
  if (a.IsSequence()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_data(a[i], b[i])) return false;
    return true;
  }
  if (!a.IsMap()) return true;  // both null
  if (a.size() != b.size()) return false;
  for (const auto& kv : a) {
    const YAML::Node other = b[kv.first.Scalar()];
    if (!other.IsDefined() || !same_data(kv.second, other)) return false;
  }
  return true;
}

/// The mapping's sections in document order.
std::vector<std::pair<std::string, YAML::Node>> sections(const std::string& text, const std::string& name) {
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(ErrorKind::invalid_experiment,
                fmt::format("{}:{}:{}: {}", name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!doc.IsMap()) throw Error(ErrorKind::invalid_experiment, fmt::format("{}: not a YAML mapping", name));
  std::vector<std::pair<std::string, YAML::Node>> out;
  for (const auto& kv : doc) out.emplace_back(kv.first.Scalar(), kv.second);
  return out;
}

}  // namespace

std::vector<std::string> differing_sections(const std::string& a, const std::string& b, const std::string& b_path) {
  const auto old_sections = sections(a, "the stored experiment");
  const auto new_sections = sections(b, b_path);
  const std::map<std::string, YAML::Node> new_by_key(new_sections.begin(), new_sections.end());
  const std::map<std::string, YAML::Node> old_by_key(old_sections.begin(), old_sections.end());
  std::vector<std::string> out;
  for (const auto& [key, node] : old_sections) {
    const auto it = new_by_key.find(key);
    if (it == new_by_key.end() || !same_data(node, it->second)) out.push_back(key);
  }
  for (const auto& [key, node] : new_sections)
    if (!old_by_key.count(key)) out.push_back(key);
  return out;
}

}  // namespace sweep::spec
