#pragma once
// The few NVML types, constants and entry points the sampler uses, declared here so that nothing of
// NVML is needed at build time (nvml.h is not included; libnvidia-ml is loaded by dlopen at run time:
// nvml_source.h). ABI-compatible with NVML's public API, as documented in the NVML API Reference
// (docs.nvidia.com/deploy/nvml-api/): nvmlReturn_t is an enum (NVML_SUCCESS = 0), nvmlDevice_t an
// opaque pointer, nvmlUtilization_t {unsigned int gpu, memory} in percent, nvmlMemory_t {unsigned long
// long total, free, used} in bytes, nvmlClockType_t NVML_CLOCK_SM = 1, nvmlTemperatureSensors_t
// NVML_TEMPERATURE_GPU = 0; energy in mJ, power in mW, clocks in MHz.
#include <array>
#include <string_view>

namespace sweep::telemetry::nvml {

using Return = int;             // nvmlReturn_t
using Device = struct Opaque*;  // nvmlDevice_t
inline constexpr Return kSuccess = 0;
inline constexpr int kClockSm = 1;            // NVML_CLOCK_SM
inline constexpr int kTemperatureGpu = 0;     // NVML_TEMPERATURE_GPU
inline constexpr unsigned kNameBufferSize = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE
inline constexpr unsigned kUuidBufferSize = 80;  // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct Utilization {  // nvmlUtilization_t
  unsigned int gpu;
  unsigned int memory;
};

struct Memory {  // nvmlMemory_t (v1)
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

/// The entry points, resolved by dlsym under the names in the comments.
struct Api {
  Return (*init)();                                                         // nvmlInit_v2
  Return (*shutdown)();                                                     // nvmlShutdown
  Return (*device_count)(unsigned int*);                                    // nvmlDeviceGetCount_v2
  Return (*handle_by_index)(unsigned int, Device*);                         // nvmlDeviceGetHandleByIndex_v2
  Return (*name)(Device, char*, unsigned int);                              // nvmlDeviceGetName
  Return (*uuid)(Device, char*, unsigned int);                              // nvmlDeviceGetUUID
  Return (*total_energy)(Device, unsigned long long*);                      // nvmlDeviceGetTotalEnergyConsumption
  Return (*power)(Device, unsigned int*);                                   // nvmlDeviceGetPowerUsage
  Return (*utilization)(Device, Utilization*);                              // nvmlDeviceGetUtilizationRates
  Return (*memory)(Device, Memory*);                                        // nvmlDeviceGetMemoryInfo
  Return (*clock)(Device, int, unsigned int*);                              // nvmlDeviceGetClockInfo
  Return (*temperature)(Device, int, unsigned int*);                        // nvmlDeviceGetTemperature
  Return (*throttle_reasons)(Device, unsigned long long*);                  // nvmlDeviceGetCurrentClocksThrottleReasons
};

/// NVML_ERROR_* names of nvmlReturn_t values (the API Reference's nvmlReturn_t), for messages.
std::string_view return_name(Return code);

}  // namespace sweep::telemetry::nvml
