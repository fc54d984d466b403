// The only user of CLI11 in trainbench.
#include "trainbench/options.h"

#include <array>
#include <optional>

#include <CLI/CLI.hpp>

#ifndef SWEEP_VERSION
#define SWEEP_VERSION "0"  // set by CMake
#endif

namespace sweep::trainbench {
namespace {

constexpr std::array<std::pair<Schedule, std::string_view>, 2> kSchedules{{
    {Schedule::gpipe, "gpipe"}, {Schedule::one_f_one_b, "1f1b"}}};
constexpr std::array<std::pair<Precision, std::string_view>, 2> kPrecisions{{
    {Precision::fp32, "fp32"}, {Precision::bf16, "bf16"}}};
constexpr std::array<std::pair<DeviceChoice, std::string_view>, 3> kDevices{{
    {DeviceChoice::automatic, "auto"}, {DeviceChoice::cpu, "cpu"}, {DeviceChoice::cuda, "cuda"}}};

template <typename T, std::size_t N>
T parse_named(const std::array<std::pair<T, std::string_view>, N>& table, const std::string& option,
              const std::string& text) {
  std::string choices;
  for (const auto& [value, name] : table) {
    if (name == text) return value;
    choices += (choices.empty() ? "" : ", ") + std::string(name);
  }
  throw UsageError(option + ": \"" + text + "\" is not one of " + choices);
}

struct Raw {
  std::string model{kDefaultModel}, schedule = "1f1b", dtype = "fp32", grad_dtype = "fp32", backend = "gloo", device = "auto", data;
  ShapeOverrides shape;
  std::optional<int> steps, epochs;
  double timeout_s = 120;
  bool overlap = true;
};

void define(CLI::App& app, Raw& raw, Options& o) {
  app.add_option("--model", raw.model, "gpt2-tiny|gpt2|gpt2-medium|gpt2-large|gpt2-xl|resnet18 (default gpt2-tiny)");
  app.add_option("--layers", raw.shape.layers, "GPT: transformer blocks (overrides the preset)");
  app.add_option("--width", raw.shape.width, "GPT: embedding width");
  app.add_option("--heads", raw.shape.heads, "GPT: attention heads");
  app.add_option("--seq", raw.shape.seq, "GPT: sequence length");
  app.add_option("--vocab", raw.shape.vocab, "GPT: vocabulary size");
  app.add_option("--dp", o.layout.dp, "data-parallel replicas (default 1)");
  app.add_option("--tp", o.layout.tp, "tensor-parallel slices (default 1)");
  app.add_option("--pp", o.layout.pp, "pipeline stages (default 1)");
  app.add_option("--microbatches", o.microbatches, "micro-batches per step for the pipeline (default 1)");
  app.add_option("--schedule", raw.schedule, "pipeline schedule: gpipe|1f1b (default 1f1b)");
  app.add_option("--dtype", raw.dtype, "compute precision: fp32|bf16 (default fp32)");
  app.add_option("--grad-dtype", raw.grad_dtype,
                 "precision of the all-reduced gradients: fp32|bf16 (default fp32; accumulated and applied in fp32)");
  app.add_option("--backend", raw.backend, "mpi|gloo|nccl|auto (default gloo; auto: nccl on a GPU, else gloo)");
  app.add_option("--device", raw.device, "auto|cpu|cuda (default auto: a CUDA GPU when there is one)");
  app.add_option("--batch", o.batch, "samples per data-parallel rank and step (default 8)");
  app.add_option("--steps", raw.steps, "steps in total, as one epoch (excludes --epochs)");
  app.add_option("--epochs", raw.epochs, "epochs (default 1)");
  app.add_option("--steps-per-epoch", o.steps_per_epoch, "steps per epoch (default 20)");
  app.add_option("--warmup", o.warmup, "first steps left out of the step-time statistics (default 2)");
  app.add_option("--seed", o.seed, "seed of the weights and the synthetic data (default 1234)");
  app.add_option("--lr", o.lr, "AdamW learning rate (default 1e-3)");
  app.add_option("--bucket-mb", o.bucket_mib, "data-parallel gradient bucket size in MiB (default 25)");
  app.add_flag("--overlap,!--no-overlap", raw.overlap,
               "all-reduce gradient buckets during backward where the backend allows it (default), or after it");
  app.add_option("--data", raw.data,
                 "synthetic (default); GPT: tokens:FILE (whitespace-separated ids, also a bare FILE) or uint16:FILE "
                 "(nanoGPT's train.bin); resnet18: cifar10:DIR or cifar10:FILE (CIFAR-10 binary version)");
  app.add_option("--threads", o.threads, "intra-op threads per rank (default 1)");
  app.add_option("--peak-tflops", o.peak_tflops, "peak TFLOPS of one rank's device, for MFU (default: unknown)");
  app.add_option("--slowdown-ms", o.slowdown_ms, "sleep this many ms in every step: an injected regression (default 0)")
      ->envname("TRAINBENCH_SLOWDOWN_MS");
  app.add_option("--timeout", raw.timeout_s, "seconds to wait for peers (default 120)");
  app.add_option("--rendezvous", o.rendezvous_dir, "gloo/nccl: a directory shared by all ranks (default: .)");
}

void apply_model(const Raw& raw, Options& o) {
  auto model = resolve_model(raw.model, raw.shape);
  if (const auto* refusal = std::get_if<Refusal>(&model)) throw UsageError(refusal->message);
  o.model = std::get<ModelConfig>(std::move(model));
}

void apply_data(const Raw& raw, Options& o) {
  try {
    o.data = parse_data_source(raw.data);
  } catch (const DataSourceError& e) {
    throw UsageError(std::string("--data: ") + e.what());
  }
  if (feeds(o.data.format, o.model.family)) return;
  throw UsageError("--data " + describe(o.data) + " does not feed " + o.model.name +
                   (o.model.family == Family::gpt ? " (GPT models take tokens:FILE or uint16:FILE)"
                                                  : " (resnet18 takes cifar10:DIR or cifar10:FILE)"));
}

void resolve(const Raw& raw, Options& o) {
  apply_model(raw, o);
  o.schedule = parse_named(kSchedules, "--schedule", raw.schedule);
  o.dtype = parse_named(kPrecisions, "--dtype", raw.dtype);
  o.grad_dtype = parse_named(kPrecisions, "--grad-dtype", raw.grad_dtype);
  o.device = parse_named(kDevices, "--device", raw.device);
  o.backend_auto = raw.backend == "auto";
  if (auto b = comm::parse_backend(o.backend_auto ? "gloo" : raw.backend)) o.backend = *b;
  else throw UsageError("--backend: \"" + raw.backend + "\" is not one of mpi, gloo, nccl, auto");
  if (o.backend == comm::Backend::nccl && o.device == DeviceChoice::cpu)
    throw UsageError("--backend nccl trains on GPUs: it excludes --device cpu");
  if (raw.steps && raw.epochs) throw UsageError("--steps gives the total as one epoch; it excludes --epochs");
  if (raw.steps) {
    o.epochs = 1;
    o.steps_per_epoch = *raw.steps;
  }
  if (raw.epochs) o.epochs = *raw.epochs;
  o.overlap = raw.overlap;
  if (o.epochs < 1) throw UsageError("--epochs must be at least 1, got " + std::to_string(o.epochs));
  if (o.steps_per_epoch < 1) throw UsageError("--steps-per-epoch must be at least 1, got " + std::to_string(o.steps_per_epoch));
  if (o.warmup < 0 || o.warmup >= o.steps())
    throw UsageError("--warmup " + std::to_string(o.warmup) + " must leave at least one of the " +
                     std::to_string(o.steps()) + " steps to measure");
  if (!(o.lr > 0)) throw UsageError("--lr must be positive");
  if (!(o.bucket_mib > 0)) throw UsageError("--bucket-mb must be positive");
  if (o.peak_tflops < 0) throw UsageError("--peak-tflops must be positive");
  if (!(o.slowdown_ms >= 0) || o.slowdown_ms > 60000) throw UsageError("--slowdown-ms must be from 0 to 60000");
  if (o.threads < 1) throw UsageError("--threads must be at least 1, got " + std::to_string(o.threads));
  apply_data(raw, o);
  if (!(raw.timeout_s > 0)) throw UsageError("--timeout must be positive seconds");
  o.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(raw.timeout_s * 1000));
}

}  // namespace

std::string_view name_of(Schedule schedule) { return kSchedules[static_cast<std::size_t>(schedule)].second; }
std::string_view name_of(Precision precision) { return kPrecisions[static_cast<std::size_t>(precision)].second; }
std::string_view name_of(DeviceChoice device) { return kDevices[static_cast<std::size_t>(device)].second; }

Options parse_options(const std::vector<std::string>& args) {
  CLI::App app("trainbench: a training benchmark for GPT-2 and ResNet-18 with data, tensor and pipeline "
               "parallelism", "trainbench");
  Options o;
  Raw raw;
  define(app, raw, o);
  program::parse_command_line(app, args, "trainbench", SWEEP_VERSION);
  resolve(raw, o);
  return o;
}

}  // namespace sweep::trainbench
