#pragma once
// The metric values of one campaign's succeeded runs, grouped by point and metric as the rows stream
// from the store: per run the mean of its values of the metric (a metric reported at several indices in
// one run, such as one row per message size, contributes the mean over its indices; a rule's repeated
// matches arrive already reduced to one value by its `reduce`, docs/metrics-format.md#reduce), and
// every (index, value). Text is interned: point ids, and per metric name its unit and direction (those
// of its first row). No row is kept, so a campaign of 200,000 metric rows costs a few doubles per row.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/records.h"

namespace sweep::report {

class MetricSamples {
 public:
  /// One metric of one point.
  struct Sample {
    std::vector<double> per_run;                           // closed runs' means, in run order
    std::vector<std::pair<std::int64_t, double>> indexed;  // every (index, value)
    std::int64_t open_run = -1;                            // the run whose values are being summed
    double sum = 0;
    std::size_t n = 0;
    /// The per-run means, the open run's included.
    std::vector<double> run_means() const;
    bool empty() const { return per_run.empty() && n == 0; }
  };

  /// The most metric names read (the ingest's limit per run, docs/metrics-format.md#limits): a database
  /// made elsewhere may hold a million, and a report of them would cost gigabytes.
  static constexpr std::size_t kMaxNames = 10'000;

  /// Adds a row. Precondition: each run's rows come together (Store::for_each_metric's order). Rows of
  /// runs that did not succeed only make their metric's name known. A row of a name past the first
  /// kMaxNames is not read, only counted (skipped_values()).
  void push_back(const store::MetricRowView& row);
  void push_back(const store::MetricRow& row);

  std::size_t point_count() const { return point_ids_.size(); }
  const std::string& point_id(std::uint32_t point) const { return point_ids_[point]; }
  /// The samples of a point by metric id (shorter than name_count() when it lacks the last metrics).
  const std::vector<Sample>& samples(std::uint32_t point) const { return samples_[point]; }

  std::size_t name_count() const { return names_.size(); }
  std::size_t skipped_values() const { return skipped_values_; }
  const std::string& name(std::uint32_t id) const { return names_[id]; }
  const std::string& unit(std::uint32_t id) const { return units_[id]; }
  const std::string& better(std::uint32_t id) const { return betters_[id]; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Ids = std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>>;
  /// The id of `text`, added to `texts` when new (`added` says so).
  static std::uint32_t intern(Ids& ids, std::vector<std::string>& texts, std::string_view text, bool& added);

  Ids point_ids_by_text_, name_ids_;
  std::vector<std::string> point_ids_, names_, units_, betters_;
  std::vector<std::vector<Sample>> samples_;  // [point][name]
  // The previous row's ids: rows come grouped by run, so most lookups are skipped.
  std::uint32_t last_point_ = 0, last_name_ = 0;
  std::size_t skipped_values_ = 0;
};

}  // namespace sweep::report
