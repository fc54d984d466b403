#pragma once
// Printing an expansion for `sweep plan`: an aligned table, CSV, or versioned JSON. Streams points, so
// memory stays flat for any matrix size.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/expand.h"

namespace sweep::matrix {

enum class PlanFormat { table, json, csv };

/// The JSON document's format tag and version ({"format": "sweep-plan", "version": 2, ...}; 2: the
/// forecast under "estimate" with `--estimate`).
inline constexpr int kPlanJsonVersion = 2;

/// Looks a format up by name; Error(usage) listing the valid names otherwise.
PlanFormat plan_format_from_name(std::string_view name);
std::vector<std::string> plan_format_names();

/// Writes every point of `expansion` (with its id and ordinal) and the totals to `out`.
/// `repetitions` multiplies points into runs in the totals. `estimate`: a JSON object the JSON document
/// carries as "estimate" (`sweep plan --estimate`, forecast/render.h); "" leaves it out.
void write_plan(std::FILE* out, const std::string& experiment_name, const Expansion& expansion,
                int repetitions, PlanFormat format, std::string_view estimate = {});

}  // namespace sweep::matrix
