// TEST STAND-IN for NVML (libnvidia-ml), never linked into sweep: a shared library, loaded by the
// sampler through SWEEP_NVML_LIBRARY, that implements exactly the NVML calls sweep-telemetry uses
// (orchestrator/telemetry/nvml_api.h) from a script, so that the sampler's NVML code, the same that
// reads the real library, is tested on a machine without a GPU.
//
// The script is the file named by $SWEEP_NVML_STANDIN, read by nvmlInit_v2, one directive a line:
//   gpu <uuid> <power_w> <util_pct> <mem_util_pct> <mem_mib> <sm_mhz> <temp_c> <throttle hex> <name...>
//   fail <nvml function name> [<index>]  that call fails (NVML_ERROR_NOT_SUPPORTED), on every GPU or on one
//   init_error <nvmlReturn_t>     nvmlInit_v2 fails with this code
// A GPU's total-energy counter is the integral of its scripted power over the wall time since
// nvmlInit_v2 (power_w x seconds, in mJ); its power reading is the scripted power (mW).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Gpu {
  std::string uuid, name;
  double power_w = 0;
  unsigned util = 0, mem_util = 0, sm_mhz = 0, temp_c = 0;
  unsigned long long mem_mib = 0, throttle = 0;
};

struct Script {
  std::vector<Gpu> gpus;
  std::set<std::pair<std::string, long>> failing;  // (call, GPU index or -1: every GPU)
  int init_error = 0;
  std::chrono::steady_clock::time_point start;
};

Script g_script;
bool g_initialised = false;

constexpr int kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotSupported = 3, kInsufficientSize = 7,
              kNotFound = 6;

Script read_script(const char* path) {
  Script s;
  std::ifstream in(path != nullptr ? path : "");
  if (!in) {
    s.init_error = 999;  // NVML_ERROR_UNKNOWN: the stand-in was not given its script
    return s;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string directive;
    words >> directive;
    if (directive == "gpu") {
      Gpu g;
      words >> g.uuid >> g.power_w >> g.util >> g.mem_util >> g.mem_mib >> g.sm_mhz >> g.temp_c >> std::hex >> g.throttle;
      std::getline(words >> std::ws, g.name);
      s.gpus.push_back(g);
    } else if (directive == "fail") {
      std::string call;
      long index = -1;
      words >> call;
      if (!(words >> index)) index = -1;
      s.failing.insert({call, index});
    } else if (directive == "init_error") {
      words >> s.init_error;
    }
  }
  return s;
}

/// The GPU behind `device`, or nullptr when the call is scripted to fail or NVML is not initialised.
const Gpu* gpu_for(void* device, const char* call) {
  if (!g_initialised || device == nullptr) return nullptr;
  const Gpu* gpu = static_cast<const Gpu*>(device);
  const long index = gpu - g_script.gpus.data();
  if (g_script.failing.count({call, -1}) || g_script.failing.count({call, index})) return nullptr;
  return gpu;
}

int text_into(const std::string& text, char* out, unsigned length) {
  if (text.size() + 1 > length) return kInsufficientSize;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return kSuccess;
}

int failure() { return g_initialised ? kNotSupported : kUninitialized; }

}  // namespace

extern "C" {

struct StandinUtilization {
  unsigned int gpu, memory;
};
struct StandinMemory {
  unsigned long long total, free, used;
};

int nvmlInit_v2() {
  g_script = read_script(std::getenv("SWEEP_NVML_STANDIN"));
  if (g_script.init_error != 0) return g_script.init_error;
  g_script.start = std::chrono::steady_clock::now();
  g_initialised = true;
  return kSuccess;
}

int nvmlShutdown() {
  const bool was = g_initialised;
  g_initialised = false;
  return was ? kSuccess : kUninitialized;
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!g_initialised) return kUninitialized;
  *count = static_cast<unsigned int>(g_script.gpus.size());
  return kSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (!g_initialised) return kUninitialized;
  if (index >= g_script.gpus.size()) return kInvalidArgument;
  *device = &g_script.gpus[index];
  return kSuccess;
}

int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetName");
  return g != nullptr ? text_into(g->name, name, length) : failure();
}

int nvmlDeviceGetUUID(void* device, char* uuid, unsigned int length) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetUUID");
  return g != nullptr ? text_into(g->uuid, uuid, length) : failure();
}

int nvmlDeviceGetTotalEnergyConsumption(void* device, unsigned long long* energy_mj) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetTotalEnergyConsumption");
  if (g == nullptr) return failure();
  const std::chrono::duration<double> since = std::chrono::steady_clock::now() - g_script.start;
  *energy_mj = static_cast<unsigned long long>(g->power_w * since.count() * 1000.0);
  return kSuccess;
}

int nvmlDeviceGetPowerUsage(void* device, unsigned int* power_mw) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetPowerUsage");
  if (g == nullptr) return failure();
  *power_mw = static_cast<unsigned int>(g->power_w * 1000.0);
  return kSuccess;
}

int nvmlDeviceGetUtilizationRates(void* device, StandinUtilization* util) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetUtilizationRates");
  if (g == nullptr) return failure();
  *util = {g->util, g->mem_util};
  return kSuccess;
}

int nvmlDeviceGetMemoryInfo(void* device, StandinMemory* memory) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetMemoryInfo");
  if (g == nullptr) return failure();
  const unsigned long long total = 80ULL << 30;
  memory->total = total;
  memory->used = g->mem_mib << 20;
  memory->free = total - memory->used;
  return kSuccess;
}

int nvmlDeviceGetClockInfo(void* device, int type, unsigned int* mhz) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetClockInfo");
  if (g == nullptr) return failure();
  if (type != 1) return kNotFound;  // only NVML_CLOCK_SM is scripted
  *mhz = g->sm_mhz;
  return kSuccess;
}

int nvmlDeviceGetTemperature(void* device, int sensor, unsigned int* celsius) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetTemperature");
  if (g == nullptr) return failure();
  if (sensor != 0) return kNotSupported;
  *celsius = g->temp_c;
  return kSuccess;
}

int nvmlDeviceGetCurrentClocksThrottleReasons(void* device, unsigned long long* reasons) {
  const Gpu* g = gpu_for(device, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (g == nullptr) return failure();
  *reasons = g->throttle;
  return kSuccess;
}

}  // extern "C"
