#include "report/predicted.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "model/dtype.h"
#include "model/interconnect.h"
#include "model/predict.h"
#include "report/baseline.h"
#include "report/declared_tables.h"
#include "report/derived.h"
#include "report/points_view.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

using spec::ModelInput;
using spec::ReportModel;

/// Where an input left out is read from: trainbench's metric of that name, else `fallback`.
struct Default {
  ModelInput ReportModel::*member;
  std::string_view key;
  std::string_view metric;
  std::optional<double> fallback;
};
constexpr std::array<Default, 11> kDefaults{{{&ReportModel::parameters, "parameters", "parameters", std::nullopt},
                                         {&ReportModel::dp, "dp", "dp", 1},
                                         {&ReportModel::tp, "tp", "tp", 1},
                                         {&ReportModel::pp, "pp", "pp", 1},
                                         {&ReportModel::microbatches, "microbatches", "microbatches", 1},
                                         {&ReportModel::batch, "batch", "batch", 0},
                                         {&ReportModel::seq, "seq", "seq", 0},
                                         {&ReportModel::width, "width", "width", 0},
                                         {&ReportModel::layers, "layers", "layers", 0},
                                         {&ReportModel::steps, "steps", "steps_per_epoch", std::nullopt},
                                         {&ReportModel::vocab, "vocab", "vocab", 0}}};

/// Positions in kDefaults (and in the input arrays read with it).
enum Slot : std::size_t { kParameters, kDp, kTp, kPp, kMicrobatches, kBatch, kSeq, kWidth, kLayers, kSteps, kVocab };
static_assert(kDefaults[kSteps].key == "steps" && kDefaults[kVocab].key == "vocab" && kVocab + 1 == kDefaults.size(),
              "Slot follows kDefaults' order");

/// Each predicted quantity read from the model's prediction, and its direction.
struct Quantity {
  std::string_view name;
  double (*of)(const model::Prediction&);
  std::string_view better;
};
constexpr std::array<Quantity, 6> kQuantities{{
    {"epoch_time", [](const model::Prediction& p) { return p.epoch; }, "lower"},
    {"compute_time", [](const model::Prediction& p) { return p.compute_epoch; }, "lower"},
    {"comm_time", [](const model::Prediction& p) { return p.comm_epoch; }, "lower"},
    {"scaling_factor", [](const model::Prediction& p) { return p.scaling_factor; }, "higher"},
    {"bytes_per_step", [](const model::Prediction& p) { return p.volume.total(); }, "lower"},
    {"bubble", [](const model::Prediction& p) { return p.bubble; }, "lower"},
}};

/// An input resolved against the campaign: a constant, or a name to read at each point.
struct Input {
  std::optional<double> number;
  std::string name;
};

std::optional<double> value_at(const Input& in, const PointResult& r) {
  if (in.number) return in.number;
  return number_at(r, in.name);
}

struct Names {
  std::vector<std::string> params, metrics;
  bool param(const std::string& n) const { return std::find(params.begin(), params.end(), n) != params.end(); }
  bool known(const std::string& n) const {
    return param(n) || std::find(metrics.begin(), metrics.end(), n) != metrics.end();
  }
};

Input resolve_given(const ModelInput& in, std::string_view key, const Names& names) {
  if (in.number) return {in.number, ""};
  if (!names.known(in.name)) {
    std::vector<std::string> all = names.params;
    all.insert(all.end(), names.metrics.begin(), names.metrics.end());
    fail_at(in.at, fmt::format("model.{}: \"{}\" is neither a parameter nor a metric of the campaign{}", key, in.name,
                               did_you_mean(in.name, all)));
  }
  return {std::nullopt, in.name};
}

Input resolve(const ReportModel& m, const Default& d, const Names& names) {
  const ModelInput& in = m.*d.member;
  if (in.given()) return resolve_given(in, d.key, names);
  if (names.known(std::string(d.metric))) return {std::nullopt, std::string(d.metric)};
  if (d.fallback) return {d.fallback, ""};
  fail_at(m.at, fmt::format("the model needs \"{}\": the campaign has no metric \"{}\" to take it from", d.key, d.metric));
}

