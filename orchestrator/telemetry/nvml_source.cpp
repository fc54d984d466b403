#include "telemetry/nvml_source.h"

#include <dlfcn.h>
#include <fmt/core.h>

#include <utility>

#include "telemetry/gpu_selection.h"
#include "util/error.h"

namespace sweep::telemetry {
namespace {

struct Symbol {
  const char* name;
  void** slot;
};

std::vector<Symbol> symbols(nvml::Api& api) {
  const auto at = [](auto& field) { return reinterpret_cast<void**>(&field); };
  return {{"nvmlInit_v2", at(api.init)},
          {"nvmlShutdown", at(api.shutdown)},
          {"nvmlDeviceGetCount_v2", at(api.device_count)},
          {"nvmlDeviceGetHandleByIndex_v2", at(api.handle_by_index)},
          {"nvmlDeviceGetName", at(api.name)},
          {"nvmlDeviceGetUUID", at(api.uuid)},
          {"nvmlDeviceGetTotalEnergyConsumption", at(api.total_energy)},
          {"nvmlDeviceGetPowerUsage", at(api.power)},
          {"nvmlDeviceGetUtilizationRates", at(api.utilization)},
          {"nvmlDeviceGetMemoryInfo", at(api.memory)},
          {"nvmlDeviceGetClockInfo", at(api.clock)},
          {"nvmlDeviceGetTemperature", at(api.temperature)},
          {"nvmlDeviceGetCurrentClocksThrottleReasons", at(api.throttle_reasons)}};
}

void check(nvml::Return code, const std::string& library, const char* call) {
  if (code != nvml::kSuccess) {
    throw Error(ErrorKind::io, library + ": " + call + ": " + std::string(nvml::return_name(code)));
  }
}

/// The value `call` writes into `out`, times `scale`; nullopt when the call fails.
template <typename T, typename Call>
std::optional<double> read_value(T& out, Call call, double scale = 1.0) {
  if (call(&out) != nvml::kSuccess) return std::nullopt;
  return static_cast<double>(out) * scale;
}

}  // namespace

NvmlSource::NvmlSource(const std::string& library, const std::optional<std::string>& visible) {
  handle_ = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = ::dlerror();
    throw Error(ErrorKind::io, why != nullptr ? why : library + ": cannot be loaded");
  }
  try {
    for (const auto& symbol : symbols(api_)) {
      *symbol.slot = ::dlsym(handle_, symbol.name);
      if (*symbol.slot == nullptr) throw Error(ErrorKind::io, library + ": no " + symbol.name);
    }
    check(api_.init(), library, "nvmlInit_v2");
  } catch (...) {
    ::dlclose(handle_);
    throw;
  }
  try {
    find_gpus(library, visible);
  } catch (...) {
    api_.shutdown();
    ::dlclose(handle_);
    throw;
  }
  // The detail says how many GPUs were taken, so that "ok" with none (CUDA_VISIBLE_DEVICES empty, or
  // naming MIG devices) explains why no GPU metric follows.
  detail_ = fmt::format("{}: {} GPU{} sampled{}", library, gpus_.size(), gpus_.size() == 1 ? "" : "s",
                        gpus_.empty() && visible ? fmt::format(" (CUDA_VISIBLE_DEVICES={} names none NVML lists)", *visible)
                                                 : "");
}

void NvmlSource::find_gpus(const std::string& library, const std::optional<std::string>& visible) {
  unsigned int count = 0;
  check(api_.device_count(&count), library, "nvmlDeviceGetCount_v2");
  std::vector<nvml::Device> all(count);
  std::vector<std::string> uuids(count);
  std::vector<std::string> names(count);
  for (unsigned int i = 0; i < count; ++i) {
    // A GPU this process may not open (a device cgroup) is left out; the others are still sampled.
    char uuid[nvml::kUuidBufferSize] = {};
    if (api_.handle_by_index(i, &all[i]) != nvml::kSuccess ||
        api_.uuid(all[i], uuid, nvml::kUuidBufferSize) != nvml::kSuccess) {
      all[i] = nullptr;
      continue;
    }
    uuids[i] = uuid;
    char name[nvml::kNameBufferSize] = {};
    names[i] = api_.name(all[i], name, nvml::kNameBufferSize) == nvml::kSuccess ? name : "unknown";
  }
  for (const int index : select_gpus(visible, uuids)) {
    if (all[index] == nullptr) continue;
    gpus_.push_back({index, uuids[index], names[index]});
    devices_.push_back(all[index]);
  }
  first_energy_mj_.resize(devices_.size());
}

NvmlSource::~NvmlSource() {
  if (handle_ == nullptr) return;
  api_.shutdown();
  ::dlclose(handle_);
}

std::vector<GpuSample> NvmlSource::sample(double t) {
  std::vector<GpuSample> samples;
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    const nvml::Device device = devices_[i];
    GpuSample s;
    s.t = t;
    s.index = gpus_[i].index;
    unsigned long long energy_mj = 0;
    if (api_.total_energy(device, &energy_mj) == nvml::kSuccess) {
      if (!first_energy_mj_[i]) first_energy_mj_[i] = energy_mj;
      if (energy_mj >= *first_energy_mj_[i]) s.energy_j = static_cast<double>(energy_mj - *first_energy_mj_[i]) / 1000.0;
    }
    unsigned int value = 0;
    s.power_w = read_value(value, [&](unsigned int* out) { return api_.power(device, out); }, 1e-3);
    nvml::Utilization util{};
    if (api_.utilization(device, &util) == nvml::kSuccess) {
      s.util_pct = util.gpu;
      s.mem_util_pct = util.memory;
    }
    nvml::Memory memory{};
    if (api_.memory(device, &memory) == nvml::kSuccess) s.mem_mib = static_cast<double>(memory.used) / (1024.0 * 1024.0);
    s.sm_mhz = read_value(value, [&](unsigned int* out) { return api_.clock(device, nvml::kClockSm, out); });
    s.temp_c = read_value(value, [&](unsigned int* out) { return api_.temperature(device, nvml::kTemperatureGpu, out); });
    unsigned long long reasons = 0;
    if (api_.throttle_reasons(device, &reasons) == nvml::kSuccess) s.throttle = reasons;
    samples.push_back(s);
  }
  return samples;
}

}  // namespace sweep::telemetry
