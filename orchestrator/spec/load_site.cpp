// The site file (spec/site.h): where it is found, what it holds, and how it fills in an experiment.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>

#include "spec/load_sections.h"
#include "sched/executors.h"
#include "sched/resources.h"
#include "spec/hardware_key.h"
#include "spec/site.h"
#include "util/sha256.h"

namespace sweep::spec {
namespace {

void site_format(const Field& f, const Source& src, Site&) {
  integer_in(f, src, kSiteFormatVersion, kSiteFormatVersion, "1 (the only version of the site format)");
}

void site_name(const Field& f, const Source& src, Site& site) { site.name = scalar_text(f, src, "a name"); }

void site_executor(const Field& f, const Source& src, Site& site) {
  Experiment scratch;
  LoadState st{scratch, {}, {}};
  read_executor(f, src, st);
  site.executor = SiteValue{scratch.executor, scratch.executor_where};
}

void site_resources(const Field& f, const Source& src, Site& site) {
  Experiment scratch;
  LoadState st{scratch, {}, {}};
  read_resources(f, src, st);
  site.resources = std::move(scratch.resources);
  site.timeout_s = scratch.timeout_s;
}

void site_workload(const Field& f, const Source& src, Site& site) {
  const std::vector<Field> fields = map_fields(f, src);
  constexpr std::array<std::string_view, 2> kKeys{"launcher", "mpi"};
  check_keys(fields, kKeys, src);
  if (const Field* l = find_field(fields, "launcher")) site.launcher = SiteValue{read_launcher(*l, src), location(*l, src)};
  if (const Field* m = find_field(fields, "mpi")) site.mpi = SiteValue{read_mpi(*m, src), location(*m, src)};
}

void site_env(const Field& f, const Source& src, Site& site) { site.env = read_env_map(f, src); }
void site_setup(const Field& f, const Source& src, Site& site) { site.setup = read_setup_list(f, src); }

void site_interconnects(const Field& f, const Source& src, Site& site) {
  for (const Field& item : list_items(f, src)) site.interconnects.push_back(read_interconnect(item, src));
}

/// A directory key's value (results, reports): a non-empty path.
SiteValue site_directory(const Field& f, const Source& src, const char* what) {
  const std::string dir = scalar_text(f, src, what);
  if (dir.empty()) fail_expected(f, src, what);
  return SiteValue{dir, location(f, src)};
}

void site_results(const Field& f, const Source& src, Site& site) {
  site.results = site_directory(f, src, "a directory for results");
}

void site_reports(const Field& f, const Source& src, Site& site) {
  site.reports = site_directory(f, src, "a directory for reports");
}

void site_shared_group(const Field& f, const Source& src, Site& site) {
  const Value v = scalar_value(f, src);
  if (!v.is_bool()) fail_expected(f, src, "true or false");
  site.shared_group = SiteValue{v.as_bool() ? "true" : "false", location(f, src)};
}

void site_thresholds(const Field& f, const Source& src, Site& site) {
  for (const Field& entry : map_fields(f, src)) {
    MetricThreshold t = read_threshold(entry, src);
    if (!is_metric_name(t.metric))
      fail_at(t.where, fmt::format("\"thresholds\" key \"{}\" must be a metric name ([A-Za-z_][A-Za-z0-9_.]*)", t.metric));
    site.thresholds.push_back(std::move(t));  // expressions are bound to each point's names when used
  }
}

void site_references(const Field& f, const Source& src, Site& site) {
  for (const Field& entry : list_items(f, src)) {
    site.references.push_back(read_reference(entry, src));
    site.references.back().general = true;
  }
}

void site_telemetry(const Field& f, const Source& src, Site& site) { site.telemetry = read_telemetry_value(f, src); }

void site_container(const Field& f, const Source& src, Site& site) { site.container = read_container_value(f, src, false); }

/// `budget: {gpu_hours: N}` or `{node_hours: N}`: one of the two, a number >= 0.
void site_budget(const Field& f, const Source& src, Site& site) {
  const std::vector<Field> fields = map_fields(f, src);
  constexpr std::array<std::string_view, 2> kKeys{"gpu_hours", "node_hours"};
  check_keys(fields, kKeys, src);
  if (fields.size() != 1) fail_expected(f, src, "one of gpu_hours: N or node_hours: N");
  const Value v = scalar_value(fields[0], src);
  if (!v.is_number() || !(v.as_number() >= 0)) fail_expected(fields[0], src, "a number of hours (0 or more)");
  site.budget = SiteBudget{v.as_number(), key_name(fields[0]) == "node_hours", location(fields[0], src)};
}

/// `hardware_key: [gpu.model, ...]`: a non-empty list of provenance key names (spec/hardware_key.h).
void site_hardware_key(const Field& f, const Source& src, Site& site) {
  site.hardware_key_where = location(f, src);
  for (const Field& item : list_items(f, src)) {
    const std::string key = scalar_text(item, src, "a provenance key name");
    if (!is_provenance_key_name(key))
      fail_expected(item, src, "a provenance key name ([A-Za-z0-9_][A-Za-z0-9_.-]*, e.g. gpu.model)");
    if (std::find(site.hardware_key.begin(), site.hardware_key.end(), key) == site.hardware_key.end())
      site.hardware_key.push_back(key);
  }
  if (site.hardware_key.empty()) fail_expected(f, src, "a list of provenance key names, e.g. [gpu.model, gpu.count, cpu_model]");
}

struct SiteKey {
  std::string_view name;
  void (*read)(const Field&, const Source&, Site&);
};

constexpr std::array<SiteKey, 17> kSiteKeys{{
    {"format", site_format},
    {"name", site_name},
    {"executor", site_executor},
    {"resources", site_resources},
    {"workload", site_workload},
    {"env", site_env},
    {"setup", site_setup},
    {"interconnects", site_interconnects},
    {"results", site_results},
    {"reports", site_reports},
    {"shared_group", site_shared_group},
    {"thresholds", site_thresholds},
    {"references", site_references},
    {"telemetry", site_telemetry},
    {"container", site_container},
    {"budget", site_budget},
    {"hardware_key", site_hardware_key},
}};

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

Site load_site(const std::string& path) {
  return load_site_text(read_text_file(path, "site file"), path);
}

Site load_site_text(std::string text, const std::string& path) {
  Site site;
  site.text = std::move(text);
  const YAML::Node root = read_yaml_map(site.text, path, "site file");
  const Source src{path, site.text, true};
  const std::vector<Field> fields = map_fields(Field{"", YAML::Node(), root}, src);
  std::vector<std::string_view> names;
  for (const SiteKey& k : kSiteKeys) names.push_back(k.name);
  check_keys(fields, names, src);
  for (const SiteKey& k : kSiteKeys)
    if (const Field* f = find_field(fields, k.name)) k.read(*f, src, site);
  site.path = path;
  return site;
}

SiteLookup site_lookup(const std::string& explicit_path) {
  SiteLookup l;
  l.explicit_path = explicit_path;
  l.sweep_site = getenv_or_empty("SWEEP_SITE");
  l.config_home = getenv_or_empty("XDG_CONFIG_HOME");
  if (l.config_home.empty() && !getenv_or_empty("HOME").empty()) l.config_home = getenv_or_empty("HOME") + "/.config";
  return l;
}

Site find_site(const SiteLookup& lookup) {
  const auto chosen = [](const std::string& path, const char* by) {
    if (path == "none") {
      Site off;
      off.looked_at = {std::string(by) == "--site" ? "--site none" : "SWEEP_SITE=none"};
      return off;
    }
    Site s = load_site(path);
    s.found_by = by;
    return s;
  };
  if (!lookup.explicit_path.empty()) return chosen(lookup.explicit_path, "--site");
  if (!lookup.sweep_site.empty()) return chosen(lookup.sweep_site, "$SWEEP_SITE");
  if (!lookup.config_home.empty() && is_file(lookup.config_home + "/sweep/site.yaml"))
    return chosen(lookup.config_home + "/sweep/site.yaml", "the user's config directory");
  if (!lookup.system_file.empty() && is_file(lookup.system_file)) return chosen(lookup.system_file, "the system-wide file");
  Site none;
  none.looked_at = {"--site (not given)", "$SWEEP_SITE (not set)",
                    lookup.config_home.empty() ? "$XDG_CONFIG_HOME/sweep/site.yaml ($XDG_CONFIG_HOME and $HOME not set)"
                                               : lookup.config_home + "/sweep/site.yaml (no such file)"};
  if (!lookup.system_file.empty()) none.looked_at.push_back(lookup.system_file + " (no such file)");
  return none;
}

std::string site_absence_note(const Site& site) {
  if (!site.path.empty() || site.looked_at.empty()) return "";
  if (site.looked_at.size() == 1) return fmt::format("the site file is turned off ({})", site.looked_at.front());
  std::string where;
  for (const auto& w : site.looked_at) where += (where.empty() ? "" : "; ") + w;
  return fmt::format("no site file was found (sweep looked at: {}); a cron job or a batch script does not have your "
                     "shell's $SWEEP_SITE: set it there or pass --site FILE", where);
}

namespace {

/// The experiment's `telemetry` over the site's, key by key: an experiment that gives none takes the
/// site's whole; `false` is off whatever the site says; a map (or `true`) takes each key it does not
/// name from the site, so a site's `sources: [proc]` stays when an experiment only sets `interval_ms`.
Telemetry merge_telemetry(const std::optional<Telemetry>& site, Telemetry exp) {
  if (!site) return exp;
  if (exp.where.file.empty()) return *site;
  if (!exp.enabled || !site->enabled) return exp;
  if (!exp.interval_given && site->interval_given) exp.interval_ms = site->interval_ms;
  if (!exp.sources_given && site->sources_given) exp.sources = site->sources;
  return exp;
}

}  // namespace

void apply_site(const Site& site, Experiment& exp) {
  if (site.path.empty()) return;
  exp.site = fmt::format("{} sha256:{}", site.path, sha256_hex(site.text));
  if (site.executor && exp.executor_where.file.empty()) {
    exp.executor = site.executor->value;
    exp.executor_where = site.executor->where;
  }
  std::vector<Resource> resources;
  for (const Resource& r : site.resources) {
    const bool set_by_experiment = std::any_of(exp.resources.begin(), exp.resources.end(),
                                               [&](const Resource& e) { return e.key == r.key; });
    // An optional key stays under the experiment's: where the experiment's renders empty, the site's
    // applies (sched::effective_resources).
    const bool optional = sched::find_resource_key(r.key)->kind == sched::ResourceKey::Kind::optional;
    if (r.key == "extra" || optional || !set_by_experiment) resources.push_back(r);
  }
  const bool experiment_time = std::any_of(exp.resources.begin(), exp.resources.end(),
                                           [](const Resource& e) { return e.key == "time"; });
  if (!experiment_time && site.timeout_s) exp.timeout_s = site.timeout_s;
  resources.insert(resources.end(), exp.resources.begin(), exp.resources.end());
  exp.resources = std::move(resources);
  for (Workload& w : exp.workloads) {
    if (site.launcher && w.launcher_where.file.empty() && sched::is_batch(exp.executor)) {
      w.launcher = site.launcher->value;
      w.launcher_where = site.launcher->where;
    }
    if (site.mpi && w.mpi.empty() && (w.launcher == "srun" || w.launcher == "torchrun-env")) w.mpi = site.mpi->value;
  }
  std::vector<EnvVar> env;
  for (const EnvVar& v : site.env)
    if (std::none_of(exp.env.begin(), exp.env.end(), [&](const EnvVar& e) { return e.name == v.name; })) env.push_back(v);
  env.insert(env.end(), exp.env.begin(), exp.env.end());
  exp.env = std::move(env);
  exp.telemetry = merge_telemetry(site.telemetry, std::move(exp.telemetry));
  exp.container = merge_container(site.container, exp.container);
  std::vector<SetupLine> setup = site.setup;
  setup.insert(setup.end(), exp.setup.begin(), exp.setup.end());
  exp.setup = std::move(setup);
}

}  // namespace sweep::spec
