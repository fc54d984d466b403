#pragma once
// trainbench's output, format 1: a header of "#" lines (configuration, versions, hosts), then metric
// lines (docs/metrics-format.md, version 1) that sweep stores with no rule. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trainbench/comm_model.h"
#include "trainbench/options.h"

namespace sweep::trainbench {

inline constexpr int kOutputFormat = 1;

/// The run's figures, combined over ranks by the caller.
struct Summary {
  std::string version, backend_library, torch_version, rank_source;
  std::vector<std::string> hosts;                 // by world rank
  std::vector<std::uint64_t> parameter_hashes;    // by world rank
  std::vector<double> step_seconds;               // per step, the slowest rank's
  std::vector<double> epoch_seconds;              // per epoch, the slowest rank's
  std::vector<double> losses;                     // per step, mean over data-parallel replicas
  double peak_memory_mib = 0;                     // the largest rank's host RSS
  std::optional<std::pair<double, double>> gpu_peak_memory_mib;  // on GPUs: the largest rank's allocated, reserved
  std::string device = "cpu";                     // rank 0's, e.g. "cuda:0 (NVIDIA H200)"
  double comm_bytes_per_step = 0;                 // rank 0's, counted
  CommPrediction comm_model;                      // rank 0's, predicted
  double comm_seconds_per_step = 0;               // rank 0's
  double exposed_comm_seconds_per_step = 0;       // rank 0's
  bool overlapped = false;                        // rank 0's all-reduce ran during backward
  std::optional<double> peak_flops;               // per rank; unknown when absent
  std::string peak_flops_source;
};

std::string header(const Options& o, const Summary& s);
std::string metric_lines(const Options& o, const Summary& s);

}  // namespace sweep::trainbench
