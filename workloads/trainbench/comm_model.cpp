#include "trainbench/comm_model.h"

namespace sweep::trainbench {

std::int64_t stage_parameters(const ModelConfig& m, const Layout& l, const Coordinates& c) {
  if (m.family == Family::resnet) return parameter_count(m);
  const std::int64_t C = m.width, t = l.tp;
  // One block: ln1 and ln2 (2C each), qkv (C·3C + 3C) and fc (C·4C + 4C) split by columns, proj
  // (C·C) and fc2 (4C·C) split by rows with their biases (C each) whole.
  const std::int64_t block = 4 * C + (3 * C * C + 3 * C) / t + (4 * C * C + 4 * C) / t + (C * C) / t + C + (4 * C * C) / t + C;
  std::int64_t n = stage_layers(m.layers, l.pp, c.pp).count * block;
  const std::int64_t embedding = static_cast<std::int64_t>(m.vocab) * C;
  if (c.pp == 0) n += embedding + static_cast<std::int64_t>(m.seq) * C;
  if (c.pp == l.pp - 1) n += 2 * C + (l.pp > 1 ? embedding : 0);
  return n;
}

CommPrediction predict_comm(const ModelConfig& m, const Layout& l, const Coordinates& c, int batch, int microbatches,
                            WireBytes bytes) {
  CommPrediction p;
  if (l.dp > 1) p.data_parallel = bytes.gradient * static_cast<double>(stage_parameters(m, l, c));
  if (m.family == Family::resnet) return p;
  const double activation = static_cast<double>(batch / microbatches) * m.seq * m.width * bytes.activation;
  const int layers = stage_layers(m.layers, l.pp, c.pp).count;
  if (l.tp > 1) p.tensor_parallel = static_cast<double>(layers) * microbatches * 4 * activation;
  const int edges = (c.pp > 0 ? 1 : 0) + (c.pp < l.pp - 1 ? 1 : 0);
  p.pipeline = 2.0 * edges * microbatches * activation;
  if (l.pp > 1 && (c.pp == 0 || c.pp == l.pp - 1)) p.embedding = bytes.gradient * static_cast<double>(m.vocab) * m.width;
  return p;
}

double wire_factor(int ranks) { return ranks > 1 ? 2.0 * (ranks - 1) / ranks : 0.0; }

}  // namespace sweep::trainbench
