#pragma once
// A campaign's plan: the validated experiment, its expanded points and its compiled templates.
// Building a plan touches nothing on disk except reading the job-script template, so an invalid
// experiment (bad expression, unknown template variable, a layout that a bundled program would refuse:
// runner/layout_check.h) fails here, before anything is written.
#include <string>
#include <optional>
#include <unordered_map>
#include <vector>

#include "matrix/expand.h"
#include "matrix/point_limit.h"
#include "runner/bundled_path.h"
#include "runner/container_plan.h"
#include "runner/layout_check.h"
#include "runner/nic_sampling.h"
#include "runner/telemetry_sampling.h"
#include "sched/resources.h"
#include "spec/experiment.h"
#include "store/records.h"
#include "templating/render.h"

namespace sweep::runner {

/// Identifies one attempt of one run when rendering its templates.
struct RunContext {
  std::string campaign;
  std::int64_t run_id = 0;
  int repetition = 0;
  int attempt = 1;
  std::string run_dir;
  /// The campaign's directories (store::CampaignRecord): {{experiment_dir}}, {{launch_dir}} and the
  /// `workdir` they name. An empty experiment_dir is a campaign from before they were recorded: its runs
  /// keep running where they ran then, in their run directories, unless `workdir` says otherwise.
  std::string experiment_dir;
  std::string launch_dir;
};

/// The absolute directory a run's setup lines and workload run in, for `workdir` (spec::Workdir) and
/// the run's variables (a path is rendered with them; a relative one is taken from the experiment's
/// directory). Pure.
std::string run_workdir(const spec::Workdir& workdir, const std::optional<templating::Template>& path,
                        const templating::Variables& vars, const RunContext& run);

/// Where a new campaign's runs will lie, known before anything is written (`sweep plan`, `sweep run`):
/// its run root, <results>/<label> (each run directory is <run root>/<point id>.rep<N>.attempt<N>,
/// runner/campaign_setup.h), and the directories its `workdir` may name. With a container, the plan binds
/// them at every point as a run would and refuses a path the runtime cannot bind. Empty: not checked.
struct PlanDirs {
  std::string run_root;
  std::string experiment_dir;
  std::string launch_dir;
};

/// What a plan is built for: `sweep run` needs the bundled programs built and keeps every point;
/// `sweep plan` checks everything else that run would refuse, on a machine that may not have built
/// them, point by point as the matrix streams, and keeps none (points() is empty): a plan of a million
/// points stays as small as one of ten. `sweep plan --estimate` checks as `check` does but keeps every
/// point, under run's limit on their number, for the forecast (docs/forecasts.md).
enum class PlanUse { run, check, estimate };

/// The most runs a new campaign records at its start (points x repetitions), unless --max-points is
/// larger: 100,000 points x 10,000 repetitions would be a database of 10^9 runs.
inline constexpr std::uint64_t kMaxStartRuns = 1'000'000;

class CampaignPlan {
 public:
  /// Expands `experiment` and compiles its command and the executor's job-script template
  /// (`template_dir`/<executor>/run.sh.mustache). Throws Error(invalid_experiment), before anything is
  /// written, for a template (command, bundled args, env, setup, resources, the job script) that uses
  /// an undefined variable, pointing at the template; for a point whose rendered resources are not
  /// valid values (sched/resources.h, spec/resource_notation.h) or whose `escalate` could not scale
  /// them (runner/escalation.h); for a point whose launcher the executor cannot start (srun or
  /// torchrun-env on the local executor: runner/launchers.h); for a container that cannot run at a point
  /// (runner/container_plan.h); for a layout a bundled program would refuse; and, for PlanUse::run,
  /// for a bundled program that is not built; and, for PlanUse::run, for a matrix of more than
  /// `max_points` points (matrix/point_limit.h: at once from the axes' sizes where they decide it, else as
  /// soon as the walk kept one too many). Throws Error(interrupted) when a stop is requested during the
  /// walk (runner/stop.h).
  CampaignPlan(spec::Experiment experiment, const std::string& template_dir, PlanUse use = PlanUse::run,
               std::uint64_t max_points = matrix::kDefaultMaxPoints, const PlanDirs& dirs = {});

  const spec::Experiment& experiment() const { return experiment_; }
  const matrix::Schema& schema() const { return schema_; }
  const std::vector<matrix::Point>& points() const { return points_; }
  std::size_t run_count() const { return points_.size() * static_cast<std::size_t>(experiment_.repetitions); }

  /// The points as database rows (parameters and derived values with their types).
  std::vector<store::PointRecord> point_records() const;
  /// The point with this id; Error(internal) if it is not in the plan.
  const matrix::Point& point(const std::string& point_id) const;

  /// The rendered job script for one attempt of a run of `point`.
  std::string render_script(const matrix::Point& point, const RunContext& run) const;

