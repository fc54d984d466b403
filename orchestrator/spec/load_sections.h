#pragma once
// Private to spec/load*.cpp: one reader per top-level key of the experiment format. load.cpp owns the
// table that maps keys to readers and the order they run in.
#include <string>
#include <vector>

#include "spec/experiment.h"
#include "spec/report_spec.h"
#include "model/interconnect.h"
#include "spec/yaml_read.h"

namespace sweep::spec {

/// What one load accumulates besides the Experiment itself.
struct LoadState {
  Experiment& exp;
  std::vector<std::string> map_axes;         // matrix keys whose choices are maps
  std::vector<std::string> overridden_axes;  // matrix keys replaced by --set
};

/// Reads one top-level entry into st.exp. `src` is the file, or the --set override for overridable keys.
using Reader = void (*)(const Field& f, const Source& src, LoadState& st);

// load_repetitions.cpp
void read_repetitions(const Field& f, const Source& src, LoadState& st);

// load_matrix.cpp
void read_matrix(const Field& f, const Source& src, LoadState& st);
void read_zip(const Field& f, const Source& src, LoadState& st);
void read_exclude(const Field& f, const Source& src, LoadState& st);  // after read_derived
/// Replaces the choices of scalar axis `axis` by the value of `f` (a --set override): one scalar, or a
/// flow list of distinct scalars (`[gloo, mpi]`).
void override_axis(Axis& axis, const Field& f, const Source& src, LoadState& st);

// load_derived.cpp
void read_derived(const Field& f, const Source& src, LoadState& st);  // after matrix and overrides

// load_workload.cpp
void read_workload(const Field& f, const Source& src, LoadState& st);
void read_resources(const Field& f, const Source& src, LoadState& st);
void read_executor(const Field& f, const Source& src, LoadState& st);
/// `workdir`: experiment | launch | run | a path (spec::Workdir).
void read_workdir(const Field& f, const Source& src, LoadState& st);
void read_order(const Field& f, const Source& src, LoadState& st);  // spec/load_order.cpp
/// A launcher's name, checked against the launcher table (also read by the site).
std::string read_launcher(const Field& f, const Source& src);
/// An srun MPI plugin name such as pmix (also read by the site).
std::string read_mpi(const Field& f, const Source& src);

// load_environment.cpp
void read_env(const Field& f, const Source& src, LoadState& st);
void read_setup(const Field& f, const Source& src, LoadState& st);
/// An `env` map (names checked, values kept as templates) and a `setup` list (also read by the site).
std::vector<EnvVar> read_env_map(const Field& f, const Source& src);
std::vector<SetupLine> read_setup_list(const Field& f, const Source& src);

// load_interconnects.cpp
/// One entry of an `interconnects` list (also read by the site).
model::Interconnect read_interconnect(const Field& item, const Source& src);
/// Reads `path` into text and parses it as one YAML map (its "what" names it in messages: "site file").
YAML::Node read_yaml_map_file(const std::string& path, std::string_view what, std::string& text);
/// The whole file at `path`; Error(not_found) or Error(io) naming it as `what`.
std::string read_text_file(const std::string& path, std::string_view what);
/// Parses `text`, read from `path`, as one YAML map (checked as read_yaml_map_file checks a file's text).
YAML::Node read_yaml_map(const std::string& text, const std::string& path, std::string_view what);

// load_network.cpp
void read_network(const Field& f, const Source& src, LoadState& st);

// load_telemetry.cpp
void read_telemetry(const Field& f, const Source& src, LoadState& st);
/// `telemetry`'s value (also read by the site): false, true, or {interval_ms, sources}.
Telemetry read_telemetry_value(const Field& f, const Source& src);

// load_container.cpp
void read_container(const Field& f, const Source& src, LoadState& st);
/// `container`'s value (also read by the site, where `none` is not allowed: none_allowed false).
Container read_container_value(const Field& f, const Source& src, bool none_allowed);

// load_retries.cpp
void read_retries(const Field& f, const Source& src, LoadState& st);
void read_escalate(const Field& f, const Source& src, LoadState& st);  // after read_retries
void read_thresholds(const Field& f, const Source& src, LoadState& st);  // after metrics and derived
/// One entry of `thresholds` (also read from a stored experiment by thresholds_of_experiment).
MetricThreshold read_threshold(const Field& entry, const Source& src);
/// Whether `name` is a metric name: [A-Za-z_][A-Za-z0-9_.]* (load_metrics.cpp).
bool is_metric_name(std::string_view name);

// load_references.cpp
void read_references(const Field& f, const Source& src, LoadState& st);  // after matrix and derived
/// One entry of `references` (also read from a stored experiment and from the site file).
Reference read_reference(const Field& entry, const Source& src);

// load_metrics.cpp
void read_metrics(const Field& f, const Source& src, LoadState& st);
void read_success(const Field& f, const Source& src, LoadState& st);  // after read_metrics

// load_report.cpp
void read_report(const Field& f, const Source& src, LoadState& st);  // validates only
ReportSpec read_report_spec(const Field& f, const Source& src);

/// Throws unless `name` can name a parameter or derived value: an identifier that is neither a keyword
/// of the expression language nor a run variable. `what` starts the message ("matrix key").
void check_param_name(const std::string& name, const SourceLocation& at, std::string_view what);

/// `unknown WHAT "name" (available: a, b) (did you mean "a"?)` unless `name` is in `table`.
void check_in_table(const Field& f, const Source& src, std::span<const std::string_view> table, std::string_view what);

}  // namespace sweep::spec
