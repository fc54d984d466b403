#include "trainbench/data_source.h"

#include <algorithm>
#include <array>

namespace sweep::trainbench {
namespace {

struct FormatEntry {
  DataFormat format;
  std::string_view name;
  bool gpt, resnet;  // the families it feeds
};

constexpr std::array<FormatEntry, 4> kFormats{{
    {DataFormat::synthetic, "synthetic", true, true},
    {DataFormat::tokens, "tokens", true, false},
    {DataFormat::uint16, "uint16", true, false},
    {DataFormat::cifar10, "cifar10", false, true},
}};

bool looks_like_format(std::string_view prefix) {
  return !prefix.empty() && std::all_of(prefix.begin(), prefix.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string format_names() {
  std::string names;
  for (const auto& f : kFormats)
    if (f.format != DataFormat::synthetic) names += (names.empty() ? "" : ", ") + std::string(f.name);
  return names;
}

}  // namespace

std::string_view name_of(DataFormat format) { return kFormats[static_cast<std::size_t>(format)].name; }

bool feeds(DataFormat format, Family family) {
  const FormatEntry& f = kFormats[static_cast<std::size_t>(format)];
  return family == Family::gpt ? f.gpt : f.resnet;
}

DataSource parse_data_source(std::string_view text) {
  if (text.empty() || text == "synthetic") return {};
  const std::size_t colon = text.find(':');
  const std::string_view prefix = text.substr(0, colon == std::string_view::npos ? 0 : colon);
  if (!looks_like_format(prefix)) return {DataFormat::tokens, std::string(text)};
  const std::string path(text.substr(colon + 1));
  for (const auto& f : kFormats) {
    if (f.name != prefix || f.format == DataFormat::synthetic) continue;
    if (path.empty()) throw DataSourceError("\"" + std::string(text) + "\" names no path after \"" + std::string(prefix) + ":\"");
    return {f.format, path};
  }
  throw DataSourceError("\"" + std::string(prefix) + "\" in \"" + std::string(text) + "\" is not a data format (formats: " +
                        format_names() + "; write ./" + std::string(text) + " for a file of that name)");
}

std::string describe(const DataSource& source) {
  if (source.format == DataFormat::synthetic) return "synthetic";
  return std::string(name_of(source.format)) + ":" + source.path;
}

}  // namespace sweep::trainbench
