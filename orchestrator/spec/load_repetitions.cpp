// `repetitions`: a number of runs per point, or adaptive bounds with a precision target
// (docs/experiment-format.md#repetitions).
#include <fmt/core.h>

#include <array>

#include "spec/load_sections.h"
#include "spec/yaml_read.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 3> kKeys{"min", "max", "until"};
constexpr std::array<std::string_view, 2> kUntilKeys{"metric", "ci95_rel"};

RepetitionTarget read_until(const Field& f, const Source& src) {
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, kUntilKeys, src);
  RepetitionTarget t{"", 0, location(f, src)};
  const Field* metric = find_field(fields, "metric");
  const Field* rel = find_field(fields, "ci95_rel");
  if (!metric || !rel)
    fail_at(t.where, "\"repetitions.until\" needs \"metric\" (whose mean to make precise) and \"ci95_rel\" (the "
                     "95% interval's half-width as a fraction of the mean, e.g. 0.02)");
  t.metric = scalar_text(*metric, src, "a metric name");
  if (!is_metric_name(t.metric)) fail_expected(*metric, src, "a metric name");
  const Value v = scalar_value(*rel, src);
  if (!v.is_number() || !(v.as_number() > 0) || v.as_number() >= 1)
    fail_expected(*rel, src, "a fraction above 0 and below 1 (0.02 is 2% of the mean)");
  t.ci95_rel = v.as_number();
  return t;
}

void read_bounds(const Field& f, const Source& src, LoadState& st) {
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, kKeys, src);
  const Field* min = find_field(fields, "min");
  const Field* max = find_field(fields, "max");
  const Field* until = find_field(fields, "until");
  if (!min || !max || !until)
    fail_at(location(f, src), "\"repetitions\" as a map needs \"min\", \"max\" and \"until\" (or give one number of "
                              "runs per point, e.g. repetitions: 5)");
  st.exp.repetitions =
      static_cast<int>(integer_in(*min, src, 2, kMaxRepetitions, "an integer from 2 (an interval needs two runs) to 10000"));
  st.exp.max_repetitions = static_cast<int>(integer_in(*max, src, 2, kMaxRepetitions, "an integer from 2 to 10000"));
  if (st.exp.max_repetitions < st.exp.repetitions)
    fail_at(location(*max, src), fmt::format("\"repetitions.max\" ({}) is below \"repetitions.min\" ({})",
                                             st.exp.max_repetitions, st.exp.repetitions));
  st.exp.until = read_until(*until, src);
}

}  // namespace

void read_repetitions(const Field& f, const Source& src, LoadState& st) {
  st.exp.until.reset();
  if (f.value.IsMap()) return read_bounds(f, src, st);
  st.exp.repetitions =
      static_cast<int>(integer_in(f, src, 1, kMaxRepetitions, "an integer from 1 to 10000, or {min, max, until}"));
  st.exp.max_repetitions = st.exp.repetitions;
}

}  // namespace sweep::spec
