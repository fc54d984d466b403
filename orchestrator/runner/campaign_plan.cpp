#include "runner/campaign_plan.h"

#include <fmt/core.h>

#include <algorithm>

#include "runner/bundled_path.h"
#include "runner/job_environment.h"
#include "runner/launchers.h"
#include "runner/array_script.h"
#include "sched/executors.h"
#include "sched/resources.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

std::vector<std::string> with_run_variables(std::vector<std::string> names) {
  for (const auto name : spec::kRunVariables) names.emplace_back(name);
  return names;
}

}  // namespace

CampaignPlan::CampaignPlan(spec::Experiment experiment, const std::string& template_dir)
    : experiment_(std::move(experiment)),
      job_script_(templating::load_template_file(fmt::format("{}/{}/run.sh.mustache", template_dir,
                                                             experiment_.executor))) {
  matrix::Expansion expansion(experiment_);
  schema_ = expansion.schema();
  points_ = expansion.points();
  for (std::size_t i = 0; i < points_.size(); ++i) index_.emplace(points_[i].id, i);
  if (points_.empty())
    fail_at({experiment_.path, 1, 1}, "every point of the matrix is excluded: there is nothing to run");
  for (const spec::Workload& w : experiment_.workloads) {
    commands_.push_back({templating::Template(command_template(w), w.command_where), launch_prefix(w)});
    commands_.back().command.check_names(with_run_variables(schema_.names));
  }
  for (const matrix::Point& p : points_) point_command_.push_back(choose_workload(p));
  auto script_names = with_run_variables(schema_.names);
  script_names.insert(script_names.end(), {"command", "environment", "nic_start", "nic_end"});
  job_script_.check_names(script_names);
  compile_network(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  compile_environment(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  for (const spec::Resource& r : experiment_.resources) {
    templating::Template t(r.value, r.where);
    t.check_names(schema_.names);
    resources_.push_back(std::move(t));
  }
  // Every point's resources render to valid values, or Error, whichever the executor.
  for (const auto& point : points_) resources(point);
  for (std::size_t i = 0; i < points_.size(); ++i) check_layout(points_[i], experiment_.workloads[point_command_[i]]);
  for (const spec::Workload& w : experiment_.workloads) require_built(w);
  if (sched::is_batch(experiment_.executor)) {
    array_script_.emplace(
        templating::load_template_file(fmt::format("{}/{}/array.sh.mustache", template_dir, experiment_.executor)));
    array_script_->check_names(std::vector<std::string>(kArrayVariables.begin(), kArrayVariables.end()));
  }
}

templating::Variables CampaignPlan::parameter_variables(const matrix::Point& point) const {
  templating::Variables vars;
  for (std::size_t i = 0; i < schema_.names.size(); ++i) vars[schema_.names[i]] = point.values[i].text();
  return vars;
}

std::vector<sched::Resource> CampaignPlan::resources(const matrix::Point& point) const {
  const templating::Variables vars = parameter_variables(point);
  std::vector<sched::Resource> rendered;
  for (std::size_t i = 0; i < resources_.size(); ++i)
    rendered.push_back({experiment_.resources[i].key, resources_[i].render(vars, templating::Escape::none),
                        experiment_.resources[i].where});
  return sched::effective_resources(rendered);
}

const templating::Template& CampaignPlan::array_script() const {
  if (!array_script_) throw Error(ErrorKind::internal, "the array script is only loaded for a batch executor");
  return *array_script_;
}

std::vector<store::PointRecord> CampaignPlan::point_records() const {
  std::vector<store::PointRecord> out;
  out.reserve(points_.size());
  for (const auto& p : points_) {
    store::PointRecord rec{p.id, static_cast<std::int64_t>(p.ordinal), {}};
    for (std::size_t i = 0; i < schema_.names.size(); ++i)
      rec.params.push_back({schema_.names[i], p.values[i].text(), std::string(type_name(p.values[i].type())),
                            i >= schema_.parameter_count});
    out.push_back(std::move(rec));
  }
  return out;
}

const matrix::Point& CampaignPlan::point(const std::string& point_id) const {
  if (auto it = index_.find(point_id); it != index_.end()) return points_[it->second];
  throw Error(ErrorKind::internal, fmt::format("point {} is not in the plan of {}", point_id, experiment_.name));
}

templating::Variables CampaignPlan::variables(const matrix::Point& point, const RunContext& run) const {
  templating::Variables vars = parameter_variables(point);
  vars["campaign"] = run.campaign;
  vars["experiment"] = experiment_.name;
  vars["point_id"] = point.id;
  vars["run_id"] = std::to_string(run.run_id);
  vars["repetition"] = std::to_string(run.repetition);
  vars["attempt"] = std::to_string(run.attempt);
  vars["run_dir"] = run.run_dir;
  return vars;
}

std::string CampaignPlan::describe(const matrix::Point& point) const {
  std::vector<std::string> params;
  for (std::size_t i = 0; i < schema_.parameter_count; ++i)
    params.push_back(fmt::format("{}={}", schema_.names[i], point.values[i].text()));
  return fmt::format("{} ({})", point.id, join(params, ", "));
}

std::size_t CampaignPlan::choose_workload(const matrix::Point& point) const {
  const auto& entries = experiment_.workloads;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].when) return i;
    const Value v = entries[i].when->eval(point.values);
    if (v.type() != ValueType::boolean)
      fail_at(entries[i].when->where(), fmt::format("\"when\" must be true or false, got {} {} at point {}",
                                                    type_name(v.type()), v.text(), describe(point)));
    if (v.as_bool()) return i;
  }
  fail_at(experiment_.workloads_where,
          fmt::format("no \"workload\" entry takes the point {}: every \"when\" is false (add a last entry "
                      "without \"when\", or exclude the point)",
                      describe(point)));
}

