#include "runner/container_plan.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "util/error.h"

namespace sweep::runner {

namespace {

/// The host's search paths: a top-level `env` that sets one (a host tool on PATH) does not pass it into
/// the container over the image's own (docs/containers.md).
constexpr std::array<std::string_view, 9> kHostSearchPaths{
    "PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONPATH", "PYTHONHOME", "CPATH", "LIBRARY_PATH", "PKG_CONFIG_PATH", "MANPATH"};

templating::Template compiled(const std::string& text, const SourceLocation& where,
                              const std::vector<std::string>& names) {
  templating::Template t(text, where);
  t.check_names(names);
  return t;
}

/// `text`, a rendered container value, refused at `where` when a parameter put a line break in it (as
/// spec/load_container.cpp refuses one written in the value: provenance is one value a line).
std::string one_line(std::string text, const SourceLocation& where) {
  if (text.find_first_of("\n\r") != std::string::npos)
    fail_at(where, fmt::format("the container value renders to \"{}\", which holds a line break: a parameter used in "
                               "container must hold one line",
                               text));
  return text;
}

}  // namespace

std::string container_summary(const spec::Container& c) {
  if (!c.used()) return "";
  const std::string gpus = !c.gpus ? "gpus where the point asks for them" : *c.gpus ? "gpus: true" : "gpus: false";
  return fmt::format(
      "container: {}, image {}, {}, {} mount{} of the experiment's and the site's (and sweep's binds: the "
      "run directory, the working directory); each run's words: sweep run --dry-run",
      c.runtime, c.image, gpus, c.mounts.size(), c.mounts.size() == 1 ? "" : "s");
}

ContainerPlan::ContainerPlan(const spec::Experiment& exp, const std::vector<std::string>& names)
    : container_(exp.container) {
  spec::check_container_runtime(container_);
  used_ = container_.used();
  if (!used_) return;
  for (const spec::Workload& w : exp.workloads)
    if (const auto refusal = container_launcher_refusal(container_.runtime, w.launcher))
      fail_at(container_.runtime_where,
              fmt::format("{} (the workload at {}); Pyxis runs only in srun's tasks", *refusal, w.where.str()));
  image_.emplace(compiled(container_.image, container_.image_where, names));
  for (const spec::ContainerMount& m : container_.mounts) {
    if (m.read_only)
      if (const auto refusal = container_read_only_refusal(container_.runtime)) fail_at(m.where, *refusal);
    std::optional<templating::Template> destination;
    if (!m.destination.empty()) destination.emplace(compiled(m.destination, m.where, names));
    mounts_.push_back({compiled(m.source, m.where, names), std::move(destination), m.read_only, m.where});
  }
  for (const spec::ContainerEnv& e : container_.env) env_.push_back(compiled(e.value, e.where, names));
  for (const spec::ContainerArg& a : container_.args) args_.push_back(compiled(a.text, a.where, names));
  for (const spec::EnvVar& v : exp.env)
    if (std::find(kHostSearchPaths.begin(), kHostSearchPaths.end(), v.name) == kHostSearchPaths.end())
      passthrough_.push_back(v.name);
}

RenderedContainer ContainerPlan::render(const templating::Variables& vars, const spec::Workload& workload,
                                        bool asks_for_gpus, const std::string& run_dir, const std::string& workdir,
                                        const std::string& bundled_dir) const {
  using templating::Escape;
  RenderedContainer c;
  c.runtime = container_.runtime;
  c.image = one_line(image_->render(vars, Escape::none), container_.image_where);
  c.gpus = container_.gpus.value_or(asks_for_gpus);
  c.mounts = automatic_binds(run_dir, workdir, workload.program.empty() ? std::string() : bundled_dir);
  for (const Mount& m : mounts_) {
    std::string source = one_line(m.source.render(vars, Escape::none), m.where);
    std::string destination = m.destination ? one_line(m.destination->render(vars, Escape::none), m.where) : source;
    for (const std::string* path : {&source, &destination})
      if (path->empty() || path->front() != '/')
        fail_at(m.where, fmt::format("the mount renders to \"{}\", not an absolute path (podman would take a relative "
                                     "source for a named volume): a mount's parameters must hold absolute paths",
                                     *path));
    c.mounts.push_back({std::move(source), std::move(destination), m.read_only});
  }
  for (std::size_t i = 0; i < env_.size(); ++i)
    c.env.emplace_back(container_.env[i].name, one_line(env_[i].render(vars, Escape::none), container_.env[i].where));
  for (std::size_t i = 0; i < args_.size(); ++i)
    c.args.push_back(one_line(args_[i].render(vars, Escape::none), container_.args[i].where));
  c.workdir = workdir;
  c.passthrough = passthrough_;
  return c;
}

ContainerWords ContainerPlan::words(const RenderedContainer& c, const std::string& point) const {
  if (c.image.empty())
    fail_at(container_.image_where, fmt::format("container.image renders empty at the point {}", point));
  // After the runtime's options comes the image: one that begins with '-' would be taken for another
  // option (`podman run ... --privileged`).
  if (c.image.front() == '-')
    fail_at(container_.image_where, fmt::format("container.image renders to \"{}\" at the point {}, which begins "
                                                "with '-': the runtime would take it for an option, not an image",
                                                c.image, point));
  try {
    return container_words(c);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::invalid_experiment) throw;
    fail_at(container_.where, fmt::format("{} (at the point {})", e.message(), point));
  }
}

}  // namespace sweep::runner
