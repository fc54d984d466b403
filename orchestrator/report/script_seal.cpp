#include "report/script_seal.h"

#include <fmt/core.h>

#include "util/sha256.h"

namespace sweep::report {
namespace {

constexpr std::string_view kSealStart = "# sha256 ";
constexpr std::string_view kSealEnd = " of this script without this line: edit a style file, not this script";
constexpr std::size_t kHexDigits = 64;

}  // namespace

std::string sealed(std::string_view text) {
  const std::size_t first = text.find('\n');
  const std::size_t cut = first == std::string_view::npos ? text.size() : first + 1;
  const std::string first_line(text.substr(0, cut)), rest(text.substr(cut));
  return first_line + std::string(kSealStart) + sha256_hex(first_line + rest) + std::string(kSealEnd) + "\n" + rest;
}

ScriptOnDisk script_on_disk(const std::optional<std::string>& text) {
  if (!text) return ScriptOnDisk::absent;
  const std::size_t first = text->find('\n');
  if (first == std::string::npos) return ScriptOnDisk::edited;
  const std::size_t second = text->find('\n', first + 1);
  if (second == std::string::npos) return ScriptOnDisk::edited;
  const std::string_view seal = std::string_view(*text).substr(first + 1, second - first - 1);
  if (seal.size() != kSealStart.size() + kHexDigits + kSealEnd.size() || seal.substr(0, kSealStart.size()) != kSealStart ||
      seal.substr(kSealStart.size() + kHexDigits) != kSealEnd)
    return ScriptOnDisk::edited;
  const std::string rest = text->substr(0, first + 1) + text->substr(second + 1);
  return seal.substr(kSealStart.size(), kHexDigits) == sha256_hex(rest) ? ScriptOnDisk::as_generated : ScriptOnDisk::edited;
}

ScriptPlan plan_script(const std::string& gp, ScriptOnDisk state) {
  if (state == ScriptOnDisk::edited) return {gp + ".new", true};
  return {gp, false};
}

std::string kept_script_message(const std::string& gp) {
  return fmt::format("{} was changed since sweep wrote it and is kept as it is; the new script, {}.new, drew the "
                     "figure. Move your changes into a style file (style: or figure_style:, docs/reports.md#restyling), "
                     "or delete {} to have sweep write it again",
                     gp, gp, gp);
}

}  // namespace sweep::report