/// The text of `name` at a point: the parameter's value when there is such a parameter, else `name`.
std::string text_at(const std::string& name, const PointResult& r) {
  const auto* p = find_param(*r.point, name);
  return p ? p->value : name;
}

/// Everything resolved once per report: inputs, names, the interconnect table.
struct Context {
  const ReportModel& m;
  Names names;
  std::array<Input, kDefaults.size()> inputs;
  std::optional<Input> bandwidth, latency_us, allreduce;
  std::vector<model::Interconnect> interconnects;

  double dtype_bytes(const std::string& dtype, const PointResult& r) const {
    const std::string text = text_at(dtype, r);
    if (const auto bytes = model::dtype_bytes(text)) return *bytes;
    fail_at(m.at, fmt::format("the model's dtype \"{}\" is not {} (nor a parameter holding one)", text, model::kDtypeNames));
  }

  const model::Interconnect* interconnect(const PointResult& r) const {
    if (m.link.empty()) return nullptr;
    const std::string name = text_at(m.link, r);
    if (const auto* i = model::find_interconnect(interconnects, name)) return i;
    std::vector<std::string> known;
    for (const auto& i : interconnects) known.push_back(i.name);
    fail_at(m.at, fmt::format("the model's link \"{}\" is not an interconnect{} (sweep model --list-interconnects)", name,
                              did_you_mean(name, known)));
  }
};

Context make_context(const std::vector<PointResult>& results, const ReportModel& m,
                     const std::vector<model::Interconnect>& extra) {
  const PointsView points(results);
  Context c{m, {points.params, points.metrics}, {}, {}, {}, {}, model::merge_interconnects(extra)};
  for (const auto& name : c.names.metrics)
    if (name.starts_with(spec::kPredictedPrefix))
      fail_at(m.at, fmt::format("the campaign has a metric \"{}\"; names beginning \"{}\" are the model's", name,
                                spec::kPredictedPrefix));
  if (!c.names.known(m.time)) fail_at(m.at, fmt::format("the model's time \"{}\" is not a metric of the campaign{}", m.time,
                                                        did_you_mean(m.time, c.names.metrics)));
  for (std::size_t i = 0; i < kDefaults.size(); ++i) c.inputs[i] = resolve(m, kDefaults[i], c.names);
  if (m.bandwidth.given()) c.bandwidth = resolve_given(m.bandwidth, "bandwidth", c.names);
  if (m.latency_us.given()) c.latency_us = resolve_given(m.latency_us, "latency_us", c.names);
  if (m.allreduce.given()) c.allreduce = resolve_given(m.allreduce, "allreduce", c.names);
  if (!m.link.empty() && !c.names.param(m.link)) c.interconnect(results.front());  // an unknown name fails now
  return c;
}

std::optional<model::Link> link_at(const Context& c, const PointResult& r) {
  model::Link link;
  link.transfers = c.m.transfers;
  std::optional<double> latency_us;
  if (const auto* i = c.interconnect(r)) link.bandwidth = i->bandwidth * 1e9, latency_us = i->latency_us;
  if (c.bandwidth) {
    const auto gbs = value_at(*c.bandwidth, r);
    if (!gbs) return std::nullopt;
    link.bandwidth = *gbs * 1e9;
  }
  if (c.latency_us) latency_us = value_at(*c.latency_us, r);
  link.latency = latency_us.value_or(0) * 1e-6;
  if (!(link.bandwidth > 0)) return std::nullopt;
  return link;
}

/// The inputs at a point in kDefaults order; nullopt when one is missing there.
std::optional<std::array<double, kDefaults.size()>> inputs_at(const Context& c, const PointResult& r) {
  std::array<double, kDefaults.size()> v{};
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto x = value_at(c.inputs[i], r);
    if (!x || !std::isfinite(*x)) return std::nullopt;
    v[i] = *x;
  }
  return v;
}

int as_int(double v) { return static_cast<int>(std::lround(v)); }

