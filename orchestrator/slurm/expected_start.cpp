#include "slurm/expected_start.h"

namespace sweep::slurm {
namespace {

/// The word after `marker` in `line`; "" when the marker is absent.
std::string_view word_after(std::string_view line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string_view::npos) return {};
  std::string_view rest = line.substr(at + marker.size());
  return rest.substr(0, rest.find_first_of(" \n"));
}

}  // namespace

std::optional<std::string> parse_test_only(std::string_view text) {
  const auto at = text.find(" to start at ");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view line = text.substr(text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1);
  line = line.substr(0, line.find('\n'));
  const std::string_view when = word_after(line, " to start at ");
  if (when.empty()) return std::nullopt;
  std::string out(when);
  if (const auto nodes = word_after(line, " on nodes "); !nodes.empty()) out += " on " + std::string(nodes);
  if (const auto partition = word_after(line, " in partition "); !partition.empty())
    out += " in partition " + std::string(partition);
  return out;
}

}  // namespace sweep::slurm
