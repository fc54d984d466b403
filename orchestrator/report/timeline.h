#pragma once
// A run's telemetry as a timeline (docs/reports.md#telemetry-timeline): what its nodes' telemetry logs
// (telemetry/log.h) sampled, as series against time, each downsampled to a bounded number of points.
// Pure.
//
// Series, per node (labels "<node> ..."): each GPU's power (W), SM utilisation (%) and memory used (MiB);
// the workload's CPU cores used (the difference of its cpu_s between samples over their time, cores) and
// its resident memory (MiB); each RAPL zone's power (the difference of its energy over time, W). A
// difference over a time that does not advance is skipped; a negative one (a counter that went back, which
// parse_telemetry refuses) is 0.
// Power and memory keep the largest value of each bucket (a short peak stays seen), utilisation and cores
// the mean.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/log.h"

namespace sweep::report {

struct SeriesPoint {
  double t = 0;
  double v = 0;
  friend bool operator==(const SeriesPoint&, const SeriesPoint&) = default;
};

/// How a bucket of samples becomes one point.
enum class Keep { max, mean };

/// `points` (t ascending) as at most `max_points` (at least 1): when there are more, the span from the
/// first t to the last is cut into `max_points` equal buckets and each non-empty bucket becomes one point
/// at its first sample's t with its samples' largest (Keep::max) or mean value. Otherwise unchanged.
std::vector<SeriesPoint> downsample(const std::vector<SeriesPoint>& points, std::size_t max_points, Keep keep);

/// The timeline's panels, top to bottom, and the unit of each.
enum class Panel { power, gpu_util, cpu_cores, gpu_memory, rss };
inline constexpr std::size_t kPanels = 5;
const char* panel_title(Panel p);  // "Power (W)", ...

struct Series {
  std::string label;  // "<node> GPU 0 power": the node and zone names come from the file (text to escape)
  Panel panel = Panel::power;
  std::vector<SeriesPoint> points;
};

/// Where a node's workload ended: `end` of its file, or its last sample when the file was cut short.
struct NodeEnd {
  std::string node;
  double t = 0;
  bool cut_short = false;
};

struct Timeline {
  std::vector<Series> series;  // at most kMaxSeries, in node then source order
  std::vector<NodeEnd> ends;
  std::size_t series_left_out = 0;  // past kMaxSeries
  double t_max = 0;                 // the latest time of any sample or end
};

inline constexpr std::size_t kMaxPoints = 400;  // per series
inline constexpr std::size_t kMaxSeries = 48;   // per timeline

/// The timeline of one run from its nodes' logs (any order; drawn in node-name order).
Timeline build_timeline(std::vector<telemetry::Log> logs, std::size_t max_points = kMaxPoints);

}  // namespace sweep::report
