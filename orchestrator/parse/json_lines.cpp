#include "parse/json_lines.h"

#include <algorithm>

namespace sweep::parse {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool wanted(std::string_view line, const std::vector<std::string>& needles) {
  return std::any_of(needles.begin(), needles.end(), [&](const std::string& needle) {
    return needle.empty() || line.find(needle) != std::string_view::npos;
  });
}

}  // namespace

void for_each_json_line(std::string_view text, const std::vector<std::string>& needles, const JsonLineVisitor& visit,
                        std::size_t max_bytes, const LongLineVisitor& too_long) {
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first])) ++first;
    if (first == line.size() || line[first] != '{' || !wanted(line, needles)) continue;
    line.remove_prefix(first);
    if (line.size() > max_bytes) {
      if (too_long) too_long(line_no, line.size());
      continue;
    }
    nlohmann::json object = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (!object.is_object()) object = nlohmann::json(nlohmann::json::value_t::discarded);
    visit(line_no, line, object);
  }
}

std::string needle_for_key(std::string_view key) {
  const std::size_t dot = key.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? key : key.substr(dot + 1);
  const bool plain = std::all_of(last.begin(), last.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\' && c != '/';
  });
  return plain ? std::string(last) + '"' : std::string();
}

const nlohmann::json* find_key(const nlohmann::json& object, const std::string& key,
                               const std::vector<std::string>& path) {
  if (!object.is_object()) return nullptr;
  if (const auto it = object.find(key); it != object.end()) return &*it;
  if (path.size() < 2) return nullptr;
  const nlohmann::json* node = &object;
  for (const std::string& component : path) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(component);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

}  // namespace sweep::parse
