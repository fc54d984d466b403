#pragma once
// A campaign's container, compiled (spec::Container after the site's merge): its templates checked
// against the point's names when the plan is built, its refusals made then, and each run's container
// rendered from them (runner/container_launch.h). Used by runner::CampaignPlan only.
#include <optional>
#include <string>
#include <vector>

#include "runner/container_launch.h"
#include "spec/experiment.h"
#include "templating/render.h"

namespace sweep::runner {

/// `sweep plan`'s line for a used container: "container: apptainer, image /img/pt-{{tag}}.sif, gpus where
/// the point asks for them, 2 mounts of the user's (+ sweep's binds); each run's words: sweep run --dry-run".
/// "" when none is used. Pure.
std::string container_summary(const spec::Container& c);

class ContainerPlan {
 public:
  /// Compiles `exp.container`. Throws Error(invalid_experiment): for a template using a name not in
  /// `names`, at the template; for an image without a runtime, at the image; for a runtime that a
  /// workload entry's launcher cannot start (pyxis without srun: container_launcher_refusal) or that
  /// has no read-only bind for a `:ro` mount, at the runtime (its file:line:column, the site's or the
  /// experiment's). Nothing when no container is used.
  ContainerPlan(const spec::Experiment& exp, const std::vector<std::string>& names);

  bool used() const { return used_; }

  /// The container of one run: `vars` its template variables (run variables included), `workload` the
  /// point's, `asks_for_gpus` whether the point asks for GPUs (the default of `gpus`), `run_dir` and
  /// `workdir` the run's directories ("" at a plan time without runner::PlanDirs: not bound), `bundled_dir`
  /// the bundled programs'. Throws Error(invalid_experiment) at a mount that renders to a relative path.
  RenderedContainer render(const templating::Variables& vars, const spec::Workload& workload, bool asks_for_gpus,
                           const std::string& run_dir, const std::string& workdir,
                           const std::string& bundled_dir) const;

  /// container_words(c), an error of it (a value the runtime would take apart) raised at the container's
  /// location with `point` (matrix::describe_point) in its text.
  ContainerWords words(const RenderedContainer& c, const std::string& point) const;

 private:
  struct Mount {
    templating::Template source;
    std::optional<templating::Template> destination;
    bool read_only;
    SourceLocation where;
  };
  bool used_ = false;
  spec::Container container_;
  std::optional<templating::Template> image_;
  std::vector<Mount> mounts_;
  std::vector<templating::Template> env_;   // container_.env[i].value
  std::vector<templating::Template> args_;  // container_.args[i].text
  std::vector<std::string> passthrough_;    // the top-level env's names (podman takes them in)
};

}  // namespace sweep::runner
