#include "runner/campaign_plan.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "runner/bundled_path.h"
#include "runner/container_check.h"
#include "runner/escalation.h"
#include "runner/gpu_request.h"
#include "runner/job_environment.h"
#include "runner/job_secrets.h"
#include "runner/launchers.h"
#include "runner/layout_check.h"
#include "runner/stop.h"
#include "runner/array_script.h"
#include "runner/workload_choice.h"
#include "sched/executors.h"
#include "sched/resources.h"
#include "spec/resource_notation.h"
#include "spec/time_limit.h"
#include "templating/simple_command.h"
#include "util/error.h"
#include "util/secrets.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

std::vector<std::string> with_run_variables(std::vector<std::string> names) {
  for (const auto name : spec::kRunVariables) names.emplace_back(name);
  return names;
}

/// A run of the point `point_id` as `dirs` place it, for the plan's bind check; no run directory (nothing
/// bound but the bundled programs) when `dirs` is empty.
RunContext plan_time_run(const PlanDirs& dirs, const std::string& point_id) {
  RunContext run;
  if (dirs.run_root.empty()) return run;
  run.run_dir = dirs.run_root + "/" + point_id + ".rep0.attempt1";  // as attempt_dir names the first
  run.experiment_dir = dirs.experiment_dir;
  run.launch_dir = dirs.launch_dir;
  return run;
}

}  // namespace

