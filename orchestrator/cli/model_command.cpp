// sweep model: the analytical model of a parallel training step and epoch (docs/model.md).
//   sweep model --params 708M --dtype bf16 --dp 2 --interconnect ib-hdr --single-epoch 498.37 --steps 1108
//   sweep model --list-interconnects [--interconnects FILE]
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "cli/command.h"
#include "model/dtype.h"
#include "model/energy.h"
#include "model/interconnect.h"
#include "model/predict.h"
#include "spec/load_interconnects.h"
#include "spec/site.h"
#include "util/error.h"

namespace sweep::cli {
namespace {

struct Options {
  std::string params, dtype = "bf16", interconnect, interconnects_file, site_path;
  int dp = 1, tp = 1, pp = 1, microbatches = 1, batch = 0, seq = 0, width = 0, layers = 0, vocab = 0, transfers = 1;
  std::optional<double> bandwidth, latency_us, allreduce_time, measured, energy_j, energy_steps;
  double single_epoch = 0, steps = 0;
  bool list = false;
};

double element_bytes(const std::string& dtype) {
  if (const auto bytes = model::dtype_bytes(dtype)) return *bytes;
  throw Error(ErrorKind::usage, fmt::format("--dtype \"{}\": expected {}", dtype, model::kDtypeNames));
}

void list(const std::vector<model::Interconnect>& table) {
  std::printf("%-10s %-34s %12s %12s  %s\n", "name", "interconnect", "GB/s (1 dir)", "latency (µs)", "source");
  for (const auto& i : table)
    std::printf("%-10s %-34s %12.3f %12s  %s\n", i.name.c_str(), i.label.c_str(), i.bandwidth,
                i.latency_us ? fmt::format("{:g}", *i.latency_us).c_str() : "unknown", i.source.c_str());
}

// The link: a named interconnect, or --bandwidth (which overrides the table's bandwidth).
std::pair<model::Link, std::string> resolve_link(const Options& o, const std::vector<model::Interconnect>& table) {
  model::Link link;
  link.transfers = o.transfers;
  std::string label = "given by --bandwidth";
  std::optional<double> latency = o.latency_us;
  if (!o.interconnect.empty()) {
    const model::Interconnect* i = model::find_interconnect(table, o.interconnect);
    if (!i) throw Error(ErrorKind::usage, fmt::format("--interconnect \"{}\" is not in the table (sweep model --list-interconnects)", o.interconnect));
    link.bandwidth = i->bandwidth * 1e9;
    if (!latency) latency = i->latency_us;
    label = fmt::format("{} ({})", i->label, i->source);
  }
  if (o.bandwidth) link.bandwidth = *o.bandwidth * 1e9;
  if (link.bandwidth <= 0) throw Error(ErrorKind::usage, "give --interconnect NAME or --bandwidth GB/s (above 0)");
  link.latency = latency.value_or(0) * 1e-6;
  label += latency ? fmt::format(", latency {:g} µs", *latency) : ", latency unknown (taken as 0)";
  return {link, label};
}

int run(const Options& o) {
  // The site's interconnects, then the file's (the file wins for a name both give).
  std::vector<model::Interconnect> extra = spec::find_site(spec::site_lookup(o.site_path)).interconnects;
  if (!o.interconnects_file.empty())
    for (auto& i : spec::load_interconnects(o.interconnects_file)) {
      std::erase_if(extra, [&](const model::Interconnect& e) { return e.name == i.name; });
      extra.push_back(std::move(i));
    }
  const auto table = model::merge_interconnects(extra);
  if (o.list) {
    list(table);
    return 0;
  }
  const auto parameters = model::parse_count(o.params);
  if (!parameters) throw Error(ErrorKind::usage, fmt::format("--params \"{}\": expected a count such as 708M or 124439808", o.params));
  if (o.dp < 1 || o.tp < 1 || o.pp < 1 || o.microbatches < 1 || o.transfers < 1 || o.transfers > 2)
    throw Error(ErrorKind::usage, "--dp, --tp, --pp and --microbatches must be at least 1, --transfers 1 or 2");
  if ((o.tp > 1 || o.pp > 1) && (o.batch < 1 || o.seq < 1 || o.width < 1 || o.layers < 1))
    throw Error(ErrorKind::usage, "--tp and --pp need --batch, --seq, --width and --layers for the activation volumes");
  if (!(o.single_epoch > 0) || !(o.steps > 0))
    throw Error(ErrorKind::usage, "give --single-epoch SECONDS (one GPU) and --steps N (per epoch of the parallel run)");
  const model::Workload w{.parameters = *parameters, .element_bytes = element_bytes(o.dtype), .dp = o.dp, .tp = o.tp, .pp = o.pp,
                          .microbatches = o.microbatches, .batch = o.batch, .seq = o.seq, .width = o.width, .layers = o.layers,
                          .gradient_bytes = 0, .vocab = o.vocab};
  const auto [link, label] = resolve_link(o, table);
  const model::Prediction p = model::predict(w, link, o.single_epoch, o.steps, o.allreduce_time);
  std::printf("workload: N = %.6g parameters, %s (%g bytes), dp %d x tp %d x pp %d = %d ranks, %d micro-batches\n",
              *parameters, o.dtype.c_str(), w.element_bytes, w.dp, w.tp, w.pp, w.world(), w.microbatches);
  std::printf("link: %.6g GB/s one direction, %s; %d transfer(s) per byte\n", link.bandwidth / 1e9, label.c_str(), link.transfers);
  std::printf("per step and rank: DP %.6g B %.4f s%s | TP %.6g B %.4f s | PP %.6g B %.4f s | bubble %.3f\n",
              p.volume.data_parallel, p.data_parallel_seconds, o.allreduce_time ? " (measured)" : "", p.volume.tensor_parallel,
              p.tensor_parallel_seconds, p.volume.pipeline, p.pipeline_seconds, p.bubble);
  std::printf("epoch: compute %.2f s + communication %.2f s (%g steps) = %.2f s predicted\n", p.compute_epoch, p.comm_epoch,
              o.steps, p.epoch);
  std::printf("scaling factor: %.3f predicted (T_1 / (%d x T_%d); 1 is ideal)\n", p.scaling_factor, w.world(), w.world());
  if (o.measured)
    std::printf("measured: %.2f s, scaling factor %.3f; predicted/measured %.3f\n", *o.measured,
                o.single_epoch / (w.world() * *o.measured), p.epoch / *o.measured);
  // Joules per step, communication's share attributed by the predicted time share (model/energy.h).
  const double energy_steps = o.energy_steps.value_or(o.steps);
  const auto split = model::split_energy(o.energy_j, energy_steps, p.comm_epoch, p.epoch);
  std::printf("%s\n", model::energy_line(split, o.energy_j ? fmt::format("{:g} J over {:g} steps", *o.energy_j, energy_steps)
                                                            : "").c_str());
  std::fflush(stdout);
  return 0;
}

}  // namespace

void add_model(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  sub.add_option("--params", o->params, "Parameters N: 708M, 1.5B, 124439808");
  sub.add_option("--dtype", o->dtype, "Gradient and activation precision: bf16, fp16, fp32, fp64")->capture_default_str();
  sub.add_option("--dp", o->dp, "Data-parallel ranks")->capture_default_str();
  sub.add_option("--tp", o->tp, "Tensor-parallel ranks")->capture_default_str();
  sub.add_option("--pp", o->pp, "Pipeline stages")->capture_default_str();
  sub.add_option("--microbatches", o->microbatches, "Micro-batches per step")->capture_default_str();
  sub.add_option("--batch", o->batch, "TP/PP: samples per data-parallel rank and step");
  sub.add_option("--seq", o->seq, "TP/PP: sequence length");
  sub.add_option("--width", o->width, "TP/PP: hidden width");
  sub.add_option("--layers", o->layers, "TP/PP: layers");
  sub.add_option("--vocab", o->vocab, "PP: vocabulary of the tied embedding (its gradients cross the first and last stage)");
  sub.add_option("--interconnect", o->interconnect, "A named link (--list-interconnects)");
  sub.add_option("--bandwidth", o->bandwidth, "Link bandwidth, GB/s one direction (overrides the interconnect's)");
  sub.add_option("--latency-us", o->latency_us, "Link latency α in µs (overrides the interconnect's)");
  sub.add_option("--transfers", o->transfers, "1: full duplex; 2: both directions share the bandwidth (seed 000)")->capture_default_str();
  sub.add_option("--interconnects", o->interconnects_file, "YAML file adding or replacing interconnects");
  sub.add_option("--site", o->site_path, "Site file whose interconnects are added (default: as for sweep run)");
  sub.add_option("--single-epoch", o->single_epoch, "Measured epoch time on one GPU, seconds");
  sub.add_option("--steps", o->steps, "Steps per epoch of the parallel run");
  sub.add_option("--allreduce-time", o->allreduce_time, "Measured seconds of one DP all-reduce (replaces the α-β estimate)");
  sub.add_option("--measured", o->measured, "Measured epoch time of the parallel run, to compare with");
  sub.add_option("--energy", o->energy_j, "Measured joules of the parallel run (its energy_j, else gpu_energy_j), for joules per step");
  sub.add_option("--energy-steps", o->energy_steps, "The steps those joules cover (default: --steps)");
  sub.add_flag("--list-interconnects", o->list, "Print the interconnect table and exit");
  sub.callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace sweep::cli
