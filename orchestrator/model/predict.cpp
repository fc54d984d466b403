#include "model/predict.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sweep::model {
namespace {

double ring_share(int ranks) { return ranks > 1 ? 2.0 * (ranks - 1) / ranks : 0.0; }

double activation_bytes(const Workload& w) {
  return static_cast<double>(w.batch) / w.microbatches * w.seq * w.width * w.element_bytes;
}

double message_seconds(double bytes, const Link& link) { return link.latency + link.transfers * bytes / link.bandwidth; }

}  // namespace

/// The tied embedding's gradients that the first and last pipeline stage all-reduce (0 without pp).
double tied_embedding_bytes(const Workload& w) {
  return w.pp > 1 ? static_cast<double>(w.vocab) * w.width * w.gradient_element_bytes() : 0.0;
}

Volumes volumes(const Workload& w) {
  Volumes v;
  v.data_parallel = ring_share(w.dp) * w.parameters / (w.tp * w.pp) * w.gradient_element_bytes();
  const double layers_per_stage = static_cast<double>(w.layers) / w.pp;
  v.tensor_parallel = layers_per_stage * w.microbatches * 4 * ring_share(w.tp) * activation_bytes(w);
  if (w.pp > 1) v.pipeline = 2.0 * w.microbatches * activation_bytes(w) + tied_embedding_bytes(w);
  return v;
}

double allreduce_seconds(double bytes, int ranks, const Link& link) {
  if (ranks < 2) return 0;
  return 2.0 * (ranks - 1) * link.latency + link.transfers * ring_share(ranks) * bytes / link.bandwidth;
}

double compute_seconds(double parameters, double tokens, double peak_flops, double mfu) {
  return 6 * parameters * tokens / (peak_flops * mfu);
}

Prediction predict(const Workload& w, const Link& link, double single_epoch, double steps,
                   std::optional<double> measured_allreduce) {
  Prediction p;
  p.volume = volumes(w);
  const double shard = w.parameters / (w.tp * w.pp) * w.gradient_element_bytes();
  p.data_parallel_seconds = measured_allreduce ? (w.dp > 1 ? *measured_allreduce : 0.0) : allreduce_seconds(shard, w.dp, link);
  const double per_layer = allreduce_seconds(activation_bytes(w), w.tp, link);
  p.tensor_parallel_seconds = static_cast<double>(w.layers) / w.pp * w.microbatches * 4 * per_layer;
  if (w.pp > 1) p.pipeline_seconds = 2.0 * w.microbatches * message_seconds(activation_bytes(w), link);
  if (const double tied = tied_embedding_bytes(w); tied > 0) p.pipeline_seconds += allreduce_seconds(tied, 2, link);
  p.bubble = static_cast<double>(w.pp - 1) / w.microbatches;
  p.compute_epoch = single_epoch / w.world() * (1 + p.bubble);
  p.comm_epoch = steps * (p.data_parallel_seconds + p.tensor_parallel_seconds + p.pipeline_seconds);
  p.epoch = p.compute_epoch + p.comm_epoch;
  p.scaling_factor = p.epoch > 0 ? single_epoch / (w.world() * p.epoch) : 0;
  return p;
}

}  // namespace sweep::model

namespace sweep::model {

std::optional<double> parse_count(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double scale = 1;
  switch (text.back()) {
    case 'K': case 'k': scale = 1e3; break;
    case 'M': case 'm': scale = 1e6; break;
    case 'B': case 'G': case 'g': scale = 1e9; break;
    default: break;
  }
  if (scale != 1) text.remove_suffix(1);
  const std::string digits(text);
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(digits, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != digits.size() || !(value > 0) || !std::isfinite(value)) return std::nullopt;
  return value * scale;
}

}  // namespace sweep::model
