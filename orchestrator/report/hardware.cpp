#include "report/hardware.h"

#include <array>
#include <string_view>
#include <utility>

#include <fmt/core.h>

namespace sweep::report {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kFacts{{
    {"cpu_model", "CPU"},
    {"gpu.model", "GPU"},
    {"gpu.count", "GPUs on the node"},
    {"gpu.driver", "GPU driver"},
    {"gpu.cuda", "CUDA (driver)"},
    {"nccl.version", "NCCL"},
}};

std::string runs_text(std::int64_t n) { return fmt::format("{} run{}", n, n == 1 ? "" : "s"); }

// The values one key took: alone when every run had the same, else each with its runs.
std::string values_text(const std::vector<const store::ProvenanceCount*>& values, std::size_t runs) {
  std::int64_t recorded = 0;
  for (const auto* v : values) recorded += v->runs;
  if (values.size() == 1 && recorded == static_cast<std::int64_t>(runs)) return values.front()->value;
  std::string text;
  for (const auto* v : values) text += (text.empty() ? "" : ", ") + fmt::format("{} ({})", v->value, runs_text(v->runs));
  if (recorded < static_cast<std::int64_t>(runs))
    text += fmt::format(", none recorded ({})", runs_text(static_cast<std::int64_t>(runs) - recorded));
  return text;
}

}  // namespace

const std::vector<std::string>& hardware_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const auto& [key, label] : kFacts) k.emplace_back(key);
    return k;
  }();
  return keys;
}

std::vector<HardwareFact> hardware_facts(const std::vector<store::ProvenanceCount>& counts, std::size_t runs) {
  // The runs that asked for GPUs, where the runs said whether they did; every run otherwise.
  bool recorded = false;
  std::size_t gpu_runs = 0;
  for (const auto& c : counts)
    if (c.key == store::kGpusRequestedKey) {
      recorded = true;
      if (c.value != store::kNoGpusRequested) gpu_runs += static_cast<std::size_t>(c.runs);
    }
  if (!recorded) gpu_runs = runs;
  std::vector<HardwareFact> out;
  bool any_gpu = false;
  for (const auto& [key, label] : kFacts) {
    std::vector<const store::ProvenanceCount*> values;
    for (const auto& c : counts)
      if (c.key == key) values.push_back(&c);
    const bool cpu = key == kFacts.front().first;
    if (values.empty() || (!cpu && gpu_runs == 0)) continue;
    any_gpu = any_gpu || key.substr(0, 4) == "gpu.";
    out.push_back({std::string(label), values_text(values, cpu ? runs : gpu_runs)});
  }
  if (!any_gpu) {
    const auto at = out.empty() || out.front().label != "CPU" ? out.begin() : out.begin() + 1;
    out.insert(at, {"GPU", recorded && gpu_runs == 0 ? "none requested" : "none recorded"});
  }
  return out;
}

}  // namespace sweep::report
