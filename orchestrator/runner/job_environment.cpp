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
  printf 'format=1\nline=%s\nstatus=%s\ntext=%s\n' "$1" "$2" "$3" > setup_failed
  printf 'sweep: setup line %s failed with status %s: %s\n' "$1" "$2" "$3" >&2
  tail -n 20 setup.log >&2
  exit "$2"
}
sweep_module_init
)sh";

constexpr const char* kRecordFunction = R"sh(sweep_record_environment() {
  mkdir -p provenance || return
  local v py
  for v in "$@"; do printf '%s=%s\n' "$v" "${!v}"; done > provenance/env_set
  printf '%s\n' "${LOADEDMODULES:-}" | tr ':' '\n' | sed '/^$/d' > provenance/modules
  if py=$(command -v python3 || command -v python); then
    "$py" -c 'import sys; print(sys.executable, sys.version.split()[0])' > provenance/python 2> /dev/null ||
      printf '%s\n' "$py" > provenance/python
  fi
  find provenance -maxdepth 1 -type f -empty -delete
}
)sh";

/// The first line of `text`, for the setup_failed record and messages.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string environment_block(const JobEnvironment& environment) {
  std::string out = "# Environment: the site's and the experiment's setup and env, rendered by sweep.\n";
  if (!environment.setup.empty()) {
    out += kSetupFunctions;
    for (std::size_t i = 0; i < environment.setup.size(); ++i)
      out += fmt::format("{{ {}\n}} >> setup.log 2>&1 || sweep_setup_failed {} $? {}\n", environment.setup[i], i + 1,
                         templating::shell_quote(first_line(environment.setup[i])));
  }
  for (const auto& [name, value] : environment.env) out += fmt::format("export {}={}\n", name, templating::shell_quote(value));
  out += kRecordFunction;
  out += "sweep_record_environment";
  for (const auto& [name, value] : environment.env) out += " " + name;
  out += "\n";
  if (!environment.setup.empty()) {
    out += "printf '%s\\n'";
    for (const std::string& line : environment.setup) out += " " + templating::shell_quote(line);
    out += " > provenance/setup\n";
  }
  if (!environment.site.empty()) out += "printf '%s\\n' " + templating::shell_quote(environment.site) + " > provenance/site\n";
  return out;
}

}  // namespace sweep::runner
