#include "sched/resources.h"

#include <fmt/core.h>

#include <optional>

namespace sweep::sched {
namespace {

bool truthy(const std::string& v) { return v == "true" || v == "yes" || v == "1"; }
bool falsy(const std::string& v) { return v == "false" || v == "no" || v == "0" || v.empty(); }

/// Whether entry `i` gives way to a later entry of the same key.
bool overridden(const std::vector<Resource>& rendered, std::size_t i, ResourceKey::Kind kind) {
  if (kind == ResourceKey::Kind::list) return false;
  for (std::size_t j = i + 1; j < rendered.size(); ++j)
    if (rendered[j].key == rendered[i].key && !(kind == ResourceKey::Kind::optional && rendered[j].value.empty()))
      return true;
  return false;
}

/// `r` normalised, or nullopt when it leaves the cluster's default. Throws for a bad value.
std::optional<Resource> checked(const Resource& r, const ResourceKey& key) {
  const auto bad = [&](std::string_view expected) {
    fail_at(r.where, fmt::format("resource \"{}\" must render to {}, got \"{}\"", r.key, expected, r.value));
  };
  Resource out = r;
  switch (key.kind) {
    case ResourceKey::Kind::flag:
    case ResourceKey::Kind::toggle:
      if (key.kind == ResourceKey::Kind::toggle && r.value.empty()) return std::nullopt;
      if (!truthy(r.value) && !falsy(r.value)) bad("true or false");
      if (key.kind == ResourceKey::Kind::flag && !truthy(r.value)) return std::nullopt;
      out.value = truthy(r.value) ? "true" : "false";
      return out;
    case ResourceKey::Kind::list:
      if (r.value.empty() || r.value[0] != '-')
        fail_at(r.where, fmt::format("each \"resources.extra\" item must be an option of the scheduler starting with -, "
                                     "got \"{}\"", r.value));
      return out;
    case ResourceKey::Kind::count:
      if (!is_count(r.value)) bad("a positive integer");
      return out;
    case ResourceKey::Kind::optional:
      if (r.value.empty()) return std::nullopt;
      [[fallthrough]];
    case ResourceKey::Kind::value:
      if (r.value.empty() || r.value.find_first_of(" \t\r\n") != std::string::npos) bad("one non-empty word");
      return out;
  }
  return out;
}

}  // namespace

std::vector<Resource> effective_resources(const std::vector<Resource>& rendered) {
  std::vector<Resource> out;
  for (std::size_t i = 0; i < rendered.size(); ++i) {
    const ResourceKey* key = find_resource_key(rendered[i].key);
    if (!key) throw Error(ErrorKind::internal, "unknown resource " + rendered[i].key);
    if (overridden(rendered, i, key->kind)) continue;
    if (auto r = checked(rendered[i], *key)) out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace sweep::sched
