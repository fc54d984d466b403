#pragma once
// trainbench's command line. Parsing is pure: it returns Options or throws UsageError with a message
// that names the option and what it expects. Checks that need the world size (the layout) come later,
// from layout_errors(), before any work starts.
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "comm/communicator.h"
#include "program/program.h"
#include "trainbench/data_source.h"
#include "trainbench/layout.h"
#include "trainbench/model_config.h"

namespace sweep::trainbench {

enum class Schedule { gpipe, one_f_one_b };
enum class Precision { fp32, bf16 };
/// --device: auto takes a CUDA GPU when libtorch and the node have one, else the CPU.
enum class DeviceChoice { automatic, cpu, cuda };

struct Options {
  ModelConfig model;
  Layout layout;
  int microbatches = kDefaultMicrobatches;
  Schedule schedule = Schedule::one_f_one_b;
  Precision dtype = Precision::fp32;
  /// The precision the data-parallel gradients (and the tied embedding's) are all-reduced in: bf16
  /// halves the bytes, as seed 000 counts them and as PyTorch DDP's bf16 compression hook sends them.
  /// Gradients are accumulated and applied in fp32 either way.
  Precision grad_dtype = Precision::fp32;
  comm::Backend backend = comm::Backend::gloo;
  /// --backend auto: nccl where this rank trains on a GPU and the build has nccl, else gloo; the main
  /// program settles `backend` (chosen_backend in engine.h) before connecting.
  bool backend_auto = false;
  DeviceChoice device = DeviceChoice::automatic;
  int batch = kDefaultBatch;  // sequences (or images) per data-parallel rank and step
  int epochs = 1;
  int steps_per_epoch = 20;
  int warmup = 2;  // steps excluded from the step-time statistics
  std::uint64_t seed = 1234;
  double lr = 1e-3;
  double bucket_mib = 25;  // data-parallel gradient buckets
  bool overlap = true;     // all-reduce buckets during backward where the backend allows it
  DataSource data;         // --data; synthetic by default
  int threads = 1;         // intra-op threads per rank
  double peak_tflops = 0;  // per rank, for MFU; 0: unknown
  double slowdown_ms = 0;  // sleep this long in every step: an injected regression (docs/trainbench.md)
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  std::string rendezvous_dir;
  int steps() const { return epochs * steps_per_epoch; }
};

using program::HelpRequested;
using program::UsageError;

/// Parses argv (argv[0] is the program). Throws UsageError; `--help` and `--version` throw
/// HelpRequested with the text to print (the help, or "trainbench <version>": program/program.h).
Options parse_options(const std::vector<std::string>& args);

std::string_view name_of(Schedule schedule);
std::string_view name_of(Precision precision);
std::string_view name_of(DeviceChoice device);

}  // namespace sweep::trainbench