std::optional<std::string> CampaignPlan::resource(const matrix::Point& point, std::string_view key) const {
  const templating::Variables vars = parameter_variables(point);
  for (std::size_t i = 0; i < resources_.size(); ++i)
    if (experiment_.resources[i].key == key) return resources_[i].render(vars, templating::Escape::none);
  return std::nullopt;
}

void CampaignPlan::check_layout(const matrix::Point& point, const spec::Workload& workload) const {
  const spec::BundledProgram* program = spec::find_bundled(workload.program);
  if (!program || program->layout.empty()) return;
  const auto ntasks = resource(point, "ntasks"), nodes = resource(point, "nodes"),
             per_node = resource(point, "ntasks-per-node");
  if (!ntasks && !nodes && !per_node) return;
  // The values were checked to be positive integers (resources()).
  const long ranks = ntasks ? std::stol(*ntasks) : std::stol(nodes.value_or("1")) * std::stol(per_node.value_or("1"));
  const std::string given = ntasks ? "ntasks " + *ntasks
                                   : fmt::format("nodes {} x ntasks-per-node {}", nodes.value_or("1"), per_node.value_or("1"));
  const templating::Variables vars = parameter_variables(point);
  long product = 1;
  std::vector<std::string> factors;
  for (std::string_view option : program->layout) {
    std::string value = "1";
    for (const spec::BundledArg& a : workload.args)
      if (a.name == option) value = templating::Template(a.value, workload.command_where).render(vars, templating::Escape::none);
    if (!sched::is_count(value))
      fail_at(workload.command_where, fmt::format("{} --{} must be a positive integer, got \"{}\" at point {}",
                                                  program->name, option, value, describe(point)));
    product *= std::stol(value);
    factors.push_back(fmt::format("{} {}", option, value));
  }
  if (product != ranks)
    fail_at(workload.command_where,
            fmt::format("{}'s {} = {} ranks, but the resources give {} = {} at point {}", program->name,
                        join(factors, " x "), product, given, ranks, describe(point)));
}

void CampaignPlan::compile_environment(const std::string& template_path) {
  for (const spec::EnvVar& e : experiment_.env) env_.emplace_back(e.value, e.where);
  for (const spec::SetupLine& l : experiment_.setup) setup_.emplace_back(l.text, l.where);
  for (const auto* list : {&env_, &setup_})
    for (const templating::Template& t : *list) t.check_names(with_run_variables(schema_.names));
  if (experiment_.env.empty() && experiment_.setup.empty()) return;
  const auto& names = job_script_.names();
  if (std::find(names.begin(), names.end(), "environment") != names.end()) return;
  const SourceLocation& at = experiment_.env.empty() ? experiment_.setup.front().where : experiment_.env.front().where;
  fail_at(at, fmt::format("the job-script template {} has no {{{{{{environment}}}}}}, so \"env\" and \"setup\" "
                          "would be ignored; add it before {{{{{{command}}}}}}",
                          template_path));
}

void CampaignPlan::compile_network(const std::string& template_path) {
  const spec::Network& n = experiment_.network;
  // Opt-in: an experiment without `network` samples nothing.
  nic_ = nic_sampling(experiment_.executor, n.counters && !n.where.file.empty(), n.interfaces);
  const auto& names = job_script_.names();
  const bool has = std::find(names.begin(), names.end(), "nic_start") != names.end() &&
                   std::find(names.begin(), names.end(), "nic_end") != names.end();
  if (has || !n.counters || n.where.file.empty()) return;
  fail_at(n.where, fmt::format("the job-script template {} has no {{{{{{nic_start}}}}}} and {{{{{{nic_end}}}}}}, so "
                               "\"network\" would be ignored; put them around {{{{{{command}}}}}}",
                               template_path));
}

std::string CampaignPlan::environment(const templating::Variables& vars) const {
  JobEnvironment e;
  for (std::size_t i = 0; i < env_.size(); ++i)
    e.env.emplace_back(experiment_.env[i].name, env_[i].render(vars, templating::Escape::none));
  for (const templating::Template& t : setup_) e.setup.push_back(t.render(vars, templating::Escape::shell));
  e.site = experiment_.site;
  return environment_block(e);
}

std::string CampaignPlan::render_script(const matrix::Point& point, const RunContext& run) const {
  auto vars = variables(point, run);
  const Command& c = commands_[point_command_[index_.at(point.id)]];
  vars["command"] = c.launch + c.command.render(vars, templating::Escape::shell);
  vars["environment"] = environment(vars);
  vars["nic_start"] = nic_.start;
  vars["nic_end"] = nic_.end;
  return job_script_.render(vars, templating::Escape::shell);
}

}  // namespace sweep::runner
