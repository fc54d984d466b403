#include "spec/container.h"

#include <algorithm>
#include <string>

namespace sweep::spec {

Container merge_container(const Container& site, const Container& experiment) {
  if (experiment.none) return experiment;
  Container out = experiment;
  if (out.runtime.empty()) {
    out.runtime = site.runtime;
    out.runtime_where = site.runtime_where;
  }
  if (out.image.empty()) {
    out.image = site.image;
    out.image_where = site.image_where;
  }
  if (!out.gpus) {
    out.gpus = site.gpus;
    out.gpus_where = site.gpus_where;
  }
  out.mounts = site.mounts;
  out.mounts.insert(out.mounts.end(), experiment.mounts.begin(), experiment.mounts.end());
  out.args = site.args;
  out.args.insert(out.args.end(), experiment.args.begin(), experiment.args.end());
  out.env.clear();
  for (const ContainerEnv& v : site.env)
    if (std::none_of(experiment.env.begin(), experiment.env.end(),
                     [&](const ContainerEnv& e) { return e.name == v.name; }))
      out.env.push_back(v);
  out.env.insert(out.env.end(), experiment.env.begin(), experiment.env.end());
  if (out.where.file.empty()) out.where = site.where;
  return out;
}

void check_container_runtime(const Container& c) {
  if (c.used() && c.runtime.empty()) {
    std::string names;
    for (const std::string_view r : kContainerRuntimes) names += (names.empty() ? "" : ", ") + std::string(r);
    fail_at(c.image_where,
            "container.image is given, but no container.runtime (in the experiment or the site file): "
            "name one of " +
                names);
  }
}

}  // namespace sweep::spec
