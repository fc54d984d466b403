#include "trainbench/report.h"

#include <fmt/format.h>

#include "trainbench/step_stats.h"

namespace sweep::trainbench {
namespace {

std::string line(std::string_view metric, double value, std::string_view unit, std::string_view better, int index = 0) {
  std::string text = fmt::format(R"({{"v": 1, "metric": "{}", "value": {}, "index": {})", metric, value, index);
  if (!unit.empty()) text += fmt::format(R"(, "unit": "{}")", unit);
  if (!better.empty()) text += fmt::format(R"(, "better": "{}")", better);
  return text + "}\n";
}

bool is_gpt(const Options& o) { return o.model.family == Family::gpt; }

}  // namespace

std::string header(const Options& o, const Summary& s) {
  const ModelConfig& m = o.model;
  std::string h = fmt::format("# trainbench {} (output format {})\n", s.version, kOutputFormat);
  h += is_gpt(o) ? fmt::format("# model {} | layers {} | width {} | heads {} | seq {} | vocab {}\n", m.name, m.layers,
                               m.width, m.heads, m.seq, m.vocab)
                 : fmt::format("# model {} | 3x32x32 images | {} classes\n", m.name, m.classes);
  h += fmt::format("# parameters {} ({} without embeddings)\n", parameter_count(m), parameter_count_without_embeddings(m));
  h += fmt::format("# world {} (from {}) | dp {} | tp {} | pp {} | microbatches {} | schedule {}\n", o.layout.world(),
                   s.rank_source, o.layout.dp, o.layout.tp, o.layout.pp, o.microbatches, name_of(o.schedule));
  h += fmt::format("# batch {} per data-parallel rank | steps {} ({} epochs of {}) | warmup {} | dtype {} | seed {}\n",
                   o.batch, o.steps(), o.epochs, o.steps_per_epoch, o.warmup, name_of(o.dtype), o.seed);
  h += fmt::format("# data {}\n", describe(o.data));
  h += fmt::format("# backend {} ({}) | {} | device {} | gradients all-reduced in {} buckets of {} MiB, {}\n",
                   comm::name_of(o.backend), s.backend_library, s.torch_version, s.device, name_of(o.grad_dtype), o.bucket_mib,
                   s.overlapped ? "overlapping backward" : "after backward");
  if (o.dtype == Precision::bf16)
    h += "# bf16: autocast compute; activations and tensor-parallel sums sent in bf16; weights, gradients and "
         "optimizer in fp32 (--grad-dtype sets the all-reduced gradients' precision)\n";
  h += s.peak_flops ? fmt::format("# peak {:.4g} TFLOPS per rank ({})\n", *s.peak_flops / 1e12, s.peak_flops_source)
                    : std::string("# peak FLOPS unknown, so MFU is unknown (give --peak-tflops)\n");
  for (std::size_t r = 0; r < s.hosts.size(); ++r)
    h += fmt::format("#  Rank {:3} on {} | parameters hash {:016x}\n", r, s.hosts[r],
                     r < s.parameter_hashes.size() ? s.parameter_hashes[r] : 0);
  return h;
}

std::string metric_lines(const Options& o, const Summary& s) {
  const StepStats t = step_stats(s.step_seconds, o.warmup);
  const double samples = static_cast<double>(o.layout.dp) * o.batch;
  std::string out;
  out += line("samples_per_s", samples / t.mean, "samples/s", "higher");
  if (is_gpt(o)) {
    const double tokens_per_s = samples * o.model.seq / t.mean;
    out += line("tokens_per_s", tokens_per_s, "tokens/s", "higher");
    if (s.peak_flops)
      out += line("mfu", flops_per_token(o.model) * tokens_per_s / o.layout.world() / *s.peak_flops, "", "higher");
  } else {
    out += line("images_per_s", samples / t.mean, "images/s", "higher");
  }
  out += line("step_time_mean", t.mean, "s", "lower");
  out += line("step_time_median", t.median, "s", "lower");
  out += line("step_time_p90", t.p90, "s", "lower");
  for (std::size_t e = 0; e < s.epoch_seconds.size(); ++e)
    out += line("epoch_time", s.epoch_seconds[e], "s", "lower", static_cast<int>(e));
  // The headline: epoch 2 (start-up excluded), as in the source studies; the only epoch otherwise.
  if (!s.epoch_seconds.empty())
    out += line("epoch_time_headline", s.epoch_seconds[s.epoch_seconds.size() > 1 ? 1 : 0], "s", "lower");
  out += line("peak_memory", s.peak_memory_mib, "MiB", "lower");
  if (s.gpu_peak_memory_mib) {
    out += line("gpu_peak_memory_allocated", s.gpu_peak_memory_mib->first, "MiB", "lower");
    out += line("gpu_peak_memory_reserved", s.gpu_peak_memory_mib->second, "MiB", "lower");
  }
  out += line("comm_bytes_per_step", s.comm_bytes_per_step, "B", "lower");
  out += line("comm_bytes_per_step_model", s.comm_model.total(), "B", "lower");
  out += line("comm_time_per_step", s.comm_seconds_per_step, "s", "lower");
  // Seed 003's "network throughput": the bytes this rank sent per second of step time.
  out += line("net_throughput", s.comm_bytes_per_step / t.mean, "B/s", "");
  out += line("comm_exposed_time_per_step", s.exposed_comm_seconds_per_step, "s", "lower");
  if (!s.losses.empty()) {
    out += line("loss_first", s.losses.front(), "", "lower");
    out += line("loss_last", s.losses.back(), "", "lower");
    for (std::size_t i = 0; i < s.losses.size(); ++i) out += line("loss", s.losses[i], "", "lower", static_cast<int>(i));
  }
  out += line("world_size", o.layout.world(), "ranks", "");
  // The configuration as numbers too, so that tables can group by it without parsing the header.
  out += line("dp", o.layout.dp, "", "");
  out += line("tp", o.layout.tp, "", "");
  out += line("pp", o.layout.pp, "", "");
  out += line("microbatches", o.microbatches, "", "");
  out += line("batch", o.batch, "samples", "");
  out += line("steps_per_epoch", o.steps_per_epoch, "", "");
  if (is_gpt(o)) {
    out += line("seq", o.model.seq, "tokens", "");
    out += line("layers", o.model.layers, "", "");
    out += line("width", o.model.width, "", "");
    out += line("vocab", o.model.vocab, "tokens", "");
  }
  out += line("parameters", static_cast<double>(parameter_count(o.model)), "", "");
  out += line("parameters_without_embeddings", static_cast<double>(parameter_count_without_embeddings(o.model)), "", "");
  return out;
}

}  // namespace sweep::trainbench
