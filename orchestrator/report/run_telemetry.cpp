#include "report/run_telemetry.h"


#include <fmt/core.h>


#include "util/error.h"
#include "util/names.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// The file's text, or throws Error(io) saying why it is not read (util/safe_files.h), within the budget.
std::string read_checked(const std::string& path, TelemetryBudget& budget) {
  return read_own_file(path, [&budget](std::uintmax_t size) {
    if (size > budget.file_bytes)
      return fmt::format("{} bytes, more than the {} a telemetry file may have: not read", size, budget.file_bytes);
    if (size > budget.bytes_left)
      return fmt::format("{} bytes, more than the {} left of what one report reads: not read", size, budget.bytes_left);
    budget.bytes_left -= size;
    return std::string();
  });
}

}  // namespace

std::string telemetry_name_problem(std::string_view name) {
  const std::string_view prefix = telemetry::kFilePrefix;
  if (!name.starts_with(prefix)) return fmt::format("not named {}<node>", prefix);
  try {
    require_safe_name(name.substr(prefix.size()), "telemetry node");
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

RunTelemetry read_run_telemetry(const std::string& run_dir, std::string_view files, TelemetryBudget& budget) {
  RunTelemetry out;
  if (run_dir.empty()) {
    out.problems.push_back("the run has no run directory: its telemetry files are not read");
    return out;
  }
  std::size_t count = 0;
  for (const auto& name : split(std::string(files), ' ')) {
    if (name.empty()) continue;
    if (++count > kMaxTelemetryFiles) {
      out.problems.push_back(fmt::format("{}: more than {} telemetry files named; the rest are not read", run_dir, kMaxTelemetryFiles));
      break;
    }
    const std::string path = run_dir + "/" + name;
    if (const std::string why = telemetry_name_problem(name); !why.empty()) {
      out.problems.push_back(fmt::format("{}: refused as a telemetry file name: {}", path, why));
      continue;
    }
    try {
      out.logs.push_back(telemetry::parse_telemetry(read_checked(path, budget), path));
    } catch (const Error& e) {
      out.problems.push_back(e.where().str().empty() ? path + ": " + e.message() : e.what());
    }
  }
  return out;
}

}  // namespace sweep::report
