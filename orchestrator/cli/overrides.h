#pragma once
#include <string>
#include <vector>

#include "spec/load.h"

namespace sweep::cli {

/// Splits each "key=value" at the first '='; Error(usage) naming the argument when there is none.
std::vector<spec::Override> parse_overrides(const std::vector<std::string>& sets);

}  // namespace sweep::cli