model::Workload workload(const Context& c, const PointResult& r, const std::array<double, kDefaults.size()>& v) {
  return model::Workload{.parameters = v[kParameters],
                         .element_bytes = c.dtype_bytes(c.m.dtype, r),
                         .dp = as_int(v[kDp]),
                         .tp = as_int(v[kTp]),
                         .pp = as_int(v[kPp]),
                         .microbatches = as_int(v[kMicrobatches]),
                         .batch = as_int(v[kBatch]),
                         .seq = as_int(v[kSeq]),
                         .width = as_int(v[kWidth]),
                         .layers = as_int(v[kLayers]),
                         .gradient_bytes = c.dtype_bytes(c.m.gradient_dtype.empty() ? c.m.dtype : c.m.gradient_dtype, r),
                         .vocab = as_int(v[kVocab])};
}

/// An epoch's samples: dp·batch·steps (batch 1 when unknown).
double work(const std::array<double, kDefaults.size()>& v) { return v[kDp] * std::max(v[kBatch], 1.0) * v[kSteps]; }

std::string_view unit_of(std::string_view quantity) {
  for (const auto& q : spec::predicted_quantities())
    if (q.name == quantity) return q.unit;
  return "";
}

using Predictions = std::array<MetricStats, kQuantities.size()>;

std::optional<Predictions> predict_at(const Context& c, const PointResult& point, const PointResult& base) {
  const auto t = base.metrics.find(c.m.time);
  const auto pv = inputs_at(c, point), bv = inputs_at(c, base);
  const auto link = link_at(c, point);
  if (t == base.metrics.end() || t->second.summary.n == 0 || !pv || !bv || !link) return std::nullopt;
  const model::Workload w = workload(c, point, *pv);
  if (w.dp < 1 || w.tp < 1 || w.pp < 1 || w.microbatches < 1 || !(w.parameters > 0) || !((*pv)[kSteps] > 0) || !(work(*bv) > 0))
    return std::nullopt;
  std::optional<double> allreduce;
  if (c.allreduce && !(allreduce = value_at(*c.allreduce, point))) return std::nullopt;
  const double scale = work(*pv) / work(*bv);
  const stats::Summary& s = t->second.summary;
  const auto at = [&](double single) { return model::predict(w, *link, single * scale, (*pv)[kSteps], allreduce); };
  const model::Prediction mid = at(s.mean), low = at(s.ci_low), high = at(s.ci_high);
  Predictions out;
  for (std::size_t q = 0; q < kQuantities.size(); ++q) {
    MetricStats& m = out[q];
    m.unit = std::string(unit_of(kQuantities[q].name));
    m.better = std::string(kQuantities[q].better);
    m.summary.n = s.n;
    m.summary.mean = m.summary.median = kQuantities[q].of(mid);
    m.summary.ci_low = m.summary.min = std::min(kQuantities[q].of(low), kQuantities[q].of(high));
    m.summary.ci_high = m.summary.max = std::max(kQuantities[q].of(low), kQuantities[q].of(high));
    // As for derived metrics: the "sd" implied by the interval (docs/reports.md).
    m.summary.sd = s.n >= 2 ? (m.summary.ci_high - m.summary.ci_low) / 4 * std::sqrt(static_cast<double>(s.n)) : 0;
  }
  return out;
}

}  // namespace

void add_predictions(std::vector<PointResult>& results, const spec::ReportModel& model,
                     const std::vector<model::Interconnect>& interconnects) {
  if (!model.declared || results.empty()) return;
  const auto bases = at_location(where_of(model.baseline, model.at), [&] { return baseline_indices(results, model.baseline); });
  const Context c = make_context(results, model, interconnects);
  std::vector<std::optional<Predictions>> predictions(results.size());
  for (std::size_t i = 0; i < results.size(); ++i)
    if (bases[i]) predictions[i] = predict_at(c, results[i], results[*bases[i]]);
  for (std::size_t i = 0; i < results.size(); ++i)
    if (predictions[i])
      for (std::size_t q = 0; q < kQuantities.size(); ++q)
        results[i].metrics[std::string(spec::kPredictedPrefix) + std::string(kQuantities[q].name)] = (*predictions[i])[q];
}

}  // namespace sweep::report
