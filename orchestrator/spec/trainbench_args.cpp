#include "spec/trainbench_args.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>

#include "trainbench/layout_options.h"

namespace sweep::spec {
namespace {

using trainbench::LayoutOptions;

// trainbench's integer options that its layout rules read (workloads/trainbench/options.cpp), each with
// where LayoutOptions holds it.
struct IntegerOption {
  std::string_view name;
  void (*set)(LayoutOptions& options, int value);
};
constexpr std::array<IntegerOption, 10> kIntegerOptions{{
    {"layers", [](LayoutOptions& o, int v) { o.shape.layers = v; }},
    {"width", [](LayoutOptions& o, int v) { o.shape.width = v; }},
    {"heads", [](LayoutOptions& o, int v) { o.shape.heads = v; }},
    {"seq", [](LayoutOptions& o, int v) { o.shape.seq = v; }},
    {"vocab", [](LayoutOptions& o, int v) { o.shape.vocab = v; }},
    {"dp", [](LayoutOptions& o, int v) { o.layout.dp = v; }},
    {"tp", [](LayoutOptions& o, int v) { o.layout.tp = v; }},
    {"pp", [](LayoutOptions& o, int v) { o.layout.pp = v; }},
    {"batch", [](LayoutOptions& o, int v) { o.batch = v; }},
    {"microbatches", [](LayoutOptions& o, int v) { o.microbatches = v; }},
}};

// CLI11 2.x's int conversion (integral_conversion, and 0 for an empty value).
std::optional<int> cli_integer(const std::string& text) {
  if (text.empty()) return 0;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 0);
  if (end != text.c_str() + text.size() || errno == ERANGE || v < INT_MIN || v > INT_MAX) return std::nullopt;
  return static_cast<int>(v);
}

}  // namespace

std::vector<BundledRefusal> trainbench_refusals(const BundledValues& values) {
  LayoutOptions options;
  if (const auto model = values.find("model"); model != values.end()) {
    if (!model->second) return {};
    options.model = *model->second;
  }
  for (const IntegerOption& option : kIntegerOptions) {
    const auto given = values.find(option.name);
    if (given == values.end()) continue;
    if (!given->second) return {};
    const auto value = cli_integer(*given->second);
    if (!value)
      return {{fmt::format("--{}: \"{}\" is not an integer", option.name, *given->second), {std::string(option.name)}}};
    option.set(options, *value);
  }
  std::vector<BundledRefusal> out;
  for (const trainbench::Refusal& r : trainbench::start_refusals(options, options.layout.world()))
    out.push_back({r.message, std::vector<std::string>(r.options.begin(), r.options.end())});
  return out;
}

}  // namespace sweep::spec
