#include "parse/nccl_transports.h"

#include <algorithm>
#include <set>

#include "util/strings.h"

namespace sweep::parse {
namespace {

constexpr std::string_view kInfo = "NCCL INFO ";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_slash(std::string_view s) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t slash = s.find('/', at);
    parts.push_back(s.substr(at, slash == std::string_view::npos ? std::string_view::npos : slash - at));
    if (slash == std::string_view::npos) return parts;
    at = slash + 1;
  }
}

std::string_view first_word(std::string_view s) { return s.substr(0, s.find(' ')); }

struct Seen {
  std::set<std::string> chosen, initialised, transports;

  void line(std::string_view line) {
    const std::size_t at = line.find(kInfo);
    if (at == std::string_view::npos) return;
    const std::string_view info = trim(line.substr(at + kInfo.size()));
    if (info.starts_with("Using network ")) {
      if (auto net = trim(info.substr(14)); !net.empty()) chosen.emplace(net);
    } else if (info.starts_with("NET/")) {
      const std::size_t colon = info.find(" : Using [");
      if (colon != std::string_view::npos) initialised.emplace(trim(info.substr(4, colon - 4)));
    } else if (info.starts_with("Channel ")) {
      const std::size_t via = info.find(" via ");
      if (via == std::string_view::npos) return;
      if (auto name = channel_transport(info.substr(via + 5)); !name.empty()) transports.insert(std::move(name));
    }
  }

  std::vector<std::string> networks() const {
    if (!chosen.empty()) return {chosen.begin(), chosen.end()};
    std::set<std::string> nets = initialised;
    if (nets.size() > 1) nets.erase("Socket");
    return {nets.begin(), nets.end()};
  }
};

}  // namespace

std::string channel_transport(std::string_view via) {
  via = trim(via);
  const auto parts = split_slash(via);
  const std::string_view kind = first_word(parts[0]);
  if (kind.empty()) return "";
  if (kind == "SHM") return "SHM";
  if ((kind == "P2P" || kind == "NET") && parts.size() > 1) {
    std::string name = std::string(kind) + "/" + std::string(kind == "P2P" ? first_word(parts[1]) : trim(parts[1]));
    if (kind == "NET" && std::find(parts.begin() + 2, parts.end(), "GDRDMA") != parts.end()) name += "/GDRDMA";
    return name;
  }
  return std::string(kind);
}

NcclTransports scan_nccl_transports(const std::vector<std::string_view>& texts) {
  Seen seen;
  for (const std::string_view text : texts)
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      seen.line(text.substr(at, end - at));
      at = end + 1;
    }
  return {seen.networks(), {seen.transports.begin(), seen.transports.end()}};
}

std::vector<std::pair<std::string, std::string>> nccl_transport_keys(const NcclTransports& seen) {
  std::vector<std::pair<std::string, std::string>> keys;
  if (!seen.networks.empty()) keys.emplace_back("nccl.net", join(seen.networks, ","));
  if (!seen.transports.empty()) keys.emplace_back("nccl.transports", join(seen.transports, ","));
  return keys;
}

}  // namespace sweep::parse
