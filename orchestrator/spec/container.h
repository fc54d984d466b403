#pragma once
// `container`: the image each run's workload runs in, and the runtime that starts it (docs/containers.md).
// The experiment's key and the site file's take the same settings; merge_container applies the rule
// between them. The text values (image, mounts, env values, args) are Mustache templates over the
// point's parameters, rendered by runner/ (runner/container_launch.h). Pure.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace sweep::spec {

/// The runtimes `container.runtime` may name; runner/container_launch.cpp has one row for each.
inline constexpr std::array<std::string_view, 5> kContainerRuntimes{"apptainer", "singularity", "pyxis", "podman",
                                                                    "charliecloud"};

/// One `mounts` entry, SRC[:DST[:ro]], split where written (a template's {{name}} holds no ':').
struct ContainerMount {
  std::string source;       // a template
  std::string destination;  // a template; "" = the source's path
  bool read_only = false;
  SourceLocation where;
};

/// One `env` entry: set inside the container; the value is a template.
struct ContainerEnv {
  std::string name;
  std::string value;
  SourceLocation where;
};

/// One `args` entry: an extra word of the runtime's, put before the image; a template.
struct ContainerArg {
  std::string text;
  SourceLocation where;
};

struct Container {
  bool none = false;    // `container: none`: no container, whatever the site file says
  std::string runtime;  // "" = not given; else one of kContainerRuntimes
  SourceLocation runtime_where;
  std::string image;  // a template; "" = not given
  SourceLocation image_where;
  std::optional<bool> gpus;  // not given: true where the point asks for GPUs (runner/gpu_request.h)
  SourceLocation gpus_where;
  std::vector<ContainerMount> mounts;
  std::vector<ContainerEnv> env;
  std::vector<ContainerArg> args;
  SourceLocation where;  // the key's value; no file: not given

  /// Whether runs use a container: the (merged) settings name an image and are not `none`.
  bool used() const { return !none && !image.empty(); }
};

/// The experiment's `container` over the site's defaults: runtime, image and gpus from the experiment
/// where it gives them, else the site's; mounts and args the site's entries then the experiment's; env
/// the site's entries whose name the experiment does not set, then the experiment's. An experiment's
/// `none` stays none. Pure.
Container merge_container(const Container& site, const Container& experiment);

/// Error(invalid_experiment) at the image's file:line:column when `c` names an image but no runtime
/// (after the merge: the site's runtime counts). Pure.
void check_container_runtime(const Container& c);

}  // namespace sweep::spec
