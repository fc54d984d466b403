#include "runner/provenance.h"

#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "exec/capture.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

/// The value of the first line of `path` that starts with `key`, after the separator `sep`.
std::string first_field(const std::string& path, const std::string& key, char sep) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto pos = line.find(sep);
    if (pos == std::string::npos) continue;
    std::string value(trim(std::string_view(line).substr(pos + 1)));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return value;
  }
  return "";
}

}  // namespace

HostFacts host_facts() {
  HostFacts facts;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  facts.hostname = host;
  if (const passwd* pw = ::getpwuid(::getuid())) facts.user = pw->pw_name;
  utsname uts{};
  ::uname(&uts);
  facts.run_provenance = {
      {"hostname", facts.hostname},
      {"cpu_model", first_field("/proc/cpuinfo", "model name", ':')},
      {"cpu_count", std::to_string(std::thread::hardware_concurrency())},
      {"kernel", std::string(uts.sysname) + " " + uts.release},
      {"os", first_field("/etc/os-release", "PRETTY_NAME", '=')},
  };
  return facts;
}

GitState git_state(const std::string& dir) {
  GitState state;
  const auto head = exec::capture({"git", "-C", dir, "rev-parse", "HEAD"});
  if (!head || head->exit_code != 0) return state;
  state.commit = std::string(trim(head->out));
  const auto status = exec::capture({"git", "-C", dir, "status", "--porcelain", "--untracked-files=no"});
  if (status && status->exit_code == 0) state.dirty = !trim(status->out).empty();
  return state;
}

}  // namespace sweep::runner
