#pragma once
// The experiment model: what a validated experiment YAML file means. Produced by spec::load_*
// (spec/load.h); consumed by matrix/ (expansion) and runner/ (everything else). Every element keeps the
// SourceLocation it came from so later stages can still point at the file.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/bundled.h"
#include "spec/container.h"
#include "spec/escalation.h"
#include "spec/expr.h"
#include "util/error.h"
#include "util/value.h"

namespace sweep::spec {

/// The version of the experiment format this build reads (`format: 1` at the top is optional).
inline constexpr int kExperimentFormatVersion = 1;

/// Variables the runner adds to every run's template variables, next to the parameters and derived
/// values. Parameter and derived names may not take these names (validated at load).
/// experiment_dir and launch_dir are the campaign's (store: campaigns.experiment_dir, launch_dir).
inline constexpr std::array<std::string_view, 9> kRunVariables{
    "campaign", "experiment", "point_id", "run_id", "repetition", "attempt", "run_dir", "experiment_dir", "launch_dir"};

struct Param {
  std::string name;
  Value value;

  friend bool operator==(const Param&, const Param&) = default;
};

/// One entry in a matrix axis. A scalar entry `batch: [16, 32]` gives one Param named after the key;
/// a map entry `topology: [{nodes: 1, gpus_per_node: 2}]` gives one Param per field. All choices of an
/// axis have the same parameter names in the same order (validated).
struct Choice {
  std::vector<Param> params;
  SourceLocation where;
};

struct Axis {
  std::string key;
  SourceLocation where;
  std::vector<Choice> choices;  // never empty (validated)
  /// Names of the parameters this axis defines: {key} for scalar axes, the field names for map axes.
  std::vector<std::string> param_names;
};

/// Keys whose lists pair element-wise instead of crossing. All axes of a group have equal lengths.
struct ZipGroup {
  std::vector<std::string> keys;  // matrix keys, each in at most one group
  SourceLocation where;
};

/// An exclusion: either a partial match on parameter values (all must be equal) or an expression.
struct ExcludeRule {
  std::vector<Param> match;  // empty when `where` is set
  std::optional<Expr> where;
  SourceLocation loc;
};

struct Derived {
  std::string name;
  Expr expr;
  SourceLocation where;
};

/// One `metrics` entry: a regex or json rule for one named metric, or a built-in parser
/// (spec/metric_parsers.h) that names its own metrics, units and directions.
struct MetricRule {
  enum class Kind { regex, json, parser };
  std::string name;            // "" for a parser
  std::string unit;            // "" when none (always for a parser)
  std::string better;          // "higher" or "lower"; "" for a parser
  Kind kind = Kind::regex;
  std::string pattern;         // regex with a named group (?<value>...) or (?<NAME>...); the JSON key; or
                               // the parser's name
  std::string source = "stdout";  // "stdout", "stderr", or a file path relative to the run directory
  /// regex and json: how the rule's matches within one run reduce (spec/metric_reductions.h); "" = not
  /// given, so a run in which the rule matches more than once fails (docs/metrics-format.md#reduce).
  std::string reduce;
  SourceLocation where;
};

struct Workload {
  std::string command;             // a Mustache template; values are shell-quoted unless {{{raw}}}.
                                   // With `program`, only the arguments (the runner puts the path first).
  SourceLocation command_where;
  std::string launcher = "local";  // validated against the launcher table
  SourceLocation launcher_where;   // no file: not given (the default, or the site's: spec/site.h)
  std::string mpi;                 // srun's --mpi plugin ("pmix", ...); "" = the cluster's default
  std::string program;             // `bundled`: a bundled program by name ("" when `command` is used)
  std::vector<BundledArg> args;    // `bundled`: its `args`, each value a Mustache template
  /// In a `workload` list, the condition for a point to run this entry, bound like `derived` (see
  /// Experiment::parameter_names). None: every point (only the last entry of a list may omit it).
  std::optional<Expr> when;
  SourceLocation where;
};

/// `workdir`: where the setup lines and the workload run (docs/experiment-format.md, "Where a run
/// runs"). The job script's own files are written by absolute path into the run directory whichever.
struct Workdir {
  enum class Kind { experiment, launch, run, path };
  Kind kind = Kind::experiment;
  std::string path;  // Kind::path: a Mustache template; relative to the experiment's directory
  SourceLocation where;  // no file: not given (the default)
};

/// One entry of `resources`: a key of sched/resources.h and its value, a Mustache template over the
/// parameters (`nodes: "{{nodes}}"`). `extra` gives one entry per list item.
struct Resource {
  std::string key;
  std::string value;
  SourceLocation where;

