#include "runner/provenance.h"

#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char** environ;

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "exec/capture.h"
#include "runner/bundled_path.h"
#include "runner/gpu_facts.h"
#include "util/secrets.h"
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

/// Environment variables that change how communication and scheduling behave; recorded as env.NAME,
/// with the value of a secret-looking name (util/secrets.h) masked.
constexpr std::string_view kRecordedEnvPrefixes[] = {"CUDA_VISIBLE_DEVICES", "NCCL_", "OMPI_", "UCX_",
                                                     "GLOO_", "SLURM_", "OMP_NUM_THREADS"};

void add_environment(store::KeyValues& out) {
  for (char** env = environ; *env; ++env) {
    const std::string_view entry(*env);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = entry.substr(0, eq);
    for (const auto prefix : kRecordedEnvPrefixes)
      if (name.substr(0, prefix.size()) == prefix) {
        out.emplace_back("env." + std::string(name), secret_name(name) ? std::string(kMask) : std::string(entry.substr(eq + 1)));
        break;
      }
  }
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
  add_environment(facts.run_provenance);
  return facts;
}

store::KeyValues gpu_host_facts() {
  store::KeyValues out;
  const auto list = exec::capture({"nvidia-smi", "-L"});
  if (!list || list->exit_code != 0) return out;
  const auto banner = exec::capture({"nvidia-smi"});
  out = gpu_facts(list->out, banner && banner->exit_code == 0 ? banner->out : "");
  const auto topo = exec::capture({"nvidia-smi", "topo", "-m"});
  if (topo && topo->exit_code == 0) out.emplace_back("nvidia_smi_topo", std::string(trim(topo->out)));
  return out;
}

store::KeyValues nic_host_facts() {
  std::vector<std::string> lines;
  std::error_code ec;
  for (const auto& nic : std::filesystem::directory_iterator("/sys/class/net", ec)) {
    const std::string dir = nic.path().string();
    std::string state, speed;
    std::ifstream(dir + "/operstate") >> state;
    std::ifstream(dir + "/speed") >> speed;  // unreadable for virtual and down interfaces: left empty
    lines.push_back(std::string(trim(nic.path().filename().string() + " " + state + " " + speed)));
  }
  std::sort(lines.begin(), lines.end());
  if (lines.empty()) return {};
  return {{"nics", join(lines, "\n")}};
}

store::KeyValues nccl_host_facts() {
  const auto version = exec::capture({bundled_dir() + "/nccl-version"});
  if (!version || version->exit_code != 0 || trim(version->out).empty()) return {};
  return {{"nccl.version", std::string(trim(version->out))}};
}

GitState git_state(const std::string& dir) {
  GitState state;
  // The repository's own config may name a program for git status to run (core.fsmonitor): switched
  // off, so that recording provenance runs nothing the repository chose.
  const auto git = [&](std::initializer_list<std::string> args) {
    std::vector<std::string> argv{"git", "-c", "core.fsmonitor=false", "-C", dir};
    argv.insert(argv.end(), args);
    return exec::capture(argv);
  };
  const auto head = git({"rev-parse", "HEAD"});
  if (!head || head->exit_code != 0) return state;
  state.commit = std::string(trim(head->out));
  const auto status = git({"status", "--porcelain", "--untracked-files=no"});
  if (status && status->exit_code == 0) state.dirty = !trim(status->out).empty();
  return state;
}

}  // namespace sweep::runner
