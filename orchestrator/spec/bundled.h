#pragma once
// The bundled programs that `workload.bundled` may name, with the options each accepts, and the
// rendering of `workload.args` into the argument part of a command template. Pure.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::spec {

/// A long option without "--". A flag takes a YAML boolean; other options take a value.
struct BundledOption {
  std::string_view name;
  bool flag = false;
};

struct BundledProgram {
  std::string_view name;
  std::span<const BundledOption> options;
  /// Options whose values multiply to the number of ranks (trainbench: dp x tp x pp), each 1 when
  /// left out; runner::CampaignPlan checks the product against the ranks the resources give.
  std::span<const std::string_view> layout;
};

/// The table of bundled programs. Adding one is one entry (plus the program in workloads/).
std::span<const BundledProgram> bundled_programs();
const BundledProgram* find_bundled(std::string_view name);

/// One `args` entry. A flag is a YAML boolean: true gives `--name`, false gives `--no-name`.
struct BundledArg {
  std::string name;
  std::string value;  // a Mustache template (like workload.command); unused for flags
  std::optional<bool> flag;
};

/// `--name value ...` as a command template: literal text is single-quoted, `{{...}}` tags are left
/// for the renderer, which shell-quotes their values. So every value reaches the program as one word.
std::string render_bundled_args(const std::vector<BundledArg>& args);

}  // namespace sweep::spec
