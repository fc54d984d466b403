#pragma once
// A generated gnuplot script's seal (docs/reports.md#restyling): its second line records the SHA-256 of
// the rest of its text, so the next `sweep report` can tell a script it wrote from one a user has edited
// since, and never overwrites the latter. Pure.
#include <optional>
#include <string>
#include <string_view>

namespace sweep::report {

/// `text` (its first line the format line) with the seal inserted as its second line:
/// "# sha256 <64 hex> of this script without this line: edit a style file, not this script".
std::string sealed(std::string_view text);

/// What a script on disk is: none, one sweep wrote and nobody changed since (its seal matches), or one
/// changed by hand (or with no seal at all: written by an older sweep, whose scripts were to be edited).
enum class ScriptOnDisk { absent, as_generated, edited };
ScriptOnDisk script_on_disk(const std::optional<std::string>& text);

/// Where `sweep report` writes a figure's new script: over `gp` unless the script there was edited,
/// then beside it (`<gp>.new`), keeping the edited one.
struct ScriptPlan {
  std::string path;  // where the new script goes (and what gnuplot runs)
  bool kept = false;  // true: `gp` was edited and stays as it is
};
ScriptPlan plan_script(const std::string& gp, ScriptOnDisk state);

/// The warning for a kept script: what happened and what to do.
std::string kept_script_message(const std::string& gp);

}  // namespace sweep::report