  friend bool operator==(const Resource& a, const Resource& b) { return a.key == b.key && a.value == b.value; }
};

/// One `thresholds` entry: for `metric`, the relative change below which a significant change does not
/// count in `sweep compare` and `sweep nightly` (docs/statistics.md): a number, or an expression over
/// the point's parameters and derived values (`"size <= 1024 ? 0.10 : 0.02"`).
struct MetricThreshold {
  std::string metric;
  std::optional<double> value;
  std::optional<Expr> expr;
  SourceLocation where;
};

/// One `references` entry (an acceptance test, as ReFrame's references): on `system` ("*": any), at
/// the points where `where` holds (an expression over parameters and derived values; absent: every
/// point), the mean of `metric` is expected at `value` within the relative bounds `lower` (<= 0) and
/// `upper` (>= 0); an absent bound is open. docs/references.md.
struct Reference {
  std::string system = "*";
  std::optional<Expr> where;  // unbound: bound to each point's parameter names when checked
  std::string metric;
  double value = 0;           // never 0: the bounds are relative to it
  std::optional<double> lower, upper;
  std::string unit;           // "" = not checked against the metric's
  SourceLocation at;          // the entry
  /// A site file's: about the cluster, not one experiment, so left out where a campaign lacks its
  /// metric or a parameter its `where` reads (an experiment's entry fails or is an error there).
  bool general = false;
};

/// One `env` entry: a variable exported for the workload. A literal `value` is a Mustache template over
/// the parameters, rendered without quoting and then exported as one shell-quoted word, so it is taken
/// literally ($VAR is not expanded; use `setup` for that). A secret (docs/experiment-format.md#secrets:
/// a reference, a literal marked `secret: true`, or a literal under a secret-looking name) is never
/// written into the job script: it reaches the job through its process environment, and is masked
/// (`***`) wherever sweep records or prints it. A secret literal is not a template.
struct EnvVar {
  enum class Source { literal, environment, file };
  std::string name;  // a shell variable name, not SWEEP_* (validated)
  std::string value;  // the literal, or for a reference the variable's name or the file's path as written
  SourceLocation where;  // in the experiment or the site file (spec/site.h)
  Source source = Source::literal;
  bool secret = false;       // a reference is always secret
  SourceLocation value_at{};  // the value's scalar (its opening quote, if quoted): where the stored text masks it
};

/// How an `env` entry is shown (`sweep site`, messages): its value, `***` for a secret literal, or
/// its reference as written (`{from_env: X}`, `{from_file: P}`), which holds no secret.
std::string shown_value(const EnvVar& v);
/// A `setup` line as shown: the literal secret assignments in it masked (util/secrets.h).
std::string shown_setup(const std::string& line);

/// One `setup` line: shell text run in the job's own shell before the workload (`module load ...`,
/// `source venv/bin/activate`), a Mustache template whose values are shell-quoted.
struct SetupLine {
  std::string text;
  SourceLocation where;  // in the experiment or the site file (spec/site.h)
};

/// `repetitions: {min, max, until: {metric, ci95_rel}}` (docs/experiment-format.md#repetitions): the
/// 95% confidence interval of the point's mean of `metric` is to be at most `ci95_rel` of that mean,
/// at every index of a metric with one value per index.
struct RepetitionTarget {
  std::string metric;
  double ci95_rel = 0;
  SourceLocation where;
};

struct Success {
  int exit_code = 0;
  /// Metrics that must be present for a run to count as succeeded. Defaults to every declared metric.
  std::vector<std::string> metrics;
  /// `where`: an expression over the run's metrics (each identifier a metric name; bound to its own
  /// names()) that must hold, at every index for a metric with one value per index. Absent: none.
  std::optional<Expr> criterion;
  SourceLocation where;
};

/// `network`: the network-card counters sampled around each run's workload (runner/nic_sampling.h).
struct Network {
  bool counters = true;                 // `counters:`; runs sample only when `network` is given (where) and this holds
  std::vector<std::string> interfaces;  // `interfaces`: names of interfaces or IB ports (dev/port); empty: the default rule
  SourceLocation where;                 // no file: not given
};

/// `telemetry`: the sampler that runs beside each run's workload on every node of the run (docs/telemetry.md,
/// runner/telemetry_sampling.h). On unless `telemetry: false` (the experiment's, else the site's).
struct Telemetry {
  bool enabled = true;
  int interval_ms = 1000;  // kTelemetryIntervalMs bounds
  std::vector<std::string> sources{"proc", "rapl", "nvml"};  // in kTelemetrySources order, each once
  SourceLocation where;  // no file: not given (the default, or the site's: spec/site.h)
  bool interval_given = false;  // the map named `interval_ms` (a key not given is taken from the site's)
  bool sources_given = false;   // the map named `sources`
  friend bool operator==(const Telemetry& a, const Telemetry& b) {
    return a.enabled == b.enabled && a.interval_ms == b.interval_ms && a.sources == b.sources;
  }
};
inline constexpr int kTelemetryMinIntervalMs = 50;
inline constexpr int kTelemetryMaxIntervalMs = 60000;
inline constexpr std::array<std::string_view, 3> kTelemetrySources{"proc", "rapl", "nvml"};

/// The setting as one line: "off", or "interval_ms=1000 sources=proc,rapl,nvml" (`sweep site`, the
/// campaign's record: runner/campaign_settings.h). Pure.
std::string telemetry_text(const Telemetry& t);
/// telemetry_text's inverse; nullopt for a text it does not write. Pure.
std::optional<Telemetry> telemetry_from_text(std::string_view text);

/// `order:` the order in which a campaign's runs start (docs/experiment-format.md#order).
struct RunOrder {
  enum class Kind {
    interleaved,  // round-robin over points: repetition 0 of every point, then repetition 1, ...
    grouped,      // every repetition of a point before the next point
    random,       // a shuffle that `seed` decides, the same on every machine and every resume
  };
  Kind kind = Kind::interleaved;
  std::uint64_t seed = 0;
  friend bool operator==(const RunOrder&, const RunOrder&) = default;
};

/// The most runs one point may have (`repetitions`, `repetitions.max`, and `sweep extend` on top of what
/// a point has): a stated bound on what is planned and recorded, checked before any work.
inline constexpr int kMaxRepetitions = 10'000;

struct Experiment {
  std::string path;         // as given to the loader; used in every error message
  std::string text;         // the exact file content, stored with the campaign and hashed
  std::string name;         // a safe name (util/names.h)
  std::string description;
  std::vector<Axis> matrix;  // in file order; never empty
  std::vector<ZipGroup> zip;
  std::vector<ExcludeRule> exclude;
  std::vector<Derived> derived;  // topologically sorted: each uses only parameters and earlier entries
  /// Runs per point planned at the start: `repetitions: N`, or `repetitions.min`; at most kMaxRepetitions.
  int repetitions = 1;
  /// The most runs a point gets (equal to `repetitions` unless `until` is given).
  int max_repetitions = 1;
  /// `repetitions.until`: more runs are added to a point until its `metric` is this precise.
  std::optional<RepetitionTarget> until;
  /// Never empty. A point runs the first entry whose `when` holds (a single `workload:` map is one
  /// entry without `when`); runner::CampaignPlan refuses a point that no entry takes.
  std::vector<Workload> workloads;
  SourceLocation workloads_where;  // the `workload` key's value
  std::vector<Resource> resources;  // scheduler resources, in file order
  std::optional<double> timeout_s;  // resources.time unless templated, none = unlimited (a local run's limit is
                                    // its point's rendered time: runner::CampaignPlan::timeout_s)
  /// Further attempts allowed per failure class (util/failure_classes.h names), from `retries`.
  std::map<std::string, int, std::less<>> retries;
  /// Resources that grow on those retries, from `escalate` (spec/escalation.h).
  std::vector<Escalation> escalations;
  /// Per metric, the relative change below which a significant change does not count (`thresholds`).
  std::vector<MetricThreshold> thresholds;
  std::vector<Reference> references;
  std::vector<MetricRule> metrics;
  /// Exported for the workload in this order (a site's first, then the experiment's; one name once:
  /// the experiment's value wins). See runner/job_environment.h.
  std::vector<EnvVar> env;
  /// Run in this order before the workload (a site's lines first, then the experiment's).
  std::vector<SetupLine> setup;
  /// The site file applied (spec/site.h) as "PATH sha256:HEX", recorded with every run; "" when none.
  std::string site;
  Success success;
  Network network;
  Telemetry telemetry;
  Workdir workdir;
  /// `container`: the image the workload runs in (spec/container.h); the site's merged in by apply_site.
  Container container;
  std::string executor = "local";
  SourceLocation executor_where;  // no file: not given (the default, or the site's)
  /// `order`: the order in which the runs start (runner/run_order.h), on every executor.
  RunOrder order;

  /// All parameter names in expansion order (axis order, then fields), then derived names.
  /// Every Expr in a loaded Experiment (derived and exclude `where`) is bound to exactly this list, so
  /// one slot vector [parameter values..., derived values...] serves them all; derived entry i only
  /// reads slots before its own.
  std::vector<std::string> parameter_names() const;
};

}  // namespace sweep::spec
