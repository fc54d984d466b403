#pragma once
// collbench's output, format version 1: a human table in the shape of nccl-tests, and one metric line
// (docs/metrics-format.md) per measured value. Pure: returns text; rank 0 prints it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collbench/options.h"
#include "collbench/sizes.h"

namespace sweep::collbench {

constexpr int kOutputFormat = 1;

/// One variant (out-of-place or in-place) of one size. Times are per iteration, in microseconds.
struct Timing {
  double min_us = 0, avg_us = 0, max_us = 0;
  std::optional<std::uint64_t> wrong;  // summed over ranks; nullopt when not checked
};

struct Row {
  Shape shape;
  Timing out_of_place;
  std::optional<Timing> in_place;
};

/// What the header describes besides the options.
struct RunInfo {
  std::string collbench_version;
  std::string library;              // e.g. "Open MPI v4.1.4"
  std::vector<std::string> hosts;   // index = rank
  int ranks = 1;
  std::string rank_source;          // where rank 0 found its rank ("slurm", "openmpi", ...)
  bool checkable = true;
  std::string device = "cpu";       // rank 0's buffers: "cpu", "cuda:0", "cuda:0 through host memory"
  std::string clock = "host clock"; // what the times are measured with (Communicator::clock())
};

/// The time that algbw and busbw use, per the --headline choice.
double headline_us(const Options& o, const Timing& t);
double algbw_gbps(std::uint64_t bytes, double time_us);

std::string header(const Options& o, const RunInfo& info);
std::string table_row(const Options& o, int ranks, const Row& row);
/// The metric lines of row `index`: size_bytes, count, time_us, time_us_min, time_us_max, algbw,
/// busbw, wrong (when checked), and the same with suffix _inplace for the in-place variant.
std::string metric_lines(const Options& o, int ranks, std::size_t index, const Row& row);
/// "# Out of bounds values", "# Avg bus bandwidth" and the summary metric lines: busbw_avg,
/// busbw_peak, busbw_peak_size_bytes, wrong_total (when checked).
std::string summary(const Options& o, int ranks, const std::vector<Row>& rows);

}  // namespace sweep::collbench