CampaignPlan::CampaignPlan(spec::Experiment experiment, const std::string& template_dir, PlanUse use,
                           std::uint64_t max_points, const PlanDirs& dirs)
    : experiment_(std::move(experiment)),
      job_script_(templating::load_template_file(fmt::format("{}/{}/run.sh.mustache", template_dir,
                                                             experiment_.executor))) {
  const matrix::Expansion expansion(experiment_);
  schema_ = expansion.schema();
  const SourceLocation matrix_at = experiment_.matrix.empty() ? SourceLocation{experiment_.path, 1, 1} : experiment_.matrix.front().where;
  const bool keep = use != PlanUse::check;  // the points are kept, under the limit
  if (keep)
    if (const auto refusal = matrix::too_many_points(expansion, max_points)) fail_at(matrix_at, *refusal);
  for (const spec::Workload& w : experiment_.workloads) {
    commands_.push_back({templating::Template(command_template(w), w.command_where), launch_prefix(w)});
    commands_.back().command.check_names(with_run_variables(schema_.names));
  }
  auto script_names = with_run_variables(schema_.names);
  script_names.insert(script_names.end(),
                      {"command", "environment", "nic_start", "nic_end", "telemetry_start", "telemetry_end",
                       "nccl_version_program", "workdir", "container_check", "secret_mask_sed"});
  job_script_.check_names(script_names);
  container_.emplace(experiment_, with_run_variables(schema_.names));
  check_container_section(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  compile_network(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  compile_telemetry(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  compile_environment(fmt::format("{}/{}/run.sh.mustache", template_dir, experiment_.executor));
  if (experiment_.workdir.kind == spec::Workdir::Kind::path) {
    workdir_.emplace(experiment_.workdir.path, experiment_.workdir.where);
    workdir_->check_names(with_run_variables(schema_.names));
  }
  for (const spec::Resource& r : experiment_.resources) {
    templating::Template t(r.value, r.where);
    t.check_names(schema_.names);
    resources_.push_back(std::move(t));
  }
  // Every point, as the matrix streams: its workload, its resources rendered to valid values (whichever
  // the executor) and the layout its program would accept; kept only to be run.
  const LayoutCheck& layout = layout_.emplace(experiment_, schema_);
  bool any = false;
  std::optional<Error> refused;  // thrown after the walk: for_each would add the point to its message again
  expansion.for_each([&](const matrix::PointView& p) {
    any = true;
    try {
      if (keep && points_.size() == max_points) fail_at(matrix_at, matrix::too_many_points_seen(expansion, max_points));
      const std::size_t command = choose_workload(experiment_, schema_, p.values);
      check_launcher(experiment_.workloads[command], p.values);
      check_resources(p.values);
      if (container_->used()) {
        container_at(p.values, command, {}, plan_time_run(dirs, matrix::point_id(schema_, p.values)));
        check_simple_command(p.values, command);
      }
      layout.check(p.values, command);
      if (keep) {
        std::string id = matrix::point_id(schema_, p.values);
        index_.emplace(id, points_.size());
        points_.push_back({std::move(id), p.ordinal, {p.values.begin(), p.values.end()}});
        point_command_.push_back(command);
      }
    } catch (const Error& e) {
      refused.emplace(e);
      return false;
    }
    return true;
  }, &stop_flag());
  throw_if_stopped("planning the campaign");
  if (refused) throw *refused;
  if (!any) fail_at({experiment_.path, 1, 1}, "every point of the matrix is excluded: there is nothing to run");
  const std::uint64_t runs = points_.size() * static_cast<std::uint64_t>(experiment_.repetitions);
  if (keep && runs > std::max(kMaxStartRuns, max_points))
    fail_at(matrix_at, fmt::format("{} points x {} repetitions is {} runs; a new campaign records at most {} at its "
                                   "start (or --max-points, when larger): fewer repetitions, or fewer points",
                                   matrix::grouped(points_.size()), experiment_.repetitions, matrix::grouped(runs),
                                   matrix::grouped(std::max(kMaxStartRuns, max_points))));
  if (use == PlanUse::run)
    for (const spec::Workload& w : experiment_.workloads) require_built(w);
  if (sched::is_batch(experiment_.executor)) {
    array_script_.emplace(
        templating::load_template_file(fmt::format("{}/{}/array.sh.mustache", template_dir, experiment_.executor)));
    array_script_->check_names(std::vector<std::string>(kArrayVariables.begin(), kArrayVariables.end()));
  }
}

std::vector<sched::Resource> CampaignPlan::resources(const matrix::Point& point) const { return resources_at(point.values); }

std::optional<std::pair<std::string, spec::BundledValues>> CampaignPlan::bundled_args(const matrix::Point& point) const {
  return layout_->bundled_args(point.values, point_command_.at(index_.at(point.id)));
}

std::vector<sched::Resource> CampaignPlan::resources_at(std::span<const Value> values) const {
  const templating::Variables vars = point_variables(schema_, values);
  std::vector<sched::Resource> rendered;
  for (std::size_t i = 0; i < resources_.size(); ++i)
    rendered.push_back({experiment_.resources[i].key, resources_[i].render(vars, templating::Escape::none),
                        experiment_.resources[i].where});
  std::vector<sched::Resource> effective = sched::effective_resources(rendered);
  for (const sched::Resource& r : effective) {
    const std::string error = spec::resource_notation_error(r);
    if (error.empty()) continue;
    const auto written = std::find_if(experiment_.resources.begin(), experiment_.resources.end(),
                                      [&](const spec::Resource& e) { return e.key == r.key && e.where.str() == r.where.str(); });
    if (written == experiment_.resources.end() || written->value == r.value) fail_at(r.where, error);
    fail_at(r.where, fmt::format("{} (rendered from \"{}\" at the point {})", error, written->value,
                                 matrix::describe_point(schema_, values)));
  }
  return effective;
}

void CampaignPlan::check_launcher(const spec::Workload& w, std::span<const Value> values) const {
  // From cron the usual cause is a site file not found, the executor then the default: say so.
  const char* defaulted = experiment_.executor_where.file.empty()
                              ? "; the executor is the default, as neither the experiment nor a site file names one "
                                "(`sweep site` shows where sweep looks)"
                              : "";
  if (const auto refusal = launcher_refusal(w, experiment_.executor))
    fail_at(w.launcher_where.file.empty() ? w.where : w.launcher_where,
            fmt::format("{} (at the point {}){}", *refusal, matrix::describe_point(schema_, values), defaulted));
}

void CampaignPlan::check_resources(std::span<const Value> values) const {
  std::map<std::string, int> one_failure_each;
  for (const spec::Escalation& e : experiment_.escalations) one_failure_each[e.failure_class] = 1;
  attempt_resources(resources_at(values), experiment_.escalations, one_failure_each);
}

std::string CampaignPlan::gpus_requested(const matrix::Point& point) const {
  return gpus_requested_at(point.values, point_command_.at(index_.at(point.id)));
}

std::string CampaignPlan::gpus_requested_at(std::span<const Value> values, std::size_t command) const {
  const spec::Workload& w = experiment_.workloads.at(command);
  templating::Variables vars = point_variables(schema_, values);
  for (const auto name : spec::kRunVariables) vars[std::string(name)] = "";  // run variables render empty: not a GPU value
  spec::BundledValues args;
  for (const spec::BundledArg& a : w.args)
    args[a.name] = a.flag ? (*a.flag ? "true" : "false") : templating::Template(a.value, w.command_where).render(vars, templating::Escape::none);
  return gpu_request(resources_at(values), w.program, args);
}

std::pair<RenderedContainer, ContainerWords> CampaignPlan::container_at(std::span<const Value> values, std::size_t command,
                                                                        const templating::Variables& run_vars,
                                                                        const RunContext& run) const {
  templating::Variables vars = run_vars;
  if (vars.empty()) {  // plan time: the run variables render empty
    vars = point_variables(schema_, values);
    for (const auto name : spec::kRunVariables) vars[std::string(name)] = "";
  }
  const spec::Workload& w = experiment_.workloads.at(command);
  const std::string workdir = run.run_dir.empty() ? std::string() : run_workdir(experiment_.workdir, workdir_, vars, run);
  RenderedContainer c = container_->render(vars, w, gpus_requested_at(values, command) != store::kNoGpusRequested,
                                           run.run_dir, workdir, bundled_dir());
  ContainerWords words = container_->words(c, matrix::describe_point(schema_, values));
  return {std::move(c), std::move(words)};
}

void CampaignPlan::check_simple_command(std::span<const Value> values, std::size_t command) const {
  templating::Variables vars = point_variables(schema_, values);
  for (const auto name : spec::kRunVariables) vars[std::string(name)] = "";
  const std::string rendered = commands_[command].command.render(vars, templating::Escape::shell);
  if (const auto op = templating::control_operator(rendered))
    fail_at(experiment_.workloads[command].command_where,
            fmt::format("with a container, the command is one simple command that the runtime starts inside it, but "
                        "it holds {} outside quotes: what follows would run in the job shell on the host. Write the "
                        "whole in one call of the image's shell, e.g. sh -c 'make && ./run' (at the point {})",
                        *op == "a line break" ? *op : "\"" + *op + "\"", matrix::describe_point(schema_, values)));
}

void CampaignPlan::check_container_section(const std::string& template_path) const {
  const auto& names = job_script_.names();
  if (!container_->used() || std::find(names.begin(), names.end(), "container_check") != names.end()) return;
  fail_at(experiment_.container.where.file.empty() ? experiment_.container.image_where : experiment_.container.where,
          fmt::format("the job-script template {} has no {{{{{{container_check}}}}}}, so the container would start "
                      "unchecked; add it after {{{{{{environment}}}}}}",
                      template_path));
}

std::optional<double> CampaignPlan::timeout_s(const matrix::Point& point) const {
  for (const sched::Resource& r : resources(point))
    if (r.key == "time") return spec::parse_time_limit(r.value).seconds;
  return std::nullopt;
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
  templating::Variables vars = point_variables(schema_, point.values);
  vars["campaign"] = run.campaign;
  vars["experiment"] = experiment_.name;
  vars["point_id"] = point.id;
  vars["run_id"] = std::to_string(run.run_id);
  vars["repetition"] = std::to_string(run.repetition);
  vars["attempt"] = std::to_string(run.attempt);
  vars["run_dir"] = run.run_dir;
  vars["experiment_dir"] = run.experiment_dir;
  vars["launch_dir"] = run.launch_dir;
  return vars;
}

std::string run_workdir(const spec::Workdir& workdir, const std::optional<templating::Template>& path,
                        const templating::Variables& vars, const RunContext& run) {
  using Kind = spec::Workdir::Kind;
  switch (workdir.kind) {
    case Kind::experiment:  // a campaign from before the directories were recorded: where its runs ran then
      return run.experiment_dir.empty() ? run.run_dir : run.experiment_dir;
    case Kind::launch:
      return run.launch_dir;
    case Kind::run:
      return run.run_dir;
    case Kind::path:
      break;
  }
  if (!path) throw Error(ErrorKind::internal, "a workdir path without its compiled template");
  const std::filesystem::path rendered = path->render(vars, templating::Escape::none);
  return (rendered.is_absolute() ? rendered : std::filesystem::path(run.experiment_dir) / rendered)
      .lexically_normal()
      .string();
}

void CampaignPlan::compile_environment(const std::string& template_path) {
  for (const spec::EnvVar& e : experiment_.env) env_.emplace_back(e.secret ? std::string() : e.value, e.where);
  const SecretSetup secret = secret_setup(experiment_.setup);  // literal secrets become "${SWEEP_SECRET_<k>}"
  for (std::size_t i = 0; i < experiment_.setup.size(); ++i) setup_.emplace_back(secret.lines[i], experiment_.setup[i].where);
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
  nic_ = nic_sampling(experiment_.executor, nic_counters_on(n), n.interfaces);
  const auto& names = job_script_.names();
  const bool has = std::find(names.begin(), names.end(), "nic_start") != names.end() &&
                   std::find(names.begin(), names.end(), "nic_end") != names.end();
  if (has || !n.counters || n.where.file.empty()) return;
  fail_at(n.where, fmt::format("the job-script template {} has no {{{{{{nic_start}}}}}} and {{{{{{nic_end}}}}}}, so "
                               "\"network\" would be ignored; put them around {{{{{{command}}}}}}",
                               template_path));
}

void CampaignPlan::compile_telemetry(const std::string& template_path) {
  spec::Telemetry& t = experiment_.telemetry;
  const auto& names = job_script_.names();
  const bool has = std::find(names.begin(), names.end(), "telemetry_start") != names.end() &&
                   std::find(names.begin(), names.end(), "telemetry_end") != names.end();
  if (!has && t.enabled && !t.where.file.empty())
    fail_at(t.where, fmt::format("the job-script template {} has no {{{{{{telemetry_start}}}}}} and {{{{{{telemetry_end}}}}}}, "
                                 "so \"telemetry\" would be ignored; put them around {{{{{{command}}}}}}",
                                 template_path));
  if (!has) t.enabled = false;  // an own template from before telemetry: its runs have none, and ingest expects none
  telemetry_ = telemetry_sampling(experiment_.executor, t, bundled_dir() + "/sweep-telemetry");
}

std::string CampaignPlan::environment(const templating::Variables& vars) const {
  JobEnvironment e;
  for (std::size_t i = 0; i < env_.size(); ++i) {
    const spec::EnvVar& v = experiment_.env[i];
    if (v.secret) e.secrets.push_back(v.name);  // through the job's process environment (runner/job_secrets.h)
    else e.env.emplace_back(v.name, env_[i].render(vars, templating::Escape::none));
  }
  for (const templating::Template& t : setup_) e.setup.push_back(t.render(vars, templating::Escape::shell));
  e.site = experiment_.site;
  return environment_block(e);
}

std::string CampaignPlan::render_script(const matrix::Point& point, const RunContext& run) const {
  auto vars = variables(point, run);
  const std::size_t command = point_command_[index_.at(point.id)];
  const Command& c = commands_[command];
  const std::string rendered = c.command.render(vars, templating::Escape::shell);
  vars["command"] = c.launch + rendered;
  vars["container_check"] = "";
  if (container_->used()) {  // <assignments><launcher with srun options><runtime words><command>
    const auto [container, words] = container_at(point.values, command, vars, run);
    vars["command"] = words.assignments + launch_prefix(experiment_.workloads[command], words.srun_options) +
                      words.before_command + rendered;
    // <results root>/<run root>/<run dir>: the id cache is the results root's, shared by its campaigns.
    const std::string results_root = std::filesystem::path(run.run_dir).parent_path().parent_path().string();
    vars["container_check"] =
        container_check(container, words, {bundled_dir() + "/sweep-image-id", results_root + "/.sweep-image-ids"});
  }
  vars["environment"] = environment(vars);
  vars["nic_start"] = nic_.start;
  vars["nic_end"] = nic_.end;
  vars["telemetry_start"] = telemetry_.start;
  vars["telemetry_end"] = telemetry_.end;
  vars["nccl_version_program"] = nccl_version_program_;
  vars["secret_mask_sed"] = secret_line_sed_script();
  vars["workdir"] = run_workdir(experiment_.workdir, workdir_, vars, run);
  return job_script_.render(vars, templating::Escape::shell);
}

}  // namespace sweep::runner
