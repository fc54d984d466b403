#include "telemetry/sampler_options.h"

#include <array>
#include <charconv>
#include <functional>
#include <string_view>

#include "util/error.h"

namespace sweep::telemetry {
namespace {

[[noreturn]] void usage_error(const std::string& message) {
  throw Error(ErrorKind::usage, message + " (sweep-telemetry --help)");
}

int to_int(const std::string& option, const std::string& text, int min, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    usage_error(option + ": expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                ", got \"" + text + "\"");
  }
  return value;
}

std::set<std::string> to_sources(const std::string& text) {
  std::set<std::string> chosen;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string name(rest.substr(0, comma));
    bool known = false;
    for (const auto& valid : source_names()) known = known || valid == name;
    if (!known) usage_error("--sources: unknown source \"" + name + "\" (valid: proc, rapl, nvml)");
    chosen.insert(name);
    if (comma == std::string_view::npos) return chosen;
    rest.remove_prefix(comma + 1);
  }
}

struct Option {
  std::string_view name;
  bool takes_value;
  std::function<void(SamplerOptions&, const std::string&)> apply;
};

const std::array<Option, 9>& options() {
  static const std::array<Option, 9> table{{
      {"--out", true, [](SamplerOptions& o, const std::string& v) { o.out = v; }},
      {"--interval-ms", true,
       [](SamplerOptions& o, const std::string& v) { o.interval_ms = to_int("--interval-ms", v, kMinIntervalMs, kMaxIntervalMs); }},
      {"--sources", true, [](SamplerOptions& o, const std::string& v) { o.sources = to_sources(v); }},
      {"--marker", true,
       [](SamplerOptions& o, const std::string& v) {
         if (v.find('=') == std::string::npos || v.front() == '=') usage_error("--marker: expected NAME=VALUE, got \"" + v + "\"");
         o.marker = v;
       }},
      {"--root", true, [](SamplerOptions& o, const std::string& v) { o.root_pid = to_int("--root", v, 1, 1 << 30); }},
      {"--sysfs-root", true, [](SamplerOptions& o, const std::string& v) { o.sysfs_root = v; }},
      {"--daemon", false, [](SamplerOptions& o, const std::string&) { o.daemon = true; }},
      {"--start-timeout-ms", true,
       [](SamplerOptions& o, const std::string& v) { o.start_timeout_ms = to_int("--start-timeout-ms", v, 100, 600000); }},
      {"--help", false, [](SamplerOptions& o, const std::string&) { o.mode = SamplerOptions::Mode::help; }},
  }};
  return table;
}

}  // namespace

const std::vector<std::string>& source_names() {
  static const std::vector<std::string> names{"proc", "rapl", "nvml"};
  return names;
}

SamplerOptions parse_sampler_options(const std::vector<std::string>& args) {
  SamplerOptions o;
  if (!args.empty() && args[0] == "stop") {
    if (args.size() != 2) usage_error("stop: expected one PID (sweep-telemetry stop PID)");
    o.mode = SamplerOptions::Mode::stop;
    o.stop_pid = to_int("stop", args[1], 2, 1 << 30);
    return o;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Option* found = nullptr;
    for (const auto& option : options()) found = option.name == args[i] ? &option : found;
    if (found == nullptr) usage_error("unknown option \"" + args[i] + "\"");
    if (found->takes_value && i + 1 == args.size()) usage_error(args[i] + ": expected a value");
    found->apply(o, found->takes_value ? args[++i] : std::string());
  }
  if (o.mode == SamplerOptions::Mode::sample && o.out.empty()) usage_error("--out FILE is required");
  return o;
}

std::string sampler_usage() {
  return "Usage: sweep-telemetry --out FILE [--interval-ms N] [--sources proc,rapl,nvml] [--marker NAME=VALUE]\n"
         "                       [--root PID] [--sysfs-root DIR] [--daemon]\n"
         "       sweep-telemetry stop PID\n"
         "\n"
         "Samples the workload's processes (/proc), RAPL energy (powercap) and GPUs (NVML, loaded at run time)\n"
         "into FILE, telemetry file format 1 (docs/telemetry.md), until SIGTERM or SIGINT; then writes `end`.\n"
         "  --out FILE          the telemetry file, created new (an existing file or symlink is refused)\n"
         "  --interval-ms N     sampling interval, 50..60000 (default 1000)\n"
         "  --sources LIST      any of proc, rapl, nvml, comma-separated (default all)\n"
         "  --marker NAME=VALUE the workload's processes: those whose environment holds NAME=VALUE\n"
         "  --root PID          ... and the process tree under PID\n"
         "  --sysfs-root DIR    where sysfs is (default /sys; tests use a stand-in tree)\n"
         "  --daemon            take the first sample, then go on in the background; print its pid\n"
         "  --start-timeout-ms N  with --daemon: give up when the first sample takes longer (100..600000,\n"
         "                      default 30000; a source hanging at start), exit 6\n"
         "  stop PID            send SIGTERM to the sampler PID and wait (up to 10 s) until it is gone\n"
         "Environment: SLURMD_NODENAME (the node's name), CUDA_VISIBLE_DEVICES (the GPUs sampled),\n"
         "SWEEP_NVML_LIBRARY (the NVML library to load instead of libnvidia-ml.so.1).\n";
}

}  // namespace sweep::telemetry
