#include "runner/job_environment.h"

#include <fmt/core.h>

#include "templating/render.h"

namespace sweep::runner {
namespace {

constexpr const char* kSetupFunctions = R"sh(sweep_module_init() {
  type module > /dev/null 2>&1 && return 0
  local init
  for init in /etc/profile.d/lmod.sh /usr/share/lmod/lmod/init/bash /etc/profile.d/modules.sh /usr/share/modules/init/bash; do
    if [ -r "$init" ]; then . "$init" > /dev/null 2>&1; return 0; fi
  done
}
sweep_setup_failed() {
  printf 'format=1\nline=%s\nstatus=%s\ntext=%s\n' "$1" "$2" "$3" > "$SWEEP_RUN_DIR/setup_failed"
  printf 'sweep: setup line %s failed with status %s: %s\n' "$1" "$2" "$3" >&2
  tail -n 20 "$SWEEP_RUN_DIR/setup.log" >&2
  exit "$2"
}
sweep_module_init
)sh";

// Provenance with shell builtins only (no process per run unless there is something to record):
// a file is written, and the directory made, only for a non-empty value.
constexpr const char* kRecordFunctions = R"sh(sweep_record() {
  [ -n "$2" ] || return 0
  [ -d "$SWEEP_RUN_DIR/provenance" ] || mkdir "$SWEEP_RUN_DIR/provenance" || return 0
  printf '%s\n' "$2" > "$SWEEP_RUN_DIR/provenance/$1"
}
sweep_record_environment() {
  local v set= masked=
  for v in "$@"; do
    if [ "$v" = -- ]; then masked=1; elif [ -n "$masked" ]; then set+="$v=***"$'\n'; else set+="$v=${!v}"$'\n'; fi
  done
  sweep_record env_set "${set%$'\n'}"
  sweep_record modules "${LOADEDMODULES//:/$'\n'}"
}
)sh";

// After setup lines (a venv, a module), which Python the workload gets: one interpreter start.
constexpr const char* kRecordPython = R"sh(if sweep_py=$(command -v python3 || command -v python); then
  sweep_record python "$("$sweep_py" -c 'import sys; print(sys.executable, sys.version.split()[0])' 2> /dev/null || printf '%s' "$sweep_py")"
fi
)sh";

/// The first line of `text`, for the setup_failed record and messages.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string environment_block(const JobEnvironment& environment) {
  std::string out = "# Environment: the site's and the experiment's setup and env, rendered by sweep.\n";
  if (!environment.setup.empty()) {
    out += kSetupFunctions;
    for (std::size_t i = 0; i < environment.setup.size(); ++i)
      out += fmt::format("{{ {}\n}} >> \"$SWEEP_RUN_DIR/setup.log\" 2>&1 || sweep_setup_failed {} $? {}\n", environment.setup[i], i + 1,
                         templating::shell_quote(first_line(environment.setup[i])));
  }
  for (const auto& [name, value] : environment.env) out += fmt::format("export {}={}\n", name, templating::shell_quote(value));
  out += kRecordFunctions;
  out += "sweep_record_environment";
  for (const auto& [name, value] : environment.env) out += " " + name;
  if (!environment.secrets.empty()) out += " --";
  for (const std::string& name : environment.secrets) out += " " + name;
  out += "\n";
  if (!environment.setup.empty()) {
    std::string lines;
    for (const std::string& line : environment.setup) lines += (lines.empty() ? "" : "\n") + line;
    out += "sweep_record setup " + templating::shell_quote(lines) + "\n";
    out += kRecordPython;
  }
  if (!environment.site.empty()) out += "sweep_record site " + templating::shell_quote(environment.site) + "\n";
  return out;
}

}  // namespace sweep::runner
