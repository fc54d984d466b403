#include "telemetry/nvml_api.h"

#include <utility>

namespace sweep::telemetry::nvml {
namespace {

// nvmlReturn_t's values, from the NVML API Reference.
constexpr std::array<std::pair<Return, std::string_view>, 24> kReturnNames{{
    {0, "NVML_SUCCESS"},
    {1, "NVML_ERROR_UNINITIALIZED"},
    {2, "NVML_ERROR_INVALID_ARGUMENT"},
    {3, "NVML_ERROR_NOT_SUPPORTED"},
    {4, "NVML_ERROR_NO_PERMISSION"},
    {5, "NVML_ERROR_ALREADY_INITIALIZED"},
    {6, "NVML_ERROR_NOT_FOUND"},
    {7, "NVML_ERROR_INSUFFICIENT_SIZE"},
    {8, "NVML_ERROR_INSUFFICIENT_POWER"},
    {9, "NVML_ERROR_DRIVER_NOT_LOADED"},
    {10, "NVML_ERROR_TIMEOUT"},
    {11, "NVML_ERROR_IRQ_ISSUE"},
    {12, "NVML_ERROR_LIBRARY_NOT_FOUND"},
    {13, "NVML_ERROR_FUNCTION_NOT_FOUND"},
    {14, "NVML_ERROR_CORRUPTED_INFOROM"},
    {15, "NVML_ERROR_GPU_IS_LOST"},
    {16, "NVML_ERROR_RESET_REQUIRED"},
    {17, "NVML_ERROR_OPERATING_SYSTEM"},
    {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
    {19, "NVML_ERROR_IN_USE"},
    {20, "NVML_ERROR_MEMORY"},
    {21, "NVML_ERROR_NO_DATA"},
    {22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED"},
    {999, "NVML_ERROR_UNKNOWN"},
}};

}  // namespace

std::string_view return_name(Return code) {
  for (const auto& [value, name] : kReturnNames) {
    if (value == code) return name;
  }
  return "NVML_ERROR (unknown code)";
}

}  // namespace sweep::telemetry::nvml
