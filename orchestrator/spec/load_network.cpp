// Reader of `network`: which network-card counters are sampled around each run's workload, e.g.
// `network: {}` (the default rule), `network: {interfaces: [lo]}` or `network: {counters: false}`
// (docs/experiment-format.md).
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "spec/load_sections.h"

namespace sweep::spec {
namespace {

/// A Linux interface name (1 to 15 characters, no '/' or space) or an IB port as device/port.
bool is_interface_name(std::string_view name) {
  const std::size_t slash = name.find('/');
  const std::string_view dev = name.substr(0, slash);
  const auto ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':'; };
  if (dev.empty() || dev.size() > 15 || !std::all_of(dev.begin(), dev.end(), ok)) return false;
  if (slash == std::string_view::npos) return true;
  const std::string_view port = name.substr(slash + 1);
  return !port.empty() && std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void read_counters(const Field& f, const Source& src, Network& n) {
  const Value v = scalar_value(f, src);
  if (v.type() != ValueType::boolean) fail_expected(f, src, "true or false");
  n.counters = v.as_bool();
}

void read_interfaces(const Field& f, const Source& src, Network& n) {
  if (!f.value.IsSequence()) fail_expected(f, src, "a list of interface names such as [eth0, lo] or IB ports such as [mlx5_0/1]");
  for (const Field& item : list_items(f, src)) {
    const std::string name = scalar_text(item, src, "an interface name");
    if (!is_interface_name(name))
      fail_expected(item, src, "an interface name (up to 15 letters, digits, _ - . :) or an IB port as device/port");
    if (std::find(n.interfaces.begin(), n.interfaces.end(), name) != n.interfaces.end())
      fail_at(location(item, src), fmt::format("interface \"{}\" is named twice", name));
    n.interfaces.push_back(name);
  }
  if (n.interfaces.empty()) fail_expected(f, src, "at least one interface (leave the key out for the default rule)");
}

using NetworkReader = void (*)(const Field&, const Source&, Network&);
constexpr std::array<std::pair<std::string_view, NetworkReader>, 2> kNetworkKeys{{{"counters", read_counters},
                                                                                  {"interfaces", read_interfaces}}};

}  // namespace

void read_network(const Field& f, const Source& src, LoadState& st) {
  std::array<std::string_view, kNetworkKeys.size()> names;
  std::transform(kNetworkKeys.begin(), kNetworkKeys.end(), names.begin(), [](const auto& k) { return k.first; });
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, names, src);
  Network n;
  n.counters = true;
  n.where = location(f, src);
  for (const auto& [key, read] : kNetworkKeys)
    if (const Field* field = find_field(fields, key)) read(*field, src, n);
  st.exp.network = std::move(n);
}

}  // namespace sweep::spec
