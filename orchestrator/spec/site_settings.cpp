// `sweep site`'s view: every setting a site or an experiment gives, with where its value came from.
#include <fmt/core.h>

#include <algorithm>

#include "spec/hardware_key.h"
#include "spec/site.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

/// "site F:L:C", "experiment F:L:C", the override's own name, or "default" (no location).
std::string origin_of(const SourceLocation& where, const Site& site, const Experiment* exp) {
  if (where.file.empty()) return "default";
  if (!site.path.empty() && where.file == site.path) return "site " + where.str();
  if (exp && where.file == exp->path) return "experiment " + where.str();
  return where.str();
}

void add(std::vector<Setting>& out, std::string name, std::string value, const SourceLocation& where, const Site& site,
         const Experiment* exp) {
  out.push_back({std::move(name), std::move(value), origin_of(where, site, exp)});
}

/// The resources in order; a key given again later (a site's optional key under the experiment's) is
/// listed after them, saying when it applies.
void add_resources(std::vector<Setting>& out, const std::vector<Resource>& resources, const Site& site,
                   const Experiment* exp) {
  std::vector<const Resource*> fallbacks;
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const Resource& r = resources[i];
    const bool again = r.key != "extra" && std::any_of(resources.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                                       resources.end(), [&](const Resource& o) { return o.key == r.key; });
    if (again) fallbacks.push_back(&r);
    else add(out, "resources." + r.key, r.value, r.where, site, exp);
  }
  for (const Resource* r : fallbacks) {
    add(out, "resources." + r->key, r->value, r->where, site, exp);
    out.back().origin += " (where the experiment's renders empty)";
  }
}

std::string interconnect_text(const model::Interconnect& i) {
  const std::string latency = i.latency_us ? fmt::format(", {} us", *i.latency_us) : "";
  return fmt::format("{} GB/s{} ({})", i.bandwidth, latency, i.label);
}

/// `container`'s settings, a line each (none when no key gives one); `none` as one line.
void add_container(std::vector<Setting>& out, const Container& c, const Site& site, const Experiment* exp) {
  if (c.none) return add(out, "container", "none", c.where, site, exp);
  if (!c.runtime.empty()) add(out, "container.runtime", c.runtime, c.runtime_where, site, exp);
  if (!c.image.empty()) add(out, "container.image", c.image, c.image_where, site, exp);
  if (c.gpus) add(out, "container.gpus", *c.gpus ? "true" : "false", c.gpus_where, site, exp);
  for (std::size_t i = 0; i < c.mounts.size(); ++i) {
    const ContainerMount& m = c.mounts[i];
    const std::string text = m.source + (m.destination.empty() ? "" : ":" + m.destination) + (m.read_only ? ":ro" : "");
    add(out, fmt::format("container.mounts[{}]", i + 1), text, m.where, site, exp);
  }
  for (const ContainerEnv& v : c.env) add(out, "container.env." + v.name, v.value, v.where, site, exp);
  for (std::size_t i = 0; i < c.args.size(); ++i)
    add(out, fmt::format("container.args[{}]", i + 1), c.args[i].text, c.args[i].where, site, exp);
}

}  // namespace

std::vector<Setting> effective_settings(const Site& site, const Experiment* exp) {
  std::vector<Setting> out;
  const SourceLocation none;
  if (exp) {
    add(out, "executor", exp->executor, exp->executor_where, site, exp);
    add_resources(out, exp->resources, site, exp);
    for (std::size_t i = 0; i < exp->workloads.size(); ++i) {
      const Workload& w = exp->workloads[i];
      const std::string prefix = exp->workloads.size() > 1 ? fmt::format("workload[{}].", i) : "workload.";
      add(out, prefix + "launcher", w.launcher, w.launcher_where, site, exp);
      if (!w.mpi.empty())
        add(out, prefix + "mpi", w.mpi, site.mpi && site.mpi->value == w.mpi ? site.mpi->where : w.where, site, exp);
    }
    for (const EnvVar& v : exp->env) add(out, "env." + v.name, shown_value(v), v.where, site, exp);
    for (std::size_t i = 0; i < exp->setup.size(); ++i)
      add(out, fmt::format("setup[{}]", i + 1), shown_setup(exp->setup[i].text), exp->setup[i].where, site, exp);
    add(out, "telemetry", telemetry_text(exp->telemetry), exp->telemetry.where, site, exp);
    add_container(out, exp->container, site, exp);
  } else {
    if (site.executor) add(out, "executor", site.executor->value, site.executor->where, site, exp);
    for (const Resource& r : site.resources) add(out, "resources." + r.key, r.value, r.where, site, exp);
    if (site.launcher) add(out, "workload.launcher", site.launcher->value, site.launcher->where, site, exp);
    if (site.mpi) add(out, "workload.mpi", site.mpi->value, site.mpi->where, site, exp);
    for (const EnvVar& v : site.env) add(out, "env." + v.name, shown_value(v), v.where, site, exp);
    for (std::size_t i = 0; i < site.setup.size(); ++i)
      add(out, fmt::format("setup[{}]", i + 1), shown_setup(site.setup[i].text), site.setup[i].where, site, exp);
    const Telemetry t = site.telemetry.value_or(Telemetry{});
    add(out, "telemetry", telemetry_text(t), t.where, site, exp);
    add_container(out, site.container, site, exp);
  }
  if (site.results) add(out, "results", site.results->value, site.results->where, site, exp);
  else add(out, "results", "results", none, site, exp);
  if (site.reports) add(out, "reports", site.reports->value, site.reports->where, site, exp);
  else add(out, "reports", "reports", none, site, exp);
  if (site.shared_group) add(out, "shared_group", site.shared_group->value, site.shared_group->where, site, exp);
  if (site.budget)
    add(out, "budget", fmt::format("{:g} {}", site.budget->limit, site.budget->node_hours ? "node-hours" : "gpu-hours"),
        site.budget->where, site, exp);
  if (!site.hardware_key.empty()) add(out, "hardware_key", join(site.hardware_key, ", "), site.hardware_key_where, site, exp);
  else add(out, "hardware_key", join(default_hardware_key(), ", "), none, site, exp);
  for (const model::Interconnect& i : site.interconnects)
    out.push_back({"interconnects." + i.name, interconnect_text(i), "site " + site.path});
  return out;
}

}  // namespace sweep::spec
