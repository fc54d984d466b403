#include "runner/gpu_facts.h"

#include <string>
#include <utility>
#include <vector>

#include "util/strings.h"

namespace sweep::runner {
namespace {

/// The name of a "GPU <n>: <name> (UUID: ...)" line; "" for any other line.
std::string_view device_name(std::string_view line) {
  if (line.substr(0, 4) != "GPU ") return {};
  const auto colon = line.find(": ");
  const auto uuid = line.rfind(" (UUID: ");
  if (colon == std::string_view::npos || uuid == std::string_view::npos || uuid <= colon + 2) return {};
  return line.substr(colon + 2, uuid - colon - 2);
}

/// The token after `label` in `text` ("550.90.07" after "Driver Version:"), "" when absent.
std::string after(std::string_view text, std::string_view label) {
  auto at = text.find(label);
  if (at == std::string_view::npos) return "";
  at += label.size();
  while (at < text.size() && text[at] == ' ') ++at;
  auto end = at;
  while (end < text.size() && text[end] != ' ' && text[end] != '\n' && text[end] != '|') ++end;
  return std::string(text.substr(at, end - at));
}

/// Names with how many of each, in order of first appearance.
std::vector<std::pair<std::string, int>> tally(std::string_view list) {
  std::vector<std::pair<std::string, int>> kinds;
  for (const auto& line : split(list, '\n')) {
    const std::string_view name = device_name(line);
    if (name.empty()) continue;
    auto it = kinds.begin();
    while (it != kinds.end() && it->first != name) ++it;
    if (it == kinds.end()) kinds.emplace_back(std::string(name), 1);
    else ++it->second;
  }
  return kinds;
}

}  // namespace

store::KeyValues gpu_facts(std::string_view list, std::string_view banner) {
  store::KeyValues out;
  const auto kinds = tally(list);
  if (!kinds.empty()) {
    int count = 0;
    std::vector<std::string> model;
    for (const auto& [name, n] : kinds) {
      count += n;
      model.push_back(std::to_string(n) + " x " + name);
    }
    out.emplace_back("gpu.count", std::to_string(count));
    out.emplace_back("gpu.model", kinds.size() == 1 ? kinds.front().first : join(model, ", "));
  }
  for (const auto& [key, label] : {std::pair{"gpu.driver", "Driver Version:"}, std::pair{"gpu.cuda", "CUDA Version:"}})
    if (std::string v = after(banner, label); !v.empty()) out.emplace_back(key, std::move(v));
  return out;
}

}  // namespace sweep::runner
