#pragma once
// The bundled programs that `workload.bundled` may name, with the options each accepts and what each
// refuses before it starts, and the rendering of `workload.args` into the argument part of a command
// template. Pure.
#include <functional>
#include <map>
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

/// The options given at one point, each rendered: name (without "--") -> value, "true" or "false" for
/// a flag; nullopt for a value that depends on the run (a run variable such as {{run_dir}}), which is
/// unknown before it. An option left out is absent.
using BundledValues = std::map<std::string, std::optional<std::string>, std::less<>>;

/// A reason a bundled program refuses to start, in its own words, and the options it is about (those
/// left out included: the program's defaults break rules too).
struct BundledRefusal {
  std::string message;
  std::vector<std::string> options;

  friend bool operator==(const BundledRefusal&, const BundledRefusal&) = default;
};

struct BundledProgram {
  std::string_view name;
  std::span<const BundledOption> options;
  /// Options whose values multiply to the number of ranks (trainbench: dp x tp x pp), each 1 when
  /// left out; runner's layout check compares the product with the ranks the resources give.
  std::span<const std::string_view> layout;
  /// Every reason the program would refuse to start with these values on the ranks the `layout`
  /// options multiply to, by the program's own rules; empty when it would start, or when a value the
  /// rules read is unknown before the run. Null: it has none to check before it runs.
  std::vector<BundledRefusal> (*refusals)(const BundledValues& values) = nullptr;
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