  /// The point's effective resources (sched/resources.h), rendered and checked; a batch scheduler
  /// turns them into its directives, and runs with equal directives share an array.
  std::vector<sched::Resource> resources(const matrix::Point& point) const;
  /// The point's wall-clock limit for a local run: its effective `time` resource (the experiment's,
  /// templated or not, else the site's) in seconds; nullopt when it sets none or UNLIMITED.
  std::optional<double> timeout_s(const matrix::Point& point) const;
  /// What asked for GPUs at the point, or store::kNoGpusRequested (runner/gpu_request.h): each run's
  /// `gpus_requested` provenance.
  std::string gpus_requested(const matrix::Point& point) const;
  /// The bundled program the point runs and its args rendered there (runner/layout_check.h); nullopt
  /// when its workload is a command. The analytical model's forecast of a bundled program reads them.
  std::optional<std::pair<std::string, spec::BundledValues>> bundled_args(const matrix::Point& point) const;
  /// The array-script template of a batch executor (templates/<executor>/array.sh.mustache); loaded
  /// only for those, Error(internal) otherwise.
  const templating::Template& array_script() const;

 private:
  /// Whether the point (its values, and its workload commands_[command]) asks for GPUs (runner/gpu_request.h).
  std::string gpus_requested_at(std::span<const Value> values, std::size_t command) const;
  /// The point's container rendered for `run` (plan time: an empty RunContext), and its words.
  std::pair<RenderedContainer, ContainerWords> container_at(std::span<const Value> values, std::size_t command,
                                                            const templating::Variables& vars, const RunContext& run) const;
  /// {{{container_check}}} must be in the job-script template when a container is used; Error otherwise.
  void check_container_section(const std::string& template_path) const;
  /// The point's parameters and derived values, and the run variables of `run`.
  templating::Variables variables(const matrix::Point& point, const RunContext& run) const;

  /// One workload entry, compiled.
  struct Command {
    templating::Template command;
    std::string launch;  // the launcher's words before the command
  };

  /// The `env` and `setup` of the experiment rendered for one run (runner/job_environment.h).
  std::string environment(const templating::Variables& vars) const;
  /// Error(invalid_experiment) at the launcher's line when `w`, the point's workload, has a launcher the
  /// executor cannot start (runner/launchers.h: srun or torchrun-env on the local executor).
  void check_launcher(const spec::Workload& w, std::span<const Value> values) const;
  /// With a container: the command rendered at the point is one simple command (templating/simple_command.h).
  void check_simple_command(std::span<const Value> values, std::size_t command) const;
  /// Renders the point's resources and, as a retry would, scales those `escalate` names; Error as the
  /// constructor says.
  void check_resources(std::span<const Value> values) const;
  /// The point's `resources` rendered (the values of a point in schema order).
  std::vector<sched::Resource> resources_at(std::span<const Value> values) const;
  /// Compiles `env` and `setup`; Error(invalid_experiment) for an undefined variable in them, or when
  /// the experiment sets either but the job-script template has no {{{environment}}} to put them in.
  void compile_environment(const std::string& template_path);
  /// Renders the network sampling; throws Error when the experiment sets `network` with counters on but
  /// the job-script template has no {{{nic_start}}} and {{{nic_end}}}.
  void compile_network(const std::string& template_path);
  /// Renders the telemetry sampling; throws Error when the experiment (or the site) asks for telemetry
  /// but the job-script template has no {{{telemetry_start}}} and {{{telemetry_end}}}; without them and
  /// without that ask, telemetry is turned off in experiment() (a template from before it).
  void compile_telemetry(const std::string& template_path);

  spec::Experiment experiment_;
  matrix::Schema schema_;
  std::vector<matrix::Point> points_;
  std::unordered_map<std::string, std::size_t> index_;  // point id -> position in points_
  std::vector<Command> commands_;        // experiment_.workloads[i], compiled
  std::vector<std::size_t> point_command_;  // points_[i] runs commands_[point_command_[i]]
  std::optional<LayoutCheck> layout_;       // the bundled programs' args, compiled
  templating::Template job_script_;
  std::vector<templating::Template> resources_;  // experiment_.resources[i], compiled
  std::vector<templating::Template> env_;        // experiment_.env[i].value, compiled
  std::vector<templating::Template> setup_;      // experiment_.setup[i].text, compiled
  std::optional<templating::Template> array_script_;
  std::optional<templating::Template> workdir_;  // experiment_.workdir.path, compiled (Kind::path only)
  NicSampling nic_;  // {{{nic_start}}} and {{{nic_end}}}, the same for every run
  /// {{{telemetry_start}}} and {{{telemetry_end}}} with the bundled sampler (runner/telemetry_sampling.h);
  /// empty when the experiment's (or the site's) `telemetry` is off. A sampler that is not built does not
  /// refuse the plan: each run goes on without telemetry and says why.
  TelemetrySampling telemetry_;
  std::string nccl_version_program_ = bundled_dir() + "/nccl-version";  // in the Slurm job script's provenance
  /// `container` (the site's merged in), compiled; its words go between the launcher and the command
  /// and its check into {{{container_check}}} (runner/container_check.h).
  std::optional<ContainerPlan> container_;
};

}  // namespace sweep::runner
