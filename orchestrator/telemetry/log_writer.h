#pragma once
// The records of the telemetry file format 1 as text, exactly as log.h lays them out (one record a
// line, each ending in '\n'; `-` for a value a source could not give). Pure: log_file.h writes them.
#include <optional>
#include <string>
#include <vector>

#include "telemetry/log.h"

namespace sweep::telemetry {

/// The header: the format line, node, interval_ms, epoch_s, the source lines, then the GPUs and zones.
std::string header_records(const std::string& node, int interval_ms, double epoch_s,
                           const std::vector<SourceStatus>& sources, const std::vector<GpuDevice>& gpus,
                           const std::vector<RaplZone>& zones);

std::string proc_record(const ProcSample& sample);
/// `energy_j` nullopt: the zone's counter could not be read at this sample.
std::string rapl_record(double t, const std::string& zone, const std::optional<double>& energy_j);
std::string gpu_record(const GpuSample& sample);
std::string end_record(double t);

}  // namespace sweep::telemetry
