#pragma once
// The site file: a cluster's defaults for every experiment run there (docs/site.md).
//
//   format: 1
//   name: our-cluster                      # optional, shown by `sweep site`
//   executor: slurm
//   resources: {partition: gpu, account: lab42, qos: normal, time: 30}
//   workload: {launcher: srun, mpi: pmix}  # for experiments on Slurm that name no launcher
//   env: {NCCL_SOCKET_IFNAME: ib0, GLOO_SOCKET_IFNAME: ib0}
//   setup: ["module load cuda/12.4 nccl/2.21"]
//   interconnects: [{name: our-ib, bandwidth: 23.1, latency_us: 1.8}]
//   results: /scratch/lab42/sweep-results
//   reports: /project/lab42/sweep-reports    # where `sweep report` and nightly write (default: reports)
//   shared_group: true                     # trust results, databases and reports another member of
//                                          # the group owns or the group can write (util/safe_files.h)
//   thresholds: {busbw: 0.02}              # per metric, under the experiment's own (compare, nightly)
//   telemetry: {interval_ms: 2000}         # or false: the sampler beside each run (docs/telemetry.md)
//   container: {runtime: apptainer, mounts: [/scratch]}  # defaults under the experiment's (docs/containers.md)
//   hardware_key: [gpu.model, gpu.count, cpu_model]     # what makes a baseline other hardware (docs/forecasts.md)
//
// Precedence, highest first: `--set` (and --executor), the experiment, the site, the built-in
// defaults. Errors name file:line:column (ErrorKind::invalid_experiment).
#include <optional>
#include <string>
#include <vector>

#include "model/interconnect.h"
#include "spec/experiment.h"

namespace sweep::spec {

inline constexpr int kSiteFormatVersion = 1;

struct SiteValue {
  std::string value;
  SourceLocation where;
};

/// The site's default budget, `budget: {gpu_hours: N}` or `{node_hours: N}` (docs/forecasts.md, "The budget").
struct SiteBudget {
  double limit = 0;
  bool node_hours = false;  // false: GPU-hours
  SourceLocation where;
};

struct Site {
  std::string path;         // "" when no site file is in use
  std::string found_by;     // how the path was chosen: "--site", "$SWEEP_SITE", "~/.config", "/etc"
  std::string text;         // the file as read
  std::string name;
  std::optional<SiteValue> executor, launcher, mpi, results, reports;
  std::optional<SiteValue> shared_group;  // "true" or "false": the lab shares results by group on purpose
  std::vector<Resource> resources;
  std::optional<double> timeout_s;  // from resources.time
  std::vector<EnvVar> env;
  std::vector<SetupLine> setup;
  std::vector<model::Interconnect> interconnects;
  std::vector<MetricThreshold> thresholds;  // the lab's defaults for compare and nightly, under the experiment's
  std::vector<Reference> references;        // the cluster's expected values, for sweep check, after the experiment's
  std::optional<Telemetry> telemetry;       // under the experiment's `telemetry`, key by key
  Container container;                      // defaults under the experiment's `container` (spec/container.h)
  std::optional<SiteBudget> budget;         // `sweep plan --estimate` and `sweep run` refuse a campaign over it
  std::vector<std::string> hardware_key;    // provenance keys (spec/hardware_key.h); empty: the default
  SourceLocation hardware_key_where;
  std::vector<std::string> looked_at;       // no file in use (path ""): where find_site looked, or what turned it off
};

/// The environment the site file is looked up in (a seam for tests; the real one reads getenv).
struct SiteLookup {
  std::string explicit_path;  // --site; "none" disables the site
  std::string sweep_site;     // $SWEEP_SITE; "none" disables the site
  std::string config_home;    // $XDG_CONFIG_HOME, else $HOME/.config ("" when neither is set)
  std::string system_file = "/etc/sweep/site.yaml";
};

/// The lookup from this process's environment, with `explicit_path` from --site.
SiteLookup site_lookup(const std::string& explicit_path);

/// The first of: --site, $SWEEP_SITE, <config home>/sweep/site.yaml if it exists, /etc/sweep/site.yaml
/// if it exists; loaded. An explicit path that does not exist is Error(not_found). No file: an empty
/// Site (path "").
Site find_site(const SiteLookup& lookup);

/// "" when `site` is in use; otherwise "no site file was found (sweep looked at: A; B; ...)" or "the site
/// file is turned off (--site none)": for an error whose cause may be a missing site (a cron job
/// without the shell's $SWEEP_SITE). Pure.
std::string site_absence_note(const Site& site);

/// Reads and validates the site file at `path`.
Site load_site(const std::string& path);
/// Validates `text` as the site file `path` (load_site's pure core; Error naming path:line:column).
Site load_site_text(std::string text, const std::string& path);

/// Fills in what `exp` leaves unset from `site` (precedence above). Pure. Resources, all before the
/// experiment's: each site key the experiment does not set, every `extra` item, and every optional key
/// (partition, account, qos, ...), whose experiment value wins unless it renders empty at a point
/// (sched::effective_resources); resources.time also gives the time limit. Executor: when the experiment (and --set/--executor) gave none. Launcher and
/// mpi: for every workload entry without a launcher when the executor is slurm; mpi where the launcher
/// is srun or torchrun-env and the entry gives none. env: the site's variables first, except those the
/// experiment sets. setup: the site's lines first. telemetry: the experiment's keys over the site's (false: off). container:
/// spec::merge_container (then an image without a runtime is an error: check_container_runtime).
void apply_site(const Site& site, Experiment& exp);

}  // namespace sweep::spec

namespace sweep::spec {

/// One line of `sweep site`: a setting, its effective value, and where that value came from.
struct Setting {
  std::string name;    // "executor", "resources.partition", "env.NCCL_IB_DISABLE", "setup[2]", ...
  std::string value;   // as written (templates unrendered)
  std::string origin;  // "site FILE:L:C", "experiment FILE:L:C", "--set ...", "--executor", "default"
};

/// The effective settings: of `exp` after apply_site when given, else of the site alone. Pure.
std::vector<Setting> effective_settings(const Site& site, const Experiment* exp);

}  // namespace sweep::spec
