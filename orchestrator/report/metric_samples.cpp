#include "report/metric_samples.h"

namespace sweep::report {

std::vector<double> MetricSamples::Sample::run_means() const {
  std::vector<double> out = per_run;
  if (n) out.push_back(sum / static_cast<double>(n));
  return out;
}

std::uint32_t MetricSamples::intern(Ids& ids, std::vector<std::string>& texts, std::string_view text, bool& added) {
  if (const auto it = ids.find(text); it != ids.end()) {
    added = false;
    return it->second;
  }
  const auto id = static_cast<std::uint32_t>(texts.size());
  texts.emplace_back(text);
  ids.emplace(texts.back(), id);
  added = true;
  return id;
}

void MetricSamples::push_back(const store::MetricRowView& row) {
  bool added = false;
  if (names_.empty() || names_[last_name_] != row.name) {
    if (names_.size() >= kMaxNames && name_ids_.find(row.name) == name_ids_.end()) {
      ++skipped_values_;
      return;
    }
    last_name_ = intern(name_ids_, names_, row.name, added);
    if (added) units_.emplace_back(row.unit), betters_.emplace_back(row.better);
  }
  if (row.state != store::RunState::succeeded) return;
  if (point_ids_.empty() || point_ids_[last_point_] != row.point_id) {
    last_point_ = intern(point_ids_by_text_, point_ids_, row.point_id, added);
    if (added) samples_.emplace_back();
  }
  auto& point = samples_[last_point_];
  if (point.size() <= last_name_) point.resize(last_name_ + 1);
  Sample& s = point[last_name_];
  if (s.open_run != row.run_id) {
    if (s.n) s.per_run.push_back(s.sum / static_cast<double>(s.n));
    s.open_run = row.run_id, s.sum = 0, s.n = 0;
  }
  s.sum += row.value;
  ++s.n;
  s.indexed.emplace_back(row.index, row.value);
}

void MetricSamples::push_back(const store::MetricRow& row) {
  push_back(store::MetricRowView{row.run_id, row.point_id, row.repetition, row.state, 0, row.metric.name, row.metric.index,
                                 row.metric.value, row.metric.unit, row.metric.better, std::nullopt});
}

}  // namespace sweep::report
