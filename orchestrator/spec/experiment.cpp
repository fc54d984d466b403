#include "spec/experiment.h"

namespace sweep::spec {

std::vector<std::string> Experiment::parameter_names() const {
  std::vector<std::string> out;
  for (const Axis& axis : matrix) out.insert(out.end(), axis.param_names.begin(), axis.param_names.end());
  for (const Derived& d : derived) out.push_back(d.name);
  return out;
}

}  // namespace sweep::spec
