// Reader of a report's `model:` (docs/reports.md#predicted-values): the inputs of the analytical model.
#include "spec/load_report_model.h"

#include <fmt/core.h>

#include <array>
#include <string_view>
#include <vector>

#include "spec/load_baseline.h"

namespace sweep::spec {
namespace {

ModelInput input_at(const Field& f, const Source& src) {
  const Value v = scalar_value(f, src);
  ModelInput in;
  in.at = location(f, src);
  if (v.is_number()) {
    in.number = v.as_number();
    if (!(*in.number > 0)) fail_expected(f, src, "a positive number, or a parameter or metric name");
  } else {
    in.name = v.text();
    if (in.name.empty()) fail_expected(f, src, "a positive number, or a parameter or metric name");
  }
  return in;
}

std::string dtype_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a dtype");
  if (text.empty()) fail_expected(f, src, "bf16, fp16, fp32, fp64 or a parameter holding one");
  return text;
}

struct InputKey {
  std::string_view key;
  ModelInput ReportModel::*member;
};
constexpr std::array<InputKey, 14> kInputs{{{"bandwidth", &ReportModel::bandwidth},
                                            {"latency_us", &ReportModel::latency_us},
                                            {"parameters", &ReportModel::parameters},
                                            {"dp", &ReportModel::dp},
                                            {"tp", &ReportModel::tp},
                                            {"pp", &ReportModel::pp},
                                            {"microbatches", &ReportModel::microbatches},
                                            {"batch", &ReportModel::batch},
                                            {"seq", &ReportModel::seq},
                                            {"width", &ReportModel::width},
                                            {"layers", &ReportModel::layers},
                                            {"steps", &ReportModel::steps},
                                            {"allreduce", &ReportModel::allreduce},
                                            {"vocab", &ReportModel::vocab}}};

}  // namespace

ReportModel read_model(const Field& item, const Source& src) {
  std::vector<std::string_view> keys{"baseline", "time", "link", "transfers", "dtype", "gradient_dtype"};
  for (const auto& in : kInputs) keys.push_back(in.key);
  const auto fields = map_fields(item, src);
  check_keys(fields, keys, src);
  ReportModel m;
  m.declared = true;
  m.at = location(item, src);
  const Field* baseline = find_field(fields, "baseline");
  const Field* time = find_field(fields, "time");
  if (!baseline || !time)
    fail_at(m.at, fmt::format("\"{}\" needs \"baseline\" (the single-GPU point, e.g. {{nodes: 1, gpus_per_node: 1}}) "
                              "and \"time\" (its measured epoch-time metric)",
                              item.path));
  m.baseline = baseline_at(*baseline, src);
  m.time = scalar_text(*time, src, "a metric name");
  if (m.time.empty()) fail_expected(*time, src, "a metric name");
  if (const Field* f = find_field(fields, "link")) m.link = scalar_text(*f, src, "an interconnect or a parameter");
  if (const Field* f = find_field(fields, "transfers"))
    m.transfers = static_cast<int>(integer_in(*f, src, 1, 2, "1 (full duplex) or 2 (both directions share the bandwidth)"));
  if (const Field* f = find_field(fields, "dtype")) m.dtype = dtype_at(*f, src);
  if (const Field* f = find_field(fields, "gradient_dtype")) m.gradient_dtype = dtype_at(*f, src);
  for (const auto& in : kInputs)
    if (const Field* f = find_field(fields, in.key)) m.*in.member = input_at(*f, src);
  if (m.link.empty() && !m.bandwidth.given())
    fail_at(m.at, fmt::format("\"{}\" needs \"link\" (an interconnect such as ib-hdr, or a parameter holding one) "
                              "or \"bandwidth\" (GB/s)",
                              item.path));
  return m;
}

}  // namespace sweep::spec
